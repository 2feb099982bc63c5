/**
 * The joint base class: two bodies, an anchor and a joint frame on each.
 *
 * A joint frame is a rotation `localFrameX` relative to its body; its local X
 * axis is the joint axis (hinge axis, twist axis), Y and Z span the swing
 * plane. World frames given at creation are turned into local frames once, so
 * the joint's angles read 0 in the pose it was created in.
 */
import type { RigidBody } from '../dynamics/body';
import type { SolverBodies } from '../dynamics/solver-bodies';
import * as quat from '../math/quat';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { lockFields, MAX_BODY_STATE, requireFiniteQuat, requireFiniteVec, requireInRange, requireOut, requirePosition } from '../math/validate';
import { JointSolver, type JointSolverSettings, type SolvedJoint } from './joint-solver';
import type { JointStepContext } from './rows';

/** Numeric joint kinds. */
export const JointKind = { Ball: 0, Hinge: 1, ConeTwist: 2, Fixed: 3, Distance: 4, Slider: 5, SixDof: 6 } as const;
export type JointKind = (typeof JointKind)[keyof typeof JointKind];

/** Options common to every joint. */
export interface JointDescBase {
  bodyA: RigidBody;
  bodyB: RigidBody;
  /** Let the two bodies collide with each other. Default false. */
  collideConnected?: boolean;
  /**
   * Dry friction torque (N·m, in [0, MAX_JOINT_TORQUE = 1e9]) against the
   * relative rotation of the two bodies (ball, cone-twist: any axis; hinge:
   * about the axis; six-dof: added to each free or limited angular axis'
   * own friction; slider: none, its rotations are locked). Default 0.
   */
  frictionTorque?: number;
  /** Breaking threshold over one step (> 0, Infinity: unbreakable): when the linear impulse (N·s) or the angular impulse (N·m·s) exceeds it, the joint breaks (`broken` = true). Default Infinity. */
  breakImpulse?: number;
  userData?: unknown;
}

/** Length of Joint.applied. */
const APPLIED_LENGTH = 12;
const ZERO_SCALE = new Float64Array(1);

// Structurally a SolvedJoint, checked below (not declared: the published types leave out its internal members).
export abstract class Joint {
  abstract readonly kind: JointKind;
  readonly bodyA: RigidBody;
  readonly bodyB: RigidBody;
  /** Anchor on A relative to A's centre, in A's frame. */
  readonly localAnchorA: Vec3 = { x: 0, y: 0, z: 0 };
  readonly localAnchorB: Vec3 = { x: 0, y: 0, z: 0 };
  /** Joint frame relative to A (X = joint axis). */
  readonly localFrameA: Quat = { x: 0, y: 0, z: 0, w: 1 };
  readonly localFrameB: Quat = { x: 0, y: 0, z: 0, w: 1 };
  readonly collideConnected: boolean;
  // Numbers from the start, not undefined (CONTRIBUTING.md, hot path).
  private breakImpulseValue = 0;
  private frictionTorqueValue = 0;
  private brokenValue = false;
  /** @internal the World has emitted 'jointBreak' for it */ breakReported = false;
  /**
   * @internal [linear, angular] step impulses, written by `finishStep` (a
   * typed array: a fresh double stored in a plain field is a heap number).
   */
  readonly stepImpulses = new Float64Array(2);
  /** Magnitude of the linear constraint impulse (N·s) applied over the last step. */
  get impulse(): number { return this.stepImpulses[0]!; }
  /** Magnitude of the angular constraint impulse (N·m·s) applied over the last step. */
  get angularImpulse(): number { return this.stepImpulses[1]!; }
  userData: unknown;
  /** @internal set by the World while the joint is added */ owner: unknown = null;
  /** @internal solver slots during a step */ slotA = -1;
  /** @internal */ slotB = -1;
  /** @internal the two slots' `SolverBodies.slotVersion` when the joint's geometry (axes, angles, errors) was last measured. */
  poseVersionA = -1;
  /** @internal */ poseVersionB = -1;
  /** @internal scratch owned by this joint */ protected readonly frameA: Quat = { x: 0, y: 0, z: 0, w: 1 };
  /** @internal */ protected readonly frameB: Quat = { x: 0, y: 0, z: 0, w: 1 };
  /** @internal */ protected readonly relative: Quat = { x: 0, y: 0, z: 0, w: 1 };
  /** @internal what {@link isJoint} checks */ readonly isFootingJoint = true;

