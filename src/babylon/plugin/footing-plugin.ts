// FootingPlugin: Babylon's Physics V2 plugin interface on a footing World, so
// a scene written for HavokPlugin runs on footing by changing the plugin
// passed to scene.enablePhysics. Design notes and the differences from Havok:
// docs/babylon-plugin.md.
import { Observable } from '@babylonjs/core/Misc/observable';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { BoundingBox } from '@babylonjs/core/Culling/boundingBox';
import { CreateBoxVertexData } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateSphereVertexData } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { CreateCapsuleVertexData } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import {
  PhysicsEventType, PhysicsMotionType, PhysicsPrestepType, PhysicsShapeType,
  type ConstrainedBodyPair, type PhysicsConstraintAxis, type PhysicsConstraintAxisLimitMode, type PhysicsConstraintMotorType, type IBasePhysicsCollisionEvent, type IPhysicsCollisionEvent, type IPhysicsEnginePluginV2, type PhysicsMassProperties, type PhysicsShapeParameters,
} from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import type { PhysicsShape } from '@babylonjs/core/Physics/v2/physicsShape';
import type { PhysicsConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import type { PhysicsMaterial } from '@babylonjs/core/Physics/v2/physicsMaterial';
import { PhysicsRaycastResult, type IRaycastQuery } from '@babylonjs/core/Physics/physicsRaycastResult';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Nullable } from '@babylonjs/core/types';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { CreateCylinderVertexData } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import {
  Box, Capsule, Compound, ConvexHull, ConvexShape, Cylinder, HeightField, MAX_ANGULAR_SPEED, MAX_LINEAR_SPEED, MAX_TIME_STEP, Sphere, World,
  type BodyType, type CombineMode, type Quat, type RigidBody, type Shape, type Vec3,
} from '../../index';
import { ShapeData, buildShapeGeometry, containerGeometry, type ShapeGeometry } from './shapes';
import {
  copyVec, driveToPose, footingToNode, instancePose, nodeToFooting, requireFinite, requireNonNegative, requireVector, samePose, shapeDataOf, shapeMass,
} from './pose';

export { FootingPluginUnsupportedError } from './shapes';

/** footing's combine modes by PhysicsMaterialCombineMode (GEOMETRIC_MEAN 0, MINIMUM 1, MAXIMUM 2, ARITHMETIC_MEAN 3, MULTIPLY 4). */
const COMBINE_MODES: Record<number, CombineMode> = ['geometric', 'minimum', 'maximum', 'average', 'multiply'];

/** Display triangles of a convex footing shape in its own frame (PhysicsViewer), null for a kind without a builder. */
function convexVertexData(c: Shape): VertexData | null {
  return c instanceof Sphere ? CreateSphereVertexData({ diameter: 2 * c.radius, segments: 12 })
    : c instanceof Box ? CreateBoxVertexData({ width: 2 * c.halfExtents.x, height: 2 * c.halfExtents.y, depth: 2 * c.halfExtents.z })
      : c instanceof Capsule ? CreateCapsuleVertexData({ radius: c.radius, height: 2 * (c.halfHeight + c.radius), tessellation: 12, subdivisions: 2 })
        : c instanceof Cylinder ? CreateCylinderVertexData({ diameter: 2 * c.radius, height: 2 * c.halfHeight, tessellation: 16 })
          : c instanceof ConvexHull ? hullVertexData(c)
            : null;
}

/** A hull's faces as triangle fans (its vertices in its own frame). */
function hullVertexData(h: ConvexHull): VertexData {
  const vd = new VertexData();
  vd.positions = Array.from(h.vertices.subarray(0, 3 * h.vertexCount));
  const indices: number[] = [];
  for (let f = 0; f < h.faceCount; f++) {
    const start = h.faceStart[f]!, end = h.faceStart[f + 1]!;
    for (let k = start + 1; k + 1 < end; k++) indices.push(h.faceVertices[start]!, h.faceVertices[k]!, h.faceVertices[k + 1]!);
  }
  vd.indices = indices;
  return vd;
}
import { ConstraintData } from './constraints';
import { BodyData, COLLISION_EVENTS, FootingEventMask } from './body-data';
import { PluginEvents } from './events';

export { FootingEventMask } from './body-data';

export interface FootingPluginOptions {
  /**
   * Interpolate nodes between the last two fixed steps (default true). With
   * false, nodes show the last step's pose.
   */
  interpolate?: boolean;
  /**
   * Step with each frame's delta, as HavokPlugin does by default (split into
   * steps of at most the time step). Default false: fixed steps.
   */
  useDeltaForWorldStep?: boolean;
  /** Most fixed steps in one executeStep, integer in [1, 1000]; the rest is dropped. Default 4. (As World.maxStepsPerAdvance.) */
  maxStepsPerAdvance?: number;
  /** @deprecated The old name of `maxStepsPerAdvance`; used when that is not given. */
  maxSubSteps?: number;
}

/**
 * Babylon's Physics V2 plugin on footing: `scene.enablePhysics(gravity, new FootingPlugin())`.
 * `world` is the footing World it steps (pass your own to share it with
 * footing's API, e.g. its debug view or character controller).
 */
export class FootingPlugin implements IPhysicsEnginePluginV2 {
  readonly world: World;
  name = 'FootingPlugin';
  onCollisionObservable = new Observable<IPhysicsCollisionEvent>();
  onCollisionEndedObservable = new Observable<IBasePhysicsCollisionEvent>();
  onTriggerCollisionObservable = new Observable<IBasePhysicsCollisionEvent>();
  /** Interpolate nodes between fixed steps. */
  interpolate: boolean;
  /** Step with the frame's delta instead of fixed steps (HavokPlugin's default). */
  useDeltaForWorldStep: boolean;
  private timeStep = 1 / 60;
  private maxStepsPerAdvance: number;
  private accumulator = 0;
  // HavokPlugin's defaults (m/s, rad/s), so a scene behaves the same on both.
  private maxLinearVelocity = 200;
  private maxAngularVelocity = 100;
  private readonly bodyData = new Set<BodyData>();
  private readonly constraints = new Set<ConstraintData>();
  private readonly events: PluginEvents;
  private readonly unsubscribe: (() => void)[] = [];
  // Scratch of the plugin's own methods (the helpers in pose.ts keep their own).
  private readonly tmpV = new Vector3();
  private readonly tmpV2 = new Vector3();
  private readonly tmpQ = new Quaternion();
  private readonly tmpQ2 = new Quaternion();
  private readonly tmpM = new Matrix();
  private readonly tmpM2 = new Matrix();
  private readonly tmpScale = new Vector3();
  private readonly tmpVec: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly tmpQuat: Quat = { x: 0, y: 0, z: 0, w: 1 };

