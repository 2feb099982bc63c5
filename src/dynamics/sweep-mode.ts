/**
 * What a velocity sweep does with position errors: one set of names for the
 * contact rows and the joint rows. A world's positionCorrection picks the
 * modes of its sweeps: 'ngs' sweeps RIGID, 'baumgarte' BAUMGARTE, 'soft'
 * SOFT then RELAX in every sub-step.
 */
/** Rigid rows, no position bias ('ngs': the errors are removed afterwards, on the poses). */
export const SWEEP_RIGID = 0;
/** Velocity bias β/h · (error beyond the slop) ('baumgarte'). */
export const SWEEP_BAUMGARTE = 1;
/** The soft step's biased sweep: soft rows with the spring's push-out. */
export const SWEEP_SOFT = 2;
/** The soft step's relax sweep: no bias, so the push-out leaves no velocity behind. */
export const SWEEP_RELAX = 3;
/** One of SWEEP_RIGID, SWEEP_BAUMGARTE, SWEEP_SOFT, SWEEP_RELAX. */
export type SweepMode = typeof SWEEP_RIGID | typeof SWEEP_BAUMGARTE | typeof SWEEP_SOFT | typeof SWEEP_RELAX;
