/**
 * End to end: run a small real grid (plus two holdout experiments for the learning curve) through the CLI
 * into one DuckDB file, write the report with `bnclab report`, and check the tables' contents against
 * numbers computed here straight from the database, the HTML as XML, and every figure as SVG.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, ROOT, tempDir } from '../helpers/cli.js';
import { ResultStore } from '../../src/store/db.js';
import { readCsv } from '../../src/report/csv.js';
import { normalTwoSidedP } from '../../src/stats/distributions.js';
import { binomTest } from '../../src/stats/signtest.js';
import { assertValidSvg, findAll, parseXml, textOf, walk, type XmlElement } from './xml.js';

const FIX = join(ROOT, 'test', 'report', 'fixtures');
const METHODS = [
  'nb/dirichlet(alpha=0.5)',
  'nb/dirichlet(alpha=1)',
  'nb/dirichlet(alpha=20)',
  'tan/dirichlet(alpha=0.5)',
  'tan/dirichlet(alpha=1)',
  'tan/dirichlet(alpha=20)',
];
const DATASETS = ['breast-cancer', 'iris', 'labor', 'zoo'];
/** The fixture spec lists its datasets in this order, and the per-dataset tables follow it. */
const SPEC_ORDER = ['iris', 'zoo', 'breast-cancer', 'labor'];

let cwd = '';
let out = '';
/** means[metric][dataset][method], computed with SQL from the database. */
const means: Record<string, Record<string, Record<string, number>>> = {};
const nTrain: Record<string, number> = {};

function table(name: string): { header: readonly string[]; rows: string[][] } {
  const doc = readCsv(readFileSync(join(out, 'tables', `${name}.csv`), 'utf8'), name);
  return { header: doc.header, rows: doc.records.map((r) => [...r.fields]) };
}

/** Average ranks within each dataset (1 = best), ties averaged: written out here, independent of src/stats. */
function meanRanks(metric: string, higherIsBetter: boolean): number[] {
  const sums = METHODS.map(() => 0);
  for (const d of DATASETS) {
    const v = METHODS.map((m) => means[metric][d][m]);
    METHODS.forEach((_, j) => {
      const better = v.filter((x) => (higherIsBetter ? x > v[j] : x < v[j])).length;
      const equal = v.filter((x) => x === v[j]).length;
      sums[j] += better + (equal + 1) / 2;
    });
  }
  return sums.map((s) => s / DATASETS.length);
}

function wdl(metric: string, a: string, b: string, higherIsBetter: boolean): [number, number, number] {
  let w = 0;
  let d = 0;
  let l = 0;
  for (const ds of DATASETS) {
    const diff = means[metric][ds][a] - means[metric][ds][b];
    if (diff === 0) d++;
    else if (diff > 0 === higherIsBetter) w++;
    else l++;
  }
  return [w, d, l];
}

beforeAll(async () => {
  cwd = tempDir();
  const db = join(cwd, 'shared.duckdb');
  for (const s of ['report-lc-small', 'report-lc-large', 'report-e2e']) {
    const r = cli(['run', join(FIX, `${s}.yaml`), '--db', db, '--workers', '2', '--no-report', '--quiet'], { cwd });
    expect(r.code, r.stderr).toBe(0);
  }
  const rep = cli(['report', join(FIX, 'report-e2e.yaml'), '--db', db, '--pdf'], { cwd });
  expect(rep.code, rep.stderr).toBe(0);
  out = join(cwd, 'results', 'report-e2e');
  expect(rep.stdout).toContain(join(out, 'report.html'));
  const store = await ResultStore.open(db, { readOnly: true });
  try {
    for (const metric of ['accuracy', 'rmse', 'zero_one_loss']) {
      // Summed here in fold order, not with SQL avg(): DuckDB aggregates in parallel in no fixed order, so two
      // methods with the same fold values could get means a last bit apart and lose a tie the report sees.
      const rows = await store.query(
        `SELECT dataset, method, ${metric} AS v FROM results WHERE experiment = 'report-e2e'
         ORDER BY dataset, method, "repeat", fold`,
      );
      const sums: Record<string, Record<string, [number, number]>> = {};
      for (const r of rows) {
        const cell = ((sums[r['dataset'] as string] ??= {})[r['method'] as string] ??= [0, 0]);
        cell[0] += r['v'] as number;
        cell[1]++;
      }
      means[metric] = {};
      for (const [d, byMethod] of Object.entries(sums)) {
        means[metric][d] = {};
        for (const [m, [sum, n]] of Object.entries(byMethod)) means[metric][d][m] = sum / n;
      }
    }
    const lc = await store.query(
      `SELECT experiment, dataset, avg(n_train) AS n FROM results WHERE experiment LIKE 'report-lc-%' AND method = 'nb/dirichlet' GROUP BY ALL`,
    );
    for (const r of lc) nTrain[`${r['experiment']}/${r['dataset']}`] = r['n'] as number;
  } finally {
    store.close();
  }
});

