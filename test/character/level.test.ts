/** The benchmark level run by footing for 10 s (60 Hz): no character ever penetrates > 1 mm. */
import { describe, expect, it } from 'vitest';
import { characterLevel } from './level';
import { footingRunner, PenetrationChecker } from './level-runners';

describe('character benchmark level', () => {
  it('100 characters for 600 frames: no frame with a penetration > 1 mm', () => {
    const level = characterLevel(100, 200);
    const runner = footingRunner(level);
    const checker = new PenetrationChecker(level);
    const positions = new Float64Array(300);
    let bad = 0, deepest = 0, moved = 0;
    runner.readPositions(positions);
    const start = positions.slice();
    const t0 = performance.now();
    let timed = 0;
    for (let f = 0; f < 600; f++) {
      const a = performance.now();
      runner.frame();
      timed += performance.now() - a;
      runner.readPositions(positions);
      const d = checker.deepest(positions, 100);
      if (d > 0.001) bad++;
      deepest = Math.max(deepest, d);
    }
    for (let i = 0; i < 100; i++) moved += Math.hypot(positions[3 * i]! - start[3 * i]!, positions[3 * i + 2]! - start[3 * i + 2]!);
    console.log(`footing: ${(timed / 600).toFixed(3)} ms/frame (total ${(performance.now() - t0).toFixed(0)} ms with checks), deepest ${(deepest * 1000).toFixed(3)} mm, ${bad} bad frames, mean horizontal travel ${(moved / 100).toFixed(1)} m`);
    expect(bad).toBe(0);
    // they do walk (40 m at 4 m/s if never blocked)
    expect(moved / 100).toBeGreaterThan(10);
  });
});
