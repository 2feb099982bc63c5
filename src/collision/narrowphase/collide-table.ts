/**
 * The narrowphase dispatch table `collideTable[kindA][kindB]` (Box2D's
 * b2AddType registry). Every slot starts as `missing`; a shape class fills
 * the slots of its kind against the kinds numbered before it when its first
 * instance is made (dispatch.ts), so that a game carries the routines of the
 * shapes it makes and no others, and a pair of made shapes always has its
 * routine. The table is plain data: the routines are reached through it, and
 * the compound routines read it for their children.
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { Shape } from '../../shapes/shape';
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

/** Number of shape kinds (ShapeKind). */
export const KIND_COUNT = 8;

/** The slot of a pair without a routine (mesh–mesh: meshes are static and never meet). */
export function missing(a: Shape, _pa: Readonly<Vec3>, _qa: Readonly<Quat>, b: Shape, _pb: Readonly<Vec3>, _qb: Readonly<Quat>, _m: Manifold): void {
  throw new Error(`no collision routine for shape kinds ${a.kind} and ${b.kind}`);
}

function emptyTable(): CollideFunction[][] {
  const table: CollideFunction[][] = [];
  for (let i = 0; i < KIND_COUNT; i++) {
    const row: CollideFunction[] = [];
    for (let j = 0; j < KIND_COUNT; j++) row.push(missing);
    table.push(row);
  }
  return table;
}

/** `collideTable[kindA][kindB]`: the routine for shape A of kindA against shape B of kindB. */
export const collideTable: readonly (readonly CollideFunction[])[] = emptyTable();

/** Sets the routines of the pair (kindA, kindB) and (kindB, kindA). */
export function setPair(kindA: number, kindB: number, ab: CollideFunction, ba: CollideFunction): void {
  (collideTable[kindA] as CollideFunction[])[kindB] = ab;
  (collideTable[kindB] as CollideFunction[])[kindA] = ba;
}

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

/**
 * `collide` with the margin already in narrowphaseMargin[0]: for the
 * narrowphase pass, where the margin is computed per pair (a double handed
 * to a call V8 does not inline is boxed).
 */
export function collideAtMargin(
  shapeA: Shape, posA: Readonly<Vec3>, rotA: Readonly<Quat>,
  shapeB: Shape, posB: Readonly<Vec3>, rotB: Readonly<Quat>,
  manifold: Manifold,
): void {
  narrowphaseGap[0] = 0;
  collideTable[shapeA.kind]![shapeB.kind]!(shapeA, posA, rotA, shapeB, posB, rotB, manifold);
}
