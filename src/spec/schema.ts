/**
 * The experiment JSON Schema, generated from the registry so that the published schema
 * (configs/experiment.schema.json, for editors) and the validator never disagree.
 * `forEditors` adds each method's own parameter schema (autocompletion); the validator uses the plain form
 * and checks method parameters itself, so its error messages can name the method and parameter.
 */
import type { JsonSchema, MethodInfo } from '../registry.js';
import { listBaselines, listEstimators, listStructures } from '../registry.js';
import { compareSchema, referenceSchema } from './report-sections.js';

const identifier = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._+-]*$' };

/** A parameter schema that also accepts a list of values (a sweep). */
function sweepable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'array', minItems: 1, items: schema }] };
}

function methodRef(
  kind: 'structure' | 'estimator' | 'baseline',
  methods: MethodInfo[],
  forEditors: boolean,
): JsonSchema {
  const ids = methods.map((m) => m.id);
  const idSchema = forEditors ? { type: 'string', enum: ids } : { type: 'string' };
  if (!forEditors) {
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
    };
  }
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
  const props = (m.params['properties'] ?? {}) as Record<string, JsonSchema>;
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(Object.entries(props).map(([k, s]) => [k, sweepable(s)])),
  };
}

export function experimentSchema(forEditors = false): JsonSchema {
  const structures = listStructures();
  const estimators = listEstimators();
  const baselines = listBaselines();
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
        type: ['integer', 'string'],
        description: 'Master seed. Split and learner seeds derive from it and the job content.',
        default: 1,
      },
      seeds: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { type: ['integer', 'string'] },
        description:
          "Several master seeds, instead of seed: each one is a run of the whole grid with its own folds (unless they come from a file) and learner randomness; the report gives the first seed's tables and how stable each claim's verdict is across the seeds.",
      },
      datasets: {
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
      },
      preprocessing: {
        type: 'object',
        additionalProperties: false,
        properties: {
          discretize: {
            description: 'Discretization of numeric attributes, fitted on each training fold.',
            anyOf: [
              { type: 'string', enum: ['mdl', 'median', 'equal-frequency', 'none'] },
              {
                type: 'object',
                required: ['method'],
                additionalProperties: false,
                properties: {
                  method: { type: 'string', enum: ['mdl', 'median', 'equal-frequency', 'none'] },
                  bins: { type: 'integer', minimum: 2, description: 'equal-frequency only (default 5)' },
                },
              },
            ],
            default: 'mdl',
          },
          missing: {
            type: 'string',
            enum: ['as-value', 'drop-rows', 'available-case', 'remove-rows', 'em'],
            default: 'as-value',
            description:
              'as-value: missing is its own value; drop-rows: training rows with a missing value are removed; available-case: each family is counted over the rows where it is observed; remove-rows: rows with a missing value are removed from the data set before the split (not with folds from a file); em: CPTs (mle, dirichlet, eap) fitted by expectation-maximisation over the missing training values, structures learned on available-case counts.',
          },
          em: {
            type: 'object',
            additionalProperties: false,
            description: 'Settings of missing: em.',
            properties: {
              max_iterations: { type: 'integer', minimum: 0, default: 100, description: 'Most EM iterations per run' },
              tolerance: {
                type: 'number',
                minimum: 0,
                default: 1e-6,
                description: 'Stop when the objective changes by at most this (relative)',
              },
              restarts: {
                type: 'integer',
                minimum: 0,
                default: 0,
                description: 'Further runs from random starting tables; the best objective is kept',
              },
              init: {
                type: 'string',
                enum: ['available-case', 'uniform', 'random'],
                default: 'available-case',
                description: 'Starting tables of the first run',
              },
            },
          },
        },
      },
      resampling: {
        type: 'object',
        additionalProperties: false,
        properties: {
          method: { type: 'string', enum: ['cv', 'holdout'], default: 'cv' },
          folds: {
            description:
              'Number of folds, or {file: path} with one test-fold number per row (one column per repeat); {dataset} in the path is replaced by the dataset name.',
            anyOf: [
              { type: 'integer', minimum: 2 },
              {
                type: 'object',
                required: ['file'],
                additionalProperties: false,
                properties: { file: { type: 'string', minLength: 1 } },
              },
            ],
            default: 10,
          },
          repeats: { type: 'integer', minimum: 1, default: 1 },
          stratified: { type: 'boolean', default: true },
          test_fraction: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, default: 1 / 3 },
        },
      },
      structures: { type: 'array', minItems: 1, items: methodRef('structure', structures, forEditors) },
      estimators: { type: 'array', minItems: 1, items: methodRef('estimator', estimators, forEditors) },
      baselines: {
        type: 'array',
        minItems: 1,
        description:
          'Classifiers outside the structure × estimator grid (decision tree, random forest), run on the same folds.',
        items: methodRef('baseline', baselines, forEditors),
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
            structure: methodRef('structure', structures, forEditors),
            estimator: methodRef('estimator', estimators, forEditors),
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
      exclude: {
        type: 'array',
        description: 'Pairs to leave out of the product; each entry matches by structure id and/or estimator id.',
        items: {
          type: 'object',
          minProperties: 1,
          additionalProperties: false,
          properties: { structure: { type: 'string' }, estimator: { type: 'string' } },
        },
      },
      save_predictions: { type: 'boolean', default: false, description: "Keep every test row's class probabilities." },
      compare: compareSchema(),
      reference: referenceSchema(),
    },
  };
}
