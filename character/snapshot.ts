/**
 * The controller's state as typed arrays (CharacterSnapshot), for rollback
 * or a worker, and restoring it after checking that it fits.
 */
import { MAX_BODY_STATE, MAX_LINEAR_SPEED, MAX_POSITION, SnapshotError, type RigidBody, type Vec3 } from '../src/index';
import { MAX_CHARACTER_PLANES } from './plane-set';
import type { MoveContext } from './move-context';

/**
 * Format version of CharacterSnapshot and WalkerSnapshot. Version 2 added
 * the carrier (the moving body followGround measures from) and its pose.
 */
export const CHARACTER_SNAPSHOT_VERSION = 2;

/**
 * The state of a CharacterController that its next move reads (see
 * `CharacterController.snapshot`). `f64`: position 3, radius, half height,
 * the result's position 3, ground normal 3, ground point 3, ground velocity
 * 3, cast position 3, the carrier's position 3 and rotation 4 (x, y, z, w)
 * as of the last move or followGround, groundTurn, then per plane of the
 * last move normal 3, distance, push, push limit, point 3. `i32`: the
 * controller's body id, the ground body id (−1 none), flags (CS_*), the
 * plane count, the carrier's body id (−1 none), then per plane its body id,
 * flattened and touching.
 *
 * Restore refuses values the setters would refuse: a position beyond
 * ±MAX_POSITION (as setPosition), a ground velocity beyond ±MAX_LINEAR_SPEED
 * per component (the fastest a body may be given), other coordinates beyond
 * ±MAX_BODY_STATE, normals and the carrier's rotation that are not of unit
 * length.
 */
export interface CharacterSnapshot {
  readonly version: number;
  readonly f64: Float64Array;
  readonly i32: Int32Array;
}

const CS_F_HEADER = 28, CS_F_PLANE = 9, CS_I_HEADER = 5, CS_I_PLANE = 3;
/** How far from 1 a saved normal's or rotation's length may be: they are stored normalised, to rounding. */
const UNIT_TOLERANCE = 1e-6;
const CS_GROUNDED = 1, CS_SLIDING = 2, CS_STEPPED_UP = 4, CS_SNAPPED = 8, CS_RECOVERED = 16, CS_CAST_HIT = 32;

/**
 * The controller's state for rollback or a worker (typed arrays, see
 * CharacterSnapshot): position, grounded and sliding state, ground body
 * and velocity, the body carrying the character and its pose (which
 * `followGround` measures from), and the planes of the last move (which
 * `clipVelocity` reads). The character's body is in the world's
 * snapshot; snapshot and restore both. Settings are not included.
 */
export function writeSnapshot(ctx: MoveContext, ownBody: RigidBody | null): CharacterSnapshot {
  requireSavedResult(ctx);
  const r = ctx.result;
  const set = ctx.resultSet();
  const n = r.planeCount;
  const f64 = new Float64Array(CS_F_HEADER + CS_F_PLANE * n);
  const i32 = new Int32Array(CS_I_HEADER + CS_I_PLANE * n);
  f64[0] = ctx.pos.x; f64[1] = ctx.pos.y; f64[2] = ctx.pos.z;
  f64[3] = ctx.radius; f64[4] = ctx.halfHeight;
  putVec3(f64, 5, r.position); putVec3(f64, 8, r.groundNormal); putVec3(f64, 11, r.groundPoint);
  putVec3(f64, 14, r.groundVelocity); putVec3(f64, 17, r.castPosition);
  // The pose followGround measures the carrier's motion from: without it a
  // rollback would carry the character by the platform's motion since the
  // snapshot was taken.
  const carrier = ctx.carrier !== null && ctx.carrier.world === ctx.world ? ctx.carrier : null;
  putVec3(f64, 20, ctx.carrierPosition);
  const cq = ctx.carrierRotation;
  f64[23] = cq.x; f64[24] = cq.y; f64[25] = cq.z; f64[26] = cq.w;
  f64[27] = ctx.groundTurn;
  i32[0] = ownBody?.id ?? -1;
  i32[1] = r.groundBody?.id ?? -1;
  i32[2] = (r.grounded ? CS_GROUNDED : 0) | (r.sliding ? CS_SLIDING : 0) | (r.steppedUp ? CS_STEPPED_UP : 0) |
    (r.snapped ? CS_SNAPPED : 0) | (r.recovered ? CS_RECOVERED : 0) | (r.castHit ? CS_CAST_HIT : 0);
  i32[3] = n;
  i32[4] = carrier?.id ?? -1;
  for (let k = 0; k < n; k++) {
    const q = set.planes[k]!, o = CS_F_HEADER + CS_F_PLANE * k, oi = CS_I_HEADER + CS_I_PLANE * k;
    putVec3(f64, o, q.normal);
    f64[o + 3] = q.distance; f64[o + 4] = q.push; f64[o + 5] = q.pushLimit;
    putVec3(f64, o + 6, q.point);
    i32[oi] = q.body?.id ?? -1;
    i32[oi + 1] = q.flattened ? 1 : 0;
    i32[oi + 2] = set.touching[k]!;
  }
  return { version: CHARACTER_SNAPSHOT_VERSION, f64, i32 };
}

