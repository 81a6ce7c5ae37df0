/**
 * One Vega template per kind of figure, drawn by a new view for every figure of that kind. The figures of one
 * kind (the scatter plots of method against method, the critical-difference diagrams, the fold box plots)
 * share a Vega-Lite spec and differ only in their texts (titles), their number ranges (scale domains), the
 * numbers that lay them out (a height, a panel's width, a number of columns) and their data. Compiling that
 * spec with Vega-Lite, parsing the Vega spec and building a `View` cost about three quarters of drawing a
 * figure afresh (docs/performance.md), so a kind's spec is compiled once, with a placeholder in each varying
 * slot, into a template whose slots are Vega signals and named data sets; each figure of the kind then sets
 * the signals and the data on a new view of the kind's template and renders it. The SVG is the one the
 * figure's own spec renders to: Vega draws the same scene from a signal as from the literal it holds
 * (test/report/figure-views.test.ts renders both ways and compares the bytes).
 *
 * A template is made only when every placeholder lands where a signal can take its place (a title, an axis
 * title, the start of a string in an expression, a scale's domain, the view's width or height, a layout's
 * number of columns, a signal's value, a data set's values); when one does not (a Vega-Lite version that
 * compiles the spec otherwise) the kind is drawn afresh figure by figure, as before.
 *
 * A template depends only on the kind's spec with placeholders and on the vega versions, so it is a cache
 * entry (`vega-template`), and `npm run build` ships the three kinds' in dist/cache/: a process draws its first
 * figure of a kind without compiling and parsing its spec (in a new process: 35 ms of CPU for a scatter plot;
 * a first diagram took 61–89 ms against 87–111, a 12-method box plot 195–225 against 251–323;
 * docs/performance.md). Vega's parsed spec is JSON but for a few undefined members (which JSON leaves out) and
 * the class of its operator entries; a template is always the JSON text read back, made now or read from the
 * cache, so every process draws from the same object.
 */
import type { TopLevelSpec } from 'vega-lite';
import { cachedJson, contentCacheKey } from '../util/cache.js';
import { canonicalJson } from '../util/hash.js';

/** What varies between the figures of one kind. */
export interface FigureSlots {
  /** Texts (titles), by slot name. */
  readonly texts: Readonly<Record<string, string>>;
  /** Number ranges (scale domains), by slot name. */
  readonly ranges: Readonly<Record<string, readonly [number, number]>>;
  /**
   * Numbers that lay the figure out, by slot name: the view's `width` or `height`, a layout's number of
   * `columns`, or the value of the signal of that name (`child_width`: a facet panel's width).
   */
  readonly numbers: Readonly<Record<string, number>>;
  /** Data sets (their rows), by slot name. */
  readonly data: Readonly<Record<string, readonly object[]>>;
}

/** The parts of vega a template view needs (vega is loaded by figures.ts, on first use). */
export interface VegaModule {
  parse(spec: object): unknown;
  /** A dataflow's parsing context (vega-runtime's `context`); its `expr` is Vega's expression compiler. */
  runtimeContext?(dataflow: { events(): unknown }, transforms: object, functions: undefined): { expr?: unknown };
  View: new (
    runtime: never,
    opts: { renderer: 'none'; expr?: object },
  ) => {
    signal(name: string, value: unknown): unknown;
    data(name: string, values: object[]): unknown;
    toSVG(): Promise<string>;
    finalize(): unknown;
  };
}

// Placeholders: words no title holds, so finding one in the compiled spec can only mean its slot.
const textMark = (slot: string): string => `BnclabSlotText${slot}Mark`;
const rangeMark = (i: number): [number, number] => [-987654.125 - i, 987654.875 + i];
const numberMark = (i: number): number => 987654.625 + i;
const dataMark = (slot: string): object[] => [{ bnclabSlotData: slot }];
const signalOf = (kind: 'text' | 'range' | 'number', slot: string): string =>
  `bnclab_${kind}_${slot.replace(/\W/g, '_')}`;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * The template of a compiled spec made from placeholders (see FigureSlots): each placeholder replaced by a
 * signal or emptied data set, or undefined when one of them is somewhere this does not know how to replace.
 */
