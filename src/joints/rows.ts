/**
 * Reusable constraint rows for the joints, solved by sequential impulses over
 * the `SolverBodies` slots (Catto, GDC 2005/2009; Box2D v3
 * `joint.c`/`revolute_joint.c` for the soft form; Jolt `ConstraintPart/` for
 * the split into reusable parts). This file holds what the rows share: the
 * step's coefficients (`JointStepContext`), the limit bias and the operations
 * on the body slots (impulses, pseudo-impulses, effective masses). The rows:
 * linear-rows.ts (PointRow, LinearRow), angular-rows.ts (AngularRow, the
 * angular locks, AngularFriction3), axis-row.ts (AxisRow).
 *
 * Every row keeps its ACCUMULATED impulse across (sub)steps for warm starting
 * and clamps the accumulated value, never the increment.
 *
 * Position error handling (per `JointStepContext.mode`):
 * - 'soft'  rigid rows Δλ = −m (Ċ + b C) with the bias rate b of Box2D v3's
 *           spring (jointHertz, jointDampingRatio), and a relax sweep without
 *           the bias (see joint-solver.ts for why not the soft mass scaling).
 *           The push-back b C is capped at maxCorrectionVelocity as in
 *           'baumgarte': it is velocity the relax sweep has to take out
 *           again, and a joint metres apart (a far anchor on a body the
 *           sweeps cannot hold) otherwise pumped energy in every sub-step.
 * - 'baumgarte': Δλ = −m (Ċ + β/h C).
 * - 'ngs':  rigid velocity rows; the errors are removed afterwards by
 *           pseudo-impulses applied directly to the poses (`solvePosition*`).
 *
 * The geometry (anchors, axes, errors, effective masses) is measured at the
 * CURRENT slot poses whenever they have moved (`SolverBodies.poseVersion`):
 * sub-steps and projections move the bodies between sweeps, and a Jacobian
 * frozen at the start of the step drifts for fast-spinning ragdoll limbs.
 */
import type { SolverBodies } from '../dynamics/solver-bodies';
import { Softness } from '../dynamics/softness';
import { GROUND_NORMALS, VELOCITY_STRIDE } from '../dynamics/solver-bodies';
import { SWEEP_BAUMGARTE, SWEEP_SOFT, type SweepMode } from '../dynamics/sweep-mode';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';


/** Step-wide coefficients shared by every row (owned by the JointSolver). */
export class JointStepContext {
  /** The biased sweep of the step's position correction: SWEEP_SOFT, SWEEP_BAUMGARTE or SWEEP_RIGID ('ngs'). */
  mode: SweepMode = SWEEP_SOFT;
  h = 1 / 60;
  invH = 60;
  /** Full step / (sub)step: turns a per-sub-step impulse into the step's impulse. */
  stepScale = 1;
  beta = 0.2;
  maxCorrectionVelocity = 3;
  readonly softness = new Softness();
  /** Set by `setBias` for the current sweep. */
  biasRate = 0;
  /** Projection slops (JointSolverSettings.limitSlop / anchorSlop), copied in `prepare`. */
  limitSlop = 0;
  anchorSlop = 0;

  /** Position bias rate of the rows for this sweep (they are rigid: no mass or impulse scaling). */
  setBias(useBias: boolean): void {
    if (useBias && this.mode === SWEEP_SOFT) {
      // Rigid rows with the spring's bias rate (see joint-solver.ts): the soft
      // mass scaling makes a joint's stiffness proportional to its lighter body.
      this.biasRate = this.softness.biasRate;
    } else if (useBias && this.mode === SWEEP_BAUMGARTE) {
      this.biasRate = this.beta * this.invH;
    } else {
      this.biasRate = 0;
    }
  }
}

// ------------------------------------------------------------ slot helpers

/** out = q_slot · v (current rotation of the slot). */
export function rotateBySlot(out: Vec3, B: SolverBodies, slot: number, v: Readonly<Vec3>): Vec3 {
  const qx = B.qx[slot]!, qy = B.qy[slot]!, qz = B.qz[slot]!, qw = B.qw[slot]!;
  const vx = v.x, vy = v.y, vz = v.z;
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  out.x = vx + qw * tx + (qy * tz - qz * ty);
  out.y = vy + qw * ty + (qz * tx - qx * tz);
  out.z = vz + qw * tz + (qx * ty - qy * tx);
  return out;
}

