/**
 * Slider (prismatic) joint: B moves along one axis of A's frame (frame X)
 * between optional limits, driven by an optional motor (velocity or target
 * position, bounded force) against dry friction; the other five degrees of
 * freedom are locked.
 *
 * It is a SixDofJoint with linear X free or limited and every other axis
 * locked (one set of rows, see six-dof.ts): two linear lock rows across the
 * axis and the weld's 3×3 angular lock.
 */
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { requireInRange } from '../math/validate';
import { JointKind, MAX_JOINT_LENGTH, MAX_JOINT_TORQUE, type JointDescBase } from './joint';
import { SixDofJoint } from './six-dof';
import type { JointMotorMode, SixDofAxis } from './six-dof-settings';

export interface SliderJointDesc extends JointDescBase {
  /** World anchor at creation. Default: B's centre. */
  anchor?: Readonly<Vec3>;
  localAnchorA?: Readonly<Vec3>;
  localAnchorB?: Readonly<Vec3>;
  /** World slide axis at creation (need not be unit). Required unless `localFrameA` is given. */
  axis?: Readonly<Vec3>;
  /** Joint frames relative to the bodies (X = slide axis); `localFrameB` defaults to the same world frame now. */
  localFrameA?: Readonly<Quat>;
  localFrameB?: Readonly<Quat>;
  /** Metres along the axis from the creation pose, in [−1e6, 1e6] and ≤ upperLimit. Default −Infinity (no lower limit). */
  lowerLimit?: number;
  /** Metres, in [−1e6, 1e6] and ≥ lowerLimit. Default +Infinity (no upper limit). */
  upperLimit?: number;
  /** Soft limits: spring frequency (Hz, [0, 1e4]); 0 = hard. Default 0. */
  limitHertz?: number;
  /** Damping ratio of the soft limits, [0, 1e3]. Default 1. */
  limitDampingRatio?: number;
  /** 'velocity' drives `motorSpeed`, 'position' drives to `targetPosition`. Default 'velocity'. */
  motorMode?: 'velocity' | 'position';
  /** m/s in [−1000, 1000]. Default 0. */
  motorSpeed?: number;
  /** Metres along the axis, in [−1e6, 1e6]. Default 0. */
  targetPosition?: number;
  /** N in [0, 1e9]; 0 disables the motor. Default 0. */
  maxMotorForce?: number;
  /** Position mode: the drive's spring frequency (Hz, (0, 1e4]). Default 4. */
  motorHertz?: number;
  /** Position mode: its damping ratio, [0, 1e3]. Default 1. */
  motorDampingRatio?: number;
  /** Dry friction force (N) along the axis, [0, 1e9]. Default 0. */
  frictionForce?: number;
}

export class SliderJoint extends SixDofJoint {
  private lowerValue = -Infinity;
  private upperValue = Infinity;
  private motorModeValue: 'velocity' | 'position' = 'velocity';

  constructor(desc: SliderJointDesc) {
    if (!desc || typeof desc !== 'object') throw new TypeError('SliderJoint: a description object is required');
    if (desc.axis === undefined && desc.localFrameA === undefined) {
      throw new TypeError('SliderJoint: axis (or localFrameA) is required');
    }
    super({
      bodyA: desc.bodyA, bodyB: desc.bodyB, collideConnected: desc.collideConnected, breakImpulse: desc.breakImpulse, userData: desc.userData,
      anchor: desc.anchor, localAnchorA: desc.localAnchorA, localAnchorB: desc.localAnchorB,
      axis: desc.axis, localFrameA: desc.localFrameA, localFrameB: desc.localFrameB,
      linearX: { mode: 'free' },
    }, JointKind.Slider);
    const x = this.slide;
    this.setLimits(desc.lowerLimit ?? -Infinity, desc.upperLimit ?? Infinity);
    if (desc.limitHertz !== undefined) x.limitHertz = desc.limitHertz;
    if (desc.limitDampingRatio !== undefined) x.limitDampingRatio = desc.limitDampingRatio;
    if (desc.motorSpeed !== undefined) x.motorSpeed = desc.motorSpeed;
    if (desc.targetPosition !== undefined) x.motorTarget = desc.targetPosition;
    if (desc.motorHertz !== undefined) x.motorHertz = desc.motorHertz;
    if (desc.motorDampingRatio !== undefined) x.motorDampingRatio = desc.motorDampingRatio;
    if (desc.frictionForce !== undefined) x.friction = desc.frictionForce;
    if (desc.maxMotorForce !== undefined) x.maxMotorForce = desc.maxMotorForce;
    else x.maxMotorForce = 0;
    this.motorMode = desc.motorMode ?? 'velocity';
  }

  /** The slide axis' settings. */
  private get slide(): SixDofAxis { return this.axes[0]!; }

