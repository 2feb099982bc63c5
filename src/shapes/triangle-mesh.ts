/**
 * A static triangle mesh (level geometry) with a bounding-volume hierarchy and
 * edge adjacency for internal-edge ("ghost normal") suppression.
 *
 * Build (once, in the constructor):
 * - zero-area triangles are dropped (glTF levels contain them); triangle i of
 *   this mesh is the i-th kept triangle of the input, in input order;
 * - a binned-SAH BVH over triangle centroids (Wald 2007, "On fast Construction
 *   of SAH-based Bounding Volume Hierarchies"), nodes in flat typed arrays,
 *   ≤ 4 triangles per leaf, left child stored right after its parent;
 * - edge adjacency over position-welded vertices (glTF splits vertices on
 *   normal/UV seams, so index equality alone would leave every seam "open").
 *
 * Active edges (the choice documented here, used by every mesh collider):
 * an edge is ACTIVE when it is a boundary edge, is shared by more than two
 * triangles, joins triangles of inconsistent winding, or is convex with a
 * dihedral bend above INACTIVE_EDGE_DEGREES. Flat and concave edges are
 * inactive. On a double-sided mesh a concave edge is convex from the other
 * side, so every bent edge is active and only flat ones (winding ignored)
 * are inactive. A vertex of a triangle is active when either of that triangle's
 * two edges meeting there is active. A collider whose closest feature on a
 * triangle is an inactive edge or vertex uses the triangle's face normal and
 * plane distance instead of the feature direction (Jolt's "active edges",
 * Bullet's btAdjustInternalEdgeContacts): across a flat or concave seam the
 * neighbour continues the surface, so the face plane is the true surface there,
 * while a convex ridge keeps its edge normal and still collides.
 */
import { rotatedBoxAabb, type Aabb } from '../collision/aabb';
import { addTriangleMeshPairs } from '../collision/narrowphase/dispatch';
import { addTriangleMeshCasts } from '../collision/query/shape-cast';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { MAX_SHAPE_SIZE } from '../math/validate';
import { lockShapeFields, Shape, ShapeKind } from './shape';
import { EDGE_ACTIVE_SHIFT, type MeshTriangles, VERTEX_ACTIVE_SHIFT } from './geometry';
import { buildMeshBvh, queryBvh } from './mesh-bvh';

export { EDGE_ACTIVE_SHIFT, type MeshTriangles, VERTEX_ACTIVE_SHIFT };

/** Result of `TriangleMesh.raycastLocal`. */
export class MeshRayHit {
  /** Hit distance in units of |dir| (the hit point is origin + t·dir). */
  t = 0;
  /** Index of the triangle hit (-1 when none). */
  triangle = -1;
  /** Unit face normal of the hit triangle, turned to face the ray (n·dir ≤ 0). */
  readonly normal: Vec3 = { x: 0, y: 0, z: 0 };
}

/** Options of a {@link TriangleMesh}. */
export interface TriangleMeshOptions {
  /**
   * Collide with both sides of every triangle. Default false: a triangle's
   * front is the side its corners a, b, c run counter-clockwise seen from
   * (normal (b − a) × (c − a)), and a body behind a triangle is pushed out
   * through its front; rays and shape casts pass through back faces.
   * Set it for open surfaces meant to be met from both sides, or whose
   * winding is unknown (docs/collision.md, "Triangle meshes: one side or two").
   */
  doubleSided?: boolean;
}

/** Dihedral bend (degrees) below which a convex edge counts as flat (inactive). */
export const INACTIVE_EDGE_DEGREES = 2;
const FLAT_EDGE_COS = Math.cos((INACTIVE_EDGE_DEGREES * Math.PI) / 180);

export class TriangleMesh extends Shape implements MeshTriangles {
  readonly kind = ShapeKind.TriangleMesh;
  readonly isConvex = false;
  /** Vertex positions (x, y, z per vertex), local frame, metres. */
  readonly vertices: Float64Array;
  /** Three vertex indices per kept (non-degenerate) triangle. */
  readonly indices: Uint32Array;
  readonly triangleCount: number;
  /** Corners per triangle (9 numbers: a, b, c), a cache for the colliders. */
  readonly corners: Float64Array;
  /** Unit face normal per triangle (front = counter-clockwise a→b→c). */
  readonly normals: Float64Array;
  /** Per triangle: bits 0..2 edge k active, bits 3..5 corner k active. */
  readonly featureFlags: Uint8Array;
  /** Neighbouring triangle across edge k (3 per triangle), -1 when none or non-manifold. */
  readonly edgeNeighbors: Int32Array;
  /** Both sides of each triangle collide (see {@link TriangleMeshOptions}). */
  readonly doubleSided: boolean;

