/**
 * BFCL's outputs of a run: the score file in BFCL's exact shape, and Assay's `assay.bfcl.v1`
 * report (accuracy per category with its counts, the error-type histogram, one record per entry).
 *
 * @module
 */
import { type MetricValue, metricValue } from "../stats/mod.ts";
import {
  checkReportBody,
  type DigestedSource,
  digestSource,
  type FileDigest,
} from "../report_check/mod.ts";
import { PyDict, PyFloat, PyInt, pyJsonDumps, pyStr, type PyValue } from "./py_value.ts";
import type { BfclMatching, BfclRecord, BfclRun } from "./checker.ts";

/** The files a category's run was scored against, as their SHA-256 digests. */
export interface BfclInputDigests {
  /** The question file's; null for relevance, which reads none. */
  questions: FileDigest | null;
  /** The possible-answer file's; null for relevance. */
  answers: FileDigest | null;
  /** The model's result file's. */
  results: FileDigest;
}

/**
 * The digests of a category's files, for the report: give the run them as `inputs`, and
 * {@linkcode bfclReport} records them, so that {@linkcode compareBfclReports} can refuse two
 * reports scored against different questions or answers.
 *
 * @param files The files given to `checkBfcl` (with their bytes, when known).
 * @returns Their digests.
 * @throws {never} Never.
 *
 * @example A run with its inputs' digests
 * ```ts
 * import { bfclReport, checkBfcl, digestBfclInputs } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const files = { results: { name: "r.json", text: '{"id": "relevance_0", "result": "No."}\n' } };
 * const run = { ...checkBfcl(files, { category: "relevance" }), inputs: await digestBfclInputs(files) };
 * strictEqual(bfclReport([run]).categories[0]!.inputs!.questions, null);
 * ```
 */
export async function digestBfclInputs(
  files: { questions?: DigestedSource; answers?: DigestedSource; results: DigestedSource },
): Promise<BfclInputDigests> {
  return {
    questions: files.questions ? await digestSource(files.questions) : null,
    answers: files.answers ? await digestSource(files.answers) : null,
    results: await digestSource(files.results),
  };
}

function failingLine(run: BfclRun, r: BfclRecord): PyDict {
  const line = new PyDict([
    ["id", new PyInt(BigInt(r.id))],
    ["model_name", run.modelName],
    ["test_category", run.category],
    ["valid", false],
    ["error", r.error],
    ["error_type", r.errorType ?? null],
  ]);
  if (run.category === "relevance") {
    line.set("model_result", r.raw);
    line.set("decoded_result", r.decoded ?? null);
    return line;
  }
  line.set("prompt", r.prompt);
  if (r.errorType === "ast_decoder:decoder_wrong_output_format") {
    // BFCL wraps both in str() "to ensure json serializability".
    line.set("model_result_raw", pyStr(r.raw));
    line.set("model_result_decoded", pyStr(r.decoded ?? null));
  } else {
    line.set("model_result_raw", r.raw);
    if (r.errorType !== "ast_decoder:decoder_failed") {
      line.set("model_result_decoded", r.decoded ?? null);
    }
  }
  line.set("possible_answer", r.possibleAnswer);
  return line;
}

/**
 * A run's score file as BFCL writes it: the counts on the first line, then one line per failing
 * entry (its 1-based id, error, error_type and what was checked), written by `json.dumps` and
 * joined by newlines with none at the end.
 *
 * @param run A run from `checkBfcl`.
 * @returns The file's text.
 * @throws {never} Never.
 *
 * @example The first line
 * ```ts
 * import { checkBfcl, formatScoreFile } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const text = '{"id": "relevance_0", "result": "No."}\n';
 * const run = checkBfcl({ results: { name: "r.json", text } }, { category: "relevance" });
 * strictEqual(formatScoreFile(run), '{"accuracy": 1.0, "correct_count": 1, "total_count": 1}');
 * ```
 */
