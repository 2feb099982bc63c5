// Catto's circle-stack convergence (GDC 2014, "Understanding Constraints"):
// a light sphere under a heavy one, resting, solved from zero impulses
// ('ngs': rigid rows, no warm starting). The exact impulses per step are
// λ_bottom = (m1 + m2) g dt and λ_top = m2 g dt; we count the sweeps needed to
// reach 95 % of both. The talk's fit is 3·ratio + 2.
import { describe, expect, it } from 'vitest';
import { Box, Sphere, World } from '../../src/index';
import { DT, stepSeconds } from '../helpers/world';

function sweepsNeeded(ratio: number): number {
  for (let k = 1; k <= 200; k++) {
    const world = new World({ solver: { positionCorrection: 'ngs', warmStarting: false, velocityIterations: k }, sleeping: { enabled: false } });
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 0, y: 0.5, z: 0 }, mass: 1 });
    world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 0, y: 1.5, z: 0 }, mass: ratio });
    world.step(DT);
    const g = 9.81;
    let bottom = 0, top = 0;
    world.debugDraw({
      contactPoint: (c) => {
        if (c.index !== 0) return;
        if (c.bodyA.isStatic || c.bodyB.isStatic) bottom = c.normalImpulse;
        else top = c.normalImpulse;
      },
    });
    if (bottom >= 0.95 * (1 + ratio) * g * DT && top >= 0.95 * ratio * g * DT) return k;
  }
  return Infinity;
}

describe('circle stack convergence', () => {
  it('sweeps to 95 % grow with the mass ratio (no warm starting)', () => {
    const rows = [1, 2, 5, 10].map((r) => ({ ratio: r, sweeps: sweepsNeeded(r), fit: 3 * r + 2 }));
    console.log('ratio | sweeps to 95 % | 3·ratio + 2\n' + rows.map((r) => `${r.ratio} | ${r.sweeps} | ${r.fit}`).join('\n'));
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.sweeps).toBeGreaterThanOrEqual(rows[i - 1]!.sweeps);
    expect(rows[3]!.sweeps).toBeGreaterThan(rows[0]!.sweeps);
    for (const r of rows) expect(r.sweeps).toBeLessThan(200);
  });

  it('with warm starting, the 10:1 stack holds with the default settings', () => {
    const world = new World({ sleeping: { enabled: false } });
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    const light = world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 0, y: 0.5, z: 0 }, mass: 1 });
    const heavy = world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 0, y: 1.5, z: 0 }, mass: 10 });
    let maxPen = 0;
    for (let i = 0; i < 600; i++) {
      world.step(DT);
      maxPen = Math.max(maxPen, 1 - (heavy.position.y - light.position.y), 0.5 - light.position.y);
    }
    console.log(`10:1 sphere stack, warm started: max penetration ${(maxPen * 1000).toFixed(2)} mm, heavy at y=${heavy.position.y.toFixed(4)}`);
    expect(maxPen).toBeLessThan(0.01);
    expect(Math.abs(heavy.position.x)).toBeLessThan(1e-3);
    stepSeconds(world, 1);
    expect(Math.abs(heavy.position.y - 1.5)).toBeLessThan(0.01);
  });
});
