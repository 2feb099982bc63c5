/**
 * The Minkowski difference of two convex cores, seen from A's local frame:
 * the support mapping GJK, EPA and the shape cast iterate on.
 */
import type { Quat } from '../../math/quat';
import { inverseRotate, multiplyConjugateA, rotate } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { CapsuleGeometry as Capsule } from '../../shapes/geometry';
import { type ConvexShape, ShapeKind } from '../../shapes/shape';
import type { SphereGeometry as Sphere } from '../../shapes/geometry';

const SPHERE = ShapeKind.Sphere;
const CAPSULE = ShapeKind.Capsule;
const BOX = ShapeKind.Box;
const CYLINDER = ShapeKind.Cylinder;
const HULL = ShapeKind.ConvexHull;
const TRIANGLE = ShapeKind.TriangleMesh;

/**
 * out[slot] ← the shape's core radius, read where the load sees one shape
 * class: a double field read at a site that sees many classes (megamorphic,
 * as the narrowphase's are) comes back boxed, and so did the merged branches
 * of a generic fallback load.
 */
export function loadCoreRadius(shape: ConvexShape, out: Float64Array, slot: number): void {
  const kind = shape.kind;
  if (kind === SPHERE) out[slot] = (shape as Sphere).coreRadius;
  else if (kind === CAPSULE) out[slot] = (shape as Capsule).coreRadius;
  // Polytope and disc cores (box, cylinder, hull, mesh triangle) have no rounding.
  else if (kind === BOX || kind === CYLINDER || kind === HULL || kind === TRIANGLE) out[slot] = 0;
  else out[slot] = shape.coreRadius;
}

/**
 * The support mapping of the Minkowski difference coreA − coreB, in A's frame.
 * Internal to the collision module (shared with EPA and the shape cast).
 */
export class MinkowskiPair {
  a!: ConvexShape;
  b!: ConvexShape;
  /** B's position in A's frame. */
  readonly positionB: Vec3 = { x: 0, y: 0, z: 0 };
  /** B's rotation relative to A: conj(qA) ⊗ qB. */
  readonly rotationB: Quat = { x: 0, y: 0, z: 0, w: 1 };
  /** A's world pose, to map results back. */
  readonly positionA: Vec3 = { x: 0, y: 0, z: 0 };
  readonly rotationA: Quat = { x: 0, y: 0, z: 0, w: 1 };
  /** Core radii of A [0] and B [1] (see loadCoreRadius). */
  readonly radii = new Float64Array(2);
  private readonly dirB: Vec3 = { x: 0, y: 0, z: 0 };

  set(a: ConvexShape, posA: Readonly<Vec3>, rotA: Readonly<Quat>, b: ConvexShape, posB: Readonly<Vec3>, rotB: Readonly<Quat>): void {
    this.a = a;
    this.b = b;
    loadCoreRadius(a, this.radii, 0);
    loadCoreRadius(b, this.radii, 1);
    const p = this.positionB;
    p.x = posB.x - posA.x;
    p.y = posB.y - posA.y;
    p.z = posB.z - posA.z;
    inverseRotate(p, rotA, p);
    multiplyConjugateA(this.rotationB, rotA, rotB);
    const pa = this.positionA;
    pa.x = posA.x;
    pa.y = posA.y;
    pa.z = posA.z;
    const ra = this.rotationA;
    ra.x = rotA.x;
    ra.y = rotA.y;
    ra.z = rotA.z;
    ra.w = rotA.w;
  }

  /**
   * Support of coreA − coreB along d (A's frame): w = sA(d) − sB(−d).
   * Writes A's and B's support points (A's frame) too.
   */
  support(w: Vec3, sa: Vec3, sb: Vec3, d: Readonly<Vec3>): void {
    this.a.coreSupport(sa, d);
    const db = this.dirB;
    db.x = -d.x;
    db.y = -d.y;
    db.z = -d.z;
    inverseRotate(db, this.rotationB, db);
    this.b.coreSupport(sb, db);
    rotate(sb, this.rotationB, sb);
    sb.x += this.positionB.x;
    sb.y += this.positionB.y;
    sb.z += this.positionB.z;
    w.x = sa.x - sb.x;
    w.y = sa.y - sb.y;
    w.z = sa.z - sb.z;
  }

  /** A-frame point → world. */
  toWorldPoint(out: Vec3, p: Readonly<Vec3>): Vec3 {
    rotate(out, this.rotationA, p);
    out.x += this.positionA.x;
    out.y += this.positionA.y;
    out.z += this.positionA.z;
    return out;
  }

  /** A-frame direction → world. */
  toWorldVector(out: Vec3, v: Readonly<Vec3>): Vec3 {
    return rotate(out, this.rotationA, v);
  }
}
