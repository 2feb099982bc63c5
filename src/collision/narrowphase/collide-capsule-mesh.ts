/**
 * Capsule (A) against a static TriangleMesh (B).
 *
 * Per triangle: the closest points p (on the capsule's segment) and q (on the
 * triangle). If the segment pierces the triangle the distance is 0; otherwise
 * it is the least of the two end points against the triangle (§5.1.5) and the
 * segment against the three edges (§5.1.9, Ericson). Touching when
 * |p − q| ≤ r + margin.
 * - q on an ACTIVE edge/corner: one point, normal (q − p)/|q − p|.
 * - q on the face or an inactive edge/corner, or the segment pierces the
 *   triangle with the capsule's centre in front: the face normal −n, and the
 *   segment clipped to the triangle's prism (the three inward edge planes
 *   n × e). Unless the capsule stands within ~25° of the normal, each
 *   segment end over the triangle gets a point at the capsule's lowest
 *   point below it, kept when within the margin — both ends, as against a
 *   box face, so a tilted capsule swinging down during the step is held at
 *   its far end too. Lying (nearly) flat, |axis·n| < FLAT_SIN, the clipped
 *   ends get points wherever they are: two per triangle, so a lying capsule
 *   gets a stable 2-point manifold across the seams.
 *   The capsule's lower end (its support along −n) has a point too, over
 *   this triangle or not, unless the capsule lies flat clear of the plane
 *   (then the triangle under that end has it).
 * Back faces: see triangle-contact.ts; the capsule's centre decides whether
 * a pierced triangle is a back face, as a box's or a sphere's does; a
 * double-sided mesh takes the side of the centre as the front.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { CapsuleGeometry as Capsule } from '../../shapes/geometry';
import type { MeshTriangles } from '../../shapes/geometry';
import type { Manifold } from './manifold';
import { capsuleLineExtent, lineArgs } from './collide-capsule-capsule';
import { narrowphaseMargin } from './margin';
import { closestPointOnTriangle, FEATURE_EDGE, FEATURE_VERTEX, isFeatureActive, MeshContactCollector, projectsInside } from './triangle-contact';

const collector = /* @__PURE__ */ new MeshContactCollector();
const FLAT_SIN = 0.02;
/** |axis·n| from which the capsule stands on its lower end only (within ~25° of upright): the upper end adds nothing. */
const UPRIGHT_COS = 0.9;
const CODE_START = 100;
const CODE_END = 101;
const CODE_CLOSEST = 102;
const CODE_PIERCE = 103;

