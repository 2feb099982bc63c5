/**
 * Walker: a ready-made velocity-level character on top of
 * `CharacterController.move` — input direction and speed, acceleration,
 * gravity, jump with coyote time, air control, riding platforms, and
 * grounded / airborne / sliding states with events.
 *
 * The walker keeps a velocity v. Each update:
 *   - horizontal velocity accelerates towards input × speed (ground or air
 *     acceleration); on the ground the vertical part is zero, in the air
 *     gravity integrates it (semi-implicit Euler);
 *   - first, while grounded, the character rides the ground body's motion
 *     since the last update (`CharacterController.followGround`: the body's
 *     rigid motion between its two poses, so a turntable does not spiral the
 *     character outwards and a lift neither leaves it behind nor sinks it);
 *   - the displacement v·dt goes to `move`;
 *   - v is clipped against the planes that pushed (Catto / Box2D
 *     b2ClipVector): the walker stops accelerating into walls, a ceiling
 *     cancels upward speed. On the ground, walkable planes are not clipped so
 *     that a slope does not eat the horizontal speed (the position solver
 *     already follows the slope: speed along a slope of angle α is speed·cos α).
 *
 * In the air the horizontal velocity first loses the drag, v ← v / (1 + c·dt)
 * (implicit, so it never overshoots zero), then accelerates towards the wish
 * velocity: with input by airAcceleration, without it towards zero by
 * airDeceleration. Held input therefore keeps full speed in the air while
 * airAcceleration > airDrag · speed; released input stops the drift: from v₀
 * the walker stops after t = ln(1 + c v₀ / a) / c, having drifted
 * v₀/c − a t / c (c = airDrag, a = airDeceleration).
 *
 * `yaw` turns towards the input direction at up to turnSpeed (the shortest
 * way round), and with the ground body's turn while standing on it.
 */
import { MAX_LINEAR_SPEED, quat, SnapshotError, type RigidBody, type Vec3 } from '../src/index';
// Internal: the engine's own helper, not part of the public API.
import { lockFields } from '../src/math/validate';
import { CHARACTER_SNAPSHOT_VERSION, type CharacterController, type CharacterSnapshot, type MoveResult } from './controller';

/** Longest time (s) one Walker.update may cover. */
export const MAX_WALKER_DT = 1;

export type WalkerState = 'grounded' | 'airborne' | 'sliding';
export type WalkerEventName = 'landed' | 'jumped' | 'hit';

/** Reused event object (copy what you keep). */
export class WalkerEvent {
  type: WalkerEventName = 'landed';
  /** Body hit (hit), landed on (landed) or jumped from (jumped), if any. */
  body: RigidBody | null = null;
  /** Landing: speed into the ground just before landing, m/s. */
  speed = 0;
}

export type WalkerListener = (event: WalkerEvent) => void;

/** Live-tunable walker settings. */
export interface WalkerSettings {
  /** Walking speed at full input, m/s in [0, 1e4]. Default 4. */
  speed: number;
  /** Ground acceleration, m/s² in [0, 1e6]. Default 40 (full speed in 0.1 s). */
  acceleration: number;
  /** Air acceleration (air control), m/s² in [0, 1e6]. Default 10. */
  airAcceleration: number;
  /** Gravity, m/s², each component within ±1e6. Default (0, −9.81, 0) rotated to −up. */
  gravity: Vec3;
  /** Upward speed of a jump, m/s in [0, 1e4]. Default 5 (≈ 1.27 m high). */
  jumpSpeed: number;
  /** A jump still works this long after walking off a ledge, seconds ≥ 0. Default 0.1. */
  coyoteTime: number;
  /** Terminal falling speed, m/s in [0, 1e4]. Default 60. */
  maxFallSpeed: number;
  /** Horizontal braking in the air without input, m/s² in [0, 1e6]. Default 1. */
  airDeceleration: number;
  /** Horizontal air drag coefficient c (v ← v / (1 + c·dt) in the air), 1/s in [0, 1e4]. Default 0.5: released input in the air stops a 4 m/s drift within 3.7 m. */
  airDrag: number;
  /** Fastest turn of `yaw` towards the input direction, rad/s in [0, 1e4]; 0 keeps yaw (only platforms turn it). Default 10 (half a turn in 0.31 s). */
  turnSpeed: number;
}

