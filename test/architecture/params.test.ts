/**
 * One source for each parameter: a learner declares each parameter once (`defineParams`: its JSON Schema
 * fragment plus its default), and registration wraps learn / fit / pseudoCount so that every implementation
 * receives complete parameters, whoever calls it (the runner after spec validation, a test, a bench, an
 * ensemble reusing another learner). These tests fail when a default is written a second time in a way that
 * can disagree, when a parameter is left without a default by accident, or when an implementation could be
 * reached with incomplete parameters.
 */
import { describe, expect, it } from 'vitest';
import '../../src/methods.js';
import {
  completeParams,
  defineParams,
  listBaselines,
  listEstimators,
  listStructures,
  registerBaseline,
  registerEstimator,
  registerStructure,
  withDefaults,
  type JsonSchema,
  type MethodInfo,
} from '../../src/registry.js';
import { compileSchema } from '../../src/spec/validator.js';
import { methodDetail } from '../../src/cli/methods.js';
import { hdp, hdpSettings } from '../../src/estimators/hdp/index.js';
import { scoreOptions } from '../../src/structures/exact/common.js';

describe('defineParams', () => {
  const spec = defineParams({
    a: { type: 'number', minimum: 0, default: 1, description: 'A' },
    b: { enum: ['x', 'y'], default: 'x', inKey: false, description: 'B' },
    c: { type: 'array', items: { type: 'string' }, required: true, description: 'C' },
    d: { type: 'integer', description: 'D (computed from the data when left out)' },
  });

  it('splits one declaration into the schema (no declaration keys left in it) and the defaults', () => {
    expect(spec.schema).toEqual({
      type: 'object',
      properties: {
        a: { type: 'number', minimum: 0, description: 'A' },
        b: { enum: ['x', 'y'], description: 'B' },
        c: { type: 'array', items: { type: 'string' }, description: 'C' },
        d: { type: 'integer', description: 'D (computed from the data when left out)' },
      },
      required: ['c'],
      additionalProperties: false,
    });
    expect(spec.defaults).toEqual({ a: 1 });
    expect(spec.implicitDefaults).toEqual({ b: 'x' });
  });

  it('keeps a schema without required parameters in the published key order', () => {
    expect(Object.keys(defineParams({ a: { type: 'number', default: 1 } }).schema)).toEqual([
      'type',
      'properties',
      'additionalProperties',
    ]);
  });
});

describe('registration completes the parameters', () => {
  it('learn, fit and pseudoCount receive the defaults (implicit ones too) overlaid with what the caller gave', () => {
    const seen: unknown[] = [];
    const info = {
      revision: 1,
      title: 't',
      citation: 'c',
      params: defineParams({
        a: { type: 'number', default: 1 },
        b: { type: 'string', default: 'x' },
        c: { type: 'boolean', default: true, inKey: false },
      }),
    };
    const s = registerStructure({
      ...info,
      id: 'test-complete-s',
      learn: (_t, p) => {
        seen.push(p);
        return { m: 0, parents: [[]] };
      },
    });
    const e = registerEstimator({
      ...info,
      id: 'test-complete-e',
      pseudoCount: (p) => {
        seen.push(p);
        return p.a;
      },
      fit: (_t, _s, p) => {
        seen.push(p);
        return { posterior: () => new Float64Array() };
      },
    });
    const b = registerBaseline({
      ...info,
      id: 'test-complete-b',
      fit: (_t, p) => {
        seen.push(p);
        return { posterior: () => new Float64Array() };
      },
    });
    const ctx = { rng: undefined as never };
    const data = undefined as never;
    s.learn(data, {}, ctx);
    s.learn(data, { a: 2 }, ctx);
    e.fit(data, { m: 0, parents: [[]] }, { b: 'y' }, ctx);
    expect(e.pseudoCount!({ c: false }, 2, 1)).toBe(1);
    b.fit(data, { a: 3, b: 'z' }, ctx);
    expect(seen).toEqual([
      { a: 1, b: 'x', c: true },
      { a: 2, b: 'x', c: true },
      { a: 1, b: 'y', c: true },
      { a: 1, b: 'x', c: false },
      { a: 3, b: 'z', c: true },
    ]);
    // The job's parameters (and so its key) hold the keyed defaults only.
    expect(withDefaults(s, {})).toEqual({ a: 1, b: 'x' });
    expect(completeParams(s, {})).toEqual({ a: 1, b: 'x', c: true });
  });

  it('the catalog shows an implicit default like any other (cl-ode drop)', () => {
    const row = methodDetail('cl-ode')
      .split('\n')
      .find((l) => l.trim().startsWith('drop '));
    expect(row).toMatch(/\| "nonPositive"\s+"negative"\s/);
  });

  it('the helpers behind an implementation take complete parameters only (npm run typecheck fails otherwise)', () => {
    // Never called: each line is a compile-time check. If a helper accepted incomplete parameters again, the
    // expect-error mark above it would be unused, which is itself an error.
    const typeChecks = () => {
      // @ts-expect-error -- iterations alone: the other HDP parameters are missing
      hdpSettings({ iterations: 10 });
      // @ts-expect-error -- a score without ess and memoryLimitMB
      scoreOptions({ score: 'bic' });
    };
    expect(typeof typeChecks).toBe('function');
    // At run time the implementation's own checks reject what the types would have (tying is undefined).
    expect(() => hdpSettings({ iterations: 10 } as never)).toThrow(/tying/);
    expect(hdpSettings(completeParams(hdp, { iterations: 10 })).iterations).toBe(10);
  });
});

