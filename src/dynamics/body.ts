/**
 * Rigid bodies. A body is created by `World.createBody(desc)`; its pose and
 * velocities are live read-only views (change them through the setters, which
 * validate the input and wake the body).
 */
import type { Mat3 } from '../math/mat3';
import { mat3, rotateDiagonal } from '../math/mat3';
import type { Quat } from '../math/quat';
import * as quat from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { ConvexShape, Shape, ShapeKind } from '../shapes/shape';
import {
  magnitude, MAX_ACCELERATION, MAX_ANGULAR_ACCELERATION, MAX_ANGULAR_SPEED, MAX_LINEAR_SPEED, requireBoolean, requireCollisionBits,
  requireFiniteQuat, requireFiniteVec, requireInRange, requireMagnitude, requireNonNegative, requirePosition,
  MAX_GRAVITY_SCALE,
} from '../math/validate';

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
  /** Coulomb friction coefficient μ ≥ 0 of sliding contacts. Pairs combine by `frictionCombine`. Default 0.5. */
  friction?: number;
  /**
   * Friction coefficient ≥ 0 of contacts that are not sliding (slower than
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
   * Principal moments of inertia (kg·m²) along the body's axes, each finite
   * > 0, replacing the ones from the shape and mass (dynamic bodies only).
   * Default: from the shape.
   */
  inertia?: Readonly<Vec3>;
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

/**
 * How the friction (or restitution) of two bodies combine into the pair's:
 * 'geometric' √(a b), 'minimum', 'maximum', 'average' (a + b) / 2 or
 * 'multiply' a b. When the two bodies ask for different modes, the one later
 * in that list wins (Havok's rule, so Babylon scenes mix as on HavokPlugin).
 */
export type CombineMode = 'geometric' | 'minimum' | 'maximum' | 'average' | 'multiply';
/** @internal CombineMode codes in order of precedence (the larger wins). */
export const COMBINE_CODES: readonly CombineMode[] = ['geometric', 'minimum', 'maximum', 'average', 'multiply'];

function combineCode(mode: unknown, field: string): number {
  const i = COMBINE_CODES.indexOf(mode as CombineMode);
  if (i < 0) throw new TypeError(`${field} must be one of ${COMBINE_CODES.map((m) => `'${m}'`).join(', ')} (got ${String(mode)})`);
  return i;
}

/** @internal The pair's coefficient from a and b under the combine code. */
export function combine(code: number, a: number, b: number): number {
  return code === 0 ? Math.sqrt(a * b) : code === 1 ? Math.min(a, b) : code === 2 ? Math.max(a, b) : code === 3 ? 0.5 * (a + b) : a * b;
}

/** Minimal surface of the owning world that bodies call back into. */
export interface BodyOwner {
  wakeBody(body: RigidBody): void;
  /** The body's collision group or mask changed: its contacts and pairs are filtered anew before the next step. */
  filterChanged(body: RigidBody): void;
  bodyPoseChanged(body: RigidBody): void;
  assertNotStepping(field: string): void;
}

/** @internal Validation helpers shared with the world. */
export const validate = { requireFiniteVec, requireFiniteQuat, requireNonNegative };

export class RigidBody {
  /**
   * Unique within the world, never reused, except that `World.restore`
   * rewinds the id counter to the snapshot's: a body created after the
   * snapshot and removed before the restore gives its id again, so a replay
   * creates the same ids.
   */
  readonly id: number;
  readonly type: BodyType;
  /** @internal */ readonly typeCode: BodyTypeCode;
  readonly shape: Shape;
  readonly position: Readonly<Vec3>;
  readonly rotation: Readonly<Quat>;
  readonly linearVelocity: Readonly<Vec3>;
  readonly angularVelocity: Readonly<Vec3>;
  /** Pose at the start of the last step (for render interpolation). */
  readonly previousPosition: Readonly<Vec3>;
  readonly previousRotation: Readonly<Quat>;
  // Numeric fields start as numbers (not undefined): V8 keeps a field that
  // starts out undefined as a tagged slot, and then boxes every double
  // written to it.
  /** kg (0 for static and kinematic bodies). */
  readonly mass: number = 0;
  readonly inverseMass: number = 0;
  /** Principal moments of inertia in the local frame (kg·m²). */
  readonly inertia: Readonly<Vec3>;
  /** @internal */ readonly inverseInertiaLocal: Vec3;
  /**
   * @internal cos(½ θ_max): within a step the solver recomputes this body's
   * world inertia and contact rows once it has turned θ_max (see
   * SolverBodies.refreshInertia and MAX_STALE_ANGLE).
   */
  readonly staleTurnCos: number;
  /** @internal World-space inverse inertia, refreshed when the rotation changes. */
  readonly inverseInertiaWorld: Mat3;
  // The material, damping, gravity scale and filter are accessors that
  // check what is written (a NaN would otherwise reach the solver at the next step).
  private frictionValue = 0;
  /** @internal The static friction as set, −1 while it follows `friction` (the snapshot keeps it so). */
  staticFrictionRaw = -1;
  private restitutionValue = 0;
  /** @internal COMBINE_CODES index */ frictionCombineCode = 0;
  /** @internal COMBINE_CODES index */ restitutionCombineCode = 2;
  private linearDampingValue = 0;
  private angularDampingValue = 0;
  private gravityScaleValue = 1;
  private collisionGroupValue = 1;
  private collisionMaskValue = -1;
  private canSleepValue = true;
  readonly isSensor: boolean;
  userData: unknown;

