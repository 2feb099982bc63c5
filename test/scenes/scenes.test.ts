import { describe, expect, it } from 'vitest';
import { BENCHMARK_SCENE_NAMES, benchmarkScene } from './benchmark-scenes';
import { ConvexHull } from '../../src/index';
import { pileScene, ROCK_POINTS, ROCK_VOLUME } from './pile';
import { countDynamic, type BodyDesc } from './scene';

/** World AABB half extents of a body (rotated box: Σ_j |R_ij| h_j; capsule: |axis|·h + r). */
function halfExtents(b: BodyDesc): [number, number, number] {
  const q = b.rotation;
  const r = [
    [1 - 2 * (q.y * q.y + q.z * q.z), 2 * (q.x * q.y - q.w * q.z), 2 * (q.x * q.z + q.w * q.y)],
    [2 * (q.x * q.y + q.w * q.z), 1 - 2 * (q.x * q.x + q.z * q.z), 2 * (q.y * q.z - q.w * q.x)],
    [2 * (q.x * q.z - q.w * q.y), 2 * (q.y * q.z + q.w * q.x), 1 - 2 * (q.x * q.x + q.y * q.y)],
  ];
  const s = b.shape;
  const out: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const row = r[i]!;
    if (s.kind === 'box') {
      out[i] = Math.abs(row[0]!) * s.halfExtents.x + Math.abs(row[1]!) * s.halfExtents.y + Math.abs(row[2]!) * s.halfExtents.z;
    } else if (s.kind === 'sphere') {
      out[i] = s.radius;
    } else if (s.kind === 'capsule') {
      out[i] = Math.abs(row[1]!) * s.halfHeight + s.radius;
    } else if (s.kind === 'cylinder') {
      out[i] = Math.abs(row[1]!) * s.halfHeight + s.radius * Math.sqrt(Math.max(0, 1 - row[1]! * row[1]!));
    } else {
      let e = 0;
      for (const p of s.points) e = Math.max(e, Math.abs(row[0]! * p.x + row[1]! * p.y + row[2]! * p.z));
      out[i] = e;
    }
  }
  return out;
}

describe('benchmark scenes', () => {
  it('have the documented body counts', () => {
    const counts = BENCHMARK_SCENE_NAMES.map((n) => countDynamic(benchmarkScene(n)));
    expect(counts).toEqual([210, 820, 1000, 1000, 10]);
  });

  it('start every dynamic body inside the bounds, above the ground, with unit rotations and positive mass', () => {
    for (const name of BENCHMARK_SCENE_NAMES) {
      const scene = benchmarkScene(name);
      expect(scene.dt).toBeCloseTo(1 / 60, 12);
      for (const b of scene.bodies) {
        const q = b.rotation;
        expect(Math.hypot(q.x, q.y, q.z, q.w)).toBeCloseTo(1, 9);
        if (b.type !== 'dynamic') continue;
        expect(b.mass).toBeGreaterThan(0);
        const h = halfExtents(b);
        expect(b.position.y - h[1]).toBeGreaterThanOrEqual(-1e-9); // ground top is y = 0
        expect(b.position.x).toBeGreaterThan(scene.bounds.min.x);
        expect(b.position.x).toBeLessThan(scene.bounds.max.x);
        expect(b.position.z).toBeGreaterThan(scene.bounds.min.z);
        expect(b.position.z).toBeLessThan(scene.bounds.max.z);
      }
    }
  });

  it('start with no two dynamic bodies overlapping (AABB test) in any scene', () => {
    for (const name of BENCHMARK_SCENE_NAMES) {
      const dyn = benchmarkScene(name).bodies.filter((b) => b.type === 'dynamic');
      const ext = dyn.map(halfExtents);
      let overlaps = 0;
      for (let i = 0; i < dyn.length; i++) {
        for (let j = i + 1; j < dyn.length; j++) {
          const a = dyn[i]!.position, b = dyn[j]!.position, ea = ext[i]!, eb = ext[j]!;
          if (
            Math.abs(a.x - b.x) < ea[0] + eb[0] - 1e-9 &&
            Math.abs(a.y - b.y) < ea[1] + eb[1] - 1e-9 &&
            Math.abs(a.z - b.z) < ea[2] + eb[2] - 1e-9
          ) overlaps++;
        }
      }
      expect(overlaps, name).toBe(0);
    }
  });

  it('builds the pile deterministically from its seed, with the documented size range and shape mix', () => {
    const a = pileScene(1000), b = pileScene(1000);
    expect(JSON.stringify(a.bodies)).toBe(JSON.stringify(b.bodies));
    const dyn = a.bodies.filter((x) => x.type === 'dynamic');
    let boxes = 0, spheres = 0, capsules = 0, minSize = Infinity, maxSize = 0;
    for (const d of dyn) {
      const s = d.shape;
      if (s.kind === 'cylinder' || s.kind === 'hull') throw new Error('the plain pile has no cylinders or hulls');
      const size = s.kind === 'box' ? 2 * s.halfExtents.x : s.kind === 'sphere' ? 2 * s.radius : 2 * (s.radius + s.halfHeight);
      minSize = Math.min(minSize, size);
      maxSize = Math.max(maxSize, size);
      if (s.kind === 'box') boxes++; else if (s.kind === 'sphere') spheres++; else capsules++;
    }
    expect(minSize).toBeGreaterThanOrEqual(0.3);
    expect(maxSize).toBeLessThanOrEqual(1);
    // 40 / 30 / 30 % by construction; ±5 points for 1000 draws.
    expect(Math.abs(boxes / 1000 - 0.4)).toBeLessThan(0.05);
    expect(Math.abs(spheres / 1000 - 0.3)).toBeLessThan(0.05);
    expect(Math.abs(capsules / 1000 - 0.3)).toBeLessThan(0.05);
  });

  it('builds the mixed pile with the documented shape mix, and its rock volume is footing\'s hull volume', () => {
    const dyn = pileScene(1000, undefined, true).bodies.filter((x) => x.type === 'dynamic');
    const count: Record<string, number> = { box: 0, sphere: 0, capsule: 0, cylinder: 0, hull: 0 };
    for (const d of dyn) count[d.shape.kind]!++;
    // 25 / 20 / 20 / 20 / 15 % by construction; ±5 points for 1000 draws.
    const expected: Record<string, number> = { box: 0.25, sphere: 0.2, capsule: 0.2, cylinder: 0.2, hull: 0.15 };
    for (const k of Object.keys(expected)) expect(Math.abs(count[k]! / 1000 - expected[k]!), k).toBeLessThan(0.05);
    const rock = new ConvexHull(ROCK_POINTS);
    expect(rock.vertexCount).toBe(12);
    expect(Math.abs(rock.volume() - ROCK_VOLUME)).toBeLessThan(1e-9);
  });
});
