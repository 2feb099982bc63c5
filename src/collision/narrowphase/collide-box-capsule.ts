/**
 * Box–capsule contacts, in the box's frame.
 *
 * The capsule is its segment ⊕ a ball of radius r, so:
 * - segment outside the box: depth = r − dist(segment, box), normal along the
 *   closest points. dist²(P(t), box) is convex and piecewise quadratic in t,
 *   with breaks where P(t) crosses a face plane (≤ 6), so we minimise each
 *   quadratic piece in closed form: exact, no iteration.
 * - segment touching or crossing the box: depth = r + PD(segment, box). The
 *   Minkowski difference box ⊖ segment is the box swept along the segment, whose
 *   face normals are the 3 box axes and the 3 products u × e_i, so SAT over these
 *   6 axes gives the exact PD; the witness is the segment's support point on
 *   the box face (face axis) or the closest points of segment and box edge.
 * - closest feature a box face: up to two points, the ends of the segment
 *   clipped to the face rectangle, each found by casting a line along the face
 *   normal through box and capsule (exact on both surfaces) and kept when
 *   within the speculative margin — so a tilted capsule swinging down onto
 *   the face during the step has a point at its far end too.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { BoxGeometry as Box } from '../../shapes/geometry';
import type { CapsuleGeometry as Capsule } from '../../shapes/geometry';
import { CAPSULE_FLAT_SIN, capsuleLineExtent, closestSegmentSegment, lineArgs, segmentArgs, segmentClosest } from './collide-capsule-capsule';
import type { Manifold } from './manifold';
import { narrowphaseGap, narrowphaseMargin } from './margin';

// Doubles cross function boundaries through the Float64Arrays below
// (CONTRIBUTING.md, hot path); small helpers are written out inline.

// Breakpoints of the piecewise-quadratic distance, sorted in place.
const breaks = new Float64Array(8);
// Box half extents, segment centre and axis in the box frame (x, y, z).
const half = new Float64Array(3);
const segC = new Float64Array(3);
const segU = new Float64Array(3);
// The contact in box-local coordinates (midpoint xyz, normal xyz, depth)
// before it is moved to world space, and the world-space point for the manifold.
const local = new Float64Array(7);
const world = new Float64Array(7);
// A two-point face contact, in the same layout as `local`.
const flat = new Float64Array(7);
// Capsule half-height [0] and radius [1], for satContact.
const capsule = new Float64Array(2);

/**
 * Contacts between box A and capsule B (world poses); normal A→B. Ids: 0 for
 * the single deepest point, 1 and 2 for the two ends of a segment lying flat on
 * a face (plus 8 × face index).
 */
