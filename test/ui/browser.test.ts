/**
 * `bnclab ui` end to end in headless Chromium (Debian's /usr/bin/chromium, or $CHROMIUM, driven by
 * playwright-core, which downloads no browser): on a quickstart database, change the metric and the dataset
 * selection and check the page's statistics against `bnclab report` of a spec with that selection; open a
 * cell; watch a run fill in live; Ctrl-C stops the server. Screenshots (desktop 1,400 px and 420 px, light
 * and dark) go to $BNCLAB_UI_SHOTS (default: a temporary folder), to be looked at.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliSpawn, ROOT, tempDir } from '../helpers/cli.js';
import { readCsv } from '../../src/report/csv.js';
import { compareAcross, UiData } from '../../src/ui/data.js';

const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium)
  console.log(`ui browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`);

const QUICKSTART = join(ROOT, 'experiments', 'quickstart.yaml');
let dir = '';
let shots = '';
const servers: ChildProcess[] = [];

/** Start `bnclab ui` and resolve with its URL once it listens. */
function startUi(args: string[]): Promise<{ url: string; proc: ChildProcess }> {
  const proc = cliSpawn(['ui', ...args, '--port', '0'], { cwd: dir });
  servers.push(proc);
  return new Promise((ok, fail) => {
    let out = '';
    let err = '';
    proc.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) ok({ url: m[1], proc });
    });
    proc.stderr.on('data', (b: Buffer) => (err += b.toString()));
    proc.on('exit', (code) => fail(new Error(`bnclab ui exited ${code}: ${err}`)));
  });
}