  // BVH: node i has bounds nodeBounds[6i .. 6i+5] (min xyz, max xyz); a leaf has
  // nodeCount > 0 and covers order[nodeStart .. nodeStart + nodeCount); an
  // inner node's left child is i + 1 and its right child nodeRight[i].
  private readonly nodeBounds: Float64Array;
  private readonly nodeRight: Int32Array;
  private readonly nodeStart: Int32Array;
  private readonly nodeCount: Int32Array;
  private readonly order: Uint32Array;
  private readonly triBounds: Float64Array;
  private readonly stack: Int32Array;
  /** Scratch box for queryBounds. */
  private readonly queryBox = new Float64Array(6);
  private readonly stackT: Float64Array;

  constructor(positions: Float32Array | Float64Array | number[], indices: Uint32Array | Uint16Array | number[], options: TriangleMeshOptions = {}) {
    super();
    addTriangleMeshPairs();
    addTriangleMeshCasts();
    if (options === null || typeof options !== 'object') throw new TypeError('TriangleMesh.options must be an object');
    const doubleSided = options.doubleSided ?? false;
    if (typeof doubleSided !== 'boolean') throw new TypeError(`TriangleMesh.options.doubleSided must be a boolean (got ${String(doubleSided)})`);
    this.doubleSided = doubleSided;
    if (positions === null || typeof positions !== 'object' || typeof positions.length !== 'number') {
      throw new TypeError('TriangleMesh.positions must be an array of numbers');
    }
    if (indices === null || typeof indices !== 'object' || typeof indices.length !== 'number') {
      throw new TypeError('TriangleMesh.indices must be an array of integers');
    }
    if (positions.length % 3 !== 0) {
      throw new RangeError(`TriangleMesh.positions length must be a multiple of 3 (got ${positions.length})`);
    }
    const vertexCount = positions.length / 3;
    const vertices = new Float64Array(positions.length);
    for (let i = 0; i < positions.length; i++) {
      const v = positions[i]!;
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new RangeError(`TriangleMesh.positions[${i}] must be a finite number (got ${String(v)})`);
      }
      // Beyond this the cross products of the area test and the narrowphase overflow.
      if (Math.abs(v) > MAX_SHAPE_SIZE) {
        throw new RangeError(`TriangleMesh.positions[${i}] must be within ±${MAX_SHAPE_SIZE} m (got ${v})`);
      }
      vertices[i] = v;
    }
    if (indices.length % 3 !== 0) {
      throw new RangeError(`TriangleMesh.indices length must be a multiple of 3 (got ${indices.length})`);
    }
    for (let i = 0; i < indices.length; i++) {
      const v = indices[i]!;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= vertexCount) {
        throw new RangeError(`TriangleMesh.indices[${i}] must be an integer in [0, ${vertexCount - 1}] (got ${String(v)})`);
      }
    }

    // Drop zero-area triangles: |(b - a) × (c - a)| tiny against the longest edge².
    const inputTriangles = indices.length / 3;
    const kept = new Uint32Array(indices.length);
    let n = 0;
    for (let t = 0; t < inputTriangles; t++) {
      const ia = indices[3 * t]!, ib = indices[3 * t + 1]!, ic = indices[3 * t + 2]!;
      if (ia === ib || ib === ic || ic === ia) continue;
      const abx = vertices[3 * ib]! - vertices[3 * ia]!, aby = vertices[3 * ib + 1]! - vertices[3 * ia + 1]!, abz = vertices[3 * ib + 2]! - vertices[3 * ia + 2]!;
      const acx = vertices[3 * ic]! - vertices[3 * ia]!, acy = vertices[3 * ic + 1]! - vertices[3 * ia + 1]!, acz = vertices[3 * ic + 2]! - vertices[3 * ia + 2]!;
      const cx = aby * acz - abz * acy, cy = abz * acx - abx * acz, cz = abx * acy - aby * acx;
      const area2 = Math.sqrt(cx * cx + cy * cy + cz * cz);
      const bcx = acx - abx, bcy = acy - aby, bcz = acz - abz;
      const longest = Math.max(abx * abx + aby * aby + abz * abz, acx * acx + acy * acy + acz * acz, bcx * bcx + bcy * bcy + bcz * bcz);
      if (!(area2 > 1e-12 * longest) || area2 === 0) continue;
      kept[3 * n] = ia;
      kept[3 * n + 1] = ib;
      kept[3 * n + 2] = ic;
      n++;
    }
    if (n === 0) {
      throw new RangeError('TriangleMesh.indices: degenerate mesh (no triangle with non-zero area)');
    }
    this.vertices = vertices;
    this.indices = kept.slice(0, 3 * n);
    this.triangleCount = n;

    const corners = new Float64Array(9 * n);
    const normals = new Float64Array(3 * n);
    const triBounds = new Float64Array(6 * n);
    for (let t = 0; t < n; t++) {
      for (let k = 0; k < 3; k++) {
        const v = this.indices[3 * t + k]!;
        corners[9 * t + 3 * k] = vertices[3 * v]!;
        corners[9 * t + 3 * k + 1] = vertices[3 * v + 1]!;
        corners[9 * t + 3 * k + 2] = vertices[3 * v + 2]!;
      }
      const o = 9 * t;
      const abx = corners[o + 3]! - corners[o]!, aby = corners[o + 4]! - corners[o + 1]!, abz = corners[o + 5]! - corners[o + 2]!;
      const acx = corners[o + 6]! - corners[o]!, acy = corners[o + 7]! - corners[o + 1]!, acz = corners[o + 8]! - corners[o + 2]!;
      const cx = aby * acz - abz * acy, cy = abz * acx - abx * acz, cz = abx * acy - aby * acx;
      const inv = 1 / Math.sqrt(cx * cx + cy * cy + cz * cz);
      normals[3 * t] = cx * inv;
      normals[3 * t + 1] = cy * inv;
      normals[3 * t + 2] = cz * inv;
      for (let axis = 0; axis < 3; axis++) {
        const a = corners[o + axis]!, b = corners[o + 3 + axis]!, c = corners[o + 6 + axis]!;
        triBounds[6 * t + axis] = Math.min(a, b, c);
        triBounds[6 * t + 3 + axis] = Math.max(a, b, c);
      }
    }
    this.corners = corners;
    this.normals = normals;
    this.triBounds = triBounds;

    const neighbors = new Int32Array(3 * n).fill(-1);
    this.featureFlags = classifyEdges(vertices, vertexCount, this.indices, n, corners, normals, neighbors, doubleSided);
    this.edgeNeighbors = neighbors;

    const builder = buildMeshBvh(triBounds, n);
    const nodes = builder.nodeCount;
    this.nodeBounds = builder.bounds.slice(0, 6 * nodes);
    this.nodeRight = builder.right.slice(0, nodes);
    this.nodeStart = builder.start.slice(0, nodes);
    this.nodeCount = builder.count.slice(0, nodes);
    this.order = builder.order;
    // Depth-first traversal keeps at most one pending sibling per level.
    this.stack = new Int32Array(builder.maxDepth + 2);
    this.stackT = new Float64Array(builder.maxDepth + 2);
    lockShapeFields(this);
  }

  neighborFarCorner(t: number, k: number, out: Float64Array): boolean {
    const u = this.edgeNeighbors[3 * t + k]!;
    if (u < 0) return false;
    const C = this.corners, a = 9 * t + 3 * k, b = 9 * t + 3 * (k === 2 ? 0 : k + 1);
    // Welded corners share their exact position: the far one matches neither end of the edge.
    for (let c = 0; c < 3; c++) {
      const o = 9 * u + 3 * c;
      const x = C[o]!, y = C[o + 1]!, z = C[o + 2]!;
      if ((x === C[a] && y === C[a + 1] && z === C[a + 2]) || (x === C[b] && y === C[b + 1] && z === C[b + 2])) continue;
      out[0] = x; out[1] = y; out[2] = z;
      return true;
    }
    return false;
  }

  /** Local corners of triangle i. */
  getTriangle(i: number, a: Vec3, b: Vec3, c: Vec3): void {
    const o = 9 * i;
    const p = this.corners;
    a.x = p[o]!; a.y = p[o + 1]!; a.z = p[o + 2]!;
    b.x = p[o + 3]!; b.y = p[o + 4]!; b.z = p[o + 5]!;
    c.x = p[o + 6]!; c.y = p[o + 7]!; c.z = p[o + 8]!;
  }

  /** Unit normal of triangle i (front side: a→b→c counter-clockwise). */
  getTriangleNormal(i: number, out: Vec3): Vec3 {
    out.x = this.normals[3 * i]!;
    out.y = this.normals[3 * i + 1]!;
    out.z = this.normals[3 * i + 2]!;
    return out;
  }

  /** Number of BVH nodes (for tests and diagnostics). */
  get nodeTotal(): number {
    return this.nodeCount.length;
  }

  /**
   * Appends to `out` the indices of the triangles whose bounds overlap
   * `localBox` (closed intervals) and returns how many were appended.
   */
  queryAabb(localBox: Readonly<Aabb>, out: number[]): number {
    return this.queryBounds(localBox.min.x, localBox.min.y, localBox.min.z, localBox.max.x, localBox.max.y, localBox.max.z, out, out.length);
  }

  /**
   * Writes the overlapping triangle indices to out[start], out[start + 1], …
   * and returns the count. Colliders call it with start 0 on a list they keep,
   * so the array never shrinks and steady-state queries do not allocate.
   */
  queryBounds(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, out: number[], start: number): number {
    const q = this.queryBox;
    q[0] = minX; q[1] = minY; q[2] = minZ; q[3] = maxX; q[4] = maxY; q[5] = maxZ;
    return this.queryBoundsFrom(q, out, start);
  }

  /**
   * {@link queryBounds} with the box read from `bounds` = [minX, minY, minZ,
   * maxX, maxY, maxZ]: the colliders' per-step entry (no double arguments).
   */
  queryBoundsFrom(bounds: Float64Array, out: number[], start: number): number {
    return queryBvh(this.nodeBounds, this.nodeRight, this.nodeStart, this.nodeCount, this.order, this.triBounds, this.stack, bounds, out, start);
  }

  /**
   * Closest hit of the segment origin + t·dir, t ∈ [0, maxT], against the
   * front of every triangle (both sides when `doubleSided`). Fills `hit` and
   * returns true on a hit.
   */
  raycastLocal(origin: Readonly<Vec3>, dir: Readonly<Vec3>, maxT: number, hit: MeshRayHit): boolean {
    const ox = origin.x, oy = origin.y, oz = origin.z;
    const dx = dir.x, dy = dir.y, dz = dir.z;
    const ix = 1 / dx, iy = 1 / dy, iz = 1 / dz;
    const nb = this.nodeBounds;
    const stack = this.stack;
    const stackT = this.stackT;
    const p = this.corners;
    const doubleSided = this.doubleSided;
    let best = maxT;
    let bestTri = -1;
    let sp = 0;
    const rootT = slabEntry(nb, 0, ox, oy, oz, ix, iy, iz, best);
    if (rootT < 0) return false;
    stack[sp] = 0;
    stackT[sp++] = rootT;
    while (sp > 0) {
      sp--;
      const node = stack[sp]!;
      if (stackT[sp]! > best) continue;
      const leafCount = this.nodeCount[node]!;
      if (leafCount > 0) {
        const first = this.nodeStart[node]!;
        for (let k = first; k < first + leafCount; k++) {
          const tri = this.order[k]!;
          const o = 9 * tri;
          // Möller–Trumbore (1997): solve o + t d = a + u e1 + v e2 by Cramer's
          // rule with pvec = d × e2, det = e1 · pvec = −d · (e1 × e2), so
          // det > 0 when the ray meets the front face.
          const ax = p[o]!, ay = p[o + 1]!, az = p[o + 2]!;
          const e1x = p[o + 3]! - ax, e1y = p[o + 4]! - ay, e1z = p[o + 5]! - az;
          const e2x = p[o + 6]! - ax, e2y = p[o + 7]! - ay, e2z = p[o + 8]! - az;
          const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
          const det = e1x * px + e1y * py + e1z * pz;
          if (det === 0 || (det < 0 && !doubleSided)) continue;
          const inv = 1 / det;
          const sx = ox - ax, sy = oy - ay, sz = oz - az;
          const u = (sx * px + sy * py + sz * pz) * inv;
          if (u < 0 || u > 1) continue;
          const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
          const v = (dx * qx + dy * qy + dz * qz) * inv;
          if (v < 0 || u + v > 1) continue;
          const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
          if (t < 0 || t > best) continue;
          if (t === best && bestTri >= 0) continue;
          best = t;
          bestTri = tri;
        }
      } else {
        const left = node + 1;
        const right = this.nodeRight[node]!;
        const tl = slabEntry(nb, left, ox, oy, oz, ix, iy, iz, best);
        const tr = slabEntry(nb, right, ox, oy, oz, ix, iy, iz, best);
        // Push the farther child first so the nearer one is popped first.
        if (tl >= 0 && tr >= 0) {
          if (tl <= tr) {
            stack[sp] = right; stackT[sp++] = tr;
            stack[sp] = left; stackT[sp++] = tl;
          } else {
            stack[sp] = left; stackT[sp++] = tl;
            stack[sp] = right; stackT[sp++] = tr;
          }
        } else if (tl >= 0) {
          stack[sp] = left; stackT[sp++] = tl;
        } else if (tr >= 0) {
          stack[sp] = right; stackT[sp++] = tr;
        }
      }
    }
    if (bestTri < 0) return false;
    hit.t = best;
    hit.triangle = bestTri;
    let nx = this.normals[3 * bestTri]!, ny = this.normals[3 * bestTri + 1]!, nz = this.normals[3 * bestTri + 2]!;
    if (nx * dx + ny * dy + nz * dz > 0) {
      nx = -nx; ny = -ny; nz = -nz;
    }
    hit.normal.x = nx;
    hit.normal.y = ny;
    hit.normal.z = nz;
    return true;
  }

  computeAabb(out: Aabb, position: Readonly<Vec3>, q: Readonly<Quat>): Aabb {
    rotatedBoxAabb(out, this.nodeBounds, 0, position, q);
    return out;
  }


  volume(): number {
    return 0;
  }
}

