/**
 * Input checks shared by the setters and settings checks. Each throws a
 * TypeError or RangeError whose message starts with the field's name, e.g.
 * `RangeError: world.gravity.y must be a finite number (got NaN)`.
 */
import type { Quat } from './quat';
import type { Vec3 } from './vec3';

/**
 * Longest step `World.step` and `ParticleSystem.step` accept, seconds (20 Hz).
 * Longer steps are refused, not sub-divided (see README, "Limits").
 */
export const MAX_TIME_STEP = 0.05;
/** Smallest and largest shape dimension (radius, half extent, half height) accepted, metres. */
export const MIN_SHAPE_SIZE = 1e-6;
export const MAX_SHAPE_SIZE = 1e6;

export function requireFinite(value: number, field: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`${field} must be a finite number (got ${String(value)})`);
}

export function requireNonNegative(value: number, field: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`${field} must be a finite number ≥ 0 (got ${String(value)})`);
  }
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
 * 32 collision bits: an integer in [−2³¹, 2³² − 1] (so both −1 and
 * 0xffffffff mean "all"). Returns it as a signed 32-bit integer.
 */
export function requireCollisionBits(value: number, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < -0x80000000 || value > 0xffffffff) {
    throw new RangeError(`${field} must be an integer in [-2^31, 2^32 - 1] (32 collision bits; got ${String(value)})`);
  }
  return value | 0;
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
