/**
 * Ragdoll floor dip: how deep a ragdoll's limbs go into the floor when it is
 * dropped from 3 m, in footing and the peer engines, on the same scenes
 * (test/scenes/ragdoll-drop.ts: one ragdoll of ragdolls-32, seeded random
 * orientation, lowest point 3 m above the floor top). Run with
 * `npm run bench:ragdoll-drops`, i.e.
 *   npm run build && node test/bench/pinned.mjs npx vitest run --config test/bench/vitest.ragdoll-drops.config.ts
 * Optional environment: DROPS=72 (drops per engine)  DROP_SEED=1 (drop k uses seed DROP_SEED + k)
 * DROP_ENGINES=footing,Rapier,Jolt,cannon-es  DROP_SETTINGS=comparable,defaults (which runs; both unless told).
 *
 * Per drop and engine: build, then 6 s of steps at the scene's dt (1/60);
 * after every step the body poses are read (readPoses) and each body's lowest
 * world point is computed here from the pose and the shape the engine
 * collides with, the same code for every engine. Recorded: the dip (mm below
 * the floor top of the lowest point over all bodies and steps), the dip left
 * after the last step, and the largest joint anchor separation over all steps
 * (JointErrorMeter). Two runs: 'comparable' uses the peer table's settings
 * (COMPARABLE: sleeping off, 10 velocity iterations where the engine has
 * them; footing's solver at its defaults), 'defaults' leaves sleeping and
 * iterations at each engine's own defaults.
 */
import { describe, expect, it } from 'vitest';
import { lowestPoint, ragdollDropScene } from '../scenes/ragdoll-drop';
import type { ShapeDesc } from '../scenes/scene';
import { COMPARABLE, type EngineAdapter, type EngineSettings } from './peers/adapter';
import { cannonAdapter } from './peers/cannon';
import { footingAdapter } from './peers/footing';
import { joltAdapter } from './peers/jolt';
import { rapierAdapter } from './peers/rapier';

const DROPS = Math.max(1, Number(process.env.DROPS ?? 72));
const FIRST_SEED = Number(process.env.DROP_SEED ?? 1);
const SECONDS = 6;
/** Bone names in skeleton() order (test/scenes/ragdolls.ts); L is −x in model space. */
const BONES = ['torso', 'head', 'upper arm L', 'lower arm L', 'upper arm R', 'lower arm R', 'upper leg L', 'lower leg L', 'upper leg R', 'lower leg R'];
/** Jolt's BoxShape default convex radius (m): the adapter's boxes are rounded by it inside their extents. */
const JOLT_CONVEX_RADIUS = 0.05;

const RUNS: Record<string, { settings: EngineSettings; note: string }> = {
  comparable: {
    settings: COMPARABLE,
    note: `COMPARABLE (the peer table's): sleeping ${COMPARABLE.sleeping} in every engine, velocity iterations ` +
      `${COMPARABLE.velocityIterations} (Jolt mNumVelocitySteps, cannon-es GSSolver; unused by footing's soft solver and by Rapier, left at 4).`,
  },
  defaults: {
    settings: {},
    note: 'engine defaults for sleeping and iterations: footing sleeping.enabled true; Rapier canSleep true, numSolverIterations 4; ' +
      'Jolt mAllowSleeping true, mNumVelocitySteps 10; cannon-es allowSleep false, GSSolver 10. Other adapter settings as in the notes.',
  },
};

interface Drop {
  seed: number;
  /** mm below the floor top: the lowest point over all bodies and steps. */
  dip: number;
  dipBone: string;
  dipTime: number;
  /** mm below the floor top after the last step. */
  final: number;
  /** mm, largest over all steps. */
  jointError: number;
}

/**
 * The shape `engine` collides with, for the lowest point: an inner shape and
 * a rounding radius around it. cannon-es builds ragdoll limbs as the
 * capsules' bounding boxes (peers/cannon.ts); Jolt rounds boxes by its convex
 * radius inside the given extents (peers/jolt.ts).
 */
function collisionShape(engine: string, shape: ShapeDesc): { inner: ShapeDesc; rounding: number } {
  if (engine === 'cannon-es' && shape.kind === 'capsule') {
    return { inner: { kind: 'box', halfExtents: { x: shape.radius, y: shape.halfHeight + shape.radius, z: shape.radius } }, rounding: 0 };
  }
  if (engine === 'Jolt' && shape.kind === 'box') {
    const h = shape.halfExtents, c = JOLT_CONVEX_RADIUS;
    return { inner: { kind: 'box', halfExtents: { x: h.x - c, y: h.y - c, z: h.z - c } }, rounding: c };
  }
  return { inner: shape, rounding: 0 };
}

