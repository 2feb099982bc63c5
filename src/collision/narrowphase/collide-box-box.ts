/**
 * Box–box contacts: separating-axis test over the 15 axes (3 face axes of each
 * box, 9 edge × edge products; Gottschalk et al. 1996, Ericson 4.4.1), then
 *
 * - face axis: the reference face (on the box whose axis won) and the incident
 *   face (the other box's face most anti-parallel to it); the incident face is
 *   clipped against the reference face's four side planes (Sutherland–Hodgman,
 *   Ericson 8.3.4), the points below the reference plane (+ margin) are kept,
 *   and at most four survive: the deepest and those spanning the largest area.
 *   Every kept point lies on the incident face, and its projection on the
 *   reference plane lies inside the reference face, so both are exact surface
 *   points.
 * - edge axis: one point at the closest points of the two supporting edges.
 *
 * Axis choice is biased towards faces (A's face, then B's face, then edges): an
 * axis only replaces the current one when its separation is larger by 5 % + 5 mm.
 * Nearly equal axes would otherwise alternate from frame to frame and the
 * feature ids with them (Box2D and Bullet bias the same way).
 *
 * Feature ids (persist while the boxes rest): bit 12 = reference face on B,
 * bits 9–11 reference face, bits 6–8 incident face (2·axis + negative side),
 * bits 0–5 the clipped point: an incident vertex 0..3, or 4 + 4·f + m for the
 * crossing of feature f (incident edge 0..3 or reference side plane 4..7) with
 * side plane m. Edge contacts: bit 13, then the two edges (axis·4 + signs).
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { BoxGeometry as Box } from '../../shapes/geometry';
import { closestSegmentSegment, segmentArgs, segmentClosest } from './collide-capsule-capsule';
import type { Manifold } from './manifold';
import { narrowphaseGap, narrowphaseMargin } from './margin';

/** Relative part of the tolerance by which a later axis must beat the current one. */
export const BOX_AXIS_RELATIVE_TOLERANCE = 0.05;
/** Absolute part of that tolerance, metres. */
export const BOX_AXIS_ABSOLUTE_TOLERANCE = 0.005;

// Doubles cross function boundaries through the module's Float64Arrays
// (CONTRIBUTING.md, hot path); tiny helpers are inline.

// Rotation matrices, row-major [3r + c]: world rotations of A and B, then B's
// axes in A's frame (R[i][j] = a_i · b_j) and its transpose.
const matA = new Float64Array(9);
const matB = new Float64Array(9);
const rel = new Float64Array(9);
const relT = new Float64Array(9);
const hA = new Float64Array(3);
const hB = new Float64Array(3);
const tAB = new Float64Array(3); // B's centre in A's frame
const tBA = new Float64Array(3); // A's centre in B's frame
const edgeAxis = new Float64Array(3);

// Clipping buffers (ping-pong): up to 8 vertices, xyz + point tag + out-edge feature.
const MAX_POLY = 8;
const polyA = new Float64Array(MAX_POLY * 3);
const polyB = new Float64Array(MAX_POLY * 3);
const tagA = new Int32Array(MAX_POLY);
const tagB = new Int32Array(MAX_POLY);
const featA = new Int32Array(MAX_POLY);
const featB = new Int32Array(MAX_POLY);
// Points kept after clipping (reference frame): midpoint, separation, id.
const kept = new Float64Array(MAX_POLY * 3);
const keptSep = new Float64Array(MAX_POLY);
const keptId = new Int32Array(MAX_POLY);
const chosen = new Int32Array(4);
/** Feature ids of the manifold's points before this call (the last narrowphase of the pair), for reduce's hysteresis. */
const previousIds = new Int32Array(4);
let previousCount = 0;
/**
 * Hysteresis of reduce: a point that was in the pair's last manifold is
 * picked over a new one unless the new one is deeper by STICK_DEPTH (m) or
 * spans more than STICK_FACTOR times the distance or area. Without it two
 * corners of nearly equal depth take turns as the deepest, the rest of the
 * pick follows, and the point that leaves takes its warm-start impulse with
 * it: a resting box rocks and stays awake (docs/solver.md, "Contact manifolds").
 */
