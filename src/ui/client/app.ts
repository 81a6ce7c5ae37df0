/**
 * The front end of `bnclab ui`: plain TypeScript and the DOM, bundled by scripts/bundle.mjs into
 * dist/ui/app.js. The view and the selection live in the URL's query (a link reopens the same view);
 * every number comes from the server, which computes it with the report's code.
 */
import { type Cell, fmt, fmtP, h, type MetricComparison, pText } from './dom.js';
import { cellKey } from '../../util/keys.js';

interface Counts {
  name: string;
  specFile: string;
  planned: number;
  done: number;
  failed: number;
  pending: number;
}
interface ExperimentInfo {
  counts: Counts;
  etaSeconds: number | null;
  stale: number | null;
}
interface ReportTable {
  id: string;
  caption: string;
  columns: { header: string; align: string }[];
  rows: { cells: { text: string; bold?: boolean; italic?: boolean }[] }[];
  notes?: string[];
}
interface ClaimsFile {
  path: string;
  title: string;
  kind: string;
  verdicts: Record<string, number>;
  provisional: number;
  stability: string | null;
  table: ReportTable;
}
interface CodeState {
  id: string | null;
  bnclab: string | null;
  code: string | null;
  jobs: number;
}
interface CompareSide {
  experiment: string;
  code: string | null;
}
interface Compared {
  metric: { key: string; title: string; higherIsBetter: boolean; digits: number };
  method: string;
  method2: string;
  a: CompareSide;
  b: CompareSide;
  databaseA: string;
  databaseB: string;
  rows: { dataset: string; a: number | null; b: number | null; diff: number | null }[];
  paired: number;
  meanDiff: number | null;
  bBetter: number;
  aBetter: number;
  ties: number;
  wilcoxon: { statistic: number; p: number | string; method: string } | null;
  testError: string | null;
  methodsA: string[];
  methodsB: string[];
  codeStatesA: CodeState[];
  codeStatesB: CodeState[];
}
interface Source {
  file: string;
  how: string;
  shards?: number;
}
interface Meta {
  datasets: { name: string; rows: number; attributes: number; classes: number }[];
  methods: string[];
  metrics: { key: string; title: string; higherIsBetter: boolean }[];
  control: string;
  alpha: number;
}
interface Results {
  datasets: string[];
  methods: string[];
  control: string | null;
  controlReason: string;
  alpha: number;
  adjust: string;
  comparison: MetricComparison;
}
interface CellJob {
  jobKey: string;
  repeat: number;
  fold: number;
  status: string;
  error: string | null;
  structure: string;
  structureParams: string;
  estimator: string | null;
  estimatorParams: string | null;
  preprocessing: string;
  seed: string;
  version: string | null;
  finishedAt: string | null;
  preprocessMs: number | null;
  trainMs: number | null;
  predictMs: number | null;
  metrics: Record<string, number | null>;
  confusion: number[][] | null;
  classLabels: string[] | null;
  nTrain: number | null;
  nTest: number | null;
}

const main = document.getElementById('main') as HTMLElement;
const nav = document.querySelector('nav') as HTMLElement;
const sourceEl = document.getElementById('source') as HTMLElement;
let timer: number | undefined;
let generation = 0;

const params = (): URLSearchParams => new URLSearchParams(location.search);

async function get<T>(path: string, q?: URLSearchParams): Promise<T> {
  const r = await fetch(q ? `${path}?${q}` : path);
  const body = (await r.json()) as T & { error?: string };
  if (!r.ok) throw new Error(body.error ?? `${r.status} ${r.statusText}`);
  return body;
}

/** Move to a view with a new query; replace (not push) for changes of selection within one view. */
function go(q: URLSearchParams, replace = false): void {
  const url = `${location.pathname}?${q}`;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  void render();
}

function link(text: string, q: URLSearchParams, attrs: Record<string, string> = {}): HTMLAnchorElement {
  const a = h('a', { href: `?${q}`, ...attrs }, text) as HTMLAnchorElement;
  a.addEventListener('click', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    go(q);
  });
  return a;
}

function with_(q: URLSearchParams, changes: Record<string, string | string[] | null>): URLSearchParams {
  const out = new URLSearchParams(q);
  for (const [k, v] of Object.entries(changes)) {
    out.delete(k);
    if (v === null) continue;
    for (const x of Array.isArray(v) ? v : [v]) out.append(k, x);
  }
  return out;
}

function drawNav(view: string): void {
  const q = params();
  const items: [string, string][] = [
    ['experiments', 'Experiments'],
    ['results', 'Results'],
    ['claims', 'Claims'],
    ['compare', 'Compare'],
  ];
  if (view === 'cell') items.push(['cell', 'Cell']);
  nav.replaceChildren(
    ...items.map(([v, t]) => {
      // Only Compare reads a second database (db, db2); the other pages show the first.
      const other = q.get('db') && q.get('db') !== '0';
      const a = link(
        t,
        with_(q, v === 'compare' ? { view: v } : { view: v, db: null, db2: null, ...(other ? { exp: null } : {}) }),
      );
      if (v === view) a.setAttribute('aria-current', 'page');
      return a;
    }),
  );
}

