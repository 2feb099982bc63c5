/**
 * The contact manager: turns new broadphase pairs into contacts, destroys
 * contacts whose fat boxes separated, and runs the narrowphase pass that
 * keeps each contact's manifold current (with warm-start matching) and
 * lists the contacts the solver takes.
 *
 * It owns the contact list and the ContactStore; the world hands it the
 * broadphase, the body list, a waker (wakes a sleeping island) and an event
 * sink, so nothing here depends on the world.
 */
import type { BroadPhase, PairCallback } from '../collision/broadphase/broadphase';
import { PairMap } from '../collision/broadphase/pair-set';
import { collideAtMargin } from '../collision/narrowphase/collide-table';
import { Manifold } from '../collision/narrowphase/manifold';
import { narrowphaseGap, narrowphaseMargin } from '../collision/narrowphase/margin';
import type { RigidBody } from './body';
import {
  Contact, ContactStore, MARGIN_ARG, PAIR_A, PAIR_B, PAIR_CONVEX, PAIR_GAP, PAIR_GAP_ODOMETER, PAIR_IDLE, PAIR_INTS, PAIR_NUMS, PERSISTED, POINT_DEPTH,
  POINT_ID, POINT_STRIDE,
} from './contact';
import type { StepContext } from './step-context';
import { PointMatcher } from './warm-start';

/** Event kinds the contact manager reports to its sink. */
export const EVENT_BEGIN = 0;
export const EVENT_END = 1;
export const EVENT_SENSOR_ENTER = 2;
export const EVENT_SENSOR_EXIT = 3;

/** Receives the contact manager's events (the world's event queue). */
export interface ContactEventSink {
  /** `type` is one of EVENT_BEGIN, EVENT_END, EVENT_SENSOR_ENTER, EVENT_SENSOR_EXIT. */
  queueContactEvent(c: Contact, type: number): void;
  /** A contactBegin for a pair the solver stopped at the surface this step (see ContactManager.reportImpacts). */
  queueImpact(c: Contact): void;
}

/** Wakes a sleeping body's island (the world). */
export interface BodyWaker {
  wakeBody(body: RigidBody): void;
}

/** Body ids must stay below this for the pair key to be exact. */
export const PAIR_KEY_SCALE = 67108864; // 2^26

/**
 * Largest relative motion (m per step: relative speed plus |ω| × bounding
 * radius, times dt) of a pair that may reuse its manifold. Faster pairs would
 * fail the reuse check anyway; skipping it saves touching the cache.
 */
const REUSE_MOTION = 1e-3;
// pairBodies layout (doubles per body) and pairBodyInts (ints per body).
// PB_TURN is |ω| × bounding radius.
const PB_X = 0, PB_Y = 1, PB_Z = 2, PB_SPEED = 3, PB_ODOMETER = 4, PB_RADIUS = 5, PB_VX = 6, PB_VY = 7, PB_VZ = 8, PB_TURN = 9, PB_STRIDE = 10;
const PBI_PROXY = 0, PBI_ACTIVE = 1, PBI_STRIDE = 2;

/** Collects new broadphase pairs into a flat key list. */
class PairCollector implements PairCallback {
  keys = new Float64Array(256);
  count = 0;
  addPair(a: number, b: number): void {
    if (this.count >= this.keys.length) {
      const k = new Float64Array(this.keys.length * 2);
      k.set(this.keys);
      this.keys = k;
    }
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    this.keys[this.count++] = lo * PAIR_KEY_SCALE + hi;
  }
}

/** In-place sort of keys[0, n) (quicksort with insertion sort for short runs). */
function sortKeys(keys: Float64Array, lo: number, hi: number): void {
  while (hi - lo > 16) {
    const mid = (lo + hi) >> 1;
    const pivot = keys[mid]!;
    let i = lo, j = hi - 1;
    while (i <= j) {
      while (keys[i]! < pivot) i++;
      while (keys[j]! > pivot) j--;
      if (i <= j) {
        const t = keys[i]!;
        keys[i] = keys[j]!;
        keys[j] = t;
        i++;
        j--;
      }
    }
    if (j - lo < hi - 1 - i) {
      sortKeys(keys, lo, j + 1);
      lo = i;
    } else {
      sortKeys(keys, i, hi);
      hi = j + 1;
    }
  }
  for (let i = lo + 1; i < hi; i++) {
    const v = keys[i]!;
    let j = i - 1;
    while (j >= lo && keys[j]! > v) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = v;
  }
}

