// The contract of what the World steps after the rigid bodies (World.addStepper).
import type { StepperSnapshot } from './snapshot';
import type { World } from './world';

/**
 * Something the World steps after the rigid bodies each step (e.g. a Verlet
 * ParticleSystem). `postStep` may run queries on the world and apply impulses
 * to bodies (they take effect next step); it must not add bodies, and a body
 * it removes is removed at the end of the step (see `removeBody`).
 */
export interface WorldStepper {
  /**
   * Optional: runs once at the start of every step, before anything moves,
   * with the whole step's dt — the place to set kinematic targets or read
   * input for the step about to run.
   */
  preStep?(world: World, dt: number): void;
  /** Runs after the rigid bodies moved, once per part of a split step (dt is the part's). */
  postStep(world: World, dt: number): void;
  /**
   * Optional, for `World.snapshot`: the stepper's state as typed arrays (its
   * own layout). A stepper without it is left as it is by `restore`.
   */
  snapshotState?(): StepperSnapshot;
  /** Throws (a SnapshotError naming the problem) when `state` cannot be restored; changes nothing. */
  validateState?(state: StepperSnapshot, world: World): void;
  /** Restores a state `validateState` accepted. */
  restoreState?(state: StepperSnapshot, world: World): void;
}
