#!/usr/bin/env node
// The package as a game gets it: `npm pack` (prepack builds dist/), the
// tarball installed into fresh projects next to the oldest and the newest
// supported @babylonjs/core, and in each project:
//   1. Node imports all four entry points (footing/babylon under NullEngine)
//      and runs a crate, a Babylon link, a collider from a mesh, a walker and
//      a worker host/client pair, checking the numbers;
//   2. TypeScript (moduleResolution nodenext) type-checks a consumer: each
//      entry point's types resolve (a @ts-expect-error proves they are not any);
//   3. Vite builds a page that imports every entry point and starts a
//      physics worker, and headless Chromium runs it (with the newest core;
//      `--no-browser` leaves this out on a machine without Chromium);
//   4. the repository's Babylon adapter tests (test/babylon) run against
//      that core version.
// Usage: node scripts/test-package.mjs [core versions…]   (default: the peer range's ends)
// Needs the npm registry (or a warm npm cache) for @babylonjs/core.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** The ends of the peer range, as tested: keep in step with peerDependencies and docs/packaging.md. */
export const OLDEST_CORE = '8.0.0';
export const NEWEST_CORE = '9.35.0';
const noBrowser = process.argv.includes('--no-browser');
const listed = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const versions = listed.length > 0 ? listed : [OLDEST_CORE, NEWEST_CORE];

// ------------------------------------------------------------------ the consumers

const NODE_TEST = `
import { MessageChannel } from 'node:worker_threads';
import { Box, World } from 'footing';
import { CharacterController, Walker } from 'footing/character';
import { BodyLinks, colliderFromMesh } from 'footing/babylon';
import { PhysicsClient, PhysicsHost } from 'footing/worker';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';

const fail = (m) => { console.error(m); process.exit(1); };
// CommonJS callers (require of ES modules, Node ≥ 20.19) get the built files too, never the TypeScript sources.
const { createRequire } = await import('node:module');
const required = createRequire(import.meta.url);
if (typeof required('footing').World !== 'function' || typeof required('footing/worker').PhysicsClient !== 'function') fail('require() of footing does not give the built entry points');
const near = (a, b, tol, what) => { if (!(Math.abs(a - b) <= tol)) fail(\`\${what}: \${a} is not within \${tol} of \${b}\`); };

// core: a crate rests on a floor
const world = new World();
world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
const crate = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 2, z: 0 }, mass: 10 });

// babylon: a collider fitted to a mesh, a node linked to the crate
const engine = new NullEngine();
const scene = new Scene(engine);
const mesh = CreateBox('wall', { width: 2, height: 1, depth: 0.5 }, scene);
mesh.position.set(3, 0.5, 0);
mesh.computeWorldMatrix(true);
const wall = colliderFromMesh(mesh, 'box');
near(wall.shape.halfExtents.x, 1, 1e-6, 'collider half extent x');
world.createBody({ type: 'static', ...wall });
const node = new TransformNode('crate', scene);
const links = new BodyLinks();
links.add(node, crate);

// character: a walker walks
const walker = new Walker(new CharacterController(world, { position: { x: -3, y: 0.92, z: 0 } }));
for (let i = 0; i < 120; i++) {
  world.step(1 / 60);
  walker.setInput(0, 0, 1);
  walker.update(1 / 60);
}
links.sync(1);
near(crate.position.y, 0.5, 0.02, 'crate rest height');
near(node.position.y, crate.position.y, 1e-9, 'linked node y');
if (!(walker.controller.position.z > 3)) fail(\`walker moved only \${walker.controller.position.z} m\`);

// worker: host and client over a MessageChannel
const { port1, port2 } = new MessageChannel();
const host = new PhysicsHost(port2);
const client = new PhysicsClient(port1, {}, { autoStart: false, shared: false });
await client.ready;
const ball = client.createBody({ type: 'dynamic', shape: { kind: 'sphere', radius: 0.5 }, position: { x: 0, y: 10, z: 0 } });
await client.raycast({ x: 0, y: 0, z: 0 }, { x: 0, y: 1, z: 0 });
for (let i = 0; i < 30; i++) {
  host.tick(1 / 60);
  await client.raycast({ x: 0, y: 0, z: 0 }, { x: 0, y: 1, z: 0 });
}
client.update();
client.alpha = 1;
const p = client.getPosition(ball, { x: 0, y: 0, z: 0 });
near(p.y, 10 - 0.5 * 9.81 * 0.5 * 0.5, 0.1, 'worker ball after 0.5 s');
port1.close(); port2.close();
engine.dispose();
console.log(\`crate y \${crate.position.y.toFixed(3)}, node y \${node.position.y.toFixed(3)}, walker z \${walker.controller.position.z.toFixed(2)}, worker ball y \${p.y.toFixed(2)}\`);
`;

