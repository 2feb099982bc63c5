// Cylinder and ConvexHull scenarios: 60 Hz, g = 9.81, default solver, sleeping
// off (a sleeping body would pass a drift test without resting). The slope is
// a static box rotated about Z whose top face passes through the origin.
import { describe, expect, it } from 'vitest';
import { Box, ConvexHull, Cylinder, quat, World, type RigidBody, type Vec3 } from '../../src/index';
import { DT, dist } from '../helpers/world';

const G = 9.81;
type Q = { x: number; y: number; z: number; w: number };

function flatWorld(mu = 0.5): World {
  const world = new World({ sleeping: { enabled: false } });
  world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 }, friction: mu });
  return world;
}

function slopeWorld(angleDeg: number, mu: number): { world: World; rot: Q; theta: number } {
  const world = new World({ sleeping: { enabled: false } });
  const theta = (angleDeg * Math.PI) / 180;
  const rot = quat.fromAxisAngle(quat.quat(), { x: 0, y: 0, z: 1 }, theta);
  const centre = quat.rotate({ x: 0, y: 0, z: 0 }, rot, { x: 0, y: -0.5, z: 0 });
  world.createBody({ type: 'static', shape: new Box({ x: 60, y: 0.5, z: 10 }), position: centre, rotation: rot, friction: mu });
  return { world, rot, theta };
}

function onSlope(rot: Q, u: number, v: number): Vec3 {
  return quat.rotate({ x: 0, y: 0, z: 0 }, rot, { x: u, y: v, z: 0 });
}

/** Position along the slope's x axis (uphill) and velocity along it. */
function along(rot: Q, v: Readonly<Vec3>): number {
  return quat.inverseRotate({ x: 0, y: 0, z: 0 }, rot, v).x;
}

const SIDEWAYS = quat.fromAxisAngle(quat.quat(), { x: 1, y: 0, z: 0 }, Math.PI / 2); // local Y → world Z

const CUBE = [-0.5, 0.5].flatMap((x) => [-0.5, 0.5].flatMap((y) => [-0.5, 0.5].map((z) => ({ x, y, z }))));

describe('Cylinder resting', () => {
  it('a barrel on its end rests without rocking: drift < 1 mm in 10 s, rest height within 1 cm of h', () => {
    const world = flatWorld();
    const barrel = world.createBody({ type: 'dynamic', shape: new Cylinder(0.3, 0.45), position: { x: 0, y: 0.46, z: 0 } });
    for (let i = 0; i < 60; i++) world.step(DT);
    const p0 = { ...barrel.position };
    let maxTiltRate = 0;
    for (let i = 0; i < 600; i++) {
      world.step(DT);
      const w = barrel.angularVelocity;
      maxTiltRate = Math.max(maxTiltRate, Math.hypot(w.x, w.z));
    }
    const drift = dist(barrel.position, p0);
    console.log(`barrel on end: rest y ${barrel.position.y.toFixed(5)}, drift ${(drift * 1000).toFixed(4)} mm, max tilt rate ${maxTiltRate.toExponential(2)} rad/s`);
    expect(drift).toBeLessThan(0.001);
    expect(Math.abs(barrel.position.y - 0.45)).toBeLessThan(0.01);
    expect(maxTiltRate).toBeLessThan(1e-3);
  });
  it('a barrel on its side rests: drift < 1 mm in 10 s, rest height within 1 cm of r', () => {
    const world = flatWorld();
    const barrel = world.createBody({ type: 'dynamic', shape: new Cylinder(0.3, 0.45), position: { x: 0, y: 0.31, z: 0 }, rotation: SIDEWAYS });
    for (let i = 0; i < 60; i++) world.step(DT);
    const p0 = { ...barrel.position };
    for (let i = 0; i < 600; i++) world.step(DT);
    const drift = dist(barrel.position, p0);
    console.log(`barrel on side: rest y ${barrel.position.y.toFixed(5)}, drift ${(drift * 1000).toFixed(4)} mm`);
    expect(drift).toBeLessThan(0.001);
    expect(Math.abs(barrel.position.y - 0.3)).toBeLessThan(0.01);
  });
  it('a wheel rolls down a 10° slope at (2/3) g sin θ within 2 %, straight (sideways drift < 1 cm over 2 s)', () => {
    const { world, rot, theta } = slopeWorld(10, 1);
    const r = 0.4;
    const wheelRot = quat.multiply(quat.quat(), rot, SIDEWAYS);
    // Angular damping off: the analytic answer has none.
    const wheel = world.createBody({ type: 'dynamic', shape: new Cylinder(r, 0.1), position: onSlope(rot, 0, r), rotation: wheelRot, friction: 1, angularDamping: 0 });
    for (let i = 0; i < 30; i++) world.step(DT);
    const v1 = along(rot, wheel.linearVelocity);
    const z1 = wheel.position.z;
    for (let i = 0; i < 120; i++) world.step(DT);
    const v2 = along(rot, wheel.linearVelocity);
    const a = -(v2 - v1) / 2;
    const expected = (2 / 3) * G * Math.sin(theta);
    console.log(`wheel on 10°: a = ${a.toFixed(5)} m/s², expected ${expected.toFixed(5)} (${((a / expected - 1) * 100).toFixed(3)} %), sideways ${(Math.abs(wheel.position.z - z1) * 1000).toFixed(3)} mm`);
    expect(Math.abs(a / expected - 1)).toBeLessThan(0.02);
    expect(Math.abs(wheel.position.z - z1)).toBeLessThan(0.01);
  });
});

