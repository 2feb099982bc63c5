/**
 * Sphere–sphere contact: one point along the line of centres. The depth
 * rA + rB − |cB − cA| is the exact penetration depth.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { SphereGeometry as Sphere } from '../../shapes/geometry';
import type { Manifold } from './manifold';
import { narrowphaseGap, narrowphaseMargin } from './margin';

// The point goes to the manifold through a Float64Array: position xyz, normal xyz, depth.
const point = new Float64Array(7);

/** Contacts between sphere A and sphere B (world poses); normal A→B, id 0. */
export function sphereSphereContacts(
  a: Sphere, posA: Readonly<Vec3>, _rotA: Readonly<Quat>,
  b: Sphere, posB: Readonly<Vec3>, _rotB: Readonly<Quat>, manifold: Manifold,
): void {
  const margin = narrowphaseMargin[0]!;
  manifold.reset();
  let nx = posB.x - posA.x, ny = posB.y - posA.y, nz = posB.z - posA.z;
  const dist = Math.sqrt(nx * nx + ny * ny + nz * nz);
  const rA = a.radius, rB = b.radius;
  const separation = dist - rA - rB;
  if (separation > margin) {
    narrowphaseGap[0] = separation;
    return;
  }
  if (dist > 1e-12) {
    nx /= dist; ny /= dist; nz /= dist;
  } else {
    // Coincident centres: every direction is a minimum; pick +Y.
    nx = 0; ny = 1; nz = 0;
  }
  // Midpoint of the surface points cA + n rA and cB − n rB.
  const k = 0.5 * (rA - rB);
  point[0] = 0.5 * (posA.x + posB.x) + nx * k; point[1] = 0.5 * (posA.y + posB.y) + ny * k; point[2] = 0.5 * (posA.z + posB.z) + nz * k;
  point[3] = nx; point[4] = ny; point[5] = nz; point[6] = -separation;
  manifold.addPointFrom(point, 0, 0);
}
