// End-to-end: the built demo level in headless Chromium (software WebGL2,
// 5–15 fps). Every physical check is a range; waits are for states, not
// frame counts.
import { mkdir, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FootingDemoHandle } from '../../demo/types';
import { launchChromium } from './browser';

const VIEWPORT = { width: 1280, height: 720 };
const RESULTS_DIR = resolve(import.meta.dirname, '../../test-results');
const SCREENSHOT = resolve(RESULTS_DIR, 'demo.png');
/** Capsule centre height standing on y = 0: radius 0.3 + half height 0.6 + skin 0.01. */
const REST_Y = 0.91;

type DemoWindow = Window & { footingDemo?: FootingDemoHandle; __log?: { maxY: number; jumped: number; landed: number } };

describe('footing demo level (headless Chromium, SwiftShader WebGL2)', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  const demo = <T>(fn: (d: FootingDemoHandle) => T): Promise<T> =>
    page.evaluate(`(${fn.toString()})(window.footingDemo)`) as Promise<T>;

  /** Teleports the character to (x, y, z), camera looking along +z, and waits until it is grounded. */
  async function placeCharacter(x: number, y: number, z: number): Promise<void> {
    await page.evaluate(([px, py, pz]) => {
      const d = (window as DemoWindow).footingDemo!;
      d.setCameraYaw(0);
      d.teleport(px!, py!, pz!);
    }, [x, y, z]);
    await page.waitForFunction(() => (window as DemoWindow).footingDemo!.walker.state === 'grounded', null, { timeout: 10_000 });
  }

  async function position(): Promise<{ x: number; y: number; z: number; state: string }> {
    return page.evaluate(() => {
      const d = (window as DemoWindow).footingDemo!;
      const p = d.character.position;
      return { x: p.x, y: p.y, z: p.z, state: d.walker.state };
    });
  }

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
    // Keyboard events go to the focused element; the demo listens on window.
    await page.focus('#renderCanvas');
    console.log(`[e2e] browser launch + page ready: ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('renders through a WebGL2 engine with the level, the character and the props', async () => {
    const info = await demo((d) => ({
      version: d.engine.webGLVersion,
      renderer: d.engine.getGlInfo().renderer,
      bodies: d.world.bodies.length,
      joints: d.world.joints.length,
      meshes: d.scene.meshes.length,
    }));
    console.log(`[e2e] WebGL ${info.version}: ${info.renderer}; ${info.bodies} bodies, ${info.joints} joints, ${info.meshes} meshes`);
    expect(info.version).toBe(2);
    // ground + 29 static pieces + terrain + 2 platforms + 15 pyramid + 5 crates + seesaw (3) + 2 ragdolls × 12 + the character
    expect(info.bodies).toBeGreaterThanOrEqual(75);
    expect(info.joints).toBeGreaterThanOrEqual(2 * 11 + 1);
    expect(errors).toEqual([]);
  });

  it('holding W for 2 s moves the capsule at least 3 m along the floor', async () => {
    await placeCharacter(0, REST_Y + 0.02, 0);
    const before = await position();
    let minY = Infinity, maxY = -Infinity;
    await page.keyboard.down('w');
    const t0 = performance.now();
    while (performance.now() - t0 < 2000) {
      const p = await position();
      minY = Math.min(minY, p.y); maxY = Math.max(maxY, p.y);
      await page.waitForTimeout(100);
    }
    await page.keyboard.up('w');
    const after = await position();
    const moved = Math.hypot(after.x - before.x, after.z - before.z);
    console.log(`[e2e] W 2 s: moved ${moved.toFixed(2)} m (z ${before.z.toFixed(2)} → ${after.z.toFixed(2)}), y in [${minY.toFixed(3)}, ${maxY.toFixed(3)}], ${after.state}`);
    expect(moved).toBeGreaterThanOrEqual(3);
    expect(after.z - before.z).toBeGreaterThan(2.5); // forward is +z with the camera at yaw 0
    expect(minY).toBeGreaterThan(REST_Y - 0.02);
    expect(maxY).toBeLessThan(REST_Y + 0.02);
    expect(after.state).toBe('grounded');
  });

  it('the character mesh is interpolated between physics steps: per rendered frame it moves 4 m/s × the simulated frame time', async () => {
    await placeCharacter(0, REST_Y + 0.02, 0);
    await page.evaluate(() => {
      const w = window as DemoWindow & { __frames?: number[][] };
      const d = w.footingDemo!;
      const frames: number[][] = [];
      w.__frames = frames;
      d.scene.onAfterRenderObservable.add(() => {
        // the time world.advance simulated this frame: the frame (capped at 0.25 s by the demo) less what maxSubSteps dropped
        const simulated = Math.min(d.engine.getDeltaTime() / 1000, 0.25) - d.world.droppedTime;
        frames.push([d.characterMesh.position.z, d.character.position.z, simulated, d.walker.velocity.z]);
      });
    });
    await page.keyboard.down('w');
    await page.waitForTimeout(3000);
    await page.keyboard.up('w');
    const frames = await page.evaluate(() => (window as DemoWindow & { __frames?: number[][] }).__frames!);
    // frames at full walking speed
    let used = 0, worstMesh = 0, worstRaw = 0;
    for (let i = 2; i < frames.length; i++) {
      const [z, raw, dt, vz] = frames[i]!;
      const [z0, raw0, , vz0] = frames[i - 1]!;
      // the mesh of frame i − 1 is drawn between two earlier steps: those must have been at full speed too
      const vzEarlier = frames[i - 2]![3]!;
      if (!(dt! > 0.005) || Math.abs(vz! - 4) > 1e-6 || Math.abs(vz0! - 4) > 1e-6 || Math.abs(vzEarlier - 4) > 1e-6) continue;
      used++;
      worstMesh = Math.max(worstMesh, Math.abs((z! - z0!) / dt! - 4));
      worstRaw = Math.max(worstRaw, Math.abs((raw! - raw0!) / dt! - 4));
    }
    console.log(`[e2e] interpolation: ${used} of ${frames.length} frames at full speed; mesh speed per frame within ±${worstMesh.toFixed(4)} m/s of 4, the physics position within ±${worstRaw.toFixed(3)} m/s`);
    expect(used).toBeGreaterThanOrEqual(4);
    expect(worstMesh).toBeLessThan(0.05);
  });

  it('Space leaves the ground and lands again', async () => {
    await placeCharacter(0, REST_Y + 0.02, 0);
    await page.evaluate(() => {
      const w = window as DemoWindow;
      const d = w.footingDemo!;
      const log = { maxY: d.character.position.y, jumped: 0, landed: 0 };
      w.__log = log;
      d.walker.on('jumped', () => { log.jumped++; });
      d.walker.on('landed', () => { log.landed++; });
      d.scene.onBeforeRenderObservable.add(() => { log.maxY = Math.max(log.maxY, d.character.position.y); });
    });
    await page.keyboard.press('Space');
    await page.waitForFunction(() => {
      const log = (window as DemoWindow).__log!;
      return log.jumped > 0 && log.landed > 0;
    }, null, { timeout: 15_000, polling: 50 });
    const log = await page.evaluate(() => (window as DemoWindow).__log!);
    const after = await position();
    console.log(`[e2e] jump: peak ${(log.maxY - REST_Y).toFixed(2)} m above rest, landed at y ${after.y.toFixed(3)}`);
    // jumpSpeed 5 m/s under 9.81 m/s² peaks at v²/2g ≈ 1.27 m
    expect(log.maxY - REST_Y).toBeGreaterThan(0.8);
    expect(log.maxY - REST_Y).toBeLessThan(1.6);
    expect(Math.abs(after.y - REST_Y)).toBeLessThan(0.02);
    expect(after.state).toBe('grounded');
  });

  it('walking into the 0.2 m staircase climbs it', async () => {
    const stairs = await demo((d) => d.landmarks.stairs020);
    await placeCharacter(stairs.x, REST_Y + 0.02, stairs.z - 1);
    await page.keyboard.down('w');
    try {
      await page.waitForFunction(
        (top) => (window as DemoWindow).footingDemo!.character.position.y > 0.91 + top - 0.05,
        stairs.top, { timeout: 15_000, polling: 100 },
      );
    } finally {
      await page.keyboard.up('w');
    }
    const after = await position();
    console.log(`[e2e] stairs: y ${after.y.toFixed(3)} (landing top ${stairs.top} m), z ${after.z.toFixed(2)}`);
    expect(after.y).toBeGreaterThan(REST_Y + stairs.top - 0.05);
    expect(after.y).toBeLessThan(REST_Y + stairs.top + 0.05);
  });

  it('F1 adds a wireframe for every body', async () => {
    const before = await demo((d) => d.scene.meshes.length);
    await page.keyboard.press('F1');
    await page.waitForFunction(() => (window as DemoWindow).footingDemo!.debugView !== null, null, { timeout: 10_000 });
    const after = await demo((d) => ({
      meshes: d.scene.meshes.length,
      wireframes: d.debugView!.wireframeCount,
      bodies: d.world.bodies.length,
      enabled: d.debugView!.enabled,
    }));
    console.log(`[e2e] F1: ${after.wireframes} wireframes for ${after.bodies} bodies; meshes ${before} → ${after.meshes}`);
    expect(after.enabled).toBe(true);
    expect(after.wireframes).toBe(after.bodies);
    expect(after.meshes).toBeGreaterThanOrEqual(before + after.bodies);
  });

  it('F2 shows the character solver view: planes, solve points and frame numbers', async () => {
    await placeCharacter(0, REST_Y + 0.02, 0);
    await page.keyboard.press('F2');
    await page.keyboard.down('w');
    try {
      await page.waitForFunction(() => {
        const d = (window as DemoWindow).footingDemo!;
        return d.characterView.enabled && d.characterView.stats.moves > 0 && d.characterView.stats.planes > 0;
      }, null, { timeout: 10_000, polling: 100 });
    } finally {
      await page.keyboard.up('w');
    }
    const view = await demo((d) => ({
      stats: { ...d.characterView.stats },
      quads: d.scene.meshes.filter((m) => m.name.startsWith('footingCharPlane') && m.isVisible).length,
      hud: document.getElementById('hud')!.textContent ?? '',
    }));
    console.log(`[e2e] F2: ${JSON.stringify(view.stats)}, ${view.quads} plane quads visible`);
    expect(view.stats.grounded).toBe(true);
    expect(view.stats.iterations).toBeGreaterThan(0);
    expect(view.quads).toBeGreaterThan(0);
    expect(view.hud).toContain('planes');
    await page.keyboard.press('F2');
  });

  it('the Inspector properties on the character node change the controller', async () => {
    const result = await demo((d) => {
      const node = d.characterMesh as unknown as Record<string, unknown>;
      const entry = d.characterMesh.inspectableCustomProperties.find((p) => p.propertyName === 'characterMaxSlopeDegrees');
      const before = d.character.settings.maxSlopeDegrees;
      node.characterMaxSlopeDegrees = 30;
      const after = d.character.settings.maxSlopeDegrees;
      node.solverVelocityIterations = 12;
      const iterations = d.world.solver.velocityIterations;
      node.characterMaxSlopeDegrees = before;
      return { label: entry?.label, min: entry?.min, max: entry?.max, before, after, iterations, count: d.characterMesh.inspectableCustomProperties.length };
    });
    console.log(`[e2e] inspector: ${result.count} properties; "${result.label}" ${result.before} → ${result.after}`);
    expect(result.label).toBe('Max slope (°)');
    expect(result.before).toBe(45);
    expect(result.after).toBe(30);
    expect(result.iterations).toBe(12);
  });

  it('the compare page steps footing and cannon-es side by side', async () => {
    const compare = await browser.newPage({ viewport: VIEWPORT });
    const compareErrors: string[] = [];
    compare.on('console', (m) => { if (m.type() === 'error') compareErrors.push(m.text()); });
    compare.on('pageerror', (e) => compareErrors.push(e.message));
    await compare.goto(new URL('compare.html', inject('demoUrl')).href);
    await compare.waitForFunction(() => {
      const c = (window as unknown as { footingCompare?: { steps: number; footingMsPerStep: number } }).footingCompare;
      return !!c && c.steps > 120 && c.footingMsPerStep > 0;
    }, null, { timeout: 30_000, polling: 250 });
    const r = await compare.evaluate(() => {
      const c = (window as unknown as { footingCompare: { steps: number; footingMsPerStep: number; cannonMsPerStep: number; footing: { bodies: readonly unknown[] }; cannon: { bodies: unknown[] } } }).footingCompare;
      return { steps: c.steps, footing: c.footingMsPerStep, cannon: c.cannonMsPerStep, fb: c.footing.bodies.length, cb: c.cannon.bodies.length };
    });
    await compare.screenshot({ path: resolve(RESULTS_DIR, 'compare.png') });
    await compare.close();
    console.log(`[e2e] compare: ${r.steps} steps, footing ${r.footing.toFixed(3)} ms/step, cannon-es ${r.cannon.toFixed(3)} ms/step, ${r.fb}/${r.cb} bodies`);
    expect(r.fb).toBe(r.cb);
    expect(r.cannon).toBeGreaterThan(0);
    expect(compareErrors).toEqual([]);
  });

  it('writes a non-blank screenshot and logs no console errors', async () => {
    await page.evaluate(() => {
      const d = (window as DemoWindow).footingDemo!;
      d.debugView!.enabled = false;
      d.teleport(-1, 0.93, 1);
      d.setCameraYaw(0.35);
    });
    await page.waitForTimeout(1500);
    await mkdir(RESULTS_DIR, { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    const size = (await stat(SCREENSHOT)).size;
    // Sample a grid of the WebGL canvas (preserveDrawingBuffer) and count distinct colours.
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
    const fps = await demo((d) => d.engine.getFps());
    console.log(`[e2e] screenshot ${SCREENSHOT}: ${size} bytes, ${colours} distinct colours in a 64×36 sample; ${fps.toFixed(1)} fps`);
    expect(size).toBeGreaterThan(20_000);
    expect(colours).toBeGreaterThan(20);
    expect(errors).toEqual([]);
  });

  it('F3 opens the Babylon Inspector; its "Max slope" slider changes the controller', async () => {
    const t0 = performance.now();
    await page.keyboard.press('F3');
    const row = page.locator('xpath=//*[normalize-space(text())="Max slope (°)"]/ancestor::*[.//input[@type="range"]][1]//input[@type="range"]').first();
    await row.waitFor({ state: 'attached', timeout: 60_000 });
    const before = await demo((d) => d.character.settings.maxSlopeDegrees);
    await row.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((b) => (window as DemoWindow).footingDemo!.character.settings.maxSlopeDegrees !== b, before, { timeout: 10_000 });
    const after = await demo((d) => d.character.settings.maxSlopeDegrees);
    console.log(`[e2e] Inspector shown in ${((performance.now() - t0) / 1000).toFixed(1)} s; slider: maxSlopeDegrees ${before} → ${after}`);
    expect(after).toBeCloseTo(before + 1, 9);
    expect(errors).toEqual([]);
  });
});
