/**
 * Runs fuzz worlds and reports. `runWorld` is shared by the test
 * (fuzz.test.ts) and the command line (`npm run fuzz`, test/fuzz/fuzz.mjs →
 * `main`).
 */
import { buildFooting, BODY_STRIDE, type EngineName, type FuzzInstance } from './engines';
import { CHECK_NAMES, ENERGY_ABS_TOLERANCE, ENERGY_TOLERANCE, WorldChecker, describeBody, describeJoint, type CheckName, type Failure } from './checks';
import { generateWorld, subsetWorld, type FuzzWorldSpec } from './generator';

export interface WorldResult {
  readonly seed: number;
  readonly joints: boolean;
  readonly engine: EngineName;
  readonly bodies: number;
  readonly jointCount: number;
  readonly stepsRun: number;
  readonly failures: readonly Failure[];
  readonly maxEnergyExcessRatio: number;
  readonly maxEnergyExcessStep: number;
  readonly maxDepthRatio: number;
  readonly maxDepth: number;
  readonly omitted: string;
  readonly ms: number;
  readonly subset: Subset;
}

export interface RunOptions {
  readonly engine?: EngineName;
  /** Keep every body's state of every step (for --verbose trajectories). */
  readonly history?: boolean;
  /** Override the step count (default spec.steps, 600). */
  readonly steps?: number;
}

type PeerBuilder = (spec: FuzzWorldSpec) => Promise<FuzzInstance>;
/** Set by cli.ts (the peers load WebAssembly engines the test does not need). */
const peerBuilders: { rapier?: PeerBuilder; jolt?: PeerBuilder } = {};

export function registerPeers(rapier: PeerBuilder, jolt: PeerBuilder): void {
  peerBuilders.rapier = rapier;
  peerBuilders.jolt = jolt;
}

export async function buildEngine(spec: FuzzWorldSpec, engine: EngineName): Promise<FuzzInstance> {
  if (engine === 'footing') return buildFooting(spec);
  const build = peerBuilders[engine];
  if (!build) throw new Error(`fuzz: the ${engine} peer is not registered (run through test/fuzz/cli.ts)`);
  return build(spec);
}

/** Narrowing a world down: only these bodies (spec indices), and whether characters, cloth and rope stay. */
export interface Subset {
  readonly keep?: readonly number[];
  readonly extras?: boolean;
  /** GeneratorOptions.rigidStart. */
  readonly rigidStart?: boolean;
  /** GeneratorOptions.newShapes. */
  readonly newShapes?: boolean;
}

export function reproduction(seed: number, joints: boolean, engine: EngineName, subset: Subset = {}): string {
  return `npm run fuzz -- --seed ${seed} --worlds 1${joints ? ' --joints' : ''}${engine !== 'footing' ? ` --engine ${engine}` : ''}` +
    `${subset.keep ? ` --keep ${subset.keep.join(',')}` : ''}${subset.extras === false ? ' --bodies-only' : ''}${subset.rigidStart ? ' --rigid-start' : ''}${subset.newShapes ? ' --new-shapes' : ''} --verbose`;
}

export function worldSpec(seed: number, joints: boolean, subset: Subset = {}): FuzzWorldSpec {
  const spec = generateWorld(seed, { joints, rigidStart: subset.rigidStart, newShapes: subset.newShapes });
  if (!subset.keep && subset.extras !== false) return spec;
  const bad = subset.keep?.find((k) => k >= spec.bodies.length);
  if (bad !== undefined) throw new Error(`--keep ${bad}: seed ${seed} has ${spec.bodies.length} bodies (0–${spec.bodies.length - 1})`);
  return subsetWorld(spec, subset.keep ?? spec.bodies.map((_, i) => i), subset.extras ?? true);
}

