/**
 * The joints' angular rows: the scalar row along an axis (AngularRow: limit,
 * motor, lock), the two- and three-row locks of the hinge and the fixed
 * joint, and the dry friction of the ball joints. Shared parts and the
 * position-error modes: rows.ts.
 */
import type { SolverBodies } from '../dynamics/solver-bodies';
import { VELOCITY_STRIDE } from '../dynamics/solver-bodies';
import * as Rows from './rows';
import type { JointStepContext } from './rows';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';

// What the rows share, as constants of this module (CONTRIBUTING.md, hot path).
const { frameAxisX, frameAxisY, frameAxisZ, F, LIMIT, limitBias, applyAngularF, axisInertiaF, angularMassF,
  movePoseF, moveAngular, solveSym3F, angularKF, turnSlot, HEAVY_B } = Rows;

// ------------------------------------------------------------ scalar angular row

/**
 * One angular row along a world unit axis a (set by the owning joint before
 * each call): Ċ = a·(ω_B − ω_A), effective mass 1 / (a·(I_A⁻¹ + I_B⁻¹)·a).
 * Used as a one-sided limit (C ≥ 0, λ ≥ 0), as a motor (Ċ = speed, |λ| ≤
 * maxTorque·h) and as a bilateral lock.
 */
export class AngularRow {
  impulse = 0;
  ax = 1; ay = 0; az = 0;
  /** Position error C of a limit (rad), set by the owning joint before `solveLimit` / `projectLimitB`. */
  c = 0;
  /** Motor target Ċ (rad/s) and impulse bound (N·m·s per sub-step), set before `solveMotor`. */
  speed = 0;
  maxImpulse = 0;

  /** Snapshot: impulse, axis, error and motor target (a cone's swing axis is kept while the swing is zero). */
  save(out: number[]): void {
    out.push(this.impulse, this.ax, this.ay, this.az, this.c, this.speed, this.maxImpulse);
  }

  load(src: Float64Array, o: number): number {
    this.impulse = src[o]!; this.ax = src[o + 1]!; this.ay = src[o + 2]!; this.az = src[o + 3]!;
    this.c = src[o + 4]!; this.speed = src[o + 5]!; this.maxImpulse = src[o + 6]!;
    return o + 7;
  }

  /** Not for per-sweep code: callers there write ax/ay/az directly (see F). */
  setAxis(x: number, y: number, z: number): void {
    this.ax = x; this.ay = y; this.az = z;
  }

  warmStart(B: SolverBodies, ia: number, ib: number): void {
    const l = this.impulse;
    if (l === 0) return;
    F[0] = l * this.ax; F[1] = l * this.ay; F[2] = l * this.az;
    applyAngularF(B, ia, ib);
  }

  /** F[3] = effective mass; F[0..2] = the axis. */
  private mass(B: SolverBodies, ia: number, ib: number): void {
    F[0] = this.ax; F[1] = this.ay; F[2] = this.az;
    angularMassF(B, ia, ib);
  }

  /**
   * Limit C = `c` ≥ 0 with Ċ = a·(ω_B − ω_A). When C > 0 the row is
   * speculative: it lets the gap close within this (sub)step and no further
   * (target −C/h, rigid); when violated it pushes back with the step's bias
   * (Box2D v3 limit rows).
   */
  solveLimit(B: SolverBodies, ia: number, ib: number, ctx: JointStepContext): void {
    const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
    this.mass(B, ia, ib);
    const m = F[3]!;
    if (m === 0) return;
    LIMIT[0] = this.c;
    limitBias(ctx);
    const bias = LIMIT[0]!;
    const cdot = this.ax * (V[ob + 3]! - V[oa + 3]!) + this.ay * (V[ob + 4]! - V[oa + 4]!) + this.az * (V[ob + 5]! - V[oa + 5]!);
    const old = this.impulse;
    let l = old - m * (cdot + bias);
    if (l < 0) l = 0;
    this.impulse = l;
    F[0] = (l - old) * this.ax; F[1] = (l - old) * this.ay; F[2] = (l - old) * this.az;
    applyAngularF(B, ia, ib);
  }

