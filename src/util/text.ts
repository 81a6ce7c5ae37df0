/**
 * The candidate closest to `word` by edit distance (a swap of two adjacent letters counts as one edit, so
 * `kbd` is one edit from `kdb`), if it is close enough to be a likely typo. On a tie, a candidate as long as
 * the word wins (`kbd` → `kdb`, not `kb`).
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  let bestLen = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    const len = Math.abs(c.length - word.length);
    if (d < bestD || (d === bestD && len < bestLen)) {
      bestD = d;
      bestLen = len;
      best = c;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** Edit distance with adjacent transpositions (optimal string alignment): insert, delete, replace, swap. */
export function editDistance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0); // row i - 2
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j); // row i - 1
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(b.length + 1);
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      cur[j] = d;
    }
    before = prev;
    prev = cur;
  }
  return prev[b.length];
}

/**
 * Code-unit order of two strings (as `sort()` without a comparator, and as DuckDB's ORDER BY sorts VARCHAR):
 * the same on every machine. `localeCompare` orders by the user's locale (Swedish puts `ä` after `z`, English
 * beside `a`), so a report or a listing sorted with it differed between machines; its first call also loads
 * ICU's collation, about 12 ms of CPU.
 */
export function codeOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
