/**
 * Shape casts: a convex shape swept along a translation against one target
 * shape (convex, or a triangle mesh triangle by triangle).
 *
 * Conservative advancement driven by GJK distance (Mirtich 1996; van den
 * Bergen 2004, "Ray Casting against General Convex Objects"; Box2D's
 * b2ShapeCast is the same loop). With A = cast shape translated by t·T and B
 * the target, the distance d(t) = dist(coreA + tT, coreB) − rA − rB is a
 * convex function of t (the distance from the point tT to the convex set
 * coreB − coreA, minus a constant), and its slope at t is −T·n with n the
 * unit A→B normal at t. Convexity puts d above its tangent line:
 *   d(t + Δ) ≥ d(t) − (T·n) Δ,
 * so the step Δ = (d(t) − target) / (T·n) can never cross the first time of
 * impact: every step lands at or before it, no obstacle can be stepped over
 * however thin, and a reported fraction is never later than the true one.
 * If T·n ≤ 0 the distance is non-decreasing from t on: no impact.
 *
 * The loop aims at a separation of CAST_TARGET (1 µm) and stops within
 * CAST_TOLERANCE of it, so a hit leaves the shapes 1–2 µm apart (never
 * overlapping by round-off), i.e. the fraction is early by CAST_TARGET / (T·n)
 * at most — under 1e-3 unless the approach is within ~0.06° of tangential.
 * Face contacts converge in one step (d is linear there), curved ones
 * quadratically, tangential ones linearly (the gap quarters per step).
 */
import type { Aabb } from '../aabb';
import type { Quat } from '../../math/quat';
import { inverseRotate, multiply as multiplyQuat, multiplyConjugateA, rotate, TURN, turnBy } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import { epaPenetration } from '../narrowphase/epa';
import { fillSeparatedResult, gjkCore, GjkResult, Simplex } from '../narrowphase/gjk';
import { loadCoreRadius, MinkowskiPair } from '../narrowphase/minkowski-pair';
import { TriangleCore } from '../narrowphase/triangle-core';
import { ConvexShape, type Shape, ShapeKind } from '../../shapes/shape';
import type { CompoundGeometry as Compound, HeightFieldGeometry as HeightField, MeshTriangles } from '../../shapes/geometry';

/** Result of shapeCastPair (world space). */
export class ShapeCastPairHit {
  /** Fraction of the translation travelled at the first contact, in [0, 1]. */
  fraction = 0;
  /** Contact point on the target's surface. */
  readonly point: Vec3 = { x: 0, y: 0, z: 0 };
  /** Unit surface normal of the target at the contact, pointing towards the cast shape. */
  readonly normal: Vec3 = { x: 0, y: 1, z: 0 };
  /** Triangle index when the target is a TriangleMesh or HeightField, −1 otherwise. */
  triangle = -1;
  /** Child index when the target is a Compound, −1 otherwise. */
  child = -1;
}

/** Separation (metres) the advancement aims for at impact. */
export const CAST_TARGET = 1e-6;
/** A contact is accepted when the separation is below CAST_TARGET + CAST_TOLERANCE. */
export const CAST_TOLERANCE = 1e-6;
const MAX_CAST_ITERATIONS = 64;

// Scratch owned by this module. castConvex uses castPair/castSimplex/
// castResult/castPos and calls only gjkCore / fillSeparatedResult /
// epaPenetration, which use their own; shapeCastPair's mesh branch uses the
// mesh scratch and calls castConvex.
const castPair = /* @__PURE__ */ new MinkowskiPair();
const castSimplex = /* @__PURE__ */ new Simplex();
const castResult = /* @__PURE__ */ new GjkResult();
const castPos: Vec3 = { x: 0, y: 0, z: 0 };
const castNormal: Vec3 = { x: 0, y: 0, z: 0 };
/**
 * Doubles handed to and from castConvex: [0] the largest fraction to search
 * (in), [1] the penetration depth when the cast started overlapping (out,
 * else 0); a typed array, not double arguments (CONTRIBUTING.md, hot path).
 */
const CAST_IO = new Float64Array(2);
/** Core radii of the cast pair (loadCoreRadius: no boxed loads). */
const CAST_RADII = new Float64Array(2);

