/**
 * Composite keys of two names, for maps and sets: a dataset × method cell (`dataset\0method`, the key of the
 * planned folds, the partial cells, the report's groups) and a parent → child arc. The NUL separator cannot
 * occur in a dataset name, a method label or a variable name, so a key splits back into its two parts; in
 * code-unit order (`sort()` without a comparator) keys sort as their first part, then their second
 * (`localeCompare` ignores the NUL and does not).
 */
const SEP = '\u0000';

/** The key of the pair (a, b). */
export function pairKey(a: string, b: string): string {
  return `${a}${SEP}${b}`;
}

/** The two parts of a {@link pairKey}. */
export function splitPairKey(key: string): [string, string] {
  const i = key.indexOf(SEP);
  return i < 0 ? [key, ''] : [key.slice(0, i), key.slice(i + 1)];
}

/** The key of a dataset × method cell. */
export function cellKey(dataset: string, method: string): string {
  return pairKey(dataset, method);
}

/** The dataset and the method of a {@link cellKey}. */
export function splitCellKey(key: string): [dataset: string, method: string] {
  return splitPairKey(key);
}
