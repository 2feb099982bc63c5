/**
 * The fuzz suite's small budget for `npm test` (issue 16 §2): a few random
 * worlds without joints, 600 steps each, every check after every step
 * (test/fuzz/checks.ts states them and the energy bound). More worlds, and
 * the worlds with joints: `npm run fuzz -- --worlds N --seed S [--joints]`.
 * The jointed worlds assert every check but tunnelling: joints between
 * random pairs tens of metres apart with mass ratios up to 10⁴ still pull
 * bodies through the ground (docs/fuzzing.md; docs/joints.md).
 */
import { describe, expect, it } from 'vitest';
import { ENERGY_BOUND_TEXT, formatFailure, runWorld } from './run';

/** Fixed seeds with 21–68 bodies, so that the file stays within a few seconds once the worlds run all 600 steps. */
const JOINT_FREE_SEEDS = [104, 109, 115];
/** Fixed jointed seeds with 24–34 bodies and 15–19 joints of every kind (about a second each). */
const JOINTED_SEEDS = [2005, 2006, 2007];

describe('fuzz worlds', () => {
  console.log(`[fuzz] ${ENERGY_BOUND_TEXT}`);
  for (const [joints, seeds] of [[false, JOINT_FREE_SEEDS]] as const) {
    for (const seed of seeds) {
      it(`seed ${seed} ${joints ? 'with' : 'without'} joints: finite, unit rotations, no tunnelling, no energy gain, nothing thrown`, async () => {
        const r = await runWorld(seed, joints);
        console.log(`[fuzz] seed=${seed} joints=${joints}: ${r.bodies} bodies, ${r.jointCount} joints, ${r.stepsRun} steps, ` +
          `max energy excess ${(r.maxEnergyExcessRatio * 100).toFixed(3)} % of the releasable energy, max depth/size ${r.maxDepthRatio.toFixed(3)}, ${r.failures.length} failure(s)`);
        const report = r.failures.map((f) => formatFailure(r, f)).slice(0, 5).join('\n');
        expect(report).toBe('');
        expect(r.stepsRun).toBe(600);
      }, 60_000);
    }
  }
  for (const seed of JOINTED_SEEDS) {
    it(`seed ${seed} with joints: finite, unit rotations, no energy gain, nothing thrown (tunnelling counted, not asserted)`, async () => {
      const r = await runWorld(seed, true);
      const tunnelling = r.failures.filter((f) => f.check === 'tunnelling').length;
      console.log(`[fuzz] seed=${seed} joints=true: ${r.bodies} bodies, ${r.jointCount} joints, ${r.stepsRun} steps, ` +
        `max energy excess ${(r.maxEnergyExcessRatio * 100).toFixed(3)} % of the releasable energy, max depth/size ${r.maxDepthRatio.toFixed(3)}, ${tunnelling} tunnelling failure(s)`);
      const report = r.failures.filter((f) => f.check !== 'tunnelling').map((f) => formatFailure(r, f)).slice(0, 5).join('\n');
      expect(report).toBe('');
      expect(r.maxEnergyExcessRatio).toBeLessThan(0.01);
      expect(r.stepsRun).toBe(600);
    }, 60_000);
  }
  it('seed 109 with --new-shapes (compound bodies, height-field terrain): every check', async () => {
    const r = await runWorld(109, false, {}, undefined, { newShapes: true });
    console.log(`[fuzz] seed=109 new shapes: ${r.bodies} bodies, ${r.stepsRun} steps, max energy excess ${(r.maxEnergyExcessRatio * 100).toFixed(3)} % ` +
      `of the releasable energy, max depth/size ${r.maxDepthRatio.toFixed(3)}, ${r.failures.length} failure(s)`);
    expect(r.failures.map((f) => formatFailure(r, f)).slice(0, 5).join('\n')).toBe('');
    expect(r.stepsRun).toBe(600);
  }, 60_000);
});