/** Entry t of the ray into node `node`'s box within [0, maxT], or -1 on a miss (Kay–Kajiya slabs). */
function slabEntry(nb: Float64Array, node: number, ox: number, oy: number, oz: number, ix: number, iy: number, iz: number, maxT: number): number {
  const b = 6 * node;
  let t0 = 0;
  let t1 = maxT;
  // With 1/0 = ±∞ a parallel slab gives ±∞ bounds (or NaN when the origin
  // sits exactly on it; the comparisons below then keep the interval).
  let ta = (nb[b]! - ox) * ix, tb = (nb[b + 3]! - ox) * ix;
  if (ta > tb) { const s = ta; ta = tb; tb = s; }
  if (ta > t0) t0 = ta;
  if (tb < t1) t1 = tb;
  ta = (nb[b + 1]! - oy) * iy; tb = (nb[b + 4]! - oy) * iy;
  if (ta > tb) { const s = ta; ta = tb; tb = s; }
  if (ta > t0) t0 = ta;
  if (tb < t1) t1 = tb;
  ta = (nb[b + 2]! - oz) * iz; tb = (nb[b + 5]! - oz) * iz;
  if (ta > tb) { const s = ta; ta = tb; tb = s; }
  if (ta > t0) t0 = ta;
  if (tb < t1) t1 = tb;
  return t0 <= t1 ? t0 : -1;
}

