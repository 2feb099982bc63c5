/**
 * The World: owns bodies and contacts, runs the step pipeline and answers
 * scene queries.
 *
 * Step pipeline (DESIGN.md §3):
 *   1. new broadphase pairs → contacts (sorted by body ids: the order, and so
 *      the result, does not depend on the tree's shape — needed for restore)
 *   2. narrowphase: manifolds with speculative margins, feature-id matching
 *   3. wake islands touched by awake bodies; gather the solver bodies
 *   4. integrate velocities, warm start, velocity iterations, restitution,
 *      integrate positions, position correction ('soft' interleaves these in
 *      sub-steps)
 *   5. write back, update the broadphase (predictive fat boxes)
 *   6. islands (union-find over touching contacts) and sleeping
 *   7. events, deferred removals
 */
import { aabb, aabbContains, aabbOverlaps, aabbRayEntry, type Aabb } from '../collision/aabb';
import { BroadPhase, IdList, type BroadPhaseRayCallback, type PairCallback } from '../collision/broadphase/broadphase';
import { PairMap } from '../collision/broadphase/pair-set';
import { Manifold, MAX_MANIFOLD_POINTS } from '../collision/narrowphase/manifold';
import { collide } from '../collision/narrowphase/dispatch';
import { narrowphaseGap } from '../collision/narrowphase/margin';
import { raycastShape, ShapeRayHit } from '../collision/query/raycast';
import { shapeCastPair, ShapeCastPairHit } from '../collision/query/shape-cast';
import { RigidBody, validate, type BodyDesc, type BodyOwner } from '../dynamics/body';
import {
  CONTACT_STRIDE, Contact, ContactStore, FRICTION_IMPULSE, MARGIN_ARG, NORMAL_IMPULSE, PAIR_A, PAIR_B, PAIR_CONVEX, PAIR_GAP, PAIR_GAP_ODOMETER,
  PAIR_IDLE, PAIR_INTS, PAIR_NUMS, PERSISTED, POINT_STRIDE,
} from '../dynamics/contact';
import { ContactSolver, Softness, SolverBodies, VELOCITY_STRIDE } from '../dynamics/contact-solver';
import { attachJoint, detachJoint, Joint } from '../joints/joint';
import { JointSolver, type JointSolverSettings } from '../joints/joint-solver';
import * as quat from '../math/quat';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { MAX_GRAVITY, MAX_TIME_STEP, requireBoolean, requireCollisionBits, requireFinite, requireInteger, requireNonNegative, requireInRange } from '../math/validate';
import type { ConvexShape, Shape } from '../shapes/shape';
import type { ContactEvent, JointBreakEvent, SensorEvent, WorldEventMap, WorldEventName, WorldListener } from './events';
import { defaultSleepSettings, defaultSolverSettings, type SleepSettings, type SolverSettings } from './settings';
import {
  B_ANGULAR, B_ANGULAR_DAMPING, B_FORCE, B_FRICTION, B_GRAVITY_SCALE, B_LINEAR_DAMPING, B_MASS, B_ODOMETER, B_POSITION, B_PREV_POSITION, B_PREV_ROTATION,
  B_RESTITUTION, B_ROTATION, B_SHAPE, B_SLEEP_TIME, B_TARGET_POSITION, B_TARGET_ROTATION, B_TORQUE, B_VELOCITY, BI_FLAGS, BI_GROUP, BI_ID, BI_ISLAND_NEXT,
  BI_MASK, BI_PROXY, BI_SHAPE, BI_TYPE, BODY_AWAKE, BODY_CAN_SLEEP, BODY_INTS, BODY_KINEMATIC_TARGET, BODY_PROXY_STALE, BODY_SENSOR, BODY_STRIDE,
  C_FRICTION, C_GAP, C_GAP_ODOMETER, C_RESTITUTION, C_TOTAL_IMPULSE, CI_A, CI_B, CI_FLAGS, CI_POINTS, CONTACT_CACHED, CONTACT_EXTRA, CONTACT_IDLE,
  CONTACT_INTS, CONTACT_TOUCHING, CONTACT_WAS_TOUCHING, getQuat, getVec, JI_A, JI_B, JI_FLAGS, JI_KIND, JI_LENGTH, JI_OFFSET, JOINT_BREAK_REPORTED,
  JOINT_BROKEN, JOINT_INTS, putQuat, putVec, requireF64, requireI32, requireSameBody, requireUnitQuat, shapeParams, SNAPSHOT_VERSION, SnapshotError,
  W_ACCUMULATOR, W_BODIES, W_CONTACTS, W_DROPPED, W_GRAVITY, W_JOINTS, W_NEXT_BODY_ID, W_STEP_COUNT, WORLD_LENGTH, type StepperSnapshot, type WorldSnapshot,
} from './snapshot';

/**
 * Something the World steps after the rigid bodies each step (e.g. a Verlet
 * ParticleSystem). `postStep` may run queries on the world and apply impulses
 * to bodies (they take effect next step); it must not add bodies, and a body
 * it removes is removed at the end of the step (see `removeBody`).
 */
export interface WorldStepper {
  postStep(world: World, dt: number): void;
  /**
   * Optional, for `World.snapshot`: the stepper's state as typed arrays (its
   * own layout). A stepper without it is left as it is by `restore`.
   */
  snapshotState?(): StepperSnapshot;
  /** Throws (a SnapshotError naming the problem) when `state` cannot be restored; changes nothing. */
  validateState?(state: StepperSnapshot, world: World): void;
  /** Restores a state `validateState` accepted. */
  restoreState?(state: StepperSnapshot, world: World): void;
}

export interface WorldOptions {
  /** m/s². Default (0, −9.81, 0). */
  gravity?: Readonly<Vec3>;
  /** Initial solver settings (see {@link SolverSettings} for the defaults). */
  solver?: Partial<SolverSettings>;
  /** Initial sleep settings (see {@link SleepSettings}). */
  sleeping?: Partial<SleepSettings>;
  /** Step used by `advance`, seconds, in (0, MAX_TIME_STEP = 0.05]. Default 1/60. */
  fixedTimeStep?: number;
  /** Most steps one `advance` call takes, integer in [1, 1000]; the rest of the time is dropped. Default 4. */
  maxSubSteps?: number;
}

/**
 * Filtering shared by the scene queries. Every field is checked at each call
 * (a NaN mask would otherwise silently find nothing): a wrong one throws a
 * TypeError or RangeError naming it, e.g. `raycast: options.collisionMask`.
 */
export interface QueryOptions {
  /** Membership bits of the query, an integer in [−2³¹, 2³² − 1]. Default 0xffffffff. */
  collisionGroup?: number;
  /** Groups the query hits, an integer in [−2³¹, 2³² − 1]. Default 0xffffffff. */
  collisionMask?: number;
  /** A body to ignore (e.g. the caster's own). */
  exclude?: RigidBody | null;
  /** Report sensor bodies too (a boolean). Default false. */
  includeSensors?: boolean;
  /** Return false to skip a body. */
  filter?: ((body: RigidBody) => boolean) | null;
}

export interface RaycastHit {
  body: RigidBody;
  /** World hit point. */
  point: Vec3;
  /** Surface normal at the hit (unit, facing the ray). */
  normal: Vec3;
  /** Distance from `from`, metres. */
  distance: number;
  /** distance / |to − from|, in [0, 1]. */
  fraction: number;
  /** Triangle index for TriangleMesh hits, else −1. */
  triangle: number;
}

/**
 * The bodies near a region of space, gathered once by `world.fillQueryRegion`
 * and handed to several overlap and shape-cast queries through their
 * `region` option, so a controller that queries the same neighbourhood many
 * times per frame walks the broadphase once. A query uses the region only if
 * its own reach lies inside `box` and nothing was created, removed, moved by
 * a pose change or stepped since the region was filled; otherwise it asks the
 * broadphase as usual, so a stale region is never wrong, only slower.
 */
export class QueryRegion {
  readonly box: Aabb = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
  /** The first `count` entries are the bodies whose fat boxes overlap `box`. */
  readonly bodies: RigidBody[] = [];
  count = 0;
  /** @internal world state the region was filled in */ version = -1;
  /** @internal */ world: World | null = null;
}

export interface RaycastOptions extends QueryOptions {
  /** Fill this object instead of allocating a new one (hot paths). */
  out?: RaycastHit;
  /** Candidate bodies gathered by `fillQueryRegion` (see QueryRegion). */
  region?: QueryRegion;
}

export interface ShapeCastHit {
  /** Time of impact as a fraction of the translation, in [0, 1]. */
  fraction: number;
  /** World contact point at the time of impact. */
  point: Vec3;
  /** Surface normal of the hit body (unit, facing the cast shape). */
  normal: Vec3;
  body: RigidBody;
  triangle: number;
}

export interface ShapeCastOptions extends QueryOptions {
  out?: ShapeCastHit;
  /** Candidate bodies gathered by `fillQueryRegion` (see QueryRegion). */
  region?: QueryRegion;
}

export interface OverlapContact {
  body: RigidBody;
  /** World point between the two surfaces. */
  point: Vec3;
  /** Unit normal pointing from the body towards the query shape (the direction to push the query out). */
  normal: Vec3;
  /** Penetration depth, metres (> 0). */
  depth: number;
}

export interface OverlapOptions extends QueryOptions {
  /**
   * Reuse this collector (hot paths): its `contacts` array is refilled and
   * returned. Without it a new array is returned.
   */
  collector?: OverlapCollector;
  /** Candidate bodies gathered by `fillQueryRegion` (see QueryRegion). */
  region?: QueryRegion;
}

/** Reusable storage for `world.overlap` results. */
export class OverlapCollector {
  readonly contacts: OverlapContact[] = [];
  /** @internal pooled entries (contacts.length ≤ pool.length) */ readonly pool: OverlapContact[] = [];
  /** @internal */ take(): OverlapContact {
    const n = this.contacts.length;
    let c = this.pool[n];
    if (!c) {
      c = { body: null as unknown as RigidBody, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, depth: 0 };
      this.pool.push(c);
    }
    this.contacts.push(c);
    return c;
  }
}

/**
 * How many moves ahead the fat box of a body moved by setPosition reaches
 * (Box2D v2's AABB multiplier is 4 for the same reason).
 */
const POSE_PREDICTION = 4;
/** Metres the broadphase's fat boxes reach beyond the shapes (and the predicted motion). */
const FAT_MARGIN = 0.03;
/** Most parts a step is split into for fast-turning bodies (see World.turnSplit). */
const MAX_STEP_PARTS = 16;
/**
 * Only bodies at least this elongated (RigidBody.elongation) split a step:
 * turning, a ball or a block brings no new part of itself within reach of
 * the contact points found at the step's start, a stick does. Ragdoll limbs
 * (3-4) stay below it: their flailing is fast but never needs the split.
 */
const SPLIT_ELONGATION = 5;
/** Farthest the two bodies of a pair with points move relative to each other in one step part (m), see turnSplit. */
const MOVE_PER_PART = 1;

/**
 * Largest relative motion (m per step: relative speed plus |ω| × bounding
 * radius, times dt) of a pair that may reuse its manifold. Pairs moving
 * faster would fail the reuse check anyway; skipping it saves touching the
 * cache (the ragdoll pile was 5–10 % slower per step without this filter).
 */
const REUSE_MOTION = 1e-3;
// World.pairBodies layout (doubles per body) and pairBodyInts (ints per body).
// PB_TURN is |ω| × bounding radius.
const PB_X = 0, PB_Y = 1, PB_Z = 2, PB_SPEED = 3, PB_ODOMETER = 4, PB_RADIUS = 5, PB_VX = 6, PB_VY = 7, PB_VZ = 8, PB_TURN = 9, PB_STRIDE = 10;
const PBI_PROXY = 0, PBI_ACTIVE = 1, PBI_STRIDE = 2;

/** Largest distance (m) between an old and a new contact point that still counts as the same point. */
const MATCH_RADIUS = 0.02;

const EVENT_BEGIN = 0;
const EVENT_END = 1;
const EVENT_SENSOR_ENTER = 2;
const EVENT_SENSOR_EXIT = 3;
const EVENT_JOINT_BREAK = 4;

class QueuedEvent {
  type = 0;
  bodyA: RigidBody | null = null;
  bodyB: RigidBody | null = null;
  readonly point: Vec3 = { x: 0, y: 0, z: 0 };
  readonly normal: Vec3 = { x: 0, y: 0, z: 0 };
  impulse = 0;
  joint: Joint | null = null;
}

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
/** Body ids must stay below this for the pair key to be exact. */
const PAIR_KEY_SCALE = 67108864; // 2^26

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

/** Broadphase ray callback for `world.raycast`; one per world, reused. */
class RayQuery implements BroadPhaseRayCallback {
  world!: World;
  origin: Vec3 = { x: 0, y: 0, z: 0 };
  dir: Vec3 = { x: 0, y: 0, z: 0 };
  /** 1/dir per axis (the slab test of a region's bodies). */
  invDir: Vec3 = { x: 0, y: 0, z: 0 };
  options: QueryOptions | undefined = undefined;
  readonly hit = new ShapeRayHit();
  readonly best = new ShapeRayHit();
  bestBody: RigidBody | null = null;
  rayCallback(userData: number, maxT: number): number {
    const body = this.world.getBodyById(userData);
    if (!body || !passesFilter(body, this.options)) return maxT;
    if (raycastShape(body.shape, body.position, body.rotation, this.origin, this.dir, maxT, this.hit) && this.hit.distance <= maxT) {
      const h = this.hit, b = this.best;
      b.distance = h.distance;
      b.point.x = h.point.x; b.point.y = h.point.y; b.point.z = h.point.z;
      b.normal.x = h.normal.x; b.normal.y = h.normal.y; b.normal.z = h.normal.z;
      b.triangle = h.triangle;
      this.bestBody = body;
      return h.distance;
    }
    return maxT;
  }
}