function showSource(s: Source): void {
  sourceEl.textContent =
    s.how === 'snapshot'
      ? `${s.file} (being written: read from a snapshot copy)`
      : s.how === 'missing'
        ? `${s.file}: no database yet`
        : s.shards !== undefined
          ? `${s.file} (${s.shards} shard${s.shards === 1 ? '' : 's'}, merged)`
          : s.file;
}

function duration(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return '–';
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

async function experimentsView(gen: number): Promise<void> {
  const q = params();
  const { source, experiments } = await get<{ source: Source; experiments: ExperimentInfo[] }>('/api/experiments');
  if (gen !== generation) return;
  showSource(source);
  const chosen = q.get('exp') ?? experiments[0]?.counts.name ?? '';
  const rows = experiments.map(({ counts: c, etaSeconds, stale }) =>
    h(
      'tr',
      {},
      h('td', {}, link(c.name, with_(q, { view: 'results', exp: c.name, d: null, m: null }))),
      h('td', {}, String(c.planned)),
      h('td', { class: 'ok' }, String(c.done)),
      h('td', { class: c.failed ? 'error' : '' }, String(c.failed)),
      h('td', {}, String(c.pending)),
      h(
        'td',
        { class: stale ? 'warn' : '', title: 'pending jobs with a stored result of an older method revision' },
        stale === null ? '–' : String(stale),
      ),
      h(
        'td',
        {},
        h(
          'div',
          {
            class: 'bar',
            role: 'progressbar',
            'aria-valuemin': '0',
            'aria-valuemax': String(c.planned),
            'aria-valuenow': String(c.done + c.failed),
            'aria-label': `${c.name} progress`,
          },
          h('span', { style: `width:${c.planned ? (100 * c.done) / c.planned : 0}%` }),
          h('span', {
            class: 'f',
            style: `left:${c.planned ? (100 * c.done) / c.planned : 0}%;width:${c.planned ? (100 * c.failed) / c.planned : 0}%`,
          }),
        ),
      ),
      h('td', {}, c.pending === 0 ? 'complete' : duration(etaSeconds)),
      h('td', {}, link('grid', with_(q, { view: 'experiments', exp: c.name }), { 'aria-label': `${c.name} grid` })),
    ),
  );
  const parts: Node[] = [
    h('h2', {}, 'Experiments'),
    experiments.length === 0
      ? h('p', { class: 'muted' }, 'No experiments in this database yet; this page refreshes while a run writes.')
      : h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { id: 'experiments' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ...['experiment', 'planned', 'done', 'failed', 'pending', 'stale', 'progress', 'ETA', ''].map((t) =>
                  h('th', { scope: 'col' }, t),
                ),
              ),
            ),
            h('tbody', {}, ...rows),
          ),
        ),
  ];
  if (chosen && experiments.some((e) => e.counts.name === chosen)) {
    const { grid } = await get<{
      grid: { dataset: string; method: string; planned: number; done: number; failed: number }[];
    }>('/api/grid', new URLSearchParams({ exp: chosen }));
    if (gen !== generation) return;
    const datasets = [...new Set(grid.map((g) => g.dataset))];
    const methods = [...new Set(grid.map((g) => g.method))];
    const at = new Map(grid.map((g) => [cellKey(g.dataset, g.method), g]));
    parts.push(
      h('h3', {}, `${chosen}: jobs finished per dataset × method`),
      h(
        'div',
        { class: 'scroll' },
        h(
          'table',
          { class: 'grid', id: 'grid' },
          h('thead', {}, h('tr', {}, h('th', {}, 'dataset'), ...methods.map((m) => h('th', { scope: 'col' }, m)))),
          h(
            'tbody',
            {},
            ...datasets.map((d) =>
              h(
                'tr',
                {},
                h('th', { scope: 'row' }, d),
                ...methods.map((m) => {
                  const g = at.get(cellKey(d, m));
                  if (!g) return h('td', {}, '');
                  const cls = g.failed ? 'failed' : g.done === g.planned ? 'full' : g.done > 0 ? 'some' : '';
                  return h(
                    'td',
                    { class: cls, title: `${g.done} done, ${g.failed} failed of ${g.planned}` },
                    link(`${g.done}/${g.planned}`, with_(q, { view: 'cell', exp: chosen, dataset: d, method: m })),
                  );
                }),
              ),
            ),
          ),
        ),
      ),
    );
  }
  main.replaceChildren(...parts);
  // Live: refresh every second while jobs are pending, every 5 s otherwise (a run may start); the server
  // re-reads the database only when it changed.
  const busy = experiments.length === 0 || experiments.some((e) => e.counts.pending > 0 || e.counts.planned === 0);
  timer = window.setTimeout(() => void refreshIf(gen), busy ? 1000 : 5000);
}

async function refreshIf(gen: number): Promise<void> {
  if (gen !== generation) return;
  const y = window.scrollY;
  await experimentsView(gen).catch((e: unknown) => liveError(gen, e));
  window.scrollTo(0, y);
}

/**
 * The experiments page is live: a failed read (a snapshot of a database being written can fail now and then)
 * is shown and tried again in 2 s, so one error does not end the live view.
 */
function liveError(gen: number, e: unknown): void {
  if (gen !== generation) return;
  showError(new Error(`${(e as Error).message} (trying again)`));
  window.clearTimeout(timer);
  timer = window.setTimeout(() => void refreshIf(gen), 2000);
}