export function templateOf(
  compiled: object,
  slots: FigureSlots,
): { spec: object; signals: Map<string, string>; data: Map<string, string> } | undefined {
  const spec = structuredClone(compiled) as { [k: string]: Json };
  const signals = new Map<string, string>();
  const dataNames = new Map<string, string>();
  const textSlots = Object.keys(slots.texts);
  const rangeSlots = Object.keys(slots.ranges);
  const numberSlots = Object.keys(slots.numbers);
  // The signal standing for a number slot's placeholder, if `node` is one and `slot` is its name.
  const numberSignal = (node: Json, slot: string): string | undefined => {
    const i = numberSlots.indexOf(slot);
    if (i < 0 || node !== numberMark(i)) return undefined;
    const name = signalOf('number', slot);
    signals.set(`number:${slot}`, name);
    return name;
  };
  const dataSlots = Object.keys(slots.data);
  const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

  const visit = (node: Json, key: string | undefined): Json => {
    if (typeof node === 'string') {
      for (const slot of textSlots) {
        const mark = textMark(slot);
        if (!node.includes(mark)) continue;
        const name = signalOf('text', slot);
        if (node === mark && (key === 'text' || key === 'title')) {
          signals.set(`text:${slot}`, name);
          return { signal: name };
        }
        if (key === 'signal' || key === 'expr') {
          node = spliceIntoStrings(node, mark, name);
          signals.set(`text:${slot}`, name);
        }
      }
      return node;
    }
    if (Array.isArray(node)) {
      if (key === 'domain') {
        const i = rangeSlots.findIndex((_slot, j) => sameJson(node, rangeMark(j)));
        if (i >= 0) {
          const name = signalOf('range', rangeSlots[i]);
          signals.set(`range:${rangeSlots[i]}`, name);
          return { signal: name };
        }
      }
      return node.map((x) => visit(x, undefined));
    }
    if (node !== null && typeof node === 'object') {
      if (Array.isArray(node.values) && typeof node.name === 'string') {
        const slot = dataSlots.find((s) => sameJson(node.values, dataMark(s)));
        if (slot !== undefined) {
          dataNames.set(slot, node.name);
          return { ...node, values: [] };
        }
      }
      // A signal whose value is a number slot's placeholder: the signal follows the slot's.
      if (typeof node.name === 'string' && 'value' in node && !('update' in node)) {
        const name = numberSignal(node.value, node.name);
        if (name !== undefined) {
          const { value: _placeholder, ...rest } = node;
          return { ...rest, update: name };
        }
      }
      if (key === 'layout' && 'columns' in node) {
        const name = numberSignal(node.columns, 'columns');
        if (name !== undefined) return { ...node, columns: { signal: name } };
      }
      const out: { [k: string]: Json } = {};
      for (const [k, v] of Object.entries(node)) out[k] = visit(v, k);
      return out;
    }
    return node;
  };
  const template = visit(spec, undefined) as { [k: string]: Json };
  // The view's width and height, which Vega takes from a signal as well as from a number.
  for (const slot of ['width', 'height']) {
    const name = numberSignal(template[slot], slot);
    if (name !== undefined) template[slot] = { signal: name };
  }
  // Every placeholder must have become a signal or a data set, and every slot must be used.
  if (JSON.stringify(template).includes('BnclabSlot') || JSON.stringify(template).includes('987654')) return undefined;
  if (signals.size !== textSlots.length + rangeSlots.length + numberSlots.length || dataNames.size !== dataSlots.length)
    return undefined;
  const initial = (slot: string): Json => (slot.startsWith('text:') ? '' : slot.startsWith('number:') ? 0 : [0, 1]);
  const declared = [...signals].map(([slot, name]) => ({ name, value: initial(slot) }));
  const existing = Array.isArray(template.signals) ? template.signals : [];
  return { spec: { ...template, signals: [...declared, ...existing] }, signals, data: dataNames };
}

/**
 * A Vega expression with each occurrence of `mark` inside a double-quoted string literal replaced by the
 * value of signal `name` ("a: <mark>; b" becomes "a: " + name + "; b"); an occurrence anywhere else is left
 * (so the template is refused).
 */
