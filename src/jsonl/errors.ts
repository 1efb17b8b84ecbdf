/**
 * Named errors for bad user input. A bad model output is never an error: it is a parse status.
 *
 * @module
 */
import { textHead } from "./text_head.ts";

/** Where a piece of user data came from, for messages. */
export interface Location {
  /** The file (or source) name. */
  source?: string;
  /** The 1-based line number. */
  line?: number;
  /** The row's id. */
  id?: string;
}

/**
 * Writes a location as `file:line (id "x")`.
 *
 * @param at The location.
 * @returns The location for a message.
 *
 * @example
 * ```ts
 * import { formatLocation } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(formatLocation({ source: "gen.jsonl", line: 4, id: "ex-1" }), 'gen.jsonl:4 (id "ex-1")');
 * ```
 */
export function formatLocation(at: Location): string {
  let s = at.source ?? "<input>";
  if (at.line !== undefined) s += `:${at.line}`;
  if (at.id !== undefined) s += ` (id ${JSON.stringify(at.id)})`;
  return s;
}

/**
 * Quotes a piece of user text for an error message, cut short: the text as a JSON string, or its
 * first `max` UTF-16 code units (cut where {@linkcode textHead} cuts: never inside a character) and
 * an ellipsis when it is longer.
 *
 * @param text The text, such as the start of a malformed line.
 * @param max How many code units to keep (default 80).
 * @returns The quoted text.
 *
 * @example
 * ```ts
 * import { quote } from "@assay/assay/jsonl";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(quote('{"id": 1'), '"{\\"id\\": 1"');
 * strictEqual(quote("abcdef", 3), '"abc…"');
 * strictEqual(quote("ab😀cd", 3), '"ab…"'); // not half of the emoji
 * ```
 */
export function quote(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${textHead(text, max)}\u2026` : text);
}

/**
 * The hint added to the error of a JSONL file's first line when it is not one JSON object but
 * opens a JSON array: the file is likely one JSON array of objects (on one line or several), and
 * JSONL wants one object per line. The readers of one object per line add it to their errors.
 *
 * @param text The line, as read.
 * @param line Its 1-based number.
 * @returns The hint, starting with `; `, or an empty string.
 *
 * @example
 * ```ts
 * import { jsonArrayHint } from "@assay/assay/jsonl";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(
 *   jsonArrayHint('[{"id": "a"}, {"id": "b"}]', 1),
 *   "; JSONL is one JSON object per line, not a JSON array",
 * );
 * strictEqual(jsonArrayHint("[", 2), "");
 * ```
 */
export function jsonArrayHint(text: string, line: number): string {
  return line < 2 && /^\s*\[/.test(text)
    ? "; JSONL is one JSON object per line, not a JSON array"
    : "";
}

/** Options of an {@linkcode InputError}: the underlying cause, and where the bad input is. */
export interface InputErrorOptions extends ErrorOptions {
  /** The file, line and id the error is about, each where known. */
  at?: Location;
}

/**
 * A malformed row: not JSON, not an object, a missing or mistyped field. Its message names the
 * file, line and id, and it carries them as data: `source`, `line` and `id`, each undefined where
 * the error is not about one (a whole file has no line).
 */
export class InputError extends Error {
  // `declare`: assigned in the constructor, so that no field (nor these docs) is emitted.
  /** The file (or source) name, where the error is about one. */
  declare readonly source: string | undefined;
  /** The 1-based line, where the error is about one. */
  declare readonly line: number | undefined;
  /** The row's id, where the error is about a row that has one. */
  declare readonly id: string | undefined;

  /**
   * Creates the error.
   *
   * @param message What is wrong, naming the file, line and id.
   * @param options The underlying cause and `at`, the place named.
   */
  constructor(message: string, options: InputErrorOptions = {}) {
    const { at, ...rest } = options;
    super(message, rest);
    this.name = "InputError";
    this.source = at?.source;
    this.line = at?.line;
    this.id = at?.id;
  }
}

/**
 * An {@linkcode InputError} about one place: its message is the place as
 * {@linkcode formatLocation} writes it, a colon and `text`, and it carries the place.
 *
 * @param at The file, line and id.
 * @param text What is wrong there.
 * @returns The error.
 *
 * @example
 * ```ts
 * import { inputErrorAt } from "@assay/assay/jsonl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const e = inputErrorAt({ source: "gen.jsonl", line: 4, id: "ex-1" }, 'missing field "output"');
 * strictEqual(e.message, 'gen.jsonl:4 (id "ex-1"): missing field "output"');
 * strictEqual(e.line, 4);
 * ```
 */
export function inputErrorAt(at: Location, text: string): InputError {
  return new InputError(`${formatLocation(at)}: ${text}`, { at });
}

/** One broken invariant of an evaluation's inputs. */
export interface Violation {
  /** Which invariant. */
  kind:
    | "duplicate_id"
    | "orphan_generation"
    | "missing_generation"
    | "missing_prompt"
    | "prompt_digest_mismatch"
    | "prompt_text_digest_mismatch";
  /** What happened, naming the id, files and lines. */
  detail: string;
}

/** The inputs of an evaluation break an invariant (CONTRACT §5): no report is written. */
export class InvariantViolation extends Error {
  /** Every violation found (the message lists the first few of each kind). */
  readonly violations: Violation[];

  /**
   * Creates the error; its message lists the first few violations of each kind.
   *
   * @param violations The violations found; at least one.
   */
  constructor(violations: Violation[]) {
    super(summarize(violations));
    this.name = "InvariantViolation";
    this.violations = violations;
  }
}

const SHOWN = 5;

function summarize(violations: Violation[]): string {
  const byKind = new Map<string, string[]>();
  for (const v of violations) {
    const list = byKind.get(v.kind) ?? [];
    list.push(v.detail);
    byKind.set(v.kind, list);
  }
  const parts: string[] = [];
  for (const [kind, details] of byKind) {
    const more = details.length > SHOWN ? `; and ${details.length - SHOWN} more` : "";
    parts.push(`${kind} (${details.length}): ${details.slice(0, SHOWN).join("; ")}${more}`);
  }
  return `Invariant violated: ${parts.join(" | ")}`;
}