/** Largest walker speed setting (speed, jumpSpeed, maxFallSpeed), m/s. */
export const MAX_WALKER_SPEED = 1e4;
/** Largest walker acceleration setting (acceleration, airAcceleration, airDeceleration, each gravity component), m/s². */
export const MAX_WALKER_ACCELERATION = 1e6;
/** Largest rate setting (airDrag 1/s, turnSpeed rad/s). */
export const MAX_WALKER_RATE = 1e4;
/** Largest |component| of `velocity` (m/s): what MAX_WALKER_ACCELERATION reaches in the longest update, MAX_WALKER_DT. */
export const MAX_WALKER_VELOCITY = MAX_WALKER_ACCELERATION * MAX_WALKER_DT;

type WalkerNumberField = 'speed' | 'acceleration' | 'airAcceleration' | 'jumpSpeed' | 'coyoteTime' | 'maxFallSpeed' | 'airDeceleration' | 'airDrag' | 'turnSpeed';
const WALKER_FIELDS: readonly WalkerNumberField[] =
  ['speed', 'acceleration', 'airAcceleration', 'jumpSpeed', 'coyoteTime', 'maxFallSpeed', 'airDeceleration', 'airDrag', 'turnSpeed'];

function walkerFieldMax(k: WalkerNumberField): number {
  if (k === 'acceleration' || k === 'airAcceleration' || k === 'airDeceleration') return MAX_WALKER_ACCELERATION;
  if (k === 'airDrag' || k === 'turnSpeed') return MAX_WALKER_RATE;
  return k === 'coyoteTime' ? Infinity : MAX_WALKER_SPEED;
}

/**
 * A walker's state with its controller's (see `Walker.snapshot`). `f64`:
 * velocity 3, input 3, yaw, air time, ground velocity 3; `i32`: state
 * (0 grounded, 1 airborne, 2 sliding), jump requested, jump used.
 */
export interface WalkerSnapshot {
  readonly version: number;
  readonly f64: Float64Array;
  readonly i32: Int32Array;
  readonly controller: CharacterSnapshot;
}

const WALKER_STATES: readonly WalkerState[] = ['grounded', 'airborne', 'sliding'];

export class Walker {
  readonly controller: CharacterController;
  readonly settings: WalkerSettings;
  /** Velocity relative to the ground body (absolute when airborne), m/s. */
  readonly velocity: Vec3 = { x: 0, y: 0, z: 0 };
  /** Desired horizontal direction in world space; its length (≤ 1) scales the speed. */
  readonly input: Vec3 = { x: 0, y: 0, z: 0 };
  /** 'grounded', 'airborne' or 'sliding'; a write of anything else throws (the snapshot stores it as an index). */
  get state(): WalkerState { return this.stateValue; }
  set state(value: WalkerState) {
    if (!WALKER_STATES.includes(value)) throw new RangeError(`Walker.state must be one of 'grounded', 'airborne', 'sliding' (got ${typeof value === 'string' ? `'${value}'` : String(value)})`);
    this.stateValue = value;
  }
  /**
   * Facing angle about up, radians (0 faces the controller's local +z, +π/2
   * its +x: yaw = atan2(x, z) for up = +y, as Babylon's yaw). It turns towards
   * the input direction at up to `settings.turnSpeed` and with the ground
   * body. Not wrapped: a platform that turns twice adds 4π.
   */
  yaw = 0;
  /** Seconds since the walker was last grounded. */
  airTime = 0;

  private stateValue: WalkerState = 'airborne';
  private jumpRequested = false;
  private jumpUsed = false;
  private readonly groundVelocity: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly disp: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly facing: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly event = new WalkerEvent();
  private readonly listeners: { landed: WalkerListener[]; jumped: WalkerListener[]; hit: WalkerListener[] } = { landed: [], jumped: [], hit: [] };