const STICK_DEPTH = 1e-3;
const STICK_FACTOR = 1.2;

function wasPicked(id: number): boolean {
  for (let k = 0; k < previousCount; k++) if (previousIds[k] === id) return true;
  return false;
}
// A manifold point on its way out: position xyz, normal xyz, depth.
const point = new Float64Array(7);

/** Contacts between box A and box B (world poses); normal A→B, ≤ 4 points. */
export function boxBoxContacts(
  a: Box, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  b: Box, posB: Readonly<Vec3>, rotB: Readonly<Quat>, manifold: Manifold,
): void {
  const margin = narrowphaseMargin[0]!;
  previousCount = Math.min(manifold.pointCount, 4);
  for (let k = 0; k < previousCount; k++) previousIds[k] = manifold.points[k]!.id;
  manifold.reset();
  hA[0] = a.halfExtents.x; hA[1] = a.halfExtents.y; hA[2] = a.halfExtents.z;
  hB[0] = b.halfExtents.x; hB[1] = b.halfExtents.y; hB[2] = b.halfExtents.z;
  quatToMatrix(matA, rotA);
  quatToMatrix(matB, rotB);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const v = matA[i]! * matB[j]! + matA[3 + i]! * matB[3 + j]! + matA[6 + i]! * matB[6 + j]!;
      rel[3 * i + j] = v;
      relT[3 * j + i] = v;
    }
  }
  const dx = posB.x - posA.x, dy = posB.y - posA.y, dz = posB.z - posA.z;
  for (let i = 0; i < 3; i++) tAB[i] = matA[i]! * dx + matA[3 + i]! * dy + matA[6 + i]! * dz;
  for (let j = 0; j < 3; j++) tBA[j] = -(matB[j]! * dx + matB[3 + j]! * dy + matB[6 + j]! * dz);

  // Face axes of A: separation |t_i| − (hA_i + Σ_j hB_j |R_ij|).
  let sepA = -Infinity, axisA = 0;
  for (let i = 0; i < 3; i++) {
    const s = Math.abs(tAB[i]!) - (hA[i]! + hB[0]! * Math.abs(rel[3 * i]!) + hB[1]! * Math.abs(rel[3 * i + 1]!) + hB[2]! * Math.abs(rel[3 * i + 2]!));
    if (s > margin) {
      narrowphaseGap[0] = s;
      return;
    }
    if (s > sepA) { sepA = s; axisA = i; }
  }
  // Face axes of B, measured in B's frame with the transposed matrix.
  let sepB = -Infinity, axisB = 0;
  for (let j = 0; j < 3; j++) {
    const s = Math.abs(tBA[j]!) - (hB[j]! + hA[0]! * Math.abs(relT[3 * j]!) + hA[1]! * Math.abs(relT[3 * j + 1]!) + hA[2]! * Math.abs(relT[3 * j + 2]!));
    if (s > margin) {
      narrowphaseGap[0] = s;
      return;
    }
    if (s > sepB) { sepB = s; axisB = j; }
  }
  // Edge axes a_i × b_j in A's frame (b_j = column j of R), normalised;
  // parallel edges give no axis (a face axis covers them).
  let sepE = -Infinity, edgeI = -1, edgeJ = -1;
  let bestLx = 0, bestLy = 0, bestLz = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const bx = rel[j]!, by = rel[3 + j]!, bz = rel[6 + j]!;
      let lx = i === 0 ? 0 : i === 1 ? bz : -by;
      let ly = i === 0 ? -bz : i === 1 ? 0 : bx;
      let lz = i === 0 ? by : i === 1 ? -bx : 0;
      const len = Math.sqrt(lx * lx + ly * ly + lz * lz);
      if (len < 1e-5) continue;
      lx /= len; ly /= len; lz /= len;
      const ra = hA[0]! * Math.abs(lx) + hA[1]! * Math.abs(ly) + hA[2]! * Math.abs(lz);
      let rb = 0;
      for (let k = 0; k < 3; k++) rb += hB[k]! * Math.abs(lx * rel[k]! + ly * rel[3 + k]! + lz * rel[6 + k]!);
      const tl = tAB[0]! * lx + tAB[1]! * ly + tAB[2]! * lz;
      const s = Math.abs(tl) - ra - rb;
      if (s > margin) {
        narrowphaseGap[0] = s;
        return;
      }
      if (s > sepE) {
        sepE = s; edgeI = i; edgeJ = j;
        const sgn = tl >= 0 ? 1 : -1;
        bestLx = lx * sgn; bestLy = ly * sgn; bestLz = lz * sgn;
      }
    }
  }
  edgeAxis[0] = bestLx; edgeAxis[1] = bestLy; edgeAxis[2] = bestLz;

  let useB = false;
  let best = sepA;
  // A later axis must beat the current one by the tolerance 5 % |s| + 5 mm.
  if (sepB > sepA + BOX_AXIS_RELATIVE_TOLERANCE * Math.abs(sepA) + BOX_AXIS_ABSOLUTE_TOLERANCE) { useB = true; best = sepB; }
  if (edgeI >= 0 && sepE > best + BOX_AXIS_RELATIVE_TOLERANCE * Math.abs(best) + BOX_AXIS_ABSOLUTE_TOLERANCE) {
    edgeContact(posA, edgeI, edgeJ, manifold);
    return;
  }
  if (useB) faceContact(hB, hA, relT, tBA, axisB, posB, matB, true, manifold);
  else faceContact(hA, hB, rel, tAB, axisA, posA, matA, false, manifold);
  // A biased face choice can clip the incident face away entirely (an
  // edge-on-edge touch); the best edge axis is the contact then.
  if (manifold.pointCount === 0 && edgeI >= 0 && sepE <= margin) edgeContact(posA, edgeI, edgeJ, manifold);
}