/**
 * The turning sweep (continuous collision, dynamics/continuous.ts): while
 * SWEEP[0] is 1, the cast shape also turns by SWEEP[4] radians about the
 * unit axis (SWEEP[1..3], world frame) over the cast, its rotation at
 * fraction t being rot(axis, t·angle)·rotation; SWEEP[5] bounds the distance
 * of its core from its origin. Start overlaps with mesh triangles and
 * compound children are skipped (SWEEP[6] counts them), so that a body
 * resting on a terrain still finds the slope it is about to enter.
 */
export const SWEEP = new Float64Array(7);
/** The sweep axis in the frame castConvex works in (the mesh's or compound's for those targets). */
const sweepAxis: Vec3 = { x: 0, y: 0, z: 0 };
const sweepRot: Quat = { x: 0, y: 0, z: 0, w: 1 };

const identity: Quat = { x: 0, y: 0, z: 0, w: 1 };
const origin: Vec3 = { x: 0, y: 0, z: 0 };
const triangle = /* @__PURE__ */ new TriangleCore();
const meshPos: Vec3 = { x: 0, y: 0, z: 0 };
const meshRot: Quat = { x: 0, y: 0, z: 0, w: 1 };
const meshTrans: Vec3 = { x: 0, y: 0, z: 0 };
const meshBox: Aabb = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
const meshCandidates: number[] = [];
const meshHit = /* @__PURE__ */ new ShapeCastPairHit();
const bestPoint: Vec3 = { x: 0, y: 0, z: 0 };
const bestNormal: Vec3 = { x: 0, y: 0, z: 0 };

/**
 * Sweeps convex `cast` from (position, rotation) along `translation` against
 * `target` at (targetPosition, targetRotation). Returns true and fills `out`
 * with the first contact, within CAST_TARGET + CAST_TOLERANCE of touching and
 * never later than the true impact.
 *
 * Starting overlapped: fraction 0, the penetration normal (target → cast)
 * and the deepest point of the target. Starting within the tolerance of
 * contact: fraction 0 if the motion closes the gap, no hit if it opens it
 * (so a shape resting on the ground can slide along it).
 */
export function shapeCastPair(
  cast: ConvexShape,
  position: Readonly<Vec3>,
  rotation: Readonly<Quat>,
  translation: Readonly<Vec3>,
  target: Shape,
  targetPosition: Readonly<Vec3>,
  targetRotation: Readonly<Quat>,
  out: ShapeCastPairHit,
): boolean {
  out.child = -1;
  const special = targetCasts[target.kind]!;
  if (special !== null) return special(cast, position, rotation, translation, target, targetPosition, targetRotation, out);
  out.triangle = -1;
  CAST_IO[0] = 1;
  sweepAxis.x = SWEEP[1]!; sweepAxis.y = SWEEP[2]!; sweepAxis.z = SWEEP[3]!;
  return castConvex(cast, position, rotation, translation, target as ConvexShape, targetPosition, targetRotation, out);
}

/** A cast against a target that is not convex, by the target's kind. */
type TargetCast = (
  cast: ConvexShape, position: Readonly<Vec3>, rotation: Readonly<Quat>, translation: Readonly<Vec3>,
  target: Shape, targetPosition: Readonly<Vec3>, targetRotation: Readonly<Quat>, out: ShapeCastPairHit,
) => boolean;

/**
 * The casts against meshes, height fields and compounds, set by those
 * shapes' constructors (as their colliders are, narrowphase/dispatch.ts):
 * a game without them does not carry these casts. null: a convex target.
 */
const targetCasts: (TargetCast | null)[] = [null, null, null, null, null, null, null, null];

export function addTriangleMeshCasts(): void {
  targetCasts[ShapeKind.TriangleMesh] = castTriangleMesh;
}

export function addHeightFieldCasts(): void {
  targetCasts[ShapeKind.HeightField] = castHeightField;
}

export function addCompoundCasts(): void {
  targetCasts[ShapeKind.Compound] = castCompound;
}

