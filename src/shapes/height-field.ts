/**
 * A static height field (terrain): a grid of rows × columns heights, stored
 * as one Float64 per sample plus one byte per cell (memory proportional to the
 * samples, no triangle list).
 *
 * Layout: sample (r, c) = samples[r · columns + c] sits at local
 *   x = (c − (columns − 1)/2) · scale.x,  y = sample · scale.y,
 *   z = (r − (rows − 1)/2) · scale.z,
 * so the grid is centred on the body's position, rows along +Z and columns
 * along +X (Babylon's CreateGroundFromHeightMap layout: see
 * src/babylon/colliders.ts). Cell (r, c) spans samples (r, c) … (r + 1, c + 1)
 * and is split along its (r, c)–(r + 1, c + 1) diagonal into triangle 2k
 * (corners (r, c), (r + 1, c), (r + 1, c + 1)) and 2k + 1 ((r, c),
 * (r + 1, c + 1), (r, c + 1)), k = r · (columns − 1) + c; both face +Y.
 * {@link HeightField.toTriangleMesh} builds the same triangles as a TriangleMesh.
 *
 * Holes: a NaN sample removes every cell touching it; `holes` (one flag per
 * cell) removes cells too. A hole's border edges are open (active) edges.
 *
 * Contacts reuse the TriangleMesh colliders unchanged: the field hands them
 * a {@link HeightFieldPatch}, the triangles under the query box generated on
 * the fly with the same active-edge flags a TriangleMesh of the same terrain
 * would compute (triangle-mesh.ts), so a body meets the same surface.
 */
import { rotatedBoxAabb, type Aabb } from '../collision/aabb';
import { addHeightFieldPairs } from '../collision/narrowphase/dispatch';
import { addHeightFieldCasts } from '../collision/query/shape-cast';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { MAX_SHAPE_SIZE, MIN_SHAPE_SIZE } from '../math/validate';
import type { HeightFieldGeometry } from './geometry';
import { lockShapeFields, Shape, ShapeKind } from './shape';
import { EDGE_ACTIVE_SHIFT, INACTIVE_EDGE_DEGREES, MeshRayHit, type MeshTriangles, TriangleMesh, VERTEX_ACTIVE_SHIFT } from './triangle-mesh';

/** Options of a {@link HeightField}. */
export interface HeightFieldOptions {
  /** One flag per cell ((rows − 1) · (columns − 1), row-major): true or non-zero removes the cell. Default none. */
  holes?: ArrayLike<boolean | number>;
}

const FLAT_EDGE_COS = Math.cos((INACTIVE_EDGE_DEGREES * Math.PI) / 180);
/** Triangle ids reach the contact feature ids as triangle · 128 + code < 2³² (triangle-contact.ts). */
const MAX_TRIANGLES = 2 ** 25;

/**
 * The triangles of a HeightField under one query box, in the layout the
 * TriangleMesh colliders read (slot i: corners[9i..], normals[3i..],
 * featureFlags[i]); `triangleIds[i]` is the field's triangle index of slot i.
 * Owned by its field and overwritten by the next query.
 */
export class HeightFieldPatch implements MeshTriangles {
  corners = new Float64Array(9 * 64);
  normals = new Float64Array(3 * 64);
  featureFlags = new Uint8Array(64);
  triangleIds = new Int32Array(64);
  readonly doubleSided = false;
  count = 0;
  constructor(private readonly field: HeightField) {}

  queryBoundsFrom(bounds: Float64Array, out: number[], start: number): number {
    this.field.fillPatch(this, bounds);
    const n = this.count;
    for (let i = 0; i < n; i++) out[start + i] = i;
    return n;
  }

  neighborFarCorner(t: number, k: number, out: Float64Array): boolean {
    return this.field.neighborFarCorner(this.triangleIds[t]!, k, out);
  }

  /** Room for `n` triangles (grows by doubling; a steady query size allocates nothing). */
  reserve(n: number): void {
    if (n <= this.triangleIds.length) return;
    let cap = this.triangleIds.length;
    while (cap < n) cap *= 2;
    const corners = new Float64Array(9 * cap); corners.set(this.corners); this.corners = corners;
    const normals = new Float64Array(3 * cap); normals.set(this.normals); this.normals = normals;
    const flags = new Uint8Array(cap); flags.set(this.featureFlags); this.featureFlags = flags;
    const ids = new Int32Array(cap); ids.set(this.triangleIds); this.triangleIds = ids;
  }
}

