/**
 * QueryRegion: overlap and shapeCast answer the same with a region as without
 * one (seeded random boxes, spheres, capsules and casts), and a region that is
 * stale (a body moved since it was filled) or too small for the query is not
 * used, so the answers stay right.
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, OverlapCollector, QueryRegion, Sphere, World, type RigidBody } from '../../src/index';
import { seeded } from '../helpers/random';

function scene(): { world: World; bodies: RigidBody[] } {
  const rng = seeded(8128, 'query region');
  const world = new World();
  const bodies: RigidBody[] = [];
  for (let i = 0; i < 150; i++) {
    const k = i % 3;
    const shape = k === 0 ? new Box({ x: rng.range(0.1, 0.6), y: rng.range(0.1, 0.6), z: rng.range(0.1, 0.6) }) : k === 1 ? new Sphere(rng.range(0.1, 0.5)) : new Capsule(rng.range(0.1, 0.3), rng.range(0.1, 0.5));
    bodies.push(world.createBody({ type: 'static', shape, position: rng.vec3(-5, 5), rotation: rng.quat() }));
  }
  return { world, bodies };
}

describe('QueryRegion', () => {
  it("gives the same overlaps, casts and raycasts as the broadphase (500 seeded queries)", () => {
    const { world } = scene();
    const rng = seeded(8129, 'query region queries');
    const region = new QueryRegion();
    const probe = new Capsule(0.3, 0.5);
    const a = new OverlapCollector(), b = new OverlapCollector();
    const rot = { x: 0, y: 0, z: 0, w: 1 };
    let used = 0, hits = 0, casts = 0, rays = 0;
    for (let q = 0; q < 500; q++) {
      const p = rng.vec3(-5, 5);
      const t = rng.vec3(-1, 1);
      world.fillQueryRegion({ min: { x: p.x - 2.5, y: p.y - 2.5, z: p.z - 2.5 }, max: { x: p.x + 2.5, y: p.y + 2.5, z: p.z + 2.5 } }, region);
      if (region.count > 0) used++;
      const with_ = world.overlap(probe, p, rot, { collector: a, region });
      const without = world.overlap(probe, p, rot, { collector: b });
      expect(with_.length).toBe(without.length);
      for (let i = 0; i < with_.length; i++) {
        expect(with_[i]!.body).toBe(without[i]!.body);
        expect(with_[i]!.depth).toBe(without[i]!.depth);
      }
      hits += with_.length;
      const c1 = world.shapeCast(probe, p, rot, t, { region });
      const c2 = world.shapeCast(probe, p, rot, t);
      expect(c1?.body).toBe(c2?.body);
      expect(c1?.fraction).toBe(c2?.fraction);
      if (c1) casts++;
      // A ray from p along 2t (within the region when |2t| ≤ 2.5 per axis).
      const to = { x: p.x + 2 * t.x, y: p.y + 2 * t.y, z: p.z + 2 * t.z };
      const r1 = world.raycast(p, to, { region });
      const r2 = world.raycast(p, to);
      expect(r1?.body).toBe(r2?.body);
      expect(r1?.distance).toBe(r2?.distance);
      if (r1) rays++;
    }
    console.log(`[query region] 500 queries: ${hits} overlap contacts, ${casts} cast hits, ${rays} ray hits, region non-empty ${used} times`);
    expect(hits).toBeGreaterThan(50);
    expect(casts).toBeGreaterThan(50);
    expect(rays).toBeGreaterThan(50);
  });

  it('is not used once stale or when the query reaches outside it', () => {
    const world = new World();
    const box = world.createBody({ type: 'static', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 10, y: 0, z: 0 } });
    const region = new QueryRegion();
    world.fillQueryRegion({ min: { x: -1, y: -1, z: -1 }, max: { x: 1, y: 1, z: 1 } }, region);
    expect(region.count).toBe(0);
    const probe = new Sphere(0.5);
    const rot = { x: 0, y: 0, z: 0, w: 1 };
    // Moved into the region's box after it was filled: found anyway.
    box.setPosition({ x: 0, y: 0, z: 0 });
    expect(world.overlap(probe, { x: 0.2, y: 0, z: 0 }, rot, { region }).length).toBeGreaterThan(0);
    // A fresh region that does not reach the query: the broadphase answers.
    world.fillQueryRegion({ min: { x: 5, y: 5, z: 5 }, max: { x: 6, y: 6, z: 6 } }, region);
    expect(region.count).toBe(0);
    expect(world.overlap(probe, { x: 0.2, y: 0, z: 0 }, rot, { region }).length).toBeGreaterThan(0);
    expect(world.shapeCast(probe, { x: -3, y: 0, z: 0 }, rot, { x: 6, y: 0, z: 0 }, { region })?.body).toBe(box);
    expect(world.raycast({ x: -3, y: 0, z: 0 }, { x: 3, y: 0, z: 0 }, { region })?.body).toBe(box);
  });
});
