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
import type { Capsule } from '../../shapes/capsule';
import type { Manifold } from './manifold';

/** Result of {@link closestSegmentSegment}: parameters along each segment. */
export const segmentClosest = { s: 0, t: 0 };

/**
 * Closest points between segments c1 + s·u1 (|s| ≤ h1) and c2 + t·u2 (|t| ≤ h2),
 * unit directions. Writes s, t into {@link segmentClosest}.
 *
 * Minimising |r + s u1 − t u2|² with r = c1 − c2, b = u1·u2, c = u1·r, f = u2·r:
 * the stationary point is s = (b f − c) / (1 − b²), t = f + b s; clamp s, derive
 * t, clamp t and derive s again (Ericson 5.1.9 with unit directions). For
 * (nearly) parallel segments every s of the overlap is a minimiser; we take the
 * middle of the overlap so the choice does not jump when one end moves.
 */
export function closestSegmentSegment(
  c1x: number, c1y: number, c1z: number, u1x: number, u1y: number, u1z: number, h1: number,
  c2x: number, c2y: number, c2z: number, u2x: number, u2y: number, u2z: number, h2: number,
): void {
  const rx = c1x - c2x, ry = c1y - c2y, rz = c1z - c2z;
  const b = u1x * u2x + u1y * u2y + u1z * u2z;
  const c = u1x * rx + u1y * ry + u1z * rz;
  const f = u2x * rx + u2y * ry + u2z * rz;
  const denom = 1 - b * b;
  let s: number;
  if (denom > 1e-10) {
    s = clamp((b * f - c) / denom, -h1, h1);
  } else {
    // Projection of segment 2 onto line 1 spans −c ± h2|b|.
    const lo = Math.max(-h1, -c - h2 * Math.abs(b));
    const hi = Math.min(h1, -c + h2 * Math.abs(b));
    s = lo <= hi ? 0.5 * (lo + hi) : clamp(-c, -h1, h1);
  }
  let t = f + b * s;
  if (t < -h2 || t > h2) {
    t = clamp(t, -h2, h2);
    s = clamp(b * t - c, -h1, h1);
  }
  segmentClosest.s = s;
  segmentClosest.t = t;
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/**
 * The extreme parameter σ of the points p + σ n (n unit) that lie in the
 * capsule (centre c, unit axis u, half-height h, radius r): the largest when
 * `wantMax`, else the smallest; NaN when the line misses the capsule.
 *
 * The capsule is the union of two balls and a finite cylinder, so the extreme
 * over the union is the extreme over the pieces: for a ball |p + σn − e|² = r²,
 * for the cylinder |w⊥ + σ n⊥|² = r² (⊥: the part orthogonal to u) with the hit
 * kept only when its axial coordinate lies within ±h.
 */
export function capsuleLineExtent(
  px: number, py: number, pz: number, nx: number, ny: number, nz: number,
  cx: number, cy: number, cz: number, ux: number, uy: number, uz: number, h: number, r: number,
  wantMax: boolean,
): number {
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
  return best;
}

/** sin of the largest angle at which two segments still count as parallel for a two-point manifold. */
export const CAPSULE_FLAT_SIN = 0.05;

/**
 * Contacts between capsule A and capsule B (world poses). Normal A→B. One point
 * at the closest points of the segments (id 0); when the segments are within
 * asin(0.05) of parallel and overlap, the two ends of the overlap (ids 1, 2),
 * plus the closest point if it is deeper than both.
 */
export function collideCapsuleCapsule(
  a: Capsule, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  b: Capsule, posB: Readonly<Vec3>, rotB: Readonly<Quat>,
  margin: number, manifold: Manifold,
): void {
  manifold.reset();
  // Segment directions: the local Y axis rotated.
  const ax = 2 * (rotA.x * rotA.y - rotA.w * rotA.z);
  const ay = 1 - 2 * (rotA.x * rotA.x + rotA.z * rotA.z);
  const az = 2 * (rotA.y * rotA.z + rotA.w * rotA.x);
  const bx = 2 * (rotB.x * rotB.y - rotB.w * rotB.z);
  const by = 1 - 2 * (rotB.x * rotB.x + rotB.z * rotB.z);
  const bz = 2 * (rotB.y * rotB.z + rotB.w * rotB.x);
  const hA = a.halfHeight, hB = b.halfHeight, rA = a.radius, rB = b.radius;

  closestSegmentSegment(posA.x, posA.y, posA.z, ax, ay, az, hA, posB.x, posB.y, posB.z, bx, by, bz, hB);
  const s = segmentClosest.s, t = segmentClosest.t;
  const pax = posA.x + ax * s, pay = posA.y + ay * s, paz = posA.z + az * s;
  const pbx = posB.x + bx * t, pby = posB.y + by * t, pbz = posB.z + bz * t;
  let nx = pbx - pax, ny = pby - pay, nz = pbz - paz;
  const dist = Math.sqrt(nx * nx + ny * ny + nz * nz);
  const separation = dist - rA - rB;
  if (separation > margin) return;

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
        const ta = clamp((sigma - oa) / aw, -hA, hA), tb = clamp((sigma - ob) / bw, -hB, hB);
        const px = 0.5 * (posA.x + ax * ta + posB.x + bx * tb);
        const py = 0.5 * (posA.y + ay * ta + posB.y + by * tb);
        const pz = 0.5 * (posA.z + az * ta + posB.z + bz * tb);
        const outA = capsuleLineExtent(px, py, pz, nx, ny, nz, posA.x, posA.y, posA.z, ax, ay, az, hA, rA, true);
        const inB = capsuleLineExtent(px, py, pz, nx, ny, nz, posB.x, posB.y, posB.z, bx, by, bz, hB, rB, false);
        if (outA !== outA || inB !== inB) continue;
        const d = outA - inB;
        if (d < -margin) continue;
        const m = 0.5 * (outA + inB);
        manifold.addPoint(px + nx * m, py + ny * m, pz + nz * m, nx, ny, nz, d, 1 + end);
        if (d > deepest) deepest = d;
      }
      if (manifold.pointCount > 0) {
        if (depth > deepest + 1e-7) addClosest(manifold, pax, pay, paz, pbx, pby, pbz, nx, ny, nz, rA, rB, depth);
        return;
      }
    }
  }
  addClosest(manifold, pax, pay, paz, pbx, pby, pbz, nx, ny, nz, rA, rB, depth);
}

function addClosest(
  manifold: Manifold, pax: number, pay: number, paz: number, pbx: number, pby: number, pbz: number,
  nx: number, ny: number, nz: number, rA: number, rB: number, depth: number,
): void {
  // Surface points a + n rA and b − n rB; their midpoint.
  const k = 0.5 * (rA - rB);
  manifold.addPoint(0.5 * (pax + pbx) + nx * k, 0.5 * (pay + pby) + ny * k, 0.5 * (paz + pbz) + nz * k, nx, ny, nz, depth, 0);
}
