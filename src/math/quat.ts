/**
 * Unit quaternions as plain `{ x, y, z, w }` objects, out-parameter style.
 * Conventions match Babylon's `Quaternion` so values copy 1:1 to
 * `rotationQuaternion`: v' = q v q*.
 */
import type { Vec3 } from './vec3';

/** A rotation quaternion (x, y, z imaginary, w real). */
export interface Quat {
  x: number;
  y: number;
  z: number;
  w: number;
}

export function quat(x = 0, y = 0, z = 0, w = 1): Quat {
  return { x, y, z, w };
}

export function identity(out: Quat): Quat {
  out.x = 0;
  out.y = 0;
  out.z = 0;
  out.w = 1;
  return out;
}

export function copy(out: Quat, a: Readonly<Quat>): Quat {
  out.x = a.x;
  out.y = a.y;
  out.z = a.z;
  out.w = a.w;
  return out;
}

export function set(out: Quat, x: number, y: number, z: number, w: number): Quat {
  out.x = x;
  out.y = y;
  out.z = z;
  out.w = w;
  return out;
}

/** out = a ⊗ b (apply b first, then a). */
export function multiply(out: Quat, a: Readonly<Quat>, b: Readonly<Quat>): Quat {
  const x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
  const y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
  const z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
  const w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
  out.x = x;
  out.y = y;
  out.z = z;
  out.w = w;
  return out;
}

/** out = conj(a) ⊗ b: the rotation b expressed in a's frame. */
export function multiplyConjugateA(out: Quat, a: Readonly<Quat>, b: Readonly<Quat>): Quat {
  return multiply(out, conjugate(conjugated, a), b);
}

/** The conjugate handed on by multiplyConjugateA and inverseRotate (neither calls the other). */
const conjugated: Quat = { x: 0, y: 0, z: 0, w: 1 };

export function conjugate(out: Quat, a: Readonly<Quat>): Quat {
  out.x = -a.x;
  out.y = -a.y;
  out.z = -a.z;
  out.w = a.w;
  return out;
}

export function normalize(out: Quat, a: Readonly<Quat>): Quat {
  const len = Math.sqrt(a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w);
  if (len < 1e-150 || len > 1e150) return normalizeScaled(out, a);
  const inv = 1 / len;
  out.x = a.x * inv;
  out.y = a.y * inv;
  out.z = a.z * inv;
  out.w = a.w * inv;
  return out;
}

/**
 * normalize for lengths whose square under- or overflows ({ w: 1e200 } has
 * len² = Infinity): divide by the largest component first, then by the
 * length of what is left (in [1, 2]). All zero (or not finite) → identity.
 */
function normalizeScaled(out: Quat, a: Readonly<Quat>): Quat {
  const m = Math.max(Math.abs(a.x), Math.abs(a.y), Math.abs(a.z), Math.abs(a.w));
  if (!(m > 0) || m === Infinity) return identity(out);
  const x = a.x / m, y = a.y / m, z = a.z / m, w = a.w / m;
  const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  out.x = x * inv;
  out.y = y * inv;
  out.z = z * inv;
  out.w = w * inv;
  return out;
}

/** Rotation of `angle` radians about the unit vector `axis`. */
export function fromAxisAngle(out: Quat, axis: Readonly<Vec3>, angle: number): Quat {
  const h = angle * 0.5;
  const s = Math.sin(h);
  out.x = axis.x * s;
  out.y = axis.y * s;
  out.z = axis.z * s;
  out.w = Math.cos(h);
  return out;
}

/** Shortest-arc rotation taking unit vector `from` to unit vector `to`. */
export function fromUnitVectors(out: Quat, from: Readonly<Vec3>, to: Readonly<Vec3>): Quat {
  const d = from.x * to.x + from.y * to.y + from.z * to.z;
  if (d < -1 + 1e-12) {
    // Opposite: rotate π about any axis perpendicular to `from`.
    let ax = 0;
    let ay = -from.z;
    let az = from.y;
    if (ay * ay + az * az < 1e-12) {
      ax = from.z;
      ay = 0;
      az = -from.x;
    }
    const len = Math.sqrt(ax * ax + ay * ay + az * az);
    return set(out, ax / len, ay / len, az / len, 0);
  }
  out.x = from.y * to.z - from.z * to.y;
  out.y = from.z * to.x - from.x * to.z;
  out.z = from.x * to.y - from.y * to.x;
  out.w = 1 + d;
  return normalize(out, out);
}

