/**
 * Contacts of the general convex shapes (Cylinder, ConvexHull, and either of
 * them against Sphere, Box or Capsule): GJK/EPA for the normal and the
 * deepest point, then a face-clipping manifold as box–box builds it (Jolt's
 * ManifoldBetweenTwoFaces; Sutherland–Hodgman clipping):
 * - each shape gives its supporting feature along the normal n (A → B): a
 *   polygon (box face, hull face, cylinder cap), a segment (capsule, cylinder
 *   side line) or a point;
 * - the polygon whose own normal is closer to n is the reference; the other
 *   feature is clipped against the planes through the reference's edges
 *   that contain n, and each kept point is projected along n onto the
 *   reference face, which gives the point on each surface and the depth;
 * - points within the margin are kept and reduced to four (deepest, then the
 *   largest area).
 * So a hull lying on a face rests on its face's corners like a box, a
 * cylinder on its end on four points of its rim (its cap is clipped as a
 * regular CAP_SEGMENTS-gon inscribed in the rim), and a cylinder on its side
 * on the two ends of its contact line. The EPA point is added when it is
 * deeper than every clipped point (a feature the polygons missed), and alone
 * when neither feature is a polygon or segment pair.
 *
 * Doubles cross function boundaries through the module's Float64Arrays
 * (margin.ts explains why).
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { BoxGeometry as Box } from '../../shapes/geometry';
import type { CapsuleGeometry as Capsule } from '../../shapes/geometry';
import type { ConvexHullGeometry as ConvexHull } from '../../shapes/geometry';
import { MAX_HULL_VERTICES } from '../../shapes/geometry';
import type { CylinderGeometry as Cylinder } from '../../shapes/geometry';
import { type ConvexShape, ShapeKind } from '../../shapes/shape';
import { CAPSULE_FLAT_SIN } from './collide-capsule-capsule';
import { epaPenetration } from './epa';
import { GjkResult } from './gjk';
import type { Manifold } from './manifold';
import { loadCoreRadius } from './minkowski-pair';
import { narrowphaseGap, narrowphaseMargin } from './margin';

/** Vertices of the inscribed polygon that stands for a cylinder's cap. */
export const CAP_SEGMENTS = 8;
/** |cos| between n and a cylinder's axis above which the cap is its feature. */
const CAP_COS = Math.SQRT1_2;
/** |cos| between n and a cylinder's side below which its side line is the feature. */
const SIDE_COS = 0.2;
/** A reference face tilted further than this from n (cos) is not used: the projection along n would blow up. */
const MIN_REFERENCE_COS = 0.1;
/** Reference preference: B's face must beat A's by this much (cos) to become the reference (no flip-flop when parallel). */
const REFERENCE_BIAS = 0.01;
/** A reference face within this (cos, ≈ 2.6°) of n gives the contact normal. */
const SNAP_COS = 0.999;
/** The EPA point joins the clipped points when deeper than all of them by this much (m). */
const MISSED_DEPTH = 1e-4;
/** Depths closer than this (m) count as equal when picking the first manifold point. */
const DEPTH_TIE = 1e-6;

const POLY = 2 * MAX_HULL_VERTICES + 16;

/**
 * A supporting feature in the common frame: `count` points xyz, its outward
 * normal (for polygons), the feature's index on its shape (for the ids).
 */
export class Feature {
  count = 0;
  readonly points = new Float64Array(3 * POLY);
  readonly normal = new Float64Array(3);
  face = 0;
}

/**
 * Working storage of the clipping stage. Each collider module owns one, so
 * two colliders never share scratch.
 */
