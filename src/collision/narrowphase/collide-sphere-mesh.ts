/**
 * Sphere (A) against a static TriangleMesh (B).
 *
 * Per triangle: the closest point q on the triangle to the centre c
 * (Ericson §5.1.5). Touching when |c − q| ≤ r + margin. The normal is
 * (q − c)/|q − c| and depth r − |c − q| when q lies on the face or on an
 * ACTIVE (convex/open) edge or corner; on an inactive (flat/concave) edge or
 * corner the triangle's face normal −n and plane depth r − (c − a)·n are used
 * instead, so a sphere rolling over a tessellated floor sees only the floor
 * normal (see triangle-mesh.ts). Back faces: see triangle-contact.ts; a
 * double-sided mesh takes the side of the centre as the front.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { SphereGeometry as Sphere } from '../../shapes/geometry';
import type { MeshTriangles } from '../../shapes/geometry';
import type { Manifold } from './manifold';
import { narrowphaseMargin } from './margin';
import { closestPointOnTriangle, isFeatureActive, MeshContactCollector, projectsInside } from './triangle-contact';

const collector = /* @__PURE__ */ new MeshContactCollector();

/** Feature code of a sphere contact (one per triangle). */
const SPHERE_CODE = 110;

/** The dispatch-table entry (dispatch.ts): contacts within the margin in narrowphaseMargin[0]. */
export function sphereMeshContacts(
  a: Sphere, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  mesh: MeshTriangles, posB: Readonly<Vec3>, rotB: Readonly<Quat>, manifold: Manifold,
): void {
  const cand = collector.cand;
  const point = collector.point;
  const margin = narrowphaseMargin[0]!;
  collector.enterMeshFrame(posA, rotA, posB, rotB);
  const r = a.radius;
  const cx = collector.localPos.x, cy = collector.localPos.y, cz = collector.localPos.z;
  const reach = r + margin;
  const bounds = collector.bounds;
  bounds[0] = reach; bounds[1] = reach; bounds[2] = reach;
  const count = collector.gatherTriangles(mesh);
  const tris = collector.triangles;
  point[0] = cx; point[1] = cy; point[2] = cz;
  const q = collector.v0;
  const corners = mesh.corners;
  const normals = mesh.normals;
  for (let k = 0; k < count; k++) {
    const t = tris[k]!;
    const feature = closestPointOnTriangle(q, corners, t, point);
    const dx = q.x - cx, dy = q.y - cy, dz = q.z - cz;
    const distSq = dx * dx + dy * dy + dz * dz;
    if (distSq > reach * reach) continue;
    let nx = normals[3 * t]!, ny = normals[3 * t + 1]!, nz = normals[3 * t + 2]!;
    const o = 9 * t;
    let s = (cx - corners[o]!) * nx + (cy - corners[o + 1]!) * ny + (cz - corners[o + 2]!) * nz;
    if (s < 0 && mesh.doubleSided) {
      // Double-sided: the side the centre is on is the front.
      nx = -nx; ny = -ny; nz = -nz; s = -s;
    }
    if (s < 0) {
      if (!projectsInside(corners, normals, t, point)) continue;
      // Behind the face: push out through the front (one-sided), depth r − s.
      cand[0] = cx - nx * r; cand[1] = cy - ny * r; cand[2] = cz - nz * r; cand[3] = -nx; cand[4] = -ny; cand[5] = -nz; cand[6] = r - s;
      collector.pushFromPointA(t, SPHERE_CODE, true);
      continue;
    }
    const dist = Math.sqrt(distSq);
    if (isFeatureActive(mesh.featureFlags[t]!, feature) && dist > 1e-9) {
      const inv = 1 / dist;
      const ux = dx * inv, uy = dy * inv, uz = dz * inv;
      cand[0] = cx + ux * r; cand[1] = cy + uy * r; cand[2] = cz + uz * r; cand[3] = ux; cand[4] = uy; cand[5] = uz; cand[6] = r - dist;
      collector.pushFromPointA(t, SPHERE_CODE, false);
    } else {
      const depth = r - s;
      if (depth < -margin) continue;
      cand[0] = cx - nx * r; cand[1] = cy - ny * r; cand[2] = cz - nz * r; cand[3] = -nx; cand[4] = -ny; cand[5] = -nz; cand[6] = depth;
      collector.pushFromPointA(t, SPHERE_CODE, false);
    }
  }
  collector.finish(manifold, posB, rotB);
}
