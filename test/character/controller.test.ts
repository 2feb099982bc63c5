/**
 * CharacterController scenarios (60 Hz moves, default settings: skin 1 cm,
 * 32 NGS iterations, 5 sweeps, tolerance 0.1 mm). Expected values are worked
 * out by hand in each test.
 */
import { describe, expect, it } from 'vitest';
import { Box, World } from '../../src/index';
import { CharacterController } from '../../character/index';
import { DT, REST_Y, flatWorld, penetration, staticBox } from './helpers';

describe('CharacterController on flat ground', () => {
  it('walks 5 m at 4 m/s and arrives within 1 cm, no bobbing over 1 mm', () => {
    const { world } = flatWorld();
    const c = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } });
    let minY = Infinity, maxY = -Infinity;
    const step = { x: 4 * DT, y: 0, z: 0 };
    for (let i = 0; i < 75; i++) {
      const r = c.move(step);
      expect(r.grounded).toBe(true);
      minY = Math.min(minY, r.position.y);
      maxY = Math.max(maxY, r.position.y);
    }
    expect(Math.abs(c.position.x - 5)).toBeLessThan(0.01);
    expect(Math.abs(c.position.y - REST_Y)).toBeLessThan(0.01);
    expect(maxY - minY).toBeLessThan(0.001);
    expect(c.result.groundNormal.y).toBeCloseTo(1, 6);
  });
});
