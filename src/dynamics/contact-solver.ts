/**
 * The contact solver: sequential-impulse sweeps over the contact rows
 * (contact-rows.ts).
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
import { FRICTION_IMPULSE, NORMAL_IMPULSE } from './contact';
import {
  ContactRows, FAST_IMPACT_PASSES, FAST_IMPACT_SPEED, IMPACT_PASSES, IMPACT_SPEED, IMPACT_TOLERANCE, INT_STRIDE, I_A, I_B, I_FIRST, I_PASSES, I_SIZE,
  JOINTED_FREE_APPROACH, RESTITUTION_PASSES, RESULT, ROW_STRIDE, R_APPROACH, R_BOUNCE, R_CA, R_CB, R_COUPLE1, R_COUPLE2, R_FRICTION, R_FRICTION_BOUND,
  R_IMPACT, R_KA_N, R_KA_T1, R_KA_T2, R_KB_N, R_KB_T1, R_KB_T2, R_MAX_NORMAL_IMPULSE, R_N, R_NORMAL_IMPULSE, R_NORMAL_MASS, R_PUSHED, R_RA, R_RB,
  R_RESTITUTION, R_SEP_CUR, R_SPEC_RATE, R_T1, R_T2, R_TANGENT_IMPULSE1, R_TANGENT_IMPULSE2, R_TANGENT_MASS1, R_TANGENT_MASS2, normalVelocity,
} from './contact-rows';
import type { Softness } from './softness';
import { VELOCITY_STRIDE, type SolverBodies } from './solver-bodies';
import type { SolverSettings } from './solver-settings';
import { SWEEP_BAUMGARTE, SWEEP_SOFT, type SweepMode } from './sweep-mode';

/** Largest manifold (points per block). */
const MAX_BLOCK = 4;
/** rotation mod s for s = 1..MAX_BLOCK, set per sweep. */
const ROTATION_MOD = new Int32Array(MAX_BLOCK + 1);

