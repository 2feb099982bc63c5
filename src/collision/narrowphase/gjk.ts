/**
 * GJK distance between two convex shapes (Gilbert, Johnson, Keerthi 1988, in
 * the form of van den Bergen, "Collision Detection in Interactive 3D
 * Environments", ch. 4, and Ericson, "Real-Time Collision Detection" §9.5).
 *
 * Every convex shape is core ⊕ sphere(coreRadius) with a polytope core (a
 * point, a segment, a box, a triangle). GJK runs on the cores only: their
 * Minkowski difference is a polytope, so the iteration terminates exactly in
 * a finite number of steps, and the rounded part is added back analytically
 *   dist(A, B) = dist(coreA, coreB) − rA − rB
 * which keeps spheres and capsules exact (no tessellation, no tolerance on
 * the curved surface).
 *
 * The work happens in A's local frame: B's pose is expressed relative to A, so
 * two shapes far from the world origin keep their full precision.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { ConvexShape } from '../../shapes/shape';
import { MinkowskiPair } from './minkowski-pair';

/** Result of gjkDistance / epaPenetration. All vectors are world space. */
export class GjkResult {
  /**
   * Signed distance between the full shapes (metres): > 0 separated, ≤ 0
   * touching or overlapping (−depth when filled by epaPenetration).
   */
  distance = 0;
  /** Closest (or, when overlapping, deepest) point on A's surface. */
  readonly pointA: Vec3 = { x: 0, y: 0, z: 0 };
  /** Closest (or deepest) point on B's surface. */
  readonly pointB: Vec3 = { x: 0, y: 0, z: 0 };
  /** Unit vector from A towards B: moving B along it separates the shapes. */
  readonly normal: Vec3 = { x: 0, y: 1, z: 0 };
  /** GJK (+ EPA) iterations used. */
  iterations = 0;
  /** True when distance ≤ 0. */
  overlapping = false;
}

/** Core distances below this (metres) count as overlapping cores (see CORE_OVERLAP_DISTANCE use). */
export const CORE_OVERLAP_DISTANCE = 1e-9;

const MAX_GJK_ITERATIONS = 64;

/** Weights handed to Simplex.keep (see there). */
const KEPT_WEIGHTS = new Float64Array(3);

/**
 * A simplex of up to four vertices of the Minkowski difference, each with the
 * two support points that produced it and its barycentric weight in the
 * current closest point. Internal.
 */
export class Simplex {
  count = 0;
  readonly w: Vec3[] = [vec(), vec(), vec(), vec()];
  readonly a: Vec3[] = [vec(), vec(), vec(), vec()];
  readonly b: Vec3[] = [vec(), vec(), vec(), vec()];
  readonly lambda = new Float64Array(4);
  /** Closest point of the simplex to the origin. */
  readonly v: Vec3 = vec();
  /** Iterations of the last run. */
  iterations = 0;
  /**
   * Core distance found by the last gjkCore run (0 when the cores overlap or
   * touch); a field, not a return value.
   */
  distance = 0;

  /**
   * Keeps vertices i0..i(n−1) (indices into the current set) in slots
   * 0..n−1, with the weights the caller wrote to KEPT_WEIGHTS[0..n−1].
   */
  keep(n: number, i0: number, i1: number, i2: number): void {
    const l0 = KEPT_WEIGHTS[0]!, l1 = KEPT_WEIGHTS[1]!, l2 = KEPT_WEIGHTS[2]!;
    // Read every source into locals before writing: a kept vertex may move
    // to a lower slot that another kept vertex is read from.
    const w = this.w, a = this.a, b = this.b;
    let x0 = 0, y0 = 0, z0 = 0, ax0 = 0, ay0 = 0, az0 = 0, bx0 = 0, by0 = 0, bz0 = 0;
    let x1 = 0, y1 = 0, z1 = 0, ax1 = 0, ay1 = 0, az1 = 0, bx1 = 0, by1 = 0, bz1 = 0;
    let x2 = 0, y2 = 0, z2 = 0, ax2 = 0, ay2 = 0, az2 = 0, bx2 = 0, by2 = 0, bz2 = 0;
    let s = w[i0]!; x0 = s.x; y0 = s.y; z0 = s.z;
    s = a[i0]!; ax0 = s.x; ay0 = s.y; az0 = s.z;
    s = b[i0]!; bx0 = s.x; by0 = s.y; bz0 = s.z;
    if (n > 1) {
      s = w[i1]!; x1 = s.x; y1 = s.y; z1 = s.z;
      s = a[i1]!; ax1 = s.x; ay1 = s.y; az1 = s.z;
      s = b[i1]!; bx1 = s.x; by1 = s.y; bz1 = s.z;
    }
    if (n > 2) {
      s = w[i2]!; x2 = s.x; y2 = s.y; z2 = s.z;
      s = a[i2]!; ax2 = s.x; ay2 = s.y; az2 = s.z;
      s = b[i2]!; bx2 = s.x; by2 = s.y; bz2 = s.z;
    }
    setv(w[0]!, x0, y0, z0); setv(a[0]!, ax0, ay0, az0); setv(b[0]!, bx0, by0, bz0);
    this.lambda[0] = l0;
    if (n > 1) {
      setv(w[1]!, x1, y1, z1); setv(a[1]!, ax1, ay1, az1); setv(b[1]!, bx1, by1, bz1);
      this.lambda[1] = l1;
    }
    if (n > 2) {
      setv(w[2]!, x2, y2, z2); setv(a[2]!, ax2, ay2, az2); setv(b[2]!, bx2, by2, bz2);
      this.lambda[2] = l2;
    }
    this.count = n;
  }

