// CharacterLink and FollowCamera in node with Babylon's NullEngine: the
// walker stepped inside world.advance at 60 Hz, the node interpolated at a
// 144 Hz render rate, facing, teleport, and a follow camera that keeps its
// probe radius from walls.
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { TargetCamera } from '@babylonjs/core/Cameras/targetCamera';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { Scene } from '@babylonjs/core/scene';
import { Box, Sphere, World, type Vec3 } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { CharacterLink, FollowCamera } from '../../src/babylon/index';

const RENDER_DT = 1 / 144;
/** Centre height of the default capsule (0.3 / 0.6) resting on y = 0 with the 1 cm skin. */
const REST_Y = 0.91;

function setup(): { world: World; scene: Scene; walker: Walker; node: TransformNode; link: CharacterLink } {
  const scene = new Scene(new NullEngine());
  const world = new World({ fixedTimeStep: 1 / 60 });
  world.createBody({ type: 'static', shape: new Box({ x: 50, y: 0.5, z: 50 }), position: { x: 0, y: -0.5, z: 0 } });
  const walker = new Walker(new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } }));
  const node = new TransformNode('player', scene);
  const link = new CharacterLink(world, walker, node);
  return { world, scene, walker, node, link };
}

/** Forward direction of the node: its rotation applied to +z. */
function forward(node: TransformNode): Vector3 {
  return Vector3.Forward().applyRotationQuaternion(node.rotationQuaternion!);
}

