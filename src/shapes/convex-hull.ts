import type { Aabb } from '../collision/aabb';
import { addConvexHullPairs } from '../collision/narrowphase/dispatch';
import type { Quat } from '../math/quat';
import { jacobiEigen, makeProperRotation, quatFromMatrix } from '../math/sym3';
import type { Vec3 } from '../math/vec3';
import { MAX_SHAPE_SIZE, MIN_SHAPE_SIZE } from '../math/validate';
import { type ConvexHullGeometry, MAX_HULL_VERTICES } from './geometry';
import { fromQuat, mat3 } from '../math/mat3';
import { ConvexShape, lockShapeFields, ShapeKind, type MassProperties } from './shape';

// Rotation matrix scratch for the box transforms.
const scratchRotation = /* @__PURE__ */ mat3();

export { MAX_HULL_VERTICES };

/** Default {@link ConvexHullOptions.maxVertices} (MAX_HULL_VERTICES is the largest). */
export const DEFAULT_HULL_VERTICES = 64;

export interface ConvexHullOptions {
  /**
   * Most vertices the hull keeps, in [4, MAX_HULL_VERTICES]; default
   * DEFAULT_HULL_VERTICES. A cloud with more extreme points is simplified:
   * quickhull adds the point furthest outside the current hull first, and
   * stops at this count; {@link ConvexHull.simplificationError} is then the
   * largest distance of a dropped point outside the hull.
   */
  maxVertices?: number;
}

/**
 * The convex hull of a point cloud, built by quickhull (Barber, Dobkin,
 * Huhdanpaa 1996) with a distance tolerance: points within it of a face
 * (duplicates, coplanar points, points on an edge) are dropped, and
 * triangles of one plane merge into one polygon face.
 *
 * The body has no centre-of-mass offset and takes principal inertia only, so
 * the hull is stored in its principal frame: the local origin is the centre of
 * mass and the local axes the principal axes of inertia. An input point p maps
 * to the local point conj(rotation) · (p − centerOfMass); to place a hull
 * whose input frame is at (P, R), give its body position P + R·centerOfMass
 * and rotation R ⊗ rotation. A symmetric cloud (a box's corners) keeps the
 * identity rotation.
 */
export class ConvexHull extends ConvexShape implements ConvexHullGeometry {
  readonly kind = ShapeKind.ConvexHull;
  readonly coreRadius: number = 0;
  /** Vertices in the local frame, xyz each. */
  readonly vertices: Float64Array;
  readonly vertexCount: number;
  /** Faces: outward unit normals (xyz each) and plane offsets n·x = d (> 0). */
  readonly faceNormals: Float64Array;
  readonly faceOffsets: Float64Array;
  /** Face f's vertex indices are faceVertices[faceStart[f] .. faceStart[f+1]), counter-clockwise seen from outside. */
  readonly faceStart: Int32Array;
  readonly faceVertices: Int32Array;
  readonly faceCount: number;
  /** Half extents of the local bounding box about the origin (the body uses them for its bounding radius). */
  readonly halfExtents: Readonly<Vec3>;
  /** The centre of mass in the input points' frame. */
  readonly centerOfMass: Readonly<Vec3>;
  /** The local (principal) frame's rotation in the input points' frame. */
  readonly rotation: Readonly<Quat>;
  /** Largest distance (m) of an input point outside the hull: 0 unless maxVertices cut it short. */
  readonly simplificationError: number = 0;
  private readonly volumeValue: number = 0;
  /** Principal inertia per unit density (m⁵). */
  private readonly unitInertia: Readonly<Vec3>;