  /** Motor: drives Ċ to `speed` with |λ| ≤ `maxImpulse` (maxTorque·h). */
  solveMotor(B: SolverBodies, ia: number, ib: number): void {
    const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
    this.mass(B, ia, ib);
    const m = F[3]!;
    if (m === 0) return;
    const cdot = this.ax * (V[ob + 3]! - V[oa + 3]!) + this.ay * (V[ob + 4]! - V[oa + 4]!) + this.az * (V[ob + 5]! - V[oa + 5]!) - this.speed;
    const old = this.impulse;
    const hi = this.maxImpulse;
    let l = old - m * cdot;
    l = l > hi ? hi : l < -hi ? -hi : l;
    this.impulse = l;
    F[0] = (l - old) * this.ax; F[1] = (l - old) * this.ay; F[2] = (l - old) * this.az;
    applyAngularF(B, ia, ib);
  }

  /** Rotates only B by −C/(a·I_B⁻¹·a) about the axis when C = `c` < 0 (A held fixed). */
  projectLimitB(B: SolverBodies, ia: number, ib: number): void {
    const C = this.c;
    if (C >= 0) return;
    if (B.invMass[ib]! === 0) { this.solvePositionLimit(B, ia, ib, C); return; }
    F[0] = this.ax; F[1] = this.ay; F[2] = this.az;
    axisInertiaF(B, ib);
    const k = F[3]!;
    if (!(k > 1e-15)) return;
    const l = -C / k;
    F[4] = 0; F[5] = 0; F[6] = 0; F[7] = l * this.ax; F[8] = l * this.ay; F[9] = l * this.az;
    movePoseF(B, ib);
  }

  /** NGS on a violated limit (C < 0): rotate by −C/K about the axis. Returns max(−C, 0). */
  solvePositionLimit(B: SolverBodies, ia: number, ib: number, C: number): number {
    if (C >= 0) return 0;
    this.mass(B, ia, ib);
    const l = -C * F[3]!;
    moveAngular(B, ia, ib, l * this.ax, l * this.ay, l * this.az);
    return -C;
  }
}

// ------------------------------------------------------------ 2-row angular lock (hinge)

/**
 * Keeps B's hinge axis on A's: two angular rows along t1, t2 ⊥ a_A with
 *   C_i = t_i·(a_A × a_B)   (for a small relative rotation θ, a_A × a_B ≈ θ⊥)
 *   Ċ_i = t_i·(ω_B − ω_A)
 * solved as a 2×2 block K = T (I_A⁻¹ + I_B⁻¹) Tᵀ: capsule limbs have very
 * different moments about t1 and t2, which two scalar rows would fight over.
 */
export class AngularLock2 {
  l1 = 0; l2 = 0;
  t1x = 0; t1y = 0; t1z = 0;
  t2x = 0; t2y = 0; t2z = 0;
  c1 = 0; c2 = 0;

  /**
   * Basis t1, t2 = frame A's Y and Z axes (they turn with A, so the
   * accumulated impulses stay meaningful for warm starting), a = frame A's X,
   * b = B's hinge axis (unit, world).
   */
  update(fa: Readonly<Quat>, b: Readonly<Vec3>): void {
    const bx = b.x, by = b.y, bz = b.z;
    frameAxisY(tmpT, fa);
    this.t1x = tmpT.x; this.t1y = tmpT.y; this.t1z = tmpT.z;
    frameAxisZ(tmpT, fa);
    this.t2x = tmpT.x; this.t2y = tmpT.y; this.t2z = tmpT.z;
    const a = frameAxisX(tmpT, fa);
    const ax = a.x, ay = a.y, az = a.z;
    const ex = ay * bz - az * by, ey = az * bx - ax * bz, ez = ax * by - ay * bx;
    this.c1 = ex * this.t1x + ey * this.t1y + ez * this.t1z;
    this.c2 = ex * this.t2x + ey * this.t2y + ez * this.t2z;
    this.cosine = ax * bx + ay * by + az * bz;
  }

  /** a·b at the last update (not saved: every use follows an update). */
  private cosine = 1;

