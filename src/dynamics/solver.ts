/**
 * The solver stages of one step (or one part of a split step), in order:
 * gather the solver bodies and contact rows, then
 *   'soft' (Box2D v3's soft step): per sub-step integrate velocities, warm
 *          start, biased sweeps, shock propagation, integrate positions,
 *          relax sweeps; restitution at the end;
 *   'ngs' / 'baumgarte': integrate velocities, warm start, velocity sweeps,
 *          restitution, integrate positions, then ('ngs') position sweeps;
 * and store the impulses and write the bodies back.
 */
import type { BroadPhase } from '../collision/broadphase/broadphase';
import type { Quat } from '../math/quat';
import * as quat from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { RigidBody } from './body';
import { POINT_NORMAL, type Contact } from './contact';
import type { ContactManager } from './contact-manager';
import { ContactSolver } from './contact-solver';
import { prepareContact, refreshContactRows } from './contact-prepare';
import { measureSeparations, solveContacts, storeContactImpulses, warmStartContacts } from './contact-sweeps';
import { applyRestitution, endContactSubStep } from './contact-restitution';
import { ContinuousCollision } from './continuous';
import { integratePositions, integrateVelocities, writeBack } from './integrate';
import { pushOutOfImmovables, solveContactPositions } from './ngs';
import { ShockPropagation } from './shock';
import { Softness } from './softness';
import { GROUND_NORMALS, SolverBodies } from './solver-bodies';
import type { SolverSettings } from './solver-settings';
import type { StepContext } from './step-context';
import { SWEEP_BAUMGARTE, SWEEP_RELAX, SWEEP_RIGID, SWEEP_SOFT } from './sweep-mode';

/** The joint rows as the solver runs them (joints/joint-solver.ts). */
export interface JointStage<J> {
  prepare(joints: readonly J[], B: SolverBodies, settings: SolverSettings, h: number, dt: number): void;
  warmStart(B: SolverBodies): void;
  /** Each sub-step (the one step of 'rigid', 'baumgarte' and 'ngs'), after the velocity integration and before the warm starts. */
  beginSubStep(B: SolverBodies): void;
  /** The soft step's relax sweeps: moves the joints' bodies onto their anchors and limits (projection, if on); returns whether it ran. */
  project(B: SolverBodies, h: number): boolean;
  /** A velocity sweep over the joint rows (biased or not). */
  solveVelocities(B: SolverBodies, h: number, useBias: boolean): void;
  solvePositions(B: SolverBodies): number;
  /** Returns how many joints broke. */
  storeImpulses(): number;
}

/** Told when joints broke in a step (the world's event queue). */
export interface JointBreakSink {
  queueJointBreaks(): void;
}

export class StepSolver<J> {
  readonly bodies = new SolverBodies();
  readonly contacts = new ContactSolver();
  private readonly softness = new Softness();
  private readonly shock = new ShockPropagation();
  // Starts out null so that V8 keeps the field tagged: a double field is
  // boxed anew on every read passed to a call.
  private hBoxed: number | null = null;
  private hDt = 0;
  private hSubSteps = 0;
  /**
   * The joint rows; null until the world's first joint (the world takes the
   * joint solver from that joint, so that a game without joints does not
   * carry it).
   */
  jointStage: JointStage<J> | null = null;

  constructor(
    private readonly ctx: StepContext,
    private readonly bodyList: readonly RigidBody[],
    private readonly contactManager: ContactManager,
    private readonly jointList: readonly J[],
    private readonly broadphase: BroadPhase,
    private readonly breaks: JointBreakSink,
    bodyById: ReadonlyMap<number, RigidBody>,
  ) {
    this.continuous = new ContinuousCollision(broadphase, bodyById);
  }

  /** Bodies the last solve moved out of static or kinematic bodies (pushOutOfImmovables). */
  pushedOut = 0;
  /** Continuous collision against static bodies, after the solve. */
  readonly continuous: ContinuousCollision;

