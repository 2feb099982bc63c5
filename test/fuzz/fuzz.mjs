// `npm run fuzz -- --worlds N --seed S [--joints | --both] [--engine footing|rapier|jolt] [--steps N] [--verbose]`
// Loads the TypeScript runner through Vite's module runner (no build step).
import { runnerImport } from 'vite';

const { module } = await runnerImport(new URL('./cli.ts', import.meta.url).pathname, { configFile: false, logLevel: 'error' });
process.exitCode = await module.main(process.argv.slice(2));