async function drop(adapter: EngineAdapter, settings: EngineSettings, seed: number): Promise<Drop> {
  const scene = ragdollDropScene(seed);
  const floor = scene.bodies[0]!;
  if (floor.shape.kind !== 'box') throw new Error('the floor is a box');
  const floorTop = floor.position.y + floor.shape.halfExtents.y;
  const shapes = scene.bodies.map((b) => collisionShape(adapter.name, b.shape));
  const first = scene.firstRagdollBody;
  const poses = new Float64Array(7 * scene.bodies.length);
  const lowestNow = (): { y: number; body: number } => {
    let y = Infinity, body = -1;
    for (let i = first; i < scene.bodies.length; i++) {
      const o = 7 * i;
      const s = shapes[i]!;
      const p = { x: poses[o]!, y: poses[o + 1]!, z: poses[o + 2]! };
      const q = { x: poses[o + 3]!, y: poses[o + 4]!, z: poses[o + 5]!, w: poses[o + 6]! };
      const low = lowestPoint(s.inner, p, q) - s.rounding;
      if (!(low >= y)) { y = low; body = i; } // NaN wins: a body that blew up is the deepest
    }
    return { y, body };
  };
  const instance = await adapter.create(scene, settings);
  try {
    if (!instance.readPoses || !instance.maxJointError) throw new Error(`${adapter.name}: no readPoses/maxJointError`);
    const steps = Math.round(SECONDS / scene.dt);
    const result: Drop = { seed, dip: -Infinity, dipBone: '', dipTime: 0, final: NaN, jointError: 0 };
    for (let s = 1; s <= steps; s++) {
      instance.step();
      instance.readPoses(poses);
      const low = lowestNow();
      const dip = 1000 * (floorTop - low.y);
      if (!(dip <= result.dip)) {
        result.dip = dip;
        result.dipBone = BONES[low.body - first] ?? '?';
        result.dipTime = s * scene.dt;
      }
      const e = 1000 * instance.maxJointError();
      if (!(e <= result.jointError)) result.jointError = e;
      if (s === steps) result.final = dip;
    }
    return result;
  } finally {
    instance.dispose();
  }
}

/** The q-quantile of ascending `sorted` (as the peer table: the value at rank ⌈q n⌉). */
function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function fmt(x: number, digits = 1): string {
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}

function worst(drops: readonly Drop[], key: 'dip' | 'final' | 'jointError'): Drop {
  let w = drops[0]!;
  for (const d of drops) if (!(d[key] <= w[key])) w = d;
  return w;
}

function row(engine: string, drops: readonly Drop[]): string {
  const dips = drops.map((d) => d.dip).sort((a, b) => a - b);
  const finals = drops.map((d) => d.final).sort((a, b) => a - b);
  const wd = worst(drops, 'dip'), wf = worst(drops, 'final'), wj = worst(drops, 'jointError');
  return `| ${engine} | ${fmt(percentile(dips, 0.5))} | ${fmt(percentile(dips, 0.9))} | ` +
    `${fmt(wd.dip)} (seed ${wd.seed}, ${wd.dipBone}, t ${fmt(wd.dipTime, 2)} s) | ` +
    `${drops.filter((d) => !(d.dip <= 10)).length} | ${drops.filter((d) => !(d.dip <= 30)).length} | ` +
    `${fmt(percentile(finals, 0.5))} | ${fmt(wf.final)} (seed ${wf.seed}) | ${fmt(wj.jointError)} (seed ${wj.seed}) |`;
}

describe('ragdoll drops', () => {
  it('measures the floor dip of dropped ragdolls in every engine', async () => {
    const wantedEngines = process.env.DROP_ENGINES?.split(',').map((s) => s.trim().toLowerCase());
    const adapters = [footingAdapter, rapierAdapter, joltAdapter, cannonAdapter]
      .filter((a) => !wantedEngines || wantedEngines.includes(a.name.toLowerCase()));
    const wantedRuns = process.env.DROP_SETTINGS?.split(',').map((s) => s.trim());
    const runs = Object.keys(RUNS).filter((r) => !wantedRuns || wantedRuns.includes(r));
    const lines: string[] = [];
    lines.push(
      `Ragdoll drops — ${DROPS} drops per engine, seeds ${FIRST_SEED}–${FIRST_SEED + DROPS - 1} ` +
        `(${ragdollDropScene(FIRST_SEED).description.replace(`seed ${FIRST_SEED}`, 'per seed')}); ` +
        `${SECONDS} s at dt 1/60 per drop.`,
    );
    for (const run of runs) {
      const { settings, note } = RUNS[run]!;
      lines.push('');
      lines.push(`Settings '${run}': ${note}`);
      lines.push('');
      lines.push('| engine | median dip (mm) | 90th pct dip | worst dip | drops > 1 cm | drops > 3 cm | median final | worst final | worst joint error (mm) |');
      lines.push('|---|---:|---:|---|---:|---:|---:|---|---|');
      for (const adapter of adapters) {
        const drops: Drop[] = [];
        for (let k = 0; k < DROPS; k++) drops.push(await drop(adapter, settings, FIRST_SEED + k));
        const line = row(adapter.name, drops);
        console.log(`${run}: ${line}`);
        lines.push(line);
        expect(drops.length).toBe(DROPS);
      }
    }
    lines.push('');
    lines.push('Notes:');
    lines.push(
      '- dip: mm below the floor top (y = 0) of the lowest point of any body, over all steps (negative: never reached the floor); ' +
        'final: the same after the last step; joint error: largest anchor separation over all steps (JointErrorMeter). ' +
        '90th pct dip: 10 % of the drops dip at least this deep.',
    );
    lines.push(
      '- lowest point per body from its pose, the same code for every engine (ragdoll-drop.ts lowestPoint): box, its lowest corner; ' +
        'sphere, y − r; capsule, the lower segment end − r. Geometry as each engine collides: cannon-es limbs are the capsules\' ' +
        `bounding boxes (its ragdoll adapter), Jolt's torso box is rounded by its ${JOLT_CONVEX_RADIUS} m convex radius inside its extents.`,
    );
    for (const a of adapters) lines.push(`- ${a.name} (${a.version}): ${a.notes}`);
    console.log(`\n${lines.join('\n')}\n`);
  });
});
