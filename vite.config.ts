import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const root = import.meta.dirname;

// One config, three jobs:
//   `vite` / `vite build --mode demo`  the Babylon demo (root demo/)
//   `vite build --mode lib`            the library (dist/, three entry points)
//   `vitest`                           unit and scenario tests (test/)
export default defineConfig(({ mode }) => {
  if (mode === 'lib') {
    return {
      build: {
        outDir: resolve(root, 'dist'),
        emptyOutDir: true,
        sourcemap: true,
        lib: {
          entry: {
            footing: resolve(root, 'src/index.ts'),
            character: resolve(root, 'character/index.ts'),
            babylon: resolve(root, 'src/babylon/index.ts'),
          },
          formats: ['es'],
        },
        rolldownOptions: {
          external: [/^@babylonjs\//],
        },
      },
    };
  }
  return {
    root: resolve(root, 'demo'),
    base: './',
    server: { host: '127.0.0.1' },
    preview: { host: '127.0.0.1' },
    build: {
      outDir: resolve(root, 'dist/demo'),
      emptyOutDir: true,
      chunkSizeWarningLimit: 4096,
      rolldownOptions: {
        input: {
          main: resolve(root, 'demo/index.html'),
          compare: resolve(root, 'demo/compare.html'),
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
