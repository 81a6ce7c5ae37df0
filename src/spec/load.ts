/**
 * YAML spec → validated, normalised ExperimentSpec. Every problem is a UserError of one line:
 * "<file>:<line>:<col>: <field>: <what is wrong>".
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { LineCounter, parseDocument, isMap, isNode, isSeq, isScalar, type Document } from 'yaml';
import { experimentSchema, PREPROCESSING, SPEC_DEFAULTS, type MethodRef, type RawSpec } from './schema.js';
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
import { parseResampling, type ResamplingSpec } from './resampling.js';
import { isRecord, propertiesOf } from './section.js';
import { closest } from '../util/text.js';
import { canonicalJson } from '../util/hash.js';
import { parseCompare, parseReference, type CompareSpec, type ReferenceSpec } from './report-sections.js';
import { withFileHashes } from './files.js';
import { parseSelect, type SelectSpec } from './select.js';
import '../methods.js'; // the registry must be complete before a spec is checked against it

import { discretizeProblem, type PreprocessOptions } from '../datasets/preprocess.js';
import { EM_DEFAULTS } from '../bn/em.js';

/** The spec's `preprocessing:` section is exactly what the preprocessing pipeline takes. */
export type PreprocessingSpec = PreprocessOptions;

interface DatasetRef {
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

interface MethodChoice {
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

interface LoadedSpec {
  readonly spec: ExperimentSpec;
  readonly text: string;
}

let validator: ValidateFunction<RawSpec> | undefined;

function getValidator(): ValidateFunction<RawSpec> {
  if (!validator) {
    // verbose: errors carry their schema, so an unknown field can be matched against the known ones.
    validator = compileSchema<RawSpec>(experimentSchema(false), true, true);
  }
  return validator;
}

/** Read, parse and validate a spec file. */
export function loadSpecFile(file: string): LoadedSpec {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = e instanceof Error && 'code' in e ? String(e.code) : undefined;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'a folder, not a file'
          : code === 'EACCES' || code === 'EPERM'
            ? `permission denied (${code})`
            : (firstLine(e) ?? String(code));
    throw new UserError(`${file}: cannot read the spec file: ${why}`);
  }
  return { spec: parseSpec(text, file), text };
}

/**
 * The spec in `text` (read from `file`), in named steps: the YAML read, the document checked against the
 * schema, then each section turned into its normalised form, the methods last (they depend on the
 * preprocessing), and the report's sections against the methods' labels.
 */
export function parseSpec(text: string, file: string): ExperimentSpec {
  const { raw, at } = readYaml(text, file);
  const spec = validateDocument(raw, at, file);
  const dir = dirname(resolve(file));
  const warnings: string[] = [];
  const datasets = parseDatasets(spec.datasets, dir, at);
  const preprocessing = parsePreprocessing(spec.preprocessing, at);
  const resampling = parseResampling(spec.resampling, (parameter) => at(['resampling', parameter]));
  const { pairs, baselines } = listPairs(spec, at);
  const kept = applyExcludes(pairs, spec.exclude ?? [], at, warnings);
  checkApplicable(kept, preprocessing);
  if (kept.length === 0 && baselines.length === 0)
    throw new UserError(`${at(['exclude'])}: exclude: leaves no method to run`);
  const methods = uniqueMethods(kept, baselines, dir, at, warnings);
  return {
    name: spec.name,
    description: spec.description ?? '',
    ...seedsOf(spec, at),
    datasets,
    preprocessing,
    resampling,
    methods,
    savePredictions: spec.save_predictions ?? SPEC_DEFAULTS.save_predictions,
    compare: parseCompare(spec.compare, methods, at),
    reference: parseReference(spec.reference, methods, dir, at),
    dir,
    file,
    warnings,
  };
}

type At = (path: (string | number)[], atKey?: boolean) => string;

/** The first line of an error's message. */
function firstLine(e: unknown): string | undefined {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0];
}

