/**
 * A walker standing still on a kinematic lift (dt 1/60, walker and controller
 * defaults: skin 1 cm, capsule radius 0.3, half-height 0.6). The lift is a
 * 4 × 0.5 × 4 m box driven by its velocity or by kinematic targets; after
 * every frame the capsule's bottom must sit skinWidth above the lift's top
 * within GAP_TOLERANCE (so it never penetrates and never floats), nothing may
 * overlap it by more than 1 mm, the walker must be grounded in every frame
 * (the first included), and after a dead stop it must not rise more than
 * 1 cm above the lift.
 */
import { describe, expect, it } from 'vitest';
import { Box, quat, World, type RigidBody } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { DT, penetration } from './helpers';

const HALF_THICKNESS = 0.25;
const FEET = 0.9; // capsule centre to its lowest point
const SKIN = 0.01;
/**
 * Allowed deviation of the gap between the capsule and the lift's top from
 * skinWidth, metres (the carry is exact: the runs deviate by ~1e-12 m; a
 * character a step ahead of or behind the lift is off by v·dt, centimetres).
 */
const GAP_TOLERANCE = 1e-4;
const G = 9.81;

type Driver = 'velocity' | 'target';
type Order = 'step-then-update' | 'update-then-step';

interface Scene { world: World; lift: RigidBody; walker: Walker; c: CharacterController }

/** An empty world (gravity −9.81) with the lift's top at y = 0.25 and the walker resting on it at (x, z). */
function liftScene(x = 0.3, z = 0.2): Scene {
  const world = new World({ gravity: { x: 0, y: -G, z: 0 } });
  const lift = world.createBody({ type: 'kinematic', shape: new Box({ x: 2, y: HALF_THICKNESS, z: 2 }), position: { x: 0, y: 0, z: 0 } });
  const c = new CharacterController(world, { position: { x, y: HALF_THICKNESS + FEET + SKIN, z } });
  const walker = new Walker(c);
  c.move({ x: 0, y: -0.005, z: 0 });
  walker.update(DT);
  expect(walker.state).toBe('grounded');
  return { world, lift, walker, c };
}

/** Sets the lift's vertical speed for the coming step, by velocity or by the target it reaches. */
function drive(lift: RigidBody, v: number, driver: Driver): void {
  if (driver === 'velocity') lift.setLinearVelocity({ x: 0, y: v, z: 0 });
  else lift.setKinematicTarget({ x: lift.position.x, y: lift.position.y + v * DT, z: lift.position.z });
}

/** One game frame in the given order. */
function frame(s: Scene, order: Order): void {
  if (order === 'step-then-update') {
    s.world.step(DT);
    s.walker.update(DT);
  } else {
    s.walker.update(DT);
  }
}

interface Run { airborneFrames: number; minGap: number; maxGap: number; deepest: number; launch: number; drift: number; liftTravel: number }

/**
 * Drives the lift by `profile` (vertical speed per frame) for `frames`
 * frames, then holds it at rest for 90 frames (1.5 s). The gap is measured
 * right after walker.update (for 'update-then-step' that is before the step,
 * the order's only moment where the character has caught up with the lift).
 */
function runLift(profile: (i: number) => number, frames: number, driver: Driver, order: Order): Run {
  const s = liftScene();
  const { lift, c } = s;
  const x0 = c.position.x, z0 = c.position.z, y0 = lift.position.y;
  const run: Run = { airborneFrames: 0, minGap: Infinity, maxGap: -Infinity, deepest: 0, launch: -Infinity, drift: 0, liftTravel: 0 };
  for (let i = 0; i < frames + 90; i++) {
    drive(lift, i < frames ? profile(i) : 0, driver);
    frame(s, order);
    const gap = c.position.y - FEET - (lift.position.y + HALF_THICKNESS);
    if (s.walker.state !== 'grounded') run.airborneFrames++;
    run.minGap = Math.min(run.minGap, gap);
    run.maxGap = Math.max(run.maxGap, gap);
    run.deepest = Math.max(run.deepest, penetration(s.world, c));
    run.drift = Math.max(run.drift, Math.hypot(c.position.x - x0, c.position.z - z0));
    if (i >= frames) run.launch = Math.max(run.launch, gap - SKIN);
    if (order === 'update-then-step') s.world.step(DT);
  }
  run.liftTravel = lift.position.y - y0;
  return run;
}

/** Speed profiles (m/s at frame i, i from 0), each ending with a one-frame dead stop. */
const accelerate = (a: number) => (i: number): number => a * (i + 1) * DT;
const constant = (v: number) => (): number => v;
/** Accelerate at a for `frames` frames, then brake at b until at rest (one frame may end short). */
const accelerateThenBrake = (a: number, b: number, frames: number) => (i: number): number => {
  const top = a * frames * DT;
  if (i < frames) return a * (i + 1) * DT;
  const v = top - Math.sign(a) * Math.abs(b) * (i + 1 - frames) * DT;
  return Math.sign(v) === Math.sign(a) ? v : 0;
};