  constructor(desc: JointDescBase) {
    if (!desc || typeof desc !== 'object') throw new TypeError('joint: a description object is required');
    if (!desc.bodyA || !desc.bodyB) throw new TypeError('joint: bodyA and bodyB are required');
    requireBody(desc.bodyA, 'bodyA');
    requireBody(desc.bodyB, 'bodyB');
    if (desc.bodyA === desc.bodyB) throw new RangeError('joint: bodyA and bodyB must differ');
    if (!desc.bodyA.isDynamic && !desc.bodyB.isDynamic) throw new RangeError('joint: at least one body must be dynamic');
    this.bodyA = desc.bodyA;
    this.bodyB = desc.bodyB;
    this.collideConnected = desc.collideConnected ?? false;
    this.breakImpulse = desc.breakImpulse ?? Infinity;
    this.frictionTorque = desc.frictionTorque ?? 0;
    this.userData = desc.userData;
  }

  /**
   * @internal The joint solver of a world, made by the World when its first
   * joint is added: reached through a joint, the solver is only in a game's
   * bundle when the game makes joints.
   */
  newSolver(settings: JointSolverSettings): JointSolver {
    return new JointSolver(settings);
  }

  /** Set when the constraint impulse exceeded `breakImpulse`; a broken joint is no longer solved. Writable (a boolean) to break or mend it. */
  get broken(): boolean { return this.brokenValue; }
  set broken(v: boolean) {
    if (typeof v !== 'boolean') throw new TypeError(`joint.broken must be a boolean (got ${String(v)})`);
    this.brokenValue = v;
  }

  /** N·s / N·m·s, > 0 (Infinity: unbreakable); see JointDescBase.breakImpulse. */
  get breakImpulse(): number { return this.breakImpulseValue; }
  set breakImpulse(v: number) {
    if (typeof v !== 'number' || !(v > 0)) throw new RangeError(`joint.breakImpulse must be a number > 0 or Infinity (got ${String(v)})`);
    this.breakImpulseValue = v;
  }

  /** N·m, in [0, MAX_JOINT_TORQUE] (see JointDescBase.frictionTorque). */
  get frictionTorque(): number { return this.frictionTorqueValue; }
  set frictionTorque(v: number) {
    requireInRange(v, 0, MAX_JOINT_TORQUE, 'joint.frictionTorque');
    this.frictionTorqueValue = v;
  }

  /** @internal the per-step fast check: anchors numbers within MAX_JOINT_LENGTH, frames unit quaternions. */
  framesValid(): boolean {
    return anchorValid(this.localAnchorA) && anchorValid(this.localAnchorB) && frameValid(this.localFrameA) && frameValid(this.localFrameB);
  }

  /**
   * @internal The local anchors and frames are live objects a user can write
   * into; the World checks them at the start of each step (framesValid) and
   * this names the bad field, so that a bad write throws before it reaches
   * the solver.
   */
  checkFrames(): void {
    if (this.framesValid()) return;
    const name = JOINT_NAMES[this.kind]!;
    requireLocalAnchor(this.localAnchorA, `${name}.localAnchorA`);
    requireLocalAnchor(this.localAnchorB, `${name}.localAnchorB`);
    requireFiniteQuat(this.localFrameA, `${name}.localFrameA`);
    requireFiniteQuat(this.localFrameB, `${name}.localFrameB`);
    throw new RangeError(`${name}.localFrameA and localFrameB must be unit quaternions (write a normalised rotation)`);
  }

