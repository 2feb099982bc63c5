/**
 * The solver's live settings: changed between steps, they take effect on the
 * next step. Defaults and the reasons for them are on each field.
 */

/** How the friction rows are bounded (see README, "Friction models"). */
export type FrictionModel = 'constant' | 'catto2005' | 'coulomb';
/** How penetration is removed (see README, "Position correction"). */
export type PositionCorrection = 'ngs' | 'baumgarte' | 'soft';

export interface SolverSettings {
  /** Sequential-impulse sweeps over all rows per step, for 'ngs' and 'baumgarte' ('soft' uses subStepIterations). Default 8, range 1–1000. */
  velocityIterations: number;
  /** Nonlinear Gauss-Seidel position sweeps per step ('ngs' only). Default 3, range 0–50. */
  positionIterations: number;
  /** Apply last step's accumulated impulses first (matched by feature id). Default true. */
  warmStarting: boolean;
  /** Friction bound: 'constant' (default; μ × last step's normal impulse, fixed during the step), 'catto2005' (μ m_c |g| dt), 'coulomb' (μ × current normal impulse). */
  frictionModel: FrictionModel;
  /** SOR factor ω scaling each impulse increment (seed 003). Default 1, range (0, 2). */
  relaxation: number;
  /** 'soft' (default: Box2D v3 soft step with sub-steps), 'ngs' (pseudo-velocity position sweeps) or 'baumgarte' (velocity bias). */
  positionCorrection: PositionCorrection;
  /** Penetration (m) left uncorrected by 'ngs' and 'baumgarte', to keep contacts alive ('soft' needs none). Default 0.005. */
  linearSlop: number;
  /** Baumgarte factor β (1/step) for 'baumgarte' and the NGS sweeps. Default 0.2. */
  baumgarte: number;
  /** Cap on the speed (m/s) at which penetration is pushed out. Default 3. */
  maxCorrectionVelocity: number;
  /**
   * Sub-steps per step for 'soft'. Default 4 (Box2D v3's count): 240 Hz
   * sub-steps at 60 Hz, which caps contactHertz at 60.
   */
  subSteps: number;
  /**
   * Biased sweeps (soft rows with the push-out) per sub-step, for 'soft'.
   * Default 2, range 1–100. Chosen by the base-40 pyramid (test/scenarios/
   * stacking): with one sweep per sub-step the 40 m wall sways out of plane
   * by 5–50 cm at 4–8 sub-steps; two sweeps hold it within 2 cm at 4
   * sub-steps, for less work than one sweep at 8 (12 passes per step, not 16).
   */
  subStepIterations: number;
  /** Relax sweeps (no bias: removes the push-out velocity) per sub-step, for 'soft'. Default 1, range 0–100. */
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
   * rate. Default 60 (the cap at 4 sub-steps of a 60 Hz step), chosen by the
   * scenarios (test/scenarios/stacking): softer columns buckle — at 30 Hz a
   * 20-cube stack topples (its tilt stiffness is below the toppling moment).
   */
  contactHertz: number;
  /** Contact damping ratio for 'soft' (≫ 1 is over-damped: no bounce from the push-out). Default 10 (Box2D v3's choice). */
  contactDampingRatio: number;
  /** Relative normal speed (m/s) below which restitution is ignored. Default 1. */
  restitutionThreshold: number;
  /** Extra contact distance (m) kept as speculative points. Default 0.02. */
  speculativeDistance: number;
  /**
   * The fraction of a speculative gap that a contact on a body with joints
   * (a ragdoll limb, a chain link) lets close in one (sub-)step, when
   * the approach is faster than 0.5 m/s. Default 0.2, range (0, 1]; 1 is the
   * plain speculative contact (the whole gap, no more), which free bodies
   * always use. A limb hitting the ground is stopped by its contact and
   * pulled on by the joint to a body ten to thirty times heavier; the
   * Gauss-Seidel sweeps cannot settle that within the one sub-step in which
   * the whole gap closes, and the joints, solved last, win: a humanoid
   * dropped from 3 m sank its upper arm 69 mm into the floor. Closing a
   * fifth of the gap per sub-step starts the contact pushing a few sub-steps
   * earlier, and the torso is slowed over those: over 72 random-orientation
   * drops the worst dip went from 69 to 25 mm and the median from 10 to
   * 0.5 mm (README, "Joints and ragdolls").
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
  };
}
