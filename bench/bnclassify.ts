/**
 * bnclab against bnclassify (R) on identical discretized data and identical fixed 10-fold splits.
 *
 *   npm run build
 *   node dist/bench/bnclassify.js export --out DIR [--datasets zoo,iris,...] [--folds 10]
 *   R_LIBS=<library with bnclassify> Rscript bench/bnclassify.R DIR [methods]
 *   node dist/bench/bnclassify.js compare --out DIR [--datasets ...] [--methods tan-tie,tan-hc,kdb-hc,wanbia]
 *
 * `export` discretizes each registry dataset once on all rows (MDL, missing values as their own value, so
 * no NA reaches either program) and writes DIR/<name>.csv (codes as labels "v0", "v1", …, class last),
 * DIR/<name>.levels (each column's number of codes, so that R's factors keep unobserved levels) and
 * DIR/<name>.folds (the stratified fold of each row, seeded by the dataset's name). bench/bnclassify.R fits
 * bnclassify's learners fold by fold and writes DIR/<name>.<method>.r.csv: per test row the class
 * posterior, and per fold the feature arcs. `compare` fits bnclab's counterparts on the same training rows
 * and prints per-fold agreement (accuracy equal, log loss within 1e-6, same arcs) per dataset.
 *
 * Methods (bnclassify call ↔ bnclab method):
 *   tan-tie  tan_cl(score = 'loglik'), lp(smooth = 1)  ↔  tan {tie: bnclassify}, dirichlet α = 1
 *   tan-hc   tan_hc(k = 5, epsilon = 0, smooth = 1), lp(smooth = 1)  ↔  tan-hc, dirichlet α = 1
 *   kdb-hc   kdb(k = 5, kdbk = 2, epsilon = 0, smooth = 1), lp(smooth = 1)  ↔  kdb-hc, dirichlet α = 1
 *   wanbia   nb, lp(smooth = 1, wanbia = TRUE)  ↔  nb + wanbia {variant: bnclassify}
 *   awnb     nb, lp(smooth = 1, awnb_trees = 10, awnb_bootstrap = 0.5)  ↔  nb + awnb {tree: rpart, tables:
 *            renormalized} (the bootstrap draws differ, so only the fitting CPU time is comparable: both
 *            sides print it, R in its log line, bnclab in the table's last column)
 * The greedy searches draw their internal folds and break ties at random (R's sample() and max.col). R's
 * side calls set.seed(fold) before each fold's fit and bnclab's side passes `r_seed: fold`, so both draw
 * the same numbers in the same order (`--draws own`: bnclab's own seeded folds and ties, as without r_seed).
 * bench/bnclassify.R takes an optional fold list (slow datasets) and writes each fold as it finishes;
 * `compare` counts only the folds R finished.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import '../src/structures/index.js';
import '../src/estimators/index.js';
import { loadDataset } from '../src/datasets/load.js';
import { loadRegistry } from '../src/datasets/registry.js';
import { fitPreprocessor } from '../src/datasets/preprocess.js';
import { attributeCount, selectRows, type DiscreteData } from '../src/bn/data.js';
import { stratifiedKFold } from '../src/folds/split.js';
import { getEstimator, getStructure } from '../src/registry.js';
import { Rng } from '../src/util/rng.js';

/** The 35 UCI datasets of the earlier comparisons (those that bnclassify runs in minutes). */
export const DEFAULT_DATASETS =
  'iris,zoo,breast-cancer,house-votes-84,labor,hepatitis,car,tae,glass,heart-statlog,lymphography,wine,' +
  'balance-scale,credit-a,primary-tumor,vehicle,tic-tac-toe,haberman,ionosphere,sonar,soybean,vowel,' +
  'pima-indians-diabetes,new-thyroid,autos,heart-cleveland,contact-lenses,lung-cancer,post-operative,' +
  'german-credit,dermatology,cmc,kr-vs-kp,anneal,satellite';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string' },
    datasets: { type: 'string', default: DEFAULT_DATASETS },
    folds: { type: 'string', default: '10' },
    methods: { type: 'string', default: 'tan-tie,tan-hc,kdb-hc,wanbia' },
    /** tan-hc / kdb-hc: `r` passes r_seed = the fold number (bench/bnclassify.R calls set.seed(fold)), `own` none. */
    draws: { type: 'string', default: 'r' },
    verbose: { type: 'boolean', default: false },
  },
});
const mode = positionals[0];
const out = values.out;
if ((mode !== 'export' && mode !== 'compare') || !out) {
  console.error('usage: bnclassify.js export|compare --out DIR [--datasets a,b] [--methods ...]');
  process.exit(2);
}

