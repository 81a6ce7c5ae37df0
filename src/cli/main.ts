#!/usr/bin/env node
/**
 * The `bnclab` command: runs the command line (cli.ts) from the built bundle, compiled with V8's code cache
 * (util/bundle.ts), or from tsc's output where there is no bundle.
 */
import { loadBundle } from '../util/bundle.js';

type Cli = typeof import('./cli.js');
const cli = (loadBundle('cli') as Cli | undefined) ?? (await import('./cli.js'));
await cli.runCli(process.argv.slice(2));
