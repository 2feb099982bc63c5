/**
 * CharacterController: a kinematic capsule moved by Catto's position solver
 * ("Understanding Constraints", GDC 2014; the design: docs/character.md).
 * This file is the facade: the public API, input checks, and `move` as the
 * list of its stages, each in its own file:
 *
 *   1. gather (gather.ts): overlap scan with the capsule inflated by skin +
 *      gather distance at the start position; every nearby surface becomes a
 *      plane n · p ≥ d for the capsule centre p (n out of the obstacle, d
 *      places the surface skinWidth away). The tangent plane of a convex
 *      obstacle's Minkowski sum is conservative, so a point that satisfies it
 *      never overlaps that obstacle.
 *   2. recover (gather.ts): if the real capsule overlaps something, solve from
 *      the start position against those planes only (bounded by the radius:
 *      no teleporting through walls).
 *   3. sweep + solve (sweep.ts, plane-solver.ts): NGS from the target gives a
 *      solve point; a capsule cast from the start towards it either arrives
 *      (accept) or hits a new plane (add, solve again); stop when successive
 *      solve points agree within `tolerance`. The cast is the safety net: the
 *      character never moves past the first impact of a cast.
 *   4. step up (stairs.ts): blocked by a wall while grounded, try the move
 *      raised by stepHeight and settle down onto walkable ground (Jolt's
 *      WalkStairs idea).
 *   5. ground (ground.ts): a short cast down finds the ground (walkable by its
 *      normal, or a step edge with walkable ground beside it, tested by a
 *      ray); when the character was grounded it snaps down by up to
 *      snapDistance (stairs, slopes).
 *   6. report (push.ts): touching flags of the final planes and the bodies
 *      touched.
 *   7. push (push.ts): after the move, as its own step (Rapier's
 *      solve_character_collision_impulses), dynamic bodies that blocked the
 *      move get an impulse at the contact point, bounded by pushStrength · dt.
 *
 * Between moves, followGround (platform.ts) carries the character with the
 * body it stands on; snapshot / restore (snapshot.ts) save its state.
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
import { Capsule, MAX_BODY_STATE, MAX_POSITION, quat, type Quat, type RigidBody, type Vec3, type World } from '../src/index';
// Internal: the engine's own helper, not part of the public API.
import { lockFields } from '../src/math/validate';
import { clipVector } from './plane-solver';
import { MoveResult } from './move-result';
import { MoveContext, registerCharacter } from './move-context';
import {
  DEFAULT_SETTINGS, MAX_CHARACTER_DISPLACEMENT, SETTING_FIELDS, requirePositionInRange, requireVec, validateSettingValues,
  type CharacterControllerOptions, type CharacterSettings,
} from './settings';
import { gather, recover } from './gather';
import { solveMove } from './sweep';
import { blockedByWall, tryStepUp } from './stairs';
import { probeGround } from './ground';
import { finishPlanes, MAX_HIT_BODIES, pushBodies } from './push';
import { followGround, rememberCarrier } from './platform';
import { restoreSnapshot, validateSnapshot, writeSnapshot, type CharacterSnapshot } from './snapshot';

export { MoveResult } from './move-result';
export { MAX_CHARACTER_PLANES } from './plane-set';
export {
  MAX_CHARACTER_ITERATIONS, MAX_CHARACTER_SWEEPS, MAX_CHARACTER_LENGTH, MAX_CHARACTER_DISPLACEMENT,
  type CharacterSettings, type CharacterControllerOptions,
} from './settings';
export { CHARACTER_SNAPSHOT_VERSION, type CharacterSnapshot } from './snapshot';

/** Read in every move: a local constant, not an import binding (the test runner turns those into getters). */
const MAX_DISPLACEMENT = MAX_CHARACTER_DISPLACEMENT;

