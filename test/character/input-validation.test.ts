/**
 * Character inputs are checked with errors naming the field, a refused call
 * leaves the controller and walker moving exactly as ones that never saw it
 * (positions compared with ===), and what happens when a body the character
 * depends on is removed is defined. 60 Hz, controller and walker defaults,
 * on a flat floor with a box to walk into.
 */
import { describe, expect, it } from 'vitest';
import { Box, MAX_LINEAR_SPEED, Sphere, type World } from '../../src/index';
import { CharacterController, MAX_CHARACTER_ITERATIONS, MAX_CHARACTER_LENGTH, MAX_CHARACTER_SWEEPS, MAX_WALKER_DT, Walker } from '../../character/index';
import { DT, REST_Y, flatWorld, staticBox } from './helpers';

interface Rig { world: World; controller: CharacterController; walker: Walker }

function build(): Rig {
  const { world } = flatWorld();
  staticBox(world, { x: 0.5, y: 0.5, z: 2 }, { x: 3, y: 0.5, z: 0 });
  const controller = new CharacterController(world, { position: { x: 0, y: REST_Y + 0.2, z: 0 } });
  const walker = new Walker(controller);
  walker.setInput(1, 0, 0.3);
  return { world, controller, walker };
}

function run(r: Rig, n: number): void {
  for (let i = 0; i < n; i++) {
    r.world.step(DT);
    r.walker.update(DT);
  }
}

function state(r: Rig): number[] {
  const p = r.controller.position, v = r.walker.velocity;
  return [p.x, p.y, p.z, v.x, v.y, v.z, r.walker.airTime, r.controller.result.iterations];
}

/** `bad` throws `message`; the rig then moves exactly like one that never saw it (after `undo`, if the write stays). */
function refused(bad: (r: Rig) => void, message: RegExp, undo: (r: Rig) => void = () => {}): void {
  const ref = build();
  const r = build();
  run(ref, 40);
  run(r, 40);
  const before = state(r);
  expect(() => bad(r)).toThrow(message);
  undo(r);
  expect(state(r)).toEqual(before);
  run(ref, 80);
  run(r, 80);
  expect(state(r)).toEqual(state(ref));
}

