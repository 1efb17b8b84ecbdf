/**
 * What a record's `detail` must hold for {@linkcode formatExample} and `assay show` to read it:
 * a detail edited by hand or cut short is refused naming its first wrong field.
 *
 * @module
 */
import { evaluationReportProblem, recordProblem } from "../evaluation/mod.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null;
const count = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
// An object whose `keys` are all strings.
const strings = (v: unknown, keys: readonly string[]): v is Json =>
  isObject(v) && keys.every((k) => typeof v[k] === "string");

const PATH_LISTS = [
  ["missing", ["path", "gold"]],
  ["extra", ["path", "predicted"]],
  ["different", ["path", "gold", "predicted"]],
] as const;

/**
 * What is wrong with a record's detail (`assay score --details`), if anything: the first of its
 * fields that is missing or of the wrong type.
 *
 * @param detail A parsed detail.
 * @returns Undefined for a well-formed detail; else the wrong field and what it must be, as
 *   `.gold is not {name, arguments}`, or ` is not an object`.
 *
 * @example
 * ```ts
 * import { detailProblem } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(detailProblem({ output: "hi" }), ".output is not {text, length, sha256}");
 * ```
 */
export function detailProblem(detail: unknown): string | undefined {
  if (!isObject(detail)) return " is not an object";
  const { output, gold, predicted, error, paths } = detail;
  if (!(strings(output, ["text", "sha256"]) && count(output.length))) {
    return ".output is not {text, length, sha256}";
  }
  if (!strings(gold, ["name", "arguments"])) return ".gold is not {name, arguments}";
  if (predicted != null && !strings(predicted, ["name", "arguments"])) {
    return ".predicted is not {name, arguments} or null";
  }
  if (error != null && !(strings(error, ["code"]) && count(error.offset))) {
    return ".error is not {code, offset} or null";
  }
  if (!isObject(paths)) return ".paths is not {missing, extra, different}";
  for (const [name, keys] of PATH_LISTS) {
    const list = paths[name];
    if (!(Array.isArray(list) && list.every((p) => strings(p, keys)))) {
      return `.paths.${name} is not a list of {${keys.join(", ")}}`;
    }
  }
  return undefined;
}

/**
 * What is wrong with a record of an evaluation report, if anything: its fields
 * (`recordProblem`), then its detail, if it has one.
 *
 * @param record A parsed record.
 * @returns Undefined for a well-formed record; else the wrong field, as `.detail.paths is not
 *   {missing, extra, different}`.
 */
export function recordDetailProblem(record: unknown): string | undefined {
  return recordProblem(record) ?? ownDetailProblem(record as Json);
}

// What is wrong with a well-formed record's detail, as `.detail…`; a record without one has none.
function ownDetailProblem(record: Json): string | undefined {
  const wrong = record.detail === undefined ? undefined : detailProblem(record.detail);
  return wrong === undefined ? undefined : `.detail${wrong}`;
}

/**
 * What is wrong with a parsed evaluation report, if anything: its records and slices
 * (`evaluationReportProblem`), then each record's detail, if it has one.
 *
 * @param report A parsed evaluation report.
 * @returns Undefined for a well-formed report; else its first wrong field, as
 *   `records[2].detail.output is not {text, length, sha256}`.
 */
export function detailedReportProblem(report: unknown): string | undefined {
  const problem = evaluationReportProblem(report);
  if (problem) return problem;
  const records = (report as { records: Json[] }).records;
  for (let i = 0; i < records.length; i++) {
    const wrong = ownDetailProblem(records[i]!);
    if (wrong !== undefined) return `records[${i}]${wrong}`;
  }
  return undefined;
}
