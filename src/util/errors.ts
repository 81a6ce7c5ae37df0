/**
 * UserError: bad input from the user (spec, data file, parameters). The CLI prints `message` as one line,
 * without a stack trace, and exits with `exitCode` (2 by default). Messages name what and where,
 * e.g. "experiments/x.yaml:12:5: structures[1].id: unknown structure 'tanx' (known: nb, tan)".
 */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT.usage) {
    super(message);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}

/** The exit codes of the `bnclab` command, documented in README.md ("Exit codes") and `bnclab --help`. */
export const EXIT = {
  ok: 0,
  /** Some jobs failed (recorded with their error), or `check` found a regression. */
  jobsFailed: 1,
  /** Usage or input error: bad spec, data file or option. */
  usage: 2,
  /** A bug in bnclab: the message carries a stack trace. */
  internal: 3,
  /** The results database could not be created, opened or written; what was stored is kept. */
  store: 4,
  /** Every job ran and was stored, but the report could not be written. */
  report: 5,
  /** Stopped by SIGINT/SIGTERM after storing every finished result. */
  interrupted: 130,
} as const;

/** The results database failed (cannot be created, opened or written): one line, exit 4. */
/** The database is held open for writing by another process (DuckDB allows one writer): a reader may copy it. */
export class DatabaseInUseError extends UserError {
  /** Who holds the file: "process 123 (/usr/bin/node)", or "another process". */
  constructor(
    message: string,
    readonly holder = 'another process',
  ) {
    super(message);
    this.name = 'DatabaseInUseError';
  }
}

export class StoreError extends UserError {
  constructor(message: string) {
    super(message, EXIT.store);
    this.name = 'StoreError';
  }
}