describe('CharacterController settings', () => {
  it(`maxSweeps above ${MAX_CHARACTER_SWEEPS} and maxIterations above ${MAX_CHARACTER_ITERATIONS} are refused at the next move`, () => {
    // Through the walker (whose velocity must not change either) and through move.
    refused((r) => { r.walker.setInput(0, 0, -1); r.controller.settings.maxSweeps = 1e7; r.walker.update(DT); }, /maxSweeps must be an integer in \[1, 100\]/, (r) => { r.controller.settings.maxSweeps = 5; r.walker.setInput(1, 0, 0.3); });
    refused((r) => { r.controller.settings.maxSweeps = 1e7; r.controller.move({ x: 0, y: -0.01, z: 0 }); }, /maxSweeps must be an integer in \[1, 100\] \(got 10000000\)/, (r) => { r.controller.settings.maxSweeps = 5; });
    refused((r) => { r.controller.settings.maxIterations = 1e7; r.walker.update(DT); }, /maxIterations must be an integer in \[1, 1000\]/, (r) => { r.controller.settings.maxIterations = 32; });
    refused((r) => { r.controller.settings.maxSweeps = NaN; r.walker.update(DT); }, /maxSweeps/, (r) => { r.controller.settings.maxSweeps = 5; });
    refused((r) => { r.controller.settings.collisionMask = 1.5; r.walker.update(DT); }, /collisionMask must be an integer/, (r) => { r.controller.settings.collisionMask = 0xffffffff; });
    refused((r) => { r.controller.settings.skinWidth = -1; r.walker.update(DT); }, /skinWidth must be a finite number ≥ 0/, (r) => { r.controller.settings.skinWidth = 0.01; });
    // Every other option: lengths up to MAX_CHARACTER_LENGTH (they inflate the capsule and the query region), forces and masses up to 1e6.
    for (const k of ['stepHeight', 'minStepForward', 'snapDistance', 'skinWidth', 'slop', 'gatherDistance'] as const) {
      refused((r) => { r.controller.settings[k] = 1e300; r.walker.update(DT); }, new RegExp(`${k} must be in \\[0, ${MAX_CHARACTER_LENGTH}\\] m`), (r) => { r.controller.settings[k] = build().controller.settings[k]; });
    }
    refused((r) => { r.controller.settings.tolerance = 5; r.walker.update(DT); }, /tolerance must be in \(0, 1\] m/, (r) => { r.controller.settings.tolerance = 1e-4; });
    refused((r) => { r.controller.settings.pushStrength = 1e300; r.walker.update(DT); }, /pushStrength must be in \[0, 1e6\] N/, (r) => { r.controller.settings.pushStrength = 100; });
    refused((r) => { r.controller.settings.characterMass = 1e300; r.walker.update(DT); }, /characterMass/, (r) => { r.controller.settings.characterMass = 80; });
    refused((r) => { r.controller.settings.maxSlopeDegrees = 91; r.walker.update(DT); }, /maxSlopeDegrees must be in \[0, 90\]/, (r) => { r.controller.settings.maxSlopeDegrees = 45; });
    expect(() => new CharacterController(flatWorld().world, { maxSweeps: 1e7 })).toThrow(/maxSweeps/);
    expect(() => new CharacterController(flatWorld().world, { collisionGroup: NaN })).toThrow(/collisionGroup must be an integer/);
    expect(() => new CharacterController(flatWorld().world, { up: { x: 0, y: NaN, z: 0 } })).toThrow(/CharacterController: up must be finite/);
    expect(() => new CharacterController(flatWorld().world, { radius: 1e300 })).toThrow(/radius/);
  });

  it('a position written straight into the live controller.position is refused at the next move, through the walker too', () => {
    const raw = (r: Rig) => r.controller.position as { x: unknown; y: number; z: number };
    let old = 0;
    refused((r) => { old = r.controller.position.y; raw(r).y = NaN; r.controller.move({ x: 0.01, y: 0, z: 0 }); }, /CharacterController\.position must be finite, each component within ±1e15 m \(MAX_BODY_STATE\) \(got \([-0-9.e]+, NaN, [-0-9.e]+\)\); write it through setPosition/, (r) => { raw(r).y = old; });
    let oldX = 0;
    refused((r) => { oldX = r.controller.position.x; raw(r).x = '1'; r.walker.update(DT); }, /CharacterController\.position must be finite/, (r) => { raw(r).x = oldX; });
  });

  it('move() and setPosition() without an argument name it instead of reading a property of undefined', () => {
    refused((r) => { (r.controller.move as (d?: unknown) => void)(); }, /CharacterController\.move: displacement must be a \{ x, y, z \} object \(got undefined\)/);
    refused((r) => { r.controller.move({ x: NaN, y: 0, z: 0 }); }, /displacement must be finite/);
    refused((r) => { r.controller.move({ x: 1e300, y: 0, z: 0 }); }, /displacement must be finite, each component within ±1000000 m/);
    refused((r) => { (r.controller.setPosition as (p?: unknown) => void)(); }, /setPosition: position must be a \{ x, y, z \} object/);
  });
});

describe('Walker inputs', () => {
  it('setInput(NaN, …) is refused and the walker keeps working', () => {
    refused((r) => r.walker.setInput(NaN, 0, 1), /Walker\.setInput: x, y and z must be finite numbers \(got NaN, 0, 1\)/);
    refused((r) => r.walker.setInput(0, 0, Infinity), /Walker\.setInput/);
  });

  it('a NaN written straight into input, velocity or a setting is refused at the next update', () => {
    refused((r) => { r.walker.input.x = NaN; r.walker.update(DT); }, /Walker: input must be finite/, (r) => { r.walker.input.x = 1; });
    refused((r) => { r.walker.velocity.y = Infinity; r.walker.update(DT); }, /Walker: velocity must be finite/, (r) => { r.walker.velocity.y = 0; });
    refused((r) => { r.walker.settings.speed = NaN; r.walker.update(DT); }, /Walker: speed must be a finite number ≥ 0/, (r) => { r.walker.settings.speed = 4; });
    refused((r) => { r.walker.settings.speed = 1e300; r.walker.update(DT); }, /Walker: speed must be in \[0, 10000\]/, (r) => { r.walker.settings.speed = 4; });
    refused((r) => { r.walker.settings.jumpSpeed = 1e300; r.walker.update(DT); }, /Walker: jumpSpeed/, (r) => { r.walker.settings.jumpSpeed = 5; });
    refused((r) => { r.walker.settings.acceleration = 1e300; r.walker.update(DT); }, /Walker: acceleration must be in \[0, 1000000\]/, (r) => { r.walker.settings.acceleration = 40; });
    refused((r) => { r.walker.settings.gravity.y = -1e300; r.walker.update(DT); }, /Walker: gravity/, (r) => { r.walker.settings.gravity.y = -9.81; });
  });
});

