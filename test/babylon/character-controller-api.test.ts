// FootingCharacterController's API group by group (create, settings, pose
// and velocity, calculateMovement, moveWithCollisions, checkSupport, shape,
// pushes, dispose), in Node with NullEngine. 60 Hz; capsule 1.8 × 0.6 m
// unless stated, centre at 0.95 m over the ground (keepDistance 0.05).
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Scene } from '@babylonjs/core/scene';
import { PhysicsCharacterController } from '@babylonjs/core/Physics/v2/characterController';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import { Box, World, type RigidBody } from '../../src/index';
import { FootingCharacterController, type FootingCharacterCollisionEvent, type FootingWorldHost } from '../../src/babylon/index';

const DT = 1 / 60;
const REST_Y = 0.95;

function setup(): { scene: Scene; world: World } {
  const scene = new Scene(new NullEngine());
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
  world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 } });
  return { scene, world };
}

function make(scene: Scene, world: World, x = 0, y = REST_Y, z = 0): FootingCharacterController {
  return new FootingCharacterController(new Vector3(x, y, z), { capsuleHeight: 1.8, capsuleRadius: 0.6 }, scene, { world });
}

/** One physics frame of a game loop: step the world, then the character at rest or at `v`. */
function frame(world: World, c: FootingCharacterController, v?: Vector3): void {
  world.step(DT);
  const info = c.checkSupport(DT, new Vector3(0, -1, 0));
  if (v) c.setVelocity(v);
  c.integrate(DT, info, new Vector3(0, -9.81, 0));
}

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('FootingCharacterController: creation and the world', () => {
  it('takes its world from options, from forWorld, or from the scene plugin\'s `world`; its body joins that world and leaves on dispose', () => {
    const { scene, world } = setup();
    const bodies = world.bodies.length;
    const a = make(scene, world);
    expect(a.world).toBe(world);
    expect(world.bodies.length).toBe(bodies + 1);
    const B = FootingCharacterController.forWorld(world);
    const b = new B(new Vector3(3, REST_Y, 0), {}, scene);
    expect(b.world).toBe(world);
    // a physics plugin carrying a footing world, as FootingPlugin does
    const host: FootingWorldHost = { world };
    (scene as unknown as { getPhysicsEngine: () => unknown }).getPhysicsEngine = () => ({ getPhysicsPlugin: () => host });
    const c = new FootingCharacterController(new Vector3(-3, REST_Y, 0), {}, scene);
    expect(c.world).toBe(world);
    expect(world.bodies.length).toBe(bodies + 3);
    a.dispose(); b.dispose(); c.dispose();
    expect(world.bodies.length).toBe(bodies);
    expect(() => a.integrate(DT, a.checkSupport(DT, new Vector3(0, -1, 0)), Vector3.Zero())).toThrow(/dispose/);
  });

  it('refuses a scene without a footing world, a PhysicsShape, and bad capsule sizes, naming them', () => {
    const { scene, world } = setup();
    expect(() => new FootingCharacterController(new Vector3(), {}, scene)).toThrow(/no footing world/);
    expect(() => new FootingCharacterController(new Vector3(), {}, scene, { world: {} as World })).toThrow(/options\.world/);
    expect(() => new FootingCharacterController(new Vector3(), { shape: {} as never }, scene, { world })).toThrow(/shape is not supported/);
    expect(() => new FootingCharacterController(new Vector3(), { capsuleRadius: -1 }, scene, { world })).toThrow(/capsuleRadius/);
    expect(() => new FootingCharacterController(new Vector3(), { capsuleHeight: NaN }, scene, { world })).toThrow(/capsuleHeight/);
    expect(() => new FootingCharacterController(new Vector3(NaN, 0, 0), {}, scene, { world })).toThrow(/position/);
  });

  it('has Babylon\'s defaults, mapped onto footing\'s settings', () => {
    const { scene, world } = setup();
    const c = new FootingCharacterController(new Vector3(0, 2, 0), {}, scene, { world });
    expect(c.controller.radius).toBe(0.6);
    expect(c.controller.halfHeight).toBeCloseTo(0.3, 12);
    expect(c.footOffset).toBe(0.9);
    expect([c.keepDistance, c.keepContactTolerance, c.maxCastIterations, c.maxSlopeCosine, c.maxStepHeight]).toEqual([0.05, 0.1, 10, 0.5, 0]);
    expect([c.characterStrength, c.characterMass, c.acceleration, c.maxAcceleration, c.staticFriction, c.dynamicFriction]).toEqual([1e38, 0, 0.05, 50, 0, 1]);
    expect(c.up.asArray()).toEqual([0, 1, 0]);
    const s = c.controller.settings;
    expect([s.skinWidth, s.gatherDistance, s.maxSweeps, s.stepHeight, s.pushStrength]).toEqual([0.05, 0.1, 10, 0, 0]);
    expect(s.maxSlopeDegrees).toBeCloseTo(60, 9);
  });
});