/** The YAML document as plain data, and `at`, which gives the file:line:col of a path in it. */
function readYaml(text: string, file: string): { raw: unknown; at: At } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const pos = lineCounter.linePos(e.pos[0]);
    const msg = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new UserError(`${file}:${pos.line}:${pos.col}: YAML syntax error: ${msg}`);
  }
  let raw: unknown;
  try {
    // The yaml library refuses documents whose aliases expand exponentially (a "YAML bomb").
    raw = doc.toJS();
  } catch (e) {
    throw new UserError(`${file}:1:1: the YAML cannot be expanded: ${firstLine(e)}`);
  }
  const at: At = (path, atKey = false) => {
    const { line, col } = locate(doc, lineCounter, path, atKey);
    return `${file}:${line}:${col}`;
  };
  return { raw, at };
}

/** The document checked against the experiment schema (numbers finite, a mapping, every field as declared). */
function validateDocument(raw: unknown, at: At, file: string): RawSpec {
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
  if (validate(raw)) return raw;
  throw new UserError(schemaErrorMessage(pickError(validate.errors ?? []), at));
}

/** The one line for the most useful schema error: where, which field, and what is wrong. */
function schemaErrorMessage(err: ErrorObject, at: At): string {
  const path = pointerToPath(err.instancePath);
  let field = fieldName(path);
  let where = path;
  let what = err.message ?? 'is invalid';
  if (err.keyword === 'additionalProperties') {
    const extra = String(err.params['additionalProperty']);
    where = [...path, extra];
    field = fieldName(where);
    const known = Object.keys(propertiesOf(err.parentSchema ?? {}));
    const near = closest(extra, known);
    what = `unknown field${near ? ` (did you mean '${near}'?)` : known.length ? ` (known: ${known.join(', ')})` : ''}`;
  } else if (err.keyword === 'required') {
    field = fieldName([...path, String(err.params['missingProperty'])]);
    what = 'is required';
  } else if (err.keyword === 'enum') {
    what = `must be one of ${allowedValues(err)}`;
  }
  return `${at(where, err.keyword === 'additionalProperties')}: ${field || '(top level)'}: ${what}`;
}

/** The values an `enum` error allows, as JSON. */
function allowedValues(err: ErrorObject): string {
  const allowed: unknown = err.params['allowedValues'];
  return (Array.isArray(allowed) ? allowed : []).map((a) => JSON.stringify(a)).join(', ');
}

/** `datasets:`: each entry a reference to resolve later; column declarations checked against each other. */
function parseDatasets(entries: RawSpec['datasets'], dir: string, at: At): DatasetRef[] {
  return entries.map((entry, i) => {
    const where = `${at(['datasets', i])}: datasets[${i}]`;
    if (typeof entry === 'string') return { ref: entry, where };
    const types: Record<string, 'numeric' | 'categorical'> = {};
    for (const c of entry.categorical ?? []) types[c] = 'categorical';
    for (const c of entry.numeric ?? []) {
      if (types[c]) throw new UserError(`${where}.numeric: column '${c}' is declared both categorical and numeric`);
      types[c] = 'numeric';
    }
    for (const c of entry.ignore ?? []) {
      if (types[c] || c === entry.class)
        throw new UserError(`${where}.ignore: column '${c}' is both ignored and declared`);
    }
    return {
      ref: entry.file,
      file: resolve(dir, entry.file),
      name: entry.name,
      classColumn: entry.class,
      where,
      ...(Object.keys(types).length > 0 ? { columnTypes: types } : {}),
      ...(entry.ignore && entry.ignore.length > 0 ? { ignore: entry.ignore } : {}),
    };
  });
}

/** `preprocessing:` with its defaults; EM settings only under missing: em (so every other job key stays). */
function parsePreprocessing(section: RawSpec['preprocessing'], at: At): PreprocessingSpec {
  const given = PREPROCESSING.fill(section);
  const discretize =
    typeof given.discretize === 'string'
      ? { method: given.discretize }
      : { method: given.discretize.method, bins: given.discretize.bins };
  const em = section?.em;
  if (em !== undefined && given.missing !== 'em') {
    throw new UserError(`${at(['preprocessing', 'em'])}: preprocessing.em: only applies to missing: em`);
  }
  const problem = discretizeProblem(discretize);
  if (problem) {
    throw new UserError(
      `${at(['preprocessing', 'discretize', problem.field])}: preprocessing.discretize.${problem.field}: ${problem.what}`,
    );
  }
  return {
    discretize,
    missing: given.missing,
    ...(given.missing === 'em' ? { em: { ...EM_DEFAULTS, ...em } } : {}),
  };
}

