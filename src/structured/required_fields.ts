/**
 * Required-field accuracy: whether the parsed output holds the expected value at each dotted
 * path, with values compared as canonical JSON text (or by numeric value).
 *
 * @module
 */
import { type CanonicalIndex, canonicalValue, checkOptions, engineOf } from "../engine/mod.ts";
import { quote } from "../jsonl/mod.ts";
import { type MetricValue, metricValue } from "../stats/mod.ts";
import { checkOutputs, findPayloads, modeOf } from "./_payload.ts";
import {
  canonicalLiteral,
  lookupCanonical,
  numericForm,
  splitDottedPath,
} from "./canonical_path.ts";
import type { JsonOutputOptions } from "./json_output.ts";

/** {@linkcode requiredFieldAccuracy}'s result. */
export type RequiredFieldResult = MetricValue & {
  details: {
    /** Expected fields absent from a parsed output. */
    missing: number;
    /** Expected fields present with another value. */
    wrongValue: number;
    /** Expected fields of outputs that did not parse. */
    unparseable: number;
    /** Accuracy of each dotted path, pooled over the examples that expect it. */
    byField: Record<string, MetricValue>;
  };
};

/** Options of {@linkcode requiredFieldAccuracy}. */
export interface RequiredFieldOptions extends JsonOutputOptions {
  /**
   * `exact` (default): values compare as canonical JSON, so `1` and `1.0` differ (CONTRACT §2).
   * `numeric`: numbers compare by value, so `1`, `1.0` and `1e0` agree; `true` still differs
   * from `1`.
   */
  numbers?: "exact" | "numeric";
  /**
   * The expected values are JSON texts (strings) rather than values, so that `5.0` or a
   * 30-digit integer read from a file keeps its exact form. Default false.
   */
  valuesAsJson?: boolean;
}

/**
 * Required-field accuracy: the share of expected fields present in the parsed output with the
 * expected value, pooled over all examples. A missing field or an unparseable output counts as
 * wrong.
 *
 * Each example expects an object mapping dotted paths to values: `{"user.name": "Ada",
 * "items.0.id": 3}`. A segment indexes an array when it is a decimal index, and is a key
 * otherwise; write `\.` for a dot inside a key. Values compare as canonical JSON.
 *
 * @param expected Per example, the expected value of each dotted path.
 * @param outputs Model outputs, one per example.
 * @param options `mode`, `numbers` and the engine.
 * @returns The pooled rate; `details` splits the misses and gives each field's accuracy.
 * @throws {TypeError} If an expected entry is not an object of JSON values, an output is not a
 *   string, or the options are not an object.
 * @throws {RangeError} If the lists differ in length, a path is malformed, or `mode` is unknown.
 *
 * @example
 * ```ts
 * import { requiredFieldAccuracy } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const r = requiredFieldAccuracy(
 *   [{ answer: 18 }, { "user.name": "Ada", "user.age": 36 }],
 *   ['{"answer": 18}', '{"user": {"name": "Ada", "age": 37}}'],
 * );
 * assertEquals([r.numerator, r.denominator], [2, 3]);
 * assertEquals(r.details.byField["user.age"], { value: 0, numerator: 0, denominator: 1 });
 * ```
 */
export function requiredFieldAccuracy(
  expected: readonly Record<string, unknown>[],
  outputs: readonly string[],
  options?: RequiredFieldOptions,
): RequiredFieldResult {
  checkOptions(options);
  checkOutputs(outputs);
  if (!Array.isArray(expected)) {
    throw new TypeError("Expected `expected` to be an array of objects");
  }
  if (expected.length !== outputs.length) {
    throw new RangeError(
      `Expected one output per example: ${expected.length} examples, ${outputs.length} outputs`,
    );
  }
  const numbers = options?.numbers ?? "exact";
  if (numbers !== "exact" && numbers !== "numeric") {
    throw new RangeError(
      `Unknown numbers option ${JSON.stringify(numbers)}: expected exact or numeric`,
    );
  }
  const mode = modeOf(options);
  const engine = engineOf(options?.engine);

  // Every expected value goes through the engine, in one batch.
  interface Field {
    example: number;
    path: string;
    segments: string[];
    literals: string[];
    valueIndex: number;
  }
  const fields: Field[] = [];
  const texts: string[] = [];
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    if (typeof e !== "object" || e === null || Array.isArray(e)) {
      throw new TypeError(`Expected an object of dotted paths at index ${i}`);
    }
    for (const path of Object.keys(e)) {
      const segments = splitDottedPath(path);
      const json = options?.valuesAsJson ? jsonText(e[path], i, path) : toJson(e[path], i, path);
      const valueIndex = texts.push(json) - 1;
      fields.push({
        example: i,
        path,
        segments,
        literals: segments.map(canonicalLiteral),
        valueIndex,
      });
    }
  }
  const canon = engine.canonicalizeBatch(texts).map((r, k) => {
    if (!r.ok) {
      const f = fields.find((f) => f.valueIndex === k)!;
      throw new TypeError(
        `Expected a JSON text for ${JSON.stringify(f.path)} at index ${f.example}, got ` +
          quote(texts[k]!),
      );
    }
    return r.canonical;
  });
  const payloads = findPayloads(outputs, mode, engine);
  const norm = numbers === "numeric" ? numericForm : (t: string) => t;

  let hit = 0;
  const details = { missing: 0, wrongValue: 0, unparseable: 0 };
  const byField: Record<string, [number, number]> = Object.create(null);
  // Each output's containers are read once, for all of its fields (they come example by example).
  let index: CanonicalIndex = new Map();
  let indexed = 0;
  for (const f of fields) {
    const tally = byField[f.path] ??= [0, 0];
    tally[1]++;
    const p = payloads[f.example]!;
    if (!p.ok) {
      details.unparseable++;
      continue;
    }
    if (indexed !== f.example) index = new Map();
    indexed = f.example;
    const got = lookupCanonical(p.canonical, f.segments, f.literals, index);
    if (got === undefined) details.missing++;
    else if (norm(got) !== norm(canon[f.valueIndex]!)) details.wrongValue++;
    else {
      hit++;
      tally[0]++;
    }
  }
  // Paths sorted, each an own property (fromEntries defines them: "__proto__" stays a path).
  const fieldRates: Record<string, MetricValue> = Object.fromEntries(
    Object.keys(byField).sort().map((path) => [path, metricValue(...byField[path]!)]),
  );
  return { ...metricValue(hit, fields.length), details: { ...details, byField: fieldRates } };
}

function jsonText(value: unknown, index: number, path: string): string {
  if (typeof value !== "string") {
    throw new TypeError(
      `Expected a JSON text for ${JSON.stringify(path)} at index ${index}, found ${typeof value}`,
    );
  }
  return value;
}

// Canonical JSON of an expected value; NaN and the infinities are refused, as anything else
// JSON has no form for.
function toJson(value: unknown, index: number, path: string): string {
  try {
    return canonicalValue(value, { nonFinite: "throw" });
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    throw new TypeError(
      `Expected a JSON value for ${JSON.stringify(path)} at index ${index} (${e.message})`,
      { cause: e },
    );
  }
}