  /**
   * @param points at least 4 points, not all coplanar: an array of { x, y, z }
   *   or a flat array of coordinates (x0, y0, z0, x1, …), each within
   *   ±MAX_SHAPE_SIZE metres of the origin.
   */
  constructor(points: ReadonlyArray<Readonly<Vec3>> | ArrayLike<number>, options: ConvexHullOptions = {}) {
    super();
    addConvexHullPairs();
    const P = readPoints(points);
    const maxVertices = options?.maxVertices ?? DEFAULT_HULL_VERTICES;
    if (typeof maxVertices !== 'number' || !Number.isInteger(maxVertices) || maxVertices < 4 || maxVertices > MAX_HULL_VERTICES) {
      throw new RangeError(`ConvexHull.maxVertices must be an integer in [4, ${MAX_HULL_VERTICES}] (got ${String(maxVertices)})`);
    }
    const built = quickhull(P, maxVertices);
    const faces = mergeFaces(P, built.triangles, built.tolerance);
    // Vertices used by the polygon faces, re-indexed.
    const remap = new Map<number, number>();
    for (const f of faces) for (const i of f.indices) if (!remap.has(i)) remap.set(i, remap.size);
    const n = remap.size;
    const V = new Float64Array(3 * n);
    for (const [i, j] of remap) { V[3 * j] = P[3 * i]!; V[3 * j + 1] = P[3 * i + 1]!; V[3 * j + 2] = P[3 * i + 2]!; }
    const faceList = faces.map((f) => f.indices.map((i) => remap.get(i)!));

    const mp = integrate(V, faceList);
    if (!(mp.volume > 0) || !Number.isFinite(mp.volume)) {
      throw new RangeError('ConvexHull.points: the hull has no volume (points coplanar within round-off)');
    }
    const frame = principalFrame(mp.inertia);
    // Local vertices: Rᵀ (v − c).
    const R = frame.axes;
    for (let k = 0; k < n; k++) {
      const x = V[3 * k]! - mp.center[0]!, y = V[3 * k + 1]! - mp.center[1]!, z = V[3 * k + 2]! - mp.center[2]!;
      V[3 * k] = R[0]! * x + R[3]! * y + R[6]! * z;
      V[3 * k + 1] = R[1]! * x + R[4]! * y + R[7]! * z;
      V[3 * k + 2] = R[2]! * x + R[5]! * y + R[8]! * z;
    }
    const F = faceList.length;
    const normals = new Float64Array(3 * F);
    const offsets = new Float64Array(F);
    const start = new Int32Array(F + 1);
    let total = 0;
    for (const f of faceList) total += f.length;
    const fv = new Int32Array(total);
    let o = 0;
    for (let f = 0; f < F; f++) {
      start[f] = o;
      const idx = faceList[f]!;
      for (const i of idx) fv[o++] = i;
      // Newell's normal of the polygon (exact for planar polygons, robust to near-collinear corners).
      let nx = 0, ny = 0, nz = 0;
      for (let k = 0; k < idx.length; k++) {
        const a = 3 * idx[k]!, b = 3 * idx[(k + 1) % idx.length]!;
        nx += (V[a + 1]! - V[b + 1]!) * (V[a + 2]! + V[b + 2]!);
        ny += (V[a + 2]! - V[b + 2]!) * (V[a]! + V[b]!);
        nz += (V[a]! - V[b]!) * (V[a + 1]! + V[b + 1]!);
      }
      const l = Math.hypot(nx, ny, nz);
      nx /= l; ny /= l; nz /= l;
      normals[3 * f] = nx; normals[3 * f + 1] = ny; normals[3 * f + 2] = nz;
      let d = -Infinity;
      for (const i of idx) d = Math.max(d, nx * V[3 * i]! + ny * V[3 * i + 1]! + nz * V[3 * i + 2]!);
      offsets[f] = d;
    }
    start[F] = o;
    let hx = 0, hy = 0, hz = 0;
    for (let k = 0; k < n; k++) {
      hx = Math.max(hx, Math.abs(V[3 * k]!)); hy = Math.max(hy, Math.abs(V[3 * k + 1]!)); hz = Math.max(hz, Math.abs(V[3 * k + 2]!));
    }
    if (Math.min(hx, hy, hz) < MIN_SHAPE_SIZE) {
      throw new RangeError(`ConvexHull.points: the hull is thinner than MIN_SHAPE_SIZE (${MIN_SHAPE_SIZE} m)`);
    }
    this.vertices = V;
    this.vertexCount = n;
    this.faceNormals = normals;
    this.faceOffsets = offsets;
    this.faceStart = start;
    this.faceVertices = fv;
    this.faceCount = F;
    this.halfExtents = Object.freeze({ x: hx, y: hy, z: hz });
    this.centerOfMass = Object.freeze({ x: mp.center[0]!, y: mp.center[1]!, z: mp.center[2]! });
    this.rotation = Object.freeze(frame.rotation);
    this.simplificationError = built.error;
    this.volumeValue = mp.volume;
    this.unitInertia = Object.freeze({ x: frame.moments[0]!, y: frame.moments[1]!, z: frame.moments[2]! });
    lockShapeFields(this);
  }

