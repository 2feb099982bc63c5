/**
 * Shared machinery of the convex-vs-TriangleMesh colliders: a candidate
 * buffer owned by each collider module, the reduction of all candidates to a
 * ≤ 4-point manifold, polygon clipping with feature tags, and closest-point
 * helpers (Ericson, "Real-Time Collision Detection", §5.1).
 *
 * Candidates are gathered in mesh-local space. Each carries its own normal
 * (A → B: from the convex into the mesh), depth, midpoint, triangle and a
 * feature code k < 128; the manifold id is triangle·128 + k, so a resting
 * contact keeps its id (meshes up to 2^25 triangles).
 *
 * Back faces (documented choice): triangles are one-sided for pushing. When
 * the convex's core (sphere centre, box centre; a capsule's centre when its
 * segment pierces the triangle, else its segment point nearest the triangle)
 * is behind a triangle's plane and projects inside the triangle, the candidate
 * is a BACK candidate that pushes out through the front face (normal −n,
 * depth = distance to get the convex fully in front). Back candidates are
 * used only when the manifold has no front candidate at all, and then only
 * those coplanar with the triangle of the shallowest exit — so a convex that
 * sank into a closed mesh leaves through the nearest face instead of being
 * pulled through the floor, and a convex resting near a closed box's rim
 * never gets a sideways push from the side faces behind it. A core behind a
 * plane that projects outside the triangle gives no candidate.
 * A double-sided mesh (TriangleMesh.doubleSided) has no back: each collider
 * takes the side the convex's centre is on as the triangle's front.
 *
 * Doubles cross function boundaries through Float64Arrays (a query point, the
 * collector's `cand`, `segArgs`, `plane` …), never as arguments or return
 * values (CONTRIBUTING.md, hot path).
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import { EDGE_ACTIVE_SHIFT, VERTEX_ACTIVE_SHIFT, type MeshTriangles } from '../../shapes/geometry';
import type { Manifold } from './manifold';

/** Closest-feature codes returned by closestPointOnTriangle. */
export const FEATURE_FACE = 0;
/** FEATURE_EDGE + k: edge from corner k to corner k+1. */
export const FEATURE_EDGE = 1;
/** FEATURE_VERTEX + k: corner k. */
export const FEATURE_VERTEX = 4;

/** See finish: candidates facing away from the deepest point by more than 45° and this much further out (m) are dropped. */
const SPREAD_GAP = 0.1;
const SPREAD_COS = Math.SQRT1_2;
const CAPACITY = 256;
const STRIDE = 7; // px py pz nx ny nz depth
const MAX_POLY = 16;
/** Depths closer than this (m) count as equal when picking the first manifold point. */
const DEPTH_TIE = 1e-6;
/** normalInFeatureCone: the cosine by which a normal may lean over a face (rounding). */
const CONE_TOLERANCE = 1e-6;

/**
 * True when the feature may contribute its own direction: the face always,
 * an edge or corner only when active (convex or open), see triangle-mesh.ts.
 */
export function isFeatureActive(flags: number, feature: number): boolean {
  if (feature === FEATURE_FACE) return false;
  if (feature < FEATURE_VERTEX) return (flags & (1 << (EDGE_ACTIVE_SHIFT + feature - FEATURE_EDGE))) !== 0;
  return (flags & (1 << (VERTEX_ACTIVE_SHIFT + feature - FEATURE_VERTEX))) !== 0;
}

const farCorner = /* @__PURE__ */ new Float64Array(3);

/**
 * Whether the normal m[0..2], pointing out of the mesh, lies in the normal
 * cone of triangle t's feature `mask` (corner bits, as featureActive: an edge
 * or a corner): it may not lean over the triangle itself, nor over the
 * neighbour across the edge (or across either edge at the corner), i.e.
 * m·u ≤ 0 for each direction u from the feature along those faces. A convex
 * straddling a shallow ridge has, against one triangle alone, a smallest
 * way out sideways over the ridge, which the neighbour's surface does not
 * allow; such a contact pushes sideways and does not hold the body up
 * (docs/collision.md).
 */
