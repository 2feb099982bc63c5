/**
 * Penetration depth by the Expanding Polytope Algorithm (van den Bergen,
 * "Proximity Queries and Penetration Depth Computation on 3D Game Objects",
 * GDC 2001; Ericson §9.5 overview).
 *
 * The penetration depth of A and B is the distance from the origin to the
 * boundary of D = A − B, reached along the unit n minimising the support
 * function: depth = min_n h_D(n), and that n (the outward normal of D's
 * closest face) points from A towards B. With rounded shapes
 * D = (coreA − coreB) ⊕ sphere(rA + rB), so
 *   depth = min_n h_{coreA − coreB}(n) + rA + rB,
 * and EPA runs on coreA − coreB only. On a polytope core it terminates
 * exactly; a Cylinder's core is curved, and there it stops once the gap to
 * the support plane is a small fraction of the depth (EPA_RELATIVE_GAP).
 * When the cores do not overlap, GJK already gives the answer:
 * depth = rA + rB − core distance along the core normal.
 *
 * Flat core differences (point–point, point–segment, segment–segment,
 * point–triangle): D's core has no interior, so the origin lies on its
 * boundary and the core depth is 0 along a normal of its affine hull. The
 * blow-up stage below detects this as a search direction n with h(n) ≈ 0
 * and returns it, so crossing capsules get depth rA + rB exactly.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { ConvexShape } from '../../shapes/shape';
import { fillCentreNormal, GjkQuery, type GjkResult, Simplex } from './gjk';
import type { MinkowskiPair } from './minkowski-pair';

const MAX_VERTICES = 128;
const MAX_FACES = 256;
const MAX_EDGES = 128;
const MAX_EPA_ITERATIONS = 100;
/**
 * Gap between the closest face and the support plane along its normal,
 * relative to the depth, at which a curved core's expansion stops (a
 * polytope's closes exactly before that).
 */
const EPA_RELATIVE_GAP = 1e-7;

/**
 * EPA working storage: polytope vertices (w and the two support points that
 * made it) and triangular faces (CCW seen from outside) with their outward
 * unit normal and plane distance from the origin.
 */
class Polytope {
  vertexCount = 0;
  readonly w = new Float64Array(3 * MAX_VERTICES);
  readonly a = new Float64Array(3 * MAX_VERTICES);
  readonly b = new Float64Array(3 * MAX_VERTICES);
  faceCount = 0;
  readonly faces = new Int32Array(3 * MAX_FACES);
  readonly normals = new Float64Array(3 * MAX_FACES);
  readonly dist = new Float64Array(MAX_FACES);
  readonly alive = new Uint8Array(MAX_FACES);
  edgeCount = 0;
  readonly edges = new Int32Array(2 * MAX_EDGES);
  /** Faces removed by the current expansion step, to undo it. */
  readonly removed = new Int32Array(MAX_FACES);
  removedCount = 0;

  addVertex(w: Readonly<Vec3>, a: Readonly<Vec3>, b: Readonly<Vec3>): number {
    const i = this.vertexCount++;
    const k = 3 * i;
    this.w[k] = w.x; this.w[k + 1] = w.y; this.w[k + 2] = w.z;
    this.a[k] = a.x; this.a[k + 1] = a.y; this.a[k + 2] = a.z;
    this.b[k] = b.x; this.b[k + 1] = b.y; this.b[k + 2] = b.z;
    return i;
  }

