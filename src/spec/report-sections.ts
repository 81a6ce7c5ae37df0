/**
 * The `compare:` and `reference:` sections of a spec: their JSON Schema (merged into the experiment schema)
 * and their parsed, defaulted form. Every setting that changes a number has a default here, and the report
 * prints the settings it used.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { SCORE_IDS, type ScoreId } from '../metrics/all.js';
import { ALL_PAIRS_PROCEDURES, BERGMANN_HOMMEL_MAX_K, type AllPairsProcedure } from '../stats/allpairs.js';
import type { PAdjustMethod } from '../stats/padjust.js';
import { UserError } from '../util/errors.js';
import { packageRoot } from '../util/paths.js';
import { closest } from '../util/text.js';
import { defineSection, type SchemaValue } from './section.js';

/** Metrics the statistical comparisons can use (per-dataset means over folds): the registry's scores. */
export type CompareMetric = ScoreId;
export const COMPARE_METRICS: readonly CompareMetric[] = SCORE_IDS;

type CompareTest =
  | 'friedman'
  | 'posthoc'
  | 'wilcoxon'
  | 'sign'
  | 'cd'
  | 'all-pairs'
  | 'resampled-t'
  | 'bayesian'
  | 'effect-size';
const COMPARE_TESTS: readonly CompareTest[] = [
  'friedman',
  'posthoc',
  'wilcoxon',
  'sign',
  'cd',
  'all-pairs',
  'resampled-t',
  'bayesian',
  'effect-size',
];
/** The tests a report runs when the spec does not list them (the others are turned on by naming them). */
export const DEFAULT_COMPARE_TESTS: readonly CompareTest[] = ['friedman', 'posthoc', 'wilcoxon', 'sign', 'cd'];

export interface SweepSpec {
  /** 'structure.<param>' or 'estimator.<param>'. */
  readonly parameter: string;
  /** The value every other value of the parameter is compared with. */
  readonly reference: unknown;
  /** Metric of the figure; null = every compared metric. */
  readonly metric: CompareMetric | null;
  /** Parameter on the horizontal axis when it is not the swept one (HDP Fig. 5: tying vs level, by iterations). */
  readonly x?: string;
}

export interface CompareSpec {
  readonly metrics: readonly CompareMetric[];
  /** A method label, or 'best' (lowest mean rank on the first metric). */
  readonly control: string;
  readonly alpha: number;
  readonly tests: readonly CompareTest[];
  readonly adjust: PAdjustMethod;
  /** Round per-dataset means to this many decimals before every test (a paper's printed precision). */
  readonly digits: number | null;
  readonly friedman: { readonly tieCorrection: boolean };
  readonly wilcoxon: {
    readonly zeroMethod: 'wilcox' | 'pratt' | 'zsplit';
    readonly correct: boolean;
    readonly exact: boolean | 'auto';
    readonly tieCorrection: boolean;
  };
  readonly sign: { readonly draws: 'drop' | 'split'; readonly tolerance: number };
  readonly cd: { readonly procedure: 'nemenyi' | 'bonferroni-dunn'; readonly df: 'infinity' | 'scmamp' };
  /** Pairs [a, b] for W/D/L, Wilcoxon and scatter plots; null = the control against every other method. */
  readonly pairs: readonly (readonly [string, string])[] | null;
  readonly scatter: boolean;
  readonly sweeps: readonly SweepSpec[];
  /** Learning curve over the experiments named (same database); null = no learning-curve figure. */
  readonly learningCurve: { readonly experiments: readonly string[]; readonly metric: CompareMetric | null } | null;
  /** Keys of jobs.structure_info tabulated per dataset × method (e.g. classParents, meanShd, apses). */
  readonly diagnostics: readonly string[];
  // The settings below are absent when the spec does not give them; read them through addedSettings().
  /** Test 'all-pairs': the adjustment procedures of the all-pairs p-value matrices. */
  readonly allPairs?: { readonly procedures: readonly AllPairsProcedure[] };
  /** Test 'bayesian': ROPE half-width (metric units), prior strength and posterior samples of the signed-rank test. */
  readonly bayesian?: { readonly rope: number; readonly prior: number; readonly samples: number };
  /** Test 'effect-size': bootstrap resamples and confidence level of the mean-difference interval. */
  readonly effectSize?: { readonly bootstrap: number; readonly level: number };
  /** Print cautions when N is too small for a test, and when the CD diagram and the post-hoc table disagree. */
  readonly cautions?: boolean;
}

