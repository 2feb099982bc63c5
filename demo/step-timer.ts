import type { StepStats } from './types';

/**
 * Wall-clock cost of the fixed steps, averaged over a window so that the HUD
 * does not flicker: time spent stepping divided by the steps taken.
 */
export class StepTimer {
  readonly stats: StepStats = { steps: 0, simSeconds: 0, msPerStep: 0, stepsPerFrame: 0, frames: 0, paused: false };
  private windowMs = 0;
  private windowSteps = 0;
  private windowFrames = 0;

  add(ms: number, steps: number, dt: number): void {
    this.windowMs += ms;
    this.windowSteps += steps;
    this.windowFrames++;
    this.stats.steps += steps;
    this.stats.simSeconds += steps * dt;
  }

  endWindow(): void {
    if (this.windowSteps > 0) this.stats.msPerStep = this.windowMs / this.windowSteps;
    if (this.windowFrames > 0) this.stats.stepsPerFrame = this.windowSteps / this.windowFrames;
    this.windowMs = 0;
    this.windowSteps = 0;
    this.windowFrames = 0;
  }
}
