/**
 * Input checks shared by the setters and settings checks. Each throws a
 * TypeError or RangeError whose message starts with the field's name, e.g.
 * `RangeError: world.gravity.y must be a finite number (got NaN)`.
 */
import type { Quat } from './quat';
import type { Vec3 } from './vec3';

/**
 * Longest step `World.step` and `ParticleSystem.step` accept, seconds (20 Hz).
 * Longer steps are refused, not sub-divided (docs/world.md, the limits table).
 */
export const MAX_TIME_STEP = 0.05;
/** Smallest and largest shape dimension (radius, half extent, half height) accepted, metres. */
export const MIN_SHAPE_SIZE = 1e-6;
export const MAX_SHAPE_SIZE = 1e6;
/**
 * Largest coordinate (each of x, y, z) a position may be given, metres: the
 * TriangleMesh and shape-size bound, where float64 still resolves 1e-10 m.
 */
export const MAX_POSITION = 1e6;
/**
 * Fastest linear velocity a body may be given, m/s (100 km/s): within a
 * 0.05 s step it moves 5 km, well inside MAX_POSITION, and v², m·v stay finite.
 */
export const MAX_LINEAR_SPEED = 1e5;
/** Fastest angular velocity a body may be given, rad/s (about 16 000 turns per second). */
export const MAX_ANGULAR_SPEED = 1e5;
/**
 * Largest acceleration the forces (F/m) and torques (I⁻¹τ) applied before a
 * step may cause, m/s² and rad/s²: what reaches the speed maxima within one
 * MAX_TIME_STEP.
 */
export const MAX_ACCELERATION = MAX_LINEAR_SPEED / MAX_TIME_STEP;
export const MAX_ANGULAR_ACCELERATION = MAX_ANGULAR_SPEED / MAX_TIME_STEP;
/**
 * Largest friction coefficient of a body (friction, staticFriction): far
 * beyond any surface (a coefficient of a few already never slides), while a
 * pair's combination (√(μa μb), μa μb) and its bound μ·λ stay finite.
 */
export const MAX_FRICTION = 1e9;
/**
 * Makes `names` of `obj` read-only in plain JavaScript too (fields readonly to
 * TypeScript that the engine holds on to: a write would go unseen by the code
 * that holds them). A write then throws a TypeError naming the field.
 */
export function lockFields(obj: object, names: readonly string[]): void {
  for (let i = 0; i < names.length; i++) Object.defineProperty(obj, names[i]!, { writable: false, configurable: false });
}

/** Largest |gravityScale| of a body. */
export const MAX_GRAVITY_SCALE = 100;
/**
 * Largest |component| of world.gravity, m/s²: 9.81 scaled to the largest
 * shape size (a world of 1e6 m bodies keeps Earth's proportions), and far
 * from overflowing the velocities over any number of steps.
 */
export const MAX_GRAVITY = 1e7;

/**
 * Largest |component| of a body's or particle's position (m) and velocity
 * (m/s, rad/s) at the start of a step, where state written directly to the
 * live views is checked: far beyond what the setters accept, so a world
 * stepped for years does not reach it, while squares and products of such
 * values stay finite.
 */
export const MAX_BODY_STATE = 1e15;

export function requireFinite(value: number, field: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`${field} must be a finite number (got ${String(value)})`);
}

export function requireNonNegative(value: number, field: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`${field} must be a finite number ≥ 0 (got ${String(value)})`);
  }
}

/** A friction coefficient: finite, in [0, MAX_FRICTION]. */
export function requireFriction(value: number, field: string): void {
  requireNonNegative(value, field);
  if (value > MAX_FRICTION) throw new RangeError(`${field} must be at most ${MAX_FRICTION} (MAX_FRICTION; got ${value})`);
}

