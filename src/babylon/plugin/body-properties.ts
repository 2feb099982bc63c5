// Stage: what the user sets on a body between frames. Shape, motion type and
// mass replace the footing body (through BodyRecords.transact, so a refused
// change leaves the body as it was); damping, gravity factor, velocities and
// event masks write through to the record and its footing body.
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Observable } from '@babylonjs/core/Misc/observable';
import { PhysicsMotionType, type IBasePhysicsCollisionEvent, type IPhysicsCollisionEvent, type PhysicsMassProperties } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import type { PhysicsShape } from '@babylonjs/core/Physics/v2/physicsShape';
import type { Nullable } from '@babylonjs/core/types';
import type { ShapeData } from './shapes';
import { liveShapeDataOf, requireEnumValue, requireFinite, requireNonNegative, shapeMass } from './pose';
import type { BodyData } from './body-data';
import type { BodyRecords } from './body-records';

/** The shape each body last took, for putting `body.shape` back when the plugin refuses a new one. */
const acceptedShape = new WeakMap<PhysicsBody, Nullable<PhysicsShape>>();

export function setShape(records: BodyRecords, body: PhysicsBody, shape: Nullable<PhysicsShape>): void {
  try {
    const s = shape ? liveShapeDataOf(shape, 'setShape') : null;
    const list = records.records(body);
    const before = list.map((d) => d.shape);
    const assign = (d: BodyData, to: ShapeData | null): void => { d.shape?.users.delete(d); d.shape = to; to?.users.add(d); };
    records.transact(list, () => {
      for (const d of list) { assign(d, s); records.rebuildBody(d); }
    }, () => list.forEach((d, i) => assign(d, before[i]!)));
  } catch (error) {
    // Babylon's shape setter stores the new shape before asking the plugin: a refused one must not stay readable as the body's.
    const stored = body as unknown as { _shape?: Nullable<PhysicsShape> };
    if (stored._shape === shape) stored._shape = acceptedShape.get(body) ?? null;
    throw error;
  }
  acceptedShape.set(body, shape);
}

export function setMotionType(records: BodyRecords, body: PhysicsBody, motionType: PhysicsMotionType, instanceIndex?: number): void {
  requireEnumValue(motionType, PhysicsMotionType, 'PhysicsMotionType', 'setMotionType: motionType');
  records.apply(body, instanceIndex, (d) => {
    if (d.motionType === motionType) return;
    const before = d.motionType;
    records.transact([d], () => { d.motionType = motionType; records.rebuildBody(d); }, () => { d.motionType = before; });
  });
}

/**
 * Checked by name before any body changes, and copied: the record keeps
 * values, not the caller's object (changed later, it would reach the next
 * rebuild, say a NaN mass at an unrelated setMotionType).
 */
export function setMassProperties(records: BodyRecords, body: PhysicsBody, massProps: PhysicsMassProperties, instanceIndex?: number): void {
  if (massProps === null || typeof massProps !== 'object') throw new TypeError(`FootingPlugin.setMassProperties: massProps must be an object { mass?, inertia?, inertiaOrientation?, centerOfMass? } (got ${String(massProps)})`);
  const m = massProps.mass;
  if (m !== undefined && (typeof m !== 'number' || !Number.isFinite(m) || m < 0)) {
    throw new RangeError(`FootingPlugin.setMassProperties: massProps.mass must be a finite number ≥ 0 (got ${String(m)})`);
  }
  const io = massProps.inertiaOrientation;
  if (io !== undefined && io !== null && !(Number.isFinite(io.x) && Number.isFinite(io.y) && Number.isFinite(io.z) && Number.isFinite(io.w) && io.x * io.x + io.y * io.y + io.z * io.z + io.w * io.w > 1e-12)) {
    throw new RangeError(`FootingPlugin.setMassProperties: massProps.inertiaOrientation must be a non-zero quaternion of finite numbers (got ${io.x}, ${io.y}, ${io.z}, ${io.w})`);
  }
  const inertia = massProps.inertia;
  if (inertia !== undefined && inertia !== null) {
    for (const k of ['x', 'y', 'z'] as const) {
      const v = inertia[k];
      // 0 is Havok's axis the body cannot turn about (BodyRecords.userInertia).
      if (typeof v !== 'number' || !(v === 0 || (v > 0 && v < Infinity && 1 / v < Infinity))) {
        throw new RangeError(`FootingPlugin.setMassProperties: massProps.inertia.${k} must be a finite number > 0, or 0 for an axis the body does not turn about (got ${String(v)})`);
      }
    }
  }
  const copy: PhysicsMassProperties = {
    mass: m,
    inertia: inertia ? new Vector3(inertia.x, inertia.y, inertia.z) : undefined,
    inertiaOrientation: io ? new Quaternion(io.x, io.y, io.z, io.w) : undefined,
    centerOfMass: massProps.centerOfMass ? massProps.centerOfMass.clone() : undefined,
  };
  records.apply(body, instanceIndex, (d) => {
    const before = d.userMass;
    records.transact([d], () => { d.userMass = copy; records.rebuildBody(d); }, () => { d.userMass = before; });
  });
}

