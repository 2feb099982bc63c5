/**
 * Walker: yaw follows the input direction, air drag and air deceleration
 * bound the drift of a character that leaves the ground without input, and
 * teleport stops the character. 60 Hz, walker defaults (speed 4 m/s,
 * airDeceleration 1 m/s², airDrag 0.5 /s, turnSpeed 10 rad/s) unless a test
 * says otherwise.
 */
import { describe, expect, it } from 'vitest';
import { World } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { DT, REST_Y, flatWorld, staticBox } from './helpers';

function grounded(x = 0, z = 0): Walker {
  const { world } = flatWorld();
  const w = new Walker(new CharacterController(world, { position: { x, y: REST_Y, z } }));
  w.update(DT);
  return w;
}

describe('Walker yaw follows the input', () => {
  it('turns to atan2(x, z) of the input at turnSpeed, the shortest way round', () => {
    const w = grounded();
    expect(w.state).toBe('grounded');
    w.setInput(1, 0, 0); // +x: yaw π/2
    w.update(DT);
    // one step turns at most 10 rad/s × 1/60 s
    expect(w.yaw).toBeCloseTo(10 * DT, 12);
    for (let i = 0; i < 20; i++) w.update(DT);
    expect(w.yaw).toBeCloseTo(Math.PI / 2, 12);
    // −z is a half turn from +z: from π/2 the shortest way to π (≡ −π) is +π/2
    w.setInput(0, 0, -1);
    for (let i = 0; i < 30; i++) w.update(DT);
    expect(Math.cos(w.yaw)).toBeCloseTo(-1, 9);
    expect(w.yaw).toBeCloseTo(Math.PI, 9);
    // then to −x (yaw −π/2 ≡ 3π/2): continues the short way, +π/2
    w.setInput(-1, 0, 0);
    for (let i = 0; i < 30; i++) w.update(DT);
    expect(w.yaw).toBeCloseTo(1.5 * Math.PI, 9);
    // no input: yaw stays
    w.setInput(0, 0, 0);
    for (let i = 0; i < 30; i++) w.update(DT);
    expect(w.yaw).toBeCloseTo(1.5 * Math.PI, 9);
  });

  it('turnSpeed 0 keeps the yaw; a very large turnSpeed faces the input in one step', () => {
    const w = grounded();
    w.settings.turnSpeed = 0;
    w.setInput(0.6, 0, 0.8);
    for (let i = 0; i < 10; i++) w.update(DT);
    expect(w.yaw).toBe(0);
    w.settings.turnSpeed = 1e4;
    w.update(DT);
    expect(w.yaw).toBeCloseTo(Math.atan2(0.6, 0.8), 12);
  });

  it('with up = +x, yaw is measured about up from the controller\'s local +z', () => {
    const world = flatWorld().world;
    const c = new CharacterController(world, { position: { x: 0, y: 5, z: 0 }, up: { x: 1, y: 0, z: 0 } });
    const w = new Walker(c, { turnSpeed: 1e4, gravity: { x: 0, y: 0, z: 0 } });
    // the controller's rotation takes local Y onto +x; local +z stays +z, local +x goes to −y
    w.setInput(0, -1, 0);
    w.update(DT);
    expect(w.yaw).toBeCloseTo(Math.PI / 2, 9);
  });
});