  constructor(controller: CharacterController, settings: Partial<WalkerSettings> = {}) {
    // Duck-typed, as the controller checks its world: two copies of the package in one bundle still work together.
    if (controller === null || typeof controller !== 'object' || typeof controller.move !== 'function' || typeof controller.followGround !== 'function' ||
      controller.up === null || typeof controller.up !== 'object' || controller.result === null || typeof controller.result !== 'object') {
      throw new TypeError(`Walker: controller must be a CharacterController (got ${controller === null || typeof controller !== 'object' ? String(controller) : 'an object without move, followGround, up and result'})`);
    }
    if (settings === null || typeof settings !== 'object') throw new TypeError(`Walker: settings must be an object (got ${String(settings)})`);
    this.controller = controller;
    const up = controller.up;
    this.settings = {
      speed: settings.speed ?? 4,
      acceleration: settings.acceleration ?? 40,
      airAcceleration: settings.airAcceleration ?? 10,
      gravity: settings.gravity ? { x: settings.gravity.x, y: settings.gravity.y, z: settings.gravity.z } : { x: -9.81 * up.x, y: -9.81 * up.y, z: -9.81 * up.z },
      jumpSpeed: settings.jumpSpeed ?? 5,
      coyoteTime: settings.coyoteTime ?? 0.1,
      maxFallSpeed: settings.maxFallSpeed ?? 60,
      airDeceleration: settings.airDeceleration ?? 1,
      airDrag: settings.airDrag ?? 0.5,
      turnSpeed: settings.turnSpeed ?? 10,
    };
    this.checkSettings();
    if (controller.result.grounded) this.stateValue = 'grounded';
    // Readonly to TypeScript only: update writes velocity and the settings in
    // place, so a plain-JavaScript write of another object would go unchecked.
    lockFields(this, ['controller', 'settings', 'velocity', 'input']);
  }

  /**
   * The walker's state and its controller's (`controller.snapshot()`), as
   * typed arrays: restore both with `walker.restore`. The world's bodies
   * are in `world.snapshot()`. Settings and listeners are not included.
   */
  snapshot(): WalkerSnapshot {
    // The state fields are plain writable ones: named here, not refused by restore later.
    if (!this.checkState()) this.checkSettings();
    const f64 = new Float64Array(11);
    const v = this.velocity, i = this.input, g = this.groundVelocity;
    f64[0] = v.x; f64[1] = v.y; f64[2] = v.z;
    f64[3] = i.x; f64[4] = i.y; f64[5] = i.z;
    f64[6] = this.yaw; f64[7] = this.airTime;
    f64[8] = g.x; f64[9] = g.y; f64[10] = g.z;
    const i32 = new Int32Array(3);
    i32[0] = WALKER_STATES.indexOf(this.stateValue);
    i32[1] = this.jumpRequested ? 1 : 0;
    i32[2] = this.jumpUsed ? 1 : 0;
    return { version: CHARACTER_SNAPSHOT_VERSION, f64, i32, controller: this.controller.snapshot() };
  }

  /**
   * Restores `snapshot()` (walker and controller); throws a SnapshotError
   * and changes nothing when it does not fit (see `validateSnapshot`).
   */
  restore(snapshot: WalkerSnapshot): void {
    this.validateSnapshot(snapshot);
    const f64 = snapshot.f64, i32 = snapshot.i32;
    this.controller.restore(snapshot.controller);
    const v = this.velocity, i = this.input, g = this.groundVelocity;
    v.x = f64[0]!; v.y = f64[1]!; v.z = f64[2]!;
    i.x = f64[3]!; i.y = f64[4]!; i.z = f64[5]!;
    this.yaw = f64[6]!; this.airTime = f64[7]!;
    g.x = f64[8]!; g.y = f64[9]!; g.z = f64[10]!;
    this.stateValue = WALKER_STATES[i32[0]!]!;
    this.jumpRequested = i32[1] === 1;
    this.jumpUsed = i32[2] === 1;
  }

