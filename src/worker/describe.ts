/** Shapes back to data, for bodies the worker creates and the page draws. */
import { ShapeKind, type Shape } from '../shapes/shape';
import type { Box } from '../shapes/box';
import type { Capsule } from '../shapes/capsule';
import type { ConvexHull } from '../shapes/convex-hull';
import type { Cylinder } from '../shapes/cylinder';
import type { Sphere } from '../shapes/sphere';
import type { TriangleMesh } from '../shapes/triangle-mesh';
import type { ShapeDesc } from './protocol';

/** The description `shapeFromDesc` rebuilds `shape` from (a mesh's vertices and indices are copied). */
export function describeShape(shape: Shape): ShapeDesc {
  switch (shape.kind) {
    case ShapeKind.Box: {
      const h = (shape as Box).halfExtents;
      return { kind: 'box', halfExtents: { x: h.x, y: h.y, z: h.z } };
    }
    case ShapeKind.Sphere: return { kind: 'sphere', radius: (shape as Sphere).radius };
    case ShapeKind.Capsule: return { kind: 'capsule', radius: (shape as Capsule).radius, halfHeight: (shape as Capsule).halfHeight };
    case ShapeKind.Cylinder: return { kind: 'cylinder', radius: (shape as Cylinder).radius, halfHeight: (shape as Cylinder).halfHeight };
    // The local vertices: the hull they make is already in its own frame (centre of mass at the origin, principal axes).
    case ShapeKind.ConvexHull: return { kind: 'hull', points: (shape as ConvexHull).vertices.slice() };
    case ShapeKind.TriangleMesh: {
      const m = shape as TriangleMesh;
      return { kind: 'mesh', positions: m.vertices.slice(), indices: m.indices.slice(), doubleSided: m.doubleSided };
    }
    default: throw new TypeError(`describeShape: unknown shape kind ${String((shape as { kind: unknown }).kind)}`);
  }
}