  coreSupport(out: Vec3, d: Readonly<Vec3>): Vec3 {
    // Brute force over the (bounded) vertex list: no adjacency walk to get stuck on coplanar faces.
    const V = this.vertices;
    const dx = d.x, dy = d.y, dz = d.z;
    let best = 0;
    let bestDot = V[0]! * dx + V[1]! * dy + V[2]! * dz;
    for (let k = 1, o = 3; k < this.vertexCount; k++, o += 3) {
      const s = V[o]! * dx + V[o + 1]! * dy + V[o + 2]! * dz;
      if (s > bestDot) { bestDot = s; best = o; }
    }
    out.x = V[best]!;
    out.y = V[best + 1]!;
    out.z = V[best + 2]!;
    return out;
  }

  /** Index of the face whose outward normal is most aligned with `d` (local frame). */
  supportingFace(d: Readonly<Vec3>): number {
    const N = this.faceNormals;
    let best = 0;
    let bestDot = -Infinity;
    for (let f = 0; f < this.faceCount; f++) {
      const s = N[3 * f]! * d.x + N[3 * f + 1]! * d.y + N[3 * f + 2]! * d.z;
      if (s > bestDot) { bestDot = s; best = f; }
    }
    return best;
  }

  computeAabb(out: Aabb, position: Readonly<Vec3>, q: Readonly<Quat>): Aabb {
    // Rotate every vertex: exact bounds (the vertex count is bounded).
    const R = fromQuat(scratchRotation, q);
    const r00 = R.m00, r01 = R.m01, r02 = R.m02;
    const r10 = R.m10, r11 = R.m11, r12 = R.m12;
    const r20 = R.m20, r21 = R.m21, r22 = R.m22;
    const V = this.vertices;
    let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
    for (let o = 0; o < 3 * this.vertexCount; o += 3) {
      const x = V[o]!, y = V[o + 1]!, z = V[o + 2]!;
      const wx2 = r00 * x + r01 * y + r02 * z, wy2 = r10 * x + r11 * y + r12 * z, wz2 = r20 * x + r21 * y + r22 * z;
      if (wx2 < minX) minX = wx2; if (wx2 > maxX) maxX = wx2;
      if (wy2 < minY) minY = wy2; if (wy2 > maxY) maxY = wy2;
      if (wz2 < minZ) minZ = wz2; if (wz2 > maxZ) maxZ = wz2;
    }
    out.min.x = position.x + minX; out.min.y = position.y + minY; out.min.z = position.z + minZ;
    out.max.x = position.x + maxX; out.max.y = position.y + maxY; out.max.z = position.z + maxZ;
    return out;
  }

  volume(): number {
    return this.volumeValue;
  }

  massProperties(density: number): MassProperties {
    const I = this.unitInertia;
    return {
      mass: density * this.volumeValue,
      centerOfMass: { x: 0, y: 0, z: 0 },
      inertia: { x: density * I.x, y: density * I.y, z: density * I.z },
    };
  }
}

