import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Runs only the peer table (`npm run bench:peers`); kept out of `npm test` and `npm run bench`.
export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, '../..'),
    include: ['test/bench/peer-table.bench-run.ts'],
    testTimeout: 3_600_000,
    fileParallelism: false,
  },
});
