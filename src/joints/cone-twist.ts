/**
 * Cone-twist joint (shoulders, hips, neck, spine): a point block, a swing cone
 * limit and a twist limit about the twist axis (frame X).
 *
 * Swing–twist split of q = conj(Q_A)·Q_B (joint frames, w ≥ 0), twist about X:
 *   t = (q_x, 0, 0, q_w)/n, n = √(q_x² + q_w²);  twist angle τ = 2 atan2(q_x, q_w)
 *   s = q·t* = (0, (q_w q_y − q_x q_z)/n, (q_w q_z + q_x q_y)/n, n)
 *   swing angle θ = 2 atan2(|s_yz|, n), swing direction u = s_yz/|s_yz| in frame A.
 * Elliptical cone (swing-cone.ts, shared with SixDofJoint's swingType
 * 'cone'): the limit along u is r(u) = 1/√((u_y/l_y)² + (u_z/l_z)²),
 * C = r − θ ≥ 0 with Ċ ≈ −u_w·(ω_B − ω_A), u_w = Q_A u. The twist rows use the half-way axis
 * (a_A + a_B)/|a_A + a_B|, whose rate is the twist rate to first order.
 */
import type { SolverBodies } from '../dynamics/solver-bodies';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { ANGULAR_ERROR_LENGTH, frameFromAxes, Joint, JointKind, lockJointFields, setAnchors, setFrames, unitAxis, type JointDescBase } from './joint';

function requireSwingLimit(v: number, field: string): void {
  if (typeof v !== 'number' || !(v > 0 && v < Math.PI)) throw new RangeError(`${field} must be in (0, π) (got ${String(v)})`);
}
import { AngularFriction3, AngularRow } from './angular-rows';
import { PointRow } from './linear-rows';
import { frameAxisX, frameOfSlot, relativeRotation, type JointStepContext } from './rows';
import { SWING_CONE, swingCone } from './swing-cone';

export interface ConeTwistJointDesc extends JointDescBase {
  /** World anchor at creation. Default: B's centre. */
  anchor?: Readonly<Vec3>;
  /** World twist axis at creation (the limb's long axis). Required unless `localFrameA` is given. */
  twistAxis?: Readonly<Vec3>;
  /** World axis ⊥ twistAxis that fixes the frame's Y (the axis `swingLimitY` rotates about). Default: any perpendicular. */
  normalAxis?: Readonly<Vec3>;
  localAnchorA?: Readonly<Vec3>;
  localAnchorB?: Readonly<Vec3>;
  /** Joint frames relative to the bodies (X = twist axis); `localFrameB` defaults to the same world frame now. */
  localFrameA?: Readonly<Quat>;
  localFrameB?: Readonly<Quat>;
  /** Circular cone half-angle (rad), in (0, π). Default π/4. */
  swingLimit?: number;
  /** Cone half-angle (rad) for rotation about the frame's Y axis. Default `swingLimit`. */
  swingLimitY?: number;
  /** Cone half-angle (rad) for rotation about the frame's Z axis. Default `swingLimit`. */
  swingLimitZ?: number;
  /** Radians, in [−π, 0]. Default −π/4. */
  twistLower?: number;
  /** Radians, in [0, π]. Default π/4. */
  twistUpper?: number;
}

/** n = √(q_x² + q_w²) below which the swing is taken as a half turn (see `update`). */
const SWING_HALF_TURN = 1e-9;

export class ConeTwistJoint extends Joint {
  readonly kind = JointKind.ConeTwist;
  // Numbers from the start, not undefined (CONTRIBUTING.md, hot path).
  private swingYValue = Math.PI / 4;
  private swingZValue = Math.PI / 4;
  private twistLowerValue = -Math.PI / 4;
  private twistUpperValue = Math.PI / 4;
  /** @internal */ readonly point: PointRow;
  /** @internal */ readonly swing = new AngularRow();
  /** @internal */ readonly twistMin = new AngularRow();
  /** @internal */ readonly twistMax = new AngularRow();
  /** @internal */ readonly friction = new AngularFriction3();
  private readonly axisA: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly axisB: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly tmp: Vec3 = { x: 0, y: 0, z: 0 };
  private swingC = 1;
  private twistValue = 0;

