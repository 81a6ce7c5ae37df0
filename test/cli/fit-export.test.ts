/**
 * `bnclab fit` round trip: the written BIF and XMLBIF files are read back by readers written here from the
 * format definitions (BIF 0.15, Cozman's Interchange Format; XMLBIF 0.3), independent of src/bn/export.ts,
 * and the class posteriors P(c | x) ∝ Π_v θ(x_v | pa_v) computed from the files reproduce the model's.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../helpers/cli.js';
import { loadSpecFile } from '../../src/spec/load.js';
import { fitOnFullData } from '../../src/runner/fit.js';
import type { DiscreteData } from '../../src/bn/data.js';

interface Net {
  vars: Map<string, string[]>;
  /** child → parents and the table rows keyed by the parents' state names joined with '|'. */
  cpts: Map<string, { parents: string[]; rows: Map<string, number[]> }>;
}

/** BIF: variable blocks with `type discrete [ n ] { s1, s2 };`, probability blocks with `table` or `(p1, p2) v, v;` lines. */
function readBif(text: string): Net {
  const vars = new Map<string, string[]>();
  const cpts: Net['cpts'] = new Map();
  for (const m of text.matchAll(/variable\s+(\S+)\s*\{\s*type\s+discrete\s*\[\s*(\d+)\s*\]\s*\{([^}]*)\}\s*;\s*\}/g)) {
    const states = m[3].split(',').map((s) => s.trim());
    expect(states).toHaveLength(Number(m[2]));
    vars.set(m[1], states);
  }
  for (const m of text.matchAll(/probability\s*\(\s*([^|)]+?)\s*(?:\|\s*([^)]*?))?\s*\)\s*\{([^}]*)\}/g)) {
    const child = m[1].trim();
    const parents = m[2] ? m[2].split(',').map((s) => s.trim()) : [];
    const rows = new Map<string, number[]>();
    for (const line of m[3]
      .split(';')
      .map((l) => l.trim())
      .filter(Boolean)) {
      if (line.startsWith('table')) rows.set('', line.slice(5).split(',').map(Number));
      else {
        const lm = /^\(([^)]*)\)\s*(.*)$/.exec(line)!;
        rows.set(
          lm[1]
            .split(',')
            .map((s) => s.trim())
            .join('|'),
          lm[2].split(',').map(Number),
        );
      }
    }
    cpts.set(child, { parents, rows });
  }
  return { vars, cpts };
}

function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** XMLBIF 0.3: TABLE holds the child's distributions, parent configurations in order with the last GIVEN fastest. */
function readXmlBif(text: string): Net {
  const vars = new Map<string, string[]>();
  const cpts: Net['cpts'] = new Map();
  for (const m of text.matchAll(/<VARIABLE[^>]*>([\s\S]*?)<\/VARIABLE>/g)) {
    const name = unescapeXml(/<NAME>([\s\S]*?)<\/NAME>/.exec(m[1])![1]);
    vars.set(
      name,
      [...m[1].matchAll(/<OUTCOME>([\s\S]*?)<\/OUTCOME>/g)].map((o) => unescapeXml(o[1])),
    );
  }
  for (const m of text.matchAll(/<DEFINITION>([\s\S]*?)<\/DEFINITION>/g)) {
    const child = unescapeXml(/<FOR>([\s\S]*?)<\/FOR>/.exec(m[1])![1]);
    const parents = [...m[1].matchAll(/<GIVEN>([\s\S]*?)<\/GIVEN>/g)].map((g) => unescapeXml(g[1]));
    const values = /<TABLE>([\s\S]*?)<\/TABLE>/.exec(m[1])![1].trim().split(/\s+/).map(Number);
    const k = vars.get(child)!.length;
    const rows = new Map<string, number[]>();
    // Enumerate the parent configurations, last parent fastest.
    const cards = parents.map((p) => vars.get(p)!.length);
    const configs = cards.reduce((a, b) => a * b, 1);
    expect(values).toHaveLength(configs * k);
    for (let cfg = 0; cfg < configs; cfg++) {
      let rest = cfg;
      const idx = cards.map(() => 0);
      for (let i = cards.length - 1; i >= 0; i--) {
        idx[i] = rest % cards[i];
        rest = Math.floor(rest / cards[i]);
      }
      rows.set(idx.map((x, i) => vars.get(parents[i])![x]).join('|'), values.slice(cfg * k, (cfg + 1) * k));
    }
    cpts.set(child, { parents, rows });
  }
  return { vars, cpts };
}

