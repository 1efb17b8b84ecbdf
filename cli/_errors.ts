// Named errors of the CLI. Messages start with a capital and have no trailing period.

/** Bad command-line usage: exit code 2. */
export class UsageError extends Error {
  /** @param message What is wrong with the command line. */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Bad user input (a malformed line, a missing field): exit code 2. */
export class InputError extends Error {
  /**
   * @param message What is wrong, naming the file, line and id.
   * @param options The underlying cause.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "InputError";
  }
}

/** Cuts a text for quoting in an error message. */
export function quote(text: string, max = 60): string {
  const cut = text.length > max ? text.slice(0, max) + "…" : text;
  return JSON.stringify(cut);
}