// Structurally a HeightFieldGeometry, checked below (not declared: the published types leave out its internal patch).
export class HeightField extends Shape {
  readonly kind = ShapeKind.HeightField;
  readonly isConvex = false;
  readonly rows: number;
  readonly columns: number;
  readonly scale: Readonly<Vec3>;
  /** Local heights (sample · scale.y), row-major; NaN marks a hole. */
  readonly heights: Float64Array;
  /** Per cell: 1 when the cell is a hole (NaN corner or the `holes` option). */
  readonly cellHoles: Uint8Array;
  /** Local bounds: min xyz, max xyz. */
  readonly localBounds: Float64Array;
  /** @internal the colliders' and shape casts' view of the triangles under a box */
  readonly patch: HeightFieldPatch;
  /** Scratch: 9 corners + normal of a neighbour triangle. */
  private readonly scratch = new Float64Array(12);
  /** Scratch of raycastLocal: origin, direction, and the hit t out (doubles cross calls through arrays, not arguments). */
  private readonly ray = new Float64Array(7);

  constructor(samples: ArrayLike<number>, rows: number, columns: number, scale: Readonly<Vec3>, options: HeightFieldOptions = {}) {
    super();
    addHeightFieldPairs();
    addHeightFieldCasts();
    if (!Number.isInteger(rows) || rows < 2) throw new RangeError(`HeightField.rows must be an integer ≥ 2 (got ${String(rows)})`);
    if (!Number.isInteger(columns) || columns < 2) throw new RangeError(`HeightField.columns must be an integer ≥ 2 (got ${String(columns)})`);
    if (2 * (rows - 1) * (columns - 1) > MAX_TRIANGLES) throw new RangeError(`HeightField: ${rows} × ${columns} samples give more than ${MAX_TRIANGLES} triangles`);
    if (samples === null || typeof samples !== 'object' || typeof samples.length !== 'number') throw new TypeError('HeightField.samples must be an array of numbers');
    if (samples.length !== rows * columns) throw new RangeError(`HeightField.samples must hold rows × columns = ${rows * columns} numbers (got ${samples.length})`);
    if (scale === null || typeof scale !== 'object') throw new TypeError('HeightField.scale must be a { x, y, z } object');
    for (const axis of ['x', 'y', 'z'] as const) {
      const v = scale[axis];
      // The cell sizes (x, z) are shape sizes: below MIN_SHAPE_SIZE the contact
      // normals of a cell divide by its size squared and come out NaN. y only scales the samples.
      const cell = axis !== 'y';
      if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || (cell && v < MIN_SHAPE_SIZE) || v > MAX_SHAPE_SIZE) {
        throw new RangeError(`HeightField.scale.${axis} must be a finite number in ${cell ? `[${MIN_SHAPE_SIZE}` : '(0'}, ${MAX_SHAPE_SIZE}] (got ${String(v)})`);
      }
    }
    if (options === null || typeof options !== 'object') throw new TypeError('HeightField.options must be an object');
    const cellCount = (rows - 1) * (columns - 1);
    if (options.holes !== undefined && (options.holes === null || typeof options.holes !== 'object' || options.holes.length !== cellCount)) {
      throw new RangeError(`HeightField.options.holes must hold one flag per cell, (rows − 1) × (columns − 1) = ${cellCount}`);
    }
    this.rows = rows;
    this.columns = columns;
    this.scale = Object.freeze({ x: scale.x, y: scale.y, z: scale.z });
    const heights = new Float64Array(rows * columns);
    let minY = Infinity, maxY = -Infinity;
    for (let i = 0; i < heights.length; i++) {
      const v = samples[i]!;
      if (typeof v !== 'number' || v === Infinity || v === -Infinity) throw new RangeError(`HeightField.samples[${i}] must be a finite number or NaN for a hole (got ${String(v)})`);
      const h = v * scale.y;
      if (Math.abs(h) > MAX_SHAPE_SIZE) throw new RangeError(`HeightField.samples[${i}] · scale.y must be within ±${MAX_SHAPE_SIZE} m (got ${h})`);
      heights[i] = h;
      if (h < minY) minY = h;
      if (h > maxY) maxY = h;
    }
    const holes = new Uint8Array(cellCount);
    let solid = 0;
    for (let r = 0; r < rows - 1; r++) {
      for (let c = 0; c < columns - 1; c++) {
        const k = r * (columns - 1) + c;
        const i = r * columns + c;
        const nan = Number.isNaN(heights[i]!) || Number.isNaN(heights[i + 1]!) || Number.isNaN(heights[i + columns]!) || Number.isNaN(heights[i + columns + 1]!);
        const flag = options.holes?.[k];
        // A flag is true/false or 1/0: a string or NaN would be read by its truthiness ('no' a hole, NaN none).
        if (options.holes !== undefined && flag !== true && flag !== false && flag !== 1 && flag !== 0) {
          throw new RangeError(`HeightField.options.holes[${k}] must be true, false, 1 or 0 (got ${typeof flag === 'string' ? `'${flag}'` : String(flag)})`);
        }
        const flagged = flag === true || flag === 1;
        holes[k] = nan || flagged ? 1 : 0;
        if (!holes[k]) solid++;
      }
    }
    if (solid === 0) throw new RangeError('HeightField: every cell is a hole');
    this.heights = heights;
    this.cellHoles = holes;
    const hx = 0.5 * (columns - 1) * scale.x, hz = 0.5 * (rows - 1) * scale.z;
    // A flat field still gets a thickness for the broadphase.
    if (maxY - minY < 1e-6) { minY -= 5e-7; maxY += 5e-7; }
    this.localBounds = Float64Array.of(-hx, minY, -hz, hx, maxY, hz);
    this.patch = new HeightFieldPatch(this);
    lockShapeFields(this);
  }

