/**
 * A character's settings from the page over footing/worker: walker speed
 * and jump, controller settings, all-or-nothing refusals naming the field,
 * teleport with yaw, and crouching.
 */
import { describe, expect, it } from 'vitest';
import { STATE_GROUNDED, type BodyDescData } from '../../src/worker/index';
import { connect, H } from './connect';

const FLOOR: BodyDescData = { type: 'static', shape: { kind: 'box', halfExtents: { x: 50, y: 0.5, z: 50 } }, position: { x: 0, y: -0.5, z: 0 } };
/** Capsule radius 0.3, halfHeight 0.6: centre 0.9 above the feet, plus the 1 cm skin. */
const STAND_Y = 0.91;

async function walkingScene() {
  const c = connect();
  await c.client.ready;
  c.client.createBody(FLOOR);
  const hero = c.client.createCharacter({ position: { x: 0, y: STAND_Y, z: 0 } });
  await c.run(10);
  return { ...c, hero };
}

describe('character settings over footing/worker', () => {
  it('walks at the speed set from the page: 4 m/s, then 7 m/s', async () => {
    const { client, run, errors, hero } = await walkingScene();
    const p = { x: 0, y: 0, z: 0 };
    const walk = async (steps: number): Promise<number> => {
      const z0 = client.getPosition(hero, p).z;
      for (let i = 0; i < steps; i++) {
        client.setCharacterInput(hero, 0, 0, 1);
        await run(1);
      }
      return client.getPosition(hero, p).z - z0;
    };
    await walk(15); // up to speed (40 m/s²: 0.1 s)
    const slow = (await walk(30)) / (30 * H);
    const state = await client.setCharacterSettings(hero, { walker: { speed: 7, acceleration: 60 }, settings: { maxSlopeDegrees: 30 } });
    expect(state.walker.speed).toBe(7);
    expect(state.walker.acceleration).toBe(60);
    expect(state.walker.jumpSpeed).toBe(5);
    expect(state.settings.maxSlopeDegrees).toBe(30);
    expect(state.settings.stepHeight).toBe(0.3);
    await walk(15);
    const fast = (await walk(30)) / (30 * H);
    console.log(`[worker character] walk speed ${slow.toFixed(6)} m/s, after setCharacterSettings speed 7: ${fast.toFixed(6)} m/s`);
    // Float32 frames a few metres out: positions within 1e-6 m, speeds over 0.5 s within 5e-6 m/s.
    expect(slow).toBeCloseTo(4, 5);
    expect(fast).toBeCloseTo(7, 5);
    expect(client.getState(hero)).toBe(STATE_GROUNDED);
    expect((await client.getCharacterSettings(hero)).walker.speed).toBe(7);
    expect(errors).toEqual([]);
  });

  it('jumps as high as the jump speed set from the page: v²/2g', async () => {
    const { client, run, errors, hero } = await walkingScene();
    await client.setCharacterSettings(hero, { walker: { jumpSpeed: 7, gravity: { x: 0, y: -20, z: 0 } } });
    const p = { x: 0, y: 0, z: 0 };
    const y0 = client.getPosition(hero, p).y;
    client.setCharacterInput(hero, 0, 0, 0, true);
    let top = y0;
    for (let i = 0; i < 60; i++) {
      await run(1);
      top = Math.max(top, client.getPosition(hero, p).y);
    }
    // The walker moves by the velocity before gravity's step takes from it: Σ (v − k·g·h)·h over
    // k = 0 … v/(g·h) is v²/2g + v·h/2 = 1.225 + 0.0583 m (v/(g·h) = 21 steps, a whole number).
    const expected = (7 * 7) / (2 * 20) + (7 * H) / 2;
    console.log(`[worker character] jumpSpeed 7, gravity 20: apex ${(top - y0).toFixed(6)} m (v²/2g + vh/2 = ${expected.toFixed(6)})`);
    expect(top - y0).toBeCloseTo(expected, 5);
    expect(client.getState(hero)).toBe(STATE_GROUNDED);
    expect(errors).toEqual([]);
  });

  it('refuses a bad change whole, naming the field, and the character keeps its settings', async () => {
    const { client, run, errors, hero } = await walkingScene();
    const before = await client.getCharacterSettings(hero);
    const refusals = [
      [{ walker: { speed: -1 } }, /Walker: speed must be a finite number ≥ 0/],
      [{ settings: { maxSlopeDegrees: 20 }, walker: { airDrag: NaN } }, /airDrag/],
      [{ settings: { stepHeight: 2000 } }, /stepHeight must be in \[0, 1000\]/],
      [{ walker: { sped: 3 } }, /walker\.sped is not a setting/],
      [{ walker: { speed: '5' } }, /walker\.speed must be a number/],
      [{ walker: { gravity: null } }, /walker\.gravity must be/],
      [{ walker: { gravity: { x: 0, y: -1e9, z: 0 } } }, /gravity/],
      [{ walker: { speed: 5 }, settings: { maxIterations: 2.5 } }, /maxIterations/],
      [{ controller: {} }, /controller is not a character setting group/],
    ] as const;
    const messages: string[] = [];
    for (const [change, pattern] of refusals) {
      const error = await client.setCharacterSettings(hero, change as never).then(() => null, (e: Error) => e);
      expect(error?.message).toMatch(pattern);
      messages.push(error!.message);
    }
    console.log(`[worker character] refused: ${messages.join(' | ')}`);
    expect(await client.getCharacterSettings(hero)).toEqual(before);
    // The character still walks: nothing bad reached the walker's next update.
    await run(5);
    expect(errors).toEqual([]);
    const body = client.createBody({ type: 'static', shape: { kind: 'sphere', radius: 0.1 }, position: { x: 9, y: 0.1, z: 9 } });
    expect(() => client.setCharacterSettings(body, { walker: { speed: 1 } })).toThrow(/setCharacterSettings: handle \d+ is not a character/);
  });

  it('teleports with a yaw, resets the motion, and crouches keeping the feet in place', async () => {
    const { client, run, errors, hero, host } = await walkingScene();
    const p = { x: 0, y: 0, z: 0 }, q = { x: 0, y: 0, z: 0, w: 1 };
    for (let i = 0; i < 20; i++) {
      client.setCharacterInput(hero, 1, 0, 0);
      await run(1);
    }
    client.setCharacterInput(hero, 0, 0, 0);
    await client.teleportCharacter(hero, { x: 5, y: STAND_Y, z: -3 }, 1.25);
    const walker = host.getWalker(hero)!;
    expect([walker.velocity.x, walker.velocity.y, walker.velocity.z]).toEqual([0, 0, 0]);
    await run(5);
    client.getPosition(hero, p);
    client.getRotation(hero, q);
    console.log(`[worker character] teleported to (${p.x.toFixed(4)}, ${p.y.toFixed(4)}, ${p.z.toFixed(4)}), yaw ${(2 * Math.atan2(q.y, q.w)).toFixed(6)}`);
    expect(p.x).toBeCloseTo(5, 6);
    expect(p.z).toBeCloseTo(-3, 6);
    expect(p.y).toBeCloseTo(STAND_Y, 2);
    expect(2 * Math.atan2(q.y, q.w)).toBeCloseTo(1.25, 6);
    expect(client.getState(hero)).toBe(STATE_GROUNDED);
    // teleport() takes a rotation: a character keeps its twist about up as the yaw.
    client.teleport(hero, { x: 5, y: STAND_Y, z: -3 }, { x: 0.1, y: Math.sin(-0.35), z: 0, w: Math.cos(-0.35) });
    await run(2);
    expect(2 * Math.atan2(client.getRotation(hero, q).y, q.w)).toBeCloseTo(2 * Math.atan2(Math.sin(-0.35), Math.cos(-0.35)), 6);
    await expect(client.teleportCharacter(hero, { x: 0, y: 0, z: 0 }, NaN)).rejects.toThrow(/yaw must be a finite number/);
    await expect(client.teleportCharacter(hero, { x: 0, y: 1e9, z: 0 })).rejects.toThrow(/position must have each component within/);

    // Crouch: halfHeight 0.6 → 0.3 lowers the centre by 0.3 m with the feet where they were.
    const y0 = client.getPosition(hero, p).y;
    expect(await client.setCharacterHeight(hero, 0.3)).toBe(true);
    await run(3);
    expect(client.getPosition(hero, p).y).toBeCloseTo(y0 - 0.3, 2);
    expect((await client.getCharacterSettings(hero)).halfHeight).toBe(0.3);
    // Under a 1.5 m ceiling standing up (1.8 m) is refused and nothing changes.
    client.createBody({ type: 'static', shape: { kind: 'box', halfExtents: { x: 2, y: 0.1, z: 2 } }, position: { x: 5, y: 1.6, z: -3 } });
    expect(await client.setCharacterHeight(hero, 0.6)).toBe(false);
    expect((await client.getCharacterSettings(hero)).halfHeight).toBe(0.3);
    await expect(client.setCharacterHeight(hero, -1)).rejects.toThrow(/halfHeight must be a finite number > 0/);
    expect(errors).toEqual([]);
  });
});
