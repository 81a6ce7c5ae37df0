/**
 * V8 favouring memory over speed (`--optimize-for-size`) while a `bnclab run` process runs its jobs. The
 * coordinator's heap held mostly garbage between collections: at 10^6 trivial jobs its V8 heap grew to
 * 60–130 MiB before each full collection, against 25–45 MiB alive. With V8 told to favour size, it collects
 * earlier and shrinks its young generation: 32–48 MiB, and the process's resident set 80–100 MiB lower
 * (docs/performance.md, "Memory against the number of jobs"). The flag changes when V8 collects and how it
 * compiles, never what JavaScript computes: every stored number is the same.
 *
 * It is switched on only once the pool's workers are ready, their code loaded: V8 reads it when an isolate is
 * made, and checks a code cache against it (the workers' chunks are compiled from one, util/bundle.ts); a worker
 * started under it gets a 1 MB young generation whose collections cost about a quarter more CPU for trivial
 * jobs (a worker that replaces one ended by a time limit or crash does). A process-wide flag, so only the CLI's
 * own `run` process sets it (never a test runner or the UI server), and it is switched back before the report:
 * V8 checks a code cache against its flags (util/v8-cache.ts), and the flag implies a semi-space size that
 * is reset with it.
 */
import v8 from 'node:v8';

let favouring = false;

/**
 * Whether this V8 is one whose flags bnclab sets were measured (11–13: Node 20 to 24). V8 prints an error line
 * for a flag it does not know, so another version is left alone (here and in util/optimiser.ts).
 */
export function knownV8(): boolean {
  const major = Number(process.versions.v8.split('.')[0]);
  return major >= 11 && major <= 13;
}

/** Favour memory over speed from now on (a no-op where the V8 was not measured). */
export function favourMemory(): void {
  if (favouring || !knownV8()) return;
  v8.setFlagsFromString('--optimize-for-size');
  favouring = true;
}

/** Back to V8's defaults: the flag and the semi-space size it implied (0: V8's own choice). */
export function favourSpeed(): void {
  if (!favouring) return;
  v8.setFlagsFromString('--no-optimize-for-size');
  v8.setFlagsFromString('--max-semi-space-size=0');
  favouring = false;
}

/** Whether {@link favourMemory} is in effect. */
export function favouringMemory(): boolean {
  return favouring;
}