  /** Bytes held per sample (heights, hole flags and the patch scratch, amortised). */
  get bytesPerSample(): number {
    const p = this.patch;
    const bytes = this.heights.byteLength + this.cellHoles.byteLength + this.localBounds.byteLength +
      p.corners.byteLength + p.normals.byteLength + p.featureFlags.byteLength + p.triangleIds.byteLength;
    return bytes / (this.rows * this.columns);
  }

  /** Local x of column c. */
  columnX(c: number): number {
    return (c - 0.5 * (this.columns - 1)) * this.scale.x;
  }

  /** Local z of row r. */
  rowZ(r: number): number {
    return (r - 0.5 * (this.rows - 1)) * this.scale.z;
  }

  /**
   * Corners of field triangle t (9 numbers) into out[o..o+8]; returns false
   * for a hole or a triangle outside the grid.
   */
  triangleCorners(t: number, out: Float64Array, o: number): boolean {
    const cols = this.columns - 1;
    const cell = t >> 1;
    const r = Math.floor(cell / cols), c = cell - r * cols;
    if (r < 0 || r >= this.rows - 1 || this.cellHoles[cell] === 1) return false;
    const n = this.columns;
    const h = this.heights;
    // Written out (not columnX / rowZ): a double returned from a call V8 does not inline is boxed.
    const sx = this.scale.x, sz = this.scale.z;
    const x0 = (c - 0.5 * (n - 1)) * sx, x1 = x0 + sx, z0 = (r - 0.5 * (this.rows - 1)) * sz, z1 = z0 + sz;
    const i = r * n + c;
    out[o] = x0; out[o + 1] = h[i]!; out[o + 2] = z0;
    if ((t & 1) === 0) {
      out[o + 3] = x0; out[o + 4] = h[i + n]!; out[o + 5] = z1;
      out[o + 6] = x1; out[o + 7] = h[i + n + 1]!; out[o + 8] = z1;
    } else {
      out[o + 3] = x1; out[o + 4] = h[i + n + 1]!; out[o + 5] = z1;
      out[o + 6] = x1; out[o + 7] = h[i + 1]!; out[o + 8] = z0;
    }
    return true;
  }

