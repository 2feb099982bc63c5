/**
 * A general convex shape (Cylinder, ConvexHull) against a static
 * TriangleMesh (B), in the mesh frame. Per triangle: GJK/EPA between the
 * convex and the triangle for the normal, then the face-clipping stage of
 * collide-convex.ts with the triangle as a polygon feature, so a hull face
 * or a cylinder cap lying on the mesh rests on up to four points and a
 * cylinder's side on two.
 *
 * Internal edges: when the EPA normal is not the triangle's face normal, the
 * triangle feature that supports it (its corners nearest the convex along
 * the normal) must be an ACTIVE edge or corner (triangle-mesh.ts); otherwise
 * the face normal is used, so a wheel rolling over a tessellated floor never
 * catches on a seam. Back faces and double-sided meshes: triangle-contact.ts
 * (the convex's centre decides the side).
 */
import type { Aabb } from '../../collision/aabb';
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { ConvexShape } from '../../shapes/shape';
import type { MeshTriangles as TriangleMesh } from '../../shapes/geometry';
import { featureActive } from '../../shapes/geometry';
import { addEpaPoint, ClipContext, clipFeatures, inverseRotateInPlace, localFeature, transformFeature } from './collide-convex';
import { epaPenetration } from './epa';
import { GjkResult } from './gjk';
import type { Manifold } from './manifold';
import { narrowphaseMargin } from './margin';
import { loadCoreRadius } from './minkowski-pair';
import { beyondOnlyInactiveEdges, MeshContactCollector, normalInFeatureCone, projectsInside } from './triangle-contact';
import { TriangleCore } from './triangle-core';

const collector = /* @__PURE__ */ new MeshContactCollector();
const ctx = /* @__PURE__ */ new ClipContext();
const triangle = /* @__PURE__ */ new TriangleCore();
const res = /* @__PURE__ */ new GjkResult();
const box: Aabb = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
// The convex's pose in the mesh frame (enterMeshFrame).
const origin: Vec3 = { x: 0, y: 0, z: 0 };
const identityRot: Quat = { x: 0, y: 0, z: 0, w: 1 };
const dir: Vec3 = { x: 0, y: 0, z: 0 };
const supportPoint: Vec3 = { x: 0, y: 0, z: 0 };
/** The EPA normal reversed (out of the mesh), for normalInFeatureCone. */
const outward = new Float64Array(3);
/** The convex's centre in the mesh frame [0..2] and the margin [3]. */
const frame = new Float64Array(4);

const CODE_EPA = 127;
const CODE_BACK = 126;
const CODE_DEEPEST = 125;
/** Corners within this distance (m) of the nearest one along the normal share its feature. */
const FEATURE_TOLERANCE = 1e-6;

/** Contacts of convex A against mesh B (world poses), margin from narrowphaseMargin[0]; normal A → B. */
export function convexMeshContacts(
  a: ConvexShape, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  mesh: TriangleMesh, posB: Readonly<Vec3>, rotB: Readonly<Quat>, manifold: Manifold,
): void {
  const localPos = collector.localPos;
  const localRot = collector.localRot;
  const margin = narrowphaseMargin[0]!;
  collector.enterMeshFrame(posA, rotA, posB, rotB);
  const c = localPos;
  a.computeAabb(box, c, localRot);
  // gatherTriangles takes half extents about the centre (the hull's box need not be centred on it).
  const bounds = collector.bounds;
  bounds[0] = Math.max(c.x - box.min.x, box.max.x - c.x) + margin;
  bounds[1] = Math.max(c.y - box.min.y, box.max.y - c.y) + margin;
  bounds[2] = Math.max(c.z - box.min.z, box.max.z - c.z) + margin;
  const count = collector.gatherTriangles(mesh);
  const tris = collector.triangles;
  frame[0] = c.x; frame[1] = c.y; frame[2] = c.z; frame[3] = margin;
  for (let k = 0; k < count; k++) convexTriangle(a, mesh, tris[k]!);
  collector.finish(manifold, posB, rotB);
}

