/**
 * Box (A) against a static TriangleMesh (B).
 *
 * Per triangle, the separating-axis test over 13 axes (Ericson §5.2.9;
 * Gottschalk's OBB tests): the face normal n, the three box axes u_i and the
 * nine crosses u_i × e_j. The axis of largest separation wins, with a bias
 * towards the triangle face, then the box faces (Box2D's relative tolerance:
 * another axis must beat 0.98·s + 0.5 mm), so resting contact does not
 * flip between nearly equal axes.
 * - Triangle face: the box face most facing into the mesh is clipped against
 *   the triangle's prism (inward edge planes n × e_j); each kept corner gives
 *   a point with depth −(p − a)·n.
 * - Box face: the triangle is clipped against the four side planes of that
 *   box face; each kept point q gives depth h_i − (q − c)·N.
 * - Edge pair: one point, midway between the closest points of the two edges.
 * Internal edges: a box-face or edge-pair axis is kept only when the
 * triangle's feature that supports it (its corners nearest the box along the
 * axis) is an ACTIVE edge or corner; otherwise the face axis is used, so a
 * box sliding over a tessellated floor never catches on a seam (the same rule
 * as Jolt's active edges, see triangle-mesh.ts). Back faces: see
 * triangle-contact.ts.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { BoxGeometry as Box } from '../../shapes/geometry';
import type { MeshTriangles } from '../../shapes/geometry';
import { featureActive } from '../../shapes/geometry';
import type { Manifold } from './manifold';
import { narrowphaseMargin } from './margin';
import { beyondOnlyInactiveEdges, MeshContactCollector, normalInFeatureCone, projectsInside } from './triangle-contact';

const collector = /* @__PURE__ */ new MeshContactCollector();
/** Box axes u_0, u_1, u_2 in the mesh frame (3 numbers each) and half extents. */
const axes = new Float64Array(9);
const half = new Float64Array(3);
/** Box centre in the mesh frame [0..2] and the margin [3], read by the per-triangle helpers. */
const frame = new Float64Array(4);
/** The chosen axis reversed (out of the mesh), for normalInFeatureCone. */
const outward = new Float64Array(3);
/** Edge-pair normal (box → triangle) for edgeContact. */
const edgeNormal = new Float64Array(3);

const AXIS_FACE = 0;
const AXIS_BOX = 1;
const AXIS_EDGE = 2;
const RELATIVE_TOLERANCE = 0.98;
const ABSOLUTE_TOLERANCE = 5e-4;
/** Corners within this distance (m) of the nearest one along an axis share its feature. */
const FEATURE_TOLERANCE = 1e-6;
/** A corner deeper than every clipped point by this much (m) was missed by the clip. */
const MISSED_DEPTH = 1e-4;

// Feature codes (< 128): box-face corners 0..3, box-face edge × triangle
// plane 4..24, fallback vertex 30, triangle edge × box side plane 32..59,
// triangle corners 60..62, box edge × triangle edge 64..99.
const CODE_FACE_CLIP = 4;
const CODE_DEEPEST_VERTEX = 30;
const CODE_BOX_CLIP = 32;
const CODE_TRI_CORNER = 60;
const CODE_EDGE = 64;

