/**
 * Hinge (revolute) joint: a point block, two angular rows that keep B's axis
 * on A's, and about the axis an optional limit pair and a motor.
 *
 * Hinge angle: with q = conj(Q_A)·Q_B (joint frames, w ≥ 0) the rotation about
 * the frame X axis is θ = 2 atan2(q_x, q_w) (swing–twist split; exact when
 * the lock holds q_y = q_z = 0). Its rate is θ̇ = a·(ω_B − ω_A).
 * Limits: C_lower = θ − lower ≥ 0 (row +a), C_upper = upper − θ ≥ 0 (row −a),
 * each with λ ≥ 0; motor: a·(ω_B − ω_A) = motorSpeed with |λ| ≤ maxMotorTorque·h
 * (Box2D v3 revolute_joint.c, Catto GDC 2009). Position motor: a spring of
 * `motorHertz` and `motorDampingRatio` on C = θ − targetAngle (the short way
 * round), its impulse bounded by the same maxMotorTorque·h (axis-row.ts).
 */
import type { SolverBodies } from '../dynamics/solver-bodies';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { requireInRange } from '../math/validate';
import { ANGULAR_ERROR_LENGTH, frameFromAxes, Joint, JointKind, lockJointFields, MAX_JOINT_TORQUE, MAX_MOTOR_SPEED, requireLimitAngle, setAnchors, setFrames, unitAxis, type JointDescBase } from './joint';
import { AxisRow, MAX_DAMPING_RATIO, MAX_SPRING_HERTZ } from './axis-row';
import { AngularLock2, AngularRow } from './angular-rows';
import { PointRow } from './linear-rows';
import { frameAxisX, frameOfSlot, relativeRotation, type JointStepContext } from './rows';

export interface HingeJointDesc extends JointDescBase {
  /** World anchor at creation. Default: B's centre. */
  anchor?: Readonly<Vec3>;
  /** World hinge axis at creation (need not be unit). Required unless `localAxisA` is given. */
  axis?: Readonly<Vec3>;
  localAnchorA?: Readonly<Vec3>;
  localAnchorB?: Readonly<Vec3>;
  /** Hinge axis in A's local frame; `localAxisB` defaults to the same world axis now. */
  localAxisA?: Readonly<Vec3>;
  localAxisB?: Readonly<Vec3>;
  /** Radians, in [−π, π] and ≤ upperAngle. Default −Infinity (no lower limit). */
  lowerAngle?: number;
  /** Radians, in [−π, π] and ≥ lowerAngle. Default +Infinity (no upper limit). */
  upperAngle?: number;
  /** Target relative angular speed (rad/s) about the axis, in [−1000, 1000] (MAX_MOTOR_SPEED). Default 0. */
  motorSpeed?: number;
  /** N·m, in [0, 1e9] (MAX_JOINT_TORQUE); 0 disables the motor. Default 0. */
  maxMotorTorque?: number;
  /** 'velocity' drives `motorSpeed`; 'position' drives the angle to `targetAngle` (a servo). Default 'velocity'. */
  motorMode?: 'velocity' | 'position';
  /** Servo target (rad), in [−π, π]. Default 0. */
  targetAngle?: number;
  /** Servo spring frequency (Hz), in (0, 1e4]. Default 4. */
  motorHertz?: number;
  /** Servo damping ratio, in [0, 1e3]. Default 1. */
  motorDampingRatio?: number;
}

export class HingeJoint extends Joint {
  readonly kind = JointKind.Hinge;
  // Numbers from the start, not undefined (CONTRIBUTING.md, hot path).
  private lowerValue = -Infinity;
  private upperValue = Infinity;
  private motorSpeedValue = 0;
  private maxMotorTorqueValue = 0;
  private positionMode = false;
  private targetAngleValue = 0;
  /** @internal the servo row (position mode) */ readonly servo = new AxisRow();
  /** @internal */ readonly point: PointRow;
  /** @internal */ readonly lock = new AngularLock2();
  /** @internal */ readonly lower = new AngularRow();
  /** @internal */ readonly upper = new AngularRow();
  /** @internal */ readonly motor = new AngularRow();
  /** @internal */ readonly friction = new AngularRow();
  private readonly axisA: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly axisB: Vec3 = { x: 0, y: 0, z: 0 };
  private solverAngle = 0;
  private maxMotorImpulse = 0;

