// Pose conversions between Babylon nodes and footing bodies, argument checks
// and mass properties for the plugin. Each function keeps its own scratch.
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { PhysicsMassProperties } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { PhysicsShape } from '@babylonjs/core/Physics/v2/physicsShape';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import { Compound, ConvexShape, MAX_POSITION, type Quat, type RigidBody, type Vec3 } from '../../index';
import { ShapeData, type ShapeGeometry } from './shapes';

export function shapeDataOf(shape: PhysicsShape): ShapeData {
  const d = shape._pluginData as ShapeData | undefined;
  if (!(d instanceof ShapeData)) throw new TypeError('FootingPlugin: the shape was not created by this plugin (initShape)');
  return d;
}

/** A shape to change or give to a body or container: not disposed (a disposed one can still be read, as bodies keep using it). */
export function liveShapeDataOf(shape: PhysicsShape, method: string): ShapeData {
  const d = shapeDataOf(shape);
  if (d.disposed) throw new TypeError(`FootingPlugin.${method}: the shape was disposed (PhysicsShape.dispose); bodies and containers that use it keep it, but it cannot be changed or given to another`);
  return d;
}

export function requireVector(v: Vector3, field: string): void {
  if (!v || !Number.isFinite(v.x) || !Number.isFinite(v.y) || !Number.isFinite(v.z)) {
    throw new RangeError(`FootingPlugin.${field} must be a vector of finite numbers (got ${v ? `${v.x}, ${v.y}, ${v.z}` : String(v)})`);
  }
}

export function requireNonNegative(v: number, field: string): void {
  if (typeof v !== 'number' || !(v >= 0 && v < Infinity)) throw new RangeError(`FootingPlugin.${field} must be a finite number ≥ 0 (got ${String(v)})`);
}

/**
 * 32 filter bits, as the core's collisionGroup setter takes them: an integer
 * in [−2³¹, 2³² − 1] (1.5 would read back as 1). Returned as a signed 32-bit integer.
 */
export function requireMask(mask: number, field: string): number {
  if (typeof mask !== 'number' || !Number.isInteger(mask) || mask < -0x80000000 || mask > 0xffffffff) {
    throw new RangeError(`FootingPlugin.${field} must be an integer in [-2^31, 2^32 - 1] (32 filter bits; got ${String(mask)})`);
  }
  return mask | 0;
}

export function requireFinite(v: number, field: string): void {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`FootingPlugin.${field} must be a finite number (got ${String(v)})`);
}

/**
 * One of the values of a Babylon enum (its runtime object maps each value
 * back to its name): a value Havok does not know would otherwise be stored
 * and read back while acting as some default.
 */
export function requireEnumValue(v: number, values: Readonly<Record<string | number, string | number>>, type: string, field: string): void {
  if (typeof v === 'number' && typeof values[v] === 'string') return;
  const list = Object.keys(values).filter((k) => typeof values[k] === 'number').map((k) => `${k} ${values[k]}`).join(', ');
  throw new RangeError(`FootingPlugin.${field} must be a ${type} (${list}; got ${String(v)})`);
}

/**
 * A node pose the prestep carries to a footing body: finite, within
 * MAX_POSITION, a non-zero rotation. Checked before anything is written, and
 * named after the node, since the error reaches the user from executeStep.
 */
export function requireNodePose(p: Readonly<Vec3>, q: Readonly<Quat>, node: string, instance?: number): void {
  const m = MAX_POSITION;
  // (v <= m && v >= -m) is false for NaN.
  if (p.x <= m && p.x >= -m && p.y <= m && p.y >= -m && p.z <= m && p.z >= -m &&
    Number.isFinite(q.x) && Number.isFinite(q.y) && Number.isFinite(q.z) && Number.isFinite(q.w) && (q.x !== 0 || q.y !== 0 || q.z !== 0 || q.w !== 0)) return;
  const where = `FootingPlugin: node '${node}'${instance === undefined ? '' : ` thin instance ${instance}`}`;
  for (const k of ['x', 'y', 'z'] as const) {
    const v = p[k];
    if (!Number.isFinite(v)) throw new RangeError(`${where} position.${k} must be a finite number (got ${String(v)})`);
    if (Math.abs(v) > m) throw new RangeError(`${where} position.${k} must be within ±${m} m (MAX_POSITION; got ${v})`);
  }
  for (const k of ['x', 'y', 'z', 'w'] as const) {
    if (!Number.isFinite(q[k])) throw new RangeError(`${where} rotation.${k} must be a finite number (got ${String(q[k])})`);
  }
  throw new RangeError(`${where} rotation must be a non-zero quaternion`);
}


export function copyVec(out: Vec3, v: Readonly<Vec3>): void { out.x = v.x; out.y = v.y; out.z = v.z; }

/** Footing body pose = node pose ⊗ shape offset. */
const nodeToFootingQ = new Quaternion();
export function nodeToFooting(p: Readonly<Vec3>, q: Readonly<Quat>, g: ShapeGeometry | null | undefined, outP: Vector3, outQ: Quaternion): void {
  outQ.set(q.x, q.y, q.z, q.w);
  if (!g) { outP.set(p.x, p.y, p.z); outQ.normalize(); return; }
  const o = g.offsetPosition;
  outP.set(o.x, o.y, o.z).applyRotationQuaternionInPlace(outQ).addInPlaceFromFloats(p.x, p.y, p.z);
  const r = g.offsetRotation;
  nodeToFootingQ.set(r.x, r.y, r.z, r.w);
  outQ.multiplyInPlace(nodeToFootingQ).normalize();
}

