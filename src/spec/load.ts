/**
 * YAML spec → validated, normalised ExperimentSpec. Every problem is a UserError of one line:
 * "<file>:<line>:<col>: <field>: <what is wrong>".
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { LineCounter, parseDocument, isMap, isSeq, isScalar, type Document, type Node } from 'yaml';
import { experimentSchema } from './schema.js';
import { compileSchema } from './validator.js';
import {
  compatible,
  getBaseline,
  getEstimator,
  getStructure,
  incompatibility,
  listBaselines,
  listEstimators,
  listStructures,
  withDefaults,
  type MethodInfo,
  type Params,
} from '../registry.js';
import { UserError } from '../util/errors.js';
import { defaultResampling, type ResamplingSpec } from '../folds/resampling.js';
import { closest } from '../util/text.js';
import { canonicalJson } from '../util/hash.js';
import { parseCompare, parseReference, type CompareSpec, type ReferenceSpec } from './report-sections.js';
import { withFileHashes } from './files.js';
import { parseSelect, type SelectSpec } from './select.js';
import '../methods.js'; // the registry must be complete before a spec is checked against it

import type { DiscretizeMethod } from '../datasets/discretize.js';
import type { MissingPolicy, PreprocessOptions } from '../datasets/preprocess.js';
import { EM_DEFAULTS, type EmSettings } from '../bn/em.js';

/** The spec's `preprocessing:` section is exactly what the preprocessing pipeline takes. */
export type PreprocessingSpec = PreprocessOptions;

export interface DatasetRef {
  /** A registry name or group, or a file path (resolved against the spec's folder). */
  readonly ref: string;
  readonly file?: string;
  readonly name?: string;
  readonly classColumn?: string;
  /** Column types declared in the spec's dataset entry (override what the reader would infer). */
  readonly columnTypes?: Readonly<Record<string, 'numeric' | 'categorical'>>;
  /** Columns the spec's dataset entry leaves out. */
  readonly ignore?: readonly string[];
  /** Where the reference stands in the spec, for error messages. */
  readonly where: string;
}

export interface MethodChoice {
  readonly id: string;
  /** Full parameters: defaults overlaid with the spec's values (after sweep expansion). */
  readonly params: Params;
  /** The parameters the spec set that the label shows: those not equal to their default, and every swept one. */
  readonly given: Params;
  /** The `name` of a {id, params, name} reference (a baseline's label). */
  readonly name?: string;
}

/**
 * One method of the grid: a structure learner with an estimator, or a baseline classifier (then
 * `structure` holds the baseline's id and parameters and `estimator` is null).
 */
export interface MethodSpec {
  readonly kind: 'bnc' | 'baseline';
  readonly structure: MethodChoice;
  readonly estimator: MethodChoice | null;
  /** Readable, unique label, e.g. "tan/dirichlet", "kdb(k=2)/dirichlet(alpha=0.5)" or "random-forest". */
  readonly label: string;
  /** Parameters chosen by inner cross-validation on each training fold (`select:`). */
  readonly select?: SelectSpec;
}

export interface ExperimentSpec {
  readonly name: string;
  readonly description: string;
  readonly seed: string;
  /**
   * The master seeds of a multi-seed experiment (`seeds:` or `run --seeds N`), the first equal to `seed`;
   * absent for one seed, so a single-seed spec's content (and specHash) is as it was.
   */
  readonly seeds?: readonly string[];
  readonly datasets: readonly DatasetRef[];
  readonly preprocessing: PreprocessingSpec;
  readonly resampling: ResamplingSpec;
  readonly methods: readonly MethodSpec[];
  readonly savePredictions: boolean;
  /** The report's statistical comparisons (`compare:`), defaults filled in. */
  readonly compare: CompareSpec;
  /** Published numbers to put beside ours (`reference:`). */
  readonly reference: readonly ReferenceSpec[];
  /** Folder of the spec file; relative paths in the spec resolve against it. */
  readonly dir: string;
  readonly file: string;
  /** Spec elements without effect (an exclude that removes nothing, a method listed twice): `plan` and `run` print them. */
  readonly warnings?: readonly string[];
}

