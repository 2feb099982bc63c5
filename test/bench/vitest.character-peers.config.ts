import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Runs only the character peer table; kept out of `npm test` and `npm run bench`.
export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, '../..'),
    include: ['test/bench/character-peers.bench-run.ts'],
    testTimeout: 3_600_000,
    fileParallelism: false,
  },
});
