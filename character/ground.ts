/**
 * Ground detection after the move: a gathered walkable plane that touches,
 * else a short cast down (walkable by its normal, or a step edge with
 * walkable ground beside it, tested by rays), and snapping down by up to
 * snapDistance while grounded (stairs, slopes).
 */
import type { ShapeCastHit, Vec3 } from '../src/index';
import type { CharacterPlane } from './plane-solver';
import type { PlaneSet } from './plane-set';
import type { MoveContext } from './move-context';

/** Width of the horizontal offset used to look for walkable ground beside a step edge, metres. */
const EDGE_PROBE_OFFSET = 0.02;

/**
 * Ground under a cast hit: walkable by its normal, or an edge (a step's
 * nose) with walkable ground right beside the contact point on either side
 * (rays down just inside and just outside the contact, horizontally), if
 * the contact normal's up component is at least `minEdgeUp`.
 */
export function isWalkable(ctx: MoveContext, hit: ShapeCastHit, centre: Readonly<Vec3>, minEdgeUp: number): boolean {
  const up = ctx.up;
  const n = hit.normal;
  const nu = n.x * up.x + n.y * up.y + n.z * up.z;
  const gn = ctx.result.groundNormal;
  if (nu >= ctx.slope.cosMaxSlope) {
    gn.x = n.x; gn.y = n.y; gn.z = n.z;
    return true;
  }
  // An edge touching the capsule's side (nu ≈ 0) is a wall, not a support.
  if (nu < minEdgeUp) return false;
  // horizontal direction from the capsule axis to the contact point
  const p = hit.point;
  let ox = p.x - centre.x, oy = p.y - centre.y, oz = p.z - centre.z;
  const ou = ox * up.x + oy * up.y + oz * up.z;
  ox -= ou * up.x; oy -= ou * up.y; oz -= ou * up.z;
  const ol = Math.sqrt(ox * ox + oy * oy + oz * oz);
  if (ol < 1e-6) return false;
  ox /= ol; oy /= ol; oz /= ol;
  for (let side = -1; side <= 1; side += 2) {
    const from = ctx.probeFrom;
    const to = ctx.probeTo;
    const k = side * EDGE_PROBE_OFFSET;
    from.x = p.x + ox * k + up.x * EDGE_PROBE_OFFSET; from.y = p.y + oy * k + up.y * EDGE_PROBE_OFFSET; from.z = p.z + oz * k + up.z * EDGE_PROBE_OFFSET;
    to.x = from.x - up.x * 3 * EDGE_PROBE_OFFSET; to.y = from.y - up.y * 3 * EDGE_PROBE_OFFSET; to.z = from.z - up.z * 3 * EDGE_PROBE_OFFSET;
    const ray = ctx.world.raycast(from, to, ctx.rayOptions);
    // A start inside geometry (distance 0) says nothing about the surface beside the edge.
    if (ray === null || ray.distance < 1e-4) continue;
    const rn = ray.normal;
    if (rn.x * up.x + rn.y * up.y + rn.z * up.z >= ctx.slope.cosMaxSlope) {
      gn.x = rn.x; gn.y = rn.y; gn.z = rn.z;
      return true;
    }
  }
  return false;
}

/** Ground detection (a short cast down) and, when `snap`, gluing to ground up to snapDistance below. */
export function probeGround(ctx: MoveContext, set: PlaneSet, p: Vec3, snap: boolean): void {
  const s = ctx.settings;
  const r = ctx.result;
  const up = ctx.up;
  // Most frames a gathered walkable plane already touches the capsule
  // (gap ≤ skin + 2 slop ⇔ n · p − d ≤ 2 slop): no cast needed.
  let best: CharacterPlane | null = null;
  let bestUp = ctx.slope.cosMaxSlope;
  for (let i = 0; i < set.count; i++) {
    const q = set.planes[i]!;
    if (q.flattened) continue;
    const n = q.normal;
    const nu = n.x * up.x + n.y * up.y + n.z * up.z;
    if (nu < bestUp) continue;
    if (n.x * p.x + n.y * p.y + n.z * p.z - q.distance > 2 * s.slop) continue;
    best = q;
    bestUp = nu;
  }
  if (best !== null) {
    r.grounded = true;
    r.sliding = false;
    r.groundNormal.x = best.normal.x; r.groundNormal.y = best.normal.y; r.groundNormal.z = best.normal.z;
    r.groundBody = best.body;
    r.groundPoint.x = best.point.x; r.groundPoint.y = best.point.y; r.groundPoint.z = best.point.z;
    r.groundVelocity.x = 0; r.groundVelocity.y = 0; r.groundVelocity.z = 0;
    if (best.body !== null && !best.body.isStatic) best.body.getPointVelocity(r.groundVelocity, best.point);
    return;
  }
  // Touching means a gap ≤ skin + 2 slop along the surface normal; straight
  // down that is gap / (n · up), so probe far enough for slopes up to ~70°.
  const contact = s.skinWidth + 2 * s.slop;
  const reach = contact / 0.34;
  const len = snap ? Math.max(s.snapDistance, reach) : reach;
  const dir = ctx.castDir;
  dir.x = -up.x * len; dir.y = -up.y * len; dir.z = -up.z * len;
  r.grounded = false;
  r.sliding = false;
  r.groundBody = null;
  r.groundVelocity.x = 0; r.groundVelocity.y = 0; r.groundVelocity.z = 0;
  const hit = ctx.world.shapeCast(ctx.shape, p, ctx.rotation, dir, ctx.castOptions);
  if (hit === null) {
    r.groundNormal.x = up.x; r.groundNormal.y = up.y; r.groundNormal.z = up.z;
    return;
  }
  const dist = hit.fraction * len;
  const walkable = isWalkable(ctx, hit, p, 0.05);
  const hnu = hit.normal.x * up.x + hit.normal.y * up.y + hit.normal.z * up.z;
  const gap = dist * Math.max(hnu, 0.34);
  if (!walkable) {
    if (gap <= contact) {
      r.sliding = true;
      r.groundNormal.x = hit.normal.x; r.groundNormal.y = hit.normal.y; r.groundNormal.z = hit.normal.z;
    } else {
      r.groundNormal.x = up.x; r.groundNormal.y = up.y; r.groundNormal.z = up.z;
    }
    return;
  }
  if (gap > contact) {
    if (!snap) {
      r.groundNormal.x = up.x; r.groundNormal.y = up.y; r.groundNormal.z = up.z;
      return;
    }
    const drop = dist - s.skinWidth;
    p.x -= up.x * drop; p.y -= up.y * drop; p.z -= up.z * drop;
    r.snapped = true;
  }
  r.grounded = true;
  r.groundBody = hit.body;
  r.groundPoint.x = hit.point.x; r.groundPoint.y = hit.point.y; r.groundPoint.z = hit.point.z;
  if (!hit.body.isStatic) hit.body.getPointVelocity(r.groundVelocity, hit.point);
}
