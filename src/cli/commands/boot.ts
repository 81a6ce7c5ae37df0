import type { Command } from '../command.js';
import { intOption } from '../command.js';
import { EXIT, UserError } from '../../util/errors.js';

export const bootCommand: Command = {
  summary: "bootstrap arc strengths of a method's structure on a dataset (bnlearn's boot.strength)",
  usage:
    'bnclab boot <spec.yaml> --dataset NAME --method LABEL [--replicates R] [--out arcs.csv] [--force] [--threshold T]',
  options: {
    dataset: { type: 'string' },
    method: { type: 'string' },
    replicates: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
    threshold: { type: 'string' },
  },
  help: `Options:
  --dataset NAME    a dataset of the spec
  --method LABEL    a method of the spec (a structure learner; not a baseline, not an ensemble)
  --replicates R    bootstrap samples (default 200, as boot.strength)
  --out FILE.csv    write every pair both ways: from, to, strength, direction
  --force           overwrite FILE.csv if it exists (never the spec)
  --threshold T     print the arcs with strength ≥ T (default 0.5; bnlearn's averaged.network uses a
                    threshold estimated from the data, Scutari & Nagarajan 2013)

R samples of all rows drawn with replacement (preprocessing fitted on all rows, as 'bnclab fit'); the
structure learned on each. strength: share of the samples with an arc between the two nodes either way;
direction: among those, the share pointing this way. Seeds derive from the content, so the numbers are the
same on every machine.`,
  async run(pos, v) {
    if (pos.length !== 1) throw new UserError(`usage: ${this.usage}`);
    for (const o of ['dataset', 'method'] as const)
      if (typeof v[o] !== 'string' || v[o] === '')
        throw new UserError(`boot: --${o} is required; usage: ${this.usage}`);
    const replicates = intOption(v['replicates'], '--replicates', 1) ?? 200;
    const threshold = v['threshold'] === undefined ? 0.5 : Number(v['threshold']);
    if (!(threshold >= 0 && threshold <= 1))
      throw new UserError(`--threshold: expected a number in [0, 1], got '${String(v['threshold'])}'`);
    const { loadSpecFile } = await import('../../spec/load.js');
    const { bootStrength, bootCsv } = await import('../../runner/boot.js');
    const { spec } = loadSpecFile(pos[0]);
    const { checkOutputFile, writeFileAtomic } = await import('../../util/output.js');
    // Checked before the bootstrap runs: never over the spec, another existing file only with --force.
    const file =
      typeof v['out'] === 'string'
        ? checkOutputFile(v['out'], {
            option: '--out',
            force: v['force'] === true,
            protect: [{ path: pos[0], what: 'the spec file' }],
          })
        : undefined;
    const b = bootStrength(spec, v['dataset'] as string, v['method'] as string, replicates);
    if (file !== undefined) writeFileAtomic(file, bootCsv(b));
    const shown = b.arcs.filter((a) => a.strength >= threshold && a.direction > 0.5);
    const lines = [
      `${b.method} on ${b.dataset}: ${b.replicates} bootstrap samples of ${b.rows} rows; arcs with strength ≥ ${threshold} (in their more frequent direction):`,
      '  strength  direction  arc',
      ...shown.map(
        (a) => `  ${a.strength.toFixed(3).padStart(8)}  ${a.direction.toFixed(3).padStart(9)}  ${a.from} -> ${a.to}`,
      ),
    ];
    if (typeof v['out'] === 'string') lines.push(`wrote every pair, both ways, to ${v['out']}`);
    process.stdout.write(lines.join('\n') + '\n');
    return EXIT.ok;
  },
};