function castTriangleMesh(
  cast: ConvexShape, position: Readonly<Vec3>, rotation: Readonly<Quat>, translation: Readonly<Vec3>,
  target: Shape, targetPosition: Readonly<Vec3>, targetRotation: Readonly<Quat>, out: ShapeCastPairHit,
): boolean {
  return castMesh(cast, position, rotation, translation, target as unknown as MeshTriangles, null, targetPosition, targetRotation, out);
}

function castHeightField(
  cast: ConvexShape, position: Readonly<Vec3>, rotation: Readonly<Quat>, translation: Readonly<Vec3>,
  target: Shape, targetPosition: Readonly<Vec3>, targetRotation: Readonly<Quat>, out: ShapeCastPairHit,
): boolean {
  const patch = (target as HeightField).patch;
  return castMesh(cast, position, rotation, translation, patch, patch.triangleIds, targetPosition, targetRotation, out);
}

const childPos: Vec3 = { x: 0, y: 0, z: 0 };
const childRot: Quat = { x: 0, y: 0, z: 0, w: 1 };
const childHit = /* @__PURE__ */ new ShapeCastPairHit();
const childList: number[] = [];
const sweepBounds = new Float64Array(6);

/**
 * Against a Compound: the children whose boxes meet the sweep's box (in the
 * compound's frame), each swept against at its world pose with the best
 * fraction so far as the limit; the earliest wins (the deepest among several
 * overlapped at the start).
 */
function castCompound(
  cast: ConvexShape,
  position: Readonly<Vec3>,
  rotation: Readonly<Quat>,
  translation: Readonly<Vec3>,
  target: Shape,
  compoundPosition: Readonly<Vec3>,
  compoundRotation: Readonly<Quat>,
  out: ShapeCastPairHit,
): boolean {
  const compound = target as Compound;
  sweptBoxInFrame(cast, position, rotation, translation, compoundPosition, compoundRotation);
  // The children are swept at their world poses: the world axis.
  sweepAxis.x = SWEEP[1]!; sweepAxis.y = SWEEP[2]!; sweepAxis.z = SWEEP[3]!;
  const count = compound.queryBoundsFrom(sweepBounds, childList, 0);
  let bestFraction = Infinity;
  let bestDepth = 0;
  let bestChild = -1;
  for (let k = 0; k < count; k++) {
    const i = childList[k]!;
    const child = compound.children[i]!;
    rotate(childPos, compoundRotation, child.position);
    childPos.x += compoundPosition.x; childPos.y += compoundPosition.y; childPos.z += compoundPosition.z;
    multiplyQuat(childRot, compoundRotation, child.rotation);
    CAST_IO[0] = bestFraction < 1 ? bestFraction : 1;
    if (!castConvex(cast, position, rotation, translation, child.shape, childPos, childRot, childHit)) continue;
    if (childHit.fraction === 0 && SWEEP[0] === 1) { SWEEP[6] = SWEEP[6]! + 1; continue; }
    const depth = CAST_IO[1]!;
    if (childHit.fraction < bestFraction || (childHit.fraction === 0 && bestFraction === 0 && depth > bestDepth)) {
      bestFraction = childHit.fraction;
      bestDepth = depth;
      bestChild = i;
      out.point.x = childHit.point.x; out.point.y = childHit.point.y; out.point.z = childHit.point.z;
      out.normal.x = childHit.normal.x; out.normal.y = childHit.normal.y; out.normal.z = childHit.normal.z;
    }
  }
  if (bestChild < 0) return false;
  out.fraction = bestFraction;
  out.triangle = -1;
  out.child = bestChild;
  return true;
}

/**
 * The cast in the target's frame (framePos, frameRot): meshPos, meshRot and
 * meshTrans; then sweepBounds (and meshBox) = the bounds of `cast` there swept
 * by meshTrans, widened by the cast tolerance.
 */