const methods: [string, MethodInfo][] = [
  ...listStructures().map((m) => [`structure ${m.id}`, m] as [string, MethodInfo]),
  ...listEstimators().map((m) => [`estimator ${m.id}`, m] as [string, MethodInfo]),
  ...listBaselines().map((m) => [`baseline ${m.id}`, m] as [string, MethodInfo]),
].filter(([, m]) => !m.id.startsWith('test-'));

/**
 * The parameters that have no declared default, each for a reason: its default is computed from the data
 * or from another parameter, the spec must give it, or bnclab fills it in. Any other parameter without a
 * default fails, so a new one cannot silently reach an implementation as undefined.
 */
const WITHOUT_DEFAULT: Record<string, string> = {
  'structure acll-tan.beta': 'default −1/C, from the number of classes',
  'estimator hdp.burnIn': 'default min(1000, iterations/10), from iterations',
  'baseline external.command': 'required: the spec must give it',
  'baseline external.files': 'filled in by the spec loader (sha256 of the files the command names)',
  'structure kdb-hc.r_seed': "absent: the search draws from the job's seed (bnclassify's R draws only when given)",
  'structure tan-hc.r_seed': "absent: the search draws from the job's seed (bnclassify's R draws only when given)",
};

describe.each(methods)('%s', (name, m) => {
  const props = (m.params['properties'] ?? {}) as Record<string, JsonSchema>;

  it('declares every parameter once: the defaults are schema properties, and the schema carries no default', () => {
    for (const k of [...Object.keys(m.defaults), ...Object.keys(m.implicitDefaults)]) expect(props).toHaveProperty(k);
    for (const k of Object.keys(m.defaults)) expect(m.implicitDefaults).not.toHaveProperty(k);
    for (const [k, s] of Object.entries(props)) {
      for (const key of ['default', 'inKey']) expect(s, `${k}.${key}`).not.toHaveProperty(key);
    }
  });

  it('has a default for every parameter but the listed ones', () => {
    const without = Object.keys(props).filter((k) => completeParams(m, {})[k] === undefined);
    expect(without.map((k) => `${name}.${k}`)).toEqual(
      Object.keys(WITHOUT_DEFAULT).filter((k) => k.startsWith(`${name}.`)),
    );
  });

  it('its defaults satisfy its own schema', () => {
    const required = (m.params['required'] ?? []) as string[];
    const validate = compileSchema({ ...m.params, required: [] }, true);
    const complete = completeParams(m, {});
    expect(validate(complete), JSON.stringify(validate.errors)).toBe(true);
    expect(required.every((k) => complete[k] === undefined)).toBe(true);
  });
});
