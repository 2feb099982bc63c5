/**
 * Live solver and sleep settings. Changed between steps, they take effect on
 * the next step. Defaults and the reasons for them are on each field.
 */
import type { SolverSettings } from '../dynamics/solver-settings';
import type { Joint } from '../joints/joint';
import type { JointSolverSettings } from '../joints/joint-solver';
import type { Vec3 } from '../math/vec3';
import { MAX_GRAVITY, MAX_LINEAR_SPEED, MAX_TIME_STEP, requireBoolean, requireInRange, requireInteger, requireNonNegative } from '../math/validate';

export { defaultSolverSettings, type FrictionModel, type PositionCorrection, type SolverSettings } from '../dynamics/solver-settings';

/** Checked at the start of every step (a named RangeError/TypeError before anything moves). */
export interface SleepSettings {
  /** A boolean. Default true. */
  enabled: boolean;
  /** m/s, finite ≥ 0. Default 0.05. */
  linearThreshold: number;
  /** rad/s, finite ≥ 0. Default 0.05. */
  angularThreshold: number;
  /** Seconds an island must stay below the thresholds, finite > 0. Default 0.5. */
  timeToSleep: number;
}

export function defaultSleepSettings(): SleepSettings {
  return { enabled: true, linearThreshold: 0.05, angularThreshold: 0.05, timeToSleep: 0.5 };
}

/**
 * The live settings objects (solver, sleeping, jointSettings, gravity) and
 * the joints' frames are plain writable fields: the world checks them here,
 * at the start of each step, before anything changes.
 */
export function checkWorldSettings(g: Readonly<Vec3>, sl: SleepSettings, js: JointSolverSettings, s: SolverSettings, joints: readonly Joint[]): void {
  // typeof as well: a comparison would let a numeric string through, and a string concatenates where a number adds.
  if (!(typeof g.x === 'number' && typeof g.y === 'number' && typeof g.z === 'number' && Math.abs(g.x) <= MAX_GRAVITY && Math.abs(g.y) <= MAX_GRAVITY && Math.abs(g.z) <= MAX_GRAVITY)) {
    requireInRange(g.x, -MAX_GRAVITY, MAX_GRAVITY, 'world.gravity.x');
    requireInRange(g.y, -MAX_GRAVITY, MAX_GRAVITY, 'world.gravity.y');
    requireInRange(g.z, -MAX_GRAVITY, MAX_GRAVITY, 'world.gravity.z');
  }
  // Inline comparisons on the fast path, calls only to name a bad field (see the contributor notes on boxed doubles).
  if (!(
    (sl.enabled === true || sl.enabled === false) && typeof sl.linearThreshold === 'number' && typeof sl.angularThreshold === 'number' &&
    typeof sl.timeToSleep === 'number' && typeof js.jointHertz === 'number' && typeof js.jointDampingRatio === 'number' &&
    typeof js.jointIterations === 'number' && typeof js.limitSlop === 'number' && typeof js.anchorSlop === 'number' && sl.linearThreshold >= 0 && sl.linearThreshold < Infinity &&
    sl.angularThreshold >= 0 && sl.angularThreshold < Infinity && sl.timeToSleep > 0 && sl.timeToSleep < Infinity &&
    js.jointHertz >= 0 && js.jointHertz <= 1e6 && js.jointDampingRatio >= 0 && js.jointDampingRatio <= 1000 &&
    js.jointIterations >= 1 && js.jointIterations <= MAX_JOINT_ITERATIONS && Math.floor(js.jointIterations) === js.jointIterations &&
    (js.projection === true || js.projection === false) && js.limitSlop >= 0 && js.limitSlop <= Math.PI && js.anchorSlop >= 0 && js.anchorSlop < Infinity
  )) {
    requireBoolean(sl.enabled, 'sleeping.enabled');
    requireNonNegative(sl.linearThreshold, 'sleeping.linearThreshold');
    requireNonNegative(sl.angularThreshold, 'sleeping.angularThreshold');
    if (!(typeof sl.timeToSleep === 'number' && sl.timeToSleep > 0 && sl.timeToSleep < Infinity)) throw new RangeError(`sleeping.timeToSleep must be a finite number > 0 (got ${String(sl.timeToSleep)})`);
    requireInRange(js.jointHertz, 0, 1e6, 'jointSettings.jointHertz');
    requireInRange(js.jointDampingRatio, 0, 1000, 'jointSettings.jointDampingRatio');
    requireInteger(js.jointIterations, 1, MAX_JOINT_ITERATIONS, 'jointSettings.jointIterations');
    requireBoolean(js.projection, 'jointSettings.projection');
    requireInRange(js.limitSlop, 0, Math.PI, 'jointSettings.limitSlop');
    requireNonNegative(js.anchorSlop, 'jointSettings.anchorSlop');
  }
  for (let i = 0; i < joints.length; i++) {
    const j = joints[i]!;
    if (!j.framesValid()) j.checkFrames();
  }
  checkInt(s.velocityIterations, 1, 1000, 'velocityIterations');
  checkInt(s.positionIterations, 0, 1000, 'positionIterations');
  checkInt(s.subSteps, 1, 64, 'subSteps');
  checkInt(s.subStepIterations, 1, 100, 'subStepIterations');
  checkInt(s.relaxIterations, 0, 100, 'relaxIterations');
  if (typeof s.warmStarting !== 'boolean') throw new TypeError(`solver.warmStarting must be a boolean (got ${String(s.warmStarting)})`);
  if (typeof s.continuousCollision !== 'boolean') throw new TypeError(`solver.continuousCollision must be a boolean (got ${String(s.continuousCollision)})`);
  if (typeof s.shockPropagation !== 'boolean') throw new TypeError(`solver.shockPropagation must be a boolean (got ${String(s.shockPropagation)})`);
  if (!(typeof s.maxTurnPerStep === 'number' && s.maxTurnPerStep > 0)) throw new RangeError(`solver.maxTurnPerStep must be a number > 0 or Infinity (got ${String(s.maxTurnPerStep)})`);
  if (!(typeof s.relaxation === 'number' && s.relaxation >= MIN_RELAXATION && s.relaxation < 2)) {
    throw new RangeError(`solver.relaxation must be in [${MIN_RELAXATION}, 2) (got ${String(s.relaxation)})`);
  }
  if (s.frictionModel !== 'constant' && s.frictionModel !== 'catto2005' && s.frictionModel !== 'coulomb') {
    throw new RangeError(`solver.frictionModel must be 'constant', 'catto2005' or 'coulomb' (got ${String(s.frictionModel)})`);
  }
  if (s.positionCorrection !== 'ngs' && s.positionCorrection !== 'baumgarte' && s.positionCorrection !== 'soft') {
    throw new RangeError(`solver.positionCorrection must be 'ngs', 'baumgarte' or 'soft' (got ${String(s.positionCorrection)})`);
  }
  checkNonNegative(s.linearSlop, 'linearSlop');
  // β > 1 pushes out more than the penetration each step, so a resting body
  // overshoots ever further; the push's speed is capped at what a body may be given.
  if (!(typeof s.baumgarte === 'number' && s.baumgarte >= 0 && s.baumgarte <= 1)) requireInRange(s.baumgarte, 0, 1, 'solver.baumgarte');
  if (!(typeof s.maxCorrectionVelocity === 'number' && s.maxCorrectionVelocity >= 0 && s.maxCorrectionVelocity <= MAX_LINEAR_SPEED)) {
    requireInRange(s.maxCorrectionVelocity, 0, MAX_LINEAR_SPEED, 'solver.maxCorrectionVelocity');
  }
  checkNonNegative(s.contactHertz, 'contactHertz');
  checkNonNegative(s.contactDampingRatio, 'contactDampingRatio');
  checkNonNegative(s.restitutionThreshold, 'restitutionThreshold');
  checkNonNegative(s.speculativeDistance, 'speculativeDistance');
  if (!(typeof s.jointedSpeculativeRate === 'number' && s.jointedSpeculativeRate > 0 && s.jointedSpeculativeRate <= 1)) {
    throw new RangeError(`solver.jointedSpeculativeRate must be in (0, 1] (got ${String(s.jointedSpeculativeRate)})`);
  }
  // The per-field maxima multiply: bound the sweeps a step makes (docs/world.md, the limits table).
  const softSweeps = s.subSteps * (s.subStepIterations + s.relaxIterations);
  if (softSweeps > MAX_SOFT_SWEEPS) {
    throw new RangeError(`solver.subSteps × (subStepIterations + relaxIterations) must be at most ${MAX_SOFT_SWEEPS} sweeps a step (got ${s.subSteps} × (${s.subStepIterations} + ${s.relaxIterations}) = ${softSweeps})`);
  }
  const sweeps = s.positionCorrection === 'soft' ? softSweeps : s.velocityIterations;
  if (sweeps * js.jointIterations > MAX_JOINT_SWEEPS) {
    const of = s.positionCorrection === 'soft' ? 'solver.subSteps × (subStepIterations + relaxIterations)' : 'solver.velocityIterations';
    throw new RangeError(`jointSettings.jointIterations × ${of} must be at most ${MAX_JOINT_SWEEPS} joint sweeps a step (got ${js.jointIterations} × ${sweeps} = ${sweeps * js.jointIterations})`);
  }
}