export interface LoadedSpec {
  readonly spec: ExperimentSpec;
  readonly text: string;
}

let validator: ValidateFunction | undefined;

function getValidator(): ValidateFunction {
  if (!validator) {
    // verbose: errors carry their schema, so an unknown field can be matched against the known ones.
    validator = compileSchema(experimentSchema(false), true, true);
  }
  return validator;
}

/** Read, parse and validate a spec file. */
export function loadSpecFile(file: string): LoadedSpec {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'a folder, not a file'
          : code === 'EACCES' || code === 'EPERM'
            ? `permission denied (${code})`
            : ((e as Error).message.split('\n')[0] ?? String(code));
    throw new UserError(`${file}: cannot read the spec file: ${why}`);
  }
  return { spec: parseSpec(text, file), text };
}

export function parseSpec(text: string, file: string): ExperimentSpec {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const pos = lineCounter.linePos(e.pos[0]);
    const msg = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new UserError(`${file}:${pos.line}:${pos.col}: YAML syntax error: ${msg}`);
  }
  let raw: unknown;
  try {
    // The yaml library refuses documents whose aliases expand exponentially (a "YAML bomb").
    raw = doc.toJS() as unknown;
  } catch (e) {
    throw new UserError(`${file}:1:1: the YAML cannot be expanded: ${(e as Error).message.split('\n')[0]}`);
  }
  const at = (path: (string | number)[], atKey = false): string => {
    const { line, col } = locate(doc, lineCounter, path, atKey);
    return `${file}:${line}:${col}`;
  };
  const nonFinite = findNonFinite(raw, []);
  if (nonFinite) {
    throw new UserError(
      `${at(nonFinite.path)}: ${fieldName(nonFinite.path) || '(top level)'}: must be a finite number, got ${String(nonFinite.value)}`,
    );
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new UserError(`${file}:1:1: the spec must be a YAML mapping (name:, datasets:, structures:, ...)`);
  }
  const validate = getValidator();
  if (!validate(raw)) {
    const err = pickError(validate.errors ?? []);
    const path = pointerToPath(err.instancePath);
    let field = fieldName(path);
    let where = path;
    let what = err.message ?? 'is invalid';
    if (err.keyword === 'additionalProperties') {
      const extra = (err.params as { additionalProperty: string }).additionalProperty;
      where = [...path, extra];
      field = fieldName(where);
      const known = Object.keys(
        ((err.parentSchema ?? {}) as { properties?: Record<string, unknown> }).properties ?? {},
      );
      const near = closest(extra, known);
      what = `unknown field${near ? ` (did you mean '${near}'?)` : known.length ? ` (known: ${known.join(', ')})` : ''}`;
    } else if (err.keyword === 'required') {
      const missing = (err.params as { missingProperty: string }).missingProperty;
      field = fieldName([...path, missing]);
      what = 'is required';
    } else if (err.keyword === 'enum') {
      const allowed = (err.params as { allowedValues: unknown[] }).allowedValues;
      what = `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`;
    }
    throw new UserError(`${at(where, err.keyword === 'additionalProperties')}: ${field || '(top level)'}: ${what}`);
  }
  const spec = raw as Record<string, unknown>;
  const dir = dirname(resolve(file));

  const datasets: DatasetRef[] = (spec['datasets'] as unknown[]).map((d, i) => {
    const where = `${at(['datasets', i])}: datasets[${i}]`;
    if (typeof d === 'string') return { ref: d, where };
    const o = d as {
      file: string;
      name?: string;
      class?: string;
      categorical?: string[];
      numeric?: string[];
      ignore?: string[];
    };
    const types: Record<string, 'numeric' | 'categorical'> = {};
    for (const c of o.categorical ?? []) types[c] = 'categorical';
    for (const c of o.numeric ?? []) {
      if (types[c]) throw new UserError(`${where}.numeric: column '${c}' is declared both categorical and numeric`);
      types[c] = 'numeric';
    }
    for (const c of o.ignore ?? []) {
      if (types[c] || c === o.class) throw new UserError(`${where}.ignore: column '${c}' is both ignored and declared`);
    }
    return {
      ref: o.file,
      file: resolve(dir, o.file),
      name: o.name,
      classColumn: o.class,
      where,
      ...(Object.keys(types).length > 0 ? { columnTypes: types } : {}),
      ...(o.ignore && o.ignore.length > 0 ? { ignore: o.ignore } : {}),
    };
  });

  const pre = (spec['preprocessing'] ?? {}) as {
    discretize?: unknown;
    missing?: MissingPolicy;
    em?: Partial<EmSettings>;
  };
  const disc = pre.discretize ?? 'mdl';
  const preprocessing: PreprocessingSpec = {
    discretize:
      typeof disc === 'string'
        ? { method: disc as DiscretizeMethod }
        : { method: (disc as { method: DiscretizeMethod }).method, bins: (disc as { bins?: number }).bins },
    missing: pre.missing ?? 'as-value',
    // Only under missing: em, so that the keys of every other job stay as they were.
    ...(pre.missing === 'em' ? { em: { ...EM_DEFAULTS, ...pre.em } } : {}),
  };
  if (pre.em !== undefined && pre.missing !== 'em') {
    throw new UserError(`${at(['preprocessing', 'em'])}: preprocessing.em: only applies to missing: em`);
  }
  if (preprocessing.discretize.bins !== undefined && preprocessing.discretize.method !== 'equal-frequency') {
    throw new UserError(
      `${at(['preprocessing', 'discretize', 'bins'])}: preprocessing.discretize.bins: only applies to equal-frequency`,
    );
  }

  const rs = (spec['resampling'] ?? {}) as Partial<ResamplingSpec>;
  const resampling: ResamplingSpec = { ...defaultResampling, ...rs };
  if (resampling.method === 'holdout' && rs.folds !== undefined) {
    throw new UserError(`${at(['resampling', 'folds'])}: resampling.folds: holdout has no folds (use test_fraction)`);
  }

  const structures = expandList(spec, 'structures', 'structure', at);
  const estimators = expandList(spec, 'estimators', 'estimator', at);
  if ((structures === undefined) !== (estimators === undefined)) {
    const missing = structures === undefined ? 'structures' : 'estimators';
    throw new UserError(
      `${at([])}: ${missing}: is required when ${missing === 'structures' ? 'estimators' : 'structures'} is given`,
    );
  }
  const baselines = expandList(spec, 'baselines', 'baseline', at) ?? [];
  if (structures === undefined && spec['methods'] === undefined && baselines.length === 0) {
    throw new UserError(`${at([])}: structures: give structures and estimators, methods, or baselines`);
  }
  const warnings: string[] = [];
  const pairs: {
    s: MethodChoice;
    e: MethodChoice;
    name?: string;
    where: string;
    fromProduct: boolean;
    select?: SelectSpec;
  }[] = [];
  if (structures && estimators) {
    for (const s of structures)
      for (const e of estimators) pairs.push({ s, e, where: `${at(['estimators'])}: estimators`, fromProduct: true });
  }
  ((spec['methods'] ?? []) as { structure: unknown; estimator: unknown; name?: string; select?: unknown }[]).forEach(
    (m, i) => {
      const ss = expandRef(m.structure, 'structure', ['methods', i, 'structure'], at);
      const es = expandRef(m.estimator, 'estimator', ['methods', i, 'estimator'], at);
      for (const s of ss) {
        for (const e of es) {
          const sides = {
            structure: { choice: s, info: getStructure(s.id)! },
            estimator: { choice: e, info: getEstimator(e.id)! },
          };
          const select =
            m.select === undefined
              ? undefined
              : parseSelect(m.select, sides, checkParams, `${at(['methods', i, 'select'])}: methods[${i}].select`);
          pairs.push({
            s,
            e,
            name: ss.length * es.length === 1 ? m.name : undefined,
            where: `${at(['methods', i])}: methods[${i}]`,
            fromProduct: false,
            select,
          });
        }
      }
    },
  );
  const excludes = (spec['exclude'] ?? []) as { structure?: string; estimator?: string }[];
  excludes.forEach((x, i) => {
    if (x.structure !== undefined)
      knownId('structure', x.structure, at(['exclude', i, 'structure']), `exclude[${i}].structure`);
    if (x.estimator !== undefined)
      knownId('estimator', x.estimator, at(['exclude', i, 'estimator']), `exclude[${i}].estimator`);
  });
  // exclude: removes pairs of the structures × estimators product only; a pair listed under methods: is
  // there because the user asked for it by name.
  const excludes_ = (p: (typeof pairs)[number], x: { structure?: string; estimator?: string }): boolean =>
    p.fromProduct && (x.structure ?? p.s.id) === p.s.id && (x.estimator ?? p.e.id) === p.e.id;
  excludes.forEach((x, i) => {
    if (!pairs.some((p) => excludes_(p, x))) {
      warnings.push(
        `${at(['exclude', i])}: exclude[${i}]: removes nothing from the product of structures × estimators (exclude does not act on methods:)`,
      );
    }
  });
  const kept = pairs.filter((p) => !excludes.some((x) => excludes_(p, x)));
  for (const p of kept) {
    const e = getEstimator(p.e.id)!;
    if (!compatible(e, p.s.id)) {
      throw new UserError(
        `${p.where}: estimator '${p.e.id}' does not apply to structure '${p.s.id}' (${incompatibility(e, p.s.id)}); ` +
          (p.fromProduct ? `add {structure: ${p.s.id}, estimator: ${p.e.id}} to exclude:` : 'remove it from methods:'),
      );
    }
    if (preprocessing.missing === 'em' && !e.pseudoCount) {
      throw new UserError(
        `${p.where}: estimator '${p.e.id}' cannot be fitted by EM (missing: em needs a conditional-table estimator: mle, dirichlet or eap); use another missing policy for it`,
      );
    }
  }
  if (kept.length === 0 && baselines.length === 0)
    throw new UserError(`${at(['exclude'])}: exclude: leaves no method to run`);

  const methods: MethodSpec[] = [];
  const seen = new Map<string, string>();
  const labelOf = new Map<string, string>(); // identity → the label it runs under
  const candidates: {
    kind: 'bnc' | 'baseline';
    s: MethodChoice;
    e: MethodChoice | null;
    label: string;
    select?: SelectSpec;
  }[] = [
    ...kept.map((p) => ({
      kind: 'bnc' as const,
      s: p.s,
      e: p.e,
      label: p.name ?? `${choiceLabel(p.s)}/${choiceLabel(p.e)}`,
      select: p.select,
    })),
    ...baselines.map((b) => ({ kind: 'baseline' as const, s: b, e: null, label: b.name ?? choiceLabel(b) })),
  ];
  for (const p of candidates) {
    const label = p.label;
    const identity = JSON.stringify([p.kind, p.s.id, p.s.params, p.e?.id, p.e?.params, p.select]);
    if (seen.has(label)) {
      if (seen.get(label) === identity) {
        warnings.push(`${at(['methods'])}: method '${label}' is listed more than once; it runs once`);
        continue;
      }
      throw new UserError(
        `${at(['methods'])}: methods: two different methods are both labelled '${label}'; give them names`,
      );
    }
    const twin = labelOf.get(identity);
    if (twin !== undefined) {
      // Same learner and parameters once defaults are filled in, e.g. [{dirichlet: {alpha: 1}}, dirichlet]:
      // the same job keys, so it runs once.
      warnings.push(
        `${at(['methods'])}: method '${label}' is the same as '${twin}' (equal parameters once defaults are filled in); it runs once, as '${twin}'`,
      );
      continue;
    }
    seen.set(label, identity);
    labelOf.set(identity, label);
    const info = p.kind === 'baseline' ? getBaseline(p.s.id)! : getStructure(p.s.id)!;
    const structure = { ...p.s, params: withFileHashes(info, p.s.params, dir) };
    const estimator = p.e ? { ...p.e, params: withFileHashes(getEstimator(p.e.id)!, p.e.params, dir) } : null;
    methods.push({ kind: p.kind, structure, estimator, label, ...(p.select ? { select: p.select } : {}) });
  }

  return {
    name: spec['name'] as string,
    description: (spec['description'] as string | undefined) ?? '',
    ...seedsOf(spec, at),
    datasets,
    preprocessing,
    resampling,
    methods,
    savePredictions: (spec['save_predictions'] as boolean | undefined) ?? false,
    compare: parseCompare(spec['compare'], methods, at),
    reference: parseReference(spec['reference'], methods, dir, at),
    dir,
    file,
    warnings,
  };
}