describe('FootingCharacterController: settings', () => {
  it('writes through to footing and refuses bad values, leaving the old one', () => {
    const { scene, world } = setup();
    const c = make(scene, world);
    c.maxSlopeCosine = Math.cos(Math.PI / 6);
    expect(c.controller.settings.maxSlopeDegrees).toBeCloseTo(30, 9);
    c.keepDistance = 0.02; c.keepContactTolerance = 0.2; c.maxCastIterations = 4; c.maxStepHeight = 0.35;
    const s = c.controller.settings;
    expect([s.skinWidth, s.gatherDistance, s.maxSweeps, s.stepHeight]).toEqual([0.02, 0.2, 4, 0.35]);
    expect(() => { c.maxSlopeCosine = NaN; }).toThrow(/maxSlopeCosine/);
    expect(() => { c.maxSlopeCosine = 1.5; }).toThrow(/maxSlopeCosine/);
    expect(() => { c.keepDistance = -1; }).toThrow(/keepDistance/);
    expect(() => { c.maxCastIterations = 2.5; }).toThrow(/maxCastIterations/);
    expect(() => { c.characterStrength = Infinity; }).toThrow(/characterStrength/);
    expect(() => { c.characterMass = -1; }).toThrow(/characterMass/);
    expect(() => { c.dynamicFriction = 2; }).toThrow(/dynamicFriction/);
    expect(c.maxSlopeCosine).toBeCloseTo(Math.cos(Math.PI / 6), 12);
    expect(s.skinWidth).toBe(0.02);
  });

  it('rebuilds the capsule along a new `up` at the next call', () => {
    const { scene, world } = setup();
    const c = make(scene, world);
    const bodies = world.bodies.length;
    c.up = new Vector3(0, 0, 2);
    c.checkSupport(DT, new Vector3(0, 0, -1));
    expect(c.controller.up).toEqual({ x: 0, y: 0, z: 1 });
    expect(world.bodies.length).toBe(bodies);
    c.up = new Vector3(0, 0, 0);
    expect(() => c.checkSupport(DT, new Vector3(0, -1, 0))).toThrow(/up/);
  });
});

