/**
 * The fuzz worlds in Rapier and Jolt (the anchor for footing's failure
 * counts): the floor box, the terrain TriangleMesh and the rigid bodies with
 * the same shapes, masses, poses, velocities, friction and restitution, at
 * each engine's default settings (no CCD; Jolt caps spin at 0.25π/dt and
 * speed at 500 m/s, Rapier caps nothing). Left out: characters, cloth and
 * rope (footing's own). Both build the joints so that every joint starts
 * without error: Jolt from world-space constraint settings (buildJoltJoint),
 * Rapier with each body's local joint frame set from the world frame at the
 * start poses (buildRapierJoint), since its JointData constructors take one
 * local axis for both bodies.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import initJolt from 'jolt-physics';
import type { Vec3 } from '../../src/index';
import { inverseRotate, multiplyConjugateA, quat, type Quat } from '../../src/math/quat';
import { frameFromAxes } from '../../src/joints/joint';
import { BODY_STRIDE, footingCompound, motorPowerOf, type FuzzInstance } from './engines';
import { smallestSize, type BodySpec, type ConvexSpec, type FuzzWorldSpec, type JointSpec } from './generator';

const PEER_OMITTED = 'characters, cloth and rope; a HeightField terrain is built as its triangle mesh';
const RAPIER_JOINT_OMITTED = '; joints: a rod distance joint is a rope (maximum length only), soft six-dof limits are hard, a cone-twist\'s cone is a ' +
  'pyramid of two swing limits, joint friction is a velocity motor towards 0 on each free axis without a motor';
const JOLT_OMITTED = 'characters, cloth and rope; a HeightField terrain is built as its triangle mesh; jointed bodies collide with each other (Jolt\'s default; footing\'s is collideConnected false ' +
  'unless the spec says otherwise); ball joints have no friction torque (Jolt\'s PointConstraint has none)';

let rapierReady: Promise<void> | undefined;

/**
 * Where a peer puts a body: a compound at footing's body pose (its parts'
 * centre of mass, principal axes), with its parts at their poses in that frame
 * (footing's Compound.children, same order as the spec's), so the peers'
 * bodies report the frame footing's do and the checks read them alike.
 */
function peerBodyPose(s: BodySpec): { position: Vec3; rotation: { x: number; y: number; z: number; w: number } } {
  if (s.shape.kind !== 'compound') return { position: s.position, rotation: s.rotation };
  const position = { x: 0, y: 0, z: 0 }, rotation = { x: 0, y: 0, z: 0, w: 1 };
  footingCompound(s.shape).bodyPose(s.position, s.rotation, position, rotation);
  return { position, rotation };
}

/**
 * Body-frame diagonal of an inertia given as principal moments I and the
 * rotation q of the principal frame: (R diag(I) Rᵀ)_ii = Σ_k R_ik² I_k. A
 * compound's body frame is footing's principal frame, so the off-diagonal
 * terms are round-off; the peers may order or turn equal moments differently.
 */
function bodyFrameDiagonal(I: Vec3, q: { x: number; y: number; z: number; w: number }, out: Float64Array, o: number): void {
  const { x, y, z, w } = q;
  const R = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
  for (let i = 0; i < 3; i++) out[o + i] = R[i]![0]! ** 2 * I.x + R[i]![1]! ** 2 * I.y + R[i]![2]! ** 2 * I.z;
}

function rapierCollider(s: ConvexSpec): RAPIER.ColliderDesc {
  switch (s.kind) {
    case 'sphere': return RAPIER.ColliderDesc.ball(s.radius);
    case 'box': return RAPIER.ColliderDesc.cuboid(s.halfExtents.x, s.halfExtents.y, s.halfExtents.z);
    case 'capsule': return RAPIER.ColliderDesc.capsule(s.halfHeight, s.radius);
    case 'cylinder': return RAPIER.ColliderDesc.cylinder(s.halfHeight, s.radius);
    case 'hull': {
      const desc = RAPIER.ColliderDesc.convexHull(Float32Array.from(s.points.flatMap((p) => [p.x, p.y, p.z])));
      if (!desc) throw new Error('fuzz: Rapier refused a convex hull');
      return desc;
    }
  }
}