  /** @internal per-step setup (slots are assigned). */
  abstract prepare(B: SolverBodies, ctx: JointStepContext): void;
  /** @internal */ abstract warmStart(B: SolverBodies): void;
  /** @internal */ abstract solveVelocity(B: SolverBodies, ctx: JointStepContext): void;
  /** @internal NGS; returns the larger of the linear error (m) and the angular error (rad) × ANGULAR_ERROR_LENGTH. */
  abstract solvePosition(B: SolverBodies, ctx: JointStepContext): number;
  /** @internal sets `impulse` / `angularImpulse` for the step. */
  abstract finishStep(ctx: JointStepContext): void;
  /** Resets the accumulated impulses (no warm start on the next step). */
  abstract resetImpulses(): void;

  /**
   * @internal Appends everything of the joint that the next step reads (World.snapshot):
   * the settings any code may change, the step impulses, `applied`, then the
   * rows' accumulated impulses and cached geometry (saveRows). The flags go
   * separately (broken, breakReported).
   */
  saveState(out: number[]): void {
    out.push(this.breakImpulse, this.frictionTorque, this.stepImpulses[0]!, this.stepImpulses[1]!);
    const a = this.applied;
    for (let k = 0; k < APPLIED_LENGTH; k++) out.push(a[k]!);
    this.saveRows(out);
  }

  /** @internal Reads what saveState wrote at `o` (already validated); returns the offset after it. */
  loadState(src: Float64Array, o: number): number {
    this.breakImpulse = src[o]!;
    this.frictionTorque = src[o + 1]!;
    this.stepImpulses[0] = src[o + 2]!;
    this.stepImpulses[1] = src[o + 3]!;
    this.poseVersionA = -1;
    this.poseVersionB = -1;
    for (let k = 0; k < APPLIED_LENGTH; k++) this.applied[k] = src[o + 4 + k]!;
    return this.loadRows(src, o + 4 + APPLIED_LENGTH);
  }

  /**
   * @internal Throws unless the accumulated impulses just loaded (restore's
   * trial load) are finite: Infinity is a setting's "no limit" in the same
   * row, so the impulses are told apart as the numbers scaleImpulses
   * changes, saving before and after scaling them to 0 (which leaves them
   * 0: the caller loads the joint's own state back). The step impulses and
   * the applied velocity changes are checked as well.
   */
  requireFiniteImpulses(loaded: number[], zeroed: number[]): void {
    loaded.length = 0; zeroed.length = 0;
    this.saveState(loaded);
    this.scaleImpulses(ZERO_SCALE);
    this.saveState(zeroed);
    for (let k = 0; k < loaded.length; k++) {
      const v = loaded[k]!;
      const stepState = k >= 2 && k < 4 + APPLIED_LENGTH;
      if ((stepState || !Object.is(zeroed[k], v)) && !(Math.abs(v) <= MAX_BODY_STATE)) {
        throw new RangeError(`value ${k} of the joint's row is an impulse or a velocity change and must be finite within ±1e15 (got ${v})`);
      }
    }
  }

  /** @internal the kind's own part of saveState. */
  protected abstract saveRows(out: number[]): void;
  /** @internal */ protected abstract loadRows(src: Float64Array, o: number): number;
  /** @internal Multiplies every accumulated impulse by scale[0] ∈ [0, 1] (JointSolver.warmStart). */
  abstract scaleImpulses(scale: Float64Array): void;
  /**
   * @internal Velocity change (A: v, ω; B: v, ω, world) the joint's rows have
   * applied since its last warm start (JointSolver.warmStart bounds the next
   * warm start by its energy; saved with the joint's state).
   */
  readonly applied = new Float64Array(APPLIED_LENGTH);
  /** @internal Set by the joint solver each step (SolvedJoint.loadsProjection). */
  loadsProjection = false;
  /**
   * @internal 'soft' only, once per sub-step after the position integration:
   * rotates B back to within `ctx.limitSlop` (rad) of violated angular limits
   * and translates it to within `ctx.anchorSlop` of its anchor (see
   * JointSolver.solveVelocities). The default does nothing.
   */
  projectLimits(_B: SolverBodies, _ctx: JointStepContext): void {}