const PROFILES: { name: string; profile: (i: number) => number; frames: number }[] = [
  { name: 'accelerates up at 2 m/s² for 1 s', profile: accelerate(2), frames: 60 },
  { name: 'accelerates up at 10 m/s² for 1 s', profile: accelerate(10), frames: 60 },
  { name: 'rises at a constant 3 m/s', profile: constant(3), frames: 60 },
  { name: 'accelerates up at 5 m/s², brakes at 12 m/s² (faster than gravity) to rest', profile: accelerateThenBrake(5, 12, 30), frames: 60 },
  { name: 'accelerates down at 2 m/s² for 1 s', profile: accelerate(-2), frames: 60 },
  { name: 'accelerates down at 30 m/s² (faster than gravity) for 0.5 s', profile: accelerate(-30), frames: 30 },
  { name: 'sinks at a constant 3 m/s', profile: constant(-3), frames: 60 },
  { name: 'sinks at a constant 15 m/s', profile: constant(-15), frames: 30 },
  { name: 'accelerates down at 5 m/s², brakes at 12 m/s² to rest', profile: accelerateThenBrake(-5, 12, 30), frames: 60 },
];

describe('Walker standing on a kinematic lift', () => {
  for (const driver of ['velocity', 'target'] as const) {
    for (const { name, profile, frames } of PROFILES) {
      it(`${name} (${driver}): grounded every frame, gap = skin ± 0.1 mm, no launch after the dead stop`, () => {
        const r = runLift(profile, frames, driver, 'step-then-update');
        // the lift really went somewhere (the profile is not a no-op)
        let travel = 0;
        for (let i = 0; i < frames; i++) travel += profile(i) * DT;
        expect(r.liftTravel).toBeCloseTo(travel, 6);
        expect(Math.abs(travel)).toBeGreaterThan(0.75);
        expect(r.airborneFrames).toBe(0);
        expect(r.minGap).toBeGreaterThan(SKIN - GAP_TOLERANCE);
        expect(r.maxGap).toBeLessThan(SKIN + GAP_TOLERANCE);
        expect(r.deepest).toBeLessThan(1e-3);
        expect(r.launch).toBeLessThan(0.01);
        expect(r.drift).toBeLessThan(1e-3);
      });
    }
  }

  it('the other call order (walker.update before world.step) also keeps it grounded on every profile', () => {
    // Measured after the update: the update puts the character back on the
    // lift it moved with during the previous step (docs/character.md: call order).
    for (const { profile, frames } of PROFILES) {
      const r = runLift(profile, frames, 'velocity', 'update-then-step');
      expect(r.airborneFrames).toBe(0);
      expect(r.minGap).toBeGreaterThan(SKIN - GAP_TOLERANCE);
      expect(r.maxGap).toBeLessThan(SKIN + GAP_TOLERANCE);
      expect(r.launch).toBeLessThan(0.01);
    }
  });

  it('several steps per update (world.advance) are carried as one motion', () => {
    const s = liftScene();
    const { world, lift, walker, c } = s;
    let worst = 0;
    for (let i = 0; i < 60; i++) {
      lift.setLinearVelocity({ x: 0, y: i < 40 ? 4 : 0, z: 0 });
      world.advance(2 * DT); // two fixed steps of 1/60
      walker.update(2 * DT);
      expect(walker.state).toBe('grounded');
      worst = Math.max(worst, Math.abs(c.position.y - FEET - (lift.position.y + HALF_THICKNESS) - SKIN));
    }
    expect(lift.position.y).toBeCloseTo(4 * 40 * 2 * DT, 6);
    expect(worst).toBeLessThan(GAP_TOLERANCE);
  });
});

