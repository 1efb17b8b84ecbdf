// Named errors of the CLI. Messages start with a capital and have no trailing period.
import { InputError } from "../src/jsonl/mod.ts";

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

/**
 * A write to stdout that failed, as the command ends with it: StdoutClosed when the reader closed
 * it, else bad output naming stdout (exit 2, as an --out that cannot be written), a full disk say.
 */
export function stdoutError(e: unknown): Error {
  if (e instanceof Deno.errors.BrokenPipe) return new StdoutClosed({ cause: e });
  return new InputError(`Cannot write stdout: ${e instanceof Error ? e.message : e}`, { cause: e });
}

/** A gate failed (a rule, or a --fail-under threshold): the verdict is printed; exit code 3. */
export class GateFailed extends Error {
  /** @param what What failed, e.g. `2 rules failed`. */
  constructor(what: string) {
    super(what);
    this.name = "GateFailed";
  }
}
