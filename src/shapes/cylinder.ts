import type { Aabb } from '../collision/aabb';
import { addCylinderPairs } from '../collision/narrowphase/dispatch';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { CylinderGeometry } from './geometry';
import { ConvexShape, lockShapeFields, requireShapeSize, ShapeKind, type MassProperties } from './shape';

/**
 * A solid cylinder along local Y: the points with x² + z² ≤ radius² and
 * |y| ≤ halfHeight. Sharp rims (no rounding), so a barrel stands on its end
 * and a wheel rolls on its side with flat-face manifolds
 * (collide-convex.ts builds them from {@link Cylinder.supportingFace}).
 */
export class Cylinder extends ConvexShape implements CylinderGeometry {
  readonly kind = ShapeKind.Cylinder;
  // Initialised to numbers so V8 keeps them as double fields (see Capsule).
  readonly radius: number = 0;
  readonly halfHeight: number = 0;
  readonly coreRadius: number = 0;

  /**
   * @param radius metres, in [MIN_SHAPE_SIZE, MAX_SHAPE_SIZE]
   * @param halfHeight half the length along local Y, metres, same range
   */
  constructor(radius: number, halfHeight: number) {
    super();
    addCylinderPairs();
    requireShapeSize(radius, 'Cylinder.radius');
    requireShapeSize(halfHeight, 'Cylinder.halfHeight');
    this.radius = radius;
    this.halfHeight = halfHeight;
    lockShapeFields(this);
  }

  coreSupport(out: Vec3, d: Readonly<Vec3>): Vec3 {
    // The rim point of the cap facing d: the radial part of d scaled to r.
    const rr = d.x * d.x + d.z * d.z;
    if (rr > 1e-300) {
      const s = this.radius / Math.sqrt(rr);
      out.x = d.x * s;
      out.z = d.z * s;
    } else {
      out.x = 0;
      out.z = 0;
    }
    out.y = d.y < 0 ? -this.halfHeight : this.halfHeight;
    return out;
  }

  computeAabb(out: Aabb, position: Readonly<Vec3>, q: Readonly<Quat>): Aabb {
    // World axis a = R·ŷ; along world axis i the cylinder reaches
    // |a_i| h (the axis) + r √(1 − a_i²) (the cap disc's extent).
    const ax = 2 * (q.x * q.y - q.w * q.z);
    const ay = 1 - 2 * (q.x * q.x + q.z * q.z);
    const az = 2 * (q.y * q.z + q.w * q.x);
    const h = this.halfHeight, r = this.radius;
    const ex = Math.abs(ax) * h + r * Math.sqrt(Math.max(0, 1 - ax * ax));
    const ey = Math.abs(ay) * h + r * Math.sqrt(Math.max(0, 1 - ay * ay));
    const ez = Math.abs(az) * h + r * Math.sqrt(Math.max(0, 1 - az * az));
    out.min.x = position.x - ex; out.min.y = position.y - ey; out.min.z = position.z - ez;
    out.max.x = position.x + ex; out.max.y = position.y + ey; out.max.z = position.z + ez;
    return out;
  }

  /** @internal */
  override eroded(delta: number): ConvexShape {
    return new Cylinder(this.radius - delta, this.halfHeight - delta);
  }

  volume(): number {
    return Math.PI * this.radius * this.radius * 2 * this.halfHeight;
  }

  massProperties(density: number): MassProperties {
    // Solid cylinder of length L = 2h: I_axis = m r²/2,
    // I_perp = m (3r² + L²)/12 = m (r²/4 + h²/3).
    const r = this.radius, h = this.halfHeight;
    const m = density * this.volume();
    const axis = 0.5 * m * r * r;
    const perp = m * (0.25 * r * r + (h * h) / 3);
    return { mass: m, centerOfMass: { x: 0, y: 0, z: 0 }, inertia: { x: perp, y: axis, z: perp } };
  }
}