describe.skipIf(!haveChromium)('bnclab ui in headless Chromium', () => {
  // playwright-core is loaded only here, so a machine without it still collects this file.
  let browser: import('playwright-core').Browser;
  let url = '';

  beforeAll(async () => {
    dir = tempDir('bnclab-ui-e2e-');
    shots = process.env['BNCLAB_UI_SHOTS'] ?? join(dir, 'shots');
    mkdirSync(shots, { recursive: true });
    const r = cli(['run', QUICKSTART, '--db', join(dir, 'q.duckdb'), '--workers', '2'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    url = (await startUi([join(dir, 'q.duckdb')])).url;
  });

  afterAll(async () => {
    await browser?.close();
    for (const p of servers) if (p.exitCode === null) p.kill('SIGKILL');
    if (dir && !process.env['BNCLAB_UI_SHOTS']) rmSync(dir, { recursive: true, force: true });
  });

  it('changes metric and datasets; the page shows the report’s statistics for that selection', async () => {
    const subset = ['car', 'iris', 'tic-tac-toe', 'zoo'];
    writeFileSync(
      join(dir, 'subset.yaml'),
      readFileSync(QUICKSTART, 'utf8').replace('datasets: [quickstart]', `datasets: [${subset.join(', ')}]`),
    );
    const rep = cli(['report', 'subset.yaml', '--db', 'q.duckdb', '--out', 'rep', '--metrics', 'rmse', '--pdf'], {
      cwd: dir,
    });
    expect(rep.code, rep.stderr).toBe(0);
    const table = readCsv(readFileSync(join(dir, 'rep', 'tables', 'rmse.csv'), 'utf8'), 'rmse.csv');
    const fr = readCsv(readFileSync(join(dir, 'rep', 'tables', 'friedman.csv'), 'utf8'), 'friedman.csv').records[0]
      .fields;

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${url}?view=results&exp=quickstart`);
    await page.waitForSelector('#results-table');
    await page.screenshot({ path: join(shots, 'results-1400-light.png'), fullPage: true });
    // The metric, by keyboard: focus the select and choose RMSE.
    await page.selectOption('#metric', 'rmse');
    await page.waitForFunction(() => document.querySelector('#results h2')?.textContent?.startsWith('RMSE'));
    // Datasets: untick the two not in the subset.
    for (const d of ['breast-cancer', 'house-votes-84']) {
      await page.locator(`input[name="datasets"][value="${d}"]`).uncheck();
      await page.waitForFunction((n) => !document.querySelector(`#results-table`)?.textContent?.includes(n), d);
    }
    await page.waitForFunction(() => document.querySelectorAll('#results-table tbody tr').length === 6);
    // The selection is in the URL (a permalink).
    const q = new URL(page.url()).searchParams;
    expect(q.get('metric')).toBe('rmse');
    expect(q.getAll('d')).toEqual(subset);
    // The table: the report's means, to the 4 decimals shown.
    const shown = await page.$$eval('#results-table tbody tr', (trs) =>
      trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')),
    );
    expect(table.header.slice(1)).toEqual(['nb/dirichlet', 'tan/dirichlet']);
    table.records.slice(0, subset.length).forEach((r, i) => {
      expect(shown[i][0]).toBe(r.fields[0]);
      for (const j of [1, 2]) expect(shown[i][j].startsWith(Number(r.fields[j]).toFixed(4))).toBe(true);
    });
    // Friedman's χ² and p as the report computed them for the subset.
    const friedman = await page.textContent('#friedman');
    expect(friedman).toContain(`χ²(${fr[4]}) = ${Number(fr[3]).toFixed(4)}, p = ${Number(fr[5]).toPrecision(4)}`);
    expect(friedman).toContain(`N = ${subset.length} datasets`);
    // Best marked: in each row, the lower RMSE.
    const best = await page.$$eval('#results-table tbody tr td.best', (tds) => tds.length);
    expect(best).toBeGreaterThanOrEqual(subset.length);
    await page.waitForSelector('#cd svg');
    await page.screenshot({ path: join(shots, 'results-rmse-1400-light.png'), fullPage: true });
    // Export: the CD diagram as PDF is the file `report --pdf` wrote for this selection, and poppler draws it.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'CD diagram (PDF)' }).click(),
    ]);
    const pdf = join(dir, 'ui-cd-rmse.pdf');
    await download.saveAs(pdf);
    expect(download.suggestedFilename()).toBe('quickstart-rmse-cd.pdf');
    expect(readFileSync(pdf).equals(readFileSync(join(dir, 'rep', 'figures', 'cd-rmse.pdf')))).toBe(true);
    const drawn = spawnSync('pdftoppm', ['-r', '100', '-png', '-singlefile', pdf, join(shots, 'exported-cd-rmse')]);
    if (!drawn.error) expect(drawn.status, String(drawn.stderr)).toBe(0);

    // A permalink opens the same view in a fresh page.
    const again = await browser.newPage({ viewport: { width: 420, height: 900 }, colorScheme: 'dark' });
    await again.goto(page.url());
    await again.waitForSelector('#friedman');
    expect(await again.textContent('#friedman')).toBe(friedman);
    await again.screenshot({ path: join(shots, 'results-420-dark.png'), fullPage: true });
    // Keyboard: Tab reaches a cell link; Enter opens the cell.
    const link = again.locator('#results-table tbody a').first();
    await link.focus();
    await again.keyboard.press('Enter');
    await again.waitForSelector('#folds');
    expect(new URL(again.url()).searchParams.get('view')).toBe('cell');
    expect(await again.$$eval('#folds tbody tr', (t) => t.length)).toBe(10);
    await again.waitForSelector('#confusion');
    await again.screenshot({ path: join(shots, 'cell-420-dark.png'), fullPage: true });
    const cell = await browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme: 'dark' });
    await cell.goto(`${url}?view=cell&exp=quickstart&metric=accuracy&dataset=car&method=tan%2Fdirichlet`);
    await cell.waitForSelector('#structure svg');
    expect(await cell.$$eval('#confusion thead th', (t) => t.map((x) => x.textContent))).toEqual([
      'true \\ predicted',
      'acc',
      'good',
      'unacc',
      'vgood',
    ]);
    await cell.screenshot({ path: join(shots, 'cell-1400-dark.png'), fullPage: true });
    // The box plot's title fits inside its figure (drawn in Arimo, the metrics it was laid out with).
    const fit = await cell.$eval('#boxplot svg', (svg) => {
      const box = svg.getBoundingClientRect();
      const t = [...svg.querySelectorAll('text')].find((x) => x.textContent?.includes('per fold'))!;
      const r = t.getBoundingClientRect();
      return [r.left >= box.left - 0.5, r.right <= box.right + 0.5, t.textContent];
    });
    expect(fit).toEqual([true, true, 'Accuracy per fold, by dataset']);
    await Promise.all([page.close(), again.close(), cell.close()]);
  });

  it('shows the claims as the report does, and compares two methods or experiments with the report’s test', async () => {
    writeFileSync(
      join(dir, 'claims.csv'),
      `id,kind,metric,method_a,relation,method_b,dataset,value,source,note
C1,best-mean,accuracy,TAN,max,,,,Table 2,
C2,mean,accuracy,TAN,>,NB,,,Sec. 4,
C3,cell,accuracy,NB,,,iris,0.94,Table 1,
`,
    );
    writeFileSync(
      join(dir, 'claims.yaml'),
      `${readFileSync(QUICKSTART, 'utf8').replace(/\s*$/, '\n')}reference:\n  - file: claims.csv\n    methods: { TAN: tan/dirichlet, NB: nb/dirichlet }\n`,
    );
    const rep = cli(['report', 'claims.yaml', '--db', 'q.duckdb', '--out', 'repc'], { cwd: dir });
    expect(rep.code, rep.stderr).toBe(0);
    const claims = readCsv(readFileSync(join(dir, 'repc', 'tables', 'reference-claims.csv'), 'utf8'), 'claims.csv');
    const wx = readCsv(readFileSync(join(dir, 'repc', 'tables', 'wilcoxon-accuracy.csv'), 'utf8'), 'w.csv').records[0]
      .fields;
    const ui = await startUi(['claims.yaml', '--db', 'q.duckdb']);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${ui.url}?view=claims`);
    await page.waitForSelector('#reference-claims');
    // The verdicts and our numbers (with their intervals) are the report's.
    const shown = await page.$$eval('#reference-claims tbody tr', (trs) =>
      trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')),
    );
    expect(shown.map((r) => [r[0], r[3], r[4]])).toEqual(
      claims.records.map((r) => [r.fields[0], r.fields[3], r.fields[4]]),
    );
    await page.screenshot({ path: join(shots, 'claims-1400-light.png'), fullPage: true });
    await page.setViewportSize({ width: 420, height: 900 });
    await page.screenshot({ path: join(shots, 'claims-420-light.png'), fullPage: true });
    // Compare: tan against nb in one experiment; the paired test over datasets is the report's Wilcoxon.
    await page.setViewportSize({ width: 1400, height: 900 });
    expect([wx[0], wx[1]]).toEqual(['tan/dirichlet', 'nb/dirichlet']);
    await page.goto(`${ui.url}?view=compare&exp=quickstart&exp2=quickstart&metric=accuracy&method=tan%2Fdirichlet`);
    await page.waitForSelector('#compare');
    await page.selectOption('#cmp-method2', 'nb/dirichlet');
    await page.waitForFunction(() => document.querySelector('#compare-summary')?.textContent?.includes('against'));
    expect(new URL(page.url()).searchParams.get('method2')).toBe('nb/dirichlet');
    expect(await page.textContent('#compare-summary')).toContain(`p = ${Number(wx[7]).toPrecision(4)}`);
    expect(await page.$$eval('#compare tbody tr', (t) => t.length)).toBe(6);
    await page.screenshot({ path: join(shots, 'compare-1400-light.png'), fullPage: true });
    await page.setViewportSize({ width: 420, height: 900 });
    await page.screenshot({ path: join(shots, 'compare-420-light.png'), fullPage: true });
    await page.close();
  });

  it('compares experiments of two database files (bnclab ui a.duckdb b.duckdb)', async () => {
    // The second file: the quickstart with another alpha on four datasets, run into its own database.
    writeFileSync(
      join(dir, 'a5.yaml'),
      readFileSync(QUICKSTART, 'utf8')
        .replace('name: quickstart', 'name: quickstart-a5')
        .replace('datasets: [quickstart]', 'datasets: [car, iris, tic-tac-toe, zoo]')
        .replace('alpha: 1 }', 'alpha: 5 }'),
    );
    const r = cli(['run', 'a5.yaml', '--db', 'b.duckdb', '--workers', '2'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const want = await compareAcross(
      new UiData(join(dir, 'q.duckdb')),
      { experiment: 'quickstart', code: null },
      new UiData(join(dir, 'b.duckdb')),
      { experiment: 'quickstart-a5', code: null },
      'accuracy',
      'nb/dirichlet',
    );
    const two = await startUi(['q.duckdb', 'b.duckdb']);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${two.url}?view=compare&exp=quickstart&metric=accuracy&method=nb%2Fdirichlet`);
    await page.waitForSelector('#cmp-db2');
    // Side b: the second database, whose one experiment is chosen for it.
    await page.selectOption('#cmp-db2', '1');
    await page.waitForFunction(() => document.querySelector('#compare thead')?.textContent?.includes('b.duckdb'));
    const q = new URL(page.url()).searchParams;
    expect([q.get('db2'), q.get('exp2'), q.get('method2')]).toEqual(['1', 'quickstart-a5', 'nb/dirichlet(alpha=5)']);
    const rows = await page.$$eval('#compare tbody tr', (trs) =>
      trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')),
    );
    expect(rows.filter((x) => x[3] !== '–').map((x) => x[0])).toEqual(['car', 'iris', 'tic-tac-toe', 'zoo']);
    expect(rows.map((x) => x[0])).toEqual(want.rows.map((x) => x.dataset));
    const summary = await page.textContent('#compare-summary');
    expect(summary).toContain('4 datasets on both sides');
    expect(summary).toContain(`p = ${want.wilcoxon!.p.toPrecision(4)}`);
    await page.screenshot({ path: join(shots, 'compare-two-databases-1400-light.png'), fullPage: true });
    await page.close();
    two.proc.kill('SIGINT');
  });

  it('shows a failed read on the live page and recovers from it', async () => {
    // A copy of the quickstart database, swapped for a file DuckDB cannot read and back: the page shows the
    // error, keeps polling, and shows the experiment again once the file reads.
    const db = join(dir, 'flaky.duckdb');
    const good = readFileSync(join(dir, 'q.duckdb'));
    writeFileSync(db, good);
    const ui = await startUi([db]);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${ui.url}?view=experiments`);
    await page.waitForSelector('#experiments tbody tr');
    writeFileSync(db, 'not a database, written while the page is open\n');
    await page.waitForFunction(
      () => document.querySelector('main p.error')?.textContent?.includes('(trying again)'),
      null,
      {
        timeout: 60_000,
      },
    );
    writeFileSync(db, good);
    await page.waitForSelector('#experiments tbody tr', { timeout: 60_000 });
    expect(await page.$$eval('#experiments tbody tr td', (tds) => tds[0]?.textContent ?? '')).toContain('quickstart');
    await page.close();
    ui.proc.kill('SIGINT');
  });

  it('watches a run fill in live', async () => {
    // A spec heavier than the quickstart (more methods, 10 repeats: 2,400 jobs), run with one worker while the page polls.
    writeFileSync(
      join(dir, 'live.yaml'),
      readFileSync(QUICKSTART, 'utf8')
        .replace('name: quickstart', 'name: live')
        .replace('folds: 10', 'folds: 10\n  repeats: 10')
        .replace('structures: [nb, tan]', 'structures: [nb, tan, aode, { id: kdb, params: { k: 2 } }]'),
    );
    const db = join(dir, 'live.duckdb');
    const live = await startUi(['live.yaml', '--db', db]);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${live.url}?view=experiments`);
    await page.waitForSelector('main p');
    // Two runs, each watched while it runs: the first stores half of the grid (repeats 0-4), so the page must
    // show a partial count whatever the machine's speed (one run of 2,400 fast jobs can end between two
    // polls on an idle machine); the second stores the rest.
    const seen = new Set<string>();
    let shot = false;
    const watch = async (
      args: string[],
      until: (done: number, planned: number) => boolean,
    ): Promise<number | string> => {
      const run = cliSpawn(['run', 'live.yaml', '--db', db, '--workers', '1', ...args], { cwd: dir });
      let output = '';
      run.stdout.on('data', (b: Buffer) => (output += b.toString()));
      run.stderr.on('data', (b: Buffer) => (output += b.toString()));
      let code: number | null = null;
      const ended = new Promise<number>((ok) => run.on('exit', (c) => ok(c ?? -1)));
      void ended.then((c) => (code = c));
      for (let i = 0; i < 600; i++) {
        const row = await page
          .$$eval('#experiments tbody tr td', (tds) => tds.map((t) => t.textContent ?? ''))
          .catch(() => [] as string[]);
        if (row.length) {
          seen.add(`${row[2]}/${row[1]}`);
          if (!shot && Number(row[2]) > 0 && Number(row[2]) < Number(row[1])) {
            await page.screenshot({ path: join(shots, 'experiments-live-1400-light.png'), fullPage: true });
            shot = true;
          }
          if (code !== null && until(Number(row[2]), Number(row[1]))) break;
        }
        await page.waitForTimeout(250);
      }
      const exitCode = await ended;
      return exitCode === 0 ? 0 : `exit ${exitCode}: ${output.slice(-2000)}`;
    };
    expect(await watch(['--only', 'repeat=0-4', '--no-report'], (d, p) => d > 0 && d < p)).toBe(0);
    expect(await watch([], (d, p) => d === p)).toBe(0);
    const counts = [...seen].map((s) => s.split('/').map(Number) as [number, number]);
    const planned = 6 * 4 * 100;
    // Seen partly done (the grid filling in), then complete. When the table was never seen, the page's text says why.
    const shown =
      seen.size > 0 ? [...seen].join(' ') : `no table row seen; the page shows: ${await page.textContent('main')}`;
    expect(
      counts.some(([d, p]) => p === planned && d > 0 && d < planned),
      shown,
    ).toBe(true);
    expect(counts.some(([d, p]) => p === planned && d === planned)).toBe(true);
    // Done counts never go down.
    const dones = counts.map(([d]) => d);
    expect(dones).toEqual([...dones].sort((a, b) => a - b));
    expect(await page.$$eval('#grid td.full', (t) => t.length)).toBe(24);
    await page.setViewportSize({ width: 420, height: 900 });
    await page.screenshot({ path: join(shots, 'experiments-done-420-light.png'), fullPage: true });
    await page.close();
    // Ctrl-C: the server stops cleanly with status 0.
    const exit = new Promise<number | null>((ok) => live.proc.on('exit', (c) => ok(c)));
    live.proc.kill('SIGINT');
    expect(await exit).toBe(0);
  });
});
