/**
 * footing/worker against a careless or hostile page: malformed messages
 * sent straight to the host's port, misused client calls, and commands
 * whose order races the worker. A refused message is answered with an
 * error naming the field and leaves the world bit for bit as it was; the
 * host goes on stepping.
 */
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { WorldSnapshot } from '../../src/world/snapshot';
import { PhysicsClient, PhysicsHost, PROTOCOL_VERSION, type BodyDescData, type HostMessage, type MessagePortLike } from '../../src/worker/index';
import { connect, H } from './connect';

const FLOOR: BodyDescData = { type: 'static', shape: { kind: 'box', halfExtents: { x: 10, y: 0.5, z: 10 } }, position: { x: 0, y: -0.5, z: 0 } };
const crateAt = (x: number, y: number): BodyDescData => ({ type: 'dynamic', shape: { kind: 'box', halfExtents: { x: 0.5, y: 0.5, z: 0.5 } }, position: { x, y, z: 0 }, mass: 10 });

/** Every number of two world snapshots equal (NaN equal to NaN), and the same lengths. */
function sameSnapshot(a: WorldSnapshot, b: WorldSnapshot): boolean {
  const views = (s: WorldSnapshot): ArrayLike<number>[] => [
    s.world, s.bodies, s.bodyInts, s.contacts, s.contactInts, s.broadphaseInts, s.broadphaseBounds, s.joints, s.jointInts,
  ];
  const va = views(a), vb = views(b);
  for (let k = 0; k < va.length; k++) {
    const x = va[k]!, y = vb[k]!;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
  }
  return true;
}

/** A world with a floor, a crate resting on it and a character, stepped 5 times. */
async function scene() {
  const c = connect();
  await c.client.ready;
  const floor = c.client.createBody(FLOOR);
  const crate = c.client.createBody(crateAt(0, 0.5));
  const hero = c.client.createCharacter({ position: { x: 3, y: 0.92, z: 0 } });
  await c.run(5);
  expect(c.errors).toEqual([]);
  return { ...c, floor, crate, hero };
}

