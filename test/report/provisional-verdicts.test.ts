/**
 * A verdict on a run that has not finished is what the finished part says: every published claim, W/D/L row
 * and cell whose verdict reads a dataset × method with fewer finished folds than planned (jobs not run yet or
 * failed) is marked provisional, says which, is never bold, and the section's summary counts them; a verdict
 * that reads only finished cells is left as it was.
 *
 * The run (test/helpers/report.ts UNFINISHED_RUN; accuracy, 3 folds planned per dataset × method): a, b, c on
 * d1..d5, b the best everywhere; b has 2 of 3 folds on d2 and none on d4; a and c have every fold.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { provisionalLine } from '../../src/cli/command.js';
import { buildReport } from '../../src/report/build.js';
import { evaluateReference } from '../../src/report/reference.js';
import { renderMarkdown } from '../../src/report/render.js';
import { completeRows, unfinishedCells } from '../../src/report/summary.js';
import { DEFAULT_COMPARE, type ReferenceSpec } from '../../src/spec/report-sections.js';
import type { ResultRow } from '../../src/store/db.js';
import { tempDir } from '../helpers/cli.js';
import { reportInput, UNFINISHED_RUN, unfinishedRunPlan, unfinishedRunRows } from '../helpers/report.js';

const METHODS = [...UNFINISHED_RUN.methods];
const planned = unfinishedRunPlan();
const rows = (): ResultRow[] => unfinishedRunRows();

function ref(name: string, text: string): ReferenceSpec {
  const file = join(tempDir(), name);
  writeFileSync(file, text);
  return { file, path: name, title: null, methods: {}, datasets: {}, substitutes: {}, scale: 1, tolerance: 0.01 };
}

const CLAIMS = `id,kind,metric,method_a,relation,method_b,dataset,value,source,note
M1,mean,accuracy,c,>,a,,,,reads a and c only: all finished
M2,mean,accuracy,b,>,a,,,,reads b: unfinished on d2 and d4
D1,dataset,accuracy,b,>,a,d1,,,b finished on d1
D4,dataset,accuracy,b,>,a,d4,,,b has no fold on d4
D4c,dataset,accuracy,c,>,a,d4,,,a and c finished on d4
P1,posthoc,accuracy,a,>,c,,0.1,,ranks every method
S1,every-small,accuracy,a,>,b,,,,fails on d1 (finished): final
S2,every-small,accuracy,b,>,a,,,,holds where finished: provisional
`;
const WDL = `metric,method_a,method_b,wins,draws,losses,significant
accuracy,c,a,5,0,0,
accuracy,b,a,5,0,0,
`;
const CELLS = `dataset,method,metric,value
d1,b,accuracy,0.8
d4,b,accuracy,0.83
`;

describe('verdicts on an unfinished run', () => {
  const all = rows();
  const unfinished = unfinishedCells(all, planned);

  it('lists every planned dataset × method with fewer finished folds, in the plan order', () => {
    expect(unfinished).toEqual([
      { dataset: 'd2', method: 'b', done: 2, planned: 3 },
      { dataset: 'd4', method: 'b', done: 0, planned: 3 },
    ]);
    expect(unfinishedCells(all, undefined)).toEqual([]);
  });

  it('marks exactly the claims that read an unfinished cell, and says which', () => {
    const r = evaluateReference(
      ref('claims.csv', CLAIMS),
      completeRows(all, planned),
      METHODS,
      DEFAULT_COMPARE,
      new Map(),
      unfinished,
    );
    if (r.kind !== 'claims') throw new Error(r.kind);
    const by = new Map(r.claims.map((c) => [c.id, c]));
    expect(by.get('M1')!.provisional).toBeNull();
    expect(by.get('D1')!.provisional).toBeNull();
    expect(by.get('M2')!.provisional).toBe(
      'provisional: 2 dataset × method cells it reads are unfinished (jobs not run yet or failed), on d2, d4',
    );
    expect(by.get('D4')!.provisional).toBe(
      'provisional: b on d4 has 0 of 3 folds finished (jobs not run yet or failed)',
    );
    expect(by.get('D4')!.verdict).toBe('not evaluable');
    expect(by.get('D4c')!.provisional).toBeNull();
    // A counterexample among the finished datasets is final; holding on them is not.
    expect([by.get('S1')!.verdict, by.get('S1')!.provisional]).toEqual(['not reproduced', null]);
    expect(by.get('S2')!.verdict).toBe('reproduced');
    expect(by.get('S2')!.provisional).not.toBeNull();
    expect(by.get('P1')!.provisional).toBe(
      'provisional: 2 dataset × method cells it reads are unfinished (jobs not run yet or failed), on d2, d4',
    );
    // The verdicts themselves are those of the finished part: unchanged by the marking.
    const plain = evaluateReference(ref('claims.csv', CLAIMS), completeRows(all, planned), METHODS, DEFAULT_COMPARE);
    if (plain.kind !== 'claims') throw new Error(plain.kind);
    expect(r.claims.map((c) => c.verdict)).toEqual(plain.claims.map((c) => c.verdict));
    expect(plain.claims.every((c) => c.provisional === null)).toBe(true);
  });

  it('marks W/D/L rows and published cells the same way', () => {
    const statRows = completeRows(all, planned);
    const w = evaluateReference(ref('wdl.csv', WDL), statRows, METHODS, DEFAULT_COMPARE, new Map(), unfinished);
    if (w.kind !== 'wdl') throw new Error(w.kind);
    expect(w.claims.map((c) => c.provisional === null)).toEqual([true, false]);
    const c = evaluateReference(ref('cells.csv', CELLS), statRows, METHODS, DEFAULT_COMPARE, new Map(), unfinished);
    if (c.kind !== 'cells') throw new Error(c.kind);
    expect(c.claims.map((x) => [x.verdict, x.provisional])).toEqual([
      ['reproduced', null],
      ['no data', 'provisional: b on d4 has 0 of 3 folds finished (jobs not run yet or failed)'],
    ]);
  });

  it('the report marks them in the verdict column, never bold, and counts them in the summary', async () => {
    const doc = await buildReport(
      reportInput(all, METHODS, {
        planned,
        expectedJobs: 45,
        reference: [ref('claims.csv', CLAIMS), ref('wdl.csv', WDL)],
      }),
    );
    const t = doc.tables.find((x) => x.id === 'reference-claims')!;
    const verdictCol = t.columns.findIndex((c) => c.header === 'verdict');
    const whyCol = t.columns.findIndex((c) => c.header === 'why');
    const row = (id: string) => t.rows.find((r) => r.cells[0].text === id)!;
    expect(row('M1').cells[verdictCol].text).not.toContain('provisional');
    expect(row('M2').cells[verdictCol].text).toMatch(/ \(provisional\)$/);
    expect(row('M2').cells[verdictCol].bold).toBeFalsy();
    expect(row('M2').cells[whyCol].text).toMatch(/^provisional: 2 dataset × method cells/);
    const md = renderMarkdown(doc);
    expect(md).toContain(
      '5 of these verdicts are provisional: the run has not finished 4 of its 45 jobs (not run yet or failed)',
    );
    expect(md).toContain('4 provisional (the run is not finished).');
    expect(md).toContain('1 provisional (the run is not finished).');
  });

  it('report and run print a line under the files when some verdicts are provisional, none otherwise', () => {
    expect(provisionalLine({ total: 8, provisional: 0 }, '  ')).toBe('');
    expect(provisionalLine({ total: 8, provisional: 5 }, '  ')).toBe(
      '  5 of 8 published-claim verdicts are provisional: the run has not finished the jobs they read (report.md, "Reproduction of published results")\n',
    );
  });
});