function checkboxList(
  name: string,
  items: { value: string; note?: string }[],
  chosen: Set<string>,
  onChange: (values: string[]) => void,
): HTMLElement {
  const boxes: HTMLInputElement[] = [];
  const list = h(
    'div',
    { class: 'choices', role: 'group', 'aria-label': name },
    ...items.map((it) => {
      const box = h('input', { type: 'checkbox', value: it.value, name }) as HTMLInputElement;
      box.checked = chosen.has(it.value);
      boxes.push(box);
      return h('label', {}, box, it.value, it.note ? h('small', {}, it.note) : '');
    }),
  );
  list.addEventListener('change', () => onChange(boxes.filter((b) => b.checked).map((b) => b.value)));
  return list;
}

async function resultsView(gen: number): Promise<void> {
  let q = params();
  const { experiments, source } = await get<{ experiments: ExperimentInfo[]; source: Source }>('/api/experiments');
  showSource(source);
  const exp = q.get('exp') ?? experiments[0]?.counts.name;
  if (!exp) {
    main.replaceChildren(h('p', { class: 'muted' }, 'No experiments in this database yet.'));
    return;
  }
  if (!q.get('exp')) q = with_(q, { exp });
  const meta = await get<Meta>('/api/meta', new URLSearchParams({ exp }));
  if (gen !== generation) return;
  const metric = q.get('metric') ?? meta.metrics[0]?.key ?? 'accuracy';
  if (!q.get('metric')) q = with_(q, { metric });
  history.replaceState(null, '', `?${q}`);
  const chosenD = new Set(q.getAll('d').length ? q.getAll('d') : meta.datasets.map((d) => d.name));
  const chosenM = new Set(q.getAll('m').length ? q.getAll('m') : meta.methods);
  const control = q.get('control') ?? meta.control;
  const update = (changes: Record<string, string | string[] | null>): void => go(with_(params(), changes), true);

  const expSel = h(
    'select',
    { id: 'exp' },
    ...experiments.map((e) => h('option', { value: e.counts.name }, e.counts.name)),
  ) as HTMLSelectElement;
  expSel.value = exp;
  expSel.addEventListener('change', () => update({ exp: expSel.value, d: null, m: null, control: null }));
  const metricSel = h(
    'select',
    { id: 'metric' },
    ...meta.metrics.map((m) =>
      h('option', { value: m.key }, `${m.title} (${m.higherIsBetter ? 'higher' : 'lower'} is better)`),
    ),
  ) as HTMLSelectElement;
  metricSel.value = metric;
  metricSel.addEventListener('change', () => update({ metric: metricSel.value }));
  const controlSel = h(
    'select',
    { id: 'control' },
    h('option', { value: 'best' }, 'best mean rank'),
    ...meta.methods.map((m) => h('option', { value: m }, m)),
  ) as HTMLSelectElement;
  controlSel.value = control;
  controlSel.addEventListener('change', () => update({ control: controlSel.value }));
  const all = (xs: string[], chosen: string[]): string[] | null => (chosen.length === xs.length ? null : chosen);
  const dsNames = meta.datasets.map((d) => d.name);
  const filter = h('input', {
    type: 'search',
    id: 'dataset-filter',
    placeholder: 'name contains, or rows<1000',
    'aria-label': 'filter datasets by name or size',
  }) as HTMLInputElement;
  const applyFilter = (): void => {
    const f = filter.value.trim();
    const size = /^rows\s*([<>]=?)\s*(\d+)$/.exec(f);
    const keep = meta.datasets.filter((d) => {
      if (!f) return true;
      if (size) {
        const n = Number(size[2]);
        return size[1] === '<'
          ? d.rows < n
          : size[1] === '<='
            ? d.rows <= n
            : size[1] === '>'
              ? d.rows > n
              : d.rows >= n;
      }
      return d.name.toLowerCase().includes(f.toLowerCase());
    });
    update({
      d: all(
        dsNames,
        keep.map((d) => d.name),
      ),
    });
  };
  filter.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') applyFilter();
  });
  const side = h(
    'aside',
    {},
    h('label', { for: 'exp' }, 'Experiment'),
    expSel,
    h('label', { for: 'metric' }, 'Metric'),
    metricSel,
    h('label', { for: 'control' }, 'Control (post-hoc)'),
    controlSel,
    h('fieldset', {}, h('legend', {}, `Datasets (${chosenD.size}/${dsNames.length})`), filter),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', id: 'filter-apply', onclick: applyFilter }, 'select matching'),
      h('button', { type: 'button', onclick: () => update({ d: null }) }, 'all'),
    ),
    checkboxList(
      'datasets',
      meta.datasets.map((d) => ({ value: d.name, note: d.rows ? `${d.rows}×${d.attributes}, ${d.classes} cl.` : '' })),
      chosenD,
      (v) => update({ d: all(dsNames, v) }),
    ),
    h('fieldset', {}, h('legend', {}, `Methods (${chosenM.size}/${meta.methods.length})`)),
    h('div', { class: 'row' }, h('button', { type: 'button', onclick: () => update({ m: null }) }, 'all')),
    checkboxList(
      'methods',
      meta.methods.map((m) => ({ value: m })),
      chosenM,
      (v) => update({ m: all(meta.methods, v) }),
    ),
  );
  const body = h('section', { 'aria-label': 'results', id: 'results' }, h('p', { class: 'muted' }, 'Computing…'));
  main.replaceChildren(h('div', { class: 'layout' }, side, body));
  const sel = new URLSearchParams();
  for (const k of ['exp', 'metric', 'control']) if (q.get(k)) sel.set(k, q.get(k)!);
  for (const k of ['d', 'm']) for (const v of q.getAll(k)) sel.append(k, v);
  const r = await get<Results>('/api/results', sel);
  if (gen !== generation) return;
  body.replaceChildren(...resultsBody(r, meta, q, sel));
  // The CD diagram is drawn by the report's figure code on the server (SVG).
  const cd = await fetch(`/api/cd.svg?${sel}`);
  if (gen !== generation) return;
  const slot = document.getElementById('cd');
  if (slot && cd.status === 200) {
    slot.innerHTML = await cd.text();
    slot.classList.add('figure');
  } else if (slot) slot.textContent = 'No critical-difference diagram: too few complete datasets or methods.';
}