export function boxCapsuleContacts(
  a: Box, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  b: Capsule, posB: Readonly<Vec3>, rotB: Readonly<Quat>, manifold: Manifold,
): void {
  const margin = narrowphaseMargin[0]!;
  manifold.reset();
  const r = b.radius, h = b.halfHeight;
  half[0] = a.halfExtents.x; half[1] = a.halfExtents.y; half[2] = a.halfExtents.z;

  // World axis of the capsule, then centre and axis in A's frame (q* v q).
  const wux = 2 * (rotB.x * rotB.y - rotB.w * rotB.z);
  const wuy = 1 - 2 * (rotB.x * rotB.x + rotB.z * rotB.z);
  const wuz = 2 * (rotB.y * rotB.z + rotB.w * rotB.x);
  world[0] = posB.x - posA.x; world[1] = posB.y - posA.y; world[2] = posB.z - posA.z;
  inverseRotateInto(segC, rotA);
  world[0] = wux; world[1] = wuy; world[2] = wuz;
  inverseRotateInto(segU, rotA);
  const cx = segC[0]!, cy = segC[1]!, cz = segC[2]!;
  const ux = segU[0]!, uy = segU[1]!, uz = segU[2]!;

  // Quick rejection on the box's face axes: the capsule's extent along each
  // (segment ± h|u_i|, grown by r) beyond the box's ± half-extent and the
  // margin. Most broadphase pairs of a pile end here, before the distance.
  // Each gap along a face axis is a lower bound on the distance.
  const gx = Math.abs(cx) - h * Math.abs(ux) - r - half[0]!;
  const gy = Math.abs(cy) - h * Math.abs(uy) - r - half[1]!;
  const gz = Math.abs(cz) - h * Math.abs(uz) - r - half[2]!;
  const gap = gx > gy ? (gx > gz ? gx : gz) : (gy > gz ? gy : gz);
  if (gap > margin) {
    narrowphaseGap[0] = gap;
    return;
  }

  // --- distance from the segment to the box: minimise each quadratic piece.
  let count = 0;
  breaks[count++] = -h;
  breaks[count++] = h;
  for (let i = 0; i < 3; i++) {
    const ui = segU[i]!;
    if (Math.abs(ui) < 1e-12) continue;
    for (let sgn = -1; sgn <= 1; sgn += 2) {
      const tb = (sgn * half[i]! - segC[i]!) / ui;
      if (tb > -h && tb < h) breaks[count++] = tb;
    }
  }
  for (let i = 1; i < count; i++) {
    const v = breaks[i]!;
    let j = i - 1;
    while (j >= 0 && breaks[j]! > v) {
      breaks[j + 1] = breaks[j]!;
      j--;
    }
    breaks[j + 1] = v;
  }
  let bestT = 0;
  let bestD2 = Infinity;
  for (let k = 0; k + 1 < count; k++) {
    const t0 = breaks[k]!, t1 = breaks[k + 1]!;
    const mid = 0.5 * (t0 + t1);
    // On this piece each coordinate is either free or clamped to ±h_i:
    // f(t) = Σ_clamped (c_i + t u_i − T_i)², minimum at t = −Σ(c_i − T_i)u_i / Σu_i².
    let num = 0, den = 0;
    for (let i = 0; i < 3; i++) {
      const p = segC[i]! + mid * segU[i]!;
      const hi = half[i]!;
      if (p > hi || p < -hi) {
        const target = p > hi ? hi : -hi;
        num += (segC[i]! - target) * segU[i]!;
        den += segU[i]! * segU[i]!;
      }
    }
    let t = den > 1e-15 ? -num / den : t0;
    t = t < t0 ? t0 : t > t1 ? t1 : t;
    // Squared distance from P(t) to the box [−half, half].
    const ex = Math.abs(cx + t * ux) - half[0]!, ey = Math.abs(cy + t * uy) - half[1]!, ez = Math.abs(cz + t * uz) - half[2]!;
    let d2 = 0;
    if (ex > 0) d2 += ex * ex;
    if (ey > 0) d2 += ey * ey;
    if (ez > 0) d2 += ez * ez;
    if (d2 < bestD2) {
      bestD2 = d2;
      bestT = t;
    }
  }

  const dist = Math.sqrt(bestD2);
  if (dist - r > margin) {
    narrowphaseGap[0] = dist - r;
    return;
  }
  const hx = half[0]!, hy = half[1]!, hz = half[2]!;
  let nx: number, ny: number, nz: number, depth: number;
  if (dist > 1e-9) {
    const qx = cx + bestT * ux, qy = cy + bestT * uy, qz = cz + bestT * uz;
    const bx = qx < -hx ? -hx : qx > hx ? hx : qx;
    const by = qy < -hy ? -hy : qy > hy ? hy : qy;
    const bz = qz < -hz ? -hz : qz > hz ? hz : qz;
    nx = (qx - bx) / dist; ny = (qy - by) / dist; nz = (qz - bz) / dist;
    depth = r - dist;
    // A's point (bx..), B's point q − n r.
    local[0] = 0.5 * (bx + qx - nx * r); local[1] = 0.5 * (by + qy - ny * r); local[2] = 0.5 * (bz + qz - nz * r);
  } else {
    capsule[0] = h; capsule[1] = r;
    satContact();
    nx = local[3]!; ny = local[4]!; nz = local[5]!;
    depth = local[6]!;
  }

  // --- against a face: a point at each end of the segment clipped to it.
  const ax = Math.abs(nx), ay = Math.abs(ny), az = Math.abs(nz);
  const face = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  const nFace = face === 0 ? nx : face === 1 ? ny : nz;
  // Both ends whenever the closest feature is a face, not only when the
  // segment lies flat: an end that is still above the face but within the
  // speculative margin gets its own point, so a tilted limb swinging down
  // onto the floor during the step is stopped at that end too.
  // (Not for a segment within ~25° of the face normal: its ends project onto
  // nearly the same face point, and the upper one adds nothing.)
  if (Math.abs(nFace) > 1 - 0.5 * CAPSULE_FLAT_SIN * CAPSULE_FLAT_SIN && Math.abs(segU[face]!) < 0.9) {
    const sgn = nFace > 0 ? 1 : -1;
    // Clip t to the face rectangle in the two other axes.
    let lo = -h, hi = h;
    for (let i = 0; i < 3; i++) {
      if (i === face) continue;
      const ui = segU[i]!, ci = segC[i]!, hh = half[i]!;
      if (Math.abs(ui) < 1e-12) {
        if (ci > hh || ci < -hh) { lo = 1; hi = -1; }
        continue;
      }
      let ta = (-hh - ci) / ui, tb = (hh - ci) / ui;
      if (ta > tb) { const tmp = ta; ta = tb; tb = tmp; }
      if (ta > lo) lo = ta;
      if (tb < hi) hi = tb;
    }
    if (hi - lo > 1e-4 * h) {
      const fx = face === 0 ? sgn : 0, fy = face === 1 ? sgn : 0, fz = face === 2 ? sgn : 0;
      const faceId = 8 * (2 * face + (sgn > 0 ? 0 : 1));
      for (let end = 0; end < 2; end++) {
        const t = end === 0 ? lo : hi;
        const px = cx + t * ux, py = cy + t * uy, pz = cz + t * uz;
        const pf = face === 0 ? px : face === 1 ? py : pz;
        // Box exit along f: the face plane; capsule entry: the line cast.
        const outA = half[face]! - sgn * pf;
        const L = lineArgs;
        L[0] = px; L[1] = py; L[2] = pz; L[3] = fx; L[4] = fy; L[5] = fz;
        L[6] = cx; L[7] = cy; L[8] = cz; L[9] = ux; L[10] = uy; L[11] = uz; L[12] = h; L[13] = r;
        capsuleLineExtent(false);
        const inB = L[14]!;
        if (inB !== inB) continue;
        const d = outA - inB;
        if (d < -margin) continue;
        const m = 0.5 * (outA + inB);
        flat[0] = px + fx * m; flat[1] = py + fy * m; flat[2] = pz + fz * m;
        flat[3] = fx; flat[4] = fy; flat[5] = fz; flat[6] = d;
        emit(manifold, posA, rotA, flat, faceId + 1 + end);
      }
      if (manifold.pointCount > 0) return;
    }
  }
  local[3] = nx; local[4] = ny; local[5] = nz; local[6] = depth;
  emit(manifold, posA, rotA, local, 0);
}

