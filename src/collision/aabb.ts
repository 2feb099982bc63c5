/** Axis-aligned bounding boxes, out-parameter style. */
import type { Quat } from '../math/quat';
import { fromQuat, mat3 } from '../math/mat3';
import type { Vec3 } from '../math/vec3';

// Rotation matrix scratch for the box transforms.
const scratchRotation = /* @__PURE__ */ mat3();

export interface Aabb {
  min: Vec3;
  max: Vec3;
}

export function aabb(): Aabb {
  return { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
}

export function copyAabb(out: Aabb, a: Readonly<Aabb>): Aabb {
  out.min.x = a.min.x; out.min.y = a.min.y; out.min.z = a.min.z;
  out.max.x = a.max.x; out.max.y = a.max.y; out.max.z = a.max.z;
  return out;
}

export function aabbOverlaps(a: Readonly<Aabb>, b: Readonly<Aabb>): boolean {
  return (
    a.min.x <= b.max.x && a.max.x >= b.min.x &&
    a.min.y <= b.max.y && a.max.y >= b.min.y &&
    a.min.z <= b.max.z && a.max.z >= b.min.z
  );
}

export function aabbContains(outer: Readonly<Aabb>, inner: Readonly<Aabb>): boolean {
  return (
    outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
    outer.max.x >= inner.max.x && outer.max.y >= inner.max.y && outer.max.z >= inner.max.z
  );
}

export function aabbUnion(out: Aabb, a: Readonly<Aabb>, b: Readonly<Aabb>): Aabb {
  out.min.x = Math.min(a.min.x, b.min.x); out.min.y = Math.min(a.min.y, b.min.y); out.min.z = Math.min(a.min.z, b.min.z);
  out.max.x = Math.max(a.max.x, b.max.x); out.max.y = Math.max(a.max.y, b.max.y); out.max.z = Math.max(a.max.z, b.max.z);
  return out;
}

/** Half the surface area (the SAH cost used by the trees). */
export function aabbPerimeter(a: Readonly<Aabb>): number {
  const dx = a.max.x - a.min.x;
  const dy = a.max.y - a.min.y;
  const dz = a.max.z - a.min.z;
  return dx * dy + dy * dz + dz * dx;
}

/** Grows `out` by `margin` on every side. */
export function aabbExpand(out: Aabb, a: Readonly<Aabb>, margin: number): Aabb {
  out.min.x = a.min.x - margin; out.min.y = a.min.y - margin; out.min.z = a.min.z - margin;
  out.max.x = a.max.x + margin; out.max.y = a.max.y + margin; out.max.z = a.max.z + margin;
  return out;
}

/** Extends `out` (already holding a box) to also cover the box swept by `d`. */
export function aabbSweep(out: Aabb, d: Readonly<Vec3>): Aabb {
  if (d.x < 0) out.min.x += d.x; else out.max.x += d.x;
  if (d.y < 0) out.min.y += d.y; else out.max.y += d.y;
  if (d.z < 0) out.min.z += d.z; else out.max.z += d.z;
  return out;
}

/**
 * Slab test of the segment origin + t·dir, t ∈ [0, limit[0]], against the
 * box (the limit in an array: a double handed to a call V8 does not inline
 * is boxed). `invDir` holds 1/dir per axis (±Infinity for a zero component).
 * Whether the segment meets the box; if so its entry t (0 when the origin
 * is inside) goes to limit[1].
 */
export function aabbRayCrosses(a: Readonly<Aabb>, origin: Readonly<Vec3>, invDir: Readonly<Vec3>, limit: Float64Array): boolean {
  let t0 = 0;
  let t1 = limit[0]!;
  for (let axis = 0; axis < 3; axis++) {
    const o = axis === 0 ? origin.x : axis === 1 ? origin.y : origin.z;
    const inv = axis === 0 ? invDir.x : axis === 1 ? invDir.y : invDir.z;
    const lo = axis === 0 ? a.min.x : axis === 1 ? a.min.y : a.min.z;
    const hi = axis === 0 ? a.max.x : axis === 1 ? a.max.y : a.max.z;
    if (!Number.isFinite(inv)) {
      // Parallel to this slab: inside it or never.
      if (o < lo || o > hi) return false;
      continue;
    }
    let ta = (lo - o) * inv;
    let tb = (hi - o) * inv;
    if (ta > tb) {
      const s = ta;
      ta = tb;
      tb = s;
    }
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return false;
  }
  limit[1] = t0;
  return true;
}

/**
 * out = the world box of the local box b[o..o+5] (min xyz, max xyz) turned by
 * q and moved to `position`: centre p + R c, extent_i = Σ_j |R_ij| h_j.
 * (The box is passed as an array and offset: doubles passed to a call V8
 * does not inline would be boxed.)
 */
export function rotatedBoxAabb(out: Aabb, b: Float64Array, o: number, position: Readonly<Vec3>, q: Readonly<Quat>): Aabb {
  const cx = 0.5 * (b[o]! + b[o + 3]!), cy = 0.5 * (b[o + 1]! + b[o + 4]!), cz = 0.5 * (b[o + 2]! + b[o + 5]!);
  const hx = 0.5 * (b[o + 3]! - b[o]!), hy = 0.5 * (b[o + 4]! - b[o + 1]!), hz = 0.5 * (b[o + 5]! - b[o + 2]!);
  const R = fromQuat(scratchRotation, q);
  const r00 = R.m00, r01 = R.m01, r02 = R.m02;
  const r10 = R.m10, r11 = R.m11, r12 = R.m12;
  const r20 = R.m20, r21 = R.m21, r22 = R.m22;
  const wcx = position.x + r00 * cx + r01 * cy + r02 * cz;
  const wcy = position.y + r10 * cx + r11 * cy + r12 * cz;
  const wcz = position.z + r20 * cx + r21 * cy + r22 * cz;
  const ex = Math.abs(r00) * hx + Math.abs(r01) * hy + Math.abs(r02) * hz;
  const ey = Math.abs(r10) * hx + Math.abs(r11) * hy + Math.abs(r12) * hz;
  const ez = Math.abs(r20) * hx + Math.abs(r21) * hy + Math.abs(r22) * hz;
  out.min.x = wcx - ex; out.min.y = wcy - ey; out.min.z = wcz - ez;
  out.max.x = wcx + ex; out.max.y = wcy + ey; out.max.z = wcz + ez;
  return out;
}
