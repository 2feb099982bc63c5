/**
 * One mesh triangle as a convex shape (core = the triangle, radius 0), so that
 * GJK, EPA and the shape cast can run against it. Never in the broadphase.
 */
import type { Aabb } from '../aabb';
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import { ConvexShape, ShapeKind, type MassProperties } from '../../shapes/shape';

export class TriangleCore extends ConvexShape {
  readonly kind = ShapeKind.TriangleMesh;
  readonly coreRadius = 0;
  /** Corners a, b, c (xyz each), in the frame the caller works in. */
  readonly corners = new Float64Array(9);

  coreSupport(out: Vec3, d: Readonly<Vec3>): Vec3 {
    const C = this.corners;
    const da = C[0]! * d.x + C[1]! * d.y + C[2]! * d.z;
    const db = C[3]! * d.x + C[4]! * d.y + C[5]! * d.z;
    const dc = C[6]! * d.x + C[7]! * d.y + C[8]! * d.z;
    const o = da >= db ? (da >= dc ? 0 : 6) : db >= dc ? 3 : 6;
    out.x = C[o]!; out.y = C[o + 1]!; out.z = C[o + 2]!;
    return out;
  }

  computeAabb(out: Aabb, position: Readonly<Vec3>, _rotation: Readonly<Quat>): Aabb {
    // Only used unrotated, in the frame of the corners.
    const C = this.corners;
    out.min.x = Math.min(C[0]!, C[3]!, C[6]!) + position.x;
    out.min.y = Math.min(C[1]!, C[4]!, C[7]!) + position.y;
    out.min.z = Math.min(C[2]!, C[5]!, C[8]!) + position.z;
    out.max.x = Math.max(C[0]!, C[3]!, C[6]!) + position.x;
    out.max.y = Math.max(C[1]!, C[4]!, C[7]!) + position.y;
    out.max.z = Math.max(C[2]!, C[5]!, C[8]!) + position.z;
    return out;
  }

  volume(): number {
    return 0;
  }

  massProperties(_density: number): MassProperties {
    throw new Error('A mesh triangle has no mass');
  }
}