/**
 * The segment meets the box: SAT over the 3 face axes and the 3 axes u × e_i.
 * Overlap along a unit axis L: R_box + h|u·L| − |c·L| with R_box = Σ h_i|L_i|.
 * The least overlap is PD(segment, box); the capsule's depth adds r. Reads
 * segC, segU, half and capsule; the contact goes to `local`.
 */
function satContact(): void {
  const h = capsule[0]!, r = capsule[1]!;
  const cx = segC[0]!, cy = segC[1]!, cz = segC[2]!;
  const ux = segU[0]!, uy = segU[1]!, uz = segU[2]!;
  const hx = half[0]!, hy = half[1]!, hz = half[2]!;
  let best = Infinity;
  let bestAxis = 0;
  let lx = 0, ly = 0, lz = 0;
  for (let k = 0; k < 6; k++) {
    let ex: number, ey: number, ez: number;
    if (k < 3) {
      ex = k === 0 ? 1 : 0; ey = k === 1 ? 1 : 0; ez = k === 2 ? 1 : 0;
    } else {
      // u × e_i
      const i = k - 3;
      ex = i === 0 ? 0 : i === 1 ? -uz : uy;
      ey = i === 0 ? uz : i === 1 ? 0 : -ux;
      ez = i === 0 ? -uy : i === 1 ? ux : 0;
      const len = Math.sqrt(ex * ex + ey * ey + ez * ez);
      if (len < 1e-6) continue;
      ex /= len; ey /= len; ez /= len;
    }
    const cl = cx * ex + cy * ey + cz * ez;
    const overlap = hx * Math.abs(ex) + hy * Math.abs(ey) + hz * Math.abs(ez) + h * Math.abs(ux * ex + uy * ey + uz * ez) - Math.abs(cl);
    // Prefer face axes over cross axes that are not clearly better.
    if (overlap < best - (k < 3 ? 0 : 1e-9)) {
      best = overlap;
      bestAxis = k;
      const sgn = cl >= 0 ? 1 : -1;
      lx = ex * sgn; ly = ey * sgn; lz = ez * sgn;
    }
  }
  const depth = best + r;
  if (bestAxis < 3) {
    // The segment's support point towards the box (−n), projected on the face.
    const un = ux * lx + uy * ly + uz * lz;
    const t = un > 0 ? -h : un < 0 ? h : 0;
    const sx = cx + t * ux, sy = cy + t * uy, sz = cz + t * uz;
    const fx = bestAxis === 0 ? (lx > 0 ? hx : -hx) : sx < -hx ? -hx : sx > hx ? hx : sx;
    const fy = bestAxis === 1 ? (ly > 0 ? hy : -hy) : sy < -hy ? -hy : sy > hy ? hy : sy;
    const fz = bestAxis === 2 ? (lz > 0 ? hz : -hz) : sz < -hz ? -hz : sz > hz ? hz : sz;
    local[0] = 0.5 * (fx + sx - lx * r); local[1] = 0.5 * (fy + sy - ly * r); local[2] = 0.5 * (fz + sz - lz * r);
    local[3] = lx; local[4] = ly; local[5] = lz; local[6] = depth;
    return;
  }
  // Box edge along e_i that is extreme along n, against the segment.
  const i = bestAxis - 3;
  const ecx = i === 0 ? 0 : lx >= 0 ? hx : -hx;
  const ecy = i === 1 ? 0 : ly >= 0 ? hy : -hy;
  const ecz = i === 2 ? 0 : lz >= 0 ? hz : -hz;
  const S = segmentArgs;
  S[0] = ecx; S[1] = ecy; S[2] = ecz; S[3] = i === 0 ? 1 : 0; S[4] = i === 1 ? 1 : 0; S[5] = i === 2 ? 1 : 0; S[6] = half[i]!;
  S[7] = cx; S[8] = cy; S[9] = cz; S[10] = ux; S[11] = uy; S[12] = uz; S[13] = h;
  closestSegmentSegment();
  const s = segmentClosest[0]!, t = segmentClosest[1]!;
  const ax = ecx + (i === 0 ? s : 0), ay = ecy + (i === 1 ? s : 0), az = ecz + (i === 2 ? s : 0);
  const bx = cx + t * ux - lx * r, by = cy + t * uy - ly * r, bz = cz + t * uz - lz * r;
  local[0] = 0.5 * (ax + bx); local[1] = 0.5 * (ay + by); local[2] = 0.5 * (az + bz);
  local[3] = lx; local[4] = ly; local[5] = lz; local[6] = (ax - bx) * lx + (ay - by) * ly + (az - bz) * lz;
}

