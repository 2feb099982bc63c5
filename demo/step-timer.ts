import type { World } from '../src/index';
import type { StepStats } from './types';

/**
 * Advances the world by frame time and measures the wall-clock cost of each
 * fixed step: the time spent in `world.advance` divided by the number of
 * steps it took (the change in `world.stepCount`), averaged over a window so
 * that the HUD does not flicker.
 */
export class StepTimer {
  readonly stats: StepStats = { steps: 0, simSeconds: 0, msPerStep: 0, frames: 0 };
  private readonly world: World;
  private windowMs = 0;
  private windowSteps = 0;

  constructor(world: World) {
    this.world = world;
  }

  /** Runs `world.advance(frameSeconds)` and adds its duration to the current window. */
  advance(frameSeconds: number): void {
    const world = this.world;
    const before = world.stepCount;
    const t0 = performance.now();
    world.advance(frameSeconds);
    this.windowMs += performance.now() - t0;
    const taken = world.stepCount - before;
    this.windowSteps += taken;
    this.stats.steps += taken;
    this.stats.simSeconds += taken * world.fixedTimeStep;
  }

  /** Publishes the mean cost per step over the window since the last call and starts a new one. */
  endWindow(): void {
    if (this.windowSteps > 0) this.stats.msPerStep = this.windowMs / this.windowSteps;
    this.windowMs = 0;
    this.windowSteps = 0;
  }
}
