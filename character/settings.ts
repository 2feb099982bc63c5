/**
 * The controller's settings: their documented defaults and ranges, and the
 * checks of settings and input vectors that throw a RangeError naming the
 * field.
 */
import { MAX_POSITION, type Vec3 } from '../src/index';

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

export const DEFAULT_SETTINGS: Readonly<CharacterSettings> = {
  maxSlopeDegrees: 45, stepHeight: 0.3, minStepForward: 0.1, snapDistance: 0.3, skinWidth: 0.01, maxIterations: 32, maxSweeps: 5,
  tolerance: 1e-4, slop: 0.002, gatherDistance: 0.05, collisionMask: 0xffffffff, pushStrength: 300, characterMass: 80,
};

/** The settings in the order the controller compares them each move. */
export const SETTING_FIELDS: readonly (keyof CharacterSettings)[] = [
  'maxSlopeDegrees', 'stepHeight', 'minStepForward', 'snapDistance', 'skinWidth', 'maxIterations', 'maxSweeps', 'tolerance', 'slop',
  'gatherDistance', 'collisionMask', 'pushStrength', 'characterMass',
];

export function requireVec(v: Readonly<Vec3>, field: string): void {
  if (v === null || typeof v !== 'object') throw new TypeError(`${field} must be a { x, y, z } object (got ${String(v)})`);
  if (!Number.isFinite(v.x) || !Number.isFinite(v.y) || !Number.isFinite(v.z)) throw new RangeError(`${field} must be finite (got (${v.x}, ${v.y}, ${v.z}))`);
}

/** A position the character may be put at: each coordinate within ±MAX_POSITION (its body's limit). */
export function requirePositionInRange(p: Readonly<Vec3>, field: string): void {
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

/** Throws a RangeError naming the first setting out of its range. */
export function validateSettingValues(s: Readonly<CharacterSettings>): void {
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
}
