/**
 * Instruction-following metrics: IFEval's prompt-level and instruction-level accuracy, format
 * compliance against a regular expression, and multi-turn instruction retention.
 *
 * The verifiable checks themselves (word counts, keyword presence, ...) are the caller's: these
 * functions pool their pass/fail verdicts. Format compliance runs the user's pattern on Assay's
 * own linear-time regex engine, so no output, however hostile, can make it backtrack without
 * bound. See `docs/instruction_metrics.md`.
 *
 * @module
 */
import { checkOptions, jsonKind } from "../engine/mod.ts";
import { LinearRegex } from "../regex/mod.ts";
import { type MetricValue, metricValue } from "../stats/mod.ts";

/** {@linkcode instructionComplianceRate}'s result: the rate and each output's verdict. */
export type InstructionComplianceResult = MetricValue & {
  details: {
    /** Per output: every one of its checks passed. */
    compliant: boolean[];
  };
};

/** {@linkcode formatCompliance}'s result: the rate and each output's verdict. */
export type FormatComplianceResult = MetricValue & {
  details: {
    /** Per output: the whole output matches the pattern. */
    matches: boolean[];
  };
};

/** Options of {@linkcode formatCompliance}. */
export interface FormatComplianceOptions {
  /** Flags for a string pattern (any of `dgimsuy`); a RegExp carries its own. */
  flags?: string;
  /** The largest compiled program allowed, in instructions (default 50,000). */
  maxProgramSize?: number;
}

/** One conversation for {@linkcode instructionRetention}: the first turn's verdict and the later turns'. */
export type RetentionConversation =
  | readonly [initial: boolean, later: readonly boolean[]]
  | { readonly initial: boolean; readonly later: readonly boolean[] };

/** {@linkcode instructionRetention}'s result. */
export type InstructionRetentionResult = MetricValue & {
  details: {
    /** Conversations whose first turn satisfied the instructions, over all conversations. */
    initialCompliance: MetricValue;
    /** Later turns satisfied over later turns, only in conversations whose first turn complied. */
    retentionAfterCompliance: MetricValue;
    /** Conversations with every later turn satisfied, over conversations with a later turn. */
    fullyRetained: MetricValue;
  };
};

function checkList(checks: unknown): readonly (readonly boolean[])[] {
  if (!Array.isArray(checks)) throw new TypeError("checks must be an array of boolean arrays");
  for (let i = 0; i < checks.length; i++) {
    const row: unknown = checks[i];
    if (!Array.isArray(row)) throw new TypeError(`checks[${i}] must be an array of booleans`);
    if (row.length === 0) {
      throw new RangeError(
        `checks[${i}] is empty: an output with no instruction checks cannot pass or fail them`,
      );
    }
    for (let j = 0; j < row.length; j++) {
      if (typeof row[j] !== "boolean") {
        throw new TypeError(`checks[${i}][${j}] must be a boolean, got ${jsonKind(row[j])}`);
      }
    }
  }
  return checks;
}

/**
 * IFEval prompt-level strict accuracy: the share of outputs that pass every instruction check
 * given for them.
 *
 * @param checks Per output, the pass/fail verdict of each verifiable instruction.
 * @returns Compliant outputs over outputs; `details.compliant` gives each output's verdict.
 * @throws {TypeError} When `checks` is not an array of boolean arrays (the message names the index).
 * @throws {RangeError} When an output has no checks: a vacuous pass would silently inflate the rate.
 *
 * @example The reference's example
 * ```ts
 * import { instructionComplianceRate } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const r = instructionComplianceRate([[true, true], [true, false]]);
 * assertEquals(r, { value: 0.5, numerator: 1, denominator: 2, details: { compliant: [true, false] } });
 * ```
 */
export function instructionComplianceRate(
  checks: readonly (readonly boolean[])[],
): InstructionComplianceResult {
  const rows = checkList(checks);
  const compliant = rows.map((row) => row.every((c) => c));
  const n = compliant.filter((c) => c).length;
  return { ...metricValue(n, rows.length), details: { compliant } };
}