export function spliceIntoStrings(expr: string, mark: string, name: string): string {
  let out = '';
  let quote = '';
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i];
    if (quote === '"' && expr.startsWith(mark, i)) {
      out += `" + ${name} + "`;
      i += mark.length - 1;
      continue;
    }
    out += c;
    if (quote !== '' && c === '\\') {
      out += expr[++i] ?? '';
    } else if (quote === '' && (c === '"' || c === "'")) {
      quote = c;
    } else if (c === quote) {
      quote = '';
    }
  }
  return out;
}

/** The placeholders of a kind's slots (the same slot names as its figures'). */
export function placeholders(slots: FigureSlots): FigureSlots {
  return {
    texts: Object.fromEntries(Object.keys(slots.texts).map((s) => [s, textMark(s)])),
    ranges: Object.fromEntries(Object.keys(slots.ranges).map((s, i) => [s, rangeMark(i)])),
    numbers: Object.fromEntries(Object.keys(slots.numbers).map((s, i) => [s, numberMark(i)])),
    data: Object.fromEntries(Object.keys(slots.data).map((s) => [s, dataMark(s)])),
  };
}

/**
 * Whether Vega-Lite compiles the figure's spec as it compiled the placeholders': it looks at a text only to
 * leave out an empty one and to say a repeated one once (a point's description names an axis title once when
 * both axes have the same title), and it writes a text into an expression without escaping its backslashes
 * (so a backslash is lost from the description); it looks at a range only when it is not an increasing pair,
 * and at a number only when it is not a positive one.
 */
function likePlaceholders(slots: FigureSlots): boolean {
  const texts = Object.values(slots.texts);
  if (texts.some((t) => t.trim() === '' || t.includes('\\')) || new Set(texts).size !== texts.length) return false;
  if (!Object.values(slots.numbers).every((n) => Number.isFinite(n) && n > 0)) return false;
  return Object.values(slots.ranges).every(([lo, hi]) => Number.isFinite(lo) && Number.isFinite(hi) && lo < hi);
}

/** The kinds of expression Vega's expression compiler makes a function of (vega-runtime's codegen). */
const EXPRESSION_KINDS = ['operator', 'parameter', 'event', 'handler', 'encode'] as const;
type ExpressionKind = (typeof EXPRESSION_KINDS)[number];
/** An expression as Vega's runtime spec holds it: its code, or an encoder's mark type and channels. */
interface Expression {
  readonly code?: string;
  readonly marktype?: string;
  readonly channels?: object;
}
type Compiled = (...args: never[]) => unknown;
type Compile = (ctx: { functions?: object } | null, expr: Expression) => Compiled;
type ExpressionCompiler = Record<ExpressionKind, Compile> & { readonly codegen: unknown };

/**
 * Vega's expression compiler with each function it makes kept by its text, for the template views. A new view
 * compiles every expression of its runtime spec (the marks' encoders, formulas, signals' updates) with
 * `Function`, and the figures of a kind have the same texts: through the View's `expr` option each text is
 * compiled once per process, and each view gets the function bound to its own function context, as Vega binds
 * it. The functions are made by Vega's own compiler and keep no state (what Vega sets on an expression's
 * function it sets on the bound one, made per view). Drawing the 25 figures of a 960-job report (2 diagrams,
 * 22 scatter plots, a box plot) took 8 % less CPU (docs/performance.md); the SVGs are the same, byte for byte
 * (test/report/figure-views.test.ts). Undefined, and each view compiles its own as before, where this vega's
 * context does not show its compiler.
 */
export function sharedExpressions(vega: VegaModule): ExpressionCompiler | undefined {
  let shared = sharedCompilers.get(vega);
  if (shared === undefined) {
    shared = expressionsKeptByText(vega) ?? null;
    sharedCompilers.set(vega, shared);
  }
  return shared ?? undefined;
}
// Per vega module (a process may load two: a test imports the package, the report loads the bundle).
const sharedCompilers = new WeakMap<VegaModule, ExpressionCompiler | null>();