function resultsBody(r: Results, meta: Meta, q: URLSearchParams, sel: URLSearchParams): Node[] {
  const m = r.comparison;
  const t = m.table;
  const higher = m.metric.higherIsBetter;
  const digits = m.metric.digits;
  const better = (a: number, b: number): boolean => (higher ? a > b : a < b);
  const complete = (c: Cell | null): number =>
    c && c.n > 0 && (c.planned === undefined || c.n >= c.planned) ? Number(c.mean) : NaN;
  const rows = t.datasets.map((d, i) => {
    const cells = t.cells[i] ?? [];
    const vals = t.methods.map((_, j) => complete(cells[j] ?? null));
    const best = vals.reduce((b, v) => (Number.isFinite(v) && (!Number.isFinite(b) || better(v, b)) ? v : b), NaN);
    return h(
      'tr',
      {},
      h('th', { scope: 'row' }, d),
      ...t.methods.map((meth, j) => {
        const c = cells[j] ?? null;
        const partial = c !== null && c.planned !== undefined && c.n < c.planned;
        const cls = [Number.isFinite(vals[j]) && vals[j] === best ? 'best' : '', partial ? 'partial' : '']
          .filter(Boolean)
          .join(' ');
        const text =
          c === null ? '–' : `${fmt(c.mean, digits)} ± ${fmt(c.sd, digits)}${partial ? ` (${c.n}/${c.planned})` : ''}`;
        return h(
          'td',
          { class: cls },
          c === null
            ? text
            : link(text, with_(q, { view: 'cell', dataset: d, method: meth }), {
                'aria-label': `${d}, ${meth}: ${text}`,
              }),
        );
      }),
    );
  });
  const bestOf = (xs: readonly (number | string)[], lower: boolean): number => {
    const ns = xs.map(Number).filter(Number.isFinite);
    return lower ? Math.min(...ns) : Math.max(...ns);
  };
  const avgBest = bestOf(t.average, !higher);
  const rankBest = bestOf(t.ranks, true);
  const table = h(
    'table',
    { id: 'results-table' },
    h('caption', { class: 'sr' }, `${m.metric.title} per dataset and method`),
    h(
      'thead',
      {},
      h('tr', {}, h('th', { scope: 'col' }, 'dataset'), ...t.methods.map((x) => h('th', { scope: 'col' }, x))),
    ),
    h(
      'tbody',
      {},
      ...rows,
      h(
        'tr',
        { class: 'summary' },
        h('th', { scope: 'row' }, `average (${t.completeDatasets} complete)`),
        ...t.average.map((a) => h('td', { class: Number(a) === avgBest ? 'best' : '' }, fmt(a, digits))),
      ),
      h(
        'tr',
        { class: 'summary' },
        h('th', { scope: 'row' }, 'average rank'),
        ...t.ranks.map((a) => h('td', { class: Number(a) === rankBest ? 'best' : '' }, fmt(a, 2))),
      ),
    ),
  );
  const out: Node[] = [
    h('h2', {}, `${m.metric.title} (${higher ? 'higher' : 'lower'} is better)`),
    h(
      'p',
      { class: 'exports' },
      'Export (as the report writes them): ',
      h('a', { href: `/api/export?${with_(sel, { what: 'csv' })}`, download: '' }, 'CSV'),
      h('a', { href: `/api/export?${with_(sel, { what: 'tex' })}`, download: '' }, 'LaTeX'),
      h('a', { href: `/api/export?${with_(sel, { what: 'cd.svg' })}`, download: '' }, 'CD diagram (SVG)'),
      h('a', { href: `/api/export?${with_(sel, { what: 'cd.pdf' })}`, download: '' }, 'CD diagram (PDF)'),
      h('a', { href: `/api/export?${with_(sel, { what: 'folds.svg' })}`, download: '' }, 'box plot (SVG)'),
      h('a', { href: `/api/export?${with_(sel, { what: 'folds.pdf' })}`, download: '' }, 'box plot (PDF)'),
      h(
        'a',
        { href: `/api/export?${with_(sel, { what: 'html' })}`, target: '_blank' },
        'report of this selection (HTML)',
      ),
    ),
    h('div', { class: 'scroll' }, table),
    h('h2', {}, 'Statistics of this selection'),
  ];
  if (m.notes.length) out.push(h('ul', { class: 'muted' }, ...m.notes.map((n) => h('li', {}, n))));
  const f = m.friedman;
  out.push(
    h(
      'p',
      { id: 'friedman' },
      f
        ? `Friedman χ²(${f.df}) = ${fmt(f.chi2, 4)}, ${pText(f.p)}; Iman–Davenport F(${f.imanDavenport.df1}, ${fmt(f.imanDavenport.df2, 0)}) = ${fmt(f.imanDavenport.F, 4)}, ${pText(f.imanDavenport.p)} (N = ${f.nDatasets} datasets, k = ${f.nMethods} methods)`
        : 'Friedman test: not computed (it needs at least two methods and two complete datasets).',
    ),
  );
  const ph = m.posthoc;
  if (ph) {
    out.push(
      h('h3', {}, `Post-hoc vs the control ${r.control} (${r.controlReason}; ${r.adjust} adjustment, α = ${r.alpha})`),
      h(
        'div',
        { class: 'scroll' },
        h(
          'table',
          { id: 'posthoc' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...['method', 'mean rank', 'rank diff.', 'z', 'p', 'p adj.'].map((x) => h('th', { scope: 'col' }, x)),
            ),
          ),
          h(
            'tbody',
            {},
            ...ph.comparisons.map((c) =>
              h(
                'tr',
                {},
                h('td', {}, m.methods[c.method] ?? ''),
                h('td', {}, fmt(c.meanRank, 3)),
                h('td', {}, fmt(c.rankDifference, 3)),
                h('td', {}, fmt(c.z, 3)),
                h('td', {}, fmtP(c.p)),
                h('td', { class: Number(c.pAdjusted) < r.alpha ? 'best' : '' }, fmtP(c.pAdjusted)),
              ),
            ),
          ),
        ),
      ),
    );
  }
  if (m.cd)
    out.push(
      h('p', { id: 'cd-value' }, `Critical difference (${m.cd.procedure}, α = ${m.cd.alpha}): ${fmt(m.cd.cd, 4)}`),
    );
  out.push(h('div', { id: 'cd' }));
  if (m.pairs.length) {
    out.push(
      h('h3', {}, 'Pairs: wins / draws / losses, sign test, Wilcoxon signed-rank'),
      h(
        'div',
        { class: 'scroll' },
        h(
          'table',
          { id: 'pairs' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...['a vs b', 'W/D/L', 'sign p', 'Wilcoxon p', 'p adj.'].map((x) => h('th', { scope: 'col' }, x)),
            ),
          ),
          h(
            'tbody',
            {},
            ...m.pairs.map((p) =>
              h(
                'tr',
                {},
                h('td', {}, `${p.a} vs ${p.b}`),
                h('td', {}, p.wdl ? `${p.wdl.wins}/${p.wdl.draws}/${p.wdl.losses}` : '–'),
                h('td', {}, p.sign ? fmtP(p.sign.p) : '–'),
                h('td', {}, p.wilcoxon ? fmtP(p.wilcoxon.p) : (p.error ?? '–')),
                h('td', {}, fmtP(p.wilcoxonAdjusted)),
              ),
            ),
          ),
        ),
      ),
    );
  }
  void meta;
  return out;
}