describe('Walker on lifts that turn', () => {
  it('a lift rising at 2 m/s while turning at 1 rad/s: grounded, on the floor, no drift in the lift frame, no launch at the stop', () => {
    const s = liftScene(1.5, 0);
    const { world, lift, walker, c } = s;
    lift.setAngularVelocity({ x: 0, y: 1, z: 0 });
    const local0 = quat.inverseRotate({ x: 0, y: 0, z: 0 }, lift.rotation, { x: c.position.x - lift.position.x, y: 0, z: c.position.z - lift.position.z });
    const yaw0 = walker.yaw;
    let worstGap = 0, worstDrift = 0;
    for (let i = 0; i < 210; i++) {
      const moving = i < 120;
      lift.setLinearVelocity({ x: 0, y: moving ? 2 : 0, z: 0 });
      lift.setAngularVelocity({ x: 0, y: moving ? 1 : 0, z: 0 });
      world.step(DT);
      walker.update(DT);
      expect(walker.state).toBe('grounded');
      worstGap = Math.max(worstGap, Math.abs(c.position.y - FEET - (lift.position.y + HALF_THICKNESS) - SKIN));
      const local = quat.inverseRotate({ x: 0, y: 0, z: 0 }, lift.rotation, { x: c.position.x - lift.position.x, y: 0, z: c.position.z - lift.position.z });
      worstDrift = Math.max(worstDrift, Math.hypot(local.x - local0.x, local.z - local0.z));
    }
    expect(lift.position.y).toBeCloseTo(4, 6);
    expect(worstGap).toBeLessThan(GAP_TOLERANCE);
    expect(worstDrift).toBeLessThan(1e-3);
    // the walker's facing turned with the lift (2 s at 1 rad/s, as integrated by the world)
    const turned = 2 * Math.atan2(lift.rotation.y, lift.rotation.w);
    expect(turned).toBeCloseTo(2, 4);
    expect(walker.yaw - yaw0).toBeCloseTo(turned, 9);
  });

  it('a platform rocking ±10° about a horizontal axis keeps the walker grounded, out of it and in place', () => {
    const s = liftScene(0.5, 0.5);
    const { world, lift, walker, c } = s;
    // angle(t) = A sin(2π t / T): ω = A (2π / T) cos(2π t / T) about z
    const A = (10 * Math.PI) / 180, T = 2;
    let deepest = 0, worstFloat = 0, worstDrift = 0;
    // the centre of the capsule's lower sphere, in the platform's frame
    const feet = () => quat.inverseRotate({ x: 0, y: 0, z: 0 }, lift.rotation, { x: c.position.x - lift.position.x, y: c.position.y - c.halfHeight - lift.position.y, z: c.position.z - lift.position.z });
    const local0 = feet();
    for (let i = 0; i < 240; i++) {
      const t = (i + 0.5) * DT;
      lift.setAngularVelocity({ x: 0, y: 0, z: A * ((2 * Math.PI) / T) * Math.cos((2 * Math.PI * t) / T) });
      world.step(DT);
      walker.update(DT);
      expect(walker.state).toBe('grounded');
      deepest = Math.max(deepest, penetration(world, c));
      // distance from the lowest sphere centre to the tilted top face, minus radius and skin
      const n = quat.rotate({ x: 0, y: 0, z: 0 }, lift.rotation, { x: 0, y: 1, z: 0 });
      const bx = c.position.x, by = c.position.y - c.halfHeight, bz = c.position.z;
      const above = n.x * (bx - lift.position.x) + n.y * (by - lift.position.y) + n.z * (bz - lift.position.z) - HALF_THICKNESS - c.radius - SKIN;
      worstFloat = Math.max(worstFloat, above);
      const local = feet();
      worstDrift = Math.max(worstDrift, Math.hypot(local.x - local0.x, local.y - local0.y, local.z - local0.z));
    }
    expect(deepest).toBeLessThan(1e-3);
    expect(worstFloat).toBeLessThan(GAP_TOLERANCE);
    expect(worstDrift).toBeLessThan(1e-3);
  });
});

describe('Jumping off a moving lift', () => {
  // After the jump frame the walker's upward speed is jumpSpeed + the lift's.
  // Semi-implicit Euler moves by v·dt before gravity acts, so the rise above
  // the jump point lies in [v²/2g, v²/2g + v·dt].
  for (const [name, lv] of [['rising at 3 m/s', 3], ['sinking at 3 m/s', -3], ['standing still', 0]] as const) {
    it(`a jump from a lift ${name} leaves at 5 m/s + the lift's speed`, () => {
      const s = liftScene();
      const { world, lift, walker, c } = s;
      lift.setLinearVelocity({ x: 0, y: lv, z: 0 });
      for (let i = 0; i < 20; i++) { world.step(DT); walker.update(DT); }
      expect(walker.state).toBe('grounded');
      world.step(DT);
      walker.jump();
      // the update first carries the character with the lift's last step, then jumps from there
      const y0 = lift.position.y + HALF_THICKNESS + FEET + SKIN;
      walker.update(DT);
      const v = 5 + lv;
      expect(walker.state).toBe('airborne');
      expect(walker.velocity.y).toBeCloseTo(v, 9);
      let peak = c.position.y, landed = -1, deepest = 0;
      for (let i = 0; i < 150 && landed < 0; i++) {
        world.step(DT);
        walker.update(DT);
        peak = Math.max(peak, c.position.y);
        deepest = Math.max(deepest, penetration(world, c));
        if (walker.state === 'grounded') landed = i;
      }
      const rise = peak - y0;
      expect(rise).toBeGreaterThan((v * v) / (2 * G) - 1e-9);
      expect(rise).toBeLessThan((v * v) / (2 * G) + v * DT);
      // it comes back down onto the moving lift: relative to it a 5 m/s jump takes 2·5/g ≈ 1.02 s
      expect(landed).toBeGreaterThan(55);
      expect(landed).toBeLessThan(66);
      expect(deepest).toBeLessThan(1e-3);
      // and rides it again
      for (let i = 0; i < 10; i++) { world.step(DT); walker.update(DT); expect(walker.state).toBe('grounded'); }
      expect(Math.abs(c.position.y - FEET - (lift.position.y + HALF_THICKNESS) - SKIN)).toBeLessThan(GAP_TOLERANCE);
    });
  }

  it('a jump from a lift accelerating up at 5 m/s² inherits its speed at the jump', () => {
    const s = liftScene();
    const { world, lift, walker } = s;
    for (let i = 0; i < 30; i++) { lift.setLinearVelocity({ x: 0, y: 5 * (i + 1) * DT, z: 0 }); world.step(DT); walker.update(DT); }
    lift.setLinearVelocity({ x: 0, y: 5 * 31 * DT, z: 0 });
    world.step(DT);
    walker.jump();
    walker.update(DT);
    // the velocity the lift moved with in the step just taken
    expect(walker.velocity.y).toBeCloseTo(5 + 5 * 31 * DT, 9);
  });
});

