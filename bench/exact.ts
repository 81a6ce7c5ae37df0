/**
 * Benchmark of the exact learners: time and peak memory of the local-score engine, the exact DP (EBN),
 * K-best equivalence classes (K = 10, 100) and one SubbKB10 fold, on real data sets with 10 to 23
 * variables (median binarisation, rows with missing values dropped, the class included).
 *
 * Each figure is measured in a fresh child process, so its peak resident memory (resourceUsage().maxRSS)
 * belongs to that step alone; wall-clock seconds and the process's CPU seconds are both printed (on a
 * shared machine the CPU time is the steadier figure).
 *
 * --bene DIR (a built bene, github tomisilander/bene: DIR/bin/data2net.sh and its steps) compares EBN with
 * Silander's C program side by side: the same discretized rows are written in bene's format (.vd, .idt),
 * and our whole `--child … ebn` process and bene's whole data2net.sh pipeline (BDeu, ess 1) are timed in
 * turn, --runs rounds, CPU and wall medians with the load average (bench/lib/process.ts); both best scores
 * are printed (natural log). Without --bene the EBN lines say "no side-by-side comparison".
 *
 *   node dist/bench/exact.js                      all data sets, all steps
 *   node dist/bench/exact.js zoo hepatitis        some data sets
 *   node dist/bench/exact.js --steps ebn,kb10     some steps (scores, ebn, eanb, kb10, kb100, subbkb10)
 *   node dist/bench/exact.js --timeout 600        per-step limit in seconds (default 900)
 *   node dist/bench/exact.js zoo --steps ebn,kb10 --rounds 5
 *                                                 the steps' children in turn (ebn, kb10, ebn, kb10, …), 5
 *                                                 rounds: every run's line, then per step the median CPU and
 *                                                 wall seconds, and the ratios to EBN as the median of the
 *                                                 rounds' ratios (each from two runs side by side), with the
 *                                                 load average at the start and the end
 *   node dist/bench/exact.js --bene /tmp/bene --runs 5 heart-statlog zoo house-votes-84 --steps ebn
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadRegistry } from '../src/datasets/registry.js';
import { loadDataset } from '../src/datasets/load.js';
import { fitPreprocessor } from '../src/datasets/preprocess.js';
import type { DiscreteData } from '../src/bn/data.js';
import { LocalScores, DEFAULT_MEMORY_LIMIT_MB } from '../src/bn/exact/localscores.js';
import { bestNetwork } from '../src/bn/exact/dp.js';
import { kBestNetworks } from '../src/bn/exact/kbest.js';
import { stratifiedKFold } from '../src/folds/split.js';
import { getStructure, getEstimator } from '../src/registry.js';
import { Rng } from '../src/util/rng.js';
import '../src/methods.js';
import { NO_COMPARISON, alternate, loadAverage, median, setAside, summaryTable } from './lib/process.js';

/** Data sets by variable count (attributes + class): 10, 14–15, 17–18, 19–20, 21, 23. */
const DATASETS = [
  'breast-cancer',
  'heart-statlog',
  'adult',
  'zoo',
  'house-votes-84',
  'letter',
  'primary-tumor',
  'lymphography',
  'vehicle',
  'hepatitis',
  'segment',
  'german-credit',
  'mushroom',
];
const STEPS = ['scores', 'ebn', 'eanb', 'kb10', 'kb100', 'subbkb10'] as const;
type Step = (typeof STEPS)[number];

function load(name: string): DiscreteData {
  const entry = loadRegistry().get(name);
  const { table } = loadDataset(entry);
  const all = Int32Array.from({ length: table.n }, (_, i) => i);
  const pre = fitPreprocessor(table, all, { discretize: { method: 'median' }, missing: 'drop-rows' });
  return pre.transform(table, pre.trainRows());
}

