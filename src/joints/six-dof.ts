/**
 * Six-degree-of-freedom joint: each of the three translations and three
 * rotations of frame B in frame A is free, limited (hard or a spring) or
 * locked, with a motor (velocity or position target, bounded force) and dry
 * friction per axis.
 *
 * Coordinates (frame A's axes e_x, e_y, e_z; joint frames as in joint.ts):
 * - linear:  d·e_i, d = (x_B + r_B) − (x_A + r_A), rows as in axis-row.ts;
 * - angular: a swing–twist split of q = conj(Q_A)·Q_B (w ≥ 0), twist first:
 *   twist τ = 2 atan2(q_x, q_w) about X, and the swing as a rotation vector
 *   σ = θ (e_x × b)/|e_x × b| in A's YZ plane, b = B's X axis in frame A,
 *   θ = acos(b_x): σ_y = −k b_z, σ_z = k b_y with k = θ / sin θ.
 *   A swing about Y alone reads σ_y = the angle, about Z alone σ_z.
 * Rates (exact, from q̇ = ½ ω_rel ⊗ q with ω_rel = ω_B − ω_A in frame A):
 *   τ̇ = ω_rel·(e_x + b)/(1 + b_x)                (as in cone-twist.ts)
 *   σ̇_i = ω_rel·(b × ∇_b σ_i),  since ḃ = ω_rel × b and σ depends on b only:
 *   ∇σ_y = (−k′ b_z, 0, −k),  ∇σ_z = (k′ b_y, k, 0),
 *   k′ = dk/db_x = −(sin θ − θ cos θ)/sin³θ  (→ −1/3 at θ = 0).
 * Each angular row runs on the unit axis Ĵ = J/|J| with its error and
 * target speed divided by |J| (the same constraint to first order): its
 * impulse is then a torque impulse, so friction and maxMotorForce bound
 * torques in N·m, and a rate axis that grows near a half-turn swing (|J| →
 * ∞ as θ → π; |J| ≥ 1 everywhere) cannot carry a warm start that spins a
 * body up. Motor power stays ≤ maxMotorForce·|motorSpeed| since |J| ≥ 1.
 * Jolt's SixDOFConstraint also splits swing and twist (it bounds the swing
 * by a cone or a pyramid); Bullet's btGeneric6DofConstraint uses XYZ Euler
 * angles, which lock up at a 90° middle angle. Per-axis swing components
 * keep each axis' limits, motor and friction independent, as an API per axis
 * promises.
 *
 * Where the axes lock together, the blocks of the dedicated joints are used
 * (the same rows, so the same behaviour): three locked translations are the
 * ball joint's point block, locked Y and Z rotations the hinge's 2×2 lock,
 * three locked rotations the weld's 3×3 lock.
 */
import type { SolverBodies } from '../dynamics/solver-bodies';
import { rotate as rotateQuat, type Quat } from '../math/quat';
import { lockFields, MAX_BODY_STATE } from '../math/validate';
import type { Vec3 } from '../math/vec3';
import { AxisRow } from './axis-row';
import { ANGULAR_ERROR_LENGTH, frameFromAxes, Joint, JointKind, lockJointFields, setAnchors, setFrames, unitAxis } from './joint';
import { AngularLock2, AngularLock3, AngularRow } from './angular-rows';
import { PointRow } from './linear-rows';
import { frameAxisX, frameAxisY, frameAxisZ, frameOfSlot, relativeRotation, rotateBySlot, type JointStepContext } from './rows';
import * as Settings from './six-dof-settings';
import { SixDofAxis, type SixDofJointDesc } from './six-dof-settings';
import { SWING_CONE, swingCone } from './swing-cone';

// The axis modes as constants of this module (CONTRIBUTING.md, hot path).
const { MODE_FREE, MODE_LIMITED, MODE_LOCKED, MOTOR_OFF, MOTOR_VELOCITY, MOTOR_POSITION } = Settings;

export type { SixDofJointDesc } from './six-dof-settings';

const LIN_ROWS = 0, LIN_POINT = 1;
const ANG_ROWS = 0, ANG_LOCK2 = 1, ANG_LOCK3 = 2;
/** sin θ below which the swing gradient is taken at this value (a swing near a half turn). */
const MIN_SWING_SIN = 1e-3;
/** √(q_x² + q_w²) below which the twist is undefined (a half-turn swing; see cone-twist.ts). */
const SWING_HALF_TURN = 1e-9;
const TWO_PI = 2 * Math.PI;

