#!/usr/bin/env node
/**
 * Runs a benchmark command pinned to one core: the core whose memory latency
 * measures lowest right now (a pointer chase through a 16 MB random cycle,
 * best of three short runs per core). All engines of a peer table then run on
 * the same core for the whole table.
 *
 * Why: this development machine is a 2-core VM whose cores do not see memory
 * at the same speed. On one day a pointer chase took 145–157 ms on core 0 and
 * 199–237 ms on core 1 while plain arithmetic ran equally fast on both, so a
 * process the scheduler happened to start on core 1 stepped a base-40 pyramid
 * in 7–19 ms instead of 5 ms, and the JavaScript engines (object graphs on the
 * heap) lost more there than the WASM ones (one compact linear memory). The
 * same-process ratios of a peer table then depended on where the process
 * landed.
 *
 * Usage: node test/bench/pinned.mjs <command> [args...]
 * Without `taskset` (util-linux) or with one core, the command runs unpinned.
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';

const CHASE = `
const n = 1 << 22, a = new Int32Array(n);
for (let i = 0; i < n; i++) a[i] = i;
let s = 1;
for (let i = n - 1; i > 0; i--) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; const j = s % (i + 1); const t = a[i]; a[i] = a[j]; a[j] = t; }
let p = 0;
const t0 = performance.now();
for (let k = 0; k < 2e6; k++) p = a[p];
console.log(performance.now() - t0 + (p < 0 ? 1 : 0));
`;

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: node test/bench/pinned.mjs <command> [args...]');
  process.exit(2);
}

function chaseMs(core) {
  const r = spawnSync('taskset', ['-c', String(core), process.execPath, '-e', CHASE], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return NaN;
  return Number(r.stdout.trim());
}

let prefix = [];
const cores = cpus().length;
if (cores > 1) {
  const results = [];
  for (let core = 0; core < cores; core++) {
    let best = Infinity;
    for (let k = 0; k < 3; k++) best = Math.min(best, chaseMs(core));
    results.push(best);
  }
  if (results.every((ms) => Number.isFinite(ms))) {
    let pick = 0;
    for (let core = 1; core < cores; core++) if (results[core] < results[pick]) pick = core;
    console.log(`[pinned] pointer chase per core (ms): ${results.map((ms, core) => `${core}: ${ms.toFixed(1)}`).join(', ')}; running on core ${pick}`);
    prefix = ['taskset', '-c', String(pick)];
  } else {
    console.log('[pinned] taskset unavailable: running unpinned');
  }
}
const full = [...prefix, ...command];
const r = spawnSync(full[0], full.slice(1), { stdio: 'inherit' });
process.exit(r.status ?? 1);
