/**
 * The snapshot format of `World.snapshot` / `World.restore`: typed arrays
 * only (each with its own ArrayBuffer, so a snapshot can be posted to a
 * worker with `snapshotTransferList(s)` as the transfer list, without a
 * copy), and a version number checked on restore.
 */
import type { RigidBody } from '../dynamics/body';
import { COMBINE_CODES } from '../dynamics/body-desc';

const COMBINE_COUNT = COMBINE_CODES.length;
import { ShapeKind, type Shape } from '../shapes/shape';
import { MAX_ACCELERATION, MAX_ANGULAR_ACCELERATION, MAX_BODY_STATE, MAX_GRAVITY_SCALE } from '../math/validate';

/** Format version written by `World.snapshot` and the only one `restore` accepts (1 was the plain-array format; 3 added static friction, combine modes and inertia; 4 the inertia rotation; 5 the stiffness a soft limit engaged with). */
export const SNAPSHOT_VERSION = 5;

/** Thrown by the restore functions when a snapshot cannot be restored; nothing was changed. */
export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotError';
  }
}

/** State of one WorldStepper (its own layout, see WorldStepper.snapshotState). */
export interface StepperSnapshot {
  readonly f64: Float64Array;
  readonly i32: Int32Array;
}

/**
 * The whole simulation state of a World (version 4). Layouts, per row:
 *
 * - `world` (WORLD_LENGTH): step count, `advance`'s accumulator, next body
 *   id, gravity x y z, dropped time, then the body, contact and joint counts.
 * - `bodies` (BODY_STRIDE doubles a body, in the world's body order):
 *   position 3, rotation 4, linear and angular velocity 3 + 3, previous
 *   position 3 and rotation 4, accumulated force and torque 3 + 3, sleep
 *   time, odometer, kinematic target position 3 and rotation 4, friction,
 *   restitution, linear and angular damping, gravity scale, mass, and three
 *   shape parameters (sphere radius; capsule and cylinder radius, half
 *   height; box half extents; hull vertex and face counts, volume; mesh
 *   triangle and vertex counts; compound child count, volume and bounding
 *   radius; height field rows, columns and scale.x) that restore compares,
 *   static friction (−1 while it follows friction), the principal
 *   inertia 3 and the inertia rotation 4 (both compared, as the mass).
 *   `bodyInts` (BODY_INTS): id, type code, shape kind, flags (BODY_*), the
 *   id of the next body of its sleeping island (−1 none), broadphase handle,
 *   collision group and mask, combine modes (friction code | restitution
 *   code << 4, body.ts COMBINE_CODES). The flag BODY_PUT_BACK: continuous
 *   collision put the body back in its last run (dynamics/continuous.ts).
 * - `contacts` (CONTACT_ROW doubles, in contact order): the contact's block
 *   of the ContactStore as it is (points, warm-start impulses, persisted
 *   flags, manifold cache), then gap, gap odometer, friction, restitution,
 *   last total normal impulse. `contactInts` (CONTACT_INTS): body ids A and
 *   B, point count, flags (CONTACT_*).
 * - `broadphaseInts`, `broadphaseBounds`: both AABB trees node for node and
 *   the move buffer (BroadPhase.saveState).
 * - `joints`: each joint's numbers one after another (Joint.saveState:
 *   settings, step impulses, the rows' velocity change since the last warm
 *   start, their accumulated impulses and cached
 *   geometry); `jointInts` (JOINT_INTS, in the world's joint order): kind,
 *   body ids A and B, flags (JOINT_*), offset and length in `joints`.
 * - `steppers`: per registered stepper, in order, its own state or null.
 */
export interface WorldSnapshot {
  readonly version: number;
  readonly world: Float64Array;
  readonly bodies: Float64Array;
  readonly bodyInts: Int32Array;
  readonly contacts: Float64Array;
  readonly contactInts: Int32Array;
  readonly broadphaseInts: Int32Array;
  readonly broadphaseBounds: Float64Array;
  readonly joints: Float64Array;
  readonly jointInts: Int32Array;
  readonly steppers: readonly (StepperSnapshot | null)[];
}

