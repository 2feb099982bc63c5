// The public barrel of `footing`: explicit named exports only.
export type { Vec3 } from './math/vec3';
export type { Quat } from './math/quat';
export type { Mat3 } from './math/mat3';
export type { Aabb } from './collision/aabb';
export { Shape, ConvexShape, ShapeKind, type MassProperties } from './shapes/shape';
export { Sphere } from './shapes/sphere';
export { Box } from './shapes/box';
export { Capsule } from './shapes/capsule';
export { massFromDensity, massFromMass } from './shapes/mass';
export { Manifold, ManifoldPoint, MAX_MANIFOLD_POINTS } from './collision/narrowphase/manifold';
