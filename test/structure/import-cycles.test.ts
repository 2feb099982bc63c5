/**
 * Dependencies point down only: no module of src/ or character/ reaches
 * itself through its imports. Type-only imports count (a type cycle is a
 * layering knot all the same). A failure prints every cycle found.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

// `import … from '…'`, `import type …`, `export … from '…'` (possibly over several lines) and bare `import '…'`.
const IMPORT = /^(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]/gm;

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`${relative(root, from)}: cannot resolve import '${spec}'`);
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const target = resolveImport(file, m[1] ?? m[2]!);
      if (target !== null && !targets.includes(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/**
 * The strongly connected components with more than one module (or a module
 * importing itself), each as one cycle through it (a path back to its start)
 * and all its modules.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): { cycle: string[]; modules: string[] }[] {
  // Tarjan's strongly connected components, iterative.
  const index = new Map<string, number>(), low = new Map<string, number>();
  const stack: string[] = [], onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: [string, number][] = [[start, 0]];
    index.set(start, next); low.set(start, next); next++;
    stack.push(start); onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [v, i] = top;
      const edges = graph.get(v) ?? [];
      if (i < edges.length) {
        top[1]++;
        const w = edges[i]!;
        if (!index.has(w)) {
          index.set(w, next); low.set(w, next); next++;
          stack.push(w); onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) {
          low.set(v, Math.min(low.get(v)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do { w = stack.pop()!; onStack.delete(w); component.push(w); } while (w !== v);
        if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
      }
    }
  }
  // A concrete cycle inside each component: walk from its first module, staying in the component, until a module repeats.
  return components.map((component) => {
    const inside = new Set(component);
    const path = [component[0]!];
    for (;;) {
      const last = path[path.length - 1]!;
      const w = (graph.get(last) ?? []).find((t) => inside.has(t))!;
      const seen = path.indexOf(w);
      if (seen >= 0) {
        // Started at its least module, so that the report reads the same on every run.
        const cycle = path.slice(seen);
        const k = cycle.indexOf([...cycle].sort()[0]!);
        const turned = [...cycle.slice(k), ...cycle.slice(0, k)];
        return { cycle: [...turned, turned[0]!], modules: [...component].sort() };
      }
      path.push(w);
    }
  });
}

describe('import graph of src/ and character/', () => {
  it('finds a planted cycle (the detector works)', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a', 'd']], ['d', []], ['e', ['e']]]);
    const cycles = findCycles(g).map((c) => c.cycle.join(' → '));
    expect(cycles.sort()).toEqual(['a → b → c → a', 'e → e']);
    expect(findCycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('has no cycle', () => {
    const files = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'character'))];
    const graph = importGraph(files);
    const edges = [...graph.values()].reduce((n, t) => n + t.length, 0);
    // The walk saw the code base (about 150 modules, 700 imports), not an empty folder.
    expect(files.length).toBeGreaterThan(100);
    expect(edges).toBeGreaterThan(400);
    const cycles = findCycles(graph).map(({ cycle, modules }) => {
      const path = cycle.map((f) => relative(root, f)).join(' → ');
      return modules.length + 1 > cycle.length ? `${path} (one of the cycles among ${modules.map((f) => relative(root, f)).join(', ')})` : path;
    });
    if (cycles.length > 0) console.log(`import cycles:\n  ${cycles.join('\n  ')}`);
    expect(cycles).toEqual([]);
  });
});
