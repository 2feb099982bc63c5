/**
 * Capsule–capsule contacts, plus the segment helpers the other capsule pairs
 * share (closest points between two segments, the extent of a line inside a
 * capsule).
 *
 * A capsule is its core segment ⊕ a ball, so the penetration depth of two
 * capsules is rA + rB − dist(segA, segB) with the normal along the closest
 * points (Ericson, "Real-Time Collision Detection", 5.1.9). When the segments
 * are nearly parallel one point lets the capsules roll, so we report the two
 * ends of the overlap of the segments as well, each found by casting a line
 * along the common normal through both capsules: the points stay exactly on
 * both surfaces whatever the small tilt.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { CapsuleGeometry as Capsule } from '../../shapes/geometry';
import type { Manifold } from './manifold';
import { narrowphaseGap, narrowphaseMargin } from './margin';

// Doubles cross function boundaries through module-level Float64Arrays
// (CONTRIBUTING.md, hot path).

/**
 * Arguments of {@link closestSegmentSegment}: segment 1 centre [0..2], unit
 * direction [3..5], half-length [6]; segment 2 centre [7..9], direction
 * [10..12], half-length [13].
 */
export const segmentArgs = new Float64Array(14);
/** Result of {@link closestSegmentSegment}: parameters s [0] and t [1] along each segment. */
export const segmentClosest = new Float64Array(2);

/**
 * Closest points between segments c1 + s·u1 (|s| ≤ h1) and c2 + t·u2 (|t| ≤ h2),
 * unit directions, read from {@link segmentArgs}. Writes s, t into
 * {@link segmentClosest}.
 *
 * Minimising |r + s u1 − t u2|² with r = c1 − c2, b = u1·u2, c = u1·r, f = u2·r:
 * the stationary point is s = (b f − c) / (1 − b²), t = f + b s; clamp s, derive
 * t, clamp t and derive s again (Ericson 5.1.9 with unit directions). For
 * (nearly) parallel segments every s of the overlap is a minimiser; we take the
 * middle of the overlap so the choice does not jump when one end moves.
 */
export function closestSegmentSegment(): void {
  const A = segmentArgs;
  const u1x = A[3]!, u1y = A[4]!, u1z = A[5]!, h1 = A[6]!;
  const u2x = A[10]!, u2y = A[11]!, u2z = A[12]!, h2 = A[13]!;
  const rx = A[0]! - A[7]!, ry = A[1]! - A[8]!, rz = A[2]! - A[9]!;
  const b = u1x * u2x + u1y * u2y + u1z * u2z;
  const c = u1x * rx + u1y * ry + u1z * rz;
  const f = u2x * rx + u2y * ry + u2z * rz;
  const denom = 1 - b * b;
  let s: number;
  if (denom > 1e-10) {
    s = (b * f - c) / denom;
    s = s < -h1 ? -h1 : s > h1 ? h1 : s;
  } else {
    // Projection of segment 2 onto line 1 spans −c ± h2|b|.
    const lo = Math.max(-h1, -c - h2 * Math.abs(b));
    const hi = Math.min(h1, -c + h2 * Math.abs(b));
    s = lo <= hi ? 0.5 * (lo + hi) : -c < -h1 ? -h1 : -c > h1 ? h1 : -c;
  }
  let t = f + b * s;
  if (t < -h2 || t > h2) {
    t = t < -h2 ? -h2 : h2;
    s = b * t - c;
    s = s < -h1 ? -h1 : s > h1 ? h1 : s;
  }
  segmentClosest[0] = s;
  segmentClosest[1] = t;
}

/**
 * Arguments of {@link capsuleLineExtent}: line point p [0..2], unit direction
 * n [3..5]; capsule centre c [6..8], unit axis u [9..11], half-height h [12],
 * radius r [13]. The result goes to [14].
 */
export const lineArgs = new Float64Array(15);

/**
 * The extreme parameter σ of the points p + σ n (n unit) that lie in the
 * capsule (arguments in {@link lineArgs}): the largest when `wantMax`, else
 * the smallest; NaN when the line misses the capsule. Written to lineArgs[14].
 *
 * The capsule is the union of two balls and a finite cylinder, so the extreme
 * over the union is the extreme over the pieces: for a ball |p + σn − e|² = r²,
 * for the cylinder |w⊥ + σ n⊥|² = r² (⊥: the part orthogonal to u) with the hit
 * kept only when its axial coordinate lies within ±h.
 */
