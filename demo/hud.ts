// The HUD: text stats refreshed a few times a second and a small live plot of
// the character solver's NGS iterations per frame on a 2D canvas.
import type { Engine } from '@babylonjs/core/Engines/engine';
import type { World } from '../src/index';
import type { Walker } from '../character/index';
import type { CharacterFrameStats } from '../src/babylon/index';
import type { StepStats } from './types';

const PLOT_SAMPLES = 120;

export class Hud {
  private readonly text: HTMLElement;
  private readonly plot: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly samples = new Float64Array(PLOT_SAMPLES);
  private head = 0;
  private filled = 0;

  constructor(text: HTMLElement, plot: HTMLCanvasElement) {
    this.text = text;
    this.plot = plot;
    this.ctx = plot.getContext('2d')!;
  }

  /** Adds this frame's iteration count to the plot (called every frame). */
  sample(iterations: number): void {
    this.samples[this.head] = iterations;
    this.head = (this.head + 1) % PLOT_SAMPLES;
    if (this.filled < PLOT_SAMPLES) this.filled++;
  }

  drawPlot(): void {
    const c = this.ctx;
    const w = this.plot.width, h = this.plot.height;
    c.clearRect(0, 0, w, h);
    c.fillStyle = 'rgba(0,0,0,0.55)';
    c.fillRect(0, 0, w, h);
    let max = 8;
    for (let i = 0; i < this.filled; i++) max = Math.max(max, this.samples[i]!);
    c.strokeStyle = '#7fdc6f';
    c.lineWidth = 1.5;
    c.beginPath();
    for (let i = 0; i < this.filled; i++) {
      const v = this.samples[(this.head - this.filled + i + PLOT_SAMPLES) % PLOT_SAMPLES]!;
      const x = (i / (PLOT_SAMPLES - 1)) * w;
      const y = h - 12 - (v / max) * (h - 16);
      if (i === 0) c.moveTo(x, y); else c.lineTo(x, y);
    }
    c.stroke();
    c.fillStyle = '#e8e8e8';
    c.font = '10px monospace';
    c.fillText(`NGS iterations / frame (max ${max.toFixed(0)})`, 4, h - 2);
  }

  write(engine: Engine, world: World, stats: StepStats, walker: Walker, solver: CharacterFrameStats, extra: string): void {
    let awake = 0, asleep = 0;
    const bodies = world.bodies;
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i]!;
      if (!b.isDynamic) continue;
      if (b.isSleeping) asleep++; else awake++;
    }
    const p = walker.controller.position;
    const counters = world.counters;
    this.text.textContent =
      `fps       ${engine.getFps().toFixed(1)}\n` +
      `physics   ${stats.msPerStep.toFixed(2)} ms/step  (${stats.stepsPerFrame.toFixed(1)} steps/frame)${stats.paused ? '  PAUSED' : ''}\n` +
      `bodies    ${awake} awake, ${asleep} asleep, ${bodies.length} total\n` +
      `contacts  ${counters.pairs} pairs, ${counters.touchingContacts} touching, ${counters.islands} islands   joints ${world.joints.length}\n` +
      `character ${walker.state}${walker.controller.result.steppedUp ? ' (step)' : ''}  ` +
      `(${p.x.toFixed(2)}, ${p.y.toFixed(2)}, ${p.z.toFixed(2)})\n` +
      `solver    ${solver.iterations} it (max ${solver.maxSolveIterations}/solve), ${solver.sweeps} sweeps, ` +
      `${solver.planes} planes, ${solver.grounded ? 'grounded' : 'not grounded'}\n` +
      extra;
    this.drawPlot();
  }
}
