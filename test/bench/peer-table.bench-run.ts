/**
 * The peer table: footing against cannon-es, Rapier, Jolt and crashcat on the
 * shared scenes (test/scenes). Run with `npm run bench:peers`, i.e.
 *   npx vitest run --config test/bench/vitest.peers.config.ts
 * Optional environment: PEERS_SCENES=pyramid-20,pile-1000-mixed  PEERS_ENGINES=footing,Jolt
 * PEERS_STEPS=300 (timed steps)  PEERS_ROUNDS=3  PEER_TABLE_OUT=path.md (also write the table there)
 * PEERS_VARIANTS=1 (jointed scenes: also measure this many − 1 perturbed copies, see below).
 *
 * Per scene and engine, in one process, engines one after another (PEERS_ROUNDS
 * rounds, the order reversed every other round, each engine's best-median
 * round kept): build,
 * 200 warm-up steps (JIT, contact caches), then PEERS_STEPS timed steps, each
 * timed alone with performance.now(). Stability: positions are read (outside
 * the timed calls) after step 120 counted from the start — the settled pose —
 * and after the last step; drift is the largest distance any dynamic body
 * moved between the two. A body has escaped when its centre ends outside the
 * scene's bounds (under the ground top, through a wall) or is not finite.
 * Jointed scenes (ragdolls-32, test/scenes/ragdolls.ts) run only on engines
 * whose adapter builds joints; their joint error is the largest anchor
 * separation after the last step, measured the same way for every engine
 * from the body poses (JointErrorMeter).
 *
 * A collapsing pile is chaotic: its cost over the timed window depends on the
 * path it happens to take, and any change to an engine's physics moves that
 * by ±20 % (measured on footing's ragdolls-32 under 0.1 mm perturbations).
 * With PEERS_VARIANTS = V > 1 each jointed scene is also measured as V − 1
 * copies whose dynamic bodies start up to 0.05 mm away (seeded: copy k uses
 * seed k), and the table ends with each engine's mean median over the V.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { describe, expect, it } from 'vitest';
import { BENCHMARK_SCENE_NAMES, benchmarkScene } from '../scenes/benchmark-scenes';
import { ragdollsScene } from '../scenes/ragdolls';
import { countDynamic, type Scene } from '../scenes/scene';
import { seeded } from '../helpers/random';
import { buildsShapes, COMPARABLE, sceneJoints, type EngineAdapter } from './peers/adapter';
import { cannonAdapter } from './peers/cannon';
import { crashcatAdapter } from './peers/crashcat';
import { joltAdapter } from './peers/jolt';
import { rapierAdapter } from './peers/rapier';

/**
 * 200 warm-up steps: V8 optimises a function after it has run long enough,
 * and the large once-per-step functions of the JavaScript engines (footing,
 * cannon-es, crashcat) are still being tiered up after 60 steps of a small
 * scene, which the WASM engines never pay for.
 */
const WARMUP_STEPS = 200;
const SETTLED_STEP = 120;
const TIMED_STEPS = Math.max(Number(process.env.PEERS_STEPS ?? 300), 1);
/**
 * Rounds per scene: every engine is measured once per round, the engine order
 * reversed every other round, and each engine's row is its round with the
 * lowest median. On a shared host whose speed drifts over minutes, a slow
 * phase then cannot fall on one engine only.
 */
const ROUNDS = Math.max(1, Number(process.env.PEERS_ROUNDS ?? 3));
const VARIANTS = Math.max(1, Number(process.env.PEERS_VARIANTS ?? 1));

/** `scene` with every dynamic body moved by up to ±0.05 mm per axis (seeded), named `name~k`. */
function perturbed(scene: Scene, k: number): Scene {
  const rng = seeded(k, `peer variant ${scene.name}~${k}`);
  const bodies = scene.bodies.map((b) => b.type !== 'dynamic' ? b : {
    ...b,
    position: { x: b.position.x + rng.range(-5e-5, 5e-5), y: b.position.y + rng.range(-5e-5, 5e-5), z: b.position.z + rng.range(-5e-5, 5e-5) },
  });
  return { ...scene, name: `${scene.name}~${k}`, bodies };
}

interface Row {
  scene: string;
  engine: string;
  median: number;
  mean: number;
  p95: number;
  /** cm, or NaN when the scene does not measure drift. */
  drift: number;
  escaped: number;
  dynamic: number;
  /** mm after the last step, or NaN for scenes without joints. */
  jointError: number;
  error?: string;
}

/** Scenes with joints, after the plain benchmark scenes. */
const JOINTED_SCENES: Record<string, () => Scene> = { 'ragdolls-32': () => ragdollsScene(32) };

