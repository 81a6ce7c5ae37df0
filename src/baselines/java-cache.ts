/**
 * A Java source file run in source-file mode (`java [options] Learner.java args`, Java 11+) compiles itself
 * on every start, about a second for WekaPredict.java. For such a command the `external` baseline compiles
 * the file once with `javac` (next to the `java` that runs it) into the cache folder (util/cache.ts), under
 * a key made of the file's content, the class path and `java -version`, and runs the compiled class instead:
 * `java [options] -cp <cached classes>:<class path> Learner args`. The numbers are the same (same source, same
 * JVM); the job key is unchanged (it holds the command as written and the file's sha256). Anything else
 * (no cache folder, no javac, a failed compile, a `--source` option) runs the command as written.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { cacheDir } from '../util/cache.js';

const memo = new Map<string, string[]>();

/** The command to run for `command` in folder `cwd`: the compiled class for a Java source file, else itself. */
export function runnableCommand(command: readonly string[], cwd: string): string[] {
  const key = JSON.stringify([command, cwd]);
  let out = memo.get(key);
  if (!out) {
    out = compiledJava(command, cwd) ?? [...command];
    memo.set(key, out);
  }
  return out;
}

/** A program on PATH (or as given, when it names a path), resolved through links. */
function which(program: string): string | undefined {
  const candidates = program.includes('/')
    ? [program]
    : (process.env['PATH'] ?? '').split(delimiter).map((d) => join(d, program));
  for (const c of candidates) if (existsSync(c)) return realpathSync(c);
  return undefined;
}

const versions = new Map<string, string>();

function javaVersion(java: string): string | undefined {
  let v = versions.get(java);
  if (v === undefined) {
    const r = spawnSync(java, ['-version'], { encoding: 'utf8' });
    v = r.status === 0 ? r.stderr + r.stdout : '';
    versions.set(java, v);
  }
  return v || undefined;
}

function compiledJava(command: readonly string[], cwd: string): string[] | undefined {
  const [program, ...args] = command;
  if (!program || basename(program) !== 'java') return undefined;
  const dir = cacheDir();
  if (!dir) return undefined;
  let i = 0;
  let classPath: string | undefined;
  let cpAt = -1;
  while (i < args.length && args[i].startsWith('-')) {
    const a = args[i];
    if (a === '--source' || a.startsWith('--source=')) return undefined;
    if (a === '-cp' || a === '-classpath' || a === '--class-path') {
      classPath = args[i + 1];
      cpAt = i;
      i += 2;
    } else i++;
  }
  const source = args[i];
  if (!source?.endsWith('.java')) return undefined;
  const file = isAbsolute(source) ? source : resolve(cwd, source);
  if (!existsSync(file)) return undefined;
  const java = which(program);
  const javac = java && join(dirname(java), 'javac');
  if (!java || !javac || !existsSync(javac)) return undefined;
  const version = javaVersion(java);
  if (!version) return undefined;
  const text = readFileSync(file);
  const hash = createHash('sha256')
    .update('java-class\0')
    .update(text)
    .update('\0')
    .update(classPath ?? '')
    .update('\0')
    .update(version)
    .digest('hex');
  const classes = join(dir, 'java', hash);
  if (!existsSync(join(classes, '.complete'))) {
    const tmp = `${classes}.tmp-${process.pid}-${threadId}`;
    try {
      mkdirSync(tmp, { recursive: true });
      const r = spawnSync(javac, [...(classPath ? ['-cp', classPath] : []), '-d', tmp, file], { encoding: 'utf8' });
      if (r.status !== 0) return undefined;
      writeFileSync(join(tmp, '.complete'), '');
      try {
        renameSync(tmp, classes);
      } catch {
        // Another worker compiled it first: its copy is the same.
      }
    } catch {
      return undefined;
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    if (!existsSync(join(classes, '.complete'))) return undefined;
  }
  const cp = classPath ? `${classes}${delimiter}${classPath}` : classes;
  const options =
    cpAt >= 0 ? [...args.slice(0, cpAt), '-cp', cp, ...args.slice(cpAt + 2, i)] : ['-cp', cp, ...args.slice(0, i)];
  return [program, ...options, basename(file, '.java'), ...args.slice(i + 1)];
}
