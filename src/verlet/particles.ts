/**
 * Verlet particle system (Jakobsen, "Advanced Character Physics", GDC 2001).
 *
 * State is position and previous position; velocity is implicit:
 *   x' = x + (x − x_prev)·(1 − damping)·(dt / dt_prev) + a·dt²,  x_prev' = x
 * (the dt ratio keeps the implied velocity right when the step changes; for a
 * fixed step it is 1 and this is Jakobsen's x' = 2x − x_prev + a dt²).
 * Constraints are then satisfied by relaxation, `iterations` sweeps of:
 * distance constraints → pins → bounding box → collision projection. The last
 * sweep's contacts get restitution 0 (the approaching normal part of the
 * implied velocity is removed), optional friction, and — for dynamic bodies —
 * an impulse equal to the particle's lost momentum.
 *
 * Register with `world.addStepper(system)`: it then steps after the rigid
 * bodies each world step, with the world's gravity and collision shapes.
 */
import type { RigidBody } from '../dynamics/body';
import type { Vec3 } from '../math/vec3';
import { MAX_BODY_STATE, MAX_GRAVITY, MAX_GRAVITY_SCALE, MAX_TIME_STEP, requireBoolean, requireCollisionBits, requireFiniteVec, requireOut, requireInRange, requireInteger, requirePosition } from '../math/validate';
import type { World, WorldStepper } from '../world/world';
import { SnapshotError, type StepperSnapshot } from '../world/snapshot';
import { ParticleCollider } from './collision';
import { checkDistanceConstraints, checkPins, DistanceConstraints, PinConstraints, solveBounds, solveDistanceConstraints } from './constraints';
import { resizedFloat64, resizedInt32 } from '../math/typed-arrays';

/** Settings of a {@link ParticleSystem}; every field may be changed later on the system. */
export interface ParticleSystemOptions {
  /** Relaxation sweeps per step, integer in [1, 1000]. Default 10. */
  iterations?: number;
  /** Fraction of the implied velocity removed per step, [0, 1]. Default 0.01. */
  damping?: number;
  /** Collision radius of every particle, metres, in [0, 1e6]. Default 0.02. */
  radius?: number;
  /** Multiplier on the world's gravity, finite. Default 1. */
  gravityScale?: number;
  /** Gravity override, m/s² (null: the world's; (0, −9.81, 0) when stepped without a world). Default null. */
  gravity?: Readonly<Vec3> | null;
  /** Sticks use Jakobsen's square-root-free first-order length. Default false. */
  approximateSqrt?: boolean;
  /** Collide particles with the world's bodies. Default true. */
  collide?: boolean;
  /** Fraction of the tangential slip removed per step at a contact, [0, 1]. Default 0.3. */
  friction?: number;
  /** Give dynamic bodies the momentum particles lose against them. Default true. */
  pushBodies?: boolean;
  /** Membership bits used for the collision query. Default 0xffffffff. */
  collisionGroup?: number;
  /** Groups the particles collide with. Default 0xffffffff. */
  collisionMask?: number;
  /** Keep particle centres inside this box shrunk by the radius (the seed's C1). Default null. */
  bounds?: { min: Readonly<Vec3>; max: Readonly<Vec3> } | null;
  /** Initial particle capacity (grows as particles are added). Default 64. */
  capacity?: number;
}

/** Extra room (m) around the particles' bounds for the once-per-step broadphase query: relaxation moves particles after it. */
const QUERY_SKIN = 0.1;

export class ParticleSystem implements WorldStepper {
  private countValue = 0;
  private positionArray: Float64Array;
  private previousArray: Float64Array;
  private inverseMassArray: Float64Array;

  /** Number of particles (read-only: `addParticle` adds them). */
  get count(): number { return this.countValue; }
  /**
   * xyz per particle, metres. The arrays below are the raw state, read by
   * every step; writes to their elements are checked at the start of the
   * next step (a finite number within ±MAX_BODY_STATE, an inverse mass
   * finite ≥ 0), which throws before anything moves. The arrays are
   * replaced when the system grows: read them again after `addParticle`.
   */
  get positions(): Float64Array { return this.positionArray; }
  /** xyz per particle at the previous step (raw, checked at the next step: see `positions`). */
  get previousPositions(): Float64Array { return this.previousArray; }
  /** 1/mass per particle, 1/kg; 0 = immovable (pinned). Raw, checked at the next step: see `positions`. */
  get inverseMasses(): Float64Array { return this.inverseMassArray; }
  /** Velocity after integration, before constraints (for the impulses on bodies). */
  private predictedVelocities: Float64Array;
  /** Candidate index of the body the particle touched in the last sweep, −1 for none. */
  private contactBody: Int32Array;
  private contactNormal: Float64Array;

  /** Distance constraints (raw columns, checked at the start of the next step: see DistanceConstraints). */
  readonly sticks = new DistanceConstraints();
  /** Pins (raw columns, checked at the start of the next step: see PinConstraints). */
  readonly pins = new PinConstraints();

