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
import type { ConvexShape, Shape } from '../shapes/shape';
import {
  magnitude, MAX_ACCELERATION, MAX_ANGULAR_ACCELERATION, MAX_ANGULAR_SPEED, MAX_BODY_STATE, MAX_LINEAR_SPEED, requireBoolean, requireCollisionBits,
  lockFields, requireFinite, requireFiniteQuat, requireFiniteVec, requireFriction, requireOut, requireInRange, requireMagnitude, requireNonNegative, requirePosition,
  MAX_GRAVITY_SCALE,
} from '../math/validate';

import { readBodyDesc, type BodyDesc, BodyTypeCode, type BodyType, COMBINE_CODES, type CombineMode, combineCode } from './body-desc';
import { shapeExtent } from './body-extent';
import { staleTurnCos } from './body-mass';

export { BodyTypeCode, type BodyDesc, type BodyType, type CombineMode } from './body-desc';

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

/** Fields fixed at creation, made read-only in plain JavaScript too (the constructor's last step). */
const LOCKED_FIELDS: readonly string[] = [
  'id', 'type', 'typeCode', 'shape', 'position', 'rotation', 'linearVelocity', 'angularVelocity', 'previousPosition', 'previousRotation',
  'mass', 'inverseMass', 'inertia', 'inertiaRotation', 'inertiaFramed', 'inverseInertiaLocal', 'staleTurnCos', 'inverseInertiaWorld',
  'isSensor', 'force', 'torque', 'kinematicTargetPosition', 'kinematicTargetRotation', 'boundingRadius', 'elongation', 'thinnestHalfSize',
  'continuousReach', 'roundingRadius',
];

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
  /** Principal moments of inertia (kg·m²), along the axes `inertiaRotation` turns into the body's. */
  readonly inertia: Readonly<Vec3>;
  /** Unit quaternion from the principal axes of inertia to the body's axes (identity unless the description gave one). */
  readonly inertiaRotation: Readonly<Quat>;
  /** @internal whether inertiaRotation turns at all (updateInertia and the solver skip the product when not) */
  readonly inertiaFramed: boolean;
  /** @internal the principal axes in world space, rotation ⊗ inertiaRotation (updateInertia's scratch) */
  private readonly principalAxes: Quat = { x: 0, y: 0, z: 0, w: 1 };
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
    const s = readBodyDesc(desc);
    const { type, shape, position: p, rotation: q, linearVelocity: v, angularVelocity: w, mass, inertia, awake } = s;
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
    const ir = s.inertiaRotation;
    this.inertiaRotation = ir;
    this.inertiaFramed = ir.x !== 0 || ir.y !== 0 || ir.z !== 0;
    this.inverseInertiaLocal = {
      x: inertia.x > 0 ? 1 / inertia.x : 0,
      y: inertia.y > 0 ? 1 / inertia.y : 0,
      z: inertia.z > 0 ? 1 / inertia.z : 0,
    };
    this.staleTurnCos = staleTurnCos(this.inverseInertiaLocal.x, this.inverseInertiaLocal.y, this.inverseInertiaLocal.z);
    this.inverseInertiaWorld = mat3();
    this.frictionValue = s.friction;
    this.staticFrictionRaw = s.staticFriction;
    this.restitutionValue = s.restitution;
    this.frictionCombineCode = s.frictionCombine;
    this.restitutionCombineCode = s.restitutionCombine;
    if (!awake && type !== 'static') {
      // A sleeping island of its own (islands.ts: a circular list).
      this.awake = false;
      this.islandNext = this;
    }
    this.linearDampingValue = s.linearDamping;
    this.angularDampingValue = s.angularDamping;
    this.gravityScaleValue = s.gravityScale;
    this.collisionGroupValue = s.collisionGroup;
    this.collisionMaskValue = s.collisionMask;
    this.isSensor = s.isSensor;
    this.canSleepValue = s.canSleep;
    this.userData = desc.userData;
    const extent = shapeExtent(shape);
    this.boundingRadius = extent.boundingRadius;
    this.roundingRadius = extent.roundingRadius;
    this.elongation = extent.elongation;
    this.thinnestHalfSize = extent.thinnestHalfSize;
    this.continuousReach = extent.continuousReach;
    this.updateInertia();
    Object.freeze(this.inertia);
    Object.freeze(this.inertiaRotation);
    // Readonly to TypeScript only: a plain-JavaScript write would change a
    // body's shape, mass or type behind the solver's back (a new shape
    // collided at its new size with the old mass). Same hidden class for
    // every body, so reads stay as fast.
    lockFields(this, LOCKED_FIELDS);
  }

  /** Coulomb friction coefficient μ, finite, in [0, MAX_FRICTION = 1e9]. */
  get friction(): number { return this.frictionValue; }
  set friction(v: number) { requireFriction(v, 'body.friction'); this.frictionValue = v; }
  /** Friction coefficient of contacts that are not sliding, in [0, MAX_FRICTION] (the same as `friction` until set). */
  get staticFriction(): number { return this.staticFrictionRaw < 0 ? this.frictionValue : this.staticFrictionRaw; }
  set staticFriction(v: number) { requireFriction(v, 'body.staticFriction'); this.staticFrictionRaw = v; }
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
  /**
   * 32-bit bits of the groups this body collides with (read back as a signed
   * 32-bit integer). A change to it or to collisionGroup takes effect before
   * the next step: contacts the new filter refuses end (contactEnd), pairs it
   * now allows are found.
   */
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

  /** @internal (R Q) diag(I⁻¹) (R Q)ᵀ with R the rotation and Q inertiaRotation */
  updateInertia(): void {
    if (!this.inertiaFramed) {
      rotateDiagonal(this.inverseInertiaWorld, this.rotation, this.inverseInertiaLocal);
      return;
    }
    rotateDiagonal(this.inverseInertiaWorld, quat.multiply(this.principalAxes, this.rotation, this.inertiaRotation), this.inverseInertiaLocal);
  }

  /** Teleports the body (wakes it); each component within ±MAX_POSITION. */
  setPosition(p: Readonly<Vec3>): void {
    requirePosition(p, 'position');
    // World.bodyPoseChanged moves the broadphase box and the odometer from
    // the rest of the pose: live views plain JavaScript can write, which the
    // next step's check would see too late.
    if (!(quatOk(this.rotation) && viewOk(this.previousPosition) && quatOk(this.previousRotation))) requireBodyViews(this, SET_POSITION_READS, 'setPosition');
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
    // As setPosition: the rest of the pose, before anything changes.
    if (!(viewOk(this.position) && viewOk(this.previousPosition) && quatOk(this.previousRotation))) requireBodyViews(this, SET_ROTATION_READS, 'setRotation');
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

  /**
   * @internal As applyAngularImpulse, but scaled down to reach
   * MAX_ANGULAR_SPEED instead of being refused (applyImpulseClamped's
   * angular twin, for impulses that must not throw half-way through a frame).
   */
  applyAngularImpulseClamped(impulse: Readonly<Vec3>): void {
    requireFiniteVec(impulse, 'angularImpulse');
    if (this.typeCode !== BodyTypeCode.Dynamic) return;
    const I = this.inverseInertiaWorld, w = this.angularVelocity as Vec3, dw = clampDw;
    dw.x = I.m00 * impulse.x + I.m01 * impulse.y + I.m02 * impulse.z;
    dw.y = I.m10 * impulse.x + I.m11 * impulse.y + I.m12 * impulse.z;
    dw.z = I.m20 * impulse.x + I.m21 * impulse.y + I.m22 * impulse.z;
    const k = scaleWithin(w, dw, MAX_ANGULAR_SPEED);
    if (k === 0) return;
    w.x += k * dw.x; w.y += k * dw.y; w.z += k * dw.z;
    this.wakeUp();
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
    requireOut(out, 'getPointVelocity: out');
    requireFiniteVec(worldPoint, 'getPointVelocity: worldPoint');
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
    requireOut(out, 'getInterpolatedPosition: out');
    if (typeof alpha !== 'number' || !(alpha - alpha === 0)) requireFinite(alpha, 'getInterpolatedPosition: alpha');
    const a = this.previousPosition;
    const b = this.position;
    out.x = a.x + (b.x - a.x) * alpha;
    out.y = a.y + (b.y - a.y) * alpha;
    out.z = a.z + (b.z - a.z) * alpha;
    return out;
  }

  /** Rotation interpolated (nlerp) between the previous and current step. */
  getInterpolatedRotation(out: Quat, alpha: number): Quat {
    requireOut(out, 'getInterpolatedRotation: out');
    if (typeof alpha !== 'number' || !(alpha - alpha === 0)) requireFinite(alpha, 'getInterpolatedRotation: alpha');
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

/** The live views setPosition reads besides the position, and setRotation besides the rotation. */
const SET_POSITION_READS: readonly string[] = ['rotation', 'previousPosition', 'previousRotation'];
const SET_ROTATION_READS: readonly string[] = ['position', 'previousPosition', 'previousRotation'];

/** A live view's x, y, z are numbers within ±MAX_BODY_STATE (named loads: a keyed load of a double boxes it). */
function viewOk(v: Readonly<Vec3>): boolean {
  const L = MAX_BODY_STATE;
  return typeof v.x === 'number' && typeof v.y === 'number' && typeof v.z === 'number' && Math.abs(v.x) <= L && Math.abs(v.y) <= L && Math.abs(v.z) <= L;
}

function quatOk(q: Readonly<Quat>): boolean {
  return viewOk(q) && typeof q.w === 'number' && Math.abs(q.w) <= MAX_BODY_STATE;
}

/**
 * @internal Throws a RangeError naming the first component of the body's
 * live views `fields` (position, rotation, …) that is not a number within
 * ±MAX_BODY_STATE; `call` is what read it.
 */
export function requireBodyViews(b: RigidBody, fields: readonly string[], call: string): void {
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!, view = (b as unknown as Record<string, Record<string, unknown>>)[field]!;
    for (const c of field.endsWith('otation') ? 'xyzw' : 'xyz') {
      const x = view[c];
      if (!(typeof x === 'number' && Math.abs(x) <= MAX_BODY_STATE)) throw new RangeError(`${call}: body.${field}.${c} (body ${b.id}) must be a finite number within ±1e15 (MAX_BODY_STATE) (got ${String(x)})`);
    }
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
 * not speed the body up (as checkSpeedChange accepts it): k = s / |d|, with
 * s the root of s² + 2 (v·u) s + |v|² − max² = 0 along u = d / |d| (in unit
 * length, so a change of 1e300 still reaches max: |d|² would overflow). A
 * change whose length overflows gives 0.
 */
function scaleWithin(v: Readonly<Vec3>, d: Readonly<Vec3>, max: number): number {
  const sum = clampSum;
  sum.x = v.x + d.x; sum.y = v.y + d.y; sum.z = v.z + d.z;
  magnitudeInto(sum, 0);
  magnitudeInto(v, 1);
  const after = clampLengths[0]!, before = clampLengths[1]!;
  if (after <= max || after <= before) return 1;
  if (!(before < max)) return 0;
  magnitudeInto(d, 0);
  const length = clampLengths[0]!;
  if (!(length > 0 && length < Infinity)) return 0;
  const b = (v.x * d.x + v.y * d.y + v.z * d.z) / length, c = before * before - max * max;
  const k = (-b + Math.sqrt(b * b - c)) / length;
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