export class SixDofJoint extends Joint {
  readonly kind: typeof JointKind.SixDof | typeof JointKind.Slider;
  /** linearX, linearY, linearZ, angularX (twist), angularY, angularZ (swing). */
  readonly axes: readonly SixDofAxis[];
  /** @internal */ readonly point: PointRow;
  /** @internal */ readonly lock2 = new AngularLock2();
  /** @internal */ readonly lock3 = new AngularLock3();
  /** @internal per axis: the limit row (lower; also a locked axis' bilateral row), upper limit, motor, friction. */
  readonly lower: AxisRow[] = [];
  /** @internal */ readonly upper: AxisRow[] = [];
  /** @internal */ readonly motorRow: AxisRow[] = [];
  /** @internal */ readonly frictionRow: AxisRow[] = [];
  /** Current coordinates (m, rad) from the last measurement. */
  private readonly coord = new Float64Array(6);
  /** @internal 1/|J| of each axis' rate axis (1 for the linear axes): errors and speeds in the rows' unit. */
  readonly rateScale = new Float64Array([1, 1, 1, 1, 1, 1]);
  private readonly projector = new AngularRow();
  private readonly ra: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly rb: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly armA: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly e: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly bAxis: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly tmp: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly unit: Vec3 = { x: 0, y: 0, z: 0 };
  /** getCoordinate's own scratch (it may run between steps; the solver's stays as measured). */
  private readonly readA: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly readB: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly readE: Vec3 = { x: 0, y: 0, z: 0 };
  private linMode = LIN_ROWS;
  private angMode = ANG_ROWS;
  private swingConeValue = false;
  /** The cone row is in use (swingType 'cone', both swing axes hard-limited with max > 0). */
  private coneMode = false;
  /** @internal the swing cone row (swing-cone.ts) */ readonly cone = new AxisRow();
  /** Cone error r(φ) − θ (rad) and 1/|J| of its row. */
  private coneC = 0;
  private coneScale = 1;
  /** updateCone's input: sin θ, θ, b_y, b_z (doubles through a typed array, not arguments: see rows.ts on V8 boxing). */
  private readonly swing = new Float64Array(4);

  /** `kind` is internal: SliderJoint passes its own. */
  constructor(desc: SixDofJointDesc, kind: typeof JointKind.SixDof | typeof JointKind.Slider = JointKind.SixDof) {
    super(desc);
    this.kind = kind;
    const name = kind === JointKind.Slider ? 'SliderJoint' : 'SixDofJoint';
    setAnchors(this, desc.anchor, desc.localAnchorA, desc.localAnchorB);
    if (desc.localFrameA !== undefined) {
      setFrames(this, null, desc.localFrameA, desc.localFrameB);
    } else {
      const w: Quat = { x: 0, y: 0, z: 0, w: 1 };
      frameFromAxes(w, unitAxis(desc.axis ?? { x: 1, y: 0, z: 0 }, 'axis'), desc.normalAxis === undefined ? undefined : unitAxis(desc.normalAxis, 'normalAxis'));
      setFrames(this, w);
    }
    this.axes = [
      new SixDofAxis(0, name, desc.linearX), new SixDofAxis(1, name, desc.linearY), new SixDofAxis(2, name, desc.linearZ),
      new SixDofAxis(3, name, desc.angularX), new SixDofAxis(4, name, desc.angularY), new SixDofAxis(5, name, desc.angularZ),
    ];
    for (let k = 0; k < 6; k++) {
      this.lower.push(new AxisRow()); this.upper.push(new AxisRow()); this.motorRow.push(new AxisRow()); this.frictionRow.push(new AxisRow());
    }
    this.point = new PointRow(this.localAnchorA, this.localAnchorB);
    this.swingType = desc.swingType ?? 'pyramid';
    // SliderJoint's constructor goes on after this one, changing none of these.
    lockJointFields(this);
    lockFields(this, ['axes']);
    Object.freeze(this.axes);
  }

  /** See SixDofJointDesc.swingType. */
  get swingType(): 'pyramid' | 'cone' { return this.swingConeValue ? 'cone' : 'pyramid'; }
  set swingType(v: 'pyramid' | 'cone') {
    if (v !== 'pyramid' && v !== 'cone') throw new RangeError(`SixDofJoint.swingType must be 'pyramid' or 'cone' (got ${String(v)})`);
    this.swingConeValue = v === 'cone';
  }