/** Collision bits as validate.requireCollisionBits accepts them (no message built on the way). */
function isCollisionBits(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= -0x80000000 && v <= 0xffffffff;
}

/** A hit record with `point` and `normal` objects (raycast's and shapeCast's `out`). */
function isHitRecord(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  const h = v as { point?: unknown; normal?: unknown };
  return h.point !== null && typeof h.point === 'object' && h.normal !== null && typeof h.normal === 'object';
}

/**
 * Checks a query's options at the call; messages are built only when a
 * check fails, so the character's queries allocate nothing here.
 */
interface AnyQueryOptions extends QueryOptions {
  region?: unknown;
  out?: unknown;
  collector?: unknown;
}

function checkQueryOptions(o: AnyQueryOptions | undefined, method: string): void {
  if (o === undefined) return;
  if (o === null || typeof o !== 'object') throw new TypeError(`${method}: options must be an object (got ${String(o)})`);
  if (o.collisionGroup !== undefined && !isCollisionBits(o.collisionGroup)) requireCollisionBits(o.collisionGroup, `${method}: options.collisionGroup`);
  if (o.collisionMask !== undefined && !isCollisionBits(o.collisionMask)) requireCollisionBits(o.collisionMask, `${method}: options.collisionMask`);
  if (o.exclude !== undefined && o.exclude !== null && !(o.exclude instanceof RigidBody)) {
    throw new TypeError(`${method}: options.exclude must be a RigidBody or null (got ${String(o.exclude)})`);
  }
  if (o.includeSensors !== undefined && typeof o.includeSensors !== 'boolean') {
    throw new TypeError(`${method}: options.includeSensors must be a boolean (got ${String(o.includeSensors)})`);
  }
  if (o.filter !== undefined && o.filter !== null && typeof o.filter !== 'function') {
    throw new TypeError(`${method}: options.filter must be a function or null (got ${String(o.filter)})`);
  }
  if (o.region !== undefined && !(o.region instanceof QueryRegion)) {
    throw new TypeError(`${method}: options.region must be a QueryRegion (got ${String(o.region)})`);
  }
  if (o.out !== undefined && !isHitRecord(o.out)) {
    throw new TypeError(`${method}: options.out must be a hit object with point and normal (got ${String(o.out)})`);
  }
  if (o.collector !== undefined && !(o.collector instanceof OverlapCollector)) {
    throw new TypeError(`${method}: options.collector must be an OverlapCollector (got ${String(o.collector)})`);
  }
}

function passesFilter(body: RigidBody, o: QueryOptions | undefined): boolean {
  if (!o) return !body.isSensor;
  if (body.isSensor && !o.includeSensors) return false;
  if (o.exclude === body) return false;
  const group = o.collisionGroup ?? -1;
  const mask = o.collisionMask ?? -1;
  if ((group & body.collisionMask) === 0 || (body.collisionGroup & mask) === 0) return false;
  if (o.filter && !o.filter(body)) return false;
  return true;
}

export class World implements BodyOwner {
  /** Live solver settings, read at the start of every step. */
  readonly solver: SolverSettings;
  /** Live sleep settings, checked at the start of every step. */
  readonly sleeping: SleepSettings;
  /** m/s², live; checked at the start of every step (a non-finite component throws there, before anything moves). */
  readonly gravity: Vec3;
  private fixedTimeStepValue = 1 / 60;
  private maxSubStepsValue = 4;
  /** Time `advance` dropped on its last call because of maxSubSteps (s). */
  droppedTime = 0;
  /** Steps taken so far. */
  stepCount = 0;

  private readonly bodyList: RigidBody[] = [];
  private readonly bodyById = new Map<number, RigidBody>();
  private nextBodyId = 0;
  /**
   * Fat-box margin 0.03 m: wider than the speculative distance (0.02 m), so
   * pairs exist before their shapes come within it; 0.05 m found 48 % more
   * pairs in a settling 32-ragdoll pile for nothing.
   */
  private readonly broadphase = new BroadPhase(FAT_MARGIN);
  private readonly pairs = new PairMap();
  private readonly contactList: Contact[] = [];
  private readonly contactPool: Contact[] = [];
  /** Every contact's numbers, by contact index (ContactStore): they follow the contact list. */
  private readonly contactStore = new ContactStore(64);
  private readonly pairCollector = new PairCollector();
  private readonly solverBodies = new SolverBodies();
  private readonly contactSolver = new ContactSolver();
  private readonly jointSolver = new JointSolver();
  private readonly jointList: Joint[] = [];
  /** Replaced, never mutated in place, so that a step running over it is not disturbed by add/removeStepper. */
  private steppers: WorldStepper[] = [];
  private readonly softness = new Softness();
  private accumulator = 0;
  private stepping = false;
  /** False while a split step (turnSplit) has parts to go: kinematic bodies reach their targets in the last. */
  private finalPart = true;
  /** True in a split step's first part (and in an unsplit step). */
  private firstPart = true;
  /** The dt of the step being taken (World.step's argument, not a split part's). */
  private stepDt = 1 / 60;
  /** The time sweptShapeBox grows a box by the body's swing for (a field: a double argument to a call V8 does not inline is boxed). */
  private sweepDt = 1 / 60;
  /** What is left of the step being taken, for turnSplit. */
  private stepLeft = 1 / 60;
  private dispatching = false;
  private readonly pendingRemovals: RigidBody[] = [];
  private readonly events: QueuedEvent[] = [];
  private eventCount = 0;
  /** Each list is replaced, never mutated in place, so that a delivery in progress keeps its own list. */
  private readonly listeners: { [K in WorldEventName]: WorldListener<K>[] } = {
    contactBegin: [], contactEnd: [], sensorEnter: [], sensorExit: [], jointBreak: [],
  };
  private readonly contactEvent: ContactEvent = { bodyA: null as unknown as RigidBody, bodyB: null as unknown as RigidBody, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, impulse: 0 };
  private readonly jointEvent: JointBreakEvent = { joint: null as unknown as Joint, impulse: 0 };
  private readonly sensorEvent: SensorEvent = { sensor: null as unknown as RigidBody, body: null as unknown as RigidBody };
  /** Errors thrown by listeners during the current dispatch (null when none: no allocation in steady state). */
  private listenerErrors: unknown[] | null = null;
  // step scratch
  private readonly box = aabb();
  private readonly box2 = aabb();
  private readonly displacement: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly oldIds = new Int32Array(4);
  private readonly oldNormal = new Float64Array(4);
  private readonly oldFriction = new Float64Array(12);
  private readonly oldPosition = new Float64Array(12);
  private readonly oldUsed = new Uint8Array(4);
  /**
   * Per body index, refreshed at the start of updateContacts: centre,
   * velocity, |ω| × bounding radius, a speed bound, the odometer and the
   * bounding radius (PB_* offsets); and in pairBodyInts the broadphase proxy
   * and whether the body is awake and not static (kept current by wakeBody).
   */
  private pairBodies = new Float64Array(0);
  private pairBodyInts = new Int32Array(0);
  /** updateContacts' speculative distance, g·dt and dt, for emptyPairStaysApart (a typed array: V8 boxes double arguments). */
  private readonly pairArgs = new Float64Array(3);
  private islandParent = new Int32Array(64);
  private islandMinSleep = new Float64Array(64);
  private readonly tmpQuat: Quat = { x: 0, y: 0, z: 0, w: 1 };
  private readonly tmpQuat2: Quat = { x: 0, y: 0, z: 0, w: 1 };
  // query scratch
  private readonly rayQuery = new RayQuery();
  private readonly castHit = new ShapeCastPairHit();
  private readonly queryIds = new IdList();
  /** Candidates of the query in progress (candidateScratch or a QueryRegion's bodies). */
  private candidateList: RigidBody[] = [];
  private readonly candidateScratch: RigidBody[] = [];
  /** Bumped whenever a QueryRegion filled before would be out of date. */
  private queryVersion = 0;
  private readonly queryManifold = new Manifold();
  /**
   * The narrowphase's output for every pair, copied into the contact's packed
   * `data` straight after: one manifold that stays in cache, where a
   * manifold per contact (fourteen small objects each, scattered over the
   * heap) made writing the points wait on memory — a third of the
   * box–capsule and capsule–capsule routines' time on the ragdoll pile.
   */
  private readonly pairManifold = new Manifold();
  /**
   * The contacts with points (sensors excluded) after updateContacts, in
   * contact order: the solver's set-up walks these instead of every pair (a
   * pile has two or three times as many pairs as manifolds, and each visit
   * is a cache miss on the contact). Only grown; entries past
   * solveContactCount are stale.
   */
  private readonly solveContacts: Contact[] = [];
  private solveContactCount = 0;

  constructor(options: WorldOptions = {}) {
    const g = options.gravity ?? { x: 0, y: -9.81, z: 0 };
    validate.requireFiniteVec(g, 'gravity');
    this.gravity = { x: g.x, y: g.y, z: g.z };
    this.solver = { ...defaultSolverSettings(), ...(options.solver ?? {}) };
    this.sleeping = { ...defaultSleepSettings(), ...(options.sleeping ?? {}) };
    this.fixedTimeStep = options.fixedTimeStep ?? 1 / 60;
    this.maxSubSteps = options.maxSubSteps ?? 4;
    this.checkSettings();
    this.rayQuery.world = this;
  }

  /** Step used by `advance`, seconds, in (0, MAX_TIME_STEP]. */
  get fixedTimeStep(): number { return this.fixedTimeStepValue; }
  set fixedTimeStep(h: number) {
    checkTimeStep(h, 'fixedTimeStep');
    this.fixedTimeStepValue = h;
  }

  /** Most steps per `advance` call, integer in [1, 1000]. */
  get maxSubSteps(): number { return this.maxSubStepsValue; }
  set maxSubSteps(n: number) {
    requireInteger(n, 1, 1000, 'maxSubSteps');
    this.maxSubStepsValue = n;
  }

  /** All bodies, in creation order modulo removals. Do not modify. */
  get bodies(): readonly RigidBody[] {
    return this.bodyList;
  }

  /** Number of live contacts (pairs whose fat boxes overlap). */
  get contactCount(): number {
    return this.contactList.length;
  }

  /** Contacts with at least one point this step (for debug views). @internal */
  get contacts(): readonly Contact[] {
    return this.contactList;
  }

  getBodyById(id: number): RigidBody | undefined {
    return this.bodyById.get(id);
  }

  /** Creates a body; throws a TypeError/RangeError naming the bad field. */
  createBody(desc: BodyDesc): RigidBody {
    this.queryVersion++;
    if (this.nextBodyId >= PAIR_KEY_SCALE) throw new RangeError('createBody: too many bodies created in this world');
    // Everything that can throw runs before the body is inserted anywhere.
    const body = new RigidBody(this.nextBodyId, desc);
    const box = body.shape.computeAabb(this.box, body.position, body.rotation);
    if (!(box.min.x - box.min.x === 0 && box.min.y - box.min.y === 0 && box.min.z - box.min.z === 0 && box.max.x - box.max.x === 0 && box.max.y - box.max.y === 0 && box.max.z - box.max.z === 0)) {
      throw new RangeError('createBody: the shape at this position has non-finite bounds (position too far from the origin for the shape)');
    }
    this.nextBodyId++;
    body.owner = this;
    body.index = this.bodyList.length;
    this.bodyList.push(body);
    this.bodyById.set(body.id, body);
    body.proxy = this.broadphase.createProxy(this.box, body.id, body.typeCode);
    return body;
  }

  /**
   * Removes a body, its joints and its contacts, and wakes what it touched.
   * Inside a step (a stepper) or an event listener the removal is deferred
   * to the end of the step's event delivery.
   *
   * Each contact the body was touching ends with a `contactEnd` (or
   * `sensorExit`) event. Events are never delivered from inside this call:
   * they are queued, and delivered with the next step's events (before
   * them); a removal deferred from a listener or a stepper delivers them
   * in the same delivery, after the events already queued.
   */
  removeBody(body: RigidBody): void {
    this.queryVersion++;
    if (!(body instanceof RigidBody)) throw new TypeError('removeBody: body must be a RigidBody');
    if (body.owner !== this) {
      throw new Error(body.owner === null ? `removeBody: body ${body.id} was already removed` : `removeBody: body ${body.id} belongs to another world`);
    }
    if (this.dispatching || this.stepping) {
      if (this.pendingRemovals.indexOf(body) < 0) this.pendingRemovals.push(body);
      return;
    }
    this.removeNow(body);
  }

  private removeNow(body: RigidBody): void {
    if (!body.awake) this.wakeBody(body);
    for (let i = this.jointList.length - 1; i >= 0; i--) {
      const j = this.jointList[i]!;
      if (j.bodyA === body || j.bodyB === body) this.removeJoint(j);
    }
    for (let i = this.contactList.length - 1; i >= 0; i--) {
      const c = this.contactList[i]!;
      if (c.bodyA === body || c.bodyB === body) {
        const other = c.bodyA === body ? c.bodyB! : c.bodyA!;
        other.wakeUp();
        this.destroyContact(c, true);
      }
    }
    this.broadphase.destroyProxy(body.proxy);
    body.proxy = -1;
    const last = this.bodyList.pop()!;
    if (last !== body) {
      this.bodyList[body.index] = last;
      last.index = body.index;
      // The moved body's contacts hold its index (ContactStore.ints).
      const ints = this.contactStore.ints;
      for (let i = 0; i < this.contactList.length; i++) {
        const c = this.contactList[i]!;
        if (c.bodyA === last) ints[PAIR_INTS * i + PAIR_A] = last.index;
        if (c.bodyB === last) ints[PAIR_INTS * i + PAIR_B] = last.index;
      }
    }
    this.bodyById.delete(body.id);
    body.index = -1;
    body.owner = null;
  }