async function cellView(gen: number): Promise<void> {
  const q = params();
  const exp = q.get('exp') ?? '';
  const dataset = q.get('dataset') ?? '';
  const method = q.get('method') ?? '';
  const metric = q.get('metric') ?? 'accuracy';
  const r = await get<{
    jobs: CellJob[];
    boxplot: string | null;
    structure: string | null;
    classLabels: string[] | null;
  }>('/api/cell', new URLSearchParams({ exp, dataset, method, metric }));
  if (gen !== generation) return;
  const metrics = ['accuracy', 'log_loss', 'rmse', 'auc', 'balanced_accuracy', 'macro_f1'];
  const done = r.jobs.filter((j) => j.status === 'done');
  const failed = r.jobs.filter((j) => j.status === 'error');
  const parts: Node[] = [
    h('h2', {}, `${dataset} · ${method}`),
    h(
      'p',
      {},
      `${exp}: ${done.length} of ${r.jobs.length} folds done, ${failed.length} failed. `,
      link('back to results', with_(q, { view: 'results', dataset: null, method: null })),
    ),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { id: 'folds' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...[
              'repeat',
              'fold',
              'status',
              ...metrics,
              'train n',
              'test n',
              'preprocess ms',
              'train ms',
              'predict ms',
            ].map((x) => h('th', { scope: 'col' }, x)),
          ),
        ),
        h(
          'tbody',
          {},
          ...r.jobs.map((j) =>
            h(
              'tr',
              {},
              h('td', {}, String(j.repeat)),
              h('td', {}, String(j.fold)),
              h('td', { class: j.status === 'error' ? 'error' : '' }, j.status),
              ...metrics.map((k) => h('td', {}, fmt(j.metrics[k] ?? null, 4))),
              h('td', {}, j.nTrain === null ? '–' : String(j.nTrain)),
              h('td', {}, j.nTest === null ? '–' : String(j.nTest)),
              h('td', {}, fmt(j.preprocessMs, 1)),
              h('td', {}, fmt(j.trainMs, 1)),
              h('td', {}, fmt(j.predictMs, 1)),
            ),
          ),
        ),
      ),
    ),
  ];
  const figs: Node[] = [];
  if (r.boxplot) {
    const d = h('div', { class: 'figure', id: 'boxplot' });
    d.innerHTML = r.boxplot;
    // The report's box plot of a selection of this one dataset × method, as `report` (--pdf) writes it.
    const one = new URLSearchParams({ exp, metric, d: dataset, m: method });
    figs.push(
      h(
        'div',
        {},
        d,
        h(
          'p',
          { class: 'exports' },
          'Export: ',
          h('a', { href: `/api/export?${with_(one, { what: 'folds.svg' })}`, download: '' }, 'SVG'),
          h('a', { href: `/api/export?${with_(one, { what: 'folds.pdf' })}`, download: '' }, 'PDF'),
        ),
      ),
    );
  }
  // Confusion matrix summed over the folds (rows: true class, columns: predicted), with the class labels.
  const withConf = done.filter((j) => j.confusion);
  if (withConf.length && r.classLabels) {
    const k = r.classLabels.length;
    const sum = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    for (const j of withConf) j.confusion!.forEach((row, a) => row.forEach((v, b) => (sum[a][b] += v)));
    figs.push(
      h(
        'div',
        {},
        h('h3', {}, `Confusion matrix (${withConf.length === 1 ? '1 fold' : `${withConf.length} folds summed`})`),
        h(
          'table',
          { id: 'confusion' },
          h(
            'thead',
            {},
            h('tr', {}, h('th', {}, 'true \\ predicted'), ...r.classLabels.map((l) => h('th', { scope: 'col' }, l))),
          ),
          h(
            'tbody',
            {},
            ...sum.map((row, a) =>
              h(
                'tr',
                {},
                h('th', { scope: 'row' }, r.classLabels![a]),
                ...row.map((v, b) => h('td', { class: a === b ? 'best' : '' }, String(v))),
              ),
            ),
          ),
        ),
      ),
    );
  }
  if (r.structure) {
    const d = h('div', { class: 'figure', id: 'structure' });
    d.innerHTML = r.structure;
    figs.push(h('div', {}, h('h3', {}, 'Learned structure (most frequent over the folds)'), d));
  }
  parts.push(h('div', { class: 'cards' }, ...figs));
  const first = r.jobs[0];
  if (first) {
    parts.push(
      h('h3', {}, 'Provenance'),
      h(
        'pre',
        {},
        [
          `structure ${first.structure} ${first.structureParams}`,
          `estimator ${first.estimator ?? '–'} ${first.estimatorParams ?? ''}`,
          `preprocessing ${first.preprocessing}`,
          `seed ${first.seed}`,
          `bnclab ${[...new Set(r.jobs.map((j) => j.version ?? '–'))].join(', ')}`,
          `finished ${done.map((j) => j.finishedAt ?? '').sort()[0] ?? '–'} … ${
            done
              .map((j) => j.finishedAt ?? '')
              .sort()
              .at(-1) ?? '–'
          }`,
          `job keys ${r.jobs.map((j) => j.jobKey.slice(0, 12)).join(' ')}`,
        ].join('\n'),
      ),
    );
  }
  if (failed.length) {
    parts.push(
      h('h3', { class: 'error' }, 'Errors'),
      h('pre', { id: 'errors' }, failed.map((j) => `repeat ${j.repeat} fold ${j.fold}: ${j.error ?? ''}`).join('\n')),
    );
  }
  main.replaceChildren(...parts);
}