/** Row-major rotation matrix of q (columns are the rotated local axes). */
function quatToMatrix(out: Float64Array, q: Readonly<Quat>): void {
  const x2 = q.x + q.x, y2 = q.y + q.y, z2 = q.z + q.z;
  const xx = q.x * x2, xy = q.x * y2, xz = q.x * z2;
  const yy = q.y * y2, yz = q.y * z2, zz = q.z * z2;
  const wx = q.w * x2, wy = q.w * y2, wz = q.w * z2;
  out[0] = 1 - (yy + zz); out[1] = xy - wz; out[2] = xz + wy;
  out[3] = xy + wz; out[4] = 1 - (xx + zz); out[5] = yz - wx;
  out[6] = xz - wy; out[7] = yz + wx; out[8] = 1 - (xx + yy);
}

/**
 * Clips the incident box's face against the reference box's face `axis`
 * (on the side facing the incident box). Everything is in the reference
 * frame: `r` holds the incident axes as columns, `t` the incident centre.
 */
function faceContact(
  hRef: Float64Array, hInc: Float64Array, r: Float64Array, t: Float64Array, axis: number,
  refPos: Readonly<Vec3>, refMat: Float64Array, refIsB: boolean, manifold: Manifold,
): void {
  const margin = narrowphaseMargin[0]!;
  const refSign = t[axis]! >= 0 ? 1 : -1;
  // Incident face: the incident axis most parallel to the reference normal;
  // its outward normal points against the reference normal.
  let inc = 0, incDot = 0;
  for (let k = 0; k < 3; k++) {
    const d = r[3 * axis + k]!;
    if (Math.abs(d) > Math.abs(incDot)) { incDot = d; inc = k; }
  }
  const incSign = refSign * incDot > 0 ? -1 : 1;
  const k1 = (inc + 1) % 3, k2 = (inc + 2) % 3;
  const fcx = t[0]! + r[inc]! * hInc[inc]! * incSign;
  const fcy = t[1]! + r[3 + inc]! * hInc[inc]! * incSign;
  const fcz = t[2]! + r[6 + inc]! * hInc[inc]! * incSign;
  const e1x = r[k1]! * hInc[k1]!, e1y = r[3 + k1]! * hInc[k1]!, e1z = r[6 + k1]! * hInc[k1]!;
  const e2x = r[k2]! * hInc[k2]!, e2y = r[3 + k2]! * hInc[k2]!, e2z = r[6 + k2]! * hInc[k2]!;
  // Corners in loop order (+,+), (−,+), (−,−), (+,−); edge i runs from vertex i to i+1.
  for (let v = 0; v < 4; v++) {
    const s1 = v === 0 || v === 3 ? 1 : -1;
    const s2 = v < 2 ? 1 : -1;
    polyA[3 * v] = fcx + s1 * e1x + s2 * e2x;
    polyA[3 * v + 1] = fcy + s1 * e1y + s2 * e2y;
    polyA[3 * v + 2] = fcz + s1 * e1z + s2 * e2z;
    tagA[v] = v;
    featA[v] = v;
  }
  // Side planes of the reference face: ±x_u1 ≤ h_u1, ±x_u2 ≤ h_u2.
  const u1 = (axis + 1) % 3, u2 = (axis + 2) % 3;
  let n = 4;
  n = clipPolygon(polyA, tagA, featA, n, polyB, tagB, featB, u1, 1, hRef, 0);
  n = clipPolygon(polyB, tagB, featB, n, polyA, tagA, featA, u1, -1, hRef, 1);
  n = clipPolygon(polyA, tagA, featA, n, polyB, tagB, featB, u2, 1, hRef, 2);
  n = clipPolygon(polyB, tagB, featB, n, polyA, tagA, featA, u2, -1, hRef, 3);

  const refFace = 2 * axis + (refSign > 0 ? 0 : 1);
  const incFace = 2 * inc + (incSign > 0 ? 0 : 1);
  const idBase = (refIsB ? 1 << 12 : 0) | (refFace << 9) | (incFace << 6);
  const hAxis = hRef[axis]!;
  let count = 0;
  for (let v = 0; v < n; v++) {
    const x = polyA[3 * v]!, y = polyA[3 * v + 1]!, z = polyA[3 * v + 2]!;
    const p = axis === 0 ? x : axis === 1 ? y : z;
    // Distance of the incident point beyond the reference plane (< 0: inside).
    const sep = refSign * p - hAxis;
    if (sep > margin) continue;
    // Midpoint of the incident point and its projection on the reference plane.
    const half = -0.5 * sep * refSign;
    kept[3 * count] = x + (axis === 0 ? half : 0);
    kept[3 * count + 1] = y + (axis === 1 ? half : 0);
    kept[3 * count + 2] = z + (axis === 2 ? half : 0);
    keptSep[count] = sep;
    keptId[count] = idBase | tagA[v]!;
    count++;
  }
  if (count === 0) return;

  let pick = count;
  if (count > 4) pick = reduce(count, axis);
  else for (let k = 0; k < count; k++) chosen[k] = k;

  // Normal A→B: the reference normal, reversed when the reference face is B's.
  const nl = refIsB ? -refSign : refSign;
  const nx = refMat[axis]! * nl, ny = refMat[3 + axis]! * nl, nz = refMat[6 + axis]! * nl;
  for (let k = 0; k < pick; k++) {
    const c = chosen[k]!;
    const x = kept[3 * c]!, y = kept[3 * c + 1]!, z = kept[3 * c + 2]!;
    point[0] = refPos.x + refMat[0]! * x + refMat[1]! * y + refMat[2]! * z;
    point[1] = refPos.y + refMat[3]! * x + refMat[4]! * y + refMat[5]! * z;
    point[2] = refPos.z + refMat[6]! * x + refMat[7]! * y + refMat[8]! * z;
    point[3] = nx; point[4] = ny; point[5] = nz; point[6] = -keptSep[c]!;
    manifold.addPointFrom(point, 0, keptId[c]!);
  }
}