/** The sweeps over the rows: warm start, velocity iterations, restitution, impulses kept for the next step. */
export class ContactSolver extends ContactRows {
  /**
   * Applies the accumulated impulses of every row (warm start), a manifold at
   * a time, and marks the rows being hit (R_IMPACT). An impulse that stopped
   * an approach belongs to that (sub-)step alone: carried into the next one
   * it pushes the resting body away again at the impact speed, and the few
   * sweeps left must take that back, unevenly over a manifold's points: spin
   * the landing did not have. A point that is apart carries nothing either.
   * With warm starting off every row starts from zero. (It takes the
   * settings object, not the slop: a double argument is boxed.)
   */
  warmStart(B: SolverBodies, settings: SolverSettings): void {
    const slop = settings.linearSlop, apply = settings.warmStarting;
    const R = this.rows, I = this.ints;
    const V = B.vel;
    // The marks first, from the velocities before any impulse of this
    // (sub-)step: part-way through the warm start, a body in a stack has the
    // push from below and not yet the weight from above.
    for (let first = 0; first < this.count;) {
      const size = I[first * INT_STRIDE + I_SIZE]!;
      const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
      const oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
      const dvx = V[ob]! - V[oa]!, dvy = V[ob + 1]! - V[oa + 1]!, dvz = V[ob + 2]! - V[oa + 2]!;
      const wax = V[oa + 3]!, way = V[oa + 4]!, waz = V[oa + 5]!, wbx = V[ob + 3]!, wby = V[ob + 4]!, wbz = V[ob + 5]!;
      let hit = 0;
      for (let i = first; i < first + size; i++) {
        const o = i * ROW_STRIDE;
        const apart = R[o + R_SEP_CUR]! > slop;
        if (!apply || apart || R[o + R_IMPACT] === 1) {
          R[o + R_NORMAL_IMPULSE] = 0; R[o + R_TANGENT_IMPULSE1] = 0; R[o + R_TANGENT_IMPULSE2] = 0;
        }
        const vn = R[o + R_N]! * dvx + R[o + R_N + 1]! * dvy + R[o + R_N + 2]! * dvz +
          wbx * R[o + R_CB]! + wby * R[o + R_CB + 1]! + wbz * R[o + R_CB + 2]! -
          wax * R[o + R_CA]! - way * R[o + R_CA + 1]! - waz * R[o + R_CA + 2]!;
        const approaching = vn < -IMPACT_SPEED;
        R[o + R_IMPACT] = apart || approaching ? 1 : 0;
        if (approaching && -vn > hit) hit = -vn;
      }
      I[first * INT_STRIDE + I_PASSES] = hit === 0 || size === 1 ? 1 : hit > FAST_IMPACT_SPEED ? FAST_IMPACT_PASSES : IMPACT_PASSES;
      first += size;
    }
    for (let first = 0; first < this.count;) {
      const size = I[first * INT_STRIDE + I_SIZE]!;
      const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
      const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
      const oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
      let vax = V[oa]!, vay = V[oa + 1]!, vaz = V[oa + 2]!, wax = V[oa + 3]!, way = V[oa + 4]!, waz = V[oa + 5]!;
      let vbx = V[ob]!, vby = V[ob + 1]!, vbz = V[ob + 2]!, wbx = V[ob + 3]!, wby = V[ob + 4]!, wbz = V[ob + 5]!;
      for (let i = first; i < first + size; i++) {
        const o = i * ROW_STRIDE;
        const ln = R[o + R_NORMAL_IMPULSE]!, l1 = R[o + R_TANGENT_IMPULSE1]!, l2 = R[o + R_TANGENT_IMPULSE2]!;
        // Nothing to apply (new points, and the speculative ones that
        // carried nothing: half a ragdoll pile's rows).
        if (ln === 0 && l1 === 0 && l2 === 0) continue;
        const px = ln * R[o + R_N]! + l1 * R[o + R_T1]! + l2 * R[o + R_T2]!;
        const py = ln * R[o + R_N + 1]! + l1 * R[o + R_T1 + 1]! + l2 * R[o + R_T2 + 1]!;
        const pz = ln * R[o + R_N + 2]! + l1 * R[o + R_T1 + 2]! + l2 * R[o + R_T2 + 2]!;
        vax -= px * ima; vay -= py * ima; vaz -= pz * ima;
        vbx += px * imb; vby += py * imb; vbz += pz * imb;
        wax -= ln * R[o + R_KA_N]! + l1 * R[o + R_KA_T1]! + l2 * R[o + R_KA_T2]!;
        way -= ln * R[o + R_KA_N + 1]! + l1 * R[o + R_KA_T1 + 1]! + l2 * R[o + R_KA_T2 + 1]!;
        waz -= ln * R[o + R_KA_N + 2]! + l1 * R[o + R_KA_T1 + 2]! + l2 * R[o + R_KA_T2 + 2]!;
        wbx += ln * R[o + R_KB_N]! + l1 * R[o + R_KB_T1]! + l2 * R[o + R_KB_T2]!;
        wby += ln * R[o + R_KB_N + 1]! + l1 * R[o + R_KB_T1 + 1]! + l2 * R[o + R_KB_T2 + 1]!;
        wbz += ln * R[o + R_KB_N + 2]! + l1 * R[o + R_KB_T1 + 2]! + l2 * R[o + R_KB_T2 + 2]!;
      }
      V[oa] = vax; V[oa + 1] = vay; V[oa + 2] = vaz; V[oa + 3] = wax; V[oa + 4] = way; V[oa + 5] = waz;
      V[ob] = vbx; V[ob + 1] = vby; V[ob + 2] = vbz; V[ob + 3] = wbx; V[ob + 4] = wby; V[ob + 5] = wbz;
      first += size;
    }
  }

