// Named errors of the CLI. Messages start with a capital and have no trailing period.
export { InputError, InvariantViolation, quote } from "../src/jsonl/mod.ts";

/** Bad command-line usage: exit code 2. */
export class UsageError extends Error {
  /** @param message What is wrong with the command line. */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * The reader closed stdout before the command finished writing (`assay parse … | head -1`): the
 * command stops there and exits 0 without a message, since the reader has what it asked for.
 */
export class StdoutClosed extends Error {
  /** @param options The broken pipe error, as `cause`. */
  constructor(options?: ErrorOptions) {
    super("Stdout was closed by its reader", options);
    this.name = "StdoutClosed";
  }
}

/** A gate failed (a rule, or a --fail-under threshold): the verdict is printed; exit code 3. */
export class GateFailed extends Error {
  /** @param what What failed, e.g. `2 rules failed`. */
  constructor(what: string) {
    super(what);
    this.name = "GateFailed";
  }
}