/** out = q_slot · f (a joint frame in world space). */
export function frameOfSlot(out: Quat, B: SolverBodies, slot: number, f: Readonly<Quat>): Quat {
  const ax = B.qx[slot]!, ay = B.qy[slot]!, az = B.qz[slot]!, aw = B.qw[slot]!;
  const x = aw * f.x + ax * f.w + ay * f.z - az * f.y;
  const y = aw * f.y - ax * f.z + ay * f.w + az * f.x;
  const z = aw * f.z + ax * f.y - ay * f.x + az * f.w;
  const w = aw * f.w - ax * f.x - ay * f.y - az * f.z;
  out.x = x; out.y = y; out.z = z; out.w = w;
  return out;
}

/** out = conj(a) · b, with w ≥ 0 (the shorter of the two equivalent rotations). */
export function relativeRotation(out: Quat, a: Readonly<Quat>, b: Readonly<Quat>): Quat {
  const ax = -a.x, ay = -a.y, az = -a.z, aw = a.w;
  let x = aw * b.x + ax * b.w + ay * b.z - az * b.y;
  let y = aw * b.y - ax * b.z + ay * b.w + az * b.x;
  let z = aw * b.z + ax * b.y - ay * b.x + az * b.w;
  let w = aw * b.w - ax * b.x - ay * b.y - az * b.z;
  if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
  out.x = x; out.y = y; out.z = z; out.w = w;
  return out;
}

/** Local X axis of frame q in world space. */
export function frameAxisX(out: Vec3, q: Readonly<Quat>): Vec3 {
  out.x = 1 - 2 * (q.y * q.y + q.z * q.z);
  out.y = 2 * (q.x * q.y + q.w * q.z);
  out.z = 2 * (q.x * q.z - q.w * q.y);
  return out;
}
export function frameAxisY(out: Vec3, q: Readonly<Quat>): Vec3 {
  out.x = 2 * (q.x * q.y - q.w * q.z);
  out.y = 1 - 2 * (q.x * q.x + q.z * q.z);
  out.z = 2 * (q.y * q.z + q.w * q.x);
  return out;
}
export function frameAxisZ(out: Vec3, q: Readonly<Quat>): Vec3 {
  out.x = 2 * (q.x * q.z + q.w * q.y);
  out.y = 2 * (q.y * q.z - q.w * q.x);
  out.z = 1 - 2 * (q.x * q.x + q.y * q.y);
  return out;
}

/** a·I⁻¹_slot·b for the symmetric world inverse inertia of the slot (NGS and setup paths; see F). */
function inertiaForm(B: SolverBodies, s: number, ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  return ax * (B.ixx[s]! * bx + B.ixy[s]! * by + B.ixz[s]! * bz) +
    ay * (B.ixy[s]! * bx + B.iyy[s]! * by + B.iyz[s]! * bz) +
    az * (B.ixz[s]! * bx + B.iyz[s]! * by + B.izz[s]! * bz);
}

/**
 * The per-sweep helpers below take their doubles through this scratch array
 * (F[0..2] a vector in, F[3] a scalar out) or through the rows' own fields,
 * and return nothing (CONTRIBUTING.md, hot path).
 */
export const F = new Float64Array(12);

/** In/out of limitBias. */
export const LIMIT = new Float64Array(1);

/**
 * Velocity bias of a one-sided limit row whose position error C (C ≥ 0
 * allowed) the caller wrote to LIMIT[0]; out: LIMIT[0] the bias. Apart (C > 0) the row may close the gap this sub-step,
 * rigidly; past the limit it pushes back with the step's bias rate, at
 * most maxCorrectionVelocity. Box2D v3 limit rows, rigid.
 */
export function limitBias(ctx: JointStepContext): void {
  const C = LIMIT[0]!;
  if (C > 0) {
    LIMIT[0] = C * ctx.invH;
    return;
  }
  let bias = ctx.biasRate * C;
  if (bias < -ctx.maxCorrectionVelocity) bias = -ctx.maxCorrectionVelocity;
  LIMIT[0] = bias;
}