  /** Adds face (i, j, k), CCW from outside. Returns false when the polytope is full. */
  addFace(i: number, j: number, k: number): boolean {
    if (this.faceCount >= MAX_FACES) return false;
    const f = this.faceCount++;
    this.faces[3 * f] = i;
    this.faces[3 * f + 1] = j;
    this.faces[3 * f + 2] = k;
    const W = this.w;
    const ix = 3 * i, jx = 3 * j, kx = 3 * k;
    const e1x = W[jx]! - W[ix]!, e1y = W[jx + 1]! - W[ix + 1]!, e1z = W[jx + 2]! - W[ix + 2]!;
    const e2x = W[kx]! - W[ix]!, e2y = W[kx + 1]! - W[ix + 1]!, e2z = W[kx + 2]! - W[ix + 2]!;
    let nx = e1y * e2z - e1z * e2y;
    let ny = e1z * e2x - e1x * e2z;
    let nz = e1x * e2y - e1y * e2x;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    this.alive[f] = 1;
    if (len < 1e-30) {
      // A sliver with no usable normal: keep the surface closed but never
      // pick it as the closest face nor let it be seen.
      this.normals[3 * f] = 0; this.normals[3 * f + 1] = 0; this.normals[3 * f + 2] = 0;
      this.dist[f] = Infinity;
      return true;
    }
    nx /= len; ny /= len; nz /= len;
    this.normals[3 * f] = nx; this.normals[3 * f + 1] = ny; this.normals[3 * f + 2] = nz;
    this.dist[f] = nx * W[ix]! + ny * W[ix + 1]! + nz * W[ix + 2]!;
    return true;
  }

  /** Toggles edge (i, j): its reverse already listed means both sides were removed. */
  toggleEdge(i: number, j: number): boolean {
    const E = this.edges;
    for (let e = 0; e < this.edgeCount; e++) {
      if (E[2 * e] === j && E[2 * e + 1] === i) {
        const last = --this.edgeCount;
        E[2 * e] = E[2 * last]!;
        E[2 * e + 1] = E[2 * last + 1]!;
        return true;
      }
    }
    if (this.edgeCount >= MAX_EDGES) return false;
    E[2 * this.edgeCount] = i;
    E[2 * this.edgeCount + 1] = j;
    this.edgeCount++;
    return true;
  }
}

const query = /* @__PURE__ */ new GjkQuery();
const poly = /* @__PURE__ */ new Polytope();
const dir: Vec3 = { x: 0, y: 0, z: 0 };
const sw: Vec3 = { x: 0, y: 0, z: 0 };
const sa: Vec3 = { x: 0, y: 0, z: 0 };
const sb: Vec3 = { x: 0, y: 0, z: 0 };
const nrm: Vec3 = { x: 0, y: 0, z: 0 };
const wa: Vec3 = { x: 0, y: 0, z: 0 };
const wb: Vec3 = { x: 0, y: 0, z: 0 };
const perp1: Vec3 = { x: 0, y: 0, z: 0 };

/**
 * Signed distance and penetration of convex shapes A and B: `out.distance`
 * is −depth when they overlap (the separation when they do not), `normal`
 * the unit direction A→B along which moving B by depth separates them, and
 * `pointA` / `pointB` the deepest points of each shape inside the other
 * (pointA − pointB = depth · normal). Exact for any pose, including cores
 * that overlap.
 */
export function epaPenetration(
  a: ConvexShape, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  b: ConvexShape, posB: Readonly<Vec3>, rotB: Readonly<Quat>, out: GjkResult,
): GjkResult {
  if (query.separated(a, posA, rotA, b, posB, rotB, out)) return out;
  const pair = query.pair, simplex = query.simplex;
  const iterations = expand(pair, simplex);
  const ra = pair.radii[0]!;
  const rb = pair.radii[1]!;
  // Results of expand(): core depth in EPA_IO[0], A-frame normal in nrm, core
  // witnesses in wa / wb.
  if (epaDegenerateCentreNormal) {
    fillCentreNormal(out.normal, posA, posB);
    // The coincident-point case: the cores are one point; any direction works.
    inverseRotateToA(nrm, pair, out.normal);
  }
  const n = nrm;
  wa.x += n.x * ra; wa.y += n.y * ra; wa.z += n.z * ra;
  wb.x -= n.x * rb; wb.y -= n.y * rb; wb.z -= n.z * rb;
  pair.toWorldPoint(out.pointA, wa);
  pair.toWorldPoint(out.pointB, wb);
  pair.toWorldVector(out.normal, n);
  out.distance = -(EPA_IO[0]! + ra + rb);
  out.overlapping = true;
  out.iterations = simplex.iterations + iterations;
  return out;
}

