/**
 * Character and walker snapshots (character/snapshot.ts, Walker.snapshot):
 * a rollback on a moving platform replays bit for bit (positions compared
 * with Object.is), and restore refuses, naming the field and changing
 * nothing, values that would leave the character stuck. 60 Hz, controller
 * and walker defaults (radius 0.3, half height 0.6, skin 1 cm).
 */
import { describe, expect, it } from 'vitest';
import { Box, MAX_LINEAR_SPEED, SnapshotError, World, type RigidBody } from '../../src/index';
import { CharacterController, MAX_WALKER_VELOCITY, Walker, type CharacterSnapshot, type WalkerSnapshot } from '../../character/index';
import { DT, REST_Y, flatWorld, staticBox } from './helpers';

/** Platform: 4 × 0.5 × 4 m, top at y = 0.5, accelerating along x at A m/s² and turning about y at ALPHA rad/s² from rest. */
const A = 1.5;
const ALPHA = 0.8;
const platformX = (k: number): number => 0.5 * A * (k * DT) ** 2;

interface Ride { world: World; platform: RigidBody; c: CharacterController; walker: Walker; alpha: number }

function ride(alpha = ALPHA): Ride {
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
  world.createBody({ type: 'static', shape: new Box({ x: 50, y: 0.5, z: 50 }), position: { x: 0, y: -0.5, z: 0 } });
  const platform = world.createBody({ type: 'kinematic', shape: new Box({ x: 2, y: 0.25, z: 2 }), position: { x: 0, y: 0.25, z: 0 } });
  const c = new CharacterController(world, { position: { x: 0.4, y: 0.5 + REST_Y + 0.05, z: 0.3 } });
  const walker = new Walker(c, { speed: 0.5 });
  return { world, platform, c, walker, alpha };
}

/** Frame k: the platform's target pose at the end of the step, the step, then the walker (walking slowly across the platform). */
function frame(r: Ride, k: number): void {
  const yaw = 0.5 * r.alpha * ((k + 1) * DT) ** 2;
  r.platform.setKinematicTarget({ x: platformX(k + 1), y: 0.25, z: 0 }, { x: 0, y: Math.sin(yaw / 2), z: 0, w: Math.cos(yaw / 2) });
  r.walker.setInput(k % 40 < 20 ? 1 : -1, 0, 0.3);
  r.world.step(DT);
  r.walker.update(DT);
}

/** Everything a frame leaves that the next one reads or a game shows. */
function trace(r: Ride): number[] {
  const p = r.c.position, v = r.walker.velocity;
  return [p.x, p.y, p.z, v.x, v.y, v.z, r.walker.yaw, r.c.groundTurn, r.walker.airTime];
}

describe('rollback on a moving platform', () => {
  it('world and walker restored on an accelerating, turning kinematic platform replay 30 frames bit-identically', () => {
    const r = ride();
    for (let k = 0; k < 60; k++) frame(r, k);
    expect(r.walker.state).toBe('grounded');
    expect(r.c.result.groundBody).toBe(r.platform);
    const ws = r.world.snapshot(), cs = r.walker.snapshot();
    const first: number[][] = [];
    for (let k = 60; k < 90; k++) { frame(r, k); first.push(trace(r)); }
    // The platform carried the character: it moved 0.5·A·(1.5² − 1²) = 0.9375 m along x and turned 0.5 rad in these frames.
    expect(r.c.result.groundBody).toBe(r.platform);
    expect(r.platform.position.x - platformX(60)).toBeCloseTo(0.9375, 9);
    r.world.restore(ws);
    r.walker.restore(cs);
    let differing = 0;
    for (let k = 60; k < 90; k++) {
      frame(r, k);
      const t = trace(r), f = first[k - 60]!;
      if (!t.every((v, i) => Object.is(v, f[i]))) differing++;
    }
    console.log(`rollback on a platform at ${A} m/s², ${ALPHA} rad/s²: ${differing} of 30 replayed frames differ`);
    expect(differing).toBe(0);
  });

  it('a snapshot whose carrier is no longer in the world restores with nothing carrying the character', () => {
    const r = ride(0);
    for (let k = 0; k < 60; k++) frame(r, k);
    const s = r.c.snapshot();
    // i32[4] is the carrier's id: the platform.
    expect(s.i32[4]).toBe(r.platform.id);
    const missing: CharacterSnapshot = { version: s.version, f64: s.f64.slice(), i32: s.i32.slice() };
    missing.i32[4] = 999;
    r.c.restore(missing);
    // The platform moves on; followGround has nothing to follow and leaves the character where it was.
    r.platform.setKinematicTarget({ x: platformX(61), y: 0.25, z: 0 });
    r.world.step(DT);
    const before = [r.c.position.x, r.c.position.y, r.c.position.z];
    expect(r.c.followGround()).toBe(false);
    expect([r.c.position.x, r.c.position.y, r.c.position.z]).toEqual(before);
    // Restored with the carrier, it follows the platform again (0.5·A·((61 DT)² − (60 DT)²) along x).
    r.c.restore(s);
    const x0 = r.c.position.x;
    expect(r.c.followGround()).toBe(true);
    expect(r.c.position.x - x0).toBeCloseTo(platformX(61) - platformX(60), 6);
  });
});

interface Rig { world: World; c: CharacterController; walker: Walker }