  // The settings are accessors that check what is written (see
  // ParticleSystemOptions for ranges): a NaN would otherwise poison every later step.
  private iterationsValue = 10;
  private dampingValue = 0.01;
  private gravityScaleValue = 1;
  private gravityValue: Readonly<Vec3> | null = null;
  private approximateSqrtValue = false;
  private collideValue = true;
  private frictionValue = 0.3;
  private pushBodiesValue = true;
  private collisionGroupValue = -1;
  private collisionMaskValue = -1;
  private boundsValue: { readonly min: Readonly<Vec3>; readonly max: Readonly<Vec3> } | null = null;

  private radiusValue: number;
  private lastDt = 0;
  /** @internal the world that last stepped or restored the system, or that a builder registered it with */
  steppedBy: World | null = null;
  private readonly collider: ParticleCollider;
  private readonly scratchPoint: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly scratchVelocity: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly scratchImpulse: Vec3 = { x: 0, y: 0, z: 0 };

  constructor(options: ParticleSystemOptions = {}) {
    const cap0 = options.capacity ?? 64;
    requireInteger(cap0, 0, 1 << 24, 'capacity');
    const cap = Math.max(1, cap0);
    this.positionArray = new Float64Array(3 * cap);
    this.previousArray = new Float64Array(3 * cap);
    this.inverseMassArray = new Float64Array(cap);
    this.predictedVelocities = new Float64Array(3 * cap);
    this.contactBody = new Int32Array(cap);
    this.contactNormal = new Float64Array(3 * cap);
    this.iterations = options.iterations ?? 10;
    this.damping = options.damping ?? 0.01;
    this.gravityScale = options.gravityScale ?? 1;
    this.gravity = options.gravity ?? null;
    this.approximateSqrt = options.approximateSqrt ?? false;
    this.collide = options.collide ?? true;
    this.friction = options.friction ?? 0.3;
    this.pushBodies = options.pushBodies ?? true;
    this.collisionGroup = options.collisionGroup ?? -1;
    this.collisionMask = options.collisionMask ?? -1;
    this.bounds = options.bounds ?? null;
    this.radiusValue = options.radius ?? 0.02;
    requireInRange(this.radiusValue, 0, 1e6, 'radius');
    this.collider = new ParticleCollider(this.radiusValue);
  }

  /** Collision radius of every particle, metres, in [0, 1e6]. */
  get radius(): number { return this.radiusValue; }
  set radius(r: number) {
    requireInRange(r, 0, 1e6, 'radius');
    this.radiusValue = r;
    this.collider.setRadius(r);
  }

  /** Relaxation sweeps per step, integer in [1, 1000]. */
  get iterations(): number { return this.iterationsValue; }
  set iterations(v: number) { requireInteger(v, 1, 1000, 'iterations'); this.iterationsValue = v; }
  /** Fraction of the implied velocity removed per step, [0, 1]. */
  get damping(): number { return this.dampingValue; }
  set damping(v: number) { requireInRange(v, 0, 1, 'damping'); this.dampingValue = v; }
  /** Multiplier on the world's gravity, in [-MAX_GRAVITY_SCALE, MAX_GRAVITY_SCALE] as for bodies. */
  get gravityScale(): number { return this.gravityScaleValue; }
  set gravityScale(v: number) { requireInRange(v, -MAX_GRAVITY_SCALE, MAX_GRAVITY_SCALE, 'gravityScale'); this.gravityScaleValue = v; }
  /** Gravity override (m/s², each component within ±MAX_GRAVITY as for the world's; copied when set), or null for the world's. */
  get gravity(): Readonly<Vec3> | null { return this.gravityValue; }
  set gravity(g: Readonly<Vec3> | null) {
    if (g === null) { this.gravityValue = null; return; }
    requireFiniteVec(g, 'gravity');
    requireInRange(g.x, -MAX_GRAVITY, MAX_GRAVITY, 'gravity.x');
    requireInRange(g.y, -MAX_GRAVITY, MAX_GRAVITY, 'gravity.y');
    requireInRange(g.z, -MAX_GRAVITY, MAX_GRAVITY, 'gravity.z');
    // Frozen: the getter hands out this copy, and a component written into it would reach the next step unchecked.
    this.gravityValue = Object.freeze({ x: g.x, y: g.y, z: g.z });
  }
  get approximateSqrt(): boolean { return this.approximateSqrtValue; }
  set approximateSqrt(v: boolean) { requireBoolean(v, 'approximateSqrt'); this.approximateSqrtValue = v; }
  get collide(): boolean { return this.collideValue; }
  set collide(v: boolean) { requireBoolean(v, 'collide'); this.collideValue = v; }
  /** Fraction of the tangential slip removed per step at a contact, [0, 1]. */
  get friction(): number { return this.frictionValue; }
  set friction(v: number) { requireInRange(v, 0, 1, 'friction'); this.frictionValue = v; }
  get pushBodies(): boolean { return this.pushBodiesValue; }
  set pushBodies(v: boolean) { requireBoolean(v, 'pushBodies'); this.pushBodiesValue = v; }
  /** 32 collision bits (read back as a signed 32-bit integer). */
  get collisionGroup(): number { return this.collisionGroupValue; }
  set collisionGroup(v: number) { this.collisionGroupValue = requireCollisionBits(v, 'collisionGroup'); }
  get collisionMask(): number { return this.collisionMaskValue; }
  set collisionMask(v: number) { this.collisionMaskValue = requireCollisionBits(v, 'collisionMask'); }
  /** Box the particle centres are kept in (copied when set: min ≤ max, finite), or null. */
  get bounds(): { readonly min: Readonly<Vec3>; readonly max: Readonly<Vec3> } | null { return this.boundsValue; }
  set bounds(b: { min: Readonly<Vec3>; max: Readonly<Vec3> } | null) {
    if (b === null) { this.boundsValue = null; return; }
    if (typeof b !== 'object') throw new TypeError(`bounds must be { min, max } or null (got ${String(b)})`);
    requireFiniteVec(b.min, 'bounds.min');
    requireFiniteVec(b.max, 'bounds.max');
    if (!(b.min.x <= b.max.x && b.min.y <= b.max.y && b.min.z <= b.max.z)) throw new RangeError('bounds.min must be ≤ bounds.max on every axis');
    // Frozen, as gravity: the getter hands out this copy.
    this.boundsValue = Object.freeze({ min: Object.freeze({ x: b.min.x, y: b.min.y, z: b.min.z }), max: Object.freeze({ x: b.max.x, y: b.max.y, z: b.max.z }) });
  }

