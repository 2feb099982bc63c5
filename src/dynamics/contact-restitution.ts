/**
 * Restitution after the sweeps (Box2D v3's apply restitution), and the tally
 * of what each point pushed over the sub-steps, which bounds the bounce. Row
 * layout: contact-solver.ts.
 */
import * as Rows from './contact-solver';
import type { ContactSolver } from './contact-solver';
import type { SolverSettings } from './solver-settings';
import { VELOCITY_STRIDE, type SolverBodies } from './solver-bodies';

// The row layout as constants of this module (see contact-solver.ts).
const { R_N, R_NORMAL_MASS, R_NORMAL_IMPULSE, R_MAX_NORMAL_IMPULSE, R_APPROACH, R_RESTITUTION, R_KA_N,
  R_KB_N, R_SEP_CUR, R_PUSHED, R_BOUNCE, ROW_STRIDE, I_A, I_B, I_SIZE, INT_STRIDE, RESULT, normalVelocity } = Rows;

/** Gauss-Seidel passes of the restitution over each manifold (see applyRestitution). */
const RESTITUTION_PASSES = 4;

/** Adds each row's normal impulse of the (sub-)step just solved to R_PUSHED. */
export function endContactSubStep(C: ContactSolver): void {
  const R = C.rows;
  for (let i = 0; i < C.count; i++) {
    const o = i * ROW_STRIDE;
    R[o + R_PUSHED] = R[o + R_PUSHED]! + R[o + R_NORMAL_IMPULSE]!;
  }
}

/**
 * Restitution (after the iterations): a point that was approaching faster
 * than the threshold and received an impulse is driven to the normal
 * velocity −e·v_approach (Newton), with accumulated clamping so it only
 * pushes, in RESTITUTION_PASSES Gauss-Seidel passes over its manifold so
 * the points of a flat landing bounce evenly. The manifold's bounce
 * impulses together stay within e times the impulse its points pushed
 * to stop the approach (Poisson's bound): v_approach is predicted at the
 * step's start, and a body that turned during the step meets the surface
 * elsewhere and slower — the Newton target alone would throw it off with
 * energy it never brought in.
 * A speculative point that pushed still approaches at the end of the step
 * (its gap lets it close within the next sub-step): those points are
 * first stopped (compression passes), and that impulse counts as pushed.
 * Without it the bound misses the approach still in flight and a ball
 * caught a few millimetres above the floor rebounds at a fraction of e.
 */
export function applyRestitution(C: ContactSolver, B: SolverBodies, settings: Readonly<SolverSettings>): void {
  // The threshold is read here, not passed: a double argument is boxed (CONTRIBUTING.md, hot path).
  const threshold = settings.restitutionThreshold;
  const R = C.rows, I = C.ints;
  const V = B.vel;
  for (let first = 0; first < C.count;) {
    const size = I[first * INT_STRIDE + I_SIZE]!;
    let bouncing = 0;
    for (let i = first; i < first + size; i++) {
      const o = i * ROW_STRIDE;
      const e = R[o + R_RESTITUTION]!;
      R[o + R_BOUNCE] = 0;
      if (e === 0 || R[o + R_APPROACH]! > -threshold || R[o + R_MAX_NORMAL_IMPULSE]! === 0) {
        R[o + R_BOUNCE] = -1;
        continue;
      }
      bouncing++;
    }
    if (bouncing === 0) {
      first += size;
      continue;
    }
    const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
    const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
    const oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
    let budget = 0, used = 0, compressed = 0;
    // A jointed body's manifold skips the compression passes: what still
    // approaches may be its joint's drag, not an impact, and counted as
    // pushed and bounced back it pumps energy into the joint.
    const jointed = B.bodies[ia]!.jointCount > 0 || B.bodies[ib]!.jointCount > 0;
    for (let pass = jointed ? RESTITUTION_PASSES : 0; pass < 2 * RESTITUTION_PASSES; pass++) {
      const compress = pass < RESTITUTION_PASSES;
      if (pass === RESTITUTION_PASSES) {
        let cap = 0, eMax = 0;
        for (let i = first; i < first + size; i++) {
          const o = i * ROW_STRIDE;
          if (R[o + R_BOUNCE]! < 0) continue;
          budget += R[o + R_RESTITUTION]! * R[o + R_PUSHED]!;
          const sep = R[o + R_SEP_CUR]!;
          if (sep > 0) cap += R[o + R_NORMAL_MASS]! * sep * C.invH[0]!;
          if (R[o + R_RESTITUTION]! > eMax) eMax = R[o + R_RESTITUTION]!;
          R[o + R_BOUNCE] = 0;
        }
        // The compression counts as pushed up to the approach the gaps still
        // allowed (beyond that the rows are stale, not in flight), and not in
        // a split step: its parts keep the rows of the step's start while a
        // fast-turning body turns, and the full Newton bounce on them adds
        // energy (docs/contact-energy.md).
        if (C.countInFlight === 1) budget += eMax * (compressed < cap ? compressed : cap);
        if (budget <= 0) break;
      }
      for (let i = first; i < first + size; i++) {
        const o = i * ROW_STRIDE;
        const bounce = R[o + R_BOUNCE]!;
        if (bounce < 0) continue;
        normalVelocity(C, B, i, ia, ib);
        const old = R[o + R_NORMAL_IMPULSE]!;
        let ln: number;
        if (compress) {
          // Stop what still approaches (accumulated over the passes, never pulling).
          ln = old - R[o + R_NORMAL_MASS]! * RESULT[0]!;
          if (ln < old - R[o + R_BOUNCE]!) ln = old - R[o + R_BOUNCE]!;
        } else {
          ln = old - R[o + R_NORMAL_MASS]! * (RESULT[0]! + R[o + R_RESTITUTION]! * R[o + R_APPROACH]!);
          if (ln > old + budget - used) ln = old + budget - used;
          // The bounce only adds to the push: never below the impulse the
          // point had before the bounce passes.
          if (ln < old - bounce) ln = old - bounce;
        }
        if (ln < 0) ln = 0;
        const dl = ln - old;
        if (dl === 0) continue;
        if (compress) {
          compressed += dl;
        } else {
          used += dl;
        }
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
