/** Mechanical energy of bodies, for the tests that check contacts and joints never add any. */
import type { RigidBody, Vec3 } from '../../src/index';

/**
 * ½ m v² + ½ ωᵀ I ω (ω taken into the principal frame, where the inertia
 * is diagonal) + m g h with h measured along −gravity.
 */
export function bodyEnergy(b: RigidBody, gravity: Readonly<Vec3> = { x: 0, y: -9.81, z: 0 }): number {
  if (!b.isDynamic) return 0;
  const v = b.linearVelocity, w = b.angularVelocity, r = b.rotation, f = b.inertiaRotation;
  // The principal axes turn by r ⊗ f (f the body's inertia frame); ω goes into them by its conjugate.
  const qx = -(r.w * f.x + r.x * f.w + r.y * f.z - r.z * f.y);
  const qy = -(r.w * f.y - r.x * f.z + r.y * f.w + r.z * f.x);
  const qz = -(r.w * f.z + r.x * f.y - r.y * f.x + r.z * f.w);
  const qw = r.w * f.w - r.x * f.x - r.y * f.y - r.z * f.z;
  const tx = 2 * (qy * w.z - qz * w.y), ty = 2 * (qz * w.x - qx * w.z), tz = 2 * (qx * w.y - qy * w.x);
  const lx = w.x + qw * tx + (qy * tz - qz * ty), ly = w.y + qw * ty + (qz * tx - qx * tz), lz = w.z + qw * tz + (qx * ty - qy * tx);
  const I = b.inertia, p = b.position, g = b.gravityScale;
  return 0.5 * b.mass * (v.x * v.x + v.y * v.y + v.z * v.z) + 0.5 * (I.x * lx * lx + I.y * ly * ly + I.z * lz * lz) -
    b.mass * g * (gravity.x * p.x + gravity.y * p.y + gravity.z * p.z);
}

export function totalEnergy(bodies: readonly RigidBody[], gravity?: Readonly<Vec3>): number {
  let e = 0;
  for (const b of bodies) e += bodyEnergy(b, gravity);
  return e;
}

/** Every position, velocity and rotation component of the bodies is finite. */
export function allFinite(bodies: readonly RigidBody[]): boolean {
  for (const b of bodies) {
    const p = b.position, v = b.linearVelocity, w = b.angularVelocity, q = b.rotation;
    if (!Number.isFinite(p.x + p.y + p.z + v.x + v.y + v.z + w.x + w.y + w.z + q.x + q.y + q.z + q.w)) return false;
  }
  return true;
}
