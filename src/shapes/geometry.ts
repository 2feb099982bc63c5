/**
 * What the collision routines read of each shape kind. The shape classes
 * implement these views and bring their collision routines in when they are
 * constructed (collision/narrowphase/dispatch.ts), so the routines read the
 * views and do not import the classes back.
 */
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { ConvexShape, Shape } from './shape';

export interface SphereGeometry extends ConvexShape {
  readonly radius: number;
}

export interface BoxGeometry extends ConvexShape {
  readonly halfExtents: Readonly<Vec3>;
}

/** A capsule or a cylinder: radius and half height along local y. */
export interface CapsuleGeometry extends ConvexShape {
  readonly radius: number;
  readonly halfHeight: number;
}

export type CylinderGeometry = CapsuleGeometry;

/** Largest ConvexHullOptions.maxVertices. */
export const MAX_HULL_VERTICES = 256;

/** The faces of a hull, as the face clipping reads them (convex-hull.ts documents the layout). */
export interface ConvexHullGeometry extends ConvexShape {
  readonly vertices: Float64Array;
  readonly faceNormals: Float64Array;
  readonly faceStart: Int32Array;
  readonly faceVertices: Int32Array;
  /** Index of the face whose outward normal is most aligned with `d` (local frame). */
  supportingFace(d: Readonly<Vec3>): number;
}

/** Edge k of a triangle runs from corner k to corner (k + 1) % 3; bit k of `featureFlags` marks it active. */
export const EDGE_ACTIVE_SHIFT = 0;
/** Bit 3 + k of `featureFlags` marks corner k active. */
export const VERTEX_ACTIVE_SHIFT = 3;

/**
 * Whether the triangle feature named by `mask` (bit k: corner k is on it) is
 * active in `flags`: an edge for two corners, a corner for one, never the face.
 */
export function featureActive(flags: number, mask: number): boolean {
  if (mask === 7) return false;
  if (mask === 3) return (flags & (1 << (EDGE_ACTIVE_SHIFT + 0))) !== 0;
  if (mask === 6) return (flags & (1 << (EDGE_ACTIVE_SHIFT + 1))) !== 0;
  if (mask === 5) return (flags & (1 << (EDGE_ACTIVE_SHIFT + 2))) !== 0;
  return (flags & (1 << (VERTEX_ACTIVE_SHIFT + (mask === 1 ? 0 : mask === 2 ? 1 : 2)))) !== 0;
}

/**
 * What the convex-vs-mesh colliders and the mesh shape cast read: triangle
 * slots (corners, unit normals, active-feature flags) found by a box query.
 * A TriangleMesh's slots are its triangles; a HeightField hands out a patch
 * of triangles made for the query (height-field.ts).
 */
export interface MeshTriangles {
  readonly corners: Float64Array;
  readonly normals: Float64Array;
  readonly featureFlags: Uint8Array;
  readonly doubleSided: boolean;
  /** Writes the slots overlapping bounds = [min xyz, max xyz] (local) to out[start…]; returns their count. */
  queryBoundsFrom(bounds: Float64Array, out: number[], start: number): number;
  /**
   * The corner, off the shared edge, of the neighbour across edge k of slot t
   * into out[0..2]; false when the edge has no (single) neighbour.
   */
  neighborFarCorner(t: number, k: number, out: Float64Array): boolean;
}

/** The triangles of a HeightField under one query box; `triangleIds[i]` is the field's triangle of slot i. */
export interface HeightFieldTriangles extends MeshTriangles {
  readonly triangleIds: Int32Array;
}

export interface HeightFieldGeometry extends Shape {
  /** Filled by each box query of the colliders. */
  readonly patch: HeightFieldTriangles;
}

/** One part of a Compound, in the compound's frame (origin at the centre of mass, principal axes). */
export interface CompoundChild {
  readonly shape: ConvexShape;
  readonly position: Readonly<Vec3>;
  readonly rotation: Readonly<Quat>;
}

export interface CompoundGeometry extends Shape {
  readonly children: readonly CompoundChild[];
  /** Writes the children whose boxes overlap bounds = [min xyz, max xyz] (compound frame) to out[start…]; returns their count. */
  queryBoundsFrom(bounds: Float64Array, out: number[], start: number): number;
}