export class ClipContext {
  readonly a = new Feature();
  readonly b = new Feature();
  /** Common-frame normal A → B [0..2], radii rA [3] rB [4], margin [5]. */
  readonly io = new Float64Array(6);
  /** Output candidates: midpoint xyz, depth. */
  readonly cand = new Float64Array(4 * POLY);
  readonly candId = new Int32Array(POLY);
  candCount = 0;
  // Ping-pong polygons during clipping: xyz + a feature code each.
  readonly polyA = new Float64Array(3 * POLY);
  readonly codeA = new Int32Array(POLY);
  readonly polyB = new Float64Array(3 * POLY);
  readonly codeB = new Int32Array(POLY);
  polyCount = 0;
  /** Clip plane: normal [0..2], offset [3]. */
  readonly plane = new Float64Array(4);
  /** Chosen output indices of reduceCandidates. */
  readonly keep = new Int32Array(4);
  keepCount = 0;
  readonly dir: Vec3 = { x: 0, y: 0, z: 0 };
  readonly tmp: Vec3 = { x: 0, y: 0, z: 0 };
}

/**
 * The supporting feature of `shape` along local direction `d` (not unit), in
 * the shape's local frame.
 */
export function localFeature(shape: ConvexShape, d: Readonly<Vec3>, out: Feature, tmp: Vec3): void {
  const P = out.points;
  const N = out.normal;
  switch (shape.kind) {
    case ShapeKind.Box: {
      const h = (shape as Box).halfExtents;
      const ax = Math.abs(d.x), ay = Math.abs(d.y), az = Math.abs(d.z);
      const i = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
      const s = (i === 0 ? d.x : i === 1 ? d.y : d.z) < 0 ? -1 : 1;
      // Corners (+,+), (−,+), (−,−), (+,−) in the (j, k) plane, j × k = i:
      // counter-clockwise about +e_i; reversed for the −e_i face.
      const hi = i === 0 ? h.x : i === 1 ? h.y : h.z;
      const hj = i === 0 ? h.y : i === 1 ? h.z : h.x;
      const hk = i === 0 ? h.z : i === 1 ? h.x : h.y;
      const j = (i + 1) % 3, k = (i + 2) % 3;
      for (let c = 0; c < 4; c++) {
        const cc = s > 0 ? c : 3 - c;
        const sj = cc === 0 || cc === 3 ? 1 : -1;
        const sk = cc < 2 ? 1 : -1;
        P[3 * c + i] = s * hi;
        P[3 * c + j] = sj * hj;
        P[3 * c + k] = sk * hk;
      }
      N[0] = 0; N[1] = 0; N[2] = 0;
      N[i] = s;
      out.count = 4;
      out.face = 2 * i + (s > 0 ? 0 : 1);
      return;
    }
    case ShapeKind.ConvexHull: {
      const hull = shape as ConvexHull;
      const f = hull.supportingFace(d);
      const V = hull.vertices;
      const start = hull.faceStart[f]!, end = hull.faceStart[f + 1]!;
      let c = 0;
      for (let k = start; k < end; k++, c++) {
        const v = 3 * hull.faceVertices[k]!;
        P[3 * c] = V[v]!; P[3 * c + 1] = V[v + 1]!; P[3 * c + 2] = V[v + 2]!;
      }
      N[0] = hull.faceNormals[3 * f]!; N[1] = hull.faceNormals[3 * f + 1]!; N[2] = hull.faceNormals[3 * f + 2]!;
      out.count = c;
      out.face = f;
      return;
    }
    case ShapeKind.Cylinder:
      cylinderFeature(shape as Cylinder, d, out, tmp);
      return;
    case ShapeKind.Capsule:
      capsuleFeature(shape as Capsule, d, out);
      return;
    default: {
      // Sphere (and any core that is a point): its centre.
      shape.coreSupport(tmp, d);
      P[0] = tmp.x; P[1] = tmp.y; P[2] = tmp.z;
      out.count = 1;
      out.face = 0;
    }
  }
}

