/**
 * Scene queries with endpoints far beyond the world (a finite `to` whose
 * squared distance overflows), and a QueryRegion whose public fields were
 * written. A 20 m floor box with its top at y = 0; rays from 10 m above it.
 * Tolerances: 1e-9 m on points and distances, 1e-12 relative on fractions.
 */
import { describe, expect, it } from 'vitest';
import { Box, QueryRegion, Sphere, World, type OverlapContact } from '../../src/index';

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

describe('QueryRegion: what a caller writes on it does not reach the queries', () => {
  const ROT = { x: 0, y: 0, z: 0, w: 1 };
  /** The floor, a crate 10 m off to the side, and a region filled around the origin (±2 m: the floor only). */
  function scene(): { world: World; region: QueryRegion; crateId: number } {
    const world = floorWorld();
    const crate = world.createBody({ type: 'static', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 10, y: 3, z: 0 } });
    const region = new QueryRegion();
    world.fillQueryRegion({ min: { x: -2, y: -2, z: -2 }, max: { x: 2, y: 2, z: 2 } }, region);
    expect(region.count).toBe(1);
    return { world, region, crateId: crate.id };
  }
  /** A 1 m sphere centred on the floor top: one contact, depth 1 m, normal up. */
  function expectFloorContact(found: readonly OverlapContact[]): void {
    expect(found.length).toBe(1);
    expect(found[0]!.body.id).toBe(0);
    expect(Math.abs(found[0]!.depth - 1)).toBeLessThan(1e-9);
    expect(Math.abs(found[0]!.normal.x) + Math.abs(found[0]!.normal.z)).toBe(0);
    expect(found[0]!.normal.y).toBe(1);
  }

  for (const value of [50, 0, NaN, '1']) {
    it(`count is read-only: writing ${String(value)} throws a TypeError and the region still gives the floor contact`, () => {
      const { world, region } = scene();
      expect(() => { (region as { count: unknown }).count = value; }).toThrow(TypeError);
      expect(region.count).toBe(1);
      // It used to throw "Cannot read properties of undefined (reading 'isSensor')" (50) or find nothing.
      expectFloorContact(world.overlap(new Sphere(1), { x: 0, y: 0, z: 0 }, ROT, { region }));
      const hit = world.raycast({ x: 0, y: 1, z: 0 }, { x: 0, y: -1, z: 0 }, { region });
      expect(hit!.distance).toBe(1);
    });
  }

  it('emptying or overwriting bodies changes nothing the queries use; the next fill writes them again', () => {
    const { world, region, crateId } = scene();
    region.bodies.length = 0;
    expectFloorContact(world.overlap(new Sphere(1), { x: 0, y: 0, z: 0 }, ROT, { region }));
    expect(world.shapeCast(new Sphere(0.25), { x: 0, y: 1, z: 0 }, ROT, { x: 0, y: -1, z: 0 }, { region })!.fraction).toBeCloseTo(0.75, 5);
    expect(world.raycast({ x: 0, y: 1, z: 0 }, { x: 0, y: -1, z: 0 }, { region })!.distance).toBe(1);
    region.bodies.push(world.getBodyById(crateId)!);
    expectFloorContact(world.overlap(new Sphere(1), { x: 0, y: 0, z: 0 }, ROT, { region }));
    world.fillQueryRegion({ min: { x: -2, y: -2, z: -2 }, max: { x: 2, y: 2, z: 2 } }, region);
    expect(region.bodies.length).toBe(1);
    expect(region.bodies[0]!.id).toBe(0);
  });

  it('widening box does not make the region cover a query outside what was filled: the crate 10 m away is found', () => {
    const { world, region, crateId } = scene();
    region.box.min.x = -100; region.box.max.x = 100;
    region.box.min.y = -100; region.box.max.y = 100;
    // A 1 m sphere at the crate's centre: one contact with it, not the empty answer of a region holding only the floor.
    const found = world.overlap(new Sphere(1), { x: 10, y: 3, z: 0 }, ROT, { region });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((c) => c.body.id === crateId)).toBe(true);
    expect(world.raycast({ x: 10, y: 10, z: 0 }, { x: 10, y: 0, z: 0 }, { region })!.distance).toBeCloseTo(6.5, 9);
  });
});
