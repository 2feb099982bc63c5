/**
 * The description a body is created from (`World.createBody(desc)`): its
 * fields with their defaults and units, and `readBodyDesc`, which checks each
 * field by name and fills in the defaults before a RigidBody is built.
 */
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { ConvexShape, Shape, ShapeKind } from '../shapes/shape';
import {
  MAX_ANGULAR_SPEED, MAX_GRAVITY_SCALE, MAX_LINEAR_SPEED, requireBoolean, requireCollisionBits, requireFiniteQuat, requireInRange,
  requireFriction, requireKnownKeys, requireMagnitude, requireNonNegative, requirePosition,
} from '../math/validate';
import { bodyMass } from './body-mass';

export type BodyType = 'static' | 'dynamic' | 'kinematic';
/** Numeric body type codes (match the broadphase categories). */
export const BodyTypeCode = { Static: 0, Kinematic: 1, Dynamic: 2 } as const;
export type BodyTypeCode = (typeof BodyTypeCode)[keyof typeof BodyTypeCode];

/** Creation settings of a body. Every field but `type` and `shape` is optional. */
export interface BodyDesc {
  /** 'static' never moves; 'kinematic' moves by its velocities (or a target pose) and is not pushed; 'dynamic' is simulated. */
  type: BodyType;
  shape: Shape;
  /** Metres, each component within ±MAX_POSITION (1e6). Default (0, 0, 0). */
  position?: Readonly<Vec3>;
  /** Unit quaternion (normalised on input). Default identity. */
  rotation?: Readonly<Quat>;
  /** m/s, magnitude ≤ MAX_LINEAR_SPEED (1e5). Default 0. */
  linearVelocity?: Readonly<Vec3>;
  /** rad/s, magnitude ≤ MAX_ANGULAR_SPEED (1e5). Default 0. */
  angularVelocity?: Readonly<Vec3>;
  /** kg, > 0, dynamic bodies only. Wins over `density`. Default: from density. */
  mass?: number;
  /** kg/m³, > 0. Default 1000 (water) when `mass` is not given. */
  density?: number;
  /** Coulomb friction coefficient μ of sliding contacts, in [0, MAX_FRICTION = 1e9]. Pairs combine by `frictionCombine`. Default 0.5. */
  friction?: number;
  /**
   * Friction coefficient in [0, MAX_FRICTION] of contacts that are not sliding (slower than
   * STATIC_SLIP_SPEED): what holds a resting body on a slope. Combined as
   * `friction`. Default: the same as `friction`.
   */
  staticFriction?: number;
  /** Restitution e in [0, 1]. Pairs combine by `restitutionCombine`. Default 0. */
  restitution?: number;
  /** How a pair's friction coefficients combine (see {@link CombineMode}). Default 'geometric' (√(μa μb)). */
  frictionCombine?: CombineMode;
  /** How a pair's restitutions combine (see {@link CombineMode}). Default 'maximum'. */
  restitutionCombine?: CombineMode;
  /**
   * Principal moments of inertia (kg·m²) along the body's axes (or along the
   * axes `inertiaRotation` turns them to), each finite > 0, replacing the
   * ones from the shape and mass (dynamic bodies only). Default: from the shape.
   */
  inertia?: Readonly<Vec3>;
  /**
   * Unit quaternion Q (normalised on input) from the principal axes of
   * inertia to the body's axes: the body-frame inertia tensor is
   * Q diag(inertia) Qᵀ, so a full tensor (Babylon's inertia +
   * inertiaOrientation) is exact. Dynamic bodies only. Default identity: the
   * moments lie along the body's axes.
   */
  inertiaRotation?: Readonly<Quat>;
  /**
   * false creates a dynamic or kinematic body asleep (as if its island had
   * gone to sleep; its velocities must be zero): it wakes when touched,
   * pushed or changed. Ignored for static bodies. Default true.
   */
  awake?: boolean;
  /** Linear damping c ≥ 0 (1/s): v *= 1 / (1 + dt c) each step. Default 0. */
  linearDamping?: number;
  /** Angular damping ≥ 0 (1/s). Default 0.05. */
  angularDamping?: number;
  /** Multiplies the world gravity for this body, finite. Default 1. */
  gravityScale?: number;
  /** 32-bit membership bits: an integer in [−2³¹, 2³² − 1]. Default 1. */
  collisionGroup?: number;
  /** 32-bit bits of the groups this body collides with (integer, as collisionGroup). Default 0xffffffff. Two bodies collide when each one's group meets the other's mask. */
  collisionMask?: number;
  /** A sensor reports sensorEnter/sensorExit and never pushes. Default false. */
  isSensor?: boolean;
  /** Allow sleeping. Default true. */
  canSleep?: boolean;
  /** Anything the game wants to attach. */
  userData?: unknown;
}