  /**
   * One sweep of the velocity rows.
   * SWEEP_RIGID: rigid rows (targets: speculative approach, restitution handled after);
   * SWEEP_BAUMGARTE: 'baumgarte' bias; SWEEP_SOFT: soft rows with bias; SWEEP_RELAX: soft relax (no bias).
   * Rows read the separation in R_SEP_CUR: the step's start separation, or
   * in 'soft' the one `measureSeparations` took after the poses last moved.
   */
  solveVelocities(B: SolverBodies, settings: SolverSettings, h: number, mode: SweepMode, softness: Softness, reverse: boolean, rotation: number): void {
    const inv = 1 / h;
    const omega = settings.relaxation;
    const slop = settings.linearSlop;
    const beta = settings.baumgarte;
    const maxBias = settings.maxCorrectionVelocity;
    // Push-out of penetration, target = min(pushRate · max(depth − pushSlop, 0), maxBias):
    // 'baumgarte' β/h beyond the slop; soft-with-bias the spring's rate with
    // no slop (a dead zone of zero stiffness lets each contact of a tall stack
    // tilt freely within it, and the column then buckles; the soft spring
    // itself keeps resting contacts alive) and the soft mass and impulse
    // scales; rigid and relax sweeps none.
    const pushRate = mode === SWEEP_BAUMGARTE ? beta * inv : mode === SWEEP_SOFT ? softness.biasRate : 0;
    const pushSlop = mode === SWEEP_BAUMGARTE ? slop : 0;
    const modeMassScale = mode === SWEEP_SOFT ? softness.massScale : 1;
    const modeImpulseScale = mode === SWEEP_SOFT ? softness.impulseScale : 0;
    // Restitution asks whether a point pushed during the step: the sweeps that
    // end a sub-step (relax) or the step (rigid modes) see every impulse that lasts.
    const trackMax = mode !== SWEEP_SOFT;
    const R = this.rows, I = this.ints;
    const V = B.vel;
    // Alternate the sweep direction (symmetric Gauss-Seidel): a fixed order
    // biases the first rows of a manifold, which shows as a rotation that a
    // tall stack accumulates into a sway.
    // Within a manifold the starting point rotates with `rotation`, so no
    // corner is always solved first.
    // One manifold at a time: its two bodies' velocities and step
    // displacements are loaded once and stored once for all its points.
    const n = this.count;
    for (let s = 1; s <= MAX_BLOCK; s++) ROTATION_MOD[s] = rotation % s;
    let e = reverse ? n : 0;
    while (reverse ? e > 0 : e < n) {
      let first: number, size: number;
      if (reverse) {
        first = I[(e - 1) * INT_STRIDE + I_FIRST]!;
        size = e - first;
        e = first;
      } else {
        first = e;
        size = I[e * INT_STRIDE + I_SIZE]!;
        e += size;
      }
      const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
      const oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
      let vax = V[oa]!, vay = V[oa + 1]!, vaz = V[oa + 2]!, wax = V[oa + 3]!, way = V[oa + 4]!, waz = V[oa + 5]!;
      let vbx = V[ob]!, vby = V[ob + 1]!, vbz = V[ob + 2]!, wbx = V[ob + 3]!, wby = V[ob + 4]!, wbz = V[ob + 5]!;
      const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
      const rot = ROTATION_MOD[size]!;
      const passes = I[first * INT_STRIDE + I_PASSES]!;
      // Largest normal velocity change (m/s) a pass made, for the impact passes' early exit.
      let passChange = 0;
      for (let t = 0, tt = 0, tEnd = size * passes; t < tEnd; t++, tt++) {
        if (tt === size) {
          if (passChange < IMPACT_TOLERANCE) break;
          tt = 0;
          passChange = 0;
        }
        // first + (position + rotation) mod size, without an integer division per row.
        let r = (reverse ? size - 1 - tt : tt) + rot;
        if (r >= size) r -= size;
        const i = first + r;
        const o = i * ROW_STRIDE;
        const nx = R[o + R_N]!, ny = R[o + R_N + 1]!, nz = R[o + R_N + 2]!;
        const s = R[o + R_SEP_CUR]!;
        const old = R[o + R_NORMAL_IMPULSE]!;
        // Bound: a constant for the step, or (negative marker) μλn of the
        // current accumulated normal impulse ('coulomb', and speculative
        // points that carried nothing last step).
        let bound = R[o + R_FRICTION_BOUND]!;
        if (bound < 0) {
          // A gap with no normal impulse, so no friction allowed: the point
          // stays idle unless the bodies would close the gap faster than its
          // rows allow, which the normal velocity alone tells (r × n is R_CA
          // / R_CB). The full rows below would do the same, except that they
          // would also clear friction left from an earlier sweep in which
          // the point pushed; here it stays for the rest of the step unless
          // the point pushes again.
          if (old === 0 && s > 0) {
            const vn0 = nx * (vbx - vax) + ny * (vby - vay) + nz * (vbz - vaz) +
              wbx * R[o + R_CB]! + wby * R[o + R_CB + 1]! + wbz * R[o + R_CB + 2]! -
              wax * R[o + R_CA]! - way * R[o + R_CA + 1]! - waz * R[o + R_CA + 2]!;
            // The normal row's speculative target below, written out again:
            // computed once above both, every speculative row would pay for it.
            if (vn0 >= -Math.min(s * inv, Math.max(s * R[o + R_SPEC_RATE]!, JOINTED_FREE_APPROACH))) continue;
          }
          bound = R[o + R_FRICTION]! * old;
        }
        const rax = R[o + R_RA]!, ray = R[o + R_RA + 1]!, raz = R[o + R_RA + 2]!;
        const rbx = R[o + R_RB]!, rby = R[o + R_RB + 1]!, rbz = R[o + R_RB + 2]!;
        const t1x = R[o + R_T1]!, t1y = R[o + R_T1 + 1]!, t1z = R[o + R_T1 + 2]!;
        const t2x = R[o + R_T2]!, t2y = R[o + R_T2 + 1]!, t2z = R[o + R_T2 + 2]!;

        // ---- friction rows first (Box2D order: non-penetration, solved last,
        // wins when the rows disagree).
        const dvx = vbx + (wby * rbz - wbz * rby) - vax - (way * raz - waz * ray);
        const dvy = vby + (wbz * rbx - wbx * rbz) - vay - (waz * rax - wax * raz);
        const dvz = vbz + (wbx * rby - wby * rbx) - vaz - (wax * ray - way * rax);
        const vt1 = dvx * t1x + dvy * t1y + dvz * t1z;
        const vt2 = dvx * t2x + dvy * t2y + dvz * t2z;
        const old1 = R[o + R_TANGENT_IMPULSE1]!;
        let l1 = old1 - omega * R[o + R_TANGENT_MASS1]! * vt1;
        l1 = l1 > bound ? bound : l1 < -bound ? -bound : l1;
        const d1 = l1 - old1;
        R[o + R_TANGENT_IMPULSE1] = l1;
        const old2 = R[o + R_TANGENT_IMPULSE2]!;
        let l2 = old2 - omega * R[o + R_TANGENT_MASS2]! * vt2;
        l2 = l2 > bound ? bound : l2 < -bound ? -bound : l2;
        const d2 = l2 - old2;
        R[o + R_TANGENT_IMPULSE2] = l2;
        // ---- normal row, at the velocity the friction impulses leave: the
        // same relative velocity along n plus their coupling (R_COUPLE1/2).
        const vn = dvx * nx + dvy * ny + dvz * nz + d1 * R[o + R_COUPLE1]! + d2 * R[o + R_COUPLE2]!;
        let target: number, massScale: number, impulseScale: number;
        if (s > 0) {
          // Speculative: allow the gap to close this sub-step, no more (a
          // jointed body: part of it; see R_SPEC_RATE).
          target = -Math.min(s * inv, Math.max(s * R[o + R_SPEC_RATE]!, JOINTED_FREE_APPROACH));
          massScale = 1;
          impulseScale = 0;
        } else {
          target = Math.min(pushRate * Math.max(-s - pushSlop, 0), maxBias);
          massScale = modeMassScale;
          impulseScale = modeImpulseScale;
        }
        let dl = omega * (R[o + R_NORMAL_MASS]! * massScale * (target - vn) - impulseScale * old);
        let ln = old + dl;
        if (ln < 0) ln = 0;
        dl = ln - old;
        R[o + R_NORMAL_IMPULSE] = ln;
        if (trackMax && ln > R[o + R_MAX_NORMAL_IMPULSE]!) R[o + R_MAX_NORMAL_IMPULSE] = ln;

        // The three rows' impulses applied to both bodies at once. (Inline: a
        // shared helper would take them as double arguments, which V8 boxes
        // when it does not inline the call.)
        const px = d1 * t1x + d2 * t2x + dl * nx;
        const py = d1 * t1y + d2 * t2y + dl * ny;
        const pz = d1 * t1z + d2 * t2z + dl * nz;
        vax -= px * ima; vay -= py * ima; vaz -= pz * ima;
        vbx += px * imb; vby += py * imb; vbz += pz * imb;
        wax -= d1 * R[o + R_KA_T1]! + d2 * R[o + R_KA_T2]! + dl * R[o + R_KA_N]!;
        way -= d1 * R[o + R_KA_T1 + 1]! + d2 * R[o + R_KA_T2 + 1]! + dl * R[o + R_KA_N + 1]!;
        waz -= d1 * R[o + R_KA_T1 + 2]! + d2 * R[o + R_KA_T2 + 2]! + dl * R[o + R_KA_N + 2]!;
        wbx += d1 * R[o + R_KB_T1]! + d2 * R[o + R_KB_T2]! + dl * R[o + R_KB_N]!;
        wby += d1 * R[o + R_KB_T1 + 1]! + d2 * R[o + R_KB_T2 + 1]! + dl * R[o + R_KB_N + 1]!;
        wbz += d1 * R[o + R_KB_T1 + 2]! + d2 * R[o + R_KB_T2 + 2]! + dl * R[o + R_KB_N + 2]!;
        if (passes > 1) {
          const change = Math.abs(dl) / R[o + R_NORMAL_MASS]!;
          if (change > passChange) passChange = change;
        }
      }
      V[oa] = vax; V[oa + 1] = vay; V[oa + 2] = vaz; V[oa + 3] = wax; V[oa + 4] = way; V[oa + 5] = waz;
      V[ob] = vbx; V[ob + 1] = vby; V[ob + 2] = vbz; V[ob + 3] = wbx; V[ob + 4] = wby; V[ob + 5] = wbz;
    }
  }