describe('Walker state and constructor', () => {
  it("walker.state accepts only 'grounded', 'airborne' or 'sliding'; a refused write leaves the walker moving as before", () => {
    // An unknown state used to be stored, and the walker's snapshot then held −1, which its own restore refused.
    refused((r) => { (r.walker as { state: string }).state = 'flying'; }, /^Walker\.state must be one of 'grounded', 'airborne', 'sliding' \(got 'flying'\)$/);
    refused((r) => { (r.walker as { state: unknown }).state = 3; }, /^Walker\.state must be one of 'grounded', 'airborne', 'sliding' \(got 3\)$/);
    const r = build();
    run(r, 40);
    r.walker.state = 'sliding';
    expect(r.walker.state).toBe('sliding');
    expect(r.walker.snapshot().i32[0]).toBe(2);
  });

  it('an airTime written as NaN or below 0 is refused at the next update', () => {
    // A negative one kept coyote time open (jumps in mid-air); a NaN one went into the snapshot, which restore refused.
    refused((r) => { r.walker.airTime = NaN; r.walker.update(DT); }, /^Walker: airTime must be a finite number ≥ 0 s \(got NaN\)$/, (r) => { r.walker.airTime = 0; });
    refused((r) => { r.walker.airTime = -1e300; r.walker.update(DT); }, /^Walker: airTime must be a finite number ≥ 0 s \(got -1e\+300\)$/, (r) => { r.walker.airTime = 0; });
  });

  it('new Walker without a controller, or with null settings, names the argument and changes nothing', () => {
    // These used to throw "Cannot read properties of undefined (reading 'up')" and the like.
    const W = Walker as unknown as new (...args: unknown[]) => Walker;
    refused(() => new W(undefined), /^Walker: controller must be a CharacterController \(got undefined\)$/);
    refused(() => new W({}), /^Walker: controller must be a CharacterController \(got an object without move, followGround, up and result\)$/);
    refused((r) => new W(r.controller, null), /^Walker: settings must be an object \(got null\)$/);
    const { world } = flatWorld();
    const n = world.bodies.length;
    expect(() => new W(new CharacterController(world), 5)).toThrow(/^Walker: settings must be an object \(got 5\)$/);
    expect(world.bodies.length).toBe(n + 1); // the controller's own body, nothing from the walker
  });
});