/**
 * Doubles shared between the EPA helpers: [0] the core depth found by
 * expand(), [1] the support height handed to writeFlat, [2..4] the centroid
 * handed to addOrientedFace (typed-array slots, not double arguments or a
 * module-level `let`: CONTRIBUTING.md, hot path).
 */
const EPA_IO = new Float64Array(5);
let epaDegenerateCentreNormal = false;

function inverseRotateToA(out: Vec3, pair: MinkowskiPair, v: Readonly<Vec3>): void {
  // q* v q with q = rotA.
  const q = pair.rotationA;
  const qx = -q.x, qy = -q.y, qz = -q.z;
  const tx = 2 * (qy * v.z - qz * v.y);
  const ty = 2 * (qz * v.x - qx * v.z);
  const tz = 2 * (qx * v.y - qy * v.x);
  out.x = v.x + q.w * tx + (qy * tz - qz * ty);
  out.y = v.y + q.w * ty + (qz * tx - qx * tz);
  out.z = v.z + q.w * tz + (qx * ty - qy * tx);
}


/**
 * The origin lies on D's boundary with outward normal d (h(d) ≈ 0): core
 * depth max(h, 0). The cores meet at GJK's closest point, whose A-side
 * witness is already in `wa`.
 */
function writeFlat(d: Readonly<Vec3>): void {
  const h = EPA_IO[1]!;
  const depth = h > 0 ? h : 0;
  EPA_IO[0] = depth;
  nrm.x = d.x; nrm.y = d.y; nrm.z = d.z;
  wb.x = wa.x - d.x * depth;
  wb.y = wa.y - d.y * depth;
  wb.z = wa.z - d.z * depth;
}

/** No direction is preferred (the cores are one and the same point). */
function writeCoincident(): void {
  EPA_IO[0] = 0;
  nrm.x = 0; nrm.y = 1; nrm.z = 0;
  wb.x = wa.x; wb.y = wa.y; wb.z = wa.z;
  epaDegenerateCentreNormal = true;
}

/**
 * Builds a tetrahedron around the origin from the GJK simplex (adding
 * support points along directions orthogonal to the current hull), then
 * runs EPA. Writes EPA_IO[0] (depth), nrm (A frame), wa, wb. Returns iterations.
 */