export function normalInFeatureCone(mesh: MeshTriangles, t: number, mask: number, m: Float64Array): boolean {
  const P = mesh.corners, o = 9 * t;
  const mx = m[0]!, my = m[1]!, mz = m[2]!;
  const f = farCorner;
  if (mask === 3 || mask === 6 || mask === 5) {
    const k = mask === 3 ? 0 : mask === 6 ? 1 : 2;
    const a = o + 3 * k, b = o + 3 * (k === 2 ? 0 : k + 1), c = o + 3 * (k === 0 ? 2 : k - 1);
    const ex = P[b]! - P[a]!, ey = P[b + 1]! - P[a + 1]!, ez = P[b + 2]! - P[a + 2]!;
    const ee = ex * ex + ey * ey + ez * ez;
    // The own far corner, then the neighbour's: each offset from the edge, without its part along the edge.
    f[0] = P[c]!; f[1] = P[c + 1]!; f[2] = P[c + 2]!;
    for (let side = 0; side < 2; side++) {
      if (side === 1 && !mesh.neighborFarCorner(t, k, f)) return true;
      const wx = f[0]! - P[a]!, wy = f[1]! - P[a + 1]!, wz = f[2]! - P[a + 2]!;
      const along = (wx * ex + wy * ey + wz * ez) / ee;
      const ux = wx - along * ex, uy = wy - along * ey, uz = wz - along * ez;
      if (mx * ux + my * uy + mz * uz > CONE_TOLERANCE * Math.sqrt(ux * ux + uy * uy + uz * uz)) return false;
    }
    return true;
  }
  // A corner v: its two edges, and the far corners of the neighbours across them.
  const v = mask === 1 ? 0 : mask === 2 ? 1 : 2;
  const a = o + 3 * v;
  const ax = P[a]!, ay = P[a + 1]!, az = P[a + 2]!;
  for (let i = 1; i <= 2; i++) {
    const b = o + 3 * ((v + i) % 3);
    const ux = P[b]! - ax, uy = P[b + 1]! - ay, uz = P[b + 2]! - az;
    if (mx * ux + my * uy + mz * uz > CONE_TOLERANCE * Math.sqrt(ux * ux + uy * uy + uz * uz)) return false;
  }
  for (let i = 0; i < 2; i++) {
    // Edge v runs v → v+1, edge v+2 runs v+2 → v: both touch corner v.
    if (!mesh.neighborFarCorner(t, i === 0 ? v : (v + 2) % 3, f)) continue;
    const ux = f[0]! - ax, uy = f[1]! - ay, uz = f[2]! - az;
    if (mx * ux + my * uy + mz * uz > CONE_TOLERANCE * Math.sqrt(ux * ux + uy * uy + uz * uz)) return false;
  }
  return true;
}

/**
 * True when the point p[0..2] lies beyond triangle `tri`'s prism (its
 * edges swept along the front normal) only across inactive edges: flat or
 * concave seams, where the neighbour's surface is level with or above this
 * triangle's plane. A point beyond an open or convex edge is not.
 */
export function beyondOnlyInactiveEdges(corners: Float64Array, normals: Float64Array, flags: number, tri: number, p: Float64Array): boolean {
  return insideEdges(corners, normals, tri, p, (flags >> EDGE_ACTIVE_SHIFT) & 7);
}

/**
 * Closest point on triangle `tri` of `corners` to p = (p[0], p[1], p[2]),
 * written to `out`; returns the feature code of the Voronoi region (Ericson §5.1.5).
 */