  /**
   * Neighbour of triangle t across its edge k (see the header's corner
   * order), or −1 at the border or a hole. Triangle 2k: edge 0 the cell's −X
   * side, 1 its +Z side, 2 the diagonal; 2k + 1: 0 the diagonal, 1 the +X
   * side, 2 the −Z side.
   */
  neighbor(t: number, k: number): number {
    const cols = this.columns - 1;
    const cell = t >> 1;
    const r = Math.floor(cell / cols), c = cell - r * cols;
    let nr = r, nc = c, odd: number;
    if ((t & 1) === 0) {
      if (k === 0) { nc = c - 1; odd = 1; } else if (k === 1) { nr = r + 1; odd = 1; } else odd = 1;
    } else if (k === 0) odd = 0;
    else if (k === 1) { nc = c + 1; odd = 0; } else { nr = r - 1; odd = 0; }
    if (nr < 0 || nc < 0 || nr >= this.rows - 1 || nc >= cols) return -1;
    const ncell = nr * cols + nc;
    if (this.cellHoles[ncell] === 1) return -1;
    return 2 * ncell + odd;
  }

  /**
   * Fills `patch` with the triangles whose bounds meet `bounds` (local box
   * [minX, minY, minZ, maxX, maxY, maxZ]): corners, unit normals and the
   * active-edge flags of triangle-mesh.ts.
   */
  fillPatch(patch: HeightFieldPatch, bounds: Float64Array): void {
    patch.count = 0;
    const minX = bounds[0]!, minY = bounds[1]!, minZ = bounds[2]!, maxX = bounds[3]!, maxY = bounds[4]!, maxZ = bounds[5]!;
    const lb = this.localBounds;
    if (maxX < lb[0]! || minX > lb[3]! || maxY < lb[1]! || minY > lb[4]! || maxZ < lb[2]! || minZ > lb[5]!) return;
    const sx = this.scale.x, sz = this.scale.z;
    const cols = this.columns - 1, rowsN = this.rows - 1;
    const c0 = Math.max(0, Math.floor((minX - lb[0]!) / sx)), c1 = Math.min(cols - 1, Math.floor((maxX - lb[0]!) / sx));
    const r0 = Math.max(0, Math.floor((minZ - lb[2]!) / sz)), r1 = Math.min(rowsN - 1, Math.floor((maxZ - lb[2]!) / sz));
    if (c1 < c0 || r1 < r0) return;
    patch.reserve(2 * (c1 - c0 + 1) * (r1 - r0 + 1));
    const P = patch.corners;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * cols + c;
        if (this.cellHoles[cell] === 1) continue;
        for (let odd = 0; odd < 2; odd++) {
          const t = 2 * cell + odd;
          const slot = patch.count;
          const o = 9 * slot;
          this.triangleCorners(t, P, o);
          const ty0 = Math.min(P[o + 1]!, P[o + 4]!, P[o + 7]!), ty1 = Math.max(P[o + 1]!, P[o + 4]!, P[o + 7]!);
          if (ty0 > maxY || ty1 < minY) continue;
          writeNormal(P, o, patch.normals, 3 * slot);
          patch.featureFlags[slot] = this.featureFlagsOf(t, P, o, patch.normals, 3 * slot);
          patch.triangleIds[slot] = t;
          patch.count++;
        }
      }
    }
  }

  /** MeshTriangles.neighborFarCorner for field triangle t. */
  neighborFarCorner(t: number, k: number, out: Float64Array): boolean {
    const u = this.neighbor(t, k);
    if (u < 0) return false;
    const S = this.scratch;
    this.triangleCorners(u, S, 0);
    const f = 3 * farCorner(t, k);
    out[0] = S[f]!; out[1] = S[f + 1]!; out[2] = S[f + 2]!;
    return true;
  }

  /** Active-edge flags of triangle t (corners at P[o..], normal at N[no..]), by TriangleMesh's rule for a one-sided mesh. */
  private featureFlagsOf(t: number, P: Float64Array, o: number, N: Float64Array, no: number): number {
    const nx = N[no]!, ny = N[no + 1]!, nz = N[no + 2]!;
    const S = this.scratch;
    let edges = 0;
    for (let k = 0; k < 3; k++) {
      const u = this.neighbor(t, k);
      let active = true;
      if (u >= 0) {
        this.triangleCorners(u, S, 0);
        writeNormal(S, 0, S, 9);
        const cos = nx * S[9]! + ny * S[10]! + nz * S[11]!;
        // The neighbour's corner off the shared edge: the one not on edge k's line.
        const far = farCorner(t, k);
        const p = o + 3 * k;
        const height = (S[3 * far]! - P[p]!) * nx + (S[3 * far + 1]! - P[p + 1]!) * ny + (S[3 * far + 2]! - P[p + 2]!) * nz;
        active = !(cos >= FLAT_EDGE_COS || height >= 0);
      }
      if (active) edges |= 1 << k;
    }
    let f = 0;
    for (let k = 0; k < 3; k++) {
      if (edges & (1 << k)) f |= 1 << (EDGE_ACTIVE_SHIFT + k);
      if (edges & (1 << k) || edges & (1 << ((k + 2) % 3))) f |= 1 << (VERTEX_ACTIVE_SHIFT + k);
    }
    return f;
  }

  /**
   * Closest hit of origin + t·dir, t ∈ [0, maxT], with the top (front) of the
   * field: a 2D grid walk over the cells the ray crosses (Amanatides & Woo
   * 1987), in order of t, testing the two triangles of each cell.
   */
  raycastLocal(origin: Readonly<Vec3>, dir: Readonly<Vec3>, maxT: number, hit: MeshRayHit): boolean {
    const lb = this.localBounds;
    const ox = origin.x, oy = origin.y, oz = origin.z, dx = dir.x, dy = dir.y, dz = dir.z;
    // Clip to the local box (slabs).
    let t0 = 0, t1 = maxT;
    for (let a = 0; a < 3; a++) {
      const o = a === 0 ? ox : a === 1 ? oy : oz, d = a === 0 ? dx : a === 1 ? dy : dz;
      const lo = lb[a]!, hi = lb[3 + a]!;
      if (d === 0) {
        if (o < lo || o > hi) return false;
        continue;
      }
      let ta = (lo - o) / d, tb = (hi - o) / d;
      if (ta > tb) { const s = ta; ta = tb; tb = s; }
      if (ta > t0) t0 = ta;
      if (tb < t1) t1 = tb;
      if (t0 > t1) return false;
    }
    const sx = this.scale.x, sz = this.scale.z;
    const cols = this.columns - 1, rowsN = this.rows - 1;
    const ex = ox + dx * t0, ez = oz + dz * t0;
    let c = Math.min(cols - 1, Math.max(0, Math.floor((ex - lb[0]!) / sx)));
    let r = Math.min(rowsN - 1, Math.max(0, Math.floor((ez - lb[2]!) / sz)));
    const stepC = dx > 0 ? 1 : dx < 0 ? -1 : 0, stepR = dz > 0 ? 1 : dz < 0 ? -1 : 0;
    // t at which the ray crosses the next column / row line, and the t between lines.
    let nextC = stepC === 0 ? Infinity : (lb[0]! + (c + (stepC > 0 ? 1 : 0)) * sx - ox) / dx;
    let nextR = stepR === 0 ? Infinity : (lb[2]! + (r + (stepR > 0 ? 1 : 0)) * sz - oz) / dz;
    const deltaC = stepC === 0 ? Infinity : sx / Math.abs(dx), deltaR = stepR === 0 ? Infinity : sz / Math.abs(dz);
    const S = this.scratch;
    const R = this.ray;
    R[0] = ox; R[1] = oy; R[2] = oz; R[3] = dx; R[4] = dy; R[5] = dz;
    let best = Infinity, bestTri = -1;
    for (;;) {
      const cell = r * cols + c;
      if (this.cellHoles[cell] === 0) {
        for (let odd = 0; odd < 2; odd++) {
          const t = 2 * cell + odd;
          this.triangleCorners(t, S, 0);
          if (!rayTriangleFront(S, R)) continue;
          const th = R[6]!;
          if (th <= maxT && th < best) { best = th; bestTri = t; }
        }
      }
      const cellExit = nextC < nextR ? nextC : nextR;
      // Triangles are tested whole, so a hit inside this cell is final once found.
      if (bestTri >= 0 || cellExit > t1) break;
      if (nextC < nextR) { c += stepC; nextC += deltaC; } else { r += stepR; nextR += deltaR; }
      if (c < 0 || c >= cols || r < 0 || r >= rowsN) break;
    }
    if (bestTri < 0) return false;
    hit.t = best;
    hit.triangle = bestTri;
    this.triangleCorners(bestTri, S, 0);
    writeNormal(S, 0, S, 9);
    hit.normal.x = S[9]!; hit.normal.y = S[10]!; hit.normal.z = S[11]!;
    return true;
  }

  /** The same triangles as a TriangleMesh (holes left out): for comparisons and render meshes. */
  toTriangleMesh(): TriangleMesh {
    const { positions, indices } = this.triangleData();
    return new TriangleMesh(positions, indices);
  }

  /** Vertex positions (one per sample, NaN heights as 0) and the triangle indices of the solid cells. */
  triangleData(): { positions: Float64Array; indices: Uint32Array } {
    const n = this.columns;
    const positions = new Float64Array(3 * this.rows * n);
    for (let r = 0; r < this.rows; r++) {
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        const h = this.heights[i]!;
        positions[3 * i] = this.columnX(c); positions[3 * i + 1] = Number.isNaN(h) ? 0 : h; positions[3 * i + 2] = this.rowZ(r);
      }
    }
    const cols = n - 1;
    const list: number[] = [];
    for (let cell = 0; cell < this.cellHoles.length; cell++) {
      if (this.cellHoles[cell] === 1) continue;
      const r = Math.floor(cell / cols), c = cell - r * cols;
      const i = r * n + c;
      list.push(i, i + n, i + n + 1, i, i + n + 1, i + 1);
    }
    return { positions, indices: Uint32Array.from(list) };
  }

  computeAabb(out: Aabb, position: Readonly<Vec3>, q: Readonly<Quat>): Aabb {
    rotatedBoxAabb(out, this.localBounds, 0, position, q);
    return out;
  }


  volume(): number {
    return 0;
  }
}

