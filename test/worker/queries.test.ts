/**
 * Shape casts and overlap queries over footing/worker (connect.ts): the
 * answers equal the World's own queries on the same scene, with bodies as
 * handles, and the filter options work by handle.
 */
import { describe, expect, it } from 'vitest';
import { Sphere, Box, World } from '../../src/index';
import { shapeFromDesc, type BodyDescData, type ShapeDesc } from '../../src/worker/index';
import { connect } from './connect';

const FLOOR: BodyDescData = { type: 'static', shape: { kind: 'box', halfExtents: { x: 10, y: 0.5, z: 10 } }, position: { x: 0, y: -0.5, z: 0 } };
const block = (x: number, group = 1): BodyDescData => ({
  type: 'static', shape: { kind: 'box', halfExtents: { x: 0.5, y: 0.5, z: 0.5 } }, position: { x, y: 0.5, z: 0 }, collisionGroup: group,
});
const SENSOR: BodyDescData = { type: 'static', isSensor: true, shape: { kind: 'sphere', radius: 0.5 }, position: { x: -2.5, y: 0.5, z: 0 } };
const IDENTITY = { x: 0, y: 0, z: 0, w: 1 };
const BALL = { kind: 'sphere', radius: 0.25 } as const;

async function scene() {
  const c = connect();
  await c.client.ready;
  const descs = [FLOOR, block(0), block(2, 2), SENSOR];
  const [floor, a, b, sensor] = descs.map((d) => c.client.createBody(d)) as [number, number, number, number];
  const world = new World();
  for (const d of descs) world.createBody({ ...d, shape: shapeFromDesc(d.shape) } as never);
  return { ...c, world, floor, a, b, sensor };
}

