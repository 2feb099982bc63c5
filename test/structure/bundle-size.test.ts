/**
 * What `World` + `Box` bring into a game's bundle (docs/size.md): the library
 * is built as for the package (one shared chunk, `vite build --mode lib`),
 * and a game entry that makes a world with two boxes and steps it is bundled
 * against it the way a game's Vite build does (minified, application build).
 * Its size must stay within scripts/size-budget.json, and the modules a box
 * game does not run (joint solver, mesh/hull/compound/height-field colliders)
 * must not be in it (checked on a build from the sources, which keeps module
 * names).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const budget = JSON.parse(readFileSync(join(root, 'scripts/size-budget.json'), 'utf8'))['World + Box'] as { minified: number; gzip: number };

const GAME = readFileSync(join(root, 'scripts/size-world-box.js'), 'utf8');

const dir = mkdtempSync(join(tmpdir(), 'footing-size-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bundleGame(footing: string): Promise<Rolldown.OutputChunk[]> {
  const entry = join(dir, 'game.js');
  writeFileSync(entry, GAME);
  const result = await build({
    configFile: false, logLevel: 'silent', root,
    resolve: { alias: [{ find: /^footing$/, replacement: footing }] },
    build: {
      write: false, minify: true, sourcemap: false, target: 'es2022', modulePreload: false,
      rolldownOptions: { input: entry, external: [/^@babylonjs\//], output: { codeSplitting: false } },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => (r as Rolldown.RolldownOutput).output);
  return outputs.filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
}

describe('World + Box in a game bundle', () => {
  it(`stays within ${budget.minified / 1000} kB minified and ${budget.gzip / 1000} kB gzip (built package)`, async () => {
    const lib = join(dir, 'lib');
    await build({ configFile: join(root, 'vite.config.ts'), mode: 'lib', logLevel: 'silent', build: { outDir: lib, emptyOutDir: true, sourcemap: false } });
    const code = (await bundleGame(join(lib, 'footing.js'))).map((c) => c.code).join('\n');
    const minified = Buffer.byteLength(code), gzip = gzipSync(code, { level: 9 }).length;
    console.log(`World + Box: ${(minified / 1000).toFixed(1)} kB minified, ${(gzip / 1000).toFixed(1)} kB gzip (budget ${budget.minified / 1000} / ${budget.gzip / 1000})`);
    // The bundle holds the world (a floor of a few kB would mean the build broke, not that it shrank).
    expect(minified).toBeGreaterThan(100_000);
    expect(minified).toBeLessThanOrEqual(budget.minified);
    expect(gzip).toBeLessThanOrEqual(budget.gzip);
  });

  it('leaves out the joint solver and the colliders of shapes it does not make (built from the sources)', async () => {
    const rendered = new Map<string, number>();
    for (const chunk of await bundleGame(join(root, 'src/index.ts'))) {
      for (const [id, info] of Object.entries(chunk.modules)) rendered.set(relative(root, id), info.renderedLength);
    }
    // The world steps boxes: these are in.
    expect(rendered.get('src/collision/narrowphase/collide-box-box.ts') ?? 0).toBeGreaterThan(5000);
    expect(rendered.get('src/dynamics/contact-sweeps.ts') ?? 0).toBeGreaterThan(10000);
    const absent = [
      'src/joints/rows.ts', 'src/joints/ball.ts', 'src/joints/hinge.ts',
      'src/collision/narrowphase/triangle-contact.ts', 'src/collision/narrowphase/collide-box-mesh.ts',
      'src/collision/narrowphase/collide-capsule-mesh.ts', 'src/collision/narrowphase/collide-sphere-mesh.ts',
      'src/collision/narrowphase/collide-convex.ts', 'src/collision/narrowphase/collide-convex-mesh.ts',
      'src/collision/narrowphase/collide-box-capsule.ts', 'src/collision/narrowphase/collide-height-field.ts',
      'src/shapes/convex-hull.ts', 'src/shapes/cylinder.ts', 'src/shapes/compound.ts', 'src/shapes/height-field.ts',
    ];
    const kept = absent.filter((m) => (rendered.get(m) ?? 0) > 0).map((m) => `${m} (${rendered.get(m)} B)`);
    expect(kept).toEqual([]);
    // Of these only small pieces may stay: the settings defaults, isJoint/attachJoint, the compound's feature-id readers.
    const small: [string, number][] = [
      ['src/joints/joint-solver.ts', 500], ['src/joints/joint.ts', 1500], ['src/collision/narrowphase/collide-compound.ts', 0],
    ];
    for (const [m, most] of small) expect(rendered.get(m) ?? 0, m).toBeLessThanOrEqual(most);
  });
});