export function capsuleLineExtent(wantMax: boolean): void {
  const L = lineArgs;
  const px = L[0]!, py = L[1]!, pz = L[2]!, nx = L[3]!, ny = L[4]!, nz = L[5]!;
  const cx = L[6]!, cy = L[7]!, cz = L[8]!, ux = L[9]!, uy = L[10]!, uz = L[11]!, h = L[12]!, r = L[13]!;
  let best = NaN;
  const r2 = r * r;
  for (let e = -1; e <= 1; e += 2) {
    const wx = px - (cx + ux * h * e), wy = py - (cy + uy * h * e), wz = pz - (cz + uz * h * e);
    const bb = wx * nx + wy * ny + wz * nz;
    const disc = bb * bb - (wx * wx + wy * wy + wz * wz - r2);
    if (disc >= 0) {
      const root = Math.sqrt(disc);
      const sigma = wantMax ? -bb + root : -bb - root;
      if (best !== best || (wantMax ? sigma > best : sigma < best)) best = sigma;
    }
  }
  const wx = px - cx, wy = py - cy, wz = pz - cz;
  const wu = wx * ux + wy * uy + wz * uz;
  const nu = nx * ux + ny * uy + nz * uz;
  const qx = wx - wu * ux, qy = wy - wu * uy, qz = wz - wu * uz;
  const mx = nx - nu * ux, my = ny - nu * uy, mz = nz - nu * uz;
  const a = mx * mx + my * my + mz * mz;
  if (a > 1e-14) {
    const bb = qx * mx + qy * my + qz * mz;
    const disc = bb * bb - a * (qx * qx + qy * qy + qz * qz - r2);
    if (disc >= 0) {
      const root = Math.sqrt(disc);
      const sigma = wantMax ? (-bb + root) / a : (-bb - root) / a;
      const axial = wu + sigma * nu;
      if (axial >= -h && axial <= h && (best !== best || (wantMax ? sigma > best : sigma < best))) best = sigma;
    }
  }
  L[14] = best;
}

/** A manifold point on its way out: position xyz, normal xyz, depth (Manifold.addPointFrom). */
const point = new Float64Array(7);

/** sin of the largest angle at which two segments still count as parallel for a two-point manifold. */
export const CAPSULE_FLAT_SIN = 0.05;

/**
 * Contacts between capsule A and capsule B (world poses). Normal A→B. One point
 * at the closest points of the segments (id 0); when the segments are within
 * asin(0.05) of parallel and overlap, the two ends of the overlap (ids 1, 2),
 * plus the closest point if it is deeper than both.
 */