/** The dispatch-table entry (dispatch.ts): contacts within the margin in narrowphaseMargin[0]. */
export function boxMeshContacts(
  a: Box, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  mesh: MeshTriangles, posB: Readonly<Vec3>, rotB: Readonly<Quat>, manifold: Manifold,
): void {
  const margin = narrowphaseMargin[0]!;
  collector.enterMeshFrame(posA, rotA, posB, rotB);
  const q = collector.localRot;
  const x2 = q.x + q.x, y2 = q.y + q.y, z2 = q.z + q.z;
  const xx = q.x * x2, xy = q.x * y2, xz = q.x * z2;
  const yy = q.y * y2, yz = q.y * z2, zz = q.z * z2;
  const wx = q.w * x2, wy = q.w * y2, wz = q.w * z2;
  axes[0] = 1 - (yy + zz); axes[1] = xy + wz; axes[2] = xz - wy;
  axes[3] = xy - wz; axes[4] = 1 - (xx + zz); axes[5] = yz + wx;
  axes[6] = xz + wy; axes[7] = yz - wx; axes[8] = 1 - (xx + yy);
  half[0] = a.halfExtents.x; half[1] = a.halfExtents.y; half[2] = a.halfExtents.z;
  const cx = collector.localPos.x, cy = collector.localPos.y, cz = collector.localPos.z;
  let ex = margin, ey = margin, ez = margin;
  for (let i = 0; i < 3; i++) {
    ex += Math.abs(axes[3 * i]!) * half[i]!;
    ey += Math.abs(axes[3 * i + 1]!) * half[i]!;
    ez += Math.abs(axes[3 * i + 2]!) * half[i]!;
  }
  const bounds = collector.bounds;
  bounds[0] = ex; bounds[1] = ey; bounds[2] = ez;
  const count = collector.gatherTriangles(mesh);
  const tris = collector.triangles;
  frame[0] = cx; frame[1] = cy; frame[2] = cz; frame[3] = margin;
  for (let k = 0; k < count; k++) boxTriangle(mesh, tris[k]!);
  collector.finish(manifold, posB, rotB);
}

