// Reading an instruction's kwargs the way IFEval's build_description reads them: where upstream
// would draw a random value (a missing or negative count, a missing keyword), the verdict would not
// be reproducible, so that is refused as bad input.
import { pyIgnoreCase } from "../pytext/mod.ts";
import { escapeRegex } from "./_python_text.ts";
import { quote } from "../jsonl/mod.ts";

/** Why an instruction cannot be built (the caller adds file, line and key). */
export class KwargsProblem extends Error {
  /**
   * Creates the problem.
   *
   * @param message What is wrong.
   */
  constructor(message: string) {
    super(message);
    this.name = "KwargsProblem";
  }
}

/** A value as a message quotes it: a string once, anything else as JSON, both cut short. */
export function shown(value: unknown): string {
  if (typeof value === "string") return quote(value);
  // JSON text past a double's range (1e400) reads as ±Infinity, which JSON.stringify writes null.
  if (typeof value === "number" && !Number.isFinite(value)) {
    return `${value > 0 ? "" : "-"}Infinity (a number past a double's range)`;
  }
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 80 ? `${json.slice(0, 80)}\u2026` : json;
}

// A kwarg upstream reads as not given: left out, or given empty ("" or []). IFEval draws such a
// value at random, but for the prompt to repeat, which it refuses ("must be set").
const absent = (key: string, v: unknown) =>
  new KwargsProblem(
    `${key} is ${v === undefined ? "missing" : "empty"} (IFEval ${
      key === "prompt_to_repeat" ? "refuses it" : "would draw it at random"
    })`,
  );

/** The comparisons IFEval's counts use. */
export type Relation = "less than" | "at least";

/** A kwargs object with the reads each checker needs. */
export class Kwargs {
  readonly #values: Readonly<Record<string, unknown>>;

  constructor(values: Readonly<Record<string, unknown>>, allowed: readonly string[]) {
    for (const key of Object.keys(values)) {
      // A null kwarg another instruction takes is left out, as the published IFEval dataset
      // files (every kwarg of every instruction, null where unused) need; IFEval's own input
      // file has none, and upstream would reject them.
      if (!allowed.includes(key) && values[key] !== null) {
        throw new KwargsProblem(
          `unexpected kwarg ${quote(key)} (expected ${
            allowed.length ? allowed.join(", ") : "none"
          })`,
        );
      }
    }
    this.#values = values;
  }

  #get(key: string): unknown {
    const v = this.#values[key];
    return v === null ? undefined : v;
  }

  /** A count that upstream draws at random when missing or negative (`allowNegative`: not checked upstream). */
  count(key: string, allowNegative = false): number {
    const v = this.#get(key);
    if (v === undefined) {
      throw new KwargsProblem(`${key} is missing (IFEval would draw it at random)`);
    }
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new KwargsProblem(`${key} must be a number, got ${shown(v)}`);
    }
    if (v < 0 && !allowNegative) {
      throw new KwargsProblem(`${key} is negative (IFEval would draw it at random)`);
    }
    return v;
  }

  /** A relation: "less than" or "at least". */
  relation(key: string): Relation {
    const v = this.#get(key);
    if (v === undefined) {
      throw new KwargsProblem(`${key} is missing (IFEval would draw it at random)`);
    }
    if (v !== "less than" && v !== "at least") {
      throw new KwargsProblem(`${key} must be "less than" or "at least", got ${shown(v)}`);
    }
    return v;
  }

  /** A string; `truthy`: upstream treats an empty string as missing. */
  text(key: string, truthy = true): string {
    const v = this.#get(key);
    if (v === undefined || (truthy && v === "")) throw absent(key, v);
    if (typeof v !== "string") {
      throw new KwargsProblem(`${key} must be a string, got ${shown(v)}`);
    }
    return v;
  }

  /** A non-empty list of strings. */
  texts(key: string): string[] {
    const v = this.#get(key);
    if (v === undefined || (Array.isArray(v) && v.length === 0)) throw absent(key, v);
    if (!Array.isArray(v) || !v.every((s) => typeof s === "string")) {
      throw new KwargsProblem(`${key} must be a list of strings, got ${shown(v)}`);
    }
    return v as string[];
  }
}

/** Compares a count as IFEval does. */
export function compare(actual: number, relation: Relation, threshold: number): boolean {
  return relation === "less than" ? actual < threshold : actual >= threshold;
}

/**
 * The source of a `u`-flag regex for a kwarg that IFEval uses as a Python regex. Plain text (no
 * regex syntax) is the only form supported: its meaning is the same in both engines. With
 * `ignoreCase` (IFEval's re.IGNORECASE), each cased character is written as the class of what
 * Python matches with it (`pyIgnoreCase`), for a regex without the `i` flag.
 */
export function literalPattern(key: string, text: string, ignoreCase = false): string {
  plainText(key, text, /[.^$*+?{}[\]\\|()]/);
  return ignoreCase ? pyIgnoreCase(text) : escapeRegex(text);
}

/**
 * Refuses a kwarg that holds a character of `syntax` (regex syntax IFEval would read as a Python
 * regex), quoting it as written.
 */
export function plainText(key: string, text: string, syntax: RegExp): void {
  if (syntax.test(text)) {
    throw new KwargsProblem(
      `${key} ${quote(text)} has regex syntax, which IFEval would read as a Python regex; ` +
        "only plain text is supported",
    );
  }
}