/** The per-axis calls of Rapier's raw joint set (its RawJointAxis numbers the axes as JointAxis does). */
interface RapierRawJoints {
  jointSetLimits(handle: number, axis: number, min: number, max: number): void;
  jointConfigureMotorVelocity(handle: number, axis: number, targetVel: number, factor: number): void;
  jointSetMotorMaxForce(handle: number, axis: number, maxForce: number): void;
}

/** How hard a Rapier velocity motor (acceleration-based: a = factor · velocity error) pulls towards its target; the force cap does the rest. */
const RAPIER_MOTOR_FACTOR = 1000;

/**
 * One spec joint in Rapier. The joint frame in world space (X = the spec's
 * axis) is taken into each body's local frame at the start poses, so the two
 * frames coincide and the joint starts without error, as in footing and Jolt.
 */
function buildRapierJoint(world: RAPIER.World, j: JointSpec, a: RAPIER.RigidBody, b: RAPIER.RigidBody): RAPIER.ImpulseJoint {
  const A = RAPIER.JointAxis;
  const pa = a.translation(), qa = a.rotation(), pb = b.translation(), qb = b.rotation();
  const local = (p: Vec3, q: Quat, w: Vec3): Vec3 => inverseRotate({ x: 0, y: 0, z: 0 }, q, { x: w.x - p.x, y: w.y - p.y, z: w.z - p.z });
  const anchorB = j.kind === 'distance' ? j.anchorB! : j.anchor;
  const la = local(pa, qa, j.anchor), lb = local(pb, qb, anchorB);
  // The joint frame in world space (X = the spec's axis), then in each body's frame.
  const frame = frameFromAxes(quat(), j.axis ?? { x: 1, y: 0, z: 0 });
  const fa = multiplyConjugateA(quat(), qa, frame), fb = multiplyConjugateA(quat(), qb, frame);
  const X = { x: 1, y: 0, z: 0 };
  let data: RAPIER.JointData;
  // Axes with a velocity motor or friction (target speed 0), each [axis, target, force cap].
  const motors: [RAPIER.JointAxis, number, number][] = [];
  const limits: [RAPIER.JointAxis, number, number][] = [];
  switch (j.kind) {
    case 'ball': data = RAPIER.JointData.spherical(la, lb); break;
    case 'fixed': data = RAPIER.JointData.fixed(la, fa, lb, fb); break;
    case 'hinge':
      data = RAPIER.JointData.revolute(la, lb, X);
      if (j.lowerAngle !== undefined) limits.push([A.AngX, j.lowerAngle, j.upperAngle!]);
      if (j.maxMotorTorque !== undefined) motors.push([A.AngX, j.motorSpeed!, j.maxMotorTorque]);
      else if (j.frictionTorque > 0) motors.push([A.AngX, 0, j.frictionTorque]);
      break;
    case 'coneTwist': {
      data = RAPIER.JointData.spherical(la, lb);
      const swing = j.swingLimit ?? Math.PI / 4;
      limits.push([A.AngX, j.twistLower ?? -Math.PI / 4, j.twistUpper ?? Math.PI / 4], [A.AngY, -swing, swing], [A.AngZ, -swing, swing]);
      if (j.frictionTorque > 0) motors.push([A.AngX, 0, j.frictionTorque], [A.AngY, 0, j.frictionTorque], [A.AngZ, 0, j.frictionTorque]);
      break;
    }
    case 'slider':
      data = RAPIER.JointData.prismatic(la, lb, X);
      if (j.lowerLimit !== undefined) limits.push([A.LinX, j.lowerLimit, j.upperLimit!]);
      if (j.maxMotorTorque !== undefined) motors.push([A.LinX, j.motorSpeed!, j.maxMotorTorque]);
      else if ((j.frictionForce ?? 0) > 0) motors.push([A.LinX, 0, j.frictionForce!]);
      break;
    case 'sixDof': {
      let mask = 0;
      j.axes!.forEach((ax, k) => {
        if (ax.mode === 'locked') mask |= 1 << k;
        else if (ax.mode === 'limited') limits.push([k as RAPIER.JointAxis, ax.min, ax.max]);
        const friction = ax.friction + (k >= 3 ? j.frictionTorque : 0);
        if (ax.mode !== 'locked' && ax.maxMotorForce > 0) motors.push([k as RAPIER.JointAxis, ax.motorSpeed, ax.maxMotorForce]);
        else if (ax.mode !== 'locked' && friction > 0) motors.push([k as RAPIER.JointAxis, 0, friction]);
      });
      data = RAPIER.JointData.generic(la, lb, X, mask as RAPIER.JointAxesMask);
      break;
    }
    case 'distance': {
      const d = Math.hypot(anchorB.x - j.anchor.x, anchorB.y - j.anchor.y, anchorB.z - j.anchor.z);
      if (j.frequency !== undefined) {
        // Acceleration-based spring: stiffness ω², damping 2ζω.
        const w = 2 * Math.PI * j.frequency;
        data = RAPIER.JointData.spring(d, w * w, 2 * (j.dampingRatio ?? 1) * w, la, lb);
      } else {
        data = RAPIER.JointData.rope(j.maxLength ?? d, la, lb);
      }
      break;
    }
  }
  const joint = world.createImpulseJoint(data, a, b, true);
  if (j.kind !== 'ball' && j.kind !== 'distance') {
    joint.setLocalFrame1(la, fa);
    joint.setLocalFrame2(lb, fb);
  }
  joint.setContactsEnabled(j.collideConnected);
  // Limits and motors on any axis: the typed wrappers expose them for one-axis joints only.
  const raw = (world.impulseJoints as unknown as { raw: RapierRawJoints }).raw;
  for (const [ax, lo, hi] of limits) raw.jointSetLimits(joint.handle, ax, lo, hi);
  for (const [ax, target, cap] of motors) {
    raw.jointConfigureMotorVelocity(joint.handle, ax, target, RAPIER_MOTOR_FACTOR);
    raw.jointSetMotorMaxForce(joint.handle, ax, cap);
  }
  return joint;
}

