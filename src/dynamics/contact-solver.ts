/**
 * The contact solver's rows: one packed record per contact point (layout
 * below), their store and the helpers the stages share. The stages over the
 * rows have their own files, in the order a step runs them:
 * contact-prepare.ts builds the rows, contact-sweeps.ts warm-starts them,
 * solves and relaxes them and stores their impulses, contact-restitution.ts
 * bounces; the NGS position solve (ngs.ts) and shock propagation (shock.ts)
 * read the same layout. The stage files copy the layout into module-level
 * constants of their own (CONTRIBUTING.md, hot path: an imported binding is a
 * getter call under the test runner).
 *
 * For a contact point with normal n (A→B), anchors rA = p − xA, rB = p − xB
 * and relative velocity at the point
 *     v_rel = (vB + ωB × rB) − (vA + ωA × rA),
 * the normal row is C' = n·v_rel ≥ target with Jacobian
 *     J = [−n, −(rA × n), n, rB × n]
 * and effective mass m_n = 1 / (mA⁻¹ + mB⁻¹ + (rA×n)·IA⁻¹(rA×n) + (rB×n)·IB⁻¹(rB×n)).
 * Each iteration: Δλ = ω m_n (target − n·v_rel); the ACCUMULATED impulse is
 * clamped, λ = max(λ_old + Δλ, 0), and only the clamped change is applied
 * (Catto, GDC 2005/2009 "Iterative Dynamics with Temporal Coherence").
 *
 * Friction: two tangent rows t1, t2 per point, each clamped to ±f. The bound f
 * depends on `frictionModel` (see settings.ts). t1 follows the sliding
 * direction when the point slides, so the two independent box clamps do not
 * bias the heading of a sliding body (a box clamp on axes skewed to the motion
 * would turn the friction force towards the diagonal).
 *
 * Positions: 'ngs' runs pseudo-impulse sweeps on the separation after the
 * position update (Box2D v2.4); 'baumgarte' biases the normal row
 * by β/dt·max(depth − slop, 0); 'soft' is Box2D v3's soft step (Catto 2024,
 * "Solver2D"): sub-steps with a spring-damper normal row, then a relax sweep
 * without the bias so the push-out leaves no velocity behind.
 */
import type { Contact } from './contact';
import { VELOCITY_STRIDE, type SolverBodies } from './solver-bodies';
import { reserveFloat64, reserveInt32 } from '../math/typed-arrays';

type F64 = Float64Array<ArrayBuffer>;
type I32 = Int32Array<ArrayBuffer>;

// ---- Row layout. One contact point is one record of ROW_STRIDE doubles in
// ContactSolver.rows (and one of INT_STRIDE ints in ContactSolver.ints): the
// sweep reads a point's data from one array, in a few cache lines, instead of
// from forty arrays (each one a separate pointer and length to load).
/** Normal n (A→B), 3. */
export const R_N = 0;
/** Tangent t1, 3. */
export const R_T1 = 3;
/** Tangent t2 = n × t1, 3. */
export const R_T2 = 6;
/** Anchor rA = p − xA at the start of the step, 3. */
export const R_RA = 9;
/** Anchor rB = p − xB, 3. */
export const R_RB = 12;
/** rA × n, 3 (angular Jacobian of the normal row on A). */
export const R_CA = 15;
/** rB × n, 3. */
export const R_CB = 18;
export const R_NORMAL_MASS = 21;
export const R_TANGENT_MASS1 = 22;
export const R_TANGENT_MASS2 = 23;
export const R_NORMAL_IMPULSE = 24;
export const R_TANGENT_IMPULSE1 = 25;
export const R_TANGENT_IMPULSE2 = 26;
/** Largest normal impulse seen in the step (restitution applies only to points that pushed). */
export const R_MAX_NORMAL_IMPULSE = 27;
/** Separation at the start of the step (−depth). */
export const R_SEPARATION = 28;
/** The constant friction bound for the step ('constant' and 'catto2005'); −1 for 'coulomb'. */
export const R_FRICTION_BOUND = 29;
export const R_FRICTION = 30;
/** Normal velocity before the solve (restitution, shock propagation). */
export const R_APPROACH = 31;
export const R_RESTITUTION = 32;
/**
 * Angular velocity change per unit impulse of each row on each body, fixed
 * for the step: I_A⁻¹(rA × n), I_B⁻¹(rB × n), then the same for t1 and t2,
 * 3 each. Applying an impulse λ to a row is then ω_A −= λ·K_A, ω_B += λ·K_B:
 * no cross product and no inertia product in the sweep.
 */