  /** Metres (−Infinity: no lower limit); ≤ upperLimit (setLimits moves both). */
  get lowerLimit(): number { return this.lowerValue; }
  set lowerLimit(v: number) { this.setLimits(v, this.upperValue); }
  /** Metres (+Infinity: no upper limit); ≥ lowerLimit. */
  get upperLimit(): number { return this.upperValue; }
  set upperLimit(v: number) { this.setLimits(this.lowerValue, v); }

  /** Sets both limits at once (checked together: lower ≤ upper). */
  setLimits(lower: number, upper: number): void {
    const lo = lower === -Infinity ? -MAX_JOINT_LENGTH : lower;
    const hi = upper === Infinity ? MAX_JOINT_LENGTH : upper;
    if (typeof lower !== 'number' || !(lo >= -MAX_JOINT_LENGTH && lo <= MAX_JOINT_LENGTH)) {
      throw new RangeError(`SliderJoint.lowerLimit must be in [−${MAX_JOINT_LENGTH}, ${MAX_JOINT_LENGTH}] or −Infinity for no limit (got ${String(lower)})`);
    }
    if (typeof upper !== 'number' || !(hi >= -MAX_JOINT_LENGTH && hi <= MAX_JOINT_LENGTH)) {
      throw new RangeError(`SliderJoint.upperLimit must be in [−${MAX_JOINT_LENGTH}, ${MAX_JOINT_LENGTH}] or Infinity for no limit (got ${String(upper)})`);
    }
    if (lower > upper) throw new RangeError(`SliderJoint.lowerLimit (${lower}) must be ≤ upperLimit (${upper}); setLimits(lower, upper) moves both at once`);
    this.slide.setLimits(lo, hi);
    this.slide.mode = lower === -Infinity && upper === Infinity ? 'free' : 'limited';
    this.lowerValue = lower;
    this.upperValue = upper;
  }

  get limitHertz(): number { return this.slide.limitHertz; }
  set limitHertz(v: number) { this.slide.limitHertz = v; }
  get limitDampingRatio(): number { return this.slide.limitDampingRatio; }
  set limitDampingRatio(v: number) { this.slide.limitDampingRatio = v; }

  get motorMode(): 'velocity' | 'position' { return this.motorModeValue; }
  set motorMode(v: 'velocity' | 'position') {
    if (v !== 'velocity' && v !== 'position') throw new RangeError(`SliderJoint.motorMode must be 'velocity' or 'position' (got ${String(v)})`);
    this.motorModeValue = v;
    this.syncMotor();
  }
  /** m/s in [−1000, 1000]. */
  get motorSpeed(): number { return this.slide.motorSpeed; }
  set motorSpeed(v: number) { this.slide.motorSpeed = v; }
  /** Metres along the axis. */
  get targetPosition(): number { return this.slide.motorTarget; }
  set targetPosition(v: number) { requireInRange(v, -MAX_JOINT_LENGTH, MAX_JOINT_LENGTH, 'SliderJoint.targetPosition'); this.slide.motorTarget = v; }
  /** N in [0, 1e9] (0: motor off). */
  get maxMotorForce(): number { return this.slide.maxMotorForce; }
  set maxMotorForce(v: number) { this.slide.maxMotorForce = v; this.syncMotor(); }
  get motorHertz(): number { return this.slide.motorHertz; }
  set motorHertz(v: number) { this.slide.motorHertz = v; }
  get motorDampingRatio(): number { return this.slide.motorDampingRatio; }
  set motorDampingRatio(v: number) { this.slide.motorDampingRatio = v; }
  /** N in [0, 1e9]. */
  get frictionForce(): number { return this.slide.friction; }
  set frictionForce(v: number) { requireInRange(v, 0, MAX_JOINT_TORQUE, 'SliderJoint.frictionForce'); this.slide.friction = v; }

  /** Current position of B's anchor along the axis (m) from the bodies' poses; 0 in the creation pose. */
  get position(): number { return this.getCoordinate(0); }

  private syncMotor(): void {
    this.slide.motor = this.slide.maxMotorForce > 0 ? this.motorModeValue : 'off';
  }

  /** @internal */
  protected override saveRows(out: number[]): void {
    out.push(this.lowerValue, this.upperValue, this.motorModeValue === 'position' ? 1 : 0);
    super.saveRows(out);
  }

  /** @internal */
  protected override loadRows(src: Float64Array, o: number): number {
    const lower = src[o]!, upper = src[o + 1]!;
    const lo = lower === -Infinity ? -MAX_JOINT_LENGTH : lower, hi = upper === Infinity ? MAX_JOINT_LENGTH : upper;
    if (!(lo >= -MAX_JOINT_LENGTH && hi <= MAX_JOINT_LENGTH && lower <= upper)) {
      throw new RangeError(`SliderJoint limits (${lower}, ${upper}) must be ordered, within ±${MAX_JOINT_LENGTH} or infinite`);
    }
    this.lowerValue = lower; this.upperValue = upper;
    this.motorModeValue = src[o + 2]! === 1 ? 'position' : 'velocity';
    return super.loadRows(src, o + 3);
  }
}
