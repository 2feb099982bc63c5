// End-to-end: examples/worker (200 bodies and a character simulated in a
// Web Worker through footing/worker, drawn with Babylon.js) in headless
// Chromium. The page is built and served here, with the cross-origin
// isolation headers that allow SharedArrayBuffer; `?shared=0` forces
// transferred frames, `?mode=main` runs the same scene on the main thread.
// Physical checks are ranges; waits are for states.
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser';

const root = resolve(import.meta.dirname, '../..');
const exampleRoot = resolve(root, 'examples/worker');
const outDir = resolve(root, 'test-results/worker-example');
const VIEWPORT = { width: 640, height: 360 };
/** Every dropped body is a unit box or a sphere of radius 0.5 resting alone on y = 0. */
const REST_Y = 0.5;
const BODIES = 200;
/** For the timing tests: the smaller the canvas, the less SwiftShader takes from the two cores. */
const SMALL = { width: 320, height: 180 };

interface Hook {
  ready: boolean;
  mode: string;
  shared: boolean;
  crossOriginIsolated: boolean;
  frames(): number;
  engineInfo(): { webgl: number; renderer: string };
  stats(): { frames: number; mainMsMean: number; mainMsP95: number; frameMsMean: number };
  resetStats(): void;
  bodyState(): { ys: number[]; sleeping: number };
  latency(): Promise<{ applied: number; moved: number }>;
}
type HookWindow = Window & { footingWorker?: Hook };

const alias = [
  { find: /^footing\/character$/, replacement: resolve(root, 'character/index.ts') },
  { find: /^footing\/babylon$/, replacement: resolve(root, 'src/babylon/index.ts') },
  { find: /^footing\/worker$/, replacement: resolve(root, 'src/worker/index.ts') },
  { find: /^footing$/, replacement: resolve(root, 'src/index.ts') },
];
const ISOLATION_HEADERS = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