  /**
   * Restitution (after the iterations): a point that was approaching faster
   * than the threshold and received an impulse is driven to the normal
   * velocity −e·v_approach (Newton), with accumulated clamping so it only
   * pushes, in RESTITUTION_PASSES Gauss-Seidel passes over its manifold so
   * the points of a flat landing bounce evenly. The manifold's bounce
   * impulses together stay within e times the impulse its points pushed
   * during the step (Poisson's bound): v_approach is predicted at the step's
   * start, and a body that turned during the step meets the surface
   * elsewhere and slower — the Newton target alone would throw it off with
   * energy it never brought in.
   */
  applyRestitution(B: SolverBodies, threshold: number): void {
    const R = this.rows, I = this.ints;
    const V = B.vel;
    for (let first = 0; first < this.count;) {
      const size = I[first * INT_STRIDE + I_SIZE]!;
      let budget = 0;
      for (let i = first; i < first + size; i++) {
        const o = i * ROW_STRIDE;
        const e = R[o + R_RESTITUTION]!;
        R[o + R_BOUNCE] = 0;
        if (e === 0 || R[o + R_APPROACH]! > -threshold || R[o + R_MAX_NORMAL_IMPULSE]! === 0) {
          R[o + R_BOUNCE] = -1;
          continue;
        }
        budget += e * R[o + R_PUSHED]!;
      }
      if (budget <= 0) {
        first += size;
        continue;
      }
      const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
      const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
      const oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
      let used = 0;
      for (let pass = 0; pass < RESTITUTION_PASSES; pass++) {
        for (let i = first; i < first + size; i++) {
          const o = i * ROW_STRIDE;
          const bounce = R[o + R_BOUNCE]!;
          if (bounce < 0) continue;
          normalVelocity(this, B, i, ia, ib);
          const old = R[o + R_NORMAL_IMPULSE]!;
          let ln = old - R[o + R_NORMAL_MASS]! * (RESULT[0]! + R[o + R_RESTITUTION]! * R[o + R_APPROACH]!);
          if (ln > old + budget - used) ln = old + budget - used;
          // The bounce only adds to the push: never below the impulse the
          // point had before restitution.
          if (ln < old - bounce) ln = old - bounce;
          if (ln < 0) ln = 0;
          const dl = ln - old;
          if (dl === 0) continue;
          used += dl;
          R[o + R_BOUNCE] = bounce + dl;
          R[o + R_NORMAL_IMPULSE] = ln;
          const px = dl * R[o + R_N]!, py = dl * R[o + R_N + 1]!, pz = dl * R[o + R_N + 2]!;
          V[oa] = V[oa]! - px * ima; V[oa + 1] = V[oa + 1]! - py * ima; V[oa + 2] = V[oa + 2]! - pz * ima;
          V[ob] = V[ob]! + px * imb; V[ob + 1] = V[ob + 1]! + py * imb; V[ob + 2] = V[ob + 2]! + pz * imb;
          V[oa + 3] = V[oa + 3]! - dl * R[o + R_KA_N]!; V[oa + 4] = V[oa + 4]! - dl * R[o + R_KA_N + 1]!; V[oa + 5] = V[oa + 5]! - dl * R[o + R_KA_N + 2]!;
          V[ob + 3] = V[ob + 3]! + dl * R[o + R_KB_N]!; V[ob + 4] = V[ob + 4]! + dl * R[o + R_KB_N + 1]!; V[ob + 5] = V[ob + 5]! + dl * R[o + R_KB_N + 2]!;
        }
      }
      first += size;
    }
  }