/** A cylinder's cap (as a CAP_SEGMENTS-gon), side line or rim point along d; see localFeature. */
function cylinderFeature(cyl: Cylinder, d: Readonly<Vec3>, out: Feature, tmp: Vec3): void {
  const P = out.points;
  const N = out.normal;
  const r = cyl.radius, h = cyl.halfHeight;
  const len = Math.sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  const cosAxis = d.y / (len > 0 ? len : 1);
  if (Math.abs(cosAxis) >= CAP_COS) {
    // Top cap (+Y) counter-clockwise about +Y runs with decreasing angle.
    const s = cosAxis > 0 ? 1 : -1;
    for (let c = 0; c < CAP_SEGMENTS; c++) {
      const t = (-s * 2 * Math.PI * c) / CAP_SEGMENTS;
      P[3 * c] = r * Math.cos(t); P[3 * c + 1] = s * h; P[3 * c + 2] = r * Math.sin(t);
    }
    N[0] = 0; N[1] = s; N[2] = 0;
    out.count = CAP_SEGMENTS;
    out.face = s > 0 ? 0 : 1;
    return;
  }
  cyl.coreSupport(tmp, d);
  if (Math.abs(cosAxis) <= SIDE_COS) {
    // The side line through the rim point facing d.
    P[0] = tmp.x; P[1] = h; P[2] = tmp.z;
    P[3] = tmp.x; P[4] = -h; P[5] = tmp.z;
    out.count = 2;
    out.face = 2;
    return;
  }
  P[0] = tmp.x; P[1] = tmp.y; P[2] = tmp.z;
  out.count = 1;
  out.face = 3;
}

/** A capsule's segment (square to d within CAPSULE_FLAT_SIN) or the end facing d; see localFeature. */
function capsuleFeature(capsule: Capsule, d: Readonly<Vec3>, out: Feature): void {
  const P = out.points;
  const hh = capsule.halfHeight;
  const len = Math.sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  const cosAxis = d.y / (len > 0 ? len : 1);
  // Tighter than a cylinder's side: the rounded end's point along n is on
  // the capsule's surface only for a segment square to n (the raised end
  // reads up to r (1 − cos θ) shallow).
  if (Math.abs(cosAxis) <= CAPSULE_FLAT_SIN) {
    P[0] = 0; P[1] = hh; P[2] = 0;
    P[3] = 0; P[4] = -hh; P[5] = 0;
    out.count = 2;
    out.face = 0;
    return;
  }
  P[0] = 0; P[1] = cosAxis > 0 ? hh : -hh; P[2] = 0;
  out.count = 1;
  out.face = cosAxis > 0 ? 1 : 2;
}

/** Moves a local feature into the common frame: p ← q p + t, normal ← q n. */
export function transformFeature(f: Feature, pos: Readonly<Vec3>, q: Readonly<Quat>): void {
  const P = f.points;
  for (let c = 0; c < f.count; c++) rotateAt(P, 3 * c, q, pos);
  rotateAt(f.normal, 0, q, ZERO);
}

const ZERO: Readonly<Vec3> = { x: 0, y: 0, z: 0 };

/** A[o..o+2] ← q A[o..o+2] + t */
function rotateAt(A: Float64Array, o: number, q: Readonly<Quat>, t: Readonly<Vec3>): void {
  const px = t.x, py = t.y, pz = t.z;
  const vx = A[o]!, vy = A[o + 1]!, vz = A[o + 2]!;
  const tx = 2 * (q.y * vz - q.z * vy), ty = 2 * (q.z * vx - q.x * vz), tz = 2 * (q.x * vy - q.y * vx);
  A[o] = vx + q.w * tx + (q.y * tz - q.z * ty) + px;
  A[o + 1] = vy + q.w * ty + (q.z * tx - q.x * tz) + py;
  A[o + 2] = vz + q.w * tz + (q.x * ty - q.y * tx) + pz;
}

/**
 * Clips ctx.a against ctx.b (or the reverse) and writes the candidates
 * (midpoint, depth, feature id) within the margin, and the normal they use
 * in ctx.io[0..2] (the reference face's when nearly parallel). Returns false when the
 * features give no usable reference (point–point, point–segment, a reference
 * face nearly parallel to n): the caller then uses the EPA point alone.
 */