/** A floor and a wall at x = 0.7…1.7 the walker has walked into, standing (the floor and the wall in its last move). */
function rig(): Rig {
  const { world } = flatWorld(10);
  staticBox(world, { x: 0.5, y: 2, z: 10 }, { x: 1.2, y: 2, z: 0 });
  const c = new CharacterController(world, { position: { x: 0.3, y: REST_Y + 0.01, z: 0 } });
  const walker = new Walker(c);
  for (let i = 0; i < 20; i++) { walker.setInput(1, 0, 0); world.step(DT); walker.update(DT); }
  expect(walker.state).toBe('grounded');
  expect(c.result.planeCount).toBeGreaterThanOrEqual(2);
  return { world, c, walker };
}

const arrays = (s: WalkerSnapshot): number[][] => [Array.from(s.f64), Array.from(s.i32), Array.from(s.controller.f64), Array.from(s.controller.i32)];

/** `edit` on a copy of the walker's snapshot makes restore throw `message`; the walker, controller and body are as they were. */
function refusedRestore(edit: (s: WalkerSnapshot) => void, message: RegExp, through: 'walker' | 'controller' = 'walker'): Rig {
  const r = rig();
  const good = r.walker.snapshot();
  const bad = structuredClone(good);
  edit(bad);
  const body = r.c.body!.position;
  const bodyBefore = [body.x, body.y, body.z];
  expect(() => (through === 'walker' ? r.walker.restore(bad) : r.c.restore(bad.controller))).toThrow(SnapshotError);
  expect(() => (through === 'walker' ? r.walker.restore(bad) : r.c.restore(bad.controller))).toThrow(message);
  expect(arrays(r.walker.snapshot())).toEqual(arrays(good));
  expect([body.x, body.y, body.z]).toEqual(bodyBefore);
  return r;
}

describe('restore refuses what would leave the character stuck', () => {
  it('a position beyond ±1e6 m (MAX_POSITION, as setPosition) is refused; the walker walks on', () => {
    const r = refusedRestore((s) => { s.controller.f64[0] = 1e300; }, /^CharacterController\.restore: position must have each component within ±1000000 m \(MAX_POSITION, as setPosition\) \(got \(1e\+300, /, 'controller');
    // It used to be accepted, and every later update refused the move.
    const x = r.c.position.x;
    r.walker.setInput(-1, 0, 0);
    r.world.step(DT);
    r.walker.update(DT);
    expect(r.c.position.x).toBeLessThan(x);
    refusedRestore((s) => { s.controller.f64[1] = -1000001; }, /position must have each component within ±1000000 m/);
  });

  it(`a ground velocity beyond ±${MAX_LINEAR_SPEED} m/s (MAX_LINEAR_SPEED) is refused, in the controller's and the walker's part; a jump then leaves at jumpSpeed`, () => {
    const r = refusedRestore((s) => { s.controller.f64[14] = 1e300; s.controller.i32[2] = s.controller.i32[2]! | 1; }, /^CharacterController\.restore: result\.groundVelocity must have each component within ±100000 m\/s \(MAX_LINEAR_SPEED\) \(got \(1e\+300, /);
    // It used to be accepted, and a jump carried it into every later move (refused beyond MAX_POSITION).
    expect(r.walker.state).toBe('grounded');
    r.walker.jump();
    r.world.step(DT);
    r.walker.update(DT);
    // jumpSpeed (5 m/s) plus the static floor's ground velocity, 0.
    expect(r.walker.velocity.y).toBe(5);
    refusedRestore((s) => { s.f64[9] = -2 * MAX_LINEAR_SPEED; }, /^Walker\.restore: groundVelocity must have each component within ±100000 m\/s/);
  });

  it(`a walker velocity beyond ±${MAX_WALKER_VELOCITY} m/s and a negative air time are refused`, () => {
    // Such a velocity made every update throw; a negative air time kept coyote time open (jumps in mid-air).
    refusedRestore((s) => { s.f64[0] = 1e300; }, /^Walker\.restore: velocity must have each component within ±1000000 m\/s \(MAX_WALKER_VELOCITY; got \(1e\+300, /);
    refusedRestore((s) => { s.f64[7] = -1e300; }, /^Walker\.restore: airTime must be ≥ 0 s \(got -1e\+300\)/);
    refusedRestore((s) => { s.i32[0] = -1; }, /^Walker\.restore: state must be 0 \(grounded\), 1 \(airborne\) or 2 \(sliding\) \(got -1\)/);
  });

  it('normals and the carrier rotation must have unit length', () => {
    // The normals are what clipVelocity projects the velocity on: 1e300 overflows it to NaN.
    refusedRestore((s) => { s.controller.f64[28] = 0; s.controller.f64[29] = 0; s.controller.f64[30] = 0; }, /^CharacterController\.restore: plane 0 normal must have unit length \(got length 0\)/);
    refusedRestore((s) => { s.controller.f64[28] = 1e300; }, /plane 0 normal must have unit length \(got length Infinity\)/);
    refusedRestore((s) => { s.controller.f64[9] = 2; }, /result\.groundNormal must have unit length/);
    refusedRestore((s) => { s.controller.f64[26] = 3; }, /carrierRotation must have unit length \(got length 3\)/);
  });

  it('a walker restores its own snapshot taken in each state, bit for bit', () => {
    const r = rig();
    for (const state of ['grounded', 'airborne', 'sliding'] as const) {
      r.walker.state = state;
      const s = r.walker.snapshot();
      expect(s.i32[0]).toBe(['grounded', 'airborne', 'sliding'].indexOf(state));
      r.walker.restore(s);
      expect(r.walker.state).toBe(state);
      expect(arrays(r.walker.snapshot())).toEqual(arrays(s));
    }
  });
});
