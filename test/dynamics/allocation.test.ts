import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { Box } from '../../src/shapes/box';
import { Capsule } from '../../src/shapes/capsule';
import { Sphere } from '../../src/shapes/sphere';
import { TriangleMesh } from '../../src/shapes/triangle-mesh';
import { World } from '../../src/world/world';
import { seeded } from '../helpers/random';

/** An n × n grid tile of side `size` with gentle bumps (its edges are partly convex, partly concave). */
function tile(n: number, size: number, phase: number): TriangleMesh {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) positions.push((i / n - 0.5) * size, 0.05 * Math.sin(1.3 * i + 0.7 * j + phase), (j / n - 0.5) * size);
  }
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      indices.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2);
    }
  }
  return new TriangleMesh(positions, indices);
}

/** 500 boxes, spheres and capsules dropped into a walled box whose floor carries four mesh tiles. */
function buildPile(): World {
  const world = new World({ sleeping: { enabled: false } });
  world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 } });
  const walls = [[-6, 0, 0.5, 6], [6, 0, 0.5, 6], [0, -6, 6, 0.5], [0, 6, 6, 0.5]] as const;
  for (const [x, z, hx, hz] of walls) {
    world.createBody({ type: 'static', shape: new Box({ x: hx, y: 3, z: hz }), position: { x, y: 3, z } });
  }
  const tiles = [[-3, -3], [3, -3], [-3, 3], [3, 3]] as const;
  for (const [x, z] of tiles) world.createBody({ type: 'static', shape: tile(6, 4, x + z), position: { x, y: 0.06, z } });
  const rng = seeded(20240611, 'allocation pile');
  for (let i = 0; i < 500; i++) {
    const k = i % 3;
    const shape = k === 0 ? new Box({ x: 0.3, y: 0.3, z: 0.3 }) : k === 1 ? new Sphere(0.3) : new Capsule(0.2, 0.3);
    world.createBody({ type: 'dynamic', shape, position: { x: rng.range(-4.5, 4.5), y: 1 + i * 0.08, z: rng.range(-4.5, 4.5) } });
  }
  return world;
}

/**
 * Runs the once-per-step code (solver settings, softness, joint preparation)
 * through enough steps on a small scene for V8 to optimise it. Those functions
 * run once per step, so on the pile alone TurboFan reaches them only after
 * ~1000–2000 steps; until then their interpreted double arithmetic allocates
 * a few hundred bytes per step, which is JIT warm-up, not a steady-state cost.
 */
function warmUpColdPaths(): void {
  const world = new World({ sleeping: { enabled: false } });
  world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
  world.createBody({ type: 'static', shape: tile(2, 2, 0), position: { x: 0, y: 0.06, z: 0 } });
  world.createBody({ type: 'dynamic', shape: new Box({ x: 0.3, y: 0.3, z: 0.3 }), position: { x: -1, y: 1, z: 0 } });
  world.createBody({ type: 'dynamic', shape: new Sphere(0.3), position: { x: 0, y: 1, z: 0 } });
  world.createBody({ type: 'dynamic', shape: new Capsule(0.2, 0.3), position: { x: 1, y: 1, z: 0 } });
  for (let i = 0; i < 4000; i++) world.step(1 / 60);
}

function newSpaceUsed(): number {
  for (const s of v8.getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_used_size;
  return 0;
}

describe('steady-state allocation', () => {
  it('world.step on a 500-body pile (boxes, spheres, capsules, mesh tiles) allocates < 16 KB per 100 steps', () => {
    warmUpColdPaths();
    const world = buildPile();
    for (let i = 0; i < 300; i++) world.step(1 / 60);
    // Every contact family the pile is meant to exercise is present.
    const kinds = new Set<string>();
    for (const c of world.contacts) {
      const ka = c.bodyA!.shape.kind, kb = c.bodyB!.shape.kind;
      kinds.add(`${Math.min(ka, kb)}-${Math.max(ka, kb)}`);
    }
    expect(kinds.size).toBeGreaterThanOrEqual(9);

    // Reading the statistics allocates its own result objects; measure that
    // cost on empty windows and subtract it.
    let overhead = Infinity;
    for (let k = 0; k < 5; k++) {
      const a = newSpaceUsed();
      const b = newSpaceUsed();
      if (b >= a && b - a < overhead) overhead = b - a;
    }
    // New-space bytes over 100 steps, as 4 windows of 25 steps; a window in
    // which a scavenge ran (space_used_size dropped) is measured again.
    let bytes = 0;
    let windows = 0;
    for (let attempt = 0; attempt < 20 && windows < 4; attempt++) {
      const before = newSpaceUsed();
      for (let i = 0; i < 25; i++) world.step(1 / 60);
      const after = newSpaceUsed();
      if (after < before) continue;
      bytes += Math.max(0, after - before - overhead);
      windows++;
    }
    expect(windows).toBe(4);
    console.log(`[allocation] 500-body pile: ${bytes} bytes of new space per 100 steps (${overhead} B measuring overhead per window removed), ${world.contactCount} contacts`);
    expect(bytes).toBeLessThan(16 * 1024);
  });
});