  private keepVertex(i: number): void {
    KEPT_WEIGHTS[0] = 1;
    this.keep(1, i, 0, 0);
  }

  copyFrom(o: Simplex): void {
    this.count = o.count;
    for (let i = 0; i < o.count; i++) {
      copyv(this.w[i]!, o.w[i]!);
      copyv(this.a[i]!, o.a[i]!);
      copyv(this.b[i]!, o.b[i]!);
      this.lambda[i] = o.lambda[i]!;
    }
    copyv(this.v, o.v);
  }

  /** v = Σ λ_i w_i. */
  updateV(): void {
    let x = 0, y = 0, z = 0;
    for (let i = 0; i < this.count; i++) {
      const l = this.lambda[i]!;
      const w = this.w[i]!;
      x += l * w.x;
      y += l * w.y;
      z += l * w.z;
    }
    setv(this.v, x, y, z);
  }

  /** Witness points Σ λ_i a_i and Σ λ_i b_i (A's frame). */
  witnesses(pa: Vec3, pb: Vec3): void {
    let ax = 0, ay = 0, az = 0, bx = 0, by = 0, bz = 0;
    for (let i = 0; i < this.count; i++) {
      const l = this.lambda[i]!;
      const a = this.a[i]!;
      const b = this.b[i]!;
      ax += l * a.x; ay += l * a.y; az += l * a.z;
      bx += l * b.x; by += l * b.y; bz += l * b.z;
    }
    setv(pa, ax, ay, az);
    setv(pb, bx, by, bz);
  }

  /**
   * Replaces the simplex by its smallest sub-simplex containing the point
   * closest to the origin, and sets λ and v. Returns false when the origin is
   * inside a full tetrahedron (cores overlap).
   */
  reduce(): boolean {
    switch (this.count) {
      case 1:
        this.lambda[0] = 1;
        break;
      case 2:
        this.reduceSegment(0, 1);
        break;
      case 3:
        this.reduceTriangle(0, 1, 2);
        break;
      default:
        if (!this.reduceTetrahedron()) return false;
        break;
    }
    this.updateV();
    return true;
  }

  private reduceSegment(i0: number, i1: number): void {
    // Closest point of segment w0 w1 to the origin: t = −w0·e / e·e, e = w1 − w0.
    const p = this.w[i0]!, q = this.w[i1]!;
    const ex = q.x - p.x, ey = q.y - p.y, ez = q.z - p.z;
    const ee = ex * ex + ey * ey + ez * ez;
    const t = ee > 0 ? -(p.x * ex + p.y * ey + p.z * ez) / ee : 0;
    if (t <= 0) this.keepVertex(i0);
    else if (t >= 1) this.keepVertex(i1);
    else {
      KEPT_WEIGHTS[0] = 1 - t;
      KEPT_WEIGHTS[1] = t;
      this.keep(2, i0, i1, 0);
    }
  }