type At = (path: (string | number)[], atKey?: boolean) => string;

/** `seed:` or `seeds:` (not both): the first seed, and the list when it has more than one. */
function seedsOf(spec: Record<string, unknown>, at: At): { seed: string; seeds?: readonly string[] } {
  const list = spec['seeds'] as (number | string)[] | undefined;
  if (list === undefined) return { seed: String(spec['seed'] ?? 1) };
  if (spec['seed'] !== undefined) {
    throw new UserError(
      `${at(['seeds'], true)}: seeds: give either seed: or seeds:, not both (seed: s is seeds: [s]; the first of seeds: is the seed of the usual tables)`,
    );
  }
  const seeds = list.map(String);
  if (new Set(seeds).size < seeds.length) {
    throw new UserError(`${at(['seeds'])}: seeds: lists a seed twice (1 and '1' are the same seed)`);
  }
  return seeds.length > 1 ? { seed: seeds[0]!, seeds } : { seed: seeds[0]! };
}

/**
 * `run --seeds N` (also plan and report): the spec's seed and the N − 1 integers after it, e.g. seed 7 and
 * --seeds 3 → 7, 8, 9. The spec's seed must be an integer, and the spec must not list seeds: itself.
 */
export function withSeedCount(spec: ExperimentSpec, n: number | undefined): ExperimentSpec {
  if (n === undefined) return spec;
  if (spec.seeds !== undefined) {
    throw new UserError(`--seeds: the spec ${spec.file} lists seeds: already; give the seeds in one place`);
  }
  if (!/^-?\d+$/.test(spec.seed) || !Number.isSafeInteger(Number(spec.seed))) {
    throw new UserError(
      `--seeds: the spec's seed '${spec.seed}' is not an integer, so there are no seeds after it; list them with seeds: [...]`,
    );
  }
  const first = Number(spec.seed);
  if (n === 1) return spec;
  return { ...spec, seeds: Array.from({ length: n }, (_, i) => String(first + i)) };
}