/**
 * One Sutherland–Hodgman pass against the plane sign·x_axis ≤ offset, with
 * offset = half[axis] (the reference box's half extents). Each
 * vertex carries a tag (which features made it) and the feature its outgoing
 * edge lies on, so a crossing point is named by (edge feature, plane).
 */
function clipPolygon(
  src: Float64Array, srcTag: Int32Array, srcFeat: Int32Array, n: number,
  dst: Float64Array, dstTag: Int32Array, dstFeat: Int32Array,
  axis: number, sign: number, half: Float64Array, plane: number,
): number {
  const offset = half[axis]!;
  let m = 0;
  if (n === 0) return 0;
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const di = sign * src[3 * i + axis]! - offset;
    const dj = sign * src[3 * j + axis]! - offset;
    const inI = di <= 0, inJ = dj <= 0;
    if (inI) {
      dst[3 * m] = src[3 * i]!; dst[3 * m + 1] = src[3 * i + 1]!; dst[3 * m + 2] = src[3 * i + 2]!;
      dstTag[m] = srcTag[i]!; dstFeat[m] = srcFeat[i]!;
      m++;
    }
    if (inI !== inJ && m < MAX_POLY) {
      const f = di / (di - dj);
      dst[3 * m] = src[3 * i]! + (src[3 * j]! - src[3 * i]!) * f;
      dst[3 * m + 1] = src[3 * i + 1]! + (src[3 * j + 1]! - src[3 * i + 1]!) * f;
      dst[3 * m + 2] = src[3 * i + 2]! + (src[3 * j + 2]! - src[3 * i + 2]!) * f;
      // Snap onto the plane so the point is exactly inside the reference face.
      dst[3 * m + axis] = sign * offset;
      dstTag[m] = 4 + 4 * srcFeat[i]! + plane;
      // Leaving: the new edge runs along the plane; entering: it continues edge i.
      dstFeat[m] = inI ? 4 + plane : srcFeat[i]!;
      m++;
    }
  }
  return m;
}