  constructor(world?: World, options: FootingPluginOptions = {}) {
    this.world = world ?? new World();
    this.interpolate = options.interpolate ?? true;
    this.useDeltaForWorldStep = options.useDeltaForWorldStep ?? false;
    const field = options.maxStepsPerAdvance !== undefined ? 'maxStepsPerAdvance' : 'maxSubSteps';
    const n = options.maxStepsPerAdvance ?? options.maxSubSteps ?? 4;
    if (!Number.isInteger(n) || n < 1 || n > 1000) throw new RangeError(`FootingPlugin: options.${field} must be an integer in [1, 1000] (got ${String(n)})`);
    this.maxStepsPerAdvance = n;
    const events = (this.events = new PluginEvents(this.world, this));
    this.unsubscribe.push(
      this.world.on('contactBegin', (e) => events.queueContact(e, PhysicsEventType.COLLISION_STARTED)),
      this.world.on('contactEnd', (e) => events.queueContact(e, PhysicsEventType.COLLISION_FINISHED)),
      this.world.on('sensorEnter', (e) => events.queueTrigger(e, PhysicsEventType.TRIGGER_ENTERED)),
      this.world.on('sensorExit', (e) => events.queueTrigger(e, PhysicsEventType.TRIGGER_EXITED)),
    );
  }

  // ---------------------------------------------------------------- world

  getPluginVersion(): number { return 2; }

  setGravity(gravity: Vector3): void {
    requireFinite(gravity.x, 'gravity.x'); requireFinite(gravity.y, 'gravity.y'); requireFinite(gravity.z, 'gravity.z');
    this.world.gravity.x = gravity.x; this.world.gravity.y = gravity.y; this.world.gravity.z = gravity.z;
    for (const d of this.bodyData) d.rigid?.wakeUp();
  }

  /** Seconds per fixed step, in (0, MAX_TIME_STEP = 0.05]. */
  setTimeStep(timeStep: number): void {
    if (typeof timeStep !== 'number' || !(timeStep > 0 && timeStep <= MAX_TIME_STEP)) {
      throw new RangeError(`FootingPlugin.setTimeStep: timeStep must be in (0, ${MAX_TIME_STEP}] s (got ${String(timeStep)})`);
    }
    this.timeStep = timeStep;
  }
  getTimeStep(): number { return this.timeStep; }

  setVelocityLimits(maxLinearVelocity: number, maxAngularVelocity: number): void {
    if (!(maxLinearVelocity > 0) || !(maxAngularVelocity > 0)) {
      throw new RangeError(`FootingPlugin.setVelocityLimits: both limits must be > 0 (got ${String(maxLinearVelocity)}, ${String(maxAngularVelocity)})`);
    }
    this.maxLinearVelocity = Math.min(maxLinearVelocity, MAX_LINEAR_SPEED);
    this.maxAngularVelocity = Math.min(maxAngularVelocity, MAX_ANGULAR_SPEED);
  }
  getMaxLinearVelocity(): number { return this.maxLinearVelocity; }
  getMaxAngularVelocity(): number { return this.maxAngularVelocity; }

  /**
   * One frame: the prestep (nodes moved by the user teleport or drive their
   * bodies), as many fixed steps as the accumulated time allows, the sync of
   * the nodes (interpolated) and the events.
   */
  executeStep(delta: number, bodies: Array<PhysicsBody>): void {
    for (const body of bodies) {
      if (body.getPrestepType() !== PhysicsPrestepType.DISABLED && body.transformNode) this.prestep(body);
    }
    this.applyFrameForces(delta);
    const h = this.timeStep;
    let alpha = 1;
    if (this.useDeltaForWorldStep) {
      const n = Math.min(Math.max(1, Math.ceil(delta / MAX_TIME_STEP - 1e-9)), this.maxStepsPerAdvance);
      this.beginTargets();
      // Past maxStepsPerAdvance steps of MAX_TIME_STEP, the rest of the frame is dropped.
      const dt = Math.min(delta / n, MAX_TIME_STEP);
      for (let i = 0; i < n; i++) this.subStep(dt, i, n);
    } else {
      // The world runs up to one step ahead of the frame's time and nodes are
      // placed between the last two steps at the frame's time: never
      // extrapolated, and with frames of exactly one step, the current pose.
      this.accumulator += delta;
      let n = Math.max(0, Math.ceil(this.accumulator / h - 1e-9));
      if (n > this.maxStepsPerAdvance) {
        n = this.maxStepsPerAdvance;
        this.accumulator = n * h;
      }
      if (n > 0) this.beginTargets();
      for (let i = 0; i < n; i++) this.subStep(h, i, n);
      this.accumulator -= n * h;
      alpha = this.interpolate ? Math.min(Math.max(1 + this.accumulator / h, 0), 1) : 1;
    }
    for (const body of bodies) {
      if (!body.disableSync && body.transformNode) this.syncBody(body, alpha);
    }
    this.events.deliver();
  }

  private beginTargets(): void {
    for (const d of this.bodyData) {
      if (!d.hasTarget || !d.rigid) continue;
      const p = d.rigid.position, q = d.rigid.rotation;
      d.targetStartPosition.x = p.x; d.targetStartPosition.y = p.y; d.targetStartPosition.z = p.z;
      d.targetStartRotation.x = q.x; d.targetStartRotation.y = q.y; d.targetStartRotation.z = q.z; d.targetStartRotation.w = q.w;
    }
  }

  /** Step i of n this frame: targets are reached at the frame's last step, in equal parts. */
  private subStep(dt: number, i: number, n: number): void {
    const t = (i + 1) / n;
    for (const d of this.bodyData) {
      if (!d.hasTarget || !d.rigid) continue;
      const s = d.targetStartPosition, e = d.targetPosition;
      this.tmpVec.x = s.x + (e.x - s.x) * t; this.tmpVec.y = s.y + (e.y - s.y) * t; this.tmpVec.z = s.z + (e.z - s.z) * t;
      this.tmpQ.set(d.targetStartRotation.x, d.targetStartRotation.y, d.targetStartRotation.z, d.targetStartRotation.w);
      this.tmpQ2.set(d.targetRotation.x, d.targetRotation.y, d.targetRotation.z, d.targetRotation.w);
      Quaternion.SlerpToRef(this.tmpQ, this.tmpQ2, t, this.tmpQ);
      this.tmpQuat.x = this.tmpQ.x; this.tmpQuat.y = this.tmpQ.y; this.tmpQuat.z = this.tmpQ.z; this.tmpQuat.w = this.tmpQ.w;
      const r = d.rigid;
      if (r.isKinematic) r.setKinematicTarget(this.tmpVec, this.tmpQuat);
      else if (r.isDynamic) driveToPose(r, this.tmpVec, this.tmpQuat, dt);
      if (i === n - 1) d.hasTarget = false;
    }
    this.world.step(dt);
    this.clampVelocities();
  }