/** Validated copy of the input as a flat Float64Array. */
function readPoints(points: ReadonlyArray<Readonly<Vec3>> | ArrayLike<number>): Float64Array {
  if (points === null || typeof points !== 'object' || typeof (points as ArrayLike<unknown>).length !== 'number') {
    throw new TypeError('ConvexHull.points must be an array of { x, y, z } or a flat array of numbers');
  }
  const src = points as ArrayLike<unknown>;
  let P: Float64Array;
  if (src.length > 0 && typeof src[0] === 'object') {
    P = new Float64Array(3 * src.length);
    for (let i = 0; i < src.length; i++) {
      const p = src[i] as Vec3 | null;
      if (p === null || typeof p !== 'object') throw new TypeError(`ConvexHull.points[${i}] must be a { x, y, z } object`);
      P[3 * i] = checkCoordinate(p.x, `ConvexHull.points[${i}].x`);
      P[3 * i + 1] = checkCoordinate(p.y, `ConvexHull.points[${i}].y`);
      P[3 * i + 2] = checkCoordinate(p.z, `ConvexHull.points[${i}].z`);
    }
  } else {
    if (src.length % 3 !== 0) throw new RangeError(`ConvexHull.points: a flat array needs a multiple of 3 numbers (got ${src.length})`);
    P = new Float64Array(src.length);
    for (let i = 0; i < src.length; i++) P[i] = checkCoordinate(src[i] as number, `ConvexHull.points[${i}]`);
  }
  if (P.length < 12) throw new RangeError(`ConvexHull.points: need at least 4 points (got ${P.length / 3})`);
  return P;
}

function checkCoordinate(v: number, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`${field} must be a finite number (got ${String(v)})`);
  if (Math.abs(v) > MAX_SHAPE_SIZE) throw new RangeError(`${field} must be within ±${MAX_SHAPE_SIZE} m (got ${v})`);
  return v;
}

interface HullFace {
  a: number; b: number; c: number;
  nx: number; ny: number; nz: number; d: number;
  alive: boolean;
  outside: number[];
  far: number;
  farDist: number;
}

/**
 * Quickhull: a tetrahedron of extreme points, then repeatedly the point
 * furthest outside any face joins the hull (the faces it sees are removed and
 * the horizon is coned to it). A point is outside a face only when further
 * than `tolerance` (a few ulps of the cloud's size), so duplicates and
 * coplanar points never create slivers.
 */
