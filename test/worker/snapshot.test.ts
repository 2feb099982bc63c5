/**
 * Snapshots over footing/worker: the worker's snapshot (world and walkers)
 * comes back as typed arrays bit-identical to the same scene's snapshot
 * taken directly; restoring it from the page and replaying the same input
 * gives the same state bit for bit; a snapshot that does not fit is refused
 * as a SnapshotError and leaves the world and the characters as they were.
 * Time step 1/60 s, default settings.
 */
import { describe, expect, it } from 'vitest';
import { HingeJoint, World } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { shapeFromDesc, type BodyDescData, type PhysicsWorkerError, type WorkerSnapshot } from '../../src/worker/index';
import { connect, H } from './connect';

const FLOOR: BodyDescData = { type: 'static', shape: { kind: 'box', halfExtents: { x: 10, y: 0.5, z: 10 } }, position: { x: 0, y: -0.5, z: 0 } };
const crateAt = (x: number, y: number): BodyDescData => ({ type: 'dynamic', shape: { kind: 'box', halfExtents: { x: 0.5, y: 0.5, z: 0.5 } }, position: { x, y, z: 3 }, mass: 10 });
const POST: BodyDescData = { type: 'static', shape: { kind: 'box', halfExtents: { x: 0.1, y: 0.1, z: 0.1 } }, position: { x: -4, y: 4, z: 0 } };
const BOB: BodyDescData = { type: 'dynamic', shape: { kind: 'sphere', radius: 0.2 }, position: { x: -3, y: 4, z: 0 }, mass: 2 };
const BODIES = [FLOOR, crateAt(2, 0.5), crateAt(2, 1.5), crateAt(2.2, 2.6), POST, BOB];
const HERO = { position: { x: 0, y: 0.92, z: -2 }, walker: { speed: 4 } };
/** The walk input of step k: forward, then turning right. */
const input = (k: number) => (k < 40 ? { x: 0, z: 1 } : { x: 1, z: 0.2 });

/** Every typed array of a snapshot, in a fixed order. */
function arraysOf(s: WorkerSnapshot): (Float64Array | Int32Array)[] {
  const w = s.world;
  const out: (Float64Array | Int32Array)[] = [w.world, w.bodies, w.bodyInts, w.contacts, w.contactInts, w.broadphaseInts, w.broadphaseBounds, w.joints, w.jointInts];
  for (const c of s.characters) out.push(c.walker.f64, c.walker.i32, c.walker.controller.f64, c.walker.controller.i32);
  return out;
}

/** Number of arrays whose bytes differ (0: bit-identical). */
function differing(a: WorkerSnapshot, b: WorkerSnapshot): number {
  const x = arraysOf(a), y = arraysOf(b);
  if (x.length !== y.length) return Infinity;
  let n = 0;
  for (let i = 0; i < x.length; i++) {
    if (x[i]!.constructor !== y[i]!.constructor || !Buffer.from(x[i]!.buffer, x[i]!.byteOffset, x[i]!.byteLength).equals(Buffer.from(y[i]!.buffer, y[i]!.byteOffset, y[i]!.byteLength))) n++;
  }
  return n;
}

async function scene() {
  const link = connect();
  const { client } = link;
  await client.ready;
  const handles = BODIES.map((d) => client.createBody(d));
  const hinge = await client.createJoint({ kind: 'hinge', bodyA: handles[4]!, bodyB: handles[5]!, anchor: { x: -4, y: 4, z: 0 }, axis: { x: 0, y: 0, z: 1 } });
  const hero = client.createCharacter(HERO);
  /** Steps from step `from` to `to`, sending each step's input first. */
  const walk = async (from: number, to: number) => {
    for (let k = from; k < to; k++) {
      const v = input(k);
      client.setCharacterInput(hero, v.x, 0, v.z);
      await link.run(1);
    }
  };
  return { ...link, handles, hinge, hero, walk };
}

