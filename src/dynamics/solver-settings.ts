/**
 * The solver's live settings: changed between steps, they take effect on the
 * next step. Defaults and the reasons for them are on each field.
 */

/** How the friction rows are bounded (docs/solver.md, "Friction models"). */
export type FrictionModel = 'constant' | 'catto2005' | 'coulomb';
/** How penetration is removed (docs/solver.md, "Position correction"). */
export type PositionCorrection = 'ngs' | 'baumgarte' | 'soft';

export interface SolverSettings {
  /** Sequential-impulse sweeps over all rows per step, for 'ngs' and 'baumgarte' ('soft' uses subStepIterations). Default 8, integer in [1, 1000]. */
  velocityIterations: number;
  /** Nonlinear Gauss-Seidel position sweeps per step ('ngs' only; they stop early once the error is within the slop). Default 3, integer in [0, 1000]. */
  positionIterations: number;
  /** Apply last step's accumulated impulses first (matched by feature id). Default true. */
  warmStarting: boolean;
  /** Friction bound: 'constant' (default; μ × last step's normal impulse, fixed during the step), 'catto2005' (μ m_c |g| dt), 'coulomb' (μ × current normal impulse). */
  frictionModel: FrictionModel;
  /** SOR factor ω scaling each impulse increment. Default 1, range [0.1, 2) (below, too little of each impulse lands and stacks sink through their floor). */
  relaxation: number;
  /** 'soft' (default: Box2D v3 soft step with sub-steps), 'ngs' (pseudo-velocity position sweeps) or 'baumgarte' (velocity bias). */
  positionCorrection: PositionCorrection;
  /** Penetration (m) left uncorrected by 'ngs' and 'baumgarte', to keep contacts alive ('soft' needs none). Default 0.005, finite ≥ 0. */
  linearSlop: number;
  /** Baumgarte factor β (1/step) for 'baumgarte' and the NGS sweeps. Default 0.2, in [0, 1] (above 1 a step pushes out more than the penetration). */
  baumgarte: number;
  /** Cap on the speed (m/s) at which penetration is pushed out. Default 3, in [0, MAX_LINEAR_SPEED]. */
  maxCorrectionVelocity: number;
  /**
   * Solver sub-steps per step for 'soft' (not to be confused with
   * World.maxStepsPerAdvance, the fixed steps per `advance`). Default 4
   * (Box2D v3's count): 240 Hz sub-steps at 60 Hz, which caps contactHertz
   * at 60. Integer in [1, 64]; subSteps × (subStepIterations +
   * relaxIterations) at most 1024 sweeps a step (docs/world.md).
   */
  subSteps: number;
  /**
   * Biased sweeps (soft rows with the push-out) per sub-step, for 'soft'.
   * Default 2, integer in [1, 100]: the base-40 pyramid stays in plane with
   * two, for less work than doubling the sub-steps (docs/solver.md).
   */
  subStepIterations: number;
  /** Relax sweeps (no bias: removes the push-out velocity) per sub-step, for 'soft'. Default 1, integer in [0, 100]. */
  relaxIterations: number;
  /**
   * Shock propagation ('soft'): before the positions move in each sub-step,
   * one bottom-up sweep over touching contacts treats the body nearer the
   * ground (in contact steps) as immovable and stops the one above it from
   * approaching. Keeps a heavy body from crushing light ones under it (a
   * 20 m cube on two 1 m cubes) where the iterations alone are far from
   * converged. Default true.
   */
  shockPropagation: boolean;
  /**
   * Contact stiffness (Hz) for 'soft', capped at a quarter of the sub-step
   * rate. Default 60 (the cap at 4 sub-steps of a 60 Hz step): softer
   * columns buckle (docs/solver.md). Finite ≥ 0.
   */
  contactHertz: number;
  /** Contact damping ratio for 'soft' (≫ 1 is over-damped: no bounce from the push-out). Default 10 (Box2D v3's choice), finite ≥ 0. */
  contactDampingRatio: number;
  /** Relative normal speed (m/s) below which restitution is ignored. Default 1, finite ≥ 0. */
  restitutionThreshold: number;
  /** Extra contact distance (m) kept as speculative points. Default 0.02, finite ≥ 0. */
  speculativeDistance: number;
  /**
   * The fraction of a speculative gap that a contact on a body with joints
   * (a ragdoll limb, a chain link) lets close in one (sub-)step, when
   * the approach is faster than 0.5 m/s. Default 0.2, range (0, 1]; 1 is the
   * plain speculative contact (the whole gap, no more), which free bodies
   * always use. A limb hitting the ground is held by its contact and pulled
   * by its joint to a body many times heavier, and the joints, solved last,
   * win within the one sub-step in which a whole gap closes; closing part of
   * the gap per sub-step starts the contact pushing earlier (docs/solver.md).
   */
  jointedSpeculativeRate: number;
  /**
   * Largest turn (rad) a thin body (one at least five times as long as it is
   * thick: sticks, planks, poles) in contact range may make in one step. A
   * step in which such an awake dynamic body with a pair turns further is split into
   * ⌈turn / maxTurnPerStep⌉ steps (at most 16), each with its own
   * narrowphase: contact points are found at a step's start pose, and a thin
   * body turning far within the step brings other parts of itself to the
   * surface, which none of them holds (docs/contact-energy.md). Unlike a
   * speed cap this changes nothing in the motion; it costs the split steps.
   * Default 0.3, range (0, ∞]; Infinity never splits.
   */
  maxTurnPerStep: number;
  /**
   * Whether a dynamic body that moved further in a step than half its
   * thinnest half size is swept from its start to its end pose against the
   * static bodies, and put back at the first contact (dynamics/continuous.ts;
   * Box2D v3's continuous collision). It keeps bodies out of static
   * geometry when the step moved them further than their contact points
   * reached: an impact's spin, a joint's drag. Default true.
   */
  continuousCollision: boolean;
}

export function defaultSolverSettings(): SolverSettings {
  return {
    velocityIterations: 8,
    positionIterations: 3,
    warmStarting: true,
    frictionModel: 'constant',
    relaxation: 1,
    positionCorrection: 'soft',
    linearSlop: 0.005,
    baumgarte: 0.2,
    maxCorrectionVelocity: 3,
    subSteps: 4,
    subStepIterations: 2,
    relaxIterations: 1,
    shockPropagation: true,
    contactHertz: 60,
    contactDampingRatio: 10,
    restitutionThreshold: 1,
    speculativeDistance: 0.02,
    jointedSpeculativeRate: 0.2,
    maxTurnPerStep: 0.3,
    continuousCollision: true,
  };
}