const TYPES_TEST = `
import { Box, World, type Vec3 } from 'footing';
import { Walker, CharacterController } from 'footing/character';
import { syncNodeToBody } from 'footing/babylon';
import { PhysicsClient } from 'footing/worker';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';

const world = new World();
const body = world.createBody({ type: 'dynamic', shape: new Box({ x: 1, y: 1, z: 1 }) });
const v: Vec3 = body.position;
// @ts-expect-error: position is readonly Vec3, not any
body.position = 'up';
const walker = new Walker(new CharacterController(world));
// @ts-expect-error: setInput takes numbers
walker.setInput('x', 0, 0);
declare const node: TransformNode;
syncNodeToBody(node, body, 1);
// @ts-expect-error: the node must be a TransformNode
syncNodeToBody(42, body, 1);
declare const client: PhysicsClient;
// @ts-expect-error: shapes are descriptions, not classes
client.createBody({ type: 'dynamic', shape: new Box({ x: 1, y: 1, z: 1 }) });
export { v };
`;

const VITE_MAIN = `
import { Box, World } from 'footing';
import { CharacterController, Walker } from 'footing/character';
import { BodyLinks } from 'footing/babylon';
import { PhysicsClient } from 'footing/worker';
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';

const engine = new Engine(document.getElementById('c'), true);
const scene = new Scene(engine);
new FreeCamera('camera', new Vector3(0, 3, -8), scene);
const world = new World();
world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
const crate = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 2, z: 0 }, mass: 10 });
const walker = new Walker(new CharacterController(world, { position: { x: 3, y: 0.92, z: 0 } }));
const links = new BodyLinks();
links.add(CreateBox('crate', { size: 1 }, scene), crate);
for (let i = 0; i < 120; i++) { world.step(1 / 60); walker.update(1 / 60); }
links.sync(1);
scene.render();

const client = new PhysicsClient(new Worker(new URL('./physics.worker.js', import.meta.url), { type: 'module' }));
const ball = client.createBody({ type: 'dynamic', shape: { kind: 'sphere', radius: 0.5 }, position: { x: 0, y: 10, z: 0 } });
await client.ready;
await new Promise((resolve) => setTimeout(resolve, 500));
client.update();
window.packageResult = {
  webgl: engine.webGLVersion,
  meshY: scene.getMeshByName('crate').position.y,
  walkerState: walker.state,
  ballY: client.getPosition(ball, { x: 0, y: 0, z: 0 }).y,
  workerStep: client.step,
};
`;