/**
 * The dynamic footing body's mass and inertia, with the inertia's axes taken
 * back to the node's frame (offset · inertiaRotation); otherwise the shape's,
 * scaled to the user's mass.
 */
export function getMassProperties(d: BodyData): PhysicsMassProperties {
  const computed = shapeMass(d.shape);
  const r = d.rigid, g = d.rigidGeometry;
  if (r && r.isDynamic) {
    computed.mass = r.mass;
    // Per unit mass, as Havok's and setMassProperties's.
    computed.inertia = new Vector3(r.inertia.x / r.mass, r.inertia.y / r.mass, r.inertia.z / r.mass);
    // A locked axis reads back as the 0 it was set to, not as the large moment that stands for it.
    const u = d.userMass?.inertia;
    if (u) for (const k of ['x', 'y', 'z'] as const) if (u[k] === 0) computed.inertia[k] = 0;
    if (g) {
      const o = g.offsetRotation, q = r.inertiaRotation;
      computed.inertiaOrientation = new Quaternion(o.x, o.y, o.z, o.w).multiplyInPlace(new Quaternion(q.x, q.y, q.z, q.w));
    }
  } else if (d.userMass?.mass !== undefined && computed.mass! > 0) {
    // The inertia per unit mass is the shape's at any mass.
    computed.mass = d.userMass.mass;
  }
  return computed;
}

export function setLinearDamping(records: BodyRecords, body: PhysicsBody, damping: number, instanceIndex?: number): void {
  requireNonNegative(damping, 'setLinearDamping damping');
  records.apply(body, instanceIndex, (d) => { if (d.rigid) d.rigid.linearDamping = damping; d.linearDamping = damping; });
}

export function setAngularDamping(records: BodyRecords, body: PhysicsBody, damping: number, instanceIndex?: number): void {
  requireNonNegative(damping, 'setAngularDamping damping');
  records.apply(body, instanceIndex, (d) => { if (d.rigid) d.rigid.angularDamping = damping; d.angularDamping = damping; });
}

export function setGravityFactor(records: BodyRecords, body: PhysicsBody, factor: number, instanceIndex?: number): void {
  requireFinite(factor, 'setGravityFactor factor');
  records.apply(body, instanceIndex, (d) => {
    if (d.rigid) { d.rigid.gravityScale = factor; d.rigid.wakeUp(); }
    d.gravityFactor = factor;
  });
}

export function getLinearVelocityToRef(d: BodyData, linVel: Vector3): void {
  const r = d.rigid;
  if (r) linVel.set(r.linearVelocity.x, r.linearVelocity.y, r.linearVelocity.z);
  else linVel.setAll(0);
}

export function getAngularVelocityToRef(d: BodyData, angVel: Vector3): void {
  const r = d.rigid;
  if (r) angVel.set(r.angularVelocity.x, r.angularVelocity.y, r.angularVelocity.z);
  else angVel.setAll(0);
}

/** Sets or clears the bits of the body's event mask. */
export function setEventBits(records: BodyRecords, body: PhysicsBody, bits: number, enabled: boolean, instanceIndex?: number): void {
  records.apply(body, instanceIndex, (d) => { d.eventMask = enabled ? d.eventMask | bits : d.eventMask & ~bits; });
}

export function collisionObservable(d: BodyData): Observable<IPhysicsCollisionEvent> {
  return (d.collisionObservable ??= new Observable<IPhysicsCollisionEvent>());
}

export function collisionEndedObservable(d: BodyData): Observable<IBasePhysicsCollisionEvent> {
  return (d.collisionEndedObservable ??= new Observable<IBasePhysicsCollisionEvent>());
}