function quickhull(P: Float64Array, maxVertices: number): { triangles: number[]; tolerance: number; error: number } {
  const n = P.length / 3;
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, P[3 * i]!); maxX = Math.max(maxX, P[3 * i]!);
    minY = Math.min(minY, P[3 * i + 1]!); maxY = Math.max(maxY, P[3 * i + 1]!);
    minZ = Math.min(minZ, P[3 * i + 2]!); maxZ = Math.max(maxZ, P[3 * i + 2]!);
  }
  // Qhull's distance round-off bound, 3 ε (|x|max + |y|max + |z|max), times a safety factor.
  const absSum = Math.max(Math.abs(minX), Math.abs(maxX)) + Math.max(Math.abs(minY), Math.abs(maxY)) + Math.max(Math.abs(minZ), Math.abs(maxZ));
  const tolerance = 100 * 3 * Number.EPSILON * absSum;
  const size = Math.max(maxX - minX, maxY - minY, maxZ - minZ);
  // Flat or thin clouds are refused below this thickness.
  const flat = Math.max(MIN_SHAPE_SIZE, 1e-9 * size, 10 * tolerance);
  const px = (i: number): number => P[3 * i]!, py = (i: number): number => P[3 * i + 1]!, pz = (i: number): number => P[3 * i + 2]!;

  // Initial simplex: the two extremes along the widest axis, the point
  // furthest from their line, the point furthest from that plane.
  const axis = maxX - minX >= maxY - minY && maxX - minX >= maxZ - minZ ? 0 : maxY - minY >= maxZ - minZ ? 1 : 2;
  let i0 = 0, i1 = 0;
  for (let i = 1; i < n; i++) {
    if (P[3 * i + axis]! < P[3 * i0 + axis]!) i0 = i;
    if (P[3 * i + axis]! > P[3 * i1 + axis]!) i1 = i;
  }
  if (size < flat) throw new RangeError('ConvexHull.points: all points coincide');
  const ux = px(i1) - px(i0), uy = py(i1) - py(i0), uz = pz(i1) - pz(i0);
  const ul = Math.hypot(ux, uy, uz);
  let i2 = -1, best = 0;
  for (let i = 0; i < n; i++) {
    const wx = px(i) - px(i0), wy = py(i) - py(i0), wz = pz(i) - pz(i0);
    const cx = wy * uz - wz * uy, cy = wz * ux - wx * uz, cz = wx * uy - wy * ux;
    const dist = Math.hypot(cx, cy, cz) / ul;
    if (dist > best) { best = dist; i2 = i; }
  }
  if (i2 < 0 || best < flat) throw new RangeError('ConvexHull.points: all points are collinear');
  const vx = px(i2) - px(i0), vy = py(i2) - py(i0), vz = pz(i2) - pz(i0);
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const nl = Math.hypot(nx, ny, nz);
  nx /= nl; ny /= nl; nz /= nl;
  let i3 = -1;
  best = 0;
  for (let i = 0; i < n; i++) {
    const dist = Math.abs((px(i) - px(i0)) * nx + (py(i) - py(i0)) * ny + (pz(i) - pz(i0)) * nz);
    if (dist > best) { best = dist; i3 = i; }
  }
  if (i3 < 0 || best < flat) throw new RangeError('ConvexHull.points: all points are coplanar');

  const faces: HullFace[] = [];
  const edges = new Map<number, number>(); // directed edge a→b (a·n + b) → face
  const cx0 = (px(i0) + px(i1) + px(i2) + px(i3)) / 4;
  const cy0 = (py(i0) + py(i1) + py(i2) + py(i3)) / 4;
  const cz0 = (pz(i0) + pz(i1) + pz(i2) + pz(i3)) / 4;
  const addFace = (a: number, b: number, c: number): number => {
    const abx = px(b) - px(a), aby = py(b) - py(a), abz = pz(b) - pz(a);
    const acx = px(c) - px(a), acy = py(c) - py(a), acz = pz(c) - pz(a);
    let fx = aby * acz - abz * acy, fy = abz * acx - abx * acz, fz = abx * acy - aby * acx;
    const l = Math.hypot(fx, fy, fz) || 1;
    fx /= l; fy /= l; fz /= l;
    const f: HullFace = { a, b, c, nx: fx, ny: fy, nz: fz, d: fx * px(a) + fy * py(a) + fz * pz(a), alive: true, outside: [], far: -1, farDist: 0 };
    const index = faces.length;
    faces.push(f);
    edges.set(a * n + b, index); edges.set(b * n + c, index); edges.set(c * n + a, index);
    return index;
  };
  const oriented = (a: number, b: number, c: number): void => {
    // Wind so the normal points away from the tetrahedron's centroid.
    const abx = px(b) - px(a), aby = py(b) - py(a), abz = pz(b) - pz(a);
    const acx = px(c) - px(a), acy = py(c) - py(a), acz = pz(c) - pz(a);
    const fx = aby * acz - abz * acy, fy = abz * acx - abx * acz, fz = abx * acy - aby * acx;
    if (fx * (cx0 - px(a)) + fy * (cy0 - py(a)) + fz * (cz0 - pz(a)) > 0) addFace(a, c, b);
    else addFace(a, b, c);
  };
  oriented(i0, i1, i2); oriented(i0, i1, i3); oriented(i0, i2, i3); oriented(i1, i2, i3);
  const distance = (f: HullFace, i: number): number => f.nx * px(i) + f.ny * py(i) + f.nz * pz(i) - f.d;
  const assign = (i: number, candidates: number[]): void => {
    for (const fi of candidates) {
      const f = faces[fi]!;
      if (!f.alive) continue;
      const dist = distance(f, i);
      if (dist > tolerance) {
        f.outside.push(i);
        if (dist > f.farDist) { f.farDist = dist; f.far = i; }
        return;
      }
    }
  };
  const initial = [0, 1, 2, 3];
  for (let i = 0; i < n; i++) if (i !== i0 && i !== i1 && i !== i2 && i !== i3) assign(i, initial);

  let vertexCount = 4;
  let error = 0;
  for (;;) {
    // The face with the furthest outside point: greedy, so a vertex budget
    // keeps the points that matter most.
    let fi = -1;
    let far = 0;
    for (let k = 0; k < faces.length; k++) {
      const f = faces[k]!;
      if (f.alive && f.far >= 0 && f.farDist > far) { far = f.farDist; fi = k; }
    }
    if (fi < 0) break;
    if (vertexCount >= maxVertices) {
      // A point outside several faces is stored with one; its distance to the hull's planes is the largest.
      for (let i = 0; i < n; i++) {
        for (const f of faces) if (f.alive) error = Math.max(error, distance(f, i));
      }
      break;
    }
    const eye = faces[fi]!.far;
    // Faces that see the eye point, grown from the face it came from; edges
    // between a visible and a hidden face form the horizon.
    const visible: number[] = [fi];
    const seen = new Set<number>([fi]);
    const horizon: number[] = [];
    for (let k = 0; k < visible.length; k++) {
      const f = faces[visible[k]!]!;
      const corners = [f.a, f.b, f.c];
      for (let e = 0; e < 3; e++) {
        const a = corners[e]!, b = corners[(e + 1) % 3]!;
        const twin = edges.get(b * n + a);
        if (twin === undefined) continue;
        if (seen.has(twin)) continue;
        if (distance(faces[twin]!, eye) > tolerance) {
          seen.add(twin);
          visible.push(twin);
        }
      }
    }
    for (const k of visible) {
      const f = faces[k]!;
      const corners = [f.a, f.b, f.c];
      for (let e = 0; e < 3; e++) {
        const a = corners[e]!, b = corners[(e + 1) % 3]!;
        const twin = edges.get(b * n + a);
        if (twin === undefined || !seen.has(twin)) horizon.push(a, b);
      }
    }
    const orphans: number[] = [];
    for (const k of visible) {
      const f = faces[k]!;
      f.alive = false;
      for (const i of f.outside) if (i !== eye) orphans.push(i);
      f.outside = [];
      if (edges.get(f.a * n + f.b) === k) edges.delete(f.a * n + f.b);
      if (edges.get(f.b * n + f.c) === k) edges.delete(f.b * n + f.c);
      if (edges.get(f.c * n + f.a) === k) edges.delete(f.c * n + f.a);
    }
    const created: number[] = [];
    for (let k = 0; k < horizon.length; k += 2) created.push(addFace(horizon[k]!, horizon[k + 1]!, eye));
    for (const i of orphans) assign(i, created);
    vertexCount++;
  }
  const triangles: number[] = [];
  for (const f of faces) if (f.alive) triangles.push(f.a, f.b, f.c);
  return { triangles, tolerance: Math.max(tolerance, 1e-12 * size), error };
}

