// Falling bodies meet the floor on the step they reach it: the broadphase
// keeps each fat box reaching the pose predicted for the next step, so the
// speculative contact exists before the impact. 60 Hz, default settings.
import { describe, expect, it } from 'vitest';
import { Box, Capsule, Sphere, World, type RigidBody, type Shape } from '../../src/index';
import type { Aabb } from '../../src/collision/aabb';
import { DT } from '../helpers/world';

/** Steps `world` `steps` times; the lowest y of `body`'s bounding box over those steps (m). */
function lowestOver(world: World, body: RigidBody, steps: number): number {
  const box = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } } as Aabb;
  let lowest = Infinity;
  for (let i = 0; i < steps; i++) {
    world.step(DT);
    body.shape.computeAabb(box, body.position, body.rotation);
    lowest = Math.min(lowest, box.min.y);
  }
  return lowest;
}

describe('falling onto the floor', () => {
  it('boxes, spheres and capsules dropped from 1–8 m never sink more than 2 mm into the floor', () => {
    const shapes: Array<[string, () => Shape]> = [
      ['box', () => new Box({ x: 0.2, y: 0.2, z: 0.2 })],
      ['sphere', () => new Sphere(0.15)],
      ['capsule', () => new Capsule(0.06, 0.15)],
    ];
    let worst = 0;
    const rows: string[] = [];
    for (const [name, make] of shapes) {
      for (const height of [1, 2, 3, 4, 6, 8]) {
        const world = new World();
        world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
        // Tilted a little, so boxes and capsules land on a corner or an end.
        const body = world.createBody({ type: 'dynamic', shape: make(), position: { x: 0, y: height, z: 0 }, rotation: { x: 0.1, y: 0, z: 0.05, w: 0.9937 } });
        const lowest = lowestOver(world, body, 120 + 60 * height);
        worst = Math.max(worst, -lowest);
        rows.push(`${name} ${height} m: ${(lowest * 1000).toFixed(2)} mm`);
      }
    }
    console.log(`lowest point: ${rows.join('; ')}`);
    expect(worst).toBeLessThan(0.002);
  });

  it('capsules and spheres spinning at 25 rad/s as they land sink less than 2 mm', () => {
    // A body-fixed point on a rounded end lifts off the floor as the end turns
    // (ρ(1 − cos φ), 0.4 rad a step at 25 rad/s); the contact tracks the end's centre.
    let worst = 0;
    const rows: string[] = [];
    for (const [name, shape] of [['capsule', new Capsule(0.06, 0.2)], ['sphere', new Sphere(0.1)]] as const) {
      for (const spin of [-25, 25]) {
        for (const vy of [-1, -3, -6]) {
          const world = new World();
          world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
          const body = world.createBody({
            type: 'dynamic', shape, position: { x: 0, y: 0.45, z: 0 }, rotation: { x: 0, y: 0, z: 0.6, w: 0.8 },
            linearVelocity: { x: 0, y: vy, z: 0 }, angularVelocity: { x: 0, y: 0, z: spin },
          });
          const lowest = lowestOver(world, body, 90);
          worst = Math.max(worst, -lowest);
          rows.push(`${name} ω ${spin} v ${vy}: ${(lowest * 1000).toFixed(2)} mm`);
        }
      }
    }
    console.log(`spinning landings, lowest point: ${rows.join('; ')}`);
    expect(worst).toBeLessThan(0.002);
  });

  it('a long capsule spinning in place above the floor meets it on the step its end swings down (the turn grows the fat box)', () => {
    // No gravity, no drift: only the turn brings the capsule's end (1 m
    // across, 20 rad/s: a 17 cm swing a step) to the floor. Its box, refitted
    // to the current pose each step, stays clear of the floor until the end
    // is within the 3 cm margin; the next step can swing it 5 cm deeper.
    let worst = 0;
    const rows: string[] = [];
    for (const height of [0.42, 0.44, 0.46, 0.48]) {
      for (const spin of [-20, 20]) {
        const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
        world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
        // Lying along x (the capsule's axis is its local y), turning about z.
        const body = world.createBody({ type: 'dynamic', shape: new Capsule(0.1, 0.4), position: { x: 0, y: height, z: 0 }, rotation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 } });
        body.setAngularVelocity({ x: 0, y: 0, z: spin });
        const lowest = lowestOver(world, body, 30);
        worst = Math.max(worst, -lowest);
        rows.push(`${height} m, ${spin} rad/s: ${(lowest * 1000).toFixed(1)} mm`);
      }
    }
    console.log(`spinning in place, lowest point: ${rows.join('; ')}`);
    expect(worst).toBeLessThan(0.002);
  });
});