/** A table of the report (src/report/table.ts) as the report's HTML draws it: caption, header, bold cells. */
function reportTable(t: ReportTable): HTMLElement {
  const align = (a: string): string => (a === 'l' ? 'text-align:left' : a === 'c' ? 'text-align:center' : '');
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { id: t.id, class: 'report' },
      h('caption', {}, t.caption),
      h('thead', {}, h('tr', {}, ...t.columns.map((c) => h('th', { scope: 'col', style: align(c.align) }, c.header)))),
      h(
        'tbody',
        {},
        ...t.rows.map((r) =>
          h(
            'tr',
            {},
            ...r.cells.map((c, i) => {
              const td = h('td', { style: align(t.columns[i]?.align ?? 'r') }, c.text);
              if (c.bold) td.style.fontWeight = '700';
              if (c.italic) td.style.fontStyle = 'italic';
              if (/^verdict$/.test(t.columns[i]?.header ?? ''))
                td.classList.add(c.text === 'reproduced' ? 'ok' : c.text === 'not reproduced' ? 'error' : 'warn');
              return td;
            }),
          ),
        ),
      ),
    ),
    ...(t.notes ?? []).map((n) => h('p', { class: n.startsWith('warning') ? 'error' : 'muted' }, n)),
  );
}

/** The experiment chooser of the Claims and Compare pages (the first experiment when none is named). */
async function chosenExperiment(): Promise<{
  q: URLSearchParams;
  exp: string;
  names: string[];
  databases: string[];
} | null> {
  let q = params();
  const db = q.get('view') === 'compare' ? q.get('db') : null;
  const { experiments, source, databases } = await get<{
    experiments: ExperimentInfo[];
    source: Source;
    databases: string[];
  }>('/api/experiments', db ? new URLSearchParams({ db }) : undefined);
  showSource(source);
  const names = experiments.map((e) => e.counts.name);
  const exp = q.get('exp') ?? names[0];
  if (!exp) {
    main.replaceChildren(h('p', { class: 'muted' }, 'No experiments in this database yet.'));
    return null;
  }
  if (!q.get('exp')) q = with_(q, { exp });
  return { q, exp, names, databases };
}

