// Rewrites the import specifiers of the emitted declarations (dist/types) to
// fully specified ones, as the JavaScript in dist/ has them: `./link` →
// `./link.js`, `@babylonjs/core/Maths/math.vector` → `…/math.vector.js`.
// TypeScript projects on `moduleResolution: node16 / nodenext` resolve
// nothing else inside a `"type": "module"` package.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const typesDir = resolve(root, 'dist/types');

function* declarations(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* declarations(path);
    else if (name.endsWith('.d.ts')) yield path;
  }
}

function specify(spec, fromFile) {
  if (spec.endsWith('.js')) return spec;
  if (spec.startsWith('.')) {
    const target = resolve(dirname(fromFile), spec);
    if (existsSync(`${target}.d.ts`)) return `${spec}.js`;
    if (existsSync(join(target, 'index.d.ts'))) return `${spec}/index.js`;
    throw new Error(`${fromFile}: cannot resolve ${spec}`);
  }
  const m = /^(@babylonjs\/[^/]+)\/(.+)$/.exec(spec);
  if (m) {
    const base = resolve(root, 'node_modules', m[1]);
    if (existsSync(join(base, `${m[2]}.js`))) return `${spec}.js`;
    if (existsSync(join(base, m[2], 'index.js'))) return `${spec}/index.js`;
    throw new Error(`${fromFile}: cannot resolve ${spec}`);
  }
  return spec;
}

let changed = 0;
for (const file of declarations(typesDir)) {
  const text = readFileSync(file, 'utf8');
  const out = text.replace(/(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\2/g, (_all, head, quote, spec) => `${head}${quote}${specify(spec, file)}${quote}`);
  if (out !== text) { writeFileSync(file, out); changed++; }
}
console.log(`fully-specify-types: rewrote ${changed} declaration files`);