  /** Adds a particle at rest (each coordinate within ±MAX_POSITION); returns its index. inverseMass 0 makes it immovable. */
  addParticle(position: Readonly<Vec3>, inverseMass = 1): number {
    requirePosition(position, 'addParticle: position');
    if (!(inverseMass >= 0) || !Number.isFinite(inverseMass)) throw new RangeError(`addParticle: inverseMass must be finite and ≥ 0 (got ${inverseMass})`);
    const i = this.countValue;
    if (3 * i + 3 > this.positionArray.length) {
      const cap = 2 * (this.positionArray.length / 3);
      this.positionArray = resizedFloat64(this.positionArray, 3 * cap);
      this.previousArray = resizedFloat64(this.previousArray, 3 * cap);
      this.predictedVelocities = resizedFloat64(this.predictedVelocities, 3 * cap);
      this.contactNormal = resizedFloat64(this.contactNormal, 3 * cap);
      this.inverseMassArray = resizedFloat64(this.inverseMassArray, cap);
      this.contactBody = resizedInt32(this.contactBody, cap);
    }
    this.positionArray[3 * i] = position.x; this.positionArray[3 * i + 1] = position.y; this.positionArray[3 * i + 2] = position.z;
    this.previousArray[3 * i] = position.x; this.previousArray[3 * i + 1] = position.y; this.previousArray[3 * i + 2] = position.z;
    this.inverseMassArray[i] = inverseMass;
    this.contactBody[i] = -1;
    this.countValue = i + 1;
    this.sticks.particleCount = i + 1;
    this.pins.particleCount = i + 1;
    return i;
  }