  constructor(desc: HingeJointDesc) {
    super(desc);
    setAnchors(this, desc.anchor, desc.localAnchorA, desc.localAnchorB);
    if (desc.localAxisA !== undefined) {
      const fa: Quat = { x: 0, y: 0, z: 0, w: 1 };
      frameFromAxes(fa, unitAxis(desc.localAxisA, 'localAxisA'));
      let fb: Quat | undefined;
      if (desc.localAxisB !== undefined) {
        fb = { x: 0, y: 0, z: 0, w: 1 };
        frameFromAxes(fb, unitAxis(desc.localAxisB, 'localAxisB'));
      }
      setFrames(this, null, fa, fb);
    } else {
      const w: Quat = { x: 0, y: 0, z: 0, w: 1 };
      frameFromAxes(w, unitAxis(desc.axis, 'axis'));
      setFrames(this, w);
    }
    this.setLimits(desc.lowerAngle ?? -Infinity, desc.upperAngle ?? Infinity);
    this.motorSpeed = desc.motorSpeed ?? 0;
    this.maxMotorTorque = desc.maxMotorTorque ?? 0;
    this.motorMode = desc.motorMode ?? 'velocity';
    this.targetAngle = desc.targetAngle ?? 0;
    this.motorHertz = desc.motorHertz ?? 4;
    this.motorDampingRatio = desc.motorDampingRatio ?? 1;
    this.point = new PointRow(this.localAnchorA, this.localAnchorB);
    lockJointFields(this);
  }

  /** Radians in [−π, π] (−Infinity: no lower limit); must stay ≤ upperAngle (use setLimits to move both). */
  get lowerAngle(): number { return this.lowerValue; }
  set lowerAngle(v: number) { this.setLimits(v, this.upperValue); }
  /** Radians in [−π, π] (+Infinity: no upper limit); must stay ≥ lowerAngle. */
  get upperAngle(): number { return this.upperValue; }
  set upperAngle(v: number) { this.setLimits(this.lowerValue, v); }

  /** Sets both limits at once (checked together: lower ≤ upper). */
  setLimits(lowerAngle: number, upperAngle: number): void {
    requireLimitAngle(lowerAngle, -Infinity, 'HingeJoint.lowerAngle');
    requireLimitAngle(upperAngle, Infinity, 'HingeJoint.upperAngle');
    if (lowerAngle > upperAngle) throw new RangeError(`HingeJoint.lowerAngle (${lowerAngle}) must be ≤ upperAngle (${upperAngle}); setLimits(lower, upper) moves both at once`);
    this.lowerValue = lowerAngle;
    this.upperValue = upperAngle;
  }

  /** rad/s in [−MAX_MOTOR_SPEED, MAX_MOTOR_SPEED]. */
  get motorSpeed(): number { return this.motorSpeedValue; }
  set motorSpeed(v: number) {
    requireInRange(v, -MAX_MOTOR_SPEED, MAX_MOTOR_SPEED, 'HingeJoint.motorSpeed');
    this.motorSpeedValue = v;
  }

  /** N·m in [0, MAX_JOINT_TORQUE] (0: motor off). */
  get maxMotorTorque(): number { return this.maxMotorTorqueValue; }
  set maxMotorTorque(v: number) {
    requireInRange(v, 0, MAX_JOINT_TORQUE, 'HingeJoint.maxMotorTorque');
    this.maxMotorTorqueValue = v;
  }

  /** 'velocity' or 'position' (servo to targetAngle). */
  get motorMode(): 'velocity' | 'position' { return this.positionMode ? 'position' : 'velocity'; }
  set motorMode(v: 'velocity' | 'position') {
    if (v !== 'velocity' && v !== 'position') throw new RangeError(`HingeJoint.motorMode must be 'velocity' or 'position' (got ${String(v)})`);
    this.positionMode = v === 'position';
  }

  /** Servo target (rad) in [−π, π]. */
  get targetAngle(): number { return this.targetAngleValue; }
  set targetAngle(v: number) {
    requireInRange(v, -Math.PI, Math.PI, 'HingeJoint.targetAngle');
    this.targetAngleValue = v;
  }

  /** Servo spring frequency (Hz) in (0, 1e4]. */
  get motorHertz(): number { return this.servo.springHertz; }
  set motorHertz(v: number) {
    requireInRange(v, 0, MAX_SPRING_HERTZ, 'HingeJoint.motorHertz');
    if (v === 0) throw new RangeError('HingeJoint.motorHertz must be > 0 (got 0)');
    this.servo.springHertz = v;
  }

  /** Servo damping ratio in [0, 1e3]. */
  get motorDampingRatio(): number { return this.servo.springDampingRatio; }
  set motorDampingRatio(v: number) {
    requireInRange(v, 0, MAX_DAMPING_RATIO, 'HingeJoint.motorDampingRatio');
    this.servo.springDampingRatio = v;
  }

