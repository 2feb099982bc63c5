/**
 * World settings over footing/worker: a change applies whole between two
 * steps (the crate then falls exactly as in a world given the same change
 * at the same step), a refused change applies none of its fields and the
 * world steps on. Time step 1/60 s unless changed.
 */
import { describe, expect, it } from 'vitest';
import { World } from '../../src/index';
import { shapeFromDesc, type BodyDescData, type PhysicsWorkerError, type WorldSettingsData } from '../../src/worker/index';
import { B_POSITION } from '../../src/world/snapshot';
import { connect, H } from './connect';

const crate: BodyDescData = { type: 'dynamic', shape: { kind: 'box', halfExtents: { x: 0.5, y: 0.5, z: 0.5 } }, position: { x: 0, y: 50, z: 0 }, mass: 10 };

describe('world settings over footing/worker', () => {
  it('changes gravity and solver settings between steps, as the same change to a world stepped directly', async () => {
    const { client, host, run, errors } = connect({ jointSettings: { jointIterations: 6 } });
    await client.ready;
    const before = await client.getSettings();
    expect(before.jointSettings.jointIterations).toBe(6);
    expect(before.gravity).toEqual({ x: 0, y: -9.81, z: 0 });
    const c = client.createBody(crate);
    const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
    const twin = world.createBody({ ...crate, shape: shapeFromDesc(crate.shape) } as never);

    await run(20);
    for (let i = 0; i < 20; i++) world.step(H);
    const state = await client.setSettings({ gravity: { x: 2, y: -3, z: 0 }, solverSettings: { velocityIterations: 12 }, sleeping: { enabled: false } });
    expect(state.gravity).toEqual({ x: 2, y: -3, z: 0 });
    expect(state.solverSettings.velocityIterations).toBe(12);
    expect(state.sleeping.enabled).toBe(false);
    expect(state.jointSettings.jointIterations).toBe(6);
    world.gravity.x = 2; world.gravity.y = -3;
    world.solverSettings.velocityIterations = 12;
    world.sleeping.enabled = false;
    await run(40);
    for (let i = 0; i < 40; i++) world.step(H);
    const p = host.getBody(c)!.position, q = twin.position;
    console.log(`[worker settings] after a gravity change at step 20: worker (${p.x.toFixed(9)}, ${p.y.toFixed(9)}), direct (${q.x.toFixed(9)}, ${q.y.toFixed(9)})`);
    expect(Math.abs(p.x - q.x) + Math.abs(p.y - q.y) + Math.abs(p.z - q.z)).toBeLessThan(1e-9);
    // 40 steps sideways at 2 m/s² from rest: about ½·2·(2/3)² = 0.44 m.
    expect(p.x).toBeGreaterThan(0.4);
    expect(p.x).toBeLessThan(0.5);
    expect(errors).toEqual([]);
  });

  it('changes the fixed step: the worker steps 1/120 s, two steps per 1/60 s tick', async () => {
    const { client, host, run } = connect();
    await client.ready;
    expect(client.fixedTimeStep).toBeCloseTo(1 / 60, 15);
    const state = await client.setSettings({ fixedTimeStep: 1 / 120, maxStepsPerAdvance: 8 });
    expect(state.fixedTimeStep).toBe(1 / 120);
    expect(client.fixedTimeStep).toBe(1 / 120);
    expect(host.world!.maxStepsPerAdvance).toBe(8);
    await run(5);
    expect(client.step).toBe(10);
  });

  it('refuses a bad change whole, naming the field, and the world steps on as before', async () => {
    const { client, run, errors } = connect();
    await client.ready;
    const c = client.createBody(crate);
    const refusal = (change: WorldSettingsData) => client.setSettings(change).then(() => null, (e: PhysicsWorkerError) => e);
    const before = await client.getSettings();
    const bad = await Promise.all([
      refusal({ gravity: { x: 0, y: Number.NaN, z: 0 } }),
      // A good gravity with a bad sleep time: neither applies.
      refusal({ gravity: { x: 0, y: -1, z: 0 }, sleeping: { timeToSleep: 0 } }),
      refusal({ solverSettings: { velocityIteration: 4 } as never }),
      refusal({ solverSettings: { frictionModel: 'sticky' as never } }),
      refusal({ jointSettings: { jointIterations: 0.5 } }),
      refusal({ fixedTimeStep: 0 }),
      refusal({ maxStepsPerAdvance: 2.5 }),
      refusal({ gravity: { x: 0, y: -1, z: 0 }, speed: 2 } as never),
    ]);
    expect(bad.map((e) => e?.errorName)).toEqual(['RangeError', 'RangeError', 'RangeError', 'RangeError', 'RangeError', 'RangeError', 'RangeError', 'RangeError']);
    expect(bad.map((e) => e!.command)).toEqual(Array(8).fill('setSettings'));
    expect(bad[0]!.message).toMatch(/gravity\.y/);
    expect(bad[1]!.message).toMatch(/sleeping\.timeToSleep/);
    expect(bad[2]!.message).toMatch(/solverSettings\.velocityIteration is not a setting/);
    expect(bad[3]!.message).toMatch(/frictionModel/);
    expect(bad[4]!.message).toMatch(/jointSettings\.jointIterations/);
    expect(bad[5]!.message).toMatch(/fixedTimeStep/);
    expect(bad[6]!.message).toMatch(/maxStepsPerAdvance/);
    expect(bad[7]!.message).toMatch(/settings\.speed is not a world setting/);
    expect(await client.getSettings()).toEqual(before);
    // The world steps on under the old settings: 30 steps of free fall at 9.81 m/s², as a world of its own.
    await run(30);
    const world = new World();
    const twin = world.createBody({ ...crate, shape: shapeFromDesc(crate.shape) } as never);
    for (let i = 0; i < 30; i++) world.step(H);
    const y = (await client.snapshot()).world.bodies[B_POSITION + 1]!; // the crate is the only body
    expect(Math.abs(y - twin.position.y)).toBeLessThan(1e-9);
    expect(50 - y).toBeGreaterThan(1.2);
    expect(client.getPosition(c, { x: 0, y: 0, z: 0 }).y).toBeCloseTo(y, 4);
    expect(errors).toEqual([]);
  });
});
