/**
 * Gathering planes (docs/character.md): the overlap scan at the start of a
 * move, penetration recovery, and adding a plane with its flattened copy
 * when it is steeper than maxSlope.
 */
import { solvePlanesWith, type CharacterPlane } from './plane-solver';
import { addOnePlane, type PlaneSet } from './plane-set';
import { isSoft, type MoveContext } from './move-context';
import type { Vec3 } from '../src/index';

/**
 * Overlap scan at `at` with the inflated capsule; fills `set`. A contact of
 * depth δ with the capsule inflated by g means a gap of g − δ, so the plane
 * is n · p ≥ n · at + skin − (g − δ). Returns true when the real capsule
 * overlaps something (depth > g).
 */
export function gather(ctx: MoveContext, set: PlaneSet, at: Readonly<Vec3>): boolean {
  set.count = 0;
  const g = ctx.gatherInflation;
  const skin = ctx.settings.skinWidth;
  const contacts = ctx.world.overlap(ctx.gatherShape, at, ctx.rotation, ctx.overlapOptions);
  let overlapping = false;
  const plane = ctx.newPlane;
  for (let i = 0; i < contacts.length; i++) {
    const c = contacts[i]!;
    const n = c.normal;
    plane.distance = n.x * at.x + n.y * at.y + n.z * at.z + skin - g + c.depth;
    plane.pushLimit = isSoft(c.body) ? ctx.softLimit : Infinity;
    if (c.depth > g + 1e-5) overlapping = true;
    addPlane(ctx, set, at, plane.set(n, c.body, c.point));
  }
  return overlapping;
}

/**
 * Penetration recovery: the inflated scan said the capsule overlaps
 * something; confirm with the real capsule (the contacts of a deep,
 * inflated query are less reliable) and project the start out along the
 * real overlap normals (n · p ≥ n · start + depth + skin), at most one
 * radius per move. The gathered planes stay for the move that follows.
 */
export function recover(ctx: MoveContext, start: Vec3): void {
  const contacts = ctx.world.overlap(ctx.shape, start, ctx.rotation, ctx.overlapOptions);
  if (contacts.length === 0) return;
  const rec = ctx.setB;
  rec.count = 0;
  const skin = ctx.settings.skinWidth;
  const plane = ctx.newPlane;
  plane.pushLimit = Infinity;
  for (let i = 0; i < contacts.length; i++) {
    const c = contacts[i]!;
    const n = c.normal;
    plane.distance = n.x * start.x + n.y * start.y + n.z * start.z + c.depth + skin;
    addOnePlane(rec, plane.set(n, c.body, c.point), false);
  }
  const sp = ctx.solvePoint;
  const it = solvePlanesWith(sp, start, rec.planes, rec.count, ctx.settings);
  ctx.countIterations(it);
  let dx = sp.x - start.x, dy = sp.y - start.y, dz = sp.z - start.z;
  const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const limit = ctx.radius;
  if (len > limit) {
    const k = limit / len;
    dx *= k; dy *= k; dz *= k;
  }
  start.x += dx; start.y += dy; start.z += dz;
  ctx.result.recovered = true;
}

/**
 * Adds `plane` (n · p ≥ d; merging with an existing plane of the same
 * normal: the larger d is the conjunction). Upward-facing planes steeper
 * than maxSlope also get a horizontal copy n_h through the point where the
 * horizontal line through `ref` (the position the plane was found from)
 * meets the plane: ref − t n_h with n · (ref − t n_h) = d ⇒
 * t = (n · ref − d) / (n · n_h), so d_h = n_h · ref − t. Returns false when
 * the set is full.
 */
export function addPlane(ctx: MoveContext, set: PlaneSet, ref: Readonly<Vec3>, plane: CharacterPlane): boolean {
  if (!addOnePlane(set, plane, false)) return false;
  const n = plane.normal, d = plane.distance;
  const up = ctx.up;
  const nu = n.x * up.x + n.y * up.y + n.z * up.z;
  if (nu > 1e-3 && nu < ctx.slope.cosMaxSlope) {
    const flat = ctx.flatPlane;
    const h = flat.normal;
    h.x = n.x - nu * up.x; h.y = n.y - nu * up.y; h.z = n.z - nu * up.z;
    const hl = Math.sqrt(h.x * h.x + h.y * h.y + h.z * h.z);
    if (hl > 1e-6) {
      h.x /= hl; h.y /= hl; h.z /= hl;
      const pos = ref; // n · n_h = hl
      const t = (n.x * pos.x + n.y * pos.y + n.z * pos.z - d) / hl;
      flat.distance = h.x * pos.x + h.y * pos.y + h.z * pos.z - t;
      flat.pushLimit = plane.pushLimit;
      addOnePlane(set, flat.set(h, plane.body, plane.point), true);
    }
  }
  return true;
}