/** jointSettings.jointIterations' upper bound: each sweep costs about as much as the rest of a ragdoll step. */
const MAX_JOINT_ITERATIONS = 100;
/**
 * Smallest solver.relaxation: a smaller ω leaves so little of each impulse
 * that resting boxes sink through the floor (docs/world.md, the limits table).
 */
const MIN_RELAXATION = 0.1;
/**
 * Most contact sweeps a 'soft' step may make, subSteps × (subStepIterations
 * + relaxIterations): about the rigid modes' velocityIterations maximum.
 */
const MAX_SOFT_SWEEPS = 1024;
/** Most joint sweeps a step may make (jointIterations per contact sweep). */
const MAX_JOINT_SWEEPS = 10000;

/**
 * A step in (0, MAX_TIME_STEP]. Longer steps are refused rather than
 * sub-divided: `step` is one fixed step of the pipeline (one set of events,
 * one stepper call); `advance` is the call that splits frame time.
 */
export function checkTimeStep(dt: number, field: string): void {
  if (typeof dt !== 'number' || !(dt > 0) || !(dt <= MAX_TIME_STEP)) {
    const hint = field === 'dt' ? '; world.advance(seconds) covers longer times in fixed steps' : '';
    throw new RangeError(`${field} must be a number in (0, ${MAX_TIME_STEP}] seconds (got ${String(dt)})${hint}`);
  }
}

function checkInt(v: number, lo: number, hi: number, field: string): void {
  if (!Number.isInteger(v) || v < lo || v > hi) throw new RangeError(`solver.${field} must be an integer in [${lo}, ${hi}] (got ${String(v)})`);
}

function checkNonNegative(v: number, field: string): void {
  if (!Number.isFinite(v) || v < 0) throw new RangeError(`solver.${field} must be a finite number ≥ 0 (got ${String(v)})`);
}