  /** Live joint solver settings (jointHertz, jointDampingRatio, jointIterations). */
  get jointSettings(): JointSolverSettings {
    return this.jointSolver.settings;
  }

  /**
   * Registers something stepped after the rigid bodies in every `step` (a
   * Verlet ParticleSystem), in the order added. Added from inside a
   * stepper, it runs from the next step on.
   */
  addStepper(stepper: WorldStepper): void {
    if (!stepper || typeof stepper.postStep !== 'function') throw new TypeError('addStepper: stepper must have a postStep(world, dt) method');
    if (this.steppers.indexOf(stepper) < 0) this.steppers = this.steppers.concat(stepper);
  }

  /** Unregisters a stepper. Removed from inside a stepper, it is not run again, not even later in the same step. */
  removeStepper(stepper: WorldStepper): void {
    const i = this.steppers.indexOf(stepper);
    if (i >= 0) {
      const next = this.steppers.slice();
      next.splice(i, 1);
      this.steppers = next;
    }
  }

  /** All joints in the world. Do not modify. */
  get joints(): readonly Joint[] {
    return this.jointList;
  }

  /**
   * Adds a joint between two bodies of this world. Unless the joint says
   * `collideConnected`, the two bodies stop colliding (an existing contact
   * between them is dropped). Wakes both bodies.
   */
  addJoint<J extends Joint>(joint: J): J {
    if (!(joint instanceof Joint)) throw new TypeError('addJoint: joint must be a footing Joint');
    if (joint.owner !== null) throw new Error('addJoint: joint is already in a world');
    if (joint.bodyA.owner !== this || joint.bodyB.owner !== this) throw new Error('addJoint: both bodies must belong to this world');
    joint.owner = this;
    this.jointList.push(joint);
    attachJoint(joint);
    if (!joint.collideConnected) {
      for (let i = this.contactList.length - 1; i >= 0; i--) {
        const c = this.contactList[i]!;
        if ((c.bodyA === joint.bodyA && c.bodyB === joint.bodyB) || (c.bodyA === joint.bodyB && c.bodyB === joint.bodyA)) this.destroyContact(c, true);
      }
    }
    return joint;
  }

  /** Removes a joint; wakes both bodies. */
  removeJoint(joint: Joint): void {
    if (!(joint instanceof Joint)) throw new TypeError('removeJoint: joint must be a footing Joint');
    if (joint.owner !== this) throw new Error('removeJoint: joint is not in this world');
    const i = this.jointList.indexOf(joint);
    this.jointList.splice(i, 1);
    joint.owner = null;
    detachJoint(joint);
  }

  /**
   * Subscribes to an event; returns a function that unsubscribes.
   *
   * Every listener subscribed when an event's delivery starts gets it
   * exactly once, whatever the others do: one added during a delivery gets
   * the events after it; one removed during a delivery is not called again.
   * A listener that throws does not stop the delivery: all events reach all
   * listeners, then the error is rethrown from `step` (an AggregateError
   * when several threw). The step itself has completed by then and the
   * world can be stepped again.
   */
  on<K extends WorldEventName>(name: K, listener: WorldListener<K>): () => void {
    const list = this.listenerList(name, 'on');
    if (typeof listener !== 'function') throw new TypeError(`on('${name}'): listener must be a function (got ${listener === null ? 'null' : typeof listener})`);
    (this.listeners as Record<string, unknown[]>)[name] = list.concat(listener);
    return () => this.off(name, listener);
  }

  /** Unsubscribes a listener (one subscription of it); unknown listeners are ignored. */
  off<K extends WorldEventName>(name: K, listener: WorldListener<K>): void {
    const list = this.listenerList(name, 'off');
    if (typeof listener !== 'function') throw new TypeError(`off('${name}'): listener must be a function (got ${listener === null ? 'null' : typeof listener})`);
    const i = list.indexOf(listener);
    if (i < 0) return;
    const next = list.slice();
    next.splice(i, 1);
    (this.listeners as Record<string, unknown[]>)[name] = next;
  }

