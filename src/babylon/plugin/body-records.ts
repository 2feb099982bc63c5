// Stage: the plugin's records of Babylon bodies. One BodyData per body (or
// per thin instance) holds what Babylon set and the footing body made from
// it; this module creates, finds, rebuilds, teleports and releases them, and
// runs the prestep that carries nodes moved by the user over to their bodies.
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { PhysicsMotionType, PhysicsPrestepType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { Compound, ConvexShape, MAX_POSITION, type BodyType, type Quat, type RigidBody, type Vec3, type World } from '../../index';
import { COMBINE_MODES, type ShapeGeometry } from './shapes';
import { copyVec, footingToNode, instancePose, instancesWithMatrix, nodeToFooting, requireEnumValue, requireNodePose, requireVector, samePose, shapeMass } from './pose';
import { BodyData } from './body-data';

/** A locked axis's moment over the body's largest other moment (userInertia). */
const LOCKED_INERTIA = 1e6;

export class BodyRecords {
  /** Every live record, bodies and thin instances alike. */
  readonly all = new Set<BodyData>();
  private readonly tmpV = new Vector3();
  private readonly tmpQ = new Quaternion();
  private readonly tmpVec: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly tmpQuat: Quat = { x: 0, y: 0, z: 0, w: 1 };

  constructor(private readonly world: World) {}

  init(body: PhysicsBody, motionType: PhysicsMotionType, position: Vector3, orientation: Quaternion): void {
    requireEnumValue(motionType, PhysicsMotionType, 'PhysicsMotionType', 'initBody: motionType');
    const d = new BodyData(this, body, 0, motionType);
    d.position.x = position.x; d.position.y = position.y; d.position.z = position.z;
    d.rotation.x = orientation.x; d.rotation.y = orientation.y; d.rotation.z = orientation.z; d.rotation.w = orientation.w;
    body._pluginData = d;
    this.all.add(d);
  }

  initInstances(body: PhysicsBody, motionType: PhysicsMotionType, mesh: Mesh): void {
    requireEnumValue(motionType, PhysicsMotionType, 'PhysicsMotionType', 'initBodyInstances: motionType');
    const storage = mesh._thinInstanceDataStorage;
    const matrices = storage?.matrixData;
    if (!matrices) throw new TypeError(`FootingPlugin.initBodyInstances: mesh '${mesh.name}' has no thin instance matrices`);
    const count = storage.instancesCount ?? 0;
    this.checkInstances(mesh, matrices, count);
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
    this.all.add(d);
    if (d.shape) { d.shape.users.add(d); this.rebuildBody(d); }
  }

  /** Follows the mesh's thin instances: fewer release records, the rest teleport, new ones are added. */
  updateInstances(body: PhysicsBody, mesh: Mesh): void {
    const storage = mesh._thinInstanceDataStorage;
    const matrices = storage?.matrixData;
    if (!matrices) return;
    const count = storage.instancesCount ?? 0;
    // Every pose first, so a bad matrix changes no instance (not a record without a body, nor the ones before it moved).
    this.checkInstances(mesh, matrices, count);
    const list = body._pluginDataInstances as BodyData[];
    while (list.length > count) this.release(list.pop()!);
    for (let i = 0; i < list.length; i++) {
      const d = list[i]!;
      instancePose(matrices, i, this.tmpVec, this.tmpQuat);
      this.teleport(d, this.tmpVec, this.tmpQuat);
    }
    const motionType = list[0]?.motionType ?? PhysicsMotionType.DYNAMIC;
    for (let i = list.length; i < count; i++) this.addInstance(body, motionType, matrices, i);
  }

  /** The poses of thin instances [0, count) as the prestep checks a node's, named after the mesh and instance. */
  private checkInstances(mesh: Mesh, matrices: Float32Array, count: number): void {
    if (matrices.length < 16 * count) {
      throw new RangeError(`FootingPlugin: mesh '${mesh.name}' has ${count} thin instances but matrices for ${Math.floor(matrices.length / 16)}`);
    }
    for (let i = 0; i < count; i++) {
      instancePose(matrices, i, this.tmpVec, this.tmpQuat);
      requireNodePose(this.tmpVec, this.tmpQuat, mesh.name, i);
    }
  }

  /** Takes the body's footing bodies out of the world; the records stay. */
  remove(body: PhysicsBody): void {
    for (const d of this.records(body)) this.removeRigid(d);
  }

  dispose(body: PhysicsBody): void {
    for (const d of this.records(body)) this.release(d);
    body._pluginData = undefined;
    body._pluginDataInstances = [];
  }

  release(d: BodyData): void {
    this.removeRigid(d);
    for (const c of [...d.constraints]) c.detach(d);
    d.shape?.users.delete(d);
    d.disposed = true;
    this.all.delete(d);
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
  records(body: PhysicsBody): BodyData[] {
    const list = body._pluginDataInstances as BodyData[] | undefined;
    if (list && list.length > 0) return list;
    return body._pluginData instanceof BodyData ? [body._pluginData] : [];
  }

  record(body: PhysicsBody, instanceIndex?: number): BodyData {
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

  /** Runs fn on one instance, or on every record of the body when instanceIndex is undefined. */
  apply(body: PhysicsBody, instanceIndex: number | undefined, fn: (d: BodyData) => void): void {
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
        inertia: type === 'dynamic' ? this.userInertia(d, mass) : undefined,
        inertiaRotation: type === 'dynamic' ? this.inertiaFrame(d, g) : undefined,
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
   * The core's principal moments for the user's (setMassProperties), which
   * are per unit mass as Havok's: times the body's mass (the user's, or its
   * shape's at its density). A 0 is an axis the body does not turn about,
   * as Havok reads it: footing's bodies have no infinite moment, so that
   * axis gets LOCKED_INERTIA times the largest moment of the body (the
   * user's, or its shape's), and an impulse turns it a millionth as much.
   */
  private userInertia(d: BodyData, mass: number | undefined): Vec3 | undefined {
    const u = d.userMass?.inertia;
    if (!u) return undefined;
    const own = shapeMass(d.shape);
    const m = mass ?? own.mass!;
    if (u.x > 0 && u.y > 0 && u.z > 0) return { x: u.x * m, y: u.y * m, z: u.z * m };
    const i = own.inertia!;
    const locked = LOCKED_INERTIA * m * Math.max(u.x, u.y, u.z, i.x, i.y, i.z);
    return { x: u.x > 0 ? u.x * m : locked, y: u.y > 0 ? u.y * m : locked, z: u.z > 0 ? u.z * m : locked };
  }

  /**
   * The axes of the user's inertia (setMassProperties) in the footing body's
   * frame: inertiaOrientation turns them into the node's axes, and the body's
   * axes are the node's turned by the shape's offset rotation, so
   * Q = offset⁻¹ · inertiaOrientation (footing's inertiaRotation).
   */
  private inertiaFrame(d: BodyData, g: ShapeGeometry): Quat | undefined {
    const m = d.userMass;
    if (!m?.inertia) return undefined;
    const o = g.offsetRotation, io = m.inertiaOrientation;
    this.tmpQ.set(-o.x, -o.y, -o.z, o.w);
    if (io) this.tmpQ.multiplyToRef(io, this.tmpQ);
    return { x: this.tmpQ.x, y: this.tmpQ.y, z: this.tmpQ.z, w: this.tmpQ.w };
  }

  /** Runs a change that rebuilds bodies; when the rebuild is refused, undo() restores the records. */
  transact(records: BodyData[], change: () => void, undo: () => void): void {
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

  /** Stored in the footing body's frame; stepping.ts reaches it over the next frame's steps. */
  setTarget(body: PhysicsBody, position: Vector3, rotation: Quaternion, instanceIndex?: number): void {
    requireVector(position, 'setTargetTransform position');
    // Past MAX_POSITION the core refuses the target inside executeStep, and did so every frame after.
    for (const k of ['x', 'y', 'z'] as const) {
      if (Math.abs(position[k]) > MAX_POSITION) throw new RangeError(`FootingPlugin.setTargetTransform position.${k} must be within ±${MAX_POSITION} m (MAX_POSITION; got ${position[k]})`);
    }
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

  /**
   * The prestep of each body whose prestep type is not DISABLED. Every node
   * is checked first: a node the bodies cannot follow (NaN, too far) is
   * refused by name with no body moved.
   */
  prestepAll(bodies: Array<PhysicsBody>): void {
    for (const body of bodies) {
      if (body.getPrestepType() !== PhysicsPrestepType.DISABLED && body.transformNode) this.checkPrestep(body);
    }
    for (const body of bodies) {
      if (body.getPrestepType() !== PhysicsPrestepType.DISABLED && body.transformNode) this.prestep(body);
    }
  }

  /** The poses prestep will read; computes the nodes' world matrices, which prestep then uses. */
  private checkPrestep(body: PhysicsBody): void {
    const node = body.transformNode;
    if (body.numInstances > 0) {
      if (body.getPrestepType() !== PhysicsPrestepType.TELEPORT) return;
      const matrices = (node as Mesh)._thinInstanceDataStorage?.matrixData;
      if (!matrices) return;
      const n = instancesWithMatrix(body, matrices);
      for (let i = 0; i < n; i++) {
        instancePose(matrices, i, this.tmpVec, this.tmpQuat);
        requireNodePose(this.tmpVec, this.tmpQuat, node.name, i);
      }
      return;
    }
    if (!(body._pluginData instanceof BodyData)) return;
    node.computeWorldMatrix(true);
    requireNodePose(node.absolutePosition, node.absoluteRotationQuaternion, node.name);
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
      const n = instancesWithMatrix(body, matrices);
      for (let i = 0; i < n; i++) {
        instancePose(matrices, i, this.tmpVec, this.tmpQuat);
        const d = list[i]!;
        if (!samePose(d.syncedPosition, d.syncedRotation, this.tmpVec, this.tmpQuat)) this.teleport(d, this.tmpVec, this.tmpQuat);
      }
      return;
    }
    const d = body._pluginData as BodyData | undefined;
    if (!(d instanceof BodyData)) return;
    // (World matrix computed by checkPrestep.)
    const p = node.absolutePosition, q = node.absoluteRotationQuaternion;
    if (type === PhysicsPrestepType.TELEPORT) {
      if (!samePose(d.syncedPosition, d.syncedRotation, p, q)) this.teleport(d, p, q);
    } else if (type === PhysicsPrestepType.ACTION) {
      this.setTarget(body, p, q);
    }
  }
}