export function requirePositive(value: number, field: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${field} must be a finite number > 0 (got ${String(value)})`);
  }
}

/** A finite number in [lo, hi]. */
export function requireInRange(value: number, lo: number, hi: number, field: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < lo || value > hi) {
    throw new RangeError(`${field} must be a finite number in [${lo}, ${hi}] (got ${String(value)})`);
  }
}

/** An integer in [lo, hi]. */
export function requireInteger(value: number, lo: number, hi: number, field: string): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < lo || value > hi) {
    throw new RangeError(`${field} must be an integer in [${lo}, ${hi}] (got ${String(value)})`);
  }
}

export function requireBoolean(value: boolean, field: string): void {
  if (typeof value !== 'boolean') throw new TypeError(`${field} must be a boolean (got ${String(value)})`);
}

/**
 * Throws a TypeError naming the first own key of `obj` that is not in
 * `known`, with the nearest known name when one is close: a misspelt
 * option would otherwise be ignored and its default used in silence.
 */
export function requireKnownKeys(obj: object, known: readonly string[], what: string): void {
  for (const key of Object.keys(obj)) {
    if (known.includes(key)) continue;
    let best = '', bestDistance = 3;
    for (const k of known) {
      const d = editDistance(key.toLowerCase(), k.toLowerCase());
      if (d < bestDistance) { best = k; bestDistance = d; }
    }
    throw new TypeError(`${what}: unknown option '${key}'${best ? ` (did you mean '${best}'?)` : ''}; the options are ${known.join(', ')}`);
  }
}

/** Levenshtein distance (short option names only). */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * 32 collision bits: an integer in [−2³¹, 2³² − 1] (so both −1 and
 * 0xffffffff mean "all"). Returns it as a signed 32-bit integer.
 */
export function requireCollisionBits(value: number, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < -0x80000000 || value > 0xffffffff) {
    throw new RangeError(`${field} must be an integer in [-2^31, 2^32 - 1] (32 collision bits; got ${String(value)})`);
  }
  return value | 0;
}

/** An object a result is written into (`getAnchorA(out)`). */
export function requireOut(out: object, field: string): void {
  if (out === null || typeof out !== 'object') throw new TypeError(`${field} must be an object to write the result into (got ${String(out)})`);
}

export function requireFiniteVec(v: Readonly<Vec3>, field: string): void {
  if (v === null || typeof v !== 'object') throw new TypeError(`${field} must be a { x, y, z } object (got ${String(v)})`);
  if (!Number.isFinite(v.x)) throw new RangeError(`${field}.x must be a finite number (got ${String(v.x)})`);
  if (!Number.isFinite(v.y)) throw new RangeError(`${field}.y must be a finite number (got ${String(v.y)})`);
  if (!Number.isFinite(v.z)) throw new RangeError(`${field}.z must be a finite number (got ${String(v.z)})`);
}

/** Finite components, not all zero (any length: `quat.normalize` scales huge and tiny ones safely). */
export function requireFiniteQuat(q: Readonly<Quat>, field: string): void {
  if (q === null || typeof q !== 'object') throw new TypeError(`${field} must be a { x, y, z, w } object (got ${String(q)})`);
  if (!Number.isFinite(q.x)) throw new RangeError(`${field}.x must be a finite number (got ${String(q.x)})`);
  if (!Number.isFinite(q.y)) throw new RangeError(`${field}.y must be a finite number (got ${String(q.y)})`);
  if (!Number.isFinite(q.z)) throw new RangeError(`${field}.z must be a finite number (got ${String(q.z)})`);
  if (!Number.isFinite(q.w)) throw new RangeError(`${field}.w must be a finite number (got ${String(q.w)})`);
  if (q.x === 0 && q.y === 0 && q.z === 0 && q.w === 0) throw new RangeError(`${field} must be a non-zero quaternion`);
}

/** Finite components, each within ±MAX_POSITION. */
export function requirePosition(p: Readonly<Vec3>, field: string): void {
  requireFiniteVec(p, field);
  if (Math.abs(p.x) > MAX_POSITION) throw new RangeError(`${field}.x must be within ±${MAX_POSITION} m (MAX_POSITION; got ${p.x})`);
  if (Math.abs(p.y) > MAX_POSITION) throw new RangeError(`${field}.y must be within ±${MAX_POSITION} m (MAX_POSITION; got ${p.y})`);
  if (Math.abs(p.z) > MAX_POSITION) throw new RangeError(`${field}.z must be within ±${MAX_POSITION} m (MAX_POSITION; got ${p.z})`);
}

/** |x, y, z| (no overflow for finite components up to 1e308). */
export function magnitude(x: number, y: number, z: number): number {
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  if (m === 0 || m === Infinity) return m;
  const a = x / m, b = y / m, c = z / m;
  return m * Math.sqrt(a * a + b * b + c * c);
}

/** Finite components and a magnitude ≤ `max` (the unit names the quantity, e.g. 'm/s'). */
export function requireMagnitude(v: Readonly<Vec3>, max: number, maxName: string, unit: string, field: string): void {
  requireFiniteVec(v, field);
  // The squares first, without a call: setLinearVelocity runs this every
  // frame, and magnitude's result, returned from a call V8 does not inline,
  // is boxed. (A square that overflows goes on to the exact magnitude.)
  const x = v.x, y = v.y, z = v.z;
  if (x * x + y * y + z * z <= max * max) return;
  const m = magnitude(x, y, z);
  if (m > max) throw new RangeError(`${field} must have a magnitude ≤ ${max} ${unit} (${maxName}; got ${m})`);
}
