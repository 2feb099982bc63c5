/**
 * Joints over footing/worker: every kind created from the page by
 * description, stepped in the worker, equal to the same scene built and
 * stepped directly (read back in double precision through the worker's
 * snapshot); removal; breaking reported as a jointBreak event; refusals
 * rejected with the field named and the world unchanged.
 * Time step 1/60 s, default solver settings.
 */
import { describe, expect, it } from 'vitest';
import {
  BallJoint, ConeTwistJoint, DistanceJoint, FixedJoint, HingeJoint, SixDofJoint, SliderJoint, World, type Joint, type RigidBody,
} from '../../src/index';
import { shapeFromDesc, type BodyDescData, type JointDescData, type JointBreakEventData, type PhysicsWorkerError, type WorkerSnapshot } from '../../src/worker/index';
import { B_ANGULAR, B_POSITION, BODY_STRIDE, BI_ID, BODY_INTS } from '../../src/world/snapshot';
import { connect, H } from './connect';

const ANCHOR_Y = 5;
/** A static post and a dynamic bob per joint, 3 m apart along x. */
const post = (x: number): BodyDescData => ({ type: 'static', shape: { kind: 'box', halfExtents: { x: 0.1, y: 0.1, z: 0.1 } }, position: { x, y: ANCHOR_Y, z: 0 } });
const bob = (x: number, dy = 0): BodyDescData => ({ type: 'dynamic', shape: { kind: 'sphere', radius: 0.2 }, position: { x: x + 1, y: ANCHOR_Y + dy, z: 0 }, mass: 2 });

const SQRT1_2 = Math.SQRT1_2;
/** A joint description without its bodies (Omit on each member of the union). */
type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type JointSpec = Without<JointDescData, 'bodyA' | 'bodyB'>;
/** Distance fallen from rest at `accel` in n steps of semi-implicit Euler over the solver's sub-steps: a·(h/s)²·m(m+1)/2, m = s·n. */
function fallen(accel: number, n: number): number {
  const s = new World().solverSettings.subSteps, m = s * n, dt = H / s;
  return accel * dt * dt * m * (m + 1) / 2;
}
/** The joints, by the index of their pair; `a`, `b` are the post's and the bob's handles or ids. */
const JOINTS = (x: (i: number) => number): JointSpec[] => [
  { kind: 'hinge', anchor: { x: x(0), y: ANCHOR_Y, z: 0 }, axis: { x: 0, y: 0, z: 1 } },
  { kind: 'ball', anchor: { x: x(1), y: ANCHOR_Y, z: 0 } },
  { kind: 'coneTwist', anchor: { x: x(2), y: ANCHOR_Y, z: 0 }, twistAxis: { x: 1, y: 0, z: 0 }, swingLimit: 0.6, twistLower: -0.2, twistUpper: 0.2 },
  { kind: 'fixed', anchor: { x: x(3), y: ANCHOR_Y, z: 0 } },
  { kind: 'distance', anchorA: { x: x(4), y: ANCHOR_Y, z: 0 }, minLength: 0, maxLength: 1 },
  // Slides freely down a 45° line: the distance along the axis is the discrete free fall at g·sin45° (fallen).
  { kind: 'slider', anchor: { x: x(5) + 1, y: ANCHOR_Y, z: 0 }, axis: { x: SQRT1_2, y: -SQRT1_2, z: 0 } },
  // Free to drop along y to a limit 0.5 m down, everything else locked.
  { kind: 'sixDof', anchor: { x: x(6) + 1, y: ANCHOR_Y, z: 0 }, axis: { x: 0, y: 1, z: 0 }, linearX: { mode: 'limited', min: -0.5, max: 0 } },
];

/** The same joint built directly. */
function directJoint(d: JointSpec, bodyA: RigidBody, bodyB: RigidBody): Joint {
  const { kind, ...rest } = d as JointDescData;
  const desc = { ...rest, bodyA, bodyB } as never;
  switch (kind) {
    case 'hinge': return new HingeJoint(desc);
    case 'ball': return new BallJoint(desc);
    case 'coneTwist': return new ConeTwistJoint(desc);
    case 'fixed': return new FixedJoint(desc);
    case 'distance': return new DistanceJoint(desc);
    case 'slider': return new SliderJoint(desc);
    case 'sixDof': return new SixDofJoint(desc);
  }
}