/**
 * Restores `snapshot()`'s state. Throws a SnapshotError and changes
 * nothing when it does not fit: another version, NaN, truncated arrays,
 * values out of range, another capsule size or body, or ground or plane
 * bodies that are not in the world. A carrier that is no longer in the
 * world carries nothing (as when it is removed between two moves).
 */
export function restoreSnapshot(ctx: MoveContext, snapshot: CharacterSnapshot, ownBody: RigidBody | null): void {
  validateSnapshot(ctx, snapshot, ownBody);
  const f64 = snapshot.f64, i32 = snapshot.i32;
  const r = ctx.result, w = ctx.world;
  ctx.pos.x = f64[0]!; ctx.pos.y = f64[1]!; ctx.pos.z = f64[2]!;
  getVec3(r.position, f64, 5); getVec3(r.groundNormal, f64, 8); getVec3(r.groundPoint, f64, 11);
  getVec3(r.groundVelocity, f64, 14); getVec3(r.castPosition, f64, 17);
  ctx.carrier = i32[4]! >= 0 ? w.getBodyById(i32[4]!) ?? null : null;
  getVec3(ctx.carrierPosition, f64, 20);
  const cq = ctx.carrierRotation;
  cq.x = f64[23]!; cq.y = f64[24]!; cq.z = f64[25]!; cq.w = f64[26]!;
  ctx.groundTurn = f64[27]!;
  r.groundBody = i32[1]! >= 0 ? w.getBodyById(i32[1]!)! : null;
  const flags = i32[2]!;
  r.grounded = (flags & CS_GROUNDED) !== 0;
  r.sliding = (flags & CS_SLIDING) !== 0;
  r.steppedUp = (flags & CS_STEPPED_UP) !== 0;
  r.snapped = (flags & CS_SNAPPED) !== 0;
  r.recovered = (flags & CS_RECOVERED) !== 0;
  r.castHit = (flags & CS_CAST_HIT) !== 0;
  const n = i32[3]!, set = ctx.setA;
  for (let k = 0; k < n; k++) {
    const q = set.planes[k]!, o = CS_F_HEADER + CS_F_PLANE * k, oi = CS_I_HEADER + CS_I_PLANE * k;
    getVec3(q.normal, f64, o);
    q.distance = f64[o + 3]!; q.push = f64[o + 4]!; q.pushLimit = f64[o + 5]!;
    getVec3(q.point, f64, o + 6);
    q.body = i32[oi]! >= 0 ? w.getBodyById(i32[oi]!)! : null;
    q.flattened = i32[oi + 1] === 1;
    set.touching[k] = i32[oi + 2]!;
  }
  set.count = n;
  r.planes = set.planes;
  r.planeCount = n;
}

/** Throws a SnapshotError unless `restoreSnapshot(ctx, s)` can apply `s`. */
export function validateSnapshot(ctx: MoveContext, s: CharacterSnapshot, ownBody: RigidBody | null): void {
  if (s === null || typeof s !== 'object') throw new SnapshotError('CharacterController.restore: not a character snapshot');
  if (s.version !== CHARACTER_SNAPSHOT_VERSION) throw new SnapshotError(`CharacterController.restore: snapshot version ${String(s.version)}; this footing restores version ${CHARACTER_SNAPSHOT_VERSION}`);
  const f64 = s.f64, i32 = s.i32;
  if (!(f64 instanceof Float64Array) || !(i32 instanceof Int32Array)) throw new SnapshotError('CharacterController.restore: f64 must be a Float64Array and i32 an Int32Array');
  if (i32.length < CS_I_HEADER) throw new SnapshotError('CharacterController.restore: i32 truncated');
  const n = i32[3]!;
  if (!(n >= 0 && n <= MAX_CHARACTER_PLANES)) throw new SnapshotError(`CharacterController.restore: ${n} planes`);
  if (f64.length !== CS_F_HEADER + CS_F_PLANE * n || i32.length !== CS_I_HEADER + CS_I_PLANE * n) throw new SnapshotError('CharacterController.restore: truncated or of another size');
  for (let k = 0; k < f64.length; k++) {
    const v = f64[k]!;
    // A plane's push limit is Infinity for static geometry.
    const isLimit = k >= CS_F_HEADER && (k - CS_F_HEADER) % CS_F_PLANE === 5;
    if (v !== v || (!isLimit && !Number.isFinite(v))) throw new SnapshotError(`CharacterController.restore: value ${k} is ${v}`);
  }
  // Finite is not enough: a position setPosition refuses, or a ground
  // velocity a jump turns into a move beyond MAX_POSITION, would leave
  // every later move refused.
  requireWithin(f64, 0, MAX_POSITION, 'position', 'm (MAX_POSITION, as setPosition)');
  requireWithin(f64, 5, MAX_BODY_STATE, 'result.position', 'm (MAX_BODY_STATE)');
  requireUnit(f64, 8, 3, 'result.groundNormal');
  requireWithin(f64, 11, MAX_BODY_STATE, 'result.groundPoint', 'm (MAX_BODY_STATE)');
  requireWithin(f64, 14, MAX_LINEAR_SPEED, 'result.groundVelocity', 'm/s (MAX_LINEAR_SPEED)');
  requireWithin(f64, 17, MAX_BODY_STATE, 'result.castPosition', 'm (MAX_BODY_STATE)');
  requireWithin(f64, 20, MAX_BODY_STATE, 'carrierPosition', 'm (MAX_BODY_STATE)');
  requireUnit(f64, 23, 4, 'carrierRotation');
  if (!(Math.abs(f64[27]!) <= Math.PI)) throw new SnapshotError(`CharacterController.restore: groundTurn must be in [−π, π] (got ${f64[27]})`);
  for (let k = 0; k < n; k++) {
    const o = CS_F_HEADER + CS_F_PLANE * k;
    requireUnit(f64, o, 3, `plane ${k} normal`);
    if (!(Math.abs(f64[o + 3]!) <= MAX_BODY_STATE)) throw new SnapshotError(`CharacterController.restore: plane ${k} distance must be within ±${MAX_BODY_STATE} m (got ${f64[o + 3]})`);
    requireWithin(f64, o + 6, MAX_BODY_STATE, `plane ${k} point`, 'm (MAX_BODY_STATE)');
  }
  if (f64[3] !== ctx.radius || f64[4] !== ctx.halfHeight) {
    throw new SnapshotError(`CharacterController.restore: the snapshot's capsule (radius ${f64[3]}, half height ${f64[4]}) differs from this one (${ctx.radius}, ${ctx.halfHeight})`);
  }
  if (i32[0] !== (ownBody?.id ?? -1)) throw new SnapshotError(`CharacterController.restore: the snapshot's body ${i32[0]} is not this controller's (${ownBody?.id ?? -1})`);
  const w = ctx.world;
  const ids = [i32[1]!];
  for (let k = 0; k < n; k++) ids.push(i32[CS_I_HEADER + CS_I_PLANE * k]!);
  for (const id of ids) {
    if (id !== -1 && w.getBodyById(id) === undefined) throw new SnapshotError(`CharacterController.restore: body ${id} of the snapshot is not in the world`);
  }
}

