/**
 * Scene queries with endpoints far beyond the world (a finite `to` whose
 * squared distance overflows), and a QueryRegion whose public fields were
 * written. A 20 m floor box with its top at y = 0; rays from 10 m above it.
 * Tolerances: 1e-9 m on points and distances, 1e-12 relative on fractions.
 */
import { describe, expect, it } from 'vitest';
import { Box, Sphere, World } from '../../src/index';

function floorWorld(): World {
  const world = new World();
  world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
  return world;
}

describe('raycast to a far endpoint (|to − from|² overflows beyond 1.3e154)', () => {
  for (const far of [1e155, 1e200, 1e300, Number.MAX_VALUE]) {
    it(`straight down to y = −${far}: hits the floor top 10 m below, fraction 10 / (${far} + 10)`, () => {
      const hit = floorWorld().raycast({ x: 0, y: 10, z: 0 }, { x: 0, y: -far, z: 0 });
      expect(hit).not.toBeNull();
      expect(Math.abs(hit!.point.y)).toBeLessThan(1e-9);
      expect(hit!.point.x).toBe(0);
      expect(hit!.point.z).toBe(0);
      expect(hit!.normal).toEqual({ x: 0, y: 1, z: 0 });
      expect(Math.abs(hit!.distance - 10)).toBeLessThan(1e-9);
      expect(Math.abs(hit!.fraction / (10 / far) - 1)).toBeLessThan(1e-12);
    });
  }

  it('slanted to (1e300, −1e300, 0): along (1, −1, 0)/√2 it meets the floor top at x = 10, 10√2 m away', () => {
    const hit = floorWorld().raycast({ x: 0, y: 10, z: 0 }, { x: 1e300, y: -1e300, z: 0 });
    expect(hit).not.toBeNull();
    expect(Math.abs(hit!.point.x - 10)).toBeLessThan(1e-9);
    expect(Math.abs(hit!.point.y)).toBeLessThan(1e-9);
    expect(Math.abs(hit!.distance - 10 * Math.SQRT2)).toBeLessThan(1e-9);
    // |to − from| = √2·1e300 (the 10 m offset is below the last bit).
    expect(Math.abs(hit!.fraction / (10 / 1e300) - 1)).toBeLessThan(1e-12);
  });

  it('a small slope far away: to (1e-3, −1e200, 0) from (0, 10, 0) is straight down to the last bit', () => {
    const hit = floorWorld().raycast({ x: 0, y: 10, z: 0 }, { x: 1e-3, y: -1e200, z: 0 });
    expect(hit).not.toBeNull();
    expect(Math.abs(hit!.point.x)).toBeLessThan(1e-9);
    expect(Math.abs(hit!.distance - 10)).toBeLessThan(1e-9);
  });

  it('both ends at ±1.7e308 (to − from overflows itself): the ray along the floor box hits its side at half the segment', () => {
    // From x = −1.7e308 the side x = −10 is 1.7e308 − 10 away, which rounds to 1.7e308: fraction 1/2.
    const hit = floorWorld().raycast({ x: -1.7e308, y: -0.5, z: 0 }, { x: 1.7e308, y: -0.5, z: 0 });
    expect(hit).not.toBeNull();
    expect(hit!.normal).toEqual({ x: -1, y: 0, z: 0 });
    expect(hit!.distance).toBe(1.7e308);
    expect(hit!.fraction).toBe(0.5);
  });
});
