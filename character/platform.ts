/**
 * Moving platforms: the body a move ended grounded on (a lift, a turntable,
 * a crate) carries the character between moves.
 */
import { quat, type RigidBody } from '../src/index';
import type { MoveContext } from './move-context';

/** Remembers the non-static body the move ended grounded on and its pose, for followGround. */
export function rememberCarrier(ctx: MoveContext): void {
  const r = ctx.result;
  const carrier = r.grounded && r.groundBody !== null && !r.groundBody.isStatic ? r.groundBody : null;
  ctx.carrier = carrier;
  if (carrier !== null) {
    const cp = carrier.position, cq = carrier.rotation;
    ctx.carrierPosition.x = cp.x; ctx.carrierPosition.y = cp.y; ctx.carrierPosition.z = cp.z;
    quat.copy(ctx.carrierRotation, cq);
  }
}

/** CharacterController.followGround (see there): returns false when there is nothing to follow. */
export function followGround(ctx: MoveContext, ownBody: RigidBody | null): boolean {
  ctx.groundTurn = 0;
  const body = ctx.carrier;
  if (body === null) return false;
  if (body.world !== ctx.world) {
    ctx.carrier = null;
    return false;
  }
  const r = ctx.result;
  const c0 = ctx.carrierPosition, q0 = ctx.carrierRotation;
  const c1 = body.position, q1 = body.rotation;
  const p = ctx.pos;
  const local = ctx.carryLocal;
  const d = ctx.delta;
  // The centre f = p − h·up of the capsule's lower sphere is the point
  // carried (R₀ᵀ(f − c₀), then c₁ + R₁ · that): a sphere keeps its distance
  // to a surface that moves with it, so on a tilting platform the feet
  // stay on the floor; the upright capsule follows f.
  const up = ctx.up;
  const h = ctx.halfHeight;
  local.x = p.x - h * up.x - c0.x; local.y = p.y - h * up.y - c0.y; local.z = p.z - h * up.z - c0.z;
  quat.inverseRotate(local, q0, local);
  quat.rotate(local, q1, local);
  d.x = c1.x + local.x + h * up.x - p.x; d.y = c1.y + local.y + h * up.y - p.y; d.z = c1.z + local.z + h * up.z - p.z;
  // the ground point rides along
  const g = r.groundPoint;
  local.x = g.x - c0.x; local.y = g.y - c0.y; local.z = g.z - c0.z;
  quat.inverseRotate(local, q0, local);
  quat.rotate(local, q1, local);
  g.x = c1.x + local.x; g.y = c1.y + local.y; g.z = c1.z + local.z;
  body.getPointVelocity(r.groundVelocity, g);
  // turn about up: the twist of ΔR = R₁ R₀ᵀ, angle 2 atan2(v · up, w), wrapped to (−π, π]
  const dq = quat.multiply(ctx.carryTurn, q1, quat.conjugate(ctx.carryTurn, q0));
  let turn = 2 * Math.atan2(dq.x * up.x + dq.y * up.y + dq.z * up.z, dq.w);
  if (turn > Math.PI) turn -= 2 * Math.PI;
  else if (turn < -Math.PI) turn += 2 * Math.PI;
  ctx.groundTurn = turn;
  ctx.carrierPosition.x = c1.x; ctx.carrierPosition.y = c1.y; ctx.carrierPosition.z = c1.z;
  quat.copy(ctx.carrierRotation, q1);
  const len = Math.sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  if (len < 1e-9) return true;
  ctx.syncQueryOptions(ownBody);
  const hit = ctx.world.shapeCast(ctx.shape, p, ctx.rotation, d, ctx.carryOptions);
  const f = hit === null ? 1 : Math.max(0, hit.fraction - ctx.settings.skinWidth / len);
  p.x += d.x * f; p.y += d.y * f; p.z += d.z * f;
  r.position.x = p.x; r.position.y = p.y; r.position.z = p.z;
  return true;
}