  private clampVelocities(): void {
    const maxV = this.maxLinearVelocity, maxW = this.maxAngularVelocity;
    if (maxV >= MAX_LINEAR_SPEED && maxW >= MAX_ANGULAR_SPEED) return;
    for (const d of this.bodyData) {
      const r = d.rigid;
      if (!r || !r.isDynamic || r.isSleeping) continue;
      const v = r.linearVelocity, w = r.angularVelocity;
      // Squared speeds first: the square root only for the rare body over a limit.
      const sv2 = v.x * v.x + v.y * v.y + v.z * v.z, sw2 = w.x * w.x + w.y * w.y + w.z * w.z;
      if (sv2 > maxV * maxV) { const k = maxV / Math.sqrt(sv2); this.tmpVec.x = v.x * k; this.tmpVec.y = v.y * k; this.tmpVec.z = v.z * k; r.setLinearVelocity(this.tmpVec); }
      if (sw2 > maxW * maxW) { const k = maxW / Math.sqrt(sw2); this.tmpVec.x = w.x * k; this.tmpVec.y = w.y * k; this.tmpVec.z = w.z * k; r.setAngularVelocity(this.tmpVec); }
    }
  }

  // ---------------------------------------------------------------- bodies

  initBody(body: PhysicsBody, motionType: PhysicsMotionType, position: Vector3, orientation: Quaternion): void {
    const d = new BodyData(this, body, 0, motionType);
    d.position.x = position.x; d.position.y = position.y; d.position.z = position.z;
    d.rotation.x = orientation.x; d.rotation.y = orientation.y; d.rotation.z = orientation.z; d.rotation.w = orientation.w;
    body._pluginData = d;
    this.bodyData.add(d);
  }

  initBodyInstances(body: PhysicsBody, motionType: PhysicsMotionType, mesh: Mesh): void {
    const storage = mesh._thinInstanceDataStorage;
    const matrices = storage?.matrixData;
    if (!matrices) throw new TypeError(`FootingPlugin.initBodyInstances: mesh '${mesh.name}' has no thin instance matrices`);
    const count = storage.instancesCount ?? 0;
    for (let i = 0; i < count; i++) this.addInstance(body, motionType, matrices, i);
  }

  private addInstance(body: PhysicsBody, motionType: PhysicsMotionType, matrices: Float32Array, i: number): void {
    const d = new BodyData(this, body, i, motionType);
    const first = body._pluginDataInstances[0] as BodyData | undefined;
    if (first) {
      d.shape = first.shape;
      d.userMass = first.userMass;
      d.linearDamping = first.linearDamping; d.angularDamping = first.angularDamping; d.gravityFactor = first.gravityFactor; d.eventMask = first.eventMask;
    }
    instancePose(matrices, i, d.position, d.rotation);
    body._pluginDataInstances.push(d);
    this.bodyData.add(d);
    if (d.shape) { d.shape.users.add(d); this.rebuildBody(d); }
  }

  updateBodyInstances(body: PhysicsBody, mesh: Mesh): void {
    const storage = mesh._thinInstanceDataStorage;
    const matrices = storage?.matrixData;
    if (!matrices) return;
    const count = storage.instancesCount ?? 0;
    const list = body._pluginDataInstances as BodyData[];
    while (list.length > count) this.releaseBody(list.pop()!);
    for (let i = 0; i < list.length; i++) {
      const d = list[i]!;
      instancePose(matrices, i, this.tmpVec, this.tmpQuat);
      this.teleport(d, this.tmpVec, this.tmpQuat);
    }
    const motionType = list[0]?.motionType ?? PhysicsMotionType.DYNAMIC;
    for (let i = list.length; i < count; i++) this.addInstance(body, motionType, matrices, i);
  }

  removeBody(body: PhysicsBody): void {
    for (const d of this.records(body)) this.removeRigid(d);
  }

  disposeBody(body: PhysicsBody): void {
    for (const d of this.records(body)) this.releaseBody(d);
    body._pluginData = undefined;
    body._pluginDataInstances = [];
  }

  private releaseBody(d: BodyData): void {
    this.removeRigid(d);
    for (const c of [...d.constraints]) c.detach(d);
    d.shape?.users.delete(d);
    d.disposed = true;
    this.bodyData.delete(d);
  }

  private removeRigid(d: BodyData): void {
    const r = d.rigid;
    if (!r) return;
    this.savePose(d);
    if (r.world === this.world) this.world.removeBody(r);
    d.rigid = null;
    d.rigidGeometry = null;
  }

  private savePose(d: BodyData): void {
    const r = d.rigid;
    if (!r) return;
    footingToNode(r.position, r.rotation, d.rigidGeometry, this.tmpV, this.tmpQ);
    d.position.x = this.tmpV.x; d.position.y = this.tmpV.y; d.position.z = this.tmpV.z;
    d.rotation.x = this.tmpQ.x; d.rotation.y = this.tmpQ.y; d.rotation.z = this.tmpQ.z; d.rotation.w = this.tmpQ.w;
  }

  /** All plugin records of a body: its instances, or the body itself. */
  private records(body: PhysicsBody): BodyData[] {
    const list = body._pluginDataInstances as BodyData[] | undefined;
    if (list && list.length > 0) return list;
    return body._pluginData instanceof BodyData ? [body._pluginData] : [];
  }

  private record(body: PhysicsBody, instanceIndex?: number): BodyData {
    const list = body._pluginDataInstances as BodyData[] | undefined;
    if (list && list.length > 0) {
      const d = list[instanceIndex ?? 0];
      if (!d) throw new RangeError(`FootingPlugin: instanceIndex ${String(instanceIndex)} is out of range (the body has ${list.length} instances)`);
      return d;
    }
    const d = body._pluginData;
    if (!(d instanceof BodyData)) throw new TypeError('FootingPlugin: the body was not created by this plugin (initBody)');
    return d;
  }

  private apply(body: PhysicsBody, instanceIndex: number | undefined, fn: (d: BodyData) => void): void {
    if (instanceIndex === undefined) for (const d of this.records(body)) fn(d);
    else fn(this.record(body, instanceIndex));
  }

