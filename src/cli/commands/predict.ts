import type { Command } from '../command.js';
import { EXIT, UserError } from '../../util/errors.js';

export const predictCommand: Command = {
  summary: 'class probabilities for the rows of a CSV file from a fitted network (JSON, BIF or XMLBIF)',
  usage: 'bnclab predict <model.json|.bif|.xmlbif> <data.csv> --out FILE.csv [--class NAME] [--force]',
  options: { out: { type: 'string' }, class: { type: 'string' }, force: { type: 'boolean' } },
  help: `Options:
  --out FILE    where to write: one line per data row with row (0-based), truth (when the data has the class
                column), predicted (the most probable class) and p_<label> per class
  --force       overwrite FILE.csv if it exists (never the model or the data file)
  --class NAME  the class node of a BIF/XMLBIF file (default: a node named 'class', else the last node)

The rows are preprocessed as the model was fitted: 'bnclab fit --out model.json' stores every cut point;
from BIF and XMLBIF the intervals are read back from the state names "(-inf,2.45]", "(2.45,inf)" (cut points
as printed, at most 6 decimals). Categorical cells are matched to states by name; a missing cell ('?' or
empty) takes the attribute's missing-value state when the model has one and is marginalised exactly
otherwise, as in a run. Cells that match no state are treated as missing and counted; columns the model does
not use are ignored. With a class column, accuracy over its rows is printed.`,
  async run(pos, v) {
    if (pos.length !== 2) throw new UserError(`usage: ${this.usage}`);
    const out = v['out'];
    if (typeof out !== 'string' || out === '')
      throw new UserError(`predict: --out FILE.csv is required; usage: ${this.usage}`);
    const { readFileSync } = await import('node:fs');
    const { checkOutputFile, writeFileAtomic } = await import('../../util/output.js');
    const { modelFormat, readNetwork } = await import('../../bn/read-model.js');
    const { csvRows } = await import('../../datasets/csv-rows.js');
    const { predictRows, predictionCsv } = await import('../../runner/predict.js');
    const [modelFile, dataFile] = pos as [string, string];
    // Checked before any work: never over the model or the data, another existing file only with --force.
    const file = checkOutputFile(out, {
      option: '--out',
      force: v['force'] === true,
      protect: [
        { path: modelFile, what: 'the model file' },
        { path: dataFile, what: 'the data file' },
      ],
    });
    const read = (f: string): string => {
      try {
        return readFileSync(f, 'utf8');
      } catch (e) {
        throw new UserError(`${f}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
    };
    const text = read(modelFile);
    const format = modelFormat(modelFile, text);
    if (!format)
      throw new UserError(`${modelFile}: not a model file bnclab reads (.json from 'bnclab fit', .bif, .xmlbif)`);
    let net;
    try {
      net = readNetwork(text, format, v['class'] as string | undefined);
    } catch (e) {
      throw new UserError(`${modelFile}: ${(e as Error).message}`);
    }
    const p = predictRows(net, csvRows(read(dataFile), dataFile));
    writeFileAtomic(file, predictionCsv(p));
    const say = (s: string): void => void process.stderr.write(`bnclab: warning: ${s}\n`);
    if (p.absent.length > 0)
      say(`${dataFile}: no column for ${p.absent.join(', ')}; treated as missing in every row (marginalised)`);
    for (const [a, k] of p.unmatched)
      say(`${dataFile}: column '${a}': ${k} cells match none of the model's states; treated as missing`);
    if (p.ignored.length > 0) say(`${dataFile}: columns the model does not use, ignored: ${p.ignored.join(', ')}`);
    let acc = '';
    if (p.truth) {
      const known = p.truth.map((t, r) => [t, p.predicted[r]] as const).filter(([t]) => t !== null);
      const right = known.filter(([t, q]) => t === q).length;
      acc = `; accuracy ${known.length ? (right / known.length).toFixed(4) : 'n/a'} on the ${known.length} rows with a class value`;
    }
    process.stdout.write(
      `${p.predicted.length} rows predicted with ${net.name} (${format}, preprocessing ${net.preprocessing.source === 'stored' ? 'as stored by fit' : 'read from the state names'})${acc}; wrote ${out}\n`,
    );
    return EXIT.ok;
  },
};