type AddedSettings = Required<Pick<CompareSpec, 'allPairs' | 'bayesian' | 'effectSize' | 'cautions'>>;

export const DEFAULT_ADDED_SETTINGS: AddedSettings = {
  allPairs: { procedures: ['nemenyi', 'holm', 'shaffer', 'bergmann-hommel'] },
  bayesian: { rope: 0.01, prior: 0.5, samples: 50000 },
  effectSize: { bootstrap: 10000, level: 0.95 },
  cautions: true,
};

/** The settings of the added tests, defaulted. */
export function addedSettings(s: CompareSpec): AddedSettings {
  const d = DEFAULT_ADDED_SETTINGS;
  return {
    allPairs: s.allPairs ?? d.allPairs,
    bayesian: s.bayesian ?? d.bayesian,
    effectSize: s.effectSize ?? d.effectSize,
    cautions: s.cautions ?? d.cautions,
  };
}

export const DEFAULT_COMPARE: CompareSpec = {
  metrics: ['accuracy', 'rmse'],
  control: 'best',
  alpha: 0.05,
  tests: DEFAULT_COMPARE_TESTS,
  adjust: 'hommel',
  digits: null,
  friedman: { tieCorrection: true },
  wilcoxon: { zeroMethod: 'wilcox', correct: true, exact: 'auto', tieCorrection: true },
  sign: { draws: 'drop', tolerance: 0 },
  cd: { procedure: 'nemenyi', df: 'infinity' },
  pairs: null,
  scatter: true,
  sweeps: [],
  learningCurve: null,
  diagnostics: [],
};

export interface ReferenceSpec {
  /** Absolute path of the CSV file. */
  readonly file: string;
  /** The path as written in the spec. */
  readonly path: string;
  readonly title: string | null;
  /** Published method name → our method label. */
  readonly methods: Readonly<Record<string, string>>;
  /** Published dataset name → our dataset name. */
  readonly datasets: Readonly<Record<string, string>>;
  /** Our method label → how it differs from the published method it stands in for. */
  readonly substitutes: Readonly<Record<string, string>>;
  /** Published plain numbers are multiplied by this before comparison (0.01 for percentages); 'x%' is x/100. */
  readonly scale: number;
  /** A published cell is reproduced when |ours − published × scale| ≤ tolerance. */
  readonly tolerance: number;
}

const DEFAULT_REFERENCE_TOLERANCE = 0.01;
const DEFAULT_REFERENCE_SCALE = 1;

const metricEnum = { type: 'string', enum: [...COMPARE_METRICS] } as const;
const label = { type: 'string', minLength: 1 } as const;

/** The `compare:` section: its schema with defaults, and (SchemaValue) its type as a spec writes it. */
export const COMPARE = defineSection(compareSchema());

