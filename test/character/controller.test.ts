/**
 * CharacterController scenarios (60 Hz moves, default settings: skin 1 cm,
 * 32 NGS iterations, 5 sweeps, tolerance 0.1 mm). Expected values are worked
 * out by hand in each test.
 */
import { describe, expect, it } from 'vitest';
import { Box, Sphere, World } from '../../src/index';
import { CharacterController } from '../../character/index';
import { DT, REST_Y, flatWorld, penetration, staticBox } from './helpers';

describe('CharacterController on flat ground', () => {
  it('walks 5 m at 4 m/s and arrives within 1 cm, no bobbing over 1 mm', () => {
    const { world } = flatWorld();
    const c = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } });
    let minY = Infinity, maxY = -Infinity;
    const step = { x: 4 * DT, y: 0, z: 0 };
    for (let i = 0; i < 75; i++) {
      const r = c.move(step);
      expect(r.grounded).toBe(true);
      minY = Math.min(minY, r.position.y);
      maxY = Math.max(maxY, r.position.y);
    }
    expect(Math.abs(c.position.x - 5)).toBeLessThan(0.01);
    expect(Math.abs(c.position.y - REST_Y)).toBeLessThan(0.01);
    expect(maxY - minY).toBeLessThan(0.001);
    expect(c.result.groundNormal.y).toBeCloseTo(1, 6);
  });
});

describe('CharacterController against walls', () => {
  it('slides along a wall at 45° at speed × cos 45° ± 2 %, never penetrating > 1 mm', () => {
    const { world } = flatWorld();
    // Wall long axis along (cos 45°, 0, −sin 45°); its face towards the start has normal (−√½, 0, −√½).
    staticBox(world, { x: 20, y: 2, z: 0.5 }, { x: 3, y: 2, z: 0 }, Math.PI / 4);
    const c = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } });
    const speed = 4;
    const step = { x: speed * DT, y: 0, z: 0 };
    let deepest = 0;
    const speeds: number[] = [];
    for (let i = 0; i < 120; i++) {
      const x0 = c.position.x, z0 = c.position.z;
      c.move(step);
      deepest = Math.max(deepest, penetration(world, c));
      if (i >= 60) speeds.push(Math.hypot(c.position.x - x0, c.position.z - z0) / DT);
    }
    const expected = speed * Math.cos(Math.PI / 4);
    for (const v of speeds) expect(Math.abs(v - expected) / expected).toBeLessThan(0.02);
    expect(deepest).toBeLessThan(0.001);
    // it really is sliding along the wall: z went negative
    expect(c.position.z).toBeLessThan(-1);
  });

  it('acute wedge (30°): no penetration > 1 mm, < 1 mm/frame once stopped, iterations ≤ maxIterations', () => {
    const { world } = flatWorld();
    const apex = { x: 4, z: 0 };
    const half = 15 * Math.PI / 180;
    for (const side of [1, -1]) {
      const dx = Math.cos(half), dz = side * Math.sin(half);
      // box whose long centre line ends at the apex, 10 cm thick
      staticBox(world, { x: 3, y: 2, z: 0.1 }, { x: apex.x - dx * 3, y: 2, z: apex.z - dz * 3 }, -side * half);
    }
    const c = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0.05 } });
    const step = { x: 4 * DT, y: 0, z: 0 };
    let deepest = 0, maxIt = 0, lateMotion = 0;
    for (let i = 0; i < 300; i++) {
      const x0 = c.position.x, y0 = c.position.y, z0 = c.position.z;
      const r = c.move(step);
      deepest = Math.max(deepest, penetration(world, c));
      maxIt = Math.max(maxIt, r.maxSolveIterations);
      if (i >= 180) lateMotion = Math.max(lateMotion, Math.hypot(c.position.x - x0, c.position.y - y0, c.position.z - z0));
    }
    expect(deepest).toBeLessThan(0.001);
    expect(lateMotion).toBeLessThan(0.001);
    expect(maxIt).toBeLessThanOrEqual(c.settings.maxIterations);
    expect(maxIt).toBeGreaterThan(1);
    // stopped in the wedge, short of the apex by about r / sin 15°
    expect(c.position.x).toBeLessThan(apex.x);
    expect(c.position.x).toBeGreaterThan(apex.x - 0.4 / Math.sin(half) - 0.2);
  });
});

