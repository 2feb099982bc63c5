/**
 * The character's plane solver (docs/character.md; Catto, "Understanding
 * Constraints", GDC 2014, the Tomb Raider character solver; Box2D v3
 * `src/mover.c` is Catto's own compact version).
 *
 * The unknown is the capsule centre p. Every constraint is a plane
 *     C_i(p) = n_i · p − d_i ≥ 0
 * (n_i unit, pointing out of the obstacle; the skin width is already folded
 * into d_i). We look for the point closest to the target that satisfies all
 * planes. With one moving, non-rotating body mass plays no role and every
 * constraint is linear, so Nonlinear Gauss-Seidel degenerates to repeated
 * projection: J = n_i, effective mass 1, Δλ = −C_i(p), p += Δλ n_i.
 *
 * The push λ_i of each plane is accumulated over the iterations and the
 * ACCUMULATED value is clamped to [0, pushLimit_i] (the same accumulated
 * clamping as the contact solver, Catto 2005): a plane that pushed too much
 * early on can pull back later (negative increment), and a soft plane (another
 * character, a dynamic body) never pushes the character by more than its limit
 * in one move, so a hard plane behind it always wins.
 */
import type { RigidBody, Vec3 } from '../src/index';

/** One constraint plane of the character solver: n · p ≥ d for the capsule centre p. */
export class CharacterPlane {
  /** Unit normal pointing out of the obstacle. */
  readonly normal: Vec3 = { x: 0, y: 0, z: 0 };
  /** Offset d of n · p ≥ d (metres, skin width included). */
  distance = 0;
  /** Accumulated push of the last solve, metres, in [0, pushLimit]. */
  push = 0;
  /** Largest total push per solve: Infinity for static geometry, finite for soft planes. */
  pushLimit = Infinity;
  /** The body the plane came from (null for synthetic planes). */
  body: RigidBody | null = null;
  /** A world point on the obstacle where the plane was found. */
  readonly point: Vec3 = { x: 0, y: 0, z: 0 };
  /** True for the horizontal copy of a plane steeper than maxSlope (walls for ground movement). */
  flattened = false;

  /** Copies the normal, body and point (not the numbers); returns this. */
  set(normal: Readonly<Vec3>, body: RigidBody | null, point: Readonly<Vec3>): this {
    this.normal.x = normal.x; this.normal.y = normal.y; this.normal.z = normal.z;
    this.body = body;
    this.point.x = point.x; this.point.y = point.y; this.point.z = point.z;
    return this;
  }
}

/** The walkable-slope limit: a plane whose normal n has n · up ≥ cosMaxSlope is walkable ground. */
export interface SlopeLimit {
  cosMaxSlope: number;
}

/**
 * Nonlinear Gauss-Seidel over the planes, starting at `target`; writes the
 * solve point to `out` and returns the number of iterations used. Stops when
 * the largest correction of an iteration is below `tolerance` (metres).
 */
export function solvePlanes(
  out: Vec3, target: Readonly<Vec3>, planes: readonly CharacterPlane[], count: number,
  maxIterations: number, tolerance: number,
): number {
  LIMITS.maxIterations = maxIterations;
  LIMITS.tolerance = tolerance;
  return solvePlanesWith(out, target, planes, count, LIMITS);
}

/** Iteration limits, read from an object (CONTRIBUTING.md, hot path). */
export interface SolveLimits {
  maxIterations: number;
  tolerance: number;
}

const LIMITS: SolveLimits = { maxIterations: 1, tolerance: 1e-4 };

/** `solvePlanes` with the limits in an object (the controller passes its settings). */
export function solvePlanesWith(
  out: Vec3, target: Readonly<Vec3>, planes: readonly CharacterPlane[], count: number, limits: Readonly<SolveLimits>,
): number {
  const maxIterations = limits.maxIterations;
  const tolerance = limits.tolerance;
  let px = target.x, py = target.y, pz = target.z;
  for (let i = 0; i < count; i++) planes[i]!.push = 0;
  let iteration = 0;
  while (iteration < maxIterations) {
    iteration++;
    let largest = 0;
    for (let i = 0; i < count; i++) {
      const plane = planes[i]!;
      const n = plane.normal;
      const separation = n.x * px + n.y * py + n.z * pz - plane.distance;
      // Accumulated clamping: λ_new = clamp(λ_old − C, 0, limit); apply only the change.
      const old = plane.push;
      let acc = old - separation;
      if (acc < 0) acc = 0;
      else if (acc > plane.pushLimit) acc = plane.pushLimit;
      const delta = acc - old;
      plane.push = acc;
      px += delta * n.x; py += delta * n.y; pz += delta * n.z;
      const mag = delta < 0 ? -delta : delta;
      if (mag > largest) largest = mag;
    }
    if (largest < tolerance) break;
  }
  out.x = px; out.y = py; out.z = pz;
  return iteration;
}

/**
 * Removes from `v` the part that points into planes (Box2D's b2ClipVector):
 * v −= min(0, v · n) n for every plane that pushed or that the character
 * touches (`contact[i]`). Two passes so that a crease of two planes clips
 * both components. With `skipWalkable`, planes whose normal makes an angle
 * with `up` of less than acos(slope.cosMaxSlope) are left alone (a walker on a
 * slope keeps its horizontal speed; the position solver follows the slope).
 */
export function clipVector(
  v: Vec3, planes: readonly CharacterPlane[], count: number, touching: Uint8Array,
  up: Readonly<Vec3>, slope: Readonly<SlopeLimit>, skipWalkable: boolean,
): void {
  const cosMaxSlope = slope.cosMaxSlope;
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < count; i++) {
      if (touching[i] === 0) continue;
      const n = planes[i]!.normal;
      if (skipWalkable && n.x * up.x + n.y * up.y + n.z * up.z >= cosMaxSlope) continue;
      const vn = v.x * n.x + v.y * n.y + v.z * n.z;
      if (vn < 0) {
        v.x -= vn * n.x; v.y -= vn * n.y; v.z -= vn * n.z;
      }
    }
  }
}