  /**
   * (Re)creates the footing body of a record: footing fixes a body's type,
   * shape, mass and sensor flag at creation, so changing one of them replaces
   * the body, keeping its pose, velocities and constraints.
   */
  rebuildBody(d: BodyData): void {
    if (d.disposed) return;
    const old = d.rigid;
    this.savePose(d);
    const s = d.shape;
    const g = s?.geometry;
    let next: RigidBody | null = null;
    if (s && g && g.core) {
      nodeToFooting(d.position, d.rotation, g, this.tmpV, this.tmpQ);
      let type: BodyType = d.motionType === PhysicsMotionType.STATIC ? 'static' : d.motionType === PhysicsMotionType.ANIMATED ? 'kinematic' : 'dynamic';
      const mass = d.userMass?.mass;
      // A dynamic body of mass 0 does not move (Havok treats it as infinitely heavy), nor does a
      // dynamic triangle mesh or height field (footing's are static or kinematic): kinematic in footing.
      if (type === 'dynamic' && (mass === 0 || !(g.core instanceof ConvexShape || g.core instanceof Compound))) type = 'kinematic';
      const m = s.material;
      const moving = type !== 'static' && old !== null;
      // Created before the old body goes: a refused description leaves the old one in place.
      next = this.world.createBody({
        type, shape: g.core,
        position: { x: this.tmpV.x, y: this.tmpV.y, z: this.tmpV.z }, rotation: { x: this.tmpQ.x, y: this.tmpQ.y, z: this.tmpQ.z, w: this.tmpQ.w },
        linearVelocity: moving ? old.linearVelocity : undefined, angularVelocity: moving ? old.angularVelocity : undefined,
        mass: type === 'dynamic' && mass !== undefined ? mass : undefined,
        density: s.density,
        friction: m.friction ?? 0.5,
        staticFriction: m.staticFriction ?? m.friction ?? 0.5,
        restitution: m.restitution ?? 0,
        frictionCombine: COMBINE_MODES[m.frictionCombine ?? 1], restitutionCombine: COMBINE_MODES[m.restitutionCombine ?? 2],
        inertia: type === 'dynamic' ? this.inertiaOverride(d, g) : undefined,
        // A rebuilt body keeps sleeping; a new one starts as PhysicsBody's startAsleep asks.
        awake: old ? !(moving && old.isSleeping) : !(type !== 'static' && d.body.startAsleep),
        linearDamping: d.linearDamping, angularDamping: d.angularDamping, gravityScale: d.gravityFactor,
        collisionGroup: s.membership, collisionMask: s.collideWith, isSensor: s.isTrigger,
        canSleep: true, userData: d,
      });
    }
    if (old && old.world === this.world) this.world.removeBody(old);
    d.rigid = next;
    d.rigidGeometry = next ? g! : null;
    for (const c of d.constraints) c.rebuild();
  }

  /**
   * The user's inertia (setMassProperties) in the footing body's frame, whose
   * axes are the shape's offset rotation from the node's: the diagonal of
   * R diag(I) Rᵀ with R = offset⁻¹ · inertiaOrientation (exact when R maps
   * axes onto axes, as for the identity; footing keeps principal moments
   * along the body's axes only).
   */
  private inertiaOverride(d: BodyData, g: ShapeGeometry): Vec3 | undefined {
    const I = d.userMass?.inertia;
    if (!I) return undefined;
    const o = g.offsetRotation, io = d.userMass!.inertiaOrientation;
    this.tmpQ.set(-o.x, -o.y, -o.z, o.w);
    if (io) this.tmpQ.multiplyToRef(io, this.tmpQ);
    Matrix.FromQuaternionToRef(this.tmpQ.normalize(), this.tmpM);
    const m = this.tmpM.m;
    // Babylon's matrices are row-vector: row k of m holds the rotated axis k (column k of R).
    const diag = (i: number): number => m[i]! * m[i]! * I.x + m[4 + i]! * m[4 + i]! * I.y + m[8 + i]! * m[8 + i]! * I.z;
    return { x: diag(0), y: diag(1), z: diag(2) };
  }

  /** Runs a change that rebuilds bodies; when the rebuild is refused, undo() restores the records. */
  private transact(records: BodyData[], change: () => void, undo: () => void): void {
    try {
      change();
    } catch (e) {
      undo();
      // Records rebuilt before the refusal go back to the old settings too.
      for (const d of records) this.rebuildBody(d);
      throw e;
    }
  }

  private teleport(d: BodyData, p: Readonly<Vec3>, q: Readonly<Quat>): void {
    copyVec(d.position, p);
    d.rotation.x = q.x; d.rotation.y = q.y; d.rotation.z = q.z; d.rotation.w = q.w;
    // A node that is not synced back (a static body's) is compared with this pose next frame.
    d.syncedPosition.set(p.x, p.y, p.z);
    d.syncedRotation.set(q.x, q.y, q.z, q.w);
    const r = d.rigid;
    if (!r) return;
    nodeToFooting(d.position, d.rotation, d.rigidGeometry, this.tmpV, this.tmpQ);
    r.setPosition(this.tmpV);
    r.setRotation(this.tmpQ);
  }

  /** The prestep of HavokPlugin.setPhysicsBodyTransformation, for nodes the user has moved since the last sync. */
  private prestep(body: PhysicsBody): void {
    const node = body.transformNode;
    const type = body.getPrestepType();
    if (body.numInstances > 0) {
      if (type !== PhysicsPrestepType.TELEPORT) return;
      const matrices = (node as Mesh)._thinInstanceDataStorage?.matrixData;
      if (!matrices) return;
      const list = body._pluginDataInstances as BodyData[];
      for (let i = 0; i < list.length; i++) {
        instancePose(matrices, i, this.tmpVec, this.tmpQuat);
        const d = list[i]!;
        if (!samePose(d.syncedPosition, d.syncedRotation, this.tmpVec, this.tmpQuat)) this.teleport(d, this.tmpVec, this.tmpQuat);
      }
      return;
    }
    const d = body._pluginData as BodyData | undefined;
    if (!(d instanceof BodyData)) return;
    node.computeWorldMatrix(true);
    const p = node.absolutePosition, q = node.absoluteRotationQuaternion;
    if (type === PhysicsPrestepType.TELEPORT) {
      if (!samePose(d.syncedPosition, d.syncedRotation, p, q)) this.teleport(d, p, q);
    } else if (type === PhysicsPrestepType.ACTION) {
      this.setTargetTransform(body, p, q);
    }
  }

  sync(body: PhysicsBody): void {
    this.syncTransform(body, body.transformNode);
  }

  syncTransform(body: PhysicsBody, transformNode: TransformNode): void {
    this.syncBody(body, 1, transformNode);
  }

  private syncBody(body: PhysicsBody, alpha: number, node: TransformNode = body.transformNode): void {
    if (body.numInstances > 0) {
      const m = node as Mesh;
      const matrices = m._thinInstanceDataStorage?.matrixData;
      if (!matrices) return;
      const list = body._pluginDataInstances as BodyData[];
      for (let i = 0; i < list.length; i++) {
        const d = list[i]!;
        this.posedNode(d, alpha, this.tmpV, this.tmpQ);
        // Keep the instance's scale; write rotation and translation.
        Matrix.FromArrayToRef(matrices, i * 16, this.tmpM);
        this.tmpM.decompose(this.tmpScale);
        Matrix.ComposeToRef(this.tmpScale, this.tmpQ, this.tmpV, this.tmpM);
        this.tmpM.copyToArray(matrices, i * 16);
        d.syncedPosition.copyFrom(this.tmpV);
        d.syncedRotation.copyFrom(this.tmpQ);
      }
      m.thinInstanceBufferUpdated('matrix');
      return;
    }
    const d = body._pluginData as BodyData | undefined;
    if (!(d instanceof BodyData) || !d.rigid) return;
    this.posedNode(d, alpha, this.tmpV, this.tmpQ);
    d.syncedPosition.copyFrom(this.tmpV);
    d.syncedRotation.copyFrom(this.tmpQ);
    const parent = node.parent as TransformNode | null;
    if (parent && !parent.getWorldMatrix().isIdentity()) {
      // Express the world pose in the parent's frame, keeping the node's own scale.
      parent.computeWorldMatrix(true);
      this.tmpScale.copyFrom(node.scaling);
      Matrix.ComposeToRef(node.absoluteScaling, this.tmpQ, this.tmpV, this.tmpM);
      parent.getWorldMatrix().invertToRef(this.tmpM2);
      this.tmpM.multiplyToRef(this.tmpM2, this.tmpM);
      this.tmpM.decompose(undefined, this.tmpQ2, this.tmpV2);
      node.position.copyFrom(this.tmpV2);
      if (node.rotationQuaternion) node.rotationQuaternion.copyFrom(this.tmpQ2).normalize();
      else this.tmpQ2.toEulerAnglesToRef(node.rotation);
      node.scaling.copyFrom(this.tmpScale);
    } else {
      node.position.copyFrom(this.tmpV);
      if (node.rotationQuaternion) node.rotationQuaternion.copyFrom(this.tmpQ);
      else this.tmpQ.toEulerAnglesToRef(node.rotation);
    }
  }

