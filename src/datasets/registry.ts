/**
 * The data set registry: configs/datasets.yaml, plus user files named by path. A spec refers to data sets
 * by registry name ('iris'), by group ('hdp68', 'quickstart', 'small', ...) or by a path ending in .csv or
 * .arff. Registry entries carry a sha256 that load.ts verifies; user files are hashed when loaded.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve as resolvePath } from 'node:path';
import { UserError } from '../util/errors.js';
import { cachedJson, contentCacheKey } from '../util/cache.js';
import { baseName, type ColumnType } from './columns.js';
import type { DerivedFrom } from './derive.js';

export type DatasetFormat = 'csv' | 'arff';

interface DatasetSource {
  /** Debian package, R/Python package, or 'github:owner/repo'. */
  readonly package: string;
  /** Package version or commit. */
  readonly version?: string;
  /** File(s) inside the package or repository. */
  readonly path: string;
}

export interface DatasetEntry {
  readonly name: string;
  readonly title?: string;
  /** Path as written in the registry (relative to the repository root) or as given by the user. */
  readonly file: string;
  /** Absolute path. */
  readonly path: string;
  readonly format: DatasetFormat;
  /** Class column; undefined = the reader's default ('class' if present, else the last column). */
  readonly classColumn?: string;
  /** Declared column types (class excluded); undefined for user files (types are inferred). */
  readonly columnTypes?: Readonly<Record<string, ColumnType>>;
  readonly rows?: number;
  readonly attributes?: number;
  readonly classes?: number;
  readonly licence?: string;
  /** Expected sha256 of the file; undefined for user files. */
  readonly sha256?: string;
  readonly source?: DatasetSource;
  readonly groups: readonly string[];
  readonly notes?: readonly string[];
  /** A declared class mapping of another registry data set, which the file is (src/datasets/derive.ts). */
  readonly derived?: DerivedFrom;
  /** True for registry entries, false for user files. */
  readonly builtin: boolean;
}

interface Registry {
  readonly root: string;
  /** The registry file (absolute). */
  readonly file: string;
  /** Entries sorted by name. */
  readonly entries: readonly DatasetEntry[];
  /** Group names with their descriptions, in file order. */
  readonly groups: ReadonlyMap<string, string>;
  has(name: string): boolean;
  /** Every entry, sorted by name. */
  all(): DatasetEntry[];
  /** Entry by name; UserError listing close matches when unknown. */
  get(name: string): DatasetEntry;
  /** Members of a group in name order; UserError when unknown. */
  group(name: string): DatasetEntry[];
  /**
   * Data sets a spec refers to: a path ending in .csv/.arff (relative to opts.baseDir, default the working
   * directory; a path to a registered file gives the registry entry), a data set name, or a group name.
   * opts.where (e.g. "spec.yaml:7:5") prefixes error messages.
   */
  resolve(spec: string, opts?: ResolveOptions): DatasetEntry[];
}

interface ResolveOptions {
  readonly baseDir?: string;
  readonly where?: string;
}

const REGISTRY_FILE = 'configs/datasets.yaml';

/** The repository root (the folder holding package.json), from src/ (tests) or dist/src/ (compiled CLI). */
export { packageRoot as findRepoRoot } from '../util/paths.js';
import { packageRoot as findRepoRoot } from '../util/paths.js';

const cache = new Map<string, Registry>();

export function loadRegistry(repoRoot?: string): Registry {
  const root = resolvePath(repoRoot ?? findRepoRoot());
  let reg = cache.get(root);
  if (!reg) {
    reg = readRegistry(root);
    cache.set(root, reg);
  }
  return reg;
}

/**
 * An entry for a user file: named after the file (without extension), `file` and `path` both absolute,
 * column types inferred and the hash computed when loaded.
 */
export function userFileEntry(file: string, baseDir?: string, where?: string): DatasetEntry {
  const format = formatOf(file);
  const prefix = where ? `${where}: ` : '';
  if (!format) throw new UserError(`${prefix}dataset file '${file}' must end in .csv or .arff`);
  const path = isAbsolute(file) ? file : resolvePath(baseDir ?? process.cwd(), file);
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new UserError(`${prefix}dataset file '${file}' not found (looked for ${path})`);
  }
  return { name: baseName(file), file: path, path, format, groups: [], builtin: false };
}

function formatOf(file: string): DatasetFormat | null {
  const f = file.toLowerCase();
  return f.endsWith('.csv') ? 'csv' : f.endsWith('.arff') ? 'arff' : null;
}

