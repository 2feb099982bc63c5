/**
 * Sphere–capsule contact: the sphere against the closest point of the
 * capsule's segment (Ericson 5.1.2), then as two spheres. Exact depth
 * rS + rC − dist(centre, segment).
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { CapsuleGeometry as Capsule } from '../../shapes/geometry';
import type { SphereGeometry as Sphere } from '../../shapes/geometry';
import { sphereCentres, sphereCentresContact } from './collide-sphere-sphere';
import type { Manifold } from './manifold';

/** Contacts between sphere A and capsule B (world poses); normal A→B, id 0. */
export function sphereCapsuleContacts(
  a: Sphere, posA: Readonly<Vec3>, _rotA: Readonly<Quat>,
  b: Capsule, posB: Readonly<Vec3>, rotB: Readonly<Quat>, manifold: Manifold,
): void {
  manifold.reset();
  const ux = 2 * (rotB.x * rotB.y - rotB.w * rotB.z);
  const uy = 1 - 2 * (rotB.x * rotB.x + rotB.z * rotB.z);
  const uz = 2 * (rotB.y * rotB.z + rotB.w * rotB.x);
  const h = b.halfHeight;
  let t = (posA.x - posB.x) * ux + (posA.y - posB.y) * uy + (posA.z - posB.z) * uz;
  t = t < -h ? -h : t > h ? h : t;
  const c = sphereCentres;
  c[0] = posA.x; c[1] = posA.y; c[2] = posA.z;
  c[3] = posB.x + ux * t; c[4] = posB.y + uy * t; c[5] = posB.z + uz * t;
  c[6] = a.radius; c[7] = b.radius;
  c[8] = ux; c[9] = uy; c[10] = uz; c[11] = 1;
  sphereCentresContact(manifold);
}
