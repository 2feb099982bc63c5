/**
 * Sphere–box contact, in the box's frame (Ericson 5.1.3 for the closest point).
 *
 * Centre outside: the closest point q = clamp(c) gives the normal and depth
 * r − |c − q|. Centre inside: the exit through the nearest face is the
 * minimum translation (SAT over the three face axes of a point), depth
 * r + (h_i − |c_i|). Both depths are exact.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { BoxGeometry as Box } from '../../shapes/geometry';
import type { SphereGeometry as Sphere } from '../../shapes/geometry';
import type { Manifold } from './manifold';
import { narrowphaseGap, narrowphaseMargin } from './margin';

// The point goes to the manifold through a Float64Array: position xyz, normal xyz, depth.
const point = new Float64Array(7);

/**
 * Contacts between sphere A and box B (world poses); normal A→B. The id is the
 * box face (0..5 = +x,−x,+y,−y,+z,−z) nearest the point, 6 for edge/vertex regions.
 */
export function sphereBoxContacts(
  a: Sphere, posA: Readonly<Vec3>, _rotA: Readonly<Quat>,
  b: Box, posB: Readonly<Vec3>, rotB: Readonly<Quat>, manifold: Manifold,
): void {
  const margin = narrowphaseMargin[0]!;
  manifold.reset();
  const r = a.radius;
  const hx = b.halfExtents.x, hy = b.halfExtents.y, hz = b.halfExtents.z;
  // Sphere centre in B's frame: c = q* (pA − pB) q.
  const qx = -rotB.x, qy = -rotB.y, qz = -rotB.z, qw = rotB.w;
  const vx = posA.x - posB.x, vy = posA.y - posB.y, vz = posA.z - posB.z;
  let tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  const cx = vx + qw * tx + (qy * tz - qz * ty);
  const cy = vy + qw * ty + (qz * tx - qx * tz);
  const cz = vz + qw * tz + (qx * ty - qy * tx);

  const px = cx < -hx ? -hx : cx > hx ? hx : cx;
  const py = cy < -hy ? -hy : cy > hy ? hy : cy;
  const pz = cz < -hz ? -hz : cz > hz ? hz : cz;
  let dx = px - cx, dy = py - cy, dz = pz - cz;
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  let depth: number;
  // Local surface points on A (ax..) and B (bx..).
  let bx = px, by = py, bz = pz;
  let id = 6;
  if (dist > 1e-12) {
    depth = r - dist;
    if (-depth > margin) {
      narrowphaseGap[0] = -depth;
      return;
    }
    dx /= dist; dy /= dist; dz /= dist;
    if (cx === px && cy === py) id = dz < 0 ? 4 : 5;
    else if (cx === px && cz === pz) id = dy < 0 ? 2 : 3;
    else if (cy === py && cz === pz) id = dx < 0 ? 0 : 1;
  } else {
    // Inside (or on the surface): leave through the face with the least
    // penetration; the box is pushed the other way, so n = −outward normal.
    const ex = hx - Math.abs(cx), ey = hy - Math.abs(cy), ez = hz - Math.abs(cz);
    dx = 0; dy = 0; dz = 0;
    if (ex <= ey && ex <= ez) {
      const sgn = cx >= 0 ? 1 : -1;
      dx = -sgn; bx = sgn * hx; depth = r + ex; id = sgn > 0 ? 0 : 1;
    } else if (ey <= ez) {
      const sgn = cy >= 0 ? 1 : -1;
      dy = -sgn; by = sgn * hy; depth = r + ey; id = sgn > 0 ? 2 : 3;
    } else {
      const sgn = cz >= 0 ? 1 : -1;
      dz = -sgn; bz = sgn * hz; depth = r + ez; id = sgn > 0 ? 4 : 5;
    }
  }
  // Midpoint of A's point c + n r and B's point (bx, by, bz), still local.
  const mx = 0.5 * (cx + dx * r + bx), my = 0.5 * (cy + dy * r + by), mz = 0.5 * (cz + dz * r + bz);
  // Back to world: p = pB + q m q*, n = q d q*.
  const sx = rotB.x, sy = rotB.y, sz = rotB.z, sw = rotB.w;
  tx = 2 * (sy * mz - sz * my); ty = 2 * (sz * mx - sx * mz); tz = 2 * (sx * my - sy * mx);
  const wx = posB.x + mx + sw * tx + (sy * tz - sz * ty);
  const wy = posB.y + my + sw * ty + (sz * tx - sx * tz);
  const wz = posB.z + mz + sw * tz + (sx * ty - sy * tx);
  tx = 2 * (sy * dz - sz * dy); ty = 2 * (sz * dx - sx * dz); tz = 2 * (sx * dy - sy * dx);
  point[0] = wx; point[1] = wy; point[2] = wz;
  point[3] = dx + sw * tx + (sy * tz - sz * ty); point[4] = dy + sw * ty + (sz * tx - sx * tz); point[5] = dz + sw * tz + (sx * ty - sy * tx);
  point[6] = depth;
  manifold.addPointFrom(point, 0, id);
}
