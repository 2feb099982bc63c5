/** The NGS plane solver and velocity clipping (pure functions: tight tolerances). */
import { describe, expect, it } from 'vitest';
import { CharacterPlane, clipVector, solvePlanes } from '../../character/index';

function plane(nx: number, ny: number, nz: number, d: number, pushLimit = Infinity): CharacterPlane {
  const p = new CharacterPlane();
  const l = Math.hypot(nx, ny, nz);
  p.normal.x = nx / l; p.normal.y = ny / l; p.normal.z = nz / l;
  p.distance = d;
  p.pushLimit = pushLimit;
  return p;
}

describe('solvePlanes', () => {
  it('two perpendicular planes: the exact closest point, accumulated pushes = violations', () => {
    const planes = [plane(1, 0, 0, 0), plane(0, 1, 0, 0)];
    const out = { x: 0, y: 0, z: 0 };
    const it = solvePlanes(out, { x: -1, y: -2, z: 3 }, planes, 2, 10, 1e-9);
    expect(out.x).toBeCloseTo(0, 12);
    expect(out.y).toBeCloseTo(0, 12);
    expect(out.z).toBeCloseTo(3, 12);
    expect(planes[0]!.push).toBeCloseTo(1, 12);
    expect(planes[1]!.push).toBeCloseTo(2, 12);
    expect(it).toBe(2); // one pass fixes both, the second sees no correction
  });

  it('a satisfied plane does not pull (push clamped at 0)', () => {
    const planes = [plane(0, 1, 0, 0)];
    const out = { x: 0, y: 0, z: 0 };
    solvePlanes(out, { x: 0.5, y: 2, z: 0 }, planes, 1, 10, 1e-9);
    expect(out.y).toBe(2);
    expect(planes[0]!.push).toBe(0);
  });

  it('acute wedge (30°): converges to the apex in a bounded number of iterations', () => {
    // normals 150° apart: n · p ≥ 0 for n = (cos 75°, ±sin 75°, 0) → wedge of half-angle 15° opening to +x
    const t = (75 * Math.PI) / 180;
    const planes = [plane(Math.cos(t), Math.sin(t), 0, 0), plane(Math.cos(t), -Math.sin(t), 0, 0)];
    const out = { x: 0, y: 0, z: 0 };
    const it = solvePlanes(out, { x: -1, y: 0.1, z: 0 }, planes, 2, 200, 1e-7);
    // closest feasible point of a target behind the apex is the apex; each
    // NGS sweep shrinks the error by cos²(150°) = 0.75
    expect(Math.hypot(out.x, out.y, out.z)).toBeLessThan(1e-5);
    expect(it).toBeGreaterThan(10);
    expect(it).toBeLessThan(200);
    for (const p of planes) expect(p.normal.x * out.x + p.normal.y * out.y).toBeGreaterThan(-1e-6);
    // with few iterations the count is capped and reported
    expect(solvePlanes(out, { x: -1, y: 0.1, z: 0 }, planes, 2, 5, 1e-7)).toBe(5);
  });

  it('a soft plane pushes at most its pushLimit; a hard plane behind it wins', () => {
    const soft = plane(1, 0, 0, 1, 0.25); // wants x ≥ 1, may push 0.25
    const out = { x: 0, y: 0, z: 0 };
    solvePlanes(out, { x: 0, y: 0, z: 0 }, [soft], 1, 10, 1e-9);
    expect(out.x).toBeCloseTo(0.25, 12);
    // soft pushes +x, a hard wall x ≤ 0.1 (n = −x) pushes back: the wall holds
    const wall = plane(-1, 0, 0, -0.1);
    solvePlanes(out, { x: 0, y: 0, z: 0 }, [soft, wall], 2, 50, 1e-9);
    expect(out.x).toBeLessThanOrEqual(0.1 + 1e-9);
  });
});

describe('clipVector', () => {
  const up = { x: 0, y: 1, z: 0 };
  const slope = { cosMaxSlope: Math.cos(Math.PI / 4) };
  it('removes the into-plane part of touching planes only', () => {
    const planes = [plane(0, 1, 0, 0), plane(-1, 0, 0, 0)];
    const touching = new Uint8Array([1, 0]);
    const v = { x: 2, y: -3, z: 1 };
    clipVector(v, planes, 2, touching, up, slope, false);
    expect(v).toEqual({ x: 2, y: 0, z: 1 });
    touching[1] = 1;
    clipVector(v, planes, 2, touching, up, slope, false);
    expect(v.x).toBeCloseTo(0, 12);
    expect(v.z).toBe(1);
  });

  it('a crease of two planes clips both components; walkable planes can be skipped', () => {
    const planes = [plane(1, 1, 0, 0), plane(-1, 1, 0, 0)]; // a V floor (both 45°: walkable at maxSlope 45°+)
    const touching = new Uint8Array([1, 1]);
    const v = { x: 0.3, y: -2, z: 0 };
    clipVector(v, planes, 2, touching, up, slope, false);
    for (const p of planes) expect(v.x * p.normal.x + v.y * p.normal.y).toBeGreaterThan(-1e-12);
    const w = { x: 0.3, y: -2, z: 0 };
    clipVector(w, planes, 2, touching, up, { cosMaxSlope: 0.7 }, true);
    expect(w).toEqual({ x: 0.3, y: -2, z: 0 });
  });
});