  /** Solves one step (or split part) of `dt` seconds. */
  solve(dt: number): void {
    const S = this.ctx.settings;
    const B = this.bodies;
    const C = this.contacts;
    B.clear();
    C.clear();
    B.gravity = this.ctx.gravity;
    // Solver slots: every awake non-static body, in body order.
    for (let i = 0; i < this.bodyList.length; i++) {
      const b = this.bodyList[i]!;
      b.contactPointCount = 0;
      if (b.awake && !b.isStatic) B.add(b);
    }
    // Contact point counts (catto2005 m_c share) and static slots on demand.
    const list = this.contactManager.solveList, listCount = this.contactManager.solveCount;
    for (let i = 0; i < listCount; i++) {
      const c = list[i]!;
      const a = c.bodyA!, b = c.bodyB!;
      if (a.solverIndex < 0 && b.solverIndex < 0) continue;
      if (a.solverIndex < 0) B.addFixed(a);
      if (b.solverIndex < 0) B.addFixed(b);
      a.contactPointCount += c.pointCount;
      b.contactPointCount += c.pointCount;
      if (c.pointCount > 0) recordGround(B, c);
    }
    const soft = S.positionCorrection === 'soft';
    const subSteps = soft ? S.subSteps : 1;
    // h crosses many calls V8 may not inline: computed once per change of
    // dt and kept as one heap number (CONTRIBUTING.md, hot path).
    if (this.hDt !== dt || this.hSubSteps !== subSteps) {
      this.hBoxed = dt / subSteps; this.hDt = dt; this.hSubSteps = subSteps;
    }
    const h = this.hBoxed!;
    for (let i = 0; i < listCount; i++) {
      const c = list[i]!;
      if (c.bodyA!.solverIndex < 0 || c.bodyB!.solverIndex < 0) continue;
      prepareContact(C, c, B, S, h, dt, this.ctx.gravity, true);
    }

    // Previous pose for interpolation: the whole step's start, in its first part.
    for (let i = 0; this.ctx.firstPart && i < B.count; i++) {
      const b = B.bodies[i]!;
      const pp = b.previousPosition as Vec3;
      pp.x = b.position.x; pp.y = b.position.y; pp.z = b.position.z;
      quat.copy(b.previousRotation as Quat, b.rotation);
    }

    const J = this.jointStage;
    if (J !== null) J.prepare(this.jointList, B, S, h, dt);

    C.countInFlight = this.ctx.firstPart && this.ctx.finalPart ? 1 : 0;
    const shock = soft && S.shockPropagation && this.shock.build(C, B, S, dt) > 0;
    if (soft) {
      // One softness for every contact (Box2D v3 doubles the hertz against
      // static bodies; not here: docs/solver.md).
      this.softness.set(Math.min(S.contactHertz, 0.25 / h), S.contactDampingRatio, h);
      // The rows hold the separations at the poses of this version (the
      // step's start); a sweep after any pose change measures them again.
      C.measuredVersion = B.poseVersion;
      const stepCount = this.ctx.stepCount;
      for (let sub = 0; sub < subSteps; sub++) {
        integrateVelocities(B, h);
        if (J !== null) J.beginSubStep(B);
        if (S.warmStarting && J !== null) J.warmStart(B);
        warmStartContacts(C, B, S);
        // Joints after contacts: the last rows solved win, and a ragdoll's
        // joints must not be pulled apart by its limbs' ground contacts.
        // Gauss-Seidel favours the rows it visits last, so no fixed sweep
        // pattern may repeat: the direction alternates within a sub-step,
        // between sub-steps and every other step, and the first corner of
        // each manifold advances every sweep (docs/solver.md).
        const flip = stepCount & 1;
        // >>>: a step count past 2^31 (restored or written) must not rotate backwards.
        const rot = stepCount >>> 1;
        for (let it = 0; it < S.subStepIterations; it++) {
          if (B.poseVersion !== C.measuredVersion) measureSeparations(C, B);
          solveContacts(C, B, S, h, SWEEP_SOFT, this.softness, ((sub + flip + it) & 1) === 1, sub + rot + it);
          if (J !== null) J.solveVelocities(B, h, true);
        }
        if (shock) this.shock.solve(C, B, h, 3);
        integratePositions(B, h);
        // Bodies that turned far since their world inertia was taken get it
        // and their contact rows anew (SolverBodies.refreshInertia).
        if (B.refreshInertia() > 0) refreshContactRows(C, B);
        for (let it = 0; it < S.relaxIterations; it++) {
          if (B.poseVersion !== C.measuredVersion) measureSeparations(C, B);
          solveContacts(C, B, S, h, SWEEP_RELAX, this.softness, ((sub + flip + it) & 1) === 0, sub + 2 + rot + it);
          if (J !== null) {
            // The projection turns bodies outside the integration: those that
            // turned far take their inertia and contact rows anew, together,
            // before any row acts on them again. A stale inertia, or rows whose
            // effective mass disagrees with the body's response, spin thin
            // bodies up (docs/joints.md).
            if (J.project(B, h) && B.refreshInertia() > 0) refreshContactRows(C, B);
            J.solveVelocities(B, h, false);
          }
        }
        endContactSubStep(C);
      }
      applyRestitution(C, B, S);
    } else {
      integrateVelocities(B, h);
      if (J !== null) J.beginSubStep(B);
      if (S.warmStarting && J !== null) J.warmStart(B);
      warmStartContacts(C, B, S);
      const mode = S.positionCorrection === 'baumgarte' ? SWEEP_BAUMGARTE : SWEEP_RIGID;
      for (let it = 0; it < S.velocityIterations; it++) {
        solveContacts(C, B, S, h, mode, this.softness, (it & 1) === 1, it);
        if (J !== null) J.solveVelocities(B, h, mode === SWEEP_BAUMGARTE);
      }
      endContactSubStep(C);
      applyRestitution(C, B, S);
      integratePositions(B, h);
      if (S.positionCorrection === 'ngs') {
        for (let it = 0; it < S.positionIterations; it++) {
          const jointError = J === null ? 0 : J.solvePositions(B);
          const contactError = solveContactPositions(C, B, S);
          if (contactError <= S.linearSlop * 1.5 && jointError <= S.linearSlop) break;
        }
      }
    }
    storeContactImpulses(C);
    if (J !== null && J.storeImpulses() > 0) this.breaks.queueJointBreaks();
    this.pushedOut = pushOutOfImmovables(C, B, S);
    if (S.continuousCollision) this.continuous.run(B);
    writeBack(B, this.ctx, this.broadphase);
  }
}

