/**
 * The experiment JSON Schema: one declaration, from which the published schema (configs/experiment.schema.json,
 * for editors), the validator's schema and the TypeScript type of a validated spec (RawSpec) all come, so none
 * of them can disagree. Each section is declared once (section.ts), the resampling methods in their registry
 * (resampling.ts), `compare:` and `reference:` in report-sections.ts.
 * `forEditors` adds each method's own parameter schema (autocompletion); the validator uses the plain form
 * and checks method parameters itself, so its error messages can name the method and parameter.
 */
import { EM_DEFAULTS } from '../bn/em.js';
import { DISCRETIZE_METHODS, MISSING_POLICIES } from '../datasets/preprocess.js';
import type { JsonSchema, MethodInfo } from '../registry.js';
import { listBaselines, listEstimators, listStructures } from '../registry.js';
import { COMPARE, REFERENCE } from './report-sections.js';
import { RESAMPLING } from './resampling.js';
import { defineSection, propertiesOf, type SchemaValue } from './section.js';

const identifier = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._+-]*$' } as const;

type Kind = 'structure' | 'estimator' | 'baseline';

/** A parameter schema that also accepts a list of values (a sweep). */
function sweepable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'array', minItems: 1, items: schema }] };
}

/** What the validator accepts for a method: any id (checked against the registry by the loader) and any parameters. */
function plainMethodRef(kind: Kind) {
  const idSchema = { type: 'string' } as const;
  return {
    description: `A ${kind}: its id, or {id, params, name}, or {<id>: params}. A list of values in params is a sweep.`,
    anyOf: [
      idSchema,
      {
        type: 'object',
        required: ['id'],
        additionalProperties: false,
        properties: { id: idSchema, params: { type: 'object' }, name: identifier },
      },
      { type: 'object', minProperties: 1, maxProperties: 1, additionalProperties: { type: ['object', 'null'] } },
    ],
  } as const;
}

/** What editors are offered for a method: each registered id, and each method's parameters. */
function editorMethodRef(methods: MethodInfo[]): JsonSchema {
  const ids = methods.map((m) => m.id);
  const idSchema = { type: 'string', enum: ids };
  const longForms = methods.map((m) => ({
    type: 'object',
    required: ['id'],
    additionalProperties: false,
    description: `${m.title}. ${m.citation}`,
    properties: {
      id: { const: m.id },
      name: identifier,
      params: paramsSchema(m),
    },
  }));
  const shortForms = methods.map((m) => ({
    type: 'object',
    required: [m.id],
    additionalProperties: false,
    description: `${m.title}. ${m.citation}`,
    properties: { [m.id]: { anyOf: [paramsSchema(m), { type: 'null' }] } },
  }));
  return { anyOf: [idSchema, ...longForms, ...shortForms] };
}

function paramsSchema(m: MethodInfo): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(Object.entries(propertiesOf(m.params)).map(([k, s]) => [k, sweepable(s)])),
  };
}

const SEED = { type: ['integer', 'string'] } as const;

/** `datasets:`: registry names, groups, or files with their reading options. */
export const DATASETS = defineSection({
  type: 'array',
  minItems: 1,
  description: 'Dataset names or groups from configs/datasets.yaml, or paths to CSV/ARFF files.',
  items: {
    anyOf: [
      { type: 'string', minLength: 1 },
      {
        type: 'object',
        required: ['file'],
        additionalProperties: false,
        properties: {
          file: { type: 'string', minLength: 1 },
          name: identifier,
          class: {
            type: 'string',
            minLength: 1,
            description: 'Class column (default: "class", else the last column).',
          },
          categorical: {
            type: 'array',
            items: { type: 'string', minLength: 1 },
            uniqueItems: true,
            description:
              'Columns to read as categories even when every value is a number (e.g. integer-coded categories).',
          },
          numeric: {
            type: 'array',
            items: { type: 'string', minLength: 1 },
            uniqueItems: true,
            description: 'Columns that must be numeric (a non-number value is an error).',
          },
          ignore: {
            type: 'array',
            items: { type: 'string', minLength: 1 },
            uniqueItems: true,
            description: 'Columns to leave out (identifiers, leaks).',
          },
        },
      },
    ],
  },
});