  /** @internal */ owner: BodyOwner | null = null;
  /** @internal slot in the world's body array */ index = -1;
  /** @internal velocity or pose changed from outside a step: the fat box must be refitted to the motion before the next one */ proxyStale = true;
  /** @internal broadphase handle */ proxy = -1;
  /**
   * @internal metres: a running upper bound on how far any point of the shape
   * has moved since the body was made (each step's or set pose's translation
   * plus the turn's chord at the bounding radius). Pairs compare it with the
   * gap they last measured (ContactManager.update).
   */
  odometer = 0;
  /** @internal */ awake = true;
  /** @internal seconds spent below the sleep thresholds */ sleepTime = 0;
  /** @internal next member of this body's sleeping island (intrusive list) */ islandNext: RigidBody | null = null;
  /** @internal solver slot during a step (-1: not in the solver) */ solverIndex = -1;
  /** @internal touching contact points this step (for the catto2005 m_c share) */ contactPointCount = 0;
  /** @internal accumulated force (N) and torque (N·m), cleared after each step */
  readonly force: Vec3 = { x: 0, y: 0, z: 0 };
  /** @internal */ readonly torque: Vec3 = { x: 0, y: 0, z: 0 };
  /** Scratch of impulseSpin. */
  private readonly spinChange: Vec3 = { x: 0, y: 0, z: 0 };
  /** @internal kinematic target pose for the next step */ hasKinematicTarget = false;
  /** @internal the step in progress ends exactly on the kinematic target (sub-step rotation integration only approximates it) */ endsOnKinematicTarget = false;
  /** @internal */ readonly kinematicTargetPosition: Vec3 = { x: 0, y: 0, z: 0 };
  /** @internal */ readonly kinematicTargetRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };
  /** @internal radius of a sphere around the origin holding the shape (speculative margins) */ readonly boundingRadius: number;
  /**
   * @internal boundingRadius over the shape's smallest half size (1 for a
   * sphere, 1.7 for a cube, 3-4 for a ragdoll's limbs, 40 for a 2.7 m stick
   * 6 cm thick): which turning bodies split a step (stepParts, step-split.ts).
   */
  readonly elongation: number;
  /**
   * @internal the shape's smallest half size (a box's thinnest half extent, a
   * capsule's radius, a hull's or compound's thinnest half depth): how far a
   * step may move the body before continuous collision sweeps it.
   */
  readonly thinnestHalfSize: number;
  /** @internal how far a point of the swept shape's core can be from its centre (0 for a ball, whose turn moves no surface, and for a compound, swept as a ball; a capsule's half height): a turn's reach in continuous collision */
  readonly continuousReach: number;
  /** @internal the shapes continuous collision sweeps (dynamics/continuous.ts): the shape shrunk by the penetration it tolerates, and the sphere about the centre of mass; made on first use */
  continuousInner: ConvexShape | null = null;
  /** @internal */ continuousCore: ConvexShape | null = null;
  /** @internal the shape shrunk by the most overlap a sweep tolerates (its core keeps its length): swept against surfaces continuousInner starts in */ continuousDeep: ConvexShape | null = null;
  /** @internal whether continuous collision put the body back in its last run (dynamics/continuous.ts stopApproach) */ continuousPutBack = false;
  /** @internal whether continuousInner was made for a jointed body (it tolerates more overlap) */ continuousInnerJointed = false;
  /** @internal radius of the shape's rounded surface (sphere, capsule), 0 for flat-faced shapes: contact anchors sit at its centre */ readonly roundingRadius: number;
  /** @internal collision filtering between jointed bodies: ids of bodies not to collide with */ noCollide: number[] | null = null;
  /** @internal joints attached to this body (attachJoint / detachJoint; broken ones still count) */ jointCount = 0;

  /** @internal use World.createBody */
  constructor(id: number, desc: BodyDesc) {
    if (desc === null || typeof desc !== 'object') throw new TypeError('createBody: desc must be an object');
    const type = desc.type;
    if (type !== 'static' && type !== 'dynamic' && type !== 'kinematic') {
      throw new TypeError(`type must be 'static', 'dynamic' or 'kinematic' (got ${String(type)})`);
    }
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
    requireNonNegative(friction, 'friction');
    if (desc.staticFriction !== undefined) requireNonNegative(desc.staticFriction, 'staticFriction');
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

    if (desc.inertia !== undefined && type !== 'dynamic') throw new TypeError(`inertia: only a dynamic body has inertia (this one is ${type})`);
    if (!awake && type !== 'static' && (v.x !== 0 || v.y !== 0 || v.z !== 0 || w.x !== 0 || w.y !== 0 || w.z !== 0)) {
      throw new RangeError('awake: a body created asleep must have zero linearVelocity and angularVelocity');
    }

    let mass = 0;
    const inertia = { x: 0, y: 0, z: 0 };
    if (type === 'dynamic') {
      // A Compound has the same massProperties (centre of mass at its origin, compound.ts).
      const convex = shape as ConvexShape;
      if (desc.mass !== undefined) {
        if (typeof desc.mass !== 'number' || !Number.isFinite(desc.mass) || desc.mass <= 0) {
          throw new RangeError(`mass must be a finite number > 0 for a dynamic body (got ${String(desc.mass)})`);
        }
        const props = convex.massProperties(1);
        const k = desc.mass / props.mass;
        mass = desc.mass;
        inertia.x = props.inertia.x * k;
        inertia.y = props.inertia.y * k;
        inertia.z = props.inertia.z * k;
      } else {
        const density = desc.density ?? 1000;
        if (typeof density !== 'number' || !Number.isFinite(density) || density <= 0) {
          throw new RangeError(`density must be a finite number > 0 (got ${String(density)})`);
        }
        const props = convex.massProperties(density);
        mass = props.mass;
        inertia.x = props.inertia.x;
        inertia.y = props.inertia.y;
        inertia.z = props.inertia.z;
      }
      // A size at the end of the accepted range with an extreme density or
      // mass can under- or overflow (a 1e-6 m box of density 1e-300 has mass 0).
      const what = desc.mass !== undefined ? `mass ${desc.mass}` : `density ${String(desc.density ?? 1000)}`;
      if (!(mass > 0 && mass < Infinity && 1 / mass < Infinity)) {
        throw new RangeError(`shape: the body's mass from its shape and ${what} is ${mass}; it must be finite and > 0 (use a larger shape or another mass/density)`);
      }
      if (desc.inertia !== undefined) {
        const di = desc.inertia;
        if (di === null || typeof di !== 'object') throw new TypeError(`inertia must be a vector { x, y, z } (got ${String(di)})`);
        for (const k of ['x', 'y', 'z'] as const) {
          const v = di[k];
          if (typeof v !== 'number' || !(v > 0 && v < Infinity && 1 / v < Infinity)) throw new RangeError(`inertia.${k} must be a finite number > 0 (got ${String(v)})`);
        }
        inertia.x = di.x; inertia.y = di.y; inertia.z = di.z;
      }
      if (!(inertia.x < Infinity && inertia.y < Infinity && inertia.z < Infinity && 1 / inertia.x < Infinity && 1 / inertia.y < Infinity && 1 / inertia.z < Infinity && inertia.x > 0 && inertia.y > 0 && inertia.z > 0)) {
        throw new RangeError(`shape: the body's inertia from its shape and ${what} is (${inertia.x}, ${inertia.y}, ${inertia.z}); it must be finite and > 0`);
      }
    }

    this.id = id;
    this.type = type;
    this.typeCode = type === 'static' ? BodyTypeCode.Static : type === 'kinematic' ? BodyTypeCode.Kinematic : BodyTypeCode.Dynamic;
    this.shape = shape;
    this.position = { x: p.x, y: p.y, z: p.z };
    const rot = { x: q.x, y: q.y, z: q.z, w: q.w };
    quat.normalize(rot, rot);
    this.rotation = rot;
    const movable = type !== 'static';
    this.linearVelocity = movable ? { x: v.x, y: v.y, z: v.z } : { x: 0, y: 0, z: 0 };
    this.angularVelocity = movable ? { x: w.x, y: w.y, z: w.z } : { x: 0, y: 0, z: 0 };
    this.previousPosition = { x: p.x, y: p.y, z: p.z };
    this.previousRotation = { x: rot.x, y: rot.y, z: rot.z, w: rot.w };
    this.mass = mass;
    this.inverseMass = mass > 0 ? 1 / mass : 0;
    this.inertia = inertia;
    this.inverseInertiaLocal = {
      x: inertia.x > 0 ? 1 / inertia.x : 0,
      y: inertia.y > 0 ? 1 / inertia.y : 0,
      z: inertia.z > 0 ? 1 / inertia.z : 0,
    };
    this.staleTurnCos = staleTurnCos(this.inverseInertiaLocal.x, this.inverseInertiaLocal.y, this.inverseInertiaLocal.z);
    this.inverseInertiaWorld = mat3();
    this.frictionValue = friction;
    this.staticFrictionRaw = desc.staticFriction ?? -1;
    this.restitutionValue = restitution;
    this.frictionCombineCode = frictionCombine;
    this.restitutionCombineCode = restitutionCombine;
    if (!awake && type !== 'static') {
      // A sleeping island of its own (islands.ts: a circular list).
      this.awake = false;
      this.islandNext = this;
    }
    this.linearDampingValue = linearDamping;
    this.angularDampingValue = angularDamping;
    this.gravityScaleValue = gravityScale;
    this.collisionGroupValue = collisionGroup;
    this.collisionMaskValue = collisionMask;
    this.isSensor = isSensor;
    this.canSleepValue = canSleep;
    this.userData = desc.userData;
    const sh = shape as Shape & { radius?: number; halfHeight?: number; halfExtents?: Vec3; boundingRadius?: number; thinnestHalfSize?: number };
    this.boundingRadius = sh.boundingRadius !== undefined ? sh.boundingRadius : sh.halfExtents
      ? Math.sqrt(sh.halfExtents.x ** 2 + sh.halfExtents.y ** 2 + sh.halfExtents.z ** 2)
      : (sh.radius ?? 0) + (sh.halfHeight ?? 0);
    this.roundingRadius = shape.kind === ShapeKind.Sphere || shape.kind === ShapeKind.Capsule || shape.kind === ShapeKind.Cylinder ? sh.radius! : 0;
    const thinnest = sh.thinnestHalfSize !== undefined ? sh.thinnestHalfSize : sh.halfExtents ? Math.min(sh.halfExtents.x, sh.halfExtents.y, sh.halfExtents.z) : sh.radius ?? 0;
    this.elongation = shape.kind === ShapeKind.Sphere || !(thinnest > 0) ? 1 : this.boundingRadius / thinnest;
    this.thinnestHalfSize = thinnestHalfSize(shape, thinnest);
    // A compound is swept as the sphere about its centre of mass only, which no turn moves.
    this.continuousReach = shape.kind === ShapeKind.Sphere || !shape.isConvex ? 0 : shape.kind === ShapeKind.Capsule ? sh.halfHeight! : this.boundingRadius;
    this.updateInertia();
  }

  /** Coulomb friction coefficient μ, finite ≥ 0. */
  get friction(): number { return this.frictionValue; }
  set friction(v: number) { requireNonNegative(v, 'body.friction'); this.frictionValue = v; }
  /** Friction coefficient of contacts that are not sliding, finite ≥ 0 (the same as `friction` until set). */
  get staticFriction(): number { return this.staticFrictionRaw < 0 ? this.frictionValue : this.staticFrictionRaw; }
  set staticFriction(v: number) { requireNonNegative(v, 'body.staticFriction'); this.staticFrictionRaw = v; }
  /** How this body's friction combines with another's. */
  get frictionCombine(): CombineMode { return COMBINE_CODES[this.frictionCombineCode]!; }
  set frictionCombine(v: CombineMode) { this.frictionCombineCode = combineCode(v, 'body.frictionCombine'); }
  /** How this body's restitution combines with another's. */
  get restitutionCombine(): CombineMode { return COMBINE_CODES[this.restitutionCombineCode]!; }
  set restitutionCombine(v: CombineMode) { this.restitutionCombineCode = combineCode(v, 'body.restitutionCombine'); }
  /** Restitution e in [0, 1]. */
  get restitution(): number { return this.restitutionValue; }
  set restitution(v: number) { requireInRange(v, 0, 1, 'body.restitution'); this.restitutionValue = v; }
  /** Linear damping (1/s), finite ≥ 0. */
  get linearDamping(): number { return this.linearDampingValue; }
  set linearDamping(v: number) { requireNonNegative(v, 'body.linearDamping'); this.linearDampingValue = v; }
  /** Angular damping (1/s), finite ≥ 0. */
  get angularDamping(): number { return this.angularDampingValue; }
  set angularDamping(v: number) { requireNonNegative(v, 'body.angularDamping'); this.angularDampingValue = v; }
  /** Multiplies the world gravity for this body, finite. */
  get gravityScale(): number { return this.gravityScaleValue; }
  set gravityScale(v: number) { requireInRange(v, -MAX_GRAVITY_SCALE, MAX_GRAVITY_SCALE, 'body.gravityScale'); this.gravityScaleValue = v; }
  /** 32-bit membership bits (read back as a signed 32-bit integer). */
  get collisionGroup(): number { return this.collisionGroupValue; }
  set collisionGroup(v: number) {
    const g = requireCollisionBits(v, 'body.collisionGroup');
    if (g === this.collisionGroupValue) return;
    this.collisionGroupValue = g;
    this.owner?.filterChanged(this);
  }
  /** 32-bit bits of the groups this body collides with (read back as a signed 32-bit integer). */
  get collisionMask(): number { return this.collisionMaskValue; }
  set collisionMask(v: number) {
    const m = requireCollisionBits(v, 'body.collisionMask');
    if (m === this.collisionMaskValue) return;
    this.collisionMaskValue = m;
    this.owner?.filterChanged(this);
  }
  /** Allow sleeping. */
  get canSleep(): boolean { return this.canSleepValue; }
  set canSleep(v: boolean) { requireBoolean(v, 'body.canSleep'); this.canSleepValue = v; }

  get isSleeping(): boolean {
    return !this.awake;
  }
  get isStatic(): boolean {
    return this.typeCode === BodyTypeCode.Static;
  }
  get isDynamic(): boolean {
    return this.typeCode === BodyTypeCode.Dynamic;
  }
  get isKinematic(): boolean {
    return this.typeCode === BodyTypeCode.Kinematic;
  }
  /** The world this body belongs to, or null once removed. */
  get world(): unknown {
    return this.owner;
  }

  /** @internal R diag(I⁻¹) Rᵀ */
  updateInertia(): void {
    rotateDiagonal(this.inverseInertiaWorld, this.rotation, this.inverseInertiaLocal);
  }

  /** Teleports the body (wakes it); each component within ±MAX_POSITION. */
  setPosition(p: Readonly<Vec3>): void {
    requirePosition(p, 'position');
    const pos = this.position as Vec3;
    pos.x = p.x;
    pos.y = p.y;
    pos.z = p.z;
    this.owner?.bodyPoseChanged(this);
    this.wakeUp();
  }

  /** Sets the orientation (normalised; wakes the body). */
  setRotation(q: Readonly<Quat>): void {
    requireFiniteQuat(q, 'rotation');
    quat.normalize(this.rotation as Quat, q);
    this.updateInertia();
    this.owner?.bodyPoseChanged(this);
    this.wakeUp();
  }

  /** m/s, magnitude ≤ MAX_LINEAR_SPEED; ignored for static bodies. Wakes the body. */
  setLinearVelocity(v: Readonly<Vec3>): void {
    requireMagnitude(v, MAX_LINEAR_SPEED, 'MAX_LINEAR_SPEED', 'm/s', 'linearVelocity');
    if (this.typeCode === BodyTypeCode.Static) return;
    const lv = this.linearVelocity as Vec3;
    lv.x = v.x;
    lv.y = v.y;
    lv.z = v.z;
    this.wakeUp();
  }

  /** rad/s, magnitude ≤ MAX_ANGULAR_SPEED; ignored for static bodies. Wakes the body. */
  setAngularVelocity(w: Readonly<Vec3>): void {
    requireMagnitude(w, MAX_ANGULAR_SPEED, 'MAX_ANGULAR_SPEED', 'rad/s', 'angularVelocity');
    if (this.typeCode === BodyTypeCode.Static) return;
    const av = this.angularVelocity as Vec3;
    av.x = w.x;
    av.y = w.y;
    av.z = w.z;
    this.wakeUp();
  }

  /**
   * Kinematic bodies: reach this pose at the end of the next step. The world
   * sets the velocities that get there, so dynamic bodies resting on it are
   * carried by friction.
   */
  setKinematicTarget(position: Readonly<Vec3>, rotation?: Readonly<Quat>): void {
    if (this.typeCode !== BodyTypeCode.Kinematic) throw new TypeError('setKinematicTarget: body must be kinematic');
    requirePosition(position, 'position');
    if (rotation) requireFiniteQuat(rotation, 'rotation');
    const t = this.kinematicTargetPosition;
    t.x = position.x;
    t.y = position.y;
    t.z = position.z;
    if (rotation) quat.normalize(this.kinematicTargetRotation, rotation);
    else quat.copy(this.kinematicTargetRotation, this.rotation);
    this.hasKinematicTarget = true;
    this.wakeUp();
  }

  /**
   * Adds an impulse (N·s) at a world point (default: the centre of mass).
   * Wakes the body. Refused when it would leave the body faster than
   * MAX_LINEAR_SPEED or MAX_ANGULAR_SPEED (and faster than before).
   */
  applyImpulse(impulse: Readonly<Vec3>, worldPoint?: Readonly<Vec3>): void {
    requireFiniteVec(impulse, 'impulse');
    if (worldPoint) requireFiniteVec(worldPoint, 'worldPoint');
    if (this.typeCode !== BodyTypeCode.Dynamic) return;
    const im = this.inverseMass;
    const v = this.linearVelocity as Vec3;
    const vx = v.x + impulse.x * im, vy = v.y + impulse.y * im, vz = v.z + impulse.z * im;
    checkSpeedChange(v, vx, vy, vz, MAX_LINEAR_SPEED, 'MAX_LINEAR_SPEED', 'm/s', 'impulse', this.id);
    const w = this.angularVelocity as Vec3;
    let wx = w.x, wy = w.y, wz = w.z;
    if (worldPoint) {
      const d = this.impulseSpin(impulse, worldPoint);
      wx += d.x; wy += d.y; wz += d.z;
      checkSpeedChange(w, wx, wy, wz, MAX_ANGULAR_SPEED, 'MAX_ANGULAR_SPEED', 'rad/s', 'impulse', this.id);
    }
    v.x = vx; v.y = vy; v.z = vz;
    w.x = wx; w.y = wy; w.z = wz;
    this.wakeUp();
  }

  /**
   * As applyImpulse, but an impulse that would take the body beyond
   * MAX_LINEAR_SPEED or MAX_ANGULAR_SPEED is scaled down to reach them
   * instead of being refused (up to rounding). For impulses worked out from
   * contacts, which must not throw half-way through a move or step: the
   * character's pushes and the particles' use it. Wakes the body.
   */
  applyImpulseClamped(impulse: Readonly<Vec3>, worldPoint?: Readonly<Vec3>): void {
    requireFiniteVec(impulse, 'impulse');
    if (worldPoint) requireFiniteVec(worldPoint, 'worldPoint');
    if (this.typeCode !== BodyTypeCode.Dynamic) return;
    const im = this.inverseMass;
    const v = this.linearVelocity as Vec3, w = this.angularVelocity as Vec3;
    const dv = clampDv, dw = clampDw;
    dv.x = impulse.x * im; dv.y = impulse.y * im; dv.z = impulse.z * im;
    dw.x = 0; dw.y = 0; dw.z = 0;
    if (worldPoint) {
      const d = this.impulseSpin(impulse, worldPoint);
      dw.x = d.x; dw.y = d.y; dw.z = d.z;
    }
    const k = Math.min(scaleWithin(v, dv, MAX_LINEAR_SPEED), scaleWithin(w, dw, MAX_ANGULAR_SPEED));
    if (k === 0) return;
    v.x += k * dv.x; v.y += k * dv.y; v.z += k * dv.z;
    w.x += k * dw.x; w.y += k * dw.y; w.z += k * dw.z;
    this.wakeUp();
  }

  /** Δω = I⁻¹ (r × P) of an impulse P at a world point, into `spinChange` (returned). */
  private impulseSpin(impulse: Readonly<Vec3>, worldPoint: Readonly<Vec3>): Vec3 {
    const rx = worldPoint.x - this.position.x;
    const ry = worldPoint.y - this.position.y;
    const rz = worldPoint.z - this.position.z;
    const tx = ry * impulse.z - rz * impulse.y;
    const ty = rz * impulse.x - rx * impulse.z;
    const tz = rx * impulse.y - ry * impulse.x;
    const I = this.inverseInertiaWorld, d = this.spinChange;
    d.x = I.m00 * tx + I.m01 * ty + I.m02 * tz;
    d.y = I.m10 * tx + I.m11 * ty + I.m12 * tz;
    d.z = I.m20 * tx + I.m21 * ty + I.m22 * tz;
    return d;
  }

  /** Adds an angular impulse (N·m·s). Wakes the body. Refused as applyImpulse beyond MAX_ANGULAR_SPEED. */
  applyAngularImpulse(impulse: Readonly<Vec3>): void {
    requireFiniteVec(impulse, 'angularImpulse');
    if (this.typeCode !== BodyTypeCode.Dynamic) return;
    const I = this.inverseInertiaWorld;
    const w = this.angularVelocity as Vec3;
    const wx = w.x + I.m00 * impulse.x + I.m01 * impulse.y + I.m02 * impulse.z;
    const wy = w.y + I.m10 * impulse.x + I.m11 * impulse.y + I.m12 * impulse.z;
    const wz = w.z + I.m20 * impulse.x + I.m21 * impulse.y + I.m22 * impulse.z;
    checkSpeedChange(w, wx, wy, wz, MAX_ANGULAR_SPEED, 'MAX_ANGULAR_SPEED', 'rad/s', 'angularImpulse', this.id);
    w.x = wx; w.y = wy; w.z = wz;
    this.wakeUp();
  }

  /**
   * Adds a force (N) at a world point (default: centre of mass) for the next
   * step. Wakes the body. Refused when the forces applied before the step
   * would accelerate it by more than MAX_ACCELERATION (or MAX_ANGULAR_ACCELERATION).
   */
  applyForce(force: Readonly<Vec3>, worldPoint?: Readonly<Vec3>): void {
    requireFiniteVec(force, 'force');
    if (worldPoint) requireFiniteVec(worldPoint, 'worldPoint');
    if (this.typeCode !== BodyTypeCode.Dynamic) return;
    const fx = this.force.x + force.x, fy = this.force.y + force.y, fz = this.force.z + force.z;
    const a = magnitude(fx, fy, fz) * this.inverseMass;
    if (a > MAX_ACCELERATION) {
      throw new RangeError(`force: the forces on body ${this.id} would accelerate it by ${a} m/s², beyond MAX_ACCELERATION (${MAX_ACCELERATION} m/s²)`);
    }
    let tx = this.torque.x, ty = this.torque.y, tz = this.torque.z;
    if (worldPoint) {
      const rx = worldPoint.x - this.position.x;
      const ry = worldPoint.y - this.position.y;
      const rz = worldPoint.z - this.position.z;
      tx += ry * force.z - rz * force.y;
      ty += rz * force.x - rx * force.z;
      tz += rx * force.y - ry * force.x;
      this.checkTorque(tx, ty, tz, 'force');
    }
    this.force.x = fx; this.force.y = fy; this.force.z = fz;
    this.torque.x = tx; this.torque.y = ty; this.torque.z = tz;
    this.wakeUp();
  }

  /** Adds a torque (N·m) for the next step. Wakes the body. Refused as applyForce beyond MAX_ANGULAR_ACCELERATION. */
  applyTorque(torque: Readonly<Vec3>): void {
    requireFiniteVec(torque, 'torque');
    if (this.typeCode !== BodyTypeCode.Dynamic) return;
    const tx = this.torque.x + torque.x, ty = this.torque.y + torque.y, tz = this.torque.z + torque.z;
    this.checkTorque(tx, ty, tz, 'torque');
    this.torque.x = tx; this.torque.y = ty; this.torque.z = tz;
    this.wakeUp();
  }

  /** Throws when the total torque (tx, ty, tz) would exceed MAX_ANGULAR_ACCELERATION. */
  private checkTorque(tx: number, ty: number, tz: number, field: string): void {
    const I = this.inverseInertiaWorld;
    const a = magnitude(I.m00 * tx + I.m01 * ty + I.m02 * tz, I.m10 * tx + I.m11 * ty + I.m12 * tz, I.m20 * tx + I.m21 * ty + I.m22 * tz);
    // Also catches a torque whose product with I⁻¹ overflows (a is then NaN or Infinity).
    if (!(a <= MAX_ANGULAR_ACCELERATION)) {
      throw new RangeError(`${field}: the torques on body ${this.id} would accelerate its turning by ${a} rad/s², beyond MAX_ANGULAR_ACCELERATION (${MAX_ANGULAR_ACCELERATION} rad/s²)`);
    }
  }

  /** Velocity of the material point at `worldPoint`: v + ω × (p − x). */
  getPointVelocity(out: Vec3, worldPoint: Readonly<Vec3>): Vec3 {
    const rx = worldPoint.x - this.position.x;
    const ry = worldPoint.y - this.position.y;
    const rz = worldPoint.z - this.position.z;
    const w = this.angularVelocity;
    const v = this.linearVelocity;
    out.x = v.x + (w.y * rz - w.z * ry);
    out.y = v.y + (w.z * rx - w.x * rz);
    out.z = v.z + (w.x * ry - w.y * rx);
    return out;
  }

  /** Position interpolated between the previous and current step (alpha from `world.advance`). */
  getInterpolatedPosition(out: Vec3, alpha: number): Vec3 {
    const a = this.previousPosition;
    const b = this.position;
    out.x = a.x + (b.x - a.x) * alpha;
    out.y = a.y + (b.y - a.y) * alpha;
    out.z = a.z + (b.z - a.z) * alpha;
    return out;
  }

  /** Rotation interpolated (nlerp) between the previous and current step. */
  getInterpolatedRotation(out: Quat, alpha: number): Quat {
    return quat.nlerp(out, this.previousRotation, this.rotation, alpha);
  }

  /** Wakes the body and its sleeping island. */
  wakeUp(): void {
    if (!this.awake && this.owner) this.owner.wakeBody(this);
    this.sleepTime = 0;
    // Every setter and impulse comes through here: the world refits the
    // body's broadphase box to its new motion before the next step.
    this.proxyStale = true;
  }
}