  /**
   * @internal Whether projectLimits puts B back on A's anchor (ball, hinge,
   * cone-twist, a six-DOF with its three linear axes locked). The pull of a
   * joint that is not so held (a spring, a slider, a weld's rows) is what a
   * projection of another joint stretches (JointSolver.project).
   */
  projectsAnchor(): boolean { return false; }

  /**
   * @internal The work the joint's rows may do (JointSolver.trimWarmStarts):
   * false when it has a spring or a position motor (stored energy: its warm
   * start is left whole); else true, with out[0] = the largest power of its
   * velocity motors, Σ max force·|speed| (W; 0 without one).
   */
  workBound(out: Float64Array): boolean { out[0] = 0; return true; }

  /** @internal the geometry is being measured at the slots' current poses. */
  protected markMeasured(B: SolverBodies): void {
    this.poseVersionA = B.slotVersion[this.slotA]!;
    this.poseVersionB = B.slotVersion[this.slotB]!;
  }

  /** @internal either body moved since the geometry was last measured. */
  protected geometryStale(B: SolverBodies): boolean {
    return B.slotVersion[this.slotA] !== this.poseVersionA || B.slotVersion[this.slotB] !== this.poseVersionB;
  }

  /** World position of the anchor on A (current body pose). */
  getAnchorA(out: Vec3): Vec3 {
    requireOut(out, 'getAnchorA: out');
    quat.rotate(out, this.bodyA.rotation, this.localAnchorA);
    out.x += this.bodyA.position.x; out.y += this.bodyA.position.y; out.z += this.bodyA.position.z;
    return out;
  }
  getAnchorB(out: Vec3): Vec3 {
    requireOut(out, 'getAnchorB: out');
    quat.rotate(out, this.bodyB.rotation, this.localAnchorB);
    out.x += this.bodyB.position.x; out.y += this.bodyB.position.y; out.z += this.bodyB.position.z;
    return out;
  }
  /** Distance (m) between the two anchors in the current poses (0 for a perfectly held ball joint). */
  get separation(): number {
    const a = this.bodyA, b = this.bodyB;
    quat.rotate(sepA, a.rotation, this.localAnchorA);
    quat.rotate(sepB, b.rotation, this.localAnchorB);
    return Math.hypot(b.position.x + sepB.x - a.position.x - sepA.x, b.position.y + sepB.y - a.position.y - sepA.y, b.position.z + sepB.z - a.position.z - sepA.z);
  }

  /** Relative rotation of frame B in frame A from the bodies' current rotations (w ≥ 0), into this.relative. */
  protected currentRelativeRotation(): Quat {
    quat.multiply(this.frameA, this.bodyA.rotation, this.localFrameA);
    quat.multiply(this.frameB, this.bodyB.rotation, this.localFrameB);
    const q = quat.multiplyConjugateA(this.relative, this.frameA, this.frameB);
    if (q.w < 0) { q.x = -q.x; q.y = -q.y; q.z = -q.z; q.w = -q.w; }
    return q;
  }
}

/**
 * Fields fixed at creation. The solver rows hold the anchor and frame
 * objects themselves, and attach/detach count collideConnected: a field
 * written over in plain JavaScript would be read by some code and not by the rest.
 */
const LOCKED_JOINT_FIELDS: readonly string[] = ['kind', 'bodyA', 'bodyB', 'localAnchorA', 'localAnchorB', 'localFrameA', 'localFrameB', 'collideConnected'];