/** A structure × estimator pair of the grid, before exclusion and deduplication. */
interface Pair {
  readonly structure: MethodChoice;
  readonly estimator: MethodChoice;
  readonly name?: string;
  /** Where the pair comes from in the spec, for error messages. */
  readonly where: string;
  /** From the structures × estimators product (which exclude: acts on), not from methods:. */
  readonly fromProduct: boolean;
  readonly select?: SelectSpec;
}

/** The pairs the spec lists (the structures × estimators product, then methods:) and its baselines. */
function listPairs(spec: RawSpec, at: At): { pairs: Pair[]; baselines: MethodChoice[] } {
  const structures = expandList(spec.structures, 'structures', 'structure', at);
  const estimators = expandList(spec.estimators, 'estimators', 'estimator', at);
  if ((structures === undefined) !== (estimators === undefined)) {
    const missing = structures === undefined ? 'structures' : 'estimators';
    throw new UserError(
      `${at([])}: ${missing}: is required when ${missing === 'structures' ? 'estimators' : 'structures'} is given`,
    );
  }
  const baselines = expandList(spec.baselines, 'baselines', 'baseline', at) ?? [];
  if (structures === undefined && spec.methods === undefined && baselines.length === 0) {
    throw new UserError(`${at([])}: structures: give structures and estimators, methods, or baselines`);
  }
  const pairs: Pair[] = [];
  if (structures && estimators) {
    for (const structure of structures)
      for (const estimator of estimators)
        pairs.push({ structure, estimator, where: `${at(['estimators'])}: estimators`, fromProduct: true });
  }
  (spec.methods ?? []).forEach((entry, i) => {
    const structures = expandRef(entry.structure, 'structure', ['methods', i, 'structure'], at);
    const estimators = expandRef(entry.estimator, 'estimator', ['methods', i, 'estimator'], at);
    for (const structure of structures) {
      for (const estimator of estimators) {
        const sides = {
          structure: { choice: structure, info: getStructure(structure.id)! },
          estimator: { choice: estimator, info: getEstimator(estimator.id)! },
        };
        const select =
          entry.select === undefined
            ? undefined
            : parseSelect(entry.select, sides, checkParams, `${at(['methods', i, 'select'])}: methods[${i}].select`);
        pairs.push({
          structure,
          estimator,
          name: structures.length * estimators.length === 1 ? entry.name : undefined,
          where: `${at(['methods', i])}: methods[${i}]`,
          fromProduct: false,
          select,
        });
      }
    }
  });
  return { pairs, baselines };
}

type ExcludeRule = RawSpec['exclude'] extends readonly (infer R)[] | undefined ? R : never;

/**
 * exclude: removes pairs of the structures × estimators product only; a pair listed under methods: is
 * there because the user asked for it by name.
 */
function removes(rule: ExcludeRule, pair: Pair): boolean {
  return (
    pair.fromProduct &&
    (rule.structure ?? pair.structure.id) === pair.structure.id &&
    (rule.estimator ?? pair.estimator.id) === pair.estimator.id
  );
}

/** The pairs no exclude: rule removes; a rule that removes nothing is a warning. */
function applyExcludes(pairs: Pair[], rules: readonly ExcludeRule[], at: At, warnings: string[]): Pair[] {
  rules.forEach((rule, i) => {
    if (rule.structure !== undefined)
      knownId('structure', rule.structure, at(['exclude', i, 'structure']), `exclude[${i}].structure`);
    if (rule.estimator !== undefined)
      knownId('estimator', rule.estimator, at(['exclude', i, 'estimator']), `exclude[${i}].estimator`);
  });
  rules.forEach((rule, i) => {
    if (!pairs.some((pair) => removes(rule, pair))) {
      warnings.push(
        `${at(['exclude', i])}: exclude[${i}]: removes nothing from the product of structures × estimators (exclude does not act on methods:)`,
      );
    }
  });
  return pairs.filter((pair) => !rules.some((rule) => removes(rule, pair)));
}