export function closestPointOnTriangle(out: Vec3, corners: Float64Array, tri: number, p: Float64Array): number {
  const px = p[0]!, py = p[1]!, pz = p[2]!;
  const o = 9 * tri;
  const ax = corners[o]!, ay = corners[o + 1]!, az = corners[o + 2]!;
  const bx = corners[o + 3]!, by = corners[o + 4]!, bz = corners[o + 5]!;
  const cx = corners[o + 6]!, cy = corners[o + 7]!, cz = corners[o + 8]!;
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  const acx = cx - ax, acy = cy - ay, acz = cz - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) {
    out.x = ax; out.y = ay; out.z = az;
    return FEATURE_VERTEX;
  }
  const bpx = px - bx, bpy = py - by, bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) {
    out.x = bx; out.y = by; out.z = bz;
    return FEATURE_VERTEX + 1;
  }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    out.x = ax + v * abx; out.y = ay + v * aby; out.z = az + v * abz;
    return FEATURE_EDGE;
  }
  const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) {
    out.x = cx; out.y = cy; out.z = cz;
    return FEATURE_VERTEX + 2;
  }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    out.x = ax + w * acx; out.y = ay + w * acy; out.z = az + w * acz;
    return FEATURE_EDGE + 2;
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    out.x = bx + w * (cx - bx); out.y = by + w * (cy - by); out.z = bz + w * (cz - bz);
    return FEATURE_EDGE + 1;
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom;
  const w = vc * denom;
  out.x = ax + abx * v + acx * w;
  out.y = ay + aby * v + acy * w;
  out.z = az + abz * v + acz * w;
  return FEATURE_FACE;
}

/**
 * True when p = (p[0], p[1], p[2]) projects onto triangle `tri` along its normal,
 * boundary included (1e-9 relative slack): for every edge e_k = b − a,
 * ((b − a) × (p − a))·n ≥ 0. Used for back-face candidates, where a core
 * right under a shared edge must count as covered by both triangles.
 */
export function projectsInside(corners: Float64Array, normals: Float64Array, tri: number, p: Float64Array): boolean {
  return insideEdges(corners, normals, tri, p, 7);
}

/** p[0..2] is on the inner side (within rounding) of each edge k of triangle tri with bit k of `edges` set, seen along the normal. */
function insideEdges(corners: Float64Array, normals: Float64Array, tri: number, p: Float64Array, edges: number): boolean {
  const px = p[0]!, py = p[1]!, pz = p[2]!;
  const o = 9 * tri;
  const nx = normals[3 * tri]!, ny = normals[3 * tri + 1]!, nz = normals[3 * tri + 2]!;
  for (let k = 0; k < 3; k++) {
    if ((edges & (1 << k)) === 0) continue;
    const a = o + 3 * k;
    const b = o + 3 * ((k + 1) % 3);
    const ex = corners[b]! - corners[a]!, ey = corners[b + 1]! - corners[a + 1]!, ez = corners[b + 2]! - corners[a + 2]!;
    const fx = px - corners[a]!, fy = py - corners[a + 1]!, fz = pz - corners[a + 2]!;
    const side = (ey * fz - ez * fy) * nx + (ez * fx - ex * fz) * ny + (ex * fy - ey * fx) * nz;
    if (side < -1e-9 * (ex * ex + ey * ey + ez * ez)) return false;
  }
  return true;
}

/**
 * Candidate buffer + scratch for one collider module (each module owns one
 * instance, so two colliders never share scratch).
 */
export class MeshContactCollector {
  /** Triangle list reused by every query (never shrinks). */
  readonly triangles: number[] = [];
  private readonly data = new Float64Array(CAPACITY * STRIDE);
  private readonly tri = new Int32Array(CAPACITY);
  private readonly code = new Int32Array(CAPACITY);
  private readonly back = new Uint8Array(CAPACITY);
  private readonly use = new Uint8Array(CAPACITY);
  count = 0;
  private frontCount = 0;