function percentile(sorted: Float64Array, q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

function escapedCount(scene: Scene, p: Float64Array): number {
  const { min, max } = scene.bounds;
  let n = 0;
  for (let i = 0; i < scene.bodies.length; i++) {
    if (scene.bodies[i]!.type !== 'dynamic') continue;
    const x = p[3 * i]!, y = p[3 * i + 1]!, z = p[3 * i + 2]!;
    const inside = x >= min.x && x <= max.x && y >= min.y && y <= max.y && z >= min.z && z <= max.z;
    if (!inside) n++; // NaN fails every comparison, so it counts too
  }
  return n;
}

function maxDrift(scene: Scene, a: Float64Array, b: Float64Array): number {
  let worst = 0;
  for (let i = 0; i < scene.bodies.length; i++) {
    if (scene.bodies[i]!.type !== 'dynamic') continue;
    const d = Math.hypot(b[3 * i]! - a[3 * i]!, b[3 * i + 1]! - a[3 * i + 1]!, b[3 * i + 2]! - a[3 * i + 2]!);
    if (!(d <= worst)) worst = d; // NaN wins: an exploded body is the worst drift
  }
  return worst;
}

async function measure(scene: Scene, adapter: EngineAdapter): Promise<Row> {
  const row: Row = {
    scene: scene.name, engine: adapter.name, median: NaN, mean: NaN, p95: NaN, drift: NaN, escaped: 0,
    dynamic: countDynamic(scene), jointError: NaN,
  };
  const instance = await adapter.create(scene);
  try {
    const settled = new Float64Array(3 * scene.bodies.length);
    const last = new Float64Array(3 * scene.bodies.length);
    const times = new Float64Array(TIMED_STEPS);
    let stepsDone = 0;
    for (let i = 0; i < WARMUP_STEPS; i++) {
      instance.step();
      stepsDone++;
      if (stepsDone === SETTLED_STEP) instance.readPositions(settled);
    }
    for (let i = 0; i < TIMED_STEPS; i++) {
      const t0 = performance.now();
      instance.step();
      times[i] = performance.now() - t0;
      stepsDone++;
      if (stepsDone === SETTLED_STEP) instance.readPositions(settled);
    }
    instance.readPositions(last);
    let sum = 0;
    for (let i = 0; i < times.length; i++) sum += times[i]!;
    times.sort();
    row.median = percentile(times, 0.5);
    row.mean = sum / times.length;
    row.p95 = percentile(times, 0.95);
    row.escaped = escapedCount(scene, last);
    if (scene.measureDrift) row.drift = 100 * maxDrift(scene, settled, last);
    if (sceneJoints(scene).length > 0 && instance.maxJointError) row.jointError = 1000 * instance.maxJointError();
  } finally {
    instance.dispose();
  }
  return row;
}

async function loadAdapters(): Promise<{ adapters: EngineAdapter[]; missing: string[] }> {
  const adapters: EngineAdapter[] = [];
  const missing: string[] = [];
  try {
    // Loaded lazily so that the peers-only table still runs while footing's World is in progress.
    const { footingAdapter } = await import('./peers/footing');
    adapters.push(footingAdapter);
  } catch (e) {
    missing.push(`footing: ${(e as Error).message}`);
  }
  adapters.push(cannonAdapter, rapierAdapter, joltAdapter, crashcatAdapter);
  const wanted = process.env.PEERS_ENGINES?.split(',').map((s) => s.trim().toLowerCase());
  return { adapters: wanted ? adapters.filter((a) => wanted.includes(a.name.toLowerCase())) : adapters, missing };
}

function fmt(x: number, digits: number): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '—';
}

