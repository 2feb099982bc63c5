/**
 * Walker scenarios at 60 Hz (walker defaults: speed 4 m/s, acceleration
 * 40 m/s², gravity 9.81 m/s², jump 5 m/s; controller defaults: maxSlope 45°,
 * stepHeight 0.3 m, snapDistance 0.3 m, skin 1 cm).
 */
import { describe, expect, it } from 'vitest';
import { Box, quat, type RigidBody, type World } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { DT, REST_Y, flatWorld, penetration, staticBox } from './helpers';

/** A ramp whose top face rises in +x at `angle` and meets y = 0 at x = x0. */
function ramp(world: World, angle: number, x0: number, length = 10): RigidBody {
  const c = Math.cos(angle), s = Math.sin(angle);
  const L = length / 2;
  // centre = foot + L (cos, sin) − 0.5 (−sin, cos) for a box of half height 0.5
  return staticBox(world, { x: L, y: 0.5, z: 3 }, { x: x0 + L * c + 0.5 * s, y: L * s - 0.5 * c, z: 0 }, 0, angle);
}

function makeWalker(world: World, x = 0, y = REST_Y, z = 0): Walker {
  const c = new CharacterController(world, { position: { x, y, z } });
  const w = new Walker(c);
  c.move({ x: 0, y: -0.01, z: 0 });
  w.update(DT);
  return w;
}

describe('Walker on slopes', () => {
  it('climbs a 30° slope at speed × cos 30° ± 5 %', () => {
    const { world } = flatWorld();
    ramp(world, Math.PI / 6, 1, 16);
    const w = makeWalker(world);
    w.setInput(1, 0, 0);
    const speeds: number[] = [];
    for (let i = 0; i < 150; i++) {
      const p = w.controller.position;
      const x0 = p.x, y0 = p.y;
      w.update(DT);
      expect(w.state).toBe('grounded');
      if (p.x > 3 && p.x < 8) speeds.push(Math.hypot(p.x - x0, p.y - y0) / DT);
    }
    expect(speeds.length).toBeGreaterThan(30);
    const expected = 4 * Math.cos(Math.PI / 6);
    for (const v of speeds) expect(Math.abs(v - expected) / expected).toBeLessThan(0.05);
    expect(penetration(world, w.controller)).toBeLessThan(0.001);
  });

  it('cannot climb a 50° slope (maxSlope 45°) and slides down it', () => {
    const { world } = flatWorld();
    ramp(world, (50 * Math.PI) / 180, 1, 10);
    const w = makeWalker(world);
    w.setInput(1, 0, 0);
    let maxY = -Infinity;
    for (let i = 0; i < 180; i++) {
      w.update(DT);
      maxY = Math.max(maxY, w.controller.position.y);
    }
    expect(maxY).toBeLessThan(REST_Y + 0.15);
    // dropped onto the slope higher up, it slides down instead of standing
    w.setInput(0, 0, 0);
    const foot = 1, h = 2;
    w.controller.setPosition({ x: foot + h / Math.tan((50 * Math.PI) / 180) + 0.2, y: h + 1.3, z: 0 });
    w.velocity.x = 0; w.velocity.y = 0; w.velocity.z = 0;
    let slid = 0;
    const y0 = w.controller.position.y;
    for (let i = 0; i < 60; i++) {
      w.update(DT);
      if (w.state === 'sliding') slid++;
      expect(penetration(world, w.controller)).toBeLessThan(0.001);
    }
    expect(slid).toBeGreaterThan(10);
    expect(w.controller.position.y).toBeLessThan(y0 - 1);
  });
});