  /**
   * Turns only B (A held) so that its hinge axis b lies on A's axis a, when
   * they are more than ctx.limitSlop rad apart: by the angle between them, about
   * a × b. The projection's counterpart of the limits' projectLimitB: with
   * the anchors alone projected, the lock's bias turns a thin body about its
   * centre, the anchor projection moves it back along a long arm, and the
   * point rows turn that into speed (docs/joints.md). Returns whether it
   * moved a body.
   */
  projectB(B: SolverBodies, ia: number, ib: number, ctx: JointStepContext): boolean {
    const slop = ctx.limitSlop;
    const c1 = this.c1, c2 = this.c2;
    const s2 = c1 * c1 + c2 * c2;
    if (s2 <= slop * slop) return false;
    if (B.invMass[ib]! === 0) { this.solvePosition(B, ia, ib); return true; }
    const s = Math.sqrt(s2);
    // At most MAX_LOCK_TURN a pass: a joint created with its axes far apart would otherwise be turned half a revolution at once.
    const turn = Math.min(MAX_LOCK_TURN, Math.atan2(s, this.cosine));
    // A B much heavier than A (a hull hanging a light part) is not turned alone:
    // its turn about its centre would swing its far side into its ground.
    if (B.invMass[ib]! < HEAVY_B * B.invMass[ia]!) return this.shareTurn(B, ia, ib, turn / s);
    // a × b = c1 t1 + c2 t2 (it is ⊥ a); turning B by −θ about it takes b onto a.
    const k = -Math.tan(0.5 * turn) / s;
    const d = B.delta;
    d[0] = 0; d[1] = 0; d[2] = 0;
    d[3] = k * (c1 * this.t1x + c2 * this.t2x);
    d[4] = k * (c1 * this.t1y + c2 * this.t2y);
    d[5] = k * (c1 * this.t1z + c2 * this.t2z);
    turnSlot(B, ib);
    return true;
  }

  /**
   * The lock's NGS step (both bodies turn by their inverse inertia), scaled by
   * `scale` ≤ 1 so that the relative turn stays within the pass's cap.
   */
  private shareTurn(B: SolverBodies, ia: number, ib: number, scale: number): boolean {
    this.mass(B, ia, ib, this.k);
    F[0] = this.c1 * scale; F[1] = this.c2 * scale;
    if (!this.solve2()) return false;
    const d1 = this.r1, d2 = this.r2;
    moveAngular(B, ia, ib, d1 * this.t1x + d2 * this.t2x, d1 * this.t1y + d2 * this.t2y, d1 * this.t1z + d2 * this.t2z);
    return true;
  }

  save(out: number[]): void {
    out.push(this.l1, this.l2, this.t1x, this.t1y, this.t1z, this.t2x, this.t2y, this.t2z, this.c1, this.c2);
  }

  load(src: Float64Array, o: number): number {
    this.l1 = src[o]!; this.l2 = src[o + 1]!;
    this.t1x = src[o + 2]!; this.t1y = src[o + 3]!; this.t1z = src[o + 4]!;
    this.t2x = src[o + 5]!; this.t2y = src[o + 6]!; this.t2z = src[o + 7]!;
    this.c1 = src[o + 8]!; this.c2 = src[o + 9]!;
    return o + 10;
  }

  warmStart(B: SolverBodies, ia: number, ib: number): void {
    const l1 = this.l1, l2 = this.l2;
    F[0] = l1 * this.t1x + l2 * this.t2x; F[1] = l1 * this.t1y + l2 * this.t2y; F[2] = l1 * this.t1z + l2 * this.t2z;
    applyAngularF(B, ia, ib);
  }

  /** K = T (I_A⁻¹ + I_B⁻¹) Tᵀ into out (x = a11, y = a12, z = a22). */
  private mass(B: SolverBodies, ia: number, ib: number, out: Vec3): void {
    const t1x = this.t1x, t1y = this.t1y, t1z = this.t1z, t2x = this.t2x, t2y = this.t2y, t2z = this.t2z;
    const xx = B.ixx[ia]! + B.ixx[ib]!, xy = B.ixy[ia]! + B.ixy[ib]!, xz = B.ixz[ia]! + B.ixz[ib]!;
    const yy = B.iyy[ia]! + B.iyy[ib]!, yz = B.iyz[ia]! + B.iyz[ib]!, zz = B.izz[ia]! + B.izz[ib]!;
    const ux = xx * t1x + xy * t1y + xz * t1z, uy = xy * t1x + yy * t1y + yz * t1z, uz = xz * t1x + yz * t1y + zz * t1z;
    const vx = xx * t2x + xy * t2y + xz * t2z, vy = xy * t2x + yy * t2y + yz * t2z, vz = xz * t2x + yz * t2y + zz * t2z;
    out.x = t1x * ux + t1y * uy + t1z * uz;
    out.y = t1x * vx + t1y * vy + t1z * vz;
    out.z = t2x * vx + t2y * vy + t2z * vz;
  }

