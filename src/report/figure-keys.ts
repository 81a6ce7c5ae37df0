/**
 * Figures reused from the report folder. Each Vega-Lite figure's SVG is a pure function of its content key
 * (the sha256 of its spec with its data and of the vega versions; see figures.ts; learned-structure drawings
 * are drawn every time and have none). A report records the key of every such figure it writes in
 * `figures/.bnclab-figure-keys`, with the sha256 of the file it wrote; the next report into the same folder
 * takes a figure whose key is unchanged from that file instead of rendering it, even when the cache folder
 * is empty (a fresh clone, CI, a cleared `node_modules/.cache`). A file whose bytes no longer match the
 * recorded hash (edited, truncated) is drawn afresh, so a reused figure is always the one its key names.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { holdsBytes } from '../util/output.js';

export const FIGURE_KEYS = '.bnclab-figure-keys';

// The content key ("kind/key") of each SVG drawn or reused in this process, by its text.
const keyOfSvg = new Map<string, string>();
// What the report folder's record offers: content key → [file, sha256 of its bytes].
const offered = new Map<string, readonly [string, string]>();

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Note the content key of an SVG about to become a figure (so the report can record it). */
export function noteSvg(kind: string, key: string, svg: string): string {
  keyOfSvg.set(svg, `${kind}/${key}`);
  return svg;
}

/** Offer the figures a previous report wrote into `dir` (a missing or damaged record offers none). */
export function reuseFiguresOf(dir: string): void {
  offered.clear();
  let text: string;
  try {
    text = readFileSync(join(dir, FIGURE_KEYS), 'utf8');
  } catch {
    return;
  }
  for (const line of text.split('\n')) {
    const [key, hash, file] = line.split(' ');
    if (key && hash && file && !file.includes('/') && !file.includes('\\')) offered.set(key, [join(dir, file), hash]);
  }
}

/** The SVG a previous report wrote under this content key, if its file still holds exactly that. */
export function reusedSvg(kind: string, key: string): string | undefined {
  const o = offered.get(`${kind}/${key}`);
  if (!o) return undefined;
  let svg: string;
  try {
    svg = readFileSync(o[0], 'utf8');
  } catch {
    return undefined;
  }
  return sha256(svg) === o[1] ? svg : undefined;
}

/** Record the content key of each figure written to `dir` (figures whose key is unknown are left out). */
export function writeFigureKeys(dir: string, figures: readonly { readonly id: string; readonly svg: string }[]): void {
  const lines: string[] = [];
  for (const f of figures) {
    const key = keyOfSvg.get(f.svg);
    if (key !== undefined) lines.push(`${key} ${sha256(f.svg)} ${f.id}.svg`);
  }
  const text = Buffer.from(lines.length ? `${lines.join('\n')}\n` : '');
  const file = join(dir, FIGURE_KEYS);
  if (!holdsBytes(file, text)) writeFileSync(file, text); // unchanged: left with its time, as the figures are
}