export async function buildRapier(spec: FuzzWorldSpec): Promise<FuzzInstance> {
  rapierReady ??= RAPIER.init();
  await rapierReady;
  const world = new RAPIER.World(new RAPIER.Vector3(0, -9.81, 0));
  world.timestep = spec.dt;
  const fl = spec.floor;
  const floor = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(fl.position.x, fl.position.y, fl.position.z));
  world.createCollider(RAPIER.ColliderDesc.cuboid(fl.halfExtents.x, fl.halfExtents.y, fl.halfExtents.z).setFriction(fl.friction).setRestitution(fl.restitution), floor);
  const t = spec.terrain;
  const terrain = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
  world.createCollider(RAPIER.ColliderDesc.trimesh(new Float32Array(t.positions), new Uint32Array(t.indices)).setFriction(t.friction).setRestitution(t.restitution), terrain);
  const n = spec.bodies.length;
  const bodies: RAPIER.RigidBody[] = [];
  const inertia = new Float64Array(3 * n), masses = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const s = spec.bodies[i]!;
    const pose = peerBodyPose(s);
    const desc = RAPIER.RigidBodyDesc.dynamic()
      .setTranslation(pose.position.x, pose.position.y, pose.position.z)
      .setRotation(pose.rotation)
      .setLinvel(s.linearVelocity.x, s.linearVelocity.y, s.linearVelocity.z)
      .setAngvel(s.angularVelocity);
    const body = world.createRigidBody(desc);
    if (s.shape.kind === 'compound') {
      // One collider per part, the mass shared by volume (uniform density, as footing's Compound).
      const parts = footingCompound(s.shape).children;
      let volume = 0;
      for (const c of parts) volume += c.shape.volume();
      s.shape.children.forEach((child, k) => {
        const c = parts[k]!;
        world.createCollider(rapierCollider(child.shape).setTranslation(c.position.x, c.position.y, c.position.z).setRotation(c.rotation)
          .setMass(s.mass * c.shape.volume() / volume).setFriction(s.friction).setRestitution(s.restitution), body);
      });
    } else {
      world.createCollider(rapierCollider(s.shape).setMass(s.mass).setFriction(s.friction).setRestitution(s.restitution), body);
    }
    body.recomputeMassPropertiesFromColliders();
    const I = body.principalInertia();
    if (s.shape.kind === 'compound') bodyFrameDiagonal(I, body.principalInertiaLocalFrame(), inertia, 3 * i);
    else { inertia[3 * i] = I.x; inertia[3 * i + 1] = I.y; inertia[3 * i + 2] = I.z; }
    masses[i] = body.mass();
    bodies.push(body);
  }
  for (const j of spec.jointSpecs) buildRapierJoint(world, j, j.a < 0 ? floor : bodies[j.a]!, bodies[j.b]!);
  let disposed = false;
  return {
    engine: 'rapier', inertia, masses, jointCount: spec.jointSpecs.length, motorPower: motorPowerOf(spec),
    omitted: PEER_OMITTED + (spec.jointSpecs.length > 0 ? RAPIER_JOINT_OMITTED : ''),
    particleCapacity: 0, characterCount: 0,
    step(): void {
      world.step();
    },
    readBodies(out: Float64Array): void {
      for (let i = 0; i < n; i++) {
        const b = bodies[i]!, o = BODY_STRIDE * i;
        const p = b.translation(), q = b.rotation(), v = b.linvel(), w = b.angvel();
        out[o] = p.x; out[o + 1] = p.y; out[o + 2] = p.z;
        out[o + 3] = q.x; out[o + 4] = q.y; out[o + 5] = q.z; out[o + 6] = q.w;
        out[o + 7] = v.x; out[o + 8] = v.y; out[o + 9] = v.z;
        out[o + 10] = w.x; out[o + 11] = w.y; out[o + 12] = w.z;
      }
    },
    readParticles: () => 0,
    readCharacters(): void {},
    dispose(): void {
      if (!disposed) world.free();
      disposed = true;
    },
  };
}

