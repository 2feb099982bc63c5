/**
 * Stepping up (Jolt's WalkStairs idea): blocked by a wall while grounded,
 * try the move raised by stepHeight and settle down onto walkable ground.
 */
import type { Vec3 } from '../src/index';
import type { PlaneSet } from './plane-set';
import type { MoveContext } from './move-context';
import { gather } from './gather';
import { solveMove } from './sweep';
import { isWalkable } from './ground';

/** A wall-like plane (steeper than maxSlope, or flattened) pushed against the horizontal motion. */
export function blockedByWall(ctx: MoveContext, set: PlaneSet, displacement: Readonly<Vec3>): boolean {
  const up = ctx.up;
  const h = ctx.horizontal;
  const du = displacement.x * up.x + displacement.y * up.y + displacement.z * up.z;
  h.x = displacement.x - du * up.x; h.y = displacement.y - du * up.y; h.z = displacement.z - du * up.z;
  const hl = Math.sqrt(h.x * h.x + h.y * h.y + h.z * h.z);
  if (hl < 1e-6) return false;
  h.x /= hl; h.y /= hl; h.z /= hl;
  for (let i = 0; i < set.count; i++) {
    const q = set.planes[i]!;
    if (q.push <= 0) continue;
    const n = q.normal;
    if (n.x * up.x + n.y * up.y + n.z * up.z >= ctx.slope.cosMaxSlope) continue;
    if (n.x * h.x + n.y * h.y + n.z * h.z < -0.1) return true;
  }
  return false;
}

/**
 * Step up: cast up by stepHeight, move horizontally from there, cast down
 * onto walkable ground. Accepted only if it gets further along the motion
 * than the plain move (`moved`), which it then replaces.
 */
export function tryStepUp(ctx: MoveContext, start: Readonly<Vec3>, displacement: Readonly<Vec3>, moved: Vec3): boolean {
  const s = ctx.settings;
  const up = ctx.up;
  const h = ctx.horizontal; // unit horizontal direction from blockedByWall
  const du = displacement.x * up.x + displacement.y * up.y + displacement.z * up.z;
  // Cheap rejection before four queries: a ray along the motion just above
  // stepHeight (from the axis, one radius + margin long) that hits a steep
  // surface means the obstacle is taller than a step.
  {
    const feet = ctx.halfHeight + ctx.radius;
    const lift = s.stepHeight + 2 * s.skinWidth - feet;
    const from = ctx.probeFrom, to = ctx.probeTo;
    from.x = start.x + up.x * lift; from.y = start.y + up.y * lift; from.z = start.z + up.z * lift;
    const reach = ctx.radius + 3 * s.skinWidth + s.slop;
    to.x = from.x + h.x * reach; to.y = from.y + h.y * reach; to.z = from.z + h.z * reach;
    const ray = ctx.world.raycast(from, to, ctx.rayOptions);
    if (ray !== null && ray.normal.x * up.x + ray.normal.y * up.y + ray.normal.z * up.z < ctx.slope.cosMaxSlope) return false;
  }
  const dir = ctx.castDir;
  dir.x = up.x * s.stepHeight; dir.y = up.y * s.stepHeight; dir.z = up.z * s.stepHeight;
  const upHit = ctx.world.shapeCast(ctx.shape, start, ctx.rotation, dir, ctx.castOptions);
  const rise = upHit ? Math.max(0, upHit.fraction * s.stepHeight - s.skinWidth) : s.stepHeight;
  if (rise < 0.01) return false;
  const raised = ctx.stepPos;
  raised.x = start.x + up.x * rise; raised.y = start.y + up.y * rise; raised.z = start.z + up.z * rise;
  const set = ctx.setB;
  gather(ctx, set, raised);
  // horizontal part of the displacement from the raised position
  // Move at least minStepForward: a walker whose speed was clipped by the
  // riser asks for ~1 cm, which leaves the step's nose beside the capsule
  // instead of under it (Jolt tests stairs 0.15 m ahead for the same reason).
  const hd = ctx.stepDisp;
  hd.x = displacement.x - du * up.x; hd.y = displacement.y - du * up.y; hd.z = displacement.z - du * up.z;
  const hl = Math.sqrt(hd.x * hd.x + hd.y * hd.y + hd.z * hd.z);
  if (hl < s.minStepForward) {
    hd.x = h.x * s.minStepForward; hd.y = h.y * s.minStepForward; hd.z = h.z * s.minStepForward;
  }
  const stepMoved = ctx.stepMoved;
  solveMove(ctx, set, raised, hd, stepMoved);
  // settle down onto the step
  const down = rise + s.skinWidth + s.slop;
  dir.x = -up.x * down; dir.y = -up.y * down; dir.z = -up.z * down;
  const hit = ctx.world.shapeCast(ctx.shape, stepMoved, ctx.rotation, dir, ctx.castOptions);
  if (hit === null) return false;
  // Landing on a step's nose must be under the capsule (contact normal within 60° of up).
  if (!isWalkable(ctx, hit, stepMoved, 0.5)) return false;
  // A step: the new support point lies above the feet at the start by
  // (0, stepHeight] (not the same floor, not a higher ledge whose nose only
  // touches the capsule's side).
  const feet = ctx.halfHeight + ctx.radius;
  const supportRise = (hit.point.x - start.x) * up.x + (hit.point.y - start.y) * up.y + (hit.point.z - start.z) * up.z + feet;
  if (supportRise < 0.005 || supportRise > s.stepHeight + s.skinWidth) return false;
  const drop = Math.max(0, hit.fraction * down - s.skinWidth);
  const lx = stepMoved.x - up.x * drop, ly = stepMoved.y - up.y * drop, lz = stepMoved.z - up.z * drop;
  // The raised move may have slid up a slope: never climb more than stepHeight.
  if ((lx - start.x) * up.x + (ly - start.y) * up.y + (lz - start.z) * up.z > s.stepHeight + s.skinWidth) return false;
  const progressStep = (lx - start.x) * h.x + (ly - start.y) * h.y + (lz - start.z) * h.z;
  const progressPlain = (moved.x - start.x) * h.x + (moved.y - start.y) * h.y + (moved.z - start.z) * h.z;
  if (progressStep < progressPlain + 1e-3) return false;
  moved.x = lx; moved.y = ly; moved.z = lz;
  return true;
}