/** SAT of the box (`frame`, `axes`, `half`) against triangle t; adds its candidates. */
function boxTriangle(mesh: MeshTriangles, t: number): void {
  const cx = frame[0]!, cy = frame[1]!, cz = frame[2]!, margin = frame[3]!;
  const h0 = half[0]!, h1 = half[1]!, h2 = half[2]!;
  const P = mesh.corners;
  const o = 9 * t;
  const ax = P[o]!, ay = P[o + 1]!, az = P[o + 2]!;
  const bx = P[o + 3]!, by = P[o + 4]!, bz = P[o + 5]!;
  const qx = P[o + 6]!, qy = P[o + 7]!, qz = P[o + 8]!;
  const nx = mesh.normals[3 * t]!, ny = mesh.normals[3 * t + 1]!, nz = mesh.normals[3 * t + 2]!;

  // Face axis; the box is in front when its centre is (dC ≥ 0). A
  // double-sided triangle takes the side of the centre as its front (side −1).
  const dC = (cx - ax) * nx + (cy - ay) * ny + (cz - az) * nz;
  const side = dC < 0 && mesh.doubleSided ? -1 : 1;
  // Projection radius of the box on a unit axis L: Σ h_i |u_i·L|.
  const rN = h0 * Math.abs(axes[0]! * nx + axes[1]! * ny + axes[2]! * nz) +
    h1 * Math.abs(axes[3]! * nx + axes[4]! * ny + axes[5]! * nz) +
    h2 * Math.abs(axes[6]! * nx + axes[7]! * ny + axes[8]! * nz);
  if (Math.abs(dC) - rN > margin) return;
  const sFace = side * dC - rN;

  // Box axes: separation s = max(triMin − boxMax, boxMin − triMax).
  let sBox = -Infinity;
  let boxAxis = -1;
  let boxSign = 1;
  for (let i = 0; i < 3; i++) {
    const lx = axes[3 * i]!, ly = axes[3 * i + 1]!, lz = axes[3 * i + 2]!;
    const c = cx * lx + cy * ly + cz * lz;
    const pa = ax * lx + ay * ly + az * lz, pb = bx * lx + by * ly + bz * lz, pc = qx * lx + qy * ly + qz * lz;
    const triMin = Math.min(pa, pb, pc), triMax = Math.max(pa, pb, pc);
    const sPos = triMin - (c + half[i]!);
    const sNeg = c - half[i]! - triMax;
    const s = sPos > sNeg ? sPos : sNeg;
    if (s > margin) return;
    if (s > sBox) {
      sBox = s;
      boxAxis = i;
      boxSign = sPos > sNeg ? 1 : -1;
    }
  }

  // Edge axes u_i × e_j (skipped when parallel: then covered by the face axes).
  let sEdge = -Infinity;
  let edgeBox = -1;
  let edgeTri = -1;
  let enx = 0, eny = 0, enz = 0;
  for (let j = 0; j < 3; j++) {
    const e0 = o + 3 * j;
    const e1 = o + 3 * ((j + 1) % 3);
    const fx = P[e1]! - P[e0]!, fy = P[e1 + 1]! - P[e0 + 1]!, fz = P[e1 + 2]! - P[e0 + 2]!;
    const fLenSq = fx * fx + fy * fy + fz * fz;
    for (let i = 0; i < 3; i++) {
      const ux = axes[3 * i]!, uy = axes[3 * i + 1]!, uz = axes[3 * i + 2]!;
      let lx = uy * fz - uz * fy, ly = uz * fx - ux * fz, lz = ux * fy - uy * fx;
      const lenSq = lx * lx + ly * ly + lz * lz;
      if (lenSq < 1e-10 * fLenSq) continue;
      const inv = 1 / Math.sqrt(lenSq);
      lx *= inv; ly *= inv; lz *= inv;
      const r = h0 * Math.abs(axes[0]! * lx + axes[1]! * ly + axes[2]! * lz) +
        h1 * Math.abs(axes[3]! * lx + axes[4]! * ly + axes[5]! * lz) +
        h2 * Math.abs(axes[6]! * lx + axes[7]! * ly + axes[8]! * lz);
      const c = cx * lx + cy * ly + cz * lz;
      const pa = ax * lx + ay * ly + az * lz, pb = bx * lx + by * ly + bz * lz, pc = qx * lx + qy * ly + qz * lz;
      const triMin = Math.min(pa, pb, pc), triMax = Math.max(pa, pb, pc);
      const sPos = triMin - (c + r);
      const sNeg = c - r - triMax;
      const s = sPos > sNeg ? sPos : sNeg;
      if (s > margin) return;
      if (s > sEdge) {
        sEdge = s;
        edgeBox = i;
        edgeTri = j;
        const sign = sPos > sNeg ? 1 : -1;
        enx = lx * sign; eny = ly * sign; enz = lz * sign;
      }
    }
  }

  if (side * dC < 0) {
    // Centre behind the plane: only a push out of the front, and only when
    // the centre lies over the triangle (triangle-contact.ts, back faces).
    if (!projectsInside(P, mesh.normals, t, frame)) return;
    faceContact(mesh, t, true, 1);
    return;
  }

  let kind = AXIS_FACE;
  let sBest = sFace;
  if (sBox > RELATIVE_TOLERANCE * sBest + ABSOLUTE_TOLERANCE) {
    kind = AXIS_BOX;
    sBest = sBox;
  }
  if (sEdge > RELATIVE_TOLERANCE * sBest + ABSOLUTE_TOLERANCE) kind = AXIS_EDGE;

  if (kind !== AXIS_FACE) {
    // Normal N (box → triangle) of the chosen axis; the triangle corners
    // nearest the box along N form the supporting feature.
    let Nx = enx, Ny = eny, Nz = enz;
    if (kind === AXIS_BOX) {
      Nx = axes[3 * boxAxis]! * boxSign; Ny = axes[3 * boxAxis + 1]! * boxSign; Nz = axes[3 * boxAxis + 2]! * boxSign;
    }
    const pa = ax * Nx + ay * Ny + az * Nz, pb = bx * Nx + by * Ny + bz * Nz, pc = qx * Nx + qy * Ny + qz * Nz;
    const lo = Math.min(pa, pb, pc) + FEATURE_TOLERANCE;
    const mask = (pa <= lo ? 1 : 0) | (pb <= lo ? 2 : 0) | (pc <= lo ? 4 : 0);
    const flags = mesh.featureFlags[t]!;
    let active = featureActive(flags, mask);
    // An edge pair is the triangle's edge edgeTri's too: against a flat or
    // concave seam the neighbour's face holds the box, and the pair's one
    // point would leave the rest of a wide face unsupported.
    if (kind === AXIS_EDGE) active = active && featureActive(flags, (1 << edgeTri) | (1 << ((edgeTri + 1) % 3)));
    if (active) {
      outward[0] = -Nx; outward[1] = -Ny; outward[2] = -Nz;
      active = normalInFeatureCone(mesh, t, mask, outward);
    }
    if (!active) kind = AXIS_FACE;
  }

  if (kind === AXIS_FACE) {
    faceContact(mesh, t, false, side);
  } else if (kind === AXIS_BOX) {
    boxFaceContact(mesh, t, boxAxis, boxSign);
  } else {
    edgeNormal[0] = enx; edgeNormal[1] = eny; edgeNormal[2] = enz;
    edgeContact(mesh, t, edgeBox, edgeTri);
  }
}

