/**
 * A paired comparison of two models' `assay.bfcl.v1` reports on the same entries: per category
 * and overall, each model's accuracy and the difference B − A with a seeded paired-bootstrap
 * percentile interval, behind a gate that refuses reports of different checkers, matchings,
 * categories or entries.
 *
 * @module
 */
import { compareCodePoints, Sfc32 } from "../engine/mod.ts";
import {
  bootstrapPacked,
  ComparisonGateError,
  type CountedFields,
  type GateDifference,
  packRecords,
} from "../compare/mod.ts";
import {
  type BootstrapOptions,
  type BootstrapSettings,
  bootstrapSettings,
  type MetricValue,
} from "../stats/mod.ts";
import { inputDifferences, settingDifferences, unrecordedInputs } from "../report_check/mod.ts";
import type { BfclMatching } from "./checker.ts";
import type { BfclReport, BfclReportRecord } from "./score_file.ts";

/** One slice's paired comparison: both models' accuracy, B − A and its interval. */
export interface BfclAccuracyDelta {
  /** Model A's accuracy. */
  a: MetricValue;
  /** Model B's accuracy. */
  b: MetricValue;
  /** `b.value − a.value`. */
  delta: number;
  /** The percentile interval of the delta. */
  ci: [number, number];
  /** Entries that only A passes. */
  onlyA: number;
  /** Entries that only B passes. */
  onlyB: number;
}

/** The `assay.bfcl.comparison.v1` report. */
export interface BfclComparison {
  /** Always `assay.bfcl.comparison.v1`. */
  schema: "assay.bfcl.comparison.v1";
  /** The checker both reports share. */
  checker: string;
  /** The matching both reports share. */
  matching: BfclMatching;
  /** The two models' names. */
  models: { a: string; b: string };
  /** How the intervals were made. */
  bootstrap: BootstrapSettings & { streams: string };
  /** Entries compared. */
  n: number;
  /** The categories, in code-point order. */
  categories: string[];
  /** All entries, pooled. */
  overall: BfclAccuracyDelta;
  /** Per category. */
  byCategory: Record<string, BfclAccuracyDelta>;
  /** Present when a report records no input digest, so the inputs were not compared: why. */
  note?: string;
}

const SHOWN = 5;

/** An entry's key: its category and its id (ids need only be unique in a category). */
function keyOf(r: BfclReportRecord): string {
  return `${r.category}/${r.entryId}`;
}

function listed(keys: string[]): string {
  const shown = keys.slice(0, SHOWN).map((k) => JSON.stringify(k)).join(", ");
  return keys.length > SHOWN ? `${shown}, … (${keys.length} in all)` : shown;
}

function onlyIn(a: Iterable<string>, b: Set<string>): string[] {
  return [...a].filter((x) => !b.has(x)).sort(compareCodePoints);
}

function sameCounts(m: MetricValue | undefined, records: readonly BfclReportRecord[]): boolean {
  return m?.numerator === records.filter((r) => r.valid).length &&
    m.denominator === records.length;
}

/** Whether a report's stored counts are its records' and each entry appears once. */
function consistency(side: string, r: BfclReport): GateDifference[] {
  const keys = r.records.map(keyOf);
  // Each key against a set of those before it (indexOf per key was quadratic: 40,000 entries
  // took 14.5 s), listed in order, a key given k times listed k - 1 times, as before.
  const seen = new Set<string>();
  const repeated = keys.filter((k) => seen.has(k) || (seen.add(k), false));
  const out: GateDifference[] = [];
  if (repeated.length > 0) {
    out.push({
      kind: "inconsistent_report",
      detail: `the ${side} report repeats entries (${listed([...new Set(repeated)])})`,
    });
  }
  const bad = r.categories.filter((c) =>
    !sameCounts(c.accuracy, r.records.filter((x) => x.category === c.category))
  );
  if (!sameCounts(r.accuracy, r.records) || bad.length > 0) {
    out.push({
      kind: "inconsistent_report",
      detail: `the ${side} report's accuracy is not the count of its records' verdicts`,
    });
  }
  return out;
}

/**
 * Lists every way two `assay.bfcl.v1` reports differ that makes them incomparable: schema,
 * checker, matching, categories, entries (by category and id), the question and answer files of
 * a category both reports hold (their SHA-256, where both record it: `inputDifferences`), and
 * each report's consistency.
 *
 * @param a Model A's report.
 * @param b Model B's report.
 * @returns The differences; empty when the gate passes.
 * @throws {never} Never.
 *
 * @example Different entries are refused
 * ```ts
 * import { bfclGateDifferences, bfclReport, checkBfcl } from "@assay/assay/bfcl";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const report = (id: string) =>
 *   bfclReport([checkBfcl({ results: { name: "r.json", text: `{"id": "${id}", "result": "No."}\n` } }, {
 *     category: "relevance",
 *   })]);
 * deepStrictEqual(bfclGateDifferences(report("relevance_0"), report("relevance_0")), []);
 * deepStrictEqual(bfclGateDifferences(report("relevance_0"), report("relevance_1")), [{
 *   kind: "example_ids",
 *   detail: 'entry sets differ: 1 only in A ("relevance/relevance_0"), 1 only in B ("relevance/relevance_1")',
 * }]);
 * ```
 */
