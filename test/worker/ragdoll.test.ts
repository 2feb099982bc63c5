/**
 * Ragdolls built from the page over footing/worker: the humanoid and a
 * skeleton of one's own, their bodies streamed by handle with the poses of
 * the same ragdoll dropped in a world stepped directly, their joints
 * addressable, removal, and refusals that leave the world as it was.
 */
import { describe, expect, it } from 'vitest';
import { Box, createRagdoll, createRagdollFromDescription, World, type ConvexShape, type HingeJoint } from '../../src/index';
import { shapeFromDesc, type BodyDescData, type RagdollBoneData, type RagdollDescData } from '../../src/worker/index';
import { connect } from './connect';

const FLOOR: BodyDescData = { type: 'static', shape: { kind: 'box', halfExtents: { x: 10, y: 0.5, z: 10 } }, position: { x: 0, y: -0.5, z: 0 } };
const tilt = { x: Math.sin(0.2), y: 0, z: 0, w: Math.cos(0.2) };

describe('ragdolls from the page over footing/worker', () => {
  it('drops a humanoid built from the page onto the floor with the poses of the same drop in a direct world', async () => {
    const { client, run, errors, host } = connect();
    await client.ready;
    client.createBody(FLOOR);
    const desc: RagdollDescData = { position: { x: 0, y: 2, z: 0 }, rotation: tilt, userData: { npc: 'guard' } };
    const ragdoll = await client.createRagdoll(desc);
    expect(ragdoll.bodies.length).toBe(12);
    expect(ragdoll.joints.length).toBe(11);
    expect(ragdoll.names.slice(0, 4)).toEqual(['pelvis', 'spine', 'chest', 'head']);
    expect(ragdoll.shapes[3]).toEqual({ kind: 'sphere', radius: 0.1 });
    expect(client.getUserData(ragdoll.bodies[0]!)).toEqual({ npc: 'guard' });

    const world = new World();
    world.createBody({ ...FLOOR, shape: new Box({ x: 10, y: 0.5, z: 10 }) } as never);
    const direct = createRagdoll(world, { position: { x: 0, y: 2, z: 0 }, rotation: tilt });
    for (let i = 0; i < 180; i++) world.step(1 / 60);
    await run(180);

    const p = { x: 0, y: 0, z: 0 }, q = { x: 0, y: 0, z: 0, w: 1 };
    let worst = 0, lowest = Infinity;
    ragdoll.bodies.forEach((h, i) => {
      client.getPosition(h, p);
      client.getRotation(h, q);
      const b = direct.bodies[i]!;
      const dq = Math.min(Math.hypot(q.x - b.rotation.x, q.y - b.rotation.y, q.z - b.rotation.z, q.w - b.rotation.w),
        Math.hypot(q.x + b.rotation.x, q.y + b.rotation.y, q.z + b.rotation.z, q.w + b.rotation.w));
      worst = Math.max(worst, Math.hypot(p.x - b.position.x, p.y - b.position.y, p.z - b.position.z), dq);
      lowest = Math.min(lowest, p.y);
    });
    const pelvis = client.getPosition(ragdoll.bodies[0]!, p).y;
    console.log(`[worker ragdoll] 12 bones after a 3 s drop from 2 m: pelvis at ${pelvis.toFixed(4)} m, lowest bone centre ${lowest.toFixed(4)} m, worst difference from the direct drop ${worst.toExponential(2)}`);
    expect(errors).toEqual([]);
    // Float32 frames of the same simulation.
    expect(worst).toBeLessThan(1e-5);
    // Collapsed onto the floor: every bone centre above it, the pelvis below standing height (1.0 m).
    expect(lowest).toBeGreaterThan(0.03);
    expect(pelvis).toBeLessThan(0.35);
    // The bodies are the worker's: host.getBody reaches them, and their userData is the page's copy.
    expect(host.getBody(ragdoll.bodies[0]!)!.userData).toEqual({ npc: 'guard' });
  });

  it('builds a skeleton of one\'s own from data, takes setJoint on its joints, and removes it whole', async () => {
    const { client, run, errors, host } = connect({ gravity: { x: 0, y: 0, z: 0 } });
    await client.ready;
    const bones: RagdollBoneData[] = [
      { name: 'upper', shape: { kind: 'box', halfExtents: { x: 0.1, y: 0.3, z: 0.1 } }, parent: null, position: { x: 0, y: 0, z: 0 } },
      {
        name: 'lower', shape: { kind: 'capsule', radius: 0.08, halfHeight: 0.2 }, parent: 'upper', position: { x: 0, y: -0.62, z: 0 },
        joint: { type: 'hinge', anchor: { x: 0, y: -0.31, z: 0 }, axis: { x: 1, y: 0, z: 0 }, lowerAngle: -3, upperAngle: 3 },
      },
    ];
    const arm = await client.createRagdoll({ position: { x: 0, y: 3, z: 0 }, bones });
    expect(arm.names).toEqual(['upper', 'lower']);
    expect(arm.shapes[1]).toEqual({ kind: 'capsule', radius: 0.08, halfHeight: 0.2 });
    expect(arm.joints.length).toBe(1);
    expect(arm.joints[0]! % 2).toBe(1);
    // A motor on its elbow, from the page, and the same skeleton and motor in a world stepped directly.
    await client.setJoint(arm.joints[0]!, { motorSpeed: 2, maxMotorTorque: 50 });
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const direct = createRagdollFromDescription(world, bones.map((b) => ({ ...b, shape: shapeFromDesc(b.shape) as ConvexShape })), { position: { x: 0, y: 3, z: 0 } });
    const elbow = direct.joints[0] as HingeJoint;
    elbow.motorSpeed = 2; elbow.maxMotorTorque = 50;
    for (let i = 0; i < 30; i++) world.step(1 / 60);
    await run(30);
    const lower = host.getBody(arm.bodies[1]!)!, upper = host.getBody(arm.bodies[0]!)!;
    const relative = lower.angularVelocity.x - upper.angularVelocity.x;
    const directRelative = direct.bodies[1]!.angularVelocity.x - direct.bodies[0]!.angularVelocity.x;
    console.log(`[worker ragdoll] own skeleton: elbow motor 2 rad/s from the page, relative spin ${relative.toFixed(9)} rad/s (direct ${directRelative.toFixed(9)})`);
    expect(Math.abs(relative - directRelative)).toBeLessThan(1e-9);
    // The motor drives the elbow at its speed, less the soft joint's lag (angular damping 0.1 on the bones).
    expect(relative).toBeGreaterThan(1.99);
    expect(relative).toBeLessThan(2.0001);
    expect(client.has(arm.bodies[1]!)).toBe(true);

    await client.removeRagdoll(arm.handle);
    await run(1);
    expect(host.world!.bodies.length).toBe(0);
    expect(host.world!.joints.length).toBe(0);
    expect(client.has(arm.bodies[0]!)).toBe(false);
    expect(() => client.applyImpulse(arm.bodies[0]!, { x: 1, y: 0, z: 0 })).toThrow(/not a live body/);
    expect(() => client.removeRagdoll(arm.handle)).toThrow(/not a live ragdoll handle/);
    expect(errors).toEqual([]);
  });

  it('refuses a bad description with the field named and adds nothing to the world', async () => {
    const { client, run, errors, host } = connect();
    await client.ready;
    client.createBody(FLOOR);
    await run(1);
    const bodies = host.world!.bodies.length;
    const bad: [RagdollDescData, RegExp][] = [
      [{ position: { x: 0, y: NaN, z: 0 } }, /position/],
      [{ position: { x: 0, y: 2, z: 0 }, scale: -1 }, /scale must be in \[0.001, 1000\] \(got -1\)/],
      [{ position: { x: 0, y: 2, z: 0 }, friction: -1 }, /friction/],
      [{ position: { x: 0, y: 2, z: 0 }, colour: 'red' } as never, /colour is not a ragdoll option/],
      [{} as never, /position must be a \{ x, y, z \} object/],
      // The second bone names a parent that does not exist: the first bone's body was already in the world.
      [{
        position: { x: 0, y: 2, z: 0 }, bones: [
          { name: 'a', shape: { kind: 'sphere', radius: 0.1 }, parent: null, position: { x: 0, y: 0, z: 0 } },
          { name: 'b', shape: { kind: 'sphere', radius: 0.1 }, parent: 'nobody', position: { x: 0, y: 0.3, z: 0 }, joint: { type: 'ball', anchor: { x: 0, y: 0.15, z: 0 } } },
        ],
      }, /names parent 'nobody'/],
      [{ position: { x: 0, y: 2, z: 0 }, bones: [{ name: 'a', shape: { kind: 'mesh', positions: [0, 0, 0, 1, 0, 0, 0, 0, 1], indices: [0, 1, 2] }, parent: null, position: { x: 0, y: 0, z: 0 } }] }, /bones\[0\]: shape must be a convex kind/],
    ];
    const messages: string[] = [];
    for (const [desc, pattern] of bad) {
      const error = await client.createRagdoll(desc).then(() => null, (e: Error) => e);
      expect(error?.message).toMatch(pattern);
      messages.push(error!.message);
    }
    console.log(`[worker ragdoll] refused: ${messages.join(' | ')}`);
    expect(host.world!.bodies.length).toBe(bodies);
    expect(host.world!.joints.length).toBe(0);
    // A good one still builds afterwards.
    expect((await client.createRagdoll({ position: { x: 0, y: 2, z: 0 } })).bodies.length).toBe(12);
    expect(errors).toEqual([]);
  });
});
