/**
 * Randomised levels and the allocation check (60 Hz, default settings).
 *
 * Property: after every move, the capsule overlaps no geometry by more than
 * skinWidth + 1 mm, over 500 seeded levels of boxes, a ramp and a
 * TriangleMesh, with a walker driven by random input and jumps plus
 * occasional 20 m/s dashes.
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, TriangleMesh, World, type Vec3 } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { seeded, type Random } from '../helpers/random';
import { DT, penetration, staticBox } from './helpers';

function heightfield(rng: Random, cx: number, cz: number, n: number, cell: number, amp: number): TriangleMesh {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) positions.push(cx + (i - n / 2) * cell, rng.range(0, amp), cz + (j - n / 2) * cell);
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j, b = a + 1, c = a + n + 1, d = c + 1;
      indices.push(a, b, c, b, d, c); // counter-clockwise seen from above (normals up)
    }
  }
  return new TriangleMesh(positions, indices);
}

function randomLevel(rng: Random): World {
  const world = new World();
  world.createBody({ type: 'static', shape: new Box({ x: 12, y: 0.5, z: 12 }), position: { x: 0, y: -0.5, z: 0 } });
  const boxes = rng.int(6, 12);
  for (let i = 0; i < boxes; i++) {
    const half = { x: rng.range(0.05, 1.5), y: rng.range(0.05, 1.2), z: rng.range(0.05, 1.5) };
    staticBox(world, half, { x: rng.range(-4, 4), y: rng.range(-0.2, 2), z: rng.range(-4, 4) }, rng.range(0, Math.PI), rng.range(-0.3, 0.3));
  }
  const angle = rng.range(0.1, 1.0);
  staticBox(world, { x: 3, y: 0.3, z: 1.5 }, { x: rng.range(-3, 3), y: 0.5, z: rng.range(-3, 3) }, rng.range(0, Math.PI), angle);
  world.createBody({ type: 'static', shape: heightfield(rng, rng.range(-2, 2), rng.range(-2, 2), 5, 0.8, rng.range(0.1, 0.8)), position: { x: 0, y: 0, z: 0 } });
  return world;
}

describe('CharacterController property test', () => {
  it('never overlaps geometry by more than skinWidth + 1 mm (500 random levels)', () => {
    const rng = seeded(20261121, 'character-levels');
    const clearance = new Capsule(0.45, 0.6);
    let moves = 0, contacts = 0, touching = 0, worst = 0, worstLevel = -1;
    for (let level = 0; level < 500; level++) {
      const world = randomLevel(rng);
      const c = new CharacterController(world, { position: { x: 0, y: 10, z: 0 } });
      // spawn in free space
      let spawn: Vec3 = { x: 0, y: 3, z: 0 };
      for (let tries = 0; tries < 50; tries++) {
        spawn = { x: rng.range(-3, 3), y: rng.range(0.95, 1.6), z: rng.range(-3, 3) };
        c.setPosition(spawn);
        // free, with 15 cm of clearance (a fatter capsule overlaps nothing)
        if (penetration(world, c) === 0 && world.overlap(clearance, spawn, c.rotation, { exclude: c.body }).length === 0) break;
      }
      const w = new Walker(c);
      const limit = c.settings.skinWidth + 0.001;
      for (let frame = 0; frame < 60; frame++) {
        if (frame % 8 === 0) {
          const a = rng.range(0, 2 * Math.PI);
          w.setInput(Math.cos(a), 0, Math.sin(a));
          w.settings.speed = rng.range(1, 8);
          if (rng.next() < 0.1) w.jump();
        }
        if (rng.next() < 0.03) {
          c.move({ x: rng.range(-1, 1) * 20 * DT, y: rng.range(-1, 0.2) * 20 * DT, z: rng.range(-1, 1) * 20 * DT });
        } else {
          w.update(DT);
        }
        const p = penetration(world, c);
        moves++;
        if (c.result.planeCount >= 2) contacts++;
        if (c.result.planeCount >= 1) touching++;
        if (p > worst) { worst = p; worstLevel = level; }
        expect(p, `level ${level} frame ${frame}`).toBeLessThanOrEqual(limit);
      }
    }
    console.log(`${moves} moves, ${touching} touching something, ${contacts} with ≥ 2 planes, worst overlap ${(worst * 1000).toFixed(3)} mm (level ${worstLevel})`);
    // the levels really do get in the way
    expect(touching).toBeGreaterThan(moves / 3);
    expect(contacts).toBeGreaterThan(moves / 20);
  });
});

