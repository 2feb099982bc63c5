// Hostile input and new-user cases for FootingCharacterController and
// CharacterLink: every refusal names the argument or field, and a refused
// call leaves the controller, link and node as they were.
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { Scene } from '@babylonjs/core/scene';
import type { CharacterSurfaceInfo } from '@babylonjs/core/Physics/v2/characterController';
import { Box, World } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { CharacterLink, FootingCharacterController } from '../../src/babylon/index';

const DT = 1 / 60;
const REST_Y = 0.95;
const DOWN = new Vector3(0, -1, 0);
const G = new Vector3(0, -9.81, 0);

function setup(): { scene: Scene; world: World; c: FootingCharacterController } {
  const scene = new Scene(new NullEngine());
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
  world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 } });
  const c = new FootingCharacterController(new Vector3(0, REST_Y, 0), { capsuleHeight: 1.8, capsuleRadius: 0.6 }, scene, { world });
  return { scene, world, c };
}

function frame(c: FootingCharacterController): void {
  c.integrate(DT, c.checkSupport(DT, DOWN), G);
}

function pose(c: FootingCharacterController): number[] {
  const p = c.getPosition(), v = c.getVelocity(), q = c.controller.position;
  return [p.x, p.y, p.z, v.x, v.y, v.z, q.x, q.y, q.z, c.controller.radius, c.controller.halfHeight];
}

describe('FootingCharacterController: construction', () => {
  it('names a missing scene, options and options.settings (not "Cannot read properties of null")', () => {
    const { world } = setup();
    const scene = new Scene(new NullEngine());
    expect(() => new FootingCharacterController(new Vector3(), {}, null as never)).toThrow(/scene must be a Babylon Scene/);
    // with a world the scene was stored unchecked, and moveWithCollisions read deltaTime of undefined
    expect(() => new FootingCharacterController(new Vector3(), {}, undefined as never, { world })).toThrow(/scene must be a Babylon Scene/);
    expect(() => new FootingCharacterController(new Vector3(), {}, scene, null as never)).toThrow(/options must be an object/);
    expect(() => new FootingCharacterController(new Vector3(), {}, scene, { world, settings: 'fast' as never })).toThrow(/options\.settings/);
    // no body was left behind by the refusals
    expect(world.bodies.length).toBe(2);
  });

  it('names capsuleRadius and capsuleHeight outside footing\'s shape sizes (not Capsule.radius / Capsule.halfHeight)', () => {
    const { scene, world } = setup();
    expect(() => new FootingCharacterController(new Vector3(0, 5, 0), { capsuleRadius: 1e-300 }, scene, { world })).toThrow(/capsuleRadius/);
    expect(() => new FootingCharacterController(new Vector3(0, 5, 0), { capsuleHeight: 1e300 }, scene, { world })).toThrow(/capsuleHeight/);
    expect(() => new FootingCharacterController(new Vector3(0, 5, 0), { capsuleRadius: '0.5' as never }, scene, { world })).toThrow(/capsuleRadius/);
  });

  it('new user: no physics on the scene says how to give it a world; two controllers on one scene move independently and block each other', () => {
    const { scene, world, c } = setup();
    expect(() => new FootingCharacterController(new Vector3(), {}, new Scene(new NullEngine()))).toThrow(/no footing world/);
    const d = new FootingCharacterController(new Vector3(3, REST_Y, 0), {}, scene, { world });
    c.setVelocity(new Vector3(2, 0, 0));
    for (let i = 0; i < 120; i++) { frame(c); frame(d); }
    // c walked into d: stopped short of it (two radii apart), d did not move
    expect(c.getPosition().x).toBeLessThan(3 - 1.2 + 1e-3);
    expect(c.getPosition().x).toBeGreaterThan(1);
    expect(d.getPosition().x).toBeCloseTo(3, 6);
  });

  it('new user: the scene disposed under a controller made with { world } keeps it working (the world is not the scene\'s)', () => {
    const { scene, c } = setup();
    scene.dispose();
    c.setVelocity(new Vector3(1, 0, 0));
    frame(c);
    expect(Number.isFinite(c.getPosition().x)).toBe(true);
    expect(c.getPosition().x).toBeGreaterThan(0);
  });
});