export function clipFeatures(ctx: ClipContext): boolean {
  ctx.candCount = 0;
  const A = ctx.a, B = ctx.b;
  const io = ctx.io;
  const alignA = A.count >= 3 ? A.normal[0]! * io[0]! + A.normal[1]! * io[1]! + A.normal[2]! * io[2]! : -2;
  const alignB = B.count >= 3 ? -(B.normal[0]! * io[0]! + B.normal[1]! * io[1]! + B.normal[2]! * io[2]!) : -2;
  if (alignA === -2 && alignB === -2) {
    if (A.count !== 2 || B.count !== 2) return false;
    // Only parallel segments share a line contact (written out here: a
    // helper returning the test was left unoptimised and boxed its doubles).
    const P = A.points, Q = B.points;
    const ux = P[3]! - P[0]!, uy = P[4]! - P[1]!, uz = P[5]! - P[2]!;
    const vx = Q[3]! - Q[0]!, vy = Q[4]! - Q[1]!, vz = Q[5]! - Q[2]!;
    const uv = ux * vx + uy * vy + uz * vz;
    if (uv * uv <= PARALLEL_COS * PARALLEL_COS * (ux * ux + uy * uy + uz * uz) * (vx * vx + vy * vy + vz * vz)) return false;
    clipSegments(ctx);
    return true;
  }
  const refIsA = alignA + REFERENCE_BIAS >= alignB;
  if ((refIsA ? alignA : alignB) < MIN_REFERENCE_COS) return false;
  const ref = refIsA ? A : B;
  const inc = refIsA ? B : A;
  if ((refIsA ? alignA : alignB) > SNAP_COS) {
    // Nearly parallel to the reference face: take its normal exactly. EPA on
    // a curved shape (a cylinder's side) stops on a facet of its polytope,
    // whose tilt would push a resting wheel sideways.
    const s = refIsA ? 1 : -1;
    io[0] = s * ref.normal[0]!; io[1] = s * ref.normal[1]!; io[2] = s * ref.normal[2]!;
  }
  const nx = io[0]!, ny = io[1]!, nz = io[2]!;
  // Incident feature into the working polygon, each point coded by its index.
  let count = inc.count;
  const poly = ctx.polyA, code = ctx.codeA;
  for (let c = 0; c < count; c++) {
    poly[3 * c] = inc.points[3 * c]!; poly[3 * c + 1] = inc.points[3 * c + 1]!; poly[3 * c + 2] = inc.points[3 * c + 2]!;
    code[c] = c & 63;
  }
  ctx.polyCount = count;
  // Side planes through the reference polygon's edges that contain n (not the
  // face normal): a point inside all of them projects along n into the face.
  // m_k = s n × (r_{k+1} − r_k), s = ±1 the side of n the face normal is on,
  // points inwards for the counter-clockwise winding.
  const R = ref.points, rn = ref.normal;
  const sx = refIsA ? nx : -nx, sy = refIsA ? ny : -ny, sz = refIsA ? nz : -nz;
  for (let k = 0; k < ref.count && ctx.polyCount > 0; k++) {
    const k1 = k + 1 === ref.count ? 0 : k + 1;
    const ex = R[3 * k1]! - R[3 * k]!, ey = R[3 * k1 + 1]! - R[3 * k + 1]!, ez = R[3 * k1 + 2]! - R[3 * k + 2]!;
    const mx = sy * ez - sz * ey, my = sz * ex - sx * ez, mz = sx * ey - sy * ex;
    const pl = ctx.plane;
    pl[0] = mx; pl[1] = my; pl[2] = mz; pl[3] = mx * R[3 * k]! + my * R[3 * k + 1]! + mz * R[3 * k + 2]!;
    clipPlane(ctx, 64 + (k & 63));
  }
  count = ctx.polyCount;
  if (count === 0) return true;
  // Project each kept point along n onto the reference plane.
  const rA = io[3]!, rB = io[4]!, margin = io[5]!;
  const dRef = rn[0]! * R[0]! + rn[1]! * R[1]! + rn[2]! * R[2]!;
  const denom = rn[0]! * nx + rn[1]! * ny + rn[2]! * nz;
  const idBase = ((refIsA ? 0 : 1) << 24) | ((ref.face & 0xfff) << 12) | ((inc.face & 15) << 8);
  const C = ctx.cand;
  for (let c = 0; c < count; c++) {
    const px = poly[3 * c]!, py = poly[3 * c + 1]!, pz = poly[3 * c + 2]!;
    const t = (dRef - (rn[0]! * px + rn[1]! * py + rn[2]! * pz)) / denom;
    // Reference A: p is on B, A's point is p + t n, depth = t. Reference B: p is on A, B's point is p + t n, depth = −t.
    const coreDepth = refIsA ? t : -t;
    const depth = coreDepth + rA + rB;
    if (depth < -margin) continue;
    // Surface points: A's core point + n rA, B's core point − n rB; the midpoint of the two.
    const ax = refIsA ? px + t * nx : px, ay = refIsA ? py + t * ny : py, az = refIsA ? pz + t * nz : pz;
    const o = 4 * ctx.candCount;
    const shift = rA - 0.5 * depth;
    C[o] = ax + nx * shift; C[o + 1] = ay + ny * shift; C[o + 2] = az + nz * shift;
    C[o + 3] = depth;
    ctx.candId[ctx.candCount++] = idBase | (ctx.codeA[c]! & 255);
  }
  return true;
}

