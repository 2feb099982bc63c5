// FootingCharacterController's option and event types, and the checks of
// what its callers hand in (cold code: construction and setters).
import type { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import type { CharacterShapeOptions } from '@babylonjs/core/Physics/v2/characterController';
import { MAX_SHAPE_SIZE, MIN_SHAPE_SIZE, type RigidBody, type World } from '../../index';
import type { CharacterSettings } from '../../../character/index';
import type { FootingWorldHost } from './world-host';

/** Babylon's capsule defaults (PhysicsCharacterController): 1.8 m tall, 0.6 m radius. */
const DEFAULT_CAPSULE_HEIGHT = 1.8;
const DEFAULT_CAPSULE_RADIUS = 0.6;

/** Collision event of `onTriggerCollisionObservable` (one reused object: copy what you keep). */
export interface FootingCharacterCollisionEvent {
  /** The Babylon body hit, when the world's host (FootingPlugin) maps footing bodies to Babylon's; else null. */
  collider: PhysicsBody | null;
  /** Instance index of the collider (0: footing bodies are not instanced). */
  colliderIndex: number;
  /** The footing body hit. */
  body: RigidBody;
  /** Impulse given to the body, N·s. */
  impulse: Vector3;
  /** World point where it was applied. */
  impulsePosition: Vector3;
}

/** Options beyond Babylon's three constructor arguments. */
export interface FootingCharacterControllerOptions {
  /** The footing world (or an object holding one); default: the scene's physics plugin's `world`. */
  world?: World | FootingWorldHost;
  /** Settings of the underlying footing controller that Babylon's API does not name (snapDistance, minStepForward, …). */
  settings?: Partial<Pick<CharacterSettings, 'snapDistance' | 'minStepForward' | 'maxIterations' | 'tolerance' | 'slop' | 'collisionMask'>>;
  /** Membership bits of the character's own body. Default 1. */
  collisionGroup?: number;
}

export function requireFinite(name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`FootingCharacterController: ${name} must be a finite number (got ${String(value)})`);
}

export function requireRange(name: string, value: number, lo: number, hi: number): void {
  if (typeof value !== 'number' || !(value >= lo && value <= hi)) throw new RangeError(`FootingCharacterController: ${name} must be a number in [${lo}, ${hi}] (got ${String(value)})`);
}

export function requireVector(name: string, v: Vector3): void {
  if (v === null || typeof v !== 'object') throw new TypeError(`FootingCharacterController: ${name} must be a Vector3 (got ${String(v)})`);
  if (!Number.isFinite(v.x) || !Number.isFinite(v.y) || !Number.isFinite(v.z)) {
    throw new RangeError(`FootingCharacterController: ${name} must be finite (got (${String(v.x)}, ${String(v.y)}, ${String(v.z)}))`);
  }
}

/** requireVector, and each component within ±`bound` (`what` names the bound in the message). */
export function requireBoundedVector(name: string, v: Vector3, bound: number, what: string): void {
  requireVector(name, v);
  if (!(Math.abs(v.x) <= bound && Math.abs(v.y) <= bound && Math.abs(v.z) <= bound)) {
    throw new RangeError(`FootingCharacterController: ${name} must have each component within ±${bound} (${what}; got (${v.x}, ${v.y}, ${v.z}))`);
  }
}

/** Throws naming `name` unless `v` is a Vector3 that can be written (an output argument: checked before anything is written). */
export function requireWritableVector(name: string, v: Vector3): void {
  if (v === null || typeof v !== 'object' || typeof (v as { set?: unknown }).set !== 'function') {
    throw new TypeError(`FootingCharacterController: ${name} must be a Vector3 (got ${v === null || typeof v !== 'object' ? String(v) : 'an object without set()'})`);
  }
  if (Object.isFrozen(v)) throw new TypeError(`FootingCharacterController: ${name} is frozen and cannot be written`);
}

/** The length of (x, y, z) without overflow or underflow of the squares (1e300 and 1e-300 components give their true length). */
export function safeLength(x: number, y: number, z: number): number {
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  if (!(m > 0) || !Number.isFinite(m)) return m === 0 ? 0 : NaN;
  const a = x / m, b = y / m, c = z / m;
  return m * Math.sqrt(a * a + b * b + c * c);
}

/** Footing's capsule for Babylon's (total height h, radius r): segment half-length h/2 − r, at least MIN_SHAPE_SIZE (h ≤ 2r is a sphere). */
export function capsuleOf(options: CharacterShapeOptions): { radius: number; halfHeight: number; height: number } {
  if (options === null || typeof options !== 'object') throw new TypeError(`FootingCharacterController: characterShapeOptions must be an object (got ${String(options)})`);
  if (options.shape !== undefined) {
    throw new TypeError('FootingCharacterController: characterShapeOptions.shape is not supported (footing\'s character is a capsule): give capsuleHeight and capsuleRadius');
  }
  const radius = options.capsuleRadius ?? DEFAULT_CAPSULE_RADIUS;
  const height = options.capsuleHeight ?? DEFAULT_CAPSULE_HEIGHT;
  // footing's Capsule takes sizes in [MIN_SHAPE_SIZE, MAX_SHAPE_SIZE]: named here as Babylon's fields, not as Capsule.radius / halfHeight
  if (typeof radius !== 'number' || !(radius >= MIN_SHAPE_SIZE && radius <= MAX_SHAPE_SIZE)) {
    throw new RangeError(`FootingCharacterController: capsuleRadius must be a finite number in [${MIN_SHAPE_SIZE}, ${MAX_SHAPE_SIZE}] m (got ${String(radius)})`);
  }
  if (typeof height !== 'number' || !(height > 0 && height <= MAX_SHAPE_SIZE)) {
    throw new RangeError(`FootingCharacterController: capsuleHeight must be a finite number > 0 and ≤ ${MAX_SHAPE_SIZE} m (got ${String(height)})`);
  }
  return { radius, halfHeight: Math.max(height / 2 - radius, MIN_SHAPE_SIZE), height };
}
