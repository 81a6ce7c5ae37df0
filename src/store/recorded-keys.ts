/**
 * The job keys a store has recorded outcomes for in this process, as 53-bit hashes in an open-addressing table
 * of doubles (8–16 bytes a key: 16 MiB at 10^6 jobs, where a `Set` of the strings took about six times that).
 * Two keys may share a hash, so `mayHold` can answer yes for a key never added, never no for one that was: the
 * store then scans for the rows of a job recorded before where it did not need to, and never skips a scan it
 * needed (db.ts, recordOutcomes).
 */
export class RecordedKeys {
  /** 0: an empty slot (a hash of 0 is stored as 1). */
  private slots = new Float64Array(1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Notes `key`; whether it may have been noted before (as mayHold would have answered). */
  add(key: string): boolean {
    if (2 * (this.count + 1) > this.slots.length) this.grow();
    if (!this.insert(this.slots, hashOf(key))) return true;
    this.count++;
    return false;
  }

  /** Whether `key` may have been added: true for every added key, and for a few others (a shared hash). */
  mayHold(key: string): boolean {
    const h = hashOf(key);
    const mask = this.slots.length - 1;
    for (let i = slotOf(h, mask); ; i = (i + 1) & mask) {
      const s = this.slots[i];
      if (s === 0) return false;
      if (s === h) return true;
    }
  }

  /** Puts `h` in `slots` unless it is there; whether it was added. */
  private insert(slots: Float64Array, h: number): boolean {
    const mask = slots.length - 1;
    for (let i = slotOf(h, mask); ; i = (i + 1) & mask) {
      const s = slots[i];
      if (s === h) return false;
      if (s === 0) {
        slots[i] = h;
        return true;
      }
    }
  }

  private grow(): void {
    const bigger = new Float64Array(this.slots.length * 2);
    for (const h of this.slots) if (h !== 0) this.insert(bigger, h);
    this.slots = bigger;
  }
}

/** A 53-bit hash of a string's UTF-16 code units: two 32-bit FNV-1a style hashes with other primes, combined. */
function hashOf(key: string): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  // 32 bits of a and the high 21 of b: exactly representable in a double; 0 marks an empty slot.
  const h = (a >>> 0) * 0x200000 + (b >>> 11);
  return h === 0 ? 1 : h;
}

function slotOf(h: number, mask: number): number {
  // The low bits of the double's integer (b's high bits) spread the keys; XOR in a's low bits.
  return ((h % 0x200000) ^ Math.floor(h / 0x200000)) & mask;
}
