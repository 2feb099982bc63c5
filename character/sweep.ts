/**
 * The sweep + solve loop (docs/character.md): NGS from the target gives a
 * solve point; a capsule cast from the start towards it either arrives
 * (accept) or hits a new plane (add it, solve again), until successive solve
 * points agree within `tolerance`. The cast is the safety net: the character
 * never moves past the first impact of a cast.
 */
import type { Vec3 } from '../src/index';
import { solvePlanesWith } from './plane-solver';
import type { PlaneSet } from './plane-set';
import { isSoft, type MoveContext } from './move-context';
import { addPlane } from './gather';

/** The sweep + solve loop (docs/character.md); writes the accepted position to `out`. */
export function solveMove(ctx: MoveContext, set: PlaneSet, from: Readonly<Vec3>, displacement: Readonly<Vec3>, out: Vec3): void {
  const s = ctx.settings;
  const r = ctx.result;
  const target = ctx.target;
  target.x = from.x + displacement.x; target.y = from.y + displacement.y; target.z = from.z + displacement.z;
  const sp = ctx.solvePoint;
  const prev = ctx.prevSolve;
  const delta = ctx.delta;
  const safe = ctx.safe;
  safe.x = from.x; safe.y = from.y; safe.z = from.z;
  for (let sweep = 0; sweep < s.maxSweeps; sweep++) {
    const it = solvePlanesWith(sp, target, set.planes, set.count, s);
    ctx.countIterations(it);
    ctx.recordSolvePoint(sp);
    delta.x = sp.x - from.x; delta.y = sp.y - from.y; delta.z = sp.z - from.z;
    const len = Math.sqrt(delta.x * delta.x + delta.y * delta.y + delta.z * delta.z);
    if (len < 1e-9) {
      out.x = from.x; out.y = from.y; out.z = from.z;
      return;
    }
    r.sweeps++;
    const hit = ctx.world.shapeCast(ctx.shape, from, ctx.rotation, delta, ctx.castOptions);
    const reached = hit === null ? 1 : hit.fraction;
    r.castPosition.x = from.x + delta.x * reached; r.castPosition.y = from.y + delta.y * reached; r.castPosition.z = from.z + delta.z * reached;
    r.castHit = hit !== null;
    if (hit === null) {
      out.x = sp.x; out.y = sp.y; out.z = sp.z;
      return;
    }
    // The path is free up to the hit: back off by the skin along the path.
    const f = Math.max(0, hit.fraction - s.skinWidth / len);
    safe.x = from.x + delta.x * f; safe.y = from.y + delta.y * f; safe.z = from.z + delta.z * f;
    // The capsule touches at c = from + fraction·delta: plane n · p ≥ n · c + skin.
    const n = hit.normal;
    const cx = from.x + delta.x * hit.fraction, cy = from.y + delta.y * hit.fraction, cz = from.z + delta.z * hit.fraction;
    const before = set.count;
    const plane = ctx.newPlane;
    plane.distance = n.x * cx + n.y * cy + n.z * cz + s.skinWidth;
    plane.pushLimit = isSoft(hit.body) ? ctx.softLimit : Infinity;
    const added = addPlane(ctx, set, from, plane.set(n, hit.body, hit.point));
    const converged = sweep > 0 &&
      (sp.x - prev.x) * (sp.x - prev.x) + (sp.y - prev.y) * (sp.y - prev.y) + (sp.z - prev.z) * (sp.z - prev.z) < s.tolerance * s.tolerance;
    if (!added || converged || (set.count === before && hit.fraction <= 0)) break;
    prev.x = sp.x; prev.y = sp.y; prev.z = sp.z;
  }
  out.x = safe.x; out.y = safe.y; out.z = safe.z;
}
