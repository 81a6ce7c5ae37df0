/** Set-up of every test file (vitest.config.ts): the temporary folders a file made go when it ends. */
import { afterAll } from 'vitest';
import { removeTempDirs } from './cli.js';

afterAll(removeTempDirs);
