/**
 * A report read back from its bytes or text, as every reader of reports takes it: JSON, parsed by
 * the engine's exact parser (`parseReportJson`); an object of one of the expected schemas with its
 * list of units, and a body its readers can read (`checkReport`). Each refusal is an `InputError`
 * naming the report's source: a report edited by hand, cut short or of another kind is bad input,
 * not a crash of its reader.
 *
 * @module
 */
import { canonicalize, jsonKind, parseJson } from "../engine/mod.ts";
import { decodeUtf8, InputError } from "../jsonl/mod.ts";
import { textPosition } from "../jsonl/source/mod.ts";
import { EVALUATION_SCHEMAS } from "../evaluation/mod.ts";
import { checkReportBody } from "./body.ts";

/** The list of units each report kind holds, for checkReport's message when it lacks one. */
const UNITS = new Map<string, string>([
  ...EVALUATION_SCHEMAS.map((s) => [s, "records"] as const),
  ["assay.bfcl.v1", "records"],
  ["assay.ifeval.v1", "prompts"],
  ["assay.suite_run.v1", "runs"],
]);

/**
 * Parses a report's JSON text (or its bytes, UTF-8, a BOM at the start dropped), with the exact
 * parser's error code and offset when it is not JSON: `JSON.parse`'s message is worded
 * differently on each runtime. A report larger than a string can hold is read a line at a time
 * instead (`parseReportLines`).
 *
 * @param input The report's bytes or text.
 * @param source The report's name in errors (a file name).
 * @returns The parsed value, not yet checked (`checkReport`).
 * @throws {InputError} `r.json is not JSON: <code> at <offset> (line <l>, column <c>)`, or for
 *   bytes that are not UTF-8, at their line and byte.
 *
 * @example
 * ```ts
 * import { parseReportJson } from "@assay/assay/report-check";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 *
 * deepStrictEqual(parseReportJson('{"schema": "x"}', "r.json"), { schema: "x" });
 * throws(
 *   () => parseReportJson('{\n  "a": }', "r.json"),
 *   /^InputError: r\.json is not JSON: expecting_value at 9 \(line 2, column 8\)$/,
 * );
 * ```
 */
export function parseReportJson(input: Uint8Array | string, source: string): unknown {
  const text = typeof input === "string" ? input : decodeUtf8(input, source);
  try {
    return parseJson(text);
  } catch (e) {
    const r = canonicalize(text);
    if (r.ok) throw new InputError(`${source} is not JSON`, { cause: e });
    // The offset, and its line and column: a report is pretty-printed over many lines.
    const { line, column } = textPosition(text, r.error.offset);
    throw new InputError(
      `${source} is not JSON: ${r.error.code} at ${r.error.offset} (line ${line}, column ${column})`,
      { cause: e },
    );
  }
}

/**
 * Checks that a parsed value is a report of one of `schemas`: an object whose `schema` is one of
 * them, with its list of units (`list`, else the kind's own: `records` for evaluation and BFCL
 * reports, `prompts` for IFEval's, `runs` for a suite run's), and a body its readers can read
 * (`checkReportBody`).
 *
 * @param value The parsed report (`parseReportJson`, `parseReportLines`).
 * @param source The report's name in errors (a file name).
 * @param schemas The schemas the reader takes, such as `["assay.bfcl.v1"]`.
 * @param list The list of units the reader needs, when it is not the kind's own.
 * @returns The report.
 * @throws {InputError} Naming `source` and what is wrong: not an object, no `schema`, another
 *   schema, no list of units, or the body's first wrong field.
 * @throws {TypeError} If `schemas` is not a list.
 *
 * @example
 * ```ts
 * import { checkReport } from "@assay/assay/report-check";
 * import { throws } from "node:assert/strict";
 *
 * throws(
 *   () => checkReport({ schema: "assay.gate.v1" }, "r.json", ["assay.bfcl.v1"]),
 *   /^InputError: r\.json has schema "assay\.gate\.v1", not an assay\.bfcl\.v1 report$/,
 * );
 * throws(
 *   () => checkReport({ schema: "assay.ifeval.v1" }, "r.json", ["assay.ifeval.v1"]),
 *   /r\.json: the assay\.ifeval\.v1 report has no "prompts" list/,
 * );
 * ```
 */
export function checkReport(
  value: unknown,
  source: string,
  schemas: readonly string[],
  list?: string,
): Record<string, unknown> {
  if (!Array.isArray(schemas)) throw new TypeError("Expected the schemas as a list of names");
  // `A or B`, `A, B or C`.
  const kinds = schemas.length > 2
    ? `${schemas.slice(0, -1).join(", ")} or ${schemas.at(-1)}`
    : schemas.join(" or ");
  const expected = `an ${kinds} report`;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InputError(`${source} is not a report: it holds ${jsonKind(value)}, not an object`);
  }
  const r = value as Record<string, unknown>;
  if (!Object.hasOwn(r, "schema")) {
    throw new InputError(`${source} is not a report: it has no "schema" (expected ${expected})`);
  }
  if (!schemas.includes(r.schema as string)) {
    const found = typeof r.schema === "string"
      ? `schema ${JSON.stringify(r.schema)}`
      : `a "schema" that is ${jsonKind(r.schema)}`;
    throw new InputError(`${source} has ${found}, not ${expected}`);
  }
  // The list of units (examples, entries, prompts, runs) is named before the body's checks.
  const units = list ?? UNITS.get(r.schema as string);
  if (units !== undefined && !Array.isArray(r[units])) {
    throw new InputError(
      r[units] === undefined
        ? `${source}: the ${r.schema} report has no "${units}" list`
        : `${source}: "${units}" of the ${r.schema} report is ${jsonKind(r[units])}, not a list`,
    );
  }
  try {
    checkReportBody(r);
  } catch (e) {
    if (e instanceof RangeError) throw new InputError(`${source}: ${e.message}`, { cause: e });
    throw e;
  }
  return r;
}
