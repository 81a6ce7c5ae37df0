import type { Command } from '../command.js';
import { intOption, onePositional } from '../command.js';
import { cellKey } from '../../util/keys.js';
import { EXIT } from '../../util/errors.js';

export const statusCommand: Command = {
  summary: 'done / failed / pending jobs of a spec per dataset × method (read-only, safe while shards run)',
  usage: 'bnclab status <spec.yaml> [--db FILE] [--shards DIR] [--by dataset|method|both] [--seeds N]',
  options: { db: { type: 'string' }, shards: { type: 'string' }, by: { type: 'string' }, seeds: { type: 'string' } },
  help: `Options:
  --db FILE      a results database (default: results/<spec name>.duckdb unless --shards is given)
  --shards DIR   every *.duckdb in DIR (the shard databases of 'run --shard I/N' or 'submit'); with
                 shard-I-of-N names the progress of each shard is shown too
  --by WHAT      rows per dataset × method (both, the default), per method, or per dataset; in a multi-seed
                 experiment each row is one seed's (a seed column first)
  --seeds N      the grid under N master seeds, as 'run --seeds N' ran it

Databases are opened read-only. One that a running task holds open is read from a snapshot copy, and
when that is not possible it is named and its jobs count as pending. A job done in any database is done.`,
  async run(pos, v) {
    const file = onePositional(pos, this.usage);
    const { UserError } = await import('../../util/errors.js');
    const by = String(v['by'] ?? 'both');
    if (!['both', 'method', 'dataset'].includes(by))
      throw new UserError(`--by: expected dataset, method or both, got '${by}'`);
    const { loadSpecFile, withSeedCount } = await import('../../spec/load.js');
    const { buildPlanSummary } = await import('../../spec/plan.js');
    const { defaultDbPath } = await import('../../runner/run.js');
    const { collectStatus, shardFiles } = await import('../../cluster/status.js');
    const spec = withSeedCount(loadSpecFile(file).spec, intOption(v['seeds'], '--seeds', 1));
    const plan = buildPlanSummary(spec);
    const files: string[] = [];
    if (v['db'] !== undefined) files.push(String(v['db']));
    if (v['shards'] !== undefined) files.push(...shardFiles(String(v['shards'])));
    const { existsSync } = await import('node:fs');
    const log = (s: string): void => void process.stdout.write(s + '\n');
    if (files.length === 0) {
      // results/ is relative to the working folder; from another folder, the database beside the spec is read.
      const here = defaultDbPath(spec.name);
      const { databaseBesideSpec } = await import('../../store/location.js');
      const beside = existsSync(here) ? undefined : databaseBesideSpec(spec.name, file);
      if (beside) log(`${here}: does not exist (results/ is relative to the working folder); reading ${beside}`);
      files.push(beside ?? here);
    }
    const present = files.filter((f) => existsSync(f));
    for (const f of files) if (!existsSync(f)) log(`${f}: does not exist; its jobs count as pending`);
    const st = await collectStatus(plan, present);
    for (const s of st.sources) {
      if (s.how === 'snapshot')
        log(`${s.file}: in use by a running task; read from a snapshot copy (${s.jobs} finished jobs)`);
      else if (s.how === 'unreadable') log(`${s.file}: not read (${s.reason}); its jobs count as pending`);
    }
    const group = new Map<
      string,
      { seed: string; dataset: string; method: string; done: number; failed: number; pending: number }
    >();
    const seeded = plan.seeds !== undefined;
    for (const r of st.rows) {
      const within = by === 'method' ? r.method : by === 'dataset' ? r.dataset : cellKey(r.dataset, r.method);
      const id = cellKey(r.seed ?? '', within);
      const g = group.get(id) ?? {
        seed: r.seed ?? '',
        dataset: by === 'method' ? '' : r.dataset,
        method: by === 'dataset' ? '' : r.method,
        done: 0,
        failed: 0,
        pending: 0,
      };
      g.done += r.done;
      g.failed += r.failed;
      g.pending += r.pending;
      group.set(id, g);
    }
    const head = [...(seeded ? ['seed'] : []), ...(by === 'both' ? ['dataset', 'method'] : [by])];
    const rows = [...group.values()].map((g) => [
      ...(seeded ? [g.seed] : []),
      ...(by === 'both' ? [g.dataset, g.method] : [by === 'method' ? g.method : g.dataset]),
      String(g.done),
      String(g.failed),
      String(g.pending),
    ]);
    const all = [[...head, 'done', 'failed', 'pending'], ...rows];
    const w = all[0].map((_, i) => Math.max(...all.map((r) => r[i].length)));
    for (const r of all)
      log(
        r
          .map((c, i) => (i < head.length ? c.padEnd(w[i]) : c.padStart(w[i])))
          .join('  ')
          .trimEnd(),
      );
    const t = st.total;
    log(
      `${spec.name}: ${plan.jobs.length} jobs${plan.seeds ? ` (${plan.seeds.length} seeds)` : ''}: ${t.done} done, ${t.failed} failed, ${t.pending} pending`,
    );
    if (st.stale > 0)
      log(
        `${spec.name}: ${st.stale} of the pending jobs have a stored result made by an older revision of their method; run --rerun-stale recomputes them`,
      );
    if (st.shards) {
      const complete = st.shards.filter((s) => s.pending === 0).length;
      log(
        `shards: ${complete}/${st.shards.length} complete; ` +
          st.shards
            .filter((s) => s.pending > 0)
            .slice(0, 20)
            .map((s) => `${s.index}: ${s.done + s.failed}/${s.jobs}`)
            .join(', '),
      );
    }
    return EXIT.ok;
  },
};