/** Whether two bodies may touch: one dynamic, not both sensors, filters and joints allowing. */
export function shouldCollide(a: RigidBody, b: RigidBody): boolean {
  if (!a.isDynamic && !b.isDynamic) return false;
  if (a.isSensor && b.isSensor) return false;
  if ((a.collisionGroup & b.collisionMask) === 0 || (b.collisionGroup & a.collisionMask) === 0) return false;
  if (a.noCollide !== null && a.noCollide.indexOf(b.id) >= 0) return false;
  return true;
}

export class ContactManager {
  /** Live contacts (pairs whose fat boxes overlap), in creation order modulo swap-removals. */
  readonly list: Contact[] = [];
  private readonly pool: Contact[] = [];
  /** Every contact's numbers, by contact index: they follow `list`. */
  readonly store = new ContactStore(64);
  private readonly pairs = new PairMap();
  private readonly pairCollector = new PairCollector();
  private readonly matcher = new PointMatcher();
  /**
   * Per body index, refreshed at the start of `update`: centre, velocity,
   * |ω| × bounding radius, a speed bound, the odometer and the bounding radius
   * (PB_* offsets); and in pairBodyInts the broadphase proxy and whether the
   * body is awake and not static (kept current by markAwake).
   */
  private pairBodies = new Float64Array(0);
  private pairBodyInts = new Int32Array(0);
  /** update's speculative distance, g·dt and dt, for emptyPairStaysApart. */
  private readonly pairArgs = new Float64Array(3);
  /**
   * The narrowphase's output for every pair, copied into the contact's block
   * straight after: one manifold that stays in cache (docs/world.md).
   */
  private readonly pairManifold = new Manifold();
  /**
   * The contacts with points (sensors excluded) after `update`, in contact
   * order: the solver's set-up walks these instead of every pair. Only
   * grown; entries past solveCount are stale.
   */
  readonly solveList: Contact[] = [];
  solveCount = 0;
  /** Counters since the last resetCounters (World.counters): pairs the pass examined, reused, ran the narrowphase for. */
  pairsExamined = 0;
  manifoldsReused = 0;
  narrowphaseRuns = 0;

  constructor(
    private readonly broadphase: BroadPhase,
    private readonly bodies: readonly RigidBody[],
    private readonly bodyById: ReadonlyMap<number, RigidBody>,
    private readonly waker: BodyWaker,
    private readonly events: ContactEventSink,
  ) {}

  resetCounters(): void {
    this.pairsExamined = 0;
    this.manifoldsReused = 0;
    this.narrowphaseRuns = 0;
  }

  /** The pair loop reads activity from pairBodyInts: a pair can wake an island that later pairs of the same loop involve. */
  markAwake(b: RigidBody): void {
    const PI = this.pairBodyInts;
    const o = PBI_STRIDE * b.index + PBI_ACTIVE;
    if (b.index >= 0 && o < PI.length) PI[o] = b.isStatic ? 0 : 1;
  }

  /** Contacts for the new broadphase pairs, in the order of their body ids (so the result does not depend on the tree's shape). */
  findNewContacts(): void {
    const pc = this.pairCollector;
    pc.count = 0;
    this.broadphase.updatePairs(pc);
    if (pc.count === 0) return;
    sortKeys(pc.keys, 0, pc.count);
    let last = -1;
    for (let i = 0; i < pc.count; i++) {
      const key = pc.keys[i]!;
      if (key === last) continue;
      last = key;
      const hi = key % PAIR_KEY_SCALE;
      const lo = (key - hi) / PAIR_KEY_SCALE;
      if (this.pairs.get(lo, hi) >= 0) continue;
      const a = this.bodyById.get(lo);
      const b = this.bodyById.get(hi);
      if (!a || !b || !shouldCollide(a, b)) continue;
      this.createContact(a, b);
    }
  }

  createContact(a: RigidBody, b: RigidBody): Contact {
    const c = this.pool.pop() ?? new Contact(this.store);
    c.index = this.list.length;
    this.store.reserve(c.index + 1);
    c.reset(a, b);
    this.list.push(c);
    this.pairs.set(a.id, b.id, 1);
    return c;
  }

