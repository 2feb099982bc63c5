import { resolve } from 'node:path';
import { build, preview, type PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Address of the `vite preview` server that serves the built demo, ending in '/'. */
    demoUrl: string;
  }
}

const root = resolve(import.meta.dirname, '../..');
const configFile = resolve(root, 'vite.config.ts');

/** Builds the demo once (mode 'demo' → dist/demo) and serves it on a free port for all e2e tests. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = performance.now();
  // compare.html and babylon-v2.html are more pages of the demo. Passing them here too keeps the
  // e2e build complete whether or not vite.config.ts lists them yet (the inline
  // config is merged into the file's: the two inputs are joined).
  await build({
    configFile, mode: 'demo', logLevel: 'warn',
    build: { rolldownOptions: { input: { main: resolve(root, 'demo/index.html'), compare: resolve(root, 'demo/compare.html'), babylonV2: resolve(root, 'demo/babylon-v2.html') } } },
  });
  const built = performance.now();
  const server: PreviewServer = await preview({
    configFile,
    mode: 'demo',
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) {
    await server.close();
    throw new Error('vite preview did not report a local URL');
  }
  console.log(`[e2e] demo built in ${((built - started) / 1000).toFixed(1)} s, served at ${url}`);
  project.provide('demoUrl', url);
  return async () => {
    await server.close();
  };
}
