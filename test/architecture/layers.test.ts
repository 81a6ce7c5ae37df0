/**
 * The import graph of src/ against the layer order written in docs/architecture.md ("Layers"): a module
 * (a folder under src/, or a top-level file such as registry.ts) may import only modules of lower layers,
 * and no set of files may import each other in a cycle. Static, re-exported, side-effect and dynamic
 * imports all count, type-only imports included (a type import is still a dependency on that layer).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** src-relative file → src-relative files it imports (relative specifiers only; packages are not layers). */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((f) => f.fileName)
      .filter((s) => s.startsWith('.'))
      .map((s) => relative(SRC, resolve(dirname(file), s.replace(/\.js$/, '.ts'))));
    graph.set(relative(SRC, file), [...new Set(targets)].sort());
  }
  return graph;
}

/** The module a src-relative file belongs to: its top folder, or its own name for a top-level file. */
export function moduleOf(file: string): string {
  const slash = file.indexOf('/');
  return slash < 0 ? file.replace(/\.ts$/, '') : file.slice(0, slash);
}

/**
 * The layers, highest first, from the fenced block after "<!-- layers -->" in docs/architecture.md: one line
 * per layer, modules of one layer separated by spaces (they may not import each other either).
 */
export function layerOrder(): Map<string, number> {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const block = /<!-- layers -->\s*```[^\n]*\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/architecture.md: no ``` block after <!-- layers -->');
  const lines = block[1]!.split('\n').filter((l) => l.trim() !== '');
  const rank = new Map<string, number>();
  lines.forEach((line, i) => {
    for (const m of line.trim().split(/\s+/)) rank.set(m, lines.length - i);
  });
  return rank;
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** Imports that point to the same or a higher layer, as "from → to (module → module)". */
export function backArrows(graph: ReadonlyMap<string, readonly string[]>, rank: ReadonlyMap<string, number>): string[] {
  const bad: string[] = [];
  for (const [from, targets] of graph) {
    const a = moduleOf(from);
    for (const to of targets) {
      const b = moduleOf(to);
      if (a === b) continue;
      if (!(rank.get(a)! > rank.get(b)!)) bad.push(`${from} → ${to} (${a} → ${b})`);
    }
  }
  return bad.sort();
}

describe('layers (docs/architecture.md) and the import graph of src/', () => {
  const graph = importGraph();
  const rank = layerOrder();

  it('every module of src/ has a place in the layer order, and every import resolves to a file', () => {
    const modules = new Set([...graph.keys()].map(moduleOf));
    expect([...modules].filter((m) => !rank.has(m)).sort(), 'modules missing from docs/architecture.md').toEqual([]);
    expect([...rank.keys()].filter((m) => !modules.has(m)).sort(), 'layers naming no module').toEqual([]);
    const missing = [...graph].flatMap(([f, ts]) => ts.filter((t) => !graph.has(t)).map((t) => `${f} → ${t}`));
    expect(missing).toEqual([]);
  });

  it('no import points to the same or a higher layer', () => {
    expect(backArrows(graph, rank)).toEqual([]);
  });

  it('the report imports no learner: it reads results, it never fits', () => {
    const learners = new Set(['methods', 'structures', 'estimators', 'baselines']);
    const bad = [...graph].flatMap(([f, ts]) =>
      moduleOf(f) === 'report' ? ts.filter((t) => learners.has(moduleOf(t))).map((t) => `${f} → ${t}`) : [],
    );
    expect(bad).toEqual([]);
  });

  it('the store holds the only SQL: no statement is written outside src/store/', () => {
    const sql = /[`'"]\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|WITH|COPY|ATTACH)\s/;
    const bad = [...graph.keys()].filter((f) => moduleOf(f) !== 'store' && sql.test(readFileSync(join(SRC, f), 'utf8')));
    expect(bad).toEqual([]);
  });

  it('no import cycle between files', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('the checks fail on a back-arrow and on a cycle', () => {
    const g = new Map([
      ['bn/a.ts', ['bn/b.ts']],
      ['bn/b.ts', ['bn/a.ts']],
      ['registry.ts', ['bn/a.ts']],
      ['util/x.ts', ['registry.ts']],
    ]);
    expect(cycles(g)).toEqual([['bn/a.ts', 'bn/b.ts']]);
    expect(backArrows(g, rank)).toEqual(['util/x.ts → registry.ts (util → registry)']);
    // Two modules of one layer may not import each other either.
    expect(backArrows(new Map([['bn/a.ts', ['stats/b.ts']]]), rank)).toEqual(['bn/a.ts → stats/b.ts (bn → stats)']);
  });
});