// The four corners of the incident box face (xyz each), for polyPush.
const quad = new Float64Array(12);

/**
 * Triangle face is the reference: clip the incident box face against the
 * triangle's prism. `side` −1: the back of a double-sided triangle is the front.
 */
function faceContact(mesh: MeshTriangles, t: number, isBack: boolean, side: number): void {
  const cand = collector.cand;
  const cx = frame[0]!, cy = frame[1]!, cz = frame[2]!, margin = frame[3]!;
  const nx = side * mesh.normals[3 * t]!, ny = side * mesh.normals[3 * t + 1]!, nz = side * mesh.normals[3 * t + 2]!;
  // Incident face: the box face whose outward normal is most aligned with N = −n.
  let inc = 0;
  let incDot = 0;
  for (let i = 0; i < 3; i++) {
    const d = -(axes[3 * i]! * nx + axes[3 * i + 1]! * ny + axes[3 * i + 2]! * nz);
    if (Math.abs(d) > Math.abs(incDot)) {
      incDot = d;
      inc = i;
    }
  }
  const sign = incDot >= 0 ? 1 : -1;
  const j = (inc + 1) % 3;
  const k = (inc + 2) % 3;
  const fx = cx + axes[3 * inc]! * half[inc]! * sign, fy = cy + axes[3 * inc + 1]! * half[inc]! * sign, fz = cz + axes[3 * inc + 2]! * half[inc]! * sign;
  const jx = axes[3 * j]! * half[j]!, jy = axes[3 * j + 1]! * half[j]!, jz = axes[3 * j + 2]! * half[j]!;
  const kx = axes[3 * k]! * half[k]!, ky = axes[3 * k + 1]! * half[k]!, kz = axes[3 * k + 2]! * half[k]!;
  const C = collector;
  C.polyReset();
  quad[0] = fx + jx + kx; quad[1] = fy + jy + ky; quad[2] = fz + jz + kz;
  quad[3] = fx - jx + kx; quad[4] = fy - jy + ky; quad[5] = fz - jz + kz;
  quad[6] = fx - jx - kx; quad[7] = fy - jy - ky; quad[8] = fz - jz - kz;
  quad[9] = fx + jx - kx; quad[10] = fy + jy - ky; quad[11] = fz + jz - kz;
  for (let v = 0; v < 4; v++) C.polyPush(quad, 3 * v, v, v);
  const plane = C.plane;
  const P = mesh.corners;
  const o = 9 * t;
  for (let e = 0; e < 3 && C.polyCount > 0; e++) {
    const e0 = o + 3 * e;
    const e1 = o + 3 * ((e + 1) % 3);
    const ex = P[e1]! - P[e0]!, ey = P[e1 + 1]! - P[e0 + 1]!, ez = P[e1 + 2]! - P[e0 + 2]!;
    // Inward edge normal m = n × e (n the stored normal: side · the front's);
    // keep m·p ≥ m·v, i.e. (−m)·p ≤ (−m)·v.
    const mx = side * (ny * ez - nz * ey), my = side * (nz * ex - nx * ez), mz = side * (nx * ey - ny * ex);
    plane[0] = -mx; plane[1] = -my; plane[2] = -mz; plane[3] = -(mx * P[e0]! + my * P[e0 + 1]! + mz * P[e0 + 2]!);
    C.clip(e, 4 + e, CODE_FACE_CLIP, 3);
  }
  const ax = P[o]!, ay = P[o + 1]!, az = P[o + 2]!;
  // Height over the plane of the box corner deepest along −n. When the clip
  // keeps nothing as deep (a box balanced on a corner beside the triangle,
  // or a corner under a valley seam, where the faces' normals fan apart so
  // it is in neither prism), that corner gives a point too, if it is beyond
  // the prism only across flat or concave seams: past an open or convex edge
  // there is no surface level with this plane to rest on.
  let qx = cx, qy = cy, qz = cz;
  for (let i = 0; i < 3; i++) {
    const s = axes[3 * i]! * nx + axes[3 * i + 1]! * ny + axes[3 * i + 2]! * nz > 0 ? -half[i]! : half[i]!;
    qx += axes[3 * i]! * s; qy += axes[3 * i + 1]! * s; qz += axes[3 * i + 2]! * s;
  }
  const sDeep = (qx - ax) * nx + (qy - ay) * ny + (qz - az) * nz;
  // Through a typed array: a call boxes its double arguments.
  const deep = C.point;
  deep[0] = qx; deep[1] = qy; deep[2] = qz;
  let sKept = Infinity;
  for (let i = 0; i < C.polyCount; i++) {
    const px = C.poly[3 * i]!, py = C.poly[3 * i + 1]!, pz = C.poly[3 * i + 2]!;
    const s = (px - ax) * nx + (py - ay) * ny + (pz - az) * nz;
    if (-s < -margin) continue;
    if (s < sKept) sKept = s;
    // p is on the box; the midpoint is p − n·s/2, the triangle point p − n·s.
    cand[0] = px - nx * 0.5 * s; cand[1] = py - ny * 0.5 * s; cand[2] = pz - nz * 0.5 * s; cand[3] = -nx; cand[4] = -ny; cand[5] = -nz; cand[6] = -s;
    C.push(t, C.polyCode[i]!, isBack);
  }
  if (-sDeep >= -margin && sDeep < sKept - MISSED_DEPTH && (C.polyCount === 0 || beyondOnlyInactiveEdges(P, mesh.normals, mesh.featureFlags[t]!, t, deep))) {
    const s = sDeep;
    cand[0] = qx - nx * 0.5 * s; cand[1] = qy - ny * 0.5 * s; cand[2] = qz - nz * 0.5 * s; cand[3] = -nx; cand[4] = -ny; cand[5] = -nz; cand[6] = -s;
    C.push(t, CODE_DEEPEST_VERTEX, isBack);
  }
}

