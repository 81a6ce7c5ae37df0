/**
 * The jobs of a plan as a grid, not a list: seed × dataset × (repeat, fold) × method, in plan order. Job i
 * is made from its index when it is asked for (its key and seed computed then, exactly as the list would
 * hold them), so a plan of 10⁶ jobs holds its datasets, their non-empty folds and the method list, not 10⁶
 * job objects. `PlanOf.jobs` is built from the grid only when a command asks for the whole list.
 */
import type { ExperimentSpec, MethodSpec } from './load.js';
import type { DatasetHandle } from '../datasets/handle.js';
import { jobIdentities, type JobIdentity } from './job-key.js';
import { methodRevisions, type Revisions } from './revision.js';

/** Rows a job trains and tests on: those of its fold are tested, the rest (but EXCLUDED ones) trained on. */
export interface FoldSize {
  readonly train: number;
  readonly test: number;
}

/**
 * What a plan knows of a dataset without holding its rows: enough for the job keys, the cost model, `status`
 * and the report. Commands that run no learner plan with these alone (buildPlanSummary), from the cache when
 * the file is unchanged, instead of reading every dataset again.
 */
export interface PlannedDatasetSummary {
  readonly handle: DatasetHandle;
  readonly rows: number;
  readonly attributes: number;
  readonly classes: number;
  readonly splitKey: string;
  readonly repeats: number;
  readonly folds: number;
  /** foldSizes[repeat][fold]: a fold with no test rows (a fold file may leave one empty) has no jobs. */
  readonly foldSizes: readonly (readonly FoldSize[])[];
  /** The class column and each attribute's type as read (what `plan` and `run` report for a user's file). */
  readonly className: string;
  readonly columns: readonly {
    readonly name: string;
    readonly type: 'numeric' | 'categorical';
    readonly values: number;
  }[];
  /** A file named in the spec, not a shipped registry dataset: its class column and types are reported. */
  readonly userFile: boolean;
  /** How the class column was chosen: declared (`class:` or the registry) or the default rule. */
  readonly classDeclared: boolean;
  /** Class labels in code order. */
  readonly classLabels: readonly string[];
  /** Rows left out because their class value is missing. */
  readonly droppedRows: number;
  /** Column types and ignored columns declared in the spec's dataset entry: part of the job key. */
  readonly declaredColumns?: { readonly types: Readonly<Record<string, string>>; readonly ignore: readonly string[] };
}

export interface PlannedJobOf<D extends PlannedDatasetSummary> {
  readonly key: string;
  readonly seed: string;
  readonly dataset: D;
  readonly repeat: number;
  readonly fold: number;
  readonly method: MethodSpec;
  /** The keys this job had under older revisions of its method (src/spec/revision.ts); absent while all are 1. */
  readonly olderKeys?: readonly string[];
  /** The master seed this job runs under, in a multi-seed plan only (spec.seeds); its key holds it as `seed`. */
  readonly specSeed?: string;
}

/** One dataset under one master seed: its jobs are its non-empty (repeat, fold) pairs × the methods. */
interface Segment<D extends PlannedDatasetSummary> {
  readonly start: number;
  readonly size: number;
  readonly dataset: D;
  /** The spec (with this segment's seed) whose fields enter the key. */
  readonly spec: ExperimentSpec;
  /** Set in a multi-seed plan: the job's specSeed. */
  readonly specSeed?: string;
  /** [repeat, fold] of each fold with test rows, in plan order (a folds file may leave one empty). */
  readonly pairs: Int32Array;
  /** Per method index, its jobs' identities as a function of repeat and fold (made on first use). */
  readonly identities: ((repeat: number, fold: number) => JobIdentity)[];
}

export class JobGrid<D extends PlannedDatasetSummary> {
  private readonly segments: Segment<D>[] = [];
  private readonly methods: readonly MethodSpec[];
  private readonly revisions: readonly Revisions[];
  private size_ = 0;
  /** The segment last looked up: jobs are mostly asked for in order. */
  private last = 0;

  constructor(methods: readonly MethodSpec[]) {
    this.methods = methods;
    this.revisions = methods.map(methodRevisions);
  }

