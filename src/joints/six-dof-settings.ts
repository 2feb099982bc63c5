/**
 * What a SixDofJoint is given (and a SliderJoint, built on it): the joint's
 * description, and per axis its mode (free, limited, locked), limits and
 * their spring, motor and friction, each field checked when written. The
 * joint itself: six-dof.ts.
 */
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { lockFields, requireInRange } from '../math/validate';
import { MAX_DAMPING_RATIO, MAX_SPRING_HERTZ } from './axis-row';
import { MAX_JOINT_LENGTH, MAX_JOINT_TORQUE, MAX_MOTOR_SPEED, type JointDescBase } from './joint';

/** How an axis moves: freely, between `min` and `max`, or not at all. */
export type SixDofAxisMode = 'free' | 'limited' | 'locked';
/** A joint motor: off, driving a speed, or driving to a target position (a bounded spring). */
export type JointMotorMode = 'off' | 'velocity' | 'position';

/** The six axes, in the order of `SixDofJoint.axes`. */
export const SixDofAxisIndex = { LinearX: 0, LinearY: 1, LinearZ: 2, AngularX: 3, AngularY: 4, AngularZ: 5 } as const;

/** Settings of one axis. Linear axes: metres, m/s, N; angular: radians, rad/s, N·m. */
export interface SixDofAxisDesc {
  /** Default 'locked'. */
  mode?: SixDofAxisMode;
  /** Lower limit ('limited'): linear in [−1e6, 1e6] m; twist (angular X) in [−π, π]; swing (angular Y, Z) in [−0.9π, 0.9π]. ≤ max. Default 0. */
  min?: number;
  /** Upper limit, same range, ≥ min. Default 0. */
  max?: number;
  /** Soft limit: spring frequency (Hz, in [0, 1e4]) pushing back past a limit; 0 = a hard limit. Default 0. */
  limitHertz?: number;
  /** Damping ratio of the soft limit's spring, in [0, 1e3]. Default 1. */
  limitDampingRatio?: number;
  /** Default 'off'. */
  motor?: JointMotorMode;
  /** Velocity motor target (m/s or rad/s), in [−1000, 1000]. Default 0. */
  motorSpeed?: number;
  /** Position motor target (m or rad; same range as the limits). Default 0. */
  motorTarget?: number;
  /** Largest motor force (N) or torque (N·m), in [0, 1e9]. Default 1e9. */
  maxMotorForce?: number;
  /** Position motor: spring frequency (Hz, in (0, 1e4]) of the drive to the target. Default 4. */
  motorHertz?: number;
  /** Position motor: damping ratio in [0, 1e3]. Default 1 (critically damped). */
  motorDampingRatio?: number;
  /** Dry friction force (N) or torque (N·m) against motion along the axis, in [0, 1e9]. Default 0. */
  friction?: number;
}

/** SixDofAxis.modeCode and motorCode values. */
export const MODE_FREE = 0, MODE_LIMITED = 1, MODE_LOCKED = 2;
export const MOTOR_OFF = 0, MOTOR_VELOCITY = 1, MOTOR_POSITION = 2;
const MODE_NAMES: readonly SixDofAxisMode[] = ['free', 'limited', 'locked'];
const MOTOR_NAMES: readonly JointMotorMode[] = ['off', 'velocity', 'position'];
const AXIS_NAMES: readonly string[] = ['linearX', 'linearY', 'linearZ', 'angularX', 'angularY', 'angularZ'];
/** Largest swing limit (rad): the swing coordinates are singular at a half turn. */
export const MAX_SWING_LIMIT = 0.9 * Math.PI;

/** One axis' settings; every field is checked when written. */
export class SixDofAxis {
  private modeValue = MODE_LOCKED;
  private minValue = 0;
  private maxValue = 0;
  private limitHertzValue = 0;
  private limitDampingValue = 1;
  private motorValue = MOTOR_OFF;
  private motorSpeedValue = 0;
  private motorTargetValue = 0;
  private maxMotorForceValue = MAX_JOINT_TORQUE;
  private motorHertzValue = 4;
  private motorDampingValue = 1;
  private frictionValue = 0;
  /** Bound of min, max and motorTarget. */
  private readonly range: number;
  private readonly name: string;
  /** @internal set when a change needs the joint's accumulated impulses of this axis dropped */ changed = true;

