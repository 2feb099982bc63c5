/**
 * The narrowphase dispatch table `collide[kindA][kindB]` (Box2D's b2AddType
 * registry, built once at module load). Each pair family is written once for
 * kindA ≤ kindB; the reversed slot calls it with the shapes swapped and flips
 * the manifold, so A–B and B–A give the same points with opposite normals.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { Box } from '../../shapes/box';
import type { Capsule } from '../../shapes/capsule';
import { ShapeKind, type Shape } from '../../shapes/shape';
import type { Sphere } from '../../shapes/sphere';
import type { TriangleMesh } from '../../shapes/triangle-mesh';
import { collideBoxBox } from './collide-box-box';
import { collideBoxCapsule } from './collide-box-capsule';
import { collideBoxMesh } from './collide-box-mesh';
import { collideCapsuleMesh } from './collide-capsule-mesh';
import { collideCapsuleCapsule } from './collide-capsule-capsule';
import { collideSphereBox } from './collide-sphere-box';
import { collideSphereCapsule } from './collide-sphere-capsule';
import { collideSphereMesh } from './collide-sphere-mesh';
import { collideSphereSphere } from './collide-sphere-sphere';
import type { Manifold } from './manifold';

/** A collide routine with the shapes typed loosely, as stored in the table. */
export type CollideFunction = (
  a: Shape, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  b: Shape, posB: Readonly<Vec3>, rotB: Readonly<Quat>,
  margin: number, manifold: Manifold,
) => void;

type P = Readonly<Vec3>;
type Q = Readonly<Quat>;

function sphereSphere(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideSphereSphere(a as Sphere, pa, qa, b as Sphere, pb, qb, margin, m);
}
function sphereBox(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideSphereBox(a as Sphere, pa, qa, b as Box, pb, qb, margin, m);
}
function boxSphere(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideSphereBox(b as Sphere, pb, qb, a as Box, pa, qa, margin, m);
  m.flip();
}
function sphereCapsule(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideSphereCapsule(a as Sphere, pa, qa, b as Capsule, pb, qb, margin, m);
}
function capsuleSphere(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideSphereCapsule(b as Sphere, pb, qb, a as Capsule, pa, qa, margin, m);
  m.flip();
}
function boxBox(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideBoxBox(a as Box, pa, qa, b as Box, pb, qb, margin, m);
}
function boxCapsule(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideBoxCapsule(a as Box, pa, qa, b as Capsule, pb, qb, margin, m);
}
function capsuleBox(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideBoxCapsule(b as Box, pb, qb, a as Capsule, pa, qa, margin, m);
  m.flip();
}
function capsuleCapsule(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideCapsuleCapsule(a as Capsule, pa, qa, b as Capsule, pb, qb, margin, m);
}
// Mesh routines take the mesh as B; the mesh-first slots flip.
function sphereMesh(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideSphereMesh(a as Sphere, pa, qa, b as TriangleMesh, pb, qb, margin, m);
}
function meshSphere(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideSphereMesh(b as Sphere, pb, qb, a as TriangleMesh, pa, qa, margin, m);
  m.flip();
}
function boxMesh(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideBoxMesh(a as Box, pa, qa, b as TriangleMesh, pb, qb, margin, m);
}
function meshBox(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideBoxMesh(b as Box, pb, qb, a as TriangleMesh, pa, qa, margin, m);
  m.flip();
}
function capsuleMesh(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideCapsuleMesh(a as Capsule, pa, qa, b as TriangleMesh, pb, qb, margin, m);
}
function meshCapsule(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, margin: number, m: Manifold): void {
  collideCapsuleMesh(b as Capsule, pb, qb, a as TriangleMesh, pa, qa, margin, m);
  m.flip();
}
function missing(a: Shape, _pa: P, _qa: Q, b: Shape, _pb: P, _qb: Q, _margin: number, _m: Manifold): void {
  throw new Error(`no collision routine for shape kinds ${a.kind} and ${b.kind}`);
}

const KIND_COUNT = 4;

function buildTable(): CollideFunction[][] {
  const table: CollideFunction[][] = [];
  for (let i = 0; i < KIND_COUNT; i++) {
    const row: CollideFunction[] = [];
    for (let j = 0; j < KIND_COUNT; j++) row.push(missing);
    table.push(row);
  }
  const S = ShapeKind.Sphere, B = ShapeKind.Box, C = ShapeKind.Capsule;
  table[S]![S] = sphereSphere;
  table[S]![B] = sphereBox;
  table[B]![S] = boxSphere;
  table[S]![C] = sphereCapsule;
  table[C]![S] = capsuleSphere;
  table[B]![B] = boxBox;
  table[B]![C] = boxCapsule;
  table[C]![B] = capsuleBox;
  table[C]![C] = capsuleCapsule;
  const M = ShapeKind.TriangleMesh;
  table[S]![M] = sphereMesh;
  table[M]![S] = meshSphere;
  table[B]![M] = boxMesh;
  table[M]![B] = meshBox;
  table[C]![M] = capsuleMesh;
  table[M]![C] = meshCapsule;
  // Mesh–mesh stays `missing`: meshes are static and never collide with each other.
  return table;
}

/** `collideTable[kindA][kindB]`: the routine for shape A of kindA against shape B of kindB. */
export const collideTable: readonly (readonly CollideFunction[])[] = buildTable();

/**
 * Contact manifold between two shapes at world poses, either order; normal
 * A→B. Points are reported while the separation is below `margin` (≥ 0).
 * Throws for pairs without a routine (mesh–mesh).
 */
export function collide(
  shapeA: Shape, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  shapeB: Shape, posB: Readonly<Vec3>, rotB: Readonly<Quat>,
  margin: number, manifold: Manifold,
): void {
  collideTable[shapeA.kind]![shapeB.kind]!(shapeA, posA, rotA, shapeB, posB, rotB, margin, manifold);
}
