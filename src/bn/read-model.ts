/**
 * A fitted network read back from a file `bnclab fit` wrote (bnclab JSON, BIF 0.15 or XMLBIF 0.3; also such
 * files written by bnlearn, pgmpy or Weka), as `bnclab predict` uses it: node names, states, parents and
 * tables, the class node, and the preprocessing the model was fitted with when the file holds it.
 *
 * bnclab's JSON stores the fitted preprocessing (the cut points of every discretized attribute, exactly, and
 * the attributes given a "missing" state). BIF and XMLBIF hold no such field: an attribute whose states are
 * intervals as bnclab names them ("(-inf,2.45]", "(2.45,4.75]", "(4.75,inf)"; in BIF, where brackets are not
 * allowed, "_-inf_2.45_", …) is read back as discretized with those cut points (printed with at most 6
 * decimals), and a state named "?" (BIF "_") as the missing-value state.
 */
import { CptModel } from './cpt.js';
import type { DenseNodeCpt } from './tables.js';

interface NetworkNode {
  readonly name: string;
  readonly states: readonly string[];
  readonly parents: readonly string[];
  /** rows[cfg] = distribution of the node, cfg = Σ parent values with the last parent varying fastest. */
  readonly rows: readonly (readonly number[])[];
}

interface FittedPreprocessing {
  /** Cut points per discretized attribute (states are the intervals, in order). */
  readonly cuts: Readonly<Record<string, readonly number[]>>;
  /** Attributes whose last state stands for a missing value. */
  readonly missingState: readonly string[];
  /** Where these came from: stored by `fit` (json) or read from the state names (bif, xmlbif). */
  readonly source: 'stored' | 'state-names';
}

export interface NetworkFile {
  readonly format: 'json' | 'bif' | 'xmlbif';
  readonly name: string;
  readonly className: string;
  readonly nodes: readonly NetworkNode[];
  readonly preprocessing: FittedPreprocessing;
}

/** The format of a model file from its extension, else its first bytes. */
export function modelFormat(file: string, text: string): 'json' | 'bif' | 'xmlbif' | undefined {
  if (/\.json$/i.test(file)) return 'json';
  if (/\.bif$/i.test(file)) return 'bif';
  if (/\.(xmlbif|xml)$/i.test(file)) return 'xmlbif';
  const t = text.trimStart();
  if (t.startsWith('{')) return 'json';
  if (t.startsWith('<')) return 'xmlbif';
  if (/^(\/\/[^\n]*\n\s*)*network\s/.test(t)) return 'bif';
  return undefined;
}

/**
 * The network of a model file. `className` chooses the class node (default: the JSON's `class`, else a node
 * named 'class', else the last node). Throws Error with a one-line reason on a malformed file.
 */
export function readNetwork(text: string, format: 'json' | 'bif' | 'xmlbif', className?: string): NetworkFile {
  const parsed = format === 'json' ? readJson(text) : format === 'bif' ? readBif(text) : readXmlBif(text);
  const names = parsed.nodes.map((n) => n.name);
  const cls = className ?? parsed.className ?? (names.includes('class') ? 'class' : names[names.length - 1]);
  if (cls === undefined || !names.includes(cls)) {
    throw new Error(`no class node '${String(cls)}' among the nodes (${names.join(', ')})`);
  }
  for (const n of parsed.nodes) {
    for (const p of n.parents) if (!names.includes(p)) throw new Error(`node '${n.name}': unknown parent '${p}'`);
    const configs = n.parents.reduce((a, p) => a * parsed.nodes.find((x) => x.name === p)!.states.length, 1);
    if (n.rows.length !== configs || n.rows.some((r) => r.length !== n.states.length)) {
      throw new Error(
        `node '${n.name}': its table has ${n.rows.length} rows of ${n.rows[0]?.length ?? 0}, expected ${configs} of ${n.states.length}`,
      );
    }
  }
  const preprocessing = parsed.preprocessing ?? fromStateNames(parsed.nodes, cls, format);
  return { format, name: parsed.name, className: cls, nodes: parsed.nodes, preprocessing };
}

interface Parsed {
  name: string;
  className?: string;
  nodes: NetworkNode[];
  preprocessing?: FittedPreprocessing;
}

