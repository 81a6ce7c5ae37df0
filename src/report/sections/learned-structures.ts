/** Drawings of the learned structures (structures.ts draws them), when the arcs were read. */
import type { ReportContext } from '../context.js';
import type { Section } from '../document.js';
import { learnedStructuresSection } from '../structures.js';

/** Drawings of the learned structures (structures.ts), when the arcs were read. */
export function learnedStructureSection(c: ReportContext): Section[] {
  if (!c.input.arcs) return [];
  const learned = learnedStructuresSection(c.input.rows, c.input.arcs, c.figureId);
  if (!learned) return [];
  return [{ ...learned, blocks: learned.blocks.map((b) => (b.kind === 'figure' ? c.addFigure(b.figure) : b)) }];
}