  /** The node's world pose from the footing body, between the last two steps (alpha) for dynamic bodies. */
  private posedNode(d: BodyData, alpha: number, outP: Vector3, outQ: Quaternion): void {
    const r = d.rigid;
    if (!r) {
      outP.set(d.position.x, d.position.y, d.position.z);
      outQ.set(d.rotation.x, d.rotation.y, d.rotation.z, d.rotation.w);
      return;
    }
    // Animated bodies follow the user's targets: shown where they are, not a step behind.
    if (alpha < 1 && r.isDynamic) {
      footingToNode(r.getInterpolatedPosition(this.tmpVec, alpha), r.getInterpolatedRotation(this.tmpQuat, alpha), d.rigidGeometry, outP, outQ);
    } else {
      footingToNode(r.position, r.rotation, d.rigidGeometry, outP, outQ);
    }
  }

  setShape(body: PhysicsBody, shape: Nullable<PhysicsShape>): void {
    const s = shape ? shapeDataOf(shape) : null;
    const records = this.records(body);
    const before = records.map((d) => d.shape);
    const assign = (d: BodyData, to: ShapeData | null): void => { d.shape?.users.delete(d); d.shape = to; to?.users.add(d); };
    this.transact(records, () => {
      for (const d of records) { assign(d, s); this.rebuildBody(d); }
    }, () => records.forEach((d, i) => assign(d, before[i]!)));
  }

  getShape(body: PhysicsBody): Nullable<PhysicsShape> {
    return body.shape ?? null;
  }

  getShapeType(shape: PhysicsShape): PhysicsShapeType {
    return shapeDataOf(shape).type;
  }

  setEventMask(body: PhysicsBody, eventMask: number, instanceIndex?: number): void {
    this.apply(body, instanceIndex, (d) => { d.eventMask = eventMask >>> 0; });
  }
  getEventMask(body: PhysicsBody, instanceIndex?: number): number {
    return this.record(body, instanceIndex).eventMask;
  }

  setMotionType(body: PhysicsBody, motionType: PhysicsMotionType, instanceIndex?: number): void {
    this.apply(body, instanceIndex, (d) => {
      if (d.motionType === motionType) return;
      const before = d.motionType;
      this.transact([d], () => { d.motionType = motionType; this.rebuildBody(d); }, () => { d.motionType = before; });
    });
  }
  getMotionType(body: PhysicsBody, instanceIndex?: number): PhysicsMotionType {
    return this.record(body, instanceIndex).motionType;
  }

  computeMassProperties(body: PhysicsBody, instanceIndex?: number): PhysicsMassProperties {
    const d = this.record(body, instanceIndex);
    return shapeMass(d.shape);
  }

  setMassProperties(body: PhysicsBody, massProps: PhysicsMassProperties, instanceIndex?: number): void {
    const m = massProps.mass;
    if (m !== undefined && (typeof m !== 'number' || !Number.isFinite(m) || m < 0)) {
      throw new RangeError(`FootingPlugin.setMassProperties: massProps.mass must be a finite number ≥ 0 (got ${String(m)})`);
    }
    this.apply(body, instanceIndex, (d) => {
      const before = d.userMass;
      this.transact([d], () => { d.userMass = massProps; this.rebuildBody(d); }, () => { d.userMass = before; });
    });
  }

  getMassProperties(body: PhysicsBody, instanceIndex?: number): PhysicsMassProperties {
    const d = this.record(body, instanceIndex);
    const computed = shapeMass(d.shape);
    const r = d.rigid;
    if (r && r.isDynamic) {
      computed.mass = r.mass;
      computed.inertia = new Vector3(r.inertia.x, r.inertia.y, r.inertia.z);
    } else if (d.userMass?.mass !== undefined && computed.mass! > 0) {
      const k = d.userMass.mass / computed.mass!;
      computed.mass = d.userMass.mass;
      computed.inertia!.scaleInPlace(k);
    }
    return computed;
  }

  setLinearDamping(body: PhysicsBody, damping: number, instanceIndex?: number): void {
    requireNonNegative(damping, 'setLinearDamping damping');
    this.apply(body, instanceIndex, (d) => { if (d.rigid) d.rigid.linearDamping = damping; d.linearDamping = damping; });
  }
  getLinearDamping(body: PhysicsBody, instanceIndex?: number): number { return this.record(body, instanceIndex).linearDamping; }
  setAngularDamping(body: PhysicsBody, damping: number, instanceIndex?: number): void {
    requireNonNegative(damping, 'setAngularDamping damping');
    this.apply(body, instanceIndex, (d) => { if (d.rigid) d.rigid.angularDamping = damping; d.angularDamping = damping; });
  }
  getAngularDamping(body: PhysicsBody, instanceIndex?: number): number { return this.record(body, instanceIndex).angularDamping; }

  setLinearVelocity(body: PhysicsBody, linVel: Vector3, instanceIndex?: number): void {
    this.apply(body, instanceIndex, (d) => d.rigid?.setLinearVelocity(linVel));
  }
  getLinearVelocityToRef(body: PhysicsBody, linVel: Vector3, instanceIndex?: number): void {
    const r = this.record(body, instanceIndex).rigid;
    if (r) linVel.set(r.linearVelocity.x, r.linearVelocity.y, r.linearVelocity.z);
    else linVel.setAll(0);
  }
  setAngularVelocity(body: PhysicsBody, angVel: Vector3, instanceIndex?: number): void {
    this.apply(body, instanceIndex, (d) => d.rigid?.setAngularVelocity(angVel));
  }
  getAngularVelocityToRef(body: PhysicsBody, angVel: Vector3, instanceIndex?: number): void {
    const r = this.record(body, instanceIndex).rigid;
    if (r) angVel.set(r.angularVelocity.x, r.angularVelocity.y, r.angularVelocity.z);
    else angVel.setAll(0);
  }