/**
 * IFEval instruction-level accuracy: the share of individual instruction checks satisfied,
 * pooled over all outputs.
 *
 * @param checks Per output, the pass/fail verdict of each verifiable instruction.
 * @returns Satisfied checks over all checks.
 * @throws {TypeError} When `checks` is not an array of boolean arrays (the message names the index).
 * @throws {RangeError} When an output has no checks (validated as in {@linkcode instructionComplianceRate}).
 *
 * @example The reference's example
 * ```ts
 * import { constraintSatisfactionRate } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(constraintSatisfactionRate([[true, true], [true, false]]), {
 *   value: 0.75,
 *   numerator: 3,
 *   denominator: 4,
 * });
 * ```
 */
export function constraintSatisfactionRate(checks: readonly (readonly boolean[])[]): MetricValue {
  const rows = checkList(checks);
  let satisfied = 0, total = 0;
  for (const row of rows) {
    total += row.length;
    for (const c of row) if (c) satisfied++;
  }
  return metricValue(satisfied, total);
}

/**
 * The share of outputs that fully match a required format, given as an ECMAScript regular
 * expression. The pattern must match the whole output (like Python's `re.fullmatch`); it runs
 * on a linear-time engine (no backtracking), so any output is checked in O(pattern × output).
 *
 * @param outputs The model outputs.
 * @param pattern The format: a pattern string, or a RegExp whose `source` and `flags` are used.
 * @param options `flags` for a string pattern; `maxProgramSize` caps the compiled pattern.
 * @returns Matching outputs over outputs; `details.matches` gives each output's verdict.
 * @throws {TypeError} When `outputs` is not an array of strings (the message names the index),
 *   `pattern` is neither a string nor a RegExp, or `flags` is given with a RegExp.
 * @throws {SyntaxError} When the pattern is invalid, or uses a feature the engine does not
 *   support (backreferences, lookaround, `\p{...}`, the `v` flag); the message names it and its
 *   position.
 * @throws {RangeError} When the pattern compiles to more than `maxProgramSize` instructions (or
 *   nests groups deeper than 500), or `maxProgramSize` is not a positive integer.
 *
 * @example The reference's example
 * ```ts
 * import { formatCompliance } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const r = formatCompliance(["Answer: B", "B"], "Answer: [A-D]");
 * assertEquals(r, { value: 0.5, numerator: 1, denominator: 2, details: { matches: [true, false] } });
 * ```
 *
 * @example A RegExp with flags, and a hostile pattern that cannot hang
 * ```ts
 * import { formatCompliance } from "@assay/assay/structured";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(formatCompliance(["answer: b", "ANSWER: C"], /answer: [a-d]/i).value, 1);
 * strictEqual(formatCompliance(["a".repeat(100_000) + "!"], /(a+)+$/).value, 0);
 * ```
 */
export function formatCompliance(
  outputs: readonly string[],
  pattern: string | RegExp,
  options: FormatComplianceOptions = {},
): FormatComplianceResult {
  checkOptions(options);
  if (!Array.isArray(outputs)) throw new TypeError("outputs must be an array of strings");
  let source: string, flags: string;
  if (typeof pattern === "string") {
    source = pattern;
    flags = options.flags ?? "";
    if (typeof flags !== "string") throw new TypeError("options.flags must be a string");
  } else if (pattern instanceof RegExp) {
    if (options.flags !== undefined) {
      throw new TypeError(
        "options.flags applies to a string pattern; a RegExp carries its own flags",
      );
    }
    source = pattern.source;
    flags = pattern.flags;
  } else {
    throw new TypeError(`pattern must be a string or a RegExp, got ${jsonKind(pattern)}`);
  }
  const re = new LinearRegex(source, flags, options.maxProgramSize);
  const matches: boolean[] = new Array(outputs.length);
  let n = 0;
  for (let i = 0; i < outputs.length; i++) {
    const text: unknown = outputs[i];
    if (typeof text !== "string") {
      throw new TypeError(`outputs[${i}] must be a string, got ${jsonKind(text)}`);
    }
    matches[i] = re.fullMatch(text);
    if (matches[i]) n++;
  }
  return { ...metricValue(n, outputs.length), details: { matches } };
}

