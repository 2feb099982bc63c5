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
import { type ConvexShape, ShapeKind, type Shape } from '../../shapes/shape';
import type { Sphere } from '../../shapes/sphere';
import type { TriangleMesh } from '../../shapes/triangle-mesh';
import { boxBoxContacts } from './collide-box-box';
import { boxCapsuleContacts } from './collide-box-capsule';
import { boxMeshContacts } from './collide-box-mesh';
import { capsuleMeshContacts } from './collide-capsule-mesh';
import { capsuleCapsuleContacts } from './collide-capsule-capsule';
import { compoundFirst, compoundSecond, setCompoundTable } from './collide-compound';
import { fieldFirst, fieldSecond } from './collide-height-field';
import { convexContacts } from './collide-convex';
import { convexMeshContacts } from './collide-convex-mesh';
import { sphereBoxContacts } from './collide-sphere-box';
import { sphereCapsuleContacts } from './collide-sphere-capsule';
import { sphereMeshContacts } from './collide-sphere-mesh';
import { sphereSphereContacts } from './collide-sphere-sphere';
import type { Manifold } from './manifold';
import { narrowphaseGap, narrowphaseMargin } from './margin';

/**
 * A collide routine with the shapes typed loosely, as stored in the table.
 * The margin is read from narrowphaseMargin[0] (margin.ts), not passed.
 */
export type CollideFunction = (
  a: Shape, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  b: Shape, posB: Readonly<Vec3>, rotB: Readonly<Quat>,
  manifold: Manifold,
) => void;

type P = Readonly<Vec3>;
type Q = Readonly<Quat>;

function sphereSphere(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  sphereSphereContacts(a as Sphere, pa, qa, b as Sphere, pb, qb, m);
}
function sphereBox(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  sphereBoxContacts(a as Sphere, pa, qa, b as Box, pb, qb, m);
}
function boxSphere(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  sphereBoxContacts(b as Sphere, pb, qb, a as Box, pa, qa, m);
  m.flip();
}
function sphereCapsule(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  sphereCapsuleContacts(a as Sphere, pa, qa, b as Capsule, pb, qb, m);
}
function capsuleSphere(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  sphereCapsuleContacts(b as Sphere, pb, qb, a as Capsule, pa, qa, m);
  m.flip();
}
function boxBox(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  boxBoxContacts(a as Box, pa, qa, b as Box, pb, qb, m);
}
function boxCapsule(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  boxCapsuleContacts(a as Box, pa, qa, b as Capsule, pb, qb, m);
}
function capsuleBox(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  boxCapsuleContacts(b as Box, pb, qb, a as Capsule, pa, qa, m);
  m.flip();
}
function capsuleCapsule(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  capsuleCapsuleContacts(a as Capsule, pa, qa, b as Capsule, pb, qb, m);
}
// Mesh routines take the mesh as B; the mesh-first slots flip.
function sphereMesh(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  sphereMeshContacts(a as Sphere, pa, qa, b as TriangleMesh, pb, qb, m);
}
function meshSphere(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  sphereMeshContacts(b as Sphere, pb, qb, a as TriangleMesh, pa, qa, m);
  m.flip();
}
function boxMesh(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  boxMeshContacts(a as Box, pa, qa, b as TriangleMesh, pb, qb, m);
}
function meshBox(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  boxMeshContacts(b as Box, pb, qb, a as TriangleMesh, pa, qa, m);
  m.flip();
}
function capsuleMesh(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  capsuleMeshContacts(a as Capsule, pa, qa, b as TriangleMesh, pb, qb, m);
}
function meshCapsule(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  capsuleMeshContacts(b as Capsule, pb, qb, a as TriangleMesh, pa, qa, m);
  m.flip();
}
// Cylinder and ConvexHull: one routine for every convex partner (it takes
// either order, no flip), one for meshes.
function convexConvex(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  convexContacts(a as ConvexShape, pa, qa, b as ConvexShape, pb, qb, m);
}
function convexMesh(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  convexMeshContacts(a as ConvexShape, pa, qa, b as TriangleMesh, pb, qb, m);
}
function meshConvex(a: Shape, pa: P, qa: Q, b: Shape, pb: P, qb: Q, m: Manifold): void {
  convexMeshContacts(b as ConvexShape, pb, qb, a as TriangleMesh, pa, qa, m);
  m.flip();
}
function missing(a: Shape, _pa: P, _qa: Q, b: Shape, _pb: P, _qb: Q, _m: Manifold): void {
  throw new Error(`no collision routine for shape kinds ${a.kind} and ${b.kind}`);
}

const KIND_COUNT = 8;

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
  for (const G of [ShapeKind.Cylinder, ShapeKind.ConvexHull]) {
    for (const K of [S, B, C, ShapeKind.Cylinder, ShapeKind.ConvexHull]) { table[G]![K] = convexConvex; table[K]![G] = convexConvex; }
    table[G]![M] = convexMesh; table[M]![G] = meshConvex;
  }
  // Mesh–mesh stays `missing`: meshes are static and never collide with each other.
  // A HeightField takes every convex kind's mesh routine (collide-height-field.ts).
  const H = ShapeKind.HeightField, K = ShapeKind.Compound;
  for (let k = 0; k < KIND_COUNT; k++) {
    if (table[k]![M] !== missing && k !== M) table[k]![H] = fieldSecond(table[k]![M]!);
    if (table[M]![k] !== missing && k !== M) table[H]![k] = fieldFirst(table[M]![k]!);
  }
  // A Compound meets everything through its children (collide-compound.ts).
  for (let k = 0; k < KIND_COUNT; k++) {
    table[K]![k] = compoundFirst;
    if (k !== K) table[k]![K] = compoundSecond;
  }
  setCompoundTable(table);
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
  narrowphaseMargin[0] = margin;
  narrowphaseGap[0] = 0;
  collideTable[shapeA.kind]![shapeB.kind]!(shapeA, posA, rotA, shapeB, posB, rotB, manifold);
}