/** Unit normal (b − a) × (c − a) of the triangle at P[o..o+8] into N[no..no+2]. */
function writeNormal(P: Float64Array, o: number, N: Float64Array, no: number): void {
  const abx = P[o + 3]! - P[o]!, aby = P[o + 4]! - P[o + 1]!, abz = P[o + 5]! - P[o + 2]!;
  const acx = P[o + 6]! - P[o]!, acy = P[o + 7]! - P[o + 1]!, acz = P[o + 8]! - P[o + 2]!;
  const cx = aby * acz - abz * acy, cy = abz * acx - abx * acz, cz = abx * acy - aby * acx;
  const inv = 1 / Math.sqrt(cx * cx + cy * cy + cz * cz);
  N[no] = cx * inv; N[no + 1] = cy * inv; N[no + 2] = cz * inv;
}

/**
 * Corner (0..2) of the neighbour across edge k of t that is off the shared
 * edge, for the corner orders of the header: even t's edges −X, +Z and the
 * diagonal meet odd triangles whose far corners are their a, b and c; odd
 * t's diagonal, +X and −Z meet even triangles whose far corners are b, c, a.
 */
function farCorner(t: number, k: number): number {
  if ((t & 1) === 0) return k;
  return k === 0 ? 1 : k === 1 ? 2 : 0;
}