export function formatScoreFile(run: BfclRun): string {
  const head = new PyDict([
    ["accuracy", new PyFloat(run.accuracy)],
    ["correct_count", new PyInt(BigInt(run.correct))],
    ["total_count", new PyInt(BigInt(run.total))],
  ]);
  const lines = [pyJsonDumps(head)];
  for (const r of run.records) if (!r.valid) lines.push(pyJsonDumps(failingLine(run, r)));
  return lines.join("\n");
}

/** One category of an `assay.bfcl.v1` report. */
export interface BfclCategoryReport {
  /** The category. */
  category: string;
  /** Entries that passed, of those checked. */
  accuracy: MetricValue;
  /** How many failing entries had each error_type. */
  errorTypes: Record<string, number>;
  /**
   * The digests of the files it was scored against; absent in a report written before
   * 2026-12-05, or from a run without them.
   */
  inputs?: BfclInputDigests;
  /** The results' decoder (absent in a report written before 2026-12-05). */
  decoder?: string;
  /** Whether the expected names were compared with `.` written `_` (absent likewise). */
  underscoreToDot?: boolean;
}

/** One entry of an `assay.bfcl.v1` report. */
export interface BfclReportRecord {
  /** The category. */
  category: string;
  /** The 1-based position in the category's file (BFCL's score-file id). */
  id: number;
  /** The entry's id (`simple_13`). */
  entryId: string;
  /** Whether it passed. */
  valid: boolean;
  /** BFCL's error_type, or null when it passed. */
  errorType: string | null;
  /** BFCL's error list, as JSON text (`json.dumps`), or null when it passed. */
  error: string | null;
}

/** An entry that optimal matching passes and greedy matching (BFCL's) fails. */
export interface BfclMatchingDisagreement {
  /** The category. */
  category: string;
  /** The 1-based position in the category's file. */
  id: number;
  /** The entry's id (`parallel_function_85`). */
  entryId: string;
  /** Greedy matching's error_type. */
  greedyErrorType: string | null;
}

/** Assay's report of BFCL runs. */
export interface BfclReport {
  /** `assay.bfcl.v1`. */
  schema: "assay.bfcl.v1";
  /** The checker's version id. */
  checker: string;
  /** The model's name. */
  model: string;
  /** How parallel calls were matched (`greedy` is BFCL's). */
  matching: BfclMatching;
  /** With `optimal` matching, the entries whose verdict greedy matching would turn to a fail. */
  matchingDisagreements: BfclMatchingDisagreement[];
  /** All entries of all categories, pooled. */
  accuracy: MetricValue;
  /** The error-type histogram over all categories. */
  errorTypes: Record<string, number>;
  /** One report per category, in the order given. */
  categories: BfclCategoryReport[];
  /** One record per entry, category by category. */
  records: BfclReportRecord[];
}