describe('footing/worker example (headless Chromium)', () => {
  let browser: Browser;
  let server: PreviewServer;
  let baseUrl = '';
  const errors: string[] = [];

  beforeAll(async () => {
    const t0 = performance.now();
    await build({
      configFile: false, root: exampleRoot, base: './', logLevel: 'warn', resolve: { alias },
      build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4096, rolldownOptions: { output: { topLevelVar: false } } },
      worker: { format: 'es' },
    });
    server = await preview({
      configFile: false, root: exampleRoot, logLevel: 'warn', build: { outDir },
      preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false, headers: ISOLATION_HEADERS },
    });
    baseUrl = server.resolvedUrls?.local[0] ?? '';
    expect(baseUrl).not.toBe('');
    browser = await launchChromium();
    console.log(`[e2e worker] built and served in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${baseUrl}`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(query: string, viewport = VIEWPORT): Promise<Page> {
    const page = await browser.newPage({ viewport });
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console.error: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    await page.goto(`${baseUrl}?${query}`);
    await page.waitForFunction(() => (window as HookWindow).footingWorker?.ready === true, null, { timeout: 30_000 });
    return page;
  }

  const state = (page: Page) => page.evaluate(() => (window as HookWindow).footingWorker!.bodyState());

  /** Waits until at least 95 % of the bodies sleep (the worker reports it per body), then returns the heights. */
  async function waitForRest(page: Page): Promise<{ ys: number[]; sleeping: number; seconds: number }> {
    const t0 = performance.now();
    await page.waitForFunction((n) => (window as HookWindow).footingWorker!.bodyState().sleeping >= 0.95 * n, BODIES, { timeout: 40_000, polling: 250 });
    await page.waitForTimeout(300); // a few more frames: the interpolation reaches the resting poses
    return { ...(await state(page)), seconds: (performance.now() - t0) / 1000 };
  }

  for (const shared of [false, true]) {
    it(`bodies fall and rest in the worker (${shared ? 'SharedArrayBuffer' : 'transferred frames'})`, async () => {
      const page = await open(`shared=${shared ? 1 : 0}`);
      const info = await page.evaluate(() => {
        const h = (window as HookWindow).footingWorker!;
        return { mode: h.mode, shared: h.shared, isolated: h.crossOriginIsolated, gl: h.engineInfo() };
      });
      expect(info.mode).toBe('worker');
      expect(info.isolated).toBe(true);
      expect(info.shared).toBe(shared);
      expect(info.gl.webgl).toBe(2);
      const early = await state(page);
      const rest = await waitForRest(page);
      const minY = Math.min(...rest.ys), maxY = Math.max(...rest.ys);
      console.log(`[e2e worker] ${shared ? 'shared' : 'transfer'}: highest body at start ${Math.max(...early.ys).toFixed(2)} m; ` +
        `${rest.sleeping}/${BODIES} asleep after ${rest.seconds.toFixed(1)} s; rest heights ${minY.toFixed(3)}–${maxY.toFixed(3)}`);
      // Dropped from 1.5–5.1 m: some were still in the air when the page became ready.
      expect(Math.max(...early.ys)).toBeGreaterThan(REST_Y + 0.3);
      expect(rest.ys.length).toBe(BODIES);
      expect(minY).toBeGreaterThan(REST_Y - 0.03);
      expect(maxY).toBeLessThan(REST_Y + 0.03);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('the character walks in the worker: input reaches the drawn character by the next frame or the one after', async () => {
    for (const query of ['shared=0', 'shared=1', 'mode=main']) {
      // A small canvas: software WebGL draws it fastest, closest to a real frame rate.
      const page = await open(query, SMALL);
      await waitForRest(page);
      const runs: { applied: number; moved: number }[] = [];
      for (let i = 0; i < 5; i++) runs.push(await page.evaluate(() => (window as HookWindow).footingWorker!.latency()));
      const fps = await page.evaluate(() => 1000 / (window as HookWindow).footingWorker!.stats().frameMsMean);
      console.log(`[e2e worker] ${query}: input → step in frames ${runs.map((r) => r.applied).join(', ')}; → drawn motion ${runs.map((r) => r.moved).join(', ')} (at ${fps.toFixed(1)} fps)`);
      for (const r of runs) {
        expect(r.applied).toBeGreaterThanOrEqual(0);
        expect(r.applied).toBeLessThanOrEqual(2);
        expect(r.moved).toBeGreaterThanOrEqual(0);
        expect(r.moved).toBeLessThanOrEqual(2);
      }
      await page.close();
    }
    expect(errors).toEqual([]);
  });

  it('main-thread time per frame: worker against main-thread physics (200 bodies in a heap)', async () => {
    const results: Record<string, { mainMsMean: number; mainMsP95: number; frameMsMean: number; frames: number }> = {};
    for (const query of ['scene=heap&mode=main', 'scene=heap&shared=0', 'scene=heap&shared=1']) {
      const page = await open(query, SMALL);
      // Three seconds of the heap falling and settling, the busiest part of the scene.
      await page.evaluate(() => (window as HookWindow).footingWorker!.resetStats());
      await page.waitForTimeout(3000);
      results[query] = await page.evaluate(() => (window as HookWindow).footingWorker!.stats());
      await page.close();
    }
    for (const [query, s] of Object.entries(results)) {
      console.log(`[e2e worker] ${query}: main thread physics + sync ${s.mainMsMean.toFixed(2)} ms/frame (p95 ${s.mainMsP95.toFixed(2)}), ` +
        `${(1000 / s.frameMsMean).toFixed(1)} fps over ${s.frames} frames`);
    }
    // The worker's main-thread share is reading poses into 200 instances; the main-thread mode also steps the world.
    expect(results['scene=heap&shared=0']!.mainMsMean).toBeLessThan(results['scene=heap&mode=main']!.mainMsMean);
    expect(results['scene=heap&shared=1']!.mainMsMean).toBeLessThan(results['scene=heap&mode=main']!.mainMsMean);
    expect(errors).toEqual([]);
  });
});