describe('CharacterLink', () => {
  it('runs the walker once per fixed step inside world.advance', () => {
    const { world, walker, link } = setup();
    let before = 0, after = 0;
    link.beforeStep = () => { before++; };
    link.afterStep = (r) => { after++; expect(r).toBe(walker.controller.result); };
    walker.setInput(0, 0, 1);
    for (let i = 0; i < 144; i++) world.advance(RENDER_DT);
    // 144 frames of 1/144 s = 1 s = 60 steps (the accumulator may hold back the last one)
    expect(before).toBeGreaterThanOrEqual(59);
    expect(before).toBeLessThanOrEqual(60);
    expect(after).toBe(before);
    expect(world.stepCount).toBe(before);
    expect(walker.state).toBe('grounded');
    expect(walker.controller.position.z).toBeGreaterThan(3);
  });

  it('144 Hz render of 60 Hz physics: the node moves by the same amount every frame (ratio of consecutive displacements within 1 ± 1e-6); the raw position jumps', () => {
    const { world, walker, node, link } = setup();
    walker.setInput(0, 0, 1);
    for (let i = 0; i < 60; i++) link.sync(world.advance(1 / 60)); // reach the 4 m/s walk
    let prevNode = node.position.z, prevRaw = walker.controller.position.z;
    let prevDelta = NaN, worstRatio = 1, rawZeroFrames = 0, rawBiggest = 0;
    const deltas: number[] = [];
    for (let i = 0; i < 288; i++) {
      link.sync(world.advance(RENDER_DT));
      const z = node.position.z, raw = walker.controller.position.z;
      const d = z - prevNode, rawD = raw - prevRaw;
      deltas.push(d);
      if (rawD === 0) rawZeroFrames++;
      rawBiggest = Math.max(rawBiggest, rawD);
      if (prevDelta > 0) worstRatio = Math.max(worstRatio, d / prevDelta, prevDelta / d);
      prevDelta = d; prevNode = z; prevRaw = raw;
    }
    console.log(`144 Hz over 60 Hz: node moves ${Math.min(...deltas).toFixed(6)}–${Math.max(...deltas).toFixed(6)} m per frame (4/144 = ${(4 / 144).toFixed(6)}), worst consecutive ratio ${worstRatio.toFixed(9)}; raw position: ${rawZeroFrames} of 288 frames without motion, largest jump ${rawBiggest.toFixed(4)} m`);
    expect(worstRatio).toBeLessThan(1 + 1e-6);
    for (const d of deltas) expect(d).toBeCloseTo(4 / 144, 6);
    // without interpolation 144 / 60 = 2.4 frames share a step: more than half the frames stand still
    expect(rawZeroFrames).toBeGreaterThan(144);
    expect(rawBiggest).toBeCloseTo(4 / 60, 6);
  });

  it('turns the node towards the movement at the walker\'s turnSpeed, smoothly between steps', () => {
    const { world, walker, node, link } = setup();
    link.sync(world.advance(0));
    expect(forward(node).z).toBeCloseTo(1, 9);
    walker.setInput(1, 0, 0);
    let prev = forward(node), worstStep = 0;
    for (let i = 0; i < 144; i++) {
      link.sync(world.advance(RENDER_DT));
      const f = forward(node);
      worstStep = Math.max(worstStep, Math.acos(Math.min(1, Vector3.Dot(prev, f))));
      prev = f;
    }
    const f = forward(node);
    console.log(`turn to +x: largest turn in one 144 Hz frame ${worstStep.toFixed(5)} rad (10 rad/s / 144 = ${(10 / 144).toFixed(5)}); facing (${f.x.toFixed(6)}, ${f.z.toFixed(6)}), yaw ${walker.yaw.toFixed(6)}`);
    expect(walker.yaw).toBeCloseTo(Math.PI / 2, 9);
    expect(f.x).toBeCloseTo(1, 9);
    expect(f.y).toBeCloseTo(0, 9);
    // interpolated: never more than one render frame's share of the turn rate
    expect(worstStep).toBeLessThan(10 / 144 + 1e-9);
    expect(worstStep).toBeGreaterThan(10 / 144 - 1e-3);
  });

  it('teleport puts the node at the new place with no interpolation from the old one, stopped; reset goes back to the spawn', () => {
    const { world, walker, node, link } = setup();
    walker.setInput(0, 0, 1);
    for (let i = 0; i < 60; i++) link.sync(world.advance(1 / 60));
    link.teleport({ x: 10, y: REST_Y + 0.02, z: -5 }, Math.PI);
    expect(node.position.x).toBe(10);
    expect(node.position.z).toBe(-5);
    expect(walker.velocity).toEqual({ x: 0, y: 0, z: 0 });
    expect(forward(node).z).toBeCloseTo(-1, 9);
    walker.setInput(0, 0, 0);
    link.sync(world.advance(0.4 / 60)); // no step yet: alpha 0.4 of a step from the teleport to itself
    expect(node.position.x).toBe(10);
    for (let i = 0; i < 30; i++) link.sync(world.advance(1 / 60));
    expect(walker.state).toBe('grounded');
    expect(Math.hypot(node.position.x - 10, node.position.z + 5)).toBeLessThan(1e-9);
    link.reset();
    expect(node.position.x).toBe(0);
    expect(node.position.z).toBe(0);
    expect(walker.yaw).toBe(0);
  });

  it('offset is applied in the character frame; dispose stops the stepping', () => {
    const { world, walker, scene, link: first } = setup();
    const feet = new TransformNode('feet', scene);
    const link = new CharacterLink(world, walker, feet, { offset: { x: 0, y: -0.9, z: 0 }, face: false });
    link.sync(world.advance(1 / 60));
    expect(feet.position.y).toBeCloseTo(walker.controller.position.y - 0.9, 12);
    expect(feet.rotationQuaternion).toBeNull();
    const steps = world.stepCount;
    const z = walker.controller.position.z;
    walker.setInput(0, 0, 1);
    link.dispose();
    first.dispose(); // setup()'s link steps the same walker
    link.dispose(); // twice is harmless
    for (let i = 0; i < 10; i++) world.advance(1 / 60);
    expect(world.stepCount).toBe(steps + 10);
    expect(walker.controller.position.z).toBe(z);
    expect(() => new CharacterLink(new World(), walker, feet)).toThrow(/another world/);
    const y = feet.position.y;
    expect(() => link.sync(NaN)).toThrow(/CharacterLink.sync: alpha must be a number in \[0, 1\] \(got NaN\)/);
    expect(feet.position.y).toBe(y);
    expect(() => new CharacterLink(world, walker, feet, { offset: { x: NaN, y: 0, z: 0 } })).toThrow(/offset must be finite/);
  });
});