/**
 * @internal A joint constructor's last step: the fields fixed at creation,
 * readonly to TypeScript, made read-only in plain JavaScript too (a write
 * throws a TypeError naming the field). The anchors' and frames' components
 * stay writable; the world checks them at the start of each step.
 */
export function lockJointFields(joint: Joint): void {
  lockFields(joint, LOCKED_JOINT_FIELDS);
}

const JOINT_NAMES: readonly string[] = ['BallJoint', 'HingeJoint', 'ConeTwistJoint', 'FixedJoint', 'DistanceJoint', 'SliderJoint', 'SixDofJoint'];

/** Largest motor or friction torque a joint accepts, N·m. */
export const MAX_JOINT_TORQUE = 1e9;
/** Largest hinge motor speed, rad/s (≈ 9500 rpm). */
export const MAX_MOTOR_SPEED = 1000;
/** Largest joint length or anchor offset, metres (the shape size limit). */
export const MAX_JOINT_LENGTH = 1e6;

/** A limit angle: a finite number in [−π, π], or `none` (±Infinity: no limit). */
export function requireLimitAngle(value: number, none: number, field: string): void {
  if (value === none) return;
  if (typeof value !== 'number' || !(value >= -Math.PI && value <= Math.PI)) {
    throw new RangeError(`${field} must be in [−π, π] or ${none} for no limit (got ${String(value)})`);
  }
}

/** Lever arm (m) that converts an angular error into a length for `solvePositions`' result. */
export const ANGULAR_ERROR_LENGTH = 0.25;

const sepA: Vec3 = { x: 0, y: 0, z: 0 };
const sepB: Vec3 = { x: 0, y: 0, z: 0 };

// ------------------------------------------------------------ construction helpers

function requireVec(v: Readonly<Vec3> | undefined, field: string): Readonly<Vec3> {
  requireFiniteVec(v as Readonly<Vec3>, field);
  return v as Readonly<Vec3>;
}

/** A local anchor given by the user: finite, within MAX_JOINT_LENGTH of the body. */
export function requireLocalAnchor(v: Readonly<Vec3> | undefined, field: string): Readonly<Vec3> {
  const l = requireVec(v, field);
  if (Math.abs(l.x) > MAX_JOINT_LENGTH || Math.abs(l.y) > MAX_JOINT_LENGTH || Math.abs(l.z) > MAX_JOINT_LENGTH) {
    throw new RangeError(`${field} must be within ${MAX_JOINT_LENGTH} m of the body (got (${l.x}, ${l.y}, ${l.z}))`);
  }
  return l;
}

/** Unit copy of an axis; throws on a zero axis. */
export function unitAxis(v: Readonly<Vec3> | undefined, field: string): Vec3 {
  const a = requireVec(v, field);
  const len = Math.hypot(a.x, a.y, a.z);
  if (!(len > 1e-9)) throw new RangeError(`${field} must be non-zero`);
  return { x: a.x / len, y: a.y / len, z: a.z / len };
}

/**
 * Sets the local anchors: from `localAnchorA`/`localAnchorB` when given, else
 * from the world `anchor` (default: B's centre).
 */