  /**
   * Closest point of triangle (i0, i1, i2) to the origin by Voronoi regions
   * (Ericson §5.1.5, ClosestPtPointTriangle with P = 0).
   */
  private reduceTriangle(i0: number, i1: number, i2: number): void {
    const A = this.w[i0]!, B = this.w[i1]!, C = this.w[i2]!;
    const abx = B.x - A.x, aby = B.y - A.y, abz = B.z - A.z;
    const acx = C.x - A.x, acy = C.y - A.y, acz = C.z - A.z;
    // ap = −A
    const d1 = -(abx * A.x + aby * A.y + abz * A.z);
    const d2 = -(acx * A.x + acy * A.y + acz * A.z);
    if (d1 <= 0 && d2 <= 0) return this.keepVertex(i0);
    const d3 = -(abx * B.x + aby * B.y + abz * B.z);
    const d4 = -(acx * B.x + acy * B.y + acz * B.z);
    if (d3 >= 0 && d4 <= d3) return this.keepVertex(i1);
    const vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
      const t = d1 / (d1 - d3);
      KEPT_WEIGHTS[0] = 1 - t;
      KEPT_WEIGHTS[1] = t;
      return this.keep(2, i0, i1, 0);
    }
    const d5 = -(abx * C.x + aby * C.y + abz * C.z);
    const d6 = -(acx * C.x + acy * C.y + acz * C.z);
    if (d6 >= 0 && d5 <= d6) return this.keepVertex(i2);
    const vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
      const t = d2 / (d2 - d6);
      KEPT_WEIGHTS[0] = 1 - t;
      KEPT_WEIGHTS[1] = t;
      return this.keep(2, i0, i2, 0);
    }
    const va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
      const t = (d4 - d3) / (d4 - d3 + (d5 - d6));
      KEPT_WEIGHTS[0] = 1 - t;
      KEPT_WEIGHTS[1] = t;
      return this.keep(2, i1, i2, 0);
    }
    const sum = va + vb + vc;
    if (!(sum > 0)) {
      // Degenerate (collinear) triangle: fall back to the best edge.
      return this.reduceDegenerateTriangle(i0, i1, i2);
    }
    const inv = 1 / sum;
    const v = vb * inv;
    const w = vc * inv;
    KEPT_WEIGHTS[0] = 1 - v - w;
    KEPT_WEIGHTS[1] = v;
    KEPT_WEIGHTS[2] = w;
    this.keep(3, i0, i1, i2);
  }

  private reduceDegenerateTriangle(i0: number, i1: number, i2: number): void {
    // Pick the longest edge: it spans the collinear points.
    const A = this.w[i0]!, B = this.w[i1]!, C = this.w[i2]!;
    const ab = sqDist(A, B), ac = sqDist(A, C), bc = sqDist(B, C);
    if (ab >= ac && ab >= bc) this.reduceSegment(i0, i1);
    else if (ac >= bc) this.reduceSegment(i0, i2);
    else this.reduceSegment(i1, i2);
  }

  /**
   * Tetrahedron: the origin is inside unless it lies on the outer side of a
   * face (its side opposite the fourth vertex); the closest point is then on
   * one of those faces (Ericson §5.1.6).
   */
  private reduceTetrahedron(): boolean {
    const w = this.w;
    let bestDist = Infinity;
    let bestFace = 0;
    let outside = false;
    // Faces (0,1,2|3) (0,1,3|2) (0,2,3|1) (1,2,3|0).
    for (let f = 0; f < 4; f++) {
      const i0 = f === 3 ? 1 : 0;
      const i1 = f === 3 ? 2 : f === 2 ? 2 : 1;
      const i2 = f === 0 ? 2 : 3;
      const io = 3 - f;
      if (!originOutsideFace(w[i0]!, w[i1]!, w[i2]!, w[io]!)) continue;
      outside = true;
      triangleDistanceSq(w[i0]!, w[i1]!, w[i2]!);
      const d = DISTANCE_SQ[0]!;
      if (d < bestDist) {
        bestDist = d;
        bestFace = f;
      }
    }
    if (!outside) {
      // The origin is enclosed: barycentric weights are not needed by
      // callers (they switch to EPA), but keep v = 0 meaningful.
      this.lambda[0] = 0.25;
      this.lambda[1] = 0.25;
      this.lambda[2] = 0.25;
      this.lambda[3] = 0.25;
      setv(this.v, 0, 0, 0);
      return false;
    }
    const f = bestFace;
    this.reduceTriangle(f === 3 ? 1 : 0, f === 3 ? 2 : f === 2 ? 2 : 1, f === 0 ? 2 : 3);
    return true;
  }

  /** True when w duplicates a vertex already in the simplex. */
  contains(p: Readonly<Vec3>): boolean {
    for (let i = 0; i < this.count; i++) {
      const q = this.w[i]!;
      if (q.x === p.x && q.y === p.y && q.z === p.z) return true;
    }
    return false;
  }
}