  /** Current hinge angle (rad) from the bodies' rotations, in (−π, π]. */
  get angle(): number {
    const q = this.currentRelativeRotation();
    return 2 * Math.atan2(q.x, q.w);
  }

  /** Geometry from the slot poses: axes, lock basis, angle. */
  private update(B: SolverBodies): void {
    this.markMeasured(B);
    const fa = frameOfSlot(this.frameA, B, this.slotA, this.localFrameA);
    const fb = frameOfSlot(this.frameB, B, this.slotB, this.localFrameB);
    const q = relativeRotation(this.relative, fa, fb);
    this.solverAngle = 2 * Math.atan2(q.x, q.w);
    const a = frameAxisX(this.axisA, fa);
    const b = frameAxisX(this.axisB, fb);
    this.lock.update(fa, b);
    this.lower.ax = a.x; this.lower.ay = a.y; this.lower.az = a.z;
    this.upper.ax = -a.x; this.upper.ay = -a.y; this.upper.az = -a.z;
    this.motor.ax = a.x; this.motor.ay = a.y; this.motor.az = a.z;
    this.friction.ax = a.x; this.friction.ay = a.y; this.friction.az = a.z;
    if (this.positionMode) {
      this.servo.setAngular(a);
      this.servo.computeMass(B, this.slotA, this.slotB);
    }
  }

  /** @internal */
  prepare(_B: SolverBodies, ctx: JointStepContext): void {
    this.maxMotorImpulse = this.maxMotorTorque * ctx.h;
    if (this.lowerAngle === -Infinity) this.lower.impulse = 0;
    if (this.upperAngle === Infinity) this.upper.impulse = 0;
    if (this.maxMotorTorque === 0 || this.positionMode) this.motor.impulse = 0;
    if (this.maxMotorTorque === 0 || !this.positionMode) this.servo.impulse = 0;
    this.servo.setSpring(ctx);
  }

  /** @internal A velocity motor does at most maxMotorTorque·|motorSpeed|; a servo is a spring. */
  override workBound(out: Float64Array): boolean {
    out[0] = this.positionMode ? 0 : this.maxMotorTorque * Math.abs(this.motorSpeed);
    return !(this.positionMode && this.maxMotorTorque > 0);
  }

  /** @internal */
  warmStart(B: SolverBodies): void {
    const ia = this.slotA, ib = this.slotB;
    this.update(B);
    this.point.warmStart(B, ia, ib);
    this.lock.warmStart(B, ia, ib);
    this.lower.warmStart(B, ia, ib);
    this.upper.warmStart(B, ia, ib);
    this.motor.warmStart(B, ia, ib);
    if (this.positionMode) this.servo.warmStart(B, ia, ib);
    if (this.frictionTorque > 0) this.friction.warmStart(B, ia, ib);
  }

  /** @internal */
  solveVelocity(B: SolverBodies, ctx: JointStepContext): void {
    const ia = this.slotA, ib = this.slotB;
    if (this.geometryStale(B)) this.update(B);
    if (this.maxMotorTorque > 0 && this.positionMode) {
      const s = this.servo;
      let c = this.solverAngle - this.targetAngleValue;
      // The short way round.
      if (c > Math.PI) c -= 2 * Math.PI; else if (c < -Math.PI) c += 2 * Math.PI;
      s.c = c;
      s.maxImpulse = this.maxMotorImpulse; s.minImpulse = -this.maxMotorImpulse;
      s.solveSpring(B, ia, ib, ctx);
    } else if (this.maxMotorTorque > 0) {
      this.motor.speed = this.motorSpeed;
      this.motor.maxImpulse = this.maxMotorImpulse;
      this.motor.solveMotor(B, ia, ib);
    }
    if (this.frictionTorque > 0) {
      this.friction.speed = 0;
      this.friction.maxImpulse = this.frictionTorque * ctx.h;
      this.friction.solveMotor(B, ia, ib);
    }
    if (this.lowerAngle !== -Infinity) {
      this.lower.c = this.solverAngle - this.lowerAngle;
      this.lower.solveLimit(B, ia, ib, ctx);
    }
    if (this.upperAngle !== Infinity) {
      this.upper.c = this.upperAngle - this.solverAngle;
      this.upper.solveLimit(B, ia, ib, ctx);
    }
    this.lock.solve(B, ia, ib, ctx);
    this.point.solve(B, ia, ib, ctx);
  }