  /** Adds each row's normal impulse of the (sub-)step just solved to R_PUSHED. */
  endSubStep(): void {
    const R = this.rows;
    for (let i = 0; i < this.count; i++) {
      const o = i * ROW_STRIDE;
      R[o + R_PUSHED] = R[o + R_PUSHED]! + R[o + R_NORMAL_IMPULSE]!;
    }
  }

  /** Copies the accumulated impulses back to the persistent contacts. */
  storeImpulses(): void {
    const R = this.rows;
    for (let i = 0; i < this.count; i++) {
      const o = i * ROW_STRIDE;
      const c = this.contact[i]!;
      const k = this.pointIndex[i]!;
      const ln = R[o + R_NORMAL_IMPULSE]!;
      c.totalNormalImpulse += ln;
      // An impact's impulse is not the next step's guess (see warmStart).
      const carry = R[o + R_IMPACT] === 1 ? 0 : 1;
      const d = c.store.data;
      d[c.base + NORMAL_IMPULSE + k] = ln * carry;
      const l1 = R[o + R_TANGENT_IMPULSE1]! * carry, l2 = R[o + R_TANGENT_IMPULSE2]! * carry;
      const f = c.base + FRICTION_IMPULSE + 3 * k;
      d[f] = l1 * R[o + R_T1]! + l2 * R[o + R_T2]!;
      d[f + 1] = l1 * R[o + R_T1 + 1]! + l2 * R[o + R_T2 + 1]!;
      d[f + 2] = l1 * R[o + R_T1 + 2]! + l2 * R[o + R_T2 + 2]!;
    }
  }
}