export function bfclGateDifferences(a: BfclReport, b: BfclReport): GateDifference[] {
  const d: GateDifference[] = [];
  for (const [side, r] of [["A", a], ["B", b]] as const) {
    if (
      r?.schema !== "assay.bfcl.v1" || !Array.isArray(r.records) || !Array.isArray(r.categories)
    ) {
      d.push({
        kind: "schema",
        detail: `the ${side} report is not an assay.bfcl.v1 report (schema ${
          JSON.stringify(r?.schema)
        })`,
      });
    }
  }
  if (d.length > 0) return d;
  d.push(...settingDifferences(a, b));
  const ca = new Set(a.categories.map((c) => c.category));
  const cb = new Set(b.categories.map((c) => c.category));
  const [onlyCa, onlyCb] = [onlyIn(ca, cb), onlyIn(cb, ca)];
  if (onlyCa.length || onlyCb.length) {
    d.push({
      kind: "slices",
      detail: `category sets differ: only in A [${onlyCa.join(", ")}], only in B [${
        onlyCb.join(", ")
      }]`,
    });
  }
  const ka = new Set(a.records.map(keyOf));
  const kb = new Set(b.records.map(keyOf));
  const [onlyA, onlyB] = [onlyIn(ka, kb), onlyIn(kb, ka)];
  if (onlyA.length || onlyB.length) {
    const parts = [];
    if (onlyA.length) parts.push(`${onlyA.length} only in A (${listed(onlyA)})`);
    if (onlyB.length) parts.push(`${onlyB.length} only in B (${listed(onlyB)})`);
    d.push({ kind: "example_ids", detail: `entry sets differ: ${parts.join(", ")}` });
  }
  d.push(...inputDifferences(a, b));
  if (d.length === 0) d.push(...consistency("A", a), ...consistency("B", b));
  return d;
}

/** An entry's verdict as a record of the paired bootstrap: every column is 1 or 0 with it. */
function asExample(r: BfclReportRecord): CountedFields {
  const n = r.valid ? 1 : 0;
  return {
    status: r.valid ? "ok" : "no_json",
    name_match: r.valid,
    arguments_match: r.valid,
    matched_pairs: n,
    predicted_pairs: 1,
    gold_pairs: 1,
  };
}

/**
 * Compares two models' `assay.bfcl.v1` reports on the same entries: per category and overall,
 * each model's accuracy and B − A with a seeded paired-bootstrap percentile interval over the
 * entries' 1/0 verdicts (the comparison room's resampling, on one sfc32 stream: overall first,
 * then each category in code-point order, each resampling within its own entries).
 *
 * @param a Model A's report.
 * @param b Model B's report, over the same entries.
 * @param options Seed (default 0), resamples (default 10,000), level (default 0.95) and the
 *   engine that resamples (both engines give identical output).
 * @returns The `assay.bfcl.comparison.v1` report; the same inputs and seed give the same report.
 * @throws {ComparisonGateError} If the reports differ in checker, matching, categories,
 *   entries or a category's question or answer file (its SHA-256, where both record one), or
 *   one's counts are not its records'; its message names every difference. A report without
 *   digests (written before 2026-12-05) is compared, and the comparison's `note` says so.
 * @throws {RangeError} If an option is out of range.
 *
 * @example B passes the entry A fails
 * ```ts
 * import { bfclReport, checkBfcl, compareBfclReports } from "@assay/assay/bfcl";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const run = (result: string, modelName: string) =>
 *   checkBfcl({ results: { name: "r.json", text: `{"id": "relevance_0", "result": ${result}}\n` } }, {
 *     category: "relevance",
 *     modelName,
 *   });
 * const a = bfclReport([run('[{"f": "{}"}]', "a")]);
 * const b = bfclReport([run('"None fits."', "b")]);
 * const cmp = compareBfclReports(a, b, { seed: 7, resamples: 100 });
 * strictEqual(cmp.overall.delta, 1);
 * deepStrictEqual(cmp.byCategory.relevance!.ci, [1, 1]);
 * ```
 */
export function compareBfclReports(
  a: BfclReport,
  b: BfclReport,
  options: BootstrapOptions = {},
): BfclComparison {
  const settings = bootstrapSettings(options);
  const differences = bfclGateDifferences(a, b);
  if (differences.length > 0) throw new ComparisonGateError(differences);
  const position = new Map(b.records.map((r, i) => [keyOf(r), i]));
  const aligned = a.records.map((r) => b.records[position.get(keyOf(r))!]!);
  const pa = packRecords(a.records.map(asExample));
  const pb = packRecords(aligned.map(asExample));
  const rng = new Sfc32(settings.seed);
  const run = (idx: number[]): BfclAccuracyDelta => {
    const rows = Int32Array.from(idx);
    const m = bootstrapPacked(
      pa,
      rows,
      pb,
      rows,
      rng,
      settings.resamples,
      settings.level,
      options.engine,
    ).full_call_exact_match;
    const both = idx.filter((i) => a.records[i]!.valid && aligned[i]!.valid).length;
    return {
      a: m.base,
      b: m.adapter,
      delta: m.delta,
      ci: m.ci,
      onlyA: m.base.numerator - both,
      onlyB: m.adapter.numerator - both,
    };
  };
  const note = unrecordedInputs(a, b);
  // Each category's entries in A's order, the categories in code-point order; overall is them
  // all in that order, so that no interval depends on the order the reports were given in.
  const categories = a.categories.map((c) => c.category).sort(compareCodePoints);
  const groups = categories.map((category) => {
    const idx: number[] = [];
    a.records.forEach((r, i) => {
      if (r.category === category) idx.push(i);
    });
    return idx;
  });
  const overall = run(groups.flat());
  const byCategory: Record<string, BfclAccuracyDelta> = {};
  categories.forEach((category, k) => byCategory[category] = run(groups[k]!));
  return {
    schema: "assay.bfcl.comparison.v1",
    checker: a.checker,
    matching: a.matching ?? "greedy",
    models: { a: a.model, b: b.model },
    bootstrap: { ...settings, streams: "one stream: overall, then categories in sorted order" },
    n: a.records.length,
    categories,
    overall,
    byCategory,
    ...(note === undefined ? {} : { note }),
  };
}
