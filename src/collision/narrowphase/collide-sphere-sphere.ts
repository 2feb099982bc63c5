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

/**
 * The arguments of {@link sphereCentresContact}, in an array so that no double
 * is passed to a call: centre A xyz, centre B xyz, radius A, radius B, then
 * the axis xyz of a segment B's centre lies on (when [11] is 1).
 */
export const sphereCentres = new Float64Array(12);

/**
 * The contact of two spheres given in {@link sphereCentres}, normal A→B, id 0;
 * or the gap in narrowphaseGap when they are apart by more than the margin.
 * Coincident centres take +Y, or a direction perpendicular to the axis when
 * one is given (every such direction is a minimum).
 */
export function sphereCentresContact(manifold: Manifold): void {
  const c = sphereCentres;
  const margin = narrowphaseMargin[0]!;
  const ax = c[0]!, ay = c[1]!, az = c[2]!, bx = c[3]!, by = c[4]!, bz = c[5]!;
  let nx = bx - ax, ny = by - ay, nz = bz - az;
  const dist = Math.sqrt(nx * nx + ny * ny + nz * nz);
  const rA = c[6]!, rB = c[7]!;
  const separation = dist - rA - rB;
  if (separation > margin) {
    narrowphaseGap[0] = separation;
    return;
  }
  if (dist > 1e-12) {
    nx /= dist; ny /= dist; nz /= dist;
  } else if (c[11] === 1) {
    const ux = c[8]!, uy = c[9]!, uz = c[10]!;
    if (Math.abs(ux) < 0.9) { nx = 0; ny = uz; nz = -uy; } else { nx = -uz; ny = 0; nz = ux; }
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    nx /= len; ny /= len; nz /= len;
  } else {
    nx = 0; ny = 1; nz = 0;
  }
  // Midpoint of the surface points cA + n rA and cB − n rB.
  const k = 0.5 * (rA - rB);
  point[0] = 0.5 * (ax + bx) + nx * k; point[1] = 0.5 * (ay + by) + ny * k; point[2] = 0.5 * (az + bz) + nz * k;
  point[3] = nx; point[4] = ny; point[5] = nz; point[6] = -separation;
  manifold.addPointFrom(point, 0, 0);
}

/** Contacts between sphere A and sphere B (world poses); normal A→B, id 0. */
export function sphereSphereContacts(
  a: Sphere, posA: Readonly<Vec3>, _rotA: Readonly<Quat>,
  b: Sphere, posB: Readonly<Vec3>, _rotB: Readonly<Quat>, manifold: Manifold,
): void {
  manifold.reset();
  const c = sphereCentres;
  c[0] = posA.x; c[1] = posA.y; c[2] = posA.z; c[3] = posB.x; c[4] = posB.y; c[5] = posB.z;
  c[6] = a.radius; c[7] = b.radius; c[11] = 0;
  sphereCentresContact(manifold);
}
