/** A spec section declared once (src/spec/section.ts): the schema as written, its defaults, filled values. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineSection, type Filled, type SchemaValue } from '../../src/spec/section.js';

describe('defineSection', () => {
  const SECTION = defineSection({
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: { type: 'string' },
      mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
      size: {
        anyOf: [
          { type: 'integer', minimum: 1 },
          { type: 'object', properties: { file: { type: 'string' } } },
        ],
      },
      on: { type: 'boolean', default: true },
    },
  });

  it('publishes the schema as written, defaults included', () => {
    expect(SECTION.schema.properties.mode).toEqual({ type: 'string', enum: ['a', 'b'], default: 'a' });
  });

  it('collects the defaults and lays a given section over them', () => {
    expect(SECTION.defaults).toEqual({ mode: 'a', on: true });
    expect(SECTION.fill(undefined)).toEqual({ mode: 'a', on: true });
    expect(SECTION.fill({ name: 'x', mode: 'b' })).toEqual({ name: 'x', mode: 'b', on: true });
  });

  it('derives the type: required and defaulted properties present, enums as their values', () => {
    type Value = SchemaValue<typeof SECTION.schema>;
    expectTypeOf<Value['name']>().toEqualTypeOf<string>();
    expectTypeOf<Value['mode']>().toEqualTypeOf<'a' | 'b' | undefined>();
    expectTypeOf<Filled<typeof SECTION.schema>['mode']>().toEqualTypeOf<'a' | 'b'>();
    expectTypeOf<Filled<typeof SECTION.schema>['on']>().toEqualTypeOf<boolean>();
  });
});