/**
 * Möller–Trumbore against the front of the triangle at P[0..8] for the ray
 * R[0..2] + t R[3..5]: true with t ≥ 0 in R[6] on a hit (det > 0 when the ray
 * meets the front, as in TriangleMesh).
 */
function rayTriangleFront(P: Float64Array, R: Float64Array): boolean {
  const ox = R[0]!, oy = R[1]!, oz = R[2]!, dx = R[3]!, dy = R[4]!, dz = R[5]!;
  const ax = P[0]!, ay = P[1]!, az = P[2]!;
  const e1x = P[3]! - ax, e1y = P[4]! - ay, e1z = P[5]! - az;
  const e2x = P[6]! - ax, e2y = P[7]! - ay, e2z = P[8]! - az;
  const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (!(det > 0)) return false;
  const inv = 1 / det;
  const sx = ox - ax, sy = oy - ay, sz = oz - az;
  const u = (sx * px + sy * py + sz * pz) * inv;
  if (u < 0 || u > 1) return false;
  const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
  const v = (dx * qx + dy * qy + dz * qz) * inv;
  if (v < 0 || u + v > 1) return false;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  R[6] = t;
  return t >= 0;
}

/** Compile-time check that a HeightField is what the colliders take. */
type IsGeometry<T extends true> = T;
type HeightFieldIsGeometry = IsGeometry<HeightField extends HeightFieldGeometry ? true : false>;