/**
 * Picks 4 of the kept points: the deepest, the farthest from it, the one
 * making the largest triangle with those two, and the one adding the most area
 * outside that triangle (areas measured in the reference plane). Points of the
 * pair's last manifold win near-ties (STICK_DEPTH, STICK_FACTOR).
 */
function reduce(count: number, axis: number): number {
  const u1 = (axis + 1) % 3, u2 = (axis + 2) % 3;
  let i0 = 0, best0 = Infinity;
  for (let k = 0; k < count; k++) {
    const sep = keptSep[k]! - (wasPicked(keptId[k]!) ? STICK_DEPTH : 0);
    if (sep < best0) { best0 = sep; i0 = k; }
  }
  const x0 = kept[3 * i0 + u1]!, y0 = kept[3 * i0 + u2]!;
  let i1 = -1, bestD = -1;
  for (let k = 0; k < count; k++) {
    if (k === i0) continue;
    const ddx = kept[3 * k + u1]! - x0, ddy = kept[3 * k + u2]! - y0;
    const d = (ddx * ddx + ddy * ddy) * (wasPicked(keptId[k]!) ? STICK_FACTOR : 1);
    if (d > bestD) { bestD = d; i1 = k; }
  }
  const x1 = kept[3 * i1 + u1]!, y1 = kept[3 * i1 + u2]!;
  let i2 = -1, bestA = -1, sign = 1;
  for (let k = 0; k < count; k++) {
    if (k === i0 || k === i1) continue;
    // Twice the signed area of (p0, p1, p_k): (p1 − p0) × (p_k − p0).
    const area = (x1 - x0) * (kept[3 * k + u2]! - y0) - (y1 - y0) * (kept[3 * k + u1]! - x0);
    const score = Math.abs(area) * (wasPicked(keptId[k]!) ? STICK_FACTOR : 1);
    if (score > bestA) { bestA = score; i2 = k; sign = area >= 0 ? 1 : -1; }
  }
  const x2 = kept[3 * i2 + u1]!, y2 = kept[3 * i2 + u2]!;
  let i3 = -1;
  bestA = 0;
  for (let k = 0; k < count; k++) {
    if (k === i0 || k === i1 || k === i2) continue;
    const px = kept[3 * k + u1]!, py = kept[3 * k + u2]!;
    // A point beyond an edge of the triangle (opposite orientation) adds that area.
    const added = Math.max(
      -sign * ((x1 - x0) * (py - y0) - (y1 - y0) * (px - x0)),
      -sign * ((x2 - x1) * (py - y1) - (y2 - y1) * (px - x1)),
      -sign * ((x0 - x2) * (py - y2) - (y0 - y2) * (px - x2)),
    ) * (wasPicked(keptId[k]!) ? STICK_FACTOR : 1);
    if (added > bestA) { bestA = added; i3 = k; }
  }
  chosen[0] = i0; chosen[1] = i1; chosen[2] = i2;
  if (i3 < 0) return 3;
  chosen[3] = i3;
  return 4;
}

