/**
 * Reusable constraint rows for the joints, solved by sequential impulses over
 * the contact solver's `SolverBodies` slots (Catto, GDC 2005/2009; Box2D v3
 * `joint.c`/`revolute_joint.c` for the soft form; Jolt `ConstraintPart/` for
 * the split into reusable parts).
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
import { VELOCITY_STRIDE } from '../dynamics/solver-bodies';
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
const F = new Float64Array(12);

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
function applyLinearF(B: SolverBodies, ia: number, ib: number, ra: Readonly<Vec3>, rb: Readonly<Vec3>): void {
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
function applyAngularF(B: SolverBodies, ia: number, ib: number): void {
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
function axisInertiaF(B: SolverBodies, s: number): void {
  const ax = F[0]!, ay = F[1]!, az = F[2]!;
  F[3] = ax * (B.ixx[s]! * ax + B.ixy[s]! * ay + B.ixz[s]! * az) +
    ay * (B.ixy[s]! * ax + B.iyy[s]! * ay + B.iyz[s]! * az) +
    az * (B.ixz[s]! * ax + B.iyz[s]! * ay + B.izz[s]! * az);
}

/** F[3] = 1 / (a·(I_A⁻¹ + I_B⁻¹)·a) for a = F[0..2] (0 if both are fixed). */
function angularMassF(B: SolverBodies, ia: number, ib: number): void {
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
function movePoseF(B: SolverBodies, s: number): void {
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
 * PROJECTION_SINK into a ground it rests on (SolverBodies.grounded): the
 * contact wins and the rest of the gap is left to the sweeps. For the
 * projections only.
 */
export function translateSlot(B: SolverBodies, s: number): void {
  const d = B.delta;
  if (B.grounded[s] === 1) {
    const nx = B.gnx[s]!, ny = B.gny[s]!, nz = B.gnz[s]!;
    const into = d[0]! * nx + d[1]! * ny + d[2]! * nz;
    if (into < -PROJECTION_SINK) {
      const cut = into + PROJECTION_SINK;
      d[0] = d[0]! - cut * nx; d[1] = d[1]! - cut * ny; d[2] = d[2]! - cut * nz;
    }
  }
  B.moveSlot(s);
}

/** Metres a joint projection may translate a body per pass. */
const MAX_PROJECTION = 0.05;
/** Metres a joint projection may move a grounded body into its ground per pass (SolverBodies.grounded). */
const PROJECTION_SINK = 0.005;

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
function solveSym3F(out: Vec3): Vec3 {
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
function angularKF(B: SolverBodies, ia: number, ib: number): void {
  F[0] = B.ixx[ia]! + B.ixx[ib]!; F[1] = B.ixy[ia]! + B.ixy[ib]!; F[2] = B.ixz[ia]! + B.ixz[ib]!;
  F[3] = B.iyy[ia]! + B.iyy[ib]!; F[4] = B.iyz[ia]! + B.iyz[ib]!; F[5] = B.izz[ia]! + B.izz[ib]!;
}

// ------------------------------------------------------------ point (ball) block

/**
 * Point-to-point constraint as one 3×3 block:
 *   C = (x_B + r_B) − (x_A + r_A) = 0,   Ċ = v_B + ω_B×r_B − v_A − ω_A×r_A
 *   K = (m_A⁻¹ + m_B⁻¹) 𝟙 + [r_A]×ᵀ I_A⁻¹ [r_A]× + [r_B]×ᵀ I_B⁻¹ [r_B]×
 * and λ = −K⁻¹(Ċ + b) solves all three rows at once (Catto 2005 §"point to
 * point"; Box2D v3 b2SolveSphericalJoint). Three scalar rows would need many
 * sweeps when the anchor arm couples the axes through the inertia.
 */
// PointRow record layout: one Float64Array per row, one base load for the
// whole record (a class's double fields are separate heap numbers in V8).
const P_L = 0; // accumulated impulse (3)
const P_C = 3; // error C (3)
const P_RA = 6; // world anchor arms at the last update (3 + 3)
const P_RB = 9;
const P_K = 12; // K, symmetric: 00 01 02 11 12 22
const P_I = 18; // K⁻¹, same order
/**
 * Angular response of each body per unit impulse, from the last `update`:
 * M = I⁻¹[r]× (row-major), so an impulse P on B turns it by M_B P and −P on A
 * by −M_A P. Zero for an immovable body.
 */
const P_MA = 24;
const P_MB = 33;
const P_SIZE = 42;

export class PointRow {
  /** The row's numbers (see P_L … P_MB). */
  private readonly s = new Float64Array(P_SIZE);
  /** World anchor arms, for the cold paths that take vectors (warm start, NGS). */
  readonly ra: Vec3 = { x: 0, y: 0, z: 0 };
  readonly rb: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly x: Vec3 = { x: 0, y: 0, z: 0 };

  constructor(readonly localA: Vec3, readonly localB: Vec3) {}

  /** Accumulated impulse (N·s per sub-step). */
  get lx(): number { return this.s[P_L]!; }
  set lx(v: number) { this.s[P_L] = v; }
  get ly(): number { return this.s[P_L + 1]!; }
  set ly(v: number) { this.s[P_L + 1] = v; }
  get lz(): number { return this.s[P_L + 2]!; }
  set lz(v: number) { this.s[P_L + 2] = v; }

  /**
   * The two slots' `SolverBodies.slotVersion` at the last `update`: anchors,
   * error and K⁻¹ are reused until either body moves (per body, not per
   * world: a joint projection that moves one limb leaves the other joints'
   * geometry valid).
   */
  private versionA = -1;
  private versionB = -1;

  /** Whether either body moved since the last `update`. */
  private stale(B: SolverBodies, ia: number, ib: number): boolean {
    return B.slotVersion[ia] !== this.versionA || B.slotVersion[ib] !== this.versionB;
  }

  /** Anchors, error and K from the current poses. */
  update(B: SolverBodies, ia: number, ib: number): void {
    this.versionA = B.slotVersion[ia]!;
    this.versionB = B.slotVersion[ib]!;
    const s = this.s;
    const ra = rotateBySlot(this.ra, B, ia, this.localA);
    const rb = rotateBySlot(this.rb, B, ib, this.localB);
    s[P_RA] = ra.x; s[P_RA + 1] = ra.y; s[P_RA + 2] = ra.z;
    s[P_RB] = rb.x; s[P_RB + 1] = rb.y; s[P_RB + 2] = rb.z;
    s[P_C] = B.px[ib]! + rb.x - B.px[ia]! - ra.x;
    s[P_C + 1] = B.py[ib]! + rb.y - B.py[ia]! - ra.y;
    s[P_C + 2] = B.pz[ib]! + rb.z - B.pz[ia]! - ra.z;
    const m = B.invMass[ia]! + B.invMass[ib]!;
    s[P_K] = m; s[P_K + 1] = 0; s[P_K + 2] = 0; s[P_K + 3] = m; s[P_K + 4] = 0; s[P_K + 5] = m;
    this.addArm(B, ia, ra, P_MA);
    this.addArm(B, ib, rb, P_MB);
    // K⁻¹ by the adjugate, kept for the sweeps that reuse this geometry.
    const k00 = s[P_K]!, k01 = s[P_K + 1]!, k02 = s[P_K + 2]!, k11 = s[P_K + 3]!, k12 = s[P_K + 4]!, k22 = s[P_K + 5]!;
    const c00 = k11 * k22 - k12 * k12, c01 = k02 * k12 - k01 * k22, c02 = k01 * k12 - k02 * k11;
    const det = k00 * c00 + k01 * c01 + k02 * c02;
    if (!(Math.abs(det) > 1e-30)) {
      s.fill(0, P_I, P_I + 6);
      return;
    }
    const inv = 1 / det;
    s[P_I] = c00 * inv; s[P_I + 1] = c01 * inv; s[P_I + 2] = c02 * inv;
    s[P_I + 3] = (k00 * k22 - k02 * k02) * inv; s[P_I + 4] = (k01 * k02 - k00 * k12) * inv; s[P_I + 5] = (k00 * k11 - k01 * k01) * inv;
  }

  /**
   * K += [r]×ᵀ I⁻¹ [r]×, entry (i, j) = u_i·I⁻¹u_j with u_i = r × e_i:
   * the three products w_j = I⁻¹u_j first (9 terms each with the zeros of u
   * dropped), then the six dot products of the symmetric block. The columns
   * w_j are the body's angular response M, stored at `m`.
   */
  private addArm(B: SolverBodies, slot: number, r: Vec3, m: number): void {
    const s = this.s;
    if (B.invMass[slot]! === 0) {
      s.fill(0, m, m + 9);
      return;
    }
    const rx = r.x, ry = r.y, rz = r.z;
    const a = B.ixx[slot]!, b = B.ixy[slot]!, c = B.ixz[slot]!, d = B.iyy[slot]!, e = B.iyz[slot]!, f = B.izz[slot]!;
    // u_i = r × e_i: u_x = (0, rz, −ry), u_y = (−rz, 0, rx), u_z = (ry, −rx, 0); w_i = I⁻¹ u_i, the columns of I⁻¹[r]×.
    const wxx = b * rz - c * ry, wxy = d * rz - e * ry, wxz = e * rz - f * ry;
    const wyx = c * rx - a * rz, wyy = e * rx - b * rz, wyz = f * rx - c * rz;
    const wzx = a * ry - b * rx, wzy = b * ry - d * rx, wzz = c * ry - e * rx;
    s[P_K] = s[P_K]! + (rz * wxy - ry * wxz);
    s[P_K + 1] = s[P_K + 1]! + (rz * wyy - ry * wyz);
    s[P_K + 2] = s[P_K + 2]! + (rz * wzy - ry * wzz);
    s[P_K + 3] = s[P_K + 3]! + (-rz * wyx + rx * wyz);
    s[P_K + 4] = s[P_K + 4]! + (-rz * wzx + rx * wzz);
    s[P_K + 5] = s[P_K + 5]! + (ry * wzx - rx * wzy);
    s[m] = wxx; s[m + 1] = wyx; s[m + 2] = wzx;
    s[m + 3] = wxy; s[m + 4] = wyy; s[m + 5] = wzy;
    s[m + 6] = wxz; s[m + 7] = wyz; s[m + 8] = wzz;
  }

  /** Appends the row's numbers (accumulated impulse and the geometry of the last `update`) for a snapshot. */
  save(out: number[]): void {
    for (let k = 0; k < P_SIZE; k++) out.push(this.s[k]!);
    out.push(this.ra.x, this.ra.y, this.ra.z, this.rb.x, this.rb.y, this.rb.z);
  }

  /** Reads what `save` wrote at `o`; returns the offset after it. The geometry is measured again on the next use. */
  load(src: Float64Array, o: number): number {
    for (let k = 0; k < P_SIZE; k++) this.s[k] = src[o++]!;
    this.ra.x = src[o++]!; this.ra.y = src[o++]!; this.ra.z = src[o++]!;
    this.rb.x = src[o++]!; this.rb.y = src[o++]!; this.rb.z = src[o++]!;
    this.versionA = -1;
    this.versionB = -1;
    return o;
  }

  /** |C| from the last `update`. */
  errorLength(): number {
    const s = this.s;
    return Math.sqrt(s[P_C]! * s[P_C]! + s[P_C + 1]! * s[P_C + 1]! + s[P_C + 2]! * s[P_C + 2]!);
  }

  warmStart(B: SolverBodies, ia: number, ib: number): void {
    if (this.stale(B, ia, ib)) {
      rotateBySlot(this.ra, B, ia, this.localA);
      rotateBySlot(this.rb, B, ib, this.localB);
    }
    const s = this.s;
    F[0] = s[P_L]!; F[1] = s[P_L + 1]!; F[2] = s[P_L + 2]!;
    applyLinearF(B, ia, ib, this.ra, this.rb);
  }

  solve(B: SolverBodies, ia: number, ib: number, ctx: JointStepContext): void {
    if (this.stale(B, ia, ib)) this.update(B, ia, ib);
    const s = this.s;
    const rax = s[P_RA]!, ray = s[P_RA + 1]!, raz = s[P_RA + 2]!, rbx = s[P_RB]!, rby = s[P_RB + 1]!, rbz = s[P_RB + 2]!;
    const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
    const vax = V[oa]!, vay = V[oa + 1]!, vaz = V[oa + 2]!, wax = V[oa + 3]!, way = V[oa + 4]!, waz = V[oa + 5]!;
    const vbx = V[ob]!, vby = V[ob + 1]!, vbz = V[ob + 2]!, wbx = V[ob + 3]!, wby = V[ob + 4]!, wbz = V[ob + 5]!;
    const dvx = vbx + (wby * rbz - wbz * rby) - vax - (way * raz - waz * ray);
    const dvy = vby + (wbz * rbx - wbx * rbz) - vay - (waz * rax - wax * raz);
    const dvz = vbz + (wbx * rby - wby * rbx) - vaz - (wax * ray - way * rax);
    const rate = ctx.biasRate;
    let bx = rate * s[P_C]!, by = rate * s[P_C + 1]!, bz = rate * s[P_C + 2]!;
    const len = Math.sqrt(bx * bx + by * by + bz * bz);
    if (len > ctx.maxCorrectionVelocity) {
      const f = ctx.maxCorrectionVelocity / len;
      bx *= f; by *= f; bz *= f;
    }
    const rx = dvx + bx, ry = dvy + by, rz = dvz + bz;
    const i00 = s[P_I]!, i01 = s[P_I + 1]!, i02 = s[P_I + 2]!, i11 = s[P_I + 3]!, i12 = s[P_I + 4]!, i22 = s[P_I + 5]!;
    const px = -(i00 * rx + i01 * ry + i02 * rz);
    const py = -(i01 * rx + i11 * ry + i12 * rz);
    const pz = -(i02 * rx + i12 * ry + i22 * rz);
    s[P_L] = s[P_L]! + px; s[P_L + 1] = s[P_L + 1]! + py; s[P_L + 2] = s[P_L + 2]! + pz;
    // applyLinearF written out: the velocities are already in registers.
    const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
    V[oa] = vax - px * ima; V[oa + 1] = vay - py * ima; V[oa + 2] = vaz - pz * ima;
    V[ob] = vbx + px * imb; V[ob + 1] = vby + py * imb; V[ob + 2] = vbz + pz * imb;
    V[oa + 3] = wax - (s[P_MA]! * px + s[P_MA + 1]! * py + s[P_MA + 2]! * pz);
    V[oa + 4] = way - (s[P_MA + 3]! * px + s[P_MA + 4]! * py + s[P_MA + 5]! * pz);
    V[oa + 5] = waz - (s[P_MA + 6]! * px + s[P_MA + 7]! * py + s[P_MA + 8]! * pz);
    V[ob + 3] = wbx + s[P_MB]! * px + s[P_MB + 1]! * py + s[P_MB + 2]! * pz;
    V[ob + 4] = wby + s[P_MB + 3]! * px + s[P_MB + 4]! * py + s[P_MB + 5]! * pz;
    V[ob + 5] = wbz + s[P_MB + 6]! * px + s[P_MB + 7]! * py + s[P_MB + 8]! * pz;
  }

  /**
   * Translates only B (A and both rotations held) so that |C| ≤ slop. Used
   * after the limit projection (JointSolver.solveVelocitiesAndProject): a
   * translation leaves the angles that were just fixed untouched, and in a
   * tree whose joints are listed parent first, correcting the child only
   * never undoes a joint earlier in the list. (The joint solver moves the
   * pair back together when the lift this gives it cannot be paid for.)
   */
  projectB(B: SolverBodies, ia: number, ib: number, ctx: JointStepContext): void {
    const slop = ctx.anchorSlop;
    if (B.invMass[ib]! === 0) { this.solvePosition(B, ia, ib, slop); return; }
    // The error at the current poses, from `update` (which the sweep after
    // the projection would run anyway; it then runs again only for the
    // joints whose bodies this pass moves).
    if (this.stale(B, ia, ib)) this.update(B, ia, ib);
    const s = this.s;
    const cx = s[P_C]!, cy = s[P_C + 1]!, cz = s[P_C + 2]!;
    const err2 = cx * cx + cy * cy + cz * cz;
    if (err2 <= slop * slop) return;
    const err = Math.sqrt(err2);
    // At most MAX_PROJECTION per pass: a longer teleport can carry B past a surface no contact saw coming.
    const f = Math.min(err - slop, MAX_PROJECTION) / err;
    const d = B.delta;
    d[0] = -f * cx; d[1] = -f * cy; d[2] = -f * cz; d[3] = 0; d[4] = 0; d[5] = 0;
    translateSlot(B, ib);
  }

  /**
   * NGS: P = −K⁻¹ C applied to the poses, scaled to leave an error of `slop`
   * (m, default 0). Returns |C| before the correction.
   */
  solvePosition(B: SolverBodies, ia: number, ib: number, slop = 0): number {
    this.update(B, ia, ib);
    const err = this.errorLength();
    if (err <= slop) return err;
    const f = (err - slop) / err;
    const s = this.s;
    for (let k = 0; k < 6; k++) F[k] = s[P_K + k]!;
    F[6] = f * s[P_C]!; F[7] = f * s[P_C + 1]!; F[8] = f * s[P_C + 2]!;
    const x = solveSym3F(this.x);
    moveLinear(B, ia, ib, this.ra, this.rb, -x.x, -x.y, -x.z);
    return err;
  }
}

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

// ------------------------------------------------------------ scalar linear row (distance)

/**
 * One linear row along a world unit n at anchors r_A, r_B (set by the joint):
 * Ċ = n·(v_B + ω_B×r_B − v_A − ω_A×r_A).
 */
export class LinearRow {
  impulse = 0;

  save(out: number[]): void {
    out.push(this.impulse);
  }

  load(src: Float64Array, o: number): number {
    this.impulse = src[o]!;
    return o + 1;
  }

  warmStart(B: SolverBodies, ia: number, ib: number, ra: Vec3, rb: Vec3, nx: number, ny: number, nz: number): void {
    const l = this.impulse;
    if (l !== 0) applyLinearImpulse(B, ia, ib, ra, rb, l * nx, l * ny, l * nz);
  }

  /**
   * Generic scalar row: λ_new = clamp(λ − s_m m (Ċ + bias) − s_i λ, lo, hi).
   */
  solve(B: SolverBodies, ia: number, ib: number, ra: Vec3, rb: Vec3, nx: number, ny: number, nz: number,
    bias: number, massScale: number, impulseScale: number, lo: number, hi: number): void {
    const m = linearMass(B, ia, ib, ra, rb, nx, ny, nz);
    if (m === 0) return;
    const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
    const dvx = V[ob]! + (V[ob + 4]! * rb.z - V[ob + 5]! * rb.y) - V[oa]! - (V[oa + 4]! * ra.z - V[oa + 5]! * ra.y);
    const dvy = V[ob + 1]! + (V[ob + 5]! * rb.x - V[ob + 3]! * rb.z) - V[oa + 1]! - (V[oa + 5]! * ra.x - V[oa + 3]! * ra.z);
    const dvz = V[ob + 2]! + (V[ob + 3]! * rb.y - V[ob + 4]! * rb.x) - V[oa + 2]! - (V[oa + 3]! * ra.y - V[oa + 4]! * ra.x);
    const cdot = dvx * nx + dvy * ny + dvz * nz;
    const old = this.impulse;
    let l = old - massScale * m * (cdot + bias) - impulseScale * old;
    l = l > hi ? hi : l < lo ? lo : l;
    this.impulse = l;
    const d = l - old;
    applyLinearImpulse(B, ia, ib, ra, rb, d * nx, d * ny, d * nz);
  }
}