// applyImpulseClamped's scratch: its doubles cross calls through fields and a
// typed array, not arguments (CONTRIBUTING.md, hot path).
const clampDv: Vec3 = { x: 0, y: 0, z: 0 };
const clampDw: Vec3 = { x: 0, y: 0, z: 0 };
const clampSum: Vec3 = { x: 0, y: 0, z: 0 };
const clampLengths = new Float64Array(2);

/** magnitude(v.x, v.y, v.z) into clampLengths[i]. */
function magnitudeInto(v: Readonly<Vec3>, i: number): void {
  const x = v.x, y = v.y, z = v.z;
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  if (m === 0 || m === Infinity) { clampLengths[i] = m; return; }
  const a = x / m, b = y / m, c = z / m;
  clampLengths[i] = m * Math.sqrt(a * a + b * b + c * c);
}

/**
 * Largest k in [0, 1] with |v + k d| ≤ max, or 1 when the whole change does
 * not speed the body up (as checkSpeedChange accepts it): the root of
 * |d|² k² + 2 (v·d) k + |v|² − max² = 0. A change that overflows gives 0.
 */
function scaleWithin(v: Readonly<Vec3>, d: Readonly<Vec3>, max: number): number {
  const dx = d.x, dy = d.y, dz = d.z;
  const sum = clampSum;
  sum.x = v.x + dx; sum.y = v.y + dy; sum.z = v.z + dz;
  magnitudeInto(sum, 0);
  magnitudeInto(v, 1);
  const after = clampLengths[0]!, before = clampLengths[1]!;
  if (after <= max || after <= before) return 1;
  if (!(before < max)) return 0;
  const a = dx * dx + dy * dy + dz * dz, b = v.x * dx + v.y * dy + v.z * dz, c = before * before - max * max;
  const k = (-b + Math.sqrt(b * b - a * c)) / a;
  return k >= 0 && k <= 1 ? k : 0;
}

