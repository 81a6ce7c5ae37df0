/**
 * The script a worker thread of the pool starts (pool.ts): the job loop (worker-thread.ts) from the built
 * bundle, compiled with V8's code cache (util/bundle.ts), or from tsc's output where there is no bundle.
 */
import { loadBundle } from '../util/bundle.js';

if (loadBundle('worker') === undefined) await import('./worker-thread.js');