export function setAnchors(joint: Joint, anchor: Readonly<Vec3> | undefined, localA: Readonly<Vec3> | undefined, localB: Readonly<Vec3> | undefined): void {
  const a = joint.bodyA, b = joint.bodyB;
  if (anchor !== undefined) requirePosition(anchor, 'anchor');
  const w = anchor ?? b.position;
  if (localA !== undefined) {
    const l = requireLocalAnchor(localA, 'localAnchorA');
    joint.localAnchorA.x = l.x; joint.localAnchorA.y = l.y; joint.localAnchorA.z = l.z;
  } else {
    worldToLocal(joint.localAnchorA, a, w);
  }
  if (localB !== undefined) {
    const l = requireLocalAnchor(localB, 'localAnchorB');
    joint.localAnchorB.x = l.x; joint.localAnchorB.y = l.y; joint.localAnchorB.z = l.z;
  } else if (localA !== undefined && anchor === undefined) {
    // Only A's local anchor given: B's anchor is the same world point now.
    quat.rotate(tmpV, a.rotation, joint.localAnchorA);
    tmpV.x += a.position.x; tmpV.y += a.position.y; tmpV.z += a.position.z;
    worldToLocal(joint.localAnchorB, b, tmpV);
  } else {
    worldToLocal(joint.localAnchorB, b, w);
  }
  // A world anchor far from a body gives a local anchor beyond what the step accepts.
  requireLocalAnchor(joint.localAnchorA, 'anchor (as localAnchorA)');
  requireLocalAnchor(joint.localAnchorB, 'anchor (as localAnchorB)');
}

/** A RigidBody by its shape (an instanceof would import the body module into every joint). */
function requireBody(b: RigidBody, field: string): void {
  if (typeof b !== 'object' || typeof b.isDynamic !== 'boolean' || typeof b.position !== 'object' || typeof b.rotation !== 'object') {
    throw new TypeError(`joint: ${field} must be a RigidBody (got ${String(b)})`);
  }
}

function worldToLocal(out: Vec3, body: RigidBody, p: Readonly<Vec3>): void {
  tmpD.x = p.x - body.position.x; tmpD.y = p.y - body.position.y; tmpD.z = p.z - body.position.z;
  quat.inverseRotate(out, body.rotation, tmpD);
}
const tmpV: Vec3 = { x: 0, y: 0, z: 0 };
const tmpD: Vec3 = { x: 0, y: 0, z: 0 };

/**
 * A rotation whose X axis is `axis` (unit) and whose Y axis is `normal`
 * orthogonalised against it (any perpendicular when omitted).
 */
export function frameFromAxes(out: Quat, axis: Readonly<Vec3>, normal?: Readonly<Vec3>): Quat {
  if (normal === undefined) return quat.fromUnitVectors(out, X_AXIS, axis);
  const d = axis.x * normal.x + axis.y * normal.y + axis.z * normal.z;
  let yx = normal.x - d * axis.x, yy = normal.y - d * axis.y, yz = normal.z - d * axis.z;
  const len = Math.hypot(yx, yy, yz);
  if (!(len > 1e-9)) throw new RangeError('joint: normalAxis must not be parallel to the joint axis');
  yx /= len; yy /= len; yz /= len;
  const zx = axis.y * yz - axis.z * yy, zy = axis.z * yx - axis.x * yz, zz = axis.x * yy - axis.y * yx;
  return quatFromBasis(out, axis.x, axis.y, axis.z, yx, yy, yz, zx, zy, zz);
}
const X_AXIS: Readonly<Vec3> = { x: 1, y: 0, z: 0 };

/** Rotation whose columns are the orthonormal X, Y, Z (Shepperd's method). */
export function quatFromBasis(out: Quat, m00: number, m10: number, m20: number, m01: number, m11: number, m21: number, m02: number, m12: number, m22: number): Quat {
  const tr = m00 + m11 + m22;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    out.w = 0.25 * s; out.x = (m21 - m12) / s; out.y = (m02 - m20) / s; out.z = (m10 - m01) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    out.w = (m21 - m12) / s; out.x = 0.25 * s; out.y = (m01 + m10) / s; out.z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    out.w = (m02 - m20) / s; out.x = (m01 + m10) / s; out.y = 0.25 * s; out.z = (m12 + m21) / s;
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    out.w = (m10 - m01) / s; out.x = (m02 + m20) / s; out.y = (m12 + m21) / s; out.z = 0.25 * s;
  }
  return quat.normalize(out, out);
}

/**
 * Sets the local frames from one world frame (the joint's angles are 0 in the
 * current pose), or from the given local frames / local axes.
 */
