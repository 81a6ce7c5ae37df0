/**
 * UserError: bad input from the user (spec, data file, parameters). The CLI prints `message` as one line,
 * without a stack trace, and exits with `exitCode` (2 by default). Messages name what and where,
 * e.g. "experiments/x.yaml:12:5: structures[1].id: unknown structure 'tanx' (known: nb, tan)".
 */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}
