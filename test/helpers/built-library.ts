/**
 * Allocation checks run the built library in a plain Node process: production
 * code without the test runner's module instrumentation, measured in V8's
 * steady state, i.e. once the hot functions run as optimised code (the
 * interpreter and baseline code box every double they compute, ~16 B each).
 * Two flags make that state arrive within the warm-up on any machine:
 * - `--no-concurrent-recompilation`: optimise synchronously. With the
 *   background compiler, on a loaded machine the optimised code is sometimes
 *   not installed by the end of the warm-up — that measures the load.
 * - `--interrupt-budget=2048`: V8 optimises a function after it has used up
 *   its interrupt budget a number of times; functions that run once per step
 *   (ground probe, step-up, tetrahedron reduction) get there only after
 *   minutes of 60 Hz play with the default budget (67584). A smaller budget
 *   shortens the warm-up; it does not change the optimised code.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '../..');

/** Builds footing (and footing/character) unminified into a fresh temporary directory; returns it. */
export async function buildLibrary(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'footing-alloc-'));
  await build({
    configFile: false, logLevel: 'silent', root,
    resolve: { alias: [{ find: /^footing$/, replacement: resolve(root, 'src/index.ts') }] },
    build: {
      outDir: dir, emptyOutDir: true, minify: false,
      lib: { entry: { footing: resolve(root, 'src/index.ts'), character: resolve(root, 'character/index.ts') }, formats: ['es'] },
    },
  });
  return dir;
}

/**
 * Writes `source` next to the built library (it imports './footing.js' or
 * './character.js'), runs it with the flags above, and parses the JSON object
 * on its last line of output (earlier lines are echoed).
 */
export function runScenario<T>(dir: string, name: string, source: string): T {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, source);
  const out = execFileSync(process.execPath, ['--no-concurrent-recompilation', '--interrupt-budget=2048', '--expose-gc', file], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const lines = out.trim().split('\n');
  for (const line of lines.slice(0, -1)) console.log(line);
  return JSON.parse(lines[lines.length - 1]!) as T;
}

/**
 * Source text of `newSpace()`, the bytes in use in V8's new space, and of
 * `emptyWindow()`, the bytes a measurement window with nothing in it reports
 * (reading the statistics allocates its own result objects). Each scenario
 * measures in plain loops of its own: a shared `window(f)` helper makes its
 * call site polymorphic, and the deoptimised caller runs the inlined step as
 * unoptimised code.
 */
export const MEASURE_SOURCE = `
import v8 from 'node:v8';
const newSpace = () => { for (const s of v8.getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_used_size; return 0; };
function emptyWindow() {
  let best = Infinity;
  for (let k = 0; k < 10; k++) { const a = newSpace(); const b = newSpace(); if (b >= a && b - a < best) best = b - a; }
  return best;
}
`;