/** Each estimator applies to its structure, and can be fitted by EM under missing: em. */
function checkApplicable(pairs: readonly Pair[], preprocessing: PreprocessingSpec): void {
  for (const p of pairs) {
    const e = getEstimator(p.estimator.id)!;
    const s = p.structure.id;
    if (!compatible(e, s)) {
      throw new UserError(
        `${p.where}: estimator '${e.id}' does not apply to structure '${s}' (${incompatibility(e, s)}); ` +
          (p.fromProduct ? `add {structure: ${s}, estimator: ${e.id}} to exclude:` : 'remove it from methods:'),
      );
    }
    if (preprocessing.missing === 'em' && !e.pseudoCount) {
      throw new UserError(
        `${p.where}: estimator '${e.id}' cannot be fitted by EM (missing: em needs a conditional-table estimator: mle, dirichlet or eap); use another missing policy for it`,
      );
    }
  }
}

/**
 * The methods of the grid, each once: a label listed twice with the same content runs once (a warning), two
 * contents under one label are an error, and two labels with one content (equal once defaults are filled in)
 * run once under the first. File parameters get the sha256 of their files.
 */
function uniqueMethods(
  pairs: readonly Pair[],
  baselines: readonly MethodChoice[],
  dir: string,
  at: At,
  warnings: string[],
): MethodSpec[] {
  const candidates: {
    kind: 'bnc' | 'baseline';
    structure: MethodChoice;
    estimator: MethodChoice | null;
    label: string;
    select?: SelectSpec;
  }[] = [
    ...pairs.map((p) => ({
      kind: 'bnc' as const,
      structure: p.structure,
      estimator: p.estimator,
      label: p.name ?? `${choiceLabel(p.structure)}/${choiceLabel(p.estimator)}`,
      select: p.select,
    })),
    ...baselines.map((b) => ({
      kind: 'baseline' as const,
      structure: b,
      estimator: null,
      label: b.name ?? choiceLabel(b),
    })),
  ];
  const methods: MethodSpec[] = [];
  const identityOfLabel = new Map<string, string>();
  const labelOfIdentity = new Map<string, string>(); // identity → the label it runs under
  for (const c of candidates) {
    const label = c.label;
    const identity = JSON.stringify([
      c.kind,
      c.structure.id,
      c.structure.params,
      c.estimator?.id,
      c.estimator?.params,
      c.select,
    ]);
    if (identityOfLabel.has(label)) {
      if (identityOfLabel.get(label) === identity) {
        warnings.push(`${at(['methods'])}: method '${label}' is listed more than once; it runs once`);
        continue;
      }
      throw new UserError(
        `${at(['methods'])}: methods: two different methods are both labelled '${label}'; give them names`,
      );
    }
    const twin = labelOfIdentity.get(identity);
    if (twin !== undefined) {
      // Same learner and parameters once defaults are filled in, e.g. [{dirichlet: {alpha: 1}}, dirichlet]:
      // the same job keys, so it runs once.
      warnings.push(
        `${at(['methods'])}: method '${label}' is the same as '${twin}' (equal parameters once defaults are filled in); it runs once, as '${twin}'`,
      );
      continue;
    }
    identityOfLabel.set(label, identity);
    labelOfIdentity.set(identity, label);
    const info = c.kind === 'baseline' ? getBaseline(c.structure.id)! : getStructure(c.structure.id)!;
    const structure = { ...c.structure, params: withFileHashes(info, c.structure.params, dir) };
    const estimator = c.estimator
      ? { ...c.estimator, params: withFileHashes(getEstimator(c.estimator.id)!, c.estimator.params, dir) }
      : null;
    methods.push({ kind: c.kind, structure, estimator, label, ...(c.select ? { select: c.select } : {}) });
  }
  return methods;
}