  /** @internal */
  solvePosition(B: SolverBodies, _ctx: JointStepContext): number {
    const ia = this.slotA, ib = this.slotB;
    this.update(B);
    let angular = 0;
    if (this.lowerAngle !== -Infinity) angular = Math.max(angular, this.lower.solvePositionLimit(B, ia, ib, this.solverAngle - this.lowerAngle));
    if (this.upperAngle !== Infinity) angular = Math.max(angular, this.upper.solvePositionLimit(B, ia, ib, this.upperAngle - this.solverAngle));
    this.update(B);
    angular = Math.max(angular, this.lock.solvePosition(B, ia, ib));
    const linear = this.point.solvePosition(B, ia, ib);
    return Math.max(linear, angular * ANGULAR_ERROR_LENGTH);
  }

  /** @internal */
  override projectsAnchor(): boolean { return true; }

  /** @internal */
  override projectLimits(B: SolverBodies, ctx: JointStepContext): void {
    const ia = this.slotA, ib = this.slotB;
    this.update(B);
    const turned = this.lock.projectB(B, ia, ib, ctx);
    if (this.lowerAngle !== -Infinity || this.upperAngle !== Infinity) {
      const slop = ctx.limitSlop;
      if (turned) this.update(B);
      const lo = this.solverAngle - this.lowerAngle, hi = this.upperAngle - this.solverAngle;
      if (lo < -slop) {
        this.lower.c = lo + slop;
        this.lower.projectLimitB(B, ia, ib);
      } else if (hi < -slop) {
        this.upper.c = hi + slop;
        this.upper.projectLimitB(B, ia, ib);
      }
    }
    this.point.projectB(B, ia, ib, ctx);
  }

  /** @internal */
  finishStep(ctx: JointStepContext): void {
    const p = this.point, l = this.lock;
    this.stepImpulses[0] = Math.sqrt(p.lx * p.lx + p.ly * p.ly + p.lz * p.lz) * ctx.stepScale;
    const ax = this.lower.impulse - this.upper.impulse + this.motor.impulse + this.servo.impulse;
    this.stepImpulses[1] = Math.sqrt(l.l1 * l.l1 + l.l2 * l.l2 + ax * ax) * ctx.stepScale;
  }

  /** @internal */
  protected saveRows(out: number[]): void {
    out.push(this.lowerAngle, this.upperAngle, this.motorSpeed, this.maxMotorTorque, this.solverAngle, this.maxMotorImpulse);
    out.push(this.axisA.x, this.axisA.y, this.axisA.z, this.axisB.x, this.axisB.y, this.axisB.z);
    this.point.save(out);
    this.lock.save(out);
    this.lower.save(out);
    this.upper.save(out);
    this.motor.save(out);
    this.friction.save(out);
    out.push(this.positionMode ? 1 : 0, this.targetAngleValue);
    this.servo.save(out);
  }

  /** @internal */
  protected loadRows(src: Float64Array, o: number): number {
    this.lowerAngle = src[o]!; this.upperAngle = src[o + 1]!; this.motorSpeed = src[o + 2]!; this.maxMotorTorque = src[o + 3]!;
    this.solverAngle = src[o + 4]!; this.maxMotorImpulse = src[o + 5]!;
    this.axisA.x = src[o + 6]!; this.axisA.y = src[o + 7]!; this.axisA.z = src[o + 8]!;
    this.axisB.x = src[o + 9]!; this.axisB.y = src[o + 10]!; this.axisB.z = src[o + 11]!;
    o = this.lock.load(src, this.point.load(src, o + 12));
    o = this.upper.load(src, this.lower.load(src, o));
    o = this.friction.load(src, this.motor.load(src, o));
    this.positionMode = src[o]! === 1;
    this.targetAngle = src[o + 1]!;
    return this.servo.load(src, o + 2);
  }

  resetImpulses(): void {
    this.point.lx = 0; this.point.ly = 0; this.point.lz = 0;
    this.lock.l1 = 0; this.lock.l2 = 0;
    this.lower.impulse = 0; this.upper.impulse = 0; this.motor.impulse = 0; this.friction.impulse = 0;
    this.servo.impulse = 0;
  }

  /** @internal */
  scaleImpulses(scale: Float64Array): void {
    const s = scale[0]!;
    const p = this.point;
    p.lx *= s; p.ly *= s; p.lz *= s;
    this.lock.l1 *= s; this.lock.l2 *= s;
    this.lower.impulse *= s; this.upper.impulse *= s; this.motor.impulse *= s; this.friction.impulse *= s;
    this.servo.impulse *= s;
  }
}