/**
 * Keeps the points of the working polygon with m·p ≥ offset (ctx.plane; Sutherland–
 * Hodgman; a two-point polygon is a segment, not a closed loop). New points
 * get code `edgeCode`.
 */
function clipPlane(ctx: ClipContext, edgeCode: number): void {
  const pl = ctx.plane;
  const mx = pl[0]!, my = pl[1]!, mz = pl[2]!, offset = pl[3]!;
  const src = ctx.polyA, srcCode = ctx.codeA, dst = ctx.polyB, dstCode = ctx.codeB;
  const n = ctx.polyCount;
  const tol = 1e-9 * Math.sqrt(mx * mx + my * my + mz * mz);
  let m = 0;
  if (n === 1) {
    if (mx * src[0]! + my * src[1]! + mz * src[2]! - offset >= -tol) return;
    ctx.polyCount = 0;
    return;
  }
  const closed = n >= 3;
  const edges = closed ? n : 1;
  for (let i = 0; i < edges; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const sa = mx * src[3 * i]! + my * src[3 * i + 1]! + mz * src[3 * i + 2]! - offset;
    const sb = mx * src[3 * j]! + my * src[3 * j + 1]! + mz * src[3 * j + 2]! - offset;
    if (sa >= -tol) {
      dst[3 * m] = src[3 * i]!; dst[3 * m + 1] = src[3 * i + 1]!; dst[3 * m + 2] = src[3 * i + 2]!;
      dstCode[m++] = srcCode[i]!;
    }
    if ((sa >= -tol) !== (sb >= -tol) && m < POLY) {
      const t = sa / (sa - sb);
      dst[3 * m] = src[3 * i]! + t * (src[3 * j]! - src[3 * i]!);
      dst[3 * m + 1] = src[3 * i + 1]! + t * (src[3 * j + 1]! - src[3 * i + 1]!);
      dst[3 * m + 2] = src[3 * i + 2]! + t * (src[3 * j + 2]! - src[3 * i + 2]!);
      dstCode[m++] = edgeCode;
    }
    if (!closed && sb >= -tol && m < POLY) {
      dst[3 * m] = src[3 * j]!; dst[3 * m + 1] = src[3 * j + 1]!; dst[3 * m + 2] = src[3 * j + 2]!;
      dstCode[m++] = srcCode[j]!;
    }
    if (m >= POLY - 2) break;
  }
  for (let k = 0; k < 3 * m; k++) src[k] = dst[k]!;
  for (let k = 0; k < m; k++) srcCode[k] = dstCode[k]!;
  ctx.polyCount = m;
}

/** |cos| between two segments' directions above which they share a line contact. */
const PARALLEL_COS = 0.999;


/**
 * Two segments (capsule or cylinder side lines, parallel within PARALLEL_COS): B's segment
 * clipped to A's extent along A's direction; each end's depth is measured to
 * A's point at the same parameter.
 */