function sweptBoxInFrame(
  cast: ConvexShape, position: Readonly<Vec3>, rotation: Readonly<Quat>, translation: Readonly<Vec3>,
  framePos: Readonly<Vec3>, frameRot: Readonly<Quat>,
): void {
  meshPos.x = position.x - framePos.x;
  meshPos.y = position.y - framePos.y;
  meshPos.z = position.z - framePos.z;
  inverseRotate(meshPos, frameRot, meshPos);
  multiplyConjugateA(meshRot, frameRot, rotation);
  inverseRotate(meshTrans, frameRot, translation);
  const box = cast.computeAabb(meshBox, meshPos, meshRot);
  const t = meshTrans;
  if (t.x < 0) box.min.x += t.x; else box.max.x += t.x;
  if (t.y < 0) box.min.y += t.y; else box.max.y += t.y;
  if (t.z < 0) box.min.z += t.z; else box.max.z += t.z;
  // A turning sweep reaches at most min(angle, 2)·R further (the chord bound).
  const margin = CAST_TARGET + CAST_TOLERANCE + (SWEEP[0] === 1 ? Math.min(SWEEP[4]!, 2) * SWEEP[5]! : 0);
  box.min.x -= margin; box.min.y -= margin; box.min.z -= margin;
  box.max.x += margin; box.max.y += margin; box.max.z += margin;
  const b = sweepBounds;
  b[0] = box.min.x; b[1] = box.min.y; b[2] = box.min.z; b[3] = box.max.x; b[4] = box.max.y; b[5] = box.max.z;
}

/**
 * Against a mesh: work in the mesh frame (p' = qM*(p − pM), q' = qM* q,
 * T' = qM* T), gather the triangles overlapping the swept bounds, sweep
 * against each with the best fraction so far as the limit, keep the
 * earliest (among several overlapped at the start, the deepest). Unless the
 * mesh is double-sided, a hit with the cast shape's centre behind the
 * triangle's plane is skipped: the contacts take the same centre test to
 * tell the front from the back (triangle-contact.ts).
 */
function castMesh(
  cast: ConvexShape,
  position: Readonly<Vec3>,
  rotation: Readonly<Quat>,
  translation: Readonly<Vec3>,
  mesh: MeshTriangles,
  slotIds: Int32Array | null,
  meshPosition: Readonly<Vec3>,
  meshRotation: Readonly<Quat>,
  out: ShapeCastPairHit,
): boolean {
  sweptBoxInFrame(cast, position, rotation, translation, meshPosition, meshRotation);
  if (SWEEP[0] === 1) {
    sweepAxis.x = SWEEP[1]!; sweepAxis.y = SWEEP[2]!; sweepAxis.z = SWEEP[3]!;
    inverseRotate(sweepAxis, meshRotation, sweepAxis);
  }
  const t = meshTrans;
  const list = meshCandidates;
  const count = mesh.queryBoundsFrom(sweepBounds, list, 0);
  let bestFraction = Infinity;
  let bestDepth = 0;
  let bestTriangle = -1;
  const hit = meshHit;
  const normals = mesh.normals;
  const oneSided = !mesh.doubleSided;
  const P = mesh.corners;
  for (let i = 0; i < count; i++) {
    const tri = list[i]!;
    const o = 9 * tri;
    const T = triangle.corners;
    for (let k = 0; k < 9; k++) T[k] = P[o + k]!;
    const limit = bestFraction < 1 ? bestFraction : 1;
    CAST_IO[0] = limit;
    if (!castConvex(cast, meshPos, meshRot, meshTrans, triangle, origin, identity, hit)) continue;
    if (hit.fraction === 0 && SWEEP[0] === 1) { SWEEP[6] = SWEEP[6]! + 1; continue; }
    if (oneSided) {
      const f = hit.fraction, a = triangle.corners;
      const sx = meshPos.x + t.x * f - a[0]!, sy = meshPos.y + t.y * f - a[1]!, sz = meshPos.z + t.z * f - a[2]!;
      if (sx * normals[3 * tri]! + sy * normals[3 * tri + 1]! + sz * normals[3 * tri + 2]! < 0) continue;
    }
    const depth = CAST_IO[1]!;
    if (hit.fraction < bestFraction || (hit.fraction === 0 && bestFraction === 0 && depth > bestDepth)) {
      bestFraction = hit.fraction;
      bestDepth = depth;
      bestTriangle = tri;
      bestPoint.x = hit.point.x; bestPoint.y = hit.point.y; bestPoint.z = hit.point.z;
      bestNormal.x = hit.normal.x; bestNormal.y = hit.normal.y; bestNormal.z = hit.normal.z;
    }
  }
  if (bestTriangle < 0) return false;
  out.fraction = bestFraction;
  out.triangle = slotIds !== null ? slotIds[bestTriangle]! : bestTriangle;
  rotate(out.point, meshRotation, bestPoint);
  out.point.x += meshPosition.x;
  out.point.y += meshPosition.y;
  out.point.z += meshPosition.z;
  rotate(out.normal, meshRotation, bestNormal);
  return true;
}