/** out = q* v q for v = world[0..2]. */
function inverseRotateInto(out: Float64Array, q: Readonly<Quat>): void {
  const vx = world[0]!, vy = world[1]!, vz = world[2]!;
  const qx = -q.x, qy = -q.y, qz = -q.z, qw = q.w;
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  out[0] = vx + qw * tx + (qy * tz - qz * ty);
  out[1] = vy + qw * ty + (qz * tx - qx * tz);
  out[2] = vz + qw * tz + (qx * ty - qy * tx);
}

/** Adds the point in `src` (A's frame, layout of `local`): p = pA + q m q*, n = q n_local q*. */
function emit(manifold: Manifold, posA: Readonly<Vec3>, q: Readonly<Quat>, src: Float64Array, id: number): void {
  const mx = src[0]!, my = src[1]!, mz = src[2]!, nx = src[3]!, ny = src[4]!, nz = src[5]!;
  const qx = q.x, qy = q.y, qz = q.z, qw = q.w;
  let tx = 2 * (qy * mz - qz * my), ty = 2 * (qz * mx - qx * mz), tz = 2 * (qx * my - qy * mx);
  world[0] = posA.x + mx + qw * tx + (qy * tz - qz * ty);
  world[1] = posA.y + my + qw * ty + (qz * tx - qx * tz);
  world[2] = posA.z + mz + qw * tz + (qx * ty - qy * tx);
  tx = 2 * (qy * nz - qz * ny); ty = 2 * (qz * nx - qx * nz); tz = 2 * (qx * ny - qy * nx);
  world[3] = nx + qw * tx + (qy * tz - qz * ty);
  world[4] = ny + qw * ty + (qz * tx - qx * tz);
  world[5] = nz + qw * tz + (qx * ty - qy * tx);
  world[6] = src[6]!;
  manifold.addPointFrom(world, 0, id);
}