describe('Walker on stairs and ledges', () => {
  const rise = 0.25, tread = 0.4, n = 6;
  function stairs(world: World): void {
    for (let k = 0; k < n; k++) {
      const top = (k + 1) * rise;
      const x0 = 2 + k * tread, x1 = 2 + n * tread + 3;
      staticBox(world, { x: (x1 - x0) / 2, y: top / 2, z: 2 }, { x: (x0 + x1) / 2, y: top / 2, z: 0 });
    }
  }

  it('climbs 0.25 m stairs (stepHeight 0.3) and walks down, grounded every frame', () => {
    const { world } = flatWorld();
    stairs(world);
    const w = makeWalker(world);
    w.setInput(1, 0, 0);
    let airborneFrames = 0, steps = 0;
    for (let i = 0; i < 90; i++) {
      const r = w.update(DT);
      if (!r.grounded) airborneFrames++;
      if (r.steppedUp) steps++;
      expect(penetration(world, w.controller)).toBeLessThan(0.001);
    }
    expect(w.controller.position.y).toBeCloseTo(n * rise + REST_Y, 2);
    expect(steps).toBeGreaterThanOrEqual(n);
    expect(airborneFrames).toBe(0);
    w.setInput(-1, 0, 0);
    for (let i = 0; i < 120; i++) {
      const r = w.update(DT);
      if (!r.grounded) airborneFrames++;
      expect(penetration(world, w.controller)).toBeLessThan(0.001);
    }
    expect(airborneFrames).toBe(0);
    expect(w.controller.position.y).toBeCloseTo(REST_Y, 2);
    expect(w.controller.position.x).toBeLessThan(1);
  });

  it('a 0.4 m ledge blocks', () => {
    const { world } = flatWorld();
    staticBox(world, { x: 2, y: 0.2, z: 2 }, { x: 4, y: 0.2, z: 0 });
    const w = makeWalker(world);
    w.setInput(1, 0, 0);
    let maxY = -Infinity;
    for (let i = 0; i < 120; i++) {
      w.update(DT);
      maxY = Math.max(maxY, w.controller.position.y);
    }
    expect(maxY).toBeLessThan(REST_Y + 0.001);
    expect(w.controller.position.x).toBeLessThan(2 - 0.3 + 0.001);
    expect(w.controller.position.x).toBeGreaterThan(2 - 0.3 - 0.02);
  });
});

describe('Walker jumping', () => {
  it('a low ceiling stops the upward motion without sticking', () => {
    const { world } = flatWorld();
    const ceilingBottom = REST_Y + 0.9 + 0.5; // 0.5 m above the head
    staticBox(world, { x: 5, y: 0.25, z: 5 }, { x: 0, y: ceilingBottom + 0.25, z: 0 });
    const w = makeWalker(world);
    let jumped = 0, landed = 0;
    w.on('jumped', () => jumped++);
    w.on('landed', () => landed++);
    w.jump();
    let maxY = -Infinity, t = 0, hitCeilingAt = -1;
    for (let i = 0; i < 90 && landed === 0; i++) {
      w.update(DT);
      t += DT;
      maxY = Math.max(maxY, w.controller.position.y);
      if (hitCeilingAt < 0 && w.controller.position.y > ceilingBottom - 0.9 - 0.02) hitCeilingAt = t;
    }
    expect(jumped).toBe(1);
    expect(landed).toBe(1);
    expect(maxY).toBeLessThanOrEqual(ceilingBottom - 0.9 - 0.01 + 0.001);
    expect(maxY).toBeGreaterThan(ceilingBottom - 0.9 - 0.03);
    // free fall from the ceiling: sqrt(2·0.48/9.81) ≈ 0.31 s, rise ≈ 0.12 s; a full jump would take 1.02 s
    expect(t).toBeLessThan(0.6);
    expect(hitCeilingAt).toBeGreaterThan(0);
  });

  it('coyote time: a jump shortly after walking off a ledge still works', () => {
    const { world } = flatWorld();
    staticBox(world, { x: 2, y: 1, z: 2 }, { x: 0, y: 1, z: 0 });
    const w = makeWalker(world, 1.2, 2 + REST_Y, 0);
    w.controller.settings.snapDistance = 0; // no snap: walk straight off
    w.setInput(1, 0, 0);
    let airFrames = 0;
    for (let i = 0; i < 60; i++) {
      w.update(DT);
      if (w.state !== 'grounded') { airFrames++; if (airFrames === 3) w.jump(); }
    }
    // the jump happened: the walker went higher than the ledge top
    expect(w.airTime).toBeGreaterThan(0);
  });
});