function expand(pair: MinkowskiPair, simplex: Simplex): number {
  epaDegenerateCentreNormal = false;
  // Tolerance on support values (metres) below which a direction is taken as
  // touching the origin, relative to the size of the configuration so
  // round-off in the support points (≈ 1e-16 × coordinates) never reads as depth.
  const pb = pair.positionB;
  const tol = 1e-10 * (1 + Math.abs(pb.x) + Math.abs(pb.y) + Math.abs(pb.z));
  const P = poly;
  P.vertexCount = 0;
  P.faceCount = 0;
  P.edgeCount = 0;
  // Seed with the GJK vertices (distinct by construction).
  for (let i = 0; i < simplex.count; i++) {
    P.addVertex(simplex.w[i]!, simplex.a[i]!, simplex.b[i]!);
  }
  const W = P.w;
  // Where the cores meet (valid for a 1-3 vertex simplex; overwritten by
  // writeFace for a full expansion).
  simplex.witnesses(wa, wb);
  // Each stage below probes a direction d orthogonal to the current hull,
  // which contains the origin. If h(d) ≤ tol, D lies behind the plane
  // through the origin with normal d, so min_n h(n) = 0 is reached there:
  // the origin is on D's boundary and the answer is written at once.
  // Otherwise the support point is off the hull's span and extends it.
  // Stage 1: a single point at the origin: the six axis directions.
  if (P.vertexCount === 1) {
    let found = false;
    for (let k = 0; k < 6 && !found; k++) {
      dir.x = k === 0 ? 1 : k === 1 ? -1 : 0;
      dir.y = k === 2 ? 1 : k === 3 ? -1 : 0;
      dir.z = k === 4 ? 1 : k === 5 ? -1 : 0;
      pair.support(sw, sa, sb, dir);
      const dx = sw.x - W[0]!, dy = sw.y - W[1]!, dz = sw.z - W[2]!;
      if (dx * dx + dy * dy + dz * dz > tol * tol) {
        P.addVertex(sw, sa, sb);
        found = true;
      }
    }
    if (!found) {
      writeCoincident();
      return 0;
    }
  }
  // Stage 2: a segment through the origin: one direction perpendicular to it.
  if (P.vertexCount === 2) {
    const ex = W[3]! - W[0]!, ey = W[4]! - W[1]!, ez = W[5]! - W[2]!;
    const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
    dir.x = ex / el; dir.y = ey / el; dir.z = ez / el;
    buildPerpendicular(dir);
    pair.support(sw, sa, sb, perp1);
    const h = perp1.x * sw.x + perp1.y * sw.y + perp1.z * sw.z;
    if (h <= tol) {
      EPA_IO[1] = h;
      writeFlat(perp1);
      return 0;
    }
    P.addVertex(sw, sa, sb);
  }
  // Stage 3: a triangle containing the origin: its normal, then the reverse.
  if (P.vertexCount === 3) {
    const e1x = W[3]! - W[0]!, e1y = W[4]! - W[1]!, e1z = W[5]! - W[2]!;
    const e2x = W[6]! - W[0]!, e2y = W[7]! - W[1]!, e2z = W[8]! - W[2]!;
    let nx = e1y * e2z - e1z * e2y;
    let ny = e1z * e2x - e1x * e2z;
    let nz = e1x * e2y - e1y * e2x;
    const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (nl < 1e-30) {
      writeCoincident();
      return 0;
    }
    nx /= nl; ny /= nl; nz /= nl;
    dir.x = nx; dir.y = ny; dir.z = nz;
    pair.support(sw, sa, sb, dir);
    const hPlus = nx * sw.x + ny * sw.y + nz * sw.z;
    if (hPlus <= tol) {
      EPA_IO[1] = hPlus;
      writeFlat(dir);
      return 0;
    }
    P.addVertex(sw, sa, sb);
    // The reverse side only matters for the flat test: the tetrahedron on
    // the + side has the origin on its base, which EPA accepts (the base
    // is the first face expanded).
    dir.x = -nx; dir.y = -ny; dir.z = -nz;
    pair.support(sw, sa, sb, dir);
    const hMinus = -(nx * sw.x + ny * sw.y + nz * sw.z);
    if (hMinus <= tol) {
      EPA_IO[1] = hMinus;
      writeFlat(dir);
      return 0;
    }
  }
  // Stage 4: the tetrahedron, faces wound CCW seen from outside (outside =
  // away from the centroid, which stays interior as the polytope grows).
  const cx = (W[0]! + W[3]! + W[6]! + W[9]!) * 0.25;
  const cy = (W[1]! + W[4]! + W[7]! + W[10]!) * 0.25;
  const cz = (W[2]! + W[5]! + W[8]! + W[11]!) * 0.25;
  EPA_IO[2] = cx; EPA_IO[3] = cy; EPA_IO[4] = cz;
  addOrientedFace(0, 1, 2);
  addOrientedFace(0, 1, 3);
  addOrientedFace(0, 2, 3);
  addOrientedFace(1, 2, 3);

  const N = P.normals;
  let iterations = 0;
  let best = -1;
  while (iterations < MAX_EPA_ITERATIONS) {
    iterations++;
    best = -1;
    let bestDist = Infinity;
    for (let f = 0; f < P.faceCount; f++) {
      if (P.alive[f] && P.dist[f]! < bestDist) {
        bestDist = P.dist[f]!;
        best = f;
      }
    }
    if (best < 0) break;
    dir.x = N[3 * best]!; dir.y = N[3 * best + 1]!; dir.z = N[3 * best + 2]!;
    pair.support(sw, sa, sb, dir);
    const h = dir.x * sw.x + dir.y * sw.y + dir.z * sw.z;
    // Converged when the support plane along the closest face's normal is
    // that face's plane (no vertex of D lies beyond it), or, on a curved
    // core (a cylinder), where no such plane exists and the gap only
    // shrinks by about 4 for each refinement, within EPA_RELATIVE_GAP of the depth.
    if (h - bestDist <= tol + EPA_RELATIVE_GAP * bestDist || P.vertexCount >= MAX_VERTICES) break;
    const v = P.addVertex(sw, sa, sb);
    // Remove every face the new vertex sees and stitch the horizon. A face
    // the vertex lies within tol of is kept: on a flat part of a rotated
    // curved core (a cylinder's cap seen from the other body's frame) the
    // sign of that height is round-off, and trusting it tore the polytope.
    P.edgeCount = 0;
    P.removedCount = 0;
    let ok = true;
    const faceCountBefore = P.faceCount;
    for (let f = 0; f < faceCountBefore && ok; f++) {
      if (!P.alive[f]) continue;
      const i0 = P.faces[3 * f]!;
      const visible =
        f === best ||
        N[3 * f]! * (sw.x - W[3 * i0]!) + N[3 * f + 1]! * (sw.y - W[3 * i0 + 1]!) + N[3 * f + 2]! * (sw.z - W[3 * i0 + 2]!) > tol;
      if (!visible) continue;
      P.alive[f] = 0;
      P.removed[P.removedCount++] = f;
      const i1 = P.faces[3 * f + 1]!;
      const i2 = P.faces[3 * f + 2]!;
      ok = P.toggleEdge(i0, i1) && P.toggleEdge(i1, i2) && P.toggleEdge(i2, i0);
    }
    for (let e = 0; e < P.edgeCount && ok; e++) {
      ok = P.addFace(P.edges[2 * e]!, P.edges[2 * e + 1]!, v);
    }
    // Every new face must keep the origin inside (distance ≥ 0 up to
    // round-off); one that does not means the step broke the polytope's
    // convexity, and its faces would report a depth of nothing.
    for (let f = faceCountBefore; f < P.faceCount && ok; f++) {
      if (P.dist[f]! < -tol) ok = false;
    }
    if (!ok) {
      // Out of storage or a broken step: undo it. The best face found so far
      // is within h − bestDist of the answer; accept it rather than fail.
      P.faceCount = faceCountBefore;
      for (let k = 0; k < P.removedCount; k++) P.alive[P.removed[k]!] = 1;
      break;
    }
    if (P.faceCount > MAX_FACES - 32) compactFaces();
  }
  if (best < 0) {
    writeCoincident();
    return iterations;
  }
  writeFace(best);
  return iterations;
}

