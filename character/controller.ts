/**
 * CharacterController: a kinematic capsule moved by Catto's position solver
 * ("Understanding Constraints", GDC 2014; the design: docs/character.md).
 *
 * One `move(displacement)`:
 *   1. gather   — overlap scan with the capsule inflated by skin + gather
 *                 distance at the start position: every nearby surface becomes
 *                 a plane n · p ≥ d for the capsule centre p (n out of the
 *                 obstacle, d places the surface skinWidth away). The tangent
 *                 plane of a convex obstacle's Minkowski sum is conservative, so
 *                 a point that satisfies it never overlaps that obstacle.
 *   2. recover  — if the real capsule overlaps something, solve from the start
 *                 position against those planes only (bounded by the radius:
 *                 no teleporting through walls).
 *   3. sweep + solve — NGS from the target gives a solve point; a capsule cast
 *                 from the start towards it either arrives (accept) or hits a
 *                 new plane (add, solve again); stop when successive solve
 *                 points agree within `tolerance`. The cast is the safety net:
 *                 the character never moves past the first impact of a cast.
 *   4. step up  — blocked by a wall while grounded: try the move raised by
 *                 stepHeight and settle down onto walkable ground (Jolt's
 *                 WalkStairs idea).
 *   5. ground   — a short cast down finds the ground (walkable by its normal,
 *                 or a step edge with walkable ground beside it, tested by a
 *                 ray); when the character was grounded it snaps down by up to
 *                 snapDistance (stairs, slopes).
 *   6. report   — touching flags of the final planes and the bodies touched.
 *   7. push     — after the move, as its own step (Rapier's
 *                 solve_character_collision_impulses): dynamic bodies that
 *                 blocked the move get an impulse at the contact point,
 *                 bounded by pushStrength · dt.
 *
 * Planes steeper than maxSlope that face upwards are added twice: as they are
 * (the character slides down them) and flattened to horizontal (a wall: the
 * character cannot walk up them).
 *
 * Character vs character: by default every controller owns a kinematic
 * capsule body in the world (`body`, userData = the controller). Other
 * controllers see it in their queries and treat it as a soft plane (finite
 * push limit), like dynamic bodies. Rigid bodies collide with it too.
 */
import { Capsule, MAX_POSITION, OverlapCollector, QueryRegion, quat, SnapshotError, type Quat, type RigidBody, type ShapeCastHit, type RaycastHit, type Vec3, type World, type OverlapOptions, type ShapeCastOptions, type RaycastOptions } from '../src/index';
import { CharacterPlane, clipVector, solvePlanesWith, type SlopeLimit } from './plane-solver';

/** Live-tunable settings (checked at the start of every move; length settings at most MAX_CHARACTER_LENGTH = 1000 m). Units: metres, kilograms, seconds, newtons. */
export interface CharacterSettings {
  /** Steepest walkable slope, degrees in [0, 90]. Default 45 (Rapier 45°, Jolt 50°). */
  maxSlopeDegrees: number;
  /** Highest ledge climbed by walking into it, metres ≥ 0. Default 0.3 (Jolt's stair walk 0.4, Rapier's autostep 0.25–0.5). */
  stepHeight: number;
  /** Smallest horizontal move tried when stepping up, metres ≥ 0. Default 0.1. */
  minStepForward: number;
  /** Largest drop the character stays glued to the ground over while grounded, metres ≥ 0. Default 0.3 (Jolt stick-to-floor 0.5, Rapier snap 0.2). */
  snapDistance: number;
  /** Gap kept between the capsule and geometry, metres ≥ 0. Default 0.01 (Rapier offset 0.01, Jolt padding 0.02). */
  skinWidth: number;
  /** NGS iterations per solve, integer in [1, 1000]. Default 32 (a 30° wedge converges by 0.75 per iteration). */
  maxIterations: number;
  /** Sweep + solve rounds per move, integer in [1, 100]. Default 5 (Jolt's collision iterations 5). */
  maxSweeps: number;
  /** Convergence tolerance of NGS and of successive solve points, metres in (0, 1]. Default 1e-4. */
  tolerance: number;
  /** Extra contact distance: a plane within skinWidth + slop counts as touching (grounding, clipping) so that resting contacts do not flicker, metres ≥ 0. Default 0.002. */
  slop: number;
  /** Extra radius of the overlap scan that gathers planes before sweeping, metres ≥ 0. Default 0.05. */
  gatherDistance: number;
  /** Groups the character collides with (32 bits: an integer in [0, 2³² − 1]). Default 0xffffffff. */
  collisionMask: number;
  /** Largest force the character exerts on dynamic bodies, newtons in [0, 1e6]. Default 300: a person's sustained push; moves a 50 kg crate on μ 0.5, not a 100 kg one (Jolt's mMaxStrength is 100, Babylon's characterStrength unbounded; docs/babylon.md, "Pushing"). */
  pushStrength: number;
  /** Mass used for pushing (impulse = mass × approach speed, capped by pushStrength·dt), kg in (0, 1e6]. Default 80 (Jolt 70). */
  characterMass: number;
}

export interface CharacterControllerOptions extends Partial<CharacterSettings> {
  /** Capsule radius, metres > 0. Default 0.3. */
  radius?: number;
  /** Half-length of the capsule's inner segment, metres > 0. Default 0.6 (total height 1.8). */
  halfHeight?: number;
  /** Capsule centre. Default (0, 0, 0). */
  position?: Readonly<Vec3>;
  /** Unit up vector (the capsule's axis, the slope reference). Default (0, 1, 0). */
  up?: Readonly<Vec3>;
  /** Membership bits of the character's own body. Default 1. */
  collisionGroup?: number;
  /** Create a kinematic capsule body so that other controllers and rigid bodies see the character. Default true. */
  createBody?: boolean;
}

/** Upper bounds of maxIterations and maxSweeps: each sweep is a shape cast plus a solve, and a move runs up to two sets of them. */
export const MAX_CHARACTER_ITERATIONS = 1000;
export const MAX_CHARACTER_SWEEPS = 100;

/** Largest length setting (stepHeight, snapDistance, skinWidth, …), metres: they inflate the capsule and the query region. */
export const MAX_CHARACTER_LENGTH = 1000;
/** Longest displacement one move accepts, metres. */
export const MAX_CHARACTER_DISPLACEMENT = 1e6;
const LENGTH_FIELDS: readonly ('stepHeight' | 'minStepForward' | 'snapDistance' | 'skinWidth' | 'slop' | 'gatherDistance')[] =
  ['stepHeight', 'minStepForward', 'snapDistance', 'skinWidth', 'slop', 'gatherDistance'];

const DEFAULT_SETTINGS: Readonly<CharacterSettings> = {
  maxSlopeDegrees: 45, stepHeight: 0.3, minStepForward: 0.1, snapDistance: 0.3, skinWidth: 0.01, maxIterations: 32, maxSweeps: 5,
  tolerance: 1e-4, slop: 0.002, gatherDistance: 0.05, collisionMask: 0xffffffff, pushStrength: 300, characterMass: 80,
};

/** Largest number of planes one move keeps (per plane set). */
export const MAX_CHARACTER_PLANES = 48;
const MAX_HIT_BODIES = 32;
/** Width of the horizontal offset used to look for walkable ground beside a step edge, metres. */
const EDGE_PROBE_OFFSET = 0.02;

/** Result of `move`, one object reused by every call (copy what you keep). */
export class MoveResult {
  /** Capsule centre after the move. */
  readonly position: Vec3 = { x: 0, y: 0, z: 0 };
  /**
   * Where the last shape cast of the solve loop stopped (capsule centre at
   * the hit, or at the end of the sweep when nothing was hit); valid when
   * `sweeps` > 0. For debug views.
   */
  readonly castPosition: Vec3 = { x: 0, y: 0, z: 0 };
  /** Whether that cast hit something. */
  castHit = false;
  /** Standing on walkable ground. */
  grounded = false;
  /** Touching ground steeper than maxSlope (and not grounded). */
  sliding = false;
  /** Normal of the ground (or of the steep surface when sliding), else `up`. */
  readonly groundNormal: Vec3 = { x: 0, y: 1, z: 0 };
  readonly groundPoint: Vec3 = { x: 0, y: 0, z: 0 };
  groundBody: RigidBody | null = null;
  /** Velocity of the ground body at the ground point (0 for static ground). */
  readonly groundVelocity: Vec3 = { x: 0, y: 0, z: 0 };
  /** The planes of the final solve (first `planeCount` entries are valid). */
  planes: readonly CharacterPlane[] = [];
  planeCount = 0;
  /** Solve points of the sweeps, in order (first `solvePointCount` entries are valid). */
  solvePoints: Vec3[] = [];
  solvePointCount = 0;
  /** NGS iterations summed over all solves of the move, and the largest of one solve (≤ maxIterations). */
  iterations = 0;
  maxSolveIterations = 0;
  /** Sweeps (shape casts of the solve loop) used. */
  sweeps = 0;
  /** Bodies touched or pushed during the move (first `hitBodyCount` entries are valid). */
  readonly hitBodies: (RigidBody | null)[] = [];
  hitBodyCount = 0;
  steppedUp = false;
  snapped = false;
  /** The start position overlapped geometry and was pushed out. */
  recovered = false;
}