/** Every option of BodyDesc (createBody refuses others by name). */
const BODY_DESC_KEYS: readonly string[] = [
  'type', 'shape', 'position', 'rotation', 'linearVelocity', 'angularVelocity', 'mass', 'density', 'friction', 'staticFriction',
  'restitution', 'frictionCombine', 'restitutionCombine', 'inertia', 'inertiaRotation', 'awake', 'linearDamping', 'angularDamping',
  'gravityScale', 'collisionGroup', 'collisionMask', 'isSensor', 'canSleep', 'userData',
];

/**
 * How the friction (or restitution) of two bodies combine into the pair's:
 * 'geometric' √(a b), 'minimum', 'maximum', 'average' (a + b) / 2 or
 * 'multiply' a b. When the two bodies ask for different modes, the one later
 * in that list wins (Havok's rule, so Babylon scenes mix as on HavokPlugin).
 */
export type CombineMode = 'geometric' | 'minimum' | 'maximum' | 'average' | 'multiply';
/** @internal CombineMode codes in order of precedence (the larger wins). */
export const COMBINE_CODES: readonly CombineMode[] = ['geometric', 'minimum', 'maximum', 'average', 'multiply'];

/** @internal The COMBINE_CODES index of `mode`; throws naming `field` for anything else. */
export function combineCode(mode: unknown, field: string): number {
  const i = COMBINE_CODES.indexOf(mode as CombineMode);
  if (i < 0) throw new TypeError(`${field} must be one of ${COMBINE_CODES.map((m) => `'${m}'`).join(', ')} (got ${String(mode)})`);
  return i;
}

/** @internal The pair's coefficient from a and b under the combine code. */
export function combine(code: number, a: number, b: number): number {
  return code === 0 ? Math.sqrt(a * b) : code === 1 ? Math.min(a, b) : code === 2 ? Math.max(a, b) : code === 3 ? 0.5 * (a + b) : a * b;
}

/** @internal A description checked by readBodyDesc, with every default filled in. */
export interface BodySettings {
  type: BodyType;
  shape: Shape;
  position: Readonly<Vec3>;
  rotation: Readonly<Quat>;
  linearVelocity: Readonly<Vec3>;
  angularVelocity: Readonly<Vec3>;
  friction: number;
  /** −1 while it follows friction. */
  staticFriction: number;
  restitution: number;
  frictionCombine: number;
  restitutionCombine: number;
  awake: boolean;
  linearDamping: number;
  angularDamping: number;
  gravityScale: number;
  collisionGroup: number;
  collisionMask: number;
  isSensor: boolean;
  canSleep: boolean;
  /** kg; 0 unless dynamic. */
  mass: number;
  /** Principal moments (kg·m²); zero unless dynamic. */
  inertia: Vec3;
  /** From the principal axes to the body's, normalised; identity unless given. */
  inertiaRotation: Quat;
}