  applyImpulse(body: PhysicsBody, impulse: Vector3, location: Vector3, instanceIndex?: number): void {
    this.apply(body, instanceIndex, (d) => d.rigid?.applyImpulse(impulse, location));
  }
  applyAngularImpulse(body: PhysicsBody, angularImpulse: Vector3, instanceIndex?: number): void {
    this.apply(body, instanceIndex, (d) => d.rigid?.applyAngularImpulse(angularImpulse));
  }
  /**
   * The force acts over the next frame's time (executeStep's delta), however
   * many steps that takes; HavokPlugin applies force × its time step at once.
   */
  applyForce(body: PhysicsBody, force: Vector3, location: Vector3, instanceIndex?: number): void {
    requireVector(force, 'applyForce force');
    requireVector(location, 'applyForce location');
    this.apply(body, instanceIndex, (d) => {
      const r = d.rigid;
      if (!r || !r.isDynamic) return;
      const rx = location.x - r.position.x, ry = location.y - r.position.y, rz = location.z - r.position.z;
      d.force.x += force.x; d.force.y += force.y; d.force.z += force.z;
      d.torque.x += ry * force.z - rz * force.y; d.torque.y += rz * force.x - rx * force.z; d.torque.z += rx * force.y - ry * force.x;
      d.hasForce = true;
    });
  }
  applyTorque(body: PhysicsBody, torque: Vector3, instanceIndex?: number): void {
    requireVector(torque, 'applyTorque torque');
    this.apply(body, instanceIndex, (d) => {
      if (!d.rigid || !d.rigid.isDynamic) return;
      d.torque.x += torque.x; d.torque.y += torque.y; d.torque.z += torque.z;
      d.hasForce = true;
    });
  }

  /** Forces and torques of the frame as impulses over its delta. */
  private applyFrameForces(delta: number): void {
    for (const d of this.bodyData) {
      if (!d.hasForce) continue;
      const r = d.rigid;
      if (r && r.isDynamic) {
        this.tmpVec.x = d.force.x * delta; this.tmpVec.y = d.force.y * delta; this.tmpVec.z = d.force.z * delta;
        r.applyImpulse(this.tmpVec);
        this.tmpVec.x = d.torque.x * delta; this.tmpVec.y = d.torque.y * delta; this.tmpVec.z = d.torque.z * delta;
        r.applyAngularImpulse(this.tmpVec);
      }
      d.force.x = 0; d.force.y = 0; d.force.z = 0; d.torque.x = 0; d.torque.y = 0; d.torque.z = 0;
      d.hasForce = false;
    }
  }

  setGravityFactor(body: PhysicsBody, factor: number, instanceIndex?: number): void {
    requireFinite(factor, 'setGravityFactor factor');
    this.apply(body, instanceIndex, (d) => {
      if (d.rigid) { d.rigid.gravityScale = factor; d.rigid.wakeUp(); }
      d.gravityFactor = factor;
    });
  }
  getGravityFactor(body: PhysicsBody, instanceIndex?: number): number { return this.record(body, instanceIndex).gravityFactor; }

  /** The body reaches this pose at the end of the next frame's steps (velocities set to get there). */
  setTargetTransform(body: PhysicsBody, position: Vector3, rotation: Quaternion, instanceIndex?: number): void {
    requireVector(position, 'setTargetTransform position');
    if (![rotation.x, rotation.y, rotation.z, rotation.w].every(Number.isFinite) || rotation.lengthSquared() < 1e-12) {
      throw new RangeError('FootingPlugin.setTargetTransform rotation must be a non-zero quaternion of finite numbers');
    }
    this.apply(body, instanceIndex, (d) => {
      nodeToFooting(position, rotation, d.shape?.geometry, this.tmpV, this.tmpQ);
      d.targetPosition.x = this.tmpV.x; d.targetPosition.y = this.tmpV.y; d.targetPosition.z = this.tmpV.z;
      d.targetRotation.x = this.tmpQ.x; d.targetRotation.y = this.tmpQ.y; d.targetRotation.z = this.tmpQ.z; d.targetRotation.w = this.tmpQ.w;
      d.hasTarget = true;
    });
  }

  getBodyGeometry(body: PhysicsBody): object {
    const d = this.record(body);
    const g = d.shape?.geometry;
    if (!g || !g.core) return { positions: [], indices: [] };
    let positions: ArrayLike<number>, indices: ArrayLike<number>;
    if (g.meshPositions && g.meshIndices) {
      positions = g.meshPositions; indices = g.meshIndices;
    } else if (g.core instanceof HeightField) {
      ({ positions, indices } = g.core.triangleData());
    } else if (g.core instanceof Compound) {
      // Each part's triangles placed by its pose in the compound's frame.
      const pos: number[] = [], ind: number[] = [];
      for (const child of g.core.children) {
        const vd = convexVertexData(child.shape);
        if (!vd) continue;
        const base = pos.length / 3;
        const q = new Quaternion(child.rotation.x, child.rotation.y, child.rotation.z, child.rotation.w);
        const p = vd.positions!;
        for (let i = 0; i < p.length; i += 3) {
          this.tmpV.set(p[i]!, p[i + 1]!, p[i + 2]!).applyRotationQuaternionInPlace(q).addInPlaceFromFloats(child.position.x, child.position.y, child.position.z);
          pos.push(this.tmpV.x, this.tmpV.y, this.tmpV.z);
        }
        for (const k of vd.indices!) ind.push(base + k);
      }
      positions = pos; indices = ind;
    } else {
      const vd = convexVertexData(g.core);
      if (!vd) return { positions: [], indices: [] };
      positions = vd.positions!; indices = vd.indices!;
    }
    // Into the node's frame: p' = offset ⊗ p.
    const out = new Float32Array(positions.length);
    const q = new Quaternion(g.offsetRotation.x, g.offsetRotation.y, g.offsetRotation.z, g.offsetRotation.w);
    const mesh = g.meshPositions !== null;
    for (let i = 0; i < positions.length; i += 3) {
      this.tmpV.set(positions[i]!, positions[i + 1]!, positions[i + 2]!);
      if (!mesh) this.tmpV.applyRotationQuaternionInPlace(q).addInPlaceFromFloats(g.offsetPosition.x, g.offsetPosition.y, g.offsetPosition.z);
      out[i] = this.tmpV.x; out[i + 1] = this.tmpV.y; out[i + 2] = this.tmpV.z;
    }
    return { positions: out, indices: Uint32Array.from(indices) };
  }

  setCollisionCallbackEnabled(body: PhysicsBody, enabled: boolean, instanceIndex?: number): void {
    this.apply(body, instanceIndex, (d) => { d.eventMask = enabled ? d.eventMask | COLLISION_EVENTS : d.eventMask & ~COLLISION_EVENTS; });
  }
  setCollisionEndedCallbackEnabled(body: PhysicsBody, enabled: boolean, instanceIndex?: number): void {
    const bit = FootingEventMask.COLLISION_FINISHED;
    this.apply(body, instanceIndex, (d) => { d.eventMask = enabled ? d.eventMask | bit : d.eventMask & ~bit; });
  }