// ---- world
export const W_STEP_COUNT = 0, W_ACCUMULATOR = 1, W_NEXT_BODY_ID = 2, W_GRAVITY = 3, W_DROPPED = 6, W_BODIES = 7, W_CONTACTS = 8, W_JOINTS = 9, WORLD_LENGTH = 10;
// ---- bodies
export const B_POSITION = 0, B_ROTATION = 3, B_VELOCITY = 7, B_ANGULAR = 10, B_PREV_POSITION = 13, B_PREV_ROTATION = 16;
export const B_FORCE = 20, B_TORQUE = 23, B_SLEEP_TIME = 26, B_ODOMETER = 27, B_TARGET_POSITION = 28, B_TARGET_ROTATION = 31;
export const B_FRICTION = 35, B_RESTITUTION = 36, B_LINEAR_DAMPING = 37, B_ANGULAR_DAMPING = 38, B_GRAVITY_SCALE = 39, B_MASS = 40, B_SHAPE = 41;
export const B_STATIC_FRICTION = 44, B_INERTIA = 45, B_INERTIA_ROTATION = 48;
export const BODY_STRIDE = 52;
export const BI_ID = 0, BI_TYPE = 1, BI_SHAPE = 2, BI_FLAGS = 3, BI_ISLAND_NEXT = 4, BI_PROXY = 5, BI_GROUP = 6, BI_MASK = 7, BI_COMBINE = 8, BODY_INTS = 9;
export const BODY_AWAKE = 1, BODY_PROXY_STALE = 2, BODY_KINEMATIC_TARGET = 4, BODY_CAN_SLEEP = 8, BODY_SENSOR = 16, BODY_PUT_BACK = 32;
// ---- contacts (the block's length is CONTACT_STRIDE; these follow it)
export const C_GAP = 0, C_GAP_ODOMETER = 1, C_FRICTION = 2, C_RESTITUTION = 3, C_TOTAL_IMPULSE = 4, CONTACT_EXTRA = 5;
export const CI_A = 0, CI_B = 1, CI_POINTS = 2, CI_FLAGS = 3, CONTACT_INTS = 4;
export const CONTACT_TOUCHING = 1, CONTACT_WAS_TOUCHING = 2, CONTACT_CACHED = 4, CONTACT_IDLE = 8;
// ---- joints
export const JI_KIND = 0, JI_A = 1, JI_B = 2, JI_FLAGS = 3, JI_OFFSET = 4, JI_LENGTH = 5, JOINT_INTS = 6;
export const JOINT_BROKEN = 1, JOINT_BREAK_REPORTED = 2;

/** The ArrayBuffers of a snapshot, for `postMessage(snapshot, snapshotTransferList(snapshot))`. */
export function snapshotTransferList(s: WorldSnapshot): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const add = (a: Float64Array | Int32Array): void => { if (out.indexOf(a.buffer as ArrayBuffer) < 0) out.push(a.buffer as ArrayBuffer); };
  add(s.world); add(s.bodies); add(s.bodyInts); add(s.contacts); add(s.contactInts);
  add(s.broadphaseInts); add(s.broadphaseBounds); add(s.joints); add(s.jointInts);
  for (const st of s.steppers) if (st) { add(st.f64); add(st.i32); }
  return out;
}

/** The three numbers that identify a shape's size (see WorldSnapshot). */
export function shapeParams(shape: Shape, out: Float64Array, o: number): void {
  const s = shape as Shape & { radius?: number; halfHeight?: number; halfExtents?: { x: number; y: number; z: number }; triangleCount?: number; vertices?: Float64Array };
  out[o] = 0; out[o + 1] = 0; out[o + 2] = 0;
  if (shape.kind === ShapeKind.Sphere) out[o] = s.radius!;
  else if (shape.kind === ShapeKind.Capsule) { out[o] = s.radius!; out[o + 1] = s.halfHeight!; }
  else if (shape.kind === ShapeKind.Box) { out[o] = s.halfExtents!.x; out[o + 1] = s.halfExtents!.y; out[o + 2] = s.halfExtents!.z; }
  else if (shape.kind === ShapeKind.Compound) { const c = shape as Shape & { children: readonly unknown[]; boundingRadius: number }; out[o] = c.children.length; out[o + 1] = shape.volume(); out[o + 2] = c.boundingRadius; }
  else if (shape.kind === ShapeKind.HeightField) { const f = shape as Shape & { rows: number; columns: number; scale: { x: number } }; out[o] = f.rows; out[o + 1] = f.columns; out[o + 2] = f.scale.x; }
  else if (shape.kind === ShapeKind.Cylinder) { out[o] = s.radius!; out[o + 1] = s.halfHeight!; }
  else if (shape.kind === ShapeKind.ConvexHull) { const h = shape as Shape & { vertexCount: number; faceCount: number }; out[o] = h.vertexCount; out[o + 1] = h.faceCount; out[o + 2] = shape.volume(); }
  else { out[o] = s.triangleCount ?? 0; out[o + 1] = s.vertices ? s.vertices.length / 3 : 0; }
}