type JoltModule = Awaited<ReturnType<typeof initJolt>>;
let joltPromise: Promise<JoltModule> | undefined;

/** Any unit vector perpendicular to unit a. */
function perpendicular(a: Vec3): Vec3 {
  const t = Math.abs(a.x) < 0.6 ? { x: 1, y: 0, z: 0 } : { x: 0, y: 1, z: 0 };
  const c = { x: a.y * t.z - a.z * t.y, y: a.z * t.x - a.x * t.z, z: a.x * t.y - a.y * t.x };
  const l = Math.hypot(c.x, c.y, c.z);
  return { x: c.x / l, y: c.y / l, z: c.z / l };
}

type JoltBody = InstanceType<JoltModule['Body']>;

/** One spec joint as a Jolt constraint, in world space at the start poses. */
function buildJoltJoint(Jolt: JoltModule, j: JointSpec, a: JoltBody, b: JoltBody): InstanceType<JoltModule['TwoBodyConstraint']> {
  const temps: (InstanceType<JoltModule['RVec3']> | InstanceType<JoltModule['Vec3']>)[] = [];
  const r = (v: Vec3): InstanceType<JoltModule['RVec3']> => { const o = new Jolt.RVec3(v.x, v.y, v.z); temps.push(o); return o; };
  const v3 = (v: Vec3): InstanceType<JoltModule['Vec3']> => { const o = new Jolt.Vec3(v.x, v.y, v.z); temps.push(o); return o; };
  let settings: InstanceType<JoltModule['TwoBodyConstraintSettings']>;
  switch (j.kind) {
    case 'ball': {
      const s = new Jolt.PointConstraintSettings();
      s.mSpace = Jolt.EConstraintSpace_WorldSpace;
      s.mPoint1 = r(j.anchor); s.mPoint2 = r(j.anchor);
      settings = s;
      break;
    }
    case 'fixed': {
      const s = new Jolt.FixedConstraintSettings();
      s.mSpace = Jolt.EConstraintSpace_WorldSpace;
      s.mPoint1 = r(j.anchor); s.mPoint2 = r(j.anchor);
      settings = s;
      break;
    }
    case 'hinge': {
      const s = new Jolt.HingeConstraintSettings();
      s.mSpace = Jolt.EConstraintSpace_WorldSpace;
      const n = perpendicular(j.axis!);
      s.mPoint1 = r(j.anchor); s.mPoint2 = r(j.anchor);
      s.mHingeAxis1 = v3(j.axis!); s.mHingeAxis2 = v3(j.axis!);
      s.mNormalAxis1 = v3(n); s.mNormalAxis2 = v3(n);
      if (j.lowerAngle !== undefined) { s.mLimitsMin = j.lowerAngle; s.mLimitsMax = j.upperAngle!; }
      s.mMaxFrictionTorque = j.frictionTorque;
      if (j.maxMotorTorque !== undefined) {
        s.mMotorSettings.mMinTorqueLimit = -j.maxMotorTorque;
        s.mMotorSettings.mMaxTorqueLimit = j.maxMotorTorque;
      }
      settings = s;
      break;
    }
    case 'coneTwist': {
      const s = new Jolt.SwingTwistConstraintSettings();
      s.mSpace = Jolt.EConstraintSpace_WorldSpace;
      const n = perpendicular(j.axis!);
      s.mPosition1 = r(j.anchor); s.mPosition2 = r(j.anchor);
      s.mTwistAxis1 = v3(j.axis!); s.mTwistAxis2 = v3(j.axis!);
      s.mPlaneAxis1 = v3(n); s.mPlaneAxis2 = v3(n);
      // footing's defaults: a π/4 cone, twist in [−π/4, π/4].
      s.mNormalHalfConeAngle = s.mPlaneHalfConeAngle = j.swingLimit ?? Math.PI / 4;
      s.mTwistMinAngle = j.twistLower ?? -Math.PI / 4;
      s.mTwistMaxAngle = j.twistUpper ?? Math.PI / 4;
      s.mMaxFrictionTorque = j.frictionTorque;
      settings = s;
      break;
    }
    case 'slider': {
      const s = new Jolt.SliderConstraintSettings();
      s.mSpace = Jolt.EConstraintSpace_WorldSpace;
      const n = perpendicular(j.axis!);
      s.mPoint1 = r(j.anchor); s.mPoint2 = r(j.anchor);
      s.mSliderAxis1 = v3(j.axis!); s.mSliderAxis2 = v3(j.axis!);
      s.mNormalAxis1 = v3(n); s.mNormalAxis2 = v3(n);
      if (j.lowerLimit !== undefined) { s.mLimitsMin = j.lowerLimit; s.mLimitsMax = j.upperLimit!; }
      s.mMaxFrictionForce = j.frictionForce ?? 0;
      if (j.maxMotorTorque !== undefined) {
        s.mMotorSettings.mMinForceLimit = -j.maxMotorTorque;
        s.mMotorSettings.mMaxForceLimit = j.maxMotorTorque;
      }
      settings = s;
      break;
    }
    case 'sixDof': {
      // Jolt's swing limits as footing's swingType (pyramid: per axis; cone: elliptical); its swing coordinates differ from footing's.
      const s = new Jolt.SixDOFConstraintSettings();
      s.mSpace = Jolt.EConstraintSpace_WorldSpace;
      const n = perpendicular(j.axis!);
      s.mPosition1 = r(j.anchor); s.mPosition2 = r(j.anchor);
      s.mAxisX1 = v3(j.axis!); s.mAxisX2 = v3(j.axis!);
      s.mAxisY1 = v3(n); s.mAxisY2 = v3(n);
      s.mSwingType = j.swingType === 'cone' ? Jolt.ESwingType_Cone : Jolt.ESwingType_Pyramid;
      const axes = [Jolt.SixDOFConstraintSettings_EAxis_TranslationX, Jolt.SixDOFConstraintSettings_EAxis_TranslationY, Jolt.SixDOFConstraintSettings_EAxis_TranslationZ,
        Jolt.SixDOFConstraintSettings_EAxis_RotationX, Jolt.SixDOFConstraintSettings_EAxis_RotationY, Jolt.SixDOFConstraintSettings_EAxis_RotationZ];
      j.axes!.forEach((a, k) => {
        if (a.mode === 'free') s.MakeFreeAxis(axes[k]!);
        else if (a.mode === 'locked') s.MakeFixedAxis(axes[k]!);
        else s.SetLimitedAxis(axes[k]!, a.min, a.max);
        if (a.limitHertz > 0) s.get_mLimitsSpringSettings(k).mFrequency = a.limitHertz;
        s.set_mMaxFriction(k, a.friction + (k >= 3 ? j.frictionTorque : 0));
        if (a.maxMotorForce > 0) {
          const m = s.get_mMotorSettings(k);
          if (k < 3) { m.mMinForceLimit = -a.maxMotorForce; m.mMaxForceLimit = a.maxMotorForce; } else { m.mMinTorqueLimit = -a.maxMotorForce; m.mMaxTorqueLimit = a.maxMotorForce; }
        }
      });
      settings = s;
      break;
    }
    case 'distance': {
      const s = new Jolt.DistanceConstraintSettings();
      s.mSpace = Jolt.EConstraintSpace_WorldSpace;
      s.mPoint1 = r(j.anchor); s.mPoint2 = r(j.anchorB!);
      const d = Math.hypot(j.anchorB!.x - j.anchor.x, j.anchorB!.y - j.anchor.y, j.anchorB!.z - j.anchor.z);
      s.mMinDistance = j.minLength ?? d;
      s.mMaxDistance = j.maxLength ?? d;
      if (j.frequency !== undefined) {
        s.mLimitsSpringSettings.mFrequency = j.frequency;
        s.mLimitsSpringSettings.mDamping = j.dampingRatio ?? 1;
      }
      settings = s;
      break;
    }
  }
  const c = settings.Create(a, b);
  Jolt.destroy(settings);
  for (const t of temps) Jolt.destroy(t);
  if (j.kind === 'hinge' && j.motorSpeed !== undefined) {
    const h = Jolt.castObject(c, Jolt.HingeConstraint);
    h.SetMotorState(Jolt.EMotorState_Velocity);
    h.SetTargetAngularVelocity(j.motorSpeed);
  }
  if (j.kind === 'slider' && j.motorSpeed !== undefined) {
    const h = Jolt.castObject(c, Jolt.SliderConstraint);
    h.SetMotorState(Jolt.EMotorState_Velocity);
    h.SetTargetVelocity(j.motorSpeed);
  }
  if (j.kind === 'sixDof') {
    const h = Jolt.castObject(c, Jolt.SixDOFConstraint);
    const ax = j.axes!;
    const names = [Jolt.SixDOFConstraintSettings_EAxis_TranslationX, Jolt.SixDOFConstraintSettings_EAxis_TranslationY, Jolt.SixDOFConstraintSettings_EAxis_TranslationZ,
      Jolt.SixDOFConstraintSettings_EAxis_RotationX, Jolt.SixDOFConstraintSettings_EAxis_RotationY, Jolt.SixDOFConstraintSettings_EAxis_RotationZ];
    ax.forEach((a, k) => { if (a.maxMotorForce > 0) h.SetMotorState(names[k]!, Jolt.EMotorState_Velocity); });
    const lin = new Jolt.Vec3(ax[0]!.motorSpeed, ax[1]!.motorSpeed, ax[2]!.motorSpeed), ang = new Jolt.Vec3(ax[3]!.motorSpeed, ax[4]!.motorSpeed, ax[5]!.motorSpeed);
    h.SetTargetVelocityCS(lin);
    h.SetTargetAngularVelocityCS(ang);
    Jolt.destroy(lin); Jolt.destroy(ang);
  }
  return Jolt.castObject(c, Jolt.TwoBodyConstraint);
}

