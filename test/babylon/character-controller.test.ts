// FootingCharacterController running Babylon's character controller
// documentation scene (test/scenes/babylon-character-playground.ts) in Node
// with NullEngine. The scene code is typed against PhysicsCharacterController
// and gets the class as its only engine-specific argument.
//
// Frames: 60 Hz (the jump also at 240 Hz), one world.step per frame, then
// scene.onAfterPhysicsObservable as Babylon's physics engine notifies it after
// its step (the stand-in below; with FootingPlugin, scene.render() does it).
// Capsule 1.8 m × 0.6 m, keepDistance 0.05 m: centre at 0.95 m over flat ground.
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Observable } from '@babylonjs/core/Misc/observable';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { Scene } from '@babylonjs/core/scene';
import type { PhysicsCharacterController } from '@babylonjs/core/Physics/v2/characterController';
import { Box, World, type RigidBody } from '../../src/index';
import { FootingCharacterController, type FootingCharacterCollisionEvent } from '../../src/babylon/index';
import {
  CHARACTER_GRAVITY, JUMP_HEIGHT, createCharacterPlayground, type CharacterPlayground, type PlaygroundControllerClass,
} from '../scenes/babylon-character-playground';

const REST_Y = 0.95;
const SUPPORTED = 2, SLIDING = 1, UNSUPPORTED = 0;

// Both classes fit the scene's controller type: the swap is the class name.
const HAVOK_CLASS: PlaygroundControllerClass = null as unknown as typeof PhysicsCharacterController;
void HAVOK_CLASS;

interface Rig { scene: Scene; world: World; frame: (dt?: number) => void; box: (name: string, cx: number, cy: number, cz: number, hx: number, hy: number, hz: number, rotZ?: number) => RigidBody }

function rig(): Rig {
  const scene = new Scene(new NullEngine());
  // The physics component's observables (enablePhysics creates them; here the world is stepped by hand).
  (scene as { onBeforePhysicsObservable: Observable<Scene> }).onBeforePhysicsObservable = new Observable<Scene>();
  (scene as { onAfterPhysicsObservable: Observable<Scene> }).onAfterPhysicsObservable = new Observable<Scene>();
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
  const frame = (dt = 1 / 60): void => {
    scene.onBeforePhysicsObservable.notifyObservers(scene);
    world.step(dt);
    scene.deltaTime = dt * 1000;
    scene.onAfterPhysicsObservable.notifyObservers(scene);
    scene.onBeforeRenderObservable.notifyObservers(scene);
  };
  const box = (name: string, cx: number, cy: number, cz: number, hx: number, hy: number, hz: number, rotZ = 0): RigidBody => {
    const mesh = CreateBox(name, { width: 2 * hx, height: 2 * hy, depth: 2 * hz }, scene);
    mesh.position.set(cx, cy, cz);
    const q = Quaternion.RotationAxis(new Vector3(0, 0, 1), rotZ);
    mesh.rotationQuaternion = q;
    return world.createBody({ type: 'static', shape: new Box({ x: hx, y: hy, z: hz }), position: { x: cx, y: cy, z: cz }, rotation: { x: q.x, y: q.y, z: q.z, w: q.w } });
  };
  box('ground', 0, -0.5, 0, 40, 0.5, 40);
  return { scene, world, frame, box };
}

function playground(r: Rig, x = 0, y = REST_Y, z = 0): CharacterPlayground {
  return createCharacterPlayground(r.scene, FootingCharacterController.forWorld(r.world), new Vector3(x, y, z));
}

function run(r: Rig, frames: number, each?: (i: number) => void, dt = 1 / 60): void {
  for (let i = 0; i < frames; i++) {
    r.frame(dt);
    each?.(i);
  }
}