/** `seed:` or `seeds:` (not both): the first seed, and the list when it has more than one. */
function seedsOf(spec: RawSpec, at: At): { seed: string; seeds?: readonly string[] } {
  const list = spec.seeds;
  if (list === undefined) return { seed: String(spec.seed ?? SPEC_DEFAULTS.seed) };
  if (spec.seed !== undefined) {
    throw new UserError(
      `${at(['seeds'], true)}: seeds: give either seed: or seeds:, not both (seed: s is seeds: [s]; the first of seeds: is the seed of the usual tables)`,
    );
  }
  const seeds = list.map(String);
  if (new Set(seeds).size < seeds.length) {
    throw new UserError(`${at(['seeds'])}: seeds: lists a seed twice (1 and '1' are the same seed)`);
  }
  return seeds.length > 1 ? { seed: seeds[0], seeds } : { seed: seeds[0] };
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
  list: readonly MethodRef[] | undefined,
  key: 'structures' | 'estimators' | 'baselines',
  kind: Kind,
  at: At,
): MethodChoice[] | undefined {
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

/** A method reference's id, parameters and name, and where in the entry its id and parameters stand. */
function refParts(
  ref: MethodRef,
  path: (string | number)[],
): {
  id: string;
  params: Readonly<Record<string, unknown>>;
  name?: string;
  idPath: (string | number)[];
  paramsPath: (string | number)[];
} {
  if (typeof ref === 'string') return { id: ref, params: {}, idPath: path, paramsPath: path };
  const name = typeof ref['name'] === 'string' ? ref['name'] : undefined;
  const id = ref['id'];
  if (typeof id === 'string') {
    const params = ref['params'];
    return { id, params: isRecord(params) ? params : {}, name, idPath: path, paramsPath: [...path, 'params'] };
  }
  const [key, params] = Object.entries(ref)[0];
  return { id: key, params: isRecord(params) ? params : {}, name, idPath: [...path, key], paramsPath: [...path, key] };
}

/** One spec entry → the methods it denotes (several when a parameter is a sweep). */
function expandRef(ref: MethodRef, kind: Kind, path: (string | number)[], at: At): MethodChoice[] {
  const { id, params, name: refName, idPath, paramsPath } = refParts(ref, path);
  const info = knownId(kind, id, at(idPath), fieldName(path));
  const schemaProps = propertiesOf(info.params);
  // A list value is a sweep unless the parameter itself takes a list.
  const axes: [string, unknown[]][] = Object.entries(params).map(([k, v]) => {
    const takesArray = schemaProps[k] && JSON.stringify(schemaProps[k]['type'] ?? '').includes('array');
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
  return combos.map((given) => {
    const full = withDefaults(info, given);
    if (!validate(full)) {
      const err = validate.errors![0];
      let key: string | number | undefined = pointerToPath(err.instancePath)[0];
      let what = err.message ?? 'is invalid';
      if (err.keyword === 'additionalProperties') {
        key = String(err.params['additionalProperty']);
        const known = Object.keys(schemaProps);
        what = `unknown parameter of ${kind} '${id}'${known.length ? ` (known: ${known.join(', ')})` : ' (it takes none)'}`;
      } else if (err.keyword === 'enum') {
        what = `must be one of ${allowedValues(err)}`;
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
  const err = validate.errors![0];
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
  return [...informative].sort((a, b) => score(b) - score(a))[0] ?? errors[0];
}

function pointerToPath(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function fieldName(path: (string | number)[]): string {
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
  let node: unknown = doc.contents;
  let offset = isNode(node) ? (node.range?.[0] ?? 0) : 0;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (isMap(node)) {
      const pair = node.items.find((it) => isScalar(it.key) && String(it.key.value) === String(seg));
      if (!pair) break;
      offset = (isNode(pair.key) ? pair.key.range?.[0] : undefined) ?? offset;
      node = pair.value;
      const last = i === path.length - 1;
      if (isNode(node) && node.range && !(last && atKey)) offset = node.range[0];
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg];
      if (!isNode(item)) break;
      node = item;
      offset = item.range?.[0] ?? offset;
    } else {
      break;
    }
  }
  return lc.linePos(offset);
}
