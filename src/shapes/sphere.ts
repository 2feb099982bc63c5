import type { Aabb } from '../collision/aabb';
import { addSpherePairs } from '../collision/narrowphase/dispatch';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { SphereGeometry } from './geometry';
import { ConvexShape, lockShapeFields, requireShapeSize, ShapeKind, type MassProperties } from './shape';

/** A sphere centred on the body origin. */
export class Sphere extends ConvexShape implements SphereGeometry {
  readonly kind = ShapeKind.Sphere;
  // Initialised to a number, not left undefined (CONTRIBUTING.md, hot path).
  readonly radius: number = 0;
  readonly coreRadius: number = 0;

  /** @param radius metres, > 0 */
  constructor(radius: number) {
    super();
    addSpherePairs();
    requireShapeSize(radius, 'Sphere.radius');
    this.radius = radius;
    this.coreRadius = radius;
    lockShapeFields(this);
  }

  coreSupport(out: Vec3, _direction: Readonly<Vec3>): Vec3 {
    out.x = 0;
    out.y = 0;
    out.z = 0;
    return out;
  }

  computeAabb(out: Aabb, position: Readonly<Vec3>, _rotation: Readonly<Quat>): Aabb {
    const r = this.radius;
    out.min.x = position.x - r; out.min.y = position.y - r; out.min.z = position.z - r;
    out.max.x = position.x + r; out.max.y = position.y + r; out.max.z = position.z + r;
    return out;
  }

  /** @internal */
  override eroded(delta: number): ConvexShape {
    return new Sphere(this.radius - delta);
  }

  volume(): number {
    return (4 / 3) * Math.PI * this.radius ** 3;
  }

  massProperties(density: number): MassProperties {
    const m = density * this.volume();
    const i = 0.4 * m * this.radius * this.radius;
    return { mass: m, centerOfMass: { x: 0, y: 0, z: 0 }, inertia: { x: i, y: i, z: i } };
  }
}