/**
 * The result's fields the snapshot saves are plain writable ones (the move
 * writes them for its caller): each is checked by name before anything is
 * saved, against what restore accepts, which would refuse it by index.
 */
function requireSavedResult(ctx: MoveContext): void {
  const r = ctx.result;
  for (const [field, v, max] of [
    ['result.position', r.position, MAX_BODY_STATE], ['result.groundNormal', r.groundNormal, 1], ['result.groundPoint', r.groundPoint, MAX_BODY_STATE],
    ['result.groundVelocity', r.groundVelocity, MAX_LINEAR_SPEED], ['result.castPosition', r.castPosition, MAX_BODY_STATE],
  ] as const) {
    if (!(typeof v.x === 'number' && typeof v.y === 'number' && typeof v.z === 'number' && Math.abs(v.x) <= max && Math.abs(v.y) <= max && Math.abs(v.z) <= max)) {
      throw new RangeError(`CharacterController.snapshot: ${field} must have each component a number within ±${max} (got (${String(v.x)}, ${String(v.y)}, ${String(v.z)})); the last move wrote it`);
    }
  }
  const n = r.groundNormal;
  const len = Math.sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
  if (!(Math.abs(len - 1) <= UNIT_TOLERANCE)) throw new RangeError(`CharacterController.snapshot: result.groundNormal must have unit length (got length ${len}); the last move wrote it`);
  const count = ctx.resultSet().count;
  if (r.planeCount !== count) throw new RangeError(`CharacterController.snapshot: result.planeCount must be ${count}, the planes of the last move (got ${String(r.planeCount)})`);
}

/** Throws a SnapshotError naming `field` unless the 3 values at `o` are each within ±max. */
function requireWithin(f64: Float64Array, o: number, max: number, field: string, unit: string): void {
  const x = f64[o]!, y = f64[o + 1]!, z = f64[o + 2]!;
  if (Math.abs(x) <= max && Math.abs(y) <= max && Math.abs(z) <= max) return;
  throw new SnapshotError(`CharacterController.restore: ${field} must have each component within ±${max} ${unit} (got (${x}, ${y}, ${z}))`);
}

/** Throws a SnapshotError naming `field` unless the `count` values at `o` have unit length. */
function requireUnit(f64: Float64Array, o: number, count: number, field: string): void {
  let sq = 0;
  for (let k = 0; k < count; k++) sq += f64[o + k]! * f64[o + k]!;
  const len = Math.sqrt(sq);
  if (Math.abs(len - 1) <= UNIT_TOLERANCE) return;
  throw new SnapshotError(`CharacterController.restore: ${field} must have unit length (got length ${len})`);
}

function putVec3(out: Float64Array, o: number, v: Readonly<Vec3>): void {
  out[o] = v.x; out[o + 1] = v.y; out[o + 2] = v.z;
}

function getVec3(v: Vec3, src: Float64Array, o: number): void {
  v.x = src[o]!; v.y = src[o + 1]!; v.z = src[o + 2]!;
}
