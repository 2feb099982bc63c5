/**
 * The controller's state as typed arrays (CharacterSnapshot), for rollback
 * or a worker, and restoring it after checking that it fits.
 */
import { SnapshotError, type RigidBody, type Vec3 } from '../src/index';
import { MAX_CHARACTER_PLANES } from './plane-set';
import type { MoveContext } from './move-context';

/** Format version of CharacterSnapshot and WalkerSnapshot. */
export const CHARACTER_SNAPSHOT_VERSION = 1;

/**
 * The state of a CharacterController that its next move reads (see
 * `CharacterController.snapshot`). `f64`: position 3, radius, half height,
 * the result's position 3, ground normal 3, ground point 3, ground velocity
 * 3, cast position 3, then per plane of the last move normal 3, distance,
 * push, push limit, point 3. `i32`: the controller's body id, the ground
 * body id (−1 none), flags (CS_*), the plane count, then per plane its body
 * id, flattened and touching.
 */
export interface CharacterSnapshot {
  readonly version: number;
  readonly f64: Float64Array;
  readonly i32: Int32Array;
}

const CS_F_HEADER = 20, CS_F_PLANE = 9, CS_I_HEADER = 4, CS_I_PLANE = 3;
const CS_GROUNDED = 1, CS_SLIDING = 2, CS_STEPPED_UP = 4, CS_SNAPPED = 8, CS_RECOVERED = 16, CS_CAST_HIT = 32;

/**
 * The controller's state for rollback or a worker (typed arrays, see
 * CharacterSnapshot): position, grounded and sliding state, ground body
 * and velocity, and the planes of the last move (which `clipVelocity`
 * reads). The character's body is in the world's snapshot; snapshot and
 * restore both. Settings are not included.
 */
export function writeSnapshot(ctx: MoveContext, ownBody: RigidBody | null): CharacterSnapshot {
  const r = ctx.result;
  const set = ctx.resultSet();
  const n = r.planeCount;
  const f64 = new Float64Array(CS_F_HEADER + CS_F_PLANE * n);
  const i32 = new Int32Array(CS_I_HEADER + CS_I_PLANE * n);
  f64[0] = ctx.pos.x; f64[1] = ctx.pos.y; f64[2] = ctx.pos.z;
  f64[3] = ctx.radius; f64[4] = ctx.halfHeight;
  putVec3(f64, 5, r.position); putVec3(f64, 8, r.groundNormal); putVec3(f64, 11, r.groundPoint);
  putVec3(f64, 14, r.groundVelocity); putVec3(f64, 17, r.castPosition);
  i32[0] = ownBody?.id ?? -1;
  i32[1] = r.groundBody?.id ?? -1;
  i32[2] = (r.grounded ? CS_GROUNDED : 0) | (r.sliding ? CS_SLIDING : 0) | (r.steppedUp ? CS_STEPPED_UP : 0) |
    (r.snapped ? CS_SNAPPED : 0) | (r.recovered ? CS_RECOVERED : 0) | (r.castHit ? CS_CAST_HIT : 0);
  i32[3] = n;
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
 * another capsule size or body, or bodies that are not in the world.
 */
export function restoreSnapshot(ctx: MoveContext, snapshot: CharacterSnapshot, ownBody: RigidBody | null): void {
  validateSnapshot(ctx, snapshot, ownBody);
  const f64 = snapshot.f64, i32 = snapshot.i32;
  const r = ctx.result, w = ctx.world;
  ctx.pos.x = f64[0]!; ctx.pos.y = f64[1]!; ctx.pos.z = f64[2]!;
  getVec3(r.position, f64, 5); getVec3(r.groundNormal, f64, 8); getVec3(r.groundPoint, f64, 11);
  getVec3(r.groundVelocity, f64, 14); getVec3(r.castPosition, f64, 17);
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

function putVec3(out: Float64Array, o: number, v: Readonly<Vec3>): void {
  out[o] = v.x; out[o + 1] = v.y; out[o + 2] = v.z;
}

function getVec3(v: Vec3, src: Float64Array, o: number): void {
  v.x = src[o]!; v.y = src[o + 1]!; v.z = src[o + 2]!;
}