/** `preprocessing:`: discretization and missing values (datasets/preprocess.ts holds the rules). */
export const PREPROCESSING = defineSection({
  type: 'object',
  additionalProperties: false,
  properties: {
    discretize: {
      description: 'Discretization of numeric attributes, fitted on each training fold.',
      anyOf: [
        { type: 'string', enum: DISCRETIZE_METHODS },
        {
          type: 'object',
          required: ['method'],
          additionalProperties: false,
          properties: {
            method: { type: 'string', enum: DISCRETIZE_METHODS },
            bins: { type: 'integer', minimum: 2, description: 'equal-frequency only (default 5)' },
          },
        },
      ],
      default: 'mdl',
    },
    missing: {
      type: 'string',
      enum: MISSING_POLICIES,
      default: 'as-value',
      description:
        'as-value: missing is its own value; drop-rows: training rows with a missing value are removed; available-case: each family is counted over the rows where it is observed; remove-rows: rows with a missing value are removed from the data set before the split (not with folds from a file); em: CPTs (mle, dirichlet, eap) fitted by expectation-maximisation over the missing training values, structures learned on available-case counts.',
    },
    em: {
      type: 'object',
      additionalProperties: false,
      description: 'Settings of missing: em.',
      properties: {
        max_iterations: {
          type: 'integer',
          minimum: 0,
          default: EM_DEFAULTS.max_iterations,
          description: 'Most EM iterations per run',
        },
        tolerance: {
          type: 'number',
          minimum: 0,
          default: EM_DEFAULTS.tolerance,
          description: 'Stop when the objective changes by at most this (relative)',
        },
        restarts: {
          type: 'integer',
          minimum: 0,
          default: EM_DEFAULTS.restarts,
          description: 'Further runs from random starting tables; the best objective is kept',
        },
        init: {
          type: 'string',
          enum: ['available-case', 'uniform', 'random'],
          default: EM_DEFAULTS.init,
          description: 'Starting tables of the first run',
        },
      },
    },
  },
});

/** `exclude:`: pairs left out of the structures × estimators product. */
const EXCLUDE = defineSection({
  type: 'array',
  description: 'Pairs to leave out of the product; each entry matches by structure id and/or estimator id.',
  items: {
    type: 'object',
    minProperties: 1,
    additionalProperties: false,
    properties: { structure: { type: 'string' }, estimator: { type: 'string' } },
  },
});

/** The whole spec; its method references are the validator's plain ones or the editors' detailed ones. */
function experiment<S, E, B>(structureRef: S, estimatorRef: E, baselineRef: B) {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://github.com/bnclab/bnclab/configs/experiment.schema.json',
    title: 'bnclab experiment specification',
    type: 'object',
    additionalProperties: false,
    required: ['name', 'datasets'],
    properties: {
      name: { ...identifier, description: 'Experiment name; results go to results/<name>.duckdb and results/<name>/.' },
      description: { type: 'string' },
      seed: {
        ...SEED,
        description: 'Master seed. Split and learner seeds derive from it and the job content.',
        default: 1,
      },
      seeds: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: SEED,
        description:
          "Several master seeds, instead of seed: each one is a run of the whole grid with its own folds (unless they come from a file) and learner randomness; the report gives the first seed's tables and how stable each claim's verdict is across the seeds.",
      },
      datasets: DATASETS.schema,
      preprocessing: PREPROCESSING.schema,
      resampling: RESAMPLING.schema,
      structures: { type: 'array', minItems: 1, items: structureRef },
      estimators: { type: 'array', minItems: 1, items: estimatorRef },
      baselines: {
        type: 'array',
        minItems: 1,
        description:
          'Classifiers outside the structure × estimator grid (decision tree, random forest), run on the same folds.',
        items: baselineRef,
      },
      methods: {
        type: 'array',
        minItems: 1,
        description:
          'Explicit structure × estimator pairs, for designs that are not full products (added to the product of structures × estimators when both are given).',
        items: {
          type: 'object',
          required: ['structure', 'estimator'],
          additionalProperties: false,
          properties: {
            structure: structureRef,
            estimator: estimatorRef,
            name: identifier,
            select: {
              type: 'object',
              description:
                'Parameters chosen by inner cross-validation on each training fold: {by: cv, folds: 10, metric: accuracy, <param>: [values]}; ' +
                '<param> is structure.<name>, estimator.<name> or a name only one of them takes; a+b ties parameters to one value.',
              properties: {
                by: { enum: ['cv'] },
                folds: { type: 'integer', minimum: 2 },
                metric: { enum: ['accuracy', 'log_loss'] },
              },
              additionalProperties: { type: 'array', minItems: 1 },
            },
          },
        },
      },
      exclude: EXCLUDE.schema,
      save_predictions: { type: 'boolean', default: false, description: "Keep every test row's class probabilities." },
      compare: COMPARE.schema,
      reference: REFERENCE.schema,
    },
  } as const;
}

/** The spec as the validator reads it (method references plain), with its top-level defaults. */
const EXPERIMENT = defineSection(
  experiment(plainMethodRef('structure'), plainMethodRef('estimator'), plainMethodRef('baseline')),
);
const PLAIN_SCHEMA = EXPERIMENT.schema;
/** `seed` and `save_predictions` when the spec leaves them out. */
export const SPEC_DEFAULTS = EXPERIMENT.defaults;

/** A spec as the validator lets it through: every field of the schema, typed. */
export type RawSpec = SchemaValue<typeof PLAIN_SCHEMA>;
/** A method reference as a spec writes it: `tan`, `{id: kdb, params: {k: 2}}` or `{kdb: {k: 2}}`. */
export type MethodRef = SchemaValue<ReturnType<typeof plainMethodRef>>;

export function experimentSchema(forEditors = false): JsonSchema {
  if (!forEditors) return PLAIN_SCHEMA;
  return experiment(
    editorMethodRef(listStructures()),
    editorMethodRef(listEstimators()),
    editorMethodRef(listBaselines()),
  );
}