function compareSchema() {
  return {
    type: 'object',
    additionalProperties: false,
    description: 'Statistical comparisons, tables and figures of the report (docs/reports.md).',
    properties: {
      metrics: {
        type: 'array',
        minItems: 1,
        items: metricEnum,
        default: DEFAULT_COMPARE.metrics,
        description: 'Metrics compared (per-dataset means over folds).',
      },
      control: {
        ...label,
        default: DEFAULT_COMPARE.control,
        description: "Control method label for post-hoc tests, or 'best' (lowest mean rank on the first metric).",
      },
      alpha: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, default: DEFAULT_COMPARE.alpha },
      tests: {
        type: 'array',
        items: { type: 'string', enum: [...COMPARE_TESTS] },
        default: [...DEFAULT_COMPARE_TESTS],
        description:
          'Tests to run. all-pairs: all-pairs post-hoc p-value matrices; resampled-t: per-dataset corrected resampled t-test (and 5×2cv tests); bayesian: Bayesian signed-rank and correlated t-tests; effect-size: Cliff’s δ, Akinshin’s γ, mean difference with bootstrap CI.',
      },
      adjust: {
        type: 'string',
        enum: ['hommel', 'holm', 'hochberg', 'bonferroni', 'none'],
        default: DEFAULT_COMPARE.adjust,
        description: 'Family-wise p-value adjustment (R p.adjust).',
      },
      digits: {
        type: 'integer',
        minimum: 0,
        maximum: 20,
        description: 'Round per-dataset means to this many decimals before ranking and testing (default: no rounding).',
      },
      friedman: {
        type: 'object',
        additionalProperties: false,
        properties: {
          tie_correction: {
            type: 'boolean',
            default: DEFAULT_COMPARE.friedman.tieCorrection,
            description: 'true: R friedman.test; false: Demšar (2006), scmamp.',
          },
        },
      },
      wilcoxon: {
        type: 'object',
        additionalProperties: false,
        properties: {
          zero_method: {
            type: 'string',
            enum: ['wilcox', 'pratt', 'zsplit'],
            default: DEFAULT_COMPARE.wilcoxon.zeroMethod,
          },
          correct: {
            type: 'boolean',
            default: DEFAULT_COMPARE.wilcoxon.correct,
            description: 'Continuity correction of the normal approximation.',
          },
          exact: {
            enum: ['auto', true, false],
            default: DEFAULT_COMPARE.wilcoxon.exact,
            description: 'auto: exact when n < 50 without ties or zeros (R).',
          },
          tie_correction: { type: 'boolean', default: DEFAULT_COMPARE.wilcoxon.tieCorrection },
        },
      },
      sign: {
        type: 'object',
        additionalProperties: false,
        properties: {
          draws: {
            type: 'string',
            enum: ['drop', 'split'],
            default: DEFAULT_COMPARE.sign.draws,
            description: 'drop: n = wins + losses; split: Demšar (2006).',
          },
          tolerance: {
            type: 'number',
            minimum: 0,
            default: DEFAULT_COMPARE.sign.tolerance,
            description: 'Per-dataset means closer than this are a draw.',
          },
        },
      },
      cd: {
        type: 'object',
        additionalProperties: false,
        properties: {
          procedure: { type: 'string', enum: ['nemenyi', 'bonferroni-dunn'], default: DEFAULT_COMPARE.cd.procedure },
          df: {
            type: 'string',
            enum: ['infinity', 'scmamp'],
            default: DEFAULT_COMPARE.cd.df,
            description: 'Studentized-range df of the Nemenyi q (Demšar: infinity; scmamp: k(N−1)).',
          },
        },
      },
      pairs: {
        type: 'array',
        minItems: 1,
        description:
          'Pairs [a, b] (method labels) for W/D/L, Wilcoxon tables and scatter plots (default: control vs every other method).',
        items: { type: 'array', minItems: 2, maxItems: 2, items: label },
      },
      scatter: { type: 'boolean', default: DEFAULT_COMPARE.scatter },
      sweeps: {
        type: 'array',
        description:
          'Win/loss figures against a swept parameter: methods that differ only in it are compared with the method at the reference value.',
        items: {
          type: 'object',
          required: ['parameter', 'reference'],
          additionalProperties: false,
          properties: {
            parameter: { type: 'string', pattern: '^(structure|estimator)\\.[A-Za-z0-9_]+$' },
            reference: { type: ['number', 'string', 'boolean'] },
            metric: metricEnum,
            x: {
              type: 'string',
              pattern: '^(structure|estimator)\\.[A-Za-z0-9_]+$',
              description: 'Horizontal axis when not the swept parameter.',
            },
          },
        },
      },
      diagnostics: {
        type: 'array',
        description:
          'Structure diagnostics to tabulate per dataset and method (keys of what the structure learners store per job, e.g. classParents, meanShd, apses: SubbKB Tables 5, 7, 8).',
        items: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
        uniqueItems: true,
      },
      all_pairs: {
        type: 'object',
        additionalProperties: false,
        properties: {
          procedures: {
            type: 'array',
            minItems: 1,
            uniqueItems: true,
            items: { type: 'string', enum: [...ALL_PAIRS_PROCEDURES] },
            default: [...DEFAULT_ADDED_SETTINGS.allPairs.procedures],
            description:
              'Adjustments of the all-pairs matrices (García & Herrera 2008); bergmann-hommel is exact for at most 9 methods.',
          },
        },
      },
      bayesian: {
        type: 'object',
        additionalProperties: false,
        properties: {
          rope: {
            type: 'number',
            minimum: 0,
            default: DEFAULT_ADDED_SETTINGS.bayesian.rope,
            description: 'Region of practical equivalence: differences within ±rope (metric units) count as equal.',
          },
          prior: {
            type: 'number',
            exclusiveMinimum: 0,
            default: DEFAULT_ADDED_SETTINGS.bayesian.prior,
            description: 'Strength of the prior pseudo-observation at 0 of the signed-rank test (baycomp: 0.5).',
          },
          samples: {
            type: 'integer',
            minimum: 100,
            default: DEFAULT_ADDED_SETTINGS.bayesian.samples,
            description: 'Posterior samples of the signed-rank test.',
          },
        },
      },
      effect_size: {
        type: 'object',
        additionalProperties: false,
        properties: {
          bootstrap: {
            type: 'integer',
            minimum: 100,
            default: DEFAULT_ADDED_SETTINGS.effectSize.bootstrap,
            description: 'Bootstrap resamples of the mean-difference confidence interval.',
          },
          level: {
            type: 'number',
            exclusiveMinimum: 0,
            exclusiveMaximum: 1,
            default: DEFAULT_ADDED_SETTINGS.effectSize.level,
          },
        },
      },
      cautions: {
        type: 'boolean',
        default: DEFAULT_ADDED_SETTINGS.cautions,
        description:
          'Warn when there are too few datasets for a test, and explain disagreements between the CD diagram and the post-hoc table.',
      },
      learning_curve: {
        type: 'object',
        additionalProperties: false,
        description: 'Metric against training-set size (n_train) over experiments stored in the same database.',
        properties: {
          experiments: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
          metric: metricEnum,
        },
      },
    },
  } as const;
}

