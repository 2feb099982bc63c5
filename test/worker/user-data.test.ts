/**
 * userData over footing/worker: the page's value comes back on its handle,
 * in events (a removed body's contactEnd included), in query hits and for
 * tracked bodies; the worker's body holds a structured clone; a value that
 * cannot be cloned is refused at once with the field named.
 */
import { describe, expect, it } from 'vitest';
import { Sphere } from '../../src/index';
import type { BodyDescData, ContactEventData } from '../../src/worker/index';
import { connect } from './connect';

const FLOOR: BodyDescData = { type: 'static', shape: { kind: 'box', halfExtents: { x: 10, y: 0.5, z: 10 } }, position: { x: 0, y: -0.5, z: 0 } };
const crate = (x: number, userData?: unknown): BodyDescData => ({
  type: 'dynamic', shape: { kind: 'box', halfExtents: { x: 0.5, y: 0.5, z: 0.5 } }, position: { x, y: 1, z: 0 }, mass: 10, userData,
});

describe('userData over footing/worker', () => {
  it('names the game objects in contactBegin and contactEnd, also after a removal', async () => {
    const { client, run, errors, host } = connect();
    const begins: { a: unknown; b: unknown; bodyA: number; bodyB: number }[] = [];
    const ends: unknown[][] = [];
    client.on('contactBegin', (e: ContactEventData) => { begins.push({ a: e.userDataA, b: e.userDataB, bodyA: e.bodyA, bodyB: e.bodyB }); });
    client.on('contactEnd', (e: ContactEventData) => { ends.push([e.userDataA, e.userDataB]); });
    await client.ready;
    const ground = { kind: 'ground', id: 0 };
    const red = { kind: 'crate', id: 7, colour: [1, 0, 0], spawned: new Date(0) };
    const floor = client.createBody({ ...FLOOR, userData: ground });
    const c1 = client.createBody(crate(-2, red));
    const c2 = client.createBody(crate(2));
    // The client hands back the page's own object; the worker holds a copy.
    expect(client.getUserData(c1)).toBe(red);
    expect(client.getUserData(c2)).toBeUndefined();
    await run(40);
    const inWorker = host.getBody(c1)!.userData;
    expect(inWorker).toEqual(red);
    expect(inWorker).not.toBe(red);

    console.log(`[worker userData] contactBegin: ${begins.map((e) => `${JSON.stringify(e.a)}|${JSON.stringify(e.b)}`).join(', ')}`);
    expect(errors).toEqual([]);
    expect(begins.length).toBe(2);
    const first = begins.find((e) => e.bodyA === c1 || e.bodyB === c1)!;
    const [mine, other] = first.bodyA === c1 ? [first.a, first.b] : [first.b, first.a];
    expect(mine).toBe(red);
    expect(other).toBe(ground);
    const second = begins.find((e) => e.bodyA === c2 || e.bodyB === c2)!;
    expect([second.a, second.b]).toContain(ground);
    expect([second.a, second.b]).toContain(undefined);

    // Set after creation: both sides change; the next contact names the new value.
    const blue = { kind: 'crate', id: 8 };
    client.setUserData(c2, blue);
    expect(client.getUserData(c2)).toBe(blue);
    client.applyImpulse(c2, { x: 0, y: 30, z: 0 }); // hops 0.46 m, lands again after 0.61 s
    await run(60);
    expect(host.getBody(c2)!.userData).toEqual(blue);
    const again = begins.slice(2).find((e) => e.bodyA === c2 || e.bodyB === c2)!;
    expect([again.a, again.b]).toContain(blue);

    // A crate removed while resting: its contactEnd, a step later, still carries its userData.
    client.removeBody(c1);
    expect(client.getUserData(c1)).toBeUndefined();
    await run(2);
    console.log(`[worker userData] after removing crate 7: contactEnd ${JSON.stringify(ends)}`);
    expect(ends.length).toBeGreaterThanOrEqual(1);
    expect(ends.some((pair) => pair.includes(red) && pair.includes(ground))).toBe(true);
    expect(floor).toBe(0);
  });

  it('puts userData on query hits and takes a tracked body\'s tag as its userData', async () => {
    let tracked = -1;
    const { client, run, errors } = connect({}, {}, false, {
      onWorld(world, host) {
        tracked = host.track(world.createBody({ type: 'static', shape: new Sphere(0.5), position: { x: 5, y: 0.5, z: 0 } }), { bone: 'lamp' });
      },
    });
    await client.ready;
    const box = client.createBody({ ...crate(0, 'box-1'), type: 'static' });
    await run(1);
    const ray = await client.raycast({ x: 0, y: 5, z: 0 }, { x: 0, y: -5, z: 0 });
    expect(ray!.handle).toBe(box);
    expect(ray!.userData).toBe('box-1');
    const cast = await client.shapeCast({ kind: 'sphere', radius: 0.1 }, { x: 2, y: 0.5, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }, { x: 5, y: 0, z: 0 });
    expect(cast!.handle).toBe(tracked);
    expect(cast!.userData).toEqual({ bone: 'lamp' });
    expect(client.getUserData(tracked)).toEqual({ bone: 'lamp' });
    const over = await client.overlap({ kind: 'sphere', radius: 0.6 }, { x: 0, y: 1.5, z: 0 }, { x: 0, y: 0, z: 0, w: 1 });
    expect(over.map((c) => c.userData)).toEqual(['box-1']);
    expect(errors).toEqual([]);
  });

  it('forgets a removed body\'s userData once the worker has stepped past its removal, with or without listeners', async () => {
    const { client, run, errors } = connect();
    await client.ready;
    const retired = (client as unknown as { retiredUserData: Map<number, unknown> }).retiredUserData;
    for (let round = 0; round < 5; round++) {
      const shots = Array.from({ length: 10 }, (_, i) => client.createBody({ ...crate(i * 2, { shot: round * 10 + i }), type: 'static' }));
      await run(1);
      for (const h of shots) client.removeBody(h);
      expect(retired.size).toBe(10);
      await run(1);
      expect(retired.size).toBe(0);
    }
    expect(errors).toEqual([]);
  });

  it('refuses userData that cannot be cloned, at once, naming the field, and claims no handle', async () => {
    const { client, run, errors, host } = connect();
    await client.ready;
    const first = client.createBody(crate(0, { id: 1 }));
    expect(() => client.createBody(crate(2, { id: 2, onHit: () => 1 }))).toThrow(/createBody: userData cannot be sent to the worker: it must be structured-cloneable/);
    expect(() => client.setUserData(first, { fn: Math.max })).toThrow(/setUserData: value cannot be sent/);
    expect(() => client.createCharacter({ userData: Symbol('hero') })).toThrow(/createCharacter: userData/);
    expect(() => client.createRagdoll({ position: { x: 0, y: 2, z: 0 }, userData: () => 0 })).toThrow(/createRagdoll: userData/);
    expect(client.getUserData(first)).toEqual({ id: 1 });
    const next = client.createBody(crate(4));
    await run(1);
    // The refused calls claimed no slot: the next body took slot 2, and the worker has only the two.
    expect(next).toBe(2);
    expect(host.world!.bodies.length).toBe(2);
    expect(host.getBody(first)!.userData).toEqual({ id: 1 });
    expect(errors).toEqual([]);
  });
});