/** @internal Checks every field of `desc` (the first bad one is named in the error) and derives the mass properties. */
export function readBodyDesc(desc: BodyDesc): BodySettings {
  if (desc === null || typeof desc !== 'object') throw new TypeError('createBody: desc must be an object');
  const type = desc.type;
  if (type !== 'static' && type !== 'dynamic' && type !== 'kinematic') {
    throw new TypeError(`type must be 'static', 'dynamic' or 'kinematic' (got ${String(type)})`);
  }
  requireKnownKeys(desc, BODY_DESC_KEYS, 'createBody');
  if (!(desc.shape instanceof Shape)) throw new TypeError(`shape must be a footing Shape (Sphere, Box, Capsule, Cylinder, ConvexHull, Compound, TriangleMesh or HeightField; got ${String(desc.shape)})`);
  const shape = desc.shape;
  if (type === 'dynamic' && !(shape instanceof ConvexShape) && shape.kind !== ShapeKind.Compound) {
    throw new TypeError('shape: a TriangleMesh or HeightField body must be static (dynamic bodies need a convex shape or a Compound)');
  }
  const p = desc.position ?? { x: 0, y: 0, z: 0 };
  const q = desc.rotation ?? { x: 0, y: 0, z: 0, w: 1 };
  const v = desc.linearVelocity ?? { x: 0, y: 0, z: 0 };
  const w = desc.angularVelocity ?? { x: 0, y: 0, z: 0 };
  requirePosition(p, 'position');
  requireFiniteQuat(q, 'rotation');
  requireMagnitude(v, MAX_LINEAR_SPEED, 'MAX_LINEAR_SPEED', 'm/s', 'linearVelocity');
  requireMagnitude(w, MAX_ANGULAR_SPEED, 'MAX_ANGULAR_SPEED', 'rad/s', 'angularVelocity');
  const friction = desc.friction ?? 0.5;
  const restitution = desc.restitution ?? 0;
  const linearDamping = desc.linearDamping ?? 0;
  const angularDamping = desc.angularDamping ?? 0.05;
  const gravityScale = desc.gravityScale ?? 1;
  requireFriction(friction, 'friction');
  if (desc.staticFriction !== undefined) requireFriction(desc.staticFriction, 'staticFriction');
  const frictionCombine = combineCode(desc.frictionCombine ?? 'geometric', 'frictionCombine');
  const restitutionCombine = combineCode(desc.restitutionCombine ?? 'maximum', 'restitutionCombine');
  const awake = desc.awake ?? true;
  requireBoolean(awake, 'awake');
  requireNonNegative(restitution, 'restitution');
  if (restitution > 1) throw new RangeError(`restitution must be in [0, 1] (got ${restitution})`);
  requireNonNegative(linearDamping, 'linearDamping');
  requireNonNegative(angularDamping, 'angularDamping');
  requireInRange(gravityScale, -MAX_GRAVITY_SCALE, MAX_GRAVITY_SCALE, 'gravityScale');
  const collisionGroup = requireCollisionBits(desc.collisionGroup ?? 1, 'collisionGroup');
  const collisionMask = requireCollisionBits(desc.collisionMask ?? 0xffffffff, 'collisionMask');
  const isSensor = desc.isSensor ?? false;
  const canSleep = desc.canSleep ?? true;
  requireBoolean(isSensor, 'isSensor');
  requireBoolean(canSleep, 'canSleep');

  // Ignored unless dynamic, but still a mistake worth naming when malformed.
  if (type !== 'dynamic') {
    // 0 allowed here: many engines (and Babylon's mass 0) spell "immovable" that way.
    if (desc.mass !== undefined && !(typeof desc.mass === 'number' && desc.mass >= 0 && desc.mass < Infinity)) throw new RangeError(`mass must be a finite number ≥ 0 (got ${String(desc.mass)}); a ${type} body ignores it`);
    if (desc.density !== undefined && !(typeof desc.density === 'number' && desc.density >= 0 && desc.density < Infinity)) throw new RangeError(`density must be a finite number ≥ 0 (got ${String(desc.density)}); a ${type} body ignores it`);
  }
  if (desc.inertia !== undefined && type !== 'dynamic') throw new TypeError(`inertia: only a dynamic body has inertia (this one is ${type})`);
  if (desc.inertiaRotation !== undefined && type !== 'dynamic') throw new TypeError(`inertiaRotation: only a dynamic body has inertia (this one is ${type})`);
  if (!awake && type !== 'static' && (v.x !== 0 || v.y !== 0 || v.z !== 0 || w.x !== 0 || w.y !== 0 || w.z !== 0)) {
    throw new RangeError('awake: a body created asleep must have zero linearVelocity and angularVelocity');
  }

  const { mass, inertia, inertiaRotation } = bodyMass(type, shape, desc);
  return {
    type, shape, position: p, rotation: q, linearVelocity: v, angularVelocity: w,
    friction, staticFriction: desc.staticFriction ?? -1, restitution, frictionCombine, restitutionCombine, awake,
    linearDamping, angularDamping, gravityScale, collisionGroup, collisionMask, isSensor, canSleep, mass, inertia, inertiaRotation,
  };
}
