/**
 * The public numbers of what the world did in its last step (World.counters)
 * and the optional per-stage times. Read-only for users; refreshed when
 * read, so keeping them costs the step nothing.
 */

/** The stages `World.counters.stageMs` times (when `World.measureStages` is on). */
export interface StageTimes {
  /** Kinematic targets, fat-box refits, new broadphase pairs (ms). */
  broadphase: number;
  /** The narrowphase pass over the contacts, with warm-start matching and events queued (ms). */
  narrowphase: number;
  /** Integration, contact and joint sweeps, position correction, write-back (ms). */
  solver: number;
  /** Islands and sleep (ms). */
  islands: number;
  /** Registered steppers, e.g. Verlet particle systems (ms). */
  steppers: number;
  /** Event delivery and deferred removals (ms). */
  events: number;
}

/** What the last step did. Every count is an integer ≥ 0. */
export class WorldCounters {
  /** Broadphase pairs: contacts whose fat boxes overlap, with or without points. */
  pairs = 0;
  /** Contacts with a point within the linear slop (those that raise contactBegin). */
  touchingContacts = 0;
  /** Pairs that reused last step's manifold instead of running the narrowphase (all parts of the step). */
  manifoldsReused = 0;
  /** Pairs whose narrowphase the last step skipped: apart by cheap bounds, idle or asleep (manifold reuse not counted). */
  narrowphaseSkipped = 0;
  /** Pairs the narrowphase ran for (all parts of the step). */
  narrowphaseRuns = 0;
  /** Islands of awake dynamic bodies the last step built (0 while sleeping is disabled). */
  islands = 0;
  /** Dynamic bodies that are awake. */
  awakeBodies = 0;
  /** Contact point rows of the last solve (three rows each: normal and two friction rows). */
  solverRows = 0;
  /** Joints solved in the last step. */
  solverJoints = 0;
  /** Parts the last step was split into (1 unless a thin body turned or a pair closed fast). */
  stepParts = 0;
  /** Per-stage times of the last step in ms, all 0 unless `World.measureStages` is true. */
  readonly stageMs: StageTimes = { broadphase: 0, narrowphase: 0, solver: 0, islands: 0, steppers: 0, events: 0 };
}

/** Stage indices for StageTimer.lap. */
export const STAGE_BROADPHASE = 0, STAGE_NARROWPHASE = 1, STAGE_SOLVER = 2, STAGE_ISLANDS = 3, STAGE_STEPPERS = 4, STAGE_EVENTS = 5;

/** Sums the time between laps into six stage slots; does nothing while off. */
export class StageTimer {
  on = false;
  readonly ms = new Float64Array(6);
  private last = 0;

  start(): void {
    if (!this.on) return;
    this.ms.fill(0);
    this.last = performance.now();
  }

  /** Adds the time since the previous lap (or start) to `stage`. */
  lap(stage: number): void {
    if (!this.on) return;
    const now = performance.now();
    this.ms[stage] = this.ms[stage]! + (now - this.last);
    this.last = now;
  }

  copyTo(out: StageTimes): void {
    const m = this.ms;
    out.broadphase = m[STAGE_BROADPHASE]!; out.narrowphase = m[STAGE_NARROWPHASE]!; out.solver = m[STAGE_SOLVER]!;
    out.islands = m[STAGE_ISLANDS]!; out.steppers = m[STAGE_STEPPERS]!; out.events = m[STAGE_EVENTS]!;
  }
}
