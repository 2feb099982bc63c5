/**
 * Sphere–capsule contact: the sphere against the closest point of the
 * capsule's segment (Ericson 5.1.2), then as two spheres. Exact depth
 * rS + rC − dist(centre, segment).
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { CapsuleGeometry as Capsule } from '../../shapes/geometry';
import type { SphereGeometry as Sphere } from '../../shapes/geometry';
import type { Manifold } from './manifold';
import { narrowphaseGap, narrowphaseMargin } from './margin';

// The point goes to the manifold through a Float64Array: position xyz, normal xyz, depth.
const point = new Float64Array(7);

/** Contacts between sphere A and capsule B (world poses); normal A→B, id 0. */
export function sphereCapsuleContacts(
  a: Sphere, posA: Readonly<Vec3>, _rotA: Readonly<Quat>,
  b: Capsule, posB: Readonly<Vec3>, rotB: Readonly<Quat>, manifold: Manifold,
): void {
  const margin = narrowphaseMargin[0]!;
  manifold.reset();
  const ux = 2 * (rotB.x * rotB.y - rotB.w * rotB.z);
  const uy = 1 - 2 * (rotB.x * rotB.x + rotB.z * rotB.z);
  const uz = 2 * (rotB.y * rotB.z + rotB.w * rotB.x);
  const h = b.halfHeight;
  let t = (posA.x - posB.x) * ux + (posA.y - posB.y) * uy + (posA.z - posB.z) * uz;
  t = t < -h ? -h : t > h ? h : t;
  const qx = posB.x + ux * t, qy = posB.y + uy * t, qz = posB.z + uz * t;
  let nx = qx - posA.x, ny = qy - posA.y, nz = qz - posA.z;
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
    // Centre on the segment: any direction perpendicular to the axis is a minimum.
    if (Math.abs(ux) < 0.9) { nx = 0; ny = uz; nz = -uy; } else { nx = -uz; ny = 0; nz = ux; }
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    nx /= len; ny /= len; nz /= len;
  }
  const k = 0.5 * (rA - rB);
  point[0] = 0.5 * (posA.x + qx) + nx * k; point[1] = 0.5 * (posA.y + qy) + ny * k; point[2] = 0.5 * (posA.z + qz) + nz * k;
  point[3] = nx; point[4] = ny; point[5] = nz; point[6] = -separation;
  manifold.addPointFrom(point, 0, 0);
}