  // Clipping polygons (ping-pong): xyz, outgoing-edge line id, feature code.
  polyCount = 0;
  readonly poly = new Float64Array(3 * MAX_POLY);
  readonly polyLine = new Int32Array(MAX_POLY);
  readonly polyCode = new Int32Array(MAX_POLY);
  private readonly tmp = new Float64Array(3 * MAX_POLY);
  private readonly tmpLine = new Int32Array(MAX_POLY);
  private readonly tmpCode = new Int32Array(MAX_POLY);

  /** Scratch vectors for the owning collider. */
  readonly v0: Vec3 = { x: 0, y: 0, z: 0 };
  readonly v1: Vec3 = { x: 0, y: 0, z: 0 };
  readonly v2: Vec3 = { x: 0, y: 0, z: 0 };
  readonly v3: Vec3 = { x: 0, y: 0, z: 0 };

  /** A query point for closestPointOnTriangle / projectsInside. */
  readonly point = new Float64Array(3);
  /** A candidate for {@link push} / {@link pushFromPointA}: xyz, normal xyz, depth. */
  readonly cand = new Float64Array(STRIDE);
  /** Arguments of {@link segmentSegment}: p1 [0..2], d1 [3..5], p2 [6..8], d2 [9..11]. */
  readonly segArgs = new Float64Array(12);
  /** Results of {@link segmentSegment}: s [0], t [1], squared distance [2]. */
  readonly seg = new Float64Array(3);
  /** Clip plane for {@link clip}: normal [0..2], offset [3]. */
  readonly plane = new Float64Array(4);
  /** A manifold point on its way out (Manifold.addPointFrom layout). */
  private readonly out = new Float64Array(STRIDE);

  /** The convex's pose in the mesh frame, set by {@link enterMeshFrame}. */
  readonly localPos: Vec3 = { x: 0, y: 0, z: 0 };
  readonly localRot: Quat = { x: 0, y: 0, z: 0, w: 1 };
  /** The query box: the collider writes the convex's half extents (mesh frame, margin included) in [0..2]; {@link gatherTriangles} makes it min [0..2], max [3..5]. */
  readonly bounds = new Float64Array(6);

  /** The first step of every convex-vs-mesh collider: A's pose in B's (the mesh's) frame into localPos / localRot. */
  enterMeshFrame(posA: Readonly<Vec3>, rotA: Readonly<Quat>, posB: Readonly<Vec3>, rotB: Readonly<Quat>): void {
    toMeshLocal(this.localPos, this.localRot, posA, rotA, posB, rotB);
  }

  /**
   * The second step: the triangles whose boxes overlap localPos ± bounds[0..2]
   * go to `triangles` (their count is returned), and the candidate buffer is
   * emptied.
   */
  gatherTriangles(mesh: MeshTriangles): number {
    const b = this.bounds, c = this.localPos;
    const ex = b[0]!, ey = b[1]!, ez = b[2]!;
    b[0] = c.x - ex; b[1] = c.y - ey; b[2] = c.z - ez;
    b[3] = c.x + ex; b[4] = c.y + ey; b[5] = c.z + ez;
    const count = mesh.queryBoundsFrom(b, this.triangles, 0);
    this.begin();
    return count;
  }

