/**
 * A bounce gives back e times the impact speed, as game developers expect
 * (Havok, Rapier, Jolt), and never more (issue 16: at most e² of the normal
 * approach energy). 60 Hz, g = 9.81, default solver settings.
 */
import { describe, expect, it } from 'vitest';
import { Box, Sphere, TriangleMesh, World, type RigidBody } from '../../src/index';

const DT = 1 / 60;
const G = 9.81;

function floorWorld(mesh: boolean, e: number): World {
  const world = new World();
  if (mesh) world.createBody({ type: 'static', shape: new TriangleMesh([-50, 0, -50, 50, 0, -50, 50, 0, 50, -50, 0, 50], [0, 2, 1, 0, 3, 2]), restitution: e });
  else world.createBody({ type: 'static', shape: new Box({ x: 50, y: 0.5, z: 50 }), position: { x: 0, y: -0.5, z: 0 }, restitution: e });
  return world;
}

/** Drops a 0.5 m ball or cube (landing flat) at v0 from `gap` above the floor; the impact speed (last falling speed plus a step of gravity) and the rebound speed. */
function drop(mesh: boolean, cube: boolean, e: number, v0: number, gap: number): { impact: number; rebound: number } {
  const world = floorWorld(mesh, e);
  const body: RigidBody = world.createBody({
    type: 'dynamic', shape: cube ? new Box({ x: 0.25, y: 0.25, z: 0.25 }) : new Sphere(0.25), position: { x: 0, y: 0.25 + gap, z: 0 }, restitution: e,
  });
  body.setLinearVelocity({ x: 0, y: -v0, z: 0 });
  for (let i = 0; i < 600; i++) {
    const vy = body.linearVelocity.y;
    world.step(DT);
    if (vy < 0 && body.linearVelocity.y > 0) return { impact: -vy + G * DT, rebound: body.linearVelocity.y };
  }
  return { impact: 0, rebound: 0 };
}

describe('rebound speed = e × impact speed', () => {
  // Start gaps chosen so the impact falls at different points of a step (the speculative contact
  // closes the gap early, late or mid-step).
  const gaps = [0.013, 0.26, 0.53, 0.9];
  for (const mesh of [false, true]) {
    for (const cube of [false, true]) {
      it(`a ${cube ? 'cube landing flat' : 'ball'} on a ${mesh ? 'TriangleMesh' : 'box'} floor, 1-20 m/s, e 0.3 / 0.5 / 0.9 / 1: within 3 % below e, never above`, () => {
        let lo = Infinity, hi = -Infinity, worst = '';
        for (const e of [0.3, 0.5, 0.9, 1]) {
          for (const v0 of [1, 2, 5, 6.3, 10, 15, 20]) {
            for (const gap of gaps) {
              const r = drop(mesh, cube, e, v0, gap);
              expect(r.impact).toBeGreaterThan(v0);
              const ratio = r.rebound / (e * r.impact);
              if (ratio < lo) { lo = ratio; worst = `e ${e} v0 ${v0} gap ${gap}`; }
              hi = Math.max(hi, ratio);
            }
          }
        }
        console.log(`[rebound] ${cube ? 'cube' : 'ball'} on ${mesh ? 'mesh' : 'box'}: rebound / (e × impact) in [${lo.toFixed(4)}, ${hi.toFixed(6)}] (lowest: ${worst})`);
        expect(lo).toBeGreaterThan(0.97);
        // (A flat landing's four corners, solved in turn, end up to 0.05 % above: measured 1.00044.)
        expect(hi).toBeLessThanOrEqual(1.001);
      });
    }
  }

  it('the issue\'s case: a 0.5 m ball at 6.3 m/s with e 0.9 rebounds at 0.9 of its impact speed (was 0.52)', () => {
    const world = floorWorld(false, 0.9);
    const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.25), position: { x: 0, y: 2.25, z: 0 }, restitution: 0.9 });
    let down = 0, up = 0;
    for (let i = 0; i < 60; i++) {
      world.step(DT);
      down = Math.min(down, ball.linearVelocity.y);
      up = Math.max(up, ball.linearVelocity.y);
    }
    const ratio = up / (-down + G * DT);
    console.log(`[rebound] dropped from 2 m: impact ${(-down + G * DT).toFixed(3)} m/s, rebound ${up.toFixed(3)} m/s, ratio ${ratio.toFixed(4)}`);
    expect(ratio).toBeGreaterThan(0.89);
    expect(ratio).toBeLessThanOrEqual(0.9 + 1e-6);
  });
});