/** P(c | row) from the network read back: the product of every node's table entry, normalised over c. */
function posteriorsFromFile(net: Net, data: DiscreteData, nodeNames: string[], rows: number): number[][] {
  const className = nodeNames[nodeNames.length - 1];
  const classStates = net.vars.get(className)!;
  const out: number[][] = [];
  for (let r = 0; r < rows; r++) {
    const joint = classStates.map((cs) => {
      const state = (name: string): string => {
        if (name === className) return cs;
        const i = nodeNames.indexOf(name);
        return net.vars.get(name)![data.columns[i][r]];
      };
      let p = 1;
      for (const [child, t] of net.cpts) {
        const row = t.rows.get(t.parents.map(state).join('|'));
        expect(row, `${child} | ${t.parents.join(',')}`).toBeDefined();
        p *= row![net.vars.get(child)!.indexOf(state(child))];
      }
      return p;
    });
    const z = joint.reduce((a, b) => a + b, 0);
    out.push(joint.map((j) => j / z));
  }
  return out;
}

const SPEC = `name: fit-roundtrip
seed: 3
datasets: [car, iris]
resampling: { folds: 5 }
structures: [tan, { kdb: { k: 2 } }, nb]
estimators: [{ dirichlet: { alpha: 1 } }]
`;

describe('bnclab fit: BIF and XMLBIF round trip', () => {
  const dir = tempDir();
  const spec = join(dir, 'fit.yaml');
  writeFileSync(spec, SPEC);

  for (const [dataset, method] of [
    ['car', 'tan/dirichlet'],
    ['iris', 'kdb(k=2)/dirichlet'],
  ] as const) {
    it(`${method} on ${dataset}: posteriors read back from both files equal the model's`, () => {
      const fit = fitOnFullData(loadSpecFile(spec).spec, dataset, method);
      const data = fit.data;
      const expected = fit.model.posterior(data);
      const C = data.classCard;
      for (const [fmt, reader] of [
        ['bif', readBif],
        ['xmlbif', readXmlBif],
      ] as const) {
        const out = join(dir, `${dataset}.${fmt}`);
        const r = cli(['fit', spec, '--dataset', dataset, '--method', method, '--out', out]);
        expect(r.code, r.stderr).toBe(0);
        const net = reader(readFileSync(out, 'utf8'));
        // Node names: BIF words equal the data's names here (plain identifiers); XMLBIF keeps them as they are.
        const nodeNames = [...net.vars.keys()];
        expect(nodeNames).toEqual([...data.names, data.className]);
        const arcs = [...net.cpts.values()].reduce((a, t) => a + t.parents.length, 0);
        expect(arcs).toBeGreaterThan(data.names.length); // more than naive Bayes: the augmenting arcs are there
        const got = posteriorsFromFile(net, data, nodeNames, data.n);
        for (let i = 0; i < data.n; i++) {
          for (let c = 0; c < C; c++) expect(got[i][c]).toBeCloseTo(expected[i * C + c], 12);
        }
      }
    });
  }

  it('BIF names: other characters become _, clashes get a suffix, a leading digit gets v_; the round trip holds', () => {
    const csv = join(dir, 'odd.csv');
    const rows = ['a b,a.b,1st,class'];
    for (let i = 0; i < 40; i++)
      rows.push(
        `${['x y', 'z'][i % 2]},${['1.5a', '2b'][(i >> 1) % 2]},${['p', 'q', 'r'][i % 3]},${i % 5 < 2 ? 'yes' : 'no'}`,
      );
    writeFileSync(csv, rows.join('\n') + '\n');
    const oddSpec = join(dir, 'odd.yaml');
    writeFileSync(
      oddSpec,
      `name: odd\nseed: 1\ndatasets: [odd.csv]\npreprocessing: { discretize: none }\nstructures: [tan]\nestimators: [dirichlet]\n`,
    );
    const out = join(dir, 'odd.bif');
    const r = cli(['fit', oddSpec, '--dataset', 'odd', '--method', 'tan/dirichlet', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const net = readBif(readFileSync(out, 'utf8'));
    expect([...net.vars.keys()]).toEqual(['a_b', 'a_b_2', 'v_1st', 'class']);
    expect(net.vars.get('a_b')).toEqual(['x_y', 'z']);
    expect(net.vars.get('a_b_2')).toEqual(['1.5a', '2b']);
    const fit = fitOnFullData(loadSpecFile(oddSpec).spec, 'odd', 'tan/dirichlet');
    const expected = fit.model.posterior(fit.data);
    const got = posteriorsFromFile(net, fit.data, [...net.vars.keys()], fit.data.n);
    got.forEach((p, i) => p.forEach((v, c) => expect(v).toBeCloseTo(expected[i * 2 + c], 12)));
  });

  it('the JSON form carries names, states, parents, tables and provenance', () => {
    const out = join(dir, 'car.json');
    expect(cli(['fit', spec, '--dataset', 'car', '--method', 'nb/dirichlet', '--out', out]).code).toBe(0);
    const j = JSON.parse(readFileSync(out, 'utf8'));
    expect(j.format).toBe('bnclab-model');
    expect(j.dataset).toBe('car');
    expect(j.class).toBe('class');
    const cls = j.nodes.find((n: { name: string }) => n.name === 'class');
    expect(cls.parents).toEqual([]);
    // Laplace class prior on all 1728 rows of car: (n_c + 1) / (1728 + 4); unacc has 1210 rows.
    expect(cls.cpt[0][cls.states.indexOf('unacc')]).toBeCloseTo(1211 / 1732, 14);
  });

  it('refuses an unknown method or dataset, and a model that is not one network of tables', () => {
    const bad = cli(['fit', spec, '--dataset', 'car', '--method', 'tan', '--out', join(dir, 'x.bif')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--method: the spec has no method 'tan'");
    const ds = cli(['fit', spec, '--dataset', 'cars', '--method', 'nb/dirichlet', '--out', join(dir, 'x.bif')]);
    expect(ds.stderr).toContain("did you mean 'car'");
    const fmt = cli(['fit', spec, '--dataset', 'car', '--method', 'nb/dirichlet', '--out', join(dir, 'x.txt')]);
    expect(fmt.code).toBe(2);
    const aodeSpec = join(dir, 'aode.yaml');
    writeFileSync(
      aodeSpec,
      SPEC.replace('structures: [tan, { kdb: { k: 2 } }, nb]', 'structures: [aode]').replace(
        'fit-roundtrip',
        'fit-aode',
      ),
    );
    const ens = cli(['fit', aodeSpec, '--dataset', 'iris', '--method', 'aode/dirichlet', '--out', join(dir, 'x.bif')]);
    expect(ens.code).toBe(2);
    expect(ens.stderr).toContain('an ensemble of structures');
  });

  it('never writes over the spec or an existing file without --force, nor into a missing folder or onto a folder', () => {
    const fitTo = (out: string, ...more: string[]) =>
      cli(['fit', spec, '--dataset', 'iris', '--method', 'nb/dirichlet', '--out', out, ...more]);
    const specText = readFileSync(spec, 'utf8');
    const onSpec = fitTo(spec, '--format', 'json', '--force');
    expect(onSpec.code).toBe(2);
    expect(onSpec.stderr).toBe(`bnclab: --out ${spec}: that is the spec file; refusing to overwrite it\n`);
    expect(readFileSync(spec, 'utf8')).toBe(specText);
    const out = join(dir, 'again.json');
    expect(fitTo(out).code).toBe(0);
    const first = readFileSync(out, 'utf8');
    writeFileSync(out, 'mine');
    const exists = fitTo(out);
    expect(exists.code).toBe(2);
    expect(exists.stderr).toBe(`bnclab: --out ${out}: the file exists; use --force to overwrite it\n`);
    expect(readFileSync(out, 'utf8')).toBe('mine');
    expect(fitTo(out, '--force').code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(first);
    const folder = fitTo(dir, '--format', 'json');
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe(`bnclab: --out ${dir}: is a folder, not a file\n`);
    const missing = fitTo(join(dir, 'no', 'm.bif'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^bnclab: --out .*m\.bif: the folder .*no cannot be used: no such file or folder \(ENOENT\)\n$/,
    );
  });
});