/** Rotates vector v by q: out = q v q*. */
export function rotate(out: Vec3, q: Readonly<Quat>, v: Readonly<Vec3>): Vec3 {
  // t = 2 q.xyz × v; v' = v + w t + q.xyz × t
  const tx = 2 * (q.y * v.z - q.z * v.y);
  const ty = 2 * (q.z * v.x - q.x * v.z);
  const tz = 2 * (q.x * v.y - q.y * v.x);
  const x = v.x + q.w * tx + (q.y * tz - q.z * ty);
  const y = v.y + q.w * ty + (q.z * tx - q.x * tz);
  const z = v.z + q.w * tz + (q.x * ty - q.y * tx);
  out.x = x;
  out.y = y;
  out.z = z;
  return out;
}

/** Rotates v by the inverse of q: out = q* v q. */
export function inverseRotate(out: Vec3, q: Readonly<Quat>, v: Readonly<Vec3>): Vec3 {
  return rotate(out, conjugate(conjugated, q), v);
}

/**
 * turnBy's doubles (CONTRIBUTING.md, hot path): [0] the part t of the turn,
 * [1] the whole turn's angle in radians (a fraction of a sweep and the
 * sweep's angle, or a time and an angular speed).
 */
export const TURN = new Float64Array(2);

/**
 * out = rot(axis, t·angle) ⊗ q, t = TURN[0] and angle = TURN[1]: q turned
 * about a fixed unit axis (world frame) by that part of the turn, not
 * normalised. The turning sweeps of continuous collision use it.
 */
export function turnBy(out: Quat, q: Readonly<Quat>, axis: Readonly<Vec3>): Quat {
  const half = 0.5 * TURN[0]! * TURN[1]!;
  const sn = Math.sin(half), r = turnRotation;
  r.x = axis.x * sn; r.y = axis.y * sn; r.z = axis.z * sn; r.w = Math.cos(half);
  return multiply(out, r, q);
}

/** turnBy's rotation rot(axis, t·angle). */
const turnRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };

/**
 * First-order integration of an angular velocity over dt:
 * q' = normalize(q + ½ dt (ω, 0) ⊗ q).
 */
export function integrate(out: Quat, q: Readonly<Quat>, omega: Readonly<Vec3>, dt: number): Quat {
  const h = 0.5 * dt;
  const wx = omega.x * h;
  const wy = omega.y * h;
  const wz = omega.z * h;
  const x = q.x + (wx * q.w + wy * q.z - wz * q.y);
  const y = q.y + (wy * q.w + wz * q.x - wx * q.z);
  const z = q.z + (wz * q.w + wx * q.y - wy * q.x);
  const w = q.w - (wx * q.x + wy * q.y + wz * q.z);
  out.x = x;
  out.y = y;
  out.z = z;
  out.w = w;
  return normalize(out, out);
}

export function dot(a: Readonly<Quat>, b: Readonly<Quat>): number {
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

/** Normalised linear interpolation along the shorter arc. */
export function nlerp(out: Quat, a: Readonly<Quat>, b: Readonly<Quat>, t: number): Quat {
  const s = dot(a, b) < 0 ? -1 : 1;
  out.x = a.x + (b.x * s - a.x) * t;
  out.y = a.y + (b.y * s - a.y) * t;
  out.z = a.z + (b.z * s - a.z) * t;
  out.w = a.w + (b.w * s - a.w) * t;
  return normalize(out, out);
}

/** Angle of the rotation in [0, π]. */
export function angle(q: Readonly<Quat>): number {
  const v = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  return 2 * Math.atan2(v, Math.abs(q.w));
}

export function isFiniteQuat(q: Readonly<Quat>): boolean {
  return Number.isFinite(q.x) && Number.isFinite(q.y) && Number.isFinite(q.z) && Number.isFinite(q.w);
}
