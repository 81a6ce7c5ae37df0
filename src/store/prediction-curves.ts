/**
 * The points of the report's ROC curves and reliability diagrams (src/report/prediction-curves.ts says what
 * they are), computed from the saved predictions in SQL, so that a report reads a few hundred numbers rather
 * than every prediction.
 */
import type { ResultStore } from './db.js';
import { cellKey } from '../util/keys.js';

export interface CurvePoints {
  readonly roc: readonly { dataset: string; method: string; fpr: number; tpr: number }[];
  readonly reliability: readonly { dataset: string; method: string; conf: number; acc: number; n: number }[];
  /** Class labels per dataset. */
  readonly classes: ReadonlyMap<string, number>;
}

const sql = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** The curves of the given jobs' saved predictions; undefined when none of them saved any. */
export async function loadPredictionCurves(
  store: ResultStore,
  jobs: readonly { key: string; dataset: string; method: string }[],
): Promise<CurvePoints | undefined> {
  if (jobs.length === 0) return undefined;
  // Most runs save no predictions: then the table is empty, and asking that costs nothing, where asking
  // about these jobs sends their keys as SQL text (a 960-job report spent 35 ms on it).
  if ((await store.query('SELECT 1 AS saved FROM predictions LIMIT 1')).length === 0) return undefined;
  const values = jobs.map((j) => `(${sql(j.key)}, ${sql(j.dataset)}, ${sql(j.method)})`).join(', ');
  const k = `k(job_key, dataset, method) AS (VALUES ${values})`;
  const has = await store.query(`WITH ${k} SELECT count(*)::INTEGER AS n FROM predictions p JOIN k USING (job_key)`);
  if (Number(has[0]?.['n'] ?? 0) === 0) return undefined;
  const roc = await store.query(
    `WITH ${k},
     cases AS (SELECT k.dataset, k.method, len(p.probs) AS classes, p.truth,
                      unnest(p.probs) AS score, unnest(range(len(p.probs))) AS c
               FROM predictions p JOIN k USING (job_key)),
     scored AS (SELECT dataset, method, classes, floor(score * 200) / 200 AS t, c = truth AS pos FROM cases
                WHERE classes > 2 OR c = 1),
     bins AS (SELECT dataset, method, t, any_value(classes) AS classes, count(*) FILTER (WHERE pos) AS np, count(*) FILTER (WHERE NOT pos) AS nn
              FROM scored GROUP BY ALL)
     SELECT dataset, method, t, any_value(classes) OVER d AS classes,
            (sum(np) OVER w)::DOUBLE / (sum(np) OVER d) AS tpr, (sum(nn) OVER w)::DOUBLE / (sum(nn) OVER d) AS fpr
     FROM bins
     WINDOW w AS (PARTITION BY dataset, method ORDER BY t DESC ROWS UNBOUNDED PRECEDING), d AS (PARTITION BY dataset, method)
     ORDER BY dataset, method, t DESC`,
  );
  const rel = await store.query(
    `WITH ${k},
     r AS (SELECT k.dataset, k.method, list_max(p.probs) AS conf,
                  (list_position(p.probs, list_max(p.probs)) - 1 = p.truth)::DOUBLE AS correct
           FROM predictions p JOIN k USING (job_key))
     SELECT dataset, method, least(floor(conf * 10), 9) AS bin, avg(conf) AS conf, avg(correct) AS acc, count(*)::INTEGER AS n
     FROM r GROUP BY ALL ORDER BY dataset, method, bin`,
  );
  const num = (x: unknown): number => Number(x);
  const rocPoints: CurvePoints['roc'][number][] = [];
  let last = '';
  const classes = new Map<string, number>();
  for (const r of roc) {
    classes.set(String(r['dataset']), num(r['classes']));
    const key = cellKey(String(r['dataset']), String(r['method']));
    // Every curve starts at (0, 0).
    if (key !== last) rocPoints.push({ dataset: String(r['dataset']), method: String(r['method']), fpr: 0, tpr: 0 });
    last = key;
    rocPoints.push({
      dataset: String(r['dataset']),
      method: String(r['method']),
      fpr: num(r['fpr']),
      tpr: num(r['tpr']),
    });
  }
  return {
    roc: rocPoints.filter((p) => Number.isFinite(p.fpr) && Number.isFinite(p.tpr)),
    classes,
    reliability: rel.map((r) => ({
      dataset: String(r['dataset']),
      method: String(r['method']),
      conf: num(r['conf']),
      acc: num(r['acc']),
      n: num(r['n']),
    })),
  };
}
