/**
 * What an evaluation report must hold for the library's readers of it (comparisons, language
 * gaps, the explain room) to read it: a report parsed from a file edited by hand or cut short is
 * refused naming its first wrong field, instead of crashing a reader or giving it garbage.
 *
 * @module
 */
import { IS_OVERALL, OVERALL } from "./_row_checks.ts";

/**
 * Whether `v` is a count a record may hold: a whole number in [0, 2^31). The comparisons pack
 * counts into an Int32Array and resample the sum of predicted and gold pairs below 2^32.
 *
 * @param v A record's `matched_pairs`, `predicted_pairs` or `gold_pairs`.
 * @returns Whether it is such a count.
 */
export function isRecordCount(v: unknown): v is number {
  return Number.isInteger(v) && (v as number) >= 0 && (v as number) < 2 ** 31;
}

// Each record field its readers read, by what it must be.
const FIELDS: [(v: unknown) => boolean, string, string[]][] = [
  [(v) => typeof v === "string", "a string", "example_id language status".split(" ")],
  [(v) => typeof v === "boolean", "true or false", "name_match arguments_match".split(" ")],
  [isRecordCount, "a count below 2^31", "matched_pairs predicted_pairs gold_pairs".split(" ")],
];

/**
 * What is wrong with one record of an evaluation report, if anything: the first of its fields
 * that is missing or of the wrong type, more matched pairs than predicted or gold pairs, or a
 * language named `overall`, the slice of all examples (its optional `detail` is the explain
 * room's to check).
 *
 * @param record A parsed record.
 * @returns Undefined for a well-formed record; else the wrong field and what it must be, as
 *   `.matched_pairs is not a count below 2^31`, or ` is not an object`.
 */
export function recordProblem(record: unknown): string | undefined {
  if (typeof record !== "object" || record === null) return " is not an object";
  const x = record as Record<string, unknown>;
  for (const [fits, words, keys] of FIELDS) {
    for (const k of keys) if (!fits(x[k])) return `.${k} is not ${words}`;
  }
  if ((x.matched_pairs as number) > Math.min(x.predicted_pairs as number, x.gold_pairs as number)) {
    return ".matched_pairs is more than predicted_pairs or gold_pairs";
  }
  if (x.reason !== undefined && typeof x.reason !== "string") return ".reason is not a string";
  if (x.language === OVERALL) return `.language${IS_OVERALL}`;
  return undefined;
}

/**
 * What is wrong with a parsed evaluation report's records and slices, if anything: the first
 * record field that is missing or of the wrong type ({@linkcode recordProblem}), an example id
 * that two records hold, slices or metric names that are not a list of strings, or a slice named
 * `overall`, the name of the slice of all examples.
 *
 * @param report A parsed evaluation report.
 * @returns Undefined for a well-formed report; else its first wrong field, as
 *   `records[4].predicted_pairs is not a count below 2^31`.
 *
 * @example
 * ```ts
 * import { evaluationReportProblem } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * const record = { example_id: "a", language: "en", root_id: null, status: "no_json",
 *   name_match: false, arguments_match: false, matched_pairs: 0, predicted_pairs: 0, gold_pairs: "1" };
 * strictEqual(evaluationReportProblem({ records: [record], slices: ["en"] }),
 *   "records[0].gold_pairs is not a count below 2^31");
 * ```
 */
export function evaluationReportProblem(report: unknown): string | undefined {
  const r: Record<string, unknown> = Object(report);
  if (!Array.isArray(r.records)) return "records is not a list";
  const ids = new Set<unknown>();
  for (let i = 0; i < r.records.length; i++) {
    const x: Record<string, unknown> = r.records[i];
    const problem = recordProblem(x);
    if (problem) return `records[${i}]${problem}`;
    if (ids.size === ids.add(x.example_id).size) {
      return `records[${i}].example_id repeats an earlier record's`;
    }
  }
  for (const k of ["slices", "metric_names"]) {
    const s = r[k];
    if (!(Array.isArray(s) && s.every((l) => typeof l === "string"))) {
      return `${k} is not a list of strings`;
    }
  }
  const at = (r.slices as string[]).indexOf(OVERALL);
  return at < 0 ? undefined : `slices[${at}]${IS_OVERALL}`;
}
