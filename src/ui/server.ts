/**
 * The HTTP server of `bnclab ui` (node:http): the page, its bundled script (dist/ui/app.js, built by
 * scripts/bundle.mjs from src/ui/client/), and a small JSON API over UiData. Every asset is served from here:
 * the page loads nothing from the network. Bound to 127.0.0.1 unless the caller chooses another host.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { COMPARE_METRICS, type CompareMetric } from '../spec/report-sections.js';
import { UserError } from '../util/errors.js';
import { packageRoot } from '../util/paths.js';
import { type CompareSide, compareAcross, type Selection, type UiData } from './data.js';
import { PAGE_HTML } from './page.js';

/** The bundled front end; a clear error when the build did not make it. */
function clientScript(): string {
  const file = join(packageRoot(), 'dist', 'ui', 'app.js');
  if (!existsSync(file)) throw new UserError(`${file} is missing: run 'npm run build' (it bundles the page's script)`);
  return readFileSync(file, 'utf8');
}

/** The selection a URL's query names (the page keeps it there, so a link reopens the same view). */
export function selectionOf(q: URLSearchParams): Selection {
  const experiment = q.get('exp') ?? '';
  if (!experiment) throw new UserError('exp: name an experiment');
  const metric = (q.get('metric') ?? 'accuracy') as CompareMetric;
  if (!COMPARE_METRICS.includes(metric)) throw new UserError(`metric: expected one of ${COMPARE_METRICS.join(', ')}`);
  const list = (k: string): string[] => q.getAll(k).filter((s) => s !== '');
  return { experiment, metric, datasets: list('d'), methods: list('m'), control: q.get('control') ?? 'best' };
}

/** The Compare page's query: side a (exp, code), side b (exp2, code2; exp2 defaults to exp), metric, method (a's) and method2 (b's). */
function compareOf(q: URLSearchParams): {
  a: CompareSide;
  b: CompareSide;
  metric: CompareMetric;
  method: string;
  method2: string;
} {
  const experiment = q.get('exp') ?? '';
  if (!experiment) throw new UserError('exp: name an experiment');
  const metric = (q.get('metric') ?? 'accuracy') as CompareMetric;
  if (!COMPARE_METRICS.includes(metric)) throw new UserError(`metric: expected one of ${COMPARE_METRICS.join(', ')}`);
  const code = (k: string): string | null => (q.get(k) ? q.get(k) : null);
  return {
    a: { experiment, code: code('code') },
    b: { experiment: q.get('exp2') || experiment, code: code('code2') },
    metric,
    method: q.get('method') ?? '',
    method2: q.get('method2') ?? '',
  };
}

const fontCache = new Map<number, Buffer>();

/**
 * Arimo (the font the report's PDFs embed, from the installed @expo-google-fonts/arimo; Helvetica's metrics),
 * for the figures' text on the page: the figures are laid out with Helvetica's metrics, and a browser that
 * lacks Helvetica and Arial would draw them in a wider fallback that runs past the figure's edge.
 */
function figureFont(weight: 400 | 700): Buffer {
  let b = fontCache.get(weight);
  if (!b) {
    const dir = dirname(createRequire(import.meta.url).resolve('@expo-google-fonts/arimo/package.json'));
    b = readFileSync(join(dir, weight === 700 ? '700Bold/Arimo_700Bold.ttf' : '400Regular/Arimo_400Regular.ttf'));
    fontCache.set(weight, b);
  }
  return b;
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  const text = JSON.stringify(body, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
};

/**
 * The database a query names: `db` (or `db2` for side b of Compare), an index into the databases the ui was
 * given (0, the first, by default).
 */
function databaseOf(sources: readonly UiData[], q: URLSearchParams, key: 'db' | 'db2' = 'db'): UiData {
  const v = q.get(key) ?? (key === 'db2' ? q.get('db') : null) ?? '0';
  const i = /^\d+$/.test(v) ? Number(v) : -1;
  const d = sources[i];
  if (!d) throw new UserError(`${key}: expected a database number from 0 to ${sources.length - 1}, got '${v}'`);
  return d;
}

async function handle(
  given: UiData | readonly UiData[],
  script: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const q = url.searchParams;
  const p = url.pathname;
  const sources = Array.isArray(given) ? (given as readonly UiData[]) : [given as UiData];
  try {
    const data = databaseOf(sources, q);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET' }).end();
      return;
    }
    if (p === '/' || p === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(PAGE_HTML);
    } else if (p === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end(script);
    } else if (p === '/fonts/arimo-400.ttf' || p === '/fonts/arimo-700.ttf') {
      res.writeHead(200, { 'content-type': 'font/ttf', 'cache-control': 'max-age=86400' });
      res.end(figureFont(p.includes('700') ? 700 : 400));
    } else if (p === '/api/experiments') {
      json(res, 200, {
        source: data.source(),
        experiments: await data.experimentList(),
        databases: sources.map((x) => x.file),
      });
    } else if (p === '/api/meta') {
      json(res, 200, await data.meta(q.get('exp') ?? ''));
    } else if (p === '/api/grid') {
      json(res, 200, { source: data.source(), grid: await data.grid(q.get('exp') ?? '') });
    } else if (p === '/api/results') {
      json(res, 200, await data.results(selectionOf(q)));
    } else if (p === '/api/cd.svg') {
      const svg = await data.cdSvg(selectionOf(q));
      res.writeHead(svg ? 200 : 204, { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' });
      res.end(svg ?? '');
    } else if (p === '/api/cell') {
      const sel = selectionOf(q);
      json(res, 200, await data.cell(sel.experiment, q.get('dataset') ?? '', q.get('method') ?? '', sel.metric));
    } else if (p === '/api/claims') {
      json(res, 200, await data.claims(q.get('exp') ?? ''));
    } else if (p === '/api/compare') {
      const c = compareOf(q);
      json(res, 200, await compareAcross(data, c.a, databaseOf(sources, q, 'db2'), c.b, c.metric, c.method, c.method2));
    } else if (p === '/api/export') {
      const f = await data.exportFile(selectionOf(q), q.get('what') ?? '');
      res.writeHead(200, {
        'content-type': f.type,
        'content-disposition': `attachment; filename="${f.name.replace(/[^\w.-]/g, '_')}"`,
      });
      res.end(f.body);
    } else {
      json(res, 404, { error: `no page ${p}` });
    }
  } catch (e) {
    if (e instanceof UserError) json(res, 400, { error: e.message });
    else json(res, 500, { error: (e as Error).message.split('\n')[0] });
  }
}

export interface RunningUi {
  readonly server: Server;
  readonly url: string;
  close(): Promise<void>;
}

/** Listen on host:port (port 0: any free port); resolves once listening. */
export async function startUi(data: UiData | readonly UiData[], host: string, port: number): Promise<RunningUi> {
  const script = clientScript();
  const server = createServer((req, res) => void handle(data, script, req, res));
  await new Promise<void>((ok, fail) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      fail(
        e.code === 'EADDRINUSE'
          ? new UserError(`--port ${port}: the port is in use on ${host}; choose another with --port`)
          : e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND'
            ? new UserError(`--host ${host}: no such interface on this machine`)
            : e,
      ),
    );
    server.listen(port, host, () => ok());
  });
  const a = server.address() as AddressInfo;
  const shown = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return {
    server,
    url: `http://${shown}:${a.port}/`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
