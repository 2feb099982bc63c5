/**
 * One scalar constraint row with a general Jacobian, for the per-axis joints
 * (SixDofJoint, SliderJoint) and the hinge's position motor:
 *
 *   Ċ = n·(v_B − v_A) + b·ω_B − a·ω_A
 *   K = (m_A⁻¹ + m_B⁻¹)|n|² + a·I_A⁻¹·a + b·I_B⁻¹·b,   m = 1/K
 *
 * A linear row along a unit axis e fixed in A, between anchor points
 * x_A + r_A and x_B + r_B = x_A + r_A + d, has n = e, a = (r_A + d) × e,
 * b = r_B × e (e turns with A, which adds −ω_A·(d × e)); an angular row
 * along a (not necessarily unit) rate axis J has n = 0, a = b = J
 * (Catto 2005; Box2D v3 prismatic_joint.c for the linear arm).
 *
 * The row is used in one of five ways per solve, each clamping the
 * ACCUMULATED impulse:
 * - lock:   bilateral, Δλ = −m (Ċ + b C) with the step's bias (rows.ts);
 * - limit:  C ≥ 0, λ ≥ 0, speculative when apart (rows.ts limitBias);
 * - motor:  Ċ → speed with |λ| ≤ maxImpulse (velocity motor, friction);
 * - spring: a soft constraint on C with the row's own frequency and damping
 *   ratio (Box2D v3 b2MakeSoft, `Softness`): Δλ = −s_m m (Ċ + b_s C) − s_i λ,
 *   λ clamped to [minImpulse, maxImpulse] (servo: ±maxForce·h; soft limit:
 *   λ ≥ 0). It is a physical spring, solved before the position
 *   integration; in 'soft' mode the relax sweep after it leaves it alone
 *   (`springSweep`): solved again at the moved pose, a 1.5 Hz spring rang at
 *   1.67 Hz.
 *   A soft limit's stiffness k = m ω² is taken with the effective mass m of
 *   the step it engages and kept while it stays engaged: a stiffness that
 *   followed m, which changes with the lever arms, is not a potential, and
 *   a limit stretched while m grew gave back more than the stretch took
 *   (docs/joints.md).
 * Doubles reach the per-sweep code through the row's fields, not as
 * arguments (rows.ts on V8 boxing).
 */
import { Softness } from '../dynamics/softness';
import { VELOCITY_STRIDE, type SolverBodies } from '../dynamics/solver-bodies';
import { SWEEP_SOFT } from '../dynamics/sweep-mode';
import { MAX_BODY_STATE } from '../math/validate';
import type { Vec3 } from '../math/vec3';
import { LIMIT, limitBias, moveAngular, moveLinear, type JointStepContext } from './rows';

export class AxisRow {
  /** Accumulated impulse (N·s or N·m·s per sub-step). */
  impulse = 0;
  nx = 0; ny = 0; nz = 0;
  ax = 0; ay = 0; az = 0;
  bx = 0; by = 0; bz = 0;
  /** Effective mass 1/K at the last `computeMass` (0: both bodies fixed). */
  mass = 0;
  /** Position error C (m or rad), set by the owning joint. */
  c = 0;
  /** Motor target Ċ; impulse bounds of `solveMotor` (±maxImpulse) and `solveSpring` ([minImpulse, maxImpulse]). */
  speed = 0;
  minImpulse = 0;
  maxImpulse = 0;
  /** Spring of `solveSpring`: frequency (Hz) and damping ratio, turned into coefficients by `setSpring`. */
  springHertz = 0;
  springDampingRatio = 1;
  private readonly soft = new Softness();
  /** A soft limit's effective mass when it engaged (0 while apart): its stiffness is springMass·ω² until it lets go. */
  springMass = 0;
  /** Arm (r_A + d) of the last `setLinear`, for NGS. */
  private readonly armA: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly armB: Vec3 = { x: 0, y: 0, z: 0 };
  private angular = false;

  /** Linear row along unit e with arms armA = r_A + d and r_B. */
  setLinear(e: Readonly<Vec3>, armA: Readonly<Vec3>, rb: Readonly<Vec3>): void {
    this.angular = false;
    const ex = e.x, ey = e.y, ez = e.z;
    this.nx = ex; this.ny = ey; this.nz = ez;
    this.ax = armA.y * ez - armA.z * ey; this.ay = armA.z * ex - armA.x * ez; this.az = armA.x * ey - armA.y * ex;
    this.bx = rb.y * ez - rb.z * ey; this.by = rb.z * ex - rb.x * ez; this.bz = rb.x * ey - rb.y * ex;
    this.armA.x = armA.x; this.armA.y = armA.y; this.armA.z = armA.z;
    this.armB.x = rb.x; this.armB.y = rb.y; this.armB.z = rb.z;
  }

