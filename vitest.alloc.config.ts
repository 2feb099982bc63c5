import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Allocation tests measure V8's new-space growth, which depends on the JIT
// state of the code under test: `npm run test:alloc` runs each file in its own
// vitest process, so feedback from other test files cannot deoptimise the hot paths.
const root = import.meta.dirname;
export default defineConfig({
  resolve: {
    alias: [
      { find: /^footing\/character$/, replacement: resolve(root, 'character/index.ts') },
      { find: /^footing\/babylon$/, replacement: resolve(root, 'src/babylon/index.ts') },
      { find: /^footing$/, replacement: resolve(root, 'src/index.ts') },
    ],
  },
  test: {
    root,
    include: ['test/**/allocation.test.ts'],
    pool: 'forks',
    isolate: true,
    fileParallelism: false,
    testTimeout: 120_000,
  },
});