function vec(): Vec3 {
  return { x: 0, y: 0, z: 0 };
}

function setv(out: Vec3, x: number, y: number, z: number): void {
  out.x = x;
  out.y = y;
  out.z = z;
}

function copyv(out: Vec3, a: Readonly<Vec3>): void {
  out.x = a.x;
  out.y = a.y;
  out.z = a.z;
}

function sqDist(a: Readonly<Vec3>, b: Readonly<Vec3>): number {
  const dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Origin and `o` on opposite sides of plane (a, b, c)? A flat tetrahedron
 * (o within round-off of the plane) counts as outside, so the face is
 * examined: the sign of a near-zero height is noise, and trusting it can
 * skip the face that holds the closest point.
 */
function originOutsideFace(a: Readonly<Vec3>, b: Readonly<Vec3>, c: Readonly<Vec3>, o: Readonly<Vec3>): boolean {
  const abx = b.x - a.x, aby = b.y - a.y, abz = b.z - a.z;
  const acx = c.x - a.x, acy = c.y - a.y, acz = c.z - a.z;
  const nx = aby * acz - abz * acy;
  const ny = abz * acx - abx * acz;
  const nz = abx * acy - aby * acx;
  const sOrigin = -(nx * a.x + ny * a.y + nz * a.z);
  const ox = o.x - a.x, oy = o.y - a.y, oz = o.z - a.z;
  const sOther = nx * ox + ny * oy + nz * oz;
  const nn = nx * nx + ny * ny + nz * nz;
  const oo = ox * ox + oy * oy + oz * oz;
  if (sOther * sOther <= 1e-20 * nn * oo) return true;
  return sOrigin * sOther <= 0;
}

const DISTANCE_SQ = new Float64Array(1);

/**
 * Squared distance from the origin to triangle abc (Ericson §5.1.5), into
 * DISTANCE_SQ[0].
 */
function triangleDistanceSq(A: Readonly<Vec3>, B: Readonly<Vec3>, C: Readonly<Vec3>): void {
  const abx = B.x - A.x, aby = B.y - A.y, abz = B.z - A.z;
  const acx = C.x - A.x, acy = C.y - A.y, acz = C.z - A.z;
  const d1 = -(abx * A.x + aby * A.y + abz * A.z);
  const d2 = -(acx * A.x + acy * A.y + acz * A.z);
  if (d1 <= 0 && d2 <= 0) {
    DISTANCE_SQ[0] = A.x * A.x + A.y * A.y + A.z * A.z;
    return;
  }
  const d3 = -(abx * B.x + aby * B.y + abz * B.z);
  const d4 = -(acx * B.x + acy * B.y + acz * B.z);
  if (d3 >= 0 && d4 <= d3) {
    DISTANCE_SQ[0] = B.x * B.x + B.y * B.y + B.z * B.z;
    return;
  }
  const vc = d1 * d4 - d3 * d2;
  let px = 0, py = 0, pz = 0;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const t = d1 / (d1 - d3);
    px = A.x + t * abx; py = A.y + t * aby; pz = A.z + t * abz;
    DISTANCE_SQ[0] = px * px + py * py + pz * pz;
    return;
  }
  const d5 = -(abx * C.x + aby * C.y + abz * C.z);
  const d6 = -(acx * C.x + acy * C.y + acz * C.z);
  if (d6 >= 0 && d5 <= d6) {
    DISTANCE_SQ[0] = C.x * C.x + C.y * C.y + C.z * C.z;
    return;
  }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const t = d2 / (d2 - d6);
    px = A.x + t * acx; py = A.y + t * acy; pz = A.z + t * acz;
    DISTANCE_SQ[0] = px * px + py * py + pz * pz;
    return;
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const t = (d4 - d3) / (d4 - d3 + (d5 - d6));
    px = B.x + t * (C.x - B.x); py = B.y + t * (C.y - B.y); pz = B.z + t * (C.z - B.z);
    DISTANCE_SQ[0] = px * px + py * py + pz * pz;
    return;
  }
  const sum = va + vb + vc;
  if (!(sum > 0)) {
    DISTANCE_SQ[0] = Math.min(segmentDistanceSq(A, B), segmentDistanceSq(A, C), segmentDistanceSq(B, C));
    return;
  }
  const v = vb / sum;
  const w = vc / sum;
  px = A.x + abx * v + acx * w;
  py = A.y + aby * v + acy * w;
  pz = A.z + abz * v + acz * w;
  DISTANCE_SQ[0] = px * px + py * py + pz * pz;
}

