// End-to-end: the built demo in headless Chromium (software WebGL2).
// Frame rates here are 5–15 fps (SwiftShader on 2 cores), so every physical
// check waits for a state (bodies at rest) instead of a fixed time, and
// positions are asserted as ranges.
import { mkdir, readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FootingDemoHandle } from '../../demo/types';
import { launchChromium } from './browser';

const VIEWPORT = { width: 960, height: 540 };
const RESULTS_DIR = resolve(import.meta.dirname, '../../test-results');
const SCREENSHOT = resolve(RESULTS_DIR, 'demo.png');
/** A body counts as at rest below these speeds (m/s, rad/s) or when asleep. */
const REST_LINEAR = 0.05;
const REST_ANGULAR = 0.1;

// Resting heights of the demo's bodies (demo/bodies.ts): a capsule of radius
// 0.3 on its side has its centre at 0.3 m, the top cube of the four-cube stack
// at 3.5 m. A slack of 5 cm on either side covers solver penetration/slop.
const MIN_REST_Y = 0.25;
const MAX_REST_Y = 3.55;

type DemoWindow = Window & { footingDemo?: FootingDemoHandle };

describe('footing demo (headless Chromium, SwiftShader WebGL2)', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  let readyMs = 0;

  beforeAll(async () => {
    const t0 = performance.now();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: VIEWPORT });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => errors.push(`request failed: ${request.url()}`));
    await page.goto(inject('demoUrl'));
    await page.waitForFunction(() => (window as DemoWindow).footingDemo?.ready === true, null, { timeout: 30_000 });
    readyMs = performance.now() - t0;
    console.log(`[e2e] browser launch + page ready: ${(readyMs / 1000).toFixed(2)} s`);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('renders through a WebGL2 engine', async () => {
    const info = await page.evaluate(() => {
      const engine = (window as DemoWindow).footingDemo!.engine;
      return { version: engine.webGLVersion, renderer: engine.getGlInfo().renderer };
    });
    console.log(`[e2e] WebGL ${info.version}: ${info.renderer}`);
    expect(info.version === 2 || info.renderer.includes('SwiftShader')).toBe(true);
    expect(info.version).toBe(2);
  });

  it('drops the dynamic bodies onto the ground, where they come to rest', async () => {
    const t0 = performance.now();
    await page.waitForFunction(
      ([linear, angular]) => {
        const demo = (window as DemoWindow).footingDemo!;
        for (const { body } of demo.dynamicBodies) {
          if (body.isSleeping) continue;
          const v = body.linearVelocity;
          const w = body.angularVelocity;
          if (Math.hypot(v.x, v.y, v.z) > linear || Math.hypot(w.x, w.y, w.z) > angular) return false;
        }
        // Also require some simulated time, so that bodies created at rest in the air do not pass.
        return demo.stats.simSeconds > 1.5;
      },
      [REST_LINEAR, REST_ANGULAR] as const,
      { timeout: 45_000, polling: 250 },
    );
    const state = await page.evaluate(() => {
      const demo = (window as DemoWindow).footingDemo!;
      return {
        simSeconds: demo.stats.simSeconds,
        bodyCount: demo.world.bodies.length,
        bodies: demo.dynamicBodies.map(({ body, mesh }) => ({
          name: mesh.name,
          y: body.position.y,
          // How far the mesh is from its body (it is synced every frame before rendering).
          meshOffset: Math.hypot(
            mesh.position.x - body.position.x, mesh.position.y - body.position.y, mesh.position.z - body.position.z,
          ),
        })),
      };
    });
    console.log(
      `[e2e] at rest after ${((performance.now() - t0) / 1000).toFixed(1)} s wall, ` +
      `${state.simSeconds.toFixed(2)} s simulated; heights ` +
      state.bodies.map((b) => `${b.name}=${b.y.toFixed(3)}`).join(' '),
    );
    expect(state.bodyCount).toBe(state.bodies.length + 1); // + the static ground
    expect(state.bodies.length).toBeGreaterThanOrEqual(8);
    for (const b of state.bodies) {
      expect(b.y, b.name).toBeGreaterThan(MIN_REST_Y);
      expect(b.y, b.name).toBeLessThan(MAX_REST_Y);
      expect(b.meshOffset, b.name).toBeLessThan(1e-9);
    }
    // The shapes dropped from 3–6 m now lie low: none of them is left above 1.5 m.
    const dropped = state.bodies.filter((b) => !b.name.startsWith('box') || Number(b.name.slice(3)) >= 4);
    for (const b of dropped) expect(b.y, b.name).toBeLessThan(1.5);
  });

  it('hits the scene with the sweeping ray and the capsule cast', async () => {
    const result = await page.evaluate(() => {
      const demo = (window as DemoWindow).footingDemo!;
      // A vertical ray onto bare ground (top face y = 0) away from every body.
      const down = demo.world.raycast({ x: 8, y: 10, z: 8 }, { x: 8, y: -10, z: 8 });
      // The demo's cast capsule (radius 0.3, half height 0.4: its tip 0.7 m below the centre)
      // swept 10 m down onto the same spot first touches the ground after 5 − 0.7 = 4.3 m.
      const cast = demo.world.shapeCast(demo.castShape, { x: 8, y: 5, z: 8 }, { x: 0, y: 0, z: 0, w: 1 }, { x: 0, y: -10, z: 0 });
      const queries = demo.queries;
      return {
        sweep: { ...queries, rayPoint: { ...queries.rayPoint }, rayNormal: { ...queries.rayNormal } },
        down: down && {
          fraction: down.fraction, distance: down.distance,
          point: { x: down.point.x, y: down.point.y, z: down.point.z },
          normal: { x: down.normal.x, y: down.normal.y, z: down.normal.z },
        },
        cast: cast && { fraction: cast.fraction, pointY: cast.point.y, normalY: cast.normal.y },
      };
    });
    const s = result.sweep;
    console.log(
      `[e2e] sweeping ray: ${s.rayHits} hits / ${s.rayMisses} misses, last fraction ${s.rayFraction.toFixed(4)}; ` +
      `capsule cast: ${s.castHits} hits, last fraction ${s.castFraction.toFixed(4)}`,
    );
    expect(s.rayHits).toBeGreaterThan(0);
    expect(s.castHits).toBeGreaterThan(0);
    if (s.rayFraction >= 0) {
      expect(s.rayFraction).toBeLessThanOrEqual(1);
      // distance = fraction · |to − from|, the ray being (−10, 5, 0) → (6, −1, z) with |z| ≤ 8.
      expect(s.rayDistance).toBeGreaterThan(0);
      expect(s.rayDistance).toBeLessThanOrEqual(Math.hypot(16, 6, 8) + 1e-9);
      expect(Math.hypot(s.rayNormal.x, s.rayNormal.y, s.rayNormal.z)).toBeCloseTo(1, 6);
    }
    expect(result.down).not.toBeNull();
    const down = result.down!;
    expect(down.fraction).toBeCloseTo(0.5, 6);
    expect(down.distance).toBeCloseTo(10, 5);
    expect(down.point.y).toBeCloseTo(0, 5);
    expect(down.normal.y).toBeCloseTo(1, 6);
    expect(result.cast).not.toBeNull();
    const cast = result.cast!;
    // Casts stop within a small tolerance of contact; allow 1 cm of the 10 m sweep.
    expect(Math.abs(cast.fraction - 0.43)).toBeLessThan(1e-3);
    expect(Math.abs(cast.pointY)).toBeLessThan(0.01);
    expect(Math.abs(cast.normalY)).toBeCloseTo(1, 3);
  });

  it('draws a non-blank frame and writes test-results/demo.png', async () => {
    await mkdir(RESULTS_DIR, { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    const png = await readFile(SCREENSHOT);
    // PNG signature, then the IHDR chunk: width and height as big-endian u32 at bytes 16 and 20.
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(VIEWPORT.width);
    expect(png.readUInt32BE(20)).toBe(VIEWPORT.height);
    expect((await stat(SCREENSHOT)).size).toBeGreaterThan(10_000);

    // Read the WebGL canvas back (preserveDrawingBuffer keeps the last frame) on a 64×36 grid.
    const pixels = await page.evaluate(() => {
      const source = document.getElementById('renderCanvas') as HTMLCanvasElement;
      const probe = document.createElement('canvas');
      probe.width = 64;
      probe.height = 36;
      const ctx = probe.getContext('2d')!;
      ctx.drawImage(source, 0, 0, probe.width, probe.height);
      const data = ctx.getImageData(0, 0, probe.width, probe.height).data;
      const colours = new Set<number>();
      let sum = 0;
      let sumSq = 0;
      const n = data.length / 4;
      for (let i = 0; i < data.length; i += 4) {
        const r = data[i]!, g = data[i + 1]!, b = data[i + 2]!;
        colours.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
        const luma = 0.299 * r + 0.587 * g + 0.114 * b;
        sum += luma;
        sumSq += luma * luma;
      }
      const mean = sum / n;
      return { distinct: colours.size, mean, stdDev: Math.sqrt(Math.max(0, sumSq / n - mean * mean)) };
    });
    console.log(
      `[e2e] screenshot ${png.length} bytes; canvas ${pixels.distinct} distinct colours (4-bit), ` +
      `luma mean ${pixels.mean.toFixed(1)} σ ${pixels.stdDev.toFixed(1)}`,
    );
    expect(pixels.distinct).toBeGreaterThanOrEqual(8);
    expect(pixels.stdDev).toBeGreaterThan(5);
  });

  it('logs no console errors, page errors or failed requests', () => {
    expect(errors).toEqual([]);
  });
});