describe('FootingCharacterController: position and velocity', () => {
  it('teleports with setPosition (also by writing the vector getPosition returns) and refuses NaN', () => {
    const { scene, world } = setup();
    const c = make(scene, world);
    c.setPosition(new Vector3(2, REST_Y, 1));
    expect(c.controller.position).toEqual({ x: 2, y: REST_Y, z: 1 });
    expect(c.getPosition().asArray()).toEqual([2, REST_Y, 1]);
    c.getPosition().x = 4;
    frame(world, c);
    expect(c.getPosition().x).toBeCloseTo(4, 9);
    // plain { x, y, z } objects too (Vector3.copyFrom would read its private fields and write NaN)
    c.setVelocity({ x: 1, y: 2, z: 3 } as Vector3);
    expect(c.getVelocity().asArray()).toEqual([1, 2, 3]);
    c.setVelocity(Vector3.Zero());
    c.setPosition({ x: 4, y: REST_Y, z: 0 } as Vector3);
    expect(c.getPosition().asArray()).toEqual([4, REST_Y, 0]);
    expect(() => c.setPosition(new Vector3(0, NaN, 0))).toThrow(/position/);
    expect(() => c.setVelocity(new Vector3(Infinity, 0, 0))).toThrow(/velocity/);
    expect(c.getPosition().x).toBeCloseTo(4, 9);
  });

  it('integrate moves by velocity·dt on the ground and keeps the velocity; a wall takes the part into it', () => {
    const { scene, world } = setup();
    world.createBody({ type: 'static', shape: new Box({ x: 0.5, y: 2, z: 5 }), position: { x: 2.5, y: 2, z: 0 } }); // face at x = 2
    const c = make(scene, world);
    frame(world, c);
    const x0 = c.getPosition().x;
    frame(world, c, new Vector3(3, 0, 0));
    expect(c.getPosition().x - x0).toBeCloseTo(3 * DT, 9);
    expect(c.getVelocity().x).toBeCloseTo(3, 9);
    for (let i = 0; i < 60; i++) frame(world, c, new Vector3(3, 0, 1));
    expect(c.getPosition().x).toBeCloseTo(2 - 0.6 - 0.05, 3);
    expect(c.getVelocity().x).toBeCloseTo(0, 9);
    expect(c.getVelocity().z).toBeCloseTo(1, 9);
    expect(() => c.integrate(0, c.checkSupport(DT, new Vector3(0, -1, 0)), Vector3.Zero())).toThrow(/deltaTime/);
  });

  it('staticFriction stops a velocity mostly into a wall; dynamicFriction 0 keeps its speed along it', () => {
    const { scene, world } = setup();
    world.createBody({ type: 'static', shape: new Box({ x: 0.5, y: 2, z: 5 }), position: { x: 2.5, y: 2, z: 0 } });
    const c = make(scene, world, 2 - 0.65);
    frame(world, c);
    // (3, 0, 1): 3 into the wall, 1 along it
    c.staticFriction = 0.5; // stops when removed² (1 + μ²) ≥ |v|²: 9 × 1.25 ≥ 10
    frame(world, c, new Vector3(3, 0, 1));
    expect(c.getVelocity().length()).toBe(0);
    c.staticFriction = 0;
    c.dynamicFriction = 0;
    frame(world, c, new Vector3(3, 0, 1));
    expect(c.getVelocity().x).toBeCloseTo(0, 9);
    expect(c.getVelocity().z).toBeCloseTo(Math.sqrt(10), 9);
  });

  it('moveWithCollisions moves over scene.deltaTime (nothing before the first frame) and sets velocity = displacement / dt', () => {
    const { scene, world } = setup();
    const c = make(scene, world);
    frame(world, c);
    const x0 = c.getPosition().x;
    (scene as { deltaTime: number | undefined }).deltaTime = undefined;
    c.moveWithCollisions(new Vector3(0.1, 0, 0));
    expect(c.getPosition().x).toBe(x0);
    scene.deltaTime = 1000 / 50;
    c.moveWithCollisions(new Vector3(0.1, 0, 0));
    expect(c.getPosition().x - x0).toBeCloseTo(0.1, 9);
    expect(c.getVelocity().x).toBeCloseTo(5, 9);
  });
});