function render(rows: Row[], adapters: EngineAdapter[], scenes: Scene[], missing: string[], loadBefore: string): string {
  const lines: string[] = [];
  lines.push(
    `Peer table — ${new Date().toISOString()}, Node ${process.version}, ${process.platform}/${process.arch}, ` +
      `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}; load average (1 min) ${loadBefore} before, ` +
      `${loadavg()[0]!.toFixed(2)} after (other processes share the machine: compare p95 with care).`,
  );
  lines.push('');
  lines.push('| scene | engine | median ms/step | mean | p95 | ratio vs footing | max drift (cm) | escaped | joint error (mm) |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    if (r.error !== undefined) {
      lines.push(`| ${r.scene} | ${r.engine} | error: ${r.error.replace(/\|/g, '/')} | | | | | | |`);
      continue;
    }
    const ref = rows.find((x) => x.scene === r.scene && x.engine === 'footing' && x.error === undefined);
    const ratio = ref ? r.median / ref.median : NaN;
    lines.push(
      `| ${r.scene} | ${r.engine} | ${fmt(r.median, 3)} | ${fmt(r.mean, 3)} | ${fmt(r.p95, 3)} | ` +
        `${fmt(ratio, 2)} | ${Number.isNaN(r.drift) && scenes.find((s) => s.name === r.scene)?.measureDrift ? 'NaN' : fmt(r.drift, 2)} | ` +
        `${r.escaped}/${r.dynamic} | ${fmt(r.jointError, 2)} |`,
    );
  }
  lines.push('');
  lines.push('Notes:');
  lines.push(
    `- ${WARMUP_STEPS} warm-up steps, then ${TIMED_STEPS} steps timed one by one (performance.now()); dt = 1/60; ` +
      `engines run one after another in one process, ${ROUNDS} round(s) per scene with the engine order reversed every other ` +
      'round, and each engine keeps its round with the lowest median (this host\'s speed drifts over minutes); no forced GC.',
  );
  lines.push(
    `- Sleeping is OFF in every engine (${COMPARABLE.sleeping}), so all engines simulate every body every step; ` +
      `velocity iterations ${COMPARABLE.velocityIterations} where the engine has such a setting (see per-engine notes).`,
  );
  lines.push(
    `- Drift: largest distance any dynamic body moved between step ${SETTLED_STEP} (settled pose) and the last step ` +
      `(step ${WARMUP_STEPS + TIMED_STEPS}); only for scenes built at rest (pyramids, tower). ` +
      'Escaped: dynamic bodies whose centre ends outside the scene bounds (below the ground top, outside the container) or is not finite.',
  );
  lines.push('- Ratio vs footing: engine median / footing median on the same scene (> 1: footing is faster).');
  lines.push(
    '- Joint error (jointed scenes only): largest distance between a joint\'s two anchors after the last step, from the ' +
      'engines\' body poses; engines whose adapter builds no joints (crashcat) are not run on those scenes.',
  );
  for (const a of adapters) lines.push(`- ${a.name} (${a.version}): ${a.notes}`);
  // Mean over the perturbed copies of a scene (PEERS_VARIANTS).
  for (const s of scenes) {
    const copies = rows.filter((r) => r.scene === s.name || r.scene.startsWith(`${s.name}~`));
    if (s.name.includes('~') || copies.length === rows.filter((r) => r.scene === s.name).length) continue;
    const parts: string[] = [];
    for (const a of adapters) {
      const mine = copies.filter((r) => r.engine === a.name && r.error === undefined);
      if (mine.length === 0) continue;
      const mean = mine.reduce((t, r) => t + r.median, 0) / mine.length;
      parts.push(`${a.name} ${fmt(mean, 3)}`);
    }
    lines.push(`- ${s.name}, mean median ms/step over ${copies.length / Math.max(1, new Set(copies.map((r) => r.engine)).size)} copies (PEERS_VARIANTS): ${parts.join(', ')}`);
  }
  for (const m of missing) lines.push(`- not measured — ${m}`);
  lines.push('');
  lines.push('Scenes:');
  for (const s of scenes) lines.push(`- ${s.name}: ${s.description}`);
  return lines.join('\n');
}

describe('peer table', () => {
  it('measures every engine on every scene', async () => {
    const wantedScenes = process.env.PEERS_SCENES?.split(',').map((s) => s.trim());
    const names = BENCHMARK_SCENE_NAMES.filter((n) => !wantedScenes || wantedScenes.includes(n));
    const { adapters, missing } = await loadAdapters();
    const scenes: Scene[] = names.map((n) => benchmarkScene(n));
    for (const [name, make] of Object.entries(JOINTED_SCENES)) {
      if (wantedScenes && !wantedScenes.includes(name)) continue;
      const base = make();
      scenes.push(base);
      for (let k = 1; k < VARIANTS; k++) scenes.push(perturbed(base, k));
    }
    const loadBefore = loadavg()[0]!.toFixed(2);
    const rows: Row[] = [];
    for (const scene of scenes) {
      const best = new Map<string, Row>();
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? adapters : [...adapters].reverse();
        for (const adapter of order) {
          if (sceneJoints(scene).length > 0 && !adapter.joints) continue; // this adapter builds no joints
          if (!buildsShapes(adapter, scene)) continue; // nor every shape of this scene
          let row: Row;
          try {
            row = await measure(scene, adapter);
            console.log(
              `${scene.name} / ${adapter.name} (round ${round + 1}): median ${fmt(row.median, 3)} ms, p95 ${fmt(row.p95, 3)} ms, ` +
                `drift ${fmt(row.drift, 2)} cm, escaped ${row.escaped}/${row.dynamic}, joint error ${fmt(row.jointError, 2)} mm`,
            );
          } catch (e) {
            const message = (e as Error).message ?? String(e);
            row = {
              scene: scene.name, engine: adapter.name, median: NaN, mean: NaN, p95: NaN, drift: NaN, escaped: 0,
              dynamic: countDynamic(scene), jointError: NaN, error: message,
            };
            console.log(`${scene.name} / ${adapter.name}: error ${message}`);
          }
          const kept = best.get(adapter.name);
          if (!kept || kept.error !== undefined || (row.error === undefined && row.median < kept.median)) best.set(adapter.name, row);
        }
      }
      for (const adapter of adapters) {
        const row = best.get(adapter.name);
        if (row) rows.push(row);
      }
    }
    const table = render(rows, adapters, scenes, missing, loadBefore);
    console.log(`\n${table}\n`);
    if (process.env.PEER_TABLE_OUT) writeFileSync(process.env.PEER_TABLE_OUT, `${table}\n`);

    // The table is the output; the assertion only checks that every peer produced a timing.
    for (const r of rows) {
      if (r.engine === 'footing') continue;
      expect(r.error).toBeUndefined();
      expect(r.median).toBeGreaterThan(0);
      expect(r.median).toBeLessThan(10_000);
    }
  });
});
