/**
 * The server of `bnclab ui` on a quickstart database: its store queries against the report's and status's
 * own readings, the statistics of a selection equal to `bnclab report` of a spec with exactly that
 * selection (tables, tests and the CD diagram, byte for byte where the report writes files), the URL's
 * selection, errors as one line with status 400, and the server bound to 127.0.0.1.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliSpawn, ROOT, tempDir } from '../helpers/cli.js';
import { readCsv } from '../../src/report/csv.js';
import { collectStatus } from '../../src/cluster/status.js';
import { loadSpecFile, withSeedCount } from '../../src/spec/load.js';
import { buildPlanSummary } from '../../src/spec/plan.js';
import { ResultStore } from '../../src/store/db.js';
import { cellJobs, experimentCodeStates, experimentCounts, gridCounts } from '../../src/store/ui.js';
import { tableToCsv } from '../../src/report/table.js';
import { fmean } from '../../src/stats/fsum.js';
import { wilcoxonSignedRank } from '../../src/stats/wilcoxon.js';
import { compareAcross, eta, type Selection, UiData } from '../../src/ui/data.js';
import { selectionOf, startUi, type RunningUi } from '../../src/ui/server.js';

const QUICKSTART = join(ROOT, 'experiments', 'quickstart.yaml');
const SUBSET = ['car', 'iris', 'tic-tac-toe', 'zoo'];
let dir = '';
let db = '';

/** A number as the report's CSV writes it (Inf for an infinite statistic). */
const num = (s: string | undefined): number => (s === 'Inf' ? Infinity : s === '-Inf' ? -Infinity : Number(s));

function csv(file: string): string[][] {
  const doc = readCsv(readFileSync(file, 'utf8'), file);
  return [[...doc.header], ...doc.records.map((r) => [...r.fields])];
}

