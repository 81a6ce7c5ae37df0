import { resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { Command } from '../command.js';
import { intOption, onePositional } from '../command.js';
import { EXIT, UserError } from '../../util/errors.js';

/** "2-5" → cardinalities cycling 2, 3, 4, 5, 2, …; "3" → all 3; "2,4,3" → as listed (cycled). */
function cardinalities(spec: string, attributes: number): number[] {
  const range = /^(\d+)-(\d+)$/.exec(spec);
  let cycle: number[];
  if (range) {
    const [lo, hi] = [Number(range[1]), Number(range[2])];
    if (lo < 2 || hi < lo) throw new UserError(`--cards: expected a range a-b with 2 ≤ a ≤ b, got '${spec}'`);
    cycle = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  } else {
    cycle = spec.split(',').map(Number);
    if (cycle.some((c) => !Number.isInteger(c) || c < 2))
      throw new UserError(`--cards: expected integers ≥ 2, a range a-b or a list, got '${spec}'`);
  }
  return Array.from({ length: attributes }, (_, i) => cycle[i % cycle.length]);
}

export const synthCommand: Command = {
  summary: 'write a CSV file sampled from a known random Bayesian network (for scaling tests)',
  usage:
    'bnclab synth <out.csv> --rows N [--attributes M] [--cards 2-5] [--classes K] [--parents P] [--numeric LIST] [--seed S]',
  options: {
    rows: { type: 'string' },
    attributes: { type: 'string' },
    cards: { type: 'string' },
    classes: { type: 'string' },
    parents: { type: 'string' },
    numeric: { type: 'string' },
    seed: { type: 'string' },
  },
  help: `Options:
  --rows N         rows to sample (required)
  --attributes M   attributes a1..aM (default 20)
  --cards C        attribute cardinalities: a range '2-5' (cycled 2,3,4,5,2,…; the default), one number, or a list
  --classes K      class values c0..c{K-1} (default 2)
  --parents P      attribute parents besides the class, among earlier attributes (default 2)
  --numeric LIST   attributes written as numbers (code + uniform [0,1) noise), e.g. 1,5,9 (1-based; default none)
  --seed S         network and rows derive from it (default 1)

The network (class prior, each attribute's parents and conditional table, all Dirichlet(1) draws) is
written beside the CSV as <out>.network.json, so the data's generating distribution is known.`,
  async run(pos, v) {
    const out = resolve(onePositional(pos, this.usage));
    const rows = intOption(v['rows'], '--rows', 1);
    if (rows === undefined) throw new UserError(`--rows is required; usage: ${this.usage}`);
    const attributes = intOption(v['attributes'], '--attributes', 1) ?? 20;
    const classCard = intOption(v['classes'], '--classes', 2) ?? 2;
    const maxParents = intOption(v['parents'], '--parents', 0) ?? 2;
    const seed = (v['seed'] as string | undefined) ?? '1';
    const numeric = new Set<number>();
    for (const x of ((v['numeric'] as string | undefined) ?? '').split(',').filter(Boolean)) {
      const i = Number(x);
      if (!Number.isInteger(i) || i < 1 || i > attributes)
        throw new UserError(`--numeric: attribute numbers 1..${attributes}, got '${x}'`);
      numeric.add(i - 1);
    }
    const { randomNetwork, writeSyntheticCsv } = await import('../../datasets/synthetic.js');
    const net = randomNetwork({
      attributes,
      cards: cardinalities((v['cards'] as string | undefined) ?? '2-5', attributes),
      classCard,
      maxParents,
      seed,
    });
    writeSyntheticCsv(net, rows, seed, out, numeric);
    const netFile = out.replace(/\.csv$/i, '') + '.network.json';
    writeFileSync(
      netFile,
      JSON.stringify({
        seed,
        rows,
        names: net.names,
        cards: net.cards,
        classCard: net.classCard,
        numeric: [...numeric].map((i) => net.names[i]),
        parents: net.parents.map((ps) => ps.map((p) => net.names[p])),
        classPrior: [...net.classPrior],
        cpts: net.cpts.map((c) => [...c]),
      }) + '\n',
    );
    process.stdout.write(
      `wrote ${out} (${rows} rows, ${attributes} attributes, ${classCard} classes)\n      ${netFile}\n`,
    );
    return EXIT.ok;
  },
};