  /** The axes by name (the same objects as `axes[0 … 5]`). */
  get linearX(): SixDofAxis { return this.axes[0]!; }
  get linearY(): SixDofAxis { return this.axes[1]!; }
  get linearZ(): SixDofAxis { return this.axes[2]!; }
  /** Twist about the frame's X axis. */
  get angularX(): SixDofAxis { return this.axes[3]!; }
  /** Swing about the frame's Y axis. */
  get angularY(): SixDofAxis { return this.axes[4]!; }
  get angularZ(): SixDofAxis { return this.axes[5]!; }

  /** Current position along a linear axis (m, 0–2) or angle of an angular axis (rad, 3–5), from the bodies' poses. */
  getCoordinate(index: number): number {
    if (!(index >= 0 && index < 6 && Number.isInteger(index))) throw new RangeError(`${this.kind === JointKind.Slider ? 'SliderJoint' : 'SixDofJoint'}.getCoordinate: index must be an integer in [0, 5] (got ${String(index)})`);
    const fa = this.frameA;
    const q = this.currentRelativeRotation();
    if (index < 3) {
      const pa = this.getAnchorA(this.readA), pb = this.getAnchorB(this.readB);
      const e = index === 0 ? frameAxisX(this.readE, fa) : index === 1 ? frameAxisY(this.readE, fa) : frameAxisZ(this.readE, fa);
      return (pb.x - pa.x) * e.x + (pb.y - pa.y) * e.y + (pb.z - pa.z) * e.z;
    }
    if (index === 3) return 2 * Math.atan2(q.x, q.w);
    const by = 2 * (q.x * q.y + q.w * q.z), bz = 2 * (q.x * q.z - q.w * q.y), bx = 1 - 2 * (q.y * q.y + q.z * q.z);
    const s = Math.sqrt(by * by + bz * bz);
    const theta = Math.atan2(s, bx);
    const k = s > 1e-12 ? theta / s : 1;
    return index === 4 ? -k * bz : k * by;
  }

  /** Axes' modes reduced to the blocks used (see the file comment). */
  private classify(): void {
    const a = this.axes;
    const lx = a[0]!.modeCode === MODE_LOCKED, ly = a[1]!.modeCode === MODE_LOCKED, lz = a[2]!.modeCode === MODE_LOCKED;
    const tx = a[3]!.modeCode === MODE_LOCKED, sy = a[4]!.modeCode === MODE_LOCKED, sz = a[5]!.modeCode === MODE_LOCKED;
    this.linMode = lx && ly && lz ? LIN_POINT : LIN_ROWS;
    this.angMode = sy && sz ? (tx ? ANG_LOCK3 : ANG_LOCK2) : ANG_ROWS;
    const y = a[4]!, z = a[5]!;
    this.coneMode = this.swingConeValue && this.angMode === ANG_ROWS && y.modeCode === MODE_LIMITED && z.modeCode === MODE_LIMITED &&
      y.limitHertz === 0 && z.limitHertz === 0 && y.max > 0 && z.max > 0;
  }