  /**
   * @internal Throws a SnapshotError unless `restore(s)` can apply `s`:
   * another version, truncated arrays, NaN, a velocity beyond
   * ±MAX_WALKER_VELOCITY or a ground velocity beyond ±MAX_LINEAR_SPEED per
   * component, a negative air time, an unknown state, or a controller
   * snapshot its controller refuses. Changes nothing.
   */
  validateSnapshot(snapshot: WalkerSnapshot): void {
    if (snapshot === null || typeof snapshot !== 'object') throw new SnapshotError('Walker.restore: not a walker snapshot');
    if (snapshot.version !== CHARACTER_SNAPSHOT_VERSION) throw new SnapshotError(`Walker.restore: snapshot version ${String(snapshot.version)}; this footing restores version ${CHARACTER_SNAPSHOT_VERSION}`);
    const f64 = snapshot.f64, i32 = snapshot.i32;
    if (!(f64 instanceof Float64Array) || f64.length !== 11 || !(i32 instanceof Int32Array) || i32.length !== 3) {
      throw new SnapshotError('Walker.restore: f64 must be 11 doubles and i32 3 ints');
    }
    for (let k = 0; k < 11; k++) if (!Number.isFinite(f64[k]!)) throw new SnapshotError(`Walker.restore: value ${k} is ${f64[k]}`);
    // The bounds the next update would hold the walker to: beyond them it
    // would refuse every update (velocity), or a jump or a walk off the
    // ground would carry the ground velocity there.
    if (!(Math.abs(f64[0]!) <= MAX_WALKER_VELOCITY && Math.abs(f64[1]!) <= MAX_WALKER_VELOCITY && Math.abs(f64[2]!) <= MAX_WALKER_VELOCITY)) {
      throw new SnapshotError(`Walker.restore: velocity must have each component within ±${MAX_WALKER_VELOCITY} m/s (MAX_WALKER_VELOCITY; got (${f64[0]}, ${f64[1]}, ${f64[2]}))`);
    }
    if (!(Math.abs(f64[8]!) <= MAX_LINEAR_SPEED && Math.abs(f64[9]!) <= MAX_LINEAR_SPEED && Math.abs(f64[10]!) <= MAX_LINEAR_SPEED)) {
      throw new SnapshotError(`Walker.restore: groundVelocity must have each component within ±${MAX_LINEAR_SPEED} m/s (MAX_LINEAR_SPEED; got (${f64[8]}, ${f64[9]}, ${f64[10]}))`);
    }
    // A negative air time would keep coyote time open: jumps in mid-air.
    if (!(f64[7]! >= 0)) throw new SnapshotError(`Walker.restore: airTime must be ≥ 0 s (got ${f64[7]})`);
    if (!(i32[0]! >= 0 && i32[0]! <= 2)) throw new SnapshotError(`Walker.restore: state must be 0 (grounded), 1 (airborne) or 2 (sliding) (got ${i32[0]})`);
    this.controller.validateSnapshot(snapshot.controller);
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on(name: WalkerEventName, listener: WalkerListener): () => void {
    if (name !== 'landed' && name !== 'jumped' && name !== 'hit') throw new RangeError(`Walker.on: unknown event ${String(name)} (expected 'landed', 'jumped' or 'hit')`);
    if (typeof listener !== 'function') throw new TypeError(`Walker.on: listener must be a function (got ${String(listener)})`);
    const list = this.listeners[name];
    list.push(listener);
    return () => {
      const i = list.indexOf(listener);
      if (i >= 0) list.splice(i, 1);
    };
  }

  /** Sets the horizontal input (world space, finite, length clamped to 1). */
  setInput(x: number, y: number, z: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
      throw new RangeError(`Walker.setInput: x, y and z must be finite numbers (got ${String(x)}, ${String(y)}, ${String(z)})`);
    }
    this.input.x = x; this.input.y = y; this.input.z = z;
  }

  /** Requests a jump on the next update (ignored unless grounded or within coyote time). */
  jump(): void {
    this.jumpRequested = true;
  }

