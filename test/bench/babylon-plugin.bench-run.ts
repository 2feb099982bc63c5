/**
 * FootingPlugin against HavokPlugin on the issue's Babylon scene
 * (test/babylon/doc-scenes/pile-scene.ts: 500 PhysicsAggregates falling into
 * a pen, 20 six-link ball-and-socket chains, 10 walking characters), in
 * NullEngine, and footing stepped directly on the same content, to measure
 * what the plugin costs. Run with `npm run bench:babylon-plugin`, i.e.
 *   npx vitest run --config test/bench/vitest.babylon-plugin.config.ts
 * Optional environment: BABYLON_BENCH_FRAMES=600, BABYLON_BENCH_ROUNDS=3,
 * BABYLON_BENCH_OUT=path.md (also write the table there).
 *
 * Three runs of the scene, each built fresh, frames of 1/60 s:
 * - havok: HavokPlugin (its default: one step of the frame's delta) and
 *   Babylon's PhysicsCharacterController;
 * - plugin: FootingPlugin (fixed 1/60 s steps, so one step a frame) and
 *   FootingCharacterController;
 * - direct: the same footing bodies and joints (built through FootingPlugin,
 *   whose event listeners are then removed), stepped with world.step(1/60),
 *   and the characters as footing CharacterControllers with the settings
 *   FootingCharacterController gives them, moved with move(velocity·dt).
 * A frame is the characters' update then the physics step (Babylon's
 * PhysicsEngine._step: the prestep, the step, the sync of every node and the
 * events), each timed with performance.now(). The three scenes run side by
 * side, frame for frame (which one goes first rotates every frame), so the
 * speed phases of a shared host fall on all three. The table gives the mean
 * and median ms per frame over frames WARMUP..FRAMES (the pile lands and
 * settles in that window), split into physics and characters; each row is
 * the round (of ROUNDS, each built anew) with the lowest mean.
 * Overhead = plugin / direct − 1.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { describe, expect, it } from 'vitest';
import HavokPhysics from '@babylonjs/havok';
import { HavokPlugin } from '@babylonjs/core/Physics/v2/Plugins/havokPlugin';
import { PhysicsCharacterController } from '@babylonjs/core/Physics/v2/characterController';
import type { PhysicsEngine } from '@babylonjs/core/Physics/v2/physicsEngine';
import { FootingCharacterController, FootingPlugin } from '../../src/babylon/index';
import { CharacterController } from '../../character/index';
import { buildPileScene, CAPSULE, PEN_HALF, WALK_SPEED, walkHeading, type PileScene } from '../babylon/doc-scenes/pile-scene';

const require = createRequire(import.meta.url);
const wasmFile = readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm'));
const havok = await HavokPhysics({ wasmBinary: wasmFile.buffer.slice(wasmFile.byteOffset, wasmFile.byteOffset + wasmFile.byteLength) as ArrayBuffer });

const FRAMES = Math.max(Number(process.env.BABYLON_BENCH_FRAMES ?? 600), 120);
const WARMUP = 60;
const ROUNDS = Math.max(1, Number(process.env.BABYLON_BENCH_ROUNDS ?? 3));
const DT = 1 / 60;

type Mode = 'havok' | 'plugin' | 'direct';
interface Run { mode: Mode; mean: number; median: number; physics: number; characters: number; inPen: number; settledY: number; walkerError: number }

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)]!;
}

interface Runner { mode: Mode; frame: (i: number, times: Float64Array) => void; finish: () => Run; total: number[]; physics: number[]; chars: number[] }

function build(mode: Mode): Runner {
  let pile: PileScene;
  let positions: () => { x: number; y: number; z: number }[];
  let frame: (i: number, times: Float64Array) => void;
  if (mode === 'direct') {
    const plugin = new FootingPlugin();
    pile = buildPileScene(plugin, null);
    // The plugin's contact and trigger listeners go: world.step alone is footing as such.
    for (const off of (plugin as unknown as { unsubscribe: (() => void)[] }).unsubscribe.splice(0)) off();
    const world = plugin.world;
    const walkers = pile.walkers.map((w) => {
      const r = WALK_SPEED;
      // FootingCharacterController's settings for Babylon's defaults (its constructor).
      const ctl = new CharacterController(world, {
        radius: CAPSULE.radius, halfHeight: CAPSULE.height / 2 - CAPSULE.radius,
        position: { x: w.centre.x + r * Math.sin(w.heading), y: CAPSULE.height / 2 + 0.01, z: w.centre.z - r * Math.cos(w.heading) },
        skinWidth: 0.05, gatherDistance: 0.1, maxSweeps: 10, maxSlopeDegrees: 60, stepHeight: 0, pushStrength: 0,
      });
      return { ctl, heading: w.heading, vy: 0, grounded: false };
    });
    const d = { x: 0, y: 0, z: 0 };
    frame = (i, times) => {
      const t0 = performance.now();
      for (const w of walkers) {
        const h = walkHeading(w.heading, i, DT);
        w.vy = w.grounded ? 0 : w.vy - 9.81 * DT;
        d.x = WALK_SPEED * Math.cos(h) * DT; d.y = w.vy * DT; d.z = WALK_SPEED * Math.sin(h) * DT;
        w.grounded = w.ctl.move(d, DT).grounded;
      }
      const t1 = performance.now();
      world.step(DT);
      const t2 = performance.now();
      times[0] = t1 - t0; times[1] = t2 - t1;
    };
    // Nodes are not synced here: the outcome is read from the footing bodies.
    pile.characters = walkers.map((w) => ({ getPosition: () => w.ctl.position }) as unknown as PileScene['characters'][number]);
    positions = () => pile.aggregates.map((a) => (a.body._pluginData as { rigid: { position: { x: number; y: number; z: number } } }).rigid.position);
  } else {
    const plugin = mode === 'havok' ? new HavokPlugin(true, havok) : new FootingPlugin();
    pile = buildPileScene(plugin, (position, scene) => mode === 'havok'
      ? new PhysicsCharacterController(position, { capsuleHeight: CAPSULE.height, capsuleRadius: CAPSULE.radius }, scene)
      : new FootingCharacterController(position, { capsuleHeight: CAPSULE.height, capsuleRadius: CAPSULE.radius }, scene));
    const scene = pile.scene;
    const engine = scene.getPhysicsEngine() as PhysicsEngine;
    frame = (i, times) => {
      const t0 = performance.now();
      pile.walk(i, DT);
      const t1 = performance.now();
      scene.onBeforePhysicsObservable.notifyObservers(scene);
      engine._step(DT);
      scene.onAfterPhysicsObservable.notifyObservers(scene);
      const t2 = performance.now();
      times[0] = t1 - t0; times[1] = t2 - t1;
    };
    positions = () => pile.aggregates.map((a) => a.transformNode.position);
  }
  const total: number[] = [], physics: number[] = [], chars: number[] = [];
  return { mode, frame, total, physics, chars, finish: () => finish(mode, pile, positions(), total, physics, chars) };
}

function finish(mode: Mode, pile: PileScene, ends: { x: number; y: number; z: number }[], total: number[], physics: number[], chars: number[]): Run {
  // Outcome: aggregates resting in the pen, their mean height, and how far the walkers are from their circles' ideal point.
  let inPen = 0, ySum = 0;
  for (const p of ends) {
    if (Math.abs(p.x) < PEN_HALF && Math.abs(p.z) < PEN_HALF && p.y > 0) inPen++;
    ySum += p.y;
  }
  let walkerError = 0;
  pile.characters.forEach((c, i) => {
    const w = pile.walkers[i]!, h = walkHeading(w.heading, FRAMES, DT), r = WALK_SPEED;
    const p = c.getPosition();
    walkerError = Math.max(walkerError, Math.hypot(p.x - (w.centre.x + r * Math.sin(h)), p.z - (w.centre.z - r * Math.cos(h))));
  });
  pile.scene.dispose();
  const mean = (a: number[]): number => a.reduce((s, x) => s + x, 0) / a.length;
  return { mode, mean: mean(total), median: median(total), physics: mean(physics), characters: mean(chars), inPen, settledY: ySum / pile.aggregates.length, walkerError };
}

describe('FootingPlugin against HavokPlugin on the 500-aggregate pile', () => {
  it('ms per frame; FootingPlugin\'s overhead over footing stepped directly', () => {
    const order: Mode[] = ['havok', 'plugin', 'direct'];
    const best = new Map<Mode, Run>();
    const times = new Float64Array(2);
    for (let r = 0; r < ROUNDS; r++) {
      // The three scenes side by side, frame for frame, the first of them rotating each frame: a
      // shared host's slow and fast phases fall on all three alike.
      const runners = order.map(build);
      for (let i = 0; i < FRAMES; i++) {
        for (let k = 0; k < runners.length; k++) {
          const x = runners[(k + i) % runners.length]!;
          x.frame(i, times);
          if (i >= WARMUP) { x.total.push(times[0]! + times[1]!); x.physics.push(times[1]!); x.chars.push(times[0]!); }
        }
      }
      for (const x of runners) {
        const out = x.finish();
        console.log(`round ${r + 1} ${x.mode}: mean ${out.mean.toFixed(3)} ms (physics ${out.physics.toFixed(3)}, characters ${out.characters.toFixed(3)}), median ${out.median.toFixed(3)}`);
        if (!best.has(x.mode) || out.mean < best.get(x.mode)!.mean) best.set(x.mode, out);
      }
    }
    const h = best.get('havok')!, p = best.get('plugin')!, d = best.get('direct')!;
    const overhead = p.mean / d.mean - 1;
    const physicsOverhead = p.physics / d.physics - 1;
    const lines = [
      `Babylon NullEngine scene: 500 PhysicsAggregates (boxes, spheres, capsules) into a 10 m pen, 20 six-link ball-and-socket chains, 10 walking characters; ${FRAMES} frames of 1/60 s, frames ${WARMUP}–${FRAMES} timed, best of ${ROUNDS} rounds, the three interleaved frame by frame`,
      `host: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}, node ${process.version}`,
      '',
      '| run | mean ms/frame | median | physics + sync | characters | aggregates in pen | mean height (m) | walker off circle (m) |',
      '|---|---|---|---|---|---|---|---|',
      ...[h, p, d].map((x) => `| ${x.mode === 'havok' ? 'HavokPlugin + PhysicsCharacterController' : x.mode === 'plugin' ? 'FootingPlugin + FootingCharacterController' : 'footing directly (world.step, CharacterController.move)'} | ${x.mean.toFixed(3)} | ${x.median.toFixed(3)} | ${x.physics.toFixed(3)} | ${x.characters.toFixed(3)} | ${x.inPen} | ${x.settledY.toFixed(3)} | ${x.walkerError.toFixed(3)} |`),
      '',
      `FootingPlugin / HavokPlugin: ${(p.mean / h.mean).toFixed(2)} (mean), ${(p.median / h.median).toFixed(2)} (median). FootingPlugin's overhead over footing directly: ${(100 * overhead).toFixed(1)} % of the frame (physics + sync alone: ${(100 * physicsOverhead).toFixed(1)} %).`,
    ];
    console.log(lines.join('\n'));
    if (process.env.BABYLON_BENCH_OUT) writeFileSync(process.env.BABYLON_BENCH_OUT, lines.join('\n') + '\n');
    for (const x of [h, p, d]) {
      expect(Number.isFinite(x.mean)).toBe(true);
      expect(x.inPen).toBeGreaterThan(480);
    }
  });
});
