/**
 * The collide routines of each shape kind and the functions that put them
 * in the dispatch table (collide-table.ts). Each shape class calls its own
 * `add…Pairs` from its constructor: it fills the slots of its kind against
 * every kind numbered before it (ShapeKind), both orders, so a pair of
 * shapes that exist always has its routine and a game that makes only boxes
 * carries no mesh, hull or compound code. Each pair family is written once;
 * the reversed slot calls it with the shapes swapped and flips the manifold,
 * so A–B and B–A give the same points with opposite normals.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type {
  BoxGeometry as Box, CapsuleGeometry as Capsule, MeshTriangles, SphereGeometry as Sphere,
} from '../../shapes/geometry';
import { type ConvexShape, ShapeKind, type Shape } from '../../shapes/shape';
import { boxBoxContacts } from './collide-box-box';
import { boxCapsuleContacts } from './collide-box-capsule';
import { boxMeshContacts } from './collide-box-mesh';
import { capsuleMeshContacts } from './collide-capsule-mesh';
import { capsuleCapsuleContacts } from './collide-capsule-capsule';
import { compoundFirst, compoundSecond } from './collide-compound';
import { fieldFirst, fieldSecond } from './collide-height-field';
import { convexContacts } from './collide-convex';
import { convexMeshContacts } from './collide-convex-mesh';
import { sphereBoxContacts } from './collide-sphere-box';
import { sphereCapsuleContacts } from './collide-sphere-capsule';
import { sphereMeshContacts } from './collide-sphere-mesh';
import { sphereSphereContacts } from './collide-sphere-sphere';
import { KIND_COUNT, setPair } from './collide-table';
import type { Manifold } from './manifold';

export { collide, collideTable, type CollideFunction } from './collide-table';

type P = Readonly<Vec3>;
type Q = Readonly<Quat>;
type TriangleMesh = MeshTriangles & Shape;

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

const S = ShapeKind.Sphere, B = ShapeKind.Box, C = ShapeKind.Capsule, M = ShapeKind.TriangleMesh;
const Y = ShapeKind.Cylinder, H = ShapeKind.ConvexHull, K = ShapeKind.Compound, F = ShapeKind.HeightField;

/** Kinds whose pairs are in the table already. */
const added: boolean[] = [false, false, false, false, false, false, false, false];

/** True the first time it is asked for `kind` (the caller then adds its pairs). */
function firstOf(kind: number): boolean {
  if (added[kind]) return false;
  added[kind] = true;
  return true;
}

export function addSpherePairs(): void {
  if (!firstOf(S)) return;
  setPair(S, S, sphereSphere, sphereSphere);
}

export function addBoxPairs(): void {
  if (!firstOf(B)) return;
  setPair(B, S, boxSphere, sphereBox);
  setPair(B, B, boxBox, boxBox);
}

export function addCapsulePairs(): void {
  if (!firstOf(C)) return;
  setPair(C, S, capsuleSphere, sphereCapsule);
  setPair(C, B, capsuleBox, boxCapsule);
  setPair(C, C, capsuleCapsule, capsuleCapsule);
}

/** Mesh–mesh stays `missing`: meshes are static and never collide with each other. */
export function addTriangleMeshPairs(): void {
  if (!firstOf(M)) return;
  setPair(M, S, meshSphere, sphereMesh);
  setPair(M, B, meshBox, boxMesh);
  setPair(M, C, meshCapsule, capsuleMesh);
}

/** Cylinder and ConvexHull: one routine for every convex partner (it takes either order, no flip), one for meshes. */
function addGeneralConvexPairs(kind: number): void {
  for (const k of [S, B, C, Y, H]) {
    if (k <= kind) setPair(kind, k, convexConvex, convexConvex);
  }
  setPair(kind, M, convexMesh, meshConvex);
}

export function addCylinderPairs(): void {
  if (firstOf(Y)) addGeneralConvexPairs(Y);
}

export function addConvexHullPairs(): void {
  if (firstOf(H)) addGeneralConvexPairs(H);
}

/** A Compound meets everything through its children (collide-compound.ts), a Compound too. */
export function addCompoundPairs(): void {
  if (!firstOf(K)) return;
  for (let k = 0; k < KIND_COUNT; k++) setPair(K, k, compoundFirst, compoundSecond);
  setPair(K, K, compoundFirst, compoundFirst);
}

/** A HeightField takes every convex kind's mesh routine (collide-height-field.ts); field–mesh and field–field stay `missing`. */
export function addHeightFieldPairs(): void {
  if (!firstOf(F)) return;
  setPair(F, S, fieldFirst(meshSphere), fieldSecond(sphereMesh));
  setPair(F, B, fieldFirst(meshBox), fieldSecond(boxMesh));
  setPair(F, C, fieldFirst(meshCapsule), fieldSecond(capsuleMesh));
  setPair(F, Y, fieldFirst(meshConvex), fieldSecond(convexMesh));
  setPair(F, H, fieldFirst(meshConvex), fieldSecond(convexMesh));
}
