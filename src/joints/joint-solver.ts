/**
 * Joint rows in the world's sequential-impulse solver. The World calls, per
 * step (after the contact rows are built):
 *
 *   prepare(joints, B, settings, h, dt)
 *   'soft':      per sub-step: warmStart; solveVelocities(useBias = true);
 *                integrate positions; solveVelocities(useBias = false) (relax)
 *   'baumgarte': warmStart; iterations × solveVelocities(useBias = true)
 *   'ngs':       warmStart; iterations × solveVelocities(useBias = false);
 *                integrate; iterations × solvePositions
 *   storeImpulses()
 *
 * Joint softness ('soft'): Box2D v3 solves joints as stiff springs of
 * `jointHertz` with `jointDampingRatio` instead of rigid rows with a position
 * bias; the relax sweep then removes the velocity the push-back added (Catto,
 * "Solver2D", 2024). 60 Hz is the stiffest spring the 240 Hz sub-step (60 Hz ×
 * 4 sub-steps) integrates stably (ω h ≈ 1.6); the damping ratio 2 damps a
 * stretched chain without visible bounce while keeping it stiff. Both are
 * capped like contacts: hertz ≤ 0.25 / h.
 *
 * Per joint, not per row, dispatch: each joint is a small object with its
 * rows as fields (the rows are the SoA-free equivalent of Box2D's joint
 * union). A ragdoll scene has hundreds of joints, not tens of thousands of
 * rows, so the virtual call per joint is noise next to the row math.
 */
import type { SolverBodies } from '../dynamics/contact-solver';
import type { SolverSettings } from '../world/settings';
import type { Joint } from './joint';
import { JointStepContext, MODE_BAUMGARTE, MODE_NGS, MODE_SOFT } from './rows';

/** Joint solver settings (separate from the world's SolverSettings). */
export interface JointSolverSettings {
  /** Joint stiffness (Hz) in 'soft' mode, capped at 0.25 / sub-step. Default 60. */
  jointHertz: number;
  /** Joint damping ratio in 'soft' mode (> 1 over-damped). Default 2. Range 0–10. */
  jointDampingRatio: number;
}

export function defaultJointSolverSettings(): JointSolverSettings {
  return { jointHertz: 60, jointDampingRatio: 2 };
}

export class JointSolver {
  /** Live settings; take effect at the next `prepare`. */
  readonly settings: JointSolverSettings = defaultJointSolverSettings();
  /** Joints solved this step (both slots valid). */
  readonly active: Joint[] = [];
  /** @internal */ readonly context = new JointStepContext();
  private warmStarting = true;

  /**
   * Called once per step after the contact rows are built; joints that are
   * broken, or whose bodies are both static or asleep, are skipped. `h` is the
   * (sub)step, `dt` the full step. Gives joint bodies solver slots on demand
   * (static and sleeping partners get one, a static body with zero inverse mass).
   */
  prepare(joints: readonly Joint[], B: SolverBodies, settings: SolverSettings, h: number, dt: number): void {
    const ctx = this.context;
    const active = this.active;
    active.length = 0;
    const pc = settings.positionCorrection;
    ctx.mode = pc === 'soft' ? MODE_SOFT : pc === 'baumgarte' ? MODE_BAUMGARTE : MODE_NGS;
    ctx.h = h;
    ctx.invH = 1 / h;
    ctx.stepScale = dt / h;
    ctx.beta = settings.baumgarte;
    ctx.maxCorrectionVelocity = settings.maxCorrectionVelocity;
    const js = this.settings;
    ctx.softness.set(Math.min(js.jointHertz, 0.25 / h), js.jointDampingRatio, h);
    this.warmStarting = settings.warmStarting;
    for (let i = 0; i < joints.length; i++) {
      const j = joints[i]!;
      if (j.broken) continue;
      const a = j.bodyA, b = j.bodyB;
      const aActive = a.awake && !a.isStatic;
      const bActive = b.awake && !b.isStatic;
      if (!aActive && !bActive) continue;
      if (a.solverIndex < 0) B.add(a);
      if (b.solverIndex < 0) B.add(b);
      j.slotA = a.solverIndex;
      j.slotB = b.solverIndex;
      if (!this.warmStarting) j.resetImpulses();
      j.prepare(B, ctx);
      active.push(j);
    }
  }

  /** Applies the accumulated impulses (per (sub)step, like contacts). */
  warmStart(B: SolverBodies): void {
    if (!this.warmStarting) return;
    const active = this.active;
    for (let i = 0; i < active.length; i++) active[i]!.warmStart(B);
  }

  /** One sweep over the joint rows. */
  solveVelocities(B: SolverBodies, h: number, useBias: boolean): void {
    const ctx = this.context;
    ctx.h = h;
    ctx.invH = 1 / h;
    ctx.setBias(useBias);
    const active = this.active;
    for (let i = 0; i < active.length; i++) active[i]!.solveVelocity(B, ctx);
  }

  /**
   * 'ngs' only: one NGS sweep over the joint position errors (pseudo-impulses
   * on the slot poses). Returns the largest error: metres for anchors, radians
   * × 0.25 m for angles (ANGULAR_ERROR_LENGTH), so the caller can compare it with
   * the linear slop.
   */
  solvePositions(B: SolverBodies): number {
    const ctx = this.context;
    const active = this.active;
    let worst = 0;
    for (let i = 0; i < active.length; i++) {
      const e = active[i]!.solvePosition(B, ctx);
      if (e > worst) worst = e;
    }
    return worst;
  }

  /**
   * Keeps the accumulated impulses for the next step's warm start (they live
   * on the joints), reports each joint's step impulse and breaks joints whose
   * impulse exceeded `breakImpulse` (`joint.broken = true`; the World emits
   * 'jointBreak'). Returns the number of joints that broke in this step.
   */
  storeImpulses(): number {
    const ctx = this.context;
    const active = this.active;
    let broke = 0;
    for (let i = 0; i < active.length; i++) {
      const j = active[i]!;
      j.finishStep(ctx);
      if (j.impulse > j.breakImpulse || j.angularImpulse > j.breakImpulse) {
        j.broken = true;
        j.resetImpulses();
        broke++;
      }
      j.slotA = -1;
      j.slotB = -1;
    }
    return broke;
  }
}