describe('snapshots over footing/worker', () => {
  it('returns the worker\'s state as typed arrays, bit-identical to the same scene snapshotted directly', async () => {
    const { client, walk, hero, errors } = await scene();
    await walk(0, 30);
    const s = await client.snapshot();
    expect(s.world.bodies).toBeInstanceOf(Float64Array);
    expect(s.world.bodyInts).toBeInstanceOf(Int32Array);
    expect(s.characters.map((c) => c.handle)).toEqual([hero]);

    const world = new World();
    const bodies = BODIES.map((d) => world.createBody({ ...d, shape: shapeFromDesc(d.shape) } as never));
    world.addJoint(new HingeJoint({ bodyA: bodies[4]!, bodyB: bodies[5]!, anchor: { x: -4, y: 4, z: 0 }, axis: { x: 0, y: 0, z: 1 } }));
    const walker = new Walker(new CharacterController(world, { position: HERO.position }), HERO.walker);
    for (let k = 0; k < 30; k++) {
      const v = input(k);
      walker.setInput(v.x, 0, v.z);
      world.step(H);
      walker.update(H);
    }
    const direct: WorkerSnapshot = { world: world.snapshot(), characters: [{ handle: hero, walker: walker.snapshot() }] };
    console.log(`[worker snapshot] ${arraysOf(s).length} arrays, ${arraysOf(s).reduce((n, a) => n + a.byteLength, 0)} bytes; differing from the direct scene's: ${differing(s, direct)}`);
    expect(differing(s, direct)).toBe(0);
    expect(walker.controller.position.z).toBeGreaterThan(-2 + 0.5); // it walked
    expect(errors).toEqual([]);
  });

  it('restores a snapshot from the page: the same input replayed gives the same state bit for bit', async () => {
    const { client, host, walk, handles, barrier, errors } = await scene();
    await walk(0, 30);
    const s30 = await client.snapshot();
    const crateAt30 = client.getPosition(handles[3]!, { x: 0, y: 0, z: 0 });
    await walk(30, 75);
    const s75 = await client.snapshot();
    // The controller snapshot starts with the character's position.
    const p30 = s30.characters[0]!.walker.controller.f64, p75 = s75.characters[0]!.walker.controller.f64;
    const moved = Math.hypot(p75[0]! - p30[0]!, p75[2]! - p30[2]!);
    expect(moved).toBeGreaterThan(1);

    await client.restore(s30);
    expect(host.world!.stepCount).toBe(30);
    // The restored poses come as two frames of the same time: drawn at once, no interpolation from step 75.
    await barrier();
    client.update();
    expect(client.step).toBe(30);
    expect(client.alpha).toBe(1);
    expect(client.getPosition(handles[3]!, { x: 0, y: 0, z: 0 })).toEqual(crateAt30);

    await walk(30, 75);
    const again = await client.snapshot();
    console.log(`[worker snapshot] restored step 30 and replayed 45 steps: ${differing(again, s75)} arrays differ from the first run's (the character had walked ${moved.toFixed(3)} m)`);
    expect(differing(again, s75)).toBe(0);
    // The copy sent to the worker leaves the page's snapshot usable: restore it again, this time by transfer.
    await client.restore(s30, { transfer: true });
    expect(s30.world.bodies.byteLength).toBe(0);
    expect(host.world!.stepCount).toBe(30);
    expect(errors).toEqual([]);
  });

  it('refuses a snapshot that does not fit, and the world and the characters stay as they were', async () => {
    const { client, walk, errors } = await scene();
    await walk(0, 20);
    const good = await client.snapshot();
    await walk(20, 25);
    const before = await client.snapshot();
    const refusal = (s: WorkerSnapshot) => client.restore(s).then(() => null, (e: PhysicsWorkerError) => e);

    // Another world: one body fewer.
    const other = connect();
    await other.client.ready;
    BODIES.slice(1).forEach((d) => other.client.createBody(d));
    const foreign = await other.client.snapshot();
    // The world fits but the walker's state has a NaN: the world is restored, then rolled back.
    const nanWalker = structuredClone(good) as WorkerSnapshot;
    nanWalker.characters[0]!.walker.f64[0] = Number.NaN;
    const noCharacters: WorkerSnapshot = { world: structuredClone(good.world), characters: [] };
    const truncated = structuredClone(good) as WorkerSnapshot;
    (truncated.world as { bodies: Float64Array }).bodies = truncated.world.bodies.subarray(0, 10);

    const bad = [await refusal({ ...foreign, characters: good.characters }), await refusal(nanWalker), await refusal(noCharacters), await refusal(truncated), await refusal(null as never)];
    console.log(`[worker snapshot] refused: ${bad.map((e) => e?.message).join(' | ')}`);
    expect(bad.map((e) => e?.errorName)).toEqual(['SnapshotError', 'SnapshotError', 'SnapshotError', 'SnapshotError', 'SnapshotError']);
    expect(bad[0]!.message).toMatch(/bod/);
    expect(bad[1]!.message).toMatch(/Walker\.restore: value 0 is NaN/);
    expect(bad[2]!.message).toMatch(/0 characters, the worker 1/);
    expect(bad[3]!.message).toMatch(/bodies has 10 numbers/);
    const after = await client.snapshot();
    expect(differing(after, before)).toBe(0);
    // And it steps on: the good snapshot still restores.
    await client.restore(good);
    await walk(20, 25);
    expect(differing(await client.snapshot(), before)).toBe(0);
    expect(errors).toEqual([]);
  });
});
