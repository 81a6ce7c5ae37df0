import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIGURE_KEYS, noteSvg, reusedSvg, reuseFiguresOf, writeFigureKeys } from '../../src/report/figure-keys.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  reuseFiguresOf(join(tmpdir(), 'no-such-report-folder'));
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'bnclab-figkeys-'));
  dirs.push(d);
  return d;
}

describe('figures reused from the report folder by content key', () => {
  const a = '<svg width="1" height="1"><text>a</text></svg>';
  const b = '<svg width="2" height="2"><text>b</text></svg>';

  it('records each written figure under its key and offers it to the next report', () => {
    const dir = folder();
    noteSvg('vega-svg', 'k1', a);
    noteSvg('structure-svg', 'k2', b);
    writeFileSync(join(dir, 'fa.svg'), a);
    writeFileSync(join(dir, 'fb.svg'), b);
    writeFigureKeys(dir, [
      { id: 'fa', svg: a },
      { id: 'fb', svg: b },
      { id: 'unkeyed', svg: '<svg>never noted</svg>' },
    ]);
    expect(readFileSync(join(dir, FIGURE_KEYS), 'utf8').trim().split('\n')).toHaveLength(2);
    reuseFiguresOf(dir);
    expect(reusedSvg('vega-svg', 'k1')).toBe(a);
    expect(reusedSvg('structure-svg', 'k2')).toBe(b);
    // Another key, or the same key under another kind, is not offered.
    expect(reusedSvg('vega-svg', 'k2')).toBeUndefined();
    expect(reusedSvg('vega-svg', 'k3')).toBeUndefined();
  });

  it('a file changed since it was recorded is not reused', () => {
    const dir = folder();
    noteSvg('vega-svg', 'k1', a);
    writeFileSync(join(dir, 'fa.svg'), a);
    writeFigureKeys(dir, [{ id: 'fa', svg: a }]);
    writeFileSync(join(dir, 'fa.svg'), a.replace('>a<', '>edited<'));
    reuseFiguresOf(dir);
    expect(reusedSvg('vega-svg', 'k1')).toBeUndefined();
    rmSync(join(dir, 'fa.svg'));
    expect(reusedSvg('vega-svg', 'k1')).toBeUndefined();
  });

  it('a folder without a record offers nothing; a record naming a path outside the folder is ignored', () => {
    const dir = folder();
    reuseFiguresOf(dir);
    expect(reusedSvg('vega-svg', 'k1')).toBeUndefined();
    writeFileSync(join(dir, FIGURE_KEYS), 'vega-svg/k1 0000 ../outside.svg\n');
    reuseFiguresOf(dir);
    expect(reusedSvg('vega-svg', 'k1')).toBeUndefined();
  });
});