  /**
   * Closest points of segments p1 + s·d1 and p2 + t·d2, s, t ∈ [0, 1]
   * (Ericson §5.1.9), from {@link segArgs}; s, t and the squared distance
   * land in {@link seg}. d2 must be non-zero.
   */
  segmentSegment(): void {
    const A = this.segArgs;
    const p1x = A[0]!, p1y = A[1]!, p1z = A[2]!, d1x = A[3]!, d1y = A[4]!, d1z = A[5]!;
    const p2x = A[6]!, p2y = A[7]!, p2z = A[8]!, d2x = A[9]!, d2y = A[10]!, d2z = A[11]!;
    const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
    const a = d1x * d1x + d1y * d1y + d1z * d1z;
    const e = d2x * d2x + d2y * d2y + d2z * d2z;
    const f = d2x * rx + d2y * ry + d2z * rz;
    const c = d1x * rx + d1y * ry + d1z * rz;
    const b = d1x * d2x + d1y * d2y + d1z * d2z;
    const denom = a * e - b * b;
    // Parallel segments (denom ≈ 0): any s works, take 0 and let the clamps fix t.
    let s = denom > 1e-14 * a * e ? (b * f - c * e) / denom : 0;
    let t = (b * s + f) / e;
    if (t < 0) {
      t = 0;
      s = a > 0 ? -c / a : 0;
    } else if (t > 1) {
      t = 1;
      s = a > 0 ? (b - c) / a : 0;
    }
    // Every s above is clamped to [0, 1] (Ericson's clamp01, written out).
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    const dx = p1x + d1x * s - p2x - d2x * t;
    const dy = p1y + d1y * s - p2y - d2y * t;
    const dz = p1z + d1z * s - p2z - d2z * t;
    const R = this.seg;
    R[0] = s;
    R[1] = t;
    R[2] = dx * dx + dy * dy + dz * dz;
  }

  begin(): void {
    this.count = 0;
    this.frontCount = 0;
  }

  /**
   * Adds the candidate in {@link cand} whose position is the point on the
   * convex (A) along the normal; the stored position is the midpoint
   * A − n·depth/2 (manifold convention).
   */
  pushFromPointA(tri: number, code: number, isBack: boolean): void {
    const c = this.cand;
    const h = 0.5 * c[6]!;
    c[0] = c[0]! - c[3]! * h;
    c[1] = c[1]! - c[4]! * h;
    c[2] = c[2]! - c[5]! * h;
    this.push(tri, code, isBack);
  }

  /** Adds the candidate in {@link cand} (position = the midpoint). */
  push(tri: number, code: number, isBack: boolean): void {
    const c = this.cand;
    const depth = c[6]!;
    let slot = this.count;
    if (slot >= CAPACITY) {
      // Full: replace the shallowest candidate of the same kind if this one is deeper.
      slot = -1;
      let shallow = depth;
      for (let i = 0; i < CAPACITY; i++) {
        if ((this.back[i] === 1) === isBack && this.data[i * STRIDE + 6]! < shallow) {
          shallow = this.data[i * STRIDE + 6]!;
          slot = i;
        }
      }
      if (slot < 0) return;
    } else {
      this.count++;
      if (!isBack) this.frontCount++;
    }
    const o = slot * STRIDE;
    const d = this.data;
    for (let k = 0; k < STRIDE; k++) d[o + k] = c[k]!;
    this.tri[slot] = tri;
    this.code[slot] = code;
    this.back[slot] = isBack ? 1 : 0;
  }

  /** Starts a clip polygon. */
  polyReset(): void {
    this.polyCount = 0;
  }

  /** Appends the vertex src[offset .. offset + 2]. */
  polyPush(src: Float64Array, offset: number, line: number, code: number): void {
    const i = this.polyCount++;
    this.poly[3 * i] = src[offset]!;
    this.poly[3 * i + 1] = src[offset + 1]!;
    this.poly[3 * i + 2] = src[offset + 2]!;
    this.polyLine[i] = line;
    this.polyCode[i] = code;
  }

