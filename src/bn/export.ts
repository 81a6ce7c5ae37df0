/**
 * A fitted Bayesian network (CptModel) written as BIF 0.15 (read by bnlearn's read.bif and pgmpy's
 * BIFReader), XMLBIF 0.3 (read by Weka's BayesNet and pgmpy's XMLBIFReader), or bnclab's own JSON.
 *
 * BIF words may not hold spaces, commas or brackets, so BIF variable names keep only letters, digits, '_' and
 * '-' (pgmpy's grammar; a leading digit gets 'v_'), state names also '.' (other characters become '_', a clash
 * gets a numeric suffix); XMLBIF and JSON keep the names as they are
 * (XML-escaped). Every probability is printed with full double precision (shortest round-trip form).
 */
import { cptRowOffset, cptTable, type CptModel } from './cpt.js';

interface NetworkNames {
  /** Network name. */
  readonly name: string;
  /** Node names 0..m (the class last). */
  readonly nodes: readonly string[];
  /** State names per node. */
  readonly states: readonly (readonly string[])[];
}

/** Tables larger than this are not written (a kDB-5 family on large data reaches 10^8 cells). */
const MAX_EXPORT_CELLS = 5_000_000;

interface NodeTable {
  readonly node: number;
  readonly parents: readonly number[];
  /** rows[cfg][value], cfg = Σ parent values with the last parent varying fastest. */
  readonly rows: readonly Float64Array[];
}

/** Every node's table as probabilities (sparse tables expanded: unseen configurations get the default row). */
function nodeTables(model: CptModel): NodeTable[] {
  const cells = model.cpts.reduce((a, c) => a + c.configs * c.card, 0);
  if (cells > MAX_EXPORT_CELLS) {
    throw new Error(`the model's tables have ${cells} cells in all; more than ${MAX_EXPORT_CELLS} are not written`);
  }
  return model.cpts.map((cpt, node) => {
    const table = cptTable(cpt);
    const rows = Array.from({ length: cpt.configs }, (_, cfg) => {
      const o = cptRowOffset(cpt, cfg);
      return Float64Array.from({ length: cpt.card }, (_, v) => Math.exp(table[o + v]));
    });
    return { node, parents: cpt.parents, rows };
  });
}

/** Parent values of configuration cfg (last parent fastest). */
function configValues(cfg: number, parentCards: readonly number[]): number[] {
  const out = new Array<number>(parentCards.length);
  for (let i = parentCards.length - 1; i >= 0; i--) {
    out[i] = cfg % parentCards[i];
    cfg = Math.floor(cfg / parentCards[i]);
  }
  return out;
}

/** A BIF word: letters, digits, '_' and '-' (and '.' in state names, which pgmpy's state grammar accepts). */
function bifWord(s: string, allowDot: boolean): string {
  const w = s.replace(allowDot ? /[^A-Za-z0-9_.-]/g : /[^A-Za-z0-9_-]/g, '_');
  return w === '' ? '_' : w;
}

/** Distinct BIF words for a list of names, in order. */
function bifWords(names: readonly string[], nodeNames: boolean): string[] {
  const used = new Set<string>();
  return names.map((n) => {
    let base = bifWord(n, !nodeNames);
    // A variable name starts with a letter or '_' (the BIF definition: WORD = LETTER (LETTER | DIGIT)*).
    if (nodeNames && /^[0-9-]/.test(base)) base = `v_${base}`;
    let w = base;
    for (let i = 2; used.has(w); i++) w = `${base}_${i}`;
    used.add(w);
    return w;
  });
}

function num(p: number): string {
  return String(p);
}

