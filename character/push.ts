/**
 * After the move: the touching flags of the final planes (which velocity
 * clipping reads) and the bodies touched; then pushing the dynamic bodies
 * the character pushed against, as its own step (Rapier's
 * solve_character_collision_impulses).
 */
import type { Vec3 } from '../src/index';
import type { PlaneSet } from './plane-set';
import type { MoveContext } from './move-context';

/** Most bodies one move reports in MoveResult.hitBodies. */
export const MAX_HIT_BODIES = 32;

/** Touching flags of the final planes at `p`, and the bodies touched (result.hitBodies). */
export function finishPlanes(ctx: MoveContext, set: PlaneSet, p: Readonly<Vec3>): void {
  const s = ctx.settings;
  const r = ctx.result;
  for (let i = 0; i < set.count; i++) {
    const q = set.planes[i]!;
    const n = q.normal;
    const separation = n.x * p.x + n.y * p.y + n.z * p.z - q.distance;
    const touching = q.push > 0 || separation <= s.slop;
    set.touching[i] = touching ? 1 : 0;
    const body = q.body;
    if (!touching || body === null) continue;
    let known = false;
    for (let k = 0; k < r.hitBodyCount; k++) if (r.hitBodies[k] === body) known = true;
    if (!known && r.hitBodyCount < MAX_HIT_BODIES) {
      r.hitBodies[r.hitBodyCount++] = body;
    }
  }
}

/**
 * The push step, after the move (Rapier's solve_character_collision_impulses):
 * each touching, non-flattened plane of a dynamic body gets an impulse at its
 * point, the character's mass times the approach speed, at most
 * pushStrength · dt.
 */
export function pushBodies(ctx: MoveContext, set: PlaneSet, displacement: Readonly<Vec3>): void {
  const s = ctx.settings;
  const dt = ctx.stepDt;
  const maxImpulse = s.pushStrength * dt;
  if (maxImpulse <= 0) return;
  for (let i = 0; i < set.count; i++) {
    const q = set.planes[i]!;
    const body = q.body;
    if (set.touching[i] === 0 || body === null || !body.isDynamic || q.flattened) continue;
    const n = q.normal;
    // Approach speed into the body along −n, relative to its surface:
    // v_in = −(Δ · n)/dt + v_body · n; impulse = min(m v_in, F_max dt).
    body.getPointVelocity(ctx.pointVel, q.point);
    const vIn = -(displacement.x * n.x + displacement.y * n.y + displacement.z * n.z) / dt +
      (ctx.pointVel.x * n.x + ctx.pointVel.y * n.y + ctx.pointVel.z * n.z);
    if (vIn <= 0) continue;
    const j = Math.min(s.characterMass * vIn, maxImpulse);
    ctx.impulse.x = -n.x * j; ctx.impulse.y = -n.y * j; ctx.impulse.z = -n.z * j;
    body.applyImpulseClamped(ctx.impulse, q.point);
  }
}