describe('CharacterController.setHalfHeight within MAX_POSITION', () => {
  function tall(y: number) {
    const { world } = flatWorld();
    const c = new CharacterController(world, { position: { x: 0, y, z: 0 } });
    return { world, c, body: c.body! };
  }
  const looks = (t: ReturnType<typeof tall>) =>
    [t.c.halfHeight, t.c.position.x, t.c.position.y, t.c.position.z, t.c.result.position.y, t.world.bodies.length, t.c.body === t.body ? 1 : 0, t.body.world === t.world ? 1 : 0, t.body.position.y];

  it('a half height whose new centre is beyond ±1e6 m is refused before the body is removed', () => {
    // At y = 6e5 the centre would go to 1 099 999.4 m: the body used to be removed, then its re-creation threw, and it never came back.
    const t = tall(6e5);
    const before = looks(t);
    expect(() => t.c.setHalfHeight(5e5)).toThrow(/^CharacterController\.setHalfHeight: halfHeight 500000 m would put the capsule's centre at \(0, 1099999\.4, 0\) with a reach of [0-9.]+ m, beyond ±1000000 m \(MAX_POSITION\)/);
    expect(looks(t)).toEqual(before);
    // The same character crouches: its centre goes down by 0.3 m and its body is rebuilt.
    expect(t.c.setHalfHeight(0.3)).toBe(true);
    expect(t.c.position.y).toBe(6e5 - 0.3);
    expect(t.c.body!.world).toBe(t.world);
  });

  it('a half height whose reach crosses ±1e6 m is refused (every move would then be refused); a tall one within it is made', () => {
    // At y ≈ 1, halfHeight 5e5 used to be accepted, and every move after it threw a reach error.
    const t = tall(1);
    const before = looks(t);
    expect(() => t.c.setHalfHeight(5e5)).toThrow(/^CharacterController\.setHalfHeight: halfHeight 500000 m would put the capsule's centre at \(0, 500000\.4, 0\) with a reach of 500001\.1[0-9]* m, beyond ±1000000 m \(MAX_POSITION\)/);
    expect(looks(t)).toEqual(before);
    t.c.move({ x: 0.01, y: -0.05, z: 0 });
    expect(t.c.position.x).toBe(0.01);
    // 4e5 m: centre 400 000.4 m, reach 400 001.11 m, within 1e6 m.
    expect(t.c.setHalfHeight(4e5)).toBe(true);
    expect(t.c.position.y).toBeCloseTo(1 + 4e5 - 0.6 - 0.05, 6);
    t.c.move({ x: 0.01, y: 0, z: 0 });
    expect(t.c.position.x).toBeCloseTo(0.02, 9);
  });

  it('a bad setting is named by setHalfHeight instead of failing half-way', () => {
    const t = tall(1);
    t.c.settings.collisionMask = 1.5;
    const before = looks(t);
    expect(() => t.c.setHalfHeight(0.9)).toThrow(/^CharacterController: collisionMask must be an integer/);
    expect(looks(t)).toEqual(before);
    expect(() => t.c.setHalfHeight(NaN)).toThrow(/^CharacterController\.setHalfHeight: halfHeight must be a finite number > 0 \(got NaN\)$/);
    expect(looks(t)).toEqual(before);
  });
});

describe('bodies removed from under the character', () => {
  it("setHalfHeight after the character's body was removed does not half-change the controller", () => {
    const { world, controller } = build();
    for (let i = 0; i < 10; i++) controller.move({ x: 0, y: -0.05, z: 0 });
    const body = controller.body!;
    world.removeBody(body);
    const count = world.bodies.length;
    const y = controller.position.y;
    // Crouch: the controller forgets the removed body and carries on without one (as with createBody: false).
    expect(controller.setHalfHeight(0.3)).toBe(true);
    expect(controller.body).toBeNull();
    expect(controller.halfHeight).toBe(0.3);
    expect(Math.abs(controller.position.y - (y - 0.3))).toBeLessThan(1e-12);
    expect(world.bodies.length).toBe(count);
    // It still moves and stands on the floor: centre = 0.3 + 0.3 + skin.
    for (let i = 0; i < 10; i++) controller.move({ x: 0.01, y: -0.05, z: 0 });
    expect(Math.abs(controller.position.y - 0.61)).toBeLessThan(0.003);
    expect(() => controller.dispose()).not.toThrow();
  });

  it('a walker riding a platform that is removed is no longer carried by it, keeps its momentum and lands on the floor', () => {
    const { world } = flatWorld();
    const platform = world.createBody({ type: 'kinematic', shape: new Box({ x: 3, y: 0.25, z: 3 }), position: { x: 0, y: 0.25, z: 0 } });
    const controller = new CharacterController(world, { position: { x: 0, y: 0.5 + REST_Y, z: 0 } });
    const walker = new Walker(controller);
    let x = 0;
    for (let i = 0; i < 60; i++) {
      x += 1 * DT; // sliding along +x at 1 m/s
      platform.setKinematicTarget({ x, y: 0.25, z: 0 });
      world.step(DT);
      walker.update(DT);
    }
    expect(walker.state).toBe('grounded');
    expect(controller.result.groundBody).toBe(platform);
    const riding = controller.position.x;
    console.log(`riding at x = ${riding.toFixed(4)} on a platform at x = ${platform.position.x.toFixed(4)}`);
    expect(Math.abs(riding - 1)).toBeLessThan(0.02);
    world.removeBody(platform);
    world.step(DT);
    walker.update(DT);
    // The removed platform does not carry the walker in this update; it then leaves with the platform's velocity.
    expect(Math.abs(controller.position.x - riding)).toBeLessThan(1e-9);
    expect(walker.state).toBe('airborne');
    expect(Math.abs(walker.velocity.x - 1)).toBeLessThan(0.02);
    for (let i = 0; i < 60; i++) {
      world.step(DT);
      walker.update(DT);
    }
    expect(walker.state).toBe('grounded');
    expect(controller.result.groundBody).not.toBe(platform);
    expect(Math.abs(controller.position.y - REST_Y)).toBeLessThan(0.003);
  });

  it('a character standing on a dynamic crate that is removed falls to the floor', () => {
    const { world } = flatWorld();
    const crate = world.createBody({ type: 'dynamic', shape: new Box({ x: 1, y: 0.5, z: 1 }), position: { x: 0, y: 0.5, z: 0 }, mass: 200 });
    const controller = new CharacterController(world, { position: { x: 0, y: 1 + REST_Y, z: 0 } });
    const walker = new Walker(controller);
    for (let i = 0; i < 30; i++) { world.step(DT); walker.update(DT); }
    expect(controller.result.groundBody).toBe(crate);
    world.removeBody(crate);
    for (let i = 0; i < 90; i++) { world.step(DT); walker.update(DT); }
    expect(walker.state).toBe('grounded');
    expect(Math.abs(controller.position.y - REST_Y)).toBeLessThan(0.003);
  });
});

describe('character positions within MAX_POSITION (its body refuses positions beyond)', () => {
  it('setPosition beyond ±1e6 m is refused before anything changes (it used to move the character, then throw from its body)', () => {
    refused((r) => { r.controller.setPosition({ x: 1e300, y: 1, z: 0 }); }, /^CharacterController\.setPosition: position must have each component within ±1000000 m \(MAX_POSITION; got \(1e\+300, 1, 0\)\)$/);
    refused((r) => { r.controller.setPosition({ x: 0, y: 1, z: -1000001 }); }, /^CharacterController\.setPosition: position must have each component within/);
  });

  it('a controller created beyond ±1e6 m is refused and adds no body', () => {
    const { world } = flatWorld();
    const n = world.bodies.length;
    expect(() => new CharacterController(world, { position: { x: 0, y: 2e6, z: 0 } })).toThrow(/^CharacterController: position must have each component within ±1000000 m/);
    expect(world.bodies.length).toBe(n);
  });

  it('a move whose reach could cross ±1e6 m is refused before anything changes; a shorter one is made', () => {
    const { world } = flatWorld();
    const c = new CharacterController(world, { position: { x: 1e6 - 10, y: 5, z: 0 } });
    const body = c.body!;
    expect(() => c.move({ x: 20, y: 0, z: 0 })).toThrow(/^CharacterController\.move: the move could take the character from \(999990, 5, 0\) beyond ±1000000 m \(MAX_POSITION; reach /);
    expect(c.position.x).toBe(1e6 - 10);
    expect(body.position.x).toBe(1e6 - 10);
    c.move({ x: 5, y: 0, z: 0 });
    expect(Math.abs(c.position.x - (1e6 - 5))).toBeLessThan(1e-6);
    expect(body.position.x).toBe(c.position.x);
  });

  it('a walker whose move would cross ±1e6 m is refused with its velocity, jump and position unchanged (it used to update its velocity first)', () => {
    const { world } = flatWorld();
    const c = new CharacterController(world, { position: { x: 1e6 - 3, y: 5, z: 0 } });
    const w = new Walker(c);
    w.velocity.x = 100;
    w.jump();
    const before = [w.velocity.x, w.velocity.y, w.velocity.z, c.position.x, c.position.y, w.yaw];
    expect(() => w.update(DT)).toThrow(/^CharacterController\.move: the move could take the character from \(999997, 5, 0\) beyond ±1000000 m/);
    expect([w.velocity.x, w.velocity.y, w.velocity.z, c.position.x, c.position.y, w.yaw]).toEqual(before);
    // Slowed down, the same walker moves on.
    w.velocity.x = 0;
    w.update(DT);
    expect(c.position.x).toBe(1e6 - 3);
    expect(Number.isFinite(c.position.y) && c.position.y !== 5).toBe(true);
  });
});

describe('pushing a very light body', () => {
  it('a 1 µg ball walked into is pushed at most to MAX_LINEAR_SPEED instead of making move() throw half-way', () => {
    const { world } = flatWorld();
    const c = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } });
    const pebble = world.createBody({ type: 'dynamic', shape: new Sphere(0.2), mass: 1e-9, position: { x: 0.75, y: 0.2, z: 0 } });
    let fastest = 0;
    for (let i = 0; i < 20; i++) {
      world.step(DT);
      c.move({ x: 0.05, y: -0.01, z: 0 });
      const v = pebble.linearVelocity;
      fastest = Math.max(fastest, Math.hypot(v.x, v.y, v.z));
    }
    console.log(`1 µg ball pushed by the character: fastest ${fastest.toExponential(6)} m/s`);
    expect(fastest).toBeGreaterThan(1e4);
    expect(fastest).toBeLessThanOrEqual(MAX_LINEAR_SPEED * (1 + 1e-12));
  });
});

describe('Walker.update', () => {
  it(`a dt of 0, NaN or above ${MAX_WALKER_DT} s is refused with the walker unchanged`, () => {
    refused((r) => { r.walker.update(1e6); }, /Walker\.update: dt must be a number in \(0, 1\] s \(got 1000000\)/);
    refused((r) => { r.walker.update(NaN); }, /Walker\.update: dt/);
    refused((r) => { r.walker.update(0); }, /Walker\.update: dt/);
  });
});