export function setFrames(joint: Joint, worldFrame: Readonly<Quat> | null, localFrameA?: Readonly<Quat>, localFrameB?: Readonly<Quat>): void {
  if (localFrameA !== undefined) requireFiniteQuat(localFrameA, 'localFrameA');
  if (localFrameB !== undefined) requireFiniteQuat(localFrameB, 'localFrameB');
  if (localFrameA !== undefined) {
    quat.normalize(joint.localFrameA, localFrameA);
    if (localFrameB !== undefined) {
      quat.normalize(joint.localFrameB, localFrameB);
    } else {
      // Same world frame now: fB = conj(qB)·qA·fA.
      quat.multiply(tmpQ, joint.bodyA.rotation, joint.localFrameA);
      quat.multiplyConjugateA(joint.localFrameB, joint.bodyB.rotation, tmpQ);
    }
    return;
  }
  const w = worldFrame ?? IDENTITY;
  quat.multiplyConjugateA(joint.localFrameA, joint.bodyA.rotation, w);
  quat.multiplyConjugateA(joint.localFrameB, joint.bodyB.rotation, w);
}
const tmpQ: Quat = { x: 0, y: 0, z: 0, w: 1 };
const IDENTITY: Readonly<Quat> = { x: 0, y: 0, z: 0, w: 1 };

/** @internal True for footing's joints (a brand, so that World.addJoint's check does not keep the Joint class in a bundle that makes none). */
export function isJoint(value: unknown): value is Joint {
  return typeof value === 'object' && value !== null && (value as { isFootingJoint?: unknown }).isFootingJoint === true;
}

/**
 * World-agnostic part of adding a joint: disables collision between the two
 * bodies unless `collideConnected` and wakes both. `World.addJoint` calls it.
 */
export function attachJoint(joint: Joint): void {
  if (!joint.collideConnected) {
    const a = joint.bodyA, b = joint.bodyB;
    if (a.noCollide === null) a.noCollide = [];
    if (b.noCollide === null) b.noCollide = [];
    a.noCollide.push(b.id);
    b.noCollide.push(a.id);
  }
  joint.bodyA.jointCount++;
  joint.bodyB.jointCount++;
  joint.resetImpulses();
  joint.broken = false;
  joint.breakReported = false;
  joint.bodyA.wakeUp();
  joint.bodyB.wakeUp();
}

/** Undoes `attachJoint` (one noCollide entry per joint, so parallel joints count correctly). */
export function detachJoint(joint: Joint): void {
  if (!joint.collideConnected) {
    removeId(joint.bodyA, joint.bodyB.id);
    removeId(joint.bodyB, joint.bodyA.id);
  }
  joint.bodyA.jointCount--;
  joint.bodyB.jointCount--;
  joint.bodyA.wakeUp();
  joint.bodyB.wakeUp();
}

function removeId(body: RigidBody, id: number): void {
  const list = body.noCollide;
  if (list === null) return;
  const i = list.indexOf(id);
  if (i >= 0) list.splice(i, 1);
  if (list.length === 0) body.noCollide = null;
}

function anchorValid(v: Readonly<Vec3>): boolean {
  return typeof v.x === 'number' && typeof v.y === 'number' && typeof v.z === 'number' &&
    Math.abs(v.x) <= MAX_JOINT_LENGTH && Math.abs(v.y) <= MAX_JOINT_LENGTH && Math.abs(v.z) <= MAX_JOINT_LENGTH;
}

function frameValid(q: Readonly<Quat>): boolean {
  return typeof q.x === 'number' && typeof q.y === 'number' && typeof q.z === 'number' && typeof q.w === 'number' &&
    Math.abs(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1) < 1e-6;
}

/** Compile-time check that a Joint is what the joint solver takes. */
type IsSolvedJoint<T extends true> = T;
type JointIsSolved = IsSolvedJoint<Joint extends SolvedJoint ? true : false>;
