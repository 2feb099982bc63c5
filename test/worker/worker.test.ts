/**
 * footing/worker's protocol, run for real over node:worker_threads
 * MessageChannel ports (connect.ts): bodies, frames, interpolation, the
 * character, raycasts, errors, both transports, tracked bodies.
 */
import { describe, expect, it } from 'vitest';
import { Box, createRagdoll, World } from '../../src/index';
import { MessageChannel } from 'node:worker_threads';
import { PhysicsHost, PROTOCOL_VERSION, STATE_AIRBORNE, STATE_AWAKE, STATE_GROUNDED, STATE_SLEEPING, type BodyDescData, type MessagePortLike } from '../../src/worker/index';
import { connect, H } from './connect';

const FLOOR: BodyDescData = { type: 'static', shape: { kind: 'box', halfExtents: { x: 10, y: 0.5, z: 10 } }, position: { x: 0, y: -0.5, z: 0 } };
const crateAt = (x: number, y: number): BodyDescData => ({ type: 'dynamic', shape: { kind: 'box', halfExtents: { x: 0.5, y: 0.5, z: 0.5 } }, position: { x, y, z: 0 }, mass: 10 });

describe('footing/worker over a MessageChannel', () => {
  it('builds bodies from descriptions and streams the same poses as a world stepped directly', async () => {
    const { client, run, errors } = connect();
    await client.ready;
    client.createBody(FLOOR);
    const crates = [client.createBody(crateAt(-2, 1)), client.createBody(crateAt(0, 2)), client.createBody({ ...crateAt(2, 3), shape: { kind: 'sphere', radius: 0.5 } })];
    // Before the first frame a body shows the pose it was created with.
    const p = { x: 0, y: 0, z: 0 };
    expect(client.getPosition(crates[1]!, p).y).toBe(2);

    const world = new World();
    world.createBody({ ...FLOOR, shape: new Box(FLOOR.shape.kind === 'box' ? FLOOR.shape.halfExtents : { x: 1, y: 1, z: 1 }) });
    const direct = [world.createBody({ ...crateAt(-2, 1), shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }) }),
      world.createBody({ ...crateAt(0, 2), shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }) })];
    for (let i = 0; i < 120; i++) world.step(H);

    await run(120);
    expect(errors).toEqual([]);
    expect(client.step).toBe(120);
    expect(client.alpha).toBe(1);
    for (let k = 0; k < 2; k++) {
      client.getPosition(crates[k]!, p);
      // Float32 frames: within 1e-5 m of the double-precision world.
      expect(p.x).toBeCloseTo(direct[k]!.position.x, 5);
      expect(p.y).toBeCloseTo(direct[k]!.position.y, 5);
      expect(p.y).toBeCloseTo(0.5, 1);
    }
    expect(client.getPosition(crates[2]!, p).y).toBeCloseTo(0.5, 1);
    const q = { x: 0, y: 0, z: 0, w: 0 };
    client.getRotation(crates[0]!, q);
    expect(Math.hypot(q.x, q.y, q.z, q.w)).toBeCloseTo(1, 6);
    expect([STATE_AWAKE, STATE_SLEEPING]).toContain(client.getState(crates[0]!));
  });

  it('interpolates between the last two frames, one tick behind the newest by the frames\' times', async () => {
    const { client, host, clock, barrier, run } = connect({ gravity: { x: 0, y: 0, z: 0 } });
    await client.ready;
    const mover = client.createBody({ ...crateAt(0, 5), linearVelocity: { x: 6, y: 0, z: 0 }, linearDamping: 0 });
    await run(2);
    const p = { x: 0, y: 0, z: 0 };
    const x0 = client.getPosition(mover, p).x;
    expect(x0).toBeCloseTo(2 * 6 * H, 5);
    await barrier();
    host.tick(H);
    await barrier();
    client.update();
    // Written at this instant: alpha 0 shows the frame before.
    expect(client.alpha).toBe(0);
    expect(client.getPosition(mover, p).x).toBeCloseTo(x0, 5);
    clock.ms += (H * 1000) / 4;
    client.update();
    expect(client.alpha).toBeCloseTo(0.25, 9);
    expect(client.getPosition(mover, p).x).toBeCloseTo(x0 + 0.25 * 6 * H, 5);
  });

  it('keeps the character in the worker: input sent each frame moves it within the next step', async () => {
    const { client, run, errors, host, barrier } = connect();
    await client.ready;
    client.createBody(FLOOR);
    const hero = client.createCharacter({ position: { x: 0, y: 0.92, z: 0 }, walker: { speed: 4 } });
    await run(30);
    const p = { x: 0, y: 0, z: 0 };
    expect(client.getState(hero)).toBe(STATE_GROUNDED);
    const z0 = client.getPosition(hero, p).z;
    expect(z0).toBeCloseTo(0, 6);

    // Latency: the input is applied by the very next step, and that frame already shows the motion.
    const seq = client.setCharacterInput(hero, 0, 0, 1);
    await barrier();
    host.tick(H);
    await barrier();
    client.update();
    expect(client.appliedInputSeq).toBe(seq);
    client.alpha = 1;
    expect(client.getPosition(hero, p).z).toBeGreaterThan(z0 + 1e-3);

    for (let i = 0; i < 60; i++) {
      client.setCharacterInput(hero, 0, 0, 1);
      await run(1);
    }
    // 1 s at 4 m/s after a 0.1 s ramp (acceleration 40 m/s²): about 4 m.
    const z1 = client.getPosition(hero, p).z;
    expect(z1).toBeGreaterThan(3.6);
    expect(z1).toBeLessThan(4.3);
    // The walker faces its movement through yaw (0 until the walker turns it): a unit quaternion about up.
    const q = client.getRotation(hero, { x: 0, y: 0, z: 0, w: 1 });
    expect(Math.hypot(q.x, q.z)).toBeLessThan(1e-6);

    client.teleport(hero, { x: 3, y: 0.92, z: 0 });
    client.setCharacterInput(hero, 0, 0, 0);
    await run(15);
    expect(client.getPosition(hero, p).x).toBeCloseTo(3, 2);
    expect(client.getState(hero)).toBe(STATE_GROUNDED);

    // A jump travels with the input: jumpSpeed 5 m/s peaks v²/2g ≈ 1.27 m up after ≈ 0.51 s.
    client.setCharacterInput(hero, 0, 0, 0, true);
    const y0 = client.getPosition(hero, p).y;
    let peak = y0;
    for (let i = 0; i < 40; i++) {
      await run(1);
      if (i === 5) expect(client.getState(hero)).toBe(STATE_AIRBORNE);
      peak = Math.max(peak, client.getPosition(hero, p).y);
    }
    expect(peak - y0).toBeGreaterThan(1.1);
    expect(peak - y0).toBeLessThan(1.4);
    client.createCharacter({ walker: { speed: -1 } });
    await run(1);
    expect(errors.map((e) => e.command)).toEqual(['createCharacter']);
    expect(errors[0]!.message).toMatch(/speed/);
  });

  it('refuses a page that speaks another protocol version at init', async () => {
    const { port1, port2 } = new MessageChannel();
    const host = new PhysicsHost(port2 as unknown as MessagePortLike);
    const answers: { type: string; command?: string; message?: string }[] = [];
    port1.on('message', (m: { type: string; command?: string; message?: string }) => { answers.push(m); });
    port1.postMessage({ type: 'init', version: PROTOCOL_VERSION - 1, world: {}, shared: false, autoStart: false });
    port1.postMessage({ type: 'init', world: {}, shared: false, autoStart: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    port1.close();
    const refusals = answers.filter((m) => m.type === 'error' && m.command === 'init').map((m) => m.message);
    expect(refusals).toEqual([
      `the page speaks footing/worker protocol ${PROTOCOL_VERSION - 1}, this worker ${PROTOCOL_VERSION} (build both from the same footing)`,
      `the page speaks footing/worker protocol undefined, this worker ${PROTOCOL_VERSION} (build both from the same footing)`,
    ]);
    expect(host.world).toBeNull();
  });

  it('answers raycasts with the hit body handle and removes bodies, reusing slots safely', async () => {
    const { client, run, errors } = connect();
    await client.ready;
    const floor = client.createBody(FLOOR);
    const crate = client.createBody(crateAt(0, 0.5));
    await run(2);
    const hit = await client.raycast({ x: 0, y: 10, z: 0 }, { x: 0, y: -10, z: 0 });
    expect(hit?.handle).toBe(crate);
    expect(hit?.point.y).toBeCloseTo(1, 2);
    const past = await client.raycast({ x: 0, y: 10, z: 0 }, { x: 0, y: -10, z: 0 }, { exclude: crate });
    expect(past?.handle).toBe(floor);
    expect(past?.point.y).toBeCloseTo(0, 6);
    expect(past?.normal.y).toBeCloseTo(1, 6);

    client.removeBody(crate);
    expect(() => client.applyImpulse(crate, { x: 1, y: 0, z: 0 })).toThrow(/not a live body/);
    const ball = client.createBody({ ...crateAt(4, 3), shape: { kind: 'sphere', radius: 0.25 } });
    expect(ball % (1 << 20)).toBe(crate % (1 << 20)); // same slot, next generation
    expect(ball).not.toBe(crate);
    await run(1);
    const p = { x: 0, y: 0, z: 0 };
    expect(client.has(crate)).toBe(false);
    // A dead handle is refused by name, not read as a body at the origin.
    expect(() => client.getPosition(crate, p)).toThrow(/not a live body or character handle/);
    expect(() => client.getRotation(crate, { x: 0, y: 0, z: 0, w: 1 })).toThrow(/not a live body/);
    expect(() => client.getState(crate)).toThrow(/not a live body/);
    expect(client.getPosition(ball, p).x).toBeCloseTo(4, 5);
    const miss = await client.raycast({ x: 0, y: 10, z: 0 }, { x: 0, y: 5, z: 0 });
    expect(miss).toBeNull();
    expect(errors).toEqual([]);
  });

  it('reports bad descriptions and commands as errors naming the field, and the world goes on', async () => {
    const { client, run, errors } = connect();
    await client.ready;
    client.createBody({ type: 'dynamic', shape: { kind: 'sphere', radius: -1 } });
    client.createBody({ type: 'dynamic', shape: { kind: 'cone' } as never });
    const ok = client.createBody(crateAt(0, 5));
    expect(() => client.applyImpulse(ok, { x: Number.NaN, y: 0, z: 0 })).toThrow(/^applyImpulse: impulse must be finite \(got \(NaN, 0, 0\)\)$/);
    expect(() => client.applyImpulse(ok, { x: 1, y: 0, z: 0 }, { x: 0, y: Infinity, z: 0 })).toThrow(/^applyImpulse: point must be finite/);
    expect(() => client.teleport(ok, { x: 0, y: NaN, z: 0 })).toThrow(/^teleport: position must be finite/);
    expect(() => client.teleport(ok, { x: 0, y: 5, z: 0 }, { x: 0, y: 0, z: 0, w: NaN })).toThrow(/^teleport: rotation must be finite/);
    expect(() => client.createBody({ ...crateAt(0, 5), position: { x: 0, y: NaN, z: 0 } })).toThrow(/^createBody: desc\.position must be finite/);
    await expect(client.raycast({ x: 0, y: 0, z: 0 }, { x: 0, y: -1, z: 0 }, { collisionMask: 1.5 })).rejects.toThrow(/collisionMask/);
    await run(10);
    expect(errors.map((e) => e.command)).toEqual(['createBody', 'createBody']);
    expect(errors[0]!.message).toMatch(/radius/);
    expect(errors[1]!.message).toMatch(/shape\.kind/);
    const p = client.getPosition(ok, { x: 0, y: 0, z: 0 });
    // 10 steps of free fall from y = 5 as in a world of its own, x untouched by the refused impulse.
    const world = new World();
    const twin = world.createBody({ ...crateAt(0, 5), shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }) });
    for (let i = 0; i < 10; i++) world.step(H);
    expect(p.x).toBe(0);
    expect(p.y).toBeCloseTo(twin.position.y, 5);
    expect(p.y).toBeLessThan(4.9);
    expect(() => client.setCharacterInput(ok, Number.NaN, 0, 0)).toThrow(/finite/);
  });

  it('kills the handle of a body or character the worker refused to build, and reuses its slot', async () => {
    const { client, run, errors, host } = connect();
    await client.ready;
    const bad = client.createBody({ type: 'dynamic', shape: { kind: 'sphere', radius: -1 }, position: { x: 0, y: 5, z: 0 } });
    const badHero = client.createCharacter({ radius: -0.3 } as never);
    // Until the refusal arrives the handle is live and shows its description's pose.
    expect(client.getPosition(bad, { x: 0, y: 0, z: 0 }).y).toBe(5);
    await run(1);
    expect(errors.map((e) => [e.command, e.handle])).toEqual([['createBody', bad], ['createCharacter', badHero]]);
    expect(() => client.applyImpulse(bad, { x: 1, y: 0, z: 0 })).toThrow(/not a live body/);
    expect(() => client.getPosition(bad, { x: 0, y: 0, z: 0 })).toThrow(/not a live body/);
    expect(() => client.setCharacterInput(badHero, 1, 0, 0)).toThrow(/not a live body/);
    // The refused slots are handed out again, in the next generation, and the worker accepts them.
    const good = client.createBody({ ...crateAt(0, 5) });
    const hero = client.createCharacter({ position: { x: 3, y: 1, z: 0 } });
    expect(new Set([good % (1 << 20), hero % (1 << 20)])).toEqual(new Set([bad % (1 << 20), badHero % (1 << 20)]));
    expect(good).not.toBe(bad);
    await run(5);
    expect(errors.length).toBe(2);
    expect(host.getBody(good)!.position.y).toBeLessThan(5);
    expect(client.getPosition(good, { x: 0, y: 0, z: 0 }).y).toBeCloseTo(host.getBody(good)!.position.y, 6);
  });

  it('refuses a bad tick length and keeps its time', async () => {
    const { client, host, run } = connect();
    await client.ready;
    expect(() => host.tick(Number.NaN)).toThrow(/seconds/);
    expect(() => host.tick(-1)).toThrow(/seconds/);
    await run(3);
    expect(client.step).toBe(3);
  });

  it('rejects ready when the worker refuses the world description', async () => {
    const { client } = connect({ gravity: { x: 0, y: Number.NaN, z: 0 } });
    await expect(client.ready).rejects.toThrow(/init: .*gravity/);
    const slow = connect({ fixedTimeStep: -1 });
    await expect(slow.client.ready).rejects.toThrow(/fixedTimeStep/);
  });

  it('streams through a SharedArrayBuffer when asked, with the same poses', async () => {
    const a = connect({}, { shared: true });
    const b = connect({}, { shared: false });
    await Promise.all([a.client.ready, b.client.ready]);
    expect(a.client.sharedMemory).toBe(true);
    expect(b.client.sharedMemory).toBe(false);
    const handles = [a, b].map(({ client }) => {
      client.createBody(FLOOR);
      // More than the first buffer's 64 slots: the host grows the shared buffer and sends the new one.
      const list: number[] = [];
      for (let i = 0; i < 80; i++) list.push(client.createBody(crateAt((i % 10) * 1.5 - 7, 1 + Math.floor(i / 10) * 1.2)));
      return list;
    });
    await Promise.all([a.run(30), b.run(30)]);
    const pa = { x: 0, y: 0, z: 0 }, pb = { x: 0, y: 0, z: 0 };
    for (let i = 0; i < 80; i++) {
      a.client.getPosition(handles[0]![i]!, pa);
      b.client.getPosition(handles[1]![i]!, pb);
      expect(pa).toEqual(pb);
    }
    expect(a.client.step).toBe(30);
    // One more tick, drawn at once: alpha 0, both show the frame before it (the shared buffer's other half).
    for (const c of [a, b]) {
      await c.barrier();
      c.host.tick(H);
      await c.barrier();
      c.client.update();
    }
    expect(a.client.alpha).toBe(0);
    expect(a.client.step).toBe(31);
    for (let i = 0; i < 80; i++) {
      a.client.getPosition(handles[0]![i]!, pa);
      b.client.getPosition(handles[1]![i]!, pb);
      expect(pa).toEqual(pb);
    }
    // …which is the frame of step 30, not 31: the top row, still falling, is higher there.
    a.clock.ms += H * 1000;
    a.client.update();
    expect(a.client.alpha).toBeCloseTo(1, 9);
    const top = handles[0]![79]!;
    expect(a.client.getPosition(top, { x: 0, y: 0, z: 0 }).y).toBeLessThan(pa.y - 0.03);
    expect(a.errors).toEqual([]);
  });

  it('lets worker code build on the world (onWorld) and reach bodies by handle', async () => {
    let seen: World | null = null;
    const { client, host, run } = connect({ gravity: { x: 0, y: -5, z: 0 } }, {}, false, {
      onWorld(world) {
        seen = world;
        // A floor only the worker knows about: raycasts report it as handle −1.
        world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
      },
    });
    await client.ready;
    expect(seen).toBe(host.world);
    expect(host.world!.gravity.y).toBe(-5);
    const crate = client.createBody(crateAt(0, 0.6));
    await run(60);
    expect(client.getPosition(crate, { x: 0, y: 0, z: 0 }).y).toBeCloseTo(0.5, 1);
    expect(host.getBody(crate)?.position.y).toBeCloseTo(0.5, 1);
    expect(host.getBody(crate + (1 << 20))).toBeNull(); // same slot, another generation
    const hit = await client.raycast({ x: 3, y: 5, z: 0 }, { x: 3, y: -5, z: 0 });
    expect(hit?.handle).toBe(-1);
    expect(hit?.point.y).toBeCloseTo(0, 6);
  });

  it('streams bodies that worker code creates and tracks (a ragdoll), with their shapes as data', async () => {
    const added: { handle: number; kind: string; tag: unknown }[] = [];
    const removed: number[] = [];
    let bones: number[] = [];
    const { client, host, run } = connect({}, {}, false, {
      onWorld(world, h) {
        world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
        const ragdoll = createRagdoll(world, { position: { x: 0, y: 2, z: 0 } });
        bones = ragdoll.bodies.map((b, i) => h.track(b, ragdoll.names[i]));
      },
    });
    client.onBodyAdded = (handle, body) => { added.push({ handle, kind: body.shape.kind, tag: body.tag }); };
    client.onBodyRemoved = (handle) => { removed.push(handle); };
    const mine = client.createBody(crateAt(5, 0.5));
    await client.ready;
    await run(1);
    const p = { x: 0, y: 0, z: 0 };
    const meanY = () => bones.reduce((sum, h) => sum + client.getPosition(h, p).y, 0) / bones.length;
    const startY = meanY();
    await run(120);
    expect(added.map((a) => a.handle)).toEqual(bones);
    expect(bones.length).toBeGreaterThanOrEqual(10);
    expect(bones.every((h) => h % 2 === 1)).toBe(true); // the host's slots are odd
    expect(mine % 2).toBe(0);
    expect(added[0]!.tag).toBeTypeOf('string');
    expect(added.every((a) => a.kind === 'capsule' || a.kind === 'box' || a.kind === 'sphere')).toBe(true);
    // The ragdoll, built standing with its root at 2 m, has collapsed onto the floor.
    const endY = meanY();
    console.log(`[worker] ragdoll of ${bones.length} tracked bones: mean bone height ${startY.toFixed(2)} → ${endY.toFixed(2)} m`);
    expect(endY).toBeLessThan(startY - 0.5);
    for (const h of bones) expect(client.getPosition(h, p).y).toBeGreaterThan(0);
    // Commands work on tracked bodies; removing one from the page removes it in the worker.
    client.removeBody(bones[0]!);
    // Worker code removing a tracked body: the client hears of it.
    host.world!.removeBody(host.getBody(bones[1]!)!);
    await run(2);
    expect(removed).toEqual([bones[1]]);
    expect(client.has(bones[0]!)).toBe(false);
    expect(client.has(bones[1]!)).toBe(false);
    expect(client.has(bones[2]!)).toBe(true);
    // The freed host slot is reused with the next generation.
    const again = host.track(host.world!.createBody({ type: 'dynamic', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 3, y: 1, z: 0 } }));
    await run(1);
    expect([bones[0]! + (1 << 20), bones[1]! + (1 << 20)]).toContain(again);
    expect(client.getPosition(again, p).x).toBeCloseTo(3, 5);
  });

  it('steps in real time on its own after start()', async () => {
    const { client, errors } = connect({}, { autoStart: true }, true);
    await client.ready;
    const crate = client.createBody(crateAt(0, 50));
    await new Promise((resolve) => setTimeout(resolve, 400));
    client.update();
    client.stop();
    // 0.4 s of wall time is about 24 steps; timers on a loaded machine run late, so only a broad range is asserted.
    expect(client.step).toBeGreaterThan(5);
    expect(client.step).toBeLessThan(40);
    expect(client.getPosition(crate, { x: 0, y: 0, z: 0 }).y).toBeLessThan(50);
    expect(errors).toEqual([]);
  });

  it('reports malformed messages without touching the world', async () => {
    const { client, host, run, errors, port, barrier } = connect();
    await client.ready;
    const crate = client.createBody(crateAt(0, 5));
    port.postMessage(null);
    port.postMessage({ type: 'teleport', handle: crate, position: { x: Number.NaN, y: 0, z: 0 } });
    port.postMessage({ type: 'createJoint', id: 999, handle: 3, desc: { kind: 'ball', bodyA: crate, bodyB: crate } });
    port.postMessage({ type: 'subscribe', event: 'explosion', on: true });
    port.postMessage({ type: 'restore', id: 998, snapshot: { world: {}, characters: [] } });
    port.postMessage({ type: 'warp' });
    await barrier();
    await run(10);
    expect(errors.map((e) => `${e.command} ${e.errorName}`)).toEqual([
      'message TypeError', 'teleport RangeError', 'createJoint RangeError', 'subscribe RangeError', 'restore SnapshotError', 'warp TypeError',
    ]);
    expect(errors[2]!.message).toMatch(/even/);
    expect(host.world!.joints.length).toBe(0);
    // 10 steps of free fall from 5 m, as in a world of its own: nothing above reached the body.
    const world = new World();
    const twin = world.createBody({ ...crateAt(0, 5), shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }) });
    for (let i = 0; i < 10; i++) world.step(H);
    expect(host.getBody(crate)!.position.y).toBe(twin.position.y);
    expect(host.getBody(crate)!.position.x).toBe(0);
  });
});