/** Box face i (outward normal sign·u_i) is the reference: clip the triangle against its side planes. */
function boxFaceContact(mesh: MeshTriangles, t: number, i: number, sign: number): void {
  const cand = collector.cand;
  const cx = frame[0]!, cy = frame[1]!, cz = frame[2]!, margin = frame[3]!;
  const C = collector;
  const P = mesh.corners;
  const o = 9 * t;
  C.polyReset();
  C.polyPush(P, o, 0, CODE_TRI_CORNER);
  C.polyPush(P, o + 3, 1, CODE_TRI_CORNER + 1);
  C.polyPush(P, o + 6, 2, CODE_TRI_CORNER + 2);
  const plane = C.plane;
  for (let side = 0; side < 4 && C.polyCount > 0; side++) {
    const j = (i + 1 + (side >> 1)) % 3;
    const s = side & 1 ? -1 : 1;
    const ux = axes[3 * j]! * s, uy = axes[3 * j + 1]! * s, uz = axes[3 * j + 2]! * s;
    // Keep (p − c)·(±u_j) ≤ h_j.
    plane[0] = ux; plane[1] = uy; plane[2] = uz; plane[3] = ux * cx + uy * cy + uz * cz + half[j]!;
    C.clip(side, 3 + side, CODE_BOX_CLIP, 4);
  }
  const Nx = axes[3 * i]! * sign, Ny = axes[3 * i + 1]! * sign, Nz = axes[3 * i + 2]! * sign;
  for (let k = 0; k < C.polyCount; k++) {
    const px = C.poly[3 * k]!, py = C.poly[3 * k + 1]!, pz = C.poly[3 * k + 2]!;
    const s = (px - cx) * Nx + (py - cy) * Ny + (pz - cz) * Nz - half[i]!;
    if (-s < -margin) continue;
    // q on the triangle; the box point is q − N·s, the midpoint q − N·s/2.
    cand[0] = px - Nx * 0.5 * s; cand[1] = py - Ny * 0.5 * s; cand[2] = pz - Nz * 0.5 * s; cand[3] = Nx; cand[4] = Ny; cand[5] = Nz; cand[6] = -s;
    C.push(t, C.polyCode[k]!, false);
  }
}

