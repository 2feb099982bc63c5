/**
 * Builds a fuzz world (generator.ts) in an engine and reads its state back in
 * one layout for the checks (checks.ts). footing builds everything; the peer
 * builders (peers.ts) build the rigid bodies, the ground and, where they can,
 * the joints.
 */
import {
  BallJoint, Box, Capsule, Compound, ConeTwistJoint, ConvexHull, Cylinder, DistanceJoint, FixedJoint, HeightField, HingeJoint, SixDofJoint, SliderJoint, Sphere, TriangleMesh, World,
  createCloth, createRope, type Joint, type ParticleSystem, type RigidBody, type Shape, type Vec3,
} from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { floorExemptBodies, hangsInFloor } from './checks';
import { GROUND_HALF, groundHeight, type FuzzWorldSpec, type JointSpec, type ShapeSpec } from './generator';

/** Doubles per body in `readBodies`: position 3, rotation 4 (x, y, z, w), linear velocity 3, angular velocity 3. */
export const BODY_STRIDE = 13;

export type EngineName = 'footing' | 'rapier' | 'jolt';

export interface FuzzInstance {
  readonly engine: EngineName;
  /** Principal moments of inertia (kg·m², body frame) of every spec body, 3 per body, as the engine computed them. */
  readonly inertia: Float64Array;
  /** Masses as the engine holds them, kg. */
  readonly masses: Float64Array;
  /** Joints actually built, and Σ maxMotorTorque·|motorSpeed| over them (N·m/s = W). */
  readonly jointCount: number;
  readonly motorPower: number;
  /** What this engine's world leaves out of the spec. */
  readonly omitted: string;
  /** One step of spec.dt (characters move first). Step index from 0. */
  step(stepIndex: number): void;
  readBodies(out: Float64Array): void;
  /** Particles (cloth, rope): positions and implied velocities, 3 each, and masses (0: pinned). Returns the count. */
  readParticles(positions: Float64Array, velocities: Float64Array, masses: Float64Array): number;
  readonly particleCapacity: number;
  /** Characters: centre (3) and walker velocity (3) each. */
  readCharacters(out: Float64Array): void;
  /**
   * Optional, for engines that split a step into parts (footing): sets
   * out[i] = 1 for each body that, at the end of any part since the last
   * call, had its centre off the ground's footprint below the edge beside it
   * (a body whipped round the edge and back in under the sheet within one
   * step), or hung into the floor box through a contact its floor joint
   * switched off (checks.ts hangsInFloor; swung on in under the sheet's edge
   * within the step). The tunnelling check exempts it as it does a body seen
   * there after a step.
   */
  readExemptInPart?(out: Uint8Array): void;
  readonly characterCount: number;
  dispose(): void;
}

/** Collision bits: characters are seen by everything but dynamic bodies and particles (so they do no work on them, see checks.ts). */
export const CHARACTER_GROUP = 2;
export const DYNAMIC_GROUP = 4;

const compounds = new WeakMap<ShapeSpec, Compound>();

/** The Compound of a compound spec (one per spec, so the checks read the same parts the world uses). */
export function footingCompound(s: ShapeSpec & { kind: 'compound' }): Compound {
  let c = compounds.get(s);
  if (!c) {
    c = new Compound(s.children.map((k) => ({ shape: footingShape(k.shape) as Box | Sphere | Capsule, position: k.position, rotation: k.rotation })));
    compounds.set(s, c);
  }
  return c;
}

/**
 * The fuzz terrain as a HeightField with the same triangles: the spec's grid
 * splits its cells along the other diagonal, so the field's rows run along
 * +X and its columns along −Z (a quarter turn about Y), as heightFieldFromGround does.
 */
export function terrainHeightField(t: FuzzWorldSpec['terrain']): { shape: HeightField; position: Vec3; rotation: { x: number; y: number; z: number; w: number } } {
  const rows = t.columns, columns = t.rows;
  const samples = new Float64Array(rows * columns);
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) samples[r * columns + c] = t.positions[3 * ((t.rows - 1 - c) * t.columns + r) + 1]!;
  const shape = new HeightField(samples, rows, columns, { x: t.cell, y: 1, z: t.cell });
  const position = { x: t.x0 + 0.5 * (t.columns - 1) * t.cell, y: 0, z: t.z0 + 0.5 * (t.rows - 1) * t.cell };
  return { shape, position, rotation: { x: 0, y: Math.SQRT1_2, z: 0, w: Math.SQRT1_2 } };
}

export function footingShape(s: ShapeSpec): Shape {
  switch (s.kind) {
    case 'compound': return footingCompound(s);
    case 'sphere': return new Sphere(s.radius);
    case 'box': return new Box(s.halfExtents);
    case 'capsule': return new Capsule(s.radius, s.halfHeight);
    case 'cylinder': return new Cylinder(s.radius, s.halfHeight);
    case 'hull': return new ConvexHull(s.points);
  }
}