function clipSegments(ctx: ClipContext): void {
  const A = ctx.a.points, B = ctx.b.points;
  const io = ctx.io;
  const nx = io[0]!, ny = io[1]!, nz = io[2]!, rA = io[3]!, rB = io[4]!, margin = io[5]!;
  const ux = A[3]! - A[0]!, uy = A[4]! - A[1]!, uz = A[5]! - A[2]!;
  const uu = ux * ux + uy * uy + uz * uz;
  if (!(uu > 0)) return;
  // Parameters of B's ends on A's line.
  const s0 = ((B[0]! - A[0]!) * ux + (B[1]! - A[1]!) * uy + (B[2]! - A[2]!) * uz) / uu;
  const s1 = ((B[3]! - A[0]!) * ux + (B[4]! - A[1]!) * uy + (B[5]! - A[2]!) * uz) / uu;
  const ds = s1 - s0;
  for (let e = 0; e < 2; e++) {
    // Clip B's parameter range τ ∈ [0, 1] to s(τ) ∈ [0, 1].
    let tau = e;
    const s = s0 + ds * tau;
    if (s < 0 || s > 1) {
      if (Math.abs(ds) < 1e-12) continue;
      tau = ((s < 0 ? 0 : 1) - s0) / ds;
      if (tau < 0 || tau > 1) continue;
    }
    const px = B[0]! + tau * (B[3]! - B[0]!), py = B[1]! + tau * (B[4]! - B[1]!), pz = B[2]! + tau * (B[5]! - B[2]!);
    let sa = ((px - A[0]!) * ux + (py - A[1]!) * uy + (pz - A[2]!) * uz) / uu;
    sa = sa < 0 ? 0 : sa > 1 ? 1 : sa;
    const ax = A[0]! + sa * ux, ay = A[1]! + sa * uy, az = A[2]! + sa * uz;
    const depth = (ax - px) * nx + (ay - py) * ny + (az - pz) * nz + rA + rB;
    if (depth < -margin) continue;
    const o = 4 * ctx.candCount;
    const shift = rA - 0.5 * depth;
    ctx.cand[o] = ax + nx * shift; ctx.cand[o + 1] = ay + ny * shift; ctx.cand[o + 2] = az + nz * shift;
    ctx.cand[o + 3] = depth;
    ctx.candId[ctx.candCount++] = (2 << 24) | (e + 1);
  }
}

/**
 * Picks up to four candidates into ctx.keep: the deepest, the furthest from
 * it, the one spanning the largest triangle with both, and the one furthest
 * outside that triangle (the largest contact area for the solver).
 */