export async function runWorld(seed: number, joints: boolean, options: RunOptions = {}, history?: Float64Array[], subset: Subset = {}): Promise<WorldResult> {
  const engine = options.engine ?? 'footing';
  const started = performance.now();
  const spec = worldSpec(seed, joints, subset);
  const steps = options.steps ?? spec.steps;
  let stepsRun = 0;
  const instance = await buildEngine(spec, engine);
  const checker = new WorldChecker(spec, instance);
  try {
    checker.start();
    if (history) history.push(checker.state.slice());
    for (let s = 0; s < steps; s++) {
      try {
        instance.step(s);
      } catch (error) {
        checker.recordThrown(s, error);
        break;
      }
      stepsRun = s + 1;
      checker.check(s);
      if (history) history.push(checker.state.slice());
      if (checker.stopped) break;
    }
  } finally {
    instance.dispose();
  }
  return {
    seed, joints, engine, bodies: spec.bodies.length, jointCount: instance.jointCount, stepsRun, subset,
    failures: checker.failures, maxEnergyExcessRatio: checker.maxEnergyExcessRatio, maxEnergyExcessStep: checker.maxEnergyExcessStep,
    maxDepthRatio: checker.maxDepthRatio, maxDepth: checker.maxDepth, omitted: instance.omitted, ms: performance.now() - started,
  };
}

function firstFailure(r: WorldResult): Failure | undefined {
  let first: Failure | undefined;
  for (const f of r.failures) if (!first || f.step < first.step) first = f;
  return first;
}

/**
 * Delta debugging over the bodies: the smallest set found (removing halves,
 * then quarters, ... down to single bodies) whose world still fails the check
 * that failed first in the whole world (or `check`). Characters, cloth and rope go first if
 * the failure stays without them. Returns the subset and its result.
 */
export async function minimize(
  seed: number, joints: boolean, engine: EngineName, log: (line: string) => void, check?: CheckName, rigidStart = false,
): Promise<{ subset: Subset; result: WorldResult } | null> {
  const whole = await runWorld(seed, joints, { engine }, undefined, { rigidStart });
  const target = check ? whole.failures.find((f) => f.check === check) : firstFailure(whole);
  if (!target) return null;
  const fails = async (subset: Subset): Promise<WorldResult | null> => {
    const r = await runWorld(seed, joints, { engine }, undefined, { ...subset, rigidStart });
    return r.failures.some((f) => f.check === target.check) ? r : null;
  };
  let keep = Array.from({ length: whole.bodies }, (_, i) => i);
  let extras = true;
  let best = whole;
  const noExtras = await fails({ keep, extras: false });
  if (noExtras) { extras = false; best = noExtras; }
  log(`minimize seed ${seed}: target check ${target.check} (first at step ${target.step}); ${keep.length} bodies${extras ? '' : ', no characters/cloth/rope'}`);
  for (let chunk = Math.ceil(keep.length / 2); chunk >= 1; chunk = chunk === 1 ? 0 : Math.ceil(chunk / 2)) {
    for (let start = 0; start < keep.length;) {
      const candidate = keep.slice(0, start).concat(keep.slice(start + chunk));
      const r = candidate.length > 0 ? await fails({ keep: candidate, extras }) : null;
      if (r) {
        keep = candidate;
        best = r;
      } else {
        start += chunk;
      }
    }
    log(`  chunk ${chunk}: ${keep.length} bodies left`);
  }
  return { subset: { keep, extras, rigidStart }, result: best };
}

/** One line per failure: seed, step, check, body, value and the reproduction command. */
export function formatFailure(r: WorldResult, f: Failure): string {
  return `[fuzz ${r.engine}${r.joints ? ' joints' : ''}] seed ${r.seed} step ${f.step} ${f.check}: ${f.message}\n    repro: ${reproduction(r.seed, r.joints, r.engine, r.subset)}`;
}

export const ENERGY_BOUND_TEXT =
  `energy bound: E(t) = Σ(½m|v|² + ½Σ I_k ω_k² + m g y) over bodies and free particles ≤ E(0) + t·Σ_hinges maxMotorTorque·|motorSpeed| ` +
  `+ ${ENERGY_TOLERANCE}·(E(0) − E_min) + ${ENERGY_ABS_TOLERANCE} J (restitution ≤ 1 and springs that start unstretched supply nothing; characters do no work)`;

/** Failure counts per check: worlds with at least one failure of that check. */
export function countByCheck(results: readonly WorldResult[]): Record<CheckName, number> {
  const counts = Object.fromEntries(CHECK_NAMES.map((c) => [c, 0])) as Record<CheckName, number>;
  for (const r of results) {
    const checks = new Set(r.failures.map((f) => f.check));
    for (const c of checks) counts[c]++;
  }
  return counts;
}

