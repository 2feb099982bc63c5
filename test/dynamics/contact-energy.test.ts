/**
 * Contacts never add energy (issue 16 §1). dt 1/60, default solver settings
 * ('soft', 4 sub-steps), unless a test says otherwise. Energy is ½mv² + ½ωᵀIω
 * + mgh with the inertia of the body's current pose (test/helpers/energy.ts).
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, Sphere, TriangleMesh, World, type RigidBody } from '../../src/index';
import { bodyEnergy } from '../helpers/energy';
import { Random } from '../helpers/random';

const DT = 1 / 60;

function floorWorld(mesh = false): World {
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
  if (mesh) {
    world.createBody({ type: 'static', shape: new TriangleMesh([-50, 0, -50, 50, 0, -50, 50, 0, 50, -50, 0, 50], [0, 2, 1, 0, 3, 2]) });
  } else {
    world.createBody({ type: 'static', shape: new Box({ x: 50, y: 0.5, z: 50 }), position: { x: 0, y: -0.5, z: 0 } });
  }
  return world;
}

function speed(b: RigidBody): number {
  const v = b.linearVelocity;
  return Math.hypot(v.x, v.y, v.z);
}
function spin(b: RigidBody): number {
  const w = b.angularVelocity;
  return Math.hypot(w.x, w.y, w.z);
}

/** Lowest point of a capsule (segment along local Y, half-height hh, radius r). */
function capsuleBottom(b: RigidBody, r: number, hh: number): number {
  const q = b.rotation;
  const axisY = 1 - 2 * (q.x * q.x + q.z * q.z);
  return b.position.y - Math.abs(axisY) * hh - r;
}

describe('a thin spinning capsule landing on a floor', () => {
  // [radius, half-height, mass, restitution, fall speed, spin]: the reports and two more.
  const cases: [number, number, number, number, number, number][] = [
    [0.027, 1.345, 4.8, 0, 17, 68],
    [0.04, 1.345, 71, 0.83, 46, 449],
    [0.04, 1.345, 71, 0.3, 20, 250],
    [0.03, 1.3, 10, 1, 30, 100],
  ];
  for (const [r, hh, m, e, v0, w0] of cases) {
    it(`r ${r}, half-height ${hh}, ${m} kg, e ${e}, ${v0} m/s, ${w0} rad/s: energy never rises above its start, never sinks deeper than its diameter (box and mesh floors, 12 seeded orientations each)`, () => {
      const seed = 1600 + Math.round(w0);
      const rng = new Random(seed);
      let worstRise = -Infinity, worstDepth = 0;
      for (let k = 0; k < 24; k++) {
        const world = floorWorld(k % 2 === 1);
        const body = world.createBody({
          type: 'dynamic', shape: new Capsule(r, hh), position: { x: 0, y: 2, z: 0 }, rotation: rng.quat(),
          mass: m, restitution: e, friction: rng.range(0, 1),
        });
        const axis = rng.unitVec3();
        body.setLinearVelocity({ x: rng.range(-3, 3), y: -v0, z: rng.range(-3, 3) });
        body.setAngularVelocity({ x: axis.x * w0, y: axis.y * w0, z: axis.z * w0 });
        const e0 = bodyEnergy(body);
        for (let i = 0; i < 240; i++) {
          world.step(DT);
          worstRise = Math.max(worstRise, (bodyEnergy(body) - e0) / e0);
          // (A bouncing capsule may leave the 100 m floor sideways and fall past its edge.)
          if (Math.abs(body.position.x) < 48 && Math.abs(body.position.z) < 48) worstDepth = Math.max(worstDepth, -capsuleBottom(body, r, hh));
        }
      }
      console.log(`[contact energy] seed ${seed}: capsule r ${r} e ${e} at ${v0} m/s, ${w0} rad/s: worst energy rise ${(100 * worstRise).toFixed(3)} % of the start, deepest ${(1000 * worstDepth).toFixed(1)} mm`);
      expect(worstRise).toBeLessThan(1e-3);
      expect(worstDepth).toBeLessThan(2 * r);
    });
  }
});