export function reduceCandidates(ctx: ClipContext): void {
  const C = ctx.cand;
  const n = ctx.candCount;
  const keep = ctx.keep;
  ctx.keepCount = 0;
  if (n === 0) return;
  // The first of the deepest, depths within DEPTH_TIE counting as equal: a
  // resting face keeps the same first point (and so the same four) each step.
  let deepest = -Infinity;
  for (let i = 0; i < n; i++) if (C[4 * i + 3]! > deepest) deepest = C[4 * i + 3]!;
  let i0 = 0;
  while (C[4 * i0 + 3]! < deepest - DEPTH_TIE) i0++;
  keep[ctx.keepCount++] = i0;
  if (n === 1) return;
  const x0 = C[4 * i0]!, y0 = C[4 * i0 + 1]!, z0 = C[4 * i0 + 2]!;
  let i1 = -1, best = 1e-12;
  for (let i = 0; i < n; i++) {
    const dx = C[4 * i]! - x0, dy = C[4 * i + 1]! - y0, dz = C[4 * i + 2]! - z0;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 > best) { best = d2; i1 = i; }
  }
  if (i1 < 0) return;
  keep[ctx.keepCount++] = i1;
  const ux = C[4 * i1]! - x0, uy = C[4 * i1 + 1]! - y0, uz = C[4 * i1 + 2]! - z0;
  let i2 = -1;
  let nx = 0, ny = 0, nz = 0;
  best = 1e-12 * best;
  for (let i = 0; i < n; i++) {
    const vx = C[4 * i]! - x0, vy = C[4 * i + 1]! - y0, vz = C[4 * i + 2]! - z0;
    const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    const a2 = cx * cx + cy * cy + cz * cz;
    if (a2 > best) { best = a2; i2 = i; nx = cx; ny = cy; nz = cz; }
  }
  if (i2 < 0) return;
  keep[ctx.keepCount++] = i2;
  // The fourth: furthest outside an edge of triangle (i0, i1, i2), measured as the area it adds.
  let i3 = -1;
  let bestOut = 1e-12 * best;
  for (let i = 0; i < n; i++) {
    if (i === i0 || i === i1 || i === i2) continue;
    let worst = 0;
    for (let e = 0; e < 3; e++) {
      const a = e === 0 ? i0 : e === 1 ? i1 : i2;
      const b = e === 0 ? i1 : e === 1 ? i2 : i0;
      const ex = C[4 * b]! - C[4 * a]!, ey = C[4 * b + 1]! - C[4 * a + 1]!, ez = C[4 * b + 2]! - C[4 * a + 2]!;
      const px = C[4 * i]! - C[4 * a]!, py = C[4 * i + 1]! - C[4 * a + 1]!, pz = C[4 * i + 2]! - C[4 * a + 2]!;
      const s = -((ey * pz - ez * py) * nx + (ez * px - ex * pz) * ny + (ex * py - ey * px) * nz);
      if (s > worst) worst = s;
    }
    if (worst > bestOut) { bestOut = worst; i3 = i; }
  }
  if (i3 >= 0) keep[ctx.keepCount++] = i3;
}

const ctx = /* @__PURE__ */ new ClipContext();
const result = /* @__PURE__ */ new GjkResult();
const relPos: Vec3 = { x: 0, y: 0, z: 0 };
const relRot: Quat = { x: 0, y: 0, z: 0, w: 1 };
const origin: Vec3 = { x: 0, y: 0, z: 0 };
const identityRot: Quat = { x: 0, y: 0, z: 0, w: 1 };
const nLocal: Vec3 = { x: 0, y: 0, z: 0 };
const outPoint = new Float64Array(7);

/**
 * Contacts between any two convex shapes at world poses (normal A → B), with
 * the margin read from narrowphaseMargin[0]. The dispatch-table entry of
 * every pair that has a Cylinder or a ConvexHull.
 */
export function convexContacts(
  a: ConvexShape, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  b: ConvexShape, posB: Readonly<Vec3>, rotB: Readonly<Quat>, manifold: Manifold,
): void {
  const margin = narrowphaseMargin[0]!;
  manifold.reset();
  // In A's frame: B at q_A*(p_B − p_A) turned by q_A* q_B, so far-away pairs keep their digits.
  relPos.x = posB.x - posA.x; relPos.y = posB.y - posA.y; relPos.z = posB.z - posA.z;
  inverseRotateInPlace(relPos, rotA);
  conjugateTimes(relRot, rotA, rotB);
  const res = result;
  if (b.kind === ShapeKind.Cylinder && a.kind !== ShapeKind.Cylinder) {
    // GJK/EPA work in A's frame: with the cylinder as A its rim points come
    // from its own axes, so a cap's points stay exactly coplanar and EPA
    // closes on it in fewer steps. So B's frame runs it, and the answer is
    // turned back into A's.
    epaPenetration(b, relPos, relRot, a, origin, identityRot, res);
    swapResult(res);
  } else {
    epaPenetration(a, origin, identityRot, b, relPos, relRot, res);
  }
  if (res.distance > margin) {
    narrowphaseGap[0] = res.distance;
    return;
  }
  const n = res.normal;
  const io = ctx.io;
  io[0] = n.x; io[1] = n.y; io[2] = n.z;
  loadCoreRadius(a, io, 3); loadCoreRadius(b, io, 4); io[5] = margin;
  localFeature(a, n, ctx.a, ctx.tmp);
  // B's feature along −n, found in B's frame and brought into A's.
  nLocal.x = -n.x; nLocal.y = -n.y; nLocal.z = -n.z;
  inverseRotateInPlace(nLocal, relRot);
  localFeature(b, nLocal, ctx.b, ctx.tmp);
  transformFeature(ctx.b, relPos, relRot);
  const clipped = clipFeatures(ctx);
  addEpaPoint(ctx, res, clipped, 127);
  reduceCandidates(ctx);
  const C = ctx.cand;
  for (let k = 0; k < ctx.keepCount; k++) {
    const i = ctx.keep[k]!;
    outPoint[0] = C[4 * i]!; outPoint[1] = C[4 * i + 1]!; outPoint[2] = C[4 * i + 2]!;
    outPoint[3] = io[0]!; outPoint[4] = io[1]!; outPoint[5] = io[2]!;
    toWorld(outPoint, posA, rotA);
    outPoint[6] = C[4 * i + 3]!;
    manifold.addPointFrom(outPoint, 0, ctx.candId[i]!);
  }
}