describe('bnclab ui: the server and its queries', () => {
  beforeAll(() => {
    dir = tempDir('bnclab-ui-');
    db = join(dir, 'q.duckdb');
    const r = cli(['run', QUICKSTART, '--db', db, '--workers', '2'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts jobs per experiment and per dataset × method as status does', async () => {
    const spec = loadSpecFile(QUICKSTART).spec;
    const st = await collectStatus(buildPlanSummary(spec), [db]);
    const store = await ResultStore.open(db, { readOnly: true });
    try {
      const [c] = await experimentCounts(store);
      expect(c).toMatchObject({ name: 'quickstart', planned: 120, done: st.total.done, failed: 0, pending: 0 });
      expect(c.lastFinished! >= c.firstFinished!).toBe(true);
      const grid = await gridCounts(store, 'quickstart');
      expect(grid.map((g) => `${g.dataset} ${g.method} ${g.done}/${g.planned}`).sort()).toEqual(
        st.rows.map((r) => `${r.dataset} ${r.method} ${r.done}/${r.done + r.failed + r.pending}`).sort(),
      );
      // A cell: ten folds in order, with the metrics the results view holds.
      const jobs = await cellJobs(store, 'quickstart', 'iris', 'nb/dirichlet');
      const rows = (await store.results('quickstart')).filter(
        (r) => r.dataset === 'iris' && r.method === 'nb/dirichlet',
      );
      expect(jobs.map((j) => j.fold)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(jobs.map((j) => j.metrics['accuracy'])).toEqual(rows.map((r) => r.accuracy));
      expect(jobs[0].classLabels).toEqual(['Iris-setosa', 'Iris-versicolor', 'Iris-virginica']);
      // The learned arcs by job (the report's and the cell's structures): exactly the rows of \`structures\`,
      // for the keys asked (a key asked twice, once; a key without arcs, absent).
      const stored = await store.query('SELECT job_key, parent, child FROM structures ORDER BY ALL');
      const keys = [...new Set(stored.map((r) => String(r['job_key'])))];
      expect(keys.length).toBeGreaterThan(10);
      const asked = [...keys.slice(0, 10), keys[0], 'no-such-job'];
      const arcs = await store.learnedArcsOf(asked);
      expect([...arcs.keys()].sort()).toEqual(keys.slice(0, 10).sort());
      const flat = [...arcs].flatMap(([k, a]) => a.map(([p, c]) => `${k} ${p} ${c}`)).sort();
      const want = stored
        .filter((r) => keys.slice(0, 10).includes(String(r['job_key'])))
        .map((r) => `${r['job_key']} ${r['parent']} ${r['child']}`)
        .sort();
      expect(flat).toEqual(want);
      // The confusion matrix of a fold sums to its test rows, its diagonal to the correct ones.
      for (const j of jobs) {
        const m = j.confusion!;
        expect(m.flat().reduce((a, b) => a + b, 0)).toBe(j.nTest);
        expect(m.reduce((a, row, i) => a + row[i], 0) / j.nTest!).toBeCloseTo(j.metrics['accuracy']!, 12);
      }
    } finally {
      store.close();
    }
  });

  it('gives the statistics of a selection exactly as `bnclab report` of a spec with that selection', async () => {
    const spec = readFileSync(QUICKSTART, 'utf8').replace('datasets: [quickstart]', `datasets: [${SUBSET.join(', ')}]`);
    writeFileSync(join(dir, 'subset.yaml'), spec);
    const out = join(dir, 'report');
    const r = cli(['report', join(dir, 'subset.yaml'), '--db', db, '--out', out, '--metrics', 'log_loss', '--pdf'], {
      cwd: dir,
    });
    expect(r.code, r.stderr).toBe(0);

    const data = new UiData(db);
    const sel: Selection = {
      experiment: 'quickstart',
      metric: 'log_loss',
      datasets: SUBSET,
      methods: [],
      control: 'best',
    };
    const res = await data.results(sel);
    const m = res.comparison;
    // The table of means, cell by cell.
    const table = csv(join(out, 'tables', 'log_loss.csv'));
    expect(table[0]).toEqual(['dataset', ...m.table.methods]);
    expect(m.table.datasets).toEqual(SUBSET);
    table.slice(1, 1 + SUBSET.length).forEach((row, i) => {
      expect(row[0]).toBe(SUBSET[i]);
      m.table.methods.forEach((_, j) => expect(m.table.cells[i][j]!.mean).toBe(num(row[j + 1])));
    });
    // Friedman and Iman–Davenport.
    const fr = csv(join(out, 'tables', 'friedman.csv'))[1];
    expect([m.friedman!.nDatasets, m.friedman!.chi2, m.friedman!.p, m.friedman!.imanDavenport.F]).toEqual([
      num(fr[1]),
      num(fr[3]),
      num(fr[5]),
      num(fr[6]),
    ]);
    expect(m.friedman!.imanDavenport.p).toBe(num(fr[8]));
    // Post-hoc against the control.
    const ph = csv(join(out, 'tables', 'posthoc-log_loss.csv')).slice(1);
    expect(res.control).toBe(ph[0][0]);
    const other = m.posthoc!.comparisons[0];
    const phRow = ph.find((x) => x[0] === m.methods[other.method])!;
    expect([other.z, other.p, other.pAdjusted]).toEqual([num(phRow[2]), num(phRow[3]), num(phRow[4])]);
    // Wilcoxon signed-rank and W/D/L of the pair.
    const wx = csv(join(out, 'tables', 'wilcoxon-log_loss.csv'))[1];
    const pair = m.pairs[0];
    expect([pair.a, pair.b, pair.wilcoxon!.p, pair.wilcoxonAdjusted]).toEqual([wx[0], wx[1], num(wx[7]), num(wx[8])]);
    expect(`${pair.wdl!.wins}–${pair.wdl!.draws}–${pair.wdl!.losses}`).toBe(wx[3]);
    // The exports are the report's files, byte for byte.
    expect((await data.exportFile(sel, 'csv')).body).toBe(readFileSync(join(out, 'tables', 'log_loss.csv'), 'utf8'));
    expect((await data.exportFile(sel, 'tex')).body).toBe(readFileSync(join(out, 'tables', 'log_loss.tex'), 'utf8'));
    expect((await data.exportFile(sel, 'cd.svg')).body).toBe(
      readFileSync(join(out, 'figures', 'cd-log_loss.svg'), 'utf8'),
    );
    expect(await data.cdSvg(sel)).toBe(readFileSync(join(out, 'figures', 'cd-log_loss.svg'), 'utf8'));
    // The figures as `report --pdf` writes them (Arimo embedded), byte for byte: the CD diagram and the box plot.
    for (const [what, file] of [
      ['cd.pdf', 'cd-log_loss.pdf'],
      ['folds.pdf', 'folds-log_loss.pdf'],
      ['folds.svg', 'folds-log_loss.svg'],
    ] as const) {
      const f = await data.exportFile(sel, what);
      expect(Buffer.from(f.body).equals(readFileSync(join(out, 'figures', file))), what).toBe(true);
    }
    expect((await data.exportFile(sel, 'cd.pdf')).type).toBe('application/pdf');
    // Every dataset: the full report's numbers differ (the selection matters).
    const whole = await data.results({ ...sel, datasets: [] });
    expect(whole.comparison.friedman!.nDatasets).toBe(6);
    expect(whole.comparison.friedman!.chi2).not.toBe(m.friedman!.chi2);
  });

  it("exports a cell's box plot as the report of that dataset × method writes it (SVG, and PDF through pdftoppm)", async () => {
    const spec = readFileSync(QUICKSTART, 'utf8')
      .replace('datasets: [quickstart]', 'datasets: [iris]')
      .replace('structures: [nb, tan]', 'structures: [nb]');
    writeFileSync(join(dir, 'cell.yaml'), spec);
    const out = join(dir, 'cell-report');
    const r = cli(['report', join(dir, 'cell.yaml'), '--db', db, '--out', out, '--metrics', 'rmse', '--pdf'], {
      cwd: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    const data = new UiData(db);
    const cell = await data.cell('quickstart', 'iris', 'nb/dirichlet', 'rmse');
    const svg = readFileSync(join(out, 'figures', 'folds-rmse.svg'), 'utf8');
    // The page's box plot is the report's figure of that one dataset × method.
    expect(cell.boxplot).toBe(svg);
    const sel: Selection = {
      experiment: 'quickstart',
      metric: 'rmse',
      datasets: ['iris'],
      methods: ['nb/dirichlet'],
      control: 'best',
    };
    expect((await data.exportFile(sel, 'folds.svg')).body).toBe(svg);
    const pdf = (await data.exportFile(sel, 'folds.pdf')).body as Buffer;
    const want = readFileSync(join(out, 'figures', 'folds-rmse.pdf'));
    expect(pdf.equals(want)).toBe(true);
    // Drawn by poppler: the exported PDF renders to the same pixels as the report's, a page of the figure's size.
    const tool = spawnSync('pdftoppm', ['-v']);
    if (tool.error) return; // poppler-utils not installed: the byte equality above stands
    writeFileSync(join(dir, 'export.pdf'), pdf);
    const png = (f: string, stem: string): Buffer => {
      const p = spawnSync('pdftoppm', ['-r', '72', '-png', '-singlefile', f, join(dir, stem)]);
      expect(p.status, String(p.stderr)).toBe(0);
      return readFileSync(join(dir, `${stem}.png`));
    };
    const a = png(join(dir, 'export.pdf'), 'export');
    expect(a.equals(png(join(out, 'figures', 'folds-rmse.pdf'), 'report'))).toBe(true);
    const [w, h] = [a.readUInt32BE(16), a.readUInt32BE(20)];
    const size = /width="([\d.]+)" height="([\d.]+)"/.exec(svg)!;
    expect([w, h]).toEqual([Math.ceil(Number(size[1])), Math.ceil(Number(size[2]))]);
    const fonts = spawnSync('pdffonts', [join(dir, 'export.pdf')], { encoding: 'utf8' });
    expect(fonts.stdout).toMatch(/Arimo-Regular.*yes\s+yes/);
  });

  it('draws no box plot for a cell of one fold (a single train/test split), as the report draws none', async () => {
    const spec = join(dir, 'single.yaml');
    writeFileSync(
      spec,
      'name: single_split\nseed: 1\ndatasets: [iris]\nresampling: { method: holdout }\nstructures: [nb]\n' +
        'estimators: [{ id: dirichlet, params: { alpha: 1 } }]\n',
    );
    const single = join(dir, 'single.duckdb');
    const r = cli(['run', spec, '--db', single, '--quiet'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'results', 'single_split', 'figures', 'folds-accuracy.svg'))).toBe(false);
    const cell = await new UiData(single).cell('single_split', 'iris', 'nb/dirichlet', 'accuracy');
    expect(cell.jobs).toHaveLength(1);
    expect(cell.boxplot).toBeNull();
    expect(cell.structure).not.toBeNull();
  });

  it('reads the selection from the URL and rejects unknown names with one line', async () => {
    const q = new URLSearchParams('exp=quickstart&metric=rmse&d=iris&d=zoo&m=nb%2Fdirichlet&control=best');
    expect(selectionOf(q)).toEqual({
      experiment: 'quickstart',
      metric: 'rmse',
      datasets: ['iris', 'zoo'],
      methods: ['nb/dirichlet'],
      control: 'best',
    });
    expect(() => selectionOf(new URLSearchParams('exp=quickstart&metric=speed'))).toThrow(/metric: expected one of/);
    const data = new UiData(db);
    await expect(data.results({ ...selectionOf(q), datasets: ['iriss'] })).rejects.toThrow(
      "no dataset 'iriss' in experiment 'quickstart'",
    );
    await expect(data.experiment('nope')).rejects.toThrow("no experiment 'nope' in");
  });

  it('estimates the time left from the rate so far', () => {
    const c = { name: 'x', specFile: '', planned: 100, done: 40, failed: 1, pending: 59, updated: null };
    // 41 jobs finished over 80 s: 40 intervals of 2 s, so 59 more take 118 s.
    expect(eta({ ...c, firstFinished: 1000, lastFinished: 1080 }, 1080)).toBe(118);
    expect(eta({ ...c, firstFinished: null, lastFinished: null }, 1080)).toBeNull();
    expect(eta({ ...c, pending: 0, firstFinished: 1000, lastFinished: 1080 }, 1080)).toBeNull();
  });

  it('serves on 127.0.0.1: the page, its script, the API, and a 400 with the reason', async () => {
    const ui: RunningUi = await startUi(new UiData(db), '127.0.0.1', 0);
    try {
      expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const page = await (await fetch(ui.url)).text();
      expect(page).toContain('<script src="/app.js"></script>');
      expect(page).not.toMatch(/https?:\/\//); // nothing from the network
      const js = await fetch(`${ui.url}app.js`);
      expect(js.status).toBe(200);
      expect((await js.text()).length).toBeGreaterThan(1000);
      // The figures' font (Arimo, Helvetica's metrics) comes from the server too.
      for (const w of ['400', '700']) {
        const font = await fetch(`${ui.url}fonts/arimo-${w}.ttf`);
        expect(font.headers.get('content-type')).toBe('font/ttf');
        expect(Buffer.from(await font.arrayBuffer()).readUInt32BE(0)).toBe(0x00010000); // a TrueType file
      }
      expect(page).toContain('url(/fonts/arimo-400.ttf)');
      const ex = (await (await fetch(`${ui.url}api/experiments`)).json()) as {
        experiments: { counts: { done: number } }[];
      };
      expect(ex.experiments[0].counts.done).toBe(120);
      const bad = await fetch(`${ui.url}api/results?exp=quickstart&metric=accuracy&m=nope`);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ error: "no method 'nope' in experiment 'quickstart'" });
      const r = (await (await fetch(`${ui.url}api/results?exp=quickstart&metric=accuracy`)).json()) as {
        comparison: { table: { cells: unknown[][] } };
      };
      expect(r.comparison.table.cells.length).toBe(6);
    } finally {
      await ui.close();
    }
  });

  it("shows the claims of the spec's reference: section exactly as the report tabulates them", async () => {
    writeFileSync(
      join(dir, 'claims.csv'),
      `id,kind,metric,method_a,relation,method_b,dataset,value,source,note
C1,best-mean,accuracy,TAN,max,,,,Table 2,TAN has the best mean
C2,mean,accuracy,TAN,>,NB,,,Sec. 4,
C3,wilcoxon,log loss,TAN,<,NB,,0.05,Table 3,
C4,dataset,accuracy,NB,>,TAN,iris,,,
C5,cell,accuracy,NB,,,iris,0.94,Table 1,
C6,mean,accuracy,KDB,>,NB,,,,not in this run
`,
    );
    const text = readFileSync(QUICKSTART, 'utf8').replace(/\s*$/, '\n');
    writeFileSync(
      join(dir, 'claims.yaml'),
      `${text}reference:\n  - file: claims.csv\n    methods: { TAN: tan/dirichlet, NB: nb/dirichlet }\n`,
    );
    const out = join(dir, 'report-claims');
    const r = cli(['report', join(dir, 'claims.yaml'), '--db', db, '--out', out], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const data = new UiData(db, loadSpecFile(join(dir, 'claims.yaml')).spec);
    const c = await data.claims('quickstart');
    expect(c.files.map((f) => [f.path, f.kind, f.table.id])).toEqual([['claims.csv', 'claims', 'reference-claims']]);
    const t = c.files[0].table;
    // The report's own table of the claims, byte for byte as its CSV.
    expect(tableToCsv(t)).toBe(readFileSync(join(out, 'tables', 'reference-claims.csv'), 'utf8'));
    const verdicts = t.rows.map((x) => x.cells[4].text);
    expect(verdicts).toHaveLength(6);
    expect(verdicts[5]).toBe('not evaluable');
    expect(Object.values(c.files[0].verdicts).reduce((a, b) => a + b, 0)).toBe(6);
    // A finished run: no verdict is provisional (test/report/provisional-verdicts.test.ts has an unfinished one).
    expect(c.files[0].provisional).toBe(0);
    // The uncertainty: the order claims carry the margin's bootstrap interval.
    expect(t.rows[1].cells[3].text).toMatch(/95% interval \[/);
    // Without a reference: section, a note and no tables.
    expect(await new UiData(db).claims('quickstart')).toMatchObject({ files: [] });
    expect(c.files[0].stability).toBeNull();
  });

  it('gives each claim its stability across seeds as `report --seeds N` does', async () => {
    // claims.csv and claims.yaml from the test above; a run of two seeds on three datasets, in its own database.
    const text = readFileSync(join(dir, 'claims.yaml'), 'utf8')
      .replace('name: quickstart', 'name: quickstart-seeds')
      .replace('datasets: [quickstart]', 'datasets: [iris, zoo, breast-cancer]');
    writeFileSync(join(dir, 'seeds.yaml'), text);
    const sdb = join(dir, 'seeds.duckdb');
    const run = cli(['run', join(dir, 'seeds.yaml'), '--db', sdb, '--seeds', '2', '--workers', '2'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const out = join(dir, 'report-seeds');
    const r = cli(['report', join(dir, 'seeds.yaml'), '--db', sdb, '--out', out, '--seeds', '2'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const spec = withSeedCount(loadSpecFile(join(dir, 'seeds.yaml')).spec, 2);
    const c = await new UiData(sdb, spec).claims('quickstart-seeds');
    const t = c.files[0].table;
    const csvText = readFileSync(join(out, 'tables', 'reference-claims.csv'), 'utf8');
    expect(tableToCsv(t)).toBe(csvText);
    expect(t.columns.map((x) => x.header)).toContain('across seeds');
    const col = t.columns.findIndex((x) => x.header === 'across seeds');
    expect(t.rows[0].cells[col].text).toMatch(/^reproduced in [012] of 2 seeds.*\(margins: seed 1 .*, seed 2 /);
    // The summary line is the report's.
    expect(c.files[0].stability).toMatch(/^Across the 2 seeds \(1, 2\): \d+ claims reproduced in every seed/);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(c.files[0].stability!);
    // One seed (no --seeds): no such column.
    const one = await new UiData(sdb, loadSpecFile(join(dir, 'seeds.yaml')).spec).claims('quickstart-seeds');
    expect(one.files[0].table.columns.map((x) => x.header)).not.toContain('across seeds');
  });

  it('compares two experiments (and code states) per dataset with the Wilcoxon test over datasets', async () => {
    const spec = readFileSync(QUICKSTART, 'utf8')
      .replace('name: quickstart', 'name: quickstart-a5')
      .replace('datasets: [quickstart]', `datasets: [${SUBSET.join(', ')}]`)
      .replace('alpha: 1 }', 'alpha: 5 }');
    writeFileSync(join(dir, 'a5.yaml'), spec);
    const run = cli(['run', join(dir, 'a5.yaml'), '--db', db, '--workers', '2'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const data = new UiData(db);
    const method = 'nb/dirichlet';
    const res = await data.compare(
      { experiment: 'quickstart', code: null },
      { experiment: 'quickstart-a5', code: null },
      'log_loss',
      method,
    );
    const store = await ResultStore.open(db, { readOnly: true });
    let states;
    const means = new Map<string, [number, number]>();
    try {
      for (const [i, e] of ['quickstart', 'quickstart-a5'].entries())
        for (const d of SUBSET) {
          const label = i === 0 ? method : 'nb/dirichlet(alpha=5)';
          const v = (await store.results(e)).filter((x) => x.dataset === d && x.method === label);
          const m = means.get(d) ?? [NaN, NaN];
          m[i] = fmean(v.map((x) => x.log_loss as number));
          means.set(d, m);
        }
      states = await experimentCodeStates(store, 'quickstart');
    } finally {
      store.close();
    }
    // Every dataset of either side, the paired ones with both means and b − a.
    expect(res.rows.map((x) => x.dataset)).toEqual((await data.meta('quickstart')).datasets.map((d) => d.name));
    expect(res.rows).toHaveLength(6);
    expect([res.method, res.method2]).toEqual([method, 'nb/dirichlet(alpha=5)']);
    expect(res.paired).toBe(4);
    for (const d of SUBSET) {
      const row = res.rows.find((x) => x.dataset === d)!;
      expect([row.a, row.b, row.diff]).toEqual([
        means.get(d)![0],
        means.get(d)![1],
        means.get(d)![1] - means.get(d)![0],
      ]);
    }
    const paired = res.rows.filter((x) => x.diff !== null);
    const w = wilcoxonSignedRank(
      paired.map((x) => x.b!),
      paired.map((x) => x.a!),
    );
    expect([res.wilcoxon!.statistic, res.wilcoxon!.p]).toEqual([w.statistic, w.p]);
    expect(res.aBetter + res.bBetter + res.ties).toBe(4);
    // By code state: the one state that computed every job of this run gives the same numbers.
    expect(states.reduce((a, s) => a + s.jobs, 0)).toBe(120);
    const byCode = await data.compare(
      { experiment: 'quickstart', code: states[0].id },
      { experiment: 'quickstart-a5', code: null },
      'log_loss',
      method,
    );
    expect(byCode.rows).toEqual(res.rows);
    await expect(data.compare({ experiment: 'quickstart', code: 'nope' }, res.b, 'log_loss', method)).rejects.toThrow(
      "no code state 'nope' among the jobs of experiment 'quickstart'",
    );
  });

  it('compares experiments of two database files as two experiments of one, each opened read-only', async () => {
    // The database now holds quickstart and quickstart-a5 (the test above); a copy is the second file.
    const other = join(dir, 'other.duckdb');
    copyFileSync(db, other);
    const before = [readFileSync(db), readFileSync(other)];
    const one = new UiData(db);
    const two = new UiData(other);
    const a = { experiment: 'quickstart', code: null };
    const b = { experiment: 'quickstart-a5', code: null };
    const inOne = await one.compare(a, b, 'log_loss', 'nb/dirichlet');
    const across = await compareAcross(one, a, two, b, 'log_loss', 'nb/dirichlet');
    expect([across.databaseA, across.databaseB]).toEqual([db, other]);
    expect({ ...across, databaseB: db, codeStatesB: inOne.codeStatesB }).toEqual(inOne);
    expect(across.wilcoxon).not.toBeNull();
    // The same experiment in both files: every difference 0, every dataset a draw.
    const same = await compareAcross(one, a, two, a, 'accuracy', 'tan/dirichlet');
    expect(same.rows.map((r) => r.diff)).toEqual([0, 0, 0, 0, 0, 0]);
    expect([same.bBetter, same.aBetter, same.ties]).toEqual([0, 0, 6]);
    await expect(compareAcross(one, a, two, { experiment: 'nope', code: null }, 'accuracy', '')).rejects.toThrow(
      `no experiment 'nope' in ${other}`,
    );
    // Over HTTP: db and db2 choose the files; the experiments of each; a bad number is one line.
    const ui = await startUi([one, two], '127.0.0.1', 0);
    try {
      const ex = (await (await fetch(`${ui.url}api/experiments?db=1`)).json()) as {
        source: { file: string };
        databases: string[];
      };
      expect(ex.source.file).toBe(other);
      expect(ex.databases).toEqual([db, other]);
      const got = (await (
        await fetch(
          `${ui.url}api/compare?exp=quickstart&exp2=quickstart-a5&db=0&db2=1&metric=log_loss&method=nb%2Fdirichlet`,
        )
      ).json()) as typeof across;
      expect(got.rows).toEqual(across.rows);
      expect(got.databaseB).toBe(other);
      const bad = await fetch(`${ui.url}api/compare?exp=quickstart&db2=5`);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ error: "db2: expected a database number from 0 to 1, got '5'" });
    } finally {
      await ui.close();
    }
    // Read-only: neither file changed.
    expect(readFileSync(db).equals(before[0])).toBe(true);
    expect(readFileSync(other).equals(before[1])).toBe(true);
  });

  it('counts stale jobs as status does when given the spec', async () => {
    const spec = loadSpecFile(QUICKSTART).spec;
    const st = await collectStatus(buildPlanSummary(spec), [db]);
    const withSpec = await new UiData(db, spec).experimentList();
    expect(withSpec.find((e) => e.counts.name === 'quickstart')!.stale).toBe(st.stale);
    const without = await new UiData(db).experimentList();
    expect(without.every((e) => e.stale === null)).toBe(true);
  });

  it('shows a folder of shards as one experiment, equal to the shards merged by `bnclab merge`', async () => {
    const folder = join(dir, 'shards');
    for (const i of [1, 2]) {
      const r = cli(['run', QUICKSTART, '--db', join(folder, `q-${i}-of-2.duckdb`), '--shard', `${i}/2`], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
    }
    const merged = join(dir, 'merged.duckdb');
    const m = cli(['merge', merged, join(folder, 'q-1-of-2.duckdb'), join(folder, 'q-2-of-2.duckdb')], { cwd: dir });
    expect(m.code, m.stderr).toBe(0);
    const data = new UiData(folder);
    try {
      const [e] = await data.experimentList();
      expect(e.counts).toMatchObject({ name: 'quickstart', planned: 120, done: 120, failed: 0, pending: 0 });
      expect(data.source()).toMatchObject({ file: folder, how: 'ok', shards: 2 });
      const sel: Selection = {
        experiment: 'quickstart',
        metric: 'accuracy',
        datasets: [],
        methods: [],
        control: 'best',
      };
      expect(await data.results(sel)).toEqual(await new UiData(merged).results(sel));
      // One shard alone holds part of the jobs.
      const one = await new UiData(join(folder, 'q-1-of-2.duckdb')).experimentList();
      expect(one[0].counts.done).toBeLessThan(120);
    } finally {
      data.dispose();
    }
  });

  it('names a bad argument in one line with exit 2', () => {
    const missing = cli(['ui', join(dir, 'none.duckdb')], { cwd: dir });
    expect([missing.code, missing.stderr.trim()]).toEqual([
      2,
      `bnclab: ${join(dir, 'none.duckdb')}: no results database (run an experiment first)`,
    ]);
    const port = cli(['ui', db, '--port', '70000'], { cwd: dir });
    expect([port.code, port.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(port.stderr).toContain('--port: expected an integer from 0 to 65535, got 70000');
  });

  it('warns when --host is another interface than 127.0.0.1, and stops on SIGTERM with 0', async () => {
    // 127.0.0.2 is still this machine's loopback, so the test opens nothing to the network.
    const p = cliSpawn(['ui', db, '--port', '0', '--host', '127.0.0.2'], { cwd: dir });
    let out = '';
    let err = '';
    p.stderr.on('data', (b: Buffer) => (err += b.toString()));
    await new Promise<void>((ok) =>
      p.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('http://')) ok();
      }),
    );
    expect(out).toMatch(/^bnclab ui: http:\/\/127\.0\.0\.2:\d+\/ /);
    expect(err).toContain('warning: listening on 127.0.0.2, not only this machine');
    const code = new Promise<number | null>((ok) => p.on('exit', (c) => ok(c)));
    p.kill('SIGTERM');
    expect(await code).toBe(0);
  });
});
