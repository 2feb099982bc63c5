/**
 * The sizes of a body's shape that the step reads: how far the shape reaches
 * from its centre, how thin and how elongated it is, and how round. Worked out
 * once, when the body is made.
 */
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { type Shape, ShapeKind } from '../shapes/shape';

/** @internal See the RigidBody fields of the same names. */
export interface ShapeExtent {
  boundingRadius: number;
  roundingRadius: number;
  elongation: number;
  thinnestHalfSize: number;
  continuousReach: number;
}

/** @internal The extents of `shape` (RigidBody.boundingRadius, …). */
export function shapeExtent(shape: Shape): ShapeExtent {
  const sh = shape as Shape & { radius?: number; halfHeight?: number; halfExtents?: Vec3; boundingRadius?: number; thinnestHalfSize?: number };
  const boundingRadius = sh.boundingRadius !== undefined ? sh.boundingRadius : sh.halfExtents
    ? Math.sqrt(sh.halfExtents.x ** 2 + sh.halfExtents.y ** 2 + sh.halfExtents.z ** 2)
    : (sh.radius ?? 0) + (sh.halfHeight ?? 0);
  const roundingRadius = shape.kind === ShapeKind.Sphere || shape.kind === ShapeKind.Capsule || shape.kind === ShapeKind.Cylinder ? sh.radius! : 0;
  const thinnest = sh.thinnestHalfSize !== undefined ? sh.thinnestHalfSize : sh.halfExtents ? Math.min(sh.halfExtents.x, sh.halfExtents.y, sh.halfExtents.z) : sh.radius ?? 0;
  const elongation = shape.kind === ShapeKind.Sphere || !(thinnest > 0) ? 1 : boundingRadius / thinnest;
  // A compound is swept as the sphere about its centre of mass only, which no turn moves.
  const continuousReach = shape.kind === ShapeKind.Sphere || !shape.isConvex ? 0 : shape.kind === ShapeKind.Capsule ? sh.halfHeight! : boundingRadius;
  return { boundingRadius, roundingRadius, elongation, thinnestHalfSize: thinnestHalfSize(shape, thinnest), continuousReach };
}

const unrotated: Quat = { x: 0, y: 0, z: 0, w: 1 };
const atOrigin: Vec3 = { x: 0, y: 0, z: 0 };

/** The shape's smallest half size: a cylinder's smaller of radius and half height, else the thinnest known or the local box's. */
function thinnestHalfSize(shape: Shape, thinnest: number): number {
  const sh = shape as Shape & { radius?: number; halfHeight?: number };
  if (shape.kind === ShapeKind.Cylinder) return Math.min(sh.radius!, sh.halfHeight!);
  if (thinnest > 0) return thinnest;
  const box = shape.computeAabb({ min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } }, atOrigin, unrotated);
  const h = 0.5 * Math.min(box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z);
  return h > 0 ? h : 0;
}