  /** Geometry from the slot poses: coordinates, Jacobians and effective masses of the rows in use. */
  private update(B: SolverBodies): void {
    this.markMeasured(B);
    const ia = this.slotA, ib = this.slotB;
    const fa = frameOfSlot(this.frameA, B, ia, this.localFrameA);
    const fb = frameOfSlot(this.frameB, B, ib, this.localFrameB);
    const q = relativeRotation(this.relative, fa, fb);
    const coord = this.coord;
    // Linear.
    const ra = rotateBySlot(this.ra, B, ia, this.localAnchorA);
    const rb = rotateBySlot(this.rb, B, ib, this.localAnchorB);
    const dx = B.px[ib]! + rb.x - B.px[ia]! - ra.x, dy = B.py[ib]! + rb.y - B.py[ia]! - ra.y, dz = B.pz[ib]! + rb.z - B.pz[ia]! - ra.z;
    const arm = this.armA;
    arm.x = ra.x + dx; arm.y = ra.y + dy; arm.z = ra.z + dz;
    for (let k = 0; k < 3; k++) {
      const e = k === 0 ? frameAxisX(this.e, fa) : k === 1 ? frameAxisY(this.e, fa) : frameAxisZ(this.e, fa);
      coord[k] = dx * e.x + dy * e.y + dz * e.z;
      if (this.linMode === LIN_ROWS) this.setRows(B, k, false, e);
    }
    // Angular: twist and its rate axis (a_A + a_B)/(1 + a_A·a_B).
    const ax = frameAxisX(this.e, fa);
    const axx = ax.x, axy = ax.y, axz = ax.z;
    const b = frameAxisX(this.bAxis, fb);
    const n = Math.sqrt(q.x * q.x + q.w * q.w);
    coord[3] = n > SWING_HALF_TURN ? 2 * Math.atan2(q.x, q.w) : 0;
    // b in frame A, the swing and its coordinates.
    const bx = 1 - 2 * (q.y * q.y + q.z * q.z), by = 2 * (q.x * q.y + q.w * q.z), bz = 2 * (q.x * q.z - q.w * q.y);
    const s = Math.sqrt(by * by + bz * bz);
    const theta = Math.atan2(s, bx);
    const k = s > 1e-12 ? theta / s : 1;
    coord[4] = -k * bz;
    coord[5] = k * by;
    if (this.angMode === ANG_LOCK3) {
      // The weld's error: the rotation vector 2 vec(q) in world space.
      const t = this.tmp;
      t.x = 2 * q.x; t.y = 2 * q.y; t.z = 2 * q.z;
      rotateQuat(t, fa, t);
      this.lock3.cx = t.x; this.lock3.cy = t.y; this.lock3.cz = t.z;
      return;
    }
    const t = this.tmp;
    if (this.angMode === ANG_LOCK2) {
      this.lock2.update(fa, b);
      // As the hinge: its axis is A's X.
      t.x = axx; t.y = axy; t.z = axz;
      this.setRows(B, 3, true, t);
      return;
    }
    const d = 1 + axx * b.x + axy * b.y + axz * b.z;
    if (d > 1e-6) { t.x = (axx + b.x) / d; t.y = (axy + b.y) / d; t.z = (axz + b.z) / d; } else { t.x = axx; t.y = axy; t.z = axz; }
    this.setRows(B, 3, true, t);
    // Swing rates: g_i = b × ∇σ_i in frame A, then to world.
    // Math.max, not a ternary: a phi of s and the module constant is a tagged value, and V8 boxed s into it (~400 B per step per joint).
    const sinT = Math.max(s, MIN_SWING_SIN);
    const kk = s > MIN_SWING_SIN ? theta / s : 1 + theta * theta / 6;
    const kp = theta > 1e-3 ? -(sinT - theta * Math.cos(theta)) / (sinT * sinT * sinT) : -1 / 3;
    // ∇σ_y = (−k′ b_z, 0, −k): g_y = b × ∇σ_y.
    let gx = -kp * bz, gy = 0, gz = -kk;
    t.x = by * gz - bz * gy; t.y = bz * gx - bx * gz; t.z = bx * gy - by * gx;
    rotateQuat(t, fa, t);
    this.setRows(B, 4, true, t);
    // ∇σ_z = (k′ b_y, k, 0).
    gx = kp * by; gy = kk; gz = 0;
    t.x = by * gz - bz * gy; t.y = bz * gx - bx * gz; t.z = bx * gy - by * gx;
    rotateQuat(t, fa, t);
    this.setRows(B, 5, true, t);
    if (this.coneMode) {
      const w = this.swing;
      w[0] = s; w[1] = theta; w[2] = by; w[3] = bz;
      this.updateCone(B);
    }
  }

  /**
   * The cone row: C = r(φ) − θ with the cone-twist's exact rate axis
   * (swing-cone.ts), for the half-angles l_y = angularY.max, l_z = angularZ.max.
   */
  private updateCone(B: SolverBodies): void {
    const w = this.swing, s = w[0]!, theta = w[1]!, by = w[2]!, bz = w[3]!;
    const ly = this.axes[4]!.max, lz = this.axes[5]!.max;
    if (!(s > 1e-9)) {
      // No swing: no direction; the row keeps its last axis.
      this.coneC = Math.min(ly, lz);
      return;
    }
    // Swing axis u = e_x × b / |e_x × b| = (0, −b_z, b_y)/s in frame A.
    const c = SWING_CONE;
    c[0] = -bz / s; c[1] = by / s; c[2] = theta; c[3] = ly; c[4] = lz;
    swingCone(this.frameA, this.tmp);
    this.coneC = c[5]!;
    const jx = c[6]!, jy = c[7]!, jz = c[8]!;
    const len = Math.sqrt(jx * jx + jy * jy + jz * jz);
    const sc = len > 1e-12 ? 1 / len : 1;
    this.coneScale = sc;
    const u = this.unit;
    u.x = jx * sc; u.y = jy * sc; u.z = jz * sc;
    this.cone.setAngular(u);
    this.cone.computeMass(B, this.slotA, this.slotB);
  }

