import { describe, expect, it } from 'vitest';
import { aabb } from '../../src/collision/aabb';
import { Box, Capsule, massFromDensity, massFromMass, Sphere } from '../../src/index';
import { seeded } from '../helpers/random';
import * as q from '../../src/math/quat';

describe('shape validation', () => {
  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('rejects radius %s naming the field', (r) => {
    expect(() => new Sphere(r)).toThrow(RangeError);
    expect(() => new Sphere(r)).toThrow(/Sphere\.radius/);
    expect(() => new Capsule(r, 1)).toThrow(/Capsule\.radius/);
    expect(() => new Capsule(0.5, r)).toThrow(/Capsule\.halfHeight/);
    expect(() => new Box({ x: 1, y: r, z: 1 })).toThrow(/Box\.halfExtents\.y/);
  });
  it('rejects non-positive mass and density', () => {
    expect(() => massFromMass(new Sphere(1), 0)).toThrow(/mass/);
    expect(() => massFromDensity(new Sphere(1), Number.NaN)).toThrow(/density/);
  });
});

describe('mass properties', () => {
  it('sphere: m = ρ 4/3 π r³, I = 2/5 m r²', () => {
    const p = massFromDensity(new Sphere(2), 3);
    expect(p.mass).toBeCloseTo(3 * (4 / 3) * Math.PI * 8, 9);
    expect(p.inertia.x).toBeCloseTo(0.4 * p.mass * 4, 9);
  });
  it('box: I_x = m (b² + c²)/12', () => {
    const p = massFromMass(new Box({ x: 1, y: 2, z: 3 }), 12);
    expect(p.inertia.x).toBeCloseTo((12 * (16 + 36)) / 12, 9);
    expect(p.inertia.y).toBeCloseTo((12 * (4 + 36)) / 12, 9);
    expect(p.inertia.z).toBeCloseTo((12 * (4 + 16)) / 12, 9);
  });
  it('capsule inertia matches numeric integration within 0.5 %', () => {
    const c = new Capsule(0.4, 0.7);
    const p = massFromDensity(c, 1);
    // Midpoint-rule integration over a grid of the bounding box.
    const n = 120;
    const ex = 0.4, ey = 1.1;
    const hx = (2 * ex) / n, hy = (2 * ey) / n;
    let m = 0, ix = 0, iy = 0;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) {
      const x = -ex + (i + 0.5) * hx, y = -ey + (j + 0.5) * hy, z = -ex + (k + 0.5) * hx;
      const sy = Math.max(-0.7, Math.min(0.7, y));
      if (x * x + (y - sy) ** 2 + z * z > 0.16) continue;
      const dm = hx * hy * hx;
      m += dm;
      ix += dm * (y * y + z * z);
      iy += dm * (x * x + z * z);
    }
    expect(Math.abs(p.mass - m) / m).toBeLessThan(5e-3);
    expect(Math.abs(p.inertia.x - ix) / ix).toBeLessThan(5e-3);
    expect(Math.abs(p.inertia.y - iy) / iy).toBeLessThan(5e-3);
  });
});

describe('bounds and support', () => {
  it('every support point lies inside the AABB, and the AABB is tight', () => {
    const rng = seeded(201, 'shape bounds');
    const shapes = [new Sphere(0.7), new Box({ x: 0.3, y: 1.2, z: 0.5 }), new Capsule(0.25, 0.9)];
    const box = aabb();
    const local = { x: 0, y: 0, z: 0 }, world = { x: 0, y: 0, z: 0 }, dl = { x: 0, y: 0, z: 0 };
    for (const s of shapes) {
      for (let i = 0; i < 200; i++) {
        const pos = rng.vec3(-3, 3);
        const rot = rng.quat();
        s.computeAabb(box, pos, rot);
        // Support along ±world axes must touch the AABB faces.
        const axes = [{ x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 }, { x: 0, y: 0, z: 1 }];
        for (const a of axes) {
          q.inverseRotate(dl, rot, a);
          s.support(local, dl);
          q.rotate(world, rot, local);
          const maxAlong = world.x * a.x + world.y * a.y + world.z * a.z + (pos.x * a.x + pos.y * a.y + pos.z * a.z);
          const boxMax = box.max.x * a.x + box.max.y * a.y + box.max.z * a.z;
          expect(Math.abs(maxAlong - boxMax)).toBeLessThan(1e-9);
        }
      }
    }
  });
});
