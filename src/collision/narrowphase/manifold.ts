/**
 * Contact manifolds: up to four points between two shapes.
 *
 * Conventions (every collide routine follows them):
 * - `normal` is a unit vector pointing from shape A towards shape B.
 * - `depth` is the penetration along the normal: > 0 overlapping, < 0 a
 *   speculative point separated by -depth (reported only within the margin).
 * - `position` is the midpoint between the two surfaces: the deepest point of
 *   A is `position + normal·depth/2`, that of B `position - normal·depth/2`.
 * - `id` is a 32-bit feature key (e.g. face/edge/vertex indices packed) that
 *   stays the same while the shapes rest, so the solver can warm-start; a
 *   Compound adds its part indices above bit 32 (collide-compound.ts).
 */
import type { Vec3 } from '../../math/vec3';

export const MAX_MANIFOLD_POINTS = 4;

export class ManifoldPoint {
  readonly position: Vec3 = { x: 0, y: 0, z: 0 };
  readonly normal: Vec3 = { x: 0, y: 1, z: 0 };
  depth = 0;
  id = 0;
}

export class Manifold {
  pointCount = 0;
  readonly points: readonly ManifoldPoint[] = [new ManifoldPoint(), new ManifoldPoint(), new ManifoldPoint(), new ManifoldPoint()];

  reset(): void {
    this.pointCount = 0;
  }

  /**
   * Appends a point from `src[offset .. offset + 6]` = position xyz, normal
   * xyz, depth (ignored when the manifold is full). Returns its index or -1.
   * The narrowphase uses this instead of {@link addPoint}, which takes doubles
   * as arguments.
   */
  addPointFrom(src: Float64Array, offset: number, id: number): number {
    if (this.pointCount >= MAX_MANIFOLD_POINTS) return -1;
    const index = this.pointCount++;
    const p = this.points[index]!;
    const pos = p.position, n = p.normal;
    pos.x = src[offset]!;
    pos.y = src[offset + 1]!;
    pos.z = src[offset + 2]!;
    n.x = src[offset + 3]!;
    n.y = src[offset + 4]!;
    n.z = src[offset + 5]!;
    p.depth = src[offset + 6]!;
    p.id = id;
    return index;
  }

  /** Appends a point (ignored when the manifold is full). Returns its index or -1. */
  addPoint(px: number, py: number, pz: number, nx: number, ny: number, nz: number, depth: number, id: number): number {
    if (this.pointCount >= MAX_MANIFOLD_POINTS) return -1;
    const index = this.pointCount++;
    const p = this.points[index]!;
    p.position.x = px;
    p.position.y = py;
    p.position.z = pz;
    p.normal.x = nx;
    p.normal.y = ny;
    p.normal.z = nz;
    p.depth = depth;
    p.id = id;
    return index;
  }

  /** Reverses the roles of A and B: every normal flips, positions and depths stay. */
  flip(): void {
    for (let i = 0; i < this.pointCount; i++) {
      const n = this.points[i]!.normal;
      n.x = -n.x;
      n.y = -n.y;
      n.z = -n.z;
    }
  }
}