export function toBif(model: CptModel, names: NetworkNames): string {
  const nodes = bifWords(names.nodes, true);
  const states = names.states.map((s) => bifWords(s, false));
  const out: string[] = [`network ${bifWord(names.name, false)} {`, '}'];
  for (let v = 0; v < nodes.length; v++) {
    out.push(`variable ${nodes[v]} {`, `  type discrete [ ${states[v].length} ] { ${states[v].join(', ')} };`, '}');
  }
  for (const t of nodeTables(model)) {
    const child = nodes[t.node];
    if (t.parents.length === 0) {
      out.push(`probability ( ${child} ) {`, `  table ${[...t.rows[0]].map(num).join(', ')};`, '}');
      continue;
    }
    out.push(`probability ( ${child} | ${t.parents.map((p) => nodes[p]).join(', ')} ) {`);
    const cards = t.parents.map((p) => names.states[p].length);
    t.rows.forEach((row, cfg) => {
      const vals = configValues(cfg, cards).map((x, i) => states[t.parents[i]][x]);
      out.push(`  (${vals.join(', ')}) ${[...row].map(num).join(', ')};`);
    });
    out.push('}');
  }
  return out.join('\n') + '\n';
}

function xml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** The document type of XMLBIF 0.3 (Cozman's format definition), which Weka's reader expects. */
const XMLBIF_DOCTYPE = [
  '<!DOCTYPE BIF [',
  '  <!ELEMENT BIF ( NETWORK )*>',
  '  <!ATTLIST BIF VERSION CDATA #REQUIRED>',
  '  <!ELEMENT NETWORK ( NAME, ( PROPERTY | VARIABLE | DEFINITION )* )>',
  '  <!ELEMENT NAME (#PCDATA)>',
  '  <!ELEMENT VARIABLE ( NAME, ( OUTCOME | PROPERTY )* ) >',
  '  <!ATTLIST VARIABLE TYPE (nature|decision|utility) "nature">',
  '  <!ELEMENT OUTCOME (#PCDATA)>',
  '  <!ELEMENT DEFINITION ( FOR | GIVEN | TABLE | PROPERTY )* >',
  '  <!ELEMENT FOR (#PCDATA)>',
  '  <!ELEMENT GIVEN (#PCDATA)>',
  '  <!ELEMENT TABLE (#PCDATA)>',
  '  <!ELEMENT PROPERTY (#PCDATA)>',
  ']>',
];

/** XMLBIF 0.3: TABLE lists the child's distribution per parent configuration, the last GIVEN varying fastest. */
export function toXmlBif(model: CptModel, names: NetworkNames): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!-- XMLBIF 0.3, written by bnclab -->',
    ...XMLBIF_DOCTYPE,
    '<BIF VERSION="0.3">',
    '<NETWORK>',
    `<NAME>${xml(names.name)}</NAME>`,
  ];
  names.nodes.forEach((n, v) => {
    out.push('<VARIABLE TYPE="nature">', `  <NAME>${xml(n)}</NAME>`);
    for (const s of names.states[v]) out.push(`  <OUTCOME>${xml(s)}</OUTCOME>`);
    out.push('</VARIABLE>');
  });
  for (const t of nodeTables(model)) {
    out.push('<DEFINITION>', `  <FOR>${xml(names.nodes[t.node])}</FOR>`);
    for (const p of t.parents) out.push(`  <GIVEN>${xml(names.nodes[p])}</GIVEN>`);
    out.push(`  <TABLE>${t.rows.map((r) => [...r].map(num).join(' ')).join(' ')}</TABLE>`, '</DEFINITION>');
  }
  out.push('</NETWORK>', '</BIF>');
  return out.join('\n') + '\n';
}

/** bnclab's JSON: names, states, parents and tables, plus whatever provenance the caller adds. */
export function toModelJson(model: CptModel, names: NetworkNames, provenance: Record<string, unknown>): string {
  const nodes = nodeTables(model).map((t) => ({
    name: names.nodes[t.node],
    states: names.states[t.node],
    parents: t.parents.map((p) => names.nodes[p]),
    cpt: t.rows.map((r) => [...r]),
  }));
  return (
    JSON.stringify(
      {
        format: 'bnclab-model',
        version: 1,
        name: names.name,
        class: names.nodes[names.nodes.length - 1],
        ...provenance,
        nodes,
      },
      null,
      1,
    ) + '\n'
  );
}