describe('CharacterController debug data', () => {
  it('reports where the last shape cast stopped: at the wall when blocked, at the target when free', () => {
    const { world } = flatWorld();
    // Wall face at x = 1.0 (box centre 1.5, half-extent 0.5); capsule radius 0.3.
    staticBox(world, { x: 0.5, y: 2, z: 5 }, { x: 1.5, y: 2, z: 0 });
    const c = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } });
    const free = c.move({ x: 0.2, y: 0, z: 0 });
    expect(free.sweeps).toBeGreaterThan(0);
    expect(free.castHit).toBe(false);
    expect(free.castPosition.x).toBeCloseTo(0.2, 6);
    // Blocked: the first cast hits the wall and adds its plane; the next
    // sweep's cast goes to the solved point, free, and is the last one.
    const blocked = c.move({ x: 2, y: 0, z: 0 });
    expect(blocked.sweeps).toBeGreaterThanOrEqual(2);
    expect(blocked.castHit).toBe(false);
    expect(Math.abs(blocked.castPosition.x - blocked.position.x)).toBeLessThan(0.001);
    expect(Math.abs(blocked.position.x - 0.69)).toBeLessThan(0.002);
    // With one sweep allowed, the last cast is the one that hit: it stops
    // with the capsule touching the face (x = 1.0 − 0.3), before the skin back-off.
    const d = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 2 }, maxSweeps: 1 });
    const hit = d.move({ x: 2, y: 0, z: 0 });
    console.log(`one sweep: cast stopped at x = ${hit.castPosition.x.toFixed(5)} (touching at 0.7), character at ${hit.position.x.toFixed(5)}`);
    expect(hit.castHit).toBe(true);
    expect(Math.abs(hit.castPosition.x - 0.7)).toBeLessThan(0.002);
    expect(hit.position.x).toBeLessThan(hit.castPosition.x);
  });
});

describe('CharacterController at high speed', () => {
  it('a 20 m/s dash into a 5 cm wall never tunnels', () => {
    const { world } = flatWorld();
    staticBox(world, { x: 0.025, y: 2, z: 5 }, { x: 3, y: 2, z: 0 });
    const c = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } });
    let maxX = -Infinity;
    for (let i = 0; i < 60; i++) {
      c.move({ x: 20 * DT, y: 0, z: 0 });
      maxX = Math.max(maxX, c.position.x);
      expect(penetration(world, c)).toBeLessThan(0.001);
    }
    expect(maxX + 0.3).toBeLessThanOrEqual(3 - 0.025 + 0.001);
    expect(maxX + 0.3).toBeGreaterThan(3 - 0.025 - 0.02);
  });

  it('falling at 50 m/s onto a 1 cm floor never tunnels', () => {
    const world = new World();
    staticBox(world, { x: 5, y: 0.005, z: 5 }, { x: 0, y: 0, z: 0 });
    const c = new CharacterController(world, { position: { x: 0, y: 10, z: 0 } });
    let minY = Infinity;
    for (let i = 0; i < 30; i++) {
      c.move({ x: 0, y: -50 * DT, z: 0 });
      minY = Math.min(minY, c.position.y);
    }
    expect(minY).toBeGreaterThanOrEqual(0.005 + 0.9 - 0.001);
    expect(c.result.grounded).toBe(true);
  });
});

describe('CharacterController penetration recovery', () => {
  it('spawned 10 cm inside a box: out within 5 frames, on the near side', () => {
    const { world } = flatWorld();
    staticBox(world, { x: 1, y: 1, z: 1 }, { x: 0, y: 1, z: 0 });
    const c = new CharacterController(world, { position: { x: -1.3 + 0.1, y: REST_Y, z: 0 } });
    expect(penetration(world, c)).toBeGreaterThan(0.09);
    let frames = 0;
    while (penetration(world, c) > 0.001 && frames < 20) {
      c.move({ x: 0, y: 0, z: 0 });
      frames++;
      expect(c.position.x).toBeLessThan(-1.1);
    }
    expect(frames).toBeLessThanOrEqual(5);
    expect(c.position.x).toBeLessThanOrEqual(-1.3 + 0.001);
    expect(c.position.x).toBeGreaterThan(-1.4);
  });
});

