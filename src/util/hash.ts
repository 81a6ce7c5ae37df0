import * as crypto from 'node:crypto';

/** Canonical JSON: object keys sorted recursively, so equal content gives equal text and equal hashes. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

const canonicalTexts = new WeakMap<object, string>();

/**
 * canonicalJson of an object that is never changed once made (a plan's method parameters, its preprocessing),
 * computed once per object: many jobs share one and each would otherwise sort its keys again.
 */
export function canonicalJsonOnce(o: object): string {
  let text = canonicalTexts.get(o);
  if (text === undefined) {
    text = canonicalJson(o);
    canonicalTexts.set(o, text);
  }
  return text;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object' && !ArrayBuffer.isView(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = sortKeys(x);
    }
    return out;
  }
  return v;
}

/**
 * Node's one-shot hash (20.12 and later): the same digest as createHash().update().digest() with about a
 * third of its cost, which a run of short jobs pays several times per job (keys, seeds, random streams).
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: string) => unknown }).hash;

export function sha256Hex(data: string | Uint8Array): string {
  if (oneShot) return oneShot('sha256', data, 'hex') as string;
  return crypto.createHash('sha256').update(data).digest('hex');
}

/** Hash of canonical content, shortened for readable keys (64 bits of sha256 is ample for job grids). */
export function contentKey(value: unknown, length = 16): string {
  return canonicalTextKey(canonicalJson(value), length);
}

/** contentKey of the value whose canonical JSON is `text` (for callers that write that text themselves). */
export function canonicalTextKey(text: string, length = 16): string {
  return sha256Hex(text).slice(0, length);
}