/**
 * Groups the hull's triangles by plane and returns one convex polygon per
 * plane (counter-clockwise seen from outside): the 2-D hull of the group's
 * corners, which drops corners inside a face or on one of its edges.
 */
function mergeFaces(P: Float64Array, tris: number[], tolerance: number): { indices: number[] }[] {
  const count = tris.length / 3;
  const normals: number[] = [];
  for (let t = 0; t < count; t++) {
    const a = 3 * tris[3 * t]!, b = 3 * tris[3 * t + 1]!, c = 3 * tris[3 * t + 2]!;
    const abx = P[b]! - P[a]!, aby = P[b + 1]! - P[a + 1]!, abz = P[b + 2]! - P[a + 2]!;
    const acx = P[c]! - P[a]!, acy = P[c + 1]! - P[a + 1]!, acz = P[c + 2]! - P[a + 2]!;
    normals.push(aby * acz - abz * acy, abz * acx - abx * acz, abx * acy - aby * acx);
  }
  const group = new Int32Array(count).fill(-1);
  const out: { indices: number[] }[] = [];
  for (let t = 0; t < count; t++) {
    if (group[t]! >= 0) continue;
    group[t] = t;
    let nx = normals[3 * t]!, ny = normals[3 * t + 1]!, nz = normals[3 * t + 2]!;
    const l = Math.hypot(nx, ny, nz);
    const ux = nx / l, uy = ny / l, uz = nz / l;
    const a0 = 3 * tris[3 * t]!;
    const d0 = ux * P[a0]! + uy * P[a0 + 1]! + uz * P[a0 + 2]!;
    const members = [t];
    for (let s = t + 1; s < count; s++) {
      if (group[s]! >= 0) continue;
      const mx = normals[3 * s]!, my = normals[3 * s + 1]!, mz = normals[3 * s + 2]!;
      const ml = Math.hypot(mx, my, mz);
      if ((mx * ux + my * uy + mz * uz) / ml < 1 - 1e-9) continue;
      let onPlane = true;
      for (let k = 0; k < 3 && onPlane; k++) {
        const v = 3 * tris[3 * s + k]!;
        onPlane = Math.abs(ux * P[v]! + uy * P[v + 1]! + uz * P[v + 2]! - d0) <= 10 * tolerance;
      }
      if (!onPlane) continue;
      group[s] = t;
      members.push(s);
      nx += mx; ny += my; nz += mz;
    }
    // 2-D convex hull (Andrew's monotone chain) in a basis (e1, e2) of the plane.
    const nl = Math.hypot(nx, ny, nz);
    const wx = nx / nl, wy = ny / nl, wz = nz / nl;
    // e1 ⟂ w, built from the axis least aligned with w.
    let e1x = 0, e1y = -wz, e1z = wy;
    if (Math.abs(wx) >= 0.9) { e1x = wz; e1y = 0; e1z = -wx; }
    const e1l = Math.hypot(e1x, e1y, e1z);
    e1x /= e1l; e1y /= e1l; e1z /= e1l;
    const e2x = wy * e1z - wz * e1y, e2y = wz * e1x - wx * e1z, e2z = wx * e1y - wy * e1x;
    const ids = [...new Set(members.flatMap((s) => [tris[3 * s]!, tris[3 * s + 1]!, tris[3 * s + 2]!]))];
    const pts = ids.map((i) => ({ i, u: e1x * P[3 * i]! + e1y * P[3 * i + 1]! + e1z * P[3 * i + 2]!, v: e2x * P[3 * i]! + e2y * P[3 * i + 1]! + e2z * P[3 * i + 2]! }));
    pts.sort((p, q) => p.u - q.u || p.v - q.v);
    const cross = (o: { u: number; v: number }, p: { u: number; v: number }, q: { u: number; v: number }): number =>
      (p.u - o.u) * (q.v - o.v) - (p.v - o.v) * (q.u - o.u);
    // A turn smaller than the tolerance times the edge lengths counts as straight (the corner is dropped).
    const straight = (o: { u: number; v: number }, p: { u: number; v: number }, q: { u: number; v: number }): boolean =>
      cross(o, p, q) <= 10 * tolerance * Math.hypot(q.u - o.u, q.v - o.v);
    const lower: typeof pts = [];
    for (const p of pts) {
      while (lower.length >= 2 && straight(lower[lower.length - 2]!, lower[lower.length - 1]!, p)) lower.pop();
      lower.push(p);
    }
    const upper: typeof pts = [];
    for (let k = pts.length - 1; k >= 0; k--) {
      const p = pts[k]!;
      while (upper.length >= 2 && straight(upper[upper.length - 2]!, upper[upper.length - 1]!, p)) upper.pop();
      upper.push(p);
    }
    lower.pop(); upper.pop();
    const ring = lower.concat(upper);
    // (e1, e2, w) is right-handed, so counter-clockwise in (u, v) is counter-clockwise seen from outside.
    if (ring.length >= 3) out.push({ indices: ring.map((p) => p.i) });
  }
  return out;
}

