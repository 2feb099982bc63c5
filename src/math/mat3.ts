/**
 * 3×3 matrices as plain objects with named entries `mRC` (row R, column C).
 * Used for inertia tensors and rotation matrices; out-parameter style.
 */
import type { Quat } from './quat';
import type { Vec3 } from './vec3';

export interface Mat3 {
  m00: number; m01: number; m02: number;
  m10: number; m11: number; m12: number;
  m20: number; m21: number; m22: number;
}

export function mat3(): Mat3 {
  return { m00: 1, m01: 0, m02: 0, m10: 0, m11: 1, m12: 0, m20: 0, m21: 0, m22: 1 };
}

export function identity(out: Mat3): Mat3 {
  out.m00 = 1; out.m01 = 0; out.m02 = 0;
  out.m10 = 0; out.m11 = 1; out.m12 = 0;
  out.m20 = 0; out.m21 = 0; out.m22 = 1;
  return out;
}

export function copy(out: Mat3, a: Readonly<Mat3>): Mat3 {
  out.m00 = a.m00; out.m01 = a.m01; out.m02 = a.m02;
  out.m10 = a.m10; out.m11 = a.m11; out.m12 = a.m12;
  out.m20 = a.m20; out.m21 = a.m21; out.m22 = a.m22;
  return out;
}

export function diagonal(out: Mat3, x: number, y: number, z: number): Mat3 {
  out.m00 = x; out.m01 = 0; out.m02 = 0;
  out.m10 = 0; out.m11 = y; out.m12 = 0;
  out.m20 = 0; out.m21 = 0; out.m22 = z;
  return out;
}

/** Rotation matrix of a unit quaternion (columns are the rotated basis axes). */
export function fromQuat(out: Mat3, q: Readonly<Quat>): Mat3 {
  const x2 = q.x + q.x, y2 = q.y + q.y, z2 = q.z + q.z;
  const xx = q.x * x2, xy = q.x * y2, xz = q.x * z2;
  const yy = q.y * y2, yz = q.y * z2, zz = q.z * z2;
  const wx = q.w * x2, wy = q.w * y2, wz = q.w * z2;
  out.m00 = 1 - (yy + zz); out.m01 = xy - wz; out.m02 = xz + wy;
  out.m10 = xy + wz; out.m11 = 1 - (xx + zz); out.m12 = yz - wx;
  out.m20 = xz - wy; out.m21 = yz + wx; out.m22 = 1 - (xx + yy);
  return out;
}

export function multiply(out: Mat3, a: Readonly<Mat3>, b: Readonly<Mat3>): Mat3 {
  const m00 = a.m00 * b.m00 + a.m01 * b.m10 + a.m02 * b.m20;
  const m01 = a.m00 * b.m01 + a.m01 * b.m11 + a.m02 * b.m21;
  const m02 = a.m00 * b.m02 + a.m01 * b.m12 + a.m02 * b.m22;
  const m10 = a.m10 * b.m00 + a.m11 * b.m10 + a.m12 * b.m20;
  const m11 = a.m10 * b.m01 + a.m11 * b.m11 + a.m12 * b.m21;
  const m12 = a.m10 * b.m02 + a.m11 * b.m12 + a.m12 * b.m22;
  const m20 = a.m20 * b.m00 + a.m21 * b.m10 + a.m22 * b.m20;
  const m21 = a.m20 * b.m01 + a.m21 * b.m11 + a.m22 * b.m21;
  const m22 = a.m20 * b.m02 + a.m21 * b.m12 + a.m22 * b.m22;
  out.m00 = m00; out.m01 = m01; out.m02 = m02;
  out.m10 = m10; out.m11 = m11; out.m12 = m12;
  out.m20 = m20; out.m21 = m21; out.m22 = m22;
  return out;
}

export function transpose(out: Mat3, a: Readonly<Mat3>): Mat3 {
  const m01 = a.m01, m02 = a.m02, m12 = a.m12;
  out.m00 = a.m00; out.m11 = a.m11; out.m22 = a.m22;
  out.m01 = a.m10; out.m02 = a.m20; out.m12 = a.m21;
  out.m10 = m01; out.m20 = m02; out.m21 = m12;
  return out;
}

export function determinant(a: Readonly<Mat3>): number {
  return (
    a.m00 * (a.m11 * a.m22 - a.m12 * a.m21) -
    a.m01 * (a.m10 * a.m22 - a.m12 * a.m20) +
    a.m02 * (a.m10 * a.m21 - a.m11 * a.m20)
  );
}

/** Inverse; a singular matrix (|det| < 1e-30) gives the zero matrix. */
export function invert(out: Mat3, a: Readonly<Mat3>): Mat3 {
  const c00 = a.m11 * a.m22 - a.m12 * a.m21;
  const c01 = a.m02 * a.m21 - a.m01 * a.m22;
  const c02 = a.m01 * a.m12 - a.m02 * a.m11;
  const c10 = a.m12 * a.m20 - a.m10 * a.m22;
  const c11 = a.m00 * a.m22 - a.m02 * a.m20;
  const c12 = a.m02 * a.m10 - a.m00 * a.m12;
  const c20 = a.m10 * a.m21 - a.m11 * a.m20;
  const c21 = a.m01 * a.m20 - a.m00 * a.m21;
  const c22 = a.m00 * a.m11 - a.m01 * a.m10;
  const det = a.m00 * c00 + a.m01 * c10 + a.m02 * c20;
  const inv = Math.abs(det) < 1e-30 ? 0 : 1 / det;
  out.m00 = c00 * inv; out.m01 = c01 * inv; out.m02 = c02 * inv;
  out.m10 = c10 * inv; out.m11 = c11 * inv; out.m12 = c12 * inv;
  out.m20 = c20 * inv; out.m21 = c21 * inv; out.m22 = c22 * inv;
  return out;
}

export function transformVec3(out: Vec3, m: Readonly<Mat3>, v: Readonly<Vec3>): Vec3 {
  const x = m.m00 * v.x + m.m01 * v.y + m.m02 * v.z;
  const y = m.m10 * v.x + m.m11 * v.y + m.m12 * v.z;
  const z = m.m20 * v.x + m.m21 * v.y + m.m22 * v.z;
  out.x = x;
  out.y = y;
  out.z = z;
  return out;
}

/**
 * out = R diag(d) Rᵀ for the rotation matrix R of q: a body-frame diagonal
 * inertia (or inverse inertia) expressed in world space. The diagonal comes
 * as a vector, not three double arguments.
 */
export function rotateDiagonal(out: Mat3, q: Readonly<Quat>, d: Readonly<Vec3>): Mat3 {
  const dx = d.x, dy = d.y, dz = d.z;
  fromQuat(out, q);
  const r00 = out.m00, r01 = out.m01, r02 = out.m02;
  const r10 = out.m10, r11 = out.m11, r12 = out.m12;
  const r20 = out.m20, r21 = out.m21, r22 = out.m22;
  out.m00 = r00 * r00 * dx + r01 * r01 * dy + r02 * r02 * dz;
  out.m01 = r00 * r10 * dx + r01 * r11 * dy + r02 * r12 * dz;
  out.m02 = r00 * r20 * dx + r01 * r21 * dy + r02 * r22 * dz;
  out.m11 = r10 * r10 * dx + r11 * r11 * dy + r12 * r12 * dz;
  out.m12 = r10 * r20 * dx + r11 * r21 * dy + r12 * r22 * dz;
  out.m22 = r20 * r20 * dx + r21 * r21 * dy + r22 * r22 * dz;
  out.m10 = out.m01;
  out.m20 = out.m02;
  out.m21 = out.m12;
  return out;
}