describe('CharacterController.followGround without the walker', () => {
  it("followGround before each move rides a rising lift: grounded, gap = skin, ground velocity = the lift's", () => {
    const s = liftScene();
    const { world, lift, c } = s;
    const still = { x: 0, y: 0, z: 0 };
    for (let i = 0; i < 30; i++) {
      lift.setLinearVelocity({ x: 0, y: 2, z: 0 });
      world.step(DT);
      expect(c.followGround()).toBe(true);
      const r = c.move(still, DT);
      expect(r.grounded).toBe(true);
      expect(r.groundBody).toBe(lift);
      expect(r.groundVelocity.y).toBeCloseTo(2, 9);
      expect(Math.abs(c.position.y - FEET - (lift.position.y + HALF_THICKNESS) - SKIN)).toBeLessThan(GAP_TOLERANCE);
    }
    expect(lift.position.y).toBeCloseTo(1, 9);
  });

  it('does nothing on static ground or after a teleport', () => {
    const world = new World({ gravity: { x: 0, y: -G, z: 0 } });
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    const c = new CharacterController(world, { position: { x: 0, y: FEET + SKIN, z: 0 } });
    expect(c.move({ x: 0, y: -0.005, z: 0 }).grounded).toBe(true);
    expect(c.followGround()).toBe(false);
    const s = liftScene();
    s.c.setPosition({ x: 0.3, y: 5, z: 0.2 });
    s.lift.setLinearVelocity({ x: 0, y: 2, z: 0 });
    s.world.step(DT);
    expect(s.c.followGround()).toBe(false);
    expect(s.c.position.y).toBe(5);
  });
});

describe('Riding a platform into obstacles', () => {
  it('a platform sliding into a wall: the wall stops the character skinWidth from its face, grounded, not overlapping', () => {
    const s = liftScene(0.3, 0.2);
    const { world, lift, walker, c } = s;
    // wall face at x = 2.9; the lift (half width 2) passes under it
    world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 2, z: 5 }), position: { x: 3, y: 2.5, z: 0 } });
    let deepest = 0;
    for (let i = 0; i < 120; i++) {
      lift.setLinearVelocity({ x: 1.5, y: 0, z: 0 });
      world.step(DT);
      walker.update(DT);
      expect(walker.state).toBe('grounded');
      deepest = Math.max(deepest, penetration(world, c));
    }
    expect(lift.position.x).toBeCloseTo(3, 6);
    expect(c.position.x).toBeCloseTo(2.9 - c.radius - SKIN, 4);
    expect(deepest).toBeLessThan(1e-3);
  });

  it('the lift removed under a riding walker: it falls from where it was, nothing thrown', () => {
    const s = liftScene();
    const { world, lift, walker, c } = s;
    for (let i = 0; i < 10; i++) { lift.setLinearVelocity({ x: 0, y: 1, z: 0 }); world.step(DT); walker.update(DT); }
    const y0 = c.position.y;
    world.removeBody(lift);
    world.step(DT);
    walker.update(DT);
    expect(walker.state).toBe('airborne');
    // walked off a lift rising at 1 m/s: leaves with its velocity
    expect(walker.velocity.y).toBeCloseTo(1, 9);
    expect(c.position.y).toBeCloseTo(y0, 9);
  });
});
