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

/**
 * Main-thread milliseconds of each frame's JS work before rendering (physics
 * or, in worker mode, reading the streamed poses; links, camera, HUD sample),
 * for comparing the two modes (docs/worker.md).
 */
export class FrameTimer {
  private readonly samples = new Float64Array(4096);
  private count = 0;

  add(ms: number): void {
    this.samples[this.count % this.samples.length] = ms;
    this.count++;
  }

  reset(): void { this.count = 0; }

  /** Mean and 95th percentile over the frames since the last reset (at most the last 4096). */
  summary(): { frames: number; mean: number; p95: number } {
    const n = Math.min(this.count, this.samples.length);
    if (n === 0) return { frames: 0, mean: 0, p95: 0 };
    const sorted = Array.from(this.samples.subarray(0, n)).sort((a, b) => a - b);
    let sum = 0;
    for (const v of sorted) sum += v;
    return { frames: this.count, mean: sum / n, p95: sorted[Math.min(n - 1, Math.floor(0.95 * n))]! };
  }
}
