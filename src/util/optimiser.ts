/**
 * V8's optimising compiler (TurboFan) for a process that ends after its report. A report runs each of its
 * functions (vega's, vega-lite's, the report's own) a few hundred times at most: V8 marks the busiest for
 * optimisation and compiles them on background threads, which costs CPU the short remaining run never earns
 * back. The `report`, `run` and `submit` commands, whose process ends with the report, switch the optimiser
 * off for the rest of the process when the report starts (a `report` of a 960-job run took about a third less
 * CPU; docs/performance.md). Code runs in V8's interpreter and baseline compiler then, with the same results:
 * the optimiser changes how fast JavaScript runs, never what it computes. A long-lived process (the UI server,
 * a test runner) never switches it off.
 *
 * V8 checks a code cache against its flags: every cache the build ships is made with the default flags, so a
 * script is compiled from one with the optimiser switched back on for that moment ({@link withDefaultFlags},
 * through util/v8-cache.ts): vega, the spec validators a report reads after switching the optimiser off, a
 * chunk of the CLI first loaded after it.
 */
import v8 from 'node:v8';
import { knownV8 } from './v8-memory.js';

let off = false;

/** Switch V8's optimising compiler off for the rest of this process (once; a no-op where unsupported). */
export function optimiserOffForRestOfProcess(): void {
  if (off || !knownV8()) return; // `--turbofan` exists from V8 11 (Node 20)
  v8.setFlagsFromString('--no-turbofan');
  off = true;
}

/** Whether {@link optimiserOffForRestOfProcess} switched the optimiser off. */
export function optimiserIsOff(): boolean {
  return off;
}

/**
 * `f()` with V8's default flags (the optimiser on for its duration when it was switched off), for compiling a
 * script from a code cache made with the default flags.
 */
export function withDefaultFlags<T>(f: () => T): T {
  if (!off) return f();
  v8.setFlagsFromString('--turbofan');
  try {
    return f();
  } finally {
    v8.setFlagsFromString('--no-turbofan');
  }
}