/**
 * Refuses a velocity change to (x, y, z) that ends faster than `max` and
 * faster than `before` (a change that slows a body down is always accepted).
 */
function checkSpeedChange(before: Readonly<Vec3>, x: number, y: number, z: number, max: number, maxName: string, unit: string, field: string, id: number): void {
  const after = magnitude(x, y, z);
  if (after <= max || after <= magnitude(before.x, before.y, before.z)) return;
  throw new RangeError(`${field}: it would take body ${id} to ${after} ${unit}, beyond ${maxName} (${max} ${unit})`);
}

/**
 * Turn (rad) after which a slot's world inertia and its contact rows are
 * recomputed within a step, for a body with equal principal moments.
 */
const MAX_STALE_ANGLE = 0.3;
/**
 * Relative error allowed in the world inertia before it is recomputed. Turned
 * by θ, the inertia about an axis grows from λ_min by up to (λ_max − λ_min)
 * sin²θ, a relative error of about (λ_max/λ_min − 1) θ².
 */
const STALE_INERTIA_ERROR = 0.15;

/** cos(½ θ_max) for a body with principal inverse inertia (a, b, c); see MAX_STALE_ANGLE. @internal */
export function staleTurnCos(a: number, b: number, c: number): number {
  const hi = Math.max(a, b, c), lo = Math.min(a, b, c);
  if (!(lo > 0)) return Math.cos(0.5 * MAX_STALE_ANGLE);
  const ratio = hi / lo - 1;
  const angle = ratio > 0 ? Math.min(MAX_STALE_ANGLE, Math.sqrt(STALE_INERTIA_ERROR / ratio)) : MAX_STALE_ANGLE;
  return Math.cos(0.5 * angle);
}

const unrotated: Quat = { x: 0, y: 0, z: 0, w: 1 };
const atOrigin: Vec3 = { x: 0, y: 0, z: 0 };

/** The shape's smallest half size: a cylinder's smaller of radius and half height, else the thinnest known or the local box's. */
function thinnestHalfSize(shape: Shape, thinnest: number): number {
  const sh = shape as Shape & { radius?: number; halfHeight?: number };
  if (shape.kind === ShapeKind.Cylinder) return Math.min(sh.radius!, sh.halfHeight!);
  if (thinnest > 0) return thinnest;
  const box = shape.computeAabb({ min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } }, atOrigin, unrotated);
  const h = 0.5 * Math.min(box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z);
  return h > 0 ? h : 0;
}
