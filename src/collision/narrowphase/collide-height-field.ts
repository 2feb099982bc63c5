/**
 * Convex shapes against a HeightField, through the TriangleMesh colliders:
 * the field's patch (the triangles under the collider's query box, made on
 * the fly with the mesh's active-edge flags, height-field.ts) stands in for
 * the mesh, and the manifold's feature ids are rewritten from patch slots to
 * the field's triangle indices (triangle · 128 + code, as for a mesh), so
 * that a resting contact keeps its ids from step to step.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { HeightFieldGeometry as HeightField, HeightFieldTriangles as HeightFieldPatch } from '../../shapes/geometry';
import type { Shape } from '../../shapes/shape';
import type { CollideFunction } from './collide-table';
import type { Manifold } from './manifold';

/** Manifold ids from patch slots (slot · 128 + code) to field triangles. */
function remapIds(patch: HeightFieldPatch, m: Manifold): void {
  for (let i = 0; i < m.pointCount; i++) {
    const p = m.points[i]!;
    const slot = p.id >>> 7;
    p.id = (patch.triangleIds[slot]! * 128 + (p.id & 127)) >>> 0;
  }
}

/** The routine for (convex, HeightField) from the routine for (convex, TriangleMesh). */
export function fieldSecond(meshRoutine: CollideFunction): CollideFunction {
  return (a: Shape, pa: Readonly<Vec3>, qa: Readonly<Quat>, b: Shape, pb: Readonly<Vec3>, qb: Readonly<Quat>, m: Manifold): void => {
    const patch = (b as HeightField).patch;
    // The mesh routines read only the MeshTriangles members of their mesh argument.
    meshRoutine(a, pa, qa, patch as unknown as Shape, pb, qb, m);
    remapIds(patch, m);
  };
}

/** The routine for (HeightField, convex) from the routine for (TriangleMesh, convex). */
export function fieldFirst(meshRoutine: CollideFunction): CollideFunction {
  return (a: Shape, pa: Readonly<Vec3>, qa: Readonly<Quat>, b: Shape, pb: Readonly<Vec3>, qb: Readonly<Quat>, m: Manifold): void => {
    const patch = (a as HeightField).patch;
    meshRoutine(patch as unknown as Shape, pa, qa, b, pb, qb, m);
    remapIds(patch, m);
  };
}