function readJson(text: string): Parsed {
  const j = JSON.parse(text) as {
    format?: string;
    name?: string;
    class?: string;
    nodes?: { name: string; states: string[]; parents: string[]; cpt: number[][] }[];
    preprocessing_fitted?: { cuts: Record<string, number[]>; missing_state: string[] };
  };
  if (j.format !== 'bnclab-model' || !Array.isArray(j.nodes))
    throw new Error(`not a bnclab model file (format: bnclab-model)`);
  const nodes = j.nodes.map((n) => ({ name: n.name, states: n.states, parents: n.parents, rows: n.cpt }));
  const pf = j.preprocessing_fitted;
  return {
    name: j.name ?? 'model',
    ...(j.class !== undefined ? { className: j.class } : {}),
    nodes,
    ...(pf ? { preprocessing: { cuts: pf.cuts, missingState: pf.missing_state, source: 'stored' as const } } : {}),
  };
}

function readBif(text: string): Parsed {
  const src = text.replace(/\/\/[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
  const name = /network\s+("[^"]*"|\S+)/.exec(src)?.[1]?.replace(/"/g, '') ?? 'model';
  const states = new Map<string, string[]>();
  const order: string[] = [];
  for (const m of src.matchAll(
    /variable\s+(\S+)\s*\{[^}]*?type\s+discrete\s*\[\s*(\d+)\s*\]\s*\{([^}]*)\}\s*;[^}]*\}/g,
  )) {
    const s = m[3].split(',').map((x) => x.trim());
    if (s.length !== Number(m[2])) throw new Error(`variable ${m[1]}: [ ${m[2]} ] but ${s.length} states`);
    states.set(m[1], s);
    order.push(m[1]);
  }
  if (order.length === 0) throw new Error('no variable blocks');
  const tables = new Map<string, NetworkNode>();
  for (const m of src.matchAll(/probability\s*\(\s*([^|)]+?)\s*(?:\|\s*([^)]*?))?\s*\)\s*\{([^}]*)\}/g)) {
    const child = m[1].trim();
    const parents = m[2] ? m[2].split(',').map((s) => s.trim()) : [];
    const card = states.get(child)?.length;
    if (card === undefined) throw new Error(`probability ( ${child} ): no such variable`);
    const pCards = parents.map((p) => states.get(p)?.length ?? 0);
    const configs = pCards.reduce((a, c) => a * c, 1);
    const rows: number[][] = Array.from({ length: configs }, () => []);
    for (const line of m[3]
      .split(';')
      .map((l) => l.trim())
      .filter(Boolean)) {
      if (line.startsWith('table')) {
        // A root node's distribution (a `table` line for a node with parents is not read: its order varies
        // between writers).
        if (configs !== 1) throw new Error(`probability ( ${child} | … ): a 'table' line for a node with parents`);
        rows[0] = line
          .slice(5)
          .split(/[\s,]+/)
          .filter(Boolean)
          .map(Number);
        continue;
      }
      const lm = /^\(([^)]*)\)\s*(.*)$/.exec(line);
      if (!lm) continue; // `default` and properties are not written by the programs we read
      const vals = lm[1].split(',').map((s) => s.trim());
      let cfg = 0;
      vals.forEach((v, i) => {
        const k = states.get(parents[i])!.indexOf(v);
        if (k < 0) throw new Error(`probability ( ${child} | … ): '${v}' is not a state of ${parents[i]}`);
        cfg = cfg * pCards[i] + k;
      });
      rows[cfg] = lm[2]
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(Number);
    }
    tables.set(child, { name: child, states: states.get(child)!, parents, rows });
  }
  const nodes = order.map((n) => {
    const t = tables.get(n);
    if (!t) throw new Error(`variable ${n} has no probability block`);
    return t;
  });
  return { name, nodes };
}