/** Child mode: run one step on one data set, print one JSON line. */
function child(name: string, step: Step): void {
  const data = load(name);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let detail = '';
  if (step === 'scores') {
    const ls = new LocalScores(data, { score: 'bdeu', ess: 1, constraint: 'none' });
    detail = `${ls.rows} rows`;
  } else if (step === 'ebn' || step === 'eanb') {
    const ls = new LocalScores(data, { score: 'bdeu', ess: 1, constraint: step === 'ebn' ? 'none' : 'anb' });
    const t1 = performance.now();
    const net = bestNetwork(ls, DEFAULT_MEMORY_LIMIT_MB);
    detail = `scores ${((t1 - t0) / 1000).toFixed(2)} s + DP ${((performance.now() - t1) / 1000).toFixed(2)} s; score ${net.score.toFixed(3)}`;
  } else if (step === 'kb10' || step === 'kb100') {
    const K = step === 'kb10' ? 10 : 100;
    const ls = new LocalScores(data, { score: 'bdeu', ess: 1, constraint: 'none' });
    const t1 = performance.now();
    const nets = kBestNetworks(ls, K, 'ec', DEFAULT_MEMORY_LIMIT_MB);
    detail = `scores ${((t1 - t0) / 1000).toFixed(2)} s + K-best ${((performance.now() - t1) / 1000).toFixed(2)} s; ${nets.length} classes, best ${nets[0].score.toFixed(3)}`;
  } else {
    // One fold of 10-fold stratified CV: learn SubbKB10 on 9/10 of the rows, predict the rest.
    const assign = stratifiedKFold(data.classColumn, data.classCard, 10, new Rng('bench-folds'));
    const train: number[] = [];
    const test: number[] = [];
    for (let r = 0; r < data.n; r++) (assign[r] === 0 ? test : train).push(r);
    const sel = (rows: number[]): DiscreteData => {
      const cols = data.columns.map((c) => Int32Array.from(rows, (r) => c[r]));
      return {
        ...data,
        n: rows.length,
        columns: cols,
        classColumn: Int32Array.from(rows, (r) => data.classColumn[r]),
      };
    };
    const tr = sel(train);
    const te = sel(test);
    const s = getStructure('subbkb')!;
    const e = getEstimator('eap')!;
    const rng = new Rng('bench');
    const structure = s.learn(tr, { ...s.defaults }, { rng });
    const model = e.fit(tr, structure, { ...e.defaults }, { rng });
    const p = model.posterior(te);
    let hits = 0;
    for (let r = 0; r < te.n; r++) {
      let b = 0;
      for (let c = 1; c < te.classCard; c++) if (p[r * te.classCard + c] > p[r * te.classCard + b]) b = c;
      if (b === te.classColumn[r]) hits++;
    }
    detail = `${tr.n} training rows, accuracy ${(hits / te.n).toFixed(4)}, ${structure.members?.length ?? 1} members`;
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const peakMB = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ seconds, cpuSeconds, peakMB, detail, vars: data.columns.length + 1, rows: data.n }));
}