/** v_A −= m⁻¹P, ω_A −= I⁻¹(rA × P); v_B += m⁻¹P, ω_B += I⁻¹(rB × P) for P = F[0..2]. */
export function applyLinearF(B: SolverBodies, ia: number, ib: number, ra: Readonly<Vec3>, rb: Readonly<Vec3>): void {
  const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
  const px = F[0]!, py = F[1]!, pz = F[2]!;
  const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
  V[oa] = V[oa]! - px * ima; V[oa + 1] = V[oa + 1]! - py * ima; V[oa + 2] = V[oa + 2]! - pz * ima;
  V[ob] = V[ob]! + px * imb; V[ob + 1] = V[ob + 1]! + py * imb; V[ob + 2] = V[ob + 2]! + pz * imb;
  const tx = ra.y * pz - ra.z * py, ty = ra.z * px - ra.x * pz, tz = ra.x * py - ra.y * px;
  V[oa + 3] = V[oa + 3]! - (B.ixx[ia]! * tx + B.ixy[ia]! * ty + B.ixz[ia]! * tz);
  V[oa + 4] = V[oa + 4]! - (B.ixy[ia]! * tx + B.iyy[ia]! * ty + B.iyz[ia]! * tz);
  V[oa + 5] = V[oa + 5]! - (B.ixz[ia]! * tx + B.iyz[ia]! * ty + B.izz[ia]! * tz);
  const ux = rb.y * pz - rb.z * py, uy = rb.z * px - rb.x * pz, uz = rb.x * py - rb.y * px;
  V[ob + 3] = V[ob + 3]! + B.ixx[ib]! * ux + B.ixy[ib]! * uy + B.ixz[ib]! * uz;
  V[ob + 4] = V[ob + 4]! + B.ixy[ib]! * ux + B.iyy[ib]! * uy + B.iyz[ib]! * uz;
  V[ob + 5] = V[ob + 5]! + B.ixz[ib]! * ux + B.iyz[ib]! * uy + B.izz[ib]! * uz;
}

/** ω_A −= I_A⁻¹ L, ω_B += I_B⁻¹ L for L = F[0..2] (an angular impulse L on B, −L on A). */
export function applyAngularF(B: SolverBodies, ia: number, ib: number): void {
  const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
  const lx = F[0]!, ly = F[1]!, lz = F[2]!;
  V[oa + 3] = V[oa + 3]! - (B.ixx[ia]! * lx + B.ixy[ia]! * ly + B.ixz[ia]! * lz);
  V[oa + 4] = V[oa + 4]! - (B.ixy[ia]! * lx + B.iyy[ia]! * ly + B.iyz[ia]! * lz);
  V[oa + 5] = V[oa + 5]! - (B.ixz[ia]! * lx + B.iyz[ia]! * ly + B.izz[ia]! * lz);
  V[ob + 3] = V[ob + 3]! + B.ixx[ib]! * lx + B.ixy[ib]! * ly + B.ixz[ib]! * lz;
  V[ob + 4] = V[ob + 4]! + B.ixy[ib]! * lx + B.iyy[ib]! * ly + B.iyz[ib]! * lz;
  V[ob + 5] = V[ob + 5]! + B.ixz[ib]! * lx + B.iyz[ib]! * ly + B.izz[ib]! * lz;
}

/** F[3] = a·I⁻¹_slot·a for a = F[0..2]. */
export function axisInertiaF(B: SolverBodies, s: number): void {
  const ax = F[0]!, ay = F[1]!, az = F[2]!;
  F[3] = ax * (B.ixx[s]! * ax + B.ixy[s]! * ay + B.ixz[s]! * az) +
    ay * (B.ixy[s]! * ax + B.iyy[s]! * ay + B.iyz[s]! * az) +
    az * (B.ixz[s]! * ax + B.iyz[s]! * ay + B.izz[s]! * az);
}

/** F[3] = 1 / (a·(I_A⁻¹ + I_B⁻¹)·a) for a = F[0..2] (0 if both are fixed). */
export function angularMassF(B: SolverBodies, ia: number, ib: number): void {
  axisInertiaF(B, ia);
  const ka = F[3]!;
  axisInertiaF(B, ib);
  const k = ka + F[3]!;
  F[3] = k > 1e-15 ? 1 / k : 0;
}

/** The linear impulse P at the anchors (see applyLinearF). Not for per-sweep code (see F). */
export function applyLinearImpulse(B: SolverBodies, ia: number, ib: number, ra: Readonly<Vec3>, rb: Readonly<Vec3>, px: number, py: number, pz: number): void {
  F[0] = px; F[1] = py; F[2] = pz;
  applyLinearF(B, ia, ib, ra, rb);
}

/**
 * Position pseudo-impulse (NGS): x += m⁻¹P, q ← normalize(q + ½ (Δθ, 0) ⊗ q)
 * with Δθ = I⁻¹ L. The same first-order update as the velocity integrator with
 * unit time, so a pseudo-impulse computed with the velocity Jacobian moves the
 * constraint error to first order by exactly −C.
 */
function movePoseSlot(B: SolverBodies, s: number, px: number, py: number, pz: number, lx: number, ly: number, lz: number): void {
  F[4] = px; F[5] = py; F[6] = pz; F[7] = lx; F[8] = ly; F[9] = lz;
  movePoseF(B, s);
}

