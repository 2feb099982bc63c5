/**
 * Kinematic bodies driven from the page over footing/worker: a target
 * pose per step is reached by that step, a velocity moves the body
 * without gravity, and a body resting on a driven platform is carried.
 */
import { describe, expect, it } from 'vitest';
import type { BodyDescData } from '../../src/worker/index';
import { connect, H } from './connect';

const FLOOR: BodyDescData = { type: 'static', shape: { kind: 'box', halfExtents: { x: 20, y: 0.5, z: 20 } }, position: { x: 0, y: -0.5, z: 0 } };
const PLATFORM: BodyDescData = { type: 'kinematic', shape: { kind: 'box', halfExtents: { x: 1, y: 0.1, z: 1 } }, position: { x: 0, y: 1, z: 0 }, friction: 1 };

const aboutY = (angle: number) => ({ x: 0, y: Math.sin(angle / 2), z: 0, w: Math.cos(angle / 2) });

describe('kinematic bodies over footing/worker', () => {
  it('reaches the target pose sent before each step, and carries a crate resting on it', async () => {
    const { client, run, errors } = connect();
    await client.ready;
    client.createBody(FLOOR);
    const platform = client.createBody(PLATFORM);
    const crate = client.createBody({ type: 'dynamic', shape: { kind: 'box', halfExtents: { x: 0.25, y: 0.25, z: 0.25 } }, position: { x: 0, y: 1.35, z: 0 }, mass: 5, friction: 1 });
    await run(30); // the crate settles on the platform
    const p = { x: 0, y: 0, z: 0 }, q = { x: 0, y: 0, z: 0, w: 1 };
    const crateBefore = { ...client.getPosition(crate, p) };
    let worst = 0;
    const N = 90;
    for (let k = 1; k <= N; k++) {
      const t = k * H;
      const target = { x: 0.5 * t, y: 1 + 0.2 * Math.sin(2 * t), z: 0 };
      client.setKinematicTarget(platform, target, aboutY(0.3 * t));
      await run(1);
      client.getPosition(platform, p);
      client.getRotation(platform, q);
      const r = aboutY(0.3 * t);
      worst = Math.max(worst, Math.hypot(p.x - target.x, p.y - target.y, p.z - target.z), Math.hypot(q.x - r.x, q.y - r.y, q.z - r.z, q.w - r.w));
    }
    client.getPosition(crate, p);
    console.log(`[worker kinematic] ${N} targets: worst pose error ${worst.toExponential(2)}; crate carried ${(p.x - crateBefore.x).toFixed(4)} m in x (platform 0.75 m)`);
    expect(errors).toEqual([]);
    // Float32 frames: every step ends on its target within 1e-5.
    expect(worst).toBeLessThan(1e-5);
    // Friction carries the crate with the platform: 0.5 m/s for 1.5 s, and its turn moves it a little about the axis through the platform's centre.
    expect(p.x - crateBefore.x).toBeGreaterThan(0.7);
    expect(p.x - crateBefore.x).toBeLessThan(0.8);
    expect(p.y).toBeGreaterThan(1.1);
  });

  it('moves a kinematic body by the velocity set from the page, untouched by gravity', async () => {
    const { client, run, errors } = connect();
    await client.ready;
    const lift = client.createBody({ ...PLATFORM, position: { x: 0, y: 2, z: 0 } });
    client.setVelocity(lift, { x: 1, y: 0.5, z: 0 }, { x: 0, y: 1, z: 0 });
    await run(60);
    const p = client.getPosition(lift, { x: 0, y: 0, z: 0 });
    const q = client.getRotation(lift, { x: 0, y: 0, z: 0, w: 1 });
    console.log(`[worker kinematic] velocity (1, 0.5, 0) m/s, spin 1 rad/s for 60 steps: position (${p.x.toFixed(6)}, ${p.y.toFixed(6)}), yaw ${(2 * Math.atan2(q.y, q.w)).toFixed(6)} rad`);
    expect(errors).toEqual([]);
    expect(p.x).toBeCloseTo(1, 5);
    expect(p.y).toBeCloseTo(2.5, 5);
    expect(2 * Math.atan2(q.y, q.w)).toBeCloseTo(1, 4);
  });

  it('refuses a target for a body that is not kinematic, or a bad pose, and the body stays put', async () => {
    const { client, run, errors, host, port } = connect();
    await client.ready;
    const crate = client.createBody({ type: 'dynamic', shape: { kind: 'sphere', radius: 0.5 }, position: { x: 0, y: 5, z: 0 } });
    const hero = client.createCharacter({ position: { x: 3, y: 0.92, z: 0 } });
    const lift = client.createBody(PLATFORM);
    expect(() => client.setKinematicTarget(crate, { x: 0, y: 0, z: 0 })).toThrow(/handle \d+ is a dynamic body, not a kinematic body/);
    expect(() => client.setKinematicTarget(hero, { x: 0, y: 0, z: 0 })).toThrow(/is a character/);
    expect(() => client.setKinematicTarget(lift, { x: 0, y: NaN, z: 0 })).toThrow(/setKinematicTarget: position must be finite/);
    expect(() => client.setKinematicTarget(lift, { x: 0, y: 1, z: 0 }, { x: 0, y: 0, z: 0, w: Infinity })).toThrow(/rotation/);
    // Beyond MAX_POSITION: only the worker knows the limit; it reports and leaves the body as it was.
    client.setKinematicTarget(lift, { x: 0, y: 1e300, z: 0 });
    // A good linear velocity with a bad angular one: the client refuses it at the call, and the worker refuses it whole.
    expect(() => client.setVelocity(lift, { x: 1, y: 0, z: 0 }, { x: NaN, y: 0, z: 0 })).toThrow(/^setVelocity: angular must be finite \(got \(NaN, 0, 0\)\)$/);
    port.postMessage({ type: 'setVelocity', handle: lift, linear: { x: 1, y: 0, z: 0 }, angular: { x: NaN, y: 0, z: 0 } });
    // A raw message, as another page might send: the worker refuses a dynamic body's target too.
    port.postMessage({ type: 'setKinematicTarget', handle: crate, position: { x: 0, y: 0, z: 0 } });
    // A turn with a position out of range: refused whole, the body keeps its rotation.
    client.teleport(lift, { x: 0, y: 1e300, z: 0 }, aboutY(1));
    await run(10);
    expect(errors.map((e) => e.command)).toEqual(['setKinematicTarget', 'setVelocity', 'setKinematicTarget', 'teleport']);
    expect(errors[3]!.message).toMatch(/position/);
    expect(host.getBody(lift)!.rotation.w).toBe(1);
    expect(errors[0]!.message).toMatch(/position\.y must be within/);
    expect(errors[1]!.message).toMatch(/angularVelocity/);
    expect(errors[2]!.message).toMatch(/body must be kinematic/);
    const body = host.getBody(lift)!;
    // The refused setVelocity left the linear velocity as it was too (all or nothing).
    expect([body.position.x, body.position.y, body.linearVelocity.x]).toEqual([0, 1, 0]);
  });
});