// ---------------------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// yaml (CommonJS) is required only where the registry's cached parse misses: loading the parser costs about
// 0.025 s of CPU, more than reading the cached parse. That saves it in a process that looks a data set up
// without reading a spec (`bnclab datasets`, a benchmark's child); a spec's reader (spec/load.ts) loads it
// anyway.
const require = createRequire(import.meta.url);

function readRegistry(root: string): Registry {
  const file = join(root, REGISTRY_FILE);
  const shown = REGISTRY_FILE;
  if (!existsSync(file)) throw new UserError(`${shown}: registry file not found under ${root}`);
  const text = readFileSync(file, 'utf8');
  // Parsing the ~100 kB registry is most of a short command's start-up, so its parsed form is cached under
  // the sha256 of the text (an edited registry is a new key).
  const data: unknown = cachedJson('registry-yaml', contentCacheKey('registry-yaml', text), () => {
    const { parseDocument } = require('yaml') as typeof import('yaml');
    const doc = parseDocument(text);
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      const pos = e.linePos?.[0];
      const what = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      throw new UserError(`${shown}${pos ? `:${pos.line}:${pos.col}` : ''}: ${what}`);
    }
    return doc.toJS() as unknown;
  });
  if (!isObj(data)) throw new UserError(`${shown}: expected a mapping with 'groups' and 'datasets'`);
  const groups = new Map<string, string>();
  if (data['groups'] !== undefined) {
    if (!isObj(data['groups'])) throw new UserError(`${shown}: groups: expected a mapping name -> description`);
    for (const [g, d] of Object.entries(data['groups'])) groups.set(g, String(d ?? ''));
  }
  const list = data['datasets'];
  if (!Array.isArray(list)) throw new UserError(`${shown}: datasets: expected a list`);
  const entries = list.map((item, i) => parseEntry(item, `${shown}: datasets[${i}]`, root, groups));
  const byName = new Map<string, DatasetEntry>();
  for (const e of entries) {
    if (byName.has(e.name)) throw new UserError(`${shown}: data set '${e.name}' is listed twice`);
    if (groups.has(e.name)) throw new UserError(`${shown}: '${e.name}' is both a data set and a group name`);
    byName.set(e.name, e);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byPath = new Map(entries.map((e) => [e.path, e]));

  const unknown = (what: string, name: string, where?: string): UserError => {
    // Suggest what fits the question: a group for a group, a data set for a data set.
    const candidates =
      what === 'data set group'
        ? [...groups.keys()]
        : what === 'data set'
          ? [...byName.keys()]
          : [...byName.keys(), ...groups.keys()];
    const close = closeMatches(name, candidates);
    const hint =
      close.length > 0
        ? `; did you mean ${close.join(', ')}?`
        : what === 'data set group'
          ? `; groups: ${[...groups.keys()].join(', ')}`
          : `; see ${shown}`;
    return new UserError(`${where ? `${where}: ` : ''}unknown ${what} '${name}'${hint}`);
  };

  const reg: Registry = {
    root,
    file,
    entries,
    groups,
    has: (name) => byName.has(name),
    all: () => entries.slice(),
    get(name) {
      const e = byName.get(name);
      if (!e) throw unknown('data set', name);
      return e;
    },
    group(name) {
      if (!groups.has(name)) throw unknown('data set group', name);
      return entries.filter((e) => e.groups.includes(name));
    },
    resolve(spec, opts = {}) {
      if (formatOf(spec)) {
        const user = userFileEntry(spec, opts.baseDir, opts.where);
        return [byPath.get(user.path) ?? user];
      }
      if (byName.has(spec)) return [byName.get(spec)!];
      if (groups.has(spec)) return reg.group(spec);
      throw unknown('data set or group', spec, opts.where);
    },
  };
  return reg;
}

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function parseEntry(item: unknown, where: string, root: string, groups: Map<string, string>): DatasetEntry {
  if (!isObj(item)) throw new UserError(`${where}: expected a mapping`);
  const name = item['name'];
  if (typeof name !== 'string' || !NAME_RE.test(name)) {
    throw new UserError(`${where}: name must be letters, digits, '.', '_' or '-', got ${JSON.stringify(name)}`);
  }
  const at = `${where} (${name})`;
  const str = (k: string, required: boolean): string | undefined => {
    const v = item[k];
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || v === '') throw new UserError(`${at}: ${k} must be a non-empty string`);
    return v;
  };
  const int = (k: string): number | undefined => {
    const v = item[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      throw new UserError(`${at}: ${k} must be a non-negative integer`);
    return v;
  };
  const file = str('file', true)!;
  const format = formatOf(file);
  if (!format) throw new UserError(`${at}: file must end in .csv or .arff, got '${file}'`);
  const path = resolvePath(root, file);
  if (relative(root, path).startsWith('..')) throw new UserError(`${at}: file must lie inside the repository`);
  const sha256 = str('sha256', false);
  if (sha256 !== undefined && !/^[0-9a-f]{64}$/.test(sha256))
    throw new UserError(`${at}: sha256 must be 64 lowercase hex digits`);

  let columnTypes: Record<string, ColumnType> | undefined;
  const cols = item['columns'];
  if (cols !== undefined) {
    if (!isObj(cols)) throw new UserError(`${at}: columns must be a mapping name -> numeric|categorical`);
    columnTypes = {};
    for (const [c, t] of Object.entries(cols)) {
      if (t !== 'numeric' && t !== 'categorical')
        throw new UserError(`${at}: columns.${c} must be numeric or categorical, got ${JSON.stringify(t)}`);
      columnTypes[c] = t;
    }
  }
  const g = item['groups'] ?? [];
  if (!Array.isArray(g) || !g.every((x) => typeof x === 'string'))
    throw new UserError(`${at}: groups must be a list of names`);
  for (const x of g as string[]) {
    if (!groups.has(x)) throw new UserError(`${at}: group '${x}' is not declared under groups`);
  }
  let source: DatasetSource | undefined;
  const s = item['source'];
  if (s !== undefined) {
    if (!isObj(s) || typeof s['package'] !== 'string' || typeof s['path'] !== 'string') {
      throw new UserError(`${at}: source must have package and path`);
    }
    source = {
      package: s['package'],
      path: s['path'],
      ...(s['version'] !== undefined ? { version: String(s['version']) } : {}),
    };
  }
  const notes = item['notes'];
  if (notes !== undefined && (!Array.isArray(notes) || !notes.every((x) => typeof x === 'string'))) {
    throw new UserError(`${at}: notes must be a list of strings`);
  }
  let derived: DerivedFrom | undefined;
  const dv = item['derived'];
  if (dv !== undefined) {
    const map = isObj(dv) ? dv['class_map'] : undefined;
    if (
      !isObj(dv) ||
      typeof dv['from'] !== 'string' ||
      !isObj(map) ||
      !Object.values(map).every((x) => typeof x === 'string')
    ) {
      throw new UserError(`${at}: derived must have from (a data set) and class_map (value -> value)`);
    }
    derived = { from: dv['from'], class_map: map as Record<string, string> };
  }
  const title = str('title', false);
  const classColumn = str('class', false);
  const licence = str('licence', false);
  const rows = int('rows');
  const attributes = int('attributes');
  const classes = int('classes');
  return {
    name,
    file,
    path,
    format,
    groups: g as string[],
    builtin: true,
    ...(title !== undefined ? { title } : {}),
    ...(classColumn !== undefined ? { classColumn } : {}),
    ...(columnTypes !== undefined ? { columnTypes } : {}),
    ...(rows !== undefined ? { rows } : {}),
    ...(attributes !== undefined ? { attributes } : {}),
    ...(classes !== undefined ? { classes } : {}),
    ...(licence !== undefined ? { licence } : {}),
    ...(sha256 !== undefined ? { sha256 } : {}),
    ...(source !== undefined ? { source } : {}),
    ...(notes !== undefined ? { notes: notes as string[] } : {}),
    ...(derived !== undefined ? { derived } : {}),
  };
}

/** Candidates within a small edit distance of name, or containing it / contained in it; at most 5. */
export function closeMatches(name: string, candidates: readonly string[]): string[] {
  const q = name.toLowerCase();
  const scored: [number, string][] = [];
  for (const c of candidates) {
    const l = c.toLowerCase();
    const d = editDistance(q, l);
    const limit = Math.max(2, Math.floor(q.length / 3));
    if (d <= limit) scored.push([d, c]);
    else if (q.length >= 3 && (l.includes(q) || q.includes(l))) scored.push([limit + 1, c]);
  }
  scored.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
  return scored.slice(0, 5).map((s) => s[1]);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