/**
 * Conservative advancement of convex A along T against convex B, for
 * fractions up to CAST_IO[0]. See the header for the derivation.
 */
function castConvex(
  a: ConvexShape,
  posA: Readonly<Vec3>,
  rotA: Readonly<Quat>,
  T: Readonly<Vec3>,
  b: ConvexShape,
  posB: Readonly<Vec3>,
  rotB: Readonly<Quat>,
  out: ShapeCastPairHit,
): boolean {
  const maxFraction = CAST_IO[0]!;
  CAST_IO[1] = 0;
  const pair = castPair;
  const simplex = castSimplex;
  const res = castResult;
  const p = castPos;
  loadCoreRadius(a, CAST_RADII, 0);
  loadCoreRadius(b, CAST_RADII, 1);
  const radii = CAST_RADII[0]! + CAST_RADII[1]!;
  const turning = SWEEP[0] === 1;
  // While turning, a point of A's core moves at most angle·R per unit fraction besides T.
  const turnSpeed = turning ? SWEEP[4]! * SWEEP[5]! : 0;
  const r = turning ? sweepRot : rotA;
  let t = 0;
  for (let iteration = 0; iteration < MAX_CAST_ITERATIONS; iteration++) {
    p.x = posA.x + T.x * t;
    p.y = posA.y + T.y * t;
    p.z = posA.z + T.z * t;
    if (turning) {
      // sweepRot = rot(sweepAxis, t·angle) · rotA
      TURN[0] = t; TURN[1] = SWEEP[4]!;
      turnBy(sweepRot, rotA, sweepAxis);
    }
    pair.set(a, p, r, b, posB, rotB);
    gjkCore(pair, simplex);
    const core = simplex.distance;
    const d = core - radii;
    if (core === 0 || d <= 0) {
      if (iteration > 0) {
        // Round-off only (each step stops CAST_TARGET short of contact):
        // report the contact here with the previous step's point and normal.
        out.point.x = res.pointB.x; out.point.y = res.pointB.y; out.point.z = res.pointB.z;
        out.fraction = t;
        return writeHitNormal(out, castNormal);
      }
      // Starting overlapped: the penetration normal and depth.
      epaPenetration(a, p, r, b, posB, rotB, res);
      CAST_IO[1] = -res.distance;
      out.fraction = 0;
      out.point.x = res.pointB.x; out.point.y = res.pointB.y; out.point.z = res.pointB.z;
      out.normal.x = -res.normal.x; out.normal.y = -res.normal.y; out.normal.z = -res.normal.z;
      return true;
    }
    fillSeparatedResult(pair, simplex, res);
    const n = res.normal;
    castNormal.x = n.x; castNormal.y = n.y; castNormal.z = n.z;
    // Closing speed along the normal, metres per unit fraction.
    const closing = T.x * n.x + T.y * n.y + T.z * n.z + turnSpeed;
    if (d <= CAST_TARGET + CAST_TOLERANCE) {
      if (iteration === 0 && closing <= 0) return false;
      out.point.x = res.pointB.x; out.point.y = res.pointB.y; out.point.z = res.pointB.z;
      out.fraction = t;
      return writeHitNormal(out, n);
    }
    if (closing <= 0) return false;
    t += (d - CAST_TARGET) / closing;
    if (t > maxFraction) return false;
  }
  // Out of iterations (a long tangential approach): t is still before the
  // impact, so reporting it keeps the guarantee of never being late.
  out.point.x = res.pointB.x; out.point.y = res.pointB.y; out.point.z = res.pointB.z;
  out.fraction = t;
  return writeHitNormal(out, castNormal);
}

function writeHitNormal(out: ShapeCastPairHit, n: Readonly<Vec3>): boolean {
  out.normal.x = -n.x;
  out.normal.y = -n.y;
  out.normal.z = -n.z;
  return true;
}