  /**
   * Sutherland–Hodgman step keeping the part with n·p ≤ offset ({@link plane}
   * holds n and offset). A vertex
   * remembers the line its outgoing edge lies on, so an intersection point's
   * code (codeBase + line·codeStride + plane) names the two features that
   * made it and stays the same from frame to frame.
   */
  clip(plane: number, planeLine: number, codeBase: number, codeStride: number): void {
    const pl = this.plane;
    const nx = pl[0]!, ny = pl[1]!, nz = pl[2]!, offset = pl[3]!;
    const n = this.polyCount;
    const src = this.poly;
    const dst = this.tmp;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const j = i + 1 === n ? 0 : i + 1;
      const px = src[3 * i]!, py = src[3 * i + 1]!, pz = src[3 * i + 2]!;
      const qx = src[3 * j]!, qy = src[3 * j + 1]!, qz = src[3 * j + 2]!;
      const dp = nx * px + ny * py + nz * pz - offset;
      const dq = nx * qx + ny * qy + nz * qz - offset;
      if (dp <= 0) {
        if (m < MAX_POLY) {
          dst[3 * m] = px; dst[3 * m + 1] = py; dst[3 * m + 2] = pz;
          this.tmpLine[m] = this.polyLine[i]!;
          this.tmpCode[m] = this.polyCode[i]!;
          m++;
        }
        if (dp < 0 && dq > 0 && m < MAX_POLY) {
          const t = dp / (dp - dq);
          dst[3 * m] = px + t * (qx - px); dst[3 * m + 1] = py + t * (qy - py); dst[3 * m + 2] = pz + t * (qz - pz);
          this.tmpLine[m] = planeLine;
          this.tmpCode[m] = codeBase + this.polyLine[i]! * codeStride + plane;
          m++;
        }
      } else if (dq < 0 && m < MAX_POLY) {
        const t = dp / (dp - dq);
        dst[3 * m] = px + t * (qx - px); dst[3 * m + 1] = py + t * (qy - py); dst[3 * m + 2] = pz + t * (qz - pz);
        this.tmpLine[m] = this.polyLine[i]!;
        this.tmpCode[m] = codeBase + this.polyLine[i]! * codeStride + plane;
        m++;
      }
    }
    for (let i = 0; i < 3 * m; i++) src[i] = dst[i]!;
    for (let i = 0; i < m; i++) {
      this.polyLine[i] = this.tmpLine[i]!;
      this.polyCode[i] = this.tmpCode[i]!;
    }
    this.polyCount = m;
  }

  /**
   * Reduces the candidates to ≤ 4 manifold points and writes them in world
   * space (mesh at posB/rotB). Selection, as in the box–box reduction: the
   * deepest point, the point farthest from it, the point maximising the
   * triangle area with those two, then the point farthest outside that
   * triangle (largest added quad area).
   */
  finish(manifold: Manifold, posB: Readonly<Vec3>, rotB: Readonly<Quat>): void {
    manifold.pointCount = 0;
    const n = this.count;
    if (n === 0) return;
    const d = this.data;
    const use = this.use;
    if (this.frontCount > 0) {
      for (let i = 0; i < n; i++) use[i] = this.back[i] === 1 ? 0 : 1;
    } else {
      // Shallowest exit: the back triangle whose deepest candidate is least deep.
      let bestTri = -1;
      let bestDepth = Infinity;
      for (let i = 0; i < n; i++) {
        const t = this.tri[i]!;
        let deepest = -Infinity;
        for (let j = 0; j < n; j++) if (this.tri[j] === t && d[j * STRIDE + 6]! > deepest) deepest = d[j * STRIDE + 6]!;
        if (deepest < bestDepth) {
          bestDepth = deepest;
          bestTri = i;
        }
      }
      const o = bestTri * STRIDE;
      const bx = d[o + 3]!, by = d[o + 4]!, bz = d[o + 5]!;
      for (let i = 0; i < n; i++) {
        const q = i * STRIDE;
        use[i] = d[q + 3]! * bx + d[q + 4]! * by + d[q + 5]! * bz > 1 - 1e-6 ? 1 : 0;
      }
    }

    // First point: the deepest. Depths equal to within DEPTH_TIE (a resting
    // face contact, equal up to rounding) are a tie, broken by the distance
    // from the candidates' centroid so that the pick is a corner of the patch.
    let deepest = -Infinity;
    let cenX = 0, cenY = 0, cenZ = 0, used = 0;
    for (let i = 0; i < n; i++) {
      if (use[i] !== 1) continue;
      const q = i * STRIDE;
      if (d[q + 6]! > deepest) deepest = d[q + 6]!;
      cenX += d[q]!; cenY += d[q + 1]!; cenZ += d[q + 2]!;
      used++;
    }
    cenX /= used; cenY /= used; cenZ /= used;
    let i1 = -1;
    let best = -Infinity;
    for (let i = 0; i < n; i++) {
      const q = i * STRIDE;
      if (use[i] !== 1 || d[q + 6]! < deepest - DEPTH_TIE) continue;
      const dx = d[q]! - cenX, dy = d[q + 1]! - cenY, dz = d[q + 2]! - cenZ;
      const far = dx * dx + dy * dy + dz * dz;
      if (far > best) {
        best = far;
        i1 = i;
      }
    }
    const o1 = i1 * STRIDE;
    const p1x = d[o1]!, p1y = d[o1 + 1]!, p1z = d[o1 + 2]!;
    // The spread below ranks by distance only, and under a margin of metres
    // (a fast body) the far speculative points of other triangles, facing
    // elsewhere, would win the slots from the first point's own face and
    // leave a fast body held by one corner. Points
    // facing away from the first by more than 45° and further than
    // SPREAD_GAP beyond it stay out.
    const n1x = d[o1 + 3]!, n1y = d[o1 + 4]!, n1z = d[o1 + 5]!;
    for (let i = 0; i < n; i++) {
      const q = i * STRIDE;
      if (use[i] === 1 && d[q + 6]! < deepest - SPREAD_GAP && d[q + 3]! * n1x + d[q + 4]! * n1y + d[q + 5]! * n1z < SPREAD_COS) use[i] = 0;
    }

    let i2 = -1;
    best = 1e-12;
    for (let i = 0; i < n; i++) {
      if (use[i] !== 1) continue;
      const q = i * STRIDE;
      const dx = d[q]! - p1x, dy = d[q + 1]! - p1y, dz = d[q + 2]! - p1z;
      const dist = dx * dx + dy * dy + dz * dz;
      if (dist > best) {
        best = dist;
        i2 = i;
      }
    }

    let i3 = -1;
    let i4 = -1;
    if (i2 >= 0) {
      const o2 = i2 * STRIDE;
      const ex = d[o2]! - p1x, ey = d[o2 + 1]! - p1y, ez = d[o2 + 2]! - p1z;
      best = 1e-12 * (ex * ex + ey * ey + ez * ez);
      let mx = 0, my = 0, mz = 0;
      for (let i = 0; i < n; i++) {
        if (use[i] !== 1) continue;
        const q = i * STRIDE;
        const fx = d[q]! - p1x, fy = d[q + 1]! - p1y, fz = d[q + 2]! - p1z;
        const cx = ey * fz - ez * fy, cy = ez * fx - ex * fz, cz = ex * fy - ey * fx;
        const area = cx * cx + cy * cy + cz * cz;
        if (area > best) {
          best = area;
          i3 = i;
          mx = cx; my = cy; mz = cz;
        }
      }
      if (i3 >= 0) {
        // m = (p2 − p1) × (p3 − p1): the triangle p1 p2 p3 is counter-clockwise
        // about m, so a point is outside edge (a, b) when ((b − a) × (p − a))·m < 0.
        const o3 = i3 * STRIDE;
        best = 1e-12 * Math.sqrt(mx * mx + my * my + mz * mz) * Math.sqrt(ex * ex + ey * ey + ez * ez);
        for (let i = 0; i < n; i++) {
          if (use[i] !== 1 || i === i1 || i === i2 || i === i3) continue;
          const q = i * STRIDE;
          // Largest −((b − a) × (p − a))·m over the edges a→b: positive
          // when p lies outside that edge.
          let outside = -Infinity;
          for (let e = 0; e < 3; e++) {
            const a = e === 0 ? o1 : e === 1 ? o2 : o3;
            const b = e === 0 ? o2 : e === 1 ? o3 : o1;
            const ex = d[b]! - d[a]!, ey = d[b + 1]! - d[a + 1]!, ez = d[b + 2]! - d[a + 2]!;
            const fx = d[q]! - d[a]!, fy = d[q + 1]! - d[a + 1]!, fz = d[q + 2]! - d[a + 2]!;
            const area = -((ey * fz - ez * fy) * mx + (ez * fx - ex * fz) * my + (ex * fy - ey * fx) * mz);
            if (area > outside) outside = area;
          }
          if (outside > best) {
            best = outside;
            i4 = i;
          }
        }
      }
    }
    this.emit(manifold, i1, posB, rotB);
    if (i2 >= 0) this.emit(manifold, i2, posB, rotB);
    if (i3 >= 0) this.emit(manifold, i3, posB, rotB);
    if (i4 >= 0) this.emit(manifold, i4, posB, rotB);
  }

  private emit(manifold: Manifold, i: number, p: Readonly<Vec3>, q: Readonly<Quat>): void {
    const d = this.data;
    const o = i * STRIDE;
    // v' = v + w t + q.xyz × t with t = 2 q.xyz × v (rotation by a unit quaternion).
    let vx = d[o]!, vy = d[o + 1]!, vz = d[o + 2]!;
    let tx = 2 * (q.y * vz - q.z * vy), ty = 2 * (q.z * vx - q.x * vz), tz = 2 * (q.x * vy - q.y * vx);
    const px = p.x + vx + q.w * tx + (q.y * tz - q.z * ty);
    const py = p.y + vy + q.w * ty + (q.z * tx - q.x * tz);
    const pz = p.z + vz + q.w * tz + (q.x * ty - q.y * tx);
    vx = d[o + 3]!; vy = d[o + 4]!; vz = d[o + 5]!;
    tx = 2 * (q.y * vz - q.z * vy); ty = 2 * (q.z * vx - q.x * vz); tz = 2 * (q.x * vy - q.y * vx);
    const out = this.out;
    out[0] = px; out[1] = py; out[2] = pz;
    out[3] = vx + q.w * tx + (q.y * tz - q.z * ty);
    out[4] = vy + q.w * ty + (q.z * tx - q.x * tz);
    out[5] = vz + q.w * tz + (q.x * ty - q.y * tx);
    out[6] = d[o + 6]!;
    manifold.addPointFrom(out, 0, (this.tri[i]! * 128 + this.code[i]!) >>> 0);
  }
}

