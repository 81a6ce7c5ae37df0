/** Every YAML snippet in README.md and docs/ parses, and every complete spec among them validates. */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { parseSpec } from '../../src/spec/load.js';

const ROOT = join(__dirname, '..', '..');
const files = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

interface Snippet {
  where: string;
  text: string;
  block: boolean;
}

function snippets(): Snippet[] {
  const out: Snippet[] = [];
  for (const f of files) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    const line = (i: number): number => text.slice(0, i).split('\n').length;
    for (const m of text.matchAll(/```ya?ml\n([\s\S]*?)```/g))
      out.push({ where: `${f}:${line(m.index)}`, text: m[1], block: true });
    // Inline code written as YAML, e.g. `folds: {file: "folds/{dataset}.csv"}`.
    for (const m of text.matchAll(/`([a-z_]+: [{[][^`]*)`/g))
      out.push({ where: `${f}:${line(m.index)}`, text: m[1], block: false });
    // YAML in comments of YAML blocks, e.g. "# or {file: ...}".
    for (const m of text.matchAll(/# or (\{[^}]*\{?[^}]*\}?[^}]*\})/g))
      out.push({ where: `${f}:${line(m.index)}`, text: `x: ${m[1]}`, block: false });
  }
  return out;
}

describe('YAML in the documentation', () => {
  const all = snippets();
  it('finds the snippets', () => {
    expect(all.filter((s) => s.block).length).toBeGreaterThan(5);
    expect(all.some((s) => s.text.includes('{dataset}'))).toBe(true);
  });
  it.each(all.map((s) => [s.where, s] as const))('%s parses', (_, s) => {
    const doc = parseDocument(s.text);
    expect(doc.errors.map((e) => e.message.split('\n')[0])).toEqual([]);
    const js = doc.toJS() as Record<string, unknown> | null;
    if (s.block && js && typeof js === 'object' && 'name' in js && 'datasets' in js) {
      expect(() => parseSpec(s.text, s.where)).not.toThrow();
    }
  });
});
