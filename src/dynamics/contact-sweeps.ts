/**
 * The contact rows' velocity sweeps (Box2D v3's warm start, solve and relax,
 * and store impulses): the warm start applies the impulses carried from the
 * last step, each sweep solves every row once (with the mode's bias, or none
 * in the relax sweeps), and at the end the impulses go back to the contacts.
 * In 'soft', the separations are measured again after the poses moved. Row
 * layout: contact-solver.ts.
 */
import { FRICTION_IMPULSE, NORMAL_IMPULSE } from './contact';
import * as Rows from './contact-solver';
import type { ContactSolver } from './contact-solver';
import type { SolverSettings } from './solver-settings';
import type { Softness } from './softness';
import { VELOCITY_STRIDE, type SolverBodies } from './solver-bodies';
import { SWEEP_BAUMGARTE, SWEEP_SOFT, type SweepMode } from './sweep-mode';

// The row layout as constants of this module (see contact-solver.ts).
const { R_N, R_T1, R_T2, R_RA, R_RB, R_CA, R_CB, R_NORMAL_MASS, R_TANGENT_MASS1, R_TANGENT_MASS2,
  R_NORMAL_IMPULSE, R_TANGENT_IMPULSE1, R_TANGENT_IMPULSE2, R_MAX_NORMAL_IMPULSE, R_SEPARATION,
  R_FRICTION_BOUND, R_FRICTION, R_KA_N, R_KB_N, R_KA_T1, R_KB_T1, R_KA_T2, R_KB_T2, R_SEP_CUR, R_COUPLE1,
  R_COUPLE2, R_SPEC_RATE, R_IMPACT, ROW_STRIDE, I_A, I_B, I_FIRST, I_SIZE, I_PASSES, INT_STRIDE, RESULT,
  currentSeparation } = Rows;

/**
 * m/s: a point approaching faster than this at the start of a (sub-)step is
 * being hit, not resting: gravity adds |g|·h ≈ 0.04 m/s a sub-step, and
 * bodies settling in a pile knock into each other at up to about a metre a
 * second, where the warm start still helps (docs/contact-energy.md).
 */
const IMPACT_SPEED = 2;
/**
 * m/s: a jointed body approaching a surface slower than this closes the gap
 * at the full rate. The slowed approach is for impacts; below this speed a
 * limb settling onto the ground would only take longer, and every slow
 * speculative point would leave the sweep's idle shortcut.
 */
const JOINTED_FREE_APPROACH = 0.5;
/**
 * Most Gauss-Seidel passes over a manifold in each sweep while one of its
 * points is being hit; they stop once converged (IMPACT_TOLERANCE). A sweep
 * visits a manifold's points one at a time, and the first point visited
 * stops most of a flat impact alone; one pass leaves the points unequal,
 * which is spin the impact did not have and, for a fast body, a corner
 * that goes through.
 */
const IMPACT_PASSES = 6;
/**
 * m/s: an impact faster than this gets up to FAST_IMPACT_PASSES: what a
 * pass leaves unconverged scales with the speed stopped.
 */