/** Position of body `id` in a snapshot, double precision. */
function positionIn(s: WorkerSnapshot, id: number): { x: number; y: number; z: number } {
  const ints = s.world.bodyInts;
  for (let i = 0; i * BODY_INTS < ints.length; i++) {
    if (ints[i * BODY_INTS + BI_ID] === id) {
      const o = i * BODY_STRIDE + B_POSITION;
      return { x: s.world.bodies[o]!, y: s.world.bodies[o + 1]!, z: s.world.bodies[o + 2]! };
    }
  }
  throw new Error(`no body ${id}`);
}

describe('joints over footing/worker', () => {
  it('creates every kind from the page and steps it as a world stepped directly, within 1e-9', async () => {
    const { client, host, run, errors } = connect();
    await client.ready;
    const x = (i: number) => 3 * i;
    const pairs = JOINTS(x).map((_, i) => [client.createBody(post(x(i))), client.createBody(bob(x(i)))] as const);
    const handles = await Promise.all(JOINTS(x).map((d, i) => client.createJoint({ ...d, bodyA: pairs[i]![0], bodyB: pairs[i]![1] } as JointDescData)));
    expect(handles).toEqual([0, 2, 4, 6, 8, 10, 12]);
    expect(host.world!.joints.map((j) => j.constructor.name)).toEqual(['HingeJoint', 'BallJoint', 'ConeTwistJoint', 'FixedJoint', 'DistanceJoint', 'SliderJoint', 'SixDofJoint']);

    const world = new World();
    const direct = JOINTS(x).map((d, i) => {
      const a = world.createBody({ ...post(x(i)), shape: shapeFromDesc(post(x(i)).shape) } as never);
      const b = world.createBody({ ...bob(x(i)), shape: shapeFromDesc(bob(x(i)).shape) } as never);
      world.addJoint(directJoint(d, a, b));
      return b;
    });
    const N = 60;
    for (let i = 0; i < N; i++) world.step(H);
    await run(N);
    const snap = await client.snapshot();
    expect(errors).toEqual([]);
    // Bodies were created in the same order in both worlds: ids 2i (post) and 2i + 1 (bob).
    for (let i = 0; i < direct.length; i++) {
      const p = positionIn(snap, 2 * i + 1), q = direct[i]!.position;
      expect(Math.abs(p.x - q.x) + Math.abs(p.y - q.y) + Math.abs(p.z - q.z)).toBeLessThan(1e-9);
    }
    // The pendulum's angle from the horizontal after 1 s, worker against direct.
    const hb = positionIn(snap, 1);
    const angle = Math.atan2(ANCHOR_Y - hb.y, hb.x - x(0));
    const directAngle = Math.atan2(ANCHOR_Y - direct[0]!.position.y, direct[0]!.position.x - x(0));
    console.log(`[worker joints] hinge pendulum after ${N} steps: ${angle.toFixed(9)} rad below the horizontal (direct ${directAngle.toFixed(9)}); bob ${Math.hypot(hb.x - x(0), hb.y - ANCHOR_Y).toFixed(6)} m from the pivot`);
    expect(Math.abs(angle - directAngle)).toBeLessThan(1e-9);
    // Released level, a 1 m pendulum (period about 2.4 s at this amplitude) is past the bottom after 1 s, near the far side.
    expect(angle).toBeGreaterThan(Math.PI / 2);
    expect(angle).toBeLessThan(Math.PI);
    // The joint holds the bob within the joint solver's anchor slop (1 mm by default).
    expect(Math.abs(Math.hypot(hb.x - x(0), hb.y - ANCHOR_Y) - 1)).toBeLessThan(1.5e-3);
    // The slider: free fall along a 45° axis at g·sin45°.
    const s = positionIn(snap, 11);
    const along = ((s.x - x(5) - 1) - (s.y - ANCHOR_Y)) * SQRT1_2;
    console.log(`[worker joints] slider: ${along.toFixed(6)} m along the axis after ${N} steps (free fall at g·sin45°: ${fallen(9.81 * SQRT1_2, N).toFixed(6)} m)`);
    expect(along).toBeCloseTo(fallen(9.81 * SQRT1_2, N), 4);
    expect(Math.abs((s.x - x(5) - 1) + (s.y - ANCHOR_Y)) * SQRT1_2).toBeLessThan(1e-4); // off the axis
    // The six-DOF body hangs at its limit 0.5 m below the anchor.
    const d = positionIn(snap, 13);
    expect(d.y).toBeCloseTo(ANCHOR_Y - 0.5, 2);
    expect(d.x).toBeCloseTo(x(6) + 1, 6);
  });

  it('removes joints, and a joint of a removed body goes with it', async () => {
    const { client, host, run, errors } = connect();
    await client.ready;
    const a = client.createBody(post(0)), b = client.createBody(bob(0));
    const c = client.createBody(post(5)), d = client.createBody(bob(5));
    const hinge = await client.createJoint({ kind: 'hinge', bodyA: a, bodyB: b, anchor: { x: 0, y: ANCHOR_Y, z: 0 }, axis: { x: 0, y: 0, z: 1 } });
    const rope = await client.createJoint({ kind: 'distance', bodyA: c, bodyB: d, minLength: 0 });
    expect(host.world!.joints.length).toBe(2);
    await client.removeJoint(hinge);
    expect(host.world!.joints.length).toBe(1);
    expect(() => client.removeJoint(hinge)).toThrow(/not a live joint/);
    await run(30);
    // Without its hinge the bob fell freely: 30 steps of semi-implicit Euler.
    const fell = ANCHOR_Y - host.getBody(b)!.position.y;
    expect(fell).toBeCloseTo(fallen(9.81, 30), 9);
    client.removeBody(d);
    await run(1);
    expect(host.world!.joints.length).toBe(0);
    await client.removeJoint(rope); // already gone with its body: resolves
    expect(host.getJoint(rope)).toBeNull();
    expect(errors).toEqual([]);
  });

  it('reports a joint that breaks as a jointBreak event with its handle', async () => {
    const { client, run, errors } = connect({}, {}, false, {
      onWorld(world, h) {
        // A joint worker code adds, tracked so that its break names it (odd handle).
        const p = world.createBody({ type: 'static', shape: shapeFromDesc(post(10).shape), position: post(10).position! });
        const q = world.createBody({ type: 'dynamic', shape: shapeFromDesc(bob(10).shape), position: bob(10).position!, mass: 50 });
        h.trackJoint(world.addJoint(new BallJoint({ bodyA: p, bodyB: q, anchor: { x: 10, y: ANCHOR_Y, z: 0 }, breakImpulse: 0.5 })));
      },
    });
    const breaks: JointBreakEventData[] = [];
    client.on('jointBreak', (e) => { breaks.push({ ...e }); });
    await client.ready;
    const a = client.createBody(post(0)), b = client.createBody({ ...bob(0), mass: 20 });
    const c = client.createBody(post(5)), d = client.createBody(bob(5));
    // 20 kg swinging down from level: the joint's impulse per step grows past 1 N·s within the first swing; 50 kg past 0.5 N·s.
    const weak = await client.createJoint({ kind: 'ball', bodyA: a, bodyB: b, anchor: { x: 0, y: ANCHOR_Y, z: 0 }, breakImpulse: 1 });
    const strong = await client.createJoint({ kind: 'ball', bodyA: c, bodyB: d, anchor: { x: 5, y: ANCHOR_Y, z: 0 }, breakImpulse: 1000 });
    await run(30);
    console.log(`[worker joints] breaks: ${breaks.map((e) => `joint ${e.joint} at step ${e.step}, ${e.impulse.toFixed(3)} N·s`).join('; ')}`);
    expect(weak).toBe(0);
    expect(breaks.map((e) => e.joint).sort((p, q) => p - q)).toEqual([weak, 1]);
    expect(breaks.map((e) => e.joint)).not.toContain(strong);
    for (const e of breaks) expect(e.impulse).toBeGreaterThan(e.joint === weak ? 1 : 0.5);
    // The page may remove the worker's tracked joint too; an unknown tracked handle is refused by the worker.
    await client.removeJoint(1);
    await expect(client.removeJoint(1)).rejects.toThrow(/removeJoint: no joint with handle 1/);
    // The same breaks, at the same steps with the same impulses, as in the scene built and stepped directly.
    const world = new World();
    const seen: { joint: Joint; step: number; impulse: number }[] = [];
    world.on('jointBreak', (e) => { seen.push({ joint: e.joint, step: world.stepCount, impulse: e.impulse }); });
    const body = (d: BodyDescData, mass?: number) => world.createBody({ ...d, shape: shapeFromDesc(d.shape), ...(mass ? { mass } : {}) } as never);
    const tracked = world.addJoint(new BallJoint({ bodyA: body(post(10)), bodyB: body(bob(10), 50), anchor: { x: 10, y: ANCHOR_Y, z: 0 }, breakImpulse: 0.5 }));
    const weakDirect = world.addJoint(new BallJoint({ bodyA: body(post(0)), bodyB: body(bob(0), 20), anchor: { x: 0, y: ANCHOR_Y, z: 0 }, breakImpulse: 1 }));
    world.addJoint(new BallJoint({ bodyA: body(post(5)), bodyB: body(bob(5)), anchor: { x: 5, y: ANCHOR_Y, z: 0 }, breakImpulse: 1000 }));
    for (let i = 0; i < 30; i++) world.step(H);
    expect(seen.map((e) => (e.joint === tracked ? 1 : e.joint === weakDirect ? weak : -1))).toEqual(breaks.map((e) => e.joint));
    for (let k = 0; k < seen.length; k++) {
      expect(breaks[k]!.step).toBe(seen[k]!.step);
      expect(Math.abs(breaks[k]!.impulse - seen[k]!.impulse)).toBeLessThan(1e-9);
    }
    expect(errors).toEqual([]);
  });

  it('rejects bad joint descriptions naming the field, and the world goes on unchanged', async () => {
    const { client, host, run, errors } = connect();
    await client.ready;
    const a = client.createBody(post(0)), b = client.createBody(bob(0)), c = client.createBody(post(4));
    const refusal = (p: Promise<number>) => p.then(() => null, (e: PhysicsWorkerError) => e);
    const bad = await Promise.all([
      refusal(client.createJoint({ kind: 'hinge', bodyA: a, bodyB: b, axis: { x: 0, y: 0, z: 0 } })),
      refusal(client.createJoint({ kind: 'slider', bodyA: a, bodyB: b, axis: { x: 1, y: 0, z: 0 }, lowerLimit: 2, upperLimit: 1 })),
      refusal(client.createJoint({ kind: 'sixDof', bodyA: a, bodyB: b, angularY: { mode: 'sideways' as never } })),
      refusal(client.createJoint({ kind: 'distance', bodyA: a, bodyB: b, minLength: Number.NaN })),
      refusal(client.createJoint({ kind: 'rope', bodyA: a, bodyB: b } as never)),
      refusal(client.createJoint({ kind: 'ball', bodyA: a, bodyB: c })), // two static bodies
    ]);
    expect(bad.map((e) => e?.errorName)).toEqual(['RangeError', 'RangeError', 'RangeError', 'RangeError', 'TypeError', 'RangeError']);
    expect(bad[0]!.message).toMatch(/createJoint: .*axis/);
    expect(bad[1]!.message).toMatch(/lower/);
    expect(bad[2]!.message).toMatch(/angularY/);
    expect(bad[3]!.message).toMatch(/minLength/);
    expect(bad[4]!.message).toMatch(/joint\.kind/);
    expect(bad[5]!.message).toMatch(/dynamic/);
    expect(() => client.createJoint({ kind: 'ball', bodyA: a, bodyB: 12345 })).toThrow(/not a live body/);
    expect(host.world!.joints.length).toBe(0);
    // A good one after the refusals gets the next handle and works.
    const ok = await client.createJoint({ kind: 'ball', bodyA: a, bodyB: b, anchor: { x: 0, y: ANCHOR_Y, z: 0 } });
    await run(20);
    expect(host.world!.joints.length).toBe(1);
    expect(host.getJoint(ok)!.separation).toBeLessThan(1.5e-3);
    expect(errors).toEqual([]);
  });

  it('changes a joint\'s motor and limits from the page, all fields or none', async () => {
    const { client, host, run, errors } = connect();
    await client.ready;
    // A wheel on a vertical hinge through its centre: gravity does not turn it, the motor does.
    const wheelDesc: BodyDescData = { type: 'dynamic', shape: { kind: 'cylinder', radius: 0.5, halfHeight: 0.1 }, position: { x: 0, y: ANCHOR_Y, z: 0 }, mass: 4 };
    const hinge = { kind: 'hinge' as const, anchor: { x: 0, y: ANCHOR_Y, z: 0 }, axis: { x: 0, y: 1, z: 0 }, lowerAngle: -0.2, upperAngle: 0.2 };
    const postH = client.createBody(post(0)), wheelH = client.createBody(wheelDesc);
    const j = await client.createJoint({ ...hinge, bodyA: postH, bodyB: wheelH });
    const world = new World();
    const direct = world.addJoint(new HingeJoint({
      ...hinge, bodyA: world.createBody({ ...post(0), shape: shapeFromDesc(post(0).shape) } as never), bodyB: world.createBody({ ...wheelDesc, shape: shapeFromDesc(wheelDesc.shape) } as never),
    }));
    await run(10);
    for (let i = 0; i < 10; i++) world.step(H);
    // Limits moved past each other in one change (one at a time would be refused), the motor on.
    await client.setJoint(j, { lowerAngle: -Infinity, upperAngle: Infinity, motorSpeed: 2, maxMotorTorque: 100 });
    direct.setLimits(-Infinity, Infinity); direct.motorSpeed = 2; direct.maxMotorTorque = 100;
    const joint = host.getJoint(j) as HingeJoint;
    expect([joint.lowerAngle, joint.upperAngle, joint.motorSpeed, joint.maxMotorTorque]).toEqual([-Infinity, Infinity, 2, 100]);

    const refusal = (p: Promise<void>) => p.then(() => null, (e: PhysicsWorkerError) => e);
    const bad = await Promise.all([
      refusal(client.setJoint(j, { motorSpeed: 5, maxMotorTorque: -1 })),
      refusal(client.setJoint(j, { motorSpeed: 5, lowerAngle: 1, upperAngle: -1 })),
      refusal(client.setJoint(j, { motorSpeed: 5, speed: 1 } as never)),
      refusal(client.setJoint(j, { motorSpeed: 5, linearX: { motorSpeed: 1 } } as never)),
      refusal(client.setJoint(j, null as never)),
    ]);
    expect(bad.map((e) => e?.errorName)).toEqual(['RangeError', 'RangeError', 'RangeError', 'RangeError', 'TypeError']);
    expect(bad[0]!.message).toMatch(/HingeJoint\.maxMotorTorque/);
    expect(bad[1]!.message).toMatch(/HingeJoint\.lowerAngle/);
    expect(bad[2]!.message).toMatch(/HingeJoint\.speed is not a field/);
    expect(bad[3]!.message).toMatch(/HingeJoint\.linearX is not a field/);
    // None of the refused changes left its motorSpeed: 5 behind.
    expect([joint.motorSpeed, joint.maxMotorTorque, joint.lowerAngle]).toEqual([2, 100, -Infinity]);

    await run(60);
    for (let i = 0; i < 60; i++) world.step(H);
    const snap = await client.snapshot();
    const w = snap.world.bodies[BODY_STRIDE + B_ANGULAR + 1]!; // the wheel is body 1
    console.log(`[worker joints] hinge motor set from the page: ω = ${w.toFixed(9)} rad/s after 1 s (direct ${direct.bodyB.angularVelocity.y.toFixed(9)}), angle ${joint.angle.toFixed(6)} rad`);
    expect(Math.abs(w - direct.bodyB.angularVelocity.y)).toBeLessThan(1e-9);
    expect(w).toBeCloseTo(2, 4);
    expect(Math.abs(joint.angle - direct.angle)).toBeLessThan(1e-9);

    // A six-DOF axis is changed through a nested object; a broken joint is mended with broken: false.
    const a = client.createBody(post(5)), b = client.createBody(bob(5));
    const six = await client.createJoint({ kind: 'sixDof', bodyA: a, bodyB: b, anchor: { x: 6, y: ANCHOR_Y, z: 0 }, angularX: { mode: 'free' } });
    await client.setJoint(six, { angularX: { motor: 'velocity', motorSpeed: 1.5, maxMotorForce: 50 }, breakImpulse: 1e-3 });
    await run(1);
    const sixJoint = host.getJoint(six) as SixDofJoint;
    expect(sixJoint.angularX.motorSpeed).toBe(1.5);
    expect(sixJoint.broken).toBe(true);
    await client.setJoint(six, { broken: false, breakImpulse: Infinity });
    await run(30);
    expect(sixJoint.broken).toBe(false);
    expect((await client.snapshot()).world.bodies[3 * BODY_STRIDE + B_ANGULAR]!).toBeCloseTo(1.5, 3);
    expect(errors).toEqual([]);
  });
});