/** The dispatch-table entry (dispatch.ts): contacts within the margin in narrowphaseMargin[0]. */
export function capsuleMeshContacts(
  a: Capsule, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  mesh: MeshTriangles, posB: Readonly<Vec3>, rotB: Readonly<Quat>, manifold: Manifold,
): void {
  const cand = collector.cand;
  const point = collector.point;
  const localPos = collector.localPos;
  const margin = narrowphaseMargin[0]!;
  collector.enterMeshFrame(posA, rotA, posB, rotB);
  const r = a.radius;
  const hh = a.halfHeight;
  const q = collector.localRot;
  // Segment axis = local Y rotated into the mesh frame.
  const ax = 2 * (q.x * q.y - q.w * q.z);
  const ay = 1 - 2 * (q.x * q.x + q.z * q.z);
  const az = 2 * (q.y * q.z + q.w * q.x);
  const p0x = localPos.x - ax * hh, p0y = localPos.y - ay * hh, p0z = localPos.z - az * hh;
  const dx = 2 * ax * hh, dy = 2 * ay * hh, dz = 2 * az * hh;
  const reach = r + margin;
  const ex = Math.abs(ax) * hh + reach, ey = Math.abs(ay) * hh + reach, ez = Math.abs(az) * hh + reach;
  const bounds = collector.bounds;
  bounds[0] = ex; bounds[1] = ey; bounds[2] = ez;
  const count = collector.gatherTriangles(mesh);
  const tris = collector.triangles;
  const seg = collector.seg;
  const segArgs = collector.segArgs;
  const qa = collector.v0;
  const qb = collector.v1;
  const corners = mesh.corners;
  const normals = mesh.normals;
  for (let k = 0; k < count; k++) {
    const t = tris[k]!;
    const o = 9 * t;
    const vx = corners[o]!, vy = corners[o + 1]!, vz = corners[o + 2]!;
    // side = −1 turns a double-sided triangle whose back the centre is on.
    let side = 1;
    if (mesh.doubleSided && (localPos.x - vx) * normals[3 * t]! + (localPos.y - vy) * normals[3 * t + 1]! + (localPos.z - vz) * normals[3 * t + 2]! < 0) side = -1;
    const nx = side * normals[3 * t]!, ny = side * normals[3 * t + 1]!, nz = side * normals[3 * t + 2]!;
    const s0 = (p0x - vx) * nx + (p0y - vy) * ny + (p0z - vz) * nz;
    const s1 = s0 + dx * nx + dy * ny + dz * nz;

    // Does the segment pierce the triangle? Then only a push out of the front
    // makes sense: a back candidate when the capsule's centre is behind the
    // plane (as for a box or sphere), else the face contact below, whose
    // points hold the pierced end and the other one alike.
    let pierced = false;
    if ((s0 < 0 && s1 > 0) || (s0 > 0 && s1 < 0) || s0 === 0 || s1 === 0) {
      const u = s0 === s1 ? 0 : s0 / (s0 - s1);
      const xx = p0x + dx * u, xy = p0y + dy * u, xz = p0z + dz * u;
      point[0] = xx; point[1] = xy; point[2] = xz;
      if (projectsInside(corners, normals, t, point)) {
        const lo = Math.min(s0, s1);
        if (lo < 0 && s0 + s1 < 0) {
          const px = s0 <= s1 ? p0x : p0x + dx, py = s0 <= s1 ? p0y : p0y + dy, pz = s0 <= s1 ? p0z : p0z + dz;
          cand[0] = px - nx * r; cand[1] = py - ny * r; cand[2] = pz - nz * r; cand[3] = -nx; cand[4] = -ny; cand[5] = -nz; cand[6] = r - lo;
          collector.pushFromPointA(t, CODE_PIERCE, true);
          continue;
        }
        pierced = lo < 0;
      }
    }

    // Closest pair: end points against the triangle, then the segment against each edge.
    point[0] = p0x; point[1] = p0y; point[2] = p0z;
    let feature = closestPointOnTriangle(qa, corners, t, point);
    let bestSq = (qa.x - p0x) ** 2 + (qa.y - p0y) ** 2 + (qa.z - p0z) ** 2;
    let sBest = 0;
    let qx = qa.x, qy = qa.y, qz = qa.z;
    point[0] = p0x + dx; point[1] = p0y + dy; point[2] = p0z + dz;
    const f1 = closestPointOnTriangle(qb, corners, t, point);
    const d1 = (qb.x - p0x - dx) ** 2 + (qb.y - p0y - dy) ** 2 + (qb.z - p0z - dz) ** 2;
    if (d1 < bestSq - 1e-12) {
      bestSq = d1; feature = f1; sBest = 1; qx = qb.x; qy = qb.y; qz = qb.z;
    }
    for (let e = 0; e < 3; e++) {
      const e0 = o + 3 * e;
      const e1 = o + 3 * ((e + 1) % 3);
      const cx = corners[e0]!, cy = corners[e0 + 1]!, cz = corners[e0 + 2]!;
      const fx = corners[e1]! - cx, fy = corners[e1 + 1]! - cy, fz = corners[e1 + 2]! - cz;
      segArgs[0] = p0x; segArgs[1] = p0y; segArgs[2] = p0z; segArgs[3] = dx; segArgs[4] = dy; segArgs[5] = dz;
      segArgs[6] = cx; segArgs[7] = cy; segArgs[8] = cz; segArgs[9] = fx; segArgs[10] = fy; segArgs[11] = fz;
      collector.segmentSegment();
      const dsq = seg[2]!;
      if (dsq < bestSq - 1e-12) {
        bestSq = dsq;
        sBest = seg[0]!;
        const segT = seg[1]!;
        qx = cx + fx * segT; qy = cy + fy * segT; qz = cz + fz * segT;
        feature = segT <= 0 ? FEATURE_VERTEX + e : segT >= 1 ? FEATURE_VERTEX + ((e + 1) % 3) : FEATURE_EDGE + e;
      }
    }
    if (bestSq > reach * reach && !pierced) continue;
    const px = p0x + dx * sBest, py = p0y + dy * sBest, pz = p0z + dz * sBest;
    const sp = (px - vx) * nx + (py - vy) * ny + (pz - vz) * nz;
    if (sp < 0 && !pierced) {
      point[0] = px; point[1] = py; point[2] = pz;
      if (!projectsInside(corners, normals, t, point)) continue;
      cand[0] = px - nx * r; cand[1] = py - ny * r; cand[2] = pz - nz * r; cand[3] = -nx; cand[4] = -ny; cand[5] = -nz; cand[6] = r - sp;
      collector.pushFromPointA(t, CODE_CLOSEST, true);
      continue;
    }
    const dist = Math.sqrt(bestSq);
    if (!pierced && isFeatureActive(mesh.featureFlags[t]!, feature) && dist > 1e-9) {
      const inv = 1 / dist;
      const ux = (qx - px) * inv, uy = (qy - py) * inv, uz = (qz - pz) * inv;
      cand[0] = px + ux * r; cand[1] = py + uy * r; cand[2] = pz + uz * r; cand[3] = ux; cand[4] = uy; cand[5] = uz; cand[6] = r - dist;
      collector.pushFromPointA(t, CODE_CLOSEST, false);
      continue;
    }
    const tilt = Math.abs(ax * nx + ay * ny + az * nz);
    if (tilt < UPRIGHT_COS) {
      // Clip P0 + u·D, u ∈ [0, 1], to the prism: (P − v_j)·(n × e_j) ≥ 0 for each edge j.
      let u0 = 0;
      let u1 = 1;
      for (let e = 0; e < 3 && u0 <= u1; e++) {
        const e0 = o + 3 * e;
        const e1 = o + 3 * ((e + 1) % 3);
        const cx = corners[e0]!, cy = corners[e0 + 1]!, cz = corners[e0 + 2]!;
        const fx = corners[e1]! - cx, fy = corners[e1 + 1]! - cy, fz = corners[e1 + 2]! - cz;
        // (side restores the stored normal: the corners run counter-clockwise about it.)
        const mx = side * (ny * fz - nz * fy), my = side * (nz * fx - nx * fz), mz = side * (nx * fy - ny * fx);
        // An end on a shared edge (to rounding) counts as over both triangles.
        const tol = 1e-9 * (fx * fx + fy * fy + fz * fz);
        const fa = (p0x - cx) * mx + (p0y - cy) * my + (p0z - cz) * mz;
        const fb = fa + dx * mx + dy * my + dz * mz;
        if (fa < -tol && fb < -tol) {
          u1 = -1;
        } else if (fa < -tol) {
          u0 = Math.max(u0, fa / (fa - fb));
        } else if (fb < -tol) {
          u1 = Math.min(u1, fa / (fa - fb));
        }
      }
      if (u0 <= u1) {
        // The capsule's lowest point under each segment end, P + n·σ: a line
        // cast along n (the lower end's is its ball's bottom, σ = −r; the
        // upper end's is on the cylinder). Flat: both clipped ends, σ
        // interpolated (on the capsule to within r·sin²θ/2), so the points
        // of coplanar triangles stay on one line. Tilted: only the segment's
        // own ends that lie over the triangle. Every end within the margin
        // gets a point, so an end still above the face is held too while
        // the capsule swings down onto it during the step.
        const flat = tilt < FLAT_SIN;
        const line = lineArgs;
        line[3] = nx; line[4] = ny; line[5] = nz;
        line[6] = localPos.x; line[7] = localPos.y; line[8] = localPos.z;
        line[9] = ax; line[10] = ay; line[11] = az; line[12] = hh; line[13] = r;
        line[0] = p0x; line[1] = p0y; line[2] = p0z;
        capsuleLineExtent(false);
        const sigma0 = line[14]!;
        line[0] = p0x + dx; line[1] = p0y + dy; line[2] = p0z + dz;
        capsuleLineExtent(false);
        const sigma1 = line[14]!;
        let keep0 = false;
        if (flat || u0 === 0) {
          const sigma = sigma0 + (sigma1 - sigma0) * u0;
          const depth0 = -(s0 + (s1 - s0) * u0) - sigma;
          keep0 = depth0 >= -margin;
          if (keep0) {
            cand[0] = p0x + dx * u0 + nx * sigma; cand[1] = p0y + dy * u0 + ny * sigma; cand[2] = p0z + dz * u0 + nz * sigma; cand[3] = -nx; cand[4] = -ny; cand[5] = -nz; cand[6] = depth0;
            collector.pushFromPointA(t, CODE_START, false);
          }
        }
        let keep1 = false;
        if ((flat || u1 === 1) && u1 - u0 > 1e-9) {
          const sigma = sigma0 + (sigma1 - sigma0) * u1;
          const depth1 = -(s0 + (s1 - s0) * u1) - sigma;
          keep1 = depth1 >= -margin;
          if (keep1) {
            cand[0] = p0x + dx * u1 + nx * sigma; cand[1] = p0y + dy * u1 + ny * sigma; cand[2] = p0z + dz * u1 + nz * sigma; cand[3] = -nx; cand[4] = -ny; cand[5] = -nz; cand[6] = depth1;
            collector.pushFromPointA(t, CODE_END, false);
          }
        }
        // Done when the lower end has its point (it is the support below);
        // a flat capsule clear of the plane is done anyway: its clipped ends
        // over the other triangles hold the rest.
        if ((s0 <= s1 ? keep0 && u0 === 0 : keep1 && u1 === 1) || (flat && !pierced)) continue;
      }
    }
    // Against the face plane the capsule's deepest point is its lower end
    // (its support along −n), not the point nearest the edge.
    const lowEnd = s0 <= s1 ? 0 : 1;
    const depth = r - (lowEnd === 0 ? s0 : s1);
    if (depth < -margin) continue;
    // The capsule is dist from this triangle: its plane, extended under an
    // end that is over another triangle (which gives that end its point) or
    // off the mesh, must not claim more: a far triangle's plane would hold a
    // capsule deep under a surface it is nowhere near.
    if (!pierced && depth > r - dist + 1e-6) continue;
    const lx = p0x + dx * lowEnd, ly = p0y + dy * lowEnd, lz = p0z + dz * lowEnd;
    cand[0] = lx - nx * r; cand[1] = ly - ny * r; cand[2] = lz - nz * r; cand[3] = -nx; cand[4] = -ny; cand[5] = -nz; cand[6] = depth;
    collector.pushFromPointA(t, pierced ? CODE_PIERCE : CODE_CLOSEST, false);
  }
  collector.finish(manifold, posB, rotB);
}
