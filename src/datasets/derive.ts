/**
 * Derived data sets: a shipped file whose class column is a declared mapping of another shipped file's
 * (abalone's 28 ring counts → the 3 classes of the Monash papers; thyroid0387's 32 diagnosis strings → their
 * first diagnosis, 20 classes). The registry records the mapping (`derived:` in configs/datasets.yaml, from
 * data/uci/manifest.json) and test/datasets/derive.test.ts rebuilds every derived file from its source with
 * it, byte for byte, so the shipped file is exactly what the declaration says.
 */
import { UserError } from '../util/errors.js';

export interface DerivedFrom {
  /** Registry name of the source data set. */
  readonly from: string;
  /** Source class value → derived class value; every value that occurs must be listed. */
  readonly class_map: Readonly<Record<string, string>>;
}

/**
 * The text of a CSV file whose class is its last column and that holds no quoted field, with every class
 * value replaced by `map`'s (header and every other byte kept). A value the map lacks is an error.
 */
export function deriveClassMapped(text: string, map: Readonly<Record<string, string>>, where: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (i === 0 || line === '') {
      out.push(line);
      continue;
    }
    if (line.includes('"')) throw new UserError(`${where}:${i + 1}: a quoted field; only plain CSV can be derived`);
    const cut = line.lastIndexOf(',');
    const value = line.slice(cut + 1);
    const to = Object.hasOwn(map, value) ? map[value] : undefined;
    if (to === undefined) throw new UserError(`${where}:${i + 1}: class value '${value}' has no mapping`);
    out.push(`${line.slice(0, cut + 1)}${to}`);
  }
  return out.join('\n');
}