  constructor(desc: ConeTwistJointDesc) {
    super(desc);
    setAnchors(this, desc.anchor, desc.localAnchorA, desc.localAnchorB);
    if (desc.localFrameA !== undefined) {
      setFrames(this, null, desc.localFrameA, desc.localFrameB);
    } else {
      const w: Quat = { x: 0, y: 0, z: 0, w: 1 };
      frameFromAxes(w, unitAxis(desc.twistAxis, 'twistAxis'), desc.normalAxis === undefined ? undefined : unitAxis(desc.normalAxis, 'normalAxis'));
      setFrames(this, w);
    }
    const cone = desc.swingLimit ?? Math.PI / 4;
    requireSwingLimit(cone, 'ConeTwistJoint.swingLimit');
    this.swingLimitY = desc.swingLimitY ?? cone;
    this.swingLimitZ = desc.swingLimitZ ?? cone;
    this.twistLower = desc.twistLower ?? -Math.PI / 4;
    this.twistUpper = desc.twistUpper ?? Math.PI / 4;
    this.point = new PointRow(this.localAnchorA, this.localAnchorB);
    lockJointFields(this);
  }

  /** Cone half-angle (rad) about the frame's Y axis, in (0, π). */
  get swingLimitY(): number { return this.swingYValue; }
  set swingLimitY(v: number) { requireSwingLimit(v, 'ConeTwistJoint.swingLimitY'); this.swingYValue = v; }
  /** Cone half-angle (rad) about the frame's Z axis, in (0, π). */
  get swingLimitZ(): number { return this.swingZValue; }
  set swingLimitZ(v: number) { requireSwingLimit(v, 'ConeTwistJoint.swingLimitZ'); this.swingZValue = v; }
  /** Radians, in [−π, 0]. */
  get twistLower(): number { return this.twistLowerValue; }
  set twistLower(v: number) {
    if (typeof v !== 'number' || !(v <= 0 && v >= -Math.PI)) throw new RangeError(`ConeTwistJoint.twistLower must be in [−π, 0] (got ${String(v)})`);
    this.twistLowerValue = v;
  }
  /** Radians, in [0, π]. */
  get twistUpper(): number { return this.twistUpperValue; }
  set twistUpper(v: number) {
    if (typeof v !== 'number' || !(v >= 0 && v <= Math.PI)) throw new RangeError(`ConeTwistJoint.twistUpper must be in [0, π] (got ${String(v)})`);
    this.twistUpperValue = v;
  }

  /** Current swing angle (rad, ≥ 0) between the two twist axes. */
  get swingAngle(): number {
    const q = this.currentRelativeRotation();
    const n = Math.sqrt(q.x * q.x + q.w * q.w);
    if (!(n > SWING_HALF_TURN)) return Math.PI;
    const sy = (q.w * q.y - q.x * q.z) / n, sz = (q.w * q.z + q.x * q.y) / n;
    return 2 * Math.atan2(Math.sqrt(sy * sy + sz * sz), n);
  }

  /** Current twist angle (rad) about the twist axis, in (−π, π]. */
  get twistAngle(): number {
    const q = this.currentRelativeRotation();
    return 2 * Math.atan2(q.x, q.w);
  }

  /** The swing limit (rad) in the current swing direction (the cone's radius there). */
  get swingLimitNow(): number {
    const q = this.currentRelativeRotation();
    const n = Math.sqrt(q.x * q.x + q.w * q.w);
    if (!(n > SWING_HALF_TURN)) return this.limitAlong(q.y, q.z);
    return this.limitAlong((q.w * q.y - q.x * q.z) / n, (q.w * q.z + q.x * q.y) / n);
  }

