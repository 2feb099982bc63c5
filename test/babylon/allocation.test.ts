/**
 * Allocation check of FootingCharacterController's per-frame calls
 * (checkSupportToRef, calculateMovementToRef, setVelocity, integrate), 60 Hz,
 * on the built library in a plain Node process (test/helpers/built-library.ts):
 * new-space bytes over 2000 frames after 10000 frames of warm-up, in a level
 * with steps and walls. The same wander runs a second time, in a process of
 * its own, moving footing's CharacterController directly (move, then
 * clipVelocity) instead of calling integrate: what the wrapper adds is the
 * difference. (Both measure the world's step and footing's move too: after
 * this warm-up some of move's functions still run as baseline code, about
 * 20 B per frame; test/character/allocation.test.ts measures this level after
 * a longer one.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';
import { MEASURE_SOURCE, runScenario } from '../helpers/built-library';

const root = resolve(import.meta.dirname, '../..');

async function buildEntry(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'footing-alloc-babylon-'));
  await build({
    configFile: false, logLevel: 'silent', root,
    build: {
      outDir: dir, emptyOutDir: true, minify: false,
      lib: { entry: { entry: resolve(root, 'test/helpers/babylon-character-entry.ts') }, formats: ['es'] },
    },
  });
  return dir;
}

const scenario = (viaWrapper: boolean): string => `
import { World, Box, FootingCharacterController, Vector3 } from './entry.js';
${MEASURE_SOURCE}
const DT = 1 / 60;
const world = new World();
const box = (hx, hy, hz, x, y, z) => world.createBody({ type: 'static', shape: new Box({ x: hx, y: hy, z: hz }), position: { x, y, z } });
box(20, 0.5, 20, 0, -0.5, 0);
for (let k = 0; k < 4; k++) box(1, (k + 1) * 0.1, 3, 3 + k * 0.5, (k + 1) * 0.1, 0);
box(0.2, 2, 8, -5, 2, 0);
box(8, 2, 0.2, 0, 2, 5);
const c = new FootingCharacterController(new Vector3(0, 0.95, 0), { capsuleHeight: 1.8, capsuleRadius: 0.6 }, { deltaTime: DT * 1000 }, { world });
c.maxStepHeight = 0.3;
const info = c.checkSupport(DT, new Vector3(0, -1, 0));
const down = new Vector3(0, -1, 0), up = new Vector3(0, 1, 0), fwd = new Vector3(0, 0, 1), gravity = new Vector3(0, -18, 0);
const wish = new Vector3(), out = new Vector3();
const d = { x: 0, y: 0, z: 0 }, v = { x: 0, y: 0, z: 0 };
const clock = { t: 0, supported: 0 };
const run = (n) => {
  for (let i = 0; i < n; i++) {
    clock.t += DT;
    const t = clock.t;
    world.step(DT);
    c.checkSupportToRef(DT, down, info);
    const p = c.getPosition();
    // wander, pulled back towards the middle of the level
    wish.set(6 * Math.cos(t * 0.7) - 0.8 * p.x, 0, 6 * Math.sin(t * 1.3) - 0.8 * p.z);
    if (info.supportedState === 2) {
      clock.supported++;
      c.calculateMovementToRef(DT, fwd, info.averageSurfaceNormal, c.getVelocity(), info.averageSurfaceVelocity, wish, up, out);
      if (i % 97 === 0) out.y = 6;
    } else {
      c.calculateMovementToRef(DT, fwd, up, c.getVelocity(), info.averageSurfaceVelocity, wish, up, out);
      out.y = c.getVelocity().y - 18 * DT;
    }
    if (${viaWrapper ? 'true' : 'false'}) {
      c.setVelocity(out);
      c.integrate(DT, info, gravity);
    } else {
      // what integrate does, on footing's controller directly
      d.x = out.x * DT; d.y = out.y * DT; d.z = out.z * DT;
      c.controller.move(d, DT);
      v.x = out.x; v.y = out.y; v.z = out.z;
      c.controller.clipVelocity(v);
      c.getVelocity().set(v.x, v.y, v.z);
      const q = c.controller.position;
      c.getPosition().set(q.x, q.y, q.z);
    }
  }
  return clock.supported;
};
function measure(run) {
  const overhead = emptyWindow();
  let bytes = 0, windows = 0;
  for (let attempt = 0; attempt < 80 && windows < 8; attempt++) {
    const before = newSpace();
    run(250);
    const after = newSpace();
    if (after < before) continue; // a scavenge ran in this window: measure it again
    bytes += Math.max(0, after - before - overhead);
    windows++;
  }
  return { bytes, windows, overhead };
}
run(10000);
const m = measure(run);
console.log(JSON.stringify({ ...m, supported: run(0), x: c.getPosition().x }));
`;

interface Result { bytes: number; windows: number; overhead: number; supported: number; x: number }

describe('FootingCharacterController allocation', () => {
  it('checkSupportToRef + calculateMovementToRef + setVelocity + integrate add < 4 KB of new space over 2000 frames to moving footing\'s controller directly (10000 frames of warm-up)', async () => {
    const dir = await buildEntry();
    const r = runScenario<Result>(dir, 'wrapper', scenario(true));
    const direct = runScenario<Result>(dir, 'direct', scenario(false));
    const bytes = r.bytes - direct.bytes;
    console.log(`[allocation] FootingCharacterController: ${bytes} B over 2000 frames (through the wrapper ${r.bytes} B, footing's controller directly ${direct.bytes} B; ${r.overhead} B window overhead removed); supported in ${r.supported} of 12000 frames`);
    expect(r.windows).toBe(8);
    expect(direct.windows).toBe(8);
    expect(bytes).toBeLessThan(4096);
    expect(r.supported).toBeGreaterThan(6000);
    expect(Math.abs(r.x)).toBeLessThan(5);
  });
});