describe('FootingCharacterController: pose and velocity', () => {
  it('setVelocity refuses a speed past MAX_LINEAR_SPEED by name (1e300 used to fail every integrate as a "displacement")', () => {
    const { c } = setup();
    c.setVelocity(new Vector3(1, 0, 0));
    expect(() => c.setVelocity(new Vector3(1e300, 0, 0))).toThrow(/velocity must have each component within/);
    expect(c.getVelocity().x).toBe(1);
    frame(c);
  });

  it('a NaN or 1e300 written into the vector getPosition() returns is named and undone, not kept (the controller used to stay NaN)', () => {
    const { c } = setup();
    c.getPosition().x = NaN;
    expect(() => frame(c)).toThrow(/getPosition\(\)/);
    expect(c.getPosition().x).toBe(0);
    frame(c);
    c.getPosition().y = 1e300;
    expect(() => frame(c)).toThrow(/getPosition\(\)/);
    expect(c.getPosition().y).toBeCloseTo(REST_Y, 6);
    // a finite write within the world is a teleport (Babylon's vector, footing's setPosition)
    c.getPosition().x = 2;
    frame(c);
    expect(c.controller.position.x).toBe(2);
  });

  it('integrate names deltaTime when velocity·deltaTime leaves the world, and moves nothing; dt = 1e9 at rest is valid', () => {
    const { c } = setup();
    // valid: a long frame (a paused tab) with the character at rest moves nothing
    frame(c);
    c.integrate(1e9, c.checkSupport(DT, DOWN), G);
    expect(c.getPosition().y).toBeCloseTo(REST_Y, 6);
    c.setVelocity(new Vector3(1, 0, 0));
    const before = pose(c);
    expect(() => c.integrate(1e9, c.checkSupport(DT, DOWN), G)).toThrow(/deltaTime/);
    expect(pose(c)).toEqual(before);
    for (const dt of [0, -DT, NaN, Infinity]) expect(() => c.integrate(dt, c.checkSupport(DT, DOWN), G)).toThrow(/deltaTime/);
    // valid: a tiny positive step is a step
    c.integrate(1e-300, c.checkSupport(DT, DOWN), G);
  });

  it('integrate refuses a gravity past MAX_GRAVITY by name (its weight times characterMass overflows the push)', () => {
    const { c } = setup();
    c.characterMass = 1e6;
    expect(() => c.integrate(DT, c.checkSupport(DT, DOWN), new Vector3(0, -1e300, 0))).toThrow(/gravity/);
    expect(() => c.integrate(DT, c.checkSupport(DT, DOWN), new Vector3(0, NaN, 0))).toThrow(/gravity/);
  });

  it('moveWithCollisions refuses a displacement too fast for the frame before setting the velocity (it used to leave it Infinity)', () => {
    const { scene, c } = setup();
    Object.defineProperty(scene, 'deltaTime', { value: 1, configurable: true });
    expect(() => c.moveWithCollisions(new Vector3(1e307, 0, 0))).toThrow(/displacement/);
    expect(c.getVelocity().x).toBe(0);
    c.moveWithCollisions(new Vector3(0.001, 0, 0));
    expect(c.getPosition().x).toBeCloseTo(0.001, 9);
  });
});