  /** Angular row along J (world). */
  setAngular(j: Readonly<Vec3>): void {
    this.angular = true;
    this.nx = 0; this.ny = 0; this.nz = 0;
    this.ax = j.x; this.ay = j.y; this.az = j.z;
    this.bx = j.x; this.by = j.y; this.bz = j.z;
  }

  /** The same Jacobian as `r`, times `sign` (±1: an upper limit row is the lower one reversed). */
  copyFrom(r: AxisRow, sign: number): void {
    this.angular = r.angular;
    this.nx = sign * r.nx; this.ny = sign * r.ny; this.nz = sign * r.nz;
    this.ax = sign * r.ax; this.ay = sign * r.ay; this.az = sign * r.az;
    this.bx = sign * r.bx; this.by = sign * r.by; this.bz = sign * r.bz;
    this.armA.x = r.armA.x; this.armA.y = r.armA.y; this.armA.z = r.armA.z;
    this.armB.x = r.armB.x; this.armB.y = r.armB.y; this.armB.z = r.armB.z;
    this.mass = r.mass;
  }

  /** mass = 1/K at the slots' current inverse inertia. */
  computeMass(B: SolverBodies, ia: number, ib: number): void {
    const nn = this.nx * this.nx + this.ny * this.ny + this.nz * this.nz;
    const ax = this.ax, ay = this.ay, az = this.az, bx = this.bx, by = this.by, bz = this.bz;
    const k = (B.invMass[ia]! + B.invMass[ib]!) * nn +
      ax * (B.ixx[ia]! * ax + B.ixy[ia]! * ay + B.ixz[ia]! * az) +
      ay * (B.ixy[ia]! * ax + B.iyy[ia]! * ay + B.iyz[ia]! * az) +
      az * (B.ixz[ia]! * ax + B.iyz[ia]! * ay + B.izz[ia]! * az) +
      bx * (B.ixx[ib]! * bx + B.ixy[ib]! * by + B.ixz[ib]! * bz) +
      by * (B.ixy[ib]! * bx + B.iyy[ib]! * by + B.iyz[ib]! * bz) +
      bz * (B.ixz[ib]! * bx + B.iyz[ib]! * by + B.izz[ib]! * bz);
    this.mass = k > 1e-15 ? 1 / k : 0;
  }

  /** Spring coefficients for the (sub)step ctx.h from springHertz and springDampingRatio. */
  setSpring(ctx: JointStepContext): void {
    this.soft.set(this.springHertz, this.springDampingRatio, ctx.h);
  }

  /** Ċ at the current velocities, into `cdot`. */
  private velocityError(B: SolverBodies, ia: number, ib: number): void {
    const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
    this.cdot = this.nx * (V[ob]! - V[oa]!) + this.ny * (V[ob + 1]! - V[oa + 1]!) + this.nz * (V[ob + 2]! - V[oa + 2]!) +
      this.bx * V[ob + 3]! + this.by * V[ob + 4]! + this.bz * V[ob + 5]! -
      this.ax * V[oa + 3]! - this.ay * V[oa + 4]! - this.az * V[oa + 5]!;
  }
  private cdot = 0;
  /** Impulse increment for `applyStep`. */
  private step = 0;

  /** Applies `step` along the Jacobian. */
  private applyStep(B: SolverBodies, ia: number, ib: number): void {
    const d = this.step;
    if (d === 0) return;
    const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
    const ima = B.invMass[ia]! * d, imb = B.invMass[ib]! * d;
    V[oa] = V[oa]! - this.nx * ima; V[oa + 1] = V[oa + 1]! - this.ny * ima; V[oa + 2] = V[oa + 2]! - this.nz * ima;
    V[ob] = V[ob]! + this.nx * imb; V[ob + 1] = V[ob + 1]! + this.ny * imb; V[ob + 2] = V[ob + 2]! + this.nz * imb;
    const ax = this.ax * d, ay = this.ay * d, az = this.az * d;
    V[oa + 3] = V[oa + 3]! - (B.ixx[ia]! * ax + B.ixy[ia]! * ay + B.ixz[ia]! * az);
    V[oa + 4] = V[oa + 4]! - (B.ixy[ia]! * ax + B.iyy[ia]! * ay + B.iyz[ia]! * az);
    V[oa + 5] = V[oa + 5]! - (B.ixz[ia]! * ax + B.iyz[ia]! * ay + B.izz[ia]! * az);
    const bx = this.bx * d, by = this.by * d, bz = this.bz * d;
    V[ob + 3] = V[ob + 3]! + B.ixx[ib]! * bx + B.ixy[ib]! * by + B.ixz[ib]! * bz;
    V[ob + 4] = V[ob + 4]! + B.ixy[ib]! * bx + B.iyy[ib]! * by + B.iyz[ib]! * bz;
    V[ob + 5] = V[ob + 5]! + B.ixz[ib]! * bx + B.iyz[ib]! * by + B.izz[ib]! * bz;
  }