function segmentDistanceSq(p: Readonly<Vec3>, q: Readonly<Vec3>): number {
  const ex = q.x - p.x, ey = q.y - p.y, ez = q.z - p.z;
  const ee = ex * ex + ey * ey + ez * ez;
  let t = ee > 0 ? -(p.x * ex + p.y * ey + p.z * ez) / ee : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const x = p.x + t * ex, y = p.y + t * ey, z = p.z + t * ez;
  return x * x + y * y + z * z;
}

/**
 * Runs GJK on the cores of `pair` into `simplex`. Sets `simplex.distance`,
 * the core distance (≥ 0); 0 means the cores overlap (or touch within CORE_OVERLAP_DISTANCE),
 * and the simplex then holds vertices whose hull contains the origin.
 *
 * Termination (van den Bergen §4.3.4): with v the current closest point and
 * w = s(−v) the new support point, ‖v‖² − v·w is an upper bound of
 * ‖v‖² − dist²; stop when it falls below a relative ε² ‖v‖² plus an
 * absolute term at the round-off level of v·w (1e-15 max‖w‖²: the error
 * it leaves on dist is ≈ 1e-15 max‖w‖² / (2 dist), 5e-10 m at 1 µm), when
 * w repeats a vertex, or when ‖v‖ stops decreasing — then the previous
 * simplex is kept, since the step that failed to improve was round-off
 * (typically a flat Minkowski difference, such as two segments).
 */
export function gjkCore(pair: MinkowskiPair, simplex: Simplex): void {
  simplex.distance = 0;
  const dir = gjkDir;
  const w = gjkW, sa = gjkA, sb = gjkB;
  // First guess of v: centre of A minus centre of B.
  dir.x = -pair.positionB.x;
  dir.y = -pair.positionB.y;
  dir.z = -pair.positionB.z;
  if (dir.x * dir.x + dir.y * dir.y + dir.z * dir.z < 1e-24) dir.x = 1;
  // Support along −v.
  dir.x = -dir.x;
  dir.y = -dir.y;
  dir.z = -dir.z;
  pair.support(simplex.w[0]!, simplex.a[0]!, simplex.b[0]!, dir);
  simplex.count = 1;
  simplex.lambda[0] = 1;
  simplex.updateV();
  const v = simplex.v;
  let vv = v.x * v.x + v.y * v.y + v.z * v.z;
  let scale = vv;
  let iterations = 0;
  const overlapSq = CORE_OVERLAP_DISTANCE * CORE_OVERLAP_DISTANCE;
  while (iterations < MAX_GJK_ITERATIONS) {
    iterations++;
    if (vv <= overlapSq) {
      simplex.iterations = iterations;
      return;
    }
    dir.x = -v.x;
    dir.y = -v.y;
    dir.z = -v.z;
    pair.support(w, sa, sb, dir);
    const ww = w.x * w.x + w.y * w.y + w.z * w.z;
    if (ww > scale) scale = ww;
    const vw = v.x * w.x + v.y * w.y + v.z * w.z;
    if (vv - vw <= 1e-20 * vv + 1e-15 * scale || simplex.contains(w)) break;
    backup.copyFrom(simplex);
    // Append the new vertex.
    const n = simplex.count;
    setv(simplex.w[n]!, w.x, w.y, w.z);
    setv(simplex.a[n]!, sa.x, sa.y, sa.z);
    setv(simplex.b[n]!, sb.x, sb.y, sb.z);
    simplex.count = n + 1;
    if (!simplex.reduce()) {
      simplex.iterations = iterations;
      return;
    }
    const vvNew = v.x * v.x + v.y * v.y + v.z * v.z;
    if (vvNew >= vv) {
      simplex.copyFrom(backup);
      break;
    }
    vv = vvNew;
  }
  simplex.iterations = iterations;
  if (vv > overlapSq) simplex.distance = Math.sqrt(vv);
}

const backup = /* @__PURE__ */ new Simplex();
const gjkDir: Vec3 = { x: 0, y: 0, z: 0 };
const gjkW: Vec3 = { x: 0, y: 0, z: 0 };
const gjkA: Vec3 = { x: 0, y: 0, z: 0 };
const gjkB: Vec3 = { x: 0, y: 0, z: 0 };

