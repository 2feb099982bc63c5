// End-to-end: the demo level in both modes, the physics on the main thread
// (default) and in a Web Worker (`?worker`), driven the same way in headless
// Chromium (software WebGL2). Physical checks are ranges; waits are for
// states. Also measures the main thread's JS time per frame in both modes
// (docs/worker.md); that is logged, not asserted (it is not a benchmark).
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FootingDemoHandle } from '../../demo/types';
import type { FootingWorkerDemoHandle } from '../../demo/worker-mode';
import { launchChromium } from './browser';

/** Small: SwiftShader shares the two cores with the worker and the main thread. */
const VIEWPORT = { width: 480, height: 270 };
const RESULTS_DIR = resolve(import.meta.dirname, '../../test-results');
const TIMING_VIEWPORT = { width: 320, height: 180 };
/** Capsule centre height standing on y = 0: radius 0.3 + half height 0.6 + skin 0.01. */
const REST_Y = 0.91;
/** The crate stack (level-data.ts): 4 crates of 0.6 m at (−1.6, ·, 13). */
const STACK = { x: -1.6, z: 13, ys: [0.3, 0.9, 1.5, 2.1] };

type Mode = 'main' | 'worker';
type DemoWindow = Window & { footingDemo?: FootingDemoHandle; footingWorkerDemo?: FootingWorkerDemoHandle };

/** What the tests read, the same in both modes. */
interface Probe { x: number; y: number; z: number; state: string; stack: { x: number; y: number; z: number }[] }

function probe(mode: Mode): Probe {
  const w = window as DemoWindow;
  const near = (b: { x: number; z: number }): boolean => Math.abs(b.x - -1.6) < 0.4 && Math.abs(b.z - 13) < 0.4;
  if (mode === 'worker') {
    const d = w.footingWorkerDemo!;
    const stack = d.bodies().filter((b) => b.tag.kind === 'prop' && b.tag.material === 'crate' && near(b)).map(({ x, y, z }) => ({ x, y, z }));
    return { ...d.character(), stack };
  }
  const d = w.footingDemo!;
  const p = d.character.position;
  const stack = d.world.bodies.filter((b) => b.isDynamic && near(b.position)).map((b) => ({ x: b.position.x, y: b.position.y, z: b.position.z }));
  return { x: p.x, y: p.y, z: p.z, state: d.walker.state, stack };
}

