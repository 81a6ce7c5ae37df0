/**
 * The import graph of src/ and the layer order of docs/architecture.md, shared by the architecture tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SRC = join(ROOT, 'src');

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
  const lines = block[1].split('\n').filter((l) => l.trim() !== '');
  const rank = new Map<string, number>();
  lines.forEach((line, i) => {
    // `a+b`: two places that form one module (they may import each other, never in a file cycle).
    for (const group of line.trim().split(/\s+/)) for (const m of group.split('+')) rank.set(m, lines.length - i);
  });
  return rank;
}

/** Places joined with `+` in the layer block (util+version): one module in two places. */
const SAME_MODULE = (() => {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const block = /<!-- layers -->\s*```[^\n]*\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  const out = new Map<string, string>();
  for (const group of block.split(/\s+/).filter((g) => g.includes('+'))) {
    const parts = group.split('+');
    for (const a of parts) for (const b of parts) if (a !== b) out.set(a, b);
  }
  return out;
})();

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
      if (a === b || SAME_MODULE.get(a) === b) continue;
      if (!(rank.get(a)! > rank.get(b)!)) bad.push(`${from} → ${to} (${a} → ${b})`);
    }
  }
  return bad.sort();
}

/** Every file reachable from `start` (src-relative) along imports, start included. */
export function reachable(graph: ReadonlyMap<string, readonly string[]>, start: string): Set<string> {
  const seen = new Set<string>([start]);
  const todo = [start];
  while (todo.length > 0) {
    for (const t of graph.get(todo.pop()!) ?? []) {
      if (!seen.has(t)) {
        seen.add(t);
        todo.push(t);
      }
    }
  }
  return seen;
}
