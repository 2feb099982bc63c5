/**
 * contactBegin comes in the step of the impact (the step in which the solver
 * stops the body at the surface), as in Havok, not in the step after. 60 Hz,
 * g = 9.81, default settings; 0.5 m balls and a 1 m cube dropped onto a box floor.
 */
import { describe, expect, it } from 'vitest';
import { Box, Sphere, World, type RigidBody } from '../../src/index';

const DT = 1 / 60;

/** Drops `body` onto a floor; per step, the contactBegin/End count delivered after it and the body's vertical speed. */
function record(shape: Sphere | Box, height: number, e: number, steps: number): { begins: number[]; ends: number[]; vy: number[]; pointY: number[] } {
  const world = new World();
  world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 }, restitution: e });
  const half = shape instanceof Sphere ? shape.radius : shape.halfExtents.y;
  const body: RigidBody = world.createBody({ type: 'dynamic', shape, position: { x: 0, y: half + height, z: 0 }, restitution: e });
  const begins: number[] = [], ends: number[] = [], vy: number[] = [], pointY: number[] = [];
  let b = 0, en = 0;
  world.on('contactBegin', (ev) => { b++; pointY.push(ev.point.y); });
  world.on('contactEnd', () => { en++; });
  for (let i = 0; i < steps; i++) {
    b = 0; en = 0;
    world.step(DT);
    begins.push(b); ends.push(en); vy.push(body.linearVelocity.y);
  }
  return { begins, ends, vy, pointY };
}

describe('contactBegin timing', () => {
  for (const height of [0.5, 1, 2, 3.7]) {
    it(`a ball with e 0.5 dropped from ${height} m: contactBegin is delivered in the step its vertical speed flips, once; contactEnd after it`, () => {
      const r = record(new Sphere(0.25), height, 0.5, 90);
      const flip = r.vy.findIndex((v, i) => i > 0 && r.vy[i - 1]! < 0 && v > 0);
      const begin = r.begins.findIndex((n) => n > 0);
      const end = r.ends.findIndex((n) => n > 0);
      console.log(`[contact begin] ball from ${height} m, e 0.5: speed flips in step ${flip}, contactBegin in step ${begin} at y ${r.pointY[0]!.toExponential(2)} m, contactEnd in step ${end}`);
      expect(flip).toBeGreaterThan(0);
      expect(begin).toBe(flip);
      expect(r.begins[begin]).toBe(1);
      // The event's point is on the floor's surface, where the ball hit (not midway across the gap closed in the step).
      expect(Math.abs(r.pointY[0]!)).toBeLessThan(1e-3);
      expect(end).toBeGreaterThan(begin);
      // One begin per bounce: never two begins without an end between them.
      let open = 0;
      for (let i = 0; i < r.begins.length; i++) {
        open += r.begins[i]! - r.ends[i]!;
        expect(open === 0 || open === 1).toBe(true);
      }
    });
  }

  for (const shape of [new Sphere(0.25), new Box({ x: 0.5, y: 0.5, z: 0.5 })]) {
    it(`a ${shape.constructor.name.toLowerCase()} with e 0 dropped from 1.5 m: contactBegin in the step the solver stops it (its speed falls below half the last step\'s), once, and it stays touching`, () => {
      const r = record(shape, 1.5, 0, 120);
      const stop = r.vy.findIndex((v, i) => i > 0 && r.vy[i - 1]! < -2 && v > 0.5 * r.vy[i - 1]!);
      const begin = r.begins.findIndex((n) => n > 0);
      const total = r.begins.reduce((s, n) => s + n, 0), ends = r.ends.reduce((s, n) => s + n, 0);
      console.log(`[contact begin] ${shape.constructor.name} from 1.5 m, e 0: stops in step ${stop} (${r.vy[stop - 1]!.toFixed(3)} -> ${r.vy[stop]!.toFixed(3)} m/s), contactBegin in step ${begin}; ${total} begin, ${ends} end`);
      expect(stop).toBeGreaterThan(0);
      expect(begin).toBe(stop);
      expect(Math.abs(r.pointY[0]!)).toBeLessThan(1e-3);
      expect(total).toBe(1);
      expect(ends).toBe(0);
    });
  }
});