/** Node pose = footing body pose ⊗ inverse(shape offset). */
const footingToNodeQ = new Quaternion();
export function footingToNode(p: Readonly<Vec3>, q: Readonly<Quat>, g: ShapeGeometry | null | undefined, outP: Vector3, outQ: Quaternion): void {
  outQ.set(q.x, q.y, q.z, q.w);
  if (!g) { outP.set(p.x, p.y, p.z); return; }
  const r = g.offsetRotation, o = g.offsetPosition;
  // Most shapes (box, sphere, centred capsule) sit at the node's origin: the node pose is the body's.
  if (o.x === 0 && o.y === 0 && o.z === 0 && r.w === 1 && r.x === 0 && r.y === 0 && r.z === 0) { outP.set(p.x, p.y, p.z); return; }
  footingToNodeQ.set(-r.x, -r.y, -r.z, r.w);
  outQ.multiplyInPlace(footingToNodeQ).normalize();
  outP.set(-o.x, -o.y, -o.z).applyRotationQuaternionInPlace(outQ).addInPlaceFromFloats(p.x, p.y, p.z);
}

const instanceMatrix = new Matrix();
const instanceScale = new Vector3();
const instanceRotation = new Quaternion();
const instancePosition = new Vector3();
export function instancePose(matrices: Float32Array, i: number, outP: Vec3, outQ: Quat): void {
  Matrix.FromArrayToRef(matrices, i * 16, instanceMatrix);
  instanceMatrix.decompose(instanceScale, instanceRotation, instancePosition);
  outP.x = instancePosition.x; outP.y = instancePosition.y; outP.z = instancePosition.z;
  outQ.x = instanceRotation.x; outQ.y = instanceRotation.y; outQ.z = instanceRotation.z; outQ.w = instanceRotation.w;
}

/**
 * The body's instances that have a matrix in the mesh's buffer. A buffer
 * made smaller (thinInstanceSetBuffer) without body.updateBodyInstances()
 * leaves the rest without one: they are neither teleported nor drawn, and
 * keep simulating until the update, as instances past a lowered
 * thinInstanceCount do (reading past the buffer's end gives NaN, and the
 * prestep would throw every frame).
 */
export function instancesWithMatrix(body: PhysicsBody, matrices: Float32Array): number {
  return Math.min(body._pluginDataInstances.length, Math.floor(matrices.length / 16));
}

/** Float32 node matrices round poses: compare with a tolerance. */
export function samePose(sp: Vector3, sq: Quaternion, p: Readonly<Vec3>, q: Readonly<Quat>): boolean {
  const e = 1e-5;
  return Math.abs(sp.x - p.x) <= e && Math.abs(sp.y - p.y) <= e && Math.abs(sp.z - p.z) <= e &&
    Math.abs(Math.abs(sq.x * q.x + sq.y * q.y + sq.z * q.z + sq.w * q.w) - 1) <= 1e-6;
}

/** A dynamic body driven to a pose: the velocities that reach it in dt (HavokPlugin's target transform on a dynamic body). */
const driveTurn = new Quaternion();
const driveInverse = new Quaternion();
export function driveToPose(r: RigidBody, p: Readonly<Vec3>, q: Readonly<Quat>, dt: number): void {
  const inv = 1 / dt;
  r.setLinearVelocity({ x: (p.x - r.position.x) * inv, y: (p.y - r.position.y) * inv, z: (p.z - r.position.z) * inv });
  driveTurn.set(q.x, q.y, q.z, q.w);
  driveInverse.set(-r.rotation.x, -r.rotation.y, -r.rotation.z, r.rotation.w);
  driveTurn.multiplyInPlace(driveInverse);
  if (driveTurn.w < 0) driveTurn.scaleInPlace(-1);
  const s = Math.hypot(driveTurn.x, driveTurn.y, driveTurn.z);
  const k = s < 1e-12 ? 0 : (2 * Math.atan2(s, driveTurn.w) / s) * inv;
  r.setAngularVelocity({ x: driveTurn.x * k, y: driveTurn.y * k, z: driveTurn.z * k });
}

/** Mass properties of a shape at its density, in the node's frame (Havok's computeMassProperties). */
export function shapeMass(s: ShapeData | null): PhysicsMassProperties {
  const g = s?.geometry;
  if (!s || !g || !(g.core instanceof ConvexShape || g.core instanceof Compound)) {
    return { centerOfMass: Vector3.Zero(), mass: 0, inertia: Vector3.Zero(), inertiaOrientation: Quaternion.Identity() };
  }
  const m = g.core.massProperties(s.density);
  const o = g.offsetPosition, r = g.offsetRotation;
  // Babylon's inertia is per unit mass, as Havok's (a 1 m box: 1/6 whatever its mass).
  const k = m.mass > 0 ? 1 / m.mass : 0;
  return {
    centerOfMass: new Vector3(o.x, o.y, o.z), mass: m.mass,
    inertia: new Vector3(m.inertia.x * k, m.inertia.y * k, m.inertia.z * k), inertiaOrientation: new Quaternion(r.x, r.y, r.z, r.w),
  };
}