  private readonly k: Vec3 = { x: 0, y: 0, z: 0 };

  /** λ = −K⁻¹ b for the 2×2 K in `k` (x = a11, y = a12, z = a22) and b = (F[0], F[1]); writes into r1, r2. */
  private solve2(): boolean {
    const b1 = F[0]!, b2 = F[1]!;
    const k = this.k;
    const det = k.x * k.z - k.y * k.y;
    if (!(Math.abs(det) > 1e-30)) return false;
    const inv = 1 / det;
    this.r1 = -(k.z * b1 - k.y * b2) * inv;
    this.r2 = -(k.x * b2 - k.y * b1) * inv;
    return true;
  }
  private r1 = 0; private r2 = 0;

  solve(B: SolverBodies, ia: number, ib: number, ctx: JointStepContext): void {
    const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
    this.mass(B, ia, ib, this.k);
    const dwx = V[ob + 3]! - V[oa + 3]!, dwy = V[ob + 4]! - V[oa + 4]!, dwz = V[ob + 5]! - V[oa + 5]!;
    const cap = ctx.maxCorrectionVelocity;
    const p1 = Math.max(-cap, Math.min(cap, ctx.biasRate * this.c1));
    const p2 = Math.max(-cap, Math.min(cap, ctx.biasRate * this.c2));
    F[0] = dwx * this.t1x + dwy * this.t1y + dwz * this.t1z + p1;
    F[1] = dwx * this.t2x + dwy * this.t2y + dwz * this.t2z + p2;
    if (!this.solve2()) return;
    const d1 = this.r1, d2 = this.r2;
    this.l1 += d1; this.l2 += d2;
    F[0] = d1 * this.t1x + d2 * this.t2x; F[1] = d1 * this.t1y + d2 * this.t2y; F[2] = d1 * this.t1z + d2 * this.t2z;
    applyAngularF(B, ia, ib);
  }

  /** NGS: rotate by −K⁻¹C. Returns |C| (rad). */
  solvePosition(B: SolverBodies, ia: number, ib: number): number {
    const err = Math.sqrt(this.c1 * this.c1 + this.c2 * this.c2);
    this.mass(B, ia, ib, this.k);
    F[0] = this.c1; F[1] = this.c2;
    if (!this.solve2()) return err;
    const d1 = this.r1, d2 = this.r2;
    moveAngular(B, ia, ib, d1 * this.t1x + d2 * this.t2x, d1 * this.t1y + d2 * this.t2y, d1 * this.t1z + d2 * this.t2z);
    return err;
  }
}

const tmpT: Vec3 = { x: 0, y: 0, z: 0 };
/** Radians the hinge lock's projection may turn a body per pass. */
const MAX_LOCK_TURN = 0.1;

// ------------------------------------------------------------ 3-row angular lock (fixed)

/**
 * Locks the relative rotation: with q = conj(Q_A)·Q_B (frames, w ≥ 0) the
 * error is the rotation vector C ≈ 2 Q_A·q.xyz in world space (small angle),
 * Ċ = ω_B − ω_A, K = I_A⁻¹ + I_B⁻¹ (3×3 block).
 */
export class AngularLock3 {
  lx = 0; ly = 0; lz = 0;
  cx = 0; cy = 0; cz = 0;
  private readonly x: Vec3 = { x: 0, y: 0, z: 0 };

  save(out: number[]): void {
    out.push(this.lx, this.ly, this.lz, this.cx, this.cy, this.cz);
  }

  load(src: Float64Array, o: number): number {
    this.lx = src[o]!; this.ly = src[o + 1]!; this.lz = src[o + 2]!;
    this.cx = src[o + 3]!; this.cy = src[o + 4]!; this.cz = src[o + 5]!;
    return o + 6;
  }

