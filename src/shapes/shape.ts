/**
 * The shape base: a numeric `kind` for the collision dispatch table, world
 * bounds, and for convex shapes a support mapping split into a core (point,
 * segment or box) plus a radius, which GJK uses to keep rounded shapes exact.
 */
import type { Aabb } from '../collision/aabb';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { lockFields, MAX_SHAPE_SIZE, MIN_SHAPE_SIZE } from '../math/validate';

/** Numeric shape kinds, the indices of the collision dispatch table. */
export const ShapeKind = {
  Sphere: 0,
  Box: 1,
  Capsule: 2,
  TriangleMesh: 3,
  Cylinder: 4,
  ConvexHull: 5,
  Compound: 6,
  HeightField: 7,
} as const;
export type ShapeKind = (typeof ShapeKind)[keyof typeof ShapeKind];

/**
 * A shape constructor's last step: the fields, readonly to TypeScript, made
 * read-only in plain JavaScript too. A written radius, extent or kind would
 * change the shape behind the mass, bounds and collision pairs of the bodies
 * that share it; the write now throws a TypeError naming the field. The
 * object stays extensible, with one hidden class per shape class.
 */
export function lockShapeFields(shape: Shape): void {
  lockFields(shape, Object.keys(shape));
}

/** Mass, centre of mass (local) and principal inertia (local axes, kg·m²). */
export interface MassProperties {
  mass: number;
  centerOfMass: Vec3;
  inertia: Vec3;
}

export abstract class Shape {
  abstract readonly kind: ShapeKind;
  /** True for Sphere, Box and Capsule; false for TriangleMesh, Compound and HeightField. */
  abstract readonly isConvex: boolean;

  /** World-space bounds of the shape placed at (position, rotation). */
  abstract computeAabb(out: Aabb, position: Readonly<Vec3>, rotation: Readonly<Quat>): Aabb;

  /** Volume in m³ (0 for a TriangleMesh, which is a surface). */
  abstract volume(): number;
}

/**
 * A convex shape = core ⊕ sphere(coreRadius). The core is a point (sphere), a
 * segment (capsule) or the shape itself with radius 0 (box).
 */
export abstract class ConvexShape extends Shape {
  readonly isConvex = true as const;
  abstract readonly coreRadius: number;

  /** Furthest point of the core along `direction` (local frame, need not be unit). */
  abstract coreSupport(out: Vec3, direction: Readonly<Vec3>): Vec3;

  /** Furthest point of the whole shape along `direction` (local frame). */
  support(out: Vec3, direction: Readonly<Vec3>): Vec3 {
    this.coreSupport(out, direction);
    const r = this.coreRadius;
    if (r > 0) {
      const len = Math.sqrt(direction.x * direction.x + direction.y * direction.y + direction.z * direction.z);
      if (len > 1e-12) {
        const s = r / len;
        out.x += direction.x * s;
        out.y += direction.y * s;
        out.z += direction.z * s;
      }
    }
    return out;
  }

  /** Mass properties for a uniform density (kg/m³). */
  abstract massProperties(density: number): MassProperties;

  /**
   * @internal The shape eroded by `delta` metres (less than its thinnest half
   * size), of the same class, where the erosion is exact; null otherwise (a
   * hull). The continuous stage sweeps it (dynamics/continuous.ts).
   */
  eroded(_delta: number): ConvexShape | null {
    return null;
  }
}

/** Throws a RangeError naming `field` unless `value` is a finite number > 0. */
export function requirePositive(value: number, field: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${field} must be a finite number > 0 (got ${String(value)})`);
  }
}

/**
 * A shape dimension (radius, half extent, half height): in [MIN_SHAPE_SIZE,
 * MAX_SHAPE_SIZE] metres. Outside it, squares and cubes in the mass, the
 * inertia and the narrowphase leave the double range (Sphere(1e150):
 * r² · m overflows) or lose every digit next to the contact tolerances.
 */
export function requireShapeSize(value: number, field: string): void {
  requirePositive(value, field);
  if (value < MIN_SHAPE_SIZE || value > MAX_SHAPE_SIZE) {
    throw new RangeError(`${field} must be in [${MIN_SHAPE_SIZE}, ${MAX_SHAPE_SIZE}] m (got ${value})`);
  }
}