  private check(i: number, method: string): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.countValue) throw new RangeError(`${method}: particle index ${String(i)} out of range [0, ${this.countValue})`);
  }

  private distance(a: number, b: number): number {
    const x = this.positionArray;
    return Math.hypot(x[3 * b]! - x[3 * a]!, x[3 * b + 1]! - x[3 * a + 1]!, x[3 * b + 2]! - x[3 * a + 2]!);
  }

  /** A rigid stick between a and b; rest length = their current distance unless given. Returns its index in `sticks`. */
  addStick(a: number, b: number, stiffness = 1, restLength?: number): number {
    this.check(a, 'addStick'); this.check(b, 'addStick');
    const l = restLength ?? this.distance(a, b);
    return this.sticks.add(a, b, l, l, stiffness);
  }

  /** Keeps minLength ≤ |x_b − x_a| ≤ maxLength (e.g. minLength 0: a slack rope); 0 ≤ minLength ≤ maxLength ≤ MAX_BODY_STATE. */
  addDistanceLimit(a: number, b: number, minLength: number, maxLength: number, stiffness = 1): number {
    this.check(a, 'addDistanceLimit'); this.check(b, 'addDistanceLimit');
    return this.sticks.add(a, b, minLength, maxLength, stiffness);
  }

  /** Pins particle i at a world point (default: where it is now); its inverse mass becomes 0. */
  pinToWorld(i: number, point?: Readonly<Vec3>): void {
    this.check(i, 'pinToWorld');
    if (point !== undefined) requirePosition(point, 'pinToWorld: point');
    const p = point ?? this.getPosition(this.scratchPoint, i);
    this.pins.add(i, null, p, this.inverseMassArray[i]!);
    this.inverseMassArray[i] = 0;
    this.placeAt(i, p.x, p.y, p.z);
  }

  /**
   * Pins particle i to a point fixed on `body` (local frame; default: where
   * the particle is now). It then moves with the body. Inverse mass becomes 0.
   * The body must be in the world that steps the system (and in the world of
   * the system's other body pins): one of another world is refused here
   * when the system's world is known (a builder registered it, or it was
   * stepped), else at the next step.
   * When the body is removed from its world, the pin is released at the next
   * step and the particle gets back the inverse mass it had before pinning.
   */
  pinToBody(i: number, body: RigidBody, localPoint?: Readonly<Vec3>): void {
    this.check(i, 'pinToBody');
    if (body === null || typeof body !== 'object' || !body.position || !body.rotation) throw new TypeError('pinToBody: body must be a RigidBody');
    if (body.world === null) throw new Error(`pinToBody: body ${body.id} is not in a world (removed)`);
    // A snapshot saves a pin by body id, which only names the right body in the system's own world.
    const own = this.world();
    if (own !== null && body.world !== own) throw new Error(`pinToBody: body ${body.id} is not in this system's world`);
    for (let k = 0; k < this.pins.count; k++) {
      const other = this.pins.body[k];
      if (other && other.world !== null && other.world !== body.world) throw new Error(`pinToBody: body ${body.id} is not in the world of body ${other.id}, which particle ${this.pins.particle[k]} is pinned to`);
    }
    if (localPoint !== undefined) requirePosition(localPoint, 'pinToBody: localPoint');
    let local = localPoint;
    if (!local) {
      const p = this.getPosition({ x: 0, y: 0, z: 0 }, i);
      const q = body.rotation;
      const vx = p.x - body.position.x, vy = p.y - body.position.y, vz = p.z - body.position.z;
      // inverse rotation: q* v q
      const qx = -q.x, qy = -q.y, qz = -q.z;
      const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
      local = { x: vx + q.w * tx + (qy * tz - qz * ty), y: vy + q.w * ty + (qz * tx - qx * tz), z: vz + q.w * tz + (qx * ty - qy * tx) };
    }
    const k = this.pins.add(i, body, local, this.inverseMassArray[i]!);
    this.inverseMassArray[i] = 0;
    this.pins.updateTargets();
    const t = this.pins.target;
    this.placeAt(i, t[3 * k]!, t[3 * k + 1]!, t[3 * k + 2]!);
  }

  /** The world stepping the system, when known: `steppedBy` while the system is still registered with it. */
  private world(): World | null {
    const w = this.steppedBy;
    return w !== null && w.steppers.indexOf(this) >= 0 ? w : null;
  }

  /** Removes the pin of particle i and gives it `inverseMass`. */
  unpin(i: number, inverseMass = 1): void {
    this.check(i, 'unpin');
    if (!(inverseMass >= 0) || !Number.isFinite(inverseMass)) throw new RangeError(`unpin: inverseMass must be finite and ≥ 0 (got ${inverseMass})`);
    this.pins.remove(i);
    this.inverseMassArray[i] = inverseMass;
  }

  /** Gives particle i a new inverse mass (finite, ≥ 0; 0 makes it immovable). A pinned particle keeps 0: use `unpin(i, inverseMass)`. */
  setInverseMass(i: number, inverseMass: number): void {
    this.check(i, 'setInverseMass');
    if (typeof inverseMass !== 'number' || !(inverseMass >= 0) || !Number.isFinite(inverseMass)) {
      throw new RangeError(`setInverseMass: inverseMass must be finite and ≥ 0 (got ${String(inverseMass)})`);
    }
    for (let k = 0; k < this.pins.count; k++) if (this.pins.particle[k] === i) throw new Error(`setInverseMass: particle ${i} is pinned (unpin it with unpin(${i}, inverseMass))`);
    this.inverseMassArray[i] = inverseMass;
  }

  getPosition(out: Vec3, i: number): Vec3 {
    requireOut(out, 'getPosition: out');
    this.check(i, 'getPosition');
    out.x = this.positionArray[3 * i]!; out.y = this.positionArray[3 * i + 1]!; out.z = this.positionArray[3 * i + 2]!;
    return out;
  }

  /**
   * Puts particle i at rest at (x, y, z), unchecked: a pin's point may lie
   * beyond MAX_POSITION when its body or the particle got there by simulation.
   */
  private placeAt(i: number, x: number, y: number, z: number): void {
    const o = 3 * i;
    this.positionArray[o] = x; this.positionArray[o + 1] = y; this.positionArray[o + 2] = z;
    this.previousArray[o] = x; this.previousArray[o + 1] = y; this.previousArray[o + 2] = z;
  }

  /** Moves particle i to p (each coordinate within ±MAX_POSITION) with zero velocity. */
  setPosition(i: number, p: Readonly<Vec3>): void {
    this.check(i, 'setPosition');
    requirePosition(p, 'setPosition: position');
    this.positionArray[3 * i] = p.x; this.positionArray[3 * i + 1] = p.y; this.positionArray[3 * i + 2] = p.z;
    this.previousArray[3 * i] = p.x; this.previousArray[3 * i + 1] = p.y; this.previousArray[3 * i + 2] = p.z;
  }

  /** Implied velocity (x − x_prev)/dt of the last step, m/s (zero before the first step). */
  getVelocity(out: Vec3, i: number): Vec3 {
    requireOut(out, 'getVelocity: out');
    this.check(i, 'getVelocity');
    const inv = this.lastDt > 0 ? 1 / this.lastDt : 0;
    out.x = (this.positionArray[3 * i]! - this.previousArray[3 * i]!) * inv;
    out.y = (this.positionArray[3 * i + 1]! - this.previousArray[3 * i + 1]!) * inv;
    out.z = (this.positionArray[3 * i + 2]! - this.previousArray[3 * i + 2]!) * inv;
    return out;
  }

  /**
   * WorldStepper, for `World.snapshot`: the particles' positions, previous
   * positions and inverse masses, the last step (the implied velocity's
   * time base), the distance constraints and the pins. Layout: `i32`
   * particle, stick and pin counts, each stick's particles (all A, then all
   * B), each pin's particle, each pin's body id (−1: the world); `f64` the
   * last dt, positions, previous positions, inverse masses, the sticks'
   * minimum and maximum lengths and stiffnesses, the pins' points and
   * targets. The settings (iterations, damping, radius, …) are not included.
   */
  snapshotState(): StepperSnapshot {
    // The raw arrays, checked by name as the next step checks them (restore would refuse them by index).
    this.requireValidState(null);
    const n = this.countValue, m = this.sticks.count, p = this.pins.count;
    const i32 = new Int32Array(3 + 2 * m + 2 * p);
    i32[0] = n; i32[1] = m; i32[2] = p;
    i32.set(this.sticks.particleA.subarray(0, m), 3);
    i32.set(this.sticks.particleB.subarray(0, m), 3 + m);
    i32.set(this.pins.particle.subarray(0, p), 3 + 2 * m);
    for (let k = 0; k < p; k++) i32[3 + 2 * m + p + k] = this.pins.body[k]?.id ?? -1;
    const f64 = new Float64Array(1 + 7 * n + 3 * m + 6 * p);
    f64[0] = this.lastDt;
    let o = 1;
    f64.set(this.positionArray.subarray(0, 3 * n), o); o += 3 * n;
    f64.set(this.previousArray.subarray(0, 3 * n), o); o += 3 * n;
    f64.set(this.inverseMassArray.subarray(0, n), o); o += n;
    f64.set(this.sticks.minLength.subarray(0, m), o); o += m;
    f64.set(this.sticks.maxLength.subarray(0, m), o); o += m;
    f64.set(this.sticks.stiffness.subarray(0, m), o); o += m;
    f64.set(this.pins.point.subarray(0, 3 * p), o); o += 3 * p;
    f64.set(this.pins.target.subarray(0, 3 * p), o);
    return { f64, i32 };
  }

  /** WorldStepper: throws a SnapshotError unless `restoreState(state)` fits this system (same particles and sticks) and `world`. */
  validateState(state: StepperSnapshot, world: World): void {
    if (state === null || typeof state !== 'object' || !(state.i32 instanceof Int32Array) || !(state.f64 instanceof Float64Array)) {
      throw new SnapshotError('restore: a particle system state must be { f64: Float64Array, i32: Int32Array }');
    }
    const i32 = state.i32, f64 = state.f64;
    if (i32.length < 3) throw new SnapshotError('restore: particle state truncated');
    const n = i32[0]!, m = i32[1]!, p = i32[2]!;
    if (n !== this.countValue) throw new SnapshotError(`restore: the snapshot's particle system has ${n} particles, the world's ${this.countValue}`);
    if (m !== this.sticks.count) throw new SnapshotError(`restore: the snapshot's particle system has ${m} distance constraints, the world's ${this.sticks.count}`);
    if (!(p >= 0 && p <= n)) throw new SnapshotError(`restore: particle system with ${p} pins`);
    if (i32.length !== 3 + 2 * m + 2 * p || f64.length !== 1 + 7 * n + 3 * m + 6 * p) throw new SnapshotError('restore: particle state truncated or of another size');
    for (let k = 0; k < f64.length; k++) {
      if (!Number.isFinite(f64[k]!)) throw new SnapshotError(`restore: particle state value ${k} is ${f64[k]}`);
    }
    const lastDt = f64[0]!;
    if (!(lastDt >= 0 && lastDt <= MAX_TIME_STEP)) throw new SnapshotError(`restore: particle system last dt ${lastDt} (0, or within (0, ${MAX_TIME_STEP}] s)`);
    // As checkState requires at the next step: positions within ±1e15, speeds over the last step below 1e15 m/s.
    const span = lastDt > 0 ? lastDt * MAX_BODY_STATE : Infinity;
    for (let k = 0; k < 3 * n; k++) {
      const x = f64[1 + k]!, xp = f64[1 + 3 * n + k]!;
      if (!(Math.abs(x) <= MAX_BODY_STATE && Math.abs(xp) <= MAX_BODY_STATE && Math.abs(x - xp) <= span)) {
        throw new SnapshotError(`restore: particle ${Math.floor(k / 3)} at ${x} (previous ${xp}) over a last dt of ${lastDt} s: positions must be within ±1e15 and the speed below 1e15 m/s`);
      }
    }
    for (let k = 0; k < 2 * m + p; k++) {
      const i = i32[3 + k]!;
      if (!(i >= 0 && i < n)) throw new SnapshotError(`restore: particle index ${i} out of range [0, ${n})`);
    }
    for (let k = 0; k < p; k++) {
      for (let l = 0; l < k; l++) {
        if (i32[3 + 2 * m + l] === i32[3 + 2 * m + k]) throw new SnapshotError(`restore: particle ${i32[3 + 2 * m + k]} is pinned twice`);
      }
      const id = i32[3 + 2 * m + p + k]!;
      if (id !== -1 && world.getBodyById(id) === undefined) throw new SnapshotError(`restore: a particle is pinned to body ${id}, which is not in this world`);
    }
    for (let k = 0; k < this.pins.count; k++) {
      const b = this.pins.body[k];
      // The snapshot saved this pin by the id of a body of another world: restoring would pin to this world's body of that id.
      if (b && b.world !== null && b.world !== world) throw new SnapshotError(`restore: particle ${this.pins.particle[k]} is pinned to body ${b.id} of another world`);
    }
    const wo = 1 + 6 * n, so = 1 + 7 * n;
    for (let i = 0; i < n; i++) if (!(f64[wo + i]! >= 0)) throw new SnapshotError(`restore: particle ${i} inverse mass ${f64[wo + i]}`);
    for (let k = 0; k < m; k++) {
      const lo = f64[so + k]!, hi = f64[so + m + k]!, st = f64[so + 2 * m + k]!;
      if (!(lo >= 0 && hi >= lo && hi <= MAX_BODY_STATE && st > 0 && st <= 1)) throw new SnapshotError(`restore: distance constraint ${k} has lengths ${lo}, ${hi} and stiffness ${st}`);
    }
    for (let k = so + 3 * m; k < f64.length; k++) {
      if (!(Math.abs(f64[k]!) <= MAX_BODY_STATE)) throw new SnapshotError(`restore: pin value ${k - so - 3 * m} is ${f64[k]} (points and targets within ±1e15)`);
    }
  }

  /** WorldStepper: restores what `snapshotState` saved (checked by `validateState`). */
  restoreState(state: StepperSnapshot, world: World): void {
    this.validateState(state, world);
    this.steppedBy = world;
    const i32 = state.i32, f64 = state.f64;
    const n = i32[0]!, m = i32[1]!, p = i32[2]!;
    this.lastDt = f64[0]!;
    let o = 1;
    this.positionArray.set(f64.subarray(o, o + 3 * n)); o += 3 * n;
    this.previousArray.set(f64.subarray(o, o + 3 * n)); o += 3 * n;
    this.inverseMassArray.set(f64.subarray(o, o + n)); o += n;
    const sticks = this.sticks;
    sticks.particleA.set(i32.subarray(3, 3 + m));
    sticks.particleB.set(i32.subarray(3 + m, 3 + 2 * m));
    sticks.minLength.set(f64.subarray(o, o + m)); o += m;
    sticks.maxLength.set(f64.subarray(o, o + m)); o += m;
    sticks.stiffness.set(f64.subarray(o, o + m)); o += m;
    const pins = this.pins;
    pins.count = 0;
    pins.body.length = 0;
    const point = this.scratchPoint;
    for (let k = 0; k < p; k++) {
      const id = i32[3 + 2 * m + p + k]!;
      point.x = f64[o + 3 * k]!; point.y = f64[o + 3 * k + 1]!; point.z = f64[o + 3 * k + 2]!;
      pins.add(i32[3 + 2 * m + k]!, id === -1 ? null : world.getBodyById(id)!, point);
    }
    pins.target.set(f64.subarray(o + 3 * p, o + 6 * p));
  }

  /** WorldStepper: called by the world after the rigid bodies. */
  postStep(world: World, dt: number): void {
    checkStepArgs(dt, world);
    this.steppedBy = world;
    this.advance(dt, world);
  }

  /**
   * WorldStepper: the raw arrays (`positions`, `previousPositions`,
   * `inverseMasses`, the columns and counts of `sticks` and `pins`) are
   * checked before the world moves anything, as `step` checks them when
   * called directly. A pin on a body of a world other than `world` is
   * refused too.
   */
  checkState(world: World | null = null): void {
    this.requireValidState(world);
  }

  /** checkState's work (snapshotState's too, with no world: a pin on another world's body is restore's to refuse). */
  private requireValidState(world: World | null): void {
    checkDistanceConstraints(this.sticks, this.countValue);
    checkPins(this.pins, this.countValue, world);
    const n = 3 * this.countValue, L = MAX_BODY_STATE;
    const x = this.positionArray, xp = this.previousArray, w = this.inverseMassArray;
    // The step scales x − x_prev by dt / lastDt: beyond 1e15 m/s over the
    // last step that overflows (a raw write, or a tiny step a constraint moved).
    const span = this.lastDt > 0 ? this.lastDt * L : Infinity;
    for (let k = 0; k < n; k++) {
      if (!(Math.abs(x[k]!) <= L)) badParticleValue('positions', k, x[k]!, 'setPosition');
      if (!(Math.abs(xp[k]!) <= L)) badParticleValue('previousPositions', k, xp[k]!, 'setPosition');
      if (!(Math.abs(x[k]! - xp[k]!) <= span)) {
        throw new RangeError(`ParticleSystem.positions[${k}] − previousPositions[${k}] (particle ${Math.floor(k / 3)}) is ${x[k]! - xp[k]!} m over a last step of ${this.lastDt} s, above 1e15 m/s; write it through setPosition`);
      }
    }
    for (let i = 0; i < this.countValue; i++) {
      if (!(w[i]! >= 0 && w[i]! < Infinity)) throw new RangeError(`ParticleSystem.inverseMasses[${i}] must be a finite number ≥ 0 (got ${w[i]}); write it through setInverseMass`);
    }
  }

  /** Advances the particles by dt seconds; without a world there are no body collisions. */
  step(dt: number, world: World | null = null): void {
    checkStepArgs(dt, world);
    this.checkState(world);
    this.advance(dt, world);
  }

  /** step's work, after its checks (the world checks dt and checkState before it calls postStep). */
  private advance(dt: number, world: World | null): void {
    this.releaseRemovedBodyPins();
    const n = this.countValue;
    const x = this.positionArray, xp = this.previousArray, w = this.inverseMassArray, vPred = this.predictedVelocities;
    const g = this.gravity ?? (world !== null ? world.gravity : null);
    const gs = this.gravityScale * dt * dt;
    const ax = g !== null ? g.x * gs : 0, ay = g !== null ? g.y * gs : -9.81 * gs, az = g !== null ? g.z * gs : 0;
    const keep = (1 - this.damping) * (this.lastDt > 0 ? dt / this.lastDt : 1);
    const invDt = 1 / dt;
    let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;

    // 1. Verlet integration.
    for (let i = 0; i < n; i++) {
      const o = 3 * i;
      const px = x[o]!, py = x[o + 1]!, pz = x[o + 2]!;
      if (w[i]! > 0) {
        const dx = (px - xp[o]!) * keep + ax, dy = (py - xp[o + 1]!) * keep + ay, dz = (pz - xp[o + 2]!) * keep + az;
        x[o] = px + dx; x[o + 1] = py + dy; x[o + 2] = pz + dz;
        vPred[o] = dx * invDt; vPred[o + 1] = dy * invDt; vPred[o + 2] = dz * invDt;
      } else {
        vPred[o] = 0; vPred[o + 1] = 0; vPred[o + 2] = 0;
      }
      xp[o] = px; xp[o + 1] = py; xp[o + 2] = pz;
      const qx = x[o]!, qy = x[o + 1]!, qz = x[o + 2]!;
      if (qx < minX) minX = qx; if (qx > maxX) maxX = qx;
      if (qy < minY) minY = qy; if (qy > maxY) maxY = qy;
      if (qz < minZ) minZ = qz; if (qz > maxZ) maxZ = qz;
      this.contactBody[i] = -1;
    }
    this.pins.updateTargets();
    this.pins.solve(x);

    // 2. One broadphase query for the whole system.
    const collider = this.collider;
    const colliding = this.collide && world !== null && n > 0;
    collider.candidateCount = 0;
    if (colliding) {
      const m = this.radiusValue + QUERY_SKIN;
      collider.collisionGroup = this.collisionGroup;
      collider.collisionMask = this.collisionMask;
      collider.gather(world, minX - m, minY - m, minZ - m, maxX + m, maxY + m, maxZ + m);
    }
    const hasBodies = collider.candidateCount > 0;

    // 3. Relaxation.
    const r = this.radiusValue, bounds = this.bounds, cBody = this.contactBody, cN = this.contactNormal, cn = collider.normal;
    const iterations = Math.max(1, Math.floor(this.iterations));
    for (let it = 0; it < iterations; it++) {
      const last = it === iterations - 1;
      solveDistanceConstraints(this.sticks, x, w, this.approximateSqrt, (it & 1) === 1);
      this.pins.solve(x);
      if (bounds !== null) solveBounds(x, n, bounds.min, bounds.max, r);
      if (!hasBodies) continue;
      for (let i = 0; i < n; i++) {
        if (w[i] === 0) continue;
        const k = collider.project(x, 3 * i, r);
        if (last && k >= 0) {
          cBody[i] = k;
          cN[3 * i] = cn.x; cN[3 * i + 1] = cn.y; cN[3 * i + 2] = cn.z;
        }
      }
    }

    // 4. Contact velocities: restitution 0, friction, momentum to dynamic bodies.
    if (bounds !== null) this.clipBoundsVelocity(bounds.min, bounds.max, r);
    if (hasBodies) this.resolveContactVelocities(dt);
    this.lastDt = dt;
  }

  /**
   * Pins on bodies that were removed from their world are released (as the
   * world removes a removed body's joints): the particle gets back the
   * inverse mass it had before it was pinned, and keeps its velocity.
   */
  private releaseRemovedBodyPins(): void {
    const pins = this.pins;
    for (let k = pins.count - 1; k >= 0; k--) {
      const body = pins.body[k];
      if (body === null || body === undefined || body.world !== null) continue;
      const i = pins.particle[k]!;
      this.inverseMassArray[i] = pins.freeInverseMass[k]!;
      pins.remove(i);
    }
  }

  /**
   * Jakobsen says Verlet "automatically" loses the normal velocity at a wall;
   * that holds one step late (x_prev is still inside the approach). Clamping
   * x_prev's coordinate to the wall too makes the wall-normal velocity zero at
   * once (restitution 0) while the tangential velocity is kept.
   */
  private clipBoundsVelocity(min: Readonly<Vec3>, max: Readonly<Vec3>, r: number): void {
    const x = this.positionArray, xp = this.previousArray;
    const lo0 = min.x + r, lo1 = min.y + r, lo2 = min.z + r, hi0 = max.x - r, hi1 = max.y - r, hi2 = max.z - r;
    for (let o = 0, e = 3 * this.countValue; o < e; o += 3) {
      if (x[o] === lo0 && xp[o]! > lo0) xp[o] = lo0; else if (x[o] === hi0 && xp[o]! < hi0) xp[o] = hi0;
      if (x[o + 1] === lo1 && xp[o + 1]! > lo1) xp[o + 1] = lo1; else if (x[o + 1] === hi1 && xp[o + 1]! < hi1) xp[o + 1] = hi1;
      if (x[o + 2] === lo2 && xp[o + 2]! > lo2) xp[o + 2] = lo2; else if (x[o + 2] === hi2 && xp[o + 2]! < hi2) xp[o + 2] = hi2;
    }
  }

  /**
   * For each particle touching body B with push-out normal n, relative
   * displacement d = (x − x_prev) − v_B(x)·dt:
   *   d·n < 0 → remove it (x_prev += n (d·n)): restitution 0 against a moving body;
   *   tangential part d_t → x_prev += friction · d_t.
   * A dynamic body receives J = m (v_pred − v_B)·n · n when that is < 0: the
   * momentum the particle lost stopping against it (its weight, at rest).
   */
  private resolveContactVelocities(dt: number): void {
    const x = this.positionArray, xp = this.previousArray, w = this.inverseMassArray, vPred = this.predictedVelocities;
    const cBody = this.contactBody, cN = this.contactNormal, f = this.friction, candidates = this.collider.candidates;
    const p = this.scratchPoint, vb = this.scratchVelocity, J = this.scratchImpulse;
    for (let i = 0, n = this.countValue; i < n; i++) {
      const k = cBody[i]!;
      if (k < 0) continue;
      const body = candidates[k]!;
      const o = 3 * i;
      const nx = cN[o]!, ny = cN[o + 1]!, nz = cN[o + 2]!;
      p.x = x[o]!; p.y = x[o + 1]!; p.z = x[o + 2]!;
      body.getPointVelocity(vb, p);
      const dx = x[o]! - xp[o]! - vb.x * dt, dy = x[o + 1]! - xp[o + 1]! - vb.y * dt, dz = x[o + 2]! - xp[o + 2]! - vb.z * dt;
      const dn = dx * nx + dy * ny + dz * nz;
      const tx = dx - dn * nx, ty = dy - dn * ny, tz = dz - dn * nz;
      const cx = (dn < 0 ? dn : 0);
      xp[o] = xp[o]! + cx * nx + f * tx;
      xp[o + 1] = xp[o + 1]! + cx * ny + f * ty;
      xp[o + 2] = xp[o + 2]! + cx * nz + f * tz;
      if (this.pushBodies && body.isDynamic) {
        const vn = (vPred[o]! - vb.x) * nx + (vPred[o + 1]! - vb.y) * ny + (vPred[o + 2]! - vb.z) * nz;
        if (vn < 0) {
          const m = 1 / w[i]!;
          J.x = m * vn * nx; J.y = m * vn * ny; J.z = m * vn * nz;
          body.applyImpulseClamped(J, p);
        }
      }
    }
  }
}

function badParticleValue(array: string, k: number, value: number, setter: string): never {
  throw new RangeError(`ParticleSystem.${array}[${k}] (particle ${Math.floor(k / 3)}) must be a finite number within ±1e15 (MAX_BODY_STATE) (got ${value}); write it through ${setter}`);
}

function checkStepArgs(dt: number, world: World | null): void {
  if (typeof dt !== 'number' || !(dt > 0 && dt <= MAX_TIME_STEP)) throw new RangeError(`dt must be a number in (0, ${MAX_TIME_STEP}] seconds (got ${dt})`);
  if (world !== null && (typeof world !== 'object' || typeof world.gravity !== 'object')) throw new TypeError(`ParticleSystem.step: world must be a World or null (got ${String(world)})`);
}