  /** @internal */
  constructor(readonly index: number, owner: string, desc: SixDofAxisDesc | undefined) {
    this.name = `${owner}.${AXIS_NAMES[index]!}`;
    this.range = index < 3 ? MAX_JOINT_LENGTH : index === 3 ? Math.PI : MAX_SWING_LIMIT;
    // Fixed at creation (it names the axis in errors): read-only in plain JavaScript too.
    lockFields(this, ['index']);
    if (desc === undefined) return;
    if (typeof desc !== 'object' || desc === null) throw new TypeError(`${this.name} must be an object`);
    if (desc.mode !== undefined) this.mode = desc.mode;
    this.setLimits(desc.min ?? 0, desc.max ?? 0);
    if (desc.limitHertz !== undefined) this.limitHertz = desc.limitHertz;
    if (desc.limitDampingRatio !== undefined) this.limitDampingRatio = desc.limitDampingRatio;
    if (desc.motor !== undefined) this.motor = desc.motor;
    if (desc.motorSpeed !== undefined) this.motorSpeed = desc.motorSpeed;
    if (desc.motorTarget !== undefined) this.motorTarget = desc.motorTarget;
    if (desc.maxMotorForce !== undefined) this.maxMotorForce = desc.maxMotorForce;
    if (desc.motorHertz !== undefined) this.motorHertz = desc.motorHertz;
    if (desc.motorDampingRatio !== undefined) this.motorDampingRatio = desc.motorDampingRatio;
    if (desc.friction !== undefined) this.friction = desc.friction;
  }

  get mode(): SixDofAxisMode { return MODE_NAMES[this.modeValue]!; }
  set mode(v: SixDofAxisMode) {
    const m = MODE_NAMES.indexOf(v);
    if (m < 0) throw new RangeError(`${this.name}.mode must be 'free', 'limited' or 'locked' (got ${String(v)})`);
    if (m !== this.modeValue) this.changed = true;
    this.modeValue = m;
  }
  /** @internal */ get modeCode(): number { return this.modeValue; }

  get min(): number { return this.minValue; }
  set min(v: number) { this.setLimits(v, this.maxValue); }
  get max(): number { return this.maxValue; }
  set max(v: number) { this.setLimits(this.minValue, v); }

  /** Sets both limits at once (checked together: min ≤ max). */
  setLimits(min: number, max: number): void {
    requireInRange(min, -this.range, this.range, `${this.name}.min`);
    requireInRange(max, -this.range, this.range, `${this.name}.max`);
    if (min > max) throw new RangeError(`${this.name}.min (${min}) must be ≤ max (${max}); setLimits(min, max) moves both at once`);
    this.minValue = min;
    this.maxValue = max;
  }

  /** Hz in [0, 1e4]; 0: hard limits. */
  get limitHertz(): number { return this.limitHertzValue; }
  set limitHertz(v: number) { requireInRange(v, 0, MAX_SPRING_HERTZ, `${this.name}.limitHertz`); this.limitHertzValue = v; }
  get limitDampingRatio(): number { return this.limitDampingValue; }
  set limitDampingRatio(v: number) { requireInRange(v, 0, MAX_DAMPING_RATIO, `${this.name}.limitDampingRatio`); this.limitDampingValue = v; }

  get motor(): JointMotorMode { return MOTOR_NAMES[this.motorValue]!; }
  set motor(v: JointMotorMode) {
    const m = MOTOR_NAMES.indexOf(v);
    if (m < 0) throw new RangeError(`${this.name}.motor must be 'off', 'velocity' or 'position' (got ${String(v)})`);
    if (m !== this.motorValue) this.changed = true;
    this.motorValue = m;
  }
  /** @internal */ get motorCode(): number { return this.motorValue; }