describe('a 1 m cube dropped flat (restitution 0)', () => {
  for (const [v0, mesh] of [[20, false], [300, false], [1000, false], [300, true], [1000, true]] as const) {
    it(`at ${v0} m/s onto a ${mesh ? 'TriangleMesh' : 'box'} floor: lands without spin or rebound and rests on top`, () => {
      const world = floorWorld(mesh);
      const cube = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 3, z: 0 }, mass: 1, restitution: 0 });
      cube.setLinearVelocity({ x: 0, y: -v0, z: 0 });
      let maxSpin = 0, maxUp = 0, lowest = Infinity;
      for (let i = 0; i < 180; i++) {
        world.step(DT);
        maxSpin = Math.max(maxSpin, spin(cube));
        maxUp = Math.max(maxUp, cube.linearVelocity.y);
        lowest = Math.min(lowest, cube.position.y);
      }
      console.log(`[contact energy] cube at ${v0} m/s (${mesh ? 'mesh' : 'box'}): max spin ${maxSpin.toFixed(3)} rad/s, max upward speed ${maxUp.toFixed(3)} m/s, lowest centre ${lowest.toFixed(4)} m, final ${cube.position.y.toFixed(4)} m`);
      // A flat landing has no cause for spin; a zero-restitution landing none for a rebound.
      // What remains at 300-1000 m/s is the speculative contact closing 1-4 m per sub-step.
      expect(maxSpin).toBeLessThan(v0 <= 20 ? 0.05 : 0.05 * v0);
      expect(maxUp).toBeLessThan(v0 <= 20 ? 0.05 : 0.01 * v0);
      expect(lowest).toBeGreaterThan(0.49);
      expect(cube.position.y).toBeCloseTo(0.5, 2);
    });
  }
});

describe('restitution gives back at most e² of the approach energy', () => {
  for (const e of [0.3, 0.5, 0.83, 1]) {
    it(`a sphere and a box dropped at 10 m/s with e = ${e}: rebound speed ≤ e × impact speed (+1 %)`, () => {
      for (const shape of [new Sphere(0.5), new Box({ x: 0.5, y: 0.5, z: 0.5 })]) {
        const world = floorWorld();
        const body = world.createBody({ type: 'dynamic', shape, position: { x: 0, y: 2, z: 0 }, mass: 2, restitution: e });
        body.setLinearVelocity({ x: 0, y: -10, z: 0 });
        let impact = 0, rebound = 0, spinAfter = 0;
        for (let i = 0; i < 30 && impact === 0; i++) {
          const vy = body.linearVelocity.y;
          world.step(DT);
          if (vy < 0 && body.linearVelocity.y > 0) {
            impact = -vy + 9.81 * DT;
            rebound = body.linearVelocity.y;
            spinAfter = spin(body);
          }
        }
        console.log(`[contact energy] ${shape.constructor.name} e ${e}: impact ${impact.toFixed(3)} m/s, rebound ${rebound.toFixed(3)} m/s (${(rebound / impact).toFixed(4)} of it), spin after ${spinAfter.toFixed(4)} rad/s`);
        expect(impact).toBeGreaterThan(10);
        expect(rebound).toBeLessThanOrEqual(e * impact * 1.01);
        expect(rebound).toBeGreaterThan(e * impact * 0.98);
        // A flat landing has no cause for spin.
        expect(spinAfter).toBeLessThan(0.05);
      }
    });
  }
});