describe('FootingCharacterController: settable fields', () => {
  it('footOffset, acceleration, maxAcceleration, penetrationRecoverySpeed and maxCharacterSpeedForSolver are checked when set', () => {
    const { c } = setup();
    const bad: [string, number][] = [
      ['footOffset', NaN], ['footOffset', -1], ['footOffset', Infinity], ['acceleration', NaN], ['acceleration', 2],
      ['maxAcceleration', -1], ['maxAcceleration', NaN], ['penetrationRecoverySpeed', NaN], ['maxCharacterSpeedForSolver', Infinity],
    ];
    for (const [field, v] of bad) {
      const before = (c as unknown as Record<string, number>)[field];
      expect(() => { (c as unknown as Record<string, number>)[field] = v; }, `${field} = ${v}`).toThrow(new RegExp(field));
      expect((c as unknown as Record<string, number>)[field]).toBe(before);
    }
    // valid: 0 gain keeps the velocity, 0 footOffset puts the feet at the centre
    c.acceleration = 0;
    c.footOffset = 0;
  });

  it('a footOffset of NaN no longer half-applies setShapeOptions (the capsule used to shrink with the old shapeOptions kept)', () => {
    const { c } = setup();
    expect(() => { c.footOffset = NaN; }).toThrow(/footOffset/);
    expect(c.setShapeOptions({ capsuleHeight: 1.0, capsuleRadius: 0.4 })).toBe(true);
    expect(c.shapeOptions).toEqual({ capsuleHeight: 1.0, capsuleRadius: 0.4 });
    expect(c.controller.radius).toBe(0.4);
  });

  it('setShapeOptions refuses a centre past MAX_POSITION before rebuilding the capsule', () => {
    const { c } = setup();
    c.setPosition(new Vector3(0, -999_999, 0));
    c.footOffset = 10;
    const before = pose(c), options = c.shapeOptions;
    expect(() => c.setShapeOptions({ capsuleHeight: 1.0, capsuleRadius: 0.5 })).toThrow(/setShapeOptions.*MAX_POSITION/);
    expect(pose(c)).toEqual(before);
    expect(c.shapeOptions).toBe(options);
    expect(c.footOffset).toBe(10);
  });

  it('up of 1e300 or 1e-300 is a direction (valid: the capsule turns along it; its length used to overflow to a zero up)', () => {
    const { c } = setup();
    c.up = new Vector3(0, 1e300, 0);
    frame(c);
    expect(c.controller.up).toEqual({ x: 0, y: 1, z: 0 });
    c.up = new Vector3(0, 1e-300, 0);
    frame(c);
    expect(c.controller.up).toEqual({ x: 0, y: 1, z: 0 });
    expect(() => { c.up = null as never; }).toThrow(/up must be a Vector3/);
    expect(() => { c.up = new Vector3(NaN, 1, 0); }).toThrow(/up must be finite/);
  });
});

describe('FootingCharacterController: checkSupport and calculateMovement', () => {
  it('checkSupportToRef names a null, partial or frozen surfaceInfo and writes nothing into it', () => {
    const { c } = setup();
    frame(c);
    expect(() => c.checkSupportToRef(DT, DOWN, null as never)).toThrow(/surfaceInfo must be a CharacterSurfaceInfo/);
    expect(() => c.checkSupportToRef(DT, DOWN, {} as never)).toThrow(/surfaceInfo\.averageSurfaceNormal/);
    const info = c.checkSupport(DT, DOWN);
    info.averageSurfaceNormal.set(7, 7, 7);
    Object.freeze(info);
    expect(() => c.checkSupportToRef(DT, DOWN, info)).toThrow(/surfaceInfo/);
    expect(info.averageSurfaceNormal.x).toBe(7);
    const vecFrozen = c.checkSupport(DT, DOWN);
    Object.freeze(vecFrozen.averageAngularSurfaceVelocity);
    vecFrozen.averageSurfaceNormal.set(7, 7, 7);
    expect(() => c.checkSupportToRef(DT, DOWN, vecFrozen)).toThrow(/averageAngularSurfaceVelocity/);
    expect(vecFrozen.averageSurfaceNormal.x).toBe(7);
    // valid: integrate only checks surfaceInfo is an object (footing gathers its own contacts), so a frozen one serves
    c.integrate(DT, Object.freeze(c.checkSupport(DT, DOWN)) as CharacterSurfaceInfo, G);
  });

  it('checkSupport refuses a negative or non-finite deltaTime by name (0 is a first frame); a direction of 1e300 still finds the ground', () => {
    const { c } = setup();
    frame(c);
    for (const dt of [-1, NaN, Infinity]) expect(() => c.checkSupport(dt, DOWN)).toThrow(/deltaTime must be a finite number ≥ 0/);
    // 0 is valid: Babylon's first frame has scene.deltaTime 0, and the probe moves nothing.
    expect(c.checkSupport(0, DOWN).supportedState).toBe(c.checkSupport(DT, DOWN).supportedState);
    const state = c.checkSupport(DT, DOWN).supportedState;
    expect(state).toBe(2);
    expect(c.checkSupport(DT, new Vector3(0, -1e300, 0)).supportedState).toBe(state);
    expect(c.checkSupport(DT, new Vector3(0, -1e200, 0)).supportedState).toBe(state);
  });

  it('calculateMovement names deltaTime, each vector and the result (NaN used to come out, or "Cannot read properties of null")', () => {
    const { c } = setup();
    const f = new Vector3(0, 0, 1), n = new Vector3(0, 1, 0), z = Vector3.Zero(), w = new Vector3(0, 0, 2), u = new Vector3(0, 1, 0);
    for (const dt of [0, -DT, NaN, Infinity]) expect(() => c.calculateMovement(dt, f, n, z, z, w, u)).toThrow(/deltaTime/);
    expect(() => c.calculateMovement(DT, null as never, n, z, z, w, u)).toThrow(/forwardWorld/);
    expect(() => c.calculateMovement(DT, f, n, z, z, new Vector3(0, 0, 1e300), u)).toThrow(/desiredVelocity/);
    expect(() => c.calculateMovement(DT, f, n, new Vector3(NaN, 0, 0), z, w, u)).toThrow(/currentVelocity/);
    const result = new Vector3(5, 5, 5);
    expect(() => c.calculateMovementToRef(DT, f, n, z, z, w, u, Object.freeze(new Vector3()))).toThrow(/result/);
    expect(() => c.calculateMovementToRef(DT, f, n, z, z, w, new Vector3(0, NaN, 0), result)).toThrow(/upWorld/);
    expect(result.x).toBe(5);
    const v = c.calculateMovement(DT, f, n, z, z, w, u);
    expect(Number.isFinite(v.z) && v.z > 0).toBe(true);
  });
});