interface CliArgs {
  worlds: number; seed: number; joints: boolean; both: boolean; engine: EngineName; verbose: boolean; steps?: number;
  keep?: number[]; extras: boolean; minimize: boolean; target?: CheckName; rigidStart: boolean; newShapes: boolean;
}

const USAGE = '--worlds N --seed S [--joints | --both] [--engine footing|rapier|jolt] [--steps N] [--verbose] ' +
  '[--keep i,j,... (only these bodies)] [--bodies-only (no characters, cloth, rope)] [--minimize (smallest body set that fails) [--target check]] ' +
  '[--rigid-start (jointed bodies start in a motion their joints allow)] [--new-shapes (compound bodies, height-field terrain; the peers build the terrain as its mesh)]';

function parseArgs(argv: readonly string[]): CliArgs {
  const out: CliArgs = { worlds: 10, seed: 1, joints: false, both: false, engine: 'footing', verbose: false, extras: true, minimize: false, rigidStart: false, newShapes: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--worlds') out.worlds = Number(next());
    else if (a === '--seed') out.seed = Number(next());
    else if (a === '--joints') out.joints = true;
    else if (a === '--both') out.both = true;
    else if (a === '--engine') out.engine = next() as EngineName;
    else if (a === '--verbose') out.verbose = true;
    else if (a === '--steps') out.steps = Number(next());
    else if (a === '--keep') out.keep = next().split(',').map(Number);
    else if (a === '--bodies-only') out.extras = false;
    else if (a === '--minimize') out.minimize = true;
    else if (a === '--rigid-start') out.rigidStart = true;
    else if (a === '--new-shapes') out.newShapes = true;
    else if (a === '--target') out.target = next() as CheckName;
    else throw new Error(`unknown argument ${a} (use ${USAGE})`);
  }
  if (!Number.isInteger(out.worlds) || out.worlds < 1) throw new Error('--worlds must be an integer ≥ 1');
  if (!Number.isInteger(out.seed)) throw new Error('--seed must be an integer');
  if (!['footing', 'rapier', 'jolt'].includes(out.engine)) throw new Error('--engine must be footing, rapier or jolt');
  if (out.keep && !out.keep.every((k) => Number.isInteger(k) && k >= 0)) throw new Error('--keep takes body indices i,j,...');
  return out;
}