/** The first number that is not finite (YAML's .inf, -.inf, .nan): JSON Schema's `number` lets them through. */
function findNonFinite(
  v: unknown,
  path: (string | number)[],
): { path: (string | number)[]; value: number } | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : { path, value: v };
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const hit = findNonFinite(v[i], [...path, i]);
      if (hit) return hit;
    }
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const hit = findNonFinite(x, [...path, k]);
      if (hit) return hit;
    }
  }
  return undefined;
}

type Kind = 'structure' | 'estimator' | 'baseline';

function expandList(
  spec: Record<string, unknown>,
  key: 'structures' | 'estimators' | 'baselines',
  kind: Kind,
  at: At,
): MethodChoice[] | undefined {
  const list = spec[key] as unknown[] | undefined;
  if (list === undefined) return undefined;
  return list.flatMap((ref, i) => expandRef(ref, kind, [key, i], at));
}

/** Estimators the docs call by their textbook name (README: "Laplace estimates"), and how a spec writes them. */
const ESTIMATOR_BY_NAME: Readonly<Record<string, string>> = {
  laplace: "the Laplace estimate is the dirichlet estimator with alpha 1: '- dirichlet: { alpha: 1 }'",
  lidstone: "Lidstone's estimate is the dirichlet estimator with alpha < 1: '- dirichlet: { alpha: 0.5 }'",
  ml: "maximum likelihood is 'mle' (or dirichlet with alpha 0)",
  bdeu: "BDeu-consistent parameters are the 'eap' estimator",
};