describe('CharacterController settings and shape', () => {
  it('bad settings throw RangeError naming the field', () => {
    const { world } = flatWorld();
    const c = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } });
    for (const k of ['skinWidth', 'maxSlopeDegrees', 'stepHeight', 'snapDistance', 'tolerance', 'pushStrength', 'characterMass', 'maxIterations', 'maxSweeps'] as const) {
      const old = c.settings[k];
      c.settings[k] = Number.NaN;
      expect(() => c.move({ x: 0, y: 0, z: 0 })).toThrow(new RegExp(k));
      c.settings[k] = -1;
      expect(() => c.move({ x: 0, y: 0, z: 0 })).toThrow(RangeError);
      c.settings[k] = old;
    }
    expect(() => new CharacterController(world, { radius: -1 })).toThrow(/radius/);
    expect(() => new CharacterController(world, { skinWidth: Number.NaN })).toThrow(/skinWidth/);
    // live tuning: a larger skin keeps the character further from the ground
    c.settings.skinWidth = 0.03;
    for (let i = 0; i < 3; i++) c.move({ x: 0, y: -0.01, z: 0 });
    expect(c.position.y).toBeCloseTo(0.93, 3);
  });

  it('crouch: stands up only when the taller capsule fits', () => {
    const { world } = flatWorld();
    const c = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } });
    expect(c.setHalfHeight(0.3)).toBe(true);
    expect(c.position.y).toBeCloseTo(REST_Y - 0.3, 9); // feet stay put
    // a ceiling at 1.5 m: the crouched capsule (top 1.21 m) walks under it
    staticBox(world, { x: 2, y: 0.25, z: 2 }, { x: 3, y: 1.75, z: 0 });
    for (let i = 0; i < 45; i++) c.move({ x: 4 * DT, y: 0, z: 0 });
    expect(c.position.x).toBeGreaterThan(2.9);
    expect(c.setHalfHeight(0.6)).toBe(false);
    expect(c.halfHeight).toBe(0.3);
    for (let i = 0; i < 45; i++) c.move({ x: 4 * DT, y: 0, z: 0 });
    expect(c.setHalfHeight(0.6)).toBe(true);
    expect(c.position.y).toBeCloseTo(REST_Y, 6);
    expect(penetration(world, c)).toBeLessThan(0.001);
  });
});

describe('CharacterController with other bodies', () => {
  it('two controllers block each other', () => {
    const { world } = flatWorld();
    const a = new CharacterController(world, { position: { x: -2, y: REST_Y, z: 0 } });
    const b = new CharacterController(world, { position: { x: 2, y: REST_Y, z: 0.05 } });
    let closest = Infinity;
    for (let i = 0; i < 120; i++) {
      a.move({ x: 3 * DT, y: 0, z: 0 });
      b.move({ x: -3 * DT, y: 0, z: 0 });
      closest = Math.min(closest, Math.hypot(a.position.x - b.position.x, a.position.z - b.position.z));
    }
    expect(closest).toBeGreaterThan(0.6 - 0.001);
    expect(closest).toBeLessThan(0.7);
  });

  it('pushes a 10 kg box; a 1000 kg box does not move', () => {
    for (const [mass, expectMoved] of [[10, true], [1000, false]] as const) {
      const { world } = flatWorld();
      const box = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.4, y: 0.4, z: 0.4 }), position: { x: 2, y: 0.4, z: 0 }, mass });
      for (let i = 0; i < 30; i++) world.step(DT);
      const x0 = box.position.x;
      const c = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } });
      let deepest = 0;
      for (let i = 0; i < 150; i++) {
        c.move({ x: 3 * DT, y: 0, z: 0 });
        world.step(DT);
        deepest = Math.max(deepest, penetration(world, c));
      }
      const moved = box.position.x - x0;
      if (expectMoved) expect(moved).toBeGreaterThan(0.5);
      else expect(Math.abs(moved)).toBeLessThan(0.01);
      expect(deepest).toBeLessThan(0.002);
    }
  });
});

describe('the character body follows the settings', () => {
  it('a collisionMask changed after creation reaches the character\'s body: a ball in group 2 rests on its head, then falls through it', () => {
    const { world } = flatWorld();
    const controller = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } });
    const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.2), position: { x: 0, y: 2.2, z: 0 }, collisionGroup: 2 });
    const still = { x: 0, y: 0, z: 0 };
    for (let i = 0; i < 120; i++) { controller.move(still); world.step(DT); }
    const onHead = ball.position.y;
    // Everything but group 2, for the queries and the body alike.
    controller.settings.collisionMask = 0xfffffffd;
    for (let i = 0; i < 120; i++) { controller.move(still); world.step(DT); }
    console.log(`[character mask] ball on the head at y ${onHead.toFixed(3)}, after the mask change ${ball.position.y.toFixed(3)}; body mask ${controller.body!.collisionMask}`);
    // Head top at REST_Y + 0.6 + 0.3 ≈ 1.81: the ball rests there, then drops to the floor (centre 0.2).
    expect(onHead).toBeGreaterThan(1.9);
    expect(ball.position.y).toBeCloseTo(0.2, 1);
    expect(controller.body!.collisionMask).toBe(0xfffffffd | 0);
  });
});