/** Format version of CharacterSnapshot and WalkerSnapshot. */
export const CHARACTER_SNAPSHOT_VERSION = 1;

/**
 * The state of a CharacterController that its next move reads (see
 * `CharacterController.snapshot`). `f64`: position 3, radius, half height,
 * the result's position 3, ground normal 3, ground point 3, ground velocity
 * 3, cast position 3, then per plane of the last move normal 3, distance,
 * push, push limit, point 3. `i32`: the controller's body id, the ground
 * body id (−1 none), flags (CS_*), the plane count, then per plane its body
 * id, flattened and touching.
 */
export interface CharacterSnapshot {
  readonly version: number;
  readonly f64: Float64Array;
  readonly i32: Int32Array;
}

const CS_F_HEADER = 20, CS_F_PLANE = 9, CS_I_HEADER = 4, CS_I_PLANE = 3;
const CS_GROUNDED = 1, CS_SLIDING = 2, CS_STEPPED_UP = 4, CS_SNAPPED = 8, CS_RECOVERED = 16, CS_CAST_HIT = 32;

/** Planes of one solve with their touching flags. */
class PlaneSet {
  readonly planes: CharacterPlane[] = [];
  readonly touching = new Uint8Array(MAX_CHARACTER_PLANES);
  count = 0;
  constructor() {
    for (let i = 0; i < MAX_CHARACTER_PLANES; i++) this.planes.push(new CharacterPlane());
  }
}

const SETTING_FIELDS: readonly (keyof CharacterSettings)[] = [
  'maxSlopeDegrees', 'stepHeight', 'minStepForward', 'snapDistance', 'skinWidth', 'maxIterations', 'maxSweeps', 'tolerance', 'slop',
  'gatherDistance', 'collisionMask', 'pushStrength', 'characterMass',
];

function requireVec(v: Readonly<Vec3>, field: string): void {
  if (v === null || typeof v !== 'object') throw new TypeError(`${field} must be a { x, y, z } object (got ${String(v)})`);
  if (!Number.isFinite(v.x) || !Number.isFinite(v.y) || !Number.isFinite(v.z)) throw new RangeError(`${field} must be finite (got (${v.x}, ${v.y}, ${v.z}))`);
}

/** A position the character may be put at: each coordinate within ±MAX_POSITION (its body's limit). */
function requirePositionInRange(p: Readonly<Vec3>, field: string): void {
  requireVec(p, field);
  if (!(Math.abs(p.x) <= MAX_POSITION && Math.abs(p.y) <= MAX_POSITION && Math.abs(p.z) <= MAX_POSITION)) {
    throw new RangeError(`${field} must have each component within ±${MAX_POSITION} m (MAX_POSITION; got (${p.x}, ${p.y}, ${p.z}))`);
  }
}

function checkSetting(name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`CharacterController: ${name} must be a finite number ≥ 0 (got ${String(value)})`);
  }
}

export class CharacterController {
  readonly world: World;
  /** Live settings; validated at the start of each move. */
  readonly settings: CharacterSettings;
  /** Unit up vector. */
  readonly up: Readonly<Vec3>;
  /** Capsule orientation (local Y along up). */
  readonly rotation: Readonly<Quat>;
  /**
   * The character's kinematic body (null with createBody: false). If the
   * body is removed from the world (world.removeBody), the controller
   * carries on without one (as with createBody: false) from its next call.
   */
  body: RigidBody | null = null;
  /** The last move's result (also returned by move). */
  readonly result = new MoveResult();

  private radiusValue: number;
  private halfHeightValue: number;
  private shape: Capsule;
  private gatherShape: Capsule;
  private gatherInflation = -1;
  private readonly collisionGroup: number;
  private readonly pos: Vec3 = { x: 0, y: 0, z: 0 };
  /** cos(maxSlopeDegrees), refreshed when the settings change; handed to clipVector. */
  private readonly slope: SlopeLimit = { cosMaxSlope: Math.cos(Math.PI / 4) };
  /** The settings as last validated (order of SETTING_FIELDS); compared each move instead of re-validating. */
  private readonly validated = new Float64Array(13).fill(NaN);
  /** Push limit of soft planes (dynamic bodies, other characters) and the time step, of the move in progress. */
  private softLimit = 0;
  private stepDt = 1 / 60;
  /**
   * The plane being added: callers fill its normal, distance, pushLimit, body
   * and point, then call addPlane (an object, not double arguments:
   * CONTRIBUTING.md, hot path). `flatPlane` is addPlane's own for the
   * flattened copy.
   */
  private readonly newPlane = new CharacterPlane();
  private readonly flatPlane = new CharacterPlane();