function printTrajectory(spec: FuzzWorldSpec, history: readonly Float64Array[], f: Failure): void {
  if (f.what !== 'body' && !(f.what === 'world' && f.index >= 0)) return;
  const i = f.index, o = BODY_STRIDE * i;
  console.log(`  trajectory of ${describeBody(spec, i)} (step: position | ‖q‖ | velocity | angular velocity):`);
  // history[0] is the start state, history[s + 1] the state after step s.
  const from = Math.max(0, f.step - 12), to = Math.min(history.length - 1, f.step + 4);
  for (let s = from; s <= to; s++) {
    const st = history[s]!;
    const p = (k: number): string => st[o + k]!.toFixed(4).padStart(11);
    const qn = Math.hypot(st[o + 3]!, st[o + 4]!, st[o + 5]!, st[o + 6]!);
    const label = s === 0 ? 'start' : String(s - 1);
    console.log(`  ${label.padStart(5)}${s - 1 === f.step ? '*' : ' '} ${p(0)} ${p(1)} ${p(2)} | ${qn.toFixed(9)} | ${p(7)} ${p(8)} ${p(9)} | ${p(10)} ${p(11)} ${p(12)}`);
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args.minimize) {
    for (const joints of args.both ? [false, true] : [args.joints]) {
      for (let k = 0; k < args.worlds; k++) {
        const m = await minimize(args.seed + k, joints, args.engine, (line) => console.log(line), args.target, args.rigidStart);
        if (!m) {
          console.log(`seed ${args.seed + k}: no failure`);
          continue;
        }
        const r = m.result;
        console.log(`seed ${r.seed}: smallest failing set ${m.subset.keep!.join(',')} (${m.subset.extras ? 'with' : 'without'} characters/cloth/rope)`);
        const spec = worldSpec(r.seed, joints, m.subset);
        for (let i = 0; i < spec.bodies.length; i++) console.log(`  ${describeBody(spec, i)}`);
        for (let k = 0; k < spec.jointSpecs.length; k++) console.log(`  joint: ${describeJoint(spec, k)}`);
        for (const f of r.failures) console.log(formatFailure(r, f));
      }
    }
    return 0;
  }
  const jointModes = args.both ? [false, true] : [args.joints];
  console.log(`fuzz: engine ${args.engine}, ${args.worlds} world(s) per mode from seed ${args.seed}, ${jointModes.map((j) => (j ? 'with joints' : 'without joints')).join(' and ')}`);
  console.log(ENERGY_BOUND_TEXT);
  let anyFailure = false;
  for (const joints of jointModes) {
    const results: WorldResult[] = [];
    const started = performance.now();
    for (let k = 0; k < args.worlds; k++) {
      const seed = args.seed + k;
      const history: Float64Array[] | undefined = args.verbose ? [] : undefined;
      const subset: Subset = { keep: args.keep, extras: args.extras, rigidStart: args.rigidStart, newShapes: args.newShapes };
      const r = await runWorld(seed, joints, { engine: args.engine, steps: args.steps }, history, subset);
      results.push(r);
      const status = r.failures.length === 0 ? 'ok' : `FAIL (${[...new Set(r.failures.map((f) => f.check))].join(', ')})`;
      // Which kinds of thing failed each check (bodies, particles, characters), e.g. "finite: 40 body, 12 particle".
      const kinds = new Map<string, number>();
      for (const f of r.failures) if (f.what !== 'world') kinds.set(`${f.check} ${f.what}`, (kinds.get(`${f.check} ${f.what}`) ?? 0) + 1);
      const breakdown = [...kinds].map(([k, n]) => `${n} ${k}`).join(', ');
      console.log(`seed ${seed}${joints ? ' joints' : ''}: ${r.bodies} bodies, ${r.jointCount} joints, ${r.stepsRun} steps, ` +
        `max energy excess ${(r.maxEnergyExcessRatio * 100).toFixed(3)} % (step ${r.maxEnergyExcessStep}), ` +
        `max depth/size ${r.maxDepthRatio.toFixed(3)} (${r.maxDepth.toFixed(3)} m), ${r.ms.toFixed(0)} ms: ${status}` +
        (breakdown ? ` [${breakdown}]` : ''));
      if (r.failures.length > 0) anyFailure = true;
      // The first failure of each check, with its reproduction (and more bodies counted).
      const byCheck = new Map<CheckName, Failure[]>();
      for (const f of r.failures) {
        const list = byCheck.get(f.check) ?? [];
        list.push(f);
        byCheck.set(f.check, list);
      }
      for (const [check, list] of byCheck) {
        const first = list.reduce((a, b) => (b.step < a.step ? b : a));
        console.log(formatFailure(r, first) + (list.length > 1 ? `\n    (${list.length} ${check} failures in this world)` : ''));
        if (history) {
          if (args.verbose) for (const f of list.slice(0, 3)) printTrajectory(worldSpec(seed, joints, subset), history, f);
        }
      }
    }
    const counts = countByCheck(results);
    const failed = results.filter((r) => r.failures.length > 0).length;
    const seconds = (performance.now() - started) / 1000;
    console.log(`\nsummary ${args.engine}${joints ? ' with joints' : ' without joints'}: ${failed} of ${results.length} worlds failed ` +
      `(seeds ${args.seed}–${args.seed + args.worlds - 1}, ${seconds.toFixed(1)} s)`);
    for (const c of CHECK_NAMES) console.log(`  ${c.padEnd(11)} ${counts[c]} world(s)`);
    const deep = results.filter((r) => r.maxDepth > 0.5).length;
    console.log(`  (for comparison with absolute thresholds: ${deep} world(s) had a lowest point more than 0.5 m under the ground)`);
    if (results[0]?.omitted) console.log(`  left out for ${args.engine}: ${results[0].omitted}`);
    const failing = results.filter((r) => r.failures.length > 0).map((r) => r.seed);
    if (failing.length > 0) console.log(`  failing seeds: ${failing.join(' ')}`);
  }
  return anyFailure ? 1 : 0;
}