describe('a walker that throws during a tick', () => {
  /** Two characters on the floor, settled; `a` is in the lower slot, so it is updated first. */
  async function twoHeroes() {
    const link = connect();
    await link.client.ready;
    link.client.createBody(FLOOR);
    const a = link.client.createCharacter({ position: { x: -2, y: 0.92, z: 0 } });
    const b = link.client.createCharacter({ position: { x: 2, y: 0.92, z: 0 } });
    await link.run(20);
    link.client.setCharacterInput(b, 1, 0, 0);
    await link.barrier();
    return { ...link, a, b, walkerA: link.host.getWalker(a)!, walkerB: link.host.getWalker(b)! };
  }

  it('does not stop the tick: the later walkers are updated, the time used up, the frame published, the error thrown once', async () => {
    const { client, host, barrier, a, walkerA, walkerB } = await twoHeroes();
    const world = host.world!;
    // Worker code wrote a bad setting into one walker: its update refuses it at every step.
    walkerA.settings.speed = Number.NaN;
    const steps = world.stepCount, shown = client.step, xa = walkerA.controller.position.x, xb = walkerB.controller.position.x;
    expect(() => host.tick(H)).toThrow(/^Walker: speed must be a finite number ≥ 0 \(got NaN\)$/);
    expect(world.stepCount).toBe(steps + 1);
    // b, updated after a, walked (it used to be skipped); a's refused update left it where it was.
    expect(walkerB.controller.position.x).toBeGreaterThan(xb + 1e-4);
    expect(walkerA.controller.position.x).toBe(xa);
    await barrier();
    client.update();
    expect(client.step).toBe(steps + 1);
    expect(shown).toBe(steps);
    // Two steps in one tick: a's error once, not once per step.
    let thrown: unknown = null;
    try { host.tick(2 * H); } catch (e) { thrown = e; }
    expect(thrown).toBeInstanceOf(RangeError);
    expect((thrown as Error).message).toMatch(/speed/);
    expect(world.stepCount).toBe(steps + 3);
    // Both refuse: an AggregateError with each error once.
    walkerB.settings.acceleration = -1;
    try { host.tick(H); thrown = null; } catch (e) { thrown = e; }
    expect(thrown).toBeInstanceOf(AggregateError);
    expect((thrown as AggregateError).errors.map((e: Error) => e.message)).toEqual([
      'Walker: speed must be a finite number ≥ 0 (got NaN)', 'Walker: acceleration must be a finite number ≥ 0 (got -1)',
    ]);
    expect(world.stepCount).toBe(steps + 4);
    // Repaired, the next tick steps once: the refused ticks' time was used up, not saved for a burst.
    walkerA.settings.speed = 4;
    walkerB.settings.acceleration = 40;
    expect(host.tick(H)).toBe(1);
    expect(world.stepCount).toBe(steps + 5);
    expect(client.getState(a)).toBe(STATE_GROUNDED);
  });

  it("start()'s loop reports the walker's error once, with its handle, and waits for the next step instead of spinning", async () => {
    const { host, clock, barrier, errors, a, walkerA } = await twoHeroes();
    const world = host.world!;
    const steps = world.stepCount;
    walkerA.settings.speed = Number.NaN;
    host.start();
    // 25 ms of the fake clock pass before the loop's first tick: one step, then 8.3 ms left over; the clock then stands still.
    clock.ms += 25;
    // Until the first tick (timers run late on a loaded machine), then 100 ms in which a spinning loop would step on.
    for (let waited = 0; world.stepCount === steps && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    host.stop();
    await barrier();
    // Before, the accumulator kept the refused step's time: the loop waited 0 ms and stepped and reported at every turn.
    expect(world.stepCount).toBe(steps + 1);
    expect(errors.map((e) => [e.command, e.handle, e.errorName])).toEqual([['step', a, 'RangeError']]);
    expect(errors[0]!.message).toBe('footing worker: step: Walker: speed must be a finite number ≥ 0 (got NaN)');
  });
});

describe('client arguments that are not objects', () => {
  it('applyImpulse, teleport and the queries name a null argument and send nothing', async () => {
    const { client, host, run, errors } = connect();
    await client.ready;
    const crate = client.createBody(crateAt(0, 5));
    await run(1);
    const y = host.getBody(crate)!.position.y;
    // These used to throw "Cannot read properties of null (reading 'x')".
    expect(() => client.applyImpulse(crate, null as never)).toThrow(/^applyImpulse: impulse must be a \{ x, y, z \} object \(got null\)$/);
    expect(() => client.applyImpulse(crate, { x: 0, y: 1, z: 0 }, 7 as never)).toThrow(/^applyImpulse: point must be a \{ x, y, z \} object \(got 7\)$/);
    expect(() => client.teleport(crate, null as never)).toThrow(/^teleport: position must be a \{ x, y, z \} object \(got null\)$/);
    expect(() => client.teleport(crate, { x: 0, y: 0, z: 0 }, 'up' as never)).toThrow(/^teleport: rotation must be a \{ x, y, z, w \} object \(got up\)$/);
    expect(() => client.raycast(null as never, { x: 0, y: 0, z: 0 })).toThrow(/^raycast: from must be a \{ x, y, z \} object \(got null\)$/);
    expect(() => client.raycast({ x: 0, y: 0, z: 0 }, undefined as never)).toThrow(/^raycast: to must be a \{ x, y, z \} object \(got undefined\)$/);
    expect(() => client.overlap({ kind: 'sphere', radius: 1 }, { x: 0, y: 0, z: 0 }, null as never)).toThrow(/^overlap: rotation must be a \{ x, y, z, w \} object/);
    await run(10);
    expect(errors).toEqual([]);
    // 11 steps of free fall from y = 5, as in a world of its own: nothing reached the crate.
    const twin = new World();
    const body = twin.createBody({ ...crateAt(0, 5), shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }) });
    for (let i = 0; i < 11; i++) twin.step(H);
    expect(host.getBody(crate)!.position.y).toBe(body.position.y);
    expect(host.getBody(crate)!.position.y).toBeLessThan(y);
    expect(host.getBody(crate)!.position.x).toBe(0);
  });
});