describe("ConvexHull of a cube's corners behaves like Box", () => {
  it('same rest height (within 1 %) and drift < 1 mm in 10 s', () => {
    const heights: number[] = [];
    for (const shape of [new Box({ x: 0.5, y: 0.5, z: 0.5 }), new ConvexHull(CUBE)]) {
      const world = flatWorld();
      const b = world.createBody({ type: 'dynamic', shape, position: { x: 0, y: 0.51, z: 0 } });
      for (let i = 0; i < 60; i++) world.step(DT);
      const p0 = { ...b.position };
      for (let i = 0; i < 600; i++) world.step(DT);
      heights.push(b.position.y);
      expect(dist(b.position, p0)).toBeLessThan(0.001);
    }
    console.log(`rest heights: box ${heights[0]!.toFixed(6)}, hull ${heights[1]!.toFixed(6)}`);
    expect(Math.abs(heights[1]! / heights[0]! - 1)).toBeLessThan(0.01);
    expect(Math.abs(heights[0]! - 0.5)).toBeLessThan(0.01);
  });
  it('same slide distance on a 20° incline with μ = 0.2 (within 1 % of each other and of g(sin θ − μ cos θ) t²/2)', () => {
    const slides: number[] = [];
    let expected = 0;
    for (const shape of [new Box({ x: 0.5, y: 0.5, z: 0.5 }), new ConvexHull(CUBE)]) {
      const { world, rot, theta } = slopeWorld(20, 0.2);
      const b = world.createBody({ type: 'dynamic', shape, position: onSlope(rot, 0, 0.5), rotation: rot, friction: 0.2 });
      const u0 = along(rot, b.position);
      for (let i = 0; i < 90; i++) world.step(DT);
      slides.push(u0 - along(rot, b.position));
      expected = 0.5 * G * (Math.sin(theta) - 0.2 * Math.cos(theta)) * 1.5 * 1.5;
    }
    console.log(`slide 1.5 s: box ${slides[0]!.toFixed(5)} m, hull ${slides[1]!.toFixed(5)} m, analytic ${expected.toFixed(5)} m`);
    expect(Math.abs(slides[1]! / slides[0]! - 1)).toBeLessThan(0.01);
    expect(Math.abs(slides[0]! / expected - 1)).toBeLessThan(0.01);
  });
});

describe('mixed pairs rest', () => {
  it('a hull rock and a cylinder stacked on boxes and on each other settle (no body moves > 1 mm over the last 5 s)', () => {
    const world = flatWorld();
    const bodies: RigidBody[] = [];
    const rock = new ConvexHull([
      { x: -0.6, y: -0.3, z: -0.4 }, { x: 0.7, y: -0.3, z: -0.5 }, { x: 0.6, y: -0.3, z: 0.5 }, { x: -0.5, y: -0.3, z: 0.6 },
      { x: -0.3, y: 0.3, z: -0.2 }, { x: 0.4, y: 0.35, z: -0.1 }, { x: 0.2, y: 0.4, z: 0.3 }, { x: -0.2, y: 0.3, z: 0.25 },
    ]);
    bodies.push(world.createBody({ type: 'dynamic', shape: new Box({ x: 0.6, y: 0.25, z: 0.6 }), position: { x: 0, y: 0.25, z: 0 } }));
    bodies.push(world.createBody({ type: 'dynamic', shape: new Cylinder(0.4, 0.3), position: { x: 0, y: 0.82, z: 0 } }));
    bodies.push(world.createBody({ type: 'dynamic', shape: rock, position: { x: 0, y: 1.6, z: 0 }, rotation: rock.rotation }));
    bodies.push(world.createBody({ type: 'dynamic', shape: new Cylinder(0.3, 0.5), position: { x: 3, y: 0.31, z: 0 }, rotation: SIDEWAYS }));
    for (let i = 0; i < 300; i++) world.step(DT);
    const p0 = bodies.map((b) => ({ ...b.position }));
    for (let i = 0; i < 300; i++) world.step(DT);
    const moves = bodies.map((b, i) => dist(b.position, p0[i]!));
    console.log(`last 5 s moves (mm): ${moves.map((m) => (m * 1000).toFixed(3)).join(', ')}`);
    for (const m of moves) expect(m).toBeLessThan(0.001);
  });
});
