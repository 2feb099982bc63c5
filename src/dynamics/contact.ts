/**
 * A persistent contact between two bodies whose fat boxes overlap. It lives
 * from the broadphase pair until the fat boxes separate, and carries the
 * accumulated impulses of its points from step to step, matched by feature id
 * (warm starting, and the 'constant' friction bound).
 */
import { Manifold, MAX_MANIFOLD_POINTS } from '../collision/narrowphase/manifold';
import type { RigidBody } from './body';

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
  /** A point within the linear slop of contact this step (speculative points further out do not count); drives the events. */
  touching = false;
  wasTouching = false;
  /** Persistent per-point state, parallel to manifold.points. */
  readonly ids = new Int32Array(MAX_MANIFOLD_POINTS);
  readonly normalImpulse = new Float64Array(MAX_MANIFOLD_POINTS);
  /** Friction impulse as a world vector (re-projected onto the new tangent basis each step). */
  readonly frictionImpulse = new Float64Array(MAX_MANIFOLD_POINTS * 3);
  /** Whether the point matched a point of the previous step. */
  readonly persisted = new Uint8Array(MAX_MANIFOLD_POINTS);
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
    this.normalImpulse.fill(0);
    this.frictionImpulse.fill(0);
    this.persisted.fill(0);
    this.ids.fill(0);
  }
}