function footingJoint(j: JointSpec, a: RigidBody, b: RigidBody): Joint {
  const base = { bodyA: a, bodyB: b, collideConnected: j.collideConnected, frictionTorque: j.frictionTorque };
  switch (j.kind) {
    case 'ball': return new BallJoint({ ...base, anchor: j.anchor });
    case 'fixed': return new FixedJoint({ ...base, anchor: j.anchor });
    case 'hinge':
      return new HingeJoint({
        ...base, anchor: j.anchor, axis: j.axis!,
        lowerAngle: j.lowerAngle, upperAngle: j.upperAngle, motorSpeed: j.motorSpeed, maxMotorTorque: j.maxMotorTorque,
      });
    case 'coneTwist':
      return new ConeTwistJoint({
        ...base, anchor: j.anchor, twistAxis: j.axis!, swingLimit: j.swingLimit, twistLower: j.twistLower, twistUpper: j.twistUpper,
      });
    case 'slider':
      return new SliderJoint({
        ...base, anchor: j.anchor, axis: j.axis!, lowerLimit: j.lowerLimit, upperLimit: j.upperLimit,
        motorSpeed: j.motorSpeed, maxMotorForce: j.maxMotorTorque, frictionForce: j.frictionForce,
      });
    case 'sixDof': {
      const ax = j.axes!.map((x) => ({
        mode: x.mode, min: x.min, max: x.max, limitHertz: x.limitHertz, friction: x.friction,
        ...(x.maxMotorForce > 0 ? { motor: 'velocity' as const, motorSpeed: x.motorSpeed, maxMotorForce: x.maxMotorForce } : {}),
      }));
      return new SixDofJoint({
        ...base, anchor: j.anchor, axis: j.axis!, swingType: j.swingType,
        linearX: ax[0], linearY: ax[1], linearZ: ax[2], angularX: ax[3], angularY: ax[4], angularZ: ax[5],
      });
    }
    case 'distance':
      return new DistanceJoint({
        ...base, anchorA: j.anchor, anchorB: j.anchorB!, minLength: j.minLength, maxLength: j.maxLength,
        frequency: j.frequency, dampingRatio: j.dampingRatio,
      });
  }
}

export function motorPowerOf(spec: FuzzWorldSpec): number {
  let p = 0;
  for (const j of spec.jointSpecs) {
    if (j.maxMotorTorque !== undefined && j.motorSpeed !== undefined) p += j.maxMotorTorque * Math.abs(j.motorSpeed);
    if (j.axes) for (const a of j.axes) p += a.maxMotorForce * Math.abs(a.motorSpeed);
  }
  return p;
}

