/**
 * Registration wraps learn / fit so that every implementation receives complete parameters, whoever calls
 * it (the runner after spec validation, a test, a bench, an ensemble reusing another learner).
 */
import { describe, expect, it } from 'vitest';
import { registerBaseline, registerEstimator, registerStructure } from '../../src/registry.js';
describe('registration completes the parameters', () => {
  it('learn and fit receive the defaults overlaid with what the caller gave', () => {
    const seen: unknown[] = [];
    const info = {
      title: 't',
      citation: 'c',
      params: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'string' } },
        additionalProperties: false,
      },
      defaults: { a: 1, b: 'x' },
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
    b.fit(data, { a: 3, b: 'z' }, ctx);
    expect(seen).toEqual([
      { a: 1, b: 'x' },
      { a: 2, b: 'x' },
      { a: 1, b: 'y' },
      { a: 3, b: 'z' },
    ]);
  });
});
