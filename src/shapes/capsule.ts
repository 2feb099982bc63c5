import type { Aabb } from '../collision/aabb';
import { addCapsulePairs } from '../collision/narrowphase/dispatch';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { CapsuleGeometry } from './geometry';
import { ConvexShape, lockShapeFields, requireShapeSize, ShapeKind, type MassProperties } from './shape';

/**
 * A capsule: the points within `radius` of the segment from (0, -halfHeight, 0)
 * to (0, +halfHeight, 0) in the local frame. Total height 2 (halfHeight + radius).
 */
export class Capsule extends ConvexShape implements CapsuleGeometry {
  readonly kind = ShapeKind.Capsule;
  // Initialised to a number, not left undefined (CONTRIBUTING.md, hot path).
  readonly radius: number = 0;
  readonly halfHeight: number = 0;
  readonly coreRadius: number = 0;

  /**
   * @param radius metres, > 0
   * @param halfHeight half the length of the inner segment, metres, > 0
   */
  constructor(radius: number, halfHeight: number) {
    super();
    addCapsulePairs();
    requireShapeSize(radius, 'Capsule.radius');
    requireShapeSize(halfHeight, 'Capsule.halfHeight');
    this.radius = radius;
    this.halfHeight = halfHeight;
    this.coreRadius = radius;
    lockShapeFields(this);
  }

  coreSupport(out: Vec3, d: Readonly<Vec3>): Vec3 {
    out.x = 0;
    out.y = d.y < 0 ? -this.halfHeight : this.halfHeight;
    out.z = 0;
    return out;
  }

  computeAabb(out: Aabb, position: Readonly<Vec3>, q: Readonly<Quat>): Aabb {
    // The segment's world direction is the rotated local Y axis.
    const ax = 2 * (q.x * q.y - q.w * q.z);
    const ay = 1 - 2 * (q.x * q.x + q.z * q.z);
    const az = 2 * (q.y * q.z + q.w * q.x);
    const h = this.halfHeight;
    const r = this.radius;
    const ex = Math.abs(ax) * h + r;
    const ey = Math.abs(ay) * h + r;
    const ez = Math.abs(az) * h + r;
    out.min.x = position.x - ex; out.min.y = position.y - ey; out.min.z = position.z - ez;
    out.max.x = position.x + ex; out.max.y = position.y + ey; out.max.z = position.z + ez;
    return out;
  }

  /** @internal The radius shrinks; the segment stays. */
  override eroded(delta: number): ConvexShape {
    return new Capsule(this.radius - delta, this.halfHeight);
  }

  volume(): number {
    const r = this.radius;
    return Math.PI * r * r * (2 * this.halfHeight) + (4 / 3) * Math.PI * r * r * r;
  }

  massProperties(density: number): MassProperties {
    // Cylinder (length L = 2h) plus two hemispheres whose centres of mass sit
    // 3r/8 beyond the cylinder's ends; summing the parallel-axis terms gives
    //   I_axis = m_c r²/2 + m_s 2r²/5
    //   I_perp = m_c (r²/4 + L²/12) + m_s (2r²/5 + L²/4 + 3Lr/8)
    const r = this.radius;
    const L = 2 * this.halfHeight;
    const mc = density * Math.PI * r * r * L;
    const ms = density * (4 / 3) * Math.PI * r * r * r;
    const axis = mc * r * r * 0.5 + ms * 0.4 * r * r;
    const perp = mc * (r * r * 0.25 + (L * L) / 12) + ms * (0.4 * r * r + (L * L) * 0.25 + 0.375 * L * r);
    return { mass: mc + ms, centerOfMass: { x: 0, y: 0, z: 0 }, inertia: { x: perp, y: axis, z: perp } };
  }
}