function conversationParts(c: unknown, i: number): { initial: unknown; later: unknown } {
  if (Array.isArray(c)) {
    if (c.length !== 2) {
      throw new TypeError(`conversations[${i}] must be [initial, later], got ${c.length} elements`);
    }
    return { initial: c[0], later: c[1] };
  }
  if (typeof c === "object" && c !== null) {
    const o = c as Record<string, unknown>;
    return { initial: o.initial, later: o.later };
  }
  throw new TypeError(`conversations[${i}] must be [initial, later] or {initial, later}`);
}

/**
 * Multi-turn instruction retention: the share of later turns in which the instructions given
 * earlier in the conversation are still satisfied, pooled over conversations.
 *
 * Each conversation is `[initial, later]` (as in the reference) or `{initial, later}`: `initial`
 * is whether the first turn after the instructions satisfied them, and `later[k]` whether the
 * k-th later turn still did. The rate pools every later turn; `initial` does not gate it and is
 * reported in `details`.
 *
 * @param conversations One entry per conversation.
 * @returns Satisfied later turns over later turns, with `details.initialCompliance`,
 *   `details.retentionAfterCompliance` (later turns of conversations whose first turn complied)
 *   and `details.fullyRetained` (conversations with every later turn satisfied).
 * @throws {TypeError} When a conversation is malformed or a verdict is not a boolean (the
 *   message names the index).
 *
 * @example The reference's example
 * ```ts
 * import { instructionRetention } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const r = instructionRetention([[true, [true, false]]]);
 * assertEquals(r.value, 0.5);
 * assertEquals(r.details.initialCompliance, { value: 1, numerator: 1, denominator: 1 });
 * ```
 *
 * @example The object form
 * ```ts
 * import { instructionRetention } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const r = instructionRetention([
 *   { initial: true, later: [true, true] },
 *   { initial: false, later: [true, false] },
 * ]);
 * assertEquals(r.numerator, 3);
 * assertEquals(r.denominator, 4);
 * assertEquals(r.details.retentionAfterCompliance, { value: 1, numerator: 2, denominator: 2 });
 * assertEquals(r.details.fullyRetained, { value: 0.5, numerator: 1, denominator: 2 });
 * ```
 */
export function instructionRetention(
  conversations: readonly RetentionConversation[],
): InstructionRetentionResult {
  if (!Array.isArray(conversations)) throw new TypeError("conversations must be an array");
  let satisfied = 0, turns = 0, initialOk = 0, gatedSatisfied = 0, gatedTurns = 0;
  let withLater = 0, allKept = 0;
  for (let i = 0; i < conversations.length; i++) {
    const { initial, later } = conversationParts(conversations[i], i);
    if (typeof initial !== "boolean") {
      throw new TypeError(
        `conversations[${i}] initial must be a boolean, got ${jsonKind(initial)}`,
      );
    }
    if (!Array.isArray(later)) {
      throw new TypeError(`conversations[${i}] later must be an array of booleans`);
    }
    let kept = 0;
    for (let j = 0; j < later.length; j++) {
      const v: unknown = later[j];
      if (typeof v !== "boolean") {
        throw new TypeError(
          `conversations[${i}] later[${j}] must be a boolean, got ${jsonKind(v)}`,
        );
      }
      if (v) kept++;
    }
    satisfied += kept;
    turns += later.length;
    if (initial) {
      initialOk++;
      gatedSatisfied += kept;
      gatedTurns += later.length;
    }
    if (later.length > 0) {
      withLater++;
      if (kept === later.length) allKept++;
    }
  }
  return {
    ...metricValue(satisfied, turns),
    details: {
      initialCompliance: metricValue(initialOk, conversations.length),
      retentionAfterCompliance: metricValue(gatedSatisfied, gatedTurns),
      fullyRetained: metricValue(allKept, withLater),
    },
  };
}