/** The whole spec in footing, at the default settings (sleeping on, as a new user gets it). */
export function buildFooting(spec: FuzzWorldSpec): FuzzInstance {
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
  const floor = world.createBody({
    type: 'static', shape: new Box(spec.floor.halfExtents), position: spec.floor.position,
    friction: spec.floor.friction, restitution: spec.floor.restitution,
  });
  const t = spec.terrain;
  if (spec.terrainAsHeightField) {
    const f = terrainHeightField(t);
    world.createBody({ type: 'static', shape: f.shape, position: f.position, rotation: f.rotation, friction: t.friction, restitution: t.restitution });
  } else {
    world.createBody({ type: 'static', shape: new TriangleMesh(t.positions, t.indices), friction: t.friction, restitution: t.restitution });
  }
  const bodies: RigidBody[] = [];
  const n = spec.bodies.length;
  const inertia = new Float64Array(3 * n), masses = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const s = spec.bodies[i]!;
    const shape = footingShape(s.shape);
    let position = s.position, rotation = s.rotation;
    if (shape instanceof Compound) {
      // The spec places the parts' modelling frame; the body sits at their centre of mass.
      position = { x: 0, y: 0, z: 0 }; rotation = { x: 0, y: 0, z: 0, w: 1 };
      shape.bodyPose(s.position, s.rotation, position, rotation);
    }
    const b = world.createBody({
      type: 'dynamic', shape, mass: s.mass, position, rotation,
      linearVelocity: s.linearVelocity, angularVelocity: s.angularVelocity, friction: s.friction, restitution: s.restitution,
      collisionGroup: DYNAMIC_GROUP,
    });
    bodies.push(b);
    inertia[3 * i] = b.inertia.x; inertia[3 * i + 1] = b.inertia.y; inertia[3 * i + 2] = b.inertia.z;
    masses[i] = b.mass;
  }
  for (const j of spec.jointSpecs) world.addJoint(footingJoint(j, j.a < 0 ? floor : bodies[j.a]!, bodies[j.b]!));

  const walkers: Walker[] = [];
  for (const c of spec.characters) {
    const controller = new CharacterController(world, {
      position: c.position, radius: c.radius, halfHeight: c.halfHeight, collisionGroup: CHARACTER_GROUP, pushStrength: 0,
    });
    // The character's own body ignores dynamic bodies (and they it); its queries still see them, so they block it.
    controller.body!.collisionMask = ~DYNAMIC_GROUP;
    walkers.push(new Walker(controller));
  }
  const systems: ParticleSystem[] = [];
  const cl = spec.cloth;
  if (cl) {
    systems.push(createCloth(world, {
      width: cl.width, height: cl.height, segments: cl.segments, pinned: cl.pinned, position: cl.position, rotation: cl.rotation,
      mass: cl.mass, collisionMask: ~CHARACTER_GROUP,
    }).system);
  }
  const r = spec.rope;
  if (r) systems.push(createRope(world, { from: r.from, to: r.to, segments: r.segments, mass: r.mass, pinned: 'start', collisionMask: ~CHARACTER_GROUP }).system);
  let particleCapacity = 0;
  for (const s of systems) particleCapacity += s.count;
  const v: Vec3 = { x: 0, y: 0, z: 0 };
  const exempt = new Uint8Array(n), floorExempt = floorExemptBodies(spec);
  const pose = new Float64Array(7), lowest = new Float64Array(2);
  world.addStepper({
    postStep(): void {
      for (let i = 0; i < n; i++) {
        const b = bodies[i]!, p = b.position;
        if (floorExempt[i] === 1) {
          const q = b.rotation;
          pose[0] = p.x; pose[1] = p.y; pose[2] = p.z; pose[3] = q.x; pose[4] = q.y; pose[5] = q.z; pose[6] = q.w;
          if (hangsInFloor(spec.bodies[i]!.shape, pose, 0, lowest)) exempt[i] = 1;
        }
        if (Math.abs(p.x) <= GROUND_HALF && Math.abs(p.z) <= GROUND_HALF) continue;
        const ex = Math.max(-GROUND_HALF, Math.min(GROUND_HALF, p.x)), ez = Math.max(-GROUND_HALF, Math.min(GROUND_HALF, p.z));
        if (p.y < groundHeight(spec, ex, ez)) exempt[i] = 1;
      }
    },
  });
  return {
    readExemptInPart(out: Uint8Array): void {
      for (let i = 0; i < n; i++) if (exempt[i] === 1) { out[i] = 1; exempt[i] = 0; }
    },
    engine: 'footing',
    inertia, masses,
    jointCount: spec.jointSpecs.length,
    motorPower: motorPowerOf(spec),
    omitted: '',
    particleCapacity,
    characterCount: walkers.length,
    step(stepIndex: number): void {
      for (let k = 0; k < walkers.length; k++) {
        const w = walkers[k]!, c = spec.characters[k]!;
        if (stepIndex % c.inputPeriod === 0) {
          const input = c.inputs[Math.floor(stepIndex / c.inputPeriod) % c.inputs.length]!;
          w.setInput(input.x, 0, input.z);
          if (input.jump) w.jump();
        }
        w.update(spec.dt);
      }
      world.step(spec.dt);
    },
    readBodies(out: Float64Array): void {
      for (let i = 0; i < bodies.length; i++) {
        const b = bodies[i]!, o = BODY_STRIDE * i;
        out[o] = b.position.x; out[o + 1] = b.position.y; out[o + 2] = b.position.z;
        out[o + 3] = b.rotation.x; out[o + 4] = b.rotation.y; out[o + 5] = b.rotation.z; out[o + 6] = b.rotation.w;
        out[o + 7] = b.linearVelocity.x; out[o + 8] = b.linearVelocity.y; out[o + 9] = b.linearVelocity.z;
        out[o + 10] = b.angularVelocity.x; out[o + 11] = b.angularVelocity.y; out[o + 12] = b.angularVelocity.z;
      }
    },
    readParticles(positions: Float64Array, velocities: Float64Array, pm: Float64Array): number {
      let k = 0;
      for (const s of systems) {
        for (let i = 0; i < s.count; i++, k++) {
          positions[3 * k] = s.positions[3 * i]!; positions[3 * k + 1] = s.positions[3 * i + 1]!; positions[3 * k + 2] = s.positions[3 * i + 2]!;
          s.getVelocity(v, i);
          velocities[3 * k] = v.x; velocities[3 * k + 1] = v.y; velocities[3 * k + 2] = v.z;
          const im = s.inverseMasses[i]!;
          pm[k] = im > 0 ? 1 / im : 0;
        }
      }
      return k;
    },
    readCharacters(out: Float64Array): void {
      for (let k = 0; k < walkers.length; k++) {
        const w = walkers[k]!, p = w.controller.position;
        out[6 * k] = p.x; out[6 * k + 1] = p.y; out[6 * k + 2] = p.z;
        out[6 * k + 3] = w.velocity.x; out[6 * k + 4] = w.velocity.y; out[6 * k + 5] = w.velocity.z;
      }
    },
    dispose(): void {},
  };
}