/** A convex spec as a Jolt shape (convex radii kept within the thinnest part). */
function joltConvexShape(Jolt: JoltModule, s: ConvexSpec): InstanceType<JoltModule['Shape']> {
  switch (s.kind) {
    case 'sphere': return new Jolt.SphereShape(s.radius);
    case 'capsule': return new Jolt.CapsuleShape(s.halfHeight, s.radius);
    case 'cylinder': return new Jolt.CylinderShape(s.halfHeight, s.radius, Math.min(0.05, 0.5 * Math.min(s.halfHeight, s.radius)));
    case 'hull': {
      const settings = new Jolt.ConvexHullShapeSettings();
      for (const p of s.points) {
        const v = new Jolt.Vec3(p.x, p.y, p.z);
        settings.mPoints.push_back(v);
        Jolt.destroy(v);
      }
      settings.mMaxConvexRadius = Math.min(0.05, 0.25 * smallestSize(s));
      const result = settings.Create();
      if (result.HasError()) throw new Error(`fuzz: Jolt refused a convex hull: ${result.GetError().c_str()}`);
      const shape = result.Get();
      // The settings hold a reference to the shape: keep one of ours past them.
      shape.AddRef();
      Jolt.destroy(settings);
      return shape;
    }
    case 'box': {
      const h = new Jolt.Vec3(s.halfExtents.x, s.halfExtents.y, s.halfExtents.z);
      // The convex radius must not exceed the thinnest half extent (Jolt's default is 0.05 m).
      const shape = new Jolt.BoxShape(h, Math.min(0.05, 0.9 * Math.min(s.halfExtents.x, s.halfExtents.y, s.halfExtents.z)));
      Jolt.destroy(h);
      return shape;
    }
  }
}

