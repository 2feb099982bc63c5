import { defineConfig } from 'vitest/config';

// `npm run test:alloc`: the allocation tests. Each builds the library and
// measures it in a child Node process of its own (test/helpers/built-library.ts),
// so they import nothing from src/ and need no aliases; they run one at a time
// so their builds and measurements do not compete for the two cores.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['test/**/allocation.test.ts'],
    pool: 'forks',
    isolate: true,
    fileParallelism: false,
    testTimeout: 120_000,
  },
});
