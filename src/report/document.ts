/**
 * The report's document model, shared by build.ts, context.ts and the section modules (kept apart from
 * build.ts so that the sections, which build.ts calls, do not import it back).
 */
import type { Figure } from './figures.js';
import type { Table } from './table.js';

export type Block =
  | { readonly kind: 'p'; readonly text: string }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | { readonly kind: 'table'; readonly table: Table }
  | { readonly kind: 'figure'; readonly figure: Figure };

export interface Section {
  readonly title: string;
  readonly level: 2 | 3;
  readonly blocks: readonly Block[];
}
