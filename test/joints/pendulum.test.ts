/**
 * Ball-joint pendulum, 60 Hz, default solver settings ('soft', 4 sub-steps).
 * A point-like bob (small sphere, inertia negligible vs m L²) on a 1 m arm
 * from a static anchor, released at 5°: small-angle period T = 2π√(L/g),
 * corrected for the bob's own inertia (physical pendulum: T = 2π√((L² + 2r²/5)/(gL))).
 * Tolerance 1 %.
 */
import { describe, expect, it } from 'vitest';
import { Box, Sphere, World } from '../../src/index';
import { BallJoint } from '../../src/joints/ball';
import { addJoint } from './harness';

const DT = 1 / 60;
const G = 9.81;

describe('ball joint pendulum', () => {
  it('small-angle period within 1 % of 2π√(L/g)', () => {
    const world = new World({ gravity: { x: 0, y: -G, z: 0 } });
    const anchor = world.createBody({ type: 'static', shape: new Box({ x: 0.05, y: 0.05, z: 0.05 }), position: { x: 0, y: 3, z: 0 } });
    const L = 1;
    const r = 0.02;
    const theta0 = (5 * Math.PI) / 180;
    const bob = world.createBody({
      type: 'dynamic', shape: new Sphere(r), position: { x: L * Math.sin(theta0), y: 3 - L * Math.cos(theta0), z: 0 }, mass: 1,
      angularDamping: 0, canSleep: false,
    });
    const joint = addJoint(world, new BallJoint({ bodyA: anchor, bodyB: bob, anchor: { x: 0, y: 3, z: 0 } }));
    // Zero crossings of x (downward-to-upward and back) give half periods.
    const crossings: number[] = [];
    let prevX = bob.position.x;
    let maxSep = 0;
    for (let i = 0; i < 60 * 12; i++) {
      world.step(DT);
      const x = bob.position.x;
      if ((prevX > 0 && x <= 0) || (prevX < 0 && x >= 0)) {
        crossings.push((i + prevX / (prevX - x)) * DT);
      }
      prevX = x;
      maxSep = Math.max(maxSep, joint.separation);
    }
    expect(crossings.length).toBeGreaterThan(8);
    const n = crossings.length - 1;
    const period = (2 * (crossings[n]! - crossings[0]!)) / n;
    const expected = 2 * Math.PI * Math.sqrt((L * L + 0.4 * r * r) / (G * L));
    console.log(`pendulum period ${period.toFixed(4)} s, expected ${expected.toFixed(4)} s, max separation ${(maxSep * 1000).toFixed(3)} mm`);
    expect(Math.abs(period - expected) / expected).toBeLessThan(0.01);
    expect(maxSep).toBeLessThan(0.005);
  });
});