  private setA = new PlaneSet();
  private setB = new PlaneSet();
  private readonly collector = new OverlapCollector();
  private readonly overlapOptions: OverlapOptions;
  /** Candidate bodies of the move in progress (see World.fillQueryRegion). */
  private readonly region = new QueryRegion();
  private readonly regionBox = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
  private readonly castOptions: ShapeCastOptions;
  private readonly rayOptions: RaycastOptions;
  private readonly castHit: ShapeCastHit;
  private readonly rayHit: RaycastHit;
  // scratch owned by this controller (each used by one method at a time)
  private readonly start: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly target: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly solvePoint: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly prevSolve: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly delta: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly safe: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly moved: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly stepPos: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly stepMoved: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly stepDisp: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly horizontal: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly castDir: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly probeFrom: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly probeTo: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly impulse: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly pointVel: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly carryLocal: Vec3 = { x: 0, y: 0, z: 0 };
  /** Turn of the ground body about `up` during the last `followGround`, radians (right-handed). */
  groundTurn = 0;
  /** The non-static body the last move ended grounded on, and its pose at that moment (see followGround). */
  private carrier: RigidBody | null = null;
  private readonly carrierPosition: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly carrierRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };
  private readonly carryTurn: Quat = { x: 0, y: 0, z: 0, w: 1 };
  private readonly carryOptions: ShapeCastOptions;

  constructor(world: World, options: CharacterControllerOptions = {}) {
    this.world = world;
    const radius = options.radius ?? 0.3;
    const halfHeight = options.halfHeight ?? 0.6;
    if (!(radius > 0) || !Number.isFinite(radius)) throw new RangeError(`CharacterController: radius must be a finite number > 0 (got ${String(radius)})`);
    if (!(halfHeight > 0) || !Number.isFinite(halfHeight)) throw new RangeError(`CharacterController: halfHeight must be a finite number > 0 (got ${String(halfHeight)})`);
    this.radiusValue = radius;
    this.halfHeightValue = halfHeight;
    const s: CharacterSettings = { ...DEFAULT_SETTINGS };
    for (const k of SETTING_FIELDS) {
      const v = options[k];
      if (v !== undefined) s[k] = v;
    }
    this.settings = s;
    const up = options.up ?? { x: 0, y: 1, z: 0 };
    requireVec(up, 'CharacterController: up');
    const ul = Math.hypot(up.x, up.y, up.z);
    if (!(ul > 1e-9) || !Number.isFinite(ul)) throw new RangeError('CharacterController: up must be a finite non-zero vector');
    this.up = { x: up.x / ul, y: up.y / ul, z: up.z / ul };
    this.rotation = quat.fromUnitVectors(quat.quat(), { x: 0, y: 1, z: 0 }, this.up);
    const group = options.collisionGroup ?? 1;
    if (typeof group !== 'number' || !Number.isInteger(group) || group < -0x80000000 || group > 0xffffffff) {
      throw new RangeError(`CharacterController: collisionGroup must be an integer in [-2^31, 2^32 - 1] (got ${String(group)})`);
    }
    this.collisionGroup = group | 0;
    const p = options.position ?? { x: 0, y: 0, z: 0 };
    requirePositionInRange(p, 'CharacterController: position');
    this.pos.x = p.x; this.pos.y = p.y; this.pos.z = p.z;
    this.shape = new Capsule(radius, halfHeight);
    this.gatherShape = this.shape;
    this.overlapOptions = { collisionGroup: this.collisionGroup, collisionMask: s.collisionMask, exclude: null, collector: this.collector, region: this.region };
    this.castHit = { fraction: 0, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, body: null as unknown as RigidBody, triangle: -1 };
    this.rayHit = { body: null as unknown as RigidBody, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, distance: 0, fraction: 0, triangle: -1 };
    this.castOptions = { collisionGroup: this.collisionGroup, collisionMask: s.collisionMask, exclude: null, out: this.castHit, region: this.region };
    this.rayOptions = { collisionGroup: this.collisionGroup, collisionMask: s.collisionMask, exclude: null, out: this.rayHit, region: this.region };
    // The carry sweep ignores the body that carries: the character starts
    // inside a lift that rose during the step (see followGround).
    this.carryOptions = { collisionGroup: this.collisionGroup, collisionMask: s.collisionMask, exclude: null, out: this.castHit, filter: (b) => b !== this.carrier };
    this.checkSettings();
    if (options.createBody ?? true) this.createOwnBody();
    const r = this.result;
    r.position.x = p.x; r.position.y = p.y; r.position.z = p.z;
    r.groundNormal.x = this.up.x; r.groundNormal.y = this.up.y; r.groundNormal.z = this.up.z;
    r.planes = this.setA.planes;
    for (let i = 0; i < MAX_HIT_BODIES; i++) r.hitBodies.push(null);
  }

  /** Capsule centre. */
  get position(): Readonly<Vec3> { return this.pos; }
  /** cos(maxSlopeDegrees) as of the last settings check. */
  get cosMaxSlope(): number { return this.slope.cosMaxSlope; }
  get radius(): number { return this.radiusValue; }
  get halfHeight(): number { return this.halfHeightValue; }
  /** The capsule used for queries. */
  get capsule(): Capsule { return this.shape; }

  /** Teleports the character (no collision); clears the grounded state. */
  setPosition(p: Readonly<Vec3>): void {
    requirePositionInRange(p, 'CharacterController.setPosition: position');
    this.pos.x = p.x; this.pos.y = p.y; this.pos.z = p.z;
    this.result.grounded = false;
    this.carrier = null;
    this.liveBody()?.setPosition(this.pos);
  }

  /**
   * Changes the capsule's segment half-length keeping the feet in place
   * (crouch / stand up). Returns false and changes nothing when the new
   * capsule would overlap geometry (standing up under a low ceiling).
   */
  setHalfHeight(halfHeight: number): boolean {
    if (!(halfHeight > 0) || !Number.isFinite(halfHeight)) throw new RangeError(`CharacterController: halfHeight must be a finite number > 0 (got ${String(halfHeight)})`);
    const dh = halfHeight - this.halfHeightValue;
    if (dh === 0) return true;
    const c = { x: this.pos.x + this.up.x * dh, y: this.pos.y + this.up.y * dh, z: this.pos.z + this.up.z * dh };
    const candidate = new Capsule(this.radiusValue, halfHeight);
    this.liveBody();
    if (dh > 0) {
      this.syncQueryOptions();
      const contacts = this.world.overlap(candidate, c, this.rotation, this.overlapOptions);
      for (let i = 0; i < contacts.length; i++) if (contacts[i]!.depth > 1e-4) return false;
    }
    this.halfHeightValue = halfHeight;
    this.shape = candidate;
    this.gatherInflation = -1;
    this.pos.x = c.x; this.pos.y = c.y; this.pos.z = c.z;
    this.result.position.x = c.x; this.result.position.y = c.y; this.result.position.z = c.z;
    if (this.body) {
      this.world.removeBody(this.body);
      this.body = null;
      this.createOwnBody();
    }
    return true;
  }

  /**
   * The controller's state for rollback or a worker (typed arrays, see
   * CharacterSnapshot): position, grounded and sliding state, ground body
   * and velocity, and the planes of the last move (which `clipVelocity`
   * reads). The character's body is in the world's snapshot; snapshot and
   * restore both. Settings are not included.
   */
  snapshot(): CharacterSnapshot {
    const r = this.result;
    const set = r.planes === this.setA.planes ? this.setA : this.setB;
    const n = r.planeCount;
    const f64 = new Float64Array(CS_F_HEADER + CS_F_PLANE * n);
    const i32 = new Int32Array(CS_I_HEADER + CS_I_PLANE * n);
    f64[0] = this.pos.x; f64[1] = this.pos.y; f64[2] = this.pos.z;
    f64[3] = this.radiusValue; f64[4] = this.halfHeightValue;
    putVec3(f64, 5, r.position); putVec3(f64, 8, r.groundNormal); putVec3(f64, 11, r.groundPoint);
    putVec3(f64, 14, r.groundVelocity); putVec3(f64, 17, r.castPosition);
    i32[0] = this.body?.id ?? -1;
    i32[1] = r.groundBody?.id ?? -1;
    i32[2] = (r.grounded ? CS_GROUNDED : 0) | (r.sliding ? CS_SLIDING : 0) | (r.steppedUp ? CS_STEPPED_UP : 0) |
      (r.snapped ? CS_SNAPPED : 0) | (r.recovered ? CS_RECOVERED : 0) | (r.castHit ? CS_CAST_HIT : 0);
    i32[3] = n;
    for (let k = 0; k < n; k++) {
      const q = set.planes[k]!, o = CS_F_HEADER + CS_F_PLANE * k, oi = CS_I_HEADER + CS_I_PLANE * k;
      putVec3(f64, o, q.normal);
      f64[o + 3] = q.distance; f64[o + 4] = q.push; f64[o + 5] = q.pushLimit;
      putVec3(f64, o + 6, q.point);
      i32[oi] = q.body?.id ?? -1;
      i32[oi + 1] = q.flattened ? 1 : 0;
      i32[oi + 2] = set.touching[k]!;
    }
    return { version: CHARACTER_SNAPSHOT_VERSION, f64, i32 };
  }

  /**
   * Restores `snapshot()`'s state. Throws a SnapshotError and changes
   * nothing when it does not fit: another version, NaN, truncated arrays,
   * another capsule size or body, or bodies that are not in the world.
   */
  restore(snapshot: CharacterSnapshot): void {
    this.validateSnapshot(snapshot);
    const f64 = snapshot.f64, i32 = snapshot.i32;
    const r = this.result, w = this.world;
    this.pos.x = f64[0]!; this.pos.y = f64[1]!; this.pos.z = f64[2]!;
    getVec3(r.position, f64, 5); getVec3(r.groundNormal, f64, 8); getVec3(r.groundPoint, f64, 11);
    getVec3(r.groundVelocity, f64, 14); getVec3(r.castPosition, f64, 17);
    r.groundBody = i32[1]! >= 0 ? w.getBodyById(i32[1]!)! : null;
    const flags = i32[2]!;
    r.grounded = (flags & CS_GROUNDED) !== 0;
    r.sliding = (flags & CS_SLIDING) !== 0;
    r.steppedUp = (flags & CS_STEPPED_UP) !== 0;
    r.snapped = (flags & CS_SNAPPED) !== 0;
    r.recovered = (flags & CS_RECOVERED) !== 0;
    r.castHit = (flags & CS_CAST_HIT) !== 0;
    const n = i32[3]!, set = this.setA;
    for (let k = 0; k < n; k++) {
      const q = set.planes[k]!, o = CS_F_HEADER + CS_F_PLANE * k, oi = CS_I_HEADER + CS_I_PLANE * k;
      getVec3(q.normal, f64, o);
      q.distance = f64[o + 3]!; q.push = f64[o + 4]!; q.pushLimit = f64[o + 5]!;
      getVec3(q.point, f64, o + 6);
      q.body = i32[oi]! >= 0 ? w.getBodyById(i32[oi]!)! : null;
      q.flattened = i32[oi + 1] === 1;
      set.touching[k] = i32[oi + 2]!;
    }
    set.count = n;
    r.planes = set.planes;
    r.planeCount = n;
  }

  /** @internal Throws a SnapshotError unless `restore(s)` can apply `s`. */
  validateSnapshot(s: CharacterSnapshot): void {
    if (s === null || typeof s !== 'object') throw new SnapshotError('CharacterController.restore: not a character snapshot');
    if (s.version !== CHARACTER_SNAPSHOT_VERSION) throw new SnapshotError(`CharacterController.restore: snapshot version ${String(s.version)}; this footing restores version ${CHARACTER_SNAPSHOT_VERSION}`);
    const f64 = s.f64, i32 = s.i32;
    if (!(f64 instanceof Float64Array) || !(i32 instanceof Int32Array)) throw new SnapshotError('CharacterController.restore: f64 must be a Float64Array and i32 an Int32Array');
    if (i32.length < CS_I_HEADER) throw new SnapshotError('CharacterController.restore: i32 truncated');
    const n = i32[3]!;
    if (!(n >= 0 && n <= MAX_CHARACTER_PLANES)) throw new SnapshotError(`CharacterController.restore: ${n} planes`);
    if (f64.length !== CS_F_HEADER + CS_F_PLANE * n || i32.length !== CS_I_HEADER + CS_I_PLANE * n) throw new SnapshotError('CharacterController.restore: truncated or of another size');
    for (let k = 0; k < f64.length; k++) {
      const v = f64[k]!;
      // A plane's push limit is Infinity for static geometry.
      const isLimit = k >= CS_F_HEADER && (k - CS_F_HEADER) % CS_F_PLANE === 5;
      if (v !== v || (!isLimit && !Number.isFinite(v))) throw new SnapshotError(`CharacterController.restore: value ${k} is ${v}`);
    }
    if (f64[3] !== this.radiusValue || f64[4] !== this.halfHeightValue) {
      throw new SnapshotError(`CharacterController.restore: the snapshot's capsule (radius ${f64[3]}, half height ${f64[4]}) differs from this one (${this.radiusValue}, ${this.halfHeightValue})`);
    }
    if (i32[0] !== (this.body?.id ?? -1)) throw new SnapshotError(`CharacterController.restore: the snapshot's body ${i32[0]} is not this controller's (${this.body?.id ?? -1})`);
    const w = this.world;
    const ids = [i32[1]!];
    for (let k = 0; k < n; k++) ids.push(i32[CS_I_HEADER + CS_I_PLANE * k]!);
    for (const id of ids) {
      if (id !== -1 && w.getBodyById(id) === undefined) throw new SnapshotError(`CharacterController.restore: body ${id} of the snapshot is not in the world`);
    }
  }

  /** Removes the character's body from the world. */
  dispose(): void {
    const body = this.liveBody();
    if (body) this.world.removeBody(body);
    this.body = null;
  }

  /** The body, after forgetting it if it was removed from the world. */
  private liveBody(): RigidBody | null {
    const b = this.body;
    if (b !== null && b.world !== this.world) this.body = null;
    return this.body;
  }

  /**
   * Removes from `velocity` the part pointing into the planes the last move
   * touched (velocity clipping). With `keepGroundSpeed`, walkable planes are
   * skipped (a walker on a slope keeps its horizontal speed).
   */
  clipVelocity(velocity: Vec3, keepGroundSpeed = false): Vec3 {
    const set = this.result.planes === this.setA.planes ? this.setA : this.setB;
    clipVector(velocity, set.planes, set.count, set.touching, this.up, this.slope, keepGroundSpeed);
    return velocity;
  }

  /**
   * Moves the character by `displacement` (metres) as far as geometry allows.
   * `dt` (seconds, default 1/60) only scales the impulses given to dynamic bodies.
   * Returns the reused result object.
   */
  move(displacement: Readonly<Vec3>, dt = 1 / 60): MoveResult {
    if (displacement === null || typeof displacement !== 'object') {
      throw new TypeError(`CharacterController.move: displacement must be a { x, y, z } object (got ${String(displacement)})`);
    }
    if (!(Math.abs(displacement.x) <= MAX_CHARACTER_DISPLACEMENT && Math.abs(displacement.y) <= MAX_CHARACTER_DISPLACEMENT && Math.abs(displacement.z) <= MAX_CHARACTER_DISPLACEMENT)) {
      throw new RangeError(`CharacterController.move: displacement must be finite, each component within ±${MAX_CHARACTER_DISPLACEMENT} m (got (${displacement.x}, ${displacement.y}, ${displacement.z}))`);
    }
    if (!(dt > 0) || !Number.isFinite(dt)) throw new RangeError(`CharacterController.move: dt must be a finite number > 0 (got ${String(dt)})`);
    this.checkSettings();
    this.checkReach(displacement);
    this.liveBody();
    this.syncQueryOptions();
    const s = this.settings;
    const r = this.result;
    const up = this.up;
    const wasGrounded = r.grounded;
    r.solvePointCount = 0;
    r.iterations = 0;
    r.maxSolveIterations = 0;
    r.sweeps = 0;
    r.hitBodyCount = 0;
    r.steppedUp = false;
    r.snapped = false;
    r.recovered = false;

    const start = this.start;
    start.x = this.pos.x; start.y = this.pos.y; start.z = this.pos.z;
    const dispLen = Math.sqrt(displacement.x * displacement.x + displacement.y * displacement.y + displacement.z * displacement.z);
    this.softLimit = dispLen + this.radiusValue * 0.25;
    this.stepDt = dt;
    // One broadphase walk for the whole move: every overlap and cast below
    // stays within this box (queries reaching outside it, or made after
    // something moved, go to the broadphase themselves).
    // Across `up` the move reaches the radius, the gather inflation, the
    // displacement and the step-up's forward move; along `up` also the
    // capsule's axis, a step's height and the snap. Per axis that is at most
    // across + along·|up_axis| (a cube when up is tilted, a flat box when it
    // is an axis): a tall cube would hand every query the bodies above and
    // below too.
    {
      const across = this.radiusValue + this.gatherInflation + dispLen + s.minStepForward + 0.1;
      const along = this.halfHeightValue + s.stepHeight + s.snapDistance + s.skinWidth;
      const rx = across + along * Math.abs(up.x), ry = across + along * Math.abs(up.y), rz = across + along * Math.abs(up.z);
      const b = this.regionBox;
      b.min.x = start.x - rx; b.min.y = start.y - ry; b.min.z = start.z - rz;
      b.max.x = start.x + rx; b.max.y = start.y + ry; b.max.z = start.z + rz;
      this.world.fillQueryRegion(b, this.region);
    }

    // 1–2. gather and recover
    const main = this.setA;
    if (this.gather(main, start)) this.recover(main, start);

    // 3. sweep + solve
    const moved = this.moved;
    this.solveMove(main, start, displacement, moved);
    let final = main;

    // 4. step up
    const dispUp = displacement.x * up.x + displacement.y * up.y + displacement.z * up.z;
    if (wasGrounded && s.stepHeight > 0 && dispUp <= 1e-9 && this.blockedByWall(main, displacement)) {
      if (this.tryStepUp(start, displacement, moved)) {
        final = this.setB;
        r.steppedUp = true;
      }
    }

    // 5. ground probe and snap
    this.probeGround(r.steppedUp ? this.setB : main, moved, wasGrounded && dispUp <= 1e-9 && !r.steppedUp);

    // 6. touching flags (for clipping) and the bodies touched
    this.finishPlanes(final, moved);
    r.planes = final.planes;
    r.planeCount = final.count;

    this.pos.x = moved.x; this.pos.y = moved.y; this.pos.z = moved.z;
    r.position.x = moved.x; r.position.y = moved.y; r.position.z = moved.z;
    if (this.body) this.body.setPosition(moved);
    const carrier = r.grounded && r.groundBody !== null && !r.groundBody.isStatic ? r.groundBody : null;
    this.carrier = carrier;
    if (carrier !== null) {
      const cp = carrier.position, cq = carrier.rotation;
      this.carrierPosition.x = cp.x; this.carrierPosition.y = cp.y; this.carrierPosition.z = cp.z;
      quat.copy(this.carrierRotation, cq);
    }

    // 7. push the dynamic bodies the final planes pushed against
    this.pushBodies(final, displacement);
    return r;
  }

  /**
   * Carries the character with the body the last move left it standing on
   * (a lift, a turntable, a crate): that body's rigid motion since then,
   * f' = c₁ + R₁ R₀ᵀ (f − c₀) for its pose (c₀, R₀) at the end of the last
   * move and (c₁, R₁) now, applied to the centre f of the capsule's lower
   * sphere (the capsule itself stays upright). Call it after `world.step`
   * and before the next `move`: the character then keeps its place on the
   * body exactly, whatever moved the body (velocities, kinematic targets,
   * several steps, a teleport). The body's velocity times dt would be the
   * next step's motion instead, and would keep the character a step ahead of
   * a lift: above it or inside it.
   *
   * The motion is swept against everything except the carrying body and stops
   * skinWidth short of a hit (a wall or a ceiling in the way). Updates
   * `result.groundPoint` (moved with the body) and `result.groundVelocity`
   * (the body's velocity there now), and sets `groundTurn`. Returns false and
   * does nothing when there is nothing to follow: the last move did not end
   * grounded on a non-static body, or that body was removed.
   */
  followGround(): boolean {
    this.checkSettings();
    this.groundTurn = 0;
    const body = this.carrier;
    if (body === null) return false;
    if (body.world !== this.world) {
      this.carrier = null;
      return false;
    }
    const r = this.result;
    const c0 = this.carrierPosition, q0 = this.carrierRotation;
    const c1 = body.position, q1 = body.rotation;
    const p = this.pos;
    const local = this.carryLocal;
    const d = this.delta;
    // The centre f = p − h·up of the capsule's lower sphere is the point
    // carried (R₀ᵀ(f − c₀), then c₁ + R₁ · that): a sphere keeps its distance
    // to a surface that moves with it, so on a tilting platform the feet
    // stay on the floor; the upright capsule follows f.
    const up = this.up;
    const h = this.halfHeightValue;
    local.x = p.x - h * up.x - c0.x; local.y = p.y - h * up.y - c0.y; local.z = p.z - h * up.z - c0.z;
    quat.inverseRotate(local, q0, local);
    quat.rotate(local, q1, local);
    d.x = c1.x + local.x + h * up.x - p.x; d.y = c1.y + local.y + h * up.y - p.y; d.z = c1.z + local.z + h * up.z - p.z;
    // the ground point rides along
    const g = r.groundPoint;
    local.x = g.x - c0.x; local.y = g.y - c0.y; local.z = g.z - c0.z;
    quat.inverseRotate(local, q0, local);
    quat.rotate(local, q1, local);
    g.x = c1.x + local.x; g.y = c1.y + local.y; g.z = c1.z + local.z;
    body.getPointVelocity(r.groundVelocity, g);
    // turn about up: the twist of ΔR = R₁ R₀ᵀ, angle 2 atan2(v · up, w), wrapped to (−π, π]
    const dq = quat.multiply(this.carryTurn, q1, quat.conjugate(this.carryTurn, q0));
    let turn = 2 * Math.atan2(dq.x * up.x + dq.y * up.y + dq.z * up.z, dq.w);
    if (turn > Math.PI) turn -= 2 * Math.PI;
    else if (turn < -Math.PI) turn += 2 * Math.PI;
    this.groundTurn = turn;
    this.carrierPosition.x = c1.x; this.carrierPosition.y = c1.y; this.carrierPosition.z = c1.z;
    quat.copy(this.carrierRotation, q1);
    const len = Math.sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    if (len < 1e-9) return true;
    this.syncQueryOptions();
    const hit = this.world.shapeCast(this.shape, p, this.rotation, d, this.carryOptions);
    const f = hit === null ? 1 : Math.max(0, hit.fraction - this.settings.skinWidth / len);
    p.x += d.x * f; p.y += d.y * f; p.z += d.z * f;
    r.position.x = p.x; r.position.y = p.y; r.position.z = p.z;
    return true;
  }

  // ------------------------------------------------------------------ internals

  /**
   * Refuses, before anything changes, a move whose reach (the displacement
   * plus the capsule, a step's height, the snap and the skin) could take the
   * character beyond ±MAX_POSITION, where its body's setPosition would throw
   * half-way through the move. (The Walker calls it before it changes its own state.)
   * @internal
   */
  checkReach(d: Readonly<Vec3>): void {
    const s = this.settings, p = this.pos;
    const reach = Math.sqrt(d.x * d.x + d.y * d.y + d.z * d.z) + this.radiusValue + this.halfHeightValue +
      s.stepHeight + s.snapDistance + s.skinWidth + s.minStepForward + 0.1;
    if (Math.abs(p.x) + reach <= MAX_POSITION && Math.abs(p.y) + reach <= MAX_POSITION && Math.abs(p.z) + reach <= MAX_POSITION) return;
    throw new RangeError(`CharacterController.move: the move could take the character from (${p.x}, ${p.y}, ${p.z}) beyond ±${MAX_POSITION} m (MAX_POSITION; reach ${reach} m)`);
  }

  private createOwnBody(): void {
    this.body = this.world.createBody({
      type: 'kinematic', shape: this.shape, position: this.pos, rotation: this.rotation,
      collisionGroup: this.collisionGroup, collisionMask: this.settings.collisionMask, userData: this,
    });
  }

  /**
   * Throws a RangeError naming the first setting out of range; `move` calls
   * it first (and the Walker before it changes anything).
   */
  checkSettings(): void {
    const s = this.settings;
    // Fast path (every move): every setting equals the value last validated
    // (a NaN never equals anything, so it is always validated and rejected).
    const v = this.validated;
    if (
      s.maxSlopeDegrees === v[0] && s.stepHeight === v[1] && s.minStepForward === v[2] && s.snapDistance === v[3] &&
      s.skinWidth === v[4] && s.maxIterations === v[5] && s.maxSweeps === v[6] && s.tolerance === v[7] && s.slop === v[8] &&
      s.gatherDistance === v[9] && s.collisionMask === v[10] && s.pushStrength === v[11] && s.characterMass === v[12] &&
      this.gatherInflation >= 0
    ) return;
    this.validateSettings();
  }

  private validateSettings(): void {
    const s = this.settings;
    for (let i = 0; i < SETTING_FIELDS.length; i++) {
      const k = SETTING_FIELDS[i]!;
      checkSetting(k, s[k]);
    }
    if (s.maxSlopeDegrees > 90) throw new RangeError(`CharacterController: maxSlopeDegrees must be in [0, 90] (got ${s.maxSlopeDegrees})`);
    for (let i = 0; i < LENGTH_FIELDS.length; i++) {
      const k = LENGTH_FIELDS[i]!;
      if (s[k] > MAX_CHARACTER_LENGTH) throw new RangeError(`CharacterController: ${k} must be in [0, ${MAX_CHARACTER_LENGTH}] m (got ${s[k]})`);
    }
    if (s.tolerance > 1) throw new RangeError(`CharacterController: tolerance must be in (0, 1] m (got ${s.tolerance})`);
    if (s.pushStrength > 1e6) throw new RangeError(`CharacterController: pushStrength must be in [0, 1e6] N (got ${s.pushStrength})`);
    if (s.characterMass > 1e6) throw new RangeError(`CharacterController: characterMass must be in (0, 1e6] kg (got ${s.characterMass})`);
    if (s.maxIterations < 1 || s.maxIterations > MAX_CHARACTER_ITERATIONS || !Number.isInteger(s.maxIterations)) {
      throw new RangeError(`CharacterController: maxIterations must be an integer in [1, ${MAX_CHARACTER_ITERATIONS}] (got ${s.maxIterations})`);
    }
    if (s.maxSweeps < 1 || s.maxSweeps > MAX_CHARACTER_SWEEPS || !Number.isInteger(s.maxSweeps)) {
      throw new RangeError(`CharacterController: maxSweeps must be an integer in [1, ${MAX_CHARACTER_SWEEPS}] (got ${s.maxSweeps})`);
    }
    if (!Number.isInteger(s.collisionMask) || s.collisionMask > 0xffffffff) {
      throw new RangeError(`CharacterController: collisionMask must be an integer in [0, 2^32 - 1] (got ${s.collisionMask})`);
    }
    if (!(s.tolerance > 0)) throw new RangeError(`CharacterController: tolerance must be > 0 (got ${s.tolerance})`);
    if (!(s.characterMass > 0)) throw new RangeError(`CharacterController: characterMass must be > 0 (got ${s.characterMass})`);
    this.slope.cosMaxSlope = Math.cos((s.maxSlopeDegrees * Math.PI) / 180);
    const inflation = s.skinWidth + s.slop + s.gatherDistance;
    if (inflation !== this.gatherInflation) {
      // Rebuilt only when a setting changes (not per move).
      this.gatherShape = new Capsule(this.radiusValue + inflation, this.halfHeightValue);
      this.gatherInflation = inflation;
    }
    const needed = 2 * s.maxSweeps + 2;
    const pts = this.result.solvePoints;
    while (pts.length < needed) pts.push({ x: 0, y: 0, z: 0 });
    const v = this.validated;
    v[0] = s.maxSlopeDegrees; v[1] = s.stepHeight; v[2] = s.minStepForward; v[3] = s.snapDistance;
    v[4] = s.skinWidth; v[5] = s.maxIterations; v[6] = s.maxSweeps; v[7] = s.tolerance; v[8] = s.slop;
    v[9] = s.gatherDistance; v[10] = s.collisionMask; v[11] = s.pushStrength; v[12] = s.characterMass;
  }

  private syncQueryOptions(): void {
    const mask = this.settings.collisionMask;
    this.overlapOptions.collisionMask = mask;
    this.overlapOptions.exclude = this.body;
    this.castOptions.collisionMask = mask;
    this.castOptions.exclude = this.body;
    this.rayOptions.collisionMask = mask;
    this.rayOptions.exclude = this.body;
    this.carryOptions.collisionMask = mask;
    this.carryOptions.exclude = this.body;
  }

  private isSoft(body: RigidBody): boolean {
    return body.isDynamic || body.userData instanceof CharacterController;
  }

  /**
   * Overlap scan at `at` with the inflated capsule; fills `set`. A contact of
   * depth δ with the capsule inflated by g means a gap of g − δ, so the plane
   * is n · p ≥ n · at + skin − (g − δ). Returns true when the real capsule
   * overlaps something (depth > g).
   */
  private gather(set: PlaneSet, at: Readonly<Vec3>): boolean {
    set.count = 0;
    const g = this.gatherInflation;
    const skin = this.settings.skinWidth;
    const contacts = this.world.overlap(this.gatherShape, at, this.rotation, this.overlapOptions);
    let overlapping = false;
    const plane = this.newPlane;
    for (let i = 0; i < contacts.length; i++) {
      const c = contacts[i]!;
      const n = c.normal;
      plane.distance = n.x * at.x + n.y * at.y + n.z * at.z + skin - g + c.depth;
      plane.pushLimit = this.isSoft(c.body) ? this.softLimit : Infinity;
      if (c.depth > g + 1e-5) overlapping = true;
      this.addPlane(set, at, plane.set(n, c.body, c.point));
    }
    return overlapping;
  }

  /**
   * Penetration recovery: the inflated scan said the capsule overlaps
   * something; confirm with the real capsule (the contacts of a deep,
   * inflated query are less reliable) and project the start out along the
   * real overlap normals (n · p ≥ n · start + depth + skin), at most one
   * radius per move. The gathered planes stay for the move that follows.
   */
  private recover(set: PlaneSet, start: Vec3): void {
    const contacts = this.world.overlap(this.shape, start, this.rotation, this.overlapOptions);
    if (contacts.length === 0) return;
    const rec = this.setB;
    rec.count = 0;
    const skin = this.settings.skinWidth;
    const plane = this.newPlane;
    plane.pushLimit = Infinity;
    for (let i = 0; i < contacts.length; i++) {
      const c = contacts[i]!;
      const n = c.normal;
      plane.distance = n.x * start.x + n.y * start.y + n.z * start.z + c.depth + skin;
      this.addOnePlane(rec, plane.set(n, c.body, c.point), false);
    }
    const sp = this.solvePoint;
    const it = solvePlanesWith(sp, start, rec.planes, rec.count, this.settings);
    this.countIterations(it);
    let dx = sp.x - start.x, dy = sp.y - start.y, dz = sp.z - start.z;
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const limit = this.radiusValue;
    if (len > limit) {
      const k = limit / len;
      dx *= k; dy *= k; dz *= k;
    }
    start.x += dx; start.y += dy; start.z += dz;
    this.result.recovered = true;
  }

  private countIterations(it: number): void {
    const r = this.result;
    r.iterations += it;
    if (it > r.maxSolveIterations) r.maxSolveIterations = it;
  }

  private recordSolvePoint(p: Readonly<Vec3>): void {
    const r = this.result;
    if (r.solvePointCount >= r.solvePoints.length) return;
    const q = r.solvePoints[r.solvePointCount++]!;
    q.x = p.x; q.y = p.y; q.z = p.z;
  }

  /**
   * Adds `plane` (n · p ≥ d; merging with an existing plane of the same
   * normal: the larger d is the conjunction). Upward-facing planes steeper
   * than maxSlope also get a horizontal copy n_h through the point where the
   * horizontal line through `ref` (the position the plane was found from)
   * meets the plane: ref − t n_h with n · (ref − t n_h) = d ⇒
   * t = (n · ref − d) / (n · n_h), so d_h = n_h · ref − t. Returns false when
   * the set is full.
   */
  private addPlane(set: PlaneSet, ref: Readonly<Vec3>, plane: CharacterPlane): boolean {
    if (!this.addOnePlane(set, plane, false)) return false;
    const n = plane.normal, d = plane.distance;
    const up = this.up;
    const nu = n.x * up.x + n.y * up.y + n.z * up.z;
    if (nu > 1e-3 && nu < this.slope.cosMaxSlope) {
      const flat = this.flatPlane;
      const h = flat.normal;
      h.x = n.x - nu * up.x; h.y = n.y - nu * up.y; h.z = n.z - nu * up.z;
      const hl = Math.sqrt(h.x * h.x + h.y * h.y + h.z * h.z);
      if (hl > 1e-6) {
        h.x /= hl; h.y /= hl; h.z /= hl;
        const pos = ref; // n · n_h = hl
        const t = (n.x * pos.x + n.y * pos.y + n.z * pos.z - d) / hl;
        flat.distance = h.x * pos.x + h.y * pos.y + h.z * pos.z - t;
        flat.pushLimit = plane.pushLimit;
        this.addOnePlane(set, flat.set(h, plane.body, plane.point), true);
      }
    }
    return true;
  }

  /** Adds `plane`'s normal, distance, push limit, body and point to `set` as a plane with the given `flattened`. */
  private addOnePlane(set: PlaneSet, plane: Readonly<CharacterPlane>, flattened: boolean): boolean {
    const n = plane.normal, body = plane.body, point = plane.point;
    const d = plane.distance;
    const pushLimit = plane.pushLimit;
    for (let i = 0; i < set.count; i++) {
      const q = set.planes[i]!;
      if (q.flattened !== flattened) continue;
      const dot = q.normal.x * n.x + q.normal.y * n.y + q.normal.z * n.z;
      if (dot > 0.99999) {
        if (d > q.distance) {
          q.distance = d;
          q.body = body;
          q.point.x = point.x; q.point.y = point.y; q.point.z = point.z;
          q.pushLimit = pushLimit;
        }
        return true;
      }
    }
    if (set.count >= MAX_CHARACTER_PLANES) return false;
    const q = set.planes[set.count++]!;
    q.normal.x = n.x; q.normal.y = n.y; q.normal.z = n.z;
    q.distance = d;
    q.push = 0;
    q.pushLimit = pushLimit;
    q.body = body;
    q.point.x = point.x; q.point.y = point.y; q.point.z = point.z;
    q.flattened = flattened;
    return true;
  }

  /** The sweep + solve loop (docs/character.md); writes the accepted position to `out`. */
  private solveMove(set: PlaneSet, from: Readonly<Vec3>, displacement: Readonly<Vec3>, out: Vec3): void {
    const s = this.settings;
    const r = this.result;
    const target = this.target;
    target.x = from.x + displacement.x; target.y = from.y + displacement.y; target.z = from.z + displacement.z;
    const sp = this.solvePoint;
    const prev = this.prevSolve;
    const delta = this.delta;
    const safe = this.safe;
    safe.x = from.x; safe.y = from.y; safe.z = from.z;
    for (let sweep = 0; sweep < s.maxSweeps; sweep++) {
      const it = solvePlanesWith(sp, target, set.planes, set.count, s);
      this.countIterations(it);
      this.recordSolvePoint(sp);
      delta.x = sp.x - from.x; delta.y = sp.y - from.y; delta.z = sp.z - from.z;
      const len = Math.sqrt(delta.x * delta.x + delta.y * delta.y + delta.z * delta.z);
      if (len < 1e-9) {
        out.x = from.x; out.y = from.y; out.z = from.z;
        return;
      }
      r.sweeps++;
      const hit = this.world.shapeCast(this.shape, from, this.rotation, delta, this.castOptions);
      const reached = hit === null ? 1 : hit.fraction;
      r.castPosition.x = from.x + delta.x * reached; r.castPosition.y = from.y + delta.y * reached; r.castPosition.z = from.z + delta.z * reached;
      r.castHit = hit !== null;
      if (hit === null) {
        out.x = sp.x; out.y = sp.y; out.z = sp.z;
        return;
      }
      // The path is free up to the hit: back off by the skin along the path.
      const f = Math.max(0, hit.fraction - s.skinWidth / len);
      safe.x = from.x + delta.x * f; safe.y = from.y + delta.y * f; safe.z = from.z + delta.z * f;
      // The capsule touches at c = from + fraction·delta: plane n · p ≥ n · c + skin.
      const n = hit.normal;
      const cx = from.x + delta.x * hit.fraction, cy = from.y + delta.y * hit.fraction, cz = from.z + delta.z * hit.fraction;
      const before = set.count;
      const plane = this.newPlane;
      plane.distance = n.x * cx + n.y * cy + n.z * cz + s.skinWidth;
      plane.pushLimit = this.isSoft(hit.body) ? this.softLimit : Infinity;
      const added = this.addPlane(set, from, plane.set(n, hit.body, hit.point));
      const converged = sweep > 0 &&
        (sp.x - prev.x) * (sp.x - prev.x) + (sp.y - prev.y) * (sp.y - prev.y) + (sp.z - prev.z) * (sp.z - prev.z) < s.tolerance * s.tolerance;
      if (!added || converged || (set.count === before && hit.fraction <= 0)) break;
      prev.x = sp.x; prev.y = sp.y; prev.z = sp.z;
    }
    out.x = safe.x; out.y = safe.y; out.z = safe.z;
  }

  /** A wall-like plane (steeper than maxSlope, or flattened) pushed against the horizontal motion. */
  private blockedByWall(set: PlaneSet, displacement: Readonly<Vec3>): boolean {
    const up = this.up;
    const h = this.horizontal;
    const du = displacement.x * up.x + displacement.y * up.y + displacement.z * up.z;
    h.x = displacement.x - du * up.x; h.y = displacement.y - du * up.y; h.z = displacement.z - du * up.z;
    const hl = Math.sqrt(h.x * h.x + h.y * h.y + h.z * h.z);
    if (hl < 1e-6) return false;
    h.x /= hl; h.y /= hl; h.z /= hl;
    for (let i = 0; i < set.count; i++) {
      const q = set.planes[i]!;
      if (q.push <= 0) continue;
      const n = q.normal;
      if (n.x * up.x + n.y * up.y + n.z * up.z >= this.slope.cosMaxSlope) continue;
      if (n.x * h.x + n.y * h.y + n.z * h.z < -0.1) return true;
    }
    return false;
  }

  /**
   * Step up: cast up by stepHeight, move horizontally from there, cast down
   * onto walkable ground. Accepted only if it gets further along the motion
   * than the plain move (`moved`), which it then replaces.
   */
  private tryStepUp(start: Readonly<Vec3>, displacement: Readonly<Vec3>, moved: Vec3): boolean {
    const s = this.settings;
    const up = this.up;
    const h = this.horizontal; // unit horizontal direction from blockedByWall
    const du = displacement.x * up.x + displacement.y * up.y + displacement.z * up.z;
    // Cheap rejection before four queries: a ray along the motion just above
    // stepHeight (from the axis, one radius + margin long) that hits a steep
    // surface means the obstacle is taller than a step.
    {
      const feet = this.halfHeightValue + this.radiusValue;
      const lift = s.stepHeight + 2 * s.skinWidth - feet;
      const from = this.probeFrom, to = this.probeTo;
      from.x = start.x + up.x * lift; from.y = start.y + up.y * lift; from.z = start.z + up.z * lift;
      const reach = this.radiusValue + 3 * s.skinWidth + s.slop;
      to.x = from.x + h.x * reach; to.y = from.y + h.y * reach; to.z = from.z + h.z * reach;
      const ray = this.world.raycast(from, to, this.rayOptions);
      if (ray !== null && ray.normal.x * up.x + ray.normal.y * up.y + ray.normal.z * up.z < this.slope.cosMaxSlope) return false;
    }
    const dir = this.castDir;
    dir.x = up.x * s.stepHeight; dir.y = up.y * s.stepHeight; dir.z = up.z * s.stepHeight;
    const upHit = this.world.shapeCast(this.shape, start, this.rotation, dir, this.castOptions);
    const rise = upHit ? Math.max(0, upHit.fraction * s.stepHeight - s.skinWidth) : s.stepHeight;
    if (rise < 0.01) return false;
    const raised = this.stepPos;
    raised.x = start.x + up.x * rise; raised.y = start.y + up.y * rise; raised.z = start.z + up.z * rise;
    const set = this.setB;
    this.gather(set, raised);
    // horizontal part of the displacement from the raised position
    // Move at least minStepForward: a walker whose speed was clipped by the
    // riser asks for ~1 cm, which leaves the step's nose beside the capsule
    // instead of under it (Jolt tests stairs 0.15 m ahead for the same reason).
    const hd = this.stepDisp;
    hd.x = displacement.x - du * up.x; hd.y = displacement.y - du * up.y; hd.z = displacement.z - du * up.z;
    const hl = Math.sqrt(hd.x * hd.x + hd.y * hd.y + hd.z * hd.z);
    if (hl < s.minStepForward) {
      hd.x = h.x * s.minStepForward; hd.y = h.y * s.minStepForward; hd.z = h.z * s.minStepForward;
    }
    const stepMoved = this.stepMoved;
    this.solveMove(set, raised, hd, stepMoved);
    // settle down onto the step
    const down = rise + s.skinWidth + s.slop;
    dir.x = -up.x * down; dir.y = -up.y * down; dir.z = -up.z * down;
    const hit = this.world.shapeCast(this.shape, stepMoved, this.rotation, dir, this.castOptions);
    if (hit === null) return false;
    // Landing on a step's nose must be under the capsule (contact normal within 60° of up).
    if (!this.isWalkable(hit, stepMoved, 0.5)) return false;
    // A step: the new support point lies above the feet at the start by
    // (0, stepHeight] (not the same floor, not a higher ledge whose nose only
    // touches the capsule's side).
    const feet = this.halfHeightValue + this.radiusValue;
    const supportRise = (hit.point.x - start.x) * up.x + (hit.point.y - start.y) * up.y + (hit.point.z - start.z) * up.z + feet;
    if (supportRise < 0.005 || supportRise > s.stepHeight + s.skinWidth) return false;
    const drop = Math.max(0, hit.fraction * down - s.skinWidth);
    const lx = stepMoved.x - up.x * drop, ly = stepMoved.y - up.y * drop, lz = stepMoved.z - up.z * drop;
    // The raised move may have slid up a slope: never climb more than stepHeight.
    if ((lx - start.x) * up.x + (ly - start.y) * up.y + (lz - start.z) * up.z > s.stepHeight + s.skinWidth) return false;
    const progressStep = (lx - start.x) * h.x + (ly - start.y) * h.y + (lz - start.z) * h.z;
    const progressPlain = (moved.x - start.x) * h.x + (moved.y - start.y) * h.y + (moved.z - start.z) * h.z;
    if (progressStep < progressPlain + 1e-3) return false;
    moved.x = lx; moved.y = ly; moved.z = lz;
    return true;
  }

  /**
   * Ground under a cast hit: walkable by its normal, or an edge (a step's
   * nose) with walkable ground right beside the contact point on either side
   * (rays down just inside and just outside the contact, horizontally), if
   * the contact normal's up component is at least `minEdgeUp`.
   */
  private isWalkable(hit: ShapeCastHit, centre: Readonly<Vec3>, minEdgeUp: number): boolean {
    const up = this.up;
    const n = hit.normal;
    const nu = n.x * up.x + n.y * up.y + n.z * up.z;
    const gn = this.result.groundNormal;
    if (nu >= this.slope.cosMaxSlope) {
      gn.x = n.x; gn.y = n.y; gn.z = n.z;
      return true;
    }
    // An edge touching the capsule's side (nu ≈ 0) is a wall, not a support.
    if (nu < minEdgeUp) return false;
    // horizontal direction from the capsule axis to the contact point
    const p = hit.point;
    let ox = p.x - centre.x, oy = p.y - centre.y, oz = p.z - centre.z;
    const ou = ox * up.x + oy * up.y + oz * up.z;
    ox -= ou * up.x; oy -= ou * up.y; oz -= ou * up.z;
    const ol = Math.sqrt(ox * ox + oy * oy + oz * oz);
    if (ol < 1e-6) return false;
    ox /= ol; oy /= ol; oz /= ol;
    for (let side = -1; side <= 1; side += 2) {
      const from = this.probeFrom;
      const to = this.probeTo;
      const k = side * EDGE_PROBE_OFFSET;
      from.x = p.x + ox * k + up.x * EDGE_PROBE_OFFSET; from.y = p.y + oy * k + up.y * EDGE_PROBE_OFFSET; from.z = p.z + oz * k + up.z * EDGE_PROBE_OFFSET;
      to.x = from.x - up.x * 3 * EDGE_PROBE_OFFSET; to.y = from.y - up.y * 3 * EDGE_PROBE_OFFSET; to.z = from.z - up.z * 3 * EDGE_PROBE_OFFSET;
      const ray = this.world.raycast(from, to, this.rayOptions);
      // A start inside geometry (distance 0) says nothing about the surface beside the edge.
      if (ray === null || ray.distance < 1e-4) continue;
      const rn = ray.normal;
      if (rn.x * up.x + rn.y * up.y + rn.z * up.z >= this.slope.cosMaxSlope) {
        gn.x = rn.x; gn.y = rn.y; gn.z = rn.z;
        return true;
      }
    }
    return false;
  }

  /** Ground detection (a short cast down) and, when `snap`, gluing to ground up to snapDistance below. */
  private probeGround(set: PlaneSet, p: Vec3, snap: boolean): void {
    const s = this.settings;
    const r = this.result;
    const up = this.up;
    // Most frames a gathered walkable plane already touches the capsule
    // (gap ≤ skin + 2 slop ⇔ n · p − d ≤ 2 slop): no cast needed.
    let best: CharacterPlane | null = null;
    let bestUp = this.slope.cosMaxSlope;
    for (let i = 0; i < set.count; i++) {
      const q = set.planes[i]!;
      if (q.flattened) continue;
      const n = q.normal;
      const nu = n.x * up.x + n.y * up.y + n.z * up.z;
      if (nu < bestUp) continue;
      if (n.x * p.x + n.y * p.y + n.z * p.z - q.distance > 2 * s.slop) continue;
      best = q;
      bestUp = nu;
    }
    if (best !== null) {
      r.grounded = true;
      r.sliding = false;
      r.groundNormal.x = best.normal.x; r.groundNormal.y = best.normal.y; r.groundNormal.z = best.normal.z;
      r.groundBody = best.body;
      r.groundPoint.x = best.point.x; r.groundPoint.y = best.point.y; r.groundPoint.z = best.point.z;
      r.groundVelocity.x = 0; r.groundVelocity.y = 0; r.groundVelocity.z = 0;
      if (best.body !== null && !best.body.isStatic) best.body.getPointVelocity(r.groundVelocity, best.point);
      return;
    }
    // Touching means a gap ≤ skin + 2 slop along the surface normal; straight
    // down that is gap / (n · up), so probe far enough for slopes up to ~70°.
    const contact = s.skinWidth + 2 * s.slop;
    const reach = contact / 0.34;
    const len = snap ? Math.max(s.snapDistance, reach) : reach;
    const dir = this.castDir;
    dir.x = -up.x * len; dir.y = -up.y * len; dir.z = -up.z * len;
    r.grounded = false;
    r.sliding = false;
    r.groundBody = null;
    r.groundVelocity.x = 0; r.groundVelocity.y = 0; r.groundVelocity.z = 0;
    const hit = this.world.shapeCast(this.shape, p, this.rotation, dir, this.castOptions);
    if (hit === null) {
      r.groundNormal.x = up.x; r.groundNormal.y = up.y; r.groundNormal.z = up.z;
      return;
    }
    const dist = hit.fraction * len;
    const walkable = this.isWalkable(hit, p, 0.05);
    const hnu = hit.normal.x * up.x + hit.normal.y * up.y + hit.normal.z * up.z;
    const gap = dist * Math.max(hnu, 0.34);
    if (!walkable) {
      if (gap <= contact) {
        r.sliding = true;
        r.groundNormal.x = hit.normal.x; r.groundNormal.y = hit.normal.y; r.groundNormal.z = hit.normal.z;
      } else {
        r.groundNormal.x = up.x; r.groundNormal.y = up.y; r.groundNormal.z = up.z;
      }
      return;
    }
    if (gap > contact) {
      if (!snap) {
        r.groundNormal.x = up.x; r.groundNormal.y = up.y; r.groundNormal.z = up.z;
        return;
      }
      const drop = dist - s.skinWidth;
      p.x -= up.x * drop; p.y -= up.y * drop; p.z -= up.z * drop;
      r.snapped = true;
    }
    r.grounded = true;
    r.groundBody = hit.body;
    r.groundPoint.x = hit.point.x; r.groundPoint.y = hit.point.y; r.groundPoint.z = hit.point.z;
    if (!hit.body.isStatic) hit.body.getPointVelocity(r.groundVelocity, hit.point);
  }

  /** Touching flags of the final planes at `p`, and the bodies touched (result.hitBodies). */
  private finishPlanes(set: PlaneSet, p: Readonly<Vec3>): void {
    const s = this.settings;
    const r = this.result;
    for (let i = 0; i < set.count; i++) {
      const q = set.planes[i]!;
      const n = q.normal;
      const separation = n.x * p.x + n.y * p.y + n.z * p.z - q.distance;
      const touching = q.push > 0 || separation <= s.slop;
      set.touching[i] = touching ? 1 : 0;
      const body = q.body;
      if (!touching || body === null) continue;
      let known = false;
      for (let k = 0; k < r.hitBodyCount; k++) if (r.hitBodies[k] === body) known = true;
      if (!known && r.hitBodyCount < MAX_HIT_BODIES) {
        r.hitBodies[r.hitBodyCount++] = body;
      }
    }
  }

  /**
   * The push step, after the move (Rapier's solve_character_collision_impulses):
   * each touching, non-flattened plane of a dynamic body gets an impulse at its
   * point, the character's mass times the approach speed, at most
   * pushStrength · dt.
   */
  private pushBodies(set: PlaneSet, displacement: Readonly<Vec3>): void {
    const s = this.settings;
    const dt = this.stepDt;
    const maxImpulse = s.pushStrength * dt;
    if (maxImpulse <= 0) return;
    for (let i = 0; i < set.count; i++) {
      const q = set.planes[i]!;
      const body = q.body;
      if (set.touching[i] === 0 || body === null || !body.isDynamic || q.flattened) continue;
      const n = q.normal;
      // Approach speed into the body along −n, relative to its surface:
      // v_in = −(Δ · n)/dt + v_body · n; impulse = min(m v_in, F_max dt).
      body.getPointVelocity(this.pointVel, q.point);
      const vIn = -(displacement.x * n.x + displacement.y * n.y + displacement.z * n.z) / dt +
        (this.pointVel.x * n.x + this.pointVel.y * n.y + this.pointVel.z * n.z);
      if (vIn <= 0) continue;
      const j = Math.min(s.characterMass * vIn, maxImpulse);
      this.impulse.x = -n.x * j; this.impulse.y = -n.y * j; this.impulse.z = -n.z * j;
      body.applyImpulseClamped(this.impulse, q.point);
    }
  }
}

function putVec3(out: Float64Array, o: number, v: Readonly<Vec3>): void {
  out[o] = v.x; out[o + 1] = v.y; out[o + 2] = v.z;
}

function getVec3(v: Vec3, src: Float64Array, o: number): void {
  v.x = src[o]!; v.y = src[o + 1]!; v.z = src[o + 2]!;
}