  destroyContact(c: Contact, queueEvents: boolean): void {
    if (queueEvents && c.touching) this.events.queueContactEvent(c, c.isSensor ? EVENT_SENSOR_EXIT : EVENT_END);
    this.pairs.delete(c.bodyA!.id, c.bodyB!.id);
    const lastContact = this.list.pop()!;
    if (lastContact !== c) {
      this.list[c.index] = lastContact;
      this.store.move(this.list.length, c.index);
      lastContact.index = c.index;
    }
    c.index = -1;
    c.bodyA = null;
    c.bodyB = null;
    this.pool.push(c);
  }

  /** `body` moved to another index of the body list: its contacts hold the index. */
  bodyMoved(body: RigidBody): void {
    const ints = this.store.ints;
    for (let i = 0; i < this.list.length; i++) {
      const c = this.list[i]!;
      if (c.bodyA === body) ints[PAIR_INTS * i + PAIR_A] = body.index;
      if (c.bodyB === body) ints[PAIR_INTS * i + PAIR_B] = body.index;
    }
  }

  /**
   * The narrowphase pass: drops contacts whose fat boxes separated, refreshes
   * every other contact's manifold (or settles from cheap bounds that it has
   * no point), carries the impulses over, queues begin/end events and lists
   * the contacts with points for the solver.
   */
  update(dt: number, ctx: StepContext): void {
    const slop = ctx.settings.linearSlop;
    const gv = ctx.gravity;
    const gravityLength = Math.sqrt(gv.x * gv.x + gv.y * gv.y + gv.z * gv.z);
    // Each body's centre, velocity, |ω| × bounding radius, a bound on its
    // points' speed (|v| + that), odometer and activity, by body index: the
    // pair loop reads these instead of the bodies' vector objects, and most
    // pairs of a heap are apart and settle from them alone.
    const bodies = this.bodies;
    if (this.pairBodies.length < PB_STRIDE * bodies.length) {
      this.pairBodies = new Float64Array(2 * PB_STRIDE * bodies.length);
      this.pairBodyInts = new Int32Array(2 * PBI_STRIDE * bodies.length);
    }
    const P = this.pairBodies, PI = this.pairBodyInts;
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i]!, p = b.position, v = b.linearVelocity, w = b.angularVelocity;
      const ww = w.x * w.x + w.y * w.y + w.z * w.z;
      const o = PB_STRIDE * i;
      P[o + PB_X] = p.x; P[o + PB_Y] = p.y; P[o + PB_Z] = p.z;
      P[o + PB_SPEED] = Math.sqrt(v.x * v.x + v.y * v.y + v.z * v.z) + (ww > 0 ? Math.sqrt(ww) * b.boundingRadius : 0);
      P[o + PB_ODOMETER] = b.odometer;
      P[o + PB_RADIUS] = b.boundingRadius;
      P[o + PB_VX] = v.x; P[o + PB_VY] = v.y; P[o + PB_VZ] = v.z;
      P[o + PB_TURN] = Math.sqrt(ww) * b.boundingRadius;
      PI[PBI_STRIDE * i + PBI_PROXY] = b.proxy;
      PI[PBI_STRIDE * i + PBI_ACTIVE] = b.awake && !b.isStatic ? 1 : 0;
    }
    const fall = gravityLength * dt;
    const spec = ctx.settings.speculativeDistance;
    this.pairArgs[0] = spec; this.pairArgs[1] = fall; this.pairArgs[2] = dt;
    this.solveCount = 0;
    // (No contact is created in this loop, so the store's arrays stay the same objects.)
    const ints = this.store.ints, gaps = this.store.gaps;
    for (let i = 0; i < this.list.length; i++) {
      const ri = PAIR_INTS * i, rg = PAIR_NUMS * i;
      const ia = ints[ri + PAIR_A]!, ib = ints[ri + PAIR_B]!;
      if (!this.broadphase.testOverlap(PI[PBI_STRIDE * ia + PBI_PROXY]!, PI[PBI_STRIDE * ib + PBI_PROXY]!)) {
        this.destroyContact(this.list[i]!, true);
        i--;
        continue;
      }
      this.pairsExamined++;
      if (ints[ri + PAIR_IDLE] === 1) {
        // An idle contact (empty, flags clear): settled as below, from the
        // arrays alone; both bodies inactive keeps it as it is.
        if (PI[PBI_STRIDE * ia + PBI_ACTIVE] === 0 && PI[PBI_STRIDE * ib + PBI_ACTIVE] === 0) continue;
        if (this.emptyPairStaysApart(i, ia, ib)) continue;
        ints[ri + PAIR_IDLE] = 0;
      }
      const c = this.list[i]!;
      const a = c.bodyA!, b = c.bodyB!;
      const oa = PB_STRIDE * ia, ob = PB_STRIDE * ib;
      if (PI[PBI_STRIDE * ia + PBI_ACTIVE] === 0 && PI[PBI_STRIDE * ib + PBI_ACTIVE] === 0) {
        // Both asleep (or asleep against static): keep as is. Still listed for
        // the solver: a later pair may wake one of the bodies this step.
        c.totalNormalImpulse = 0;
        if (c.pointCount > 0 && !c.isSensor) this.listForSolver(c);
        continue;
      }
      const m = this.pairManifold;
      const oldCount = c.pointCount;
      const cp = this.store.data, cb = c.base;
      if (oldCount === 0 && !c.isSensor && !c.touching && this.emptyPairStaysApart(i, ia, ib)) {
        c.manifoldCached = false;
        c.wasTouching = false;
        c.touching = false;
        c.totalNormalImpulse = 0;
        ints[ri + PAIR_IDLE] = 1;
        continue;
      }
      // Speculative margin: the base distance plus how far the pair can close
      // in one step (relative speed, gravity, |ω| × bounding radius).
      let margin = 0;
      // How far the pair moved apart or turned last step (m): the manifold is
      // reused only for pairs at rest relative to each other.
      let motion = Infinity;
      if (!c.isSensor) {
        const dvx = P[ob + PB_VX]! - P[oa + PB_VX]!, dvy = P[ob + PB_VY]! - P[oa + PB_VY]!, dvz = P[ob + PB_VZ]! - P[oa + PB_VZ]!;
        const speed = Math.sqrt(dvx * dvx + dvy * dvy + dvz * dvz) + gravityLength * dt + P[oa + PB_TURN]! + P[ob + PB_TURN]!;
        margin = spec + speed * dt;
        motion = (speed - gravityLength * dt) * dt;
      }
      // Convex shapes whose bounding spheres are further apart than the
      // margin have no point within it (fat boxes overlap while the shapes
      // are well apart).
      const sx = P[ob + PB_X]! - P[oa + PB_X]!, sy = P[ob + PB_Y]! - P[oa + PB_Y]!, sz = P[ob + PB_Z]! - P[oa + PB_Z]!;
      const reach = P[oa + PB_RADIUS]! + P[ob + PB_RADIUS]! + margin;
      let count = 0;
      let reused = false;
      if (c.convexPair && sx * sx + sy * sy + sz * sz > reach * reach) {
        // (An empty contact is left untouched: most such pairs stay apart for many steps.)
        if (oldCount !== 0) {
          m.reset();
          c.pointCount = 0;
        }
        c.manifoldCached = false;
      } else {
        // Reuse is tried only by pairs that were at rest relative to each
        // other last step and have points (an empty manifold is usually a
        // quick early-out in the narrowphase, cheaper than the check).
        const resting = c.reusesManifold && motion < REUSE_MOTION;
        if (resting) MARGIN_ARG[0] = margin;
        if (resting && oldCount > 0 && c.reuseManifold()) {
          reused = true;
        } else if (oldCount === 0 && gaps[rg + PAIR_GAP]! - (P[oa + PB_ODOMETER]! + P[ob + PB_ODOMETER]! - gaps[rg + PAIR_GAP_ODOMETER]!) > margin) {
          // Apart by more than the margin when last measured, and neither
          // body has moved enough since to close the difference: no point
          // within the margin now either.
          c.manifoldCached = false;
        } else {
          // The pair's last feature ids go in first: the box–box routine
          // prefers them in near-ties (see collide-box-box).
          m.pointCount = oldCount;
          for (let k = 0; k < oldCount; k++) m.points[k]!.id = cp[cb + k * POINT_STRIDE + POINT_ID]!;
          narrowphaseMargin[0] = margin;
          collideAtMargin(a.shape, a.position, a.rotation, b.shape, b.position, b.rotation, m);
          this.narrowphaseRuns++;
          if (resting && m.pointCount > 0) c.cacheManifold(m);
          else c.manifoldCached = false;
          count = m.pointCount;
          // (Into the store directly: Contact.gap's setter, not inlined, would box the double.)
          gaps[rg + PAIR_GAP] = count === 0 ? narrowphaseGap[0]! : 0;
          gaps[rg + PAIR_GAP_ODOMETER] = a.odometer + b.odometer;
        }
      }
      let maxDepth = -Infinity;
      if (reused) {
        // The same points (ids, impulses) with refreshed positions and depths.
        this.manifoldsReused++;
        count = oldCount;
        for (let k = 0; k < count; k++) {
          const depth = cp[cb + k * POINT_STRIDE + POINT_DEPTH]!;
          if (depth > maxDepth) maxDepth = depth;
          cp[cb + PERSISTED + k] = 1;
        }
      } else {
        this.matcher.carryImpulses(cp, cb, oldCount, count, m);
        maxDepth = this.matcher.maxDepth;
        if (count > 0 || oldCount > 0) c.syncPoints(m);
      }
      if (count > 0) {
        // Refresh the combined material (bodies' friction/restitution are public fields).
        c.mixMaterial();
      }
      c.wasTouching = c.touching;
      // Touching: a point within the slop of contact (speculative points further
      // out do not count), or a pair that touched and pushed in the last solve
      // (reportImpacts: it may still be a few mm apart, and would flicker).
      c.touching = count > 0 && (maxDepth > (c.isSensor ? 0 : -slop) || (c.wasTouching && c.totalNormalImpulse > 0 && !c.isSensor));
      if (c.touching) {
        if (!a.awake) this.waker.wakeBody(a);
        if (!b.awake) this.waker.wakeBody(b);
      }
      if (c.touching && !c.wasTouching) this.events.queueContactEvent(c, c.isSensor ? EVENT_SENSOR_ENTER : EVENT_BEGIN);
      else if (!c.touching && c.wasTouching) this.events.queueContactEvent(c, c.isSensor ? EVENT_SENSOR_EXIT : EVENT_END);
      // (After the events, which report last step's impulse; the solver adds this step's.)
      c.totalNormalImpulse = 0;
      if (count > 0 && !c.isSensor) this.listForSolver(c);
    }
  }

  /**
   * Whether empty contact `i` (bodies at indices ia, ib) stays empty this
   * step, from the store and the per-body summary alone: its last measured
   * gap less what the bodies' odometers have added since, or (convex shapes)
   * the bounding spheres' distance, exceeds the loose margin. The exact
   * margin of the narrowphase call is at most the loose one (|v_B − v_A| ≤
   * |v_A| + |v_B|), so a pair settled here would have had no point there
   * either, with the same outcome (no point, no event).
   */
  private emptyPairStaysApart(i: number, ia: number, ib: number): boolean {
    const P = this.pairBodies, A = this.pairArgs;
    const oa = PB_STRIDE * ia, ob = PB_STRIDE * ib;
    const loose = A[0]! + (P[oa + PB_SPEED]! + P[ob + PB_SPEED]! + A[1]!) * A[2]!;
    const gaps = this.store.gaps;
    if (gaps[PAIR_NUMS * i + PAIR_GAP]! - (P[oa + PB_ODOMETER]! + P[ob + PB_ODOMETER]! - gaps[PAIR_NUMS * i + PAIR_GAP_ODOMETER]!) > loose) return true;
    if (this.store.ints[PAIR_INTS * i + PAIR_CONVEX] !== 1) return false;
    const sx = P[ob + PB_X]! - P[oa + PB_X]!, sy = P[ob + PB_Y]! - P[oa + PB_Y]!, sz = P[ob + PB_Z]! - P[oa + PB_Z]!;
    const reach = P[oa + PB_RADIUS]! + P[ob + PB_RADIUS]! + loose;
    return sx * sx + sy * sy + sz * sz > reach * reach;
  }

  /**
   * After a solve: a pair that was apart (speculative points only) and
   * whose points pushed in this solve was stopped at the surface by the
   * solver, so it touches from this step on, and its contactBegin is
   * queued now, in the step of the impact (with that step's impulse), not
   * in the next step's update.
   */
  reportImpacts(): void {
    const list = this.solveList;
    for (let i = 0; i < this.solveCount; i++) {
      const c = list[i]!;
      if (c.touching || c.totalNormalImpulse <= 0) continue;
      c.touching = true;
      this.events.queueImpact(c);
    }
  }

  private listForSolver(c: Contact): void {
    const list = this.solveList;
    if (this.solveCount < list.length) list[this.solveCount] = c;
    else list.push(c);
    this.solveCount++;
  }
}
