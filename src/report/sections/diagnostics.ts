/** compare.diagnostics: tables of the structure diagnostics stored per job (diagnostics.ts). */
import type { ReportContext } from '../context.js';
import type { Block, Section } from '../document.js';
import { diagnosticTable, diagnosticTitle } from '../diagnostics.js';

/** compare.diagnostics: structure diagnostics stored per job. */
export function diagnosticsSection(c: ReportContext): Section[] {
  const { s, input } = c;
  if (!s.diagnostics.length) return [];
  const blocks: Block[] = [];
  for (const key of s.diagnostics) {
    const t = input.structureInfo
      ? diagnosticTable(c.tableId(`diagnostics-${key}`), key, input.rows, input.structureInfo, c.labels)
      : null;
    blocks.push(
      ...(t
        ? c.addTable(t)
        : [{ kind: 'p' as const, text: `No job of this experiment stores ${key} (${diagnosticTitle(key)}).` }]),
    );
  }
  return [{ title: 'Structure diagnostics', level: 2, blocks }];
}