  /** Append a dataset's jobs under `spec` (its seed), after those already in the grid. */
  add(spec: ExperimentSpec, dataset: D, specSeed?: string): void {
    const pairs: number[] = [];
    for (let r = 0; r < dataset.repeats; r++)
      for (let f = 0; f < dataset.folds; f++) if (dataset.foldSizes[r][f].test > 0) pairs.push(r, f);
    const size = (pairs.length / 2) * this.methods.length;
    this.segments.push({
      start: this.size_,
      size,
      dataset,
      spec,
      pairs: Int32Array.from(pairs),
      identities: [],
      ...(specSeed !== undefined ? { specSeed } : {}),
    });
    this.size_ += size;
  }

  /** Append another grid's jobs (of the same methods), each under `specSeed`. */
  concat(other: JobGrid<D>, specSeed: string): void {
    for (const s of other.segments) {
      this.segments.push({ ...s, start: this.size_, specSeed, identities: [] });
      this.size_ += s.size;
    }
  }

  get size(): number {
    return this.size_;
  }

  get methodCount(): number {
    return this.methods.length;
  }

  /** Job i, as the plan's list holds it. */
  at(i: number): PlannedJobOf<D> {
    const { s, p, mi } = this.locate(i);
    return this.job(s, s.pairs[2 * p], s.pairs[2 * p + 1], mi);
  }

  /** Job i's segment, its (repeat, fold) pair within the segment and its method index. */
  private locate(i: number) {
    if (!(i >= 0 && i < this.size_)) throw new RangeError(`job ${i} is outside the grid of ${this.size_}`);
    const s = this.segmentOf(i);
    const local = i - s.start;
    const M = this.methods.length;
    const p = Math.floor(local / M);
    return { s, p, mi: local - p * M };
  }

  /** Job i's dataset, repeat, fold and method, without computing its key (what its static cost needs). */
  placeOf(i: number): { dataset: D; repeat: number; fold: number; method: MethodSpec; methodIndex: number } {
    const { s, p, mi } = this.locate(i);
    return {
      dataset: s.dataset,
      repeat: s.pairs[2 * p],
      fold: s.pairs[2 * p + 1],
      method: this.methods[mi],
      methodIndex: mi,
    };
  }

  /** The method index (into spec.methods) of job i, without computing its key. */
  methodIndexOf(i: number): number {
    const s = this.segmentOf(i);
    return (i - s.start) % this.methods.length;
  }

  /** Jobs from..to−1 in order. */
  *range(from = 0, to = this.size_): Generator<PlannedJobOf<D>> {
    for (let i = from; i < to; i++) yield this.at(i);
  }

  /** Every job, in plan order (what PlanOf.jobs holds). */
  toArray(): PlannedJobOf<D>[] {
    const out = new Array<PlannedJobOf<D>>(this.size_);
    for (let i = 0; i < this.size_; i++) out[i] = this.at(i);
    return out;
  }

  /** The distinct repeats and folds that have jobs (the run header's '5 repeats × 2 folds'). */
  repeatAndFoldCounts(): { repeats: number; folds: number } {
    const repeats = new Set<number>();
    const folds = new Set<number>();
    for (const s of this.segments) {
      if (s.size === 0) continue;
      for (let k = 0; k < s.pairs.length; k += 2) {
        repeats.add(s.pairs[k]);
        folds.add(s.pairs[k + 1]);
      }
    }
    return { repeats: repeats.size, folds: folds.size };
  }

  private segmentOf(i: number): Segment<D> {
    let k = this.last;
    const segs = this.segments;
    if (!(i >= segs[k].start && i < segs[k].start + segs[k].size)) {
      let lo = 0;
      let hi = segs.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (segs[mid].start <= i) lo = mid;
        else hi = mid - 1;
      }
      k = lo;
      // Empty segments share their start with the next one: move to the one that holds i.
      while (segs[k].size === 0 || i >= segs[k].start + segs[k].size) k++;
      this.last = k;
    }
    return segs[k];
  }

  /** The job's key and seed by the one rule (spec/job-key.ts). */
  private job(s: Segment<D>, r: number, f: number, mi: number): PlannedJobOf<D> {
    const d = s.dataset;
    const m = this.methods[mi];
    s.identities[mi] ??= jobIdentities(s.spec, d, m, this.revisions[mi]);
    const { key, seed, older } = s.identities[mi](r, f);
    const job = { key, seed, dataset: d, repeat: r, fold: f, method: m };
    const withOlder = older.length > 0 ? { ...job, olderKeys: older } : job;
    return s.specSeed !== undefined ? { ...withOlder, specSeed: s.specSeed } : withOlder;
  }
}