  private listenerList(name: unknown, caller: string): unknown[] {
    if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(this.listeners, name)) {
      throw new RangeError(`${caller}: unknown event ${typeof name === 'string' ? `'${name}'` : String(name)} (events: ${Object.keys(this.listeners).join(', ')})`);
    }
    return (this.listeners as Record<string, unknown[]>)[name]!;
  }

  /** @internal BodyOwner */
  assertNotStepping(field: string): void {
    if (this.stepping) throw new Error(`${field}: cannot be changed during a step`);
  }

  /** @internal BodyOwner: the pose was set by the user. */
  bodyPoseChanged(body: RigidBody): void {
    this.queryVersion++;
    body.shape.computeAabb(this.box, body.position, body.rotation);
    // Predict the next moves from this one (a body driven by setPosition every
    // frame, such as a character's, tends to keep going): the fat box reaches
    // POSE_PREDICTION moves ahead, so it is re-inserted in the tree every few
    // frames instead of every frame. A jump of a metre or more is a teleport,
    // not a motion.
    const d = this.displacement;
    const pp = body.previousPosition as Vec3;
    d.x = body.position.x - pp.x; d.y = body.position.y - pp.y; d.z = body.position.z - pp.z;
    if (d.x * d.x + d.y * d.y + d.z * d.z >= 1) { d.x = 0; d.y = 0; d.z = 0; }
    this.broadphase.moveProxy(body.proxy, this.box, d, POSE_PREDICTION);
    body.odometer += motionBound(body, pp, body.previousRotation);
    pp.x = body.position.x; pp.y = body.position.y; pp.z = body.position.z;
    quat.copy(body.previousRotation as Quat, body.rotation);
    if (body.isStatic) {
      // A moved static body may leave bodies resting on it unsupported.
      for (let i = 0; i < this.contactList.length; i++) {
        const c = this.contactList[i]!;
        if (c.bodyA === body) c.bodyB!.wakeUp();
        else if (c.bodyB === body) c.bodyA!.wakeUp();
      }
    }
  }

  /** @internal BodyOwner: wakes the sleeping island of `body`. */
  wakeBody(body: RigidBody): void {
    if (body.awake) return;
    // Sleeping islands are circular lists through islandNext.
    let b: RigidBody | null = body;
    const PI = this.pairBodyInts;
    do {
      const next: RigidBody | null = b!.islandNext;
      b!.awake = true;
      b!.sleepTime = 0;
      b!.islandNext = null;
      // The pair loop reads activity from pairBodyInts: a pair can wake an
      // island that later pairs of the same loop involve.
      const o = PBI_STRIDE * b!.index + PBI_ACTIVE;
      if (b!.index >= 0 && o < PI.length) PI[o] = b!.isStatic ? 0 : 1;
      b = next;
    } while (b !== null && b !== body);
    body.awake = true;
  }

  // ------------------------------------------------------------------ stepping

  /**
   * Advances by a fixed-step accumulator: takes as many `fixedTimeStep` steps
   * as fit (at most `maxSubSteps`; the excess is dropped and reported in
   * `droppedTime`, so a slow frame cannot spiral). Returns the interpolation
   * alpha in [0, 1) for rendering between the last two steps.
   */
  advance(frameSeconds: number): number {
    if (typeof frameSeconds !== 'number' || !Number.isFinite(frameSeconds) || frameSeconds < 0) {
      throw new RangeError(`frameSeconds must be a finite number ≥ 0 (got ${String(frameSeconds)})`);
    }
    const h = this.fixedTimeStep;
    this.accumulator += frameSeconds;
    let steps = 0;
    while (this.accumulator >= h && steps < this.maxSubSteps) {
      this.step(h);
      this.accumulator -= h;
      steps++;
    }
    this.droppedTime = 0;
    if (this.accumulator >= h) {
      const keep = this.accumulator % h;
      this.droppedTime = this.accumulator - keep;
      this.accumulator = keep;
    }
    return this.accumulator / h;
  }

  /** Advances the simulation by `dt` seconds (> 0). */
  step(dt: number): void {
    this.queryVersion++;
    if (typeof dt !== 'number' || !(dt > 0 && dt <= MAX_TIME_STEP)) checkTimeStep(dt, 'dt');
    if (this.stepping || this.dispatching) throw new Error('step: cannot step from inside a step or an event listener');
    this.checkSettings();
    this.stepping = true;
    try {
      // (Events queued between steps by removeBody or addJoint stay queued: they are delivered below.)
      this.prepareKinematics(dt);
      this.refitStaleProxies(dt);
      this.findNewContacts();
      // A body turning fast near others splits the step (see maxTurnPerStep);
      // every part runs the whole pipeline, the narrowphase included, and
      // the split of what is left is chosen anew after each part: an impact
      // can start the spin.
      this.stepDt = dt;
      let remaining = dt, budget = MAX_STEP_PARTS;
      for (let k = 0; ; k++) {
        if (k > 0) {
          this.refitStaleProxies(remaining);
          this.findNewContacts();
        }
        // The speculative margins cover the whole step's motion in every part.
        this.updateContacts(dt);
        this.stepLeft = remaining;
        const parts = Math.min(this.turnSplit(), budget);
        const h = parts === 1 ? remaining : remaining / parts;
        this.finalPart = parts === 1;
        this.firstPart = k === 0;
        this.solve(h);
        this.updateSleep(h);
        const steppers = this.steppers;
        for (let i = 0; i < steppers.length; i++) {
          const s = steppers[i]!;
          // removeStepper replaces the list: skip a stepper removed by an earlier one.
          if (this.steppers !== steppers && this.steppers.indexOf(s) < 0) continue;
          s.postStep(this, h);
        }
        if (parts === 1) break;
        remaining -= h;
        budget--;
      }
      this.stepCount++;
    } finally {
      this.stepping = false;
    }
    this.dispatchEvents();
  }

  /**
   * The live settings objects (solver, sleeping, jointSettings, gravity) and
   * the joints' frames are plain writable fields: they are checked here, at
   * the start of each step, before anything changes.
   */
  private checkSettings(): void {
    const g = this.gravity;
    if (!(Math.abs(g.x) <= MAX_GRAVITY && Math.abs(g.y) <= MAX_GRAVITY && Math.abs(g.z) <= MAX_GRAVITY)) {
      requireInRange(g.x, -MAX_GRAVITY, MAX_GRAVITY, 'world.gravity.x');
      requireInRange(g.y, -MAX_GRAVITY, MAX_GRAVITY, 'world.gravity.y');
      requireInRange(g.z, -MAX_GRAVITY, MAX_GRAVITY, 'world.gravity.z');
    }
    // Inline comparisons on the fast path, calls only to name a bad field (see the contributor notes on boxed doubles).
    const sl = this.sleeping, js = this.jointSolver.settings;
    if (!(
      (sl.enabled === true || sl.enabled === false) && sl.linearThreshold >= 0 && sl.linearThreshold < Infinity &&
      sl.angularThreshold >= 0 && sl.angularThreshold < Infinity && sl.timeToSleep > 0 && sl.timeToSleep < Infinity &&
      js.jointHertz >= 0 && js.jointHertz <= 1e6 && js.jointDampingRatio >= 0 && js.jointDampingRatio <= 1000 &&
      js.jointIterations >= 1 && js.jointIterations <= MAX_JOINT_ITERATIONS && Math.floor(js.jointIterations) === js.jointIterations &&
      (js.projection === true || js.projection === false) && js.limitSlop >= 0 && js.limitSlop <= Math.PI && js.anchorSlop >= 0 && js.anchorSlop < Infinity
    )) {
      requireBoolean(sl.enabled, 'sleeping.enabled');
      requireNonNegative(sl.linearThreshold, 'sleeping.linearThreshold');
      requireNonNegative(sl.angularThreshold, 'sleeping.angularThreshold');
      if (!(sl.timeToSleep > 0 && sl.timeToSleep < Infinity)) throw new RangeError(`sleeping.timeToSleep must be a finite number > 0 (got ${String(sl.timeToSleep)})`);
      requireInRange(js.jointHertz, 0, 1e6, 'jointSettings.jointHertz');
      requireInRange(js.jointDampingRatio, 0, 1000, 'jointSettings.jointDampingRatio');
      requireInteger(js.jointIterations, 1, MAX_JOINT_ITERATIONS, 'jointSettings.jointIterations');
      requireBoolean(js.projection, 'jointSettings.projection');
      requireInRange(js.limitSlop, 0, Math.PI, 'jointSettings.limitSlop');
      requireNonNegative(js.anchorSlop, 'jointSettings.anchorSlop');
    }
    const joints = this.jointList;
    for (let i = 0; i < joints.length; i++) {
      const j = joints[i]!;
      const a = j.localAnchorA, b = j.localAnchorB, fa = j.localFrameA, fb = j.localFrameB;
      if (!(
        a.x - a.x === 0 && a.y - a.y === 0 && a.z - a.z === 0 && b.x - b.x === 0 && b.y - b.y === 0 && b.z - b.z === 0 &&
        Math.abs(fa.x * fa.x + fa.y * fa.y + fa.z * fa.z + fa.w * fa.w - 1) < 1e-6 &&
        Math.abs(fb.x * fb.x + fb.y * fb.y + fb.z * fb.z + fb.w * fb.w - 1) < 1e-6
      )) j.checkFrames();
    }
    const s = this.solver;
    checkInt(s.velocityIterations, 1, 1000, 'velocityIterations');
    checkInt(s.positionIterations, 0, 1000, 'positionIterations');
    checkInt(s.subSteps, 1, 64, 'subSteps');
    checkInt(s.subStepIterations, 1, 100, 'subStepIterations');
    checkInt(s.relaxIterations, 0, 100, 'relaxIterations');
    if (typeof s.warmStarting !== 'boolean') throw new TypeError(`solver.warmStarting must be a boolean (got ${String(s.warmStarting)})`);
    if (typeof s.shockPropagation !== 'boolean') throw new TypeError(`solver.shockPropagation must be a boolean (got ${String(s.shockPropagation)})`);
    if (!(s.maxTurnPerStep > 0)) throw new RangeError(`solver.maxTurnPerStep must be a number > 0 or Infinity (got ${String(s.maxTurnPerStep)})`);
    if (!(s.relaxation > 0 && s.relaxation < 2)) throw new RangeError(`solver.relaxation must be in (0, 2) (got ${String(s.relaxation)})`);
    if (s.frictionModel !== 'constant' && s.frictionModel !== 'catto2005' && s.frictionModel !== 'coulomb') {
      throw new RangeError(`solver.frictionModel must be 'constant', 'catto2005' or 'coulomb' (got ${String(s.frictionModel)})`);
    }
    if (s.positionCorrection !== 'ngs' && s.positionCorrection !== 'baumgarte' && s.positionCorrection !== 'soft') {
      throw new RangeError(`solver.positionCorrection must be 'ngs', 'baumgarte' or 'soft' (got ${String(s.positionCorrection)})`);
    }
    checkNonNegative(s.linearSlop, 'linearSlop');
    checkNonNegative(s.baumgarte, 'baumgarte');
    checkNonNegative(s.maxCorrectionVelocity, 'maxCorrectionVelocity');
    checkNonNegative(s.contactHertz, 'contactHertz');
    checkNonNegative(s.contactDampingRatio, 'contactDampingRatio');
    checkNonNegative(s.restitutionThreshold, 'restitutionThreshold');
    checkNonNegative(s.speculativeDistance, 'speculativeDistance');
    if (!(s.jointedSpeculativeRate > 0 && s.jointedSpeculativeRate <= 1)) {
      throw new RangeError(`solver.jointedSpeculativeRate must be in (0, 1] (got ${String(s.jointedSpeculativeRate)})`);
    }
  }

  /** Kinematic targets become the velocities that reach them in dt. */
  /**
   * Parts to split what is left of a step (stepLeft) into: ⌈θ / maxTurnPerStep⌉
   * for the largest turn θ = |ω|·dt of an awake dynamic body in a pair that
   * is at least SPLIT_ELONGATION long for its thickness.
   * The narrowphase finds a body's contact points once per step, at its
   * start pose; a thin body that turns through a large angle in the step
   * brings other parts of itself to the surface, which no point holds.
   */
  private turnSplit(): number {
    // (The time from a field: a double argument to a call V8 does not inline is boxed.)
    const dt = this.stepLeft;
    const limit = this.solver.maxTurnPerStep;
    const list = this.contactList;
    let most = 0;
    for (let i = 0; i < list.length; i++) {
      const c = list[i]!;
      const a = c.bodyA!, b = c.bodyB!;
      if (a.isDynamic && a.awake && a.elongation >= SPLIT_ELONGATION) {
        const w = a.angularVelocity;
        const t = w.x * w.x + w.y * w.y + w.z * w.z;
        if (t > most) most = t;
      }
      if (b.isDynamic && b.awake && b.elongation >= SPLIT_ELONGATION) {
        const w = b.angularVelocity;
        const t = w.x * w.x + w.y * w.y + w.z * w.z;
        if (t > most) most = t;
      }
    }
    let parts = Math.ceil(Math.sqrt(most) * dt / limit);
    // A pair with points moving fast relative to each other: its points are
    // those of the start pose (a body sliding over a mesh has none for the
    // slope it runs into further on), and the spin an impact starts turns
    // the body through the rest of the part.
    let fastest = 0;
    const solving = this.solveContacts;
    for (let i = 0; i < this.solveContactCount; i++) {
      const c = solving[i]!;
      const a = c.bodyA!, b = c.bodyB!;
      if (!(a.isDynamic && a.awake) && !(b.isDynamic && b.awake)) continue;
      const va = a.linearVelocity, vb = b.linearVelocity;
      const dx = vb.x - va.x, dy = vb.y - va.y, dz = vb.z - va.z;
      const vv = dx * dx + dy * dy + dz * dz;
      if (vv > fastest) fastest = vv;
    }
    const moveParts = Math.ceil(Math.sqrt(fastest) * dt / MOVE_PER_PART);
    if (moveParts > parts) parts = moveParts;
    return parts > 1 ? Math.min(parts, MAX_STEP_PARTS) : 1;
  }

  private prepareKinematics(dt: number): void {
    const inv = 1 / dt;
    for (let i = 0; i < this.bodyList.length; i++) {
      const b = this.bodyList[i]!;
      b.endsOnKinematicTarget = b.hasKinematicTarget;
      if (!b.hasKinematicTarget) continue;
      b.hasKinematicTarget = false;
      const v = b.linearVelocity as Vec3;
      v.x = (b.kinematicTargetPosition.x - b.position.x) * inv;
      v.y = (b.kinematicTargetPosition.y - b.position.y) * inv;
      v.z = (b.kinematicTargetPosition.z - b.position.z) * inv;
      // Δq = target · q*; ω = axis · angle / dt
      const dq = quat.multiply(this.tmpQuat, b.kinematicTargetRotation, quat.conjugate(this.tmpQuat2, b.rotation));
      if (dq.w < 0) { dq.x = -dq.x; dq.y = -dq.y; dq.z = -dq.z; dq.w = -dq.w; }
      const s = Math.sqrt(dq.x * dq.x + dq.y * dq.y + dq.z * dq.z);
      const w = b.angularVelocity as Vec3;
      if (s < 1e-12) {
        w.x = 0; w.y = 0; w.z = 0;
      } else {
        const angle = 2 * Math.atan2(s, dq.w);
        const k = (angle / s) * inv;
        w.x = dq.x * k; w.y = dq.y * k; w.z = dq.z * k;
      }
      b.awake = true;
      b.sleepTime = 0;
    }
  }

  /**
   * Bodies created, pushed or given a velocity since the last step get fat
   * boxes that hold this step's motion before the pairs are found (the end
   * of every step does the same for the bodies it moved): a ball created at
   * 100 m/s half a metre from a wall went through it in its first step.
   */
  private refitStaleProxies(dt: number): void {
    this.sweepDt = dt;
    const list = this.bodyList;
    const d = this.displacement;
    for (let i = 0; i < list.length; i++) {
      const b = list[i]!;
      if (!b.proxyStale) continue;
      b.proxyStale = false;
      if (b.isStatic || !b.awake) continue;
      const v = b.linearVelocity;
      this.sweptShapeBox(b);
      d.x = v.x * dt; d.y = v.y * dt; d.z = v.z * dt;
      // Only grow (a no-op for a body whose motion nobody changed since the
      // last step; a box setPosition stretched ahead must not shrink).
      this.broadphase.moveProxy(b.proxy, this.box, d, 1, true);
    }
  }

  /**
   * this.box = the shape's box at its pose, grown for a fast turn: a body
   * whose farthest point swings further than the fat margin in a step
   * (|ω|·R·dt, the arc it can sweep) gets its box grown by that swing, or its
   * pair with the floor could come a step late. (The linear motion is the
   * broadphase's prediction, from the displacement.)
   */
  private sweptShapeBox(b: RigidBody): void {
    b.shape.computeAabb(this.box, b.position, b.rotation);
    const w = b.angularVelocity;
    const swing = Math.sqrt(w.x * w.x + w.y * w.y + w.z * w.z) * b.boundingRadius * this.sweepDt;
    if (swing > FAT_MARGIN) {
      const bx = this.box;
      bx.min.x -= swing; bx.min.y -= swing; bx.min.z -= swing;
      bx.max.x += swing; bx.max.y += swing; bx.max.z += swing;
    }
  }

  private shouldCollide(a: RigidBody, b: RigidBody): boolean {
    if (!a.isDynamic && !b.isDynamic) return false;
    if (a.isSensor && b.isSensor) return false;
    if ((a.collisionGroup & b.collisionMask) === 0 || (b.collisionGroup & a.collisionMask) === 0) return false;
    if (a.noCollide !== null && a.noCollide.indexOf(b.id) >= 0) return false;
    return true;
  }

  private findNewContacts(): void {
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
      if (!a || !b || !this.shouldCollide(a, b)) continue;
      this.createContact(a, b);
    }
  }

  private createContact(a: RigidBody, b: RigidBody): Contact {
    const c = this.contactPool.pop() ?? new Contact(this.contactStore);
    c.index = this.contactList.length;
    this.contactStore.reserve(c.index + 1);
    c.reset(a, b);
    this.contactList.push(c);
    this.pairs.set(a.id, b.id, 1);
    return c;
  }

  private destroyContact(c: Contact, queueEvents: boolean): void {
    if (queueEvents && c.touching) this.queueContactEvent(c, c.isSensor ? EVENT_SENSOR_EXIT : EVENT_END);
    this.pairs.delete(c.bodyA!.id, c.bodyB!.id);
    const lastContact = this.contactList.pop()!;
    if (lastContact !== c) {
      this.contactList[c.index] = lastContact;
      this.contactStore.move(this.contactList.length, c.index);
      lastContact.index = c.index;
    }
    c.index = -1;
    c.bodyA = null;
    c.bodyB = null;
    this.contactPool.push(c);
  }

  private updateContacts(dt: number): void {
    const slop = this.solver.linearSlop;
    const gv = this.gravity;
    const gravityLength = Math.sqrt(gv.x * gv.x + gv.y * gv.y + gv.z * gv.z);
    // Each body's centre, velocity, |ω| × bounding radius, a bound on its
    // points' speed (|v| + that), odometer and activity, by body index: the
    // pair loop reads these instead of the bodies' vector objects (it waits
    // on memory, not on arithmetic), and most pairs of a heap are apart and
    // settle from them alone.
    const bodies = this.bodyList;
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
    const spec = this.solver.speculativeDistance;
    this.pairArgs[0] = spec; this.pairArgs[1] = fall; this.pairArgs[2] = dt;
    this.solveContactCount = 0;
    // (No contact is created in this loop, so the store's arrays stay the same objects.)
    const ints = this.contactStore.ints, gaps = this.contactStore.gaps;
    for (let i = 0; i < this.contactList.length; i++) {
      const ri = PAIR_INTS * i, rg = PAIR_NUMS * i;
      const ia = ints[ri + PAIR_A]!, ib = ints[ri + PAIR_B]!;
      if (!this.broadphase.testOverlap(PI[PBI_STRIDE * ia + PBI_PROXY]!, PI[PBI_STRIDE * ib + PBI_PROXY]!)) {
        this.destroyContact(this.contactList[i]!, true);
        i--;
        continue;
      }
      if (ints[ri + PAIR_IDLE] === 1) {
        // An idle contact (empty, flags clear): settled as below, from the
        // arrays alone; both bodies inactive keeps it as it is.
        if (PI[PBI_STRIDE * ia + PBI_ACTIVE] === 0 && PI[PBI_STRIDE * ib + PBI_ACTIVE] === 0) continue;
        if (this.emptyPairStaysApart(i, ia, ib)) continue;
        ints[ri + PAIR_IDLE] = 0;
      }
      const c = this.contactList[i]!;
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
      const cp = this.contactStore.data, cb = c.base;
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
      // margin have no point within it (about half the broadphase pairs of a
      // pile, whose fat boxes overlap while the shapes are well apart).
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
          // within the margin now either (a third of a ragdoll pile's pairs).
          c.manifoldCached = false;
        } else {
          // The pair's last feature ids go in first: the box–box routine
          // prefers them in near-ties (see collide-box-box).
          m.pointCount = oldCount;
          for (let k = 0; k < oldCount; k++) m.points[k]!.id = cp[cb + k * POINT_STRIDE + 7]!;
          collide(a.shape, a.position, a.rotation, b.shape, b.position, b.rotation, margin, m);
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
        count = oldCount;
        for (let k = 0; k < count; k++) {
          const depth = cp[cb + k * POINT_STRIDE + 6]!;
          if (depth > maxDepth) maxDepth = depth;
          cp[cb + PERSISTED + k] = 1;
        }
      } else {
        for (let k = 0; k < oldCount; k++) {
          const o = k * POINT_STRIDE;
          this.oldIds[k] = cp[cb + o + 7]!;
          this.oldNormal[k] = cp[cb + NORMAL_IMPULSE + k]!;
          const f = FRICTION_IMPULSE + 3 * k;
          this.oldFriction[k * 3] = cp[cb + f]!;
          this.oldFriction[k * 3 + 1] = cp[cb + f + 1]!;
          this.oldFriction[k * 3 + 2] = cp[cb + f + 2]!;
          this.oldPosition[k * 3] = cp[cb + o]!;
          this.oldPosition[k * 3 + 1] = cp[cb + o + 1]!;
          this.oldPosition[k * 3 + 2] = cp[cb + o + 2]!;
          this.oldUsed[k] = 0;
        }
        for (let k = 0; k < count; k++) {
          const p = m.points[k]!;
          if (p.depth > maxDepth) maxDepth = p.depth;
          let matched = -1;
          for (let j = 0; j < oldCount; j++) {
            if (this.oldIds[j] === p.id && this.oldUsed[j] === 0) {
              matched = j;
              break;
            }
          }
          if (matched < 0) {
            // Feature ids can change while a clipped corner jitters across a
            // side plane (equal boxes stacked); fall back to the nearest old
            // point within a small radius so warm starting survives it.
            let best = MATCH_RADIUS * MATCH_RADIUS;
            for (let j = 0; j < oldCount; j++) {
              if (this.oldUsed[j] !== 0) continue;
              const dx = this.oldPosition[j * 3]! - p.position.x;
              const dy = this.oldPosition[j * 3 + 1]! - p.position.y;
              const dz = this.oldPosition[j * 3 + 2]! - p.position.z;
              const d2 = dx * dx + dy * dy + dz * dz;
              if (d2 < best) {
                best = d2;
                matched = j;
              }
            }
          }
          if (matched >= 0) {
            this.oldUsed[matched] = 1;
            cp[cb + PERSISTED + k] = 1;
            cp[cb + NORMAL_IMPULSE + k] = this.oldNormal[matched]!;
            cp[cb + FRICTION_IMPULSE + k * 3] = this.oldFriction[matched * 3]!;
            cp[cb + FRICTION_IMPULSE + k * 3 + 1] = this.oldFriction[matched * 3 + 1]!;
            cp[cb + FRICTION_IMPULSE + k * 3 + 2] = this.oldFriction[matched * 3 + 2]!;
          } else {
            cp[cb + PERSISTED + k] = 0;
            cp[cb + NORMAL_IMPULSE + k] = 0;
            cp[cb + FRICTION_IMPULSE + k * 3] = 0;
            cp[cb + FRICTION_IMPULSE + k * 3 + 1] = 0;
            cp[cb + FRICTION_IMPULSE + k * 3 + 2] = 0;
          }
        }
        if (count > 0 || oldCount > 0) c.syncPoints(m);
      }
      if (count > 0) {
        // Refresh the combined material (bodies' friction/restitution are public fields).
        c.friction = Math.sqrt(a.friction * b.friction);
        c.restitution = Math.max(a.restitution, b.restitution);
      }
      c.wasTouching = c.touching;
      // Touching: a point within the slop of contact (speculative points further out do not count).
      c.touching = count > 0 && maxDepth > (c.isSensor ? 0 : -slop);
      if (c.touching) {
        if (!a.awake) this.wakeBody(a);
        if (!b.awake) this.wakeBody(b);
      }
      if (c.touching && !c.wasTouching) this.queueContactEvent(c, c.isSensor ? EVENT_SENSOR_ENTER : EVENT_BEGIN);
      else if (!c.touching && c.wasTouching) this.queueContactEvent(c, c.isSensor ? EVENT_SENSOR_EXIT : EVENT_END);
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
    const gaps = this.contactStore.gaps;
    if (gaps[PAIR_NUMS * i + PAIR_GAP]! - (P[oa + PB_ODOMETER]! + P[ob + PB_ODOMETER]! - gaps[PAIR_NUMS * i + PAIR_GAP_ODOMETER]!) > loose) return true;
    if (this.contactStore.ints[PAIR_INTS * i + PAIR_CONVEX] !== 1) return false;
    const sx = P[ob + PB_X]! - P[oa + PB_X]!, sy = P[ob + PB_Y]! - P[oa + PB_Y]!, sz = P[ob + PB_Z]! - P[oa + PB_Z]!;
    const reach = P[oa + PB_RADIUS]! + P[ob + PB_RADIUS]! + loose;
    return sx * sx + sy * sy + sz * sz > reach * reach;
  }

  private listForSolver(c: Contact): void {
    const list = this.solveContacts;
    if (this.solveContactCount < list.length) list[this.solveContactCount] = c;
    else list.push(c);
    this.solveContactCount++;
  }

  private solve(dt: number): void {
    const S = this.solver;
    const B = this.solverBodies;
    const C = this.contactSolver;
    B.clear();
    C.clear();
    B.gravity = this.gravity;
    // Solver slots: every awake non-static body, in body order.
    for (let i = 0; i < this.bodyList.length; i++) {
      const b = this.bodyList[i]!;
      b.contactPointCount = 0;
      if (b.awake && !b.isStatic) B.add(b);
    }
    // Contact point counts (catto2005 m_c share) and static slots on demand.
    const list = this.solveContacts, listCount = this.solveContactCount;
    for (let i = 0; i < listCount; i++) {
      const c = list[i]!;
      const a = c.bodyA!, b = c.bodyB!;
      if (a.solverIndex < 0 && b.solverIndex < 0) continue;
      if (a.solverIndex < 0) B.addFixed(a);
      if (b.solverIndex < 0) B.addFixed(b);
      a.contactPointCount += c.pointCount;
      b.contactPointCount += c.pointCount;
    }
    const soft = S.positionCorrection === 'soft';
    const subSteps = soft ? S.subSteps : 1;
    const h = dt / subSteps;
    for (let i = 0; i < listCount; i++) {
      const c = list[i]!;
      if (c.bodyA!.solverIndex < 0 || c.bodyB!.solverIndex < 0) continue;
      C.addContact(c, B, S, h, dt, this.gravity, true);
    }

    // Previous pose for interpolation: the whole step's start, in its first part.
    for (let i = 0; this.firstPart && i < B.count; i++) {
      const b = B.bodies[i]!;
      const pp = b.previousPosition as Vec3;
      pp.x = b.position.x; pp.y = b.position.y; pp.z = b.position.z;
      quat.copy(b.previousRotation as Quat, b.rotation);
    }

    const J = this.jointSolver;
    J.prepare(this.jointList, B, S, h, dt);

    const shock = soft && S.shockPropagation && C.buildShockOrder(B, S.linearSlop, dt) > 0;
    if (soft) {
      // One softness for every contact. Box2D v3 doubles the hertz against
      // static bodies; here that makes a base-20 pyramid drift 3.8 cm and
      // keeps a 100-box pile from sleeping within 5 s.
      this.softness.set(Math.min(S.contactHertz, 0.25 / h), S.contactDampingRatio, h);
      // The rows hold the separations at the poses of this version (the
      // step's start); a sweep after any pose change measures them again.
      C.measuredVersion = B.poseVersion;
      for (let sub = 0; sub < subSteps; sub++) {
        this.integrateVelocities(h);
        if (S.warmStarting) J.warmStart(B);
        C.warmStart(B, S);
        // Joints after contacts: the last rows solved win, and a ragdoll's
        // joints must not be pulled apart by its limbs' ground contacts.
        // Sweep directions and the first corner of each manifold. Gauss-Seidel
        // favours the rows it visits last, so no fixed pattern may repeat:
        // within a sub-step the biased sweeps alternate and the relax sweep
        // runs like the biased sweep before it; the next sub-step starts the
        // other way; the whole pattern flips every other step, and the first
        // corner advances every sweep, sub-step and second step. Chosen by
        // the base-40 pyramid: with a pattern fixed across steps it leans
        // 12 cm towards its last-listed boxes; strict alternation of every
        // sweep lets it sway out of plane by 40 cm; this holds it within 2 cm.
        const flip = this.stepCount & 1;
        const rot = this.stepCount >> 1;
        for (let it = 0; it < S.subStepIterations; it++) {
          if (B.poseVersion !== C.measuredVersion) C.measureSeparations(B);
          C.solveVelocities(B, S, h, 2, this.softness, ((sub + flip + it) & 1) === 1, sub + rot + it);
          J.solveVelocities(B, h, true);
        }
        if (shock) C.solveShock(B, h, 3);
        this.integratePositions(h);
        // Bodies that turned far since their world inertia was taken get it
        // and their contact rows anew (SolverBodies.refreshInertia).
        if (B.refreshInertia() > 0) C.refreshRows(B);
        for (let it = 0; it < S.relaxIterations; it++) {
          if (B.poseVersion !== C.measuredVersion) C.measureSeparations(B);
          C.solveVelocities(B, S, h, 3, this.softness, ((sub + flip + it) & 1) === 0, sub + 2 + rot + it);
          J.solveVelocities(B, h, false);
        }
        C.endSubStep();
      }
      C.applyRestitution(B, S.restitutionThreshold);
    } else {
      this.integrateVelocities(h);
      if (S.warmStarting) J.warmStart(B);
      C.warmStart(B, S);
      const mode = S.positionCorrection === 'baumgarte' ? 1 : 0;
      for (let it = 0; it < S.velocityIterations; it++) {
        C.solveVelocities(B, S, h, mode, this.softness, (it & 1) === 1, it);
        J.solveVelocities(B, h, mode === 1);
      }
      C.endSubStep();
      C.applyRestitution(B, S.restitutionThreshold);
      this.integratePositions(h);
      if (S.positionCorrection === 'ngs') {
        for (let it = 0; it < S.positionIterations; it++) {
          const jointError = J.solvePositions(B);
          const contactError = C.solvePositions(B, S);
          if (contactError <= S.linearSlop * 1.5 && jointError <= S.linearSlop) break;
        }
      }
    }
    C.storeImpulses();
    if (J.storeImpulses() > 0) this.queueJointBreaks();
    this.writeBack();
  }

  /**
   * v += h (g·gravityScale + F/m), ω += h I⁻¹ τ, then damping v *= 1/(1 + h c).
   * The gyroscopic term −ω × Iω of the design's formula is left out: integrated
   * explicitly it adds energy to spinning thin bodies (Box2D and Jolt omit it too).
   */
  private integrateVelocities(h: number): void {
    const B = this.solverBodies;
    // The accelerations were read from the bodies when their slots were
    // added (SolverBodies.add): a loop over the body objects here missed the
    // cache on most of them, every sub-step.
    const V = B.vel;
    for (let i = 0; i < B.count; i++) {
      if (B.dynamic[i] === 0) continue;
      const ld = 1 / (1 + h * B.linearDamping[i]!);
      const ad = 1 / (1 + h * B.angularDamping[i]!);
      const o = i * VELOCITY_STRIDE;
      V[o] = (V[o]! + h * B.lax[i]!) * ld;
      V[o + 1] = (V[o + 1]! + h * B.lay[i]!) * ld;
      V[o + 2] = (V[o + 2]! + h * B.laz[i]!) * ld;
      V[o + 3] = (V[o + 3]! + h * B.aax[i]!) * ad;
      V[o + 4] = (V[o + 4]! + h * B.aay[i]!) * ad;
      V[o + 5] = (V[o + 5]! + h * B.aaz[i]!) * ad;
    }
  }

  /** x += h v; q += ½ h (ω, 0) ⊗ q, normalised (locals only: no object stores in the loop). */
  private integratePositions(h: number): void {
    const B = this.solverBodies;
    const hh = 0.5 * h;
    for (let i = 0; i < B.count; i++) {
      if (B.moves[i] === 0) continue;
      const d = B.delta;
      const V = B.vel, o = i * VELOCITY_STRIDE;
      d[0] = h * V[o]!; d[1] = h * V[o + 1]!; d[2] = h * V[o + 2]!;
      d[3] = V[o + 3]! * hh; d[4] = V[o + 4]! * hh; d[5] = V[o + 5]! * hh;
      B.moveSlot(i);
    }
  }

  /**
   * The fat boxes hold the next step's motion: the whole step's dt (a split
   * step's parts are shorter), read from the field (a double argument to a
   * call V8 does not inline is boxed).
   */
  private writeBack(): void {
    const dt = this.stepDt;
    this.sweepDt = dt;
    const B = this.solverBodies;
    const d = this.displacement;
    for (let i = 0; i < B.count; i++) {
      const b = B.bodies[i]!;
      if (b.isStatic || !b.awake) continue;
      const p = b.position as Vec3, r = b.rotation as Quat, v = b.linearVelocity as Vec3, w = b.angularVelocity as Vec3;
      if (b.endsOnKinematicTarget && this.finalPart) {
        b.endsOnKinematicTarget = false;
        const tp = b.kinematicTargetPosition, tq = b.kinematicTargetRotation;
        p.x = tp.x; p.y = tp.y; p.z = tp.z;
        r.x = tq.x; r.y = tq.y; r.z = tq.z; r.w = tq.w;
      } else {
        p.x = B.px[i]!; p.y = B.py[i]!; p.z = B.pz[i]!;
        r.x = B.qx[i]!; r.y = B.qy[i]!; r.z = B.qz[i]!; r.w = B.qw[i]!;
      }
      b.odometer += motionBound(b, b.previousPosition, b.previousRotation);
      if (b.isDynamic) {
        const V = B.vel, o = i * VELOCITY_STRIDE;
        v.x = V[o]!; v.y = V[o + 1]!; v.z = V[o + 2]!;
        w.x = V[o + 3]!; w.y = V[o + 4]!; w.z = V[o + 5]!;
        b.updateInertia();
      }
      b.force.x = 0; b.force.y = 0; b.force.z = 0;
      b.torque.x = 0; b.torque.y = 0; b.torque.z = 0;
      this.sweptShapeBox(b);
      // Predictive fat box: it must hold the next step's motion. (Reaching
      // two steps ahead left a ragdoll on stairs awake: more speculative
      // pairs against the step edges.)
      d.x = v.x * dt; d.y = v.y * dt; d.z = v.z * dt;
      this.broadphase.moveProxy(b.proxy, this.box, d);
    }
  }

  /**
   * Islands: union-find over touching contacts between dynamic bodies (static
   * and kinematic bodies do not join islands). An island sleeps when every
   * body in it stayed below the thresholds for `timeToSleep`.
   */
  private updateSleep(dt: number): void {
    const B = this.solverBodies;
    const n = B.count;
    const sl = this.sleeping;
    if (!sl.enabled) {
      // No islands to build: only the timers (read by the kinematic rule and
      // by a later switch back on) restart.
      for (let i = 0; i < n; i++) {
        const b = B.bodies[i]!;
        if (!b.isStatic && b.awake) b.sleepTime = 0;
      }
      return;
    }
    if (this.islandParent.length < n) {
      this.islandParent = new Int32Array(n * 2);
      this.islandMinSleep = new Float64Array(n * 2);
    }
    const parent = this.islandParent;
    const minSleep = this.islandMinSleep;
    const lin2 = sl.linearThreshold * sl.linearThreshold;
    const ang2 = sl.angularThreshold * sl.angularThreshold;
    for (let i = 0; i < n; i++) {
      parent[i] = i;
      const b = B.bodies[i]!;
      if (b.isStatic || !b.awake) continue;
      const v = b.linearVelocity, w = b.angularVelocity;
      const still = v.x * v.x + v.y * v.y + v.z * v.z <= lin2 && w.x * w.x + w.y * w.y + w.z * w.z <= ang2;
      b.sleepTime = !b.canSleep || !still ? 0 : b.sleepTime + dt;
    }
    for (let i = 0; i < this.contactList.length; i++) {
      const c = this.contactList[i]!;
      if (!c.touching || c.isSensor) continue;
      const a = c.bodyA!, b = c.bodyB!;
      if (a.solverIndex < 0 || b.solverIndex < 0) continue;
      if (a.isDynamic && b.isDynamic) {
        union(parent, a.solverIndex, b.solverIndex);
      } else if (a.isKinematic && b.isDynamic) {
        if (a.sleepTime === 0) b.sleepTime = 0; // a moving platform keeps its riders awake
      } else if (b.isKinematic && a.isDynamic) {
        if (b.sleepTime === 0) a.sleepTime = 0;
      }
    }
    for (let i = 0; i < this.jointList.length; i++) {
      const j = this.jointList[i]!;
      if (j.broken) continue;
      const a = j.bodyA, b = j.bodyB;
      if (a.isDynamic && b.isDynamic && a.solverIndex >= 0 && b.solverIndex >= 0 && a.solverIndex < n && b.solverIndex < n) union(parent, a.solverIndex, b.solverIndex);
    }
    for (let i = 0; i < n; i++) minSleep[i] = Infinity;
    for (let i = 0; i < n; i++) {
      const b = B.bodies[i]!;
      if (b.isStatic || !b.awake) continue;
      const r = find(parent, i);
      if (b.sleepTime < minSleep[r]!) minSleep[r] = b.sleepTime;
    }
    // Put islands to sleep; link each one into a circular list.
    for (let i = 0; i < n; i++) {
      const b = B.bodies[i]!;
      if (b.isStatic || !b.awake) continue;
      const r = find(parent, i);
      if (minSleep[r]! < sl.timeToSleep) continue;
      const head = B.bodies[r]!;
      b.awake = false;
      const v = b.linearVelocity as Vec3, w = b.angularVelocity as Vec3;
      v.x = 0; v.y = 0; v.z = 0; w.x = 0; w.y = 0; w.z = 0;
      if (b === head) {
        if (b.islandNext === null) b.islandNext = b;
      } else {
        // insert after head
        if (head.islandNext === null) head.islandNext = head;
        b.islandNext = head.islandNext;
        head.islandNext = b;
      }
    }
  }

  private queueJointBreaks(): void {
    for (let i = 0; i < this.jointList.length; i++) {
      const j = this.jointList[i]!;
      if (!j.broken || j.breakReported) continue;
      j.breakReported = true;
      if (this.listeners.jointBreak.length === 0) continue;
      let e = this.events[this.eventCount];
      if (!e) {
        e = new QueuedEvent();
        this.events.push(e);
      }
      this.eventCount++;
      e.type = EVENT_JOINT_BREAK;
      e.joint = j;
      e.bodyA = j.bodyA;
      e.bodyB = j.bodyB;
      e.impulse = j.impulse;
    }
  }

  private queueContactEvent(c: Contact, type: number): void {
    const hasListener =
      type === EVENT_BEGIN ? this.listeners.contactBegin.length > 0 :
      type === EVENT_END ? this.listeners.contactEnd.length > 0 :
      type === EVENT_SENSOR_ENTER ? this.listeners.sensorEnter.length > 0 : this.listeners.sensorExit.length > 0;
    if (!hasListener) return;
    let e = this.events[this.eventCount];
    if (!e) {
      e = new QueuedEvent();
      this.events.push(e);
    }
    this.eventCount++;
    e.type = type;
    e.bodyA = c.bodyA;
    e.bodyB = c.bodyB;
    if (c.pointCount > 0) {
      c.pointPosition(0, e.point);
      c.pointNormal(0, e.normal);
    }
    e.impulse = c.totalNormalImpulse;
  }

  /**
   * Delivers the queued events in order, each to the listeners subscribed
   * when its delivery starts (see `on`). Removals deferred during the step or
   * by a listener are done here, and the contactEnd / sensorExit events they
   * queue are delivered in the same pass.
   */
  private dispatchEvents(): void {
    this.dispatching = true;
    try {
      // Begin events report the impulse of the step they happened in.
      let i = 0;
      for (;;) {
        for (; i < this.eventCount; i++) {
          const e = this.events[i]!;
          if (e.type === EVENT_JOINT_BREAK) {
            const ev = this.jointEvent;
            ev.joint = e.joint!;
            ev.impulse = e.impulse;
            this.deliver('jointBreak', ev);
            e.joint = null;
          } else if (e.type === EVENT_BEGIN || e.type === EVENT_END) {
            const ev = this.contactEvent;
            ev.bodyA = e.bodyA!;
            ev.bodyB = e.bodyB!;
            ev.point.x = e.point.x; ev.point.y = e.point.y; ev.point.z = e.point.z;
            ev.normal.x = e.normal.x; ev.normal.y = e.normal.y; ev.normal.z = e.normal.z;
            ev.impulse = e.impulse;
            this.deliver(e.type === EVENT_BEGIN ? 'contactBegin' : 'contactEnd', ev);
          } else {
            const ev = this.sensorEvent;
            const aSensor = e.bodyA!.isSensor;
            ev.sensor = aSensor ? e.bodyA! : e.bodyB!;
            ev.body = aSensor ? e.bodyB! : e.bodyA!;
            this.deliver(e.type === EVENT_SENSOR_ENTER ? 'sensorEnter' : 'sensorExit', ev);
          }
          e.bodyA = null;
          e.bodyB = null;
        }
        if (this.pendingRemovals.length === 0) break;
        this.removePending();
      }
    } finally {
      this.eventCount = 0;
      this.dispatching = false;
      // Only reached with removals left if something other than a listener threw.
      this.removePending();
    }
    const errors = this.listenerErrors;
    if (errors !== null) {
      this.listenerErrors = null;
      if (errors.length === 1) throw errors[0];
      throw new AggregateError(errors, `${errors.length} event listeners threw`);
    }
  }

  /** Calls each listener of `name` with `ev`; a throw is kept for dispatchEvents to rethrow. */
  private deliver(name: WorldEventName, ev: ContactEvent | SensorEvent | JointBreakEvent): void {
    const list = this.listeners[name] as ((e: typeof ev) => void)[];
    for (let j = 0; j < list.length; j++) {
      const listener = list[j]!;
      // on/off replace the list: skip a listener an earlier one removed.
      if (this.listeners[name] !== list && (this.listeners[name] as unknown[]).indexOf(listener) < 0) continue;
      try {
        listener(ev);
      } catch (err) {
        if (this.listenerErrors === null) this.listenerErrors = [];
        this.listenerErrors.push(err);
      }
    }
  }

  private removePending(): void {
    const list = this.pendingRemovals;
    for (let k = 0; k < list.length; k++) {
      const b = list[k]!;
      if (b.owner === this) this.removeNow(b);
    }
    list.length = 0;
  }

  // ------------------------------------------------------------------ queries

  /** Closest body hit by the segment from → to, or null. */
  raycast(from: Readonly<Vec3>, to: Readonly<Vec3>, options?: RaycastOptions): RaycastHit | null {
    validate.requireFiniteVec(from, 'from');
    validate.requireFiniteVec(to, 'to');
    checkQueryOptions(options, 'raycast');
    const q = this.rayQuery;
    const dx = to.x - from.x, dy = to.y - from.y, dz = to.z - from.z;
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (len < 1e-12) return null;
    q.origin.x = from.x; q.origin.y = from.y; q.origin.z = from.z;
    q.dir.x = dx / len; q.dir.y = dy / len; q.dir.z = dz / len;
    q.options = options;
    q.bestBody = null;
    const region = options?.region;
    const box = this.box;
    box.min.x = Math.min(from.x, to.x); box.min.y = Math.min(from.y, to.y); box.min.z = Math.min(from.z, to.z);
    box.max.x = Math.max(from.x, to.x); box.max.y = Math.max(from.y, to.y); box.max.z = Math.max(from.z, to.z);
    if (region !== undefined && this.regionCovers(box, region)) {
      // The region's bodies instead of a walk down both trees: each one
      // whose box the segment crosses is tested, shortening the segment.
      const inv = q.invDir;
      inv.x = 1 / q.dir.x; inv.y = 1 / q.dir.y; inv.z = 1 / q.dir.z;
      let maxT = len;
      for (let i = 0; i < region.count; i++) {
        const body = region.bodies[i]!;
        body.shape.computeAabb(this.box2, body.position, body.rotation);
        if (aabbRayEntry(this.box2, q.origin, inv, maxT) < 0) continue;
        maxT = q.rayCallback(body.id, maxT);
      }
    } else {
      this.broadphase.raycast(q.origin, q.dir, len, q);
    }
    q.options = undefined;
    const body = q.bestBody as RigidBody | null;
    if (body === null) return null;
    q.bestBody = null;
    const out = options?.out ?? { body, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, distance: 0, fraction: 0, triangle: -1 };
    out.body = body;
    out.point.x = q.best.point.x; out.point.y = q.best.point.y; out.point.z = q.best.point.z;
    out.normal.x = q.best.normal.x; out.normal.y = q.best.normal.y; out.normal.z = q.best.normal.z;
    out.distance = q.best.distance;
    out.fraction = q.best.distance / len;
    out.triangle = q.best.triangle;
    return out;
  }

  /**
   * Sweeps a convex shape from `position` along `translation` and returns the
   * first impact (never later than the true one), or null.
   */
  shapeCast(shape: ConvexShape, position: Readonly<Vec3>, rotation: Readonly<Quat>, translation: Readonly<Vec3>, options?: ShapeCastOptions): ShapeCastHit | null {
    if (!shape || shape.isConvex !== true) throw new TypeError('shapeCast: shape must be a Sphere, Box or Capsule');
    validate.requireFiniteVec(position, 'position');
    validate.requireFiniteQuat(rotation, 'rotation');
    validate.requireFiniteVec(translation, 'translation');
    checkQueryOptions(options, 'shapeCast');
    const box = shape.computeAabb(this.box, position, rotation);
    const t = translation;
    if (t.x < 0) box.min.x += t.x; else box.max.x += t.x;
    if (t.y < 0) box.min.y += t.y; else box.max.y += t.y;
    if (t.z < 0) box.min.z += t.z; else box.max.z += t.z;
    const count = this.gatherCandidates(box, options?.region);
    const list = this.candidateList;
    const usedRegion = list !== this.candidateScratch;
    let bestBody: RigidBody | null = null;
    let bestFraction = Infinity;
    const hit = this.castHit;
    let out: ShapeCastHit | null = null;
    for (let i = 0; i < count; i++) {
      const body = list[i]!;
      if (!passesFilter(body, options)) continue;
      if (usedRegion) {
        // The broadphase would have culled bodies whose boxes miss the sweep.
        body.shape.computeAabb(this.box2, body.position, body.rotation);
        if (!aabbOverlaps(this.box2, box)) continue;
      }
      if (!shapeCastPair(shape, position, rotation, translation, body.shape, body.position, body.rotation, hit)) continue;
      if (hit.fraction < bestFraction || (hit.fraction === bestFraction && bestBody !== null && body.id < bestBody.id)) {
        bestFraction = hit.fraction;
        bestBody = body;
        if (out === null) out = options?.out ?? { fraction: 0, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, body, triangle: -1 };
        out.fraction = hit.fraction;
        out.point.x = hit.point.x; out.point.y = hit.point.y; out.point.z = hit.point.z;
        out.normal.x = hit.normal.x; out.normal.y = hit.normal.y; out.normal.z = hit.normal.z;
        out.body = body;
        out.triangle = hit.triangle;
      }
    }
    return out;
  }

  /**
   * Fills `region` with the bodies whose fat boxes overlap `box`, for the
   * `region` option of overlap and shapeCast (see QueryRegion).
   */
  fillQueryRegion(box: Readonly<Aabb>, region: QueryRegion): QueryRegion {
    if (box === null || typeof box !== 'object') throw new TypeError(`fillQueryRegion: box must be a { min, max } object (got ${String(box)})`);
    if (!(region instanceof QueryRegion)) throw new TypeError(`fillQueryRegion: region must be a QueryRegion (got ${String(region)})`);
    validate.requireFiniteVec(box.min, 'box.min');
    validate.requireFiniteVec(box.max, 'box.max');
    const b = region.box;
    b.min.x = box.min.x; b.min.y = box.min.y; b.min.z = box.min.z;
    b.max.x = box.max.x; b.max.y = box.max.y; b.max.z = box.max.z;
    region.count = this.bodiesInBox(b, region.bodies);
    region.version = this.queryVersion;
    region.world = this;
    return region;
  }

  /**
   * Candidates for a query whose reach is `box`: the region's bodies when it
   * is current and covers `box`, else the broadphase's. They are left in
   * candidateList; returns their count.
   */
  private gatherCandidates(box: Readonly<Aabb>, region: QueryRegion | undefined): number {
    if (region !== undefined && this.regionCovers(box, region)) {
      this.candidateList = region.bodies;
      return region.count;
    }
    this.candidateList = this.candidateScratch;
    return this.bodiesInBox(box, this.candidateScratch);
  }

  /** The region was filled by this world since anything moved, and its box holds `box`. */
  private regionCovers(box: Readonly<Aabb>, region: QueryRegion): boolean {
    return region.world === this && region.version === this.queryVersion && aabbContains(region.box, box);
  }

  /** The bodies whose fat boxes overlap `box`, written over the start of `out` (kept, not shrunk); returns their count. */
  private bodiesInBox(box: Readonly<Aabb>, out: RigidBody[]): number {
    const ids = this.queryIds;
    ids.count = 0;
    this.broadphase.queryList(box, ids);
    let n = 0;
    for (let i = 0; i < ids.count; i++) {
      const body = this.bodyById.get(ids.ids[i]!);
      if (!body) continue;
      if (n < out.length) out[n] = body; else out.push(body);
      n++;
    }
    ids.count = 0;
    return n;
  }

  /**
   * Every body overlapping the query shape, with the normal that pushes the
   * query shape out and the depth (one entry per contact point: a mesh may
   * give several).
   */
  overlap(shape: Shape, position: Readonly<Vec3>, rotation: Readonly<Quat>, options?: OverlapOptions): readonly OverlapContact[] {
    if (!shape || shape.isConvex !== true) throw new TypeError('overlap: shape must be a Sphere, Box or Capsule');
    validate.requireFiniteVec(position, 'position');
    validate.requireFiniteQuat(rotation, 'rotation');
    checkQueryOptions(options, 'overlap');
    const collector = options?.collector ?? new OverlapCollector();
    // Resetting length to 0 drops the array storage in V8: skip it when already empty.
    // pop() keeps the backing store (`length = 0` would drop it, and the next push reallocates).
    const found = collector.contacts;
    while (found.length > 0) found.pop();
    shape.computeAabb(this.box2, position, rotation);
    const count = this.gatherCandidates(this.box2, options?.region);
    const list = this.candidateList;
    const m = this.queryManifold;
    for (let i = 0; i < count; i++) {
      const body = list[i]!;
      if (!passesFilter(body, options)) continue;
      body.shape.computeAabb(this.box, body.position, body.rotation);
      if (!aabbOverlaps(this.box, this.box2)) continue;
      collide(shape, position, rotation, body.shape, body.position, body.rotation, 0, m);
      for (let k = 0; k < m.pointCount; k++) {
        const p = m.points[k]!;
        if (p.depth <= 0) continue;
        const c = collector.take();
        c.body = body;
        c.point.x = p.position.x; c.point.y = p.position.y; c.point.z = p.position.z;
        c.normal.x = -p.normal.x; c.normal.y = -p.normal.y; c.normal.z = -p.normal.z;
        c.depth = p.depth;
      }
    }
    return collector.contacts;
  }

  // ------------------------------------------------------------------ snapshots

  /**
   * The whole simulation state as typed arrays (layout: WorldSnapshot;
   * `snapshotTransferList` gives its buffers, to post it to a worker without
   * a copy): bodies with their sleep, kinematic-target and broadphase state,
   * contacts with their warm-start impulses and caches, joints with their
   * accumulated impulses, motor and limit settings and broken flags, the
   * state of every stepper with `snapshotState` (cloth, rope, particles),
   * the step count and `advance`'s accumulator. `restore` continues bit for
   * bit, in this world or in one built the same way. Not included: the
   * settings objects (solver, sleeping, jointSettings), fixedTimeStep,
   * maxSubSteps and event listeners; character controllers and walkers
   * snapshot themselves.
   */
  snapshot(): WorldSnapshot {
    if (this.stepping || this.dispatching) throw new Error('snapshot: cannot snapshot during a step or an event listener');
    const nb = this.bodyList.length, nc = this.contactList.length, nj = this.jointList.length;
    const world = new Float64Array(WORLD_LENGTH);
    world[W_STEP_COUNT] = this.stepCount;
    world[W_ACCUMULATOR] = this.accumulator;
    world[W_NEXT_BODY_ID] = this.nextBodyId;
    putVec(world, W_GRAVITY, this.gravity);
    world[W_DROPPED] = this.droppedTime;
    world[W_BODIES] = nb; world[W_CONTACTS] = nc; world[W_JOINTS] = nj;
    const bodies = new Float64Array(BODY_STRIDE * nb), bodyInts = new Int32Array(BODY_INTS * nb);
    for (let i = 0; i < nb; i++) {
      const b = this.bodyList[i]!, o = BODY_STRIDE * i, oi = BODY_INTS * i;
      putVec(bodies, o + B_POSITION, b.position); putQuat(bodies, o + B_ROTATION, b.rotation);
      putVec(bodies, o + B_VELOCITY, b.linearVelocity); putVec(bodies, o + B_ANGULAR, b.angularVelocity);
      putVec(bodies, o + B_PREV_POSITION, b.previousPosition); putQuat(bodies, o + B_PREV_ROTATION, b.previousRotation);
      putVec(bodies, o + B_FORCE, b.force); putVec(bodies, o + B_TORQUE, b.torque);
      bodies[o + B_SLEEP_TIME] = b.sleepTime;
      bodies[o + B_ODOMETER] = b.odometer;
      putVec(bodies, o + B_TARGET_POSITION, b.kinematicTargetPosition); putQuat(bodies, o + B_TARGET_ROTATION, b.kinematicTargetRotation);
      bodies[o + B_FRICTION] = b.friction; bodies[o + B_RESTITUTION] = b.restitution;
      bodies[o + B_LINEAR_DAMPING] = b.linearDamping; bodies[o + B_ANGULAR_DAMPING] = b.angularDamping;
      bodies[o + B_GRAVITY_SCALE] = b.gravityScale; bodies[o + B_MASS] = b.mass;
      shapeParams(b.shape, bodies, o + B_SHAPE);
      bodyInts[oi + BI_ID] = b.id;
      bodyInts[oi + BI_TYPE] = b.typeCode;
      bodyInts[oi + BI_SHAPE] = b.shape.kind;
      bodyInts[oi + BI_FLAGS] = (b.awake ? BODY_AWAKE : 0) | (b.proxyStale ? BODY_PROXY_STALE : 0) | (b.hasKinematicTarget ? BODY_KINEMATIC_TARGET : 0) |
        (b.canSleep ? BODY_CAN_SLEEP : 0) | (b.isSensor ? BODY_SENSOR : 0);
      bodyInts[oi + BI_ISLAND_NEXT] = b.islandNext !== null ? b.islandNext.id : -1;
      bodyInts[oi + BI_PROXY] = b.proxy;
      bodyInts[oi + BI_GROUP] = b.collisionGroup;
      bodyInts[oi + BI_MASK] = b.collisionMask;
    }
    const row = CONTACT_STRIDE + CONTACT_EXTRA;
    const contacts = new Float64Array(row * nc), contactInts = new Int32Array(CONTACT_INTS * nc);
    const store = this.contactStore;
    for (let i = 0; i < nc; i++) {
      const c = this.contactList[i]!, o = row * i, e = o + CONTACT_STRIDE, oi = CONTACT_INTS * i;
      contacts.set(store.data.subarray(CONTACT_STRIDE * i, CONTACT_STRIDE * (i + 1)), o);
      contacts[e + C_GAP] = store.gaps[PAIR_NUMS * i + PAIR_GAP]!;
      contacts[e + C_GAP_ODOMETER] = store.gaps[PAIR_NUMS * i + PAIR_GAP_ODOMETER]!;
      contacts[e + C_FRICTION] = c.friction;
      contacts[e + C_RESTITUTION] = c.restitution;
      contacts[e + C_TOTAL_IMPULSE] = c.totalNormalImpulse;
      contactInts[oi + CI_A] = c.bodyA!.id;
      contactInts[oi + CI_B] = c.bodyB!.id;
      contactInts[oi + CI_POINTS] = c.pointCount;
      contactInts[oi + CI_FLAGS] = (c.touching ? CONTACT_TOUCHING : 0) | (c.wasTouching ? CONTACT_WAS_TOUCHING : 0) |
        (c.manifoldCached ? CONTACT_CACHED : 0) | (store.ints[PAIR_INTS * i + PAIR_IDLE] === 1 ? CONTACT_IDLE : 0);
    }
    const broadphase = this.broadphase.saveState();
    const jointNumbers: number[] = [];
    const jointInts = new Int32Array(JOINT_INTS * nj);
    for (let i = 0; i < nj; i++) {
      const j = this.jointList[i]!, oi = JOINT_INTS * i;
      const start = jointNumbers.length;
      j.saveState(jointNumbers);
      jointInts[oi + JI_KIND] = j.kind;
      jointInts[oi + JI_A] = j.bodyA.id;
      jointInts[oi + JI_B] = j.bodyB.id;
      jointInts[oi + JI_FLAGS] = (j.broken ? JOINT_BROKEN : 0) | (j.breakReported ? JOINT_BREAK_REPORTED : 0);
      jointInts[oi + JI_OFFSET] = start;
      jointInts[oi + JI_LENGTH] = jointNumbers.length - start;
    }
    const steppers: (StepperSnapshot | null)[] = [];
    for (const s of this.steppers) steppers.push(s.snapshotState ? s.snapshotState() : null);
    return {
      version: SNAPSHOT_VERSION, world, bodies, bodyInts, contacts, contactInts,
      broadphaseInts: broadphase.ints, broadphaseBounds: broadphase.bounds,
      joints: Float64Array.from(jointNumbers), jointInts, steppers,
    };
  }

  /**
   * Restores a snapshot taken from this world or from one built the same
   * way: the same bodies (ids, types, shapes, masses), the same joints in
   * the same order (kind and bodies) and the same steppers. The whole
   * snapshot is checked first; anything wrong (another version, unknown or
   * missing body ids, NaN, truncated arrays, other types, shapes or joint
   * kinds, a broken broadphase) throws a SnapshotError and leaves the world
   * as it was.
   */
  restore(snapshot: WorldSnapshot): void {
    if (this.stepping || this.dispatching) throw new Error('restore: cannot restore during a step or an event listener');
    this.validateSnapshot(snapshot);
    const s = snapshot;
    this.queryVersion++;
    const nb = this.bodyList.length;
    const f = s.bodies, fi = s.bodyInts;
    // Bodies in the snapshot's order (the body order feeds the solver order).
    for (let i = 0; i < nb; i++) {
      const o = BODY_STRIDE * i, oi = BODY_INTS * i;
      const b = this.bodyById.get(fi[oi + BI_ID]!)!;
      this.bodyList[i] = b;
      b.index = i;
      getVec(b.position as Vec3, f, o + B_POSITION); getQuat(b.rotation as Quat, f, o + B_ROTATION);
      getVec(b.linearVelocity as Vec3, f, o + B_VELOCITY); getVec(b.angularVelocity as Vec3, f, o + B_ANGULAR);
      getVec(b.previousPosition as Vec3, f, o + B_PREV_POSITION); getQuat(b.previousRotation as Quat, f, o + B_PREV_ROTATION);
      getVec(b.force, f, o + B_FORCE); getVec(b.torque, f, o + B_TORQUE);
      b.sleepTime = f[o + B_SLEEP_TIME]!;
      b.odometer = f[o + B_ODOMETER]!;
      getVec(b.kinematicTargetPosition, f, o + B_TARGET_POSITION); getQuat(b.kinematicTargetRotation, f, o + B_TARGET_ROTATION);
      b.friction = f[o + B_FRICTION]!; b.restitution = f[o + B_RESTITUTION]!;
      b.linearDamping = f[o + B_LINEAR_DAMPING]!; b.angularDamping = f[o + B_ANGULAR_DAMPING]!;
      b.gravityScale = f[o + B_GRAVITY_SCALE]!;
      const flags = fi[oi + BI_FLAGS]!;
      b.awake = (flags & BODY_AWAKE) !== 0;
      b.proxyStale = (flags & BODY_PROXY_STALE) !== 0;
      b.hasKinematicTarget = (flags & BODY_KINEMATIC_TARGET) !== 0;
      b.endsOnKinematicTarget = false;
      b.canSleep = (flags & BODY_CAN_SLEEP) !== 0;
      b.proxy = fi[oi + BI_PROXY]!;
      b.collisionGroup = fi[oi + BI_GROUP]!;
      b.collisionMask = fi[oi + BI_MASK]!;
      b.updateInertia();
    }
    for (let i = 0; i < nb; i++) {
      const next = fi[BODY_INTS * i + BI_ISLAND_NEXT]!;
      this.bodyList[i]!.islandNext = next >= 0 ? this.bodyById.get(next)! : null;
    }
    this.broadphase.loadState(s.broadphaseInts, s.broadphaseBounds);
    // Contacts: rebuilt exactly, in the snapshot's order.
    while (this.contactList.length > 0) this.destroyContact(this.contactList[this.contactList.length - 1]!, false);
    const nc = s.world[W_CONTACTS]!, row = CONTACT_STRIDE + CONTACT_EXTRA, cf = s.contacts, ci = s.contactInts;
    for (let i = 0; i < nc; i++) {
      const o = row * i, e = o + CONTACT_STRIDE, oi = CONTACT_INTS * i;
      const c = this.createContact(this.bodyById.get(ci[oi + CI_A]!)!, this.bodyById.get(ci[oi + CI_B]!)!);
      const store = this.contactStore;
      store.data.set(cf.subarray(o, o + CONTACT_STRIDE), CONTACT_STRIDE * i);
      store.gaps[PAIR_NUMS * i + PAIR_GAP] = cf[e + C_GAP]!;
      store.gaps[PAIR_NUMS * i + PAIR_GAP_ODOMETER] = cf[e + C_GAP_ODOMETER]!;
      const flags = ci[oi + CI_FLAGS]!;
      store.ints[PAIR_INTS * i + PAIR_IDLE] = (flags & CONTACT_IDLE) !== 0 ? 1 : 0;
      c.friction = cf[e + C_FRICTION]!;
      c.restitution = cf[e + C_RESTITUTION]!;
      c.totalNormalImpulse = cf[e + C_TOTAL_IMPULSE]!;
      c.pointCount = ci[oi + CI_POINTS]!;
      c.touching = (flags & CONTACT_TOUCHING) !== 0;
      c.wasTouching = (flags & CONTACT_WAS_TOUCHING) !== 0;
      c.manifoldCached = (flags & CONTACT_CACHED) !== 0;
    }
    for (let i = 0; i < this.jointList.length; i++) {
      const j = this.jointList[i]!, oi = JOINT_INTS * i;
      j.loadState(s.joints, s.jointInts[oi + JI_OFFSET]!);
      const flags = s.jointInts[oi + JI_FLAGS]!;
      j.broken = (flags & JOINT_BROKEN) !== 0;
      j.breakReported = (flags & JOINT_BREAK_REPORTED) !== 0;
    }
    for (let i = 0; i < this.steppers.length; i++) {
      const st = s.steppers[i];
      if (st) this.steppers[i]!.restoreState!(st, this);
    }
    const w = s.world;
    this.stepCount = w[W_STEP_COUNT]!;
    this.accumulator = w[W_ACCUMULATOR]!;
    this.nextBodyId = w[W_NEXT_BODY_ID]!;
    getVec(this.gravity, w, W_GRAVITY);
    this.droppedTime = w[W_DROPPED]!;
  }

  /** Throws a SnapshotError unless `restore(s)` can apply every part of `s` to this world. Changes nothing. */
  private validateSnapshot(s: WorldSnapshot): void {
    if (s === null || typeof s !== 'object') throw new SnapshotError('restore: not a footing world snapshot');
    if (s.version !== SNAPSHOT_VERSION) throw new SnapshotError(`restore: snapshot version ${String(s.version)}; this footing restores version ${SNAPSHOT_VERSION}`);
    const w = requireF64(s.world, WORLD_LENGTH, 'world', false);
    const nb = w[W_BODIES]!, nc = w[W_CONTACTS]!, nj = w[W_JOINTS]!;
    if (nb !== this.bodyList.length) throw new SnapshotError(`restore: the snapshot has ${nb} bodies, the world ${this.bodyList.length}`);
    if (nj !== this.jointList.length) throw new SnapshotError(`restore: the snapshot has ${nj} joints, the world ${this.jointList.length}`);
    if (!Number.isInteger(nc) || nc < 0) throw new SnapshotError(`restore: contact count ${nc}`);
    if (!Number.isInteger(w[W_STEP_COUNT]) || w[W_STEP_COUNT]! < 0) throw new SnapshotError(`restore: step count ${w[W_STEP_COUNT]}`);
    if (!(w[W_ACCUMULATOR]! >= 0) || !(w[W_DROPPED]! >= 0)) throw new SnapshotError('restore: negative accumulator or dropped time');
    const nextId = w[W_NEXT_BODY_ID]!;
    if (!Number.isInteger(nextId) || nextId < 0 || nextId > PAIR_KEY_SCALE) throw new SnapshotError(`restore: next body id ${nextId}`);

    const f = requireF64(s.bodies, BODY_STRIDE * nb, 'bodies', false);
    const fi = requireI32(s.bodyInts, BODY_INTS * nb, 'bodyInts');
    const seen = new Set<number>();
    const scratch = new Float64Array(3);
    for (let i = 0; i < nb; i++) {
      const o = BODY_STRIDE * i, oi = BODY_INTS * i;
      const id = fi[oi + BI_ID]!;
      const b = this.bodyById.get(id);
      if (!b) throw new SnapshotError(`restore: body ${id} of the snapshot is not in this world`);
      if (seen.has(id)) throw new SnapshotError(`restore: body ${id} appears twice in the snapshot`);
      seen.add(id);
      if (id >= nextId) throw new SnapshotError(`restore: body ${id} is not below the snapshot's next body id ${nextId}`);
      requireSameBody(b, f, fi, i, scratch);
      requireUnitQuat(f, o + B_ROTATION, `body ${id} rotation`);
      requireUnitQuat(f, o + B_PREV_ROTATION, `body ${id} previousRotation`);
      requireUnitQuat(f, o + B_TARGET_ROTATION, `body ${id} kinematic target rotation`);
      const next = fi[oi + BI_ISLAND_NEXT]!;
      if (next !== -1 && !this.bodyById.has(next)) throw new SnapshotError(`restore: body ${id}'s island link names body ${next}, which is not in this world`);
    }

    const row = CONTACT_STRIDE + CONTACT_EXTRA;
    requireF64(s.contacts, row * nc, 'contacts', false);
    const ci = requireI32(s.contactInts, CONTACT_INTS * nc, 'contactInts');
    const pairs = new Set<number>();
    for (let i = 0; i < nc; i++) {
      const oi = CONTACT_INTS * i;
      const a = ci[oi + CI_A]!, b = ci[oi + CI_B]!;
      if (!this.bodyById.has(a) || !this.bodyById.has(b)) throw new SnapshotError(`restore: contact ${i} names body ${this.bodyById.has(a) ? b : a}, which is not in this world`);
      const key = a < b ? a * PAIR_KEY_SCALE + b : b * PAIR_KEY_SCALE + a;
      if (a === b || pairs.has(key)) throw new SnapshotError(`restore: contact ${i} (bodies ${a}, ${b}) repeats a pair or a body`);
      pairs.add(key);
      const n = ci[oi + CI_POINTS]!;
      if (!(n >= 0 && n <= MAX_MANIFOLD_POINTS)) throw new SnapshotError(`restore: contact ${i} has ${n} points`);
    }

    // The broadphase is checked by loading it into a scratch one.
    const scratchBroadphase = new BroadPhase(FAT_MARGIN);
    if (!(s.broadphaseInts instanceof Int32Array)) throw new SnapshotError('restore: broadphaseInts must be an Int32Array');
    const bounds = s.broadphaseBounds;
    requireF64(bounds, bounds instanceof Float64Array ? bounds.length : 0, 'broadphaseBounds', false);
    try {
      scratchBroadphase.loadState(s.broadphaseInts, bounds);
    } catch (e) {
      throw new SnapshotError(`restore: the broadphase state is inconsistent (${(e as Error).message})`);
    }
    if (scratchBroadphase.proxyCount !== nb) throw new SnapshotError(`restore: the broadphase holds ${scratchBroadphase.proxyCount} proxies for ${nb} bodies`);
    for (let i = 0; i < nb; i++) {
      const oi = BODY_INTS * i, h = fi[oi + BI_PROXY]!;
      if (!scratchBroadphase.isLeaf(h) || scratchBroadphase.getUserData(h) !== fi[oi + BI_ID] || scratchBroadphase.getCategory(h) !== fi[oi + BI_TYPE]) {
        throw new SnapshotError(`restore: body ${fi[oi + BI_ID]}'s broadphase handle ${h} is not its proxy`);
      }
    }

    const ji = requireI32(s.jointInts, JOINT_INTS * nj, 'jointInts');
    let total = 0;
    const own: number[] = [];
    for (let i = 0; i < nj; i++) {
      const j = this.jointList[i]!, oi = JOINT_INTS * i;
      if (ji[oi + JI_KIND] !== j.kind || ji[oi + JI_A] !== j.bodyA.id || ji[oi + JI_B] !== j.bodyB.id) {
        throw new SnapshotError(`restore: joint ${i} is of kind ${ji[oi + JI_KIND]} between bodies ${ji[oi + JI_A]} and ${ji[oi + JI_B]} in the snapshot, of kind ${j.kind} between ${j.bodyA.id} and ${j.bodyB.id} in the world`);
      }
      own.length = 0;
      j.saveState(own);
      if (ji[oi + JI_OFFSET] !== total || ji[oi + JI_LENGTH] !== own.length) throw new SnapshotError(`restore: joint ${i}'s row is truncated or misplaced`);
      total += own.length;
    }
    // Infinity is a joint setting's "none" (limits, break impulse).
    requireF64(s.joints, total, 'joints', true);
    // Each joint's settings go through its checked setters: load them on
    // trial and put the joint's own state back, so that a bad value (a motor
    // speed out of range, an unknown axis mode) is refused before anything
    // is restored.
    for (let i = 0; i < nj; i++) {
      const j = this.jointList[i]!;
      own.length = 0;
      j.saveState(own);
      let error: unknown = null;
      try {
        j.loadState(s.joints, ji[JOINT_INTS * i + JI_OFFSET]!);
      } catch (e) {
        error = e;
      }
      j.loadState(Float64Array.from(own), 0);
      if (error !== null) throw new SnapshotError(`restore: joint ${i}'s settings are refused (${(error as Error).message})`);
    }

    if (!Array.isArray(s.steppers) || s.steppers.length !== this.steppers.length) {
      throw new SnapshotError(`restore: the snapshot has ${Array.isArray(s.steppers) ? s.steppers.length : 'no'} steppers, the world ${this.steppers.length}`);
    }
    for (let i = 0; i < this.steppers.length; i++) {
      const st = this.steppers[i]!, data = s.steppers[i];
      if ((st.snapshotState !== undefined) !== (data !== null && data !== undefined)) throw new SnapshotError(`restore: stepper ${i} has state in only one of the snapshot and the world`);
      if (!data) continue;
      if (!(data.f64 instanceof Float64Array) || !(data.i32 instanceof Int32Array)) throw new SnapshotError(`restore: stepper ${i}'s state must be a Float64Array and an Int32Array`);
      if (st.validateState) st.validateState(data, this);
    }
  }
}

