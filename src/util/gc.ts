/**
 * An explicit full garbage collection, for code that is about to allocate a large amount of memory right
 * after dropping a comparable amount. Typed arrays live outside V8's heap and are reclaimed only when V8
 * decides to collect, so back-to-back large allocations (a worker's folds of 10^7 rows, exact searches)
 * otherwise stack up their garbage. No effect on any result: only when memory is returned.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: ((options?: { type: 'minor' | 'major' }) => void) | null | undefined;

function collector(): typeof gc {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as typeof gc;
    } catch {
      gc = null;
    }
  }
  return gc;
}

/** Collect now if `bytes` (what was just dropped, or is about to be allocated) is at least `min` (64 MiB). */
export function releaseGarbage(bytes: number, min = 64 * 1024 * 1024): void {
  if (bytes < min) return;
  collector()?.();
}

/**
 * Collect the young generation now (a scavenge: cheap, it visits only what is still alive there), for a
 * loop that drops a few typed arrays of a megabyte or so each time round: their memory lives outside V8's
 * heap, and the few small objects that hold it fill the young generation too slowly to trigger a scavenge.
 */
export function releaseYoungGarbage(): void {
  collector()?.({ type: 'minor' });
}