function knownId(kind: Kind, id: string, where: string, field: string): MethodInfo {
  const info = kind === 'structure' ? getStructure(id) : kind === 'estimator' ? getEstimator(id) : getBaseline(id);
  if (!info) {
    const known = (
      kind === 'structure' ? listStructures() : kind === 'estimator' ? listEstimators() : listBaselines()
    ).map((m) => m.id);
    const near = closest(id, known);
    const named = kind === 'estimator' ? ESTIMATOR_BY_NAME[id.toLowerCase()] : undefined;
    const hint = named ? ` (${named})` : near ? ` (did you mean '${near}'?)` : '';
    throw new UserError(`${where}: ${field}: unknown ${kind} '${id}'${hint}; known: ${known.join(', ')}`);
  }
  return info;
}

/** One spec entry → the methods it denotes (several when a parameter is a sweep). */
function expandRef(ref: unknown, kind: Kind, path: (string | number)[], at: At): MethodChoice[] {
  let id: string;
  let params: Record<string, unknown>;
  let paramsPath: (string | number)[];
  if (typeof ref === 'string') {
    id = ref;
    params = {};
    paramsPath = path;
  } else {
    const o = ref as Record<string, unknown>;
    if (typeof o['id'] === 'string') {
      id = o['id'];
      params = (o['params'] as Record<string, unknown> | undefined) ?? {};
      paramsPath = [...path, 'params'];
    } else {
      id = Object.keys(o)[0]!;
      params = (o[id] as Record<string, unknown> | null) ?? {};
      paramsPath = [...path, id];
    }
  }
  const field = fieldName(path);
  const info = knownId(
    kind,
    id,
    at(typeof ref === 'string' || typeof (ref as Record<string, unknown>)['id'] === 'string' ? path : [...path, id]),
    field,
  );
  const schemaProps = (info.params['properties'] ?? {}) as Record<string, { type?: unknown }>;
  // A list value is a sweep unless the parameter itself takes a list.
  const axes: [string, unknown[]][] = Object.entries(params).map(([k, v]) => {
    const takesArray = schemaProps[k] && JSON.stringify(schemaProps[k]!.type ?? '').includes('array');
    return [k, Array.isArray(v) && !takesArray ? v : [v]];
  });
  let combos: Record<string, unknown>[] = [{}];
  for (const [k, values] of axes) {
    // A new array, not splice(…, ...next): spreading 200,000 values as arguments overflowed the stack.
    const next: Record<string, unknown>[] = [];
    for (const c of combos) for (const v of values) next.push({ ...c, [k]: v });
    combos = next;
  }
  const validate = paramValidator(info);
  const refName =
    typeof ref === 'object' && ref !== null && typeof (ref as Record<string, unknown>)['name'] === 'string'
      ? ((ref as Record<string, unknown>)['name'] as string)
      : undefined;
  return combos.map((given) => {
    const full = withDefaults(info, given);
    if (!validate(full)) {
      const err = validate.errors![0]!;
      let key = pointerToPath(err.instancePath)[0] as string | undefined;
      let what = err.message ?? 'is invalid';
      if (err.keyword === 'additionalProperties') {
        key = (err.params as { additionalProperty: string }).additionalProperty;
        const known = Object.keys(schemaProps);
        what = `unknown parameter of ${kind} '${id}'${known.length ? ` (known: ${known.join(', ')})` : ' (it takes none)'}`;
      } else if (err.keyword === 'enum') {
        what = `must be one of ${(err.params as { allowedValues: unknown[] }).allowedValues.map((a) => JSON.stringify(a)).join(', ')}`;
      }
      const where = key !== undefined && key in params ? [...paramsPath, key] : paramsPath;
      throw new UserError(`${at(where, err.keyword === 'additionalProperties')}: ${fieldName(where)}: ${what}`);
    }
    // The label shows a parameter only where it says something: a value other than the default, or a swept
    // one. So `m-estimate: {m: 1}` (m's default) is the method `m-estimate`, the same label as writing nothing.
    const shown = Object.fromEntries(
      Object.entries(given).filter(
        ([k, v]) =>
          (axes.find(([a]) => a === k)?.[1].length ?? 1) > 1 || canonicalJson(v) !== canonicalJson(info.defaults[k]),
      ),
    );
    return { id, params: full, given: shown, name: combos.length === 1 ? refName : undefined };
  });
}