/** Throws unless `a` is a Float64Array of `length` numbers (NaN refused; ±Infinity too unless `allowInfinity`). */
export function requireF64(a: unknown, length: number, field: string, allowInfinity: boolean): Float64Array {
  if (!(a instanceof Float64Array)) throw new SnapshotError(`restore: ${field} must be a Float64Array`);
  if (a.length !== length) throw new SnapshotError(`restore: ${field} has ${a.length} numbers, expected ${length} (truncated or from another world)`);
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (v !== v || (!allowInfinity && (v === Infinity || v === -Infinity))) throw new SnapshotError(`restore: ${field}[${i}] is ${v}`);
  }
  return a;
}

export function requireI32(a: unknown, length: number, field: string): Int32Array {
  if (!(a instanceof Int32Array)) throw new SnapshotError(`restore: ${field} must be an Int32Array`);
  if (a.length !== length) throw new SnapshotError(`restore: ${field} has ${a.length} numbers, expected ${length} (truncated or from another world)`);
  return a;
}

/** Throws unless the snapshot's body row `i` describes a body like `b` (type, shape, mass, sensor). */
export function requireSameBody(b: RigidBody, f: Float64Array, ints: Int32Array, i: number, scratch: Float64Array): void {
  const o = BODY_STRIDE * i, oi = BODY_INTS * i;
  const id = ints[oi + BI_ID]!;
  if (ints[oi + BI_TYPE] !== b.typeCode) throw new SnapshotError(`restore: body ${id} is ${typeName(ints[oi + BI_TYPE]!)} in the snapshot, ${b.type} in the world`);
  if (ints[oi + BI_SHAPE] !== b.shape.kind) throw new SnapshotError(`restore: body ${id} has shape kind ${ints[oi + BI_SHAPE]} in the snapshot, ${b.shape.kind} in the world`);
  shapeParams(b.shape, scratch, 0);
  for (let k = 0; k < 3; k++) {
    if (f[o + B_SHAPE + k] !== scratch[k]) throw new SnapshotError(`restore: body ${id}'s shape has other dimensions in the snapshot (${f[o + B_SHAPE + k]} vs ${scratch[k]})`);
  }
  if (f[o + B_MASS] !== b.mass) throw new SnapshotError(`restore: body ${id} has mass ${f[o + B_MASS]} in the snapshot, ${b.mass} in the world`);
  const I = b.inertia;
  if (f[o + B_INERTIA] !== I.x || f[o + B_INERTIA + 1] !== I.y || f[o + B_INERTIA + 2] !== I.z) {
    throw new SnapshotError(`restore: body ${id} has inertia (${f[o + B_INERTIA]}, ${f[o + B_INERTIA + 1]}, ${f[o + B_INERTIA + 2]}) in the snapshot, (${I.x}, ${I.y}, ${I.z}) in the world`);
  }
  const Q = b.inertiaRotation, oq = o + B_INERTIA_ROTATION;
  if (f[oq] !== Q.x || f[oq + 1] !== Q.y || f[oq + 2] !== Q.z || f[oq + 3] !== Q.w) {
    throw new SnapshotError(`restore: body ${id} has inertia rotation (${f[oq]}, ${f[oq + 1]}, ${f[oq + 2]}, ${f[oq + 3]}) in the snapshot, (${Q.x}, ${Q.y}, ${Q.z}, ${Q.w}) in the world`);
  }
  const sf = f[o + B_STATIC_FRICTION]!;
  if (!(sf === -1 || sf >= 0)) throw new SnapshotError(`restore: body ${id} static friction ${sf}`);
  const combine = ints[oi + BI_COMBINE]!;
  if ((combine & 15) >= COMBINE_COUNT || combine >> 4 >= COMBINE_COUNT || combine < 0) throw new SnapshotError(`restore: body ${id} combine modes ${combine}`);
  if (((ints[oi + BI_FLAGS]! & BODY_SENSOR) !== 0) !== b.isSensor) throw new SnapshotError(`restore: body ${id} is${b.isSensor ? ' not' : ''} a sensor in the snapshot`);
  // The ranges the setters and the start-of-step check enforce: restore
  // writes the fields directly, and one refused half-way would leave the
  // bodies before it restored.
  for (const [name, at] of STATE_VECTORS) {
    for (let k = 0; k < 3; k++) {
      const v = f[o + at + k]!;
      if (!(Math.abs(v) <= MAX_BODY_STATE)) throw new SnapshotError(`restore: body ${id} ${name} ${v} is beyond ±1e15 (MAX_BODY_STATE)`);
    }
  }
  const inRange = (at: number, lo: number, hi: number, name: string): void => {
    const v = f[o + at]!;
    if (!(v >= lo && v <= hi)) throw new SnapshotError(`restore: body ${id} ${name} must be ${hi === Number.MAX_VALUE ? `finite and ≥ ${lo}` : `in [${lo}, ${hi}]`} (got ${v})`);
  };
  inRange(B_FRICTION, 0, Number.MAX_VALUE, 'friction');
  inRange(B_RESTITUTION, 0, 1, 'restitution');
  inRange(B_LINEAR_DAMPING, 0, Number.MAX_VALUE, 'linearDamping');
  inRange(B_ANGULAR_DAMPING, 0, Number.MAX_VALUE, 'angularDamping');
  inRange(B_GRAVITY_SCALE, -MAX_GRAVITY_SCALE, MAX_GRAVITY_SCALE, 'gravityScale');
  inRange(B_SLEEP_TIME, 0, Number.MAX_VALUE, 'sleepTime');
  inRange(B_ODOMETER, 0, Number.MAX_VALUE, 'odometer');
  const F = o + B_FORCE, T = o + B_TORQUE;
  const a = Math.hypot(f[F]!, f[F + 1]!, f[F + 2]!) * b.inverseMass;
  if (!(a <= MAX_ACCELERATION)) throw new SnapshotError(`restore: body ${id}'s force would accelerate it by ${a} m/s², beyond MAX_ACCELERATION`);
  // The largest principal inverse inertia bounds |I⁻¹τ| at any rotation.
  const il = b.inverseInertiaLocal;
  const alpha = Math.hypot(f[T]!, f[T + 1]!, f[T + 2]!) * Math.max(il.x, il.y, il.z);
  if (!(alpha <= MAX_ANGULAR_ACCELERATION)) throw new SnapshotError(`restore: body ${id}'s torque would accelerate its turning by ${alpha} rad/s², beyond MAX_ANGULAR_ACCELERATION`);
}