  getCollisionObservable(body: PhysicsBody, instanceIndex?: number): Observable<IPhysicsCollisionEvent> {
    const d = this.record(body, instanceIndex);
    return (d.collisionObservable ??= new Observable<IPhysicsCollisionEvent>());
  }
  getCollisionEndedObservable(body: PhysicsBody, instanceIndex?: number): Observable<IBasePhysicsCollisionEvent> {
    const d = this.record(body, instanceIndex);
    return (d.collisionEndedObservable ??= new Observable<IBasePhysicsCollisionEvent>());
  }

  getBodyBoundingBox(body: PhysicsBody): BoundingBox {
    const local = body.shape ? this.getBoundingBox(body.shape) : new BoundingBox(Vector3.Zero(), Vector3.Zero());
    return new BoundingBox(local.minimum, local.maximum, body.transformNode.getWorldMatrix());
  }

  // ---------------------------------------------------------------- shapes

  initShape(shape: PhysicsShape, type: PhysicsShapeType, options: PhysicsShapeParameters): void {
    shape._pluginData = new ShapeData(type, options ?? {}, buildShapeGeometry(type, options ?? {}));
  }

  setShapeFilterMembershipMask(shape: PhysicsShape, membershipMask: number): void {
    const s = shapeDataOf(shape);
    s.membership = membershipMask | 0;
    for (const u of s.users) { const r = (u as BodyData).rigid; if (r) r.collisionGroup = s.membership; }
  }
  getShapeFilterMembershipMask(shape: PhysicsShape): number { return shapeDataOf(shape).membership; }
  setShapeFilterCollideMask(shape: PhysicsShape, collideMask: number): void {
    const s = shapeDataOf(shape);
    s.collideWith = collideMask | 0;
    for (const u of s.users) { const r = (u as BodyData).rigid; if (r) r.collisionMask = s.collideWith; }
  }
  getShapeFilterCollideMask(shape: PhysicsShape): number { return shapeDataOf(shape).collideWith; }

  setMaterial(shape: PhysicsShape, material: PhysicsMaterial): void {
    const s = shapeDataOf(shape);
    const friction = material.friction ?? 0.5;
    const restitution = material.restitution ?? 0;
    const staticFriction = material.staticFriction ?? friction;
    if (!(staticFriction >= 0 && staticFriction < Infinity)) throw new RangeError(`FootingPlugin.setMaterial: material.staticFriction must be a finite number ≥ 0 (got ${String(staticFriction)})`);
    for (const field of ['frictionCombine', 'restitutionCombine'] as const) {
      const c = material[field];
      if (c !== undefined && COMBINE_MODES[c] === undefined) throw new RangeError(`FootingPlugin.setMaterial: material.${field} must be a PhysicsMaterialCombineMode (0-4; got ${String(c)})`);
    }
    if (!(friction >= 0 && friction < Infinity)) throw new RangeError(`FootingPlugin.setMaterial: material.friction must be a finite number ≥ 0 (got ${String(friction)})`);
    if (!(restitution >= 0 && restitution <= 1)) throw new RangeError(`FootingPlugin.setMaterial: material.restitution must be in [0, 1] (got ${String(restitution)})`);
    s.material = {
      friction, staticFriction, restitution,
      frictionCombine: material.frictionCombine ?? 1, restitutionCombine: material.restitutionCombine ?? 2,
    };
    for (const u of s.users) {
      const r = (u as BodyData).rigid;
      if (r) {
        r.friction = friction; r.staticFriction = s.material.staticFriction!; r.restitution = restitution;
        r.frictionCombine = COMBINE_MODES[s.material.frictionCombine!]!; r.restitutionCombine = COMBINE_MODES[s.material.restitutionCombine!]!;
      }
    }
  }
  getMaterial(shape: PhysicsShape): PhysicsMaterial { return { ...shapeDataOf(shape).material }; }

  setDensity(shape: PhysicsShape, density: number): void {
    if (typeof density !== 'number' || !(density > 0 && density < Infinity)) throw new RangeError(`FootingPlugin.setDensity: density must be a finite number > 0 (got ${String(density)})`);
    const s = shapeDataOf(shape);
    const before = s.density;
    const users = [...s.users] as BodyData[];
    this.transact(users, () => { s.density = density; for (const u of users) u.rebuild(); }, () => { s.density = before; });
  }
  getDensity(shape: PhysicsShape): number { return shapeDataOf(shape).density; }

  addChild(shape: PhysicsShape, newChild: PhysicsShape, translation?: Vector3, rotation?: Quaternion, scale?: Vector3): void {
    const s = shapeDataOf(shape);
    shapeDataOf(newChild);
    s.children.push({
      shape: newChild,
      translation: translation ? { x: translation.x, y: translation.y, z: translation.z } : { x: 0, y: 0, z: 0 },
      rotation: rotation ? { x: rotation.x, y: rotation.y, z: rotation.z, w: rotation.w } : { x: 0, y: 0, z: 0, w: 1 },
      scale: scale ? { x: scale.x, y: scale.y, z: scale.z } : { x: 1, y: 1, z: 1 },
    });
    this.refreshContainer(s, () => s.children.pop());
  }

  removeChild(shape: PhysicsShape, childIndex: number): void {
    const s = shapeDataOf(shape);
    if (!Number.isInteger(childIndex) || childIndex < 0 || childIndex >= s.children.length) {
      throw new RangeError(`FootingPlugin.removeChild: childIndex ${String(childIndex)} is out of range (${s.children.length} children)`);
    }
    const [removed] = s.children.splice(childIndex, 1);
    this.refreshContainer(s, () => s.children.splice(childIndex, 0, removed!));
  }

  /** Recomputes a container's collider; a failure (e.g. needs Compound) undoes the change. */
  private refreshContainer(s: ShapeData, undo: () => void): void {
    let g: ShapeGeometry;
    try {
      g = containerGeometry(s);
    } catch (e) {
      undo();
      throw e;
    }
    const before = s.geometry;
    const users = [...s.users] as BodyData[];
    this.transact(users, () => { s.geometry = g; for (const u of users) u.rebuild(); }, () => { s.geometry = before; undo(); });
  }

  getNumChildren(shape: PhysicsShape): number { return shapeDataOf(shape).children.length; }

  /** The shape's bounds in its body's frame. */
  getBoundingBox(shape: PhysicsShape): BoundingBox {
    const g = shapeDataOf(shape).geometry;
    if (!g.core) return new BoundingBox(Vector3.Zero(), Vector3.Zero());
    const box = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
    g.core.computeAabb(box, g.offsetPosition, g.offsetRotation);
    return new BoundingBox(new Vector3(box.min.x, box.min.y, box.min.z), new Vector3(box.max.x, box.max.y, box.max.z));
  }

  disposeShape(shape: PhysicsShape): void {
    shape._pluginData = undefined;
  }

  setTrigger(shape: PhysicsShape, isTrigger: boolean): void {
    const s = shapeDataOf(shape);
    if (s.isTrigger === !!isTrigger) return;
    const users = [...s.users] as BodyData[];
    this.transact(users, () => { s.isTrigger = !!isTrigger; for (const u of users) u.rebuild(); }, () => { s.isTrigger = !isTrigger; });
  }

