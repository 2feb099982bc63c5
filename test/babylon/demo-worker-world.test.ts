// The demo's two modes build the same world: the main-thread mode makes each
// collider from its Babylon mesh (demo/level.ts, demo/props.ts), the worker
// mode straight from the numbers (demo/worker-world.ts, no Babylon). Every
// body must match in order, type, shape, pose and friction, and the
// platforms must move the same.
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Scene } from '@babylonjs/core/scene';
import { World, type Box, type RigidBody, type TriangleMesh } from '../../src/index';
import { buildLevel } from '../../demo/level';
import { Props } from '../../demo/props';
import { buildWorkerWorld } from '../../demo/worker-world';
import type { WorkerBodyTag } from '../../demo/worker-tags';

const H = 1 / 60;

// level.ts draws the ground's grid into a canvas texture; node has no canvas,
// and the test needs none of the pixels: a canvas whose 2D context does nothing.
if (typeof (globalThis as { OffscreenCanvas?: unknown }).OffscreenCanvas === 'undefined') {
  const noop = (): void => {};
  const context = new Proxy({}, { get: (_t, key) => (key === 'canvas' ? undefined : noop), set: () => true });
  (globalThis as { OffscreenCanvas?: unknown }).OffscreenCanvas = class {
    constructor(public width: number, public height: number) {}
    getContext(): unknown { return context; }
  };
}
/** Babylon's matrices are float32: the mesh-made colliders carry its rounding. */
const TOL = 2e-6;

function mainWorld(): World {
  const world = new World({ fixedTimeStep: H });
  const level = buildLevel(world, new Scene(new NullEngine()));
  new Props(world, new Scene(new NullEngine())).populate();
  const platforms = level.platforms!;
  world.addStepper({ preStep: (w) => platforms.update((w.stepCount + 1) * H), postStep: () => {} });
  return world;
}

function workerWorld(): { world: World; tracked: [RigidBody, WorkerBodyTag][] } {
  const world = new World({ fixedTimeStep: H });
  const tracked: [RigidBody, WorkerBodyTag][] = [];
  buildWorkerWorld(world, (body, tag) => { tracked.push([body, tag]); });
  return { world, tracked };
}

function poseError(a: RigidBody, b: RigidBody): { position: number; rotation: number } {
  const pa = a.position, pb = b.position, qa = a.rotation, qb = b.rotation;
  // q and −q are the same rotation: the nearer of the two
  const minus = Math.hypot(qa.x - qb.x, qa.y - qb.y, qa.z - qb.z, qa.w - qb.w);
  const plus = Math.hypot(qa.x + qb.x, qa.y + qb.y, qa.z + qb.z, qa.w + qb.w);
  return { position: Math.hypot(pa.x - pb.x, pa.y - pb.y, pa.z - pb.z), rotation: Math.min(minus, plus) };
}

describe('demo worker mode: the same world as the main-thread mode', () => {
  it('every body matches in order, type, shape, pose and friction; the joints too', () => {
    const main = mainWorld();
    const { world, tracked } = workerWorld();
    expect(world.bodies.length).toBe(main.bodies.length);
    expect(world.joints.length).toBe(main.joints.length);
    let worstPos = 0, worstRot = 0, worstSize = 0;
    for (let i = 0; i < main.bodies.length; i++) {
      const a = main.bodies[i]!, b = world.bodies[i]!;
      expect(b.type, `body ${i}`).toBe(a.type);
      expect(b.shape.kind, `body ${i}`).toBe(a.shape.kind);
      expect(b.friction, `body ${i}`).toBe(a.friction);
      expect(b.mass, `body ${i}`).toBeCloseTo(a.mass, 3);
      const e = poseError(a, b);
      worstPos = Math.max(worstPos, e.position);
      worstRot = Math.max(worstRot, e.rotation);
      if ('halfExtents' in a.shape) {
        const ha = (a.shape as Box).halfExtents, hb = (b.shape as Box).halfExtents;
        worstSize = Math.max(worstSize, Math.abs(ha.x - hb.x), Math.abs(ha.y - hb.y), Math.abs(ha.z - hb.z));
      }
      if ('vertices' in a.shape) {
        const ta = a.shape as TriangleMesh, tb = b.shape as TriangleMesh;
        expect(Array.from(tb.indices)).toEqual(Array.from(ta.indices));
        let worstVertex = 0;
        for (let k = 0; k < ta.vertices.length; k++) worstVertex = Math.max(worstVertex, Math.abs(ta.vertices[k]! - tb.vertices[k]!));
        expect(worstVertex).toBeLessThan(TOL);
      }
    }
    console.log(`[demo worker world] ${main.bodies.length} bodies, ${main.joints.length} joints; worst position ${worstPos.toExponential(2)} m, rotation ${worstRot.toExponential(2)} (quaternion distance), half extent ${worstSize.toExponential(2)} m`);
    expect(worstPos).toBeLessThan(TOL);
    expect(worstRot).toBeLessThan(TOL);
    expect(worstSize).toBeLessThan(TOL);
    // Every moving body is tracked, so that it streams to the page: 2 platforms + 23 props + 24 ragdoll parts.
    expect(tracked.length).toBe(49);
    expect(world.bodies.filter((body) => !body.isStatic).every((body) => tracked.some(([t]) => t === body))).toBe(true);
  });

  it('the platforms move the same in both worlds over 3 s', () => {
    const main = mainWorld();
    const { world, tracked } = workerWorld();
    const platforms = tracked.filter(([, tag]) => tag.kind === 'platform').map(([body]) => body);
    const mainPlatforms = main.bodies.filter((body) => body.type === 'kinematic');
    expect(platforms.length).toBe(2);
    expect(mainPlatforms.length).toBe(2);
    const start = platforms[0]!.position.x;
    for (let i = 0; i < 180; i++) { main.step(H); world.step(H); }
    let worst = 0;
    for (let k = 0; k < 2; k++) {
      const e = poseError(mainPlatforms[k]!, platforms[k]!);
      worst = Math.max(worst, e.position, e.rotation);
    }
    // slider: 17 + 3 sin(2π·3/10); turntable: 1.5 rad about y
    expect(platforms[0]!.position.x - start).toBeCloseTo(3 * Math.sin((2 * Math.PI * 3) / 10), 3);
    expect(2 * Math.asin(Math.abs(platforms[1]!.rotation.y))).toBeCloseTo(1.5, 3);
    expect(worst).toBeLessThan(1e-4);
  });
});