/** Rigid transform of a convex into the mesh frame (scratch owned by the caller). */
export function toMeshLocal(outPos: Vec3, outRot: Quat, posA: Readonly<Vec3>, rotA: Readonly<Quat>, posB: Readonly<Vec3>, rotB: Readonly<Quat>): void {
  // p_local = q_B* (p_A − p_B); q_local = q_B* ⊗ q_A.
  const vx = posA.x - posB.x, vy = posA.y - posB.y, vz = posA.z - posB.z;
  const qx = -rotB.x, qy = -rotB.y, qz = -rotB.z, qw = rotB.w;
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  outPos.x = vx + qw * tx + (qy * tz - qz * ty);
  outPos.y = vy + qw * ty + (qz * tx - qx * tz);
  outPos.z = vz + qw * tz + (qx * ty - qy * tx);
  const x = qw * rotA.x + qx * rotA.w + qy * rotA.z - qz * rotA.y;
  const y = qw * rotA.y - qx * rotA.z + qy * rotA.w + qz * rotA.x;
  const z = qw * rotA.z + qx * rotA.y - qy * rotA.x + qz * rotA.w;
  const w = qw * rotA.w - qx * rotA.x - qy * rotA.y - qz * rotA.z;
  outRot.x = x; outRot.y = y; outRot.z = z; outRot.w = w;
}