  // ---------------------------------------------------------------- constraints

  initConstraint(constraint: PhysicsConstraint, body: PhysicsBody, childBody: PhysicsBody, instanceIndex?: number, childInstanceIndex?: number): void {
    const a = this.record(body, instanceIndex), b = this.record(childBody, childInstanceIndex);
    if (!constraint._initOptions) {
      // The frames PhysicsViewer draws (HavokPlugin fills the same field): pivots and axes in each node's frame.
      const o = constraint.options;
      const axisA = o.axisA?.clone() ?? new Vector3(1, 0, 0), axisB = o.axisB?.clone() ?? new Vector3(1, 0, 0);
      const perpAxisA = o.perpAxisA?.clone() ?? axisA.getNormalToRef(new Vector3()), perpAxisB = o.perpAxisB?.clone() ?? axisB.getNormalToRef(new Vector3());
      constraint._initOptions = { pivotA: o.pivotA?.clone() ?? Vector3.Zero(), pivotB: o.pivotB?.clone() ?? Vector3.Zero(), axisA, axisB, perpAxisA, perpAxisB };
    }
    let c = constraint._pluginData as ConstraintData | undefined;
    if (!(c instanceof ConstraintData)) {
      c = new ConstraintData(this.world, constraint);
      constraint._pluginData = c;
      this.constraints.add(c);
    }
    c.addPair(a, b);
  }

  addConstraint(body: PhysicsBody, childBody: PhysicsBody, constraint: PhysicsConstraint, instanceIndex?: number, childInstanceIndex?: number): void {
    this.initConstraint(constraint, body, childBody, instanceIndex, childInstanceIndex);
  }

  private constraintData(constraint: PhysicsConstraint): ConstraintData {
    const c = constraint._pluginData as ConstraintData | undefined;
    if (!(c instanceof ConstraintData)) throw new TypeError('FootingPlugin: the constraint is not attached to bodies yet (body.addConstraint)');
    return c;
  }

  setEnabled(constraint: PhysicsConstraint, isEnabled: boolean): void { this.constraintData(constraint).setEnabled(isEnabled); }
  getEnabled(constraint: PhysicsConstraint): boolean { return this.constraintData(constraint).enabled; }
  setCollisionsEnabled(constraint: PhysicsConstraint, isEnabled: boolean): void { this.constraintData(constraint).setCollisions(isEnabled); }
  getCollisionsEnabled(constraint: PhysicsConstraint): boolean { return this.constraintData(constraint).collisions; }

  setAxisFriction(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, friction: number): void { this.constraintData(constraint).setAxis(axis, 'friction', friction); }
  getAxisFriction(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> { return this.constraintData(constraint).axis(axis).friction; }
  setAxisMode(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, limitMode: PhysicsConstraintAxisLimitMode): void { this.constraintData(constraint).setAxis(axis, 'mode', limitMode); }
  getAxisMode(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<PhysicsConstraintAxisLimitMode> { return this.constraintData(constraint).axis(axis).mode; }
  setAxisMinLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, minLimit: number): void { this.constraintData(constraint).setAxis(axis, 'minLimit', minLimit); }
  getAxisMinLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> { return this.constraintData(constraint).axis(axis).minLimit; }
  setAxisMaxLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, limit: number): void { this.constraintData(constraint).setAxis(axis, 'maxLimit', limit); }
  getAxisMaxLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> { return this.constraintData(constraint).axis(axis).maxLimit; }
  setAxisMotorType(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, motorType: PhysicsConstraintMotorType): void { this.constraintData(constraint).setAxis(axis, 'motorType', motorType); }
  getAxisMotorType(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<PhysicsConstraintMotorType> { return this.constraintData(constraint).axis(axis).motorType; }
  setAxisMotorTarget(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, target: number): void { this.constraintData(constraint).setAxis(axis, 'motorTarget', target); }
  getAxisMotorTarget(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> { return this.constraintData(constraint).axis(axis).motorTarget; }
  setAxisMotorMaxForce(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, maxForce: number): void { this.constraintData(constraint).setAxis(axis, 'motorMaxForce', maxForce); }
  getAxisMotorMaxForce(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> { return this.constraintData(constraint).axis(axis).motorMaxForce; }

  disposeConstraint(constraint: PhysicsConstraint): void {
    const c = constraint._pluginData as ConstraintData | undefined;
    if (c instanceof ConstraintData) { c.dispose(); this.constraints.delete(c); }
    constraint._pluginData = undefined;
  }

  getBodiesUsingConstraint(constraint: PhysicsConstraint): ConstrainedBodyPair[] {
    const c = constraint._pluginData as ConstraintData | undefined;
    if (!(c instanceof ConstraintData)) return [];
    return c.pairs.map((p) => ({ parentBody: p.a.body, parentBodyIndex: p.a.index, childBody: p.b.body, childBodyIndex: p.b.index }));
  }

  // ---------------------------------------------------------------- queries

  /**
   * The closest hit (or, into an array, the hits in order of distance).
   * Filtering as Havok's: the query's membership against the shapes'
   * collide masks and its collideWith against their membership.
   */
  raycast(from: Vector3, to: Vector3, result: PhysicsRaycastResult | Array<PhysicsRaycastResult>, query?: IRaycastQuery): void {
    const results = Array.isArray(result) ? result : [result];
    for (const r of results) r.reset(from, to);
    const fill = !Array.isArray(result) || result.length > 0 ? results.length : Infinity;
    const exclude = query?.ignoreBody;
    const hitBodies = new Set<RigidBody>();
    const options = {
      collisionGroup: (query?.membership ?? 0xffffffff) >>> 0,
      collisionMask: (query?.collideWith ?? 0xffffffff) >>> 0,
      includeSensors: !!query?.shouldHitTriggers,
      filter: (b: RigidBody): boolean => {
        if (hitBodies.has(b)) return false;
        const d = b.userData;
        return !(d instanceof BodyData) || d.body !== exclude;
      },
    };
    for (let i = 0; i < fill; i++) {
      const hit = this.world.raycast(from, to, options);
      if (!hit) break;
      hitBodies.add(hit.body);
      let r = results[i];
      if (!r) { r = new PhysicsRaycastResult(); r.reset(from, to); results.push(r); }
      const d = hit.body.userData;
      if (d instanceof BodyData) { r.body = d.body; r.bodyIndex = d.index; r.shape = d.body.shape ?? undefined; }
      r.setHitData(hit.normal, hit.point, hit.triangle);
      r.setHitDistance(hit.distance);
    }
  }

  dispose(): void {
    for (const d of [...this.bodyData]) this.releaseBody(d);
    for (const off of this.unsubscribe.splice(0)) off();
    this.onCollisionObservable.clear();
    this.onCollisionEndedObservable.clear();
    this.onTriggerCollisionObservable.clear();
  }
}
