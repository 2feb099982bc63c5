/**
 * Live solver and sleep settings. Changed between steps, they take effect on
 * the next step. Defaults and the reasons for them are on each field.
 */
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