describe('malformed messages reaching the host', () => {
  it('refuses a handle that is not an integer instead of reading null, "0", true or [2] as a number', async () => {
    const { host, port, barrier, errors, run, crate, floor } = await scene();
    const world = host.world!;
    const before = world.snapshot();
    port.postMessage({ type: 'removeBody', handle: null });
    port.postMessage({ type: 'removeBody', handle: '0' });
    port.postMessage({ type: 'setVelocity', handle: [crate], linear: { x: 5, y: 0, z: 0 } });
    port.postMessage({ type: 'createJoint', id: 900, handle: 0, desc: { kind: 'ball', bodyA: null, bodyB: crate, anchor: { x: 0, y: 1, z: 0 } } });
    await barrier();
    expect(errors.map((e) => e.message)).toEqual([
      'footing worker: removeBody: removeBody: handle must be an integer ≥ 0 (got null)',
      'footing worker: removeBody: removeBody: handle must be an integer ≥ 0 (got string 0)',
      'footing worker: setVelocity: setVelocity: handle must be an integer ≥ 0 (got object 2)',
      'footing worker: createJoint: createJoint: bodyA: handle must be an integer ≥ 0 (got null)',
    ]);
    expect(errors.map((e) => e.errorName)).toEqual(['RangeError', 'RangeError', 'RangeError', 'RangeError']);
    // Before, null and '0' removed the floor (handle 0), [2] set the crate's velocity and null joined the floor.
    expect(sameSnapshot(world.snapshot(), before)).toBe(true);
    expect(world.joints.length).toBe(0);
    await run(2);
    expect(host.getBody(floor)).not.toBeNull();
    expect(world.stepCount).toBe(7);
  });

  it('refuses a new slot beyond the next one the client would hand out, so that one message cannot make every frame 37 MB', async () => {
    const { host, port, barrier, errors, run, client } = await scene();
    const before = host.world!.snapshot();
    const slots: number[] = [];
    port.on('message', (m: HostMessage) => { if (m.type === 'frame') slots.push(m.slots); });
    port.postMessage({ type: 'createBody', handle: (1 << 20) - 2, desc: crateAt(5, 5) });
    port.postMessage({ type: 'createCharacter', handle: 1e300, desc: {} });
    port.postMessage({ type: 'createBody', handle: 3, desc: crateAt(5, 5) });
    await barrier();
    expect(errors.map((e) => e.message)).toEqual([
      'footing worker: createBody: handle 1048574: slot 1048574 is beyond the next new slot (6); the client hands out its slots in order',
      'footing worker: createCharacter: handle must be an integer ≥ 0 (got 1e+300)',
      'footing worker: createBody: handle 3: the client\'s handles have even slots (odd ones are the host\'s)',
    ]);
    expect(sameSnapshot(host.world!.snapshot(), before)).toBe(true);
    await run(1);
    // Floor, crate and hero: slots 0, 2 and 4 (before, the frame had 1048575 rows).
    expect(slots).toEqual([5]);
    // The page's own next body still takes the next slot.
    const next = client.createBody(crateAt(6, 1));
    expect(next).toBe(6);
    await run(1);
    expect(host.getBody(next)!.position.x).toBe(6);
    expect(errors.length).toBe(3);
  });

  it('names a missing body or character description, and leaves no trace of a refused character in the world', async () => {
    const { host, port, barrier, errors } = await scene();
    const world = host.world!;
    const before = world.snapshot();
    port.postMessage({ type: 'createBody', handle: 6, desc: null });
    port.postMessage({ type: 'createCharacter', handle: 8, desc: null });
    port.postMessage({ type: 'createCharacter', handle: 10, desc: { walker: { speed: -1 } } });
    port.postMessage({ type: 'createCharacter', handle: 12, desc: { walker: 5 } });
    port.postMessage({ type: 'createCharacter', handle: 14, desc: { walker: { sped: 7 } } });
    port.postMessage({ type: 'createCharacter', handle: 16, desc: { settings: { stepHieght: 0.4 } } });
    port.postMessage({ type: 'createCharacter', handle: 18, desc: { settings: { createBody: false, up: { x: 1, y: 0, z: 0 } } } });
    port.postMessage({ type: 'createCharacter', handle: 20, desc: { settings: 5 } });
    port.postMessage({ type: 'createCharacter', handle: 22, desc: { radus: 0.5 } });
    await barrier();
    expect(errors.map((e) => `${e.errorName} ${e.message}`)).toEqual([
      'TypeError footing worker: createBody: desc must be a body description object (got null)',
      'TypeError footing worker: createCharacter: desc must be a character description object (got null)',
      'RangeError footing worker: createCharacter: Walker: speed must be a finite number ≥ 0 (got -1)',
      'TypeError footing worker: createCharacter: Walker: settings must be an object (got 5)',
      'RangeError footing worker: createCharacter: walker.sped is not a setting (walker: speed, acceleration, airAcceleration, gravity, jumpSpeed, coyoteTime, maxFallSpeed, airDeceleration, airDrag, turnSpeed)',
      expect.stringMatching(/^RangeError footing worker: createCharacter: settings\.stepHieght is not a setting \(settings: maxSlopeDegrees, /),
      expect.stringMatching(/^RangeError footing worker: createCharacter: settings\.createBody is not a setting/),
      'TypeError footing worker: createCharacter: settings must be an object (got 5)',
      expect.stringMatching(/^RangeError footing worker: createCharacter: desc\.radus is not a character field \(fields: radius, /),
    ]);
    // Before, a refused walker left the world's next body id and broadphase changed; null, 5 and misspelt fields built a default character.
    expect(sameSnapshot(world.snapshot(), before)).toBe(true);
    expect(world.bodies.length).toBe(3);
  });

  it('refuses a setVelocity or teleport without changing the body: no undo that wakes it or rewrites its previous pose', async () => {
    const { host, port, barrier, errors, run, crate } = await scene();
    const world = host.world!;
    const before = world.snapshot();
    port.postMessage({ type: 'setVelocity', handle: crate, linear: { x: 1, y: 0, z: 0 }, angular: { x: Number.NaN, y: 0, z: 0 } });
    port.postMessage({ type: 'setVelocity', handle: crate, angular: [1, 2, 3] });
    port.postMessage({ type: 'teleport', handle: crate, position: { x: 1e300, y: 0, z: 0 } });
    port.postMessage({ type: 'teleport', handle: crate, position: { x: 1, y: 0.5, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 0 } });
    await barrier();
    expect(errors.map((e) => `${e.errorName} ${e.message}`)).toEqual([
      'RangeError footing worker: setVelocity: angularVelocity.x must be a finite number (got NaN)',
      'RangeError footing worker: setVelocity: angularVelocity.x must be a finite number (got undefined)',
      'RangeError footing worker: teleport: position.x must be within ±1000000 m (MAX_POSITION; got 1e+300)',
      'RangeError footing worker: teleport: rotation must be a non-zero quaternion',
    ]);
    expect(sameSnapshot(world.snapshot(), before)).toBe(true);
    await run(3);
    expect(world.bodies.every((b) => Number.isFinite(b.position.x + b.position.y + b.position.z))).toBe(true);
  });

  it('takes NaN or 0 for an optional vector or rotation as a mistake, not as absent, and null as absent', async () => {
    const { host, port, barrier, errors, crate } = await scene();
    const world = host.world!;
    const before = world.snapshot();
    port.postMessage({ type: 'applyImpulse', handle: crate, impulse: { x: 0, y: 10, z: 0 }, point: Number.NaN });
    port.postMessage({ type: 'setVelocity', handle: crate, linear: 0, angular: { x: 0, y: 1, z: 0 } });
    port.postMessage({ type: 'teleport', handle: crate, position: { x: 0, y: 3, z: 0 }, rotation: Number.NaN });
    await barrier();
    expect(errors.map((e) => `${e.errorName} ${e.message}`)).toEqual([
      'TypeError footing worker: applyImpulse: point must be a { x, y, z } object (got NaN)',
      'TypeError footing worker: setVelocity: linearVelocity must be a { x, y, z } object (got 0)',
      'TypeError footing worker: teleport: rotation must be a { x, y, z, w } object (got NaN)',
    ]);
    // Before, each was carried out without its point, linear velocity or rotation.
    expect(sameSnapshot(world.snapshot(), before)).toBe(true);
    port.postMessage({ type: 'teleport', handle: crate, position: { x: 0, y: 3, z: 0 }, rotation: null });
    await barrier();
    expect(errors.length).toBe(3);
    expect(host.getBody(crate)!.position.y).toBe(3);
  });

  it("refuses a character teleport to a zero rotation, as a body's", async () => {
    const { host, port, barrier, errors, hero } = await scene();
    const before = host.snapshot();
    port.postMessage({ type: 'teleport', handle: hero, position: { x: 0, y: 2, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 0 } });
    await barrier();
    expect(errors.map((e) => e.message)).toEqual(['footing worker: teleport: rotation must be a non-zero quaternion']);
    expect(sameSnapshot(host.world!.snapshot(), before.world)).toBe(true);
    expect(host.getWalker(hero)!.controller.position.x).toBe(3);
  });

  it('checks an input\'s seq and jump: a seq of 1e300 no longer sticks in every later frame', async () => {
    const { host, port, barrier, errors, run, client, hero } = await scene();
    port.postMessage({ type: 'input', handle: hero, x: 0, y: 0, z: 1, jump: false, seq: 1e300 });
    port.postMessage({ type: 'input', handle: hero, x: 0, y: 0, z: 1, jump: false, seq: '7' });
    port.postMessage({ type: 'input', handle: hero, x: 0, y: 0, z: 1, jump: 'yes', seq: 1 });
    await barrier();
    expect(errors.map((e) => `${e.errorName} ${e.message}`)).toEqual([
      'RangeError footing worker: input: seq must be an integer in [0, 2^31 - 1] (got 1e+300)',
      'RangeError footing worker: input: seq must be an integer in [0, 2^31 - 1] (got string 7)',
      'TypeError footing worker: input: jump must be a boolean (got string yes)',
    ]);
    // None was applied: the character stands still.
    const z = host.getWalker(hero)!.controller.position.z;
    await run(2);
    expect(host.getWalker(hero)!.controller.position.z).toBe(z);
    const seq = client.setCharacterInput(hero, 0, 0, 1);
    await run(1);
    expect(client.appliedInputSeq).toBe(seq);
  });

  it('refuses a returned frame or event batch that is not one, and the next ticks still publish', async () => {
    const { host, port, barrier, errors, client, run } = await scene();
    port.postMessage({ type: 'returnFrame', frame: new Array(1000).fill(0) });
    port.postMessage({ type: 'returnFrame', frame: null });
    port.postMessage({ type: 'returnFrame', frame: new Float32Array(1000) });
    port.postMessage({ type: 'returnEvents', data: null });
    await barrier();
    expect(errors.map((e) => `${e.errorName} ${e.message}`)).toEqual([
      'TypeError footing worker: returnFrame: frame must be a Float32Array the worker sent (got Array)',
      'TypeError footing worker: returnFrame: frame must be a Float32Array the worker sent (got null)',
      // Every frame sent has come back: this one is more than were out.
      'RangeError footing worker: returnFrame: frame: more frames came back than the worker sent (each comes back once)',
      'TypeError footing worker: returnEvents: data must be a Float64Array the worker sent (got null)',
    ]);
    // Before, the array was kept and the next tick threw 'Found invalid object in transferList' from postMessage.
    expect(() => host.tick(H)).not.toThrow();
    await run(3);
    expect(client.step).toBe(host.world!.stepCount);
    expect(client.step).toBe(9);
  });
});

describe('client calls with bad arguments', () => {
  it('refuses a misspelt world field or a non-boolean option instead of ignoring it', async () => {
    const { client, errors } = connect({ gravty: { x: 0, y: -1, z: 0 } } as never);
    await expect(client.ready).rejects.toThrow('footing worker: init: init: world.gravty is not a world field (fields: gravity, fixedTimeStep, maxStepsPerAdvance, solverSettings, solver, sleeping, jointSettings)');
    expect(errors.map((e) => e.errorName)).toEqual(['RangeError']);
    const { port1, port2 } = new MessageChannel();
    const answers: { type: string; message?: string }[] = [];
    port1.on('message', (m: { type: string; message?: string }) => answers.push(m));
    const host = new PhysicsHost(port2 as unknown as MessagePortLike);
    port1.postMessage({ type: 'init', version: PROTOCOL_VERSION, world: {}, shared: false, autoStart: 'no' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Before, 'no' was truthy: the host built its world and started stepping on its own.
    expect(answers).toEqual([{ type: 'error', command: 'init', handle: -1, id: -1, name: 'TypeError', message: 'init: autoStart must be a boolean (got string no)' }]);
    expect(host.world).toBeNull();
    port1.close(); port2.close();
    const { port1: a } = new MessageChannel();
    expect(() => new PhysicsClient(a as unknown as MessagePortLike, {}, { autoStart: 'no' as never })).toThrow(new TypeError('PhysicsClient: options.autoStart must be a boolean (got no)'));
    expect(() => new PhysicsClient(a as unknown as MessagePortLike, {}, { now: 5 as never })).toThrow(/^PhysicsClient: options\.now must be a function/);
    a.close();
  });

  it('refuses a body without a shape, or a pose that is not an object, at the call and claims no handle', async () => {
    const { client, host, run, errors } = await scene();
    expect(() => client.createBody({ type: 'dynamic' } as never)).toThrow(new TypeError('createBody: desc.shape must be a shape description object (got undefined)'));
    expect(() => client.createBody({ ...crateAt(0, 3), position: 5 as never })).toThrow(new TypeError('createBody: desc.position must be a { x, y, z } object (got 5)'));
    expect(() => client.createBody({ ...crateAt(0, 3), rotation: 'up' as never })).toThrow(new TypeError('createBody: desc.rotation must be a { x, y, z, w } object (got up)'));
    // Before, each took a handle (6, 8, 10) that the page held as live while the worker refused it.
    expect(client.createBody(crateAt(6, 1))).toBe(6);
    await run(1);
    expect(host.world!.bodies.length).toBe(4);
    expect(errors).toEqual([]);
  });

  it('names a null character description and an out that is not an object', async () => {
    const { client, crate } = await scene();
    expect(() => client.createCharacter(null as never)).toThrow(new TypeError('createCharacter: desc must be a character description object (got null)'));
    expect(() => client.getPosition(crate, null as never)).toThrow(new TypeError('getPosition: out must be a { x, y, z } object to write into (got null)'));
    expect(() => client.getRotation(crate, undefined as never)).toThrow(new TypeError('getRotation: out must be a { x, y, z, w } object to write into (got undefined)'));
  });

  it('refuses a non-boolean jump, input to a body and an impulse to a character at the call, before the worker would', async () => {
    const { client, hero, crate, errors, barrier } = await scene();
    expect(() => client.setCharacterInput(hero, 0, 0, 1, 1 as never)).toThrow(new TypeError('setCharacterInput: jump must be a boolean (got 1)'));
    expect(() => client.setCharacterInput(crate, 0, 0, 1)).toThrow(new TypeError('setCharacterInput: handle 2 is not a character'));
    expect(() => client.applyImpulse(hero, { x: 0, y: 1, z: 0 })).toThrow(new TypeError('applyImpulse: handle 4 is a character, not a body'));
    expect(() => client.setVelocity(hero, { x: 0, y: 1, z: 0 })).toThrow(new TypeError('setVelocity: handle 4 is a character, not a body'));
    await barrier();
    // Before, these reached the worker and came back through onError.
    expect(errors).toEqual([]);
  });

  it('refuses a description that cannot be cloned with the field named, and gives its handle back', async () => {
    const { client, host, run, errors } = await scene();
    const bad = { ...crateAt(0, 3), shape: { kind: 'box', halfExtents: { x: () => 1, y: 1, z: 1 } } } as never;
    expect(() => client.createBody(bad)).toThrow(/^createBody: desc cannot be sent to the worker: it must be structured-cloneable \(plain data, no functions or DOM nodes; /);
    expect(() => client.createCharacter({ walker: { speed: (() => 4) as never } })).toThrow(/^createCharacter: desc cannot be sent to the worker/);
    expect(() => client.raycast({ x: 0, y: 5, z: 0 }, { x: 0, y: -5, z: 0 }, { exclude: (() => 1) as never })).toThrow(/^raycast: options cannot be sent to the worker/);
    expect(() => client.setSettings({ gravity: { x: 0, y: () => -9.81, z: 0 } } as never)).toThrow(/^setSettings: settings cannot be sent to the worker/);
    // Before, each threw a DataCloneError naming neither, and the refused createBody kept slot 6 (the next body took 8).
    const next = client.createBody(crateAt(6, 1));
    expect(next).toBe(6);
    await run(1);
    expect(host.getBody(next)!.position.x).toBe(6);
    expect(host.world!.bodies.length).toBe(4);
    expect(errors).toEqual([]);
  });

  it('forgets a joint whose description could not be sent', async () => {
    const { client, crate, floor } = await scene();
    expect(() => client.createJoint({ kind: 'ball', bodyA: floor, bodyB: crate, anchor: { x: 0, y: () => 1, z: 0 } } as never)).toThrow(/^createJoint: desc cannot be sent/);
    // Before, its handle 0 stayed live on the page: setJoint(0) went to the worker.
    expect(() => client.setJoint(0, { breakImpulse: 5 })).toThrow(new RangeError('footing worker: 0 is not a live joint handle'));
  });

  it('names restore options that are not an object, and a transfer of something that is not a snapshot', async () => {
    const { client } = await scene();
    expect(() => client.restore({} as never, null as never)).toThrow(new TypeError('restore: options must be an object (got null)'));
    expect(() => client.restore(null as never, { transfer: true })).toThrow(new TypeError('restore: snapshot must be a worker snapshot ({ world, characters }) to transfer (got null)'));
  });
});

describe('a disposed client', () => {
  it('throws at every command instead of waiting forever, rejects what was waiting, and disposes once', async () => {
    const { client, host, crate, hero } = await scene();
    const hostPort = (host as unknown as { port: { on(type: 'message', f: (m: { type: string }) => void): void } }).port;
    const seen: string[] = [];
    hostPort.on('message', (m) => { if (m.type !== 'returnFrame' && m.type !== 'returnEvents') seen.push(m.type); });
    const waiting = client.getSettings();
    const off = client.on('contactBegin', () => {});
    client.dispose();
    client.dispose();
    await expect(waiting).rejects.toThrow('footing worker: client disposed');
    expect(() => client.raycast({ x: 0, y: 5, z: 0 }, { x: 0, y: -5, z: 0 })).toThrow(new Error('footing worker: raycast: the client is disposed'));
    expect(() => client.getSettings()).toThrow(new Error('footing worker: getSettings: the client is disposed'));
    expect(() => client.createBody(crateAt(0, 3))).toThrow(new Error('footing worker: createBody: the client is disposed'));
    expect(() => client.applyImpulse(crate, { x: 0, y: 1, z: 0 })).toThrow(new Error('footing worker: applyImpulse: the client is disposed'));
    expect(() => client.setCharacterInput(hero, 0, 0, 1)).toThrow(new Error('footing worker: input: the client is disposed'));
    expect(() => client.on('contactEnd', () => {})).toThrow(new Error("footing worker: on('contactEnd'): the client is disposed"));
    // Cleanup code that runs late may still unsubscribe.
    expect(() => off()).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // One dispose reached the host (after getSettings and subscribe), nothing after it.
    expect(seen).toEqual(['getSettings', 'subscribe', 'dispose']);
  });
});

describe('a client whose worker is gone', () => {
  it('rejects the requests still waiting when the port closes, and refuses later commands', async () => {
    const { client, host } = await scene();
    const hostPort = (host as unknown as { port: { close(): void } }).port;
    // The worker stops answering, then its end of the channel goes (as when the worker is terminated).
    host.dispose();
    const waiting = client.getSettings();
    hostPort.close();
    const outcome = await Promise.race([
      waiting.then(() => 'answered', (e: Error) => e.message),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 300)),
    ]);
    // Before, it waited forever.
    expect(outcome).toBe('footing worker: the worker is gone (its port closed)');
    expect(() => client.getSettings()).toThrow(new Error('footing worker: getSettings: the worker is gone (its port closed)'));
  });
});

describe('a client whose world the worker refused', () => {
  it('throws at every later command with the reason, instead of sending commands that can only fail', async () => {
    const { client, errors, barrier } = connect({ gravity: { x: 0, y: Number.NaN, z: 0 } });
    await expect(client.ready).rejects.toThrow(/^footing worker: init: /);
    const reason = 'the worker refused the world (gravity.y must be a finite number (got NaN))';
    expect(() => client.createBody(crateAt(0, 1))).toThrow(new Error(`footing worker: createBody: ${reason}`));
    expect(() => barrier()).toThrow(new Error(`footing worker: raycast: ${reason}`));
    // Before, createBody returned a handle and its error ('the host has no world yet') came later through onError.
    expect(errors.length).toBe(1);
    expect(() => client.dispose()).not.toThrow();
  });
});

describe('a second client on the same worker', () => {
  it('is refused at ready and stops listening, so that the first one keeps its frames', async () => {
    const { client, port, run, errors, host } = await scene();
    const second = new PhysicsClient(port as unknown as MessagePortLike, {}, { autoStart: false, shared: false });
    const secondErrors: string[] = [];
    second.onError = (e) => { secondErrors.push(e.message); };
    await expect(second.ready).rejects.toThrow('footing worker: init: init: the host already has a world');
    // Before, it went on reading the first client's frames and sending their buffers back a second time (postMessage threw in its listener).
    await run(3);
    expect(client.step).toBe(8);
    expect(host.world!.stepCount).toBe(8);
    expect(secondErrors).toEqual(['footing worker: init: init: the host already has a world']);
    expect(errors.map((e) => e.message)).toEqual(['footing worker: init: init: the host already has a world']);
    expect(() => second.createBody(crateAt(0, 1))).toThrow(/^footing worker: createBody: the worker refused the world \(init: the host already has a world\)$/);
  });
});

describe('frames out of order', () => {
  it('drops a frame older than the newest received, instead of showing the bodies back in time', async () => {
    const { port1, port2 } = new MessageChannel();
    const clock = { ms: 0 };
    const client = new PhysicsClient(port1 as unknown as MessagePortLike, {}, { autoStart: false, shared: false, now: () => clock.ms });
    const returned: string[] = [];
    port2.on('message', (m: { type: string }) => returned.push(m.type));
    port2.postMessage({ type: 'ready', fixedTimeStep: H, shared: null });
    await client.ready;
    const handle = client.createBody(crateAt(0, 1));
    const send = (step: number, time: number, y: number): void => {
      // Slot 0: position y, rotation w 1, awake, generation 0.
      const f = new Float32Array(9 * 64);
      f[1] = y; f[6] = 1; f[7] = 1; f[8] = 0;
      port2.postMessage({ type: 'frame', step, time, slots: 1, frame: f, inputSeq: 0 }, [f.buffer]);
    };
    send(1, 10, 1);
    send(3, 30, 3);
    send(2, 20, 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    clock.ms = 50;
    client.update();
    // Before, the late step 2 became the newest: step 2, y 2, interpolated from step 3.
    expect(client.step).toBe(3);
    expect(client.getPosition(handle, { x: 0, y: 0, z: 0 }).y).toBe(3);
    // Every frame's buffer went back, the dropped one's included.
    expect(returned.filter((t) => t === 'returnFrame').length).toBe(3);
    port1.close(); port2.close();
  });
});

describe('commands whose order races the worker', () => {
  it('refuses a command on a body removed in the same frame at the call, and builds a slot reused within one batch', async () => {
    const { client, host, run, errors } = await scene();
    const a = client.createBody(crateAt(-3, 1));
    client.removeBody(a);
    expect(() => client.setVelocity(a, { x: 1, y: 0, z: 0 })).toThrow(new RangeError(`footing worker: ${a} is not a live body or character handle`));
    const b = client.createBody(crateAt(-3, 2));
    client.setVelocity(b, { x: 1, y: 0, z: 0 });
    expect(b).toBe(a + (1 << 20));
    await run(1);
    expect(host.getBody(a)).toBeNull();
    expect(host.getBody(b)!.linearVelocity.x).toBeCloseTo(1, 6);
    expect(host.world!.bodies.length).toBe(4);
    expect(errors).toEqual([]);
  });

  it('refuses a snapshot taken before a slot was reused, and leaves the world as it was', async () => {
    const { client, host, run, barrier, errors, crate } = await scene();
    const saved = await client.snapshot();
    client.removeBody(crate);
    // The same number of bodies, the crate's slot reused by a ball.
    const ball = client.createBody({ ...crateAt(3, 4), shape: { kind: 'sphere', radius: 0.2 } });
    await barrier();
    const before = host.world!.snapshot();
    await expect(client.restore(saved)).rejects.toMatchObject({ errorName: 'SnapshotError' });
    expect(sameSnapshot(host.world!.snapshot(), before)).toBe(true);
    await run(1);
    expect(host.getBody(ball)!.position.x).toBe(3);
    expect(errors).toEqual([]);
  });
});