/** The first schema error of a method's full parameters, as a short phrase; undefined when they are valid. */
function checkParams(info: MethodInfo, params: Params): string | undefined {
  const validate = paramValidator(info);
  if (validate(params)) return undefined;
  const err = validate.errors![0]!;
  return `${err.instancePath.replace(/^\//, '') || 'params'} ${err.message ?? 'is invalid'}`;
}

const paramValidators = new Map<string, ValidateFunction>();
function paramValidator(info: MethodInfo): ValidateFunction {
  const key = `${info.id}`;
  let v = paramValidators.get(key);
  if (!v) {
    v = compileSchema({ additionalProperties: false, ...info.params, type: 'object' }, false);
    paramValidators.set(key, v);
  }
  return v;
}

function choiceLabel(c: MethodChoice): string {
  const keys = Object.keys(c.given).sort();
  if (keys.length === 0) return c.id;
  return `${c.id}(${keys.map((k) => `${k}=${formatValue(c.given[k])}`).join(',')})`;
}

function formatValue(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Choose the most useful of ajv's errors: the deepest one, preferring concrete keywords over anyOf noise. */
function pickError(errors: ErrorObject[]): ErrorObject {
  const score = (e: ErrorObject): number =>
    e.instancePath.split('/').length * 10 + (e.keyword === 'anyOf' || e.keyword === 'oneOf' ? 0 : 5);
  // Inside an anyOf, errors from a branch whose type did not even match are the least informative.
  const informative = errors.filter(
    (e) =>
      e.keyword !== 'type' ||
      !errors.some(
        (o) => o !== e && o.instancePath === e.instancePath && o.keyword !== 'type' && o.keyword !== 'anyOf',
      ),
  );
  return [...informative].sort((a, b) => score(b) - score(a))[0] ?? errors[0]!;
}

function pointerToPath(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

export function fieldName(path: (string | number)[]): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

/**
 * Line and column of the deepest node of `path` present in the document: the value of a mapping entry,
 * or its key when `atKey` (an unknown field) or when the value is empty.
 */
function locate(
  doc: Document,
  lc: LineCounter,
  path: (string | number)[],
  atKey = false,
): { line: number; col: number } {
  let node: Node | null | undefined = doc.contents as Node | null;
  let offset = node?.range?.[0] ?? 0;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    if (isMap(node)) {
      const pair = node.items.find((it) => isScalar(it.key) && String(it.key.value) === String(seg));
      if (!pair) break;
      offset = (pair.key as Node).range?.[0] ?? offset;
      node = pair.value as Node | null;
      const last = i === path.length - 1;
      if (node?.range && !(last && atKey)) offset = node.range[0];
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as Node | undefined;
      if (!item) break;
      node = item;
      offset = item.range?.[0] ?? offset;
    } else {
      break;
    }
  }
  return lc.linePos(offset);
}