/** The `reference:` section: its schema with defaults, and (SchemaValue) its type as a spec writes it. */
export const REFERENCE = defineSection(referenceSchema());

function referenceSchema() {
  return {
    type: 'array',
    description:
      'CSV files of published numbers (cells: dataset,method,metric,value; W/D/L: metric,method_a,method_b,wins,draws,losses,significant) to put beside ours.',
    items: {
      anyOf: [
        { type: 'string', minLength: 1 },
        {
          type: 'object',
          required: ['file'],
          additionalProperties: false,
          properties: {
            file: { type: 'string', minLength: 1 },
            title: { type: 'string' },
            methods: {
              type: 'object',
              additionalProperties: { type: 'string', minLength: 1 },
              description: 'Published method name → our method label.',
            },
            datasets: {
              type: 'object',
              additionalProperties: { type: 'string', minLength: 1 },
              description: 'Published dataset name → ours.',
            },
            substitutes: {
              type: 'object',
              additionalProperties: { type: 'string', minLength: 1 },
              description:
                'Our method label → how it differs from the published method it stands in for; said beside every verdict of this file that reads it.',
            },
            scale: {
              type: 'number',
              exclusiveMinimum: 0,
              default: DEFAULT_REFERENCE_SCALE,
              description: 'Multiply published values by this (0.01 for percentages).',
            },
            tolerance: {
              type: 'number',
              minimum: 0,
              default: DEFAULT_REFERENCE_TOLERANCE,
              description: 'A cell is reproduced when |ours − published| ≤ tolerance.',
            },
          },
        },
      ],
    },
  } as const;
}

type At = (path: (string | number)[], atKey?: boolean) => string;

interface MethodLike {
  readonly label: string;
  readonly kind: string;
  readonly structure: { readonly id: string; readonly params: Readonly<Record<string, unknown>> };
  readonly estimator: { readonly id: string; readonly params: Readonly<Record<string, unknown>> } | null;
}