describe('bnclab report on a real experiment', () => {
  it('per-dataset accuracy table: means from the database, best per row in bold, average and rank rows', () => {
    const t = table('accuracy');
    expect(t.header).toEqual(['dataset', ...METHODS]);
    // The table's CSV holds the datasets only (scmamp and autorank read it as is); averages and ranks are in
    // accuracy-summary.csv, and the LaTeX label carries the experiment's name.
    expect(t.rows.map((r) => r[0])).toEqual(SPEC_ORDER);
    const summary = table('accuracy-summary');
    expect(summary.header).toEqual(t.header);
    expect(summary.rows.map((r) => r[0])).toEqual(['average (4)', 'average rank']);
    for (const [i, d] of SPEC_ORDER.entries()) {
      METHODS.forEach((m, j) => expect(Number(t.rows[i][j + 1])).toBeCloseTo(means['accuracy'][d][m], 12));
    }
    const ranks = meanRanks('accuracy', true);
    METHODS.forEach((_, j) => expect(Number(summary.rows[1][j + 1])).toBeCloseTo(ranks[j], 12));
    // Bold in the Markdown: exactly the cells equal to the row's best value at 4 decimals.
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    const section = md.slice(md.indexOf('## Accuracy'), md.indexOf('## 0-1 loss'));
    for (const d of DATASETS) {
      const line = section.split('\n').find((l) => l.startsWith(`| ${d} |`))!;
      const cells = line.split(' | ').slice(1);
      const shown = METHODS.map((m) => Number(means['accuracy'][d][m].toFixed(4)));
      const best = Math.max(...shown);
      cells.forEach((c, j) => expect(c.startsWith('**'), `${d} ${METHODS[j]}`).toBe(shown[j] === best));
    }
    const tex = readFileSync(join(out, 'tables', 'accuracy.tex'), 'utf8');
    expect(tex).toMatch(/\\toprule[\s\S]*\\midrule[\s\S]*\\emph\{average \(4\)\}[\s\S]*\\bottomrule/);
    expect(tex).toContain('nb/dirichlet(alpha=0.5)');
    expect(tex).toContain('\\label{tab:report-e2e:accuracy}');
    // With --pdf, each figure also as a one-page PDF.
    for (const f of readdirSync(join(out, 'figures')).filter((n) => n.endsWith('.svg'))) {
      const pdf = readFileSync(join(out, 'figures', f.replace(/\.svg$/, '.pdf')));
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(1);
      // Every font embedded (a FontFile2 stream per font: publishers reject PDFs with unembedded fonts), and
      // none of the 14 standard fonts, which cannot be embedded by reference.
      const text = pdf.toString('latin1');
      const fonts = text.match(/\/Type \/Font\b/g)?.length ?? 0;
      expect(text.match(/\/FontFile2\b/g)?.length ?? 0, f).toBeGreaterThanOrEqual(1);
      expect(text, f).not.toMatch(/\/BaseFont \/(Helvetica|Times|Courier)/);
      expect(fonts, f).toBeGreaterThanOrEqual(1);
    }
    const longCsv = readFileSync(join(out, 'report.csv'), 'utf8');
    expect(longCsv).not.toContain('(average');
    expect(readFileSync(join(out, 'report-summary.csv'), 'utf8').split('\n')[0]).toBe(
      'metric,method,average,average_rank,complete_datasets',
    );
  });

  it('Hommel post-hoc table against the control named in the spec', () => {
    const t = table('posthoc-rmse');
    const control = 'tan/dirichlet(alpha=1)';
    expect(t.rows[0][0]).toBe(control);
    const ranks = meanRanks('rmse', false);
    const rc = ranks[METHODS.indexOf(control)];
    const se = Math.sqrt((6 * 7) / (6 * 4));
    const others = METHODS.filter((m) => m !== control);
    expect(t.rows.slice(1).map((r) => r[0])).toEqual(others);
    const p = others.map((m) => normalTwoSidedP((ranks[METHODS.indexOf(m)] - rc) / se));
    t.rows.slice(1).forEach((r, i) => {
      expect(Number(r[1])).toBeCloseTo(ranks[METHODS.indexOf(others[i])], 12);
      expect(Number(r[3])).toBeCloseTo(p[i], 12);
      // Hommel never lowers a p-value and never exceeds (k − 1) · p.
      expect(Number(r[4])).toBeGreaterThanOrEqual(p[i] - 1e-15);
      expect(Number(r[4])).toBeLessThanOrEqual(Math.min(1, 5 * p[i]) + 1e-15);
    });
  });

  it('W/D/L table with sign-test p-values for the pairs of the spec', () => {
    const t = table('wdl');
    const pairs: [string, string][] = [
      ['tan/dirichlet(alpha=1)', 'nb/dirichlet(alpha=1)'],
      ['nb/dirichlet(alpha=0.5)', 'nb/dirichlet(alpha=20)'],
    ];
    expect(t.rows.map((r) => r[0])).toEqual(pairs.map(([a, b]) => `${a} vs ${b}`));
    pairs.forEach(([a, b], i) => {
      const acc = wdl('accuracy', a, b, true);
      const rmse = wdl('rmse', a, b, false);
      expect(t.rows[i][1]).toBe(acc.join('–'));
      expect(t.rows[i][3]).toBe(rmse.join('–'));
      expect(Number(t.rows[i][4])).toBeCloseTo(rmse[0] + rmse[2] ? binomTest(rmse[0], rmse[0] + rmse[2]).p : 1, 12);
    });
  });

  it('win/loss table and figure against the swept alpha', () => {
    const t = table('sweep-estimator.alpha-rmse');
    expect(t.header).toEqual(['method', 'against', 'estimator.alpha', 'wins', 'draws', 'losses']);
    expect(t.rows.map((r) => `${r[0]} ${r[1]} ${r[2]}`)).toEqual([
      'nb/dirichlet(alpha=0.5) nb/dirichlet(alpha=1) 0.5',
      'nb/dirichlet(alpha=20) nb/dirichlet(alpha=1) 20',
      'tan/dirichlet(alpha=0.5) tan/dirichlet(alpha=1) 0.5',
      'tan/dirichlet(alpha=20) tan/dirichlet(alpha=1) 20',
    ]);
    for (const r of t.rows) {
      const [w, d, l] = wdl('rmse', r[0], r[1], false);
      expect([Number(r[3]), Number(r[4]), Number(r[5])]).toEqual([w, d, l]);
    }
  });

  it('learning curve over the two holdout experiments uses their training-set sizes', () => {
    const t = table('learning-curve-rmse');
    // The learning-curve experiments write alpha: 1, the default, so their label is plain nb/dirichlet.
    const nb = t.rows.filter((r) => r[1] === 'nb/dirichlet');
    expect(nb.map((r) => `${r[0]} ${Number(r[2])}`)).toEqual([
      `iris ${nTrain['report-lc-small/iris']}`,
      `iris ${nTrain['report-lc-large/iris']}`,
      `zoo ${nTrain['report-lc-small/zoo']}`,
      `zoo ${nTrain['report-lc-large/zoo']}`,
    ]);
    // 150 iris rows with 80% and 30% held out for testing.
    expect(nTrain['report-lc-small/iris']).toBe(30);
    expect(nTrain['report-lc-large/iris']).toBe(105);
  });

  it('reproduction tables: published beside ours, with verdicts', () => {
    const w = table('reference-ref-wdl');
    expect(w.rows.map((r) => r[7])).toHaveLength(4);
    // RMSE TAN vs NB, published 4–0–0 significant: 4 datasets give p ≥ 0.125 > α = 0.1, never significant here.
    const tanNb = wdl('rmse', 'tan/dirichlet(alpha=1)', 'nb/dirichlet(alpha=1)', false);
    expect(w.rows[0].slice(3, 5)).toEqual(['4–0–0', tanNb.join('–')]);
    expect(w.rows[0][7]).toBe('not reproduced');
    // Net wins (W − L) / n of our counts, with a bootstrap interval inside [−1, 1] around it.
    const net = w.rows[0][6].match(/^([+−]?[\d.]+) \[([+−]?[\d.]+), ([+−]?[\d.]+)\]$/);
    expect(net).not.toBeNull();
    const num = (t: string): number => Number(t.replace('−', '-'));
    expect(num(net![1])).toBeCloseTo((tanNb[0] - tanNb[2]) / 4, 2);
    expect(num(net![2])).toBeLessThanOrEqual(num(net![1]));
    expect(num(net![3])).toBeGreaterThanOrEqual(num(net![1]));
    expect(num(net![2])).toBeGreaterThanOrEqual(-1);
    expect(num(net![3])).toBeLessThanOrEqual(1);
    // 0-1 loss NB vs NB-heavy, published 3–0–1, significance computed from the counts: p = 0.625, not
    // significant, and 4 datasets are never significant here: at most the direction agrees.
    const heavy = wdl('zero_one_loss', 'nb/dirichlet(alpha=1)', 'nb/dirichlet(alpha=20)', false);
    expect(w.rows[1][4]).toBe(heavy.join('–'));
    expect(w.rows[1][7]).toBe(
      Math.sign(heavy[0] - heavy[2]) === 1 ? 'direction reproduced, not significant' : 'not reproduced',
    );
    expect(w.rows[2][7]).toBe('no data');
    expect(w.rows[2][6]).toBe(''); // no value in the CSV where the report prints '–'
    // Accuracy TAN vs NB, published 1–1–2 not significant.
    const acc = wdl('accuracy', 'tan/dirichlet(alpha=1)', 'nb/dirichlet(alpha=1)', true);
    expect(w.rows[3][7]).toBe(
      Math.sign(acc[0] - acc[2]) === -1 ? 'direction reproduced, not significant' : 'not reproduced',
    );

    const c = table('reference-ref-cells');
    const ours = means['accuracy']['iris']['nb/dirichlet(alpha=1)'];
    expect(Number(c.rows[0][3])).toBeCloseTo(0.93, 12); // 93.0 × scale 0.01
    expect(Number(c.rows[0][4])).toBeCloseTo(ours, 12);
    expect(Number(c.rows[0][5])).toBeCloseTo(ours - 0.93, 12);
    expect(c.rows[0][6]).toBe(Math.abs(ours - 0.93) <= 0.02 ? 'reproduced' : 'not reproduced');
    expect(Number(c.rows[1][3])).toBeCloseTo(0.05, 12); // '5%' is 5/100, the scale is not applied again
    expect(Number(c.rows[1][4])).toBeCloseTo(means['zero_one_loss']['zoo']['nb/dirichlet(alpha=1)'], 12);
    expect(c.rows[2][6]).toBe('no data');
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(
      /\d+ of 7 published claims reproduced, (\d+ direction reproduced but not significant, )?\d+ not reproduced, 2 without our data\./,
    );
  });

  it('report.html parses as XML, is self-contained, escapes names, and inlines one valid SVG per figure', () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const root = parseXml(html);
    expect(root.name).toBe('html');
    expect(findAll(root, 'script')).toHaveLength(0);
    expect(html).not.toMatch(/(src|href)="(?!#)[^"]+"/); // nothing loaded from elsewhere
    const ids: string[] = [];
    walk(root, (e) => {
      if (e.attrs['id']) ids.push(e.attrs['id']);
    });
    expect(new Set(ids).size).toBe(ids.length);
    // The reference title contains markup characters; it must arrive as text.
    expect(findAll(root, 'h3').map(textOf)).toContain('Published <W/D/L> & claims');
    const figures = findAll(root, 'figure');
    const files = readdirSync(join(out, 'figures'))
      .filter((f) => f.endsWith('.svg'))
      .sort();
    expect(figures).toHaveLength(files.length);
    // One learned-structure drawing per dataset × method, e.g. structure-iris-nb-dirichlet-alpha-0.5.svg.
    const structures = DATASETS.flatMap((d) =>
      METHODS.map((m) => `structure-${d}-${m.replace(/[/()=]+/g, '-').replace(/-+$/, '')}.svg`),
    );
    expect(files).toEqual(
      [
        'cd-accuracy.svg',
        'cd-rmse.svg',
        'folds-accuracy.svg',
        'learning-curve-rmse.svg',
        'scatter-accuracy-nb-dirichlet-alpha-0.5-vs-nb-dirichlet-alpha-20.svg',
        'scatter-accuracy-tan-dirichlet-alpha-1-vs-nb-dirichlet-alpha-1.svg',
        'scatter-rmse-nb-dirichlet-alpha-0.5-vs-nb-dirichlet-alpha-20.svg',
        'scatter-rmse-tan-dirichlet-alpha-1-vs-nb-dirichlet-alpha-1.svg',
        'sweep-estimator.alpha-rmse.svg',
        ...structures,
      ].sort(),
    );
    for (const f of figures) {
      const svgs = f.children.filter((c) => c.name === 'svg');
      expect(svgs).toHaveLength(1);
      // Inline copies are checked in place (ids prefixed per figure) …
      const inline = { ...svgs[0], attrs: { xmlns: 'http://www.w3.org/2000/svg', ...svgs[0].attrs } } as XmlElement;
      assertValidSvg(inline);
    }
    // … and the files standalone.
    for (const file of files) assertValidSvg(readFileSync(join(out, 'figures', file), 'utf8'));
    // Tables: the same numbers as the CSV files.
    const acc = findAll(root, 'table').find((t) => t.attrs['id'] === 'table-accuracy')!;
    const firstRow = findAll(acc, 'tr')[1];
    expect(textOf(findAll(firstRow, 'td')[0])).toBe('iris');
  });

  it('a scatter figure has one point per dataset and the diagonal; the CD diagram names every method', () => {
    const svg = parseXml(
      readFileSync(join(out, 'figures', 'scatter-rmse-tan-dirichlet-alpha-1-vs-nb-dirichlet-alpha-1.svg'), 'utf8'),
    );
    const groups = findAll(svg, 'g');
    const symbols = groups.filter((g) => (g.attrs['class'] ?? '').includes('mark-symbol'));
    expect(symbols).toHaveLength(1);
    expect(symbols[0].children.filter((c) => c.name === 'path')).toHaveLength(DATASETS.length);
    const lines = groups.filter((g) => (g.attrs['class'] ?? '').includes('mark-line'));
    expect(lines).toHaveLength(1);
    const cd = parseXml(readFileSync(join(out, 'figures', 'cd-accuracy.svg'), 'utf8'));
    const texts = findAll(cd, 'text').map(textOf);
    const ranks = meanRanks('accuracy', true);
    METHODS.forEach((m, j) => expect(texts).toContain(`${m} (${ranks[j].toFixed(2)})`));
    expect(texts.some((t) => t.startsWith('CD = '))).toBe(true);
  });

  it('made again from the same results, the report rewrites no file; a file changed since is written again', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .map((f) => join(dir, f))
        .filter((f) => statSync(f).isFile());
    const all = files(out);
    expect(all.length).toBeGreaterThan(20);
    // Every file dated long ago, so a rewrite shows whatever the clock's resolution.
    const then = new Date('2001-01-01T00:00:00Z');
    for (const f of all) utimesSync(f, then, then);
    const before = new Map(all.map((f) => [f, readFileSync(f)]));
    const edited = join(out, 'report.md');
    writeFileSync(edited, `${readFileSync(edited, 'utf8')}\nmy note\n`);
    utimesSync(edited, then, then);
    const r = cli(['report', join(FIX, 'report-e2e.yaml'), '--db', join(cwd, 'shared.duckdb'), '--pdf'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(files(out).sort()).toEqual([...all].sort());
    for (const f of all) {
      expect(readFileSync(f).equals(before.get(f)!), f).toBe(true);
      if (f !== edited) expect(statSync(f).mtimeMs, f).toBe(then.getTime());
    }
    expect(statSync(edited).mtimeMs).toBeGreaterThan(then.getTime());
  });

  it("command-line overrides re-render from the database; stale generated files go, the user's own stay", () => {
    const mine = join(out, 'tables', 'my-notes.csv');
    writeFileSync(mine, 'keep,me\n');
    const r = cli(
      [
        'report',
        join(FIX, 'report-e2e.yaml'),
        '--db',
        join(cwd, 'shared.duckdb'),
        '--metrics',
        'accuracy',
        '--control',
        'nb/dirichlet(alpha=1)',
        '--alpha',
        '0.05',
      ],
      { cwd },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(mine)).toBe(true);
    expect(existsSync(join(out, 'tables', 'posthoc-rmse.csv'))).toBe(false);
    expect(existsSync(join(out, 'figures', 'cd-rmse.svg'))).toBe(false);
    expect(table('posthoc-accuracy').rows[0][0]).toBe('nb/dirichlet(alpha=1)');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('α = 0.05; p-value adjustment: Hommel');
    const bad = cli(['report', join(FIX, 'report-e2e.yaml'), '--db', join(cwd, 'shared.duckdb'), '--control', 'nb'], {
      cwd,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--control: no method labelled 'nb'/);
  });
});