function discretized(name: string): DiscreteData {
  const table = loadDataset(loadRegistry().get(name)).table;
  const all = Int32Array.from({ length: table.n }, (_, r) => r);
  const pre = fitPreprocessor(table, all, { discretize: { method: 'mdl' }, missing: 'as-value' });
  return pre.transform(table, all);
}

function doExport(name: string): void {
  const d = discretized(name);
  const m = attributeCount(d);
  const names = d.names.slice(0, m).map((_, a) => `a${a}`);
  const lines = [[...names, 'class'].join(',')];
  for (let r = 0; r < d.n; r++) {
    const cells: string[] = [];
    for (let a = 0; a < m; a++) cells.push(`v${d.columns[a][r]}`);
    cells.push(`c${d.classColumn[r]}`);
    lines.push(cells.join(','));
  }
  writeFileSync(join(out!, `${name}.csv`), lines.join('\n') + '\n');
  writeFileSync(join(out!, `${name}.levels`), [...d.cards.slice(0, m), d.classCard].join(',') + '\n');
  const folds = stratifiedKFold(d.classColumn, d.classCard, Number(values.folds), new Rng(`bnclassify-${name}`));
  writeFileSync(join(out!, `${name}.folds`), Array.from(folds, (f) => f + 1).join('\n') + '\n');
  console.log(`${name}: ${d.n} rows, ${m} attributes, ${d.classCard} classes`);
}

interface RFold {
  probs: Map<number, number[]>;
  arcs: Set<string>;
}

/** DIR/<name>.<method>.r.csv: lines "p,fold,row,p1,..,pC" and "a,fold,from,to" (1-based rows, 0-based attributes). */
function readR(file: string): Map<number, RFold> {
  const folds = new Map<number, RFold>();
  const get = (f: number): RFold => {
    let x = folds.get(f);
    if (!x) folds.set(f, (x = { probs: new Map(), arcs: new Set() }));
    return x;
  };
  const done = new Set<number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const c = line.split(',');
    const f = Number(c[1]);
    if (c[0] === 'p') get(f).probs.set(Number(c[2]) - 1, c.slice(3).map(Number));
    else if (c[0] === 'a') get(f).arcs.add(`${c[2]}>${c[3]}`);
    else if (c[0] === 'f') done.add(f);
  }
  // A fold counts only when its closing marker was written (a CPU limit may stop R mid-fold).
  for (const f of [...folds.keys()]) if (!done.has(f)) folds.delete(f);
  for (const f of done) get(f);
  return folds;
}

/** `r_seed: fold` (what bench/bnclassify.R's set.seed(fold) promises) unless --draws own. */
function rSeed(fold: number): { r_seed?: number } {
  return values.draws === 'own' ? {} : { r_seed: fold };
}

function ours(method: string, train: DiscreteData, fold: number, name: string) {
  const ctx = { rng: new Rng(`bnclassify-${name}-${method}-${fold}`) };
  const m = attributeCount(train);
  let structure;
  if (method === 'tan-tie') structure = getStructure('tan')!.learn(train, { tie: 'bnclassify' }, ctx);
  else if (method === 'tan-hc')
    structure = getStructure('tan-hc')!.learn(train, { k: 5, epsilon: 0, smooth: 1, ...rSeed(fold) }, ctx);
  else if (method === 'kdb-hc')
    structure = getStructure('kdb-hc')!.learn(train, { k: 5, epsilon: 0, smooth: 1, kdbk: 2, ...rSeed(fold) }, ctx);
  else structure = getStructure('nb')!.learn(train, {}, ctx);
  const model =
    method === 'wanbia'
      ? getEstimator('wanbia')!.fit(train, structure, { variant: 'bnclassify' }, ctx)
      : method === 'awnb'
        ? getEstimator('awnb')!.fit(train, structure, { tree: 'rpart', tables: 'renormalized' }, ctx)
        : getEstimator('dirichlet')!.fit(train, structure, { alpha: 1 }, ctx);
  const arcs = new Set<string>();
  for (let a = 0; a < m; a++) for (const p of structure.parents[a]) if (p !== m) arcs.add(`${p}>${a}`);
  return { model, arcs };
}