describe('CharacterLink in world snapshots', () => {
  it('world.restore puts the walker, controller and interpolation start back: the replay is bit for bit the same', () => {
    const { world, walker, node, link } = setup();
    world.createBody({ type: 'dynamic', shape: new Box({ x: 0.4, y: 0.4, z: 0.4 }), position: { x: 0.2, y: 0.4, z: 3 }, mass: 20 });
    const run = (frames: number): number[] => {
      const out: number[] = [];
      for (let i = 0; i < frames; i++) {
        walker.setInput(Math.sin(i * 0.05), 0, 1);
        if (i % 50 === 10) walker.jump();
        link.sync(world.advance(RENDER_DT));
        out.push(node.position.x, node.position.y, node.position.z, walker.yaw);
      }
      return out;
    };
    run(100);
    const snap = world.snapshot();
    const first = run(300);
    world.restore(snap);
    const second = run(300);
    expect(second).toEqual(first);
    // a state of another layout is refused and changes nothing
    const bad = { ...snap, steppers: [{ f64: new Float64Array(3), i32: new Int32Array(1) }] };
    expect(() => world.restore(bad)).toThrow(/CharacterLink: the stepper state is not a character link's/);
    const nan = world.snapshot();
    nan.steppers[0]!.f64[6] = NaN;
    const z = walker.controller.position.z;
    expect(() => world.restore(nan)).toThrow(/CharacterLink: Walker\.restore: value 1 is NaN/);
    expect(walker.controller.position.z).toBe(z);
  });
});

describe('FollowCamera', () => {
  /** Clearance of the camera from everything except the character: no overlap of a sphere of `r`. */
  function clear(world: World, at: Vec3, r: number, exclude: unknown): boolean {
    return world.overlap(new Sphere(r), at, { x: 0, y: 0, z: 0, w: 1 }, { exclude: exclude as never }).length === 0;
  }

  it('a wall 2 m behind the character: the camera stops in front of it, at least the probe radius away, and eases back out when the wall goes', () => {
    const { world, scene, walker, node, link } = setup();
    const wall = world.createBody({ type: 'static', shape: new Box({ x: 5, y: 3, z: 0.25 }), position: { x: 0, y: 3, z: -2.25 } }); // face at z = −2
    const camera = new TargetCamera('cam', new Vector3(0, 2, -5), scene);
    const follow = new FollowCamera(world, camera, node, { distance: 5, pitch: 0.3, radius: 0.2, exclude: walker.controller.body });
    link.sync(world.advance(1 / 60));
    follow.update(1 / 60);
    const z = camera.position.z;
    console.log(`wall face at z = −2: camera at z = ${z.toFixed(4)}, distance ${follow.currentDistance.toFixed(3)} of 5`);
    expect(follow.blocked).toBe(true);
    expect(z).toBeGreaterThanOrEqual(-2 + 0.2 - 1e-9);
    expect(z).toBeLessThan(-2 + 0.2 + 0.03);
    expect(clear(world, camera.position, 0.2 - 1e-6, walker.controller.body)).toBe(true);
    // looking along (sin 0 cos 0.3, −sin 0.3, cos 0 cos 0.3): back along the orbit offset
    camera.computeWorldMatrix();
    const look = camera.getDirection(Vector3.Forward());
    expect(look.x).toBeCloseTo(0, 6);
    expect(look.y).toBeCloseTo(-Math.sin(0.3), 6);
    expect(look.z).toBeCloseTo(Math.cos(0.3), 6);
    // the camera on the line from the pivot (0.5 m above the capsule centre), looking at it
    expect(camera.position.y - (node.position.y + 0.5)).toBeCloseTo(Math.tan(0.3) * (node.position.z - camera.position.z), 9);
    const toPivot = new Vector3(node.position.x, node.position.y + 0.5, node.position.z).subtract(camera.position).normalize();
    expect(Vector3.Dot(toPivot, look)).toBeCloseTo(1, 6);
    // a camera turned by a quaternion gets the same view
    const turned = new TargetCamera('turned', new Vector3(0, 0, 0), scene);
    turned.rotationQuaternion = new Quaternion();
    new FollowCamera(world, turned, node, { distance: 5, pitch: 0.3, radius: 0.2, exclude: walker.controller.body }).update(1 / 60);
    turned.computeWorldMatrix();
    expect(Vector3.Dot(turned.getDirection(Vector3.Forward()), look)).toBeCloseTo(1, 6);
    expect(Vector3.Distance(turned.position, camera.position)).toBeLessThan(1e-9);

    world.removeBody(wall);
    const d0 = follow.currentDistance;
    follow.update(1 / 60);
    const d1 = follow.currentDistance;
    // one frame of the ease-out: (5 − d0)(1 − e^(−(1/60)/0.25))
    expect(d1 - d0).toBeCloseTo((5 - d0) * (1 - Math.exp(-1 / 60 / 0.25)), 9);
    for (let i = 0; i < 120; i++) follow.update(1 / 60);
    // 2 s = 8 τ: within e⁻⁸ of the way out
    expect(5 - follow.currentDistance).toBeLessThan((5 - d0) * Math.exp(-7.9));
  });

  it('walking backwards into a wall: every frame the camera keeps ≥ radius from it (no clipping)', () => {
    const { world, scene, walker, node, link } = setup();
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 3, z: 0.25 }), position: { x: 0, y: 3, z: -6.25 } }); // face at z = −6
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.25, z: 5 }), position: { x: 0, y: 2.6, z: -4 } }); // a low ceiling over the back half
    const camera = new TargetCamera('cam', new Vector3(0, 2, -5), scene);
    const follow = new FollowCamera(world, camera, node, { distance: 6, pitch: 0.6, radius: 0.25, exclude: walker.controller.body });
    walker.setInput(0, 0, -1);
    walker.settings.turnSpeed = 0; // walk backwards, facing +z
    let nearest = Infinity, frames = 0, blockedFrames = 0;
    for (let i = 0; i < 4 * 144; i++) {
      link.sync(world.advance(RENDER_DT));
      follow.update(RENDER_DT);
      frames++;
      if (follow.blocked) blockedFrames++;
      nearest = Math.min(nearest, camera.position.z + 6, 2.35 - camera.position.y);
      expect(clear(world, camera.position, 0.25 - 1e-6, walker.controller.body)).toBe(true);
    }
    console.log(`backing into a wall under a ceiling for ${frames} frames (${blockedFrames} blocked): nearest camera–surface gap ${nearest.toFixed(4)} m (probe radius 0.25); character at z = ${walker.controller.position.z.toFixed(2)}`);
    expect(blockedFrames).toBeGreaterThan(100);
    expect(nearest).toBeGreaterThanOrEqual(0.25 - 1e-9);
  });

  it('refuses bad settings by name', () => {
    const { world, scene, node } = setup();
    const camera = new TargetCamera('cam', new Vector3(0, 2, -5), scene);
    expect(() => new FollowCamera(world, camera, node, { radius: 0 })).toThrow(/FollowCamera: radius must be a finite number in \(0, 1000\] \(got 0\)/);
    const follow = new FollowCamera(world, camera, node);
    follow.distance = NaN;
    expect(() => follow.update(1 / 60)).toThrow(/FollowCamera: distance/);
    follow.distance = 5;
    follow.pitch = 2;
    expect(() => follow.update(1 / 60)).toThrow(/FollowCamera: pitch/);
    follow.pitch = 0.3;
    expect(() => follow.update(-1)).toThrow(/frameSeconds/);
    follow.update(1 / 60);
  });
});