/**
 * Fills `neighbors` and returns the per-triangle active-feature flags. Edges
 * are matched on welded vertex ids (vertices at the exact same position).
 */
function classifyEdges(
  vertices: Float64Array,
  vertexCount: number,
  indices: Uint32Array,
  n: number,
  corners: Float64Array,
  normals: Float64Array,
  neighbors: Int32Array,
  doubleSided: boolean,
): Uint8Array {
  // Weld: sort vertex ids by position, equal runs share the smallest id.
  const sorted = new Uint32Array(vertexCount);
  for (let i = 0; i < vertexCount; i++) sorted[i] = i;
  sorted.sort((a, b) => vertices[3 * a]! - vertices[3 * b]! || vertices[3 * a + 1]! - vertices[3 * b + 1]! || vertices[3 * a + 2]! - vertices[3 * b + 2]! || a - b);
  const weld = new Uint32Array(vertexCount);
  for (let i = 0; i < vertexCount; i++) {
    const v = sorted[i]!;
    if (i > 0) {
      const u = sorted[i - 1]!;
      if (vertices[3 * u] === vertices[3 * v] && vertices[3 * u + 1] === vertices[3 * v + 1] && vertices[3 * u + 2] === vertices[3 * v + 2]) {
        weld[v] = weld[u]!;
        continue;
      }
    }
    weld[v] = v;
  }

  const active = new Uint8Array(3 * n); // 1 = active
  const firstSlot = new Map<number, number>();
  const nonManifold = new Uint8Array(3 * n);
  for (let t = 0; t < n; t++) {
    for (let k = 0; k < 3; k++) {
      const a = weld[indices[3 * t + k]!]!;
      const b = weld[indices[3 * t + ((k + 1) % 3)]!]!;
      const key = a < b ? a * vertexCount + b : b * vertexCount + a;
      const slot = 3 * t + k;
      const other = firstSlot.get(key);
      if (other === undefined) {
        firstSlot.set(key, slot);
      } else if (other < 0) {
        nonManifold[slot] = 1; // third or later triangle on this edge
      } else if (neighbors[other] === -1 && nonManifold[other] === 0) {
        neighbors[other] = t;
        neighbors[slot] = (other / 3) | 0;
      } else {
        // A third triangle: the edge is non-manifold for everyone on it.
        const u = neighbors[other]!;
        nonManifold[other] = 1;
        nonManifold[slot] = 1;
        if (u >= 0) {
          for (let j = 0; j < 3; j++) if (neighbors[3 * u + j] === ((other / 3) | 0)) { neighbors[3 * u + j] = -1; nonManifold[3 * u + j] = 1; }
        }
        neighbors[other] = -1;
        firstSlot.set(key, -1);
      }
    }
  }

  const flags = new Uint8Array(n);
  for (let t = 0; t < n; t++) {
    for (let k = 0; k < 3; k++) {
      const slot = 3 * t + k;
      const u = neighbors[slot]!;
      let isActive = true;
      if (u >= 0 && nonManifold[slot] === 0) {
        const a = weld[indices[3 * t + k]!]!;
        const b = weld[indices[3 * t + ((k + 1) % 3)]!]!;
        // Consistent winding: the neighbour runs the shared edge b → a.
        let consistent = false;
        let opposite = -1;
        for (let j = 0; j < 3; j++) {
          const ua = weld[indices[3 * u + j]!]!;
          const ub = weld[indices[3 * u + ((j + 1) % 3)]!]!;
          if (ua === b && ub === a) consistent = true;
          if (ua !== a && ua !== b) opposite = j;
        }
        if ((consistent || doubleSided) && opposite >= 0) {
          const nx = normals[3 * t]!, ny = normals[3 * t + 1]!, nz = normals[3 * t + 2]!;
          // Double-sided, a neighbour wound the other way has its normal reversed.
          const cos = (consistent ? 1 : -1) * (nx * normals[3 * u]! + ny * normals[3 * u + 1]! + nz * normals[3 * u + 2]!);
          // The neighbour's far corner above our plane → concave; below → convex.
          const o = 9 * u + 3 * opposite;
          const p = 9 * t + 3 * k;
          const height = (corners[o]! - corners[p]!) * nx + (corners[o + 1]! - corners[p + 1]!) * ny + (corners[o + 2]! - corners[p + 2]!) * nz;
          const flat = cos >= FLAT_EDGE_COS;
          const concave = height >= 0;
          // A bend that is concave from one side is convex from the other: on a
          // double-sided mesh only flat edges are inactive.
          isActive = doubleSided ? !flat : !(flat || concave);
        }
      }
      active[slot] = isActive ? 1 : 0;
    }
    let f = 0;
    for (let k = 0; k < 3; k++) {
      if (active[3 * t + k]) f |= 1 << (EDGE_ACTIVE_SHIFT + k);
      // Corner k touches edges k (k → k+1) and k+2 (k+2 → k).
      if (active[3 * t + k] || active[3 * t + ((k + 2) % 3)]) f |= 1 << (VERTEX_ACTIVE_SHIFT + k);
    }
    flags[t] = f;
  }
  return flags;
}
