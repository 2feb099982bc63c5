/**
 * Rigid transforms (rotation then translation): x_world = p + q x_local.
 */
import type { Quat } from './quat';
import { inverseRotate, rotate } from './quat';
import type { Vec3 } from './vec3';

export interface Transform {
  position: Vec3;
  rotation: Quat;
}

/** out = p + q v */
export function transformPoint(out: Vec3, position: Readonly<Vec3>, rotation: Readonly<Quat>, v: Readonly<Vec3>): Vec3 {
  rotate(out, rotation, v);
  out.x += position.x;
  out.y += position.y;
  out.z += position.z;
  return out;
}

/** out = q* (v - p): a world point in the transform's local frame. */
export function inverseTransformPoint(out: Vec3, position: Readonly<Vec3>, rotation: Readonly<Quat>, v: Readonly<Vec3>): Vec3 {
  out.x = v.x - position.x;
  out.y = v.y - position.y;
  out.z = v.z - position.z;
  return inverseRotate(out, rotation, out);
}