  warmStart(B: SolverBodies, ia: number, ib: number): void {
    F[0] = this.lx; F[1] = this.ly; F[2] = this.lz;
    applyAngularF(B, ia, ib);
  }

  /** x = K⁻¹ b with b = F[6..8]. */
  private solveK(B: SolverBodies, ia: number, ib: number): Vec3 {
    angularKF(B, ia, ib);
    return solveSym3F(this.x);
  }

  solve(B: SolverBodies, ia: number, ib: number, ctx: JointStepContext): void {
    const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
    const cap = ctx.maxCorrectionVelocity;
    const bx = Math.max(-cap, Math.min(cap, ctx.biasRate * this.cx));
    const by = Math.max(-cap, Math.min(cap, ctx.biasRate * this.cy));
    const bz = Math.max(-cap, Math.min(cap, ctx.biasRate * this.cz));
    F[6] = V[ob + 3]! - V[oa + 3]! + bx; F[7] = V[ob + 4]! - V[oa + 4]! + by; F[8] = V[ob + 5]! - V[oa + 5]! + bz;
    const x = this.solveK(B, ia, ib);
    const dx = -x.x, dy = -x.y, dz = -x.z;
    this.lx += dx; this.ly += dy; this.lz += dz;
    F[0] = dx; F[1] = dy; F[2] = dz;
    applyAngularF(B, ia, ib);
  }

  solvePosition(B: SolverBodies, ia: number, ib: number): number {
    const err = Math.sqrt(this.cx * this.cx + this.cy * this.cy + this.cz * this.cz);
    F[6] = this.cx; F[7] = this.cy; F[8] = this.cz;
    const x = this.solveK(B, ia, ib);
    moveAngular(B, ia, ib, -x.x, -x.y, -x.z);
    return err;
  }
}

// ------------------------------------------------------------ angular friction (3 rows)

/**
 * Dry joint friction: drives ω_B − ω_A to zero with an accumulated angular
 * impulse bounded by |L| ≤ T·h (a 3×3 block K = I_A⁻¹ + I_B⁻¹; the bound is
 * applied to the vector, so the friction is isotropic). This is the
 * "motor at zero speed with a max torque" of Box2D's ragdoll and Jolt's
 * `MaxFrictionTorque`: without it a sphere head resting on the floor rolls
 * or spins about its neck for seconds (nothing else dissipates that
 * motion), and a ragdoll never falls asleep.
 */
export class AngularFriction3 {
  lx = 0; ly = 0; lz = 0;
  /** |L| bound for this sub-step (frictionTorque·h), set by the owning joint. */
  maxImpulse = 0;
  private readonly x: Vec3 = { x: 0, y: 0, z: 0 };

  warmStart(B: SolverBodies, ia: number, ib: number): void {
    if (this.lx === 0 && this.ly === 0 && this.lz === 0) return;
    F[0] = this.lx; F[1] = this.ly; F[2] = this.lz;
    applyAngularF(B, ia, ib);
  }

  solve(B: SolverBodies, ia: number, ib: number): void {
    const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
    angularKF(B, ia, ib);
    F[6] = V[ob + 3]! - V[oa + 3]!; F[7] = V[ob + 4]! - V[oa + 4]!; F[8] = V[ob + 5]! - V[oa + 5]!;
    const x = solveSym3F(this.x);
    const ox = this.lx, oy = this.ly, oz = this.lz;
    let lx = ox - x.x, ly = oy - x.y, lz = oz - x.z;
    const l2 = lx * lx + ly * ly + lz * lz;
    const hi = this.maxImpulse;
    if (l2 > hi * hi) {
      const s = hi / Math.sqrt(l2);
      lx *= s; ly *= s; lz *= s;
    }
    this.lx = lx; this.ly = ly; this.lz = lz;
    F[0] = lx - ox; F[1] = ly - oy; F[2] = lz - oz;
    applyAngularF(B, ia, ib);
  }

  reset(): void {
    this.lx = 0; this.ly = 0; this.lz = 0;
  }

  save(out: number[]): void {
    out.push(this.lx, this.ly, this.lz, this.maxImpulse);
  }

  load(src: Float64Array, o: number): number {
    this.lx = src[o]!; this.ly = src[o + 1]!; this.lz = src[o + 2]!; this.maxImpulse = src[o + 3]!;
    return o + 4;
  }
}
