/**
 * World events over footing/worker: contact and sensor events with the
 * bodies as handles, the same count, steps and impulses as the same scene
 * stepped directly with listeners on the World; subscription per kind.
 * Time step 1/60 s, default solver settings.
 */
import { describe, expect, it } from 'vitest';
import { Box, World, type RigidBody } from '../../src/index';
import { shapeFromDesc, type BodyDescData, type ContactEventData, type SensorEventData } from '../../src/worker/index';
import { connect } from './connect';

const H = 1 / 60;
const FLOOR: BodyDescData = { type: 'static', shape: { kind: 'box', halfExtents: { x: 10, y: 0.5, z: 10 } }, position: { x: 0, y: -0.5, z: 0 } };
const crateAt = (x: number, y: number): BodyDescData => ({ type: 'dynamic', shape: { kind: 'box', halfExtents: { x: 0.5, y: 0.5, z: 0.5 } }, position: { x, y, z: 0 }, mass: 10 });
/** A sensor slab 1 m above the floor; a small ball falls through it onto the floor. */
const SENSOR: BodyDescData = { type: 'static', isSensor: true, shape: { kind: 'box', halfExtents: { x: 1, y: 0.1, z: 1 } }, position: { x: 6, y: 1, z: 0 } };
const BALL: BodyDescData = { type: 'dynamic', shape: { kind: 'sphere', radius: 0.2 }, position: { x: 6, y: 3, z: 0 }, mass: 1 };

describe('events over footing/worker', () => {
  it('forwards contact and sensor events with handles, as a world stepped directly raises them', async () => {
    const { client, run, errors } = connect();
    const begins: ContactEventData[] = [];
    const ends: ContactEventData[] = [];
    const sensor: (SensorEventData & { kind: string })[] = [];
    client.on('contactBegin', (e) => { begins.push({ ...e, point: { ...e.point }, normal: { ...e.normal } }); });
    client.on('contactEnd', (e) => { ends.push({ ...e, point: { ...e.point }, normal: { ...e.normal } }); });
    client.on('sensorEnter', (e) => { sensor.push({ ...e, kind: 'enter' }); });
    client.on('sensorExit', (e) => { sensor.push({ ...e, kind: 'exit' }); });
    await client.ready;
    const descs = [FLOOR, crateAt(-3, 1), crateAt(0, 2), crateAt(3, 3), SENSOR, BALL];
    const handles = descs.map((d) => client.createBody(d));

    const world = new World();
    const bodies = descs.map((d) => world.createBody({ ...d, shape: shapeFromDesc(d.shape) } as never));
    const handleOf = (b: RigidBody) => handles[bodies.indexOf(b)]!;
    const direct = { begins: [] as ContactEventData[], ends: 0, sensor: [] as string[] };
    world.on('contactBegin', (e) => {
      direct.begins.push({ step: world.stepCount, bodyA: handleOf(e.bodyA), bodyB: handleOf(e.bodyB), point: { ...e.point }, normal: { ...e.normal }, impulse: e.impulse, childA: e.childA, childB: e.childB, userDataA: undefined, userDataB: undefined });
    });
    world.on('contactEnd', () => { direct.ends++; });
    world.on('sensorEnter', (e) => { direct.sensor.push(`enter ${world.stepCount} ${handleOf(e.sensor)} ${handleOf(e.body)}`); });
    world.on('sensorExit', (e) => { direct.sensor.push(`exit ${world.stepCount} ${handleOf(e.sensor)} ${handleOf(e.body)}`); });
    for (let i = 0; i < 120; i++) world.step(H);
    await run(120);

    console.log(`[worker events] 120 steps: ${begins.length} contactBegin (direct ${direct.begins.length}), ${ends.length} contactEnd (direct ${direct.ends}), sensor ${sensor.map((e) => `${e.kind}@${e.step}`).join(' ')}`);
    expect(errors).toEqual([]);
    // Three crates and the ball land on the floor; nothing else touches.
    expect(begins.length).toBe(4);
    expect(direct.begins.length).toBe(4);
    expect(ends.length).toBe(direct.ends);
    for (let k = 0; k < begins.length; k++) {
      const e = begins[k]!, d = direct.begins[k]!;
      expect([e.step, e.bodyA, e.bodyB, e.childA, e.childB]).toEqual([d.step, d.bodyA, d.bodyB, d.childA, d.childB]);
      expect(Math.abs(e.impulse - d.impulse)).toBeLessThan(1e-9);
      expect(Math.hypot(e.point.x - d.point.x, e.point.y - d.point.y, e.point.z - d.point.z)).toBeLessThan(1e-9);
      expect(Math.hypot(e.normal.x - d.normal.x, e.normal.y - d.normal.y, e.normal.z - d.normal.z)).toBeLessThan(1e-9);
      expect([e.bodyA, e.bodyB]).toContain(handles[0]);
      expect(Math.abs(e.normal.y)).toBeCloseTo(1, 6);
    }
    // The crate from 1 m lands first (0.5 m of fall: about 0.32 s, step 20).
    expect(begins[0]!.step).toBeGreaterThanOrEqual(18);
    expect(begins[0]!.step).toBeLessThanOrEqual(22);
    // The ball passes through the sensor once.
    expect(sensor.map((e) => `${e.kind} ${e.step} ${e.sensor} ${e.body}`)).toEqual(direct.sensor);
    expect(sensor.map((e) => e.kind)).toEqual(['enter', 'exit']);
    expect(sensor[0]!.sensor).toBe(handles[4]);
    expect(sensor[0]!.body).toBe(handles[5]);
  });

  it('sends only subscribed kinds, stops after the last listener goes, and names bodies it has no handle for −1', async () => {
    const { client, host, run, errors } = connect({}, {}, false, {
      onWorld(world) {
        world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
      },
    });
    await client.ready;
    const seen: string[] = [];
    const listener = (e: ContactEventData) => { seen.push(`${e.bodyA},${e.bodyB}`); };
    const off = client.on('contactBegin', listener);
    const second = client.on('contactBegin', () => { seen.push('second'); });
    expect(() => client.on('contactStart' as never, () => {})).toThrow(/unknown event/);
    const a = client.createBody(crateAt(0, 0.6));
    await run(10);
    expect(seen).toEqual([`-1,${a}`, 'second']);
    off();
    second();
    client.createBody(crateAt(3, 0.6));
    await run(10);
    expect(seen.length).toBe(2);
    // The worker no longer listens: its World has no contactBegin listener left, so it queues none.
    let more = 0;
    host.world!.on('contactBegin', () => { more++; });
    client.createBody(crateAt(-3, 0.6));
    await run(10);
    expect(more).toBe(1);
    expect(seen.length).toBe(2);
    // A removed body's contacts end in the next step, and the event still names it by its (now dead) handle.
    const ends: number[][] = [];
    client.on('contactEnd', (e) => { ends.push([e.bodyA, e.bodyB]); });
    client.removeBody(a);
    await run(1);
    expect(ends).toEqual([[-1, a]]);
    expect(errors).toEqual([]);
  });
});