function selectOf(label: string, id: string, options: [string, string][], value: string, on: (v: string) => void) {
  const sel = h(
    'select',
    { id },
    ...options.map(([v, t]) => {
      const o = h('option', { value: v }, t) as HTMLOptionElement;
      o.selected = v === value;
      return o;
    }),
  ) as HTMLSelectElement;
  sel.addEventListener('change', () => on(sel.value));
  return h('label', { for: id }, label, ' ', sel);
}

async function claimsView(gen: number): Promise<void> {
  const c = await chosenExperiment();
  if (!c) return;
  const { q, exp, names } = c;
  const r = await get<{ files: ClaimsFile[]; note: string }>('/api/claims', new URLSearchParams({ exp }));
  if (gen !== generation) return;
  history.replaceState(null, '', `?${q}`);
  const all: Record<string, number> = {};
  for (const f of r.files) for (const [v, n] of Object.entries(f.verdicts)) all[v] = (all[v] ?? 0) + n;
  const total = Object.values(all).reduce((a, b) => a + b, 0);
  const provisional = r.files.reduce((n, f) => n + f.provisional, 0);
  // As the report: a verdict that reads a dataset × method the run has not finished is provisional.
  const unfinished = (n: number): string => (n ? ` (${n} provisional: the run is not finished)` : '');
  const counts = (v: Record<string, number>): string =>
    Object.entries(v)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
  main.replaceChildren(
    h('h2', {}, 'Claims: published against ours'),
    h(
      'div',
      { class: 'row' },
      selectOf(
        'experiment',
        'claims-exp',
        names.map((n) => [n, n]),
        exp,
        (v) => go(with_(params(), { exp: v }), true),
      ),
    ),
    r.files.length === 0
      ? h('p', { class: 'muted', id: 'claims-note' }, r.note)
      : h('p', { id: 'claims-summary' }, `${total} published claims: ${counts(all)}${unfinished(provisional)}.`),
    h(
      'p',
      { class: 'muted' },
      'Verdicts and their uncertainty as the report computes them (docs/reports.md, "Stated claims"): a margin with its 95% paired bootstrap interval; "direction reproduced, not significant" when the interval covers zero.',
    ),
    ...r.files.flatMap((f) => [
      h('h3', {}, f.title),
      h('p', { class: 'muted' }, `${f.path}: ${counts(f.verdicts)}${unfinished(f.provisional)}`),
      ...(f.stability ? [h('p', { class: 'stability' }, f.stability)] : []),
      reportTable(f.table),
    ]),
  );
}

