/**
 * Symmetric 3×3 eigen-decomposition and rotation-matrix helpers for mass
 * properties (row-major 3×3 in Float64Arrays). Creation-time only.
 */
import type { Quat } from './quat';

/**
 * Cyclic Jacobi (Golub and Van Loan §8.5) for the symmetric A (overwritten:
 * its diagonal ends as the eigenvalues): each rotation zeroes a_pq with
 * tan 2θ = 2 a_pq / (a_qq − a_pp), accumulated in V (columns = eigenvectors).
 * Stops when every off-diagonal term is below `tolerance` × the trace.
 */
export function jacobiEigen(A: Float64Array, V: Float64Array, tolerance: number): void {
  V.fill(0);
  V[0] = 1; V[4] = 1; V[8] = 1;
  const scale = Math.abs(A[0]!) + Math.abs(A[4]!) + Math.abs(A[8]!);
  for (let sweep = 0; sweep < 50; sweep++) {
    if (Math.max(Math.abs(A[1]!), Math.abs(A[2]!), Math.abs(A[5]!)) <= tolerance * scale) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        const apq = A[3 * p + q]!;
        if (Math.abs(apq) <= 1e-18 * scale) continue;
        const app = A[3 * p + p]!, aqq = A[3 * q + q]!;
        const theta = (aqq - app) / (2 * apq);
        // t = tan θ, the smaller root of t² + 2 t θ − 1 = 0 (stable form).
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        // A ← Jᵀ A J, V ← V J with J the rotation in the (p, q) plane.
        for (let k = 0; k < 3; k++) {
          const akp = A[3 * k + p]!, akq = A[3 * k + q]!;
          A[3 * k + p] = c * akp - s * akq;
          A[3 * k + q] = s * akp + c * akq;
        }
        for (let k = 0; k < 3; k++) {
          const apk = A[3 * p + k]!, aqk = A[3 * q + k]!;
          A[3 * p + k] = c * apk - s * aqk;
          A[3 * q + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = V[3 * k + p]!, vkq = V[3 * k + q]!;
          V[3 * k + p] = c * vkp - s * vkq;
          V[3 * k + q] = s * vkp + c * vkq;
        }
      }
    }
  }
}

/** Unit quaternion of the row-major rotation matrix m (Shepperd's method: largest diagonal term first). */
export function quatFromMatrix(m: Float64Array): Quat {
  const m00 = m[0]!, m01 = m[1]!, m02 = m[2]!, m10 = m[3]!, m11 = m[4]!, m12 = m[5]!, m20 = m[6]!, m21 = m[7]!, m22 = m[8]!;
  const tr = m00 + m11 + m22;
  let x: number, y: number, z: number, w: number;
  if (tr > 0) {
    const s = 2 * Math.sqrt(tr + 1);
    w = 0.25 * s; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    w = (m21 - m12) / s; x = 0.25 * s; y = (m01 + m10) / s; z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    w = (m02 - m20) / s; x = (m01 + m10) / s; y = 0.25 * s; z = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s; z = 0.25 * s;
  }
  const l = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  return { x: x * l, y: y * l, z: z * l, w: w * l };
}

/** Flips the third column of the row-major V when det V < 0, so that V is a proper rotation. */
export function makeProperRotation(V: Float64Array): void {
  const det = V[0]! * (V[4]! * V[8]! - V[5]! * V[7]!) - V[1]! * (V[3]! * V[8]! - V[5]! * V[6]!) + V[2]! * (V[3]! * V[7]! - V[4]! * V[6]!);
  if (det < 0) { V[2] = -V[2]!; V[5] = -V[5]!; V[8] = -V[8]!; }
}
