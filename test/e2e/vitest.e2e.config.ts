import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// End-to-end tests: build the demo, serve it with `vite preview`, drive it in
// headless Chromium (software WebGL through SwiftShader). Run with
// `vitest run --config test/e2e/vitest.e2e.config.ts`.
const root = resolve(import.meta.dirname, '../..');

export default defineConfig({
  root,
  test: {
    root,
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: [resolve(root, 'test/e2e/global-setup.ts')],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One browser at a time: the machine has two cores and SwiftShader uses them.
    fileParallelism: false,
  },
});
