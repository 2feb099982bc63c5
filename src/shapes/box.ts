import type { Aabb } from '../collision/aabb';
import { addBoxPairs } from '../collision/narrowphase/dispatch';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { BoxGeometry } from './geometry';
import { ConvexShape, lockShapeFields, requireShapeSize, ShapeKind, type MassProperties } from './shape';

/** An oriented box given by its half extents (metres) along local X, Y, Z. */
export class Box extends ConvexShape implements BoxGeometry {
  readonly kind = ShapeKind.Box;
  readonly halfExtents: Readonly<Vec3>;
  readonly coreRadius = 0;

  constructor(halfExtents: Readonly<Vec3>) {
    super();
    addBoxPairs();
    if (halfExtents === null || typeof halfExtents !== 'object') {
      throw new TypeError('Box.halfExtents must be a { x, y, z } object');
    }
    requireShapeSize(halfExtents.x, 'Box.halfExtents.x');
    requireShapeSize(halfExtents.y, 'Box.halfExtents.y');
    requireShapeSize(halfExtents.z, 'Box.halfExtents.z');
    this.halfExtents = Object.freeze({ x: halfExtents.x, y: halfExtents.y, z: halfExtents.z });
    lockShapeFields(this);
  }

  coreSupport(out: Vec3, d: Readonly<Vec3>): Vec3 {
    const h = this.halfExtents;
    out.x = d.x < 0 ? -h.x : h.x;
    out.y = d.y < 0 ? -h.y : h.y;
    out.z = d.z < 0 ? -h.z : h.z;
    return out;
  }

  computeAabb(out: Aabb, position: Readonly<Vec3>, q: Readonly<Quat>): Aabb {
    // Extent of a rotated box along world axis i: Σ_j |R_ij| h_j.
    const h = this.halfExtents;
    const x2 = q.x + q.x, y2 = q.y + q.y, z2 = q.z + q.z;
    const xx = q.x * x2, xy = q.x * y2, xz = q.x * z2;
    const yy = q.y * y2, yz = q.y * z2, zz = q.z * z2;
    const wx = q.w * x2, wy = q.w * y2, wz = q.w * z2;
    const ex = Math.abs(1 - (yy + zz)) * h.x + Math.abs(xy - wz) * h.y + Math.abs(xz + wy) * h.z;
    const ey = Math.abs(xy + wz) * h.x + Math.abs(1 - (xx + zz)) * h.y + Math.abs(yz - wx) * h.z;
    const ez = Math.abs(xz - wy) * h.x + Math.abs(yz + wx) * h.y + Math.abs(1 - (xx + yy)) * h.z;
    out.min.x = position.x - ex; out.min.y = position.y - ey; out.min.z = position.z - ez;
    out.max.x = position.x + ex; out.max.y = position.y + ey; out.max.z = position.z + ez;
    return out;
  }

  /** @internal */
  override eroded(delta: number): ConvexShape {
    const h = this.halfExtents;
    return new Box({ x: h.x - delta, y: h.y - delta, z: h.z - delta });
  }

  volume(): number {
    const h = this.halfExtents;
    return 8 * h.x * h.y * h.z;
  }

  massProperties(density: number): MassProperties {
    const h = this.halfExtents;
    const m = density * this.volume();
    // I_x = m (b² + c²) / 12 with full sizes b = 2h_y, c = 2h_z  →  m (h_y² + h_z²) / 3.
    const k = m / 3;
    return {
      mass: m,
      centerOfMass: { x: 0, y: 0, z: 0 },
      inertia: { x: k * (h.y * h.y + h.z * h.z), y: k * (h.x * h.x + h.z * h.z), z: k * (h.x * h.x + h.y * h.y) },
    };
  }
}