/**
 * Edge–edge contact: A's edge along a_i and B's edge along b_j that are
 * extreme along the axis n (A's towards B, B's towards A), and a point at
 * their closest points. Computed in A's frame.
 *
 * Then the same for the neighbours of each supporting edge across the
 * direction it was chosen on most narrowly (the other box's edge kept): a
 * box lying across another's edge crosses it with two parallel edges at
 * nearly equal depth, and one point there would let it rock about that
 * point until the other edge wins, then back (docs/solver.md). Those points
 * are kept within the margin.
 */
function edgeContact(posA: Readonly<Vec3>, i: number, j: number, manifold: Manifold): void {
  const nx = edgeAxis[0]!, ny = edgeAxis[1]!, nz = edgeAxis[2]!;
  // A's supporting edge: centre Σ_{k≠i} sign(n_k) hA_k e_k.
  const sax = nx >= 0 ? 1 : -1, say = ny >= 0 ? 1 : -1, saz = nz >= 0 ? 1 : -1;
  const cax = i === 0 ? 0 : sax * hA[0]!;
  const cay = i === 1 ? 0 : say * hA[1]!;
  const caz = i === 2 ? 0 : saz * hA[2]!;
  // B's supporting edge: centre t + Σ_{k≠j} sign(−n·b_k) hB_k b_k.
  let cbx = tAB[0]!, cby = tAB[1]!, cbz = tAB[2]!;
  let edgeB = j * 4;
  let bit = 0;
  // B's narrowest choice: the axis k ≠ j with the smallest |n·b_k|, its bit and offset.
  let flipBBit = 0, flipBDot = Infinity, fbx = 0, fby = 0, fbz = 0;
  for (let k = 0; k < 3; k++) {
    if (k === j) continue;
    const bx = rel[k]!, by = rel[3 + k]!, bz = rel[6 + k]!;
    const dot = nx * bx + ny * by + nz * bz;
    const s = dot > 0 ? -1 : 1;
    cbx += s * hB[k]! * bx; cby += s * hB[k]! * by; cbz += s * hB[k]! * bz;
    if (s > 0) edgeB |= 1 << bit;
    if (Math.abs(dot) < flipBDot) {
      flipBDot = Math.abs(dot); flipBBit = bit;
      // Moving to the neighbour edge: −2 s hB_k b_k.
      fbx = -2 * s * hB[k]! * bx; fby = -2 * s * hB[k]! * by; fbz = -2 * s * hB[k]! * bz;
    }
    bit++;
  }
  let edgeA = i * 4;
  bit = 0;
  let flipABit = 0, flipADot = Infinity, fax = 0, fay = 0, faz = 0;
  for (let k = 0; k < 3; k++) {
    if (k === i) continue;
    const sk = k === 0 ? sax : k === 1 ? say : saz;
    if (sk > 0) edgeA |= 1 << bit;
    const dot = Math.abs(k === 0 ? nx : k === 1 ? ny : nz);
    if (dot < flipADot) {
      flipADot = dot; flipABit = bit;
      fax = k === 0 ? -2 * sk * hA[0]! : 0; fay = k === 1 ? -2 * sk * hA[1]! : 0; faz = k === 2 ? -2 * sk * hA[2]! : 0;
    }
    bit++;
  }
  const E = edgeCentres;
  E[0] = cax; E[1] = cay; E[2] = caz; E[3] = cbx; E[4] = cby; E[5] = cbz;
  edgePoint(posA, i, j, (1 << 13) | (edgeA << 4) | edgeB, true, manifold);
  E[3] = cbx + fbx; E[4] = cby + fby; E[5] = cbz + fbz;
  edgePoint(posA, i, j, (1 << 13) | (edgeA << 4) | (edgeB ^ (1 << flipBBit)), false, manifold);
  E[0] = cax + fax; E[1] = cay + fay; E[2] = caz + faz; E[3] = cbx; E[4] = cby; E[5] = cbz;
  edgePoint(posA, i, j, (1 << 13) | ((edgeA ^ (1 << flipABit)) << 4) | edgeB, false, manifold);
}