function knownLabel(labels: readonly string[], value: string, where: string, field: string): string {
  if (value === 'best' && field.endsWith('control')) return value;
  if (labels.includes(value)) return value;
  const near = closest(value, labels);
  throw new UserError(
    `${where}: ${field}: no method labelled '${value}'${near ? ` (did you mean '${near}'?)` : ''}; methods: ${labels.join(', ')}`,
  );
}

/** The `compare:` section as a spec writes it (schema-checked). */
type CompareSection = SchemaValue<typeof COMPARE.schema>;
/** The `reference:` section as a spec writes it (schema-checked). */
type ReferenceSection = SchemaValue<typeof REFERENCE.schema>;

/** The `compare:` section (already schema-checked) with defaults, method labels checked against the spec. */
export function parseCompare(c: CompareSection | undefined, methods: readonly MethodLike[], at: At): CompareSpec {
  if (c === undefined) return DEFAULT_COMPARE;
  const labels = methods.map((m) => m.label);
  const control =
    c.control === undefined ? 'best' : knownLabel(labels, c.control, at(['compare', 'control']), 'compare.control');
  const pairs = c.pairs?.map((p, i) => {
    const a = knownLabel(labels, p[0], at(['compare', 'pairs', i, 0]), `compare.pairs[${i}][0]`);
    const b = knownLabel(labels, p[1], at(['compare', 'pairs', i, 1]), `compare.pairs[${i}][1]`);
    if (a === b)
      throw new UserError(`${at(['compare', 'pairs', i])}: compare.pairs[${i}]: compares '${a}' with itself`);
    return [a, b] as const;
  });
  const paramValues = (path: string): unknown[] => {
    const [part, param] = path.split('.');
    return methods.flatMap((m) => {
      const choice = part === 'structure' ? (m.kind === 'bnc' ? m.structure : null) : m.estimator;
      return choice && param in choice.params ? [choice.params[param]] : [];
    });
  };
  const sweeps = (c.sweeps ?? []).map((s, i) => {
    const values = paramValues(s.parameter);
    const [part, param] = s.parameter.split('.');
    if (values.length === 0) {
      throw new UserError(
        `${at(['compare', 'sweeps', i, 'parameter'])}: compare.sweeps[${i}].parameter: no method of this spec has ${part} parameter '${param}'`,
      );
    }
    if (!values.some((v) => v === s.reference)) {
      throw new UserError(
        `${at(['compare', 'sweeps', i, 'reference'])}: compare.sweeps[${i}].reference: no method has ${s.parameter} = ${JSON.stringify(s.reference)} (values: ${[...new Set(values.map((v) => JSON.stringify(v)))].join(', ')})`,
      );
    }
    if (s.x !== undefined && paramValues(s.x).length === 0) {
      throw new UserError(
        `${at(['compare', 'sweeps', i, 'x'])}: compare.sweeps[${i}].x: no method of this spec has parameter '${s.x}'`,
      );
    }
    return {
      parameter: s.parameter,
      reference: s.reference,
      metric: s.metric ?? null,
      ...(s.x !== undefined ? { x: s.x } : {}),
    };
  });
  const lc = c.learning_curve;
  const f = c.friedman ?? {};
  const w = c.wilcoxon ?? {};
  const s = c.sign ?? {};
  const cd = c.cd ?? {};
  const d = DEFAULT_COMPARE;
  const allPairs = c.all_pairs ?? {};
  const bayesian = c.bayesian ?? {};
  const effectSize = c.effect_size ?? {};
  const tests = dedupe(c.tests ?? d.tests);
  const da = DEFAULT_ADDED_SETTINGS;
  if (
    tests.includes('all-pairs') &&
    (allPairs.procedures ?? da.allPairs.procedures).includes('bergmann-hommel') &&
    methods.length > BERGMANN_HOMMEL_MAX_K
  ) {
    throw new UserError(
      `${at(allPairs.procedures ? ['compare', 'all_pairs', 'procedures'] : ['compare', 'tests'])}: compare.all_pairs.procedures: bergmann-hommel is exact only for at most ${BERGMANN_HOMMEL_MAX_K} methods and this spec has ${methods.length}; list the procedures without it (shaffer is the closest)`,
    );
  }
  return {
    metrics: dedupe(c.metrics ?? d.metrics),
    control,
    alpha: c.alpha ?? d.alpha,
    tests,
    adjust: c.adjust ?? d.adjust,
    digits: c.digits ?? d.digits,
    friedman: { tieCorrection: f.tie_correction ?? d.friedman.tieCorrection },
    wilcoxon: {
      zeroMethod: w.zero_method ?? d.wilcoxon.zeroMethod,
      correct: w.correct ?? d.wilcoxon.correct,
      exact: w.exact ?? d.wilcoxon.exact,
      tieCorrection: w.tie_correction ?? d.wilcoxon.tieCorrection,
    },
    sign: { draws: s.draws ?? d.sign.draws, tolerance: s.tolerance ?? d.sign.tolerance },
    cd: { procedure: cd.procedure ?? d.cd.procedure, df: cd.df ?? d.cd.df },
    pairs: pairs ?? null,
    scatter: c.scatter ?? d.scatter,
    sweeps,
    learningCurve: lc ? { experiments: lc.experiments ?? [], metric: lc.metric ?? null } : null,
    diagnostics: c.diagnostics ?? d.diagnostics,
    ...(c.all_pairs !== undefined ? { allPairs: { procedures: allPairs.procedures ?? da.allPairs.procedures } } : {}),
    ...(c.bayesian !== undefined
      ? {
          bayesian: {
            rope: bayesian.rope ?? da.bayesian.rope,
            prior: bayesian.prior ?? da.bayesian.prior,
            samples: bayesian.samples ?? da.bayesian.samples,
          },
        }
      : {}),
    ...(c.effect_size !== undefined
      ? {
          effectSize: {
            bootstrap: effectSize.bootstrap ?? da.effectSize.bootstrap,
            level: effectSize.level ?? da.effectSize.level,
          },
        }
      : {}),
    ...(c.cautions !== undefined ? { cautions: c.cautions } : {}),
  };
}