  /**
   * Moves the character to `position` (the capsule centre, no collision) and
   * stops it: velocity and the carried ground velocity zeroed, state
   * airborne until the next update finds the ground, a pending jump dropped
   * (no coyote-time jump from the teleport), yaw set when given. Throws and
   * changes nothing when the position or yaw is out of range.
   */
  teleport(position: Readonly<Vec3>, yaw?: number): void {
    if (yaw !== undefined && (typeof yaw !== 'number' || !Number.isFinite(yaw))) {
      throw new RangeError(`Walker.teleport: yaw must be a finite number (got ${String(yaw)})`);
    }
    this.controller.setPosition(position);
    const v = this.velocity, g = this.groundVelocity;
    v.x = 0; v.y = 0; v.z = 0;
    g.x = 0; g.y = 0; g.z = 0;
    this.stateValue = 'airborne';
    this.airTime = 0;
    this.jumpRequested = false;
    this.jumpUsed = true;
    if (yaw !== undefined) this.yaw = yaw;
  }

  get grounded(): boolean {
    return this.stateValue === 'grounded';
  }

  /** One fixed step of `dt` seconds; returns the controller's move result. */
  update(dt: number): MoveResult {
    // At most a second: a longer frame would take the walker's state somewhere the move then refuses.
    if (!(dt > 0 && dt <= MAX_WALKER_DT)) throw new RangeError(`Walker.update: dt must be a number in (0, ${MAX_WALKER_DT}] s (got ${String(dt)})`);
    this.checkSettings();
    // Before anything changes: a bad controller setting would otherwise throw from move() with the velocity already updated.
    this.controller.checkSettings();
    const s = this.settings;
    const c = this.controller;
    const up = c.up;
    const v = this.velocity;
    const wasGrounded = this.stateValue === 'grounded';
    // Ride the ground's motion of the step just taken before anything else:
    // the ground probe, the jump's inherited velocity and the walk all see
    // the character where the ground now carries it.
    if (wasGrounded && c.followGround()) this.yaw += c.groundTurn;
    const before = c.result;
    // A ground body removed from the world no longer carries the walker.
    const groundBody = wasGrounded && before.groundBody !== null && before.groundBody.world !== null ? before.groundBody : null;

    // Desired horizontal velocity.
    const iu = this.input.x * up.x + this.input.y * up.y + this.input.z * up.z;
    let wx = this.input.x - iu * up.x, wy = this.input.y - iu * up.y, wz = this.input.z - iu * up.z;
    const wl = Math.sqrt(wx * wx + wy * wy + wz * wz);
    const wscale = wl > 1 ? s.speed / wl : s.speed;
    wx *= wscale; wy *= wscale; wz *= wscale;

    let vu = v.x * up.x + v.y * up.y + v.z * up.z;
    // Air drag on the horizontal velocity (implicit: never past zero).
    const keep = wasGrounded ? 1 : 1 / (1 + s.airDrag * dt);
    let hx = (v.x - vu * up.x) * keep, hy = (v.y - vu * up.y) * keep, hz = (v.z - vu * up.z) * keep;
    // Accelerate towards the wish velocity, the change bounded by a·dt. In
    // the air without input the wish velocity is zero: airDeceleration brakes.
    const a = (wasGrounded ? s.acceleration : wl > 1e-9 ? s.airAcceleration : s.airDeceleration) * dt;
    let ex = wx - hx, ey = wy - hy, ez = wz - hz;
    const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
    if (el > a) { const k = a / el; ex *= k; ey *= k; ez *= k; }
    hx += ex; hy += ey; hz += ez;

    if (wasGrounded) {
      vu = 0;
    } else {
      const g = s.gravity;
      const gu = g.x * up.x + g.y * up.y + g.z * up.z;
      vu += gu * dt;
      hx += (g.x - gu * up.x) * dt; hy += (g.y - gu * up.y) * dt; hz += (g.z - gu * up.z) * dt;
      if (vu < -s.maxFallSpeed) vu = -s.maxFallSpeed;
    }

    let jumped = false;
    if (this.jumpRequested && !this.jumpUsed && (wasGrounded || this.airTime <= s.coyoteTime)) {
      vu = s.jumpSpeed;
      jumped = true;
      if (wasGrounded) {
        // Leave with the platform's velocity (relative → absolute), its
        // horizontal part into h and its part along up into vu.
        const gv = before.groundVelocity;
        const gu = gv.x * up.x + gv.y * up.y + gv.z * up.z;
        hx += gv.x - gu * up.x; hy += gv.y - gu * up.y; hz += gv.z - gu * up.z;
        vu += gu;
      }
    }
    const vx = hx + vu * up.x, vy = hy + vu * up.y, vz = hz + vu * up.z;
    const d = this.disp;
    d.x = vx * dt; d.y = vy * dt; d.z = vz * dt;
    // A move the controller would refuse (beyond MAX_POSITION) is refused before the walker's state changes.
    c.checkReach(d);
    if (jumped) this.jumpUsed = true;
    this.jumpRequested = false;
    v.x = vx; v.y = vy; v.z = vz;

    const fallSpeed = -vu;
    const r = c.move(d, dt);
    if (wl > 1e-9 && s.turnSpeed > 0) {
      // Turn towards the wish direction taken into the controller's frame
      // (local Y = up, yaw 0 = local +z), the shortest way round.
      const f = this.facing;
      f.x = wx; f.y = wy; f.z = wz;
      quat.inverseRotate(f, c.rotation, f);
      let turn = Math.atan2(f.x, f.z) - this.yaw;
      turn -= 2 * Math.PI * Math.round(turn / (2 * Math.PI));
      const maxTurn = s.turnSpeed * dt;
      this.yaw += turn > maxTurn ? maxTurn : turn < -maxTurn ? -maxTurn : turn;
    }

    const grounded = r.grounded && !jumped;
    c.clipVelocity(v, grounded);
    if (grounded) {
      // Velocity is kept relative to the ground while standing on it.
      const vu2 = v.x * up.x + v.y * up.y + v.z * up.z;
      v.x -= vu2 * up.x; v.y -= vu2 * up.y; v.z -= vu2 * up.z;
      this.jumpUsed = false;
      this.airTime = 0;
      const gv = r.groundVelocity;
      this.groundVelocity.x = gv.x; this.groundVelocity.y = gv.y; this.groundVelocity.z = gv.z;
      if (!wasGrounded) {
        this.stateValue = 'grounded';
        this.event.speed = fallSpeed > 0 ? fallSpeed : 0; // a field, not an argument: a double argument is boxed
        this.emit('landed', r.groundBody);
      }
    } else {
      if (wasGrounded && !jumped) {
        // Walked off: carry the ground's velocity into the air.
        const gv = this.groundVelocity;
        v.x += gv.x; v.y += gv.y; v.z += gv.z;
      }
      this.stateValue = r.sliding ? 'sliding' : 'airborne';
      this.airTime += dt;
    }
    if (jumped) {
      this.event.speed = 0;
      this.emit('jumped', groundBody);
    }
    if (this.listeners.hit.length > 0) {
      for (let i = 0; i < r.hitBodyCount; i++) {
        this.event.speed = 0;
        this.emit('hit', r.hitBodies[i]!);
      }
    }
    return r;
  }