describe('CharacterLink and FollowCamera refuse bad arguments with nothing registered', () => {
  it('a non-node is refused before the link becomes a stepper: the snapshot is unchanged and a good link then moves the walker once per step', () => {
    const run = (failFirst: boolean): { z: number; message: string } => {
      const scene = new Scene(new NullEngine());
      const world = new World({ fixedTimeStep: 1 / 60 });
      world.createBody({ type: 'static', shape: new Box({ x: 50, y: 0.5, z: 50 }), position: { x: 0, y: -0.5, z: 0 } });
      const walker = new Walker(new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } }));
      let message = '';
      if (failFirst) {
        const before = world.snapshot();
        try { new CharacterLink(world, walker, { name: 'not a node' } as never); } catch (e) { message = (e as Error).message; }
        expect(world.snapshot()).toEqual(before);
      }
      new CharacterLink(world, walker, new TransformNode('player', scene));
      walker.setInput(0, 0, 1);
      for (let i = 0; i < 60; i++) world.step(1 / 60);
      return { z: walker.controller.position.z, message };
    };
    const reference = run(false);
    const retried = run(true);
    expect(retried.message).toBe('CharacterLink: node must be a Babylon TransformNode or mesh (got an object)');
    // One walker update per step: the same distance as a world that never saw the failed link (it moved twice as far).
    expect(retried.z).toBe(reference.z);
    expect(reference.z).toBeGreaterThan(3);
  });

  it('walker, options and step hooks are named at construction (and when written later), with nothing registered', () => {
    const { world, scene, walker, link } = setup();
    const before = world.snapshot();
    const node = (): TransformNode => new TransformNode('n', scene);
    expect(() => new CharacterLink(world, undefined as never, node())).toThrow('CharacterLink: walker must be a Walker (got undefined)');
    expect(() => new CharacterLink(world, walker, node(), null as never)).toThrow('CharacterLink: options must be an object (got null)');
    expect(() => new CharacterLink(world, walker, node(), { beforeStep: 'onInput' as never })).toThrow("CharacterLink: beforeStep must be a function or null (got 'onInput')");
    expect(() => new CharacterLink(world, walker, node(), { afterStep: {} as never })).toThrow('CharacterLink: afterStep must be a function or null (got an object)');
    expect(() => new CharacterLink(world, walker, node(), { face: 'yes' as never })).toThrow("CharacterLink: face must be a boolean (got 'yes')");
    expect(world.snapshot()).toEqual(before);
    let calls = 0;
    link.beforeStep = () => { calls++; };
    expect(() => { link.beforeStep = 5 as never; }).toThrow('CharacterLink: beforeStep must be a function or null (got 5)');
    for (let i = 0; i < 3; i++) world.step(1 / 60);
    expect(calls).toBe(3);
  });

  it('FollowCamera names a null target, at construction and when written later; the camera stays where it was', () => {
    const { world, scene, node } = setup();
    const camera = new TargetCamera('cam', new Vector3(0, 2, -5), scene);
    expect(() => new FollowCamera(world, camera, null as never)).toThrow('FollowCamera: target must be a Babylon node or a { x, y, z } point (got null)');
    expect(() => new FollowCamera(world, null as never, node)).toThrow('FollowCamera: camera must be a Babylon TargetCamera (got null)');
    const follow = new FollowCamera(world, camera, node);
    follow.update(1 / 60);
    const placed = camera.position.clone();
    follow.target = null as never;
    expect(() => follow.update(1 / 60)).toThrow('FollowCamera: target must be a Babylon node or a { x, y, z } point (got null)');
    expect(camera.position.equals(placed)).toBe(true);
  });
});
