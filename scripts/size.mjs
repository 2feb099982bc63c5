#!/usr/bin/env node
// What a game's bundle carries of footing for typical imports: each case is
// a small entry that uses what it imports, bundled and minified by Vite
// (rolldown) against the built dist/ (run `npm run build` first), @babylonjs
// external. Prints minified and gzip sizes, and for each case the source
// modules that stay in, largest first (a second build against the sources,
// which tree-shakes the same way and keeps module names). Exits with 1 when
// World + Box is over its budget (scripts/size-budget.json).
// Usage: node scripts/size.mjs [--modules N] [--json]
import { gzipSync } from 'node:zlib';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const topModules = Number(args[args.indexOf('--modules') + 1]) || 12;
const asJson = args.includes('--json');

const WORLD_BOX = readFileSync(join(root, 'scripts/size-world-box.js'), 'utf8');
export const CASES = [
  { name: 'World + Box', code: WORLD_BOX },
  {
    name: 'World + Box + raycast', code: `${WORLD_BOX}
globalThis.hit = world.raycast({ x: 0, y: 5, z: 0 }, { x: 0, y: -5, z: 0 });`,
  },
  {
    name: 'World + Box + CharacterController/Walker', code: `${WORLD_BOX}
import { CharacterController, Walker } from 'footing/character';
const walker = new Walker(new CharacterController(world));
walker.setInput(0, 0, 1);
walker.update(1 / 60);
globalThis.walker = walker;`,
  },
  {
    name: 'World + Box + CharacterController/Walker + createRagdoll', code: `${WORLD_BOX}
import { CharacterController, Walker } from 'footing/character';
import { createRagdoll } from 'footing';
globalThis.walker = new Walker(new CharacterController(world));
globalThis.ragdoll = createRagdoll(world, { position: { x: 0, y: 2, z: 0 } });`,
  },
  {
    name: 'World + Box + Verlet cloth', code: `${WORLD_BOX}
import { createCloth } from 'footing';
globalThis.cloth = createCloth(world, { width: 1, height: 1, segments: 8 });`,
  },
  {
    name: 'World + Box + HingeJoint', code: `${WORLD_BOX}
import { HingeJoint } from 'footing';
globalThis.joint = HingeJoint;`,
  },
  {
    name: 'babylon adapter (BodyLinks, colliderFromMesh) + World + Box', code: `${WORLD_BOX}
import { BodyLinks, colliderFromMesh } from 'footing/babylon';
globalThis.links = new BodyLinks();
globalThis.fit = colliderFromMesh;`,
  },
  {
    name: 'babylon PhysicsDebugView + World + Box', code: `${WORLD_BOX}
import { PhysicsDebugView } from 'footing/babylon';
globalThis.view = PhysicsDebugView;`,
  },
  {
    name: 'worker client (main thread)', code: `
import { PhysicsClient } from 'footing/worker';
globalThis.client = PhysicsClient;`,
  },
  {
    name: 'worker host (in the worker)', code: `
import { hostPhysics } from 'footing/worker';
hostPhysics();`,
  },
  {
    name: 'everything (import * of all entries)', code: `
import * as a from 'footing'; import * as b from 'footing/character'; import * as c from 'footing/babylon'; import * as d from 'footing/worker';
globalThis.all = [a, b, c, d];`,
  },
];

/**
 * What World + Box still carries that a box game may not use, measured
 * against the sources: the named modules are replaced by empty stand-ins
 * exporting what their importers name, so the saving is what the chain
 * costs. The bundle does not run; it only measures. None of these can fall
 * away by tree-shaking: World methods (snapshot/restore, the queries) are
 * kept with the class, and the continuous stage runs in every step unless
 * `solverSettings.continuousCollision` is turned off.
 */
export const CUTS = [
  {
    name: 'continuous collision (dynamics/continuous.ts → query/shape-cast.ts → gjk.ts, epa.ts; the queries import shape-cast.ts too)',
    stubs: {
      'src/dynamics/continuous.ts': 'export class ContinuousCollision { run() {} }',
      'src/collision/query/shape-cast.ts': 'export class ShapeCastPairHit {} export function shapeCastPair() { return false; } export const SWEEP = new Float64Array(7);'
        + ' export function addTriangleMeshCasts() {} export function addHeightFieldCasts() {} export function addCompoundCasts() {}',
    },
  },
  {
    name: 'scene queries (World.raycast / overlap / shapeCast → world/queries.ts → query/raycast.ts, query/shape-cast.ts)',
    stubs: {
      'src/world/queries.ts': 'export class SceneQueries {} export class OverlapCollector {} export class QueryRegion {}',
    },
  },
  {
    name: 'snapshots (World.snapshot / restore → world/world-snapshot.ts, world/snapshot.ts)',
    stubs: {
      'src/world/world-snapshot.ts': 'export function takeSnapshot() {} export function restoreSnapshot() {}',
    },
  },
];

function stubPlugin(stubs) {
  const byPath = new Map(Object.entries(stubs).map(([path, code]) => [resolve(root, path), code]));
  return { name: 'footing:size-stubs', enforce: 'pre', load(id) { return byPath.get(id.split('?')[0]) ?? null; } };
}