/** Box edge along u_i against triangle edge j, normal N = edgeNormal (box → triangle). */
function edgeContact(mesh: MeshTriangles, t: number, i: number, j: number): void {
  const cand = collector.cand;
  const cx = frame[0]!, cy = frame[1]!, cz = frame[2]!, margin = frame[3]!;
  const Nx = edgeNormal[0]!, Ny = edgeNormal[1]!, Nz = edgeNormal[2]!;
  // The box edge parallel to u_i that supports the box along N.
  const a = (i + 1) % 3;
  const b = (i + 2) % 3;
  const sa = axes[3 * a]! * Nx + axes[3 * a + 1]! * Ny + axes[3 * a + 2]! * Nz >= 0 ? 1 : -1;
  const sb = axes[3 * b]! * Nx + axes[3 * b + 1]! * Ny + axes[3 * b + 2]! * Nz >= 0 ? 1 : -1;
  const ha = half[a]! * sa, hb = half[b]! * sb, hi = half[i]!;
  const px = cx + axes[3 * a]! * ha + axes[3 * b]! * hb - axes[3 * i]! * hi;
  const py = cy + axes[3 * a + 1]! * ha + axes[3 * b + 1]! * hb - axes[3 * i + 1]! * hi;
  const pz = cz + axes[3 * a + 2]! * ha + axes[3 * b + 2]! * hb - axes[3 * i + 2]! * hi;
  const dx = 2 * axes[3 * i]! * hi, dy = 2 * axes[3 * i + 1]! * hi, dz = 2 * axes[3 * i + 2]! * hi;
  const P = mesh.corners;
  const e0 = 9 * t + 3 * j;
  const e1 = 9 * t + 3 * ((j + 1) % 3);
  const fx = P[e1]! - P[e0]!, fy = P[e1 + 1]! - P[e0 + 1]!, fz = P[e1 + 2]! - P[e0 + 2]!;
  const C = collector;
  const A = C.segArgs;
  A[0] = px; A[1] = py; A[2] = pz; A[3] = dx; A[4] = dy; A[5] = dz;
  A[6] = P[e0]!; A[7] = P[e0 + 1]!; A[8] = P[e0 + 2]!; A[9] = fx; A[10] = fy; A[11] = fz;
  C.segmentSegment();
  const segS = C.seg[0]!, segT = C.seg[1]!;
  const ax = px + dx * segS, ay = py + dy * segS, az = pz + dz * segS;
  const bx = P[e0]! + fx * segT, by = P[e0 + 1]! + fy * segT, bz = P[e0 + 2]! + fz * segT;
  // Penetration along N: the box point lies past the triangle point by (a − b)·N.
  const depth = (ax - bx) * Nx + (ay - by) * Ny + (az - bz) * Nz;
  if (depth < -margin) return;
  const edgeId = i * 4 + (sa > 0 ? 1 : 0) + (sb > 0 ? 2 : 0);
  cand[0] = 0.5 * (ax + bx); cand[1] = 0.5 * (ay + by); cand[2] = 0.5 * (az + bz); cand[3] = Nx; cand[4] = Ny; cand[5] = Nz; cand[6] = depth;
  C.push(t, CODE_EDGE + edgeId * 3 + j, false);
}