/**
 * How far any point of `body`'s shape can have moved from the pose (from,
 * fromRotation) to its current one: the translation plus the chord of the
 * turn at the bounding radius. A turn by θ moves a point at distance r by
 * 2r·sin(θ/2) ≤ 2r·|q − q0| (q0's sign chosen nearer q, where |q − q0| =
 * 2 sin(θ/4)). Takes no double argument (V8 would box it); small enough to
 * be inlined, so its result is not boxed either (checked by the allocation
 * test).
 */
function motionBound(body: RigidBody, from: Readonly<Vec3>, fromRotation: Readonly<Quat>): number {
  const p = body.position, q = body.rotation;
  const dx = p.x - from.x, dy = p.y - from.y, dz = p.z - from.z;
  const s = q.x * fromRotation.x + q.y * fromRotation.y + q.z * fromRotation.z + q.w * fromRotation.w < 0 ? -1 : 1;
  const ex = q.x - s * fromRotation.x, ey = q.y - s * fromRotation.y, ez = q.z - s * fromRotation.z, ew = q.w - s * fromRotation.w;
  return Math.sqrt(dx * dx + dy * dy + dz * dz) + 2 * body.boundingRadius * Math.sqrt(ex * ex + ey * ey + ez * ez + ew * ew);
}

/** jointSettings.jointIterations' upper bound: each sweep costs about as much as the rest of a ragdoll step. */
const MAX_JOINT_ITERATIONS = 100;