/**
 * Volume, centre of mass and inertia tensor (per unit density) of the closed
 * polyhedron, summed over tetrahedra (r, a, b, c) that fan each face from a
 * reference point r inside. For a tetrahedron with corners 0, a, b, c the
 * second moment ∫ x xᵀ dV is det[a b c]/120 · (a aᵀ + b bᵀ + c cᵀ + s sᵀ),
 * s = a + b + c (Tonon 2004; Blow and Binstock 2004), and the inertia is
 * I = tr(C) E − C, moved to the centre of mass by the parallel-axis theorem.
 */
function integrate(V: Float64Array, faces: number[][]): { volume: number; center: Float64Array; inertia: Float64Array } {
  const n = V.length / 3;
  let rx = 0, ry = 0, rz = 0;
  for (let k = 0; k < n; k++) { rx += V[3 * k]!; ry += V[3 * k + 1]!; rz += V[3 * k + 2]!; }
  rx /= n; ry /= n; rz /= n;
  let vol = 0, mx = 0, my = 0, mz = 0;
  let cxx = 0, cyy = 0, czz = 0, cxy = 0, cxz = 0, cyz = 0;
  for (const f of faces) {
    const i0 = 3 * f[0]!;
    const ax = V[i0]! - rx, ay = V[i0 + 1]! - ry, az = V[i0 + 2]! - rz;
    for (let k = 1; k + 1 < f.length; k++) {
      const i1 = 3 * f[k]!, i2 = 3 * f[k + 1]!;
      const bx = V[i1]! - rx, by = V[i1 + 1]! - ry, bz = V[i1 + 2]! - rz;
      const cx = V[i2]! - rx, cy = V[i2 + 1]! - ry, cz = V[i2 + 2]! - rz;
      const det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
      vol += det / 6;
      const sx = ax + bx + cx, sy = ay + by + cy, sz = az + bz + cz;
      mx += det / 24 * sx; my += det / 24 * sy; mz += det / 24 * sz;
      const k120 = det / 120;
      cxx += k120 * (ax * ax + bx * bx + cx * cx + sx * sx);
      cyy += k120 * (ay * ay + by * by + cy * cy + sy * sy);
      czz += k120 * (az * az + bz * bz + cz * cz + sz * sz);
      cxy += k120 * (ax * ay + bx * by + cx * cy + sx * sy);
      cxz += k120 * (ax * az + bx * bz + cx * cz + sx * sz);
      cyz += k120 * (ay * az + by * bz + cy * cz + sy * sz);
    }
  }
  // Centre of mass relative to r, then the second moment about it: C − V m mᵀ.
  const gx = mx / vol, gy = my / vol, gz = mz / vol;
  cxx -= vol * gx * gx; cyy -= vol * gy * gy; czz -= vol * gz * gz;
  cxy -= vol * gx * gy; cxz -= vol * gx * gz; cyz -= vol * gy * gz;
  const tr = cxx + cyy + czz;
  const inertia = new Float64Array([tr - cxx, -cxy, -cxz, -cxy, tr - cyy, -cyz, -cxz, -cyz, tr - czz]);
  return { volume: vol, center: new Float64Array([rx + gx, ry + gy, rz + gz]), inertia };
}

/**
 * Principal moments and axes of a symmetric 3×3 tensor by cyclic Jacobi
 * rotations (Golub and Van Loan §8.5). `axes` holds the eigenvectors as
 * columns (row-major 3×3), right-handed; `rotation` is the same as a quaternion.
 * Off-diagonal terms below 1e-9 of the trace are treated as zero, so a
 * symmetric hull keeps its input axes instead of a round-off-chosen frame.
 */
export function principalFrame(I: Float64Array): { moments: Float64Array; axes: Float64Array; rotation: Quat } {
  const A = Float64Array.from(I);
  const Vm = new Float64Array(9);
  jacobiEigen(A, Vm, 1e-9);
  makeProperRotation(Vm);
  return { moments: new Float64Array([A[0]!, A[4]!, A[8]!]), axes: Vm, rotation: quatFromMatrix(Vm) };
}