async function compareView(gen: number): Promise<void> {
  const c = await chosenExperiment();
  if (!c) return;
  let { q } = c;
  const { exp, names, databases } = c;
  // Several databases (`bnclab ui a.duckdb b.duckdb`): side b chooses its own, and its experiments.
  const db2 = q.get('db2') ?? q.get('db') ?? '0';
  const names2 =
    db2 === (q.get('db') ?? '0')
      ? names
      : (
          await get<{ experiments: ExperimentInfo[] }>('/api/experiments', new URLSearchParams({ db: db2 }))
        ).experiments.map((e) => e.counts.name);
  if (!q.get('exp2') || !names2.includes(q.get('exp2')!))
    q = with_(q, { exp2: names2.find((n) => n !== exp || db2 !== (q.get('db') ?? '0')) ?? names2[0] ?? exp });
  const r = await get<Compared>('/api/compare', q);
  if (gen !== generation) return;
  q = with_(q, { method: r.method, method2: r.method2, metric: r.metric.key });
  history.replaceState(null, '', `?${q}`);
  const update = (changes: Record<string, string | null>): void => go(with_(params(), changes), true);
  const meta = await get<Meta>('/api/meta', new URLSearchParams({ exp, db: q.get('db') ?? '0' }));
  if (gen !== generation) return;
  const states = (list: CodeState[]): [string, string][] => [
    ['', 'every job'],
    ...list
      .filter((s) => s.id !== null)
      .map((s): [string, string] => [
        s.id!,
        `${s.bnclab ?? '?'} · ${(s.code ?? s.id!).slice(0, 12)}${s.code?.endsWith('+dirty') ? '+dirty' : ''} (${s.jobs} jobs)`,
      ]),
  ];
  const d = r.metric.digits;
  const base = (f: string): string => f.replace(/^.*[\\/]/, '');
  const dbText = (f: string): string => (databases.length > 1 ? `${base(f)}: ` : '');
  const side = (x: CompareSide, f: string): string =>
    `${dbText(f)}${x.experiment}${x.code ? ` @ ${x.code.slice(0, 12)}` : ''}`;
  const dbChoice = (id: string, key: 'db' | 'db2', value: string): Node[] =>
    databases.length > 1
      ? [
          selectOf(
            'database',
            id,
            databases.map((f, i) => [String(i), `${i + 1}. ${base(f)}`]),
            value,
            (v) =>
              update(
                key === 'db'
                  ? { db: v, exp: null, code: null, method: null, method2: null }
                  : { db2: v, exp2: null, code2: null, method2: null },
              ),
          ),
        ]
      : [];
  const signed = (x: number | null): string =>
    x === null ? '–' : `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(d)}`;
  const betterText = r.metric.higherIsBetter ? 'higher is better' : 'lower is better';
  main.replaceChildren(
    h('h2', {}, 'Compare'),
    h(
      'div',
      { class: 'cards', id: 'compare-controls' },
      h(
        'fieldset',
        {},
        h('legend', {}, 'a'),
        ...dbChoice('cmp-db', 'db', q.get('db') ?? '0'),
        selectOf(
          'experiment',
          'cmp-exp',
          names.map((n) => [n, n]),
          exp,
          (v) => update({ exp: v, code: null, method: null, method2: null }),
        ),
        selectOf('code state', 'cmp-code', states(r.codeStatesA), r.a.code ?? '', (v) => update({ code: v || null })),
      ),
      h(
        'fieldset',
        {},
        h('legend', {}, 'b'),
        ...dbChoice('cmp-db2', 'db2', db2),
        selectOf(
          'experiment',
          'cmp-exp2',
          names2.map((n) => [n, n]),
          r.b.experiment,
          (v) => update({ exp2: v, code2: null, method2: null }),
        ),
        selectOf('code state', 'cmp-code2', states(r.codeStatesB), r.b.code ?? '', (v) => update({ code2: v || null })),
      ),
      h(
        'fieldset',
        {},
        h('legend', {}, 'what'),
        selectOf(
          'metric',
          'cmp-metric',
          meta.metrics.map((m) => [m.key, m.title]),
          r.metric.key,
          (v) => update({ metric: v }),
        ),
        selectOf(
          'method a',
          'cmp-method',
          r.methodsA.map((m) => [m, m]),
          r.method,
          (v) => update({ method: v, method2: null }),
        ),
        selectOf(
          'method b',
          'cmp-method2',
          r.methodsB.map((m) => [m, m]),
          r.method2,
          (v) => update({ method2: v }),
        ),
      ),
    ),
    h(
      'p',
      { id: 'compare-summary' },
      `${r.method === r.method2 ? r.method : `${r.method} (a) against ${r.method2} (b)`}, ${r.metric.title} (${betterText}): ${r.paired} datasets on both sides; b better on ${r.bBetter}, a better on ${r.aBetter}, ${r.ties} equal; mean difference b − a ${signed(r.meanDiff)}; `,
      r.wilcoxon
        ? `Wilcoxon signed-rank over datasets V = ${fmt(r.wilcoxon.statistic, 1)}, ${pText(r.wilcoxon.p)} (${r.wilcoxon.method}).`
        : `no Wilcoxon test: ${r.testError ?? ''}.`,
    ),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { id: 'compare' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'dataset'),
            h('th', { scope: 'col' }, `a: ${side(r.a, r.databaseA)}`),
            h('th', { scope: 'col' }, `b: ${side(r.b, r.databaseB)}`),
            h('th', { scope: 'col' }, 'b − a'),
          ),
        ),
        h(
          'tbody',
          {},
          ...r.rows.map((x) => {
            const good =
              x.diff === null || Math.abs(x.diff) < 0.5 * 10 ** -d
                ? ''
                : x.diff > 0 === r.metric.higherIsBetter
                  ? 'ok'
                  : 'error';
            return h(
              'tr',
              {},
              h('td', {}, x.dataset),
              h('td', {}, fmt(x.a, d)),
              h('td', {}, fmt(x.b, d)),
              h('td', { class: good }, signed(x.diff)),
            );
          }),
        ),
      ),
    ),
    h(
      'p',
      { class: 'muted' },
      "Per dataset the mean over folds of each side (rounded as the report rounds); the test is the report's Wilcoxon signed-rank with experiment a's compare: settings. A code state compares the jobs one code revision computed (see provenance in the report).",
    ),
  );
}

function showError(e: unknown): void {
  main.replaceChildren(h('p', { class: 'error', role: 'alert' }, (e as Error).message));
}

async function render(): Promise<void> {
  window.clearTimeout(timer);
  const gen = ++generation;
  const view = params().get('view') ?? 'experiments';
  drawNav(view);
  document.title = `bnclab · ${view}`;
  try {
    if (view === 'results') await resultsView(gen);
    else if (view === 'cell') await cellView(gen);
    else if (view === 'claims') await claimsView(gen);
    else if (view === 'compare') await compareView(gen);
    else await experimentsView(gen).catch((e: unknown) => liveError(gen, e));
  } catch (e) {
    if (gen === generation) showError(e);
  }
  document.body.dataset['ready'] = String(gen);
}

// Keyboard: g e / g r move between the pages (when no field has the focus).
let pending = '';
document.addEventListener('keydown', (ev) => {
  const t = ev.target as HTMLElement;
  if (ev.ctrlKey || ev.metaKey || ev.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)) return;
  if (pending === 'g' && (ev.key === 'e' || ev.key === 'r')) {
    go(with_(params(), { view: ev.key === 'e' ? 'experiments' : 'results' }));
    pending = '';
    return;
  }
  pending = ev.key === 'g' ? 'g' : '';
});
window.addEventListener('popstate', () => void render());
void render();