/**
 * Fills `out` from a GJK run whose core distance `simplex.distance` is > 0:
 * normal = −v/‖v‖ (A→B), witnesses moved out to the surfaces by the radii.
 */
export function fillSeparatedResult(pair: MinkowskiPair, simplex: Simplex, out: GjkResult): void {
  const coreDistance = simplex.distance;
  const pa = fillA, pb = fillB, n = fillN;
  simplex.witnesses(pa, pb);
  const inv = 1 / coreDistance;
  const v = simplex.v;
  n.x = -v.x * inv;
  n.y = -v.y * inv;
  n.z = -v.z * inv;
  const ra = pair.radii[0]!;
  const rb = pair.radii[1]!;
  pa.x += n.x * ra; pa.y += n.y * ra; pa.z += n.z * ra;
  pb.x -= n.x * rb; pb.y -= n.y * rb; pb.z -= n.z * rb;
  pair.toWorldPoint(out.pointA, pa);
  pair.toWorldPoint(out.pointB, pb);
  pair.toWorldVector(out.normal, n);
  out.distance = coreDistance - ra - rb;
  out.overlapping = out.distance <= 0;
  out.iterations = simplex.iterations;
}

/** A Minkowski pair and a simplex owned by one caller (gjkDistance, epaPenetration). */
export class GjkQuery {
  readonly pair = new MinkowskiPair();
  readonly simplex = new Simplex();

  /**
   * The stage gjkDistance and epaPenetration share: loads the shapes at
   * their poses and runs GJK on the cores. When the cores are apart, fills
   * `out` exactly and returns true; otherwise the simplex encloses the
   * origin (for EPA) and `out` is left.
   */
  separated(a: ConvexShape, posA: Readonly<Vec3>, rotA: Readonly<Quat>, b: ConvexShape, posB: Readonly<Vec3>, rotB: Readonly<Quat>, out: GjkResult): boolean {
    const pair = this.pair, simplex = this.simplex;
    pair.set(a, posA, rotA, b, posB, rotB);
    gjkCore(pair, simplex);
    if (simplex.distance > 0) {
      fillSeparatedResult(pair, simplex, out);
      return true;
    }
    return false;
  }
}

const fillA: Vec3 = { x: 0, y: 0, z: 0 };
const fillB: Vec3 = { x: 0, y: 0, z: 0 };
const fillN: Vec3 = { x: 0, y: 0, z: 0 };

const query = /* @__PURE__ */ new GjkQuery();
const centreDir: Vec3 = { x: 0, y: 0, z: 0 };

/**
 * Distance between convex shapes A and B placed at (posA, rotA), (posB, rotB).
 *
 * When the cores are apart (the usual case, also for rounded shapes that
 * overlap by less than their radii), `out` is exact: distance = core distance
 * − radii (≤ 0 when overlapping), the closest points on each surface, and the
 * unit normal A→B.
 *
 * When the cores themselves overlap, `overlapping` is true and
 * `distance` = −(rA + rB), which is only an upper bound of the signed
 * distance; the normal then points from A's centre to B's centre and both
 * witness points are A's centre. Call epaPenetration for the true depth.
 */
export function gjkDistance(
  a: ConvexShape, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  b: ConvexShape, posB: Readonly<Vec3>, rotB: Readonly<Quat>, out: GjkResult,
): GjkResult {
  if (query.separated(a, posA, rotA, b, posB, rotB, out)) return out;
  out.distance = -(query.pair.radii[0]! + query.pair.radii[1]!);
  out.overlapping = true;
  out.iterations = query.simplex.iterations;
  fillCentreNormal(out.normal, posA, posB);
  out.pointA.x = posA.x; out.pointA.y = posA.y; out.pointA.z = posA.z;
  out.pointB.x = posA.x; out.pointB.y = posA.y; out.pointB.z = posA.z;
  return out;
}

/** Unit vector from posA to posB, +Y when they coincide. */
export function fillCentreNormal(out: Vec3, posA: Readonly<Vec3>, posB: Readonly<Vec3>): void {
  const c = centreDir;
  c.x = posB.x - posA.x;
  c.y = posB.y - posA.y;
  c.z = posB.z - posA.z;
  const l = Math.sqrt(c.x * c.x + c.y * c.y + c.z * c.z);
  if (l < 1e-12) {
    out.x = 0; out.y = 1; out.z = 0;
  } else {
    out.x = c.x / l; out.y = c.y / l; out.z = c.z / l;
  }
}