const STATE_VECTORS: readonly (readonly [string, number])[] = [
  ['position', B_POSITION], ['linearVelocity', B_VELOCITY], ['angularVelocity', B_ANGULAR],
  ['previousPosition', B_PREV_POSITION], ['kinematic target position', B_TARGET_POSITION],
];

function typeName(code: number): string {
  return code === 0 ? 'static' : code === 1 ? 'kinematic' : code === 2 ? 'dynamic' : `of unknown type ${code}`;
}

export function putVec(out: Float64Array, o: number, v: { readonly x: number; readonly y: number; readonly z: number }): void {
  out[o] = v.x; out[o + 1] = v.y; out[o + 2] = v.z;
}

export function putQuat(out: Float64Array, o: number, q: { readonly x: number; readonly y: number; readonly z: number; readonly w: number }): void {
  out[o] = q.x; out[o + 1] = q.y; out[o + 2] = q.z; out[o + 3] = q.w;
}

export function getVec(v: { x: number; y: number; z: number }, src: Float64Array, o: number): void {
  v.x = src[o]!; v.y = src[o + 1]!; v.z = src[o + 2]!;
}

export function getQuat(q: { x: number; y: number; z: number; w: number }, src: Float64Array, o: number): void {
  q.x = src[o]!; q.y = src[o + 1]!; q.z = src[o + 2]!; q.w = src[o + 3]!;
}

/** Throws unless the quaternion at `o` is unit within 1e-6 (the world only stores normalised rotations). */
export function requireUnitQuat(src: Float64Array, o: number, field: string): void {
  const n2 = src[o]! * src[o]! + src[o + 1]! * src[o + 1]! + src[o + 2]! * src[o + 2]! + src[o + 3]! * src[o + 3]!;
  if (!(Math.abs(n2 - 1) <= 1e-6)) throw new SnapshotError(`restore: ${field} is not a unit quaternion (|q|² = ${n2})`);
}