  private limitAlong(sy: number, sz: number): number {
    const ly = this.swingLimitY, lz = this.swingLimitZ;
    if (ly === lz) return ly;
    const len = Math.sqrt(sy * sy + sz * sz);
    if (len < 1e-12) return Math.min(ly, lz);
    const uy = sy / len, uz = sz / len;
    return 1 / Math.sqrt((uy / ly) * (uy / ly) + (uz / lz) * (uz / lz));
  }

  private update(B: SolverBodies): void {
    this.markMeasured(B);
    const fa = frameOfSlot(this.frameA, B, this.slotA, this.localFrameA);
    const fb = frameOfSlot(this.frameB, B, this.slotB, this.localFrameB);
    const q = relativeRotation(this.relative, fa, fb);
    let n = Math.sqrt(q.x * q.x + q.w * q.w);
    let sy: number, sz: number;
    if (n > SWING_HALF_TURN) {
      this.twistValue = 2 * Math.atan2(q.x, q.w);
      sy = (q.w * q.y - q.x * q.z) / n; sz = (q.w * q.z + q.x * q.y) / n;
    } else {
      // B's twist axis points back along A's (a half-turn swing): the twist
      // is undefined there (the split divides by n = 0); call it 0 and swing about (q_y, q_z).
      n = 0;
      this.twistValue = 0;
      sy = q.y; sz = q.z;
    }
    const sl = Math.sqrt(sy * sy + sz * sz);
    const theta = 2 * Math.atan2(sl, n);
    const ly = this.swingLimitY, lz = this.swingLimitZ;
    const ax = frameAxisX(this.axisA, fa);
    if (sl > 1e-9) {
      // The radial swing error and its exact rate axis (swing-cone.ts).
      const w = SWING_CONE;
      w[0] = sy / sl; w[1] = sz / sl; w[2] = theta; w[3] = ly; w[4] = lz;
      swingCone(fa, this.tmp);
      this.swingC = w[5]!;
      this.swing.ax = w[6]!; this.swing.ay = w[7]!; this.swing.az = w[8]!;
    } else {
      this.swingC = Math.min(ly, lz);
    }
    // Twist rate of q = s·t (twist first): τ̇ = ω_rel·(a_A + a_B)/(1 + a_A·a_B).
    // (The unit half-way axis would be slower by the factor cos(θ/2).)
    const b = frameAxisX(this.axisB, fb);
    const d = 1 + ax.x * b.x + ax.y * b.y + ax.z * b.z;
    let tx = ax.x + b.x, ty = ax.y + b.y, tz = ax.z + b.z;
    if (d > 1e-6) { tx /= d; ty /= d; tz /= d; } else { tx = ax.x; ty = ax.y; tz = ax.z; }
    this.twistMin.ax = tx; this.twistMin.ay = ty; this.twistMin.az = tz;
    this.twistMax.ax = -tx; this.twistMax.ay = -ty; this.twistMax.az = -tz;
  }

  /** @internal */
  prepare(_B: SolverBodies, _ctx: JointStepContext): void {}

  /** @internal */
  warmStart(B: SolverBodies): void {
    const ia = this.slotA, ib = this.slotB;
    this.update(B);
    this.point.warmStart(B, ia, ib);
    this.swing.warmStart(B, ia, ib);
    this.twistMin.warmStart(B, ia, ib);
    this.twistMax.warmStart(B, ia, ib);
    if (this.frictionTorque > 0) this.friction.warmStart(B, ia, ib);
  }

  /** @internal */
  solveVelocity(B: SolverBodies, ctx: JointStepContext): void {
    const ia = this.slotA, ib = this.slotB;
    if (this.frictionTorque > 0) {
      this.friction.maxImpulse = this.frictionTorque * ctx.h;
      this.friction.solve(B, ia, ib);
    }
    if (this.geometryStale(B)) this.update(B);
    this.swing.c = this.swingC;
    this.swing.solveLimit(B, ia, ib, ctx);
    this.twistMin.c = this.twistValue - this.twistLower;
    this.twistMin.solveLimit(B, ia, ib, ctx);
    this.twistMax.c = this.twistUpper - this.twistValue;
    this.twistMax.solveLimit(B, ia, ib, ctx);
    this.point.solve(B, ia, ib, ctx);
  }