/**
 * Appends the EPA/GJK point (res's surface witnesses, depth −res.distance)
 * as a candidate when the clipping gave nothing usable or missed a deeper
 * feature.
 */
export function addEpaPoint(c: ClipContext, res: GjkResult, clipped: boolean, code: number): void {
  const depth = -res.distance;
  let deepest = -Infinity;
  for (let i = 0; i < c.candCount; i++) if (c.cand[4 * i + 3]! > deepest) deepest = c.cand[4 * i + 3]!;
  if (clipped && c.candCount > 0 && depth <= deepest + MISSED_DEPTH) return;
  if (c.candCount >= POLY) return;
  const pa = res.pointA, pb = res.pointB;
  const o = 4 * c.candCount;
  c.cand[o] = 0.5 * (pa.x + pb.x); c.cand[o + 1] = 0.5 * (pa.y + pb.y); c.cand[o + 2] = 0.5 * (pa.z + pb.z);
  c.cand[o + 3] = depth;
  c.candId[c.candCount++] = (3 << 24) | code;
}

/** The result of (B, A) as that of (A, B): witnesses swap, the normal flips. */
function swapResult(r: GjkResult): void {
  const a = r.pointA, b = r.pointB, n = r.normal;
  const x = a.x, y = a.y, z = a.z;
  a.x = b.x; a.y = b.y; a.z = b.z;
  b.x = x; b.y = y; b.z = z;
  n.x = -n.x; n.y = -n.y; n.z = -n.z;
}

/** v ← q* v */
export function inverseRotateInPlace(v: Vec3, q: Readonly<Quat>): void {
  const qx = -q.x, qy = -q.y, qz = -q.z, qw = q.w;
  const tx = 2 * (qy * v.z - qz * v.y), ty = 2 * (qz * v.x - qx * v.z), tz = 2 * (qx * v.y - qy * v.x);
  const x = v.x + qw * tx + (qy * tz - qz * ty);
  const y = v.y + qw * ty + (qz * tx - qx * tz);
  const z = v.z + qw * tz + (qx * ty - qy * tx);
  v.x = x; v.y = y; v.z = z;
}

/** out ← a* ⊗ b */
function conjugateTimes(out: Quat, a: Readonly<Quat>, b: Readonly<Quat>): void {
  const ax = -a.x, ay = -a.y, az = -a.z, aw = a.w;
  out.x = aw * b.x + ax * b.w + ay * b.z - az * b.y;
  out.y = aw * b.y - ax * b.z + ay * b.w + az * b.x;
  out.z = aw * b.z + ax * b.y - ay * b.x + az * b.w;
  out.w = aw * b.w - ax * b.x - ay * b.y - az * b.z;
}

/** Point [0..2] and normal [3..5] from the frame (p, q) to world. */
export function toWorld(P: Float64Array, p: Readonly<Vec3>, q: Readonly<Quat>): void {
  rotateAt(P, 0, q, p);
  rotateAt(P, 3, q, ZERO);
}