/**
 * The `reference:` section: each file resolved against the spec's folder, or by bare name in bnclab's
 * experiments/reference/ folder; method mappings checked against the spec's labels.
 */
export function parseReference(
  section: ReferenceSection | undefined,
  methods: readonly MethodLike[],
  dir: string,
  at: At,
): ReferenceSpec[] {
  if (section === undefined) return [];
  const labels = methods.map((m) => m.label);
  return section.map((entry, i) => {
    const o = typeof entry === 'string' ? { file: entry } : entry;
    const where = typeof entry === 'string' ? ['reference', i] : ['reference', i, 'file'];
    const file = resolveReferenceFile(o.file, dir);
    if (!file) {
      throw new UserError(
        `${at(where)}: reference[${i}].file: no such file '${o.file}' (looked in ${dir} and bnclab's experiments/reference/)`,
      );
    }
    for (const [pub, ours] of Object.entries(o.methods ?? {})) {
      knownLabel(labels, ours, at(['reference', i, 'methods', pub]), `reference[${i}].methods.${pub}`);
    }
    for (const ours of Object.keys(o.substitutes ?? {})) {
      knownLabel(labels, ours, at(['reference', i, 'substitutes', ours], true), `reference[${i}].substitutes`);
    }
    return {
      file,
      path: o.file,
      title: o.title ?? null,
      methods: o.methods ?? {},
      datasets: o.datasets ?? {},
      substitutes: o.substitutes ?? {},
      scale: o.scale ?? DEFAULT_REFERENCE_SCALE,
      tolerance: o.tolerance ?? DEFAULT_REFERENCE_TOLERANCE,
    };
  });
}

function resolveReferenceFile(path: string, dir: string): string | undefined {
  const candidates = isAbsolute(path)
    ? [path]
    : [resolve(dir, path), resolve(packageRoot(), 'experiments', 'reference', path), resolve(packageRoot(), path)];
  return candidates.find((p) => existsSync(p));
}

function dedupe<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