/** Serves the Vite build and runs it in headless Chromium: the page checks the library in the browser and in a worker. */
async function runInChromium(app, core) {
  const { preview } = await import(join(root, 'node_modules/vite/dist/node/index.js'));
  const { chromium } = await import(join(root, 'node_modules/playwright-core/index.mjs'));
  const server = await preview({ root: app, configFile: false, logLevel: 'warn', build: { outDir: join(app, 'dist') }, preview: { host: '127.0.0.1', port: 0 } });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless=new', '--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(server.resolvedUrls.local[0]);
    await page.waitForFunction(() => window.packageResult !== undefined, null, { timeout: 30_000 });
    const r = await page.evaluate(() => window.packageResult);
    check(errors.length === 0, `the page logged errors: ${errors.join(' | ')}`);
    check(r.webgl >= 1, `no WebGL engine (${r.webgl})`);
    check(Math.abs(r.meshY - 0.5) < 0.02, `the linked crate mesh is at y ${r.meshY}, not resting at 0.5`);
    check(r.walkerState === 'grounded', `the walker is ${r.walkerState}`);
    check(r.workerStep > 5 && r.ballY < 10 - 0.5, `the worker did not step the ball (step ${r.workerStep}, y ${r.ballY})`);
    log(`core ${core}: Chromium: WebGL ${r.webgl}, crate mesh y ${r.meshY.toFixed(3)}, walker ${r.walkerState}, worker step ${r.workerStep}, ball y ${r.ballY.toFixed(2)}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

const started = performance.now();
const log = (msg) => console.log(`[package ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}`);
const run = (cmd, args, cwd, opts = {}) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
function check(condition, message) {
  if (!condition) throw new Error(`package test: ${message}`);
}

const work = mkdtempSync(join(tmpdir(), 'footing-package-'));
let failed = false;
try {
  // ---------------------------------------------------------------- pack
  // From no dist/ at all, as in a clean clone: prepack has to build it.
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  log(`npm pack (prepack runs the build) into ${work}`);
  const packOut = run('npm', ['pack', '--json', '--pack-destination', work], root);
  // The build's own output comes first on stdout; npm's JSON report is the last thing printed.
  const packed = JSON.parse(packOut.slice(packOut.lastIndexOf('\n[') + 1))[0];
  const tarball = join(work, packed.filename);
  const files = packed.files.map((f) => f.path);
  for (const want of ['LICENSE', 'README.md', 'package.json', 'dist/footing.js', 'dist/character.js', 'dist/babylon.js', 'dist/worker.js',
    'dist/types/src/index.d.ts', 'dist/types/character/index.d.ts', 'dist/types/src/babylon/index.d.ts', 'dist/types/src/worker/index.d.ts']) {
    check(files.includes(want), `the tarball lacks ${want}`);
  }
  check(files.some((f) => f.startsWith('examples/')), 'the tarball lacks examples/');
  check(!files.some((f) => f.startsWith('dist/demo/')), 'the tarball carries the demo build');
  log(`${packed.filename}: ${files.length} files, ${(packed.size / 1024).toFixed(0)} kB packed, ${(packed.unpackedSize / 1024).toFixed(0)} kB unpacked`);
  const babylonJs = readFileSync(join(root, 'dist/babylon.js'), 'utf8');
  const bare = [...babylonJs.matchAll(/from\s*["'](@babylonjs\/[^"']+)["']/g)].map((m) => m[1]).filter((s) => !s.endsWith('.js'));
  check(bare.length === 0, `dist/babylon.js has imports that are not fully specified: ${bare.join(', ')}`);

  const results = [];
  for (const core of versions) {
   try {
    const app = join(work, `app-core-${core}`);
    mkdirSync(join(app, 'src'), { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'footing-package-test', private: true, type: 'module' }, null, 2));
    log(`core ${core}: npm install the tarball and @babylonjs/core@${core}`);
    run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', tarball, `@babylonjs/core@${core}`], app);
    const installed = JSON.parse(readFileSync(join(app, 'node_modules/@babylonjs/core/package.json'), 'utf8')).version;
    check(installed === core, `installed @babylonjs/core ${installed}, wanted ${core}`);

    // ------------------------------------------------------------ Node
    writeFileSync(join(app, 'node-test.mjs'), NODE_TEST);
    const out = run('node', ['node-test.mjs'], app).trim();
    log(`core ${core}: Node: ${out}`);

    // ------------------------------------------------------------ TypeScript (nodenext)
    writeFileSync(join(app, 'types-test.ts'), TYPES_TEST);
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, lib: ['ES2022', 'DOM'], types: [] },
      files: ['types-test.ts'],
    }, null, 2));
    try {
      run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app);
    } catch (error) {
      throw new Error(`package test: TypeScript (nodenext) rejects the package with core ${core}:\n${error.stdout}${error.stderr}`);
    }
    log(`core ${core}: TypeScript nodenext consumer type-checks`);

    // ------------------------------------------------------------ Vite
    writeFileSync(join(app, 'index.html'), '<!doctype html><link rel="icon" href="data:,"><canvas id="c"></canvas><script type="module" src="./src/main.js"></script>\n');
    writeFileSync(join(app, 'src/main.js'), VITE_MAIN);
    writeFileSync(join(app, 'src/physics.worker.js'), "import { hostPhysics } from 'footing/worker';\nhostPhysics();\n");
    const { build } = await import(join(root, 'node_modules/vite/dist/node/index.js'));
    await build({ root: app, configFile: false, logLevel: 'warn', build: { outDir: join(app, 'dist'), emptyOutDir: true, chunkSizeWarningLimit: 8192 } });
    const assets = readdirSync(join(app, 'dist/assets'));
    const worker = assets.find((f) => f.startsWith('physics.worker'));
    check(worker !== undefined, `the Vite build has no worker chunk (${assets.join(', ')})`);
    const workerJs = readFileSync(join(app, 'dist/assets', worker), 'utf8');
    check(workerJs.includes('the host has no world yet'), 'the worker chunk does not carry the physics host');
    log(`core ${core}: Vite build: ${assets.length} files, worker ${worker} ${(workerJs.length / 1024).toFixed(1)} kB`);
    if (core === versions[versions.length - 1] && !noBrowser) await runInChromium(app, core);

    // ------------------------------------------------------------ the adapter's own tests on this core
    writeFileSync(join(app, 'vitest.config.mjs'), `export default ${JSON.stringify({
      root,
      test: { root, include: ['test/babylon/**/*.test.ts'], testTimeout: 60_000 },
    })};\nexport const aliases = 0;\n`.replace('"root":', `"resolve": { "alias": [
      { "find": /^@babylonjs\\/core\\/(.*)$/, "replacement": ${JSON.stringify(`${app}/node_modules/@babylonjs/core/$1`)} },
      { "find": /^footing\\/character$/, "replacement": ${JSON.stringify(`${root}/character/index.ts`)} },
      { "find": /^footing\\/babylon$/, "replacement": ${JSON.stringify(`${root}/src/babylon/index.ts`)} },
      { "find": /^footing\\/worker$/, "replacement": ${JSON.stringify(`${root}/src/worker/index.ts`)} },
      { "find": /^footing$/, "replacement": ${JSON.stringify(`${root}/src/index.ts`)} }
    ] }, "root":`));
    let vitestOut;
    try {
      vitestOut = run(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', join(app, 'vitest.config.mjs')], root);
    } catch (error) {
      throw new Error(`test/babylon fails on @babylonjs/core ${core}:\n${(error.stdout ?? '').split('\n').filter((l) => /FAIL|Error|×/.test(l)).slice(0, 20).join('\n')}`);
    }
    const counts = /Tests\s+(.*)/.exec(vitestOut.replace(/\x1b\[[0-9;]*m/g, ''))?.[1] ?? '?';
    log(`core ${core}: test/babylon on this core: ${counts.trim()}`);
    results.push(`@babylonjs/core ${core}: ok`);
   } catch (error) {
    failed = true;
    results.push(`@babylonjs/core ${core}: FAILED ${error instanceof Error ? error.message.split('\n').slice(0, 6).join(' | ') : error}`);
   }
  }
  for (const line of results) log(line);
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  if (!process.env.KEEP_PACKAGE_TEST) rmSync(work, { recursive: true, force: true });
  else log(`kept ${work}`);
}
process.exit(failed ? 1 : 0);
