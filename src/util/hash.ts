import { createHash } from 'node:crypto';

/** Canonical JSON: object keys sorted recursively, so equal content gives equal text and equal hashes. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
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

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Hash of canonical content, shortened for readable keys (64 bits of sha256 is ample for job grids). */
export function contentKey(value: unknown, length = 16): string {
  return sha256Hex(canonicalJson(value)).slice(0, length);
}