describe('FootingCharacterController: calculateMovement', () => {
  it('equals Babylon\'s own calculateMovementToRef on 200 random inputs (seed 20)', () => {
    const seed = 20;
    const rnd = random(seed);
    const { scene, world } = setup();
    const c = make(scene, world);
    const v = (): Vector3 => new Vector3(rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1).scaleInPlace(10);
    const babylonThis = { acceleration: 0, maxAcceleration: 0, _tmpVecs: Array.from({ length: 32 }, () => new Vector3()) };
    let worst = 0;
    for (let i = 0; i < 200; i++) {
      c.acceleration = babylonThis.acceleration = rnd();
      c.maxAcceleration = babylonThis.maxAcceleration = rnd() * 100;
      const up = new Vector3(0, 1, 0);
      const normal = i % 2 === 0 ? up.clone() : v().normalize();
      const args = [rnd() * 0.05 + 0.001, v(), normal, v(), v(), v(), up] as const;
      const ours = new Vector3(), theirs = new Vector3();
      const okOurs = c.calculateMovementToRef(...args, ours);
      const okTheirs = PhysicsCharacterController.prototype.calculateMovementToRef.call(babylonThis as unknown as PhysicsCharacterController, ...args, theirs);
      expect(okOurs).toBe(okTheirs);
      worst = Math.max(worst, ours.subtract(theirs).length() / Math.max(1, theirs.length()));
    }
    console.log(`calculateMovement vs Babylon, seed ${seed}: largest relative difference ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(1e-5);
  });

  it('flat ground from rest: gain 0.05 of the wish, capped at maxAcceleration·dt; false when forward ∥ up', () => {
    const { scene, world } = setup();
    const c = make(scene, world);
    const up = new Vector3(0, 1, 0), fwd = new Vector3(0, 0, 1);
    const out = c.calculateMovement(DT, fwd, up, Vector3.Zero(), new Vector3(1, 0, 0), new Vector3(0, 0, 10), up);
    // relative to the surface (moving at +1 x) the character moves at −1 x: 0.05 of the way to the wish (0, 0, 10)
    expect(out.x).toBeCloseTo(1 - 0.95, 12);
    expect(out.z).toBeCloseTo(0.5, 12);
    c.acceleration = 1;
    expect(c.calculateMovement(DT, fwd, up, Vector3.Zero(), Vector3.Zero(), new Vector3(0, 0, 10), up).z).toBeCloseTo(50 * DT, 12);
    const r = new Vector3(7, 7, 7);
    expect(c.calculateMovementToRef(DT, up, up, Vector3.Zero(), Vector3.Zero(), new Vector3(0, 0, 10), up, r)).toBe(false);
    expect(r.asArray()).toEqual([7, 7, 7]);
  });
});

describe('FootingCharacterController: checkSupport', () => {
  it('along −up: SUPPORTED on the ground with its normal; UNSUPPORTED in the air; toRef fills the given object', () => {
    const { scene, world } = setup();
    const c = make(scene, world, 0, 3);
    const info = c.checkSupport(DT, new Vector3(0, -1, 0));
    expect(info.supportedState).toBe(0);
    c.setPosition(new Vector3(0, REST_Y, 0));
    frame(world, c);
    c.checkSupportToRef(DT, new Vector3(0, -9.81, 0), info);
    expect(info.supportedState).toBe(2);
    expect(info.averageSurfaceNormal.y).toBeCloseTo(1, 9);
    expect(info.averageSurfaceVelocity.length()).toBe(0);
    expect(info.isSurfaceDynamic).toBe(false);
  });

  it('along another direction: the touching planes facing it (a wall ahead counts as support along +x)', () => {
    const { scene, world } = setup();
    world.createBody({ type: 'static', shape: new Box({ x: 0.5, y: 2, z: 5 }), position: { x: 2.5, y: 2, z: 0 } });
    const c = make(scene, world);
    for (let i = 0; i < 40; i++) frame(world, c, new Vector3(3, 0, 0));
    const info = c.checkSupport(DT, new Vector3(1, 0, 0));
    expect(info.supportedState).toBe(2);
    expect(info.averageSurfaceNormal.x).toBeCloseTo(-1, 9);
    expect(c.checkSupport(DT, new Vector3(-1, 0, 0)).supportedState).toBe(0);
  });

  it('on a moving dynamic body: its point velocity, isSurfaceDynamic, and the weight of characterMass pressing it', () => {
    const { scene, world } = setup();
    const raft = world.createBody({ type: 'dynamic', shape: new Box({ x: 2, y: 0.25, z: 2 }), position: { x: 0, y: 0.25, z: 0 }, mass: 100, friction: 0 });
    const c = make(scene, world, 0, 0.5 + REST_Y);
    c.characterMass = 80;
    const events: number[] = [];
    c.onTriggerCollisionObservable.add((e) => { if (e.body === raft) events.push(e.impulse.y); });
    for (let i = 0; i < 20; i++) frame(world, c);
    const weight = -80 * 9.81 * DT;
    console.log(`weight impulse ${events[events.length - 1]!.toFixed(5)} N·s, expected ${weight.toFixed(5)}`);
    // plus the raft's own settling speed into the ground (Babylon's formula counts it)
    expect(Math.abs(events[events.length - 1]! / weight - 1)).toBeLessThan(0.01);
    raft.setLinearVelocity({ x: 1.5, y: 0, z: 0 });
    world.step(DT);
    const info = c.checkSupport(DT, new Vector3(0, -1, 0));
    expect(info.supportedState).toBe(2);
    expect(info.isSurfaceDynamic).toBe(true);
    expect(info.averageSurfaceVelocity.x).toBeCloseTo(raft.linearVelocity.x, 4); // the point velocity: the raft turns a little
  });
  it('rides a kinematic lift (1 m/s up and sideways) by the surface velocity it reports: the gap stays keepDistance', () => {
    const { scene, world } = setup();
    const lift = world.createBody({ type: 'kinematic', shape: new Box({ x: 2, y: 0.25, z: 2 }), position: { x: 0, y: 0.25, z: 0 } });
    const c = make(scene, world, 0, 0.5 + REST_Y);
    const g = new Vector3(0, -18, 0);
    let worstGap = 0, worstSlip = 0;
    for (let i = 0; i < 180; i++) {
      const t = i * DT;
      lift.setLinearVelocity({ x: t > 0.5 ? 1 : 0, y: t > 0.5 && t < 2.5 ? 1 : 0, z: 0 });
      world.step(DT);
      const info = c.checkSupport(DT, new Vector3(0, -1, 0));
      // the documentation scene's ON_GROUND velocity without input: the surface's
      const v = info.supportedState === 2 ? info.averageSurfaceVelocity.clone() : c.getVelocity().add(g.scale(DT));
      c.setVelocity(v);
      c.integrate(DT, info, g);
      if (i < 10) continue;
      worstGap = Math.max(worstGap, Math.abs(c.getPosition().y - lift.position.y - 0.25 - 0.9 - 0.05));
      worstSlip = Math.max(worstSlip, Math.abs(c.getPosition().x - lift.position.x));
    }
    console.log(`lift: largest gap error ${worstGap.toExponential(2)} m, slip ${worstSlip.toExponential(2)} m, lift at y ${lift.position.y.toFixed(3)}`);
    expect(lift.position.y).toBeGreaterThan(2);
    expect(worstGap).toBeLessThan(1e-3);
    expect(worstSlip).toBeLessThan(1e-3);
  });
});

describe('FootingCharacterController: setShapeOptions', () => {
  it('a new radius rebuilds the capsule with the feet kept; preserveFootPosition false keeps the centre', () => {
    const { scene, world } = setup();
    const c = make(scene, world);
    frame(world, c);
    const bodies = world.bodies.length;
    expect(c.setShapeOptions({ capsuleHeight: 1.2, capsuleRadius: 0.4 })).toBe(true);
    expect(c.controller.radius).toBe(0.4);
    expect(c.getPosition().y).toBeCloseTo(REST_Y - 0.3, 9);
    expect(c.footOffset).toBe(0.6);
    expect(c.shapeOptions.capsuleRadius).toBe(0.4);
    expect(world.bodies.length).toBe(bodies);
    expect(c.setShapeOptions({ capsuleHeight: 1.0, capsuleRadius: 0.4 }, false)).toBe(true);
    expect(c.getPosition().y).toBeCloseTo(REST_Y - 0.3, 9);
    expect(c.controller.halfHeight).toBeCloseTo(0.1, 12);
  });

  it('refuses to grow into a wall (radius) or a ceiling (height) and changes nothing', () => {
    const { scene, world } = setup();
    world.createBody({ type: 'static', shape: new Box({ x: 0.5, y: 2, z: 5 }), position: { x: 1.2, y: 2, z: 0 } }); // face at x = 0.7
    const c = new FootingCharacterController(new Vector3(0, 0.75, 0), { capsuleHeight: 1.4, capsuleRadius: 0.6 }, scene, { world });
    frame(world, c);
    const before = c.getPosition().clone();
    expect(c.setShapeOptions({ capsuleHeight: 1.6, capsuleRadius: 0.8 })).toBe(false);
    expect(c.controller.radius).toBe(0.6);
    expect(c.getPosition().asArray()).toEqual(before.asArray());
    expect(c.shapeOptions.capsuleRadius).toBe(0.6);
  });
});

describe('FootingCharacterController: collision events', () => {
  it('names the Babylon body through the host\'s getPhysicsBody, and the impulse matches the body\'s velocity change', () => {
    const { scene, world } = setup();
    const crate = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 1.7, y: 0.5, z: 0 }, mass: 10, friction: 0.5 });
    const fakeBody = { name: 'crate' } as unknown as PhysicsBody;
    const host: FootingWorldHost = { world, getPhysicsBody: (b: RigidBody) => (b === crate ? fakeBody : null) };
    const c = new FootingCharacterController(new Vector3(0, REST_Y, 0), {}, scene, { world: host });
    c.characterStrength = 100;
    const seen: { collider: PhysicsBody | null; jx: number; before: number; after: number }[] = [];
    let before = 0;
    c.onTriggerCollisionObservable.add((e: FootingCharacterCollisionEvent) => {
      if (e.body === crate) seen.push({ collider: e.collider, jx: e.impulse.x, before: crate.linearVelocity.x, after: NaN });
    });
    for (let i = 0; i < 30; i++) {
      world.step(DT);
      const info = c.checkSupport(DT, new Vector3(0, -1, 0));
      c.setVelocity(new Vector3(2, 0, 0));
      before = seen.length;
      c.integrate(DT, info, new Vector3(0, -9.81, 0));
      if (seen.length > before) seen[seen.length - 1]!.after = crate.linearVelocity.x;
    }
    expect(seen.length).toBeGreaterThan(5);
    expect(seen[0]!.collider).toBe(fakeBody);
    for (const e of seen) {
      expect(Math.abs(e.jx)).toBeLessThanOrEqual(100 * DT + 1e-12);
      expect(e.after - e.before).toBeCloseTo(e.jx / 10, 9);
    }
  });
});