/** Drops dead faces so the face arrays do not run out during long expansions. */
function compactFaces(): void {
  const P = poly;
  let n = 0;
  for (let f = 0; f < P.faceCount; f++) {
    if (!P.alive[f]) continue;
    if (n !== f) {
      P.faces[3 * n] = P.faces[3 * f]!;
      P.faces[3 * n + 1] = P.faces[3 * f + 1]!;
      P.faces[3 * n + 2] = P.faces[3 * f + 2]!;
      P.normals[3 * n] = P.normals[3 * f]!;
      P.normals[3 * n + 1] = P.normals[3 * f + 1]!;
      P.normals[3 * n + 2] = P.normals[3 * f + 2]!;
      P.dist[n] = P.dist[f]!;
      P.alive[n] = 1;
    }
    n++;
  }
  P.faceCount = n;
}

/** Adds face (i, j, k) wound so that its normal points away from the centroid in EPA_IO[2..4]. */
function addOrientedFace(i: number, j: number, k: number): void {
  const cx = EPA_IO[2]!, cy = EPA_IO[3]!, cz = EPA_IO[4]!;
  const P = poly;
  P.addFace(i, j, k);
  const f = P.faceCount - 1;
  const W = P.w;
  const s =
    P.normals[3 * f]! * (W[3 * i]! - cx) + P.normals[3 * f + 1]! * (W[3 * i + 1]! - cy) + P.normals[3 * f + 2]! * (W[3 * i + 2]! - cz);
  if (s < 0) {
    P.faceCount--;
    P.addFace(i, k, j);
  }
}