const FAST_IMPACT_SPEED = 10;
const FAST_IMPACT_PASSES = 32;
/** m/s: the impact passes stop once a pass changes no point's normal velocity by more than this. */
const IMPACT_TOLERANCE = 1e-3;
/** Largest manifold (points per block). */
const MAX_BLOCK = 4;
/** rotation mod s for s = 1..MAX_BLOCK, set per sweep. */
const ROTATION_MOD = new Int32Array(MAX_BLOCK + 1);

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
export function warmStartContacts(C: ContactSolver, B: SolverBodies, settings: SolverSettings): void {
  const slop = settings.linearSlop, apply = settings.warmStarting;
  const R = C.rows, I = C.ints;
  const V = B.vel;
  // The marks first, from the velocities before any impulse of this
  // (sub-)step: part-way through the warm start, a body in a stack has the
  // push from below and not yet the weight from above.
  for (let first = 0; first < C.count;) {
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
  for (let first = 0; first < C.count;) {
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
 * 'soft': each row's separation at the current poses, into R_SEP_CUR (the
 * sweeps read it until the poses move again). While both bodies have turned
 * by less than ~0.01 rad this step (θ = Σ h ω), linearised: anchors move by
 * θ × r, so along n the gap changes by n·(Δx_B − Δx_A) + (r_B × n)·θ_B −
 * (r_A × n)·θ_A, a fifth of the cost of rotating both anchors by
 * quaternions. Faster-turning bodies (a ragdoll limb hitting the floor)
 * take the exact path from the anchors: the linear error grows as θ².
 * Only the manifolds with a body that moved since `measuredVersion` are
 * measured (the sub-step's joint projection moves a few limbs after the
 * sweeps have measured everything).
 */
export function measureSeparations(C: ContactSolver, B: SolverBodies): void {
  const R = C.rows, I = C.ints;
  const since = C.measuredVersion, V = B.slotVersion;
  for (let first = 0; first < C.count;) {
    const size = I[first * INT_STRIDE + I_SIZE]!;
    const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
    if (V[ia]! <= since && V[ib]! <= since) {
      first += size;
      continue;
    }
    if (B.turned[ia] !== 0 || B.turned[ib] !== 0) {
      for (let i = first; i < first + size; i++) {
        currentSeparation(C, B, i);
        R[i * ROW_STRIDE + R_SEP_CUR] = RESULT[0]!;
      }
    } else {
      const ddx = B.dpx[ib]! - B.dpx[ia]!, ddy = B.dpy[ib]! - B.dpy[ia]!, ddz = B.dpz[ib]! - B.dpz[ia]!;
      const thax = B.thx[ia]!, thay = B.thy[ia]!, thaz = B.thz[ia]!;
      const thbx = B.thx[ib]!, thby = B.thy[ib]!, thbz = B.thz[ib]!;
      for (let i = first; i < first + size; i++) {
        const o = i * ROW_STRIDE;
        R[o + R_SEP_CUR] = R[o + R_SEPARATION]! + (R[o + R_N]! * ddx + R[o + R_N + 1]! * ddy + R[o + R_N + 2]! * ddz +
          R[o + R_CB]! * thbx + R[o + R_CB + 1]! * thby + R[o + R_CB + 2]! * thbz -
          R[o + R_CA]! * thax - R[o + R_CA + 1]! * thay - R[o + R_CA + 2]! * thaz);
      }
    }
    first += size;
  }
  C.measuredVersion = B.poseVersion;
}

/**
 * One sweep of the velocity rows.
 * SWEEP_RIGID: rigid rows (targets: speculative approach, restitution handled after);
 * SWEEP_BAUMGARTE: 'baumgarte' bias; SWEEP_SOFT: soft rows with bias; SWEEP_RELAX: soft relax (no bias).
 * Rows read the separation in R_SEP_CUR: the step's start separation, or
 * in 'soft' the one `measureSeparations` took after the poses last moved.
 */
export function solveContacts(C: ContactSolver, B: SolverBodies, settings: SolverSettings, h: number, mode: SweepMode, softness: Softness, reverse: boolean, rotation: number): void {
  const inv = 1 / h;
  C.invH[0] = inv;
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
  const R = C.rows, I = C.ints;
  const V = B.vel;
  // Alternate the sweep direction (symmetric Gauss-Seidel): a fixed order
  // biases the first rows of a manifold, which shows as a rotation that a
  // tall stack accumulates into a sway.
  // Within a manifold the starting point rotates with `rotation`, so no
  // corner is always solved first.
  // One manifold at a time: its two bodies' velocities and step
  // displacements are loaded once and stored once for all its points.
  const n = C.count;
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

/** Copies the accumulated impulses back to the persistent contacts. */
export function storeContactImpulses(C: ContactSolver): void {
  const R = C.rows;
  for (let i = 0; i < C.count; i++) {
    const o = i * ROW_STRIDE;
    const c = C.contact[i]!;
    const k = C.pointIndex[i]!;
    const ln = R[o + R_NORMAL_IMPULSE]!;
    c.totalNormalImpulse += ln;
    // An impact's impulse is not the next step's guess (see warmStartContacts).
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