/** movePoseSlot with P = F[4..6], L = F[7..9]: Δx = m⁻¹P, ½Δθ = ½ I⁻¹L. */
export function movePoseF(B: SolverBodies, s: number): void {
  const im = B.invMass[s]!;
  if (im === 0) return;
  const lx = F[7]!, ly = F[8]!, lz = F[9]!;
  const d = B.delta;
  d[0] = F[4]! * im; d[1] = F[5]! * im; d[2] = F[6]! * im;
  d[3] = 0.5 * (B.ixx[s]! * lx + B.ixy[s]! * ly + B.ixz[s]! * lz);
  d[4] = 0.5 * (B.ixy[s]! * lx + B.iyy[s]! * ly + B.iyz[s]! * lz);
  d[5] = 0.5 * (B.ixz[s]! * lx + B.iyz[s]! * ly + B.izz[s]! * lz);
  turnSpin(B, s);
  B.moveSlot(s);
}

/**
 * Translates slot s by B.delta[0..2] (delta[3..5] must be 0), but at most
 * PROJECTION_SINK into each ground it rests on (SolverBodies.grounded): the
 * contact wins and the rest of the gap is left to the sweeps. Two passes
 * clip the move against each ground's plane in turn; what a seam's two
 * planes still leave too deep is then shortened as a whole. For the
 * projections only.
 */
export function translateSlot(B: SolverBodies, s: number): void {
  const d = B.delta;
  const k = B.grounded[s]!;
  if (k > 0) {
    const G = B.groundNormal, g = s * 3 * GROUND_NORMALS;
    const sunk = B.groundSunk, u = s * GROUND_NORMALS, budget = B.sinkBudget[s]!;
    for (let pass = 0; pass < 2; pass++) {
      for (let m = 0; m < k; m++) {
        const q = g + 3 * m;
        const nx = G[q]!, ny = G[q + 1]!, nz = G[q + 2]!;
        const into = d[0]! * nx + d[1]! * ny + d[2]! * nz;
        const allowed = Math.max(0, Math.min(PROJECTION_SINK, budget - sunk[u + m]!));
        if (into < -allowed) {
          const cut = into + allowed;
          d[0] = d[0]! - cut * nx; d[1] = d[1]! - cut * ny; d[2] = d[2]! - cut * nz;
        }
      }
    }
    let t = 1;
    for (let m = 0; m < k; m++) {
      const q = g + 3 * m;
      const into = d[0]! * G[q]! + d[1]! * G[q + 1]! + d[2]! * G[q + 2]!;
      const allowed = Math.max(0, Math.min(PROJECTION_SINK, budget - sunk[u + m]!));
      // The slack keeps rounding left by a clip to the plane from cancelling the move along it.
      if (into * t < -allowed - 1e-9) t = -allowed / into;
    }
    if (t < 1) { d[0] = d[0]! * t; d[1] = d[1]! * t; d[2] = d[2]! * t; }
    for (let m = 0; m < k; m++) {
      const q = g + 3 * m;
      const into = d[0]! * G[q]! + d[1]! * G[q + 1]! + d[2]! * G[q + 2]!;
      sunk[u + m] = Math.max(0, sunk[u + m]! - into);
    }
  }
  B.moveSlot(s);
}

/** Turns slot s by the rotation delta[3..5] = tan(θ/2)·axis (delta[0..2] must be 0), keeping its body-frame spin. For the projections only. */
export function turnSlot(B: SolverBodies, s: number): void {
  turnSpin(B, s);
  B.moveSlot(s);
}

/** Metres a joint projection may move a grounded body into its ground per pass (SolverBodies.grounded). */
const PROJECTION_SINK = 0.005;

/**
 * B counts as heavy below this fraction of A's inverse mass (more than twice
 * A's mass). A projection moves a light B alone, so a tree listed parent
 * first stays exact (a ragdoll's bones are at most 1.75 times their parent's
 * mass: the chest on the spine); a heavy B is moved together with A.
 */
export const HEAVY_B = 0.5;

/**
 * ω ← dq ω dq⁻¹ for the turn dq = normalize(delta[3..5], 1) that `moveSlot`
 * is about to apply: the spin turns with a body that a projection turns, so
 * its body-frame angular velocity, and with it ½ ωᵀIω, stay what they were.
 * Exactly, not to first order (ω + Δθ × ω, rescaled): a limit projection
 * may turn a body by a radian, and on a thin body spinning about its long
 * axis the first-order turn tipped the spin across it, a thousand times
 * the inertia.
 */