  /** Calls the listeners of `type` with the reused event (its speed already written). */
  private emit(type: WalkerEventName, body: RigidBody | null): void {
    const list = this.listeners[type];
    if (list.length === 0) return;
    const e = this.event;
    e.type = type;
    e.body = body;
    for (let i = 0; i < list.length; i++) list[i]!(e);
  }

  private checkSettings(): void {
    const s = this.settings;
    const g = s.gravity;
    // Fast path (every update), with named loads only: a keyed load s[k] of a
    // double-valued field boxes the value on the heap. x ≥ 0 and x − x === 0
    // is false for NaN, ±∞ and negatives.
    // x ≤ max is false for NaN as well.
    if (
      typeof s.speed === 'number' && typeof s.acceleration === 'number' && typeof s.airAcceleration === 'number' && typeof s.jumpSpeed === 'number' &&
      typeof s.coyoteTime === 'number' && typeof s.maxFallSpeed === 'number' && typeof s.airDeceleration === 'number' && typeof s.airDrag === 'number' &&
      typeof s.turnSpeed === 'number' && s.speed >= 0 && s.speed <= MAX_WALKER_SPEED && s.acceleration >= 0 && s.acceleration <= MAX_WALKER_ACCELERATION &&
      s.airAcceleration >= 0 && s.airAcceleration <= MAX_WALKER_ACCELERATION && s.jumpSpeed >= 0 && s.jumpSpeed <= MAX_WALKER_SPEED &&
      s.coyoteTime >= 0 && s.coyoteTime - s.coyoteTime === 0 && s.maxFallSpeed >= 0 && s.maxFallSpeed <= MAX_WALKER_SPEED &&
      s.airDeceleration >= 0 && s.airDeceleration <= MAX_WALKER_ACCELERATION && s.airDrag >= 0 && s.airDrag <= MAX_WALKER_RATE &&
      s.turnSpeed >= 0 && s.turnSpeed <= MAX_WALKER_RATE &&
      g && typeof g.x === 'number' && typeof g.y === 'number' && typeof g.z === 'number' && Math.abs(g.x) <= MAX_WALKER_ACCELERATION && Math.abs(g.y) <= MAX_WALKER_ACCELERATION && Math.abs(g.z) <= MAX_WALKER_ACCELERATION &&
      this.checkState()
    ) return;
    for (let i = 0; i < WALKER_FIELDS.length; i++) {
      const k = WALKER_FIELDS[i]!;
      const value = s[k];
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        throw new RangeError(`Walker: ${k} must be a finite number ≥ 0 (got ${String(value)})`);
      }
      const max = walkerFieldMax(k);
      if (value > max) throw new RangeError(`Walker: ${k} must be in [0, ${max}] (got ${value})`);
    }
    if (!g || typeof g.x !== 'number' || typeof g.y !== 'number' || typeof g.z !== 'number' || !(Math.abs(g.x) <= MAX_WALKER_ACCELERATION && Math.abs(g.y) <= MAX_WALKER_ACCELERATION && Math.abs(g.z) <= MAX_WALKER_ACCELERATION)) {
      throw new RangeError(`Walker: gravity must be a finite vector, each component within ±${MAX_WALKER_ACCELERATION} m/s²`);
    }
    const i = this.input, v = this.velocity;
    if (!Number.isFinite(i.x) || !Number.isFinite(i.y) || !Number.isFinite(i.z)) throw new RangeError(`Walker: input must be finite (got (${i.x}, ${i.y}, ${i.z}))`);
    if (!(Math.abs(v.x) <= MAX_WALKER_VELOCITY && Math.abs(v.y) <= MAX_WALKER_VELOCITY && Math.abs(v.z) <= MAX_WALKER_VELOCITY) || typeof v.x !== 'number' || typeof v.y !== 'number' || typeof v.z !== 'number') {
      throw new RangeError(`Walker: velocity must be finite numbers within ±${MAX_WALKER_VELOCITY} m/s (got (${v.x}, ${v.y}, ${v.z}))`);
    }
    if (!Number.isFinite(this.yaw)) throw new RangeError(`Walker: yaw must be finite (got ${this.yaw})`);
    const t = this.airTime;
    if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) throw new RangeError(`Walker: airTime must be a finite number ≥ 0 s (got ${String(t)})`);
  }

  /**
   * The public state fields (input, velocity, yaw, airTime) can be written
   * directly: all finite, airTime ≥ 0 (a negative one keeps coyote time open,
   * and a NaN one would make the walker's snapshot one restore refuses).
   */
  private checkState(): boolean {
    const i = this.input, v = this.velocity;
    return typeof i.x === 'number' && typeof i.y === 'number' && typeof i.z === 'number' && typeof v.x === 'number' && typeof v.y === 'number' &&
      typeof v.z === 'number' && typeof this.yaw === 'number' && i.x - i.x === 0 && i.y - i.y === 0 && i.z - i.z === 0 &&
      Math.abs(v.x) <= MAX_WALKER_VELOCITY && Math.abs(v.y) <= MAX_WALKER_VELOCITY && Math.abs(v.z) <= MAX_WALKER_VELOCITY && this.yaw - this.yaw === 0 &&
      typeof this.airTime === 'number' && this.airTime >= 0 && this.airTime - this.airTime === 0;
  }
}