  /** The Jacobian of axis k (unit e for linear axes, the rate axis for angular ones) on the rows that axis uses. */
  private setRows(B: SolverBodies, k: number, angular: boolean, j: Readonly<Vec3>): void {
    const axis = this.axes[k]!;
    const lo = this.lower[k]!;
    if (angular) {
      const len = Math.sqrt(j.x * j.x + j.y * j.y + j.z * j.z);
      const sc = len > 1e-12 ? 1 / len : 1;
      this.rateScale[k] = sc;
      const u = this.unit;
      u.x = j.x * sc; u.y = j.y * sc; u.z = j.z * sc;
      lo.setAngular(u);
    } else {
      lo.setLinear(j, this.armA, this.rb);
    }
    lo.computeMass(B, this.slotA, this.slotB);
    if (axis.modeCode === MODE_LIMITED) this.upper[k]!.copyFrom(lo, -1);
    if (axis.motorCode !== MOTOR_OFF) this.motorRow[k]!.copyFrom(lo, 1);
    if (this.frictionOf(k) > 0) this.frictionRow[k]!.copyFrom(lo, 1);
  }

  /** Friction of axis k: its own, plus the base `frictionTorque` on angular axes. */
  private frictionOf(k: number): number {
    const f = this.axes[k]!.friction;
    return k >= 3 ? f + this.frictionTorque : f;
  }

  /** Whether axis k is solved by its own scalar rows (not a block). */
  private scalar(k: number): boolean {
    if (k < 3) return this.linMode === LIN_ROWS;
    if (this.angMode === ANG_ROWS) return true;
    return this.angMode === ANG_LOCK2 && k === 3;
  }

  /** @internal */
  prepare(_B: SolverBodies, ctx: JointStepContext): void {
    this.classify();
    for (let k = 0; k < 6; k++) {
      const axis = this.axes[k]!;
      const scalar = this.scalar(k);
      if (axis.changed || !scalar) {
        this.lower[k]!.impulse = 0; this.upper[k]!.impulse = 0; this.motorRow[k]!.impulse = 0;
        axis.changed = false;
      }
      if (!scalar || axis.modeCode === MODE_LOCKED) { this.motorRow[k]!.impulse = 0; this.frictionRow[k]!.impulse = 0; }
      if (axis.modeCode === MODE_FREE) { this.lower[k]!.impulse = 0; this.upper[k]!.impulse = 0; }
      if (axis.modeCode !== MODE_LIMITED) this.upper[k]!.impulse = 0;
      if (axis.motorCode === MOTOR_OFF) this.motorRow[k]!.impulse = 0;
      if (this.frictionOf(k) === 0) this.frictionRow[k]!.impulse = 0;
      const lo = this.lower[k]!, up = this.upper[k]!, m = this.motorRow[k]!;
      // A limit that is not (or no longer) soft lets go of the stiffness it engaged with (AxisRow.springMass).
      if (!scalar || axis.modeCode !== MODE_LIMITED || !(axis.limitHertz > 0)) { lo.springMass = 0; up.springMass = 0; }
      lo.springHertz = axis.limitHertz; lo.springDampingRatio = axis.limitDampingRatio; lo.setSpring(ctx);
      up.springHertz = axis.limitHertz; up.springDampingRatio = axis.limitDampingRatio; up.setSpring(ctx);
      m.springHertz = axis.motorHertz; m.springDampingRatio = axis.motorDampingRatio; m.setSpring(ctx);
    }
    if (this.linMode !== LIN_POINT) { this.point.lx = 0; this.point.ly = 0; this.point.lz = 0; }
    if (this.angMode !== ANG_LOCK2) { this.lock2.l1 = 0; this.lock2.l2 = 0; }
    if (this.angMode !== ANG_LOCK3) { this.lock3.lx = 0; this.lock3.ly = 0; this.lock3.lz = 0; }
    if (this.coneMode) {
      this.lower[4]!.impulse = 0; this.upper[4]!.impulse = 0; this.lower[5]!.impulse = 0; this.upper[5]!.impulse = 0;
    } else {
      this.cone.impulse = 0;
    }
  }

  /** @internal Velocity motors do at most max force·|speed|; position motors and soft limits are springs. */
  override workBound(out: Float64Array): boolean {
    let p = 0;
    for (let k = 0; k < 6; k++) {
      const axis = this.axes[k]!;
      if (axis.modeCode === MODE_LIMITED && axis.limitHertz > 0) return false;
      if (axis.maxMotorForce > 0) {
        if (axis.motorCode === MOTOR_POSITION) return false;
        if (axis.motorCode === MOTOR_VELOCITY) p += axis.maxMotorForce * Math.abs(axis.motorSpeed);
      }
    }
    out[0] = p;
    return true;
  }