  warmStart(B: SolverBodies, ia: number, ib: number): void {
    this.step = this.impulse;
    this.applyStep(B, ia, ib);
  }

  /** Bilateral: C = `c` → 0 with the step's bias, capped at maxCorrectionVelocity. */
  solveLock(B: SolverBodies, ia: number, ib: number, ctx: JointStepContext): void {
    const m = this.mass;
    if (m === 0) return;
    this.velocityError(B, ia, ib);
    const cap = ctx.maxCorrectionVelocity;
    let bias = ctx.biasRate * this.c;
    bias = bias > cap ? cap : bias < -cap ? -cap : bias;
    this.step = -m * (this.cdot + bias);
    this.impulse += this.step;
    this.applyStep(B, ia, ib);
  }

  /** One-sided C = `c` ≥ 0, λ ≥ 0 (angular-rows.ts AngularRow.solveLimit). */
  solveLimit(B: SolverBodies, ia: number, ib: number, ctx: JointStepContext): void {
    const m = this.mass;
    if (m === 0) return;
    this.velocityError(B, ia, ib);
    LIMIT[0] = this.c;
    limitBias(ctx);
    const old = this.impulse;
    let l = old - m * (this.cdot + LIMIT[0]!);
    if (l < 0) l = 0;
    this.impulse = l;
    this.step = l - old;
    this.applyStep(B, ia, ib);
  }

  /** Ċ → `speed` with |λ| ≤ `maxImpulse`. */
  solveMotor(B: SolverBodies, ia: number, ib: number): void {
    const m = this.mass;
    if (m === 0) return;
    this.velocityError(B, ia, ib);
    const old = this.impulse, hi = this.maxImpulse;
    let l = old - m * (this.cdot - this.speed);
    l = l > hi ? hi : l < -hi ? -hi : l;
    this.impulse = l;
    this.step = l - old;
    this.applyStep(B, ia, ib);
  }

  /** Soft constraint on C = `c` (see the file comment), λ ∈ [minImpulse, maxImpulse]; nothing in a relax sweep. */
  solveSpring(B: SolverBodies, ia: number, ib: number, ctx: JointStepContext): void {
    const m = this.mass;
    if (m === 0 || !springSweep(ctx)) return;
    this.velocityError(B, ia, ib);
    const s = this.soft, old = this.impulse;
    let l = old - s.massScale * m * (this.cdot + s.biasRate * this.c) - s.impulseScale * old;
    const lo = this.minImpulse, hi = this.maxImpulse;
    l = l > hi ? hi : l < lo ? lo : l;
    this.impulse = l;
    this.step = l - old;
    this.applyStep(B, ia, ib);
  }

  /**
   * A one-sided soft limit: a spring pushing back once past (C < 0, λ ≥ 0),
   * nothing while apart (a speculative rigid row there stopped a body
   * exactly at the limit and cut the spring's swing short).
   */
  solveSoftLimit(B: SolverBodies, ia: number, ib: number, ctx: JointStepContext): void {
    if (this.c > 0) {
      this.springMass = 0;
      this.step = -this.impulse;
      this.impulse = 0;
      this.applyStep(B, ia, ib);
      return;
    }
    const m = this.mass;
    if (m > 0 && this.springHertz > 0) {
      if (this.springMass === 0) this.springMass = m;
      // The engaged stiffness k = springMass·ω² at the current mass: ω' = ω √(springMass / m), ζ kept (Softness.set written out).
      const h = ctx.h;
      const omega = 2 * Math.PI * this.springHertz * Math.sqrt(this.springMass / m);
      const a1 = 2 * this.springDampingRatio + h * omega;
      const a2 = h * omega * a1;
      const a3 = 1 / (1 + a2);
      const soft = this.soft;
      soft.biasRate = omega / a1; soft.massScale = a2 * a3; soft.impulseScale = a3;
    }
    this.minImpulse = 0;
    this.maxImpulse = Infinity;
    this.solveSpring(B, ia, ib, ctx);
  }