describe('footing demo level in both modes (headless Chromium)', () => {
  let browser: Browser;
  const errors: string[] = [];

  async function open(mode: Mode, viewport = VIEWPORT): Promise<Page> {
    const page = await browser.newPage({ viewport });
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`${mode} console.error: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`${mode} page error: ${e.message}`));
    await page.goto(mode === 'worker' ? `${inject('demoUrl')}?worker` : inject('demoUrl'));
    await page.waitForFunction((m) => {
      const w = window as DemoWindow;
      return (m === 'worker' ? w.footingWorkerDemo : w.footingDemo)?.ready === true;
    }, mode, { timeout: 30_000 });
    await page.focus('#renderCanvas');
    return page;
  }

  const read = (page: Page, mode: Mode): Promise<Probe> => page.evaluate(`(${probe.toString()})(${JSON.stringify(mode)})`) as Promise<Probe>;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  for (const mode of ['main', 'worker'] as const) {
    it(`${mode}: W walks the character forward, the crate stack rests, no console errors`, async () => {
      const page = await open(mode);
      try {
        if (mode === 'worker') {
          const info = await page.evaluate(() => {
            const d = (window as DemoWindow).footingWorkerDemo!;
            const bodies = d.bodies();
            return { bodies: bodies.length, platforms: bodies.filter((b) => b.tag.kind === 'platform').length, ragdoll: bodies.filter((b) => b.tag.kind === 'prop' && b.tag.material === 'ragdoll').length, hud: document.getElementById('hud')!.textContent ?? '' };
          });
          console.log(`[e2e demo-worker] worker mode: ${info.bodies} bodies streamed (${info.platforms} platforms, ${info.ragdoll} ragdoll parts)`);
          // 2 platforms + 15 pyramid boxes + 5 crates + seesaw (pivot, plank, crate) + 2 ragdolls × 12
          expect(info.bodies).toBe(2 + 15 + 5 + 3 + 24);
          expect(info.platforms).toBe(2);
          expect(info.hud).toContain('Web Worker');
          expect(info.hud).toContain('not available');
        }
        await page.evaluate(([m, y]) => {
          const w = window as DemoWindow;
          const d = m === 'worker' ? w.footingWorkerDemo! : w.footingDemo!;
          d.setCameraYaw(0);
          d.teleport(0, y!, 0);
        }, [mode, REST_Y + 0.02] as const);
        await page.waitForFunction(`(${probe.toString()})(${JSON.stringify(mode)}).state === 'grounded' && Math.abs((${probe.toString()})(${JSON.stringify(mode)}).z) < 0.05`, null, { timeout: 10_000, polling: 100 });
        const before = await read(page, mode);
        await page.keyboard.down('w');
        await page.waitForTimeout(2000);
        await page.keyboard.up('w');
        await page.waitForTimeout(300);
        const after = await read(page, mode);
        console.log(`[e2e demo-worker] ${mode}: W 2 s moved z ${before.z.toFixed(2)} → ${after.z.toFixed(2)} (x ${after.x.toFixed(2)}, y ${after.y.toFixed(3)}, ${after.state})`);
        // walk speed 4 m/s: about 8 m in 2 s, less the frames before the key press shows and the stop
        expect(after.z - before.z).toBeGreaterThan(3);
        expect(after.z - before.z).toBeLessThan(10);
        expect(Math.abs(after.x - before.x)).toBeLessThan(0.3);
        expect(Math.abs(after.y - REST_Y)).toBeLessThan(0.03);
        expect(after.state).toBe('grounded');

        // The stack has had the load time and the walk to settle; it must be resting in place.
        const s0 = (await read(page, mode)).stack;
        await page.waitForTimeout(1000);
        const s1 = (await read(page, mode)).stack;
        const ys = s1.map((b) => b.y).sort((a, b) => a - b);
        let drift = 0;
        for (let i = 0; i < s1.length; i++) drift = Math.max(drift, Math.hypot(s1[i]!.x - s0[i]!.x, s1[i]!.y - s0[i]!.y, s1[i]!.z - s0[i]!.z));
        console.log(`[e2e demo-worker] ${mode}: stack heights ${ys.map((y) => y.toFixed(3)).join(', ')}; drift over 1 s ${(drift * 1000).toFixed(2)} mm`);
        expect(ys.length).toBe(STACK.ys.length);
        ys.forEach((y, i) => expect(Math.abs(y - STACK.ys[i]!)).toBeLessThan(0.03));
        for (const b of s1) expect(Math.hypot(b.x - STACK.x, b.z - STACK.z)).toBeLessThan(0.05);
        expect(drift).toBeLessThan(0.005);
        await mkdir(RESULTS_DIR, { recursive: true });
        await page.screenshot({ path: resolve(RESULTS_DIR, `demo-${mode}.png`) });
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }

  it('main-thread JS per frame, both modes (logged for docs/worker.md)', async () => {
    const results: string[] = [];
    for (const mode of ['main', 'worker', 'main', 'worker'] as const) {
      const page = await open(mode, TIMING_VIEWPORT);
      try {
        // Start from the same state: the character walking forward from the spawn.
        await page.evaluate((m) => {
          const w = window as DemoWindow;
          const d = m === 'worker' ? w.footingWorkerDemo! : w.footingDemo!;
          d.setCameraYaw(0);
          d.resetFrameMs();
        }, mode);
        await page.keyboard.down('w');
        await page.waitForTimeout(3000);
        await page.keyboard.up('w');
        const ms = await page.evaluate((m) => {
          const w = window as DemoWindow;
          const d = m === 'worker' ? w.footingWorkerDemo! : w.footingDemo!;
          return { ...d.frameMs(), fps: d.engine.getFps() };
        }, mode);
        results.push(`${mode} ${ms.mean.toFixed(2)} ms mean, p95 ${ms.p95.toFixed(2)}, ${ms.frames} frames, ${ms.fps.toFixed(1)} fps`);
        expect(ms.frames).toBeGreaterThan(5);
        expect(ms.mean).toBeGreaterThan(0);
      } finally {
        await page.close();
      }
    }
    console.log(`[e2e demo-worker] main-thread ms/frame (320×180, 3 s walking from the spawn):\n  ${results.join('\n  ')}`);
    expect(errors).toEqual([]);
  });
});
