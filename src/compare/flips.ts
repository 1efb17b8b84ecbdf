/**
 * The examples a comparison flips: for each right-or-wrong metric, those right in base and wrong
 * in the adapter (regressions) and the reverse (improvements), overall and per language.
 *
 * @module
 */
import { compareCodePoints } from "../engine/mod.ts";
import {
  BINARY_METRIC_NAMES,
  type BinaryMetricName,
  type ExampleRecord,
  exampleRight,
} from "../evaluation/mod.ts";

/** The examples one metric flips one way in one slice. */
export interface FlippedExamples {
  /** How many. */
  count: number;
  /** Their ids, in code point order. */
  ids: string[];
}

/** One way of flipping, per metric, overall and per language. */
export interface Flips {
  /** Over every example. */
  overall: Record<BinaryMetricName, FlippedExamples>;
  /** Per language, in code point order. */
  by_language: Record<string, Record<BinaryMetricName, FlippedExamples>>;
}

function empty(): Record<BinaryMetricName, FlippedExamples> {
  const out = {} as Record<BinaryMetricName, FlippedExamples>;
  for (const m of BINARY_METRIC_NAMES) out[m] = { count: 0, ids: [] };
  return out;
}

/**
 * The regressions and improvements of every right-or-wrong metric between paired records.
 *
 * @param base The base records.
 * @param adapter The adapter's records, in the same order (record i is the same example).
 * @returns The regressions (right in base, wrong in adapter) and the improvements.
 * @throws {RangeError} If the two lists differ in length or in an example's id.
 *
 * @example
 * ```ts
 * import { exampleFlips } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(exampleFlips([], []).regressions.overall.valid_json_rate.count, 0);
 * ```
 */
export function exampleFlips(
  base: readonly ExampleRecord[],
  adapter: readonly ExampleRecord[],
): { regressions: Flips; improvements: Flips } {
  if (base.length !== adapter.length) {
    throw new RangeError(`Paired records differ in length: ${base.length} and ${adapter.length}`);
  }
  const regressions: Flips = { overall: empty(), by_language: {} };
  const improvements: Flips = { overall: empty(), by_language: {} };
  const languages = [...new Set(base.map((r) => r.language))].sort(compareCodePoints);
  for (const l of languages) {
    regressions.by_language[l] = empty();
    improvements.by_language[l] = empty();
  }
  base.forEach((b, i) => {
    const a = adapter[i]!;
    if (a.example_id !== b.example_id) {
      throw new RangeError(`Paired record ${i} is ${b.example_id} and ${a.example_id}`);
    }
    for (const m of BINARY_METRIC_NAMES) {
      const before = exampleRight(m, b);
      if (before === exampleRight(m, a)) continue;
      const side = before ? regressions : improvements;
      for (const slot of [side.overall[m], side.by_language[b.language]![m]]) {
        slot.count++;
        slot.ids.push(b.example_id);
      }
    }
  });
  for (const side of [regressions, improvements]) {
    for (const slice of [side.overall, ...Object.values(side.by_language)]) {
      for (const m of BINARY_METRIC_NAMES) slice[m].ids.sort(compareCodePoints);
    }
  }
  return { regressions, improvements };
}