  /**
   * NGS: moves the poses by the pseudo-impulse −m C along the Jacobian
   * (an error C ≥ 0 of a one-sided row is left alone when `oneSided`).
   * Returns |C| corrected.
   */
  solvePosition(B: SolverBodies, ia: number, ib: number, oneSided: boolean): number {
    const C = this.c;
    if (oneSided && C >= 0) return 0;
    this.computeMass(B, ia, ib);
    const l = -C * this.mass;
    if (l === 0) return Math.abs(C);
    if (this.angular) moveAngular(B, ia, ib, l * this.ax, l * this.ay, l * this.az);
    else moveLinear(B, ia, ib, this.armA, this.armB, l * this.nx, l * this.ny, l * this.nz);
    return Math.abs(C);
  }

  save(out: number[]): void {
    out.push(this.impulse, this.nx, this.ny, this.nz, this.ax, this.ay, this.az, this.bx, this.by, this.bz, this.mass, this.c,
      this.speed, this.minImpulse, this.maxImpulse, this.springHertz, this.springDampingRatio,
      this.armA.x, this.armA.y, this.armA.z, this.armB.x, this.armB.y, this.armB.z, this.angular ? 1 : 0, this.springMass);
  }

  load(src: Float64Array, o: number): number {
    requireRowState(src, o);
    this.impulse = src[o]!;
    this.nx = src[o + 1]!; this.ny = src[o + 2]!; this.nz = src[o + 3]!;
    this.ax = src[o + 4]!; this.ay = src[o + 5]!; this.az = src[o + 6]!;
    this.bx = src[o + 7]!; this.by = src[o + 8]!; this.bz = src[o + 9]!;
    this.mass = src[o + 10]!; this.c = src[o + 11]!;
    this.speed = src[o + 12]!; this.minImpulse = src[o + 13]!; this.maxImpulse = src[o + 14]!;
    this.springHertz = src[o + 15]!; this.springDampingRatio = src[o + 16]!;
    this.armA.x = src[o + 17]!; this.armA.y = src[o + 18]!; this.armA.z = src[o + 19]!;
    this.armB.x = src[o + 20]!; this.armB.y = src[o + 21]!; this.armB.z = src[o + 22]!;
    this.angular = src[o + 23]! === 1;
    const springMass = src[o + 24]!;
    // A snapshot's engaged mass must be a mass: Infinity or a negative one would make the spring's coefficients NaN.
    if (!(springMass >= 0 && springMass < Infinity)) throw new RangeError(`springMass must be finite and ≥ 0 (got ${springMass})`);
    this.springMass = springMass;
    return o + 25;
  }
}

/** Largest spring frequency (Hz) and damping ratio of a servo, motor or soft limit (the setters' ranges). */
export const MAX_SPRING_HERTZ = 1e4;
export const MAX_DAMPING_RATIO = 1e3;

/**
 * A saved row (AxisRow.save) at o that load may take: the settings in the
 * setters' ranges and every other number within ±MAX_BODY_STATE. A finite
 * but absurd spring frequency or lever turns the next step NaN.
 */
function requireRowState(src: Float64Array, o: number): void {
  const hz = src[o + 15]!, zeta = src[o + 16]!, mass = src[o + 10]!, lo = src[o + 13]!, hi = src[o + 14]!;
  if (!(hz >= 0 && hz <= MAX_SPRING_HERTZ)) throw new RangeError(`a row's spring frequency must be within [0, ${MAX_SPRING_HERTZ}] Hz (got ${hz})`);
  if (!(zeta >= 0 && zeta <= MAX_DAMPING_RATIO)) throw new RangeError(`a row's spring damping ratio must be within [0, ${MAX_DAMPING_RATIO}] (got ${zeta})`);
  if (!(mass >= 0 && mass <= MAX_BODY_STATE)) throw new RangeError(`a row's effective mass must be within [0, 1e15] (got ${mass})`);
  // The impulse bounds may be infinite (a limit pushes one way without bound).
  if (!(lo <= hi)) throw new RangeError(`a row's impulse bounds must be ordered (got ${lo}, ${hi})`);
  for (const k of ROW_BOUNDED) {
    const v = src[o + k]!;
    if (!(Math.abs(v) <= MAX_BODY_STATE)) throw new RangeError(`value ${k} of a saved row must be within ±1e15 (got ${v})`);
  }
}
/** The offsets of AxisRow.save that are neither settings checked above nor the impulse bounds. */
const ROW_BOUNDED = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 17, 18, 19, 20, 21, 22, 24];

/**
 * Whether this sweep solves springs: every sweep but the relax sweep of
 * 'soft' (recognised by its zero bias rate while the joint softness has one;
 * with jointHertz = 0 both sweeps solve them).
 */
export function springSweep(ctx: JointStepContext): boolean {
  return !(ctx.mode === SWEEP_SOFT && ctx.biasRate === 0 && ctx.softness.biasRate > 0);
}