export const R_KA_N = 33;
export const R_KB_N = 36;
export const R_KA_T1 = 39;
export const R_KB_T1 = 42;
export const R_KA_T2 = 45;
export const R_KB_T2 = 48;
/** Soft separation at the current poses, kept between the sweeps that share them. */
export const R_SEP_CUR = 51;
/**
 * Anchors in the bodies' local frames (NGS and the exact soft separation),
 * 3 + 3: the contact point, or on a sphere or capsule the centre of its
 * rounded surface there (the point moved along n by R_ROUND_OFFSET's parts).
 * A body-fixed surface point of a ball turning by φ rises by ρ(1 − cos φ)
 * off the surface it presses on, while the centre keeps the true gap: a
 * shin hitting the floor at 24 rad/s (0.4 rad a step) would otherwise sink
 * a few millimetres more than the contact allows.
 */
export const R_LA = 52;
export const R_LB = 55;
/** k_B − k_A, the anchors' offsets along n from the point (see R_LA), subtracted from the anchors' gap. */
export const R_ROUND_OFFSET = 58;
/**
 * Normal velocity change per unit impulse of each tangent row, 2: the
 * off-diagonal terms J_n M⁻¹ J_tᵀ = (rA × n)·K_A,t + (rB × n)·K_B,t of the
 * point's effective-mass matrix (the linear part vanishes, n ⊥ t). The sweep
 * gets the normal row's velocity after the friction impulses from them
 * instead of recomputing the relative velocity at the point.
 */
export const R_COUPLE1 = 59;
export const R_COUPLE2 = 60;
/**
 * Rate (1/s) at which a speculative gap s may close: the approach allowed in
 * a sub-step is min(s/h, max(s·rate, JOINTED_FREE_APPROACH)). 1/h when
 * neither body has joints (the gap closes within the sub-step and no
 * further, which one row solves exactly), jointedSpeculativeRate/h when
 * either has (see SolverSettings.jointedSpeculativeRate).
 */
export const R_SPEC_RATE = 61;
/**
 * 1 when the point was apart (beyond the slop) or approaching faster than
 * IMPACT_SPEED at the start of the current (sub-)step: its impulse stops an
 * approach once and is not carried into the next (sub-)step's warm start.
 */
export const R_IMPACT = 62;
/** k_A: anchor A's offset along n from the surface point (see R_LA); k_B = k_A + R_ROUND_OFFSET. */
export const R_ROUND_A = 63;
/** Σ of the normal impulse over the step's sub-steps so far (see endContactSubStep): what the point has pushed. */
export const R_PUSHED = 64;
/** Restitution: the bounce impulse applied so far, or −1 for a point that does not bounce (see applyRestitution). */
export const R_BOUNCE = 65;
export const ROW_STRIDE = 66;
/** Solver slots of body A and body B, first row and row count of the point's manifold. */
export const I_A = 0;
export const I_B = 1;
export const I_FIRST = 2;
export const I_SIZE = 3;
/** Sweeps over the manifold per sweep of the rows (first row only): 1, or IMPACT_PASSES / FAST_IMPACT_PASSES while a point is hit. */
export const I_PASSES = 4;
export const INT_STRIDE = 5;

/** Contact rows, rebuilt every step: one packed record per contact point (layout above). */
export class ContactSolver {
  count = 0;
  /**
   * SolverBodies.poseVersion at which R_SEP_CUR was last right for every row
   * (set by the world when the rows are built, and by measureSeparations in contact-sweeps.ts).
   */
  measuredVersion = 0;
  capacity = 0;
  contact: (Contact | null)[] = [];
  pointIndex = new Int32Array(0) as I32;
  rows = new Float64Array(0) as F64;
  ints = new Int32Array(0) as I32;
  /** 1 when restitution may count the compression of speculative points as pushed (an unsplit step; see applyRestitution). */
  countInFlight = 1;
  /** 1/h of the last velocity sweep (restitution's compression cap), kept in an array: a double field read in a call is boxed. */
  readonly invH = new Float64Array(1);

  /** Room for n rows. */
  reserve(n: number): void {
    if (n <= this.capacity) return;
    const c = Math.max(n, this.capacity * 2, 64);
    this.pointIndex = reserveInt32(this.pointIndex, c);
    this.ints = reserveInt32(this.ints, c * INT_STRIDE);
    this.rows = reserveFloat64(this.rows, c * ROW_STRIDE);
    while (this.contact.length < c) this.contact.push(null);
    this.capacity = c;
  }