export async function buildJolt(spec: FuzzWorldSpec): Promise<FuzzInstance> {
  joltPromise ??= initJolt();
  const Jolt = await joltPromise;
  const NON_MOVING = 0, MOVING = 1;
  const settings = new Jolt.JoltSettings();
  const objectFilter = new Jolt.ObjectLayerPairFilterTable(2);
  objectFilter.EnableCollision(NON_MOVING, MOVING);
  objectFilter.EnableCollision(MOVING, MOVING);
  const bpNonMoving = new Jolt.BroadPhaseLayer(0), bpMoving = new Jolt.BroadPhaseLayer(1);
  const bpInterface = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
  bpInterface.MapObjectToBroadPhaseLayer(NON_MOVING, bpNonMoving);
  bpInterface.MapObjectToBroadPhaseLayer(MOVING, bpMoving);
  Jolt.destroy(bpNonMoving);
  Jolt.destroy(bpMoving);
  settings.mObjectLayerPairFilter = objectFilter;
  settings.mBroadPhaseLayerInterface = bpInterface;
  settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 2, objectFilter, 2);
  const jolt = new Jolt.JoltInterface(settings);
  Jolt.destroy(settings);
  const system = jolt.GetPhysicsSystem();
  const gravity = new Jolt.Vec3(0, -9.81, 0);
  system.SetGravity(gravity);
  Jolt.destroy(gravity);
  const bi = system.GetBodyInterface();
  const statics: InstanceType<JoltModule['Body']>[] = [];

  const addStatic = (shape: InstanceType<JoltModule['Shape']>, x: number, y: number, z: number, friction: number, restitution: number): void => {
    const pos = new Jolt.RVec3(x, y, z), rot = new Jolt.Quat(0, 0, 0, 1);
    const c = new Jolt.BodyCreationSettings(shape, pos, rot, Jolt.EMotionType_Static, NON_MOVING);
    c.mFriction = friction;
    c.mRestitution = restitution;
    const body = bi.CreateBody(c);
    bi.AddBody(body.GetID(), Jolt.EActivation_DontActivate);
    statics.push(body);
    Jolt.destroy(c); Jolt.destroy(pos); Jolt.destroy(rot);
  };
  const fl = spec.floor;
  const he = new Jolt.Vec3(fl.halfExtents.x, fl.halfExtents.y, fl.halfExtents.z);
  addStatic(new Jolt.BoxShape(he), fl.position.x, fl.position.y, fl.position.z, fl.friction, fl.restitution);
  const floorBody = statics[0]!;
  Jolt.destroy(he);
  const t = spec.terrain;
  const triangles = new Jolt.TriangleList();
  triangles.resize(t.indices.length / 3);
  for (let k = 0; k < t.indices.length / 3; k++) {
    const tri = triangles.at(k);
    for (let v = 0; v < 3; v++) {
      const vi = t.indices[3 * k + v]!, f = tri.get_mV(v);
      f.x = t.positions[3 * vi]!; f.y = t.positions[3 * vi + 1]!; f.z = t.positions[3 * vi + 2]!;
    }
  }
  const materials = new Jolt.PhysicsMaterialList();
  const meshResult = new Jolt.MeshShapeSettings(triangles, materials).Create();
  if (meshResult.HasError()) throw new Error(`Jolt mesh: ${meshResult.GetError().c_str()}`);
  addStatic(meshResult.Get(), 0, 0, 0, t.friction, t.restitution);
  Jolt.destroy(triangles);
  Jolt.destroy(materials);

  const n = spec.bodies.length;
  const bodies: InstanceType<JoltModule['Body']>[] = [];
  const inertia = new Float64Array(3 * n), masses = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const s = spec.bodies[i]!;
    let shape: InstanceType<JoltModule['Shape']>;
    if (s.shape.kind === 'compound') {
      // The parts at their poses in footing's compound frame (peerBodyPose).
      const parts = footingCompound(s.shape).children;
      const settings = new Jolt.StaticCompoundShapeSettings();
      s.shape.children.forEach((child, k) => {
        const c = parts[k]!;
        const p = new Jolt.Vec3(c.position.x, c.position.y, c.position.z), q = new Jolt.Quat(c.rotation.x, c.rotation.y, c.rotation.z, c.rotation.w);
        settings.AddShapeShape(p, q, joltConvexShape(Jolt, child.shape), 0);
        Jolt.destroy(p); Jolt.destroy(q);
      });
      const result = settings.Create();
      if (result.HasError()) throw new Error(`fuzz: Jolt refused a compound: ${result.GetError().c_str()}`);
      shape = result.Get();
      // The settings hold a reference to the shape: keep one of ours past them.
      shape.AddRef();
      Jolt.destroy(settings);
    } else {
      shape = joltConvexShape(Jolt, s.shape);
    }
    const pose = peerBodyPose(s);
    const pos = new Jolt.RVec3(pose.position.x, pose.position.y, pose.position.z);
    const rot = new Jolt.Quat(pose.rotation.x, pose.rotation.y, pose.rotation.z, pose.rotation.w);
    const c = new Jolt.BodyCreationSettings(shape, pos, rot, Jolt.EMotionType_Dynamic, MOVING);
    c.mFriction = s.friction;
    c.mRestitution = s.restitution;
    c.mOverrideMassProperties = Jolt.EOverrideMassProperties_CalculateInertia;
    c.mMassPropertiesOverride.mMass = s.mass;
    const lv = new Jolt.Vec3(s.linearVelocity.x, s.linearVelocity.y, s.linearVelocity.z);
    const av = new Jolt.Vec3(s.angularVelocity.x, s.angularVelocity.y, s.angularVelocity.z);
    c.mLinearVelocity = lv;
    c.mAngularVelocity = av;
    const body = bi.CreateBody(c);
    bi.AddBody(body.GetID(), Jolt.EActivation_Activate);
    const mp = body.GetMotionProperties();
    const inv = mp.GetInverseInertiaDiagonal();
    if (s.shape.kind === 'compound') {
      const r = mp.GetInertiaRotation();
      bodyFrameDiagonal({ x: 1 / inv.GetX(), y: 1 / inv.GetY(), z: 1 / inv.GetZ() }, { x: r.GetX(), y: r.GetY(), z: r.GetZ(), w: r.GetW() }, inertia, 3 * i);
    } else {
      inertia[3 * i] = 1 / inv.GetX(); inertia[3 * i + 1] = 1 / inv.GetY(); inertia[3 * i + 2] = 1 / inv.GetZ();
    }
    masses[i] = 1 / mp.GetInverseMass();
    bodies.push(body);
    Jolt.destroy(c); Jolt.destroy(pos); Jolt.destroy(rot); Jolt.destroy(lv); Jolt.destroy(av);
  }
  const constraints: InstanceType<JoltModule['TwoBodyConstraint']>[] = [];
  for (const j of spec.jointSpecs) {
    const c = buildJoltJoint(Jolt, j, j.a < 0 ? floorBody : bodies[j.a]!, bodies[j.b]!);
    system.AddConstraint(c);
    constraints.push(c);
  }
  let disposed = false;
  return {
    engine: 'jolt', inertia, masses, jointCount: constraints.length, motorPower: motorPowerOf(spec), omitted: JOLT_OMITTED,
    particleCapacity: 0, characterCount: 0,
    step(): void {
      jolt.Step(spec.dt, 1);
    },
    readBodies(out: Float64Array): void {
      for (let i = 0; i < n; i++) {
        const b = bodies[i]!, o = BODY_STRIDE * i;
        const p = b.GetPosition(), q = b.GetRotation();
        out[o] = p.GetX(); out[o + 1] = p.GetY(); out[o + 2] = p.GetZ();
        out[o + 3] = q.GetX(); out[o + 4] = q.GetY(); out[o + 5] = q.GetZ(); out[o + 6] = q.GetW();
        const v = b.GetLinearVelocity();
        out[o + 7] = v.GetX(); out[o + 8] = v.GetY(); out[o + 9] = v.GetZ();
        const w = b.GetAngularVelocity();
        out[o + 10] = w.GetX(); out[o + 11] = w.GetY(); out[o + 12] = w.GetZ();
      }
    },
    readParticles: () => 0,
    readCharacters(): void {},
    dispose(): void {
      if (disposed) return;
      disposed = true;
      for (const c of constraints) system.RemoveConstraint(c);
      for (const b of [...bodies, ...statics]) {
        bi.RemoveBody(b.GetID());
        bi.DestroyBody(b.GetID());
      }
      Jolt.destroy(jolt);
    },
  };
}