describe('Walker on platforms', () => {
  it('rides a kinematic platform moving at 2 m/s; drift < 2 cm over 5 s', () => {
    const world = flatWorld().world;
    const platform = world.createBody({ type: 'kinematic', shape: new Box({ x: 3, y: 0.25, z: 3 }), position: { x: 0, y: 2, z: 0 }, linearVelocity: { x: 2, y: 0, z: 0 } });
    const w = makeWalker(world, 0.5, 2.25 + REST_Y, 0);
    const rel0 = w.controller.position.x - platform.position.x;
    for (let i = 0; i < 300; i++) {
      world.step(DT);
      w.update(DT);
      expect(w.state).toBe('grounded');
    }
    expect(platform.position.x).toBeGreaterThan(9.9);
    const rel = w.controller.position.x - platform.position.x;
    expect(Math.abs(rel - rel0)).toBeLessThan(0.02);
    expect(Math.abs(w.controller.position.y - (2.25 + REST_Y))).toBeLessThan(0.01);
  });

  it('rides a platform rotating at 1 rad/s; drift in the platform frame < 2 cm over 5 s, yaw follows', () => {
    const world = flatWorld().world;
    const platform = world.createBody({ type: 'kinematic', shape: new Box({ x: 4, y: 0.25, z: 4 }), position: { x: 0, y: 2, z: 0 }, angularVelocity: { x: 0, y: 1, z: 0 } });
    const w = makeWalker(world, 2, 2.25 + REST_Y, 0);
    const local0 = quat.inverseRotate({ x: 0, y: 0, z: 0 }, platform.rotation, { x: w.controller.position.x, y: 0, z: w.controller.position.z });
    const yaw0 = w.yaw;
    for (let i = 0; i < 300; i++) {
      world.step(DT);
      w.update(DT);
    }
    const p = w.controller.position;
    const local = quat.inverseRotate({ x: 0, y: 0, z: 0 }, platform.rotation, { x: p.x - platform.position.x, y: 0, z: p.z - platform.position.z });
    expect(Math.hypot(local.x - local0.x, local.z - local0.z)).toBeLessThan(0.02);
    expect(w.yaw - yaw0).toBeCloseTo(5, 1);
    expect(w.state).toBe('grounded');
  });
});

describe('Walker events', () => {
  it('landed carries the impact speed; hit names the wall', () => {
    const { world, ground } = flatWorld();
    const wall = staticBox(world, { x: 0.2, y: 2, z: 3 }, { x: 2, y: 2, z: 0 });
    const c = new CharacterController(world, { position: { x: 0, y: REST_Y + 1.25, z: 0 } });
    const w = new Walker(c);
    const landed: number[] = [];
    const hits = new Set<unknown>();
    w.on('landed', (e) => { landed.push(e.speed); expect(e.body).toBe(ground); });
    w.on('hit', (e) => hits.add(e.body));
    for (let i = 0; i < 40; i++) w.update(DT);
    // fell 1.25 m: v = √(2 g h) ≈ 4.95 m/s (semi-implicit Euler at 60 Hz lands within a frame's worth)
    expect(landed.length).toBe(1);
    expect(landed[0]!).toBeGreaterThan(4.95 - 0.3);
    expect(landed[0]!).toBeLessThan(4.95 + 0.3);
    w.setInput(1, 0, 0);
    for (let i = 0; i < 60; i++) w.update(DT);
    expect(hits.has(wall)).toBe(true);
    expect(w.velocity.x).toBeLessThan(0.7); // clipped: no speed piles up against the wall
  });
});