export function capsuleCapsuleContacts(
  a: Capsule, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  b: Capsule, posB: Readonly<Vec3>, rotB: Readonly<Quat>, manifold: Manifold,
): void {
  const margin = narrowphaseMargin[0]!;
  manifold.reset();
  // Segment directions: the local Y axis rotated.
  const ax = 2 * (rotA.x * rotA.y - rotA.w * rotA.z);
  const ay = 1 - 2 * (rotA.x * rotA.x + rotA.z * rotA.z);
  const az = 2 * (rotA.y * rotA.z + rotA.w * rotA.x);
  const bx = 2 * (rotB.x * rotB.y - rotB.w * rotB.z);
  const by = 1 - 2 * (rotB.x * rotB.x + rotB.z * rotB.z);
  const bz = 2 * (rotB.y * rotB.z + rotB.w * rotB.x);
  const hA = a.halfHeight, hB = b.halfHeight, rA = a.radius, rB = b.radius;

  const S = segmentArgs;
  S[0] = posA.x; S[1] = posA.y; S[2] = posA.z; S[3] = ax; S[4] = ay; S[5] = az; S[6] = hA;
  S[7] = posB.x; S[8] = posB.y; S[9] = posB.z; S[10] = bx; S[11] = by; S[12] = bz; S[13] = hB;
  closestSegmentSegment();
  const s = segmentClosest[0]!, t = segmentClosest[1]!;
  const pax = posA.x + ax * s, pay = posA.y + ay * s, paz = posA.z + az * s;
  const pbx = posB.x + bx * t, pby = posB.y + by * t, pbz = posB.z + bz * t;
  let nx = pbx - pax, ny = pby - pay, nz = pbz - paz;
  const dist = Math.sqrt(nx * nx + ny * ny + nz * nz);
  const separation = dist - rA - rB;
  if (separation > margin) {
    narrowphaseGap[0] = separation;
    return;
  }

  if (dist > 1e-9) {
    nx /= dist; ny /= dist; nz /= dist;
  } else {
    // The segments touch: the penetration direction is perpendicular to both
    // (for crossing segments), or to A alone (parallel), oriented A→B.
    nx = ay * bz - az * by; ny = az * bx - ax * bz; nz = ax * by - ay * bx;
    let len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (len < 1e-6) {
      const dx = posB.x - posA.x, dy = posB.y - posA.y, dz = posB.z - posA.z;
      const du = dx * ax + dy * ay + dz * az;
      nx = dx - du * ax; ny = dy - du * ay; nz = dz - du * az;
      len = Math.sqrt(nx * nx + ny * ny + nz * nz);
      if (len < 1e-9) {
        // Collinear centres: any direction perpendicular to A's axis.
        if (Math.abs(ax) < 0.9) { nx = 0; ny = az; nz = -ay; } else { nx = -az; ny = 0; nz = ax; }
        len = Math.sqrt(nx * nx + ny * ny + nz * nz);
      }
    }
    nx /= len; ny /= len; nz /= len;
    if (nx * (posB.x - posA.x) + ny * (posB.y - posA.y) + nz * (posB.z - posA.z) < 0) {
      nx = -nx; ny = -ny; nz = -nz;
    }
  }
  const depth = -separation;

  // Nearly parallel: the overlap of the two segments projected on their mean
  // direction w, measured from the midpoint of the centres, so that swapping A
  // and B gives the same lines. w's sign is fixed by its largest component
  // (positive) so the ends keep their ids in either order.
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  if (cx * cx + cy * cy + cz * cz < CAPSULE_FLAT_SIN * CAPSULE_FLAT_SIN) {
    const align = ax * bx + ay * by + az * bz >= 0 ? 1 : -1;
    let wx = ax + align * bx, wy = ay + align * by, wz = az + align * bz;
    const wl = Math.sqrt(wx * wx + wy * wy + wz * wz);
    const big = Math.abs(wx) >= Math.abs(wy) && Math.abs(wx) >= Math.abs(wz) ? wx : Math.abs(wy) >= Math.abs(wz) ? wy : wz;
    const ws = big >= 0 ? 1 / wl : -1 / wl;
    wx *= ws; wy *= ws; wz *= ws;
    const mx = 0.5 * (posA.x + posB.x), my = 0.5 * (posA.y + posB.y), mz = 0.5 * (posA.z + posB.z);
    const aw = ax * wx + ay * wy + az * wz, bw = bx * wx + by * wy + bz * wz;
    const oa = (posA.x - mx) * wx + (posA.y - my) * wy + (posA.z - mz) * wz;
    const ob = (posB.x - mx) * wx + (posB.y - my) * wy + (posB.z - mz) * wz;
    const lo = Math.max(oa - hA * Math.abs(aw), ob - hB * Math.abs(bw));
    const hi = Math.min(oa + hA * Math.abs(aw), ob + hB * Math.abs(bw));
    if (hi - lo > 1e-4 * (hA + hB)) {
      let deepest = -Infinity;
      for (let end = 0; end < 2; end++) {
        const sigma = end === 0 ? lo : hi;
        // The axis points of A and B that project to sigma; the line runs
        // along n through their midpoint.
        let ta = (sigma - oa) / aw, tb = (sigma - ob) / bw;
        ta = ta < -hA ? -hA : ta > hA ? hA : ta;
        tb = tb < -hB ? -hB : tb > hB ? hB : tb;
        const px = 0.5 * (posA.x + ax * ta + posB.x + bx * tb);
        const py = 0.5 * (posA.y + ay * ta + posB.y + by * tb);
        const pz = 0.5 * (posA.z + az * ta + posB.z + bz * tb);
        const L = lineArgs;
        L[0] = px; L[1] = py; L[2] = pz; L[3] = nx; L[4] = ny; L[5] = nz;
        L[6] = posA.x; L[7] = posA.y; L[8] = posA.z; L[9] = ax; L[10] = ay; L[11] = az; L[12] = hA; L[13] = rA;
        capsuleLineExtent(true);
        const outA = L[14]!;
        L[6] = posB.x; L[7] = posB.y; L[8] = posB.z; L[9] = bx; L[10] = by; L[11] = bz; L[12] = hB; L[13] = rB;
        capsuleLineExtent(false);
        const inB = L[14]!;
        if (outA !== outA || inB !== inB) continue;
        const d = outA - inB;
        if (d < -margin) continue;
        const m = 0.5 * (outA + inB);
        point[0] = px + nx * m; point[1] = py + ny * m; point[2] = pz + nz * m;
        point[3] = nx; point[4] = ny; point[5] = nz; point[6] = d;
        manifold.addPointFrom(point, 0, 1 + end);
        if (d > deepest) deepest = d;
      }
      if (manifold.pointCount > 0) {
        if (depth <= deepest + 1e-7) return;
      }
    }
  }
  // The closest points: surface points a + n rA and b − n rB, their midpoint.
  const k = 0.5 * (rA - rB);
  point[0] = 0.5 * (pax + pbx) + nx * k; point[1] = 0.5 * (pay + pby) + ny * k; point[2] = 0.5 * (paz + pbz) + nz * k;
  point[3] = nx; point[4] = ny; point[5] = nz; point[6] = depth;
  manifold.addPointFrom(point, 0, 0);
}