  get motorSpeed(): number { return this.motorSpeedValue; }
  set motorSpeed(v: number) { requireInRange(v, -MAX_MOTOR_SPEED, MAX_MOTOR_SPEED, `${this.name}.motorSpeed`); this.motorSpeedValue = v; }
  get motorTarget(): number { return this.motorTargetValue; }
  set motorTarget(v: number) { requireInRange(v, -this.range, this.range, `${this.name}.motorTarget`); this.motorTargetValue = v; }
  get maxMotorForce(): number { return this.maxMotorForceValue; }
  set maxMotorForce(v: number) { requireInRange(v, 0, MAX_JOINT_TORQUE, `${this.name}.maxMotorForce`); this.maxMotorForceValue = v; }
  get motorHertz(): number { return this.motorHertzValue; }
  set motorHertz(v: number) {
    requireInRange(v, 0, MAX_SPRING_HERTZ, `${this.name}.motorHertz`);
    if (v === 0) throw new RangeError(`${this.name}.motorHertz must be > 0 (got 0)`);
    this.motorHertzValue = v;
  }
  get motorDampingRatio(): number { return this.motorDampingValue; }
  set motorDampingRatio(v: number) { requireInRange(v, 0, MAX_DAMPING_RATIO, `${this.name}.motorDampingRatio`); this.motorDampingValue = v; }
  get friction(): number { return this.frictionValue; }
  set friction(v: number) { requireInRange(v, 0, MAX_JOINT_TORQUE, `${this.name}.friction`); this.frictionValue = v; }

  /** @internal */
  save(out: number[]): void {
    out.push(this.modeValue, this.minValue, this.maxValue, this.limitHertzValue, this.limitDampingValue, this.motorValue,
      this.motorSpeedValue, this.motorTargetValue, this.maxMotorForceValue, this.motorHertzValue, this.motorDampingValue, this.frictionValue,
      this.changed ? 1 : 0);
  }

  /** @internal */
  load(src: Float64Array, o: number): number {
    this.mode = MODE_NAMES[src[o]!]!;
    this.setLimits(src[o + 1]!, src[o + 2]!);
    this.limitHertz = src[o + 3]!; this.limitDampingRatio = src[o + 4]!;
    this.motor = MOTOR_NAMES[src[o + 5]!]!;
    this.motorSpeed = src[o + 6]!; this.motorTarget = src[o + 7]!; this.maxMotorForce = src[o + 8]!;
    this.motorHertz = src[o + 9]!; this.motorDampingRatio = src[o + 10]!; this.friction = src[o + 11]!;
    this.changed = src[o + 12]! === 1;
    return o + 13;
  }
}

export interface SixDofJointDesc extends JointDescBase {
  /** World anchor at creation. Default: B's centre. */
  anchor?: Readonly<Vec3>;
  localAnchorA?: Readonly<Vec3>;
  localAnchorB?: Readonly<Vec3>;
  /** World X axis of the joint frame at creation (linear X, twist). Default: world X (unless local frames are given). */
  axis?: Readonly<Vec3>;
  /** World axis ⊥ `axis` that fixes the frame's Y. Default: any perpendicular. */
  normalAxis?: Readonly<Vec3>;
  /** Joint frames relative to the bodies; `localFrameB` defaults to the same world frame now. */
  localFrameA?: Readonly<Quat>;
  localFrameB?: Readonly<Quat>;
  linearX?: SixDofAxisDesc;
  linearY?: SixDofAxisDesc;
  linearZ?: SixDofAxisDesc;
  /** Twist about the frame's X axis. */
  angularX?: SixDofAxisDesc;
  /** Swing about the frame's Y axis (the Y component of the swing's rotation vector). */
  angularY?: SixDofAxisDesc;
  angularZ?: SixDofAxisDesc;
  /**
   * How hard limits on both swing axes combine: 'pyramid' limits σ_y and σ_z
   * each to [min, max]; 'cone' bounds the swing by the elliptical cone of
   * half-angles angularY.max and angularZ.max (both > 0; min is not used),
   * as ConeTwistJoint does. Default 'pyramid'.
   */
  swingType?: 'pyramid' | 'cone';
}