function turnSpin(B: SolverBodies, s: number): void {
  const d = B.delta;
  const V = B.vel, o = s * VELOCITY_STRIDE;
  const wx = V[o + 3]!, wy = V[o + 4]!, wz = V[o + 5]!;
  if (wx === 0 && wy === 0 && wz === 0) return;
  const n = 1 / Math.sqrt(1 + d[3]! * d[3]! + d[4]! * d[4]! + d[5]! * d[5]!);
  const qx = d[3]! * n, qy = d[4]! * n, qz = d[5]! * n, qw = n;
  const tx = 2 * (qy * wz - qz * wy), ty = 2 * (qz * wx - qx * wz), tz = 2 * (qx * wy - qy * wx);
  V[o + 3] = wx + qw * tx + (qy * tz - qz * ty);
  V[o + 4] = wy + qw * ty + (qz * tx - qx * tz);
  V[o + 5] = wz + qw * tz + (qx * ty - qy * tx);
}


/** Linear pseudo-impulse P at the anchors: −P on A, +P on B. */
export function moveLinear(B: SolverBodies, ia: number, ib: number, ra: Readonly<Vec3>, rb: Readonly<Vec3>, px: number, py: number, pz: number): void {
  movePoseSlot(B, ia, -px, -py, -pz, -(ra.y * pz - ra.z * py), -(ra.z * px - ra.x * pz), -(ra.x * py - ra.y * px));
  movePoseSlot(B, ib, px, py, pz, rb.y * pz - rb.z * py, rb.z * px - rb.x * pz, rb.x * py - rb.y * px);
}

/** Angular pseudo-impulse L: −L on A, +L on B. */
export function moveAngular(B: SolverBodies, ia: number, ib: number, lx: number, ly: number, lz: number): void {
  movePoseSlot(B, ia, 0, 0, 0, -lx, -ly, -lz);
  movePoseSlot(B, ib, 0, 0, 0, lx, ly, lz);
}

/** Linear effective mass along unit n at anchors ra, rb. */
export function linearMass(B: SolverBodies, ia: number, ib: number, ra: Readonly<Vec3>, rb: Readonly<Vec3>, nx: number, ny: number, nz: number): number {
  const ax = ra.y * nz - ra.z * ny, ay = ra.z * nx - ra.x * nz, az = ra.x * ny - ra.y * nx;
  const bx = rb.y * nz - rb.z * ny, by = rb.z * nx - rb.x * nz, bz = rb.x * ny - rb.y * nx;
  const k = B.invMass[ia]! + B.invMass[ib]! + inertiaForm(B, ia, ax, ay, az, ax, ay, az) + inertiaForm(B, ib, bx, by, bz, bx, by, bz);
  return k > 1e-15 ? 1 / k : 0;
}

/**
 * Solves the symmetric 3×3 system K x = b, K = F[0..5] (k00 k01 k02 k11 k12
 * k22, upper triangle row-major) and b = F[6..8], by the adjugate; writes x
 * to `out`. A singular K (both bodies fixed) gives x = 0.
 */
export function solveSym3F(out: Vec3): Vec3 {
  const k00 = F[0]!, k01 = F[1]!, k02 = F[2]!, k11 = F[3]!, k12 = F[4]!, k22 = F[5]!, bx = F[6]!, by = F[7]!, bz = F[8]!;
  const c00 = k11 * k22 - k12 * k12;
  const c01 = k02 * k12 - k01 * k22;
  const c02 = k01 * k12 - k02 * k11;
  const det = k00 * c00 + k01 * c01 + k02 * c02;
  if (!(Math.abs(det) > 1e-30)) {
    out.x = 0; out.y = 0; out.z = 0;
    return out;
  }
  const inv = 1 / det;
  out.x = (c00 * bx + c01 * by + c02 * bz) * inv;
  out.y = (c01 * bx + (k00 * k22 - k02 * k02) * by + (k01 * k02 - k00 * k12) * bz) * inv;
  out.z = (c02 * bx + (k01 * k02 - k00 * k12) * by + (k00 * k11 - k01 * k01) * bz) * inv;
  return out;
}

/** F[0..5] = I_A⁻¹ + I_B⁻¹ (upper triangle, row-major). */
export function angularKF(B: SolverBodies, ia: number, ib: number): void {
  F[0] = B.ixx[ia]! + B.ixx[ib]!; F[1] = B.ixy[ia]! + B.ixy[ib]!; F[2] = B.ixz[ia]! + B.ixz[ib]!;
  F[3] = B.iyy[ia]! + B.iyy[ib]!; F[4] = B.iyz[ia]! + B.iyz[ib]!; F[5] = B.izz[ia]! + B.izz[ib]!;
}