function unxml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function readXmlBif(text: string): Parsed {
  const src = text.replace(/<!--[\s\S]*?-->/g, '').replace(/<!DOCTYPE[\s\S]*?\]>/, '');
  const tag = (block: string, t: string): string[] =>
    [...block.matchAll(new RegExp(`<${t}>([\\s\\S]*?)</${t}>`, 'g'))].map((m) => unxml(m[1].trim()));
  const network = /<NETWORK>([\s\S]*?)<\/NETWORK>/.exec(src)?.[1];
  if (network === undefined) throw new Error('no <NETWORK> element');
  const name =
    tag(network.replace(/<VARIABLE[\s\S]*?<\/VARIABLE>|<DEFINITION>[\s\S]*?<\/DEFINITION>/g, ''), 'NAME')[0] ?? 'model';
  const states = new Map<string, string[]>();
  const order: string[] = [];
  for (const m of network.matchAll(/<VARIABLE[^>]*>([\s\S]*?)<\/VARIABLE>/g)) {
    const n = tag(m[1], 'NAME')[0];
    if (n === undefined) throw new Error('a <VARIABLE> without <NAME>');
    states.set(n, tag(m[1], 'OUTCOME'));
    order.push(n);
  }
  const tables = new Map<string, NetworkNode>();
  for (const m of network.matchAll(/<DEFINITION>([\s\S]*?)<\/DEFINITION>/g)) {
    const child = tag(m[1], 'FOR')[0];
    const parents = tag(m[1], 'GIVEN');
    const card = states.get(child)?.length;
    if (card === undefined) throw new Error(`<DEFINITION> for unknown variable '${child}'`);
    const v = (tag(m[1], 'TABLE')[0] ?? '').split(/\s+/).filter(Boolean).map(Number);
    const configs = v.length / card;
    tables.set(child, {
      name: child,
      states: states.get(child)!,
      parents,
      rows: Array.from({ length: configs }, (_, c) => v.slice(c * card, (c + 1) * card)),
    });
  }
  const nodes = order.map((n) => {
    const t = tables.get(n);
    if (!t) throw new Error(`variable ${n} has no <DEFINITION>`);
    return t;
  });
  return { name, nodes };
}

/**
 * Cut points from interval state names, "(-inf,a]", "(a,b]", "(b,inf)" (BIF: "_-inf_a_", "_a_b_", "_b_inf_"),
 * or none from "All" (a numeric attribute MDL left in one interval).
 */
export function cutsFromStates(states: readonly string[]): number[] | undefined {
  const body = states.filter((s) => s !== '?' && s !== '_');
  if (body.length === 1 && body[0] === 'All') return []; // a numeric attribute left in one interval
  if (body.length < 2) return undefined;
  const bounds = body.map((s) => {
    const m = /^[(_](-inf|-?[0-9.eE+-]+)[,_](inf|-?[0-9.eE+-]+)[\])_]$/.exec(s);
    return m ? [m[1] === '-inf' ? -Infinity : Number(m[1]), m[2] === 'inf' ? Infinity : Number(m[2])] : undefined;
  });
  if (bounds.some((b) => b === undefined || Number.isNaN(b[0]) || Number.isNaN(b[1]))) return undefined;
  const b = bounds as [number, number][];
  if (b[0][0] !== -Infinity || b[b.length - 1][1] !== Infinity) return undefined;
  for (let i = 1; i < b.length; i++) if (b[i][0] !== b[i - 1][1]) return undefined;
  return b.slice(1).map((x) => x[0]);
}

function fromStateNames(nodes: readonly NetworkNode[], cls: string, format: string): FittedPreprocessing {
  const cuts: Record<string, number[]> = {};
  const missingState: string[] = [];
  for (const n of nodes) {
    if (n.name === cls) continue;
    const c = cutsFromStates(n.states);
    if (c) cuts[n.name] = c;
    const last = n.states[n.states.length - 1];
    if (last === '?' || (format === 'bif' && last === '_')) missingState.push(n.name);
  }
  return { cuts, missingState, source: 'state-names' };
}

/**
 * The network as a CptModel over attributes (every node but the class, in file order) and the class last,
 * the order posterior() takes. Zero probabilities stay zeros (-Infinity in the log tables).
 */
export function networkModel(net: NetworkFile): { model: CptModel; attributes: NetworkNode[]; classNode: NetworkNode } {
  const attributes = net.nodes.filter((n) => n.name !== net.className);
  const classNode = net.nodes.find((n) => n.name === net.className)!;
  const ordered = [...attributes, classNode];
  const index = new Map(ordered.map((n, i) => [n.name, i]));
  const cards = ordered.map((n) => n.states.length);
  const cpts: DenseNodeCpt[] = ordered.map((n) => {
    const parents = n.parents.map((p) => index.get(p)!);
    const parentCards = Int32Array.from(parents.map((p) => cards[p]));
    const configs = parentCards.reduce((a, c) => a * c, 1);
    const logp = new Float64Array(configs * n.states.length);
    n.rows.forEach((r, cfg) => r.forEach((p, v) => (logp[cfg * n.states.length + v] = Math.log(p))));
    return { parents, parentCards, card: n.states.length, configs, logp };
  });
  return { model: new CptModel(cards, cpts), attributes, classNode };
}