  /** @internal */
  warmStart(B: SolverBodies): void {
    const ia = this.slotA, ib = this.slotB;
    this.update(B);
    if (this.linMode === LIN_POINT) this.point.warmStart(B, ia, ib);
    if (this.angMode === ANG_LOCK2) this.lock2.warmStart(B, ia, ib);
    else if (this.angMode === ANG_LOCK3) this.lock3.warmStart(B, ia, ib);
    if (this.coneMode) this.cone.warmStart(B, ia, ib);
    for (let k = 0; k < 6; k++) {
      if (!this.scalar(k)) continue;
      this.lower[k]!.warmStart(B, ia, ib);
      this.upper[k]!.warmStart(B, ia, ib);
      this.motorRow[k]!.warmStart(B, ia, ib);
      this.frictionRow[k]!.warmStart(B, ia, ib);
    }
  }

  /** @internal */
  solveVelocity(B: SolverBodies, ctx: JointStepContext): void {
    const ia = this.slotA, ib = this.slotB;
    if (this.geometryStale(B)) this.update(B);
    // Motors and friction first, then limits and locks (their impulses win), the angular blocks, the point block last (as the hinge).
    for (let k = 5; k >= 0; k--) {
      if (k === 3 && this.coneMode) {
        // The swing cone before the twist, as the cone-twist joint.
        this.cone.c = this.coneC * this.coneScale;
        this.cone.solveLimit(B, ia, ib, ctx);
      }
      if (!this.scalar(k)) continue;
      const axis = this.axes[k]!;
      const mode = axis.modeCode;
      const sc = this.rateScale[k]!;
      if (mode !== MODE_LOCKED) {
        const f = this.frictionOf(k);
        if (f > 0) {
          const r = this.frictionRow[k]!;
          r.speed = 0; r.maxImpulse = f * ctx.h;
          r.solveMotor(B, ia, ib);
        }
        const motor = axis.motorCode;
        if (motor === MOTOR_VELOCITY) {
          const r = this.motorRow[k]!;
          r.speed = axis.motorSpeed * sc; r.maxImpulse = axis.maxMotorForce * ctx.h;
          r.solveMotor(B, ia, ib);
        } else if (motor === MOTOR_POSITION) {
          const r = this.motorRow[k]!;
          let c = this.coord[k]! - axis.motorTarget;
          // The twist target is an angle: drive the short way round.
          if (k === 3) c -= TWO_PI * Math.round(c / TWO_PI);
          r.c = c * sc;
          r.maxImpulse = axis.maxMotorForce * ctx.h; r.minImpulse = -r.maxImpulse;
          r.solveSpring(B, ia, ib, ctx);
        }
      }
      const lo = this.lower[k]!;
      if (mode === MODE_LOCKED) {
        lo.c = this.coord[k]! * sc;
        lo.solveLock(B, ia, ib, ctx);
      } else if (mode === MODE_LIMITED && !(this.coneMode && k >= 4)) {
        const up = this.upper[k]!;
        lo.c = (this.coord[k]! - axis.min) * sc;
        up.c = (axis.max - this.coord[k]!) * sc;
        if (axis.limitHertz > 0) {
          lo.solveSoftLimit(B, ia, ib, ctx);
          up.solveSoftLimit(B, ia, ib, ctx);
        } else {
          lo.solveLimit(B, ia, ib, ctx);
          up.solveLimit(B, ia, ib, ctx);
        }
      }
    }
    if (this.angMode === ANG_LOCK2) this.lock2.solve(B, ia, ib, ctx);
    else if (this.angMode === ANG_LOCK3) this.lock3.solve(B, ia, ib, ctx);
    if (this.linMode === LIN_POINT) this.point.solve(B, ia, ib, ctx);
  }

  /** @internal NGS on locks and violated hard limits (springs and motors are left to the velocity rows). */
  solvePosition(B: SolverBodies, _ctx: JointStepContext): number {
    const ia = this.slotA, ib = this.slotB;
    let angular = 0, linear = 0;
    this.update(B);
    if (this.angMode === ANG_LOCK2) angular = this.lock2.solvePosition(B, ia, ib);
    else if (this.angMode === ANG_LOCK3) angular = this.lock3.solvePosition(B, ia, ib);
    if (this.coneMode) {
      this.update(B);
      this.cone.c = this.coneC * this.coneScale;
      angular = Math.max(angular, this.cone.solvePosition(B, ia, ib, true) / this.coneScale);
    }
    for (let k = 3; k < 6; k++) {
      if (!this.scalar(k)) continue;
      this.update(B);
      const e = this.positionRow(B, k);
      if (e > angular) angular = e;
    }
    this.update(B);
    for (let k = 0; k < 3; k++) {
      if (!this.scalar(k)) continue;
      const e = this.positionRow(B, k);
      if (e > linear) linear = e;
      this.update(B);
    }
    if (this.linMode === LIN_POINT) linear = this.point.solvePosition(B, ia, ib);
    return Math.max(linear, angular * ANGULAR_ERROR_LENGTH);
  }

