/**
 * Every registered method's output pinned on one small fixed problem, with its implementation revision
 * (`revision` in its registration; see docs/extending.md). A change that alters a method's numbers must raise
 * its revision, so that stored results of the old code are told apart (a revision above 1 enters the job key;
 * `run --rerun-stale` recomputes them). When the output changes and the revision does not, this test fails and
 * names the revision to raise; after raising it, record the new output with
 *   BNCLAB_RECORD_REVISIONS=1 npx vitest run test/architecture/revisions.test.ts
 * which rewrites test/fixtures/revisions/outputs.json (commit it with the change).
 *
 * A structure learner is pinned by the structure it returns (parents, members and their weights, gates, rows,
 * diagnostics), so a change of an estimator is not blamed on it; an estimator by its posteriors on naive Bayes,
 * a baseline by its posteriors; each with its default parameters. The external baseline is left out: its numbers are the user's
 * program's, and its harness (files in, probabilities out) has its own tests (test/baselines/external*.test.ts).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import '../../src/methods.js';
import {
  getEstimator,
  getStructure,
  listBaselines,
  listEstimators,
  listStructures,
  withDefaults,
  type MethodInfo,
} from '../../src/registry.js';
import { MISSING, type DiscreteData } from '../../src/bn/data.js';
import { sha256Hex } from '../../src/util/hash.js';
import { Rng } from '../../src/util/rng.js';

// BNCLAB_REVISIONS_FILE records elsewhere (to compare the outputs of two code states).
const FILE = process.env['BNCLAB_REVISIONS_FILE'] ?? new URL('../fixtures/revisions/outputs.json', import.meta.url);
const RECORD = process.env['BNCLAB_RECORD_REVISIONS'] === '1';
const UNPINNED = new Set(['baseline/external']);

/** 4 attributes (cards 2, 3, 2, 4), 3 classes, some class signal, a chain between attributes, 5% missing. */
function problem(seed: string, n: number): DiscreteData {
  const rng = new Rng(seed);
  const cards = [2, 3, 2, 4];
  const columns = cards.map(() => new Int32Array(n));
  const classColumn = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const c = rng.int(3);
    classColumn[r] = c;
    let prev = 0;
    cards.forEach((card, a) => {
      const u = rng.next();
      let v = u < 0.5 ? (c + a) % card : u < 0.75 ? prev % card : rng.int(card);
      prev = v;
      if (rng.next() < 0.05) v = MISSING;
      columns[a][r] = v;
    });
  }
  return {
    n,
    names: cards.map((_, a) => `A${a}`),
    labels: cards.map((k) => Array.from({ length: k }, (_, v) => `v${v}`)),
    cards: Int32Array.from(cards),
    columns,
    className: 'class',
    classLabels: ['c0', 'c1', 'c2'],
    classCard: 3,
    classColumn,
  };
}

const train = problem('revisions/train', 80);
const test = problem('revisions/test', 20);

interface Pinned {
  readonly revision: number;
  /** sha256 of the output as text, every number to 10 significant digits. */
  readonly sha256: string;
  /** The output's first characters, for a reader. */
  readonly first: string;
}

/** JSON with every number to 10 significant digits and typed arrays as arrays. */
function text(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    typeof x === 'number'
      ? x.toPrecision(10)
      : ArrayBuffer.isView(x)
        ? Array.from(x as unknown as ArrayLike<number>, (y) => y.toPrecision(10))
        : x,
  );
}

function pin(revision: number, out: unknown): Pinned {
  const t = text(out);
  return { revision, sha256: sha256Hex(t).slice(0, 16), first: t.slice(0, 60) };
}

function output(kind: string, id: string, given?: Record<string, unknown>): unknown {
  try {
    return outputWith(kind, id, given);
  } catch (e) {
    // A setting the fixed problem cannot take is pinned by its message: a change there is a change too.
    return { error: (e as Error).message };
  }
}