  clear(): void {
    for (let i = 0; i < this.count; i++) this.contact[i] = null;
    this.count = 0;
  }

  /** Solver slot of body A of row i. */
  slotA(i: number): number {
    return this.ints[i * INT_STRIDE + I_A]!;
  }

  /** Solver slot of body B of row i. */
  slotB(i: number): number {
    return this.ints[i * INT_STRIDE + I_B]!;
  }
}

/**
 * Numeric results of the helpers below. A non-inlined function returning a
 * double makes V8 box it on the heap; writing into a typed array does not.
 */
export const RESULT = new Float64Array(1);
export const ANCHOR = new Float64Array(6);

/**
 * World anchor (current rotation) of the local anchor R[ro..ro+2] on the body
 * in `slot`, written to ANCHOR[offset..offset+2]. Typed-array scratch: stores
 * of doubles into plain object fields can allocate heap numbers, which showed
 * up as megabytes per step in the inner loop.
 */
export function anchorWorld(offset: number, R: F64, ro: number, B: SolverBodies, slot: number): void {
  const rx = R[ro]!, ry = R[ro + 1]!, rz = R[ro + 2]!;
  const qx = B.qx[slot]!, qy = B.qy[slot]!, qz = B.qz[slot]!, qw = B.qw[slot]!;
  const tx = 2 * (qy * rz - qz * ry), ty = 2 * (qz * rx - qx * rz), tz = 2 * (qx * ry - qy * rx);
  ANCHOR[offset] = rx + qw * tx + (qy * tz - qz * ty);
  ANCHOR[offset + 1] = ry + qw * ty + (qz * tx - qx * tz);
  ANCHOR[offset + 2] = rz + qw * tz + (qx * ty - qy * tx);
}

/**
 * s = s0 + n·[(xB + aB_now) − (xA + aA_now)] − (k_B − k_A): the start
 * separation moved by how far the two anchor points (offsets in ANCHOR) have
 * moved apart along n; they start k_A and k_B along n from the same point p0
 * (see R_LA), so their start gap along n is k_B − k_A.
 */
export function currentSeparationFromAnchors(S: ContactSolver, B: SolverBodies, i: number): void {
  const R = S.rows, o = i * ROW_STRIDE;
  const ia = S.slotA(i), ib = S.slotB(i);
  const dx = (B.px[ib]! + ANCHOR[3]!) - (B.px[ia]! + ANCHOR[0]!);
  const dy = (B.py[ib]! + ANCHOR[4]!) - (B.py[ia]! + ANCHOR[1]!);
  const dz = (B.pz[ib]! + ANCHOR[5]!) - (B.pz[ia]! + ANCHOR[2]!);
  RESULT[0] = R[o + R_SEPARATION]! + (dx * R[o + R_N]! + dy * R[o + R_N + 1]! + dz * R[o + R_N + 2]! - R[o + R_ROUND_OFFSET]!);
}

/** Separation of row i now, from its anchors moved with the bodies, into RESULT[0]. */
export function currentSeparation(S: ContactSolver, B: SolverBodies, i: number): void {
  const ia = S.slotA(i), ib = S.slotB(i);
  const o = i * ROW_STRIDE;
  if (B.moves[ia] === 0 && B.moves[ib] === 0) {
    RESULT[0] = S.rows[o + R_SEPARATION]!;
    return;
  }
  anchorWorld(0, S.rows, o + R_LA, B, ia);
  anchorWorld(3, S.rows, o + R_LB, B, ib);
  currentSeparationFromAnchors(S, B, i);
}

/**
 * Relative normal velocity n·v_rel of row i, into RESULT[0]:
 * n·(v_B − v_A) + ω_B·(r_B × n) − ω_A·(r_A × n), from the row's r × n.
 */
export function normalVelocity(S: ContactSolver, B: SolverBodies, i: number, ia: number, ib: number): void {
  const R = S.rows, o = i * ROW_STRIDE;
  const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
  RESULT[0] = R[o + R_N]! * (V[ob]! - V[oa]!) + R[o + R_N + 1]! * (V[ob + 1]! - V[oa + 1]!) + R[o + R_N + 2]! * (V[ob + 2]! - V[oa + 2]!) +
    R[o + R_CB]! * V[ob + 3]! + R[o + R_CB + 1]! * V[ob + 4]! + R[o + R_CB + 2]! * V[ob + 5]! -
    R[o + R_CA]! * V[oa + 3]! - R[o + R_CA + 1]! * V[oa + 4]! - R[o + R_CA + 2]! * V[oa + 5]!;
}