describe('random single bodies, thin and fast, onto box and mesh floors', () => {
  it('200 seeded bodies: energy never above its start plus 0.1 %, lowest point never deeper than 0.75 × the body\'s smallest size', () => {
    const seed = 7716;
    const rng = new Random(seed);
    let worstRise = -Infinity, worstSink = -Infinity, worst = '';
    for (let k = 0; k < 200; k++) {
      const world = floorWorld(k % 2 === 1);
      const kind = rng.int(0, 3);
      const thin = rng.range(0.025, 0.1), long = rng.range(0.5, 3);
      const shape = kind === 0 ? new Box({ x: thin, y: long, z: rng.range(thin, long) }) : kind === 1 ? new Capsule(thin, long) : new Sphere(rng.range(0.05, 1));
      const smallest = kind === 0 ? 2 * thin : kind === 1 ? 2 * thin : 2 * (shape as Sphere).radius;
      const body = world.createBody({
        type: 'dynamic', shape, position: { x: 0, y: long + rng.range(1, 4), z: 0 }, rotation: rng.quat(),
        mass: rng.range(0.1, 1000), restitution: rng.range(0, 1), friction: rng.range(0, 1),
      });
      const axis = rng.unitVec3(), w = rng.range(0, 100);
      const dir = rng.unitVec3();
      const v = rng.range(0, 200);
      body.setLinearVelocity({ x: dir.x * v * 0.3, y: -Math.abs(dir.y) * v - 1, z: dir.z * v * 0.3 });
      body.setAngularVelocity({ x: axis.x * w, y: axis.y * w, z: axis.z * w });
      const e0 = bodyEnergy(body);
      for (let i = 0; i < 180; i++) {
        world.step(DT);
        const rise = (bodyEnergy(body) - e0) / Math.max(e0, 1e-9);
        const q = body.rotation;
        // Lowest point from the shape's extent along world −y.
        // World y of the local axes: the second row of the rotation matrix.
        const r10 = 2 * (q.x * q.y + q.z * q.w), r11 = 1 - 2 * (q.x * q.x + q.z * q.z), r12 = 2 * (q.y * q.z - q.x * q.w);
        let down: number;
        if (kind === 0) {
          const h = (shape as Box).halfExtents;
          down = Math.abs(r10) * h.x + Math.abs(r11) * h.y + Math.abs(r12) * h.z;
        } else if (kind === 1) down = Math.abs(r11) * long + thin;
        else down = (shape as Sphere).radius;
        // Bodies that left the 100 m floor sideways fall past it by right.
        const onFloor = Math.abs(body.position.x) < 50 && Math.abs(body.position.z) < 50;
        const sink = onFloor ? (-(body.position.y - down)) / smallest : 0;
        if (rise > worstRise) { worstRise = rise; }
        if (sink > worstSink) { worstSink = sink; worst = `body ${k} (${['box', 'capsule', 'sphere'][kind]}, v ${v.toFixed(0)} m/s, w ${w.toFixed(0)} rad/s) step ${i}`; }
      }
    }
    console.log(`[contact energy] seed ${seed}: 200 bodies, worst energy rise ${(100 * worstRise).toFixed(4)} %, deepest ${worstSink.toFixed(3)} of the body's smallest size (${worst})`);
    expect(worstRise).toBeLessThan(1e-3);
    // The bar is one smallest size (measured: 0.48, a box at 179 m/s).
    expect(worstSink).toBeLessThan(0.75);
  });
});

describe('a step split for a fast-turning body (solver.maxTurnPerStep)', () => {
  it('keeps the step\'s start pose for interpolation and brings a kinematic body exactly onto its target', () => {
    const world = floorWorld();
    const stick = world.createBody({ type: 'dynamic', shape: new Capsule(0.03, 1.3), position: { x: 0, y: 1.4, z: 0 }, mass: 5 });
    stick.setAngularVelocity({ x: 0, y: 0, z: 100 }); // 1.67 rad a step: 6 parts at 0.3 rad
    const lift = world.createBody({ type: 'kinematic', shape: new Box({ x: 1, y: 0.1, z: 1 }), position: { x: 5, y: 1, z: 0 } });
    const before = { x: stick.position.x, y: stick.position.y, z: stick.position.z };
    const rotBefore = { ...stick.rotation };
    lift.setKinematicTarget({ x: 5, y: 1.25, z: 0.5 });
    world.step(DT);
    const pp = stick.previousPosition, pq = stick.previousRotation;
    console.log(`[split step] previous pose error ${Math.hypot(pp.x - before.x, pp.y - before.y, pp.z - before.z).toExponential(2)} m; lift at (${lift.position.x}, ${lift.position.y}, ${lift.position.z})`);
    expect(pp.x).toBe(before.x); expect(pp.y).toBe(before.y); expect(pp.z).toBe(before.z);
    expect(pq.w).toBe(rotBefore.w); expect(pq.z).toBe(rotBefore.z);
    expect(lift.position.y).toBe(1.25);
    expect(lift.position.z).toBe(0.5);
    // The stick turned through the whole step's 1.67 rad (about z) despite the split.
    const turned = 2 * Math.atan2(Math.abs(stick.rotation.z), stick.rotation.w);
    expect(turned).toBeGreaterThan(1.5);
  });
});
