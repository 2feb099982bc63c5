// examples/babylon.ts, the code of docs/babylon.md, run with Babylon's
// NullEngine: 2 s of walking at a 144 Hz render rate over 60 Hz physics.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';

describe('docs/babylon.md example', () => {
  it('is examples/babylon.ts verbatim, and runs: the character walks, the node follows smoothly, the crate rests', async () => {
    const doc = readFileSync(new URL('../../docs/babylon.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../../examples/babylon.ts', import.meta.url), 'utf8');
    expect(doc).toContain(example.trim());
    const { createGame } = await import('../../examples/babylon');
    const game = createGame(new NullEngine());
    game.walker.setInput(0, 0, 1);
    let prevZ = game.player.position.z, prevDelta = 0, worstRatio = 1;
    for (let i = 0; i < 288; i++) {
      game.frame(1 / 144);
      const z = game.player.position.z, d = z - prevZ;
      // at full speed (4 m/s after 0.1 s; from 0.25 s) and before the crate (met at z ≈ 3.3)
      if (i > 36 && z < 3 && prevDelta > 0) worstRatio = Math.max(worstRatio, d / prevDelta, prevDelta / d);
      prevDelta = d; prevZ = z;
    }
    const p = game.walker.controller.position;
    console.log(`example: walked to z = ${p.z.toFixed(3)} in 2 s, node z = ${game.player.position.z.toFixed(3)}, worst frame-to-frame ratio before the crate ${worstRatio.toFixed(6)}; crate at y = ${game.crate.position.y.toFixed(4)}, z = ${game.crate.position.z.toFixed(3)}`);
    expect(game.walker.state).toBe('grounded');
    // 2 s at 4 m/s less the 0.05 s ramp, until the crate 4 m ahead (face at z = 3.6, capsule radius 0.3) is met and pushed
    expect(p.z).toBeGreaterThan(3);
    expect(worstRatio).toBeLessThan(1 + 1e-6);
    expect(game.crate.position.z).toBeGreaterThan(4); // pushed by the walker (20 kg at 300 N)
    expect(Math.abs(game.crate.position.y - 0.4)).toBeLessThan(0.02);
    // 288 frames of 1/144 s: 120 steps, the last one held back by rounding in the accumulator or not
    expect(game.world.stepCount).toBeGreaterThanOrEqual(119);
    expect(game.world.stepCount).toBeLessThanOrEqual(120);
  });
});
