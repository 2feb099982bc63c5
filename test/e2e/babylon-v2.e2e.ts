// End-to-end: demo/babylon-v2.html, a scene written only with Babylon's
// Physics V2 API, on FootingPlugin and on HavokPlugin (?engine=), in headless
// Chromium (software WebGL2, 5–20 fps). The same range checks for both
// engines; waits are for states, not frame counts.
import { mkdir, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { V2DemoHandle } from '../../demo/babylon-v2';
import { launchChromium } from './browser';

const VIEWPORT = { width: 960, height: 540 };
const RESULTS_DIR = resolve(import.meta.dirname, '../../test-results');
/** The page's numbers: chain links 0.6 m hung from 0.15 m below the anchor; the trigger box spans y 2–3; the bin's inside x −3…−1, z −1…1. */
const LINK = 0.6;
const ANCHOR_PIVOT = 0.15;
const TRIGGER_BOTTOM = 2;
/** Capsule centre standing on y = 0: half of its 1.8 m height, plus at most the controller's 0.05 m keepDistance and a little. */
const CHARACTER_REST_Y = 0.9;

type V2Window = Window & { __v2?: V2DemoHandle };

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe.each(['footing', 'havok'] as const)('demo/babylon-v2.html?engine=%s (Babylon Physics V2 API, headless Chromium)', (engine) => {
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    const t0 = performance.now();
    page = await browser.newPage({ viewport: VIEWPORT });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => errors.push(`request failed: ${request.url()}`));
    await page.goto(`${inject('demoUrl')}babylon-v2.html?engine=${engine}`);
    await page.waitForFunction(() => (window as V2Window).__v2?.ready === true, null, { timeout: 30_000 });
    console.log(`[e2e v2 ${engine}] page ready in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  });

  afterAll(async () => {
    await page?.close();
  });

  it('runs on the requested engine with WebGL2 and every body of the scene', async () => {
    const info = await page.evaluate(() => {
      const d = (window as V2Window).__v2!;
      return { engine: d.engine, renderer: d.renderer, bodies: d.bodyCount(), pile: d.pile.length, chain: d.chain.length };
    });
    console.log(`[e2e v2 ${engine}] ${info.renderer}; ${info.bodies} bodies (${info.pile} in the pile, ${info.chain - 1} chain links)`);
    expect(info.engine).toBe(engine);
    expect(info.pile).toBe(15);
    expect(info.chain).toBe(5);
    // ground, 4 bin walls, 15 pile bodies, the trigger, the anchor, 4 links; Havok's PhysicsCharacterController
    // adds an ANIMATED PhysicsBody of its own, FootingCharacterController's body lives in the footing world only.
    expect(info.bodies).toBe(engine === 'havok' ? 27 : 26);
  });

  it('the pile falls through the trigger and settles, every body resting on or above the ground', async () => {
    const t0 = performance.now();
    // Settled: the fastest pile body under 0.2 m/s, three polls in a row.
    await page.evaluate(() => { (window as V2Window & { __calm?: number }).__calm = 0; });
    await page.waitForFunction(() => {
      const w = window as V2Window & { __calm?: number };
      const d = w.__v2!;
      w.__calm = d.frames > 20 && d.maxPileSpeed() < 0.2 ? (w.__calm ?? 0) + 1 : 0;
      return w.__calm >= 3;
    }, null, { timeout: 45_000, polling: 200 });
    const r = await page.evaluate(() => {
      const d = (window as V2Window).__v2!;
      const p = d.positions();
      return { frames: d.frames, speed: d.maxPileSpeed(), triggers: d.triggerCount, pile: d.pile.map((n) => ({ n, ...p[n]!, h: d.minHalfExtent[n]! })) };
    });
    const clearance = Math.min(...r.pile.map((b) => b.y - b.h));
    const top = Math.max(...r.pile.map((b) => b.y));
    const inBin = r.pile.filter((b) => b.x > -3 && b.x < -1 && Math.abs(b.z) < 1).length;
    const worst = r.pile.find((b) => b.y - b.h === clearance)!;
    console.log(`[e2e v2 ${engine}] settled after ${((performance.now() - t0) / 1000).toFixed(1)} s (${r.frames} frames), max speed ${r.speed.toFixed(3)} m/s; ` +
      `trigger entered ${r.triggers}×; lowest clearance ${clearance.toFixed(4)} m (${worst.n}), highest centre ${top.toFixed(3)} m, ${inBin}/15 in the bin`);
    expect(r.triggers).toBeGreaterThanOrEqual(1);
    expect(r.triggers).toBeLessThanOrEqual(30);
    // Each centre at least its smallest half-extent above y = 0, less 1 cm of penetration.
    expect(clearance).toBeGreaterThan(-0.01);
    // Everything came down through the trigger (bottom at 2 m) and stays on the 24 × 24 m ground.
    expect(top).toBeLessThan(TRIGGER_BOTTOM);
    for (const b of r.pile) {
      expect(Math.abs(b.x)).toBeLessThan(12);
      expect(Math.abs(b.z)).toBeLessThan(12);
    }
    expect(inBin).toBeGreaterThanOrEqual(12);
  });

  it('the hinge/ball chain hangs below its anchor with its joints closed', async () => {
    let lowestLinkGap = Infinity, worstJointGap = 0, endDrop = Infinity, endReach = 0;
    for (let k = 0; k < 8; k++) {
      const s = await page.evaluate(() => {
        const d = (window as V2Window).__v2!;
        const p = d.positions();
        return d.chain.map((n) => p[n]!);
      });
      const anchor = s[0]!;
      for (let i = 1; i < s.length; i++) {
        lowestLinkGap = Math.min(lowestLinkGap, anchor.y - s[i]!.y);
        // centres of neighbouring links are one link apart when the joint between them is closed
        if (i > 1) worstJointGap = Math.max(worstJointGap, Math.abs(Math.hypot(s[i]!.x - s[i - 1]!.x, s[i]!.y - s[i - 1]!.y, s[i]!.z - s[i - 1]!.z) - LINK));
      }
      const end = s[s.length - 1]!;
      endDrop = Math.min(endDrop, anchor.y - end.y);
      endReach = Math.max(endReach, Math.hypot(end.x - anchor.x, end.y - anchor.y, end.z - anchor.z));
      await page.waitForTimeout(150);
    }
    console.log(`[e2e v2 ${engine}] chain over 8 samples: links at least ${lowestLinkGap.toFixed(3)} m below the anchor, end at least ${endDrop.toFixed(3)} m below, ` +
      `end at most ${endReach.toFixed(3)} m from it; worst link-to-link gap error ${worstJointGap.toFixed(4)} m`);
    expect(lowestLinkGap).toBeGreaterThan(0.2);
    // Released at 50°: the end swings no higher than 0.15 + 3.5 × 0.6 × cos 50° = 1.5 m below the anchor.
    expect(endDrop).toBeGreaterThan(1.2);
    expect(endReach).toBeLessThan(ANCHOR_PIVOT + 3.5 * LINK + 0.1);
    expect(worstJointGap).toBeLessThan(0.06);
  });

  it('holding A moves the character at least 1 m along −x, on the ground', async () => {
    await page.focus('#renderCanvas');
    await page.waitForFunction(() => (window as V2Window).__v2!.support === 2, null, { timeout: 10_000 });
    const before = await page.evaluate(() => (window as V2Window).__v2!.character());
    let minY = Infinity, maxY = -Infinity;
    await page.keyboard.down('a');
    const t0 = performance.now();
    while (performance.now() - t0 < 1500) {
      const p = await page.evaluate(() => (window as V2Window).__v2!.character());
      minY = Math.min(minY, p.y); maxY = Math.max(maxY, p.y);
      await page.waitForTimeout(100);
    }
    await page.keyboard.up('a');
    const held = (performance.now() - t0) / 1000;
    await page.waitForTimeout(300);
    const after = await page.evaluate(() => ({ ...(window as V2Window).__v2!.character(), support: (window as V2Window).__v2!.support }));
    minY = Math.min(minY, after.y); maxY = Math.max(maxY, after.y);
    console.log(`[e2e v2 ${engine}] A ${held.toFixed(2)} s: x ${before.x.toFixed(2)} → ${after.x.toFixed(2)}, z ${before.z.toFixed(2)} → ${after.z.toFixed(2)}, y in [${minY.toFixed(3)}, ${maxY.toFixed(3)}], support ${after.support}`);
    expect(before.x - after.x).toBeGreaterThanOrEqual(1);
    // 4 m/s while D is held (60 Hz physics steps follow the wall clock), and a frame of delay at each end
    expect(before.x - after.x).toBeLessThan(4 * (held + 0.5));
    expect(Math.abs(after.z - before.z)).toBeLessThan(0.2);
    expect(minY).toBeGreaterThan(CHARACTER_REST_Y - 0.02);
    expect(maxY).toBeLessThan(CHARACTER_REST_Y + 0.15);
    expect(after.support).toBe(2);
  });

  it('shows the engine, step time, body and trigger counts in the HUD, writes a non-blank screenshot, logs no errors', async () => {
    const hud = (await page.textContent('#hud')) ?? '';
    const ms = await page.evaluate(() => (window as V2Window).__v2!.msPerStep);
    expect(hud).toContain(engine === 'footing' ? 'FootingPlugin' : 'HavokPlugin');
    expect(hud).toMatch(/physics\s+\d+\.\d\d ms\/step/);
    expect(hud).toMatch(engine === 'havok' ? /bodies\s+27\n/ : /bodies\s+26\n/);
    expect(hud).toMatch(/trigger\s+[1-9]\d* entered/);
    expect(ms).toBeGreaterThan(0);
    await mkdir(RESULTS_DIR, { recursive: true });
    const file = resolve(RESULTS_DIR, `babylon-v2-${engine}.png`);
    await page.screenshot({ path: file });
    const size = (await stat(file)).size;
    const colours = await page.evaluate(() => {
      const src = document.getElementById('renderCanvas') as HTMLCanvasElement;
      const c = document.createElement('canvas');
      c.width = 64; c.height = 36;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(src, 0, 0, 64, 36);
      const data = ctx.getImageData(0, 0, 64, 36).data;
      const set = new Set<string>();
      for (let i = 0; i < data.length; i += 4) set.add(`${data[i]! >> 3},${data[i + 1]! >> 3},${data[i + 2]! >> 3}`);
      return set.size;
    });
    console.log(`[e2e v2 ${engine}] ${ms.toFixed(3)} ms/step; screenshot ${file}: ${size} bytes, ${colours} distinct colours in a 64×36 sample`);
    expect(size).toBeGreaterThan(20_000);
    expect(colours).toBeGreaterThan(20);
    expect(errors).toEqual([]);
  });
});
