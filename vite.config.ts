import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const root = import.meta.dirname;

// Both builds keep top-level `const` (Vite's default rewrites it to `var`).
// V8 folds a module's immutable constants — the solver's row offsets, e.g.
// R_N, ROW_STRIDE in src/dynamics/contact-solver.ts — into the code it
// compiles, and must load a `var` from the module context at every use
// (measured in docs/benchmarks.md).
//
// One config, three jobs:
//   `vite` / `vite build --mode demo`  the Babylon demo (root demo/)
//   `vite build --mode lib`            the library (dist/, three entry points)
//   `vitest`                           unit and scenario tests (test/)
/**
 * Keeps @babylonjs/* external and writes each import fully specified
 * (`@babylonjs/core/Maths/math.vector.js`): @babylonjs/core has no `exports`
 * map, so Node's ESM loader resolves only the file's real name, while the
 * sources keep the extensionless form bundlers and TypeScript accept.
 */
function fullySpecifiedBabylon(): Plugin {
  return {
    name: 'footing:fully-specified-babylon',
    enforce: 'pre',
    resolveId(source) {
      const m = /^(@babylonjs\/[^/]+)\/(.+)$/.exec(source);
      if (!m) return source.startsWith('@babylonjs/') ? { id: source, external: true } : null;
      const [, pkg, sub] = m as unknown as [string, string, string];
      if (sub.endsWith('.js')) return { id: source, external: true };
      const base = resolve(root, 'node_modules', pkg);
      if (existsSync(resolve(base, `${sub}.js`))) return { id: `${pkg}/${sub}.js`, external: true };
      if (existsSync(resolve(base, sub, 'index.js'))) return { id: `${pkg}/${sub}/index.js`, external: true };
      this.error(`footing: cannot find ${source}.js or ${source}/index.js in node_modules`);
    },
  };
}

export default defineConfig(({ mode }) => {
  if (mode === 'lib') {
    return {
      plugins: [fullySpecifiedBabylon()],
      build: {
        outDir: resolve(root, 'dist'),
        emptyOutDir: true,
        sourcemap: true,
        lib: {
          entry: {
            footing: resolve(root, 'src/index.ts'),
            character: resolve(root, 'character/index.ts'),
            babylon: resolve(root, 'src/babylon/index.ts'),
            worker: resolve(root, 'src/worker/index.ts'),
          },
          formats: ['es'],
        },
        rolldownOptions: {
          output: { topLevelVar: false },
        },
      },
    };
  }
  return {
    root: resolve(root, 'demo'),
    base: './',
    server: { host: '127.0.0.1' },
    preview: { host: '127.0.0.1' },
    // babylon-v2.html's Havok finds its .wasm beside its own module (new URL(…, import.meta.url)):
    // pre-bundled into .vite/deps, it would look for it there.
    optimizeDeps: { exclude: ['@babylonjs/havok'] },
    // The demo's ?worker mode loads demo/physics.worker.ts as a module worker.
    worker: { format: 'es' as const, rolldownOptions: { output: { topLevelVar: false } } },
    build: {
      outDir: resolve(root, 'dist/demo'),
      emptyOutDir: true,
      chunkSizeWarningLimit: 4096,
      rolldownOptions: {
        output: { topLevelVar: false },
        input: {
          main: resolve(root, 'demo/index.html'),
          compare: resolve(root, 'demo/compare.html'),
          babylonV2: resolve(root, 'demo/babylon-v2.html'),
        },
        onwarn(warning, defaultHandler) {
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
          defaultHandler(warning);
        },
      },
    },
    resolve: {
      alias: [
        { find: /^footing\/character$/, replacement: resolve(root, 'character/index.ts') },
        { find: /^footing\/babylon$/, replacement: resolve(root, 'src/babylon/index.ts') },
        { find: /^footing\/worker$/, replacement: resolve(root, 'src/worker/index.ts') },
        { find: /^footing$/, replacement: resolve(root, 'src/index.ts') },
      ],
    },
    test: {
      root,
      include: ['test/**/*.test.ts'],
      exclude: ['test/e2e/**', 'test/**/allocation.test.ts', 'node_modules/**'],
      benchmark: { include: ['test/bench/**/*.bench.ts'] },
      testTimeout: 60_000,
    },
  };
});