describe('FootingCharacterController in the documentation scene', () => {
  it('settles on the ground: SUPPORTED, centre at height/2 + keepDistance', () => {
    const r = rig();
    const pg = playground(r, 0, 1.2, 0);
    run(r, 60);
    expect(pg.support).toBe(SUPPORTED);
    expect(pg.state).toBe('ON_GROUND');
    expect(pg.controller.getPosition().y).toBeCloseTo(REST_Y, 3);
    expect(pg.display.position.y).toBeCloseTo(REST_Y, 3);
  });

  it('walks up a 0.25 m step (the capsule rolls over it) and on along its top', () => {
    const r = rig();
    r.box('step', 12, 0.125, 0, 10, 0.125, 4); // top at 0.25, front face at x = 2
    const pg = playground(r);
    pg.input.direction.set(1, 0, 0);
    run(r, 60);
    const p = pg.controller.getPosition();
    console.log(`step: x ${p.x.toFixed(3)}, y ${p.y.toFixed(4)}`);
    expect(p.x).toBeGreaterThan(3);
    expect(p.y).toBeCloseTo(REST_Y + 0.25, 2);
    expect(pg.support).toBe(SUPPORTED);
  });

  it('maxStepHeight 0.5 climbs a 0.45 m step the rounded capsule alone does not', () => {
    for (const maxStepHeight of [0, 0.5]) {
      const r = rig();
      r.box('step', 12, 0.225, 0, 10, 0.225, 4); // top at 0.45, front face at x = 2
      const pg = playground(r);
      pg.controller.maxStepHeight = maxStepHeight;
      pg.input.direction.set(1, 0, 0);
      run(r, 60);
      const p = pg.controller.getPosition();
      console.log(`0.45 m step, maxStepHeight ${maxStepHeight}: x ${p.x.toFixed(3)}, y ${p.y.toFixed(4)}`);
      if (maxStepHeight > 0) {
        expect(p.y).toBeCloseTo(REST_Y + 0.45, 2);
        expect(p.x).toBeGreaterThan(3);
      } else {
        expect(p.y).toBeCloseTo(REST_Y, 2);
        expect(p.x).toBeLessThan(2);
      }
    }
  });

  it('stops at a wall: keepDistance from it, no speed into it', () => {
    const r = rig();
    r.box('wall', 3.5, 2, 0, 0.5, 2, 4); // face at x = 3
    const pg = playground(r);
    pg.input.direction.set(1, 0, 0);
    run(r, 90);
    const p = pg.controller.getPosition();
    console.log(`wall: x ${p.x.toFixed(4)} (face 3, radius 0.6, keepDistance 0.05), vx ${pg.controller.getVelocity().x.toFixed(4)}`);
    expect(p.x).toBeCloseTo(3 - 0.6 - 0.05, 2);
    expect(Math.abs(pg.controller.getVelocity().x)).toBeLessThan(0.6); // the wish re-accelerates it by at most 0.05 × 10 m/s per step
    expect(p.y).toBeCloseTo(REST_Y, 2);
  });

  it('does not climb a 70° slope (maxSlopeCosine 0.5 = 60°) but climbs a 30° one', () => {
    for (const [deg, climbs] of [[70, false], [30, true]] as const) {
      const r = rig();
      const a = deg * Math.PI / 180;
      // a thick slab rotated about z, its upper face rising along +x from x ≈ 2
      const hx = 6, hy = 1;
      const cx = 2 + hx * Math.cos(a) + hy * Math.sin(a), cy = hx * Math.sin(a) - hy * Math.cos(a);
      r.box('ramp', cx, cy, 0, hx, hy, 4, a);
      const pg = playground(r);
      pg.input.direction.set(1, 0, 0);
      let maxY = 0;
      run(r, 180, () => { maxY = Math.max(maxY, pg.controller.getPosition().y); });
      const foot = maxY - 0.9;
      console.log(`${deg}° ramp: highest foot ${foot.toFixed(3)} m, x ${pg.controller.getPosition().x.toFixed(3)}`);
      if (climbs) expect(foot).toBeGreaterThan(2);
      else expect(foot).toBeLessThan(0.3);
    }
  });

  it('slides down a 70° slope it is put on: SLIDING, then back on the ground', () => {
    const r = rig();
    const a = 70 * Math.PI / 180;
    const hx = 6, hy = 1;
    r.box('ramp', 2 + hx * Math.cos(a) + hy * Math.sin(a), hx * Math.sin(a) - hy * Math.cos(a), 0, hx, hy, 4, a);
    // on the slope 2 m up: surface point (2 + 2/tan a, 2), centre out along the normal by radius + keepDistance, up by the half segment
    const nx = -Math.sin(a), ny = Math.cos(a);
    const sx = 2 + 2 / Math.tan(a), sy = 2;
    const pg = playground(r, sx + nx * 0.66, sy + ny * 0.66 + 0.3, 0);
    const states: number[] = [];
    const ys: number[] = [];
    run(r, 120, () => { states.push(pg.support); ys.push(pg.controller.getPosition().y); });
    console.log(`70° slide: states ${states.slice(0, 12).join('')}…, y ${ys[0]!.toFixed(3)} → ${ys[ys.length - 1]!.toFixed(3)}`);
    expect(states.slice(1, 10)).toContain(SLIDING);
    expect(states.filter((s) => s === SLIDING).length).toBeGreaterThan(5);
    expect(ys[ys.length - 1]!).toBeLessThan(ys[0]! - 1.5);
    expect(pg.support).toBe(SUPPORTED);
  });

  it('jumps v²/2g high: within 2 % at 240 Hz; at 60 Hz exactly the discrete (u + g dt/2)²/2g', () => {
    for (const hz of [60, 240]) {
      const r = rig();
      const pg = playground(r);
      const dt = 1 / hz;
      run(r, hz / 2, undefined, dt);
      const rest = pg.controller.getPosition().y;
      pg.input.jump = true;
      let top = rest;
      run(r, hz * 2, () => {
        if (pg.state === 'IN_AIR') pg.input.jump = false;
        top = Math.max(top, pg.controller.getPosition().y);
      }, dt);
      const u = Math.sqrt(2 * CHARACTER_GRAVITY * JUMP_HEIGHT);
      const height = top - rest;
      // The scene adds gravity before each move after take-off (semi-implicit Euler) but not on the
      // take-off step: the apex is at (u + g dt/2)² / 2g.
      const discrete = (u + CHARACTER_GRAVITY * dt / 2) ** 2 / (2 * CHARACTER_GRAVITY);
      console.log(`jump ${hz} Hz: ${height.toFixed(4)} m, v²/2g ${JUMP_HEIGHT}, discrete ${discrete.toFixed(4)}`);
      expect(Math.abs(height - discrete) / discrete).toBeLessThan(0.005);
      if (hz === 240) expect(Math.abs(height - JUMP_HEIGHT) / JUMP_HEIGHT).toBeLessThan(0.02);
      expect(pg.controller.getPosition().y).toBeCloseTo(rest, 3);
      expect(pg.support).toBe(SUPPORTED);
    }
  });

  it('crouches with setShapeOptions: feet kept, centre 0.2 m lower, passes under a 1.6 m bar; cannot stand up under it', () => {
    const r = rig();
    r.box('bar', 4, 1.6 + 0.25, 0, 0.5, 0.25, 4); // underside at 1.6 m: standing tops at 1.85, crouched at 1.45
    const pg = playground(r);
    run(r, 10);
    const y0 = pg.controller.getPosition().y;
    expect(pg.controller.setShapeOptions({ capsuleHeight: 1.4, capsuleRadius: 0.6 })).toBe(true);
    const y1 = pg.controller.getPosition().y;
    console.log(`crouch: centre ${y0.toFixed(4)} → ${y1.toFixed(4)}`);
    expect(y1 - y0).toBeCloseTo(-0.2, 9);
    pg.input.direction.set(1, 0, 0);
    run(r, 40, () => {
      if (pg.controller.getPosition().x > 4) pg.input.direction.set(0, 0, 0);
    });
    const under = pg.controller.getPosition();
    expect(under.x).toBeGreaterThan(3.5);
    expect(under.x).toBeLessThan(4.5);
    // standing up under the bar is refused (Havok would grow into it)
    expect((pg.controller as FootingCharacterController).setShapeOptions({ capsuleHeight: 1.8, capsuleRadius: 0.6 })).toBe(false);
    expect(pg.controller.getPosition().y).toBeCloseTo(y1, 6);
    // standing, the same walk stops at the bar
    const r2 = rig();
    r2.box('bar', 4, 1.6 + 0.25, 0, 0.5, 0.25, 4);
    const standing = playground(r2);
    standing.input.direction.set(1, 0, 0);
    run(r2, 60);
    console.log(`crouch: crouched under the bar at x ${under.x.toFixed(3)}, standing stops at x ${standing.controller.getPosition().x.toFixed(3)}`);
    expect(standing.controller.getPosition().x).toBeLessThan(3.5 - 0.5);
  });

  it('pushes a 20 kg box: every impulse at most characterStrength·dt; 50 N does not beat friction, the default moves it', () => {
    const results: number[] = [];
    for (const strength of [50, 1e38]) {
      const r = rig();
      const crate = r.world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 3, y: 0.5, z: 0 }, mass: 20, friction: 0.5 });
      const pg = playground(r);
      pg.controller.characterStrength = strength;
      let largest = 0, events = 0;
      (pg.controller as FootingCharacterController).onTriggerCollisionObservable.add((e: FootingCharacterCollisionEvent) => {
        if (e.body !== crate) return;
        events++;
        largest = Math.max(largest, e.impulse.length());
      });
      pg.input.direction.set(1, 0, 0);
      run(r, 120);
      const moved = crate.position.x - 3;
      results.push(moved);
      console.log(`push ${strength} N: crate moved ${moved.toFixed(4)} m, ${events} events, largest impulse ${largest.toFixed(4)} N·s`);
      if (strength === 50) {
        expect(events).toBeGreaterThan(60);
        expect(largest).toBeLessThanOrEqual(50 / 60 + 1e-9);
        expect(Math.abs(moved)).toBeLessThan(0.01);
      } else {
        // unbounded: each push stops 90 % of the approach, the crate is kicked ahead of the 10 m/s walk
        expect(events).toBeGreaterThan(0);
        expect(moved).toBeGreaterThan(1);
      }
    }
  });

  it('walks off a 1 m ledge: SUPPORTED on it, UNSUPPORTED past its edge, SUPPORTED again below', () => {
    const r = rig();
    r.box('ledge', 0, 0.5, 0, 3, 0.5, 4); // top at 1 m, edge at x = 3
    const pg = playground(r, 0, 1 + REST_Y, 0);
    run(r, 20);
    expect(pg.support).toBe(SUPPORTED);
    pg.input.direction.set(1, 0, 0);
    const log: { s: number; x: number; y: number }[] = [];
    run(r, 90, () => log.push({ s: pg.support, x: pg.controller.getPosition().x, y: pg.controller.getPosition().y }));
    const firstOff = log.findIndex((e) => e.s === UNSUPPORTED);
    const landed = log.findIndex((e, i) => i > firstOff && e.s === SUPPORTED);
    console.log(`ledge: unsupported from x ${log[firstOff - 1]!.x.toFixed(3)}, landed at step ${landed}, y ${log[log.length - 1]!.y.toFixed(4)}`);
    expect(log.slice(0, firstOff).every((e) => e.s === SUPPORTED)).toBe(true);
    // off once the capsule's bottom sphere (radius 0.6) has left the edge, up to a step's travel
    expect(log[firstOff - 1]!.x).toBeGreaterThan(3 - 0.2);
    expect(log[firstOff - 1]!.x).toBeLessThan(3 + 0.6 + 0.2);
    expect(landed).toBeGreaterThan(firstOff);
    expect(log[log.length - 1]!.y).toBeCloseTo(REST_Y, 2);
  });
});