function convexTriangle(a: ConvexShape, mesh: TriangleMesh, t: number): void {
  const cand = collector.cand;
  const localPos = collector.localPos;
  const localRot = collector.localRot;
  const margin = frame[3]!;
  const P = mesh.corners;
  const T = triangle.corners;
  const o = 9 * t;
  for (let k = 0; k < 9; k++) T[k] = P[o + k]!;
  const tnx = mesh.normals[3 * t]!, tny = mesh.normals[3 * t + 1]!, tnz = mesh.normals[3 * t + 2]!;
  const dC = (frame[0]! - T[0]!) * tnx + (frame[1]! - T[1]!) * tny + (frame[2]! - T[2]!) * tnz;
  let side = 1;
  if (dC < 0) {
    if (!mesh.doubleSided) {
      if (projectsInside(P, mesh.normals, t, frame)) backContact(a, mesh, t);
      return;
    }
    side = -1;
  }
  // Contact normal of the face: from the convex into the mesh, −(front normal).
  const fx = -side * tnx, fy = -side * tny, fz = -side * tnz;
  epaPenetration(a, localPos, localRot, triangle, origin, identityRot, res);
  if (res.distance > margin) return;
  let nx = res.normal.x, ny = res.normal.y, nz = res.normal.z;
  let usesFace = false;
  if (nx * fx + ny * fy + nz * fz < 1 - 1e-9) {
    // The triangle's corners nearest the convex along n form the supporting feature.
    const pa = T[0]! * nx + T[1]! * ny + T[2]! * nz;
    const pb = T[3]! * nx + T[4]! * ny + T[5]! * nz;
    const pc = T[6]! * nx + T[7]! * ny + T[8]! * nz;
    const lo = Math.min(pa, pb, pc) + FEATURE_TOLERANCE;
    const mask = (pa <= lo ? 1 : 0) | (pb <= lo ? 2 : 0) | (pc <= lo ? 4 : 0);
    const out = outward;
    out[0] = -nx; out[1] = -ny; out[2] = -nz;
    if (!featureActive(mesh.featureFlags[t]!, mask) || nx * fx + ny * fy + nz * fz <= 0 || !normalInFeatureCone(mesh, t, mask, out)) {
      nx = fx; ny = fy; nz = fz;
      usesFace = true;
    }
  }
  const io = ctx.io;
  io[0] = nx; io[1] = ny; io[2] = nz;
  loadCoreRadius(a, io, 3); io[4] = 0; io[5] = margin;
  // The convex's feature along n (found in its own frame), and the triangle wound counter-clockwise about its front.
  dir.x = nx; dir.y = ny; dir.z = nz;
  inverseRotateInPlace(dir, localRot);
  localFeature(a, dir, ctx.a, ctx.tmp);
  transformFeature(ctx.a, localPos, localRot);
  const B = ctx.b;
  const Q = B.points;
  for (let k = 0; k < 3; k++) Q[k] = T[k]!;
  const second = side > 0 ? 3 : 6, third = side > 0 ? 6 : 3;
  for (let k = 0; k < 3; k++) { Q[3 + k] = T[second + k]!; Q[6 + k] = T[third + k]!; }
  B.count = 3;
  B.face = 0;
  B.normal[0] = -fx; B.normal[1] = -fy; B.normal[2] = -fz;
  const clipped = clipFeatures(ctx);
  if (!usesFace) addEpaPoint(ctx, res, clipped, CODE_EPA);
  else if (ctx.candCount === 0 && deepestPoint(a, mesh, t, ctx)) return;
  const C = ctx.cand;
  for (let i = 0; i < ctx.candCount; i++) {
    cand[0] = C[4 * i]!; cand[1] = C[4 * i + 1]!; cand[2] = C[4 * i + 2]!;
    cand[3] = io[0]!; cand[4] = io[1]!; cand[5] = io[2]!;
    cand[6] = C[4 * i + 3]!;
    collector.push(t, ctx.candId[i]! & 127, false);
  }
}

/**
 * With the face normal in c.io[0..2], when the clip kept no candidate: adds
 * the convex's support point along the normal at its depth under triangle
 * t's plane. Below a valley seam the faces' normals fan apart, so the
 * deepest point can lie in neither triangle's prism, and a small convex
 * there would get no contact at all. Only when the point is beyond the
 * prism across flat or concave seams alone: past an open or convex edge
 * there is no surface level with this plane to rest on. When the clip kept
 * a point, the one where the convex's face crosses the prism holds the
 * convex (docs/collision.md). Returns whether it added the point.
 */
function deepestPoint(a: ConvexShape, mesh: TriangleMesh, t: number, c: ClipContext): boolean {
  const cand = collector.cand;
  const T = triangle.corners;
  const io = c.io;
  const fx = io[0]!, fy = io[1]!, fz = io[2]!;
  supportInMeshFrame(a, io);
  const sx = cand[0]!, sy = cand[1]!, sz = cand[2]!;
  const depth = (sx - T[0]!) * fx + (sy - T[1]!) * fy + (sz - T[2]!) * fz;
  if (depth < -frame[3]!) return false;
  if (!beyondOnlyInactiveEdges(mesh.corners, mesh.normals, mesh.featureFlags[t]!, t, cand)) return false;
  cand[3] = fx; cand[4] = fy; cand[5] = fz;
  cand[6] = depth;
  collector.pushFromPointA(t, CODE_DEEPEST, false);
  return true;
}

/** collector.cand[0..2] ← the convex's support point along d[0..2], in the mesh frame. */
function supportInMeshFrame(a: ConvexShape, d: Float64Array): void {
  const localPos = collector.localPos;
  const q = collector.localRot;
  dir.x = d[0]!; dir.y = d[1]!; dir.z = d[2]!;
  inverseRotateInPlace(dir, q);
  a.support(supportPoint, dir);
  // Into the mesh frame: q p + t.
  const vx = supportPoint.x, vy = supportPoint.y, vz = supportPoint.z;
  const tx = 2 * (q.y * vz - q.z * vy), ty = 2 * (q.z * vx - q.x * vz), tz = 2 * (q.x * vy - q.y * vx);
  const cand = collector.cand;
  cand[0] = vx + q.w * tx + (q.y * tz - q.z * ty) + localPos.x;
  cand[1] = vy + q.w * ty + (q.z * tx - q.x * tz) + localPos.y;
  cand[2] = vz + q.w * tz + (q.x * ty - q.y * tx) + localPos.z;
}

/**
 * The convex's centre is behind single-sided triangle t and over it: push out
 * through the front, by the depth of the convex's deepest point behind the plane.
 */
function backContact(a: ConvexShape, mesh: TriangleMesh, t: number): void {
  const cand = collector.cand;
  const T = triangle.corners;
  const tnx = mesh.normals[3 * t]!, tny = mesh.normals[3 * t + 1]!, tnz = mesh.normals[3 * t + 2]!;
  const d = ctx.io;
  d[0] = -tnx; d[1] = -tny; d[2] = -tnz;
  supportInMeshFrame(a, d);
  const sx = cand[0]!, sy = cand[1]!, sz = cand[2]!;
  cand[3] = -tnx; cand[4] = -tny; cand[5] = -tnz;
  cand[6] = (T[0]! - sx) * tnx + (T[1]! - sy) * tny + (T[2]! - sz) * tnz;
  collector.pushFromPointA(t, CODE_BACK, true);
}
