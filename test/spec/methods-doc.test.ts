import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { methodsMarkdown } from '../../src/cli/methods.js';
import { listBaselines, listEstimators, listStructures } from '../../src/registry.js';

describe('docs/methods.md', () => {
  it('is the catalog the registry generates (run `bnclab methods --write`)', () => {
    const committed = readFileSync(join(__dirname, '..', '..', 'docs', 'methods.md'), 'utf8');
    expect(committed).toBe(methodsMarkdown());
  });

  it('documents every registered method with its citation', () => {
    const md = methodsMarkdown();
    for (const m of [...listStructures(), ...listEstimators(), ...listBaselines()]) {
      expect(md).toContain(`### \`${m.id}\`: ${m.title}`);
      expect(md).toContain(m.citation);
    }
  });
});