/**
 * The answer from face f: the origin's projection p = dist · n onto the face,
 * its barycentric weights (u, v, w) applied to A's and B's support points.
 */
function writeFace(f: number): void {
  const P = poly;
  const W = P.w;
  const i = 3 * P.faces[3 * f]!, j = 3 * P.faces[3 * f + 1]!, k = 3 * P.faces[3 * f + 2]!;
  const nx = P.normals[3 * f]!, ny = P.normals[3 * f + 1]!, nz = P.normals[3 * f + 2]!;
  const d = P.dist[f]!;
  EPA_IO[0] = d > 0 ? d : 0;
  nrm.x = nx; nrm.y = ny; nrm.z = nz;
  const px = nx * d, py = ny * d, pz = nz * d;
  // Barycentric coordinates by areas (Ericson §3.4, Cramer's rule).
  const v0x = W[j]! - W[i]!, v0y = W[j + 1]! - W[i + 1]!, v0z = W[j + 2]! - W[i + 2]!;
  const v1x = W[k]! - W[i]!, v1y = W[k + 1]! - W[i + 1]!, v1z = W[k + 2]! - W[i + 2]!;
  const v2x = px - W[i]!, v2y = py - W[i + 1]!, v2z = pz - W[i + 2]!;
  const d00 = v0x * v0x + v0y * v0y + v0z * v0z;
  const d01 = v0x * v1x + v0y * v1y + v0z * v1z;
  const d11 = v1x * v1x + v1y * v1y + v1z * v1z;
  const d20 = v2x * v0x + v2y * v0y + v2z * v0z;
  const d21 = v2x * v1x + v2y * v1y + v2z * v1z;
  const denom = d00 * d11 - d01 * d01;
  let v = 1 / 3, w = 1 / 3;
  if (denom > 1e-300) {
    v = (d11 * d20 - d01 * d21) / denom;
    w = (d00 * d21 - d01 * d20) / denom;
  }
  const u = 1 - v - w;
  const A = P.a, B = P.b;
  wa.x = u * A[i]! + v * A[j]! + w * A[k]!;
  wa.y = u * A[i + 1]! + v * A[j + 1]! + w * A[k + 1]!;
  wa.z = u * A[i + 2]! + v * A[j + 2]! + w * A[k + 2]!;
  wb.x = u * B[i]! + v * B[j]! + w * B[k]!;
  wb.y = u * B[i + 1]! + v * B[j + 1]! + w * B[k + 1]!;
  wb.z = u * B[i + 2]! + v * B[j + 2]! + w * B[k + 2]!;
}

/** A unit vector perpendicular to unit vector u, into perp1. */
function buildPerpendicular(u: Readonly<Vec3>): void {
  const x = u.x, y = u.y, z = u.z;
  // Cross with the world axis least aligned with the vector.
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  let px = 0, py = 0, pz = 0;
  if (ax <= ay && ax <= az) {
    px = 0; py = z; pz = -y;
  } else if (ay <= az) {
    px = -z; py = 0; pz = x;
  } else {
    px = y; py = -x; pz = 0;
  }
  const pl = Math.sqrt(px * px + py * py + pz * pz);
  perp1.x = px / pl; perp1.y = py / pl; perp1.z = pz / pl;
}