/** Fields fixed at creation, made read-only in plain JavaScript too (the constructor's last step). */
const LOCKED_FIELDS: readonly string[] = ['world', 'settings', 'up', 'rotation', 'result'];

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
  get body(): RigidBody | null { return this.bodyValue; }
  private bodyValue: RigidBody | null = null;
  /** The last move's result (also returned by move). */
  readonly result = new MoveResult();
  /** Turn of the ground body about `up` during the last `followGround`, radians (right-handed). */
  get groundTurn(): number { return this.ctx.groundTurn; }

  /** State and scratch shared with the stages of the move. */
  private readonly ctx: MoveContext;
  private readonly collisionGroup: number;
  /** The settings as last validated (order of SETTING_FIELDS); compared each move instead of re-validating. */
  private readonly validated = new Float64Array(13).fill(NaN);

  constructor(world: World, options: CharacterControllerOptions = {}) {
    // Duck-typed rather than instanceof, so that two copies of the package in one bundle still work together.
    if (world === null || typeof world !== 'object' || typeof world.createBody !== 'function' || typeof world.overlap !== 'function') {
      throw new TypeError(`CharacterController: world must be a footing World (got ${world === null || typeof world !== 'object' ? String(world) : 'an object without createBody and overlap'})`);
    }
    if (options === null || typeof options !== 'object') throw new TypeError(`CharacterController: options must be an object (got ${String(options)})`);
    registerCharacter(this);
    this.world = world;
    const radius = options.radius ?? 0.3;
    const halfHeight = options.halfHeight ?? 0.6;
    if (!(radius > 0) || !Number.isFinite(radius)) throw new RangeError(`CharacterController: radius must be a finite number > 0 (got ${String(radius)})`);
    if (!(halfHeight > 0) || !Number.isFinite(halfHeight)) throw new RangeError(`CharacterController: halfHeight must be a finite number > 0 (got ${String(halfHeight)})`);
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
    // Frozen: the controller's frame is fixed at creation, and a write to it would go unchecked.
    this.up = Object.freeze({ x: up.x / ul, y: up.y / ul, z: up.z / ul });
    this.rotation = Object.freeze(quat.fromUnitVectors(quat.quat(), { x: 0, y: 1, z: 0 }, this.up));
    const group = options.collisionGroup ?? 1;
    if (typeof group !== 'number' || !Number.isInteger(group) || group < -0x80000000 || group > 0xffffffff) {
      throw new RangeError(`CharacterController: collisionGroup must be an integer in [-2^31, 2^32 - 1] (got ${String(group)})`);
    }
    this.collisionGroup = group | 0;
    const p = options.position ?? { x: 0, y: 0, z: 0 };
    requirePositionInRange(p, 'CharacterController: position');
    const ctx = new MoveContext(world, s, this.up, this.rotation, this.result, new Capsule(radius, halfHeight), this.collisionGroup);
    this.ctx = ctx;
    ctx.pos.x = p.x; ctx.pos.y = p.y; ctx.pos.z = p.z;
    this.checkSettings();
    if (options.createBody ?? true) this.createOwnBody();
    const r = this.result;
    r.position.x = p.x; r.position.y = p.y; r.position.z = p.z;
    r.groundNormal.x = this.up.x; r.groundNormal.y = this.up.y; r.groundNormal.z = this.up.z;
    r.planes = ctx.setA.planes;
    for (let i = 0; i < MAX_HIT_BODIES; i++) r.hitBodies.push(null);
    // Readonly to TypeScript only: the move stages hold these objects, so a
    // plain-JavaScript write would go unseen by them (the up and rotation
    // frozen, the settings and result written in place).
    lockFields(this, LOCKED_FIELDS);
  }

  /** Capsule centre. */
  get position(): Readonly<Vec3> { return this.ctx.pos; }
  /** cos(maxSlopeDegrees) as of the last settings check. */
  get cosMaxSlope(): number { return this.ctx.slope.cosMaxSlope; }
  get radius(): number { return this.ctx.radius; }
  get halfHeight(): number { return this.ctx.halfHeight; }
  /** The capsule used for queries. */
  get capsule(): Capsule { return this.ctx.shape; }

  /** Teleports the character (no collision); clears the grounded state. */
  setPosition(p: Readonly<Vec3>): void {
    requirePositionInRange(p, 'CharacterController.setPosition: position');
    const pos = this.ctx.pos;
    pos.x = p.x; pos.y = p.y; pos.z = p.z;
    this.result.grounded = false;
    this.ctx.carrier = null;
    this.liveBody()?.setPosition(pos);
  }

  /**
   * Changes the capsule's segment half-length keeping the feet in place
   * (crouch / stand up). Returns false and changes nothing when the new
   * capsule would overlap geometry (standing up under a low ceiling).
   */
  setHalfHeight(halfHeight: number): boolean {
    if (typeof halfHeight !== 'number' || !(halfHeight > 0) || !Number.isFinite(halfHeight)) {
      throw new RangeError(`CharacterController.setHalfHeight: halfHeight must be a finite number > 0 (got ${String(halfHeight)})`);
    }
    // The reach below adds the settings: a bad one is named, not blamed on halfHeight.
    this.checkSettings();
    const ctx = this.ctx;
    const dh = halfHeight - ctx.halfHeight;
    if (dh === 0) return true;
    const pos = ctx.pos;
    const c = { x: pos.x + this.up.x * dh, y: pos.y + this.up.y * dh, z: pos.z + this.up.z * dh };
    // Refused before anything changes: the new body would be refused beyond
    // MAX_POSITION after the old one was removed, and a taller capsule whose
    // reach (checkReach's, without a displacement) crosses it could never move.
    const s = this.settings;
    const reach = dh > 0 ? ctx.radius + halfHeight + s.stepHeight + s.snapDistance + s.skinWidth + s.minStepForward + 0.1 : 0;
    if (!(Math.abs(c.x) + reach <= MAX_POSITION && Math.abs(c.y) + reach <= MAX_POSITION && Math.abs(c.z) + reach <= MAX_POSITION)) {
      throw new RangeError(`CharacterController.setHalfHeight: halfHeight ${halfHeight} m would put the capsule's centre at (${c.x}, ${c.y}, ${c.z})${reach > 0 ? ` with a reach of ${reach} m` : ''}, beyond ±${MAX_POSITION} m (MAX_POSITION), where its body and its moves are refused`);
    }
    const candidate = new Capsule(ctx.radius, halfHeight);
    this.liveBody();
    if (dh > 0) {
      ctx.syncQueryOptions(this.body);
      const contacts = this.world.overlap(candidate, c, this.rotation, ctx.overlapOptions);
      for (let i = 0; i < contacts.length; i++) if (contacts[i]!.depth > 1e-4) return false;
    }
    ctx.halfHeight = halfHeight;
    ctx.shape = candidate;
    ctx.gatherInflation = -1;
    pos.x = c.x; pos.y = c.y; pos.z = c.z;
    this.result.position.x = c.x; this.result.position.y = c.y; this.result.position.z = c.z;
    if (this.body) {
      this.world.removeBody(this.body);
      this.bodyValue = null;
      this.createOwnBody();
    }
    return true;
  }

  /**
   * The controller's state for rollback or a worker (typed arrays, see
   * CharacterSnapshot): position, grounded and sliding state, ground body
   * and velocity, the body carrying the character and its pose (which
   * `followGround` measures from), and the planes of the last move (which
   * `clipVelocity` reads). The character's body is in the world's
   * snapshot; snapshot and restore both. Settings are not included.
   */
  snapshot(): CharacterSnapshot {
    this.checkState();
    return writeSnapshot(this.ctx, this.body);
  }

  /**
   * Restores `snapshot()`'s state. Throws a SnapshotError and changes
   * nothing when it does not fit: another version, NaN, truncated arrays,
   * values out of range (a position setPosition would refuse, a ground
   * velocity beyond MAX_LINEAR_SPEED), another capsule size or body, or
   * bodies that are not in the world.
   */
  restore(snapshot: CharacterSnapshot): void {
    restoreSnapshot(this.ctx, snapshot, this.body);
  }

  /** @internal Throws a SnapshotError unless `restore(s)` can apply `s`. */
  validateSnapshot(s: CharacterSnapshot): void {
    validateSnapshot(this.ctx, s, this.body);
  }

  /** Removes the character's body from the world. */
  dispose(): void {
    const body = this.liveBody();
    if (body) this.world.removeBody(body);
    this.bodyValue = null;
  }

  /** The body, after forgetting it if it was removed from the world. */
  private liveBody(): RigidBody | null {
    const b = this.body;
    if (b !== null && b.world !== this.world) this.bodyValue = null;
    return this.body;
  }

  /**
   * Removes from `velocity` the part pointing into the planes the last move
   * touched (velocity clipping). With `keepGroundSpeed`, walkable planes are
   * skipped (a walker on a slope keeps its horizontal speed).
   */
  clipVelocity(velocity: Vec3, keepGroundSpeed = false): Vec3 {
    const set = this.ctx.resultSet();
    clipVector(velocity, set.planes, set.count, set.touching, this.up, this.ctx.slope, keepGroundSpeed);
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
    // typeof as well: Math.abs takes a numeric string, which would then concatenate into the position.
    if (!(typeof displacement.x === 'number' && typeof displacement.y === 'number' && typeof displacement.z === 'number' &&
      Math.abs(displacement.x) <= MAX_DISPLACEMENT && Math.abs(displacement.y) <= MAX_DISPLACEMENT && Math.abs(displacement.z) <= MAX_DISPLACEMENT)) {
      throw new RangeError(`CharacterController.move: displacement must be finite, each component within ±${MAX_DISPLACEMENT} m (got (${displacement.x}, ${displacement.y}, ${displacement.z}))`);
    }
    if (typeof dt !== 'number' || !(dt > 0) || !Number.isFinite(dt)) throw new RangeError(`CharacterController.move: dt must be a finite number > 0 (got ${String(dt)})`);
    this.checkSettings();
    this.checkReach(displacement);
    this.liveBody();
    const ctx = this.ctx;
    ctx.syncQueryOptions(this.body);
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

    const start = ctx.start;
    start.x = ctx.pos.x; start.y = ctx.pos.y; start.z = ctx.pos.z;
    const dispLen = Math.sqrt(displacement.x * displacement.x + displacement.y * displacement.y + displacement.z * displacement.z);
    ctx.softLimit = dispLen + ctx.radius * 0.25;
    ctx.stepDt = dt;
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
      const across = ctx.radius + ctx.gatherInflation + dispLen + s.minStepForward + 0.1;
      const along = ctx.halfHeight + s.stepHeight + s.snapDistance + s.skinWidth;
      const rx = across + along * Math.abs(up.x), ry = across + along * Math.abs(up.y), rz = across + along * Math.abs(up.z);
      const b = ctx.regionBox;
      b.min.x = start.x - rx; b.min.y = start.y - ry; b.min.z = start.z - rz;
      b.max.x = start.x + rx; b.max.y = start.y + ry; b.max.z = start.z + rz;
      this.world.fillQueryRegion(b, ctx.region);
    }

    // 1–2. gather and recover
    const main = ctx.setA;
    if (gather(ctx, main, start)) recover(ctx, start);

    // 3. sweep + solve
    const moved = ctx.moved;
    solveMove(ctx, main, start, displacement, moved);
    let final = main;

    // 4. step up
    const dispUp = displacement.x * up.x + displacement.y * up.y + displacement.z * up.z;
    if (wasGrounded && s.stepHeight > 0 && dispUp <= 1e-9 && blockedByWall(ctx, main, displacement)) {
      if (tryStepUp(ctx, start, displacement, moved)) {
        final = ctx.setB;
        r.steppedUp = true;
      }
    }

    // 5. ground probe and snap
    probeGround(ctx, r.steppedUp ? ctx.setB : main, moved, wasGrounded && dispUp <= 1e-9 && !r.steppedUp);

    // 6. touching flags (for clipping) and the bodies touched
    finishPlanes(ctx, final, moved);
    r.planes = final.planes;
    r.planeCount = final.count;

    ctx.pos.x = moved.x; ctx.pos.y = moved.y; ctx.pos.z = moved.z;
    r.position.x = moved.x; r.position.y = moved.y; r.position.z = moved.z;
    if (this.body) this.body.setPosition(moved);
    rememberCarrier(ctx);

    // 7. push the dynamic bodies the final planes pushed against
    pushBodies(ctx, final, displacement);
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
    const followed = followGround(this.ctx, this.body);
    return followed;
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
    const s = this.settings, p = this.ctx.pos;
    const reach = Math.sqrt(d.x * d.x + d.y * d.y + d.z * d.z) + this.ctx.radius + this.ctx.halfHeight +
      s.stepHeight + s.snapDistance + s.skinWidth + s.minStepForward + 0.1;
    if (Math.abs(p.x) + reach <= MAX_POSITION && Math.abs(p.y) + reach <= MAX_POSITION && Math.abs(p.z) + reach <= MAX_POSITION) return;
    throw new RangeError(`CharacterController.move: the move could take the character from (${p.x}, ${p.y}, ${p.z}) beyond ±${MAX_POSITION} m (MAX_POSITION; reach ${reach} m)`);
  }

  private createOwnBody(): void {
    this.bodyValue = this.world.createBody({
      type: 'kinematic', shape: this.ctx.shape, position: this.ctx.pos, rotation: this.rotation,
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
    if (!(
      s.maxSlopeDegrees === v[0] && s.stepHeight === v[1] && s.minStepForward === v[2] && s.snapDistance === v[3] &&
      s.skinWidth === v[4] && s.maxIterations === v[5] && s.maxSweeps === v[6] && s.tolerance === v[7] && s.slop === v[8] &&
      s.gatherDistance === v[9] && s.collisionMask === v[10] && s.pushStrength === v[11] && s.characterMass === v[12] &&
      this.ctx.gatherInflation >= 0
    )) this.validateSettings();
    this.checkState();
  }

  /**
   * The state handed out live, which plain JavaScript can write past the
   * setters, and which the next followGround, move or setHalfHeight reads
   * before it writes: `position`, and the last result's `grounded`,
   * `groundPoint` (followGround carries it) and `groundVelocity` (a walker's
   * jump inherits it). Checked here, before anything changes.
   */
  private checkState(): void {
    const L = MAX_BODY_STATE, p = this.ctx.pos, r = this.result, g = r.groundPoint, gv = r.groundVelocity;
    // typeof as well: Math.abs takes a numeric string, which would then concatenate into the position.
    if (
      typeof p.x === 'number' && typeof p.y === 'number' && typeof p.z === 'number' && Math.abs(p.x) <= L && Math.abs(p.y) <= L && Math.abs(p.z) <= L &&
      typeof g.x === 'number' && typeof g.y === 'number' && typeof g.z === 'number' && Math.abs(g.x) <= L && Math.abs(g.y) <= L && Math.abs(g.z) <= L &&
      typeof gv.x === 'number' && typeof gv.y === 'number' && typeof gv.z === 'number' && Math.abs(gv.x) <= L && Math.abs(gv.y) <= L && Math.abs(gv.z) <= L &&
      (r.grounded === true || r.grounded === false)
    ) return;
    for (const [field, v, unit, hint] of [['position', p, 'm', 'write it through setPosition'], ['result.groundPoint', g, 'm', 'the last move wrote it'], ['result.groundVelocity', gv, 'm/s', 'the last move wrote it']] as const) {
      if (!(typeof v.x === 'number' && typeof v.y === 'number' && typeof v.z === 'number' && Math.abs(v.x) <= L && Math.abs(v.y) <= L && Math.abs(v.z) <= L)) {
        throw new RangeError(`CharacterController.${field} must be finite, each component within ±1e15 ${unit} (MAX_BODY_STATE) (got (${String(v.x)}, ${String(v.y)}, ${String(v.z)})); ${hint}`);
      }
    }
    throw new TypeError(`CharacterController.result.grounded must be a boolean (got ${String(r.grounded)}); the last move wrote it`);
  }

  private validateSettings(): void {
    const s = this.settings;
    validateSettingValues(s);
    const ctx = this.ctx;
    ctx.slope.cosMaxSlope = Math.cos((s.maxSlopeDegrees * Math.PI) / 180);
    const inflation = s.skinWidth + s.slop + s.gatherDistance;
    if (inflation !== ctx.gatherInflation) {
      // Rebuilt only when a setting changes (not per move).
      ctx.gatherShape = new Capsule(ctx.radius + inflation, ctx.halfHeight);
      ctx.gatherInflation = inflation;
    }
    const needed = 2 * s.maxSweeps + 2;
    const pts = this.result.solvePoints;
    while (pts.length < needed) pts.push({ x: 0, y: 0, z: 0 });
    // The character's body collides as its queries do: a changed mask reaches it too.
    const body = this.body;
    if (body !== null && body.world === this.world && body.collisionMask !== (s.collisionMask | 0)) body.collisionMask = s.collisionMask;
    const v = this.validated;
    v[0] = s.maxSlopeDegrees; v[1] = s.stepHeight; v[2] = s.minStepForward; v[3] = s.snapDistance;
    v[4] = s.skinWidth; v[5] = s.maxIterations; v[6] = s.maxSweeps; v[7] = s.tolerance; v[8] = s.slop;
    v[9] = s.gatherDistance; v[10] = s.collisionMask; v[11] = s.pushStrength; v[12] = s.characterMass;
  }
}
