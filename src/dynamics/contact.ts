/**
 * A persistent contact between two bodies whose fat boxes overlap. It lives
 * from the broadphase pair until the fat boxes separate, and carries the
 * accumulated impulses of its points from step to step, matched by feature id
 * (warm starting, and the 'constant' friction bound).
 */
import { Manifold, MAX_MANIFOLD_POINTS } from '../collision/narrowphase/manifold';
import type { RigidBody } from './body';

/** Doubles per point at the start of Contact.data. */
export const POINT_STRIDE = 8;
/** Offsets in Contact.data. */
export const NORMAL_IMPULSE = POINT_STRIDE * MAX_MANIFOLD_POINTS;
export const FRICTION_IMPULSE = NORMAL_IMPULSE + MAX_MANIFOLD_POINTS;
export const PERSISTED = FRICTION_IMPULSE + 3 * MAX_MANIFOLD_POINTS;
const DATA_LENGTH = PERSISTED + MAX_MANIFOLD_POINTS;

export class Contact {
  bodyA: RigidBody | null = null;
  bodyB: RigidBody | null = null;
  /** Index in the world's contact array. */
  index = -1;
  /** Combined friction √(μa μb) and restitution max(ea, eb). */
  friction = 0;
  restitution = 0;
  /** Either body is a sensor: detect only. */
  isSensor = false;
  /** The manifold of the current step. */
  readonly manifold = new Manifold();
  /** manifold.pointCount, kept here too (syncPoints) so a contact with no points is skipped without touching its manifold. */
  pointCount = 0;
  /** A point within the linear slop of contact this step (speculative points further out do not count); drives the events. */
  touching = false;
  wasTouching = false;
  // Persistent per-point state, parallel to manifold.points, all views of one
  // ArrayBuffer: the solver's set-up reads every contact's numbers each step,
  // and one contiguous block per contact is a few cache lines where the
  // manifold's point objects are a dozen scattered ones (measured: most of
  // that set-up was waiting on them).
  /**
   * All of the below in one array: per point world position x, y, z, normal
   * x, y, z, depth, feature id (8 × MAX_MANIFOLD_POINTS, copied from the
   * manifold by syncPoints), then the normal impulses, the friction impulses
   * and the persisted flags (offsets NORMAL_IMPULSE, FRICTION_IMPULSE,
   * PERSISTED), so the solver's set-up reads a contact from one place.
   */
  readonly data: Float64Array;
  /** Views of `data`. */
  readonly normalImpulse: Float64Array;
  /** Friction impulse as a world vector (re-projected onto the new tangent basis each step). */
  readonly frictionImpulse: Float64Array;
  /** 1 when the point matched a point of the previous step. */
  readonly persisted: Float64Array;
  /** Last step's total normal impulse (for contact events). */
  totalNormalImpulse = 0;

  reset(bodyA: RigidBody, bodyB: RigidBody): void {
    this.bodyA = bodyA;
    this.bodyB = bodyB;
    this.friction = Math.sqrt(bodyA.friction * bodyB.friction);
    this.restitution = Math.max(bodyA.restitution, bodyB.restitution);
    this.isSensor = bodyA.isSensor || bodyB.isSensor;
    this.manifold.reset();
    this.touching = false;
    this.wasTouching = false;
    this.totalNormalImpulse = 0;
    this.data.fill(0);
    this.pointCount = 0;
  }

  constructor() {
    const n = MAX_MANIFOLD_POINTS;
    this.data = new Float64Array(DATA_LENGTH);
    this.normalImpulse = this.data.subarray(NORMAL_IMPULSE, NORMAL_IMPULSE + n);
    this.frictionImpulse = this.data.subarray(FRICTION_IMPULSE, FRICTION_IMPULSE + 3 * n);
    this.persisted = this.data.subarray(PERSISTED, PERSISTED + n);
  }

  /** Copies the manifold's points into `data` (after every change of the manifold). */
  syncPoints(): void {
    const m = this.manifold;
    const d = this.data;
    this.pointCount = m.pointCount;
    for (let k = 0; k < m.pointCount; k++) {
      const p = m.points[k]!;
      const o = k * POINT_STRIDE;
      d[o] = p.position.x; d[o + 1] = p.position.y; d[o + 2] = p.position.z;
      d[o + 3] = p.normal.x; d[o + 4] = p.normal.y; d[o + 5] = p.normal.z;
      d[o + 6] = p.depth; d[o + 7] = p.id;
    }
  }
}
