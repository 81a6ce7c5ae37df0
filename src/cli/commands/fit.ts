import type { Command } from '../command.js';
import { EXIT, UserError } from '../../util/errors.js';

const FORMATS = ['bif', 'xmlbif', 'json'] as const;
type Format = (typeof FORMATS)[number];

export const fitCommand: Command = {
  summary: 'fit one method of a spec on all rows of one dataset and write the network (BIF, XMLBIF or JSON)',
  usage:
    'bnclab fit <spec.yaml> --dataset NAME --method LABEL --out FILE.{bif,xmlbif,json} [--format bif|xmlbif|json] [--force]',
  options: {
    dataset: { type: 'string' },
    method: { type: 'string' },
    out: { type: 'string' },
    format: { type: 'string' },
    force: { type: 'boolean' },
  },
  help: `Options:
  --dataset NAME   a dataset of the spec (as 'bnclab plan' names it)
  --method LABEL   a method label of the spec (as the report prints it, e.g. tan/dirichlet or kdb(k=2)/dirichlet(alpha=0.5))
  --out FILE       where to write; the format follows the extension (.bif, .xmlbif or .xml, .json)
  --format F       bif | xmlbif | json, when the extension does not say
  --force          overwrite FILE if it exists (never the spec or a data file)

Preprocessing (discretization, missing values) is fitted on all rows, as the spec sets it; the states of a
discretized attribute are its intervals. BIF is read by bnlearn (read.bif) and pgmpy; XMLBIF by Weka and pgmpy.
The JSON file also holds the fitted preprocessing (every cut point), which 'bnclab predict' applies to new
rows; from BIF and XMLBIF it reads the intervals back from the state names.
Only a single network with tables can be written: ensembles (AODE, bagging, …), the m-estimate
estimator (context trees) and weighted naive Bayes are refused with a message. HDP's estimates (averaged over
the post-burn-in iterations) are written as tables, a parent configuration unseen in training taking its
tree's back-off.`,
  async run(pos, v) {
    if (pos.length !== 1) throw new UserError(`usage: ${this.usage}`);
    for (const o of ['dataset', 'method', 'out'] as const) {
      if (typeof v[o] !== 'string' || v[o] === '') throw new UserError(`fit: --${o} is required; usage: ${this.usage}`);
    }
    const out = v['out'] as string;
    const ext = /\.([A-Za-z]+)$/.exec(out)?.[1]?.toLowerCase();
    const byExt: Record<string, Format> = { bif: 'bif', xmlbif: 'xmlbif', xml: 'xmlbif', json: 'json' };
    const format = (v['format'] as string | undefined) ?? (ext ? byExt[ext] : undefined);
    if (!format || !(FORMATS as readonly string[]).includes(format)) {
      throw new UserError(
        `fit: cannot tell the format of '${out}'${v['format'] !== undefined ? ` (--format ${String(v['format'])})` : ''}; use a .bif, .xmlbif or .json file or --format bif|xmlbif|json`,
      );
    }
    const { checkOutputFile, writeFileAtomic } = await import('../../util/output.js');
    const { loadSpecFile } = await import('../../spec/load.js');
    const { fitOnFullData } = await import('../../runner/fit.js');
    const { CptModel } = await import('../../bn/cpt.js');
    const { toBif, toModelJson, toXmlBif } = await import('../../bn/export.js');
    const force = v['force'] === true;
    // Checked before the fit (which may take long), and again with the data file known after it.
    const protect = [{ path: pos[0], what: 'the spec file' }];
    checkOutputFile(out, { option: '--out', force, protect });
    const { spec } = loadSpecFile(pos[0]);
    const { HdpModel } = await import('../../estimators/hdp/model.js');
    const fit = fitOnFullData(spec, v['dataset'] as string, v['method'] as string);
    // HDP's averaged estimates as tables (back-off for parent configurations unseen in training).
    const model = fit.model instanceof HdpModel ? fit.model.materialize() : fit.model;
    if (!(model instanceof CptModel)) {
      throw new UserError(
        `fit: ${fit.method.label} does not give a single Bayesian network with conditional probability tables (${fit.structure?.members ? 'an ensemble of structures' : 'its estimator keeps its own parameter form'}); BIF, XMLBIF and JSON cannot hold it`,
      );
    }
    const d = fit.data;
    const names = {
      name: `${spec.name}-${fit.dataset}-${fit.method.label}`,
      nodes: [...d.names, d.className],
      states: [...d.labels, d.classLabels],
    };
    names.states.forEach((s, i) => {
      if (s.length !== model.cards[i])
        throw new Error(`fit: node ${names.nodes[i]} has ${model.cards[i]} states in the model, ${s.length} labels`);
    });
    const text =
      format === 'bif'
        ? toBif(model, names)
        : format === 'xmlbif'
          ? toXmlBif(model, names)
          : toModelJson(model, names, {
              experiment: spec.name,
              dataset: fit.dataset,
              dataset_sha256: fit.datasetSha256,
              method: fit.method.label,
              preprocessing: spec.preprocessing,
              // What `bnclab predict` applies to new rows: the cut points fitted here, exactly.
              preprocessing_fitted: { cuts: fit.preprocess.cuts, missing_state: fit.preprocess.missingCategory },
              rows: d.n,
              seed: fit.seed,
            });
    const file = checkOutputFile(out, {
      option: '--out',
      force,
      protect: [...protect, { path: fit.datasetFile, what: `the data file of ${fit.dataset}` }],
    });
    writeFileAtomic(file, text);
    const arcs = model.cpts.reduce((a, c) => a + c.parents.length, 0);
    process.stdout.write(
      `${fit.method.label} on ${fit.dataset} (${d.n} rows, all of them): ${arcs} arcs; wrote ${format.toUpperCase()} to ${file}\n`,
    );
    return EXIT.ok;
  },
};