function histogram(
  records: readonly { valid: boolean; errorType?: string | null }[],
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) {
    if (!r.valid) counts[r.errorType!] = (counts[r.errorType!] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The `assay.bfcl.v1` report of one model's runs.
 *
 * @param runs Runs of one model, one per category; a run's `inputs` (from
 *   {@linkcode digestBfclInputs}) is recorded in its category.
 * @returns The report: pooled and per-category accuracy, the error-type histograms, the records.
 * @throws {RangeError} If the runs are of different models, checkers or matchings.
 *
 * @example Accuracy with its counts
 * ```ts
 * import { bfclReport, checkBfcl } from "@assay/assay/bfcl";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const text = '{"id": "relevance_0", "result": "No."}\n{"id": "relevance_1", "result": [{"f": "{}"}]}\n';
 * const run = checkBfcl({ results: { name: "r.json", text } }, { category: "relevance" });
 * const report = bfclReport([run]);
 * deepStrictEqual(report.accuracy, { value: 0.5, numerator: 1, denominator: 2 });
 * deepStrictEqual(report.errorTypes, { "relevance_error:decoder_success": 1 });
 * ```
 */
export function bfclReport(
  runs: readonly (BfclRun & { inputs?: BfclInputDigests })[],
): BfclReport {
  const first = runs[0];
  for (const run of runs) {
    if (
      run.modelName !== first?.modelName || run.checker !== first.checker ||
      run.matching !== first.matching
    ) {
      throw new RangeError(
        `Runs of different models, checkers or matchings: ${first?.modelName} (${first?.checker}, ${first?.matching}) and ${run.modelName} (${run.checker}, ${run.matching})`,
      );
    }
  }
  const all = runs.flatMap((r) => r.records);
  return {
    schema: "assay.bfcl.v1",
    checker: first?.checker ?? "",
    model: first?.modelName ?? "",
    matching: first?.matching ?? "greedy",
    matchingDisagreements: runs.flatMap((run) =>
      run.records.filter((r) => r.greedy !== undefined).map((r) => ({
        category: run.category,
        id: r.id,
        entryId: r.entryId,
        greedyErrorType: r.greedy!.errorType ?? null,
      }))
    ),
    accuracy: metricValue(all.filter((r) => r.valid).length, all.length),
    errorTypes: histogram(all),
    categories: runs.map((run) => ({
      category: run.category,
      accuracy: metricValue(run.correct, run.total),
      errorTypes: histogram(run.records),
      ...(run.inputs ? { inputs: run.inputs } : {}),
      decoder: run.decoder,
      underscoreToDot: run.underscoreToDot,
    })),
    records: runs.flatMap((run) =>
      run.records.map((r) => ({
        category: run.category,
        id: r.id,
        entryId: r.entryId,
        valid: r.valid,
        errorType: r.errorType ?? null,
        error: r.valid ? null : pyJsonDumps(r.error as PyValue),
      }))
    ),
  };
}

/**
 * Merges one model's `assay.bfcl.v1` reports of different categories into one, as
 * {@linkcode bfclReport} would have written it from all their runs: categories and records in
 * the order given, the pooled accuracy and error-type histogram recounted.
 *
 * @param reports Reports of one model, checker and matching, no category twice; at least one.
 *   A report without `matching` (written before it was recorded) is of greedy matching.
 * @returns The merged report.
 * @throws {RangeError} If there is no report, or they differ in model, checker or matching, or
 *   a category appears twice, or a report's records or categories are not what an `assay.bfcl.v1`
 *   report holds (`checkReportBody`).
 *
 * @example Two categories' reports make one
 * ```ts
 * import { bfclReport, checkBfcl, mergeBfclReports } from "@assay/assay/bfcl";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const relevance = checkBfcl({ results: { name: "r.json", text: '{"id": "relevance_0", "result": "No."}\n' } }, {
 *   category: "relevance",
 * });
 * const other = { ...relevance, category: "simple" as const };
 * deepStrictEqual(
 *   mergeBfclReports([bfclReport([relevance]), bfclReport([other])]),
 *   bfclReport([relevance, other]),
 * );
 * ```
 */
export function mergeBfclReports(reports: readonly BfclReport[]): BfclReport {
  const first = reports[0];
  if (first === undefined) throw new RangeError("No report to merge");
  const seen = new Set<string>();
  for (const r of reports) {
    if (
      r.model !== first.model || r.checker !== first.checker ||
      (r.matching ?? "greedy") !== (first.matching ?? "greedy")
    ) {
      throw new RangeError(
        `Reports of different models, checkers or matchings: ${first.model} (${first.checker}, ${first.matching}) and ${r.model} (${r.checker}, ${r.matching})`,
      );
    }
    checkReportBody(r);
    for (const c of r.categories) {
      if (seen.has(c.category)) throw new RangeError(`The ${c.category} category appears twice`);
      seen.add(c.category);
    }
  }
  const records = reports.flatMap((r) => r.records);
  return {
    ...first,
    matching: first.matching ?? "greedy",
    matchingDisagreements: reports.flatMap((r) => r.matchingDisagreements ?? []),
    accuracy: metricValue(records.filter((r) => r.valid).length, records.length),
    errorTypes: histogram(records),
    categories: reports.flatMap((r) => r.categories),
    records,
  };
}
