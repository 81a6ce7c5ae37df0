/**
 * The import graph of src/ against the layer order written in docs/architecture.md ("Layers"): a module
 * (a folder under src/, or a top-level file such as registry.ts) may import only modules of lower layers,
 * and no set of files may import each other in a cycle. Static, re-exported, side-effect and dynamic
 * imports all count, type-only imports included (a type import is still a dependency on that layer).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backArrows, cycles, importGraph, layerOrder, moduleOf, SRC } from './graph.js';

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
    // cli/commands/sql.ts runs the user's own query (`bnclab sql`); its help text shows one.
    const bad = [...graph.keys()].filter(
      (f) => moduleOf(f) !== 'store' && f !== 'cli/commands/sql.ts' && sql.test(readFileSync(join(SRC, f), 'utf8')),
    );
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
