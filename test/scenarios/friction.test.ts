// Friction scenarios: 60 Hz, g = 9.81, default solver ('soft': 4 sub-steps of 2 + 1
// sweeps) unless stated. The slope is a static box rotated about
// Z; a box on it is placed in the slope's frame.
import { describe, expect, it } from 'vitest';
import { Box, quat, World, type FrictionModel, type RigidBody } from '../../src/index';
import { DT } from '../helpers/world';

const G = 9.81;

function slopeWorld(angleDeg: number, mu: number, model: FrictionModel, sleep = false): { world: World; rot: { x: number; y: number; z: number; w: number }; theta: number } {
  const world = new World({ solver: { frictionModel: model }, sleeping: { enabled: sleep } });
  const theta = (angleDeg * Math.PI) / 180;
  const rot = quat.fromAxisAngle(quat.quat(), { x: 0, y: 0, z: 1 }, theta);
  // Centre the slab half a thickness below the origin along its normal, so its top face passes through the origin.
  const centre = quat.rotate({ x: 0, y: 0, z: 0 }, rot, { x: 0, y: -0.5, z: 0 });
  world.createBody({ type: 'static', shape: new Box({ x: 40, y: 0.5, z: 10 }), position: centre, rotation: rot, friction: mu });
  return { world, rot, theta };
}

/** World point at slope coordinates: u along the slope's x axis (uphill), v along its normal. */
function onSlope(rot: { x: number; y: number; z: number; w: number }, u: number, v: number): { x: number; y: number; z: number } {
  return quat.rotate({ x: 0, y: 0, z: 0 }, rot, { x: u, y: v, z: 0 });
}

function along(rot: { x: number; y: number; z: number; w: number }, b: RigidBody): number {
  const local = quat.inverseRotate({ x: 0, y: 0, z: 0 }, rot, b.position);
  return local.x;
}

describe('box on a 30° slope', () => {
  it('μ = 0.7 holds: drift < 1 mm in 10 s (sleep off)', () => {
    for (const model of ['constant', 'coulomb'] as const) {
      const { world, rot } = slopeWorld(30, 0.7, model);
      const box = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: onSlope(rot, 0, 0.5), rotation: rot, friction: 0.7 });
      for (let i = 0; i < 30; i++) world.step(DT); // settle the initial contact
      const u0 = along(rot, box);
      for (let i = 0; i < 600; i++) world.step(DT);
      const drift = Math.abs(along(rot, box) - u0);
      console.log(`[${model}] μ=0.7 30° drift over 10 s: ${(drift * 1000).toFixed(3)} mm`);
      expect(drift).toBeLessThan(0.001);
    }
  });

  it('μ = 0.5 slides (tan 30° = 0.577 > 0.5)', () => {
    const { world, rot } = slopeWorld(30, 0.5, 'constant');
    const box = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: onSlope(rot, 0, 0.5), rotation: rot, friction: 0.5 });
    const u0 = along(rot, box);
    for (let i = 0; i < 120; i++) world.step(DT);
    const travelled = u0 - along(rot, box);
    const expected = 0.5 * G * (Math.sin(Math.PI / 6) - 0.5 * Math.cos(Math.PI / 6)) * 4;
    console.log(`μ=0.5 slide in 2 s: ${travelled.toFixed(4)} m (analytic ${expected.toFixed(4)} m)`);
    expect(Math.abs(travelled - expected) / expected).toBeLessThan(0.02);
  });

  it('μ = 0.2 slides 6.41 m in 2 s ± 2 % (constant and coulomb); catto2005 recorded', () => {
    const expected = 0.5 * G * (Math.sin(Math.PI / 6) - 0.2 * Math.cos(Math.PI / 6)) * 4;
    expect(expected).toBeCloseTo(6.41, 2);
    for (const model of ['constant', 'coulomb', 'catto2005'] as const) {
      const { world, rot } = slopeWorld(30, 0.2, model);
      const box = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: onSlope(rot, 20, 0.5), rotation: rot, friction: 0.2 });
      const u0 = along(rot, box);
      for (let i = 0; i < 120; i++) world.step(DT);
      const travelled = u0 - along(rot, box);
      console.log(`[${model}] μ=0.2 30° slide in 2 s: ${travelled.toFixed(4)} m (analytic ${expected.toFixed(4)})`);
      if (model !== 'catto2005') expect(Math.abs(travelled - expected) / expected).toBeLessThan(0.02);
      else expect(travelled).toBeGreaterThan(0);
    }
  });
});

describe('a stack on a 20° slope', () => {
  it('five flat boxes (2 × 0.5 × 2 m, μ = 0.6) drift < 1 mm in 10 s under constant and coulomb; catto2005 recorded', () => {
    // tan 20° = 0.36 < 0.6: every interface can hold. The bottom box must
    // resist the slope component of all five (1.71 m·g along the slope for
    // five boxes of mass m); catto2005 bounds it by μ·m·g of its own weight.
    const drifts: Record<string, number> = {};
    for (const model of ['constant', 'coulomb', 'catto2005'] as const) {
      const { world, rot } = slopeWorld(20, 0.6, model);
      const boxes: RigidBody[] = [];
      for (let k = 0; k < 5; k++) {
        boxes.push(world.createBody({ type: 'dynamic', shape: new Box({ x: 1, y: 0.25, z: 1 }), position: onSlope(rot, 0, 0.25 + 0.5 * k), rotation: rot, friction: 0.6 }));
      }
      for (let i = 0; i < 60; i++) world.step(DT); // settle the initial contacts
      const u0 = boxes.map((b) => along(rot, b));
      for (let i = 0; i < 600; i++) world.step(DT);
      let drift = 0;
      boxes.forEach((b, k) => { drift = Math.max(drift, Math.abs(along(rot, b) - u0[k]!)); });
      drifts[model] = drift;
      console.log(`[${model}] five flat boxes on 20°, μ=0.6: largest drift over 10 s ${(drift * 1000).toFixed(3)} mm`);
    }
    expect(drifts.constant).toBeLessThan(0.001);
    expect(drifts.coulomb).toBeLessThan(0.001);
    expect(Number.isFinite(drifts.catto2005)).toBe(true);
  });
});

describe('sliding on flat ground at 20 m/s', () => {
  it('decelerates at μg on 12 headings with heading error < 1°', () => {
    const mu = 0.5;
    for (let k = 0; k < 12; k++) {
      const heading = (k * Math.PI) / 6 + 0.1;
      const world = new World({ sleeping: { enabled: false } });
      world.createBody({ type: 'static', shape: new Box({ x: 100, y: 0.5, z: 100 }), position: { x: 0, y: -0.5, z: 0 }, friction: mu });
      const box = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 0.5, z: 0 }, friction: mu });
      for (let i = 0; i < 10; i++) world.step(DT); // settle
      box.setLinearVelocity({ x: 20 * Math.cos(heading), y: 0, z: 20 * Math.sin(heading) });
      const x0 = box.position.x, z0 = box.position.z;
      for (let i = 0; i < 60; i++) world.step(DT);
      const v = box.linearVelocity;
      const speed = Math.hypot(v.x, v.z);
      const decel = 20 - speed;
      const moved = Math.atan2(box.position.z - z0, box.position.x - x0);
      let err = Math.abs(moved - heading);
      if (err > Math.PI) err = 2 * Math.PI - err;
      expect(Math.abs(decel - mu * G) / (mu * G)).toBeLessThan(0.02);
      expect((err * 180) / Math.PI).toBeLessThan(1);
    }
  });
});
