/**
 * Sphere (A) against a static TriangleMesh (B).
 *
 * Per triangle: the closest point q on the triangle to the centre c
 * (Ericson §5.1.5). Touching when |c − q| ≤ r + margin. The normal is
 * (q − c)/|q − c| and depth r − |c − q| when q lies on the face or on an
 * ACTIVE (convex/open) edge or corner; on an inactive (flat/concave) edge or
 * corner the triangle's face normal −n and plane depth r − (c − a)·n are used
 * instead, so a sphere rolling over a tessellated floor sees only the floor
 * normal (see triangle-mesh.ts). Back faces: see triangle-contact.ts.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { Sphere } from '../../shapes/sphere';
import type { TriangleMesh } from '../../shapes/triangle-mesh';
import type { Manifold } from './manifold';
import { closestPointOnTriangle, isFeatureActive, MeshContactCollector, projectsInside, toMeshLocal } from './triangle-contact';

const collector = new MeshContactCollector();
const localPos: Vec3 = { x: 0, y: 0, z: 0 };
const localRot: Quat = { x: 0, y: 0, z: 0, w: 1 };

/** Feature code of a sphere contact (one per triangle). */
const SPHERE_CODE = 110;

export function collideSphereMesh(
  a: Sphere,
  posA: Readonly<Vec3>,
  rotA: Readonly<Quat>,
  mesh: TriangleMesh,
  posB: Readonly<Vec3>,
  rotB: Readonly<Quat>,
  margin: number,
  manifold: Manifold,
): void {
  toMeshLocal(localPos, localRot, posA, rotA, posB, rotB);
  const r = a.radius;
  const cx = localPos.x, cy = localPos.y, cz = localPos.z;
  const reach = r + margin;
  const tris = collector.triangles;
  const count = mesh.queryBounds(cx - reach, cy - reach, cz - reach, cx + reach, cy + reach, cz + reach, tris, 0);
  collector.begin();
  const q = collector.v0;
  const corners = mesh.corners;
  const normals = mesh.normals;
  for (let k = 0; k < count; k++) {
    const t = tris[k]!;
    const feature = closestPointOnTriangle(q, corners, t, cx, cy, cz);
    const dx = q.x - cx, dy = q.y - cy, dz = q.z - cz;
    const distSq = dx * dx + dy * dy + dz * dz;
    if (distSq > reach * reach) continue;
    const nx = normals[3 * t]!, ny = normals[3 * t + 1]!, nz = normals[3 * t + 2]!;
    const o = 9 * t;
    const s = (cx - corners[o]!) * nx + (cy - corners[o + 1]!) * ny + (cz - corners[o + 2]!) * nz;
    if (s < 0) {
      if (!projectsInside(corners, normals, t, cx, cy, cz)) continue;
      // Behind the face: push out through the front (one-sided), depth r − s.
      collector.addFromPointA(cx - nx * r, cy - ny * r, cz - nz * r, -nx, -ny, -nz, r - s, t, SPHERE_CODE, true);
      continue;
    }
    const dist = Math.sqrt(distSq);
    if (isFeatureActive(mesh.featureFlags[t]!, feature) && dist > 1e-9) {
      const inv = 1 / dist;
      const ux = dx * inv, uy = dy * inv, uz = dz * inv;
      collector.addFromPointA(cx + ux * r, cy + uy * r, cz + uz * r, ux, uy, uz, r - dist, t, SPHERE_CODE, false);
    } else {
      const depth = r - s;
      if (depth < -margin) continue;
      collector.addFromPointA(cx - nx * r, cy - ny * r, cz - nz * r, -nx, -ny, -nz, depth, t, SPHERE_CODE, false);
    }
  }
  collector.finish(manifold, posB, rotB);
}