describe('shape casts and overlaps over footing/worker', () => {
  it('casts a shape given as data: the first block at 4.25 m, the World\'s own answer, then past excluded handles', async () => {
    const { client, world, a, b, errors } = await scene();
    const from = { x: -5, y: 0.5, z: 0 }, along = { x: 10, y: 0, z: 0 };
    const hit = await client.shapeCast(BALL, from, IDENTITY, along);
    const direct = world.shapeCast(new Sphere(0.25), from, IDENTITY, along)!;
    console.log(`[worker queries] sphere cast: handle ${hit?.handle}, distance ${hit?.distance.toFixed(6)} m, fraction ${hit?.fraction.toFixed(6)} (direct ${direct.fraction.toFixed(6)})`);
    expect(hit).not.toBeNull();
    expect(hit!.handle).toBe(a);
    // Ball centre stops at x = −0.75 (block face −0.5, radius 0.25): 4.25 m along a 10 m translation; a cast stops no later than the contact.
    expect(hit!.distance).toBeGreaterThan(4.25 - 0.01);
    expect(hit!.distance).toBeLessThanOrEqual(4.25 + 1e-9);
    expect(hit!.fraction).toBe(direct.fraction);
    expect(hit!.distance).toBeCloseTo(direct.fraction * 10, 12);
    expect(hit!.normal.x).toBeCloseTo(-1, 6);
    expect(hit!.point.x).toBeCloseTo(-0.5, 2);
    expect(hit!.child).toBe(-1);
    // The sensor on the way (x −2.5) is skipped unless asked for.
    const withSensor = await client.shapeCast(BALL, from, IDENTITY, along, { includeSensors: true });
    expect(withSensor!.distance).toBeCloseTo(5 - 2.5 - 0.75, 2);
    // Past block a (one handle), then past both (a list), then by mask (block b is in group 2).
    const pastA = await client.shapeCast(BALL, from, IDENTITY, along, { exclude: a });
    expect(pastA!.handle).toBe(b);
    expect(pastA!.distance).toBeCloseTo(6.25, 2);
    expect(await client.shapeCast(BALL, from, IDENTITY, along, { exclude: [a, b] })).toBeNull();
    expect(await client.shapeCast(BALL, from, IDENTITY, along, { exclude: a, collisionMask: ~2 >>> 0 })).toBeNull();
    // A box cast down onto the floor: 1 m above it, stops after 1 m.
    const down = await client.shapeCast({ kind: 'box', halfExtents: { x: 0.2, y: 0.2, z: 0.2 } }, { x: 5, y: 1.2, z: 0 }, IDENTITY, { x: 0, y: -3, z: 0 });
    expect(down!.distance).toBeCloseTo(1, 2);
    expect(down!.normal.y).toBeCloseTo(1, 6);
    expect(errors).toEqual([]);
  });

  it('lists the overlapped bodies by handle with the depth, as world.overlap', async () => {
    const { client, world, a, b, sensor, errors } = await scene();
    // A sphere sinking 0.2 m into the top of block a.
    const pose = { x: 0, y: 1.3, z: 0 };
    const contacts = await client.overlap({ kind: 'sphere', radius: 0.5 }, pose, IDENTITY);
    const direct = world.overlap(new Sphere(0.5), pose, IDENTITY);
    console.log(`[worker queries] overlap: ${contacts.map((c) => `${c.handle} depth ${c.depth.toFixed(6)}`).join(', ')}`);
    expect(contacts.map((c) => c.handle)).toEqual([a]);
    expect(contacts[0]!.depth).toBeCloseTo(0.2, 9);
    expect(contacts[0]!.depth).toBe(direct[0]!.depth);
    expect(contacts[0]!.normal.y).toBeCloseTo(1, 9);
    // A wide box over everything (2 cm above the floor): both blocks, and the sensor when asked.
    const wide = { kind: 'box', halfExtents: { x: 4, y: 0.2, z: 1 } } as const;
    const at = { x: 0, y: 0.22, z: 0 };
    const ids = (cs: { handle: number }[]) => [...new Set(cs.map((c) => c.handle))].sort((p, q) => p - q);
    expect(ids(await client.overlap(wide, at, IDENTITY))).toEqual([a, b]);
    expect(ids(await client.overlap(wide, at, IDENTITY, { includeSensors: true }))).toEqual([a, b, sensor]);
    expect(ids(await client.overlap(wide, at, IDENTITY, { exclude: [b] }))).toEqual([a]);
    expect(ids(await client.overlap(wide, at, IDENTITY, { collisionMask: 2 }))).toEqual([b]);
    const directWide = world.overlap(new Box({ x: 4, y: 0.2, z: 1 }), at, IDENTITY);
    expect((await client.overlap(wide, at, IDENTITY)).length).toBe(directWide.length);
    expect(await client.overlap({ kind: 'sphere', radius: 0.2 }, { x: 5, y: 3, z: 0 }, IDENTITY)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('rejects a bad shape, pose or option with the field named', async () => {
    const { client, a } = await scene();
    const mesh: ShapeDesc = { kind: 'mesh', positions: [0, 0, 0, 1, 0, 0, 0, 0, 1], indices: [0, 1, 2] };
    await expect(client.shapeCast(mesh, { x: 0, y: 2, z: 0 }, IDENTITY, { x: 0, y: -1, z: 0 })).rejects.toThrow(/shapeCast: shape must be a convex kind/);
    await expect(client.overlap({ kind: 'sphere', radius: -1 }, { x: 0, y: 2, z: 0 }, IDENTITY)).rejects.toThrow(/radius/);
    await expect(client.shapeCast(BALL, { x: 0, y: NaN, z: 0 }, IDENTITY, { x: 1, y: 0, z: 0 })).rejects.toThrow(/position/);
    await expect(client.shapeCast(BALL, { x: 0, y: 2, z: 0 }, IDENTITY, { x: Infinity, y: 0, z: 0 })).rejects.toThrow(/translation/);
    await expect(client.overlap(BALL, { x: 0, y: 2, z: 0 }, IDENTITY, { colisionMask: 1 } as never)).rejects.toThrow(/options\.colisionMask is not a query option/);
    await expect(client.overlap(BALL, { x: 0, y: 2, z: 0 }, IDENTITY, { exclude: [a, 4242] })).rejects.toThrow(/options\.exclude\[1\]/);
    await expect(client.raycast({ x: 0, y: 2, z: 0 }, { x: 0, y: -2, z: 0 }, { exclude: 'a' as never })).rejects.toThrow(/options\.exclude must be a handle/);
    // And the queries work afterwards.
    expect((await client.raycast({ x: 0, y: 2, z: 0 }, { x: 0, y: -2, z: 0 }))!.handle).toBe(a);
  });
});