  /** NGS for axis k at the current measurement. */
  private positionRow(B: SolverBodies, k: number): number {
    const axis = this.axes[k]!;
    const ia = this.slotA, ib = this.slotB, lo = this.lower[k]!, c = this.coord[k]! * this.rateScale[k]!;
    if (axis.modeCode === MODE_LOCKED) { lo.c = c; return lo.solvePosition(B, ia, ib, false); }
    if (axis.modeCode !== MODE_LIMITED || axis.limitHertz > 0 || (this.coneMode && k >= 4)) return 0;
    const sc = this.rateScale[k]!;
    lo.c = c - axis.min * sc;
    if (lo.c < 0) return lo.solvePosition(B, ia, ib, true);
    const up = this.upper[k]!;
    up.c = axis.max * sc - c;
    return up.solvePosition(B, ia, ib, true);
  }

  /** @internal */
  override projectsAnchor(): boolean { return this.linMode === LIN_POINT; }

  /**
   * @internal Rotates B back within `limitSlop` of the most violated angular
   * lock or hard limit, then, when the three translations are locked,
   * translates it within `anchorSlop` of the anchor (the hinge's projection).
   */
  override projectLimits(B: SolverBodies, ctx: JointStepContext): void {
    const ia = this.slotA, ib = this.slotB;
    this.update(B);
    const p = this.projector;
    if (this.angMode === ANG_LOCK3) {
      const l = this.lock3;
      const err = Math.sqrt(l.cx * l.cx + l.cy * l.cy + l.cz * l.cz);
      if (err > ctx.limitSlop) {
        p.ax = -l.cx / err; p.ay = -l.cy / err; p.az = -l.cz / err;
        p.c = ctx.limitSlop - err;
        p.projectLimitB(B, ia, ib);
        this.update(B);
      }
    } else {
      let worst = -ctx.limitSlop, worstK = -1, sign = 1;
      if (this.coneMode && this.coneC < worst) { worst = this.coneC; worstK = 6; }
      for (let k = 3; k < 6; k++) {
        if (!this.scalar(k) || (this.coneMode && k >= 4)) continue;
        const axis = this.axes[k]!;
        const hard = axis.modeCode === MODE_LOCKED || (axis.modeCode === MODE_LIMITED && axis.limitHertz === 0);
        if (!hard) continue;
        const min = axis.modeCode === MODE_LOCKED ? 0 : axis.min, max = axis.modeCode === MODE_LOCKED ? 0 : axis.max;
        const c = this.coord[k]!;
        if (c - min < worst) { worst = c - min; worstK = k; sign = 1; }
        if (max - c < worst) { worst = max - c; worstK = k; sign = -1; }
      }
      if (worstK >= 0) {
        const r = worstK === 6 ? this.cone : this.lower[worstK]!;
        p.ax = sign * r.ax; p.ay = sign * r.ay; p.az = sign * r.az;
        p.c = (worst + ctx.limitSlop) * (worstK === 6 ? this.coneScale : this.rateScale[worstK]!);
        p.projectLimitB(B, ia, ib);
        this.update(B);
      }
    }
    // Only the point block's anchor is projected (as the ball joint's). The
    // per-axis linear rows are not, as the weld's are not: with an anchor
    // far from a fast-spinning body those rows do not converge in two sweeps,
    // and translating B back every sub-step stored energy in springs attached
    // to it (fuzz seed 2002, docs/joints.md).
    if (this.linMode === LIN_POINT) this.point.projectB(B, ia, ib, ctx);
  }

  /** @internal */
  finishStep(ctx: JointStepContext): void {
    let lin = 0, ang = 0;
    for (let k = 0; k < 6; k++) {
      const l = this.lower[k]!.impulse - this.upper[k]!.impulse + this.motorRow[k]!.impulse + this.frictionRow[k]!.impulse;
      if (k < 3) lin += l * l; else ang += l * l;
    }
    const p = this.point;
    lin += p.lx * p.lx + p.ly * p.ly + p.lz * p.lz;
    ang += this.cone.impulse * this.cone.impulse;
    ang += this.lock2.l1 * this.lock2.l1 + this.lock2.l2 * this.lock2.l2;
    const l3 = this.lock3;
    ang += l3.lx * l3.lx + l3.ly * l3.ly + l3.lz * l3.lz;
    this.stepImpulses[0] = Math.sqrt(lin) * ctx.stepScale;
    this.stepImpulses[1] = Math.sqrt(ang) * ctx.stepScale;
  }