describe('Walker in the air without input', () => {
  /**
   * Runs at `speed` towards +x off a 40 m high, 2 m wide block, releases the
   * input at the edge and falls for 10 s; returns the horizontal distance
   * from the edge.
   */
  function runOff(speed: number, settings: { airDrag?: number; airDeceleration?: number } = {}): { drift: number; lastSpeed: number; fell: number } {
    // Nothing below the block: the character falls for the whole 10 s.
    const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
    staticBox(world, { x: 1, y: 0.5, z: 1 }, { x: 0, y: 40 - 0.5, z: 0 });
    const c = new CharacterController(world, { position: { x: 0, y: 40 + REST_Y, z: 0 } });
    const w = new Walker(c, { speed, ...settings });
    w.update(DT);
    w.setInput(1, 0, 0);
    let steps = 0;
    while (w.state === 'grounded' && steps++ < 600) w.update(DT);
    expect(w.state).not.toBe('grounded');
    w.setInput(0, 0, 0);
    const edgeX = c.position.x;
    const y0 = c.position.y;
    for (let i = 0; i < 600; i++) w.update(DT);
    return { drift: c.position.x - edgeX, lastSpeed: Math.hypot(w.velocity.x, w.velocity.z), fell: y0 - c.position.y };
  }

  it('drifts v₀/c − a·t/c and stops: 4 m/s → ≈ 3.6 m, 7 m/s → ≈ 8 m (defaults c = 0.5 /s, a = 1 m/s²)', () => {
    // t_stop = ln(1 + c v₀ / a) / c, drift = v₀/c − a t_stop / c (the walker's
    // header); the fixed step's implicit drag and the speed at the moment the
    // capsule leaves the edge move it by a few centimetres.
    const expected = (v0: number): number => { const t = Math.log(1 + 0.5 * v0) / 0.5; return v0 / 0.5 - t / 0.5; };
    const walk = runOff(4);
    const run = runOff(7);
    console.log(`ran off a ledge, input released: at 4 m/s drifted ${walk.drift.toFixed(3)} m (closed form ${expected(4).toFixed(3)}), at 7 m/s ${run.drift.toFixed(3)} m (${expected(7).toFixed(3)}); fell ${walk.fell.toFixed(0)} m in 10 s`);
    expect(walk.drift).toBeGreaterThan(expected(4) - 0.15);
    expect(walk.drift).toBeLessThan(expected(4) + 0.15);
    expect(run.drift).toBeGreaterThan(expected(7) - 0.25);
    expect(run.drift).toBeLessThan(expected(7) + 0.25);
    expect(walk.lastSpeed).toBe(0);
    expect(walk.fell).toBeGreaterThan(300);
  });

  it('airDrag 0 and airDeceleration 0 keep the old behaviour: full speed for the whole fall (the 40 m drift that the defaults prevent)', () => {
    const free = runOff(4, { airDrag: 0, airDeceleration: 0 });
    console.log(`no drag, no deceleration: drifted ${free.drift.toFixed(2)} m in 10 s`);
    expect(free.drift).toBeGreaterThan(39);
    expect(free.lastSpeed).toBeCloseTo(4, 6);
  });

  it('held input keeps full speed in the air: a running jump is as long as without drag', () => {
    const jump = (airDrag: number): number => {
      const w = grounded();
      w.settings.airDrag = airDrag;
      w.setInput(0, 0, 1);
      for (let i = 0; i < 60; i++) w.update(DT);
      const z0 = w.controller.position.z;
      w.jump();
      w.update(DT);
      let steps = 1;
      while (w.state !== 'grounded' && steps++ < 600) w.update(DT);
      return w.controller.position.z - z0;
    };
    const withDrag = jump(0.5), without = jump(0);
    console.log(`running jump: ${withDrag.toFixed(4)} m with drag 0.5, ${without.toFixed(4)} m without`);
    expect(Math.abs(withDrag - without)).toBeLessThan(1e-9);
  });
});

describe('Walker.teleport', () => {
  it('moves, zeroes the velocity, leaves the ground state, drops a jump, and lands without sliding on', () => {
    const w = grounded();
    w.setInput(0, 0, 1);
    for (let i = 0; i < 60; i++) w.update(DT);
    expect(w.velocity.z).toBeCloseTo(4, 6);
    w.jump();
    w.setInput(0, 0, 0);
    w.teleport({ x: 5, y: REST_Y + 0.05, z: -3 }, 1.25);
    expect(w.controller.position).toEqual({ x: 5, y: REST_Y + 0.05, z: -3 });
    expect(w.velocity).toEqual({ x: 0, y: 0, z: 0 });
    expect(w.state).toBe('airborne');
    expect(w.yaw).toBe(1.25);
    let jumped = 0;
    w.on('jumped', () => { jumped++; });
    for (let i = 0; i < 30; i++) w.update(DT);
    expect(jumped).toBe(0);
    expect(w.state).toBe('grounded');
    const p = w.controller.position;
    expect(Math.hypot(p.x - 5, p.z + 3)).toBeLessThan(1e-9);
    expect(Math.abs(p.y - REST_Y)).toBeLessThan(0.005);
  });

  it('refuses a bad position or yaw and changes nothing', () => {
    const w = grounded();
    w.setInput(1, 0, 0);
    for (let i = 0; i < 10; i++) w.update(DT);
    const before = JSON.stringify({ p: w.controller.position, v: w.velocity, yaw: w.yaw, state: w.state });
    expect(() => w.teleport({ x: NaN, y: 0, z: 0 })).toThrow(/setPosition: position/);
    expect(() => w.teleport({ x: 0, y: 1, z: 0 }, NaN)).toThrow(/Walker.teleport: yaw must be a finite number \(got NaN\)/);
    expect(() => w.teleport({ x: 0, y: 1, z: 0 }, Infinity)).toThrow(/yaw/);
    expect(JSON.stringify({ p: w.controller.position, v: w.velocity, yaw: w.yaw, state: w.state })).toBe(before);
  });
});

describe('Walker settings validation (airDeceleration, airDrag, turnSpeed)', () => {
  it('names the field for NaN, negative and too large values, and the walker state is left as it was', () => {
    for (const [k, max] of [['airDeceleration', 1e6], ['airDrag', 1e4], ['turnSpeed', 1e4]] as const) {
      for (const bad of [NaN, -1, Infinity, 2 * max]) {
        const w = grounded();
        w.setInput(1, 0, 0);
        w.update(DT);
        const before = JSON.stringify({ p: w.controller.position, v: w.velocity, yaw: w.yaw });
        w.settings[k] = bad;
        expect(() => w.update(DT)).toThrow(new RegExp(`Walker: ${k} must be`));
        expect(JSON.stringify({ p: w.controller.position, v: w.velocity, yaw: w.yaw })).toBe(before);
      }
      expect(() => new Walker(new CharacterController(flatWorld().world), { [k]: -0.5 })).toThrow(new RegExp(`Walker: ${k} must be a finite number ≥ 0 \\(got -0.5\\)`));
    }
  });
});
