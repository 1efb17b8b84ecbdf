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
