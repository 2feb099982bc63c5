import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { bundledFooting } from './bundled-footing';

const root = resolve(import.meta.dirname, '../..');

// Runs only the Babylon plugin benchmark (`npm run bench:babylon-plugin`); kept out of `npm test` and `npm run bench`.
// footing and its Babylon entry run from the built bundle (see bundled-footing.ts), so the npm
// script builds the library first.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^(\.\.\/)+src\/babylon\/index$/, replacement: resolve(root, 'dist/babylon.js') },
      ...bundledFooting.resolve.alias,
    ],
  },
  test: {
    server: { deps: { external: [/\/dist\/(footing|character|babylon|src-[\w-]+|walker-[\w-]+)\.js$/] } },
    root,
    include: ['test/bench/babylon-plugin.bench-run.ts'],
    testTimeout: 3_600_000,
    fileParallelism: false,
  },
});