/**
 * A step in (0, MAX_TIME_STEP]. Longer steps are refused rather than
 * sub-divided: `step` is one fixed step of the pipeline (one set of events,
 * one stepper call); `advance` is the call that splits frame time.
 */
function checkTimeStep(dt: number, field: string): void {
  if (typeof dt !== 'number' || !(dt > 0) || !(dt <= MAX_TIME_STEP)) {
    const hint = field === 'dt' ? '; world.advance(seconds) covers longer times in fixed steps' : '';
    throw new RangeError(`${field} must be a number in (0, ${MAX_TIME_STEP}] seconds (got ${String(dt)})${hint}`);
  }
}

function checkInt(v: number, lo: number, hi: number, field: string): void {
  if (!Number.isInteger(v) || v < lo || v > hi) throw new RangeError(`solver.${field} must be an integer in [${lo}, ${hi}] (got ${String(v)})`);
}

function checkNonNegative(v: number, field: string): void {
  if (!Number.isFinite(v) || v < 0) throw new RangeError(`solver.${field} must be a finite number ≥ 0 (got ${String(v)})`);
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    const p = parent[i]!;
    parent[i] = parent[p]!;
    i = p;
  }
  return i;
}

function union(parent: Int32Array, a: number, b: number): void {
  const ra = find(parent, a);
  const rb = find(parent, b);
  if (ra === rb) return;
  // Smaller slot becomes the root: deterministic.
  if (ra < rb) parent[rb] = ra;
  else parent[ra] = rb;
}

export type { WorldEventMap, WorldSnapshot, StepperSnapshot };