describe('FootingCharacterController: after dispose', () => {
  it('every call that would move or rebuild the character throws, and no body comes back into the world', () => {
    const { scene, world, c } = setup();
    Object.defineProperty(scene, 'deltaTime', { value: 16, configurable: true });
    const info = c.checkSupport(DT, DOWN);
    c.dispose();
    const bodies = world.bodies.length;
    c.up = new Vector3(1, 0, 0);
    expect(() => c.checkSupport(DT, DOWN)).toThrow(/dispose/);
    expect(() => c.setShapeOptions({ capsuleRadius: 0.3 })).toThrow(/dispose/);
    expect(() => c.setPosition(new Vector3(1, 1, 1))).toThrow(/dispose/);
    expect(() => c.moveWithCollisions(new Vector3(1, 0, 0))).toThrow(/dispose/);
    expect(() => c.integrate(DT, info, G)).toThrow(/dispose/);
    expect(world.bodies.length).toBe(bodies);
    // valid: a second dispose is a no-op, getters read the last state, calculateMovement is a pure helper
    c.dispose();
    expect(Number.isFinite(c.getPosition().y)).toBe(true);
    c.calculateMovement(DT, new Vector3(0, 0, 1), DOWN.negate(), Vector3.Zero(), Vector3.Zero(), Vector3.Zero(), new Vector3(0, 1, 0));
  });
});

describe('CharacterLink: hostile fields', () => {
  function link(): { world: World; walker: Walker; node: TransformNode; link: CharacterLink } {
    const scene = new Scene(new NullEngine());
    const world = new World({ fixedTimeStep: 1 / 60 });
    world.createBody({ type: 'static', shape: new Box({ x: 50, y: 0.5, z: 50 }), position: { x: 0, y: -0.5, z: 0 } });
    const walker = new Walker(new CharacterController(world, { position: { x: 0, y: 0.91, z: 0 } }));
    const node = new TransformNode('player', scene);
    return { world, walker, node, link: new CharacterLink(world, walker, node) };
  }

  it('an offset changed in place to NaN is named by sync and teleport, and the node and the walker stay where they were', () => {
    const { world, walker, node, link: l } = link();
    const at = node.position.clone();
    l.offset.x = NaN;
    expect(() => l.sync(world.advance(1 / 60))).toThrow(/offset/);
    expect(node.position.equals(at)).toBe(true);
    const p = { ...walker.controller.position };
    expect(() => l.teleport({ x: 5, y: 1, z: 0 })).toThrow(/offset/);
    expect(walker.controller.position).toEqual(p);
    l.offset.x = 0;
    l.sync(1);
    expect(Number.isFinite(node.position.x)).toBe(true);
  });

  it('options.offset past MAX_POSITION and a face that is not a boolean are refused by name', () => {
    const { world, walker, node, link: l } = link();
    l.dispose();
    expect(() => new CharacterLink(world, walker, node, { offset: { x: 1e300, y: 0, z: 0 } })).toThrow(/offset/);
    expect(() => { l.face = 'no' as never; }).toThrow(/face must be a boolean/);
    expect(l.face).toBe(true);
  });
});
