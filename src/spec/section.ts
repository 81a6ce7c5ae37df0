/**
 * A spec section declared once. A section (`preprocessing:`, `resampling:`, a `datasets:` entry, `compare:`, ...)
 * is written as its JSON Schema literal, `default`s included, and `defineSection` gives from that one object:
 * - the schema, as it is published (configs/experiment.schema.json keeps the `default`s, for editors);
 * - the defaults (`defaults`, and `fill` to lay a given section over them);
 * - the TypeScript type of the section as the validator lets it through (`SchemaValue`), and once its defaults
 *   are filled in (`Filled`): a property with a `default` is then always there.
 * The spec loader validates the whole document against the experiment schema first (ajv), so a section's
 * value is of its SchemaValue type from there on and the loader reads it without casts.
 *
 * The learners' parameters do the same with `defineParams` (src/registry.ts), which leaves `default` out of
 * the schema it publishes; a section keeps it, because the spec's schema always showed its defaults.
 */

/** A JSON Schema fragment written as a literal. */
export type SchemaDecl = { readonly [keyword: string]: unknown };

type TypeName<T> = T extends 'integer' | 'number'
  ? number
  : T extends 'string'
    ? string
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'object'
          ? Readonly<Record<string, unknown>>
          : T extends 'array'
            ? readonly unknown[]
            : unknown;

type Required_<D> = D extends { readonly required: readonly (infer R)[] } ? R : never;

/** An object schema's value: its `required` properties always there, the others optional. */
type ObjectValue<P, R> = {
  readonly [K in keyof P as K extends R ? K : never]: SchemaValue<P[K]>;
} & {
  readonly [K in keyof P as K extends R ? never : K]?: SchemaValue<P[K]>;
};

/** The TypeScript value of a JSON Schema literal (the keywords the spec's schema uses). */
export type SchemaValue<D> = D extends { readonly const: infer C }
  ? C
  : D extends { readonly enum: readonly (infer E)[] }
    ? E
    : D extends { readonly anyOf: readonly (infer A)[] }
      ? SchemaValue<A>
      : D extends { readonly type: 'array'; readonly items: infer I }
        ? readonly SchemaValue<I>[]
        : D extends { readonly type: 'object'; readonly properties: infer P }
          ? ObjectValue<P, Required_<D>>
          : D extends { readonly type: 'object'; readonly additionalProperties: infer V extends SchemaDecl }
            ? Readonly<Record<string, SchemaValue<V>>>
            : D extends { readonly type: readonly (infer T)[] }
              ? TypeName<T>
              : D extends { readonly type: infer T }
                ? TypeName<T>
                : unknown;

/** The properties of an object schema that declare a `default`, with their values. */
type DefaultsOf<D> = D extends { readonly properties: infer P }
  ? { readonly [K in keyof P as P[K] extends { readonly default: unknown } ? K : never]: SchemaValue<P[K]> }
  : never;

/** A section's value once its defaults are filled in. */
export type Filled<D> = SchemaValue<D> & DefaultsOf<D>;

interface Section<D> {
  readonly schema: D;
  readonly defaults: DefaultsOf<D>;
  /** The given section (absent: none) over the defaults. */
  fill(given: SchemaValue<D> | undefined): Filled<D>;
}

/** The schema, defaults and (through SchemaValue and Filled) the type of a spec section, from one literal. */
export function defineSection<const D extends SchemaDecl>(schema: D): Section<D> {
  const defaults = defaultsOf(schema);
  return {
    schema,
    // The one place a section's type is asserted: the defaults are read from the very object D describes.
    defaults: defaults as DefaultsOf<D>,
    fill: (given) => Object.assign({}, defaults, given) as Filled<D>,
  };
}

/** `default` of every property of an object schema that declares one. */
function defaultsOf(schema: SchemaDecl): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(propertiesOf(schema)).flatMap(([name, decl]) =>
      'default' in decl ? [[name, decl['default']]] : [],
    ),
  );
}

/** The `properties` of an object schema (a learner's parameters, a section), each a schema object. */
export function propertiesOf(schema: SchemaDecl): Record<string, SchemaDecl> {
  const properties = schema['properties'];
  if (!isRecord(properties)) return {};
  return Object.fromEntries(Object.entries(properties).filter((e): e is [string, SchemaDecl] => isRecord(e[1])));
}

export function isRecord(v: unknown): v is Readonly<Record<string, unknown>> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
