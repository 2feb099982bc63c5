import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { bundledFooting } from './bundled-footing';

// Runs only the ragdoll floor-dip measurement (`npm run bench:ragdoll-drops`); kept out of `npm test` and `npm run bench`.
// footing runs from the built bundle (see bundled-footing.ts), so the npm
// script builds the library first.
export default defineConfig({
  resolve: bundledFooting.resolve,
  test: {
    server: bundledFooting.server,
    root: resolve(import.meta.dirname, '../..'),
    include: ['test/bench/ragdoll-drops.bench-run.ts'],
    testTimeout: 3_600_000,
    fileParallelism: false,
  },
});