function argmax(p: ArrayLike<number>, o: number, C: number): number {
  let b = 0;
  for (let c = 1; c < C; c++) if (p[o + c] > p[o + b]) b = c;
  return b;
}

function doCompare(name: string, methods: string[], totals: Map<string, number[]>): void {
  const d = discretized(name);
  const C = d.classCard;
  const folds = readFileSync(join(out!, `${name}.folds`), 'utf8')
    .trim()
    .split('\n')
    .map(Number);
  const k = Math.max(...folds);
  for (const method of methods) {
    const file = join(out!, `${name}.${method}.r.csv`);
    if (!existsSync(file)) continue;
    const r = readR(file);
    let accEq = 0;
    let llEq = 0;
    let arcsEq = 0;
    let n = 0;
    let ourArcs = 0;
    let theirArcs = 0;
    let worst = 0;
    let cpu = 0;
    let sameDir = 0;
    let reversed = 0;
    for (let f = 1; f <= k; f++) {
      const rf = r.get(f);
      if (!rf) continue;
      const trainIdx: number[] = [];
      const testIdx: number[] = [];
      folds.forEach((x, i) => (x === f ? testIdx : trainIdx).push(i));
      const train = selectRows(d, trainIdx);
      const test = selectRows(d, testIdx);
      const t0 = process.cpuUsage();
      const { model, arcs } = ours(method, train, f, name);
      const t1 = process.cpuUsage(t0);
      cpu += (t1.user + t1.system) / 1e6;
      const p = model.posterior(test);
      let ca = 0;
      let cb = 0;
      let la = 0;
      let lb = 0;
      testIdx.forEach((row, t) => {
        const q = rf.probs.get(row)!;
        const y = test.classColumn[t];
        if (argmax(p, t * C, C) === y) ca++;
        if (argmax(q, 0, C) === y) cb++;
        la -= Math.log(p[t * C + y]);
        lb -= Math.log(q[y]);
      });
      la /= testIdx.length;
      lb /= testIdx.length;
      n++;
      if (ca === cb) accEq++;
      if (Math.abs(la - lb) <= 1e-6) llEq++;
      worst = Math.max(worst, Math.abs(la - lb));
      const same = arcs.size === rf.arcs.size && [...arcs].every((a) => rf.arcs.has(a));
      if (same) arcsEq++;
      for (const a of arcs) {
        const [p, c] = a.split('>');
        if (rf.arcs.has(a)) sameDir++;
        else if (rf.arcs.has(`${c}>${p}`)) reversed++;
      }
      ourArcs += arcs.size;
      theirArcs += rf.arcs.size;
      if (values.verbose && (!same || ca !== cb || Math.abs(la - lb) > 1e-6))
        console.log(
          `  ${name} ${method} fold ${f}: acc ${ca} vs ${cb}, logloss ${la} vs ${lb}, arcs ${[...arcs].sort().join(' ')} | ${[...rf.arcs].sort().join(' ')}`,
        );
    }
    const t = totals.get(method) ?? [0, 0, 0, 0];
    totals.set(method, [t[0] + n, t[1] + accEq, t[2] + llEq, t[3] + arcsEq]);
    console.log(
      `| ${name} | ${method} | ${n} | ${accEq} | ${llEq} | ${arcsEq} | ${(ourArcs / n).toFixed(1)} | ${(theirArcs / n).toFixed(1)} | ${worst.toExponential(1)} | ${sameDir} / ${reversed} | ${cpu.toFixed(2)} |`,
    );
  }
}

mkdirSync(out, { recursive: true });
const names = values.datasets.split(',');
if (mode === 'export') for (const name of names) doExport(name);
else {
  const methods = values.methods.split(',');
  console.log(
    '| dataset | method | folds | accuracy equal | log loss within 1e-6 | same arcs | arcs (bnclab) | arcs (bnclassify) | largest log-loss gap | shared arcs same / reversed | bnclab fit CPU s |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  const totals = new Map<string, number[]>();
  for (const name of names) doCompare(name, methods, totals);
  for (const [method, [n, a, l, s]] of totals) console.log(`| all | ${method} | ${n} | ${a} | ${l} | ${s} | | | |`);
}