function outputWith(kind: string, id: string, given?: Record<string, unknown>): unknown {
  const rng = new Rng('revisions');
  if (kind === 'baseline') {
    const b = listBaselines().find((x) => x.id === id)!;
    return b.fit(train, withDefaults(b, given), { rng: rng.derive('baseline') }).posterior(test);
  }
  const s = getStructure(kind === 'structure' ? id : 'nb')!;
  const structure = s.learn(train, withDefaults(s, kind === 'structure' ? given : undefined), {
    rng: rng.derive('structure'),
  });
  if (kind === 'structure') return structure;
  const e = getEstimator(id)!;
  return e.fit(train, structure, withDefaults(e, given), { rng: rng.derive('estimator') }).posterior(test);
}

/**
 * Every method under its defaults, and under each other value of each of its enum parameters (one at a
 * time): a variant a spec names explicitly keeps its job key when its code changes, so its output is pinned
 * too (`tie: bnclassify`, `variant: bnclassify` changed numbers under unchanged keys before this was pinned).
 */
function settingsOf(m: MethodInfo): [string, Record<string, unknown> | undefined][] {
  const props = (m.params as { properties?: Record<string, { enum?: unknown[] }> }).properties ?? {};
  const out: [string, Record<string, unknown> | undefined][] = [['', undefined]];
  for (const [param, schema] of Object.entries(props)) {
    const fallback = m.defaults[param] ?? m.implicitDefaults[param];
    for (const value of schema.enum ?? []) {
      if (value !== fallback) out.push([` ${param}=${String(value)}`, { [param]: value }]);
    }
  }
  return out;
}

const methods: [string, MethodInfo, Record<string, unknown> | undefined][] = [
  ...listStructures().map((m) => ['structure', m] as const),
  ...listEstimators().map((m) => ['estimator', m] as const),
  ...listBaselines().map((m) => ['baseline', m] as const),
]
  .filter(([kind, m]) => !UNPINNED.has(`${kind}/${m.id}`))
  .flatMap(([kind, m]) =>
    settingsOf(m).map(
      ([suffix, given]) => [`${kind}/${m.id}${suffix}`, m, given] as [string, MethodInfo, typeof given],
    ),
  );

const recorded: Record<string, Pinned> = existsSync(FILE) ? JSON.parse(readFileSync(FILE, 'utf8')) : {};
const now: Record<string, Pinned> = {};

describe('implementation revisions', () => {
  for (const [name, m, given] of methods) {
    it(`${name} (revision ${m.revision}) gives its pinned output`, () => {
      const kind = name.split('/')[0];
      const id = m.id;
      const got = pin(m.revision, output(kind, id, given));
      now[name] = got;
      if (RECORD) return;
      const was = recorded[name];
      const where = `${name}: revision ${m.revision}`;
      expect(
        was,
        `${where} has no pinned output; record it (BNCLAB_RECORD_REVISIONS=1, see this file's header)`,
      ).toBeDefined();
      if (got.sha256 !== was.sha256 && m.revision === was.revision) {
        expect.fail(
          `${name}: its output changed (${was.first} → ${got.first}) but its revision ` +
            `is still ${m.revision}: raise 'revision' in register${kind[0].toUpperCase()}${kind.slice(1)}({ id: '${id}', … }) to ${m.revision + 1} (stored results of revision ` +
            `${m.revision} then count as stale), and record the new output (BNCLAB_RECORD_REVISIONS=1)`,
        );
      }
      expect(m.revision, `${where}: a revision never goes down (pinned at ${was.revision})`).toBeGreaterThanOrEqual(
        was.revision,
      );
      if (m.revision !== was.revision) {
        expect.fail(`${where} was pinned at revision ${was.revision}: record its output (BNCLAB_RECORD_REVISIONS=1)`);
      }
      expect(got).toEqual(was);
    });
  }

  it('pins no method that is not registered', () => {
    const names = new Set(methods.map(([n]) => n));
    expect(Object.keys(recorded).filter((n) => !names.has(n))).toEqual([]);
  });

  it.runIf(RECORD)('records the outputs', () => {
    const sorted = Object.fromEntries(
      Object.keys(now)
        .sort()
        .map((k) => [k, now[k]]),
    );
    writeFileSync(FILE, `${JSON.stringify(sorted, null, 2)}\n`);
  });
});