function main(): void {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    try {
      child(args[1], args[2] as Step);
    } catch (e) {
      // a refused problem (memory limit) is a result too
      console.log(JSON.stringify({ error: e instanceof Error ? e.message : String(e) }));
    }
    return;
  }
  let steps: Step[] = [...STEPS];
  let timeout = 900;
  let bene: string | undefined;
  let runs = 5;
  let rounds = 1;
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--steps') steps = args[++i].split(',') as Step[];
    else if (args[i] === '--timeout') timeout = Number(args[++i]);
    else if (args[i] === '--bene') bene = args[++i];
    else if (args[i] === '--runs') runs = Number(args[++i]);
    else if (args[i] === '--rounds') rounds = Number(args[++i]);
    else names.push(args[i]);
  }
  for (const s of steps) if (!STEPS.includes(s)) throw new Error(`unknown step '${s}' (known: ${STEPS.join(', ')})`);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer, got ${rounds}`);
  const script = fileURLToPath(import.meta.url);
  console.log(`exact: ${new Date().toISOString()}; load average ${loadAverage()}`);
  console.log('data set         vars   rows  step       seconds  cpu s   peak MB  detail');
  for (const name of names.length ? names : DATASETS) {
    // cpu and wall seconds of each step, one entry per round (NaN where the step failed or was refused)
    const cpuOf = new Map<Step, number[]>(steps.map((st) => [st, []]));
    const wallOf = new Map<Step, number[]>(steps.map((st) => [st, []]));
    for (let round = 0; round < rounds; round++) {
      for (const step of steps) {
        const res = spawnSync(process.execPath, [script, '--child', name, step], {
          encoding: 'utf8',
          timeout: timeout * 1000,
        });
        let line: string;
        let cpu = Number.NaN;
        let wall = Number.NaN;
        if (res.status !== 0 || !res.stdout.trim()) {
          const why =
            res.error?.message.includes('ETIMEDOUT') || res.signal
              ? `stopped after ${timeout} s`
              : (res.stderr.trim().split('\n').pop() ?? 'failed');
          line = `${name.padEnd(16)} ${''.padStart(4)} ${''.padStart(6)}  ${step.padEnd(9)}  ${why}`;
        } else {
          const r = JSON.parse(res.stdout.trim().split('\n').pop()!) as {
            error?: string;
            seconds: number;
            cpuSeconds: number;
            peakMB: number;
            detail: string;
            vars: number;
            rows: number;
          };
          if (r.error)
            line = `${name.padEnd(16)} ${''.padStart(4)} ${''.padStart(6)}  ${step.padEnd(9)}  refused: ${r.error}`;
          else {
            cpu = r.cpuSeconds;
            wall = r.seconds;
            line =
              `${name.padEnd(16)} ${String(r.vars).padStart(4)} ${String(r.rows).padStart(6)}  ${step.padEnd(9)} ` +
              `${r.seconds.toFixed(2).padStart(8)} ${r.cpuSeconds.toFixed(2).padStart(6)} ${r.peakMB.toFixed(0).padStart(9)}  ${r.detail}`;
          }
        }
        cpuOf.get(step)!.push(cpu);
        wallOf.get(step)!.push(wall);
        console.log(line);
      }
    }
    const ok = (xs: number[]): number[] => xs.filter((x) => Number.isFinite(x));
    if (rounds > 1) {
      for (const step of steps) {
        const c = ok(cpuOf.get(step)!);
        const w = ok(wallOf.get(step)!);
        if (c.length)
          console.log(
            `${name.padEnd(16)} ${step.padEnd(9)} median of ${c.length}: ${median(c).toFixed(3)} cpu s, ${median(w).toFixed(3)} s wall`,
          );
      }
    }
    const ebnCpu = cpuOf.get('ebn');
    const ebnWall = wallOf.get('ebn');
    for (const k of ['kb10', 'kb100'] as const) {
      const c = cpuOf.get(k);
      const w = wallOf.get(k);
      if (!ebnCpu || !ebnWall || !c || !w) continue;
      // the ratio of each round (the two runs of that round side by side), then their median
      const cpuRatios = ok(c.map((v, i) => v / ebnCpu[i]));
      const wallRatios = ok(w.map((v, i) => v / ebnWall[i]));
      if (cpuRatios.length)
        console.log(
          `${name.padEnd(16)} ${k.toUpperCase()} / EBN: ${median(wallRatios).toFixed(2)} wall, ${median(cpuRatios).toFixed(2)} cpu` +
            (rounds > 1
              ? ` (median of ${cpuRatios.length} rounds; cpu ${cpuRatios.map((x) => x.toFixed(2)).join(' ')})`
              : ''),
        );
    }
    if (rounds > 1) console.log(`load average at the end: ${loadAverage()}`);
    if (steps.includes('ebn')) {
      if (bene) compareWithBene(name, script, bene, runs);
      else console.log(`${name.padEnd(16)} EBN vs bene: ${NO_COMPARISON} (give --bene DIR)`);
    }
  }
}

/** The data set in bene's format: .vd (a name and the value names per variable) and .idt (codes, tab-separated). */
function writeBeneFiles(data: DiscreteData, dir: string): { vd: string; idt: string } {
  const vd = join(dir, 'data.vd');
  const idt = join(dir, 'data.idt');
  const vars = [...data.labels.map((l) => l.length), data.classCard];
  writeFileSync(
    vd,
    vars.map((card, i) => [`v${i}`, ...Array.from({ length: card }, (_, k) => `s${k}`)].join('\t')).join('\n') + '\n',
  );
  const lines: string[] = [];
  for (let r = 0; r < data.n; r++) lines.push([...data.columns.map((c) => c[r]), data.classColumn[r]].join('\t'));
  writeFileSync(idt, lines.join('\n') + '\n');
  return { vd, idt };
}

/** EBN (ours, whole child process) and bene's data2net.sh (BDeu, ess 1) in turn; medians and both scores. */
function compareWithBene(name: string, script: string, bene: string, runs: number): void {
  const dir = mkdtempSync(join(tmpdir(), 'bnclab-bene-'));
  try {
    const { vd, idt } = writeBeneFiles(load(name), dir);
    const res = join(dir, 'res');
    const summaries = alternate(
      [
        [{ label: `bnclab EBN (${name})`, cmd: process.execPath, args: [script, '--child', name, 'ebn'] }],
        [
          {
            label: `bene data2net.sh (${name})`,
            cmd: 'bash',
            args: [join(bene, 'bin', 'data2net.sh'), vd, idt, '1', res],
            // bene's previous output set aside, not deleted: setAside says why.
            before: () => setAside(res, join(dir, 'trash')),
          },
        ],
      ],
      runs,
      (s) => process.stderr.write(`${name}:${s}\n`),
    );
    const ours = /score (-?[\d.]+)/.exec(summaries[0].runs[0].stdout)?.[1];
    const theirs = summaries[1].runs[0].stdout.trim().split('\n').pop();
    console.log(
      `\n${name}: EBN whole process, side by side with bene (median of ${runs}; best score ours ${ours}, bene ${theirs})`,
    );
    console.log(summaryTable(summaries));
    console.log(`load average at the end: ${loadAverage()}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
