/**
 * The store's record of the keys it wrote (src/store/recorded-keys.ts): it must hold every key added, since a
 * key it missed would let a job recorded again keep its old rows beside the new ones; a key it holds wrongly
 * costs only a scan.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { RecordedKeys } from '../../src/store/recorded-keys.js';

const jobKey = (i: number): string => createHash('sha256').update(`job ${i}`).digest('hex').slice(0, 24);

describe('RecordedKeys', () => {
  it('holds every key added through many growths, counts each once, and holds almost no other', () => {
    const keys = new RecordedKeys();
    const n = 200_000;
    for (let i = 0; i < n; i++) keys.add(jobKey(i));
    let heldAgain = 0;
    for (let i = 0; i < n; i += 2) if (keys.add(jobKey(i))) heldAgain++; // again: no new entry
    expect(heldAgain).toBe(n / 2);
    expect(keys.size).toBe(n);
    let missed = 0;
    for (let i = 0; i < n; i++) if (!keys.mayHold(jobKey(i))) missed++;
    expect(missed).toBe(0);
    let wrong = 0;
    for (let i = n; i < 2 * n; i++) if (keys.mayHold(jobKey(i))) wrong++;
    // 53-bit hashes: a shared one among 4·10^5 keys has a chance of about 10^-5.
    expect(wrong).toBeLessThanOrEqual(1);
  });

  it('tells apart keys that differ in one character, short keys and the empty key', () => {
    const keys = new RecordedKeys();
    for (const k of ['k1', 'k2', '', 'ab9ec3063d8464c551a43990']) keys.add(k);
    for (const k of ['k1', 'k2', '', 'ab9ec3063d8464c551a43990']) expect(keys.mayHold(k)).toBe(true);
    for (const k of ['k3', 'k12', '1k', 'ab9ec3063d8464c551a43991', 'ab9ec3063d8464c551a4399']) {
      expect(keys.mayHold(k)).toBe(false);
    }
  });
});
