/** Shapes from data (the page's descriptions) and back to data, for bodies the worker creates and the page draws. */
import { ShapeKind, type Shape } from '../shapes/shape';
import { Box } from '../shapes/box';
import { Capsule } from '../shapes/capsule';
import { ConvexHull } from '../shapes/convex-hull';
import { Cylinder } from '../shapes/cylinder';
import { Sphere } from '../shapes/sphere';
import { TriangleMesh } from '../shapes/triangle-mesh';
import type { ShapeDesc } from './protocol';

/** Builds a footing shape from its description; throws a RangeError/TypeError naming the field. */
export function shapeFromDesc(desc: ShapeDesc): Shape {
  if (desc === null || typeof desc !== 'object') throw new TypeError(`shape must be a shape description object (got ${String(desc)})`);
  switch (desc.kind) {
    case 'box': return new Box(desc.halfExtents);
    case 'sphere': return new Sphere(desc.radius);
    case 'capsule': return new Capsule(desc.radius, desc.halfHeight);
    case 'cylinder': return new Cylinder(desc.radius, desc.halfHeight);
    case 'hull': return new ConvexHull(desc.points, { maxVertices: desc.maxVertices });
    case 'mesh': return new TriangleMesh(desc.positions, desc.indices, { doubleSided: desc.doubleSided ?? false });
    default: throw new TypeError(`shape.kind must be 'box', 'sphere', 'capsule', 'cylinder', 'hull' or 'mesh' (got ${String((desc as { kind: unknown }).kind)})`);
  }
}

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