const fromDist = [
  { find: /^footing\/character$/, replacement: join(root, 'dist/character.js') },
  { find: /^footing\/babylon$/, replacement: join(root, 'dist/babylon.js') },
  { find: /^footing\/worker$/, replacement: join(root, 'dist/worker.js') },
  { find: /^footing$/, replacement: join(root, 'dist/footing.js') },
];
const fromSource = [
  { find: /^footing\/character$/, replacement: join(root, 'character/index.ts') },
  { find: /^footing\/babylon$/, replacement: join(root, 'src/babylon/index.ts') },
  { find: /^footing\/worker$/, replacement: join(root, 'src/worker/index.ts') },
  { find: /^footing$/, replacement: join(root, 'src/index.ts') },
];

async function bundle(entry, alias, plugins = []) {
  const result = await build({
    configFile: false, logLevel: 'silent', root, plugins,
    resolve: { alias },
    build: {
      // An application build, not a library one: Vite keeps whitespace in minified ES libraries.
      write: false, minify: true, sourcemap: false, target: 'es2022', modulePreload: false,
      rolldownOptions: { input: entry, external: [/^@babylonjs\//], output: { codeSplitting: false } },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
  return outputs.filter((o) => o.type === 'chunk');
}

if (!existsSync(join(root, 'dist/footing.js'))) {
  console.error('size: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'footing-size-'));
const rows = [];
const cuts = [];
let cutBase = { min: 0, gz: 0 };
try {
  for (const [i, c] of CASES.entries()) {
    const entry = join(dir, `case-${i}.js`);
    writeFileSync(entry, c.code);
    const chunks = await bundle(entry, fromDist);
    const code = chunks.map((ch) => ch.code).join('\n');
    const min = Buffer.byteLength(code), gz = gzipSync(code, { level: 9 }).length;
    const srcChunks = await bundle(entry, fromSource);
    const modules = [];
    for (const ch of srcChunks) {
      for (const [id, info] of Object.entries(ch.modules)) {
        if (info.renderedLength > 0) modules.push({ module: relative(root, id), bytes: info.renderedLength });
      }
    }
    modules.sort((a, b) => b.bytes - a.bytes);
    rows.push({ name: c.name, min, gz, modules });
  }
  const base = join(dir, 'cut-base.js');
  // World and Box from their own modules: the barrel's re-exports would name every stubbed export.
  writeFileSync(base, WORLD_BOX.replace("import { World, Box } from 'footing';",
    `import { World } from ${JSON.stringify(join(root, 'src/world/world.ts'))}; import { Box } from ${JSON.stringify(join(root, 'src/shapes/box.ts'))};`));
  const measure = async (plugins) => {
    const code = (await bundle(base, fromSource, plugins)).map((ch) => ch.code).join('\n');
    return { min: Buffer.byteLength(code), gz: gzipSync(code, { level: 9 }).length };
  };
  const whole = await measure([]);
  cutBase = whole;
  for (const cut of CUTS) {
    const after = await measure([stubPlugin(cut.stubs)]);
    cuts.push({ name: cut.name, min: whole.min - after.min, gz: whole.gz - after.gz });
  }
  let all = {};
  for (const cut of CUTS) all = { ...all, ...cut.stubs };
  const after = await measure([stubPlugin(all)]);
  cuts.push({ name: 'all of the above', min: whole.min - after.min, gz: whole.gz - after.gz });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (asJson) {
  console.log(JSON.stringify({ rows, cutBase, cuts }, null, 2));
} else {
  const kB = (n) => (n / 1000).toFixed(1);
  console.log('| imports | minified kB | gzip kB |');
  console.log('|---|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${kB(r.min)} | ${kB(r.gz)} |`);
  console.log(`\nWhat World + Box still carries (built from the sources: ${kB(cutBase.min)} kB minified, ${kB(cutBase.gz)} kB gzip), saving if the chain were cut:\n\n| chain | minified kB | gzip kB |\n|---|---:|---:|`);
  for (const c of cuts) console.log(`| ${c.name} | −${kB(c.min)} | −${kB(c.gz)} |`);
  for (const r of rows) {
    console.log(`\n${r.name}: largest modules (rendered, before minification)`);
    for (const m of r.modules.slice(0, topModules)) console.log(`  ${kB(m.bytes).padStart(7)} kB  ${m.module}`);
  }
}

const budget = JSON.parse(readFileSync(join(root, 'scripts/size-budget.json'), 'utf8'))['World + Box'];
const worldBox = rows.find((r) => r.name === 'World + Box');
if (worldBox.min > budget.minified || worldBox.gz > budget.gzip) {
  console.error(`size: World + Box is ${worldBox.min} B minified / ${worldBox.gz} B gzip, over its budget of ${budget.minified} / ${budget.gzip} (scripts/size-budget.json)`);
  process.exitCode = 1;
} else if (!asJson) {
  console.log(`\nWorld + Box within its budget (${budget.minified / 1000} kB minified, ${budget.gzip / 1000} kB gzip; scripts/size-budget.json).`);
}