function expressionsKeptByText(vega: VegaModule): ExpressionCompiler | undefined {
  let base: ExpressionCompiler | undefined;
  try {
    base = vega.runtimeContext?.({ events: () => undefined }, {}, undefined).expr as ExpressionCompiler | undefined;
  } catch {
    return undefined; // a vega whose context is made otherwise: each view compiles its own
  }
  if (!base || !EXPRESSION_KINDS.every((k) => typeof base[k] === 'function')) return undefined;
  const compiled = new Map<string, Compiled>();
  const kept =
    (kind: ExpressionKind, textOf: (e: Expression) => string): Compile =>
    (ctx, e) => {
      if (!ctx?.functions) return base[kind](ctx, e);
      const key = `${kind}\0${textOf(e)}`;
      let fn = compiled.get(key);
      if (fn === undefined) {
        fn = base[kind](null, e); // unbound: Vega binds a function only to a context it is given
        compiled.set(key, fn);
      }
      return fn.bind(ctx.functions);
    };
  const code = (e: Expression): string => String(e.code);
  return {
    operator: kept('operator', code),
    parameter: kept('parameter', code),
    event: kept('event', code),
    handler: kept('handler', code),
    // An encoder's code is made from its mark type and its channels' codes.
    encode: kept('encode', (e) => `${e.marktype}\0${JSON.stringify(e.channels)}`),
    codegen: base.codegen,
  };
}

// Per kind: its template, parsed (undefined when its spec could not be made a template), made on its first figure.
const templates = new Map<string, Template | undefined>();

/** Forget the templates made in this process (tests that read them from the cache folder). */
export function forgetTemplates(): void {
  templates.clear();
}

// How a template is made and stored (templateOf, StoredTemplate): part of its cache key.
const TEMPLATE_FORMAT = 'signals-and-data-1';

/** A template as the cache holds it: Vega's parsed spec, and each slot's signal or data set name. */
interface StoredTemplate {
  readonly runtime: object;
  readonly signals: [string, string][];
  readonly data: [string, string][];
}

/** A kind's parsed template and the names in it of each slot's signal or data set. */
interface Template {
  readonly runtime: unknown;
  readonly signals: ReadonlyMap<string, string>;
  readonly data: ReadonlyMap<string, string>;
}

/**
 * The SVG of the figure with these slots of a kind whose spec `specOf` makes, drawn from the kind's template;
 * or undefined when the kind has no template or the figure's slots do not fit it (the caller draws the
 * figure's own spec then).
 */
export async function drawWithTemplate(
  kind: string,
  specOf: (slots: FigureSlots) => TopLevelSpec,
  slots: FigureSlots,
  vega: VegaModule,
  compile: (spec: TopLevelSpec) => { spec: object },
  versions: string,
): Promise<string | undefined> {
  if (!likePlaceholders(slots)) return undefined;
  if (!templates.has(kind)) {
    const spec = specOf(placeholders(slots));
    const key = contentCacheKey('vega-template', TEMPLATE_FORMAT, versions, canonicalJson(spec));
    const stored = cachedJson<StoredTemplate | null>('vega-template', key, () => {
      try {
        const made = templateOf(compile(spec).spec, slots);
        if (!made) return null;
        const runtime = JSON.parse(JSON.stringify(vega.parse(made.spec))) as object;
        return { runtime, signals: [...made.signals], data: [...made.data] };
      } catch {
        return null; // a spec that does not compile or parse with placeholders: drawn afresh
      }
    });
    templates.set(
      kind,
      stored ? { runtime: stored.runtime, signals: new Map(stored.signals), data: new Map(stored.data) } : undefined,
    );
  }
  const t = templates.get(kind);
  if (t === undefined) return undefined;
  // A new view each time: a view that drew another figure keeps some of its layout (its axes' ticks in the
  // order they first appeared, offsets computed from the previous bounds), and the bytes would differ.
  const expr = sharedExpressions(vega);
  const view = new vega.View(t.runtime as never, { renderer: 'none', ...(expr ? { expr } : {}) });
  try {
    for (const [slot, text] of Object.entries(slots.texts)) view.signal(t.signals.get(`text:${slot}`)!, text);
    for (const [slot, range] of Object.entries(slots.ranges)) view.signal(t.signals.get(`range:${slot}`)!, [...range]);
    for (const [slot, n] of Object.entries(slots.numbers)) view.signal(t.signals.get(`number:${slot}`)!, n);
    // Copies: vega marks the rows it ingests.
    for (const [slot, rows] of Object.entries(slots.data))
      view.data(
        t.data.get(slot)!,
        rows.map((r) => ({ ...r })),
      );
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