/** edgePoint's edge centres (A's x, y, z, then B's), in A's frame. */
const edgeCentres = new Float64Array(6);

/**
 * The point between A's edge along a_i and B's edge along b_j, centred at
 * edgeCentres (A's frame), added when within the margin. `support`: the
 * supporting pair, whose separated points may take the direction between
 * them as their normal; a neighbour pair keeps the axis and needs a crossing.
 */
function edgePoint(posA: Readonly<Vec3>, i: number, j: number, id: number, support: boolean, manifold: Manifold): void {
  const margin = narrowphaseMargin[0]!;
  const E = edgeCentres;
  const cax = E[0]!, cay = E[1]!, caz = E[2]!, cbx = E[3]!, cby = E[4]!, cbz = E[5]!;
  let nx = edgeAxis[0]!, ny = edgeAxis[1]!, nz = edgeAxis[2]!;
  const ux = rel[j]!, uy = rel[3 + j]!, uz = rel[6 + j]!;
  const S = segmentArgs;
  S[0] = cax; S[1] = cay; S[2] = caz; S[3] = i === 0 ? 1 : 0; S[4] = i === 1 ? 1 : 0; S[5] = i === 2 ? 1 : 0; S[6] = hA[i]!;
  S[7] = cbx; S[8] = cby; S[9] = cbz; S[10] = ux; S[11] = uy; S[12] = uz; S[13] = hB[j]!;
  closestSegmentSegment();
  const s = segmentClosest[0]!, t = segmentClosest[1]!;
  if (!support && (Math.abs(s) >= hA[i]! || Math.abs(t) >= hB[j]!)) return;
  const pax = cax + (i === 0 ? s : 0), pay = cay + (i === 1 ? s : 0), paz = caz + (i === 2 ? s : 0);
  const pbx = cbx + ux * t, pby = cby + uy * t, pbz = cbz + uz * t;
  let depth = (pax - pbx) * nx + (pay - pby) * ny + (paz - pbz) * nz;
  if (depth < 0) {
    if (!support) {
      if (-depth > margin) return;
    } else {
      // Separated: when the closest points of the edge lines fall outside the
      // edges the clamped points are not offset along the axis; the direction
      // between them is then the honest normal and their distance the gap.
      const gx = pbx - pax, gy = pby - pay, gz = pbz - paz;
      const len = Math.sqrt(gx * gx + gy * gy + gz * gz);
      if (len > margin) return;
      if (len > 1e-12) {
        nx = gx / len; ny = gy / len; nz = gz / len;
        depth = -len;
      }
    }
  }
  const mx = 0.5 * (pax + pbx), my = 0.5 * (pay + pby), mz = 0.5 * (paz + pbz);
  point[0] = posA.x + matA[0]! * mx + matA[1]! * my + matA[2]! * mz;
  point[1] = posA.y + matA[3]! * mx + matA[4]! * my + matA[5]! * mz;
  point[2] = posA.z + matA[6]! * mx + matA[7]! * my + matA[8]! * mz;
  point[3] = matA[0]! * nx + matA[1]! * ny + matA[2]! * nz;
  point[4] = matA[3]! * nx + matA[4]! * ny + matA[5]! * nz;
  point[5] = matA[6]! * nx + matA[7]! * ny + matA[8]! * nz;
  point[6] = depth;
  manifold.addPointFrom(point, 0, id);
}