/** Adds a contact's normal against an immovable body to the moving side's ground normals, pointing out of the immovable one (SolverBodies.grounded); a normal within about 2.5° of one already kept is not added again. */
function recordGround(B: SolverBodies, c: Contact): void {
  const ia = c.bodyA!.solverIndex, ib = c.bodyB!.solverIndex;
  const fixedA = B.invMass[ia] === 0, fixedB = B.invMass[ib] === 0;
  if (fixedA === fixedB) return;
  const d = c.store.data, o = c.base + POINT_NORMAL;
  const s = fixedA ? 1 : -1, i = fixedA ? ib : ia;
  const nx = s * d[o]!, ny = s * d[o + 1]!, nz = s * d[o + 2]!;
  const G = B.groundNormal, k = B.grounded[i]!, g = i * 3 * GROUND_NORMALS;
  if (k === GROUND_NORMALS) return;
  for (let m = 0; m < k; m++) {
    const q = g + 3 * m;
    if (G[q]! * nx + G[q + 1]! * ny + G[q + 2]! * nz > 0.999) return;
  }
  const q = g + 3 * k;
  G[q] = nx; G[q + 1] = ny; G[q + 2] = nz;
  B.groundSunk[i * GROUND_NORMALS + k] = 0;
  B.grounded[i] = k + 1;
}