  /** @internal */
  solvePosition(B: SolverBodies, _ctx: JointStepContext): number {
    const ia = this.slotA, ib = this.slotB;
    this.update(B);
    let angular = this.swing.solvePositionLimit(B, ia, ib, this.swingC);
    this.update(B);
    angular = Math.max(angular, this.twistMin.solvePositionLimit(B, ia, ib, this.twistValue - this.twistLower));
    angular = Math.max(angular, this.twistMax.solvePositionLimit(B, ia, ib, this.twistUpper - this.twistValue));
    const linear = this.point.solvePosition(B, ia, ib);
    return Math.max(linear, angular * ANGULAR_ERROR_LENGTH);
  }

  /** @internal */
  override projectsAnchor(): boolean { return true; }

  /** @internal */
  override projectLimits(B: SolverBodies, ctx: JointStepContext): void {
    const ia = this.slotA, ib = this.slotB;
    const slop = ctx.limitSlop;
    this.update(B);
    if (this.swingC < -slop) {
      this.swing.c = this.swingC + slop;
      this.swing.projectLimitB(B, ia, ib);
      this.update(B);
    }
    const lo = this.twistValue - this.twistLower, hi = this.twistUpper - this.twistValue;
    if (lo < -slop) {
      this.twistMin.c = lo + slop;
      this.twistMin.projectLimitB(B, ia, ib);
    } else if (hi < -slop) {
      this.twistMax.c = hi + slop;
      this.twistMax.projectLimitB(B, ia, ib);
    }
    this.point.projectB(B, ia, ib, ctx);
  }

  /** @internal */
  finishStep(ctx: JointStepContext): void {
    const p = this.point;
    this.stepImpulses[0] = Math.sqrt(p.lx * p.lx + p.ly * p.ly + p.lz * p.lz) * ctx.stepScale;
    this.stepImpulses[1] = (this.swing.impulse + this.twistMin.impulse + this.twistMax.impulse) * ctx.stepScale;
  }

  /** @internal */
  protected saveRows(out: number[]): void {
    out.push(this.swingLimitY, this.swingLimitZ, this.twistLower, this.twistUpper, this.swingC, this.twistValue);
    out.push(this.axisA.x, this.axisA.y, this.axisA.z, this.axisB.x, this.axisB.y, this.axisB.z);
    this.point.save(out);
    this.swing.save(out);
    this.twistMin.save(out);
    this.twistMax.save(out);
    this.friction.save(out);
  }

  /** @internal */
  protected loadRows(src: Float64Array, o: number): number {
    this.swingLimitY = src[o]!; this.swingLimitZ = src[o + 1]!; this.twistLower = src[o + 2]!; this.twistUpper = src[o + 3]!;
    this.swingC = src[o + 4]!; this.twistValue = src[o + 5]!;
    this.axisA.x = src[o + 6]!; this.axisA.y = src[o + 7]!; this.axisA.z = src[o + 8]!;
    this.axisB.x = src[o + 9]!; this.axisB.y = src[o + 10]!; this.axisB.z = src[o + 11]!;
    o = this.swing.load(src, this.point.load(src, o + 12));
    o = this.twistMax.load(src, this.twistMin.load(src, o));
    return this.friction.load(src, o);
  }

  resetImpulses(): void {
    this.point.lx = 0; this.point.ly = 0; this.point.lz = 0;
    this.swing.impulse = 0; this.twistMin.impulse = 0; this.twistMax.impulse = 0;
    this.friction.reset();
  }

  /** @internal */
  scaleImpulses(scale: Float64Array): void {
    const s = scale[0]!;
    const p = this.point, f = this.friction;
    p.lx *= s; p.ly *= s; p.lz *= s;
    this.swing.impulse *= s; this.twistMin.impulse *= s; this.twistMax.impulse *= s;
    f.lx *= s; f.ly *= s; f.lz *= s;
  }
}