  /** @internal */
  protected saveRows(out: number[]): void {
    for (let k = 0; k < 6; k++) this.axes[k]!.save(out);
    out.push(this.linMode, this.angMode, this.swingConeValue ? 1 : 0, this.coneMode ? 1 : 0, this.coneC, this.coneScale);
    this.cone.save(out);
    for (let k = 0; k < 6; k++) out.push(this.coord[k]!, this.rateScale[k]!);
    this.point.save(out);
    this.lock2.save(out);
    this.lock3.save(out);
    for (let k = 0; k < 6; k++) {
      this.lower[k]!.save(out); this.upper[k]!.save(out); this.motorRow[k]!.save(out); this.frictionRow[k]!.save(out);
    }
  }

  /** @internal */
  protected loadRows(src: Float64Array, o: number): number {
    for (let k = 0; k < 6; k++) o = this.axes[k]!.load(src, o);
    const lin = src[o]!, ang = src[o + 1]!;
    // (prepare classifies the axes again; the saved blocks only need to be blocks.)
    if (!(lin === LIN_ROWS || lin === LIN_POINT) || !(ang === ANG_ROWS || ang === ANG_LOCK2 || ang === ANG_LOCK3)) {
      throw new RangeError(`the saved row blocks (${lin}, ${ang}) are not blocks of a six-dof joint`);
    }
    this.linMode = lin; this.angMode = ang;
    this.swingConeValue = src[o + 2]! === 1; this.coneMode = src[o + 3]! === 1;
    this.coneC = requireRowNumber(src[o + 4]!, MAX_BODY_STATE, 'cone error');
    this.coneScale = requireRateScale(src[o + 5]!);
    o = this.cone.load(src, o + 6);
    for (let k = 0; k < 6; k++) { this.coord[k] = requireRowNumber(src[o++]!, MAX_BODY_STATE, 'coordinate'); this.rateScale[k] = requireRateScale(src[o++]!); }
    o = this.lock3.load(src, this.lock2.load(src, this.point.load(src, o)));
    for (let k = 0; k < 6; k++) {
      o = this.lower[k]!.load(src, o); o = this.upper[k]!.load(src, o); o = this.motorRow[k]!.load(src, o); o = this.frictionRow[k]!.load(src, o);
    }
    return o;
  }

  resetImpulses(): void {
    this.point.lx = 0; this.point.ly = 0; this.point.lz = 0;
    this.lock2.l1 = 0; this.lock2.l2 = 0;
    this.lock3.lx = 0; this.lock3.ly = 0; this.lock3.lz = 0;
    this.cone.impulse = 0;
    for (let k = 0; k < 6; k++) {
      this.lower[k]!.impulse = 0; this.upper[k]!.impulse = 0; this.motorRow[k]!.impulse = 0; this.frictionRow[k]!.impulse = 0;
    }
  }

  /** @internal */
  scaleImpulses(scale: Float64Array): void {
    const s = scale[0]!;
    const p = this.point;
    p.lx *= s; p.ly *= s; p.lz *= s;
    this.lock2.l1 *= s; this.lock2.l2 *= s;
    this.lock3.lx *= s; this.lock3.ly *= s; this.lock3.lz *= s;
    this.cone.impulse *= s;
    for (let k = 0; k < 6; k++) {
      this.lower[k]!.impulse *= s; this.upper[k]!.impulse *= s; this.motorRow[k]!.impulse *= s; this.frictionRow[k]!.impulse *= s;
    }
  }
}

/** A saved number within ±limit (SixDofJoint.loadRows). */
function requireRowNumber(v: number, limit: number, what: string): number {
  if (!(Math.abs(v) <= limit)) throw new RangeError(`a saved ${what} must be within ±${limit} (got ${v})`);
  return v;
}

/** A saved rate scale: 1/|J| of an angular row, with |J| > 1e-12 (setRows), so within (0, 1e12]. */
function requireRateScale(v: number): number {
  if (!(v > 0 && v <= 1e12)) throw new RangeError(`a saved rate scale must be within (0, 1e12] (got ${v})`);
  return v;
}
