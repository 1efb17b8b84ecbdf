/**
 * Comparison of two evaluation reports, adapter − base, behind a gate that
 * refuses apples-to-oranges comparisons (CONTRACT §6).
 *
 * @module
 */
import { exampleFlips, type Flips } from "./flips.ts";
import { indicesByLanguage } from "./_by_language.ts";
import { type Coverage, intersectReports } from "./intersection.ts";
import { type BootstrapOptions, type BootstrapSettings, bootstrapSettings } from "../stats/mod.ts";
import { bootstrapPacked, type MetricDelta, packRecords } from "./paired_bootstrap.ts";
import type { EvaluationReport } from "../evaluation/mod.ts";
import {
  EVALUATION_SCHEMAS,
  evaluationReportProblem,
  type ExampleRecord,
  METRIC_NAMES,
  type MetricName,
  toolCallMetrics,
} from "../evaluation/mod.ts";
import { checkOptions, Sfc32 } from "../engine/mod.ts";
import { compareCodePoints } from "../engine/mod.ts";
import { TOOL } from "../engine/mod.ts";

/** One way two reports differ. */
export interface GateDifference {
  /** What differs. */
  kind:
    | "schema"
    | "parser_id"
    | "canonical_id"
    | "numbers"
    | "metric_names"
    | "slices"
    | "example_ids"
    | "example_languages"
    | "examples"
    | "gold"
    | "inconsistent_report"
    | "malformed_report"
    | "checker"
    | "matching";
  /**
   * Exactly what differs, in words: a value or name as JSON writes it (quoted), the arms by the
   * caller's names, a side that holds nothing of a set left out, at most five names of a list.
   */
  detail: string;
  /**
   * Of a value the two reports hold differently (parser ids, canonical ids, number modes, examples
   * files' SHA-256, the kinds of two reports): the base's, then the other arm's.
   */
  values?: [base: unknown, other: unknown];
  /**
   * Of a set the two reports hold differently (metric names, slices, example ids): every name only
   * the base holds, then every one only the other arm holds, each sorted by code point.
   */
  only?: [base: string[], other: string[]];
  /** Of examples that differ (their slice, their gold) or repeat: every id, sorted by code point. */
  ids?: string[];
  /** Of a report at fault on its own (not an evaluation report, malformed, inconsistent): its arm. */
  arm?: string;
}

type Kind = GateDifference["kind"];

/** The two reports cannot be compared: nothing is written. */
export class ComparisonGateError extends Error {
  /** Every difference found, with what differs as data. */
  declare readonly differences: GateDifference[];

  /**
   * Creates the error; its message says exactly what differs.
   *
   * @param differences What differs; at least one.
   */
  constructor(differences: GateDifference[]) {
    super(`Refusing to compare: ${differences.map((d) => d.detail).join("; ")}`);
    this.name = "ComparisonGateError";
    this.differences = differences;
  }
}

/** Both sides of a comparison per metric. */
export type MetricDeltas = Record<MetricName, MetricDelta>;

/** The `assay.comparison.v1` report. */
export interface ComparisonReport {
  /** Always `assay.comparison.v1`. */
  schema: "assay.comparison.v1";
  /** The tool that wrote it. */
  tool: { name: string; version: string };
  /** The parser contract both reports share. */
  parser_id: string;
  /** The canonical-JSON contract both reports share. */
  canonical_id: string;
  /** How the intervals were made. */
  bootstrap: BootstrapSettings & { streams: string };
  /** Both reports' input digests. */
  inputs: { base: EvaluationReport["inputs"]; adapter: EvaluationReport["inputs"] };
  /** Examples compared. */
  n: number;
  /** The metric names. */
  metric_names: MetricName[];
  /** The language slices. */
  slices: string[];
  /** Per slice and overall, per metric: base, adapter, delta and interval. */
  deltas: { overall: MetricDeltas; by_language: Record<string, MetricDeltas> };
  /** Per right-or-wrong metric: the examples right in base and wrong in the adapter. */
  regressions: Flips;
  /** Per right-or-wrong metric: the examples wrong in base and right in the adapter. */
  improvements: Flips;
  /** With `on: "intersection"`: the examples compared, and those each side left out. */
  coverage?: Coverage;
}

/** Options of a comparison: the bootstrap's, and which examples it covers. */
export interface CompareOptions extends BootstrapOptions {
  /**
   * `all` (the default) requires both reports to hold the same examples; `intersection`
   * compares the examples they share and reports what each left out.
   */
  on?: "all" | "intersection";
}

const SHOWN = 5;

function setDifference(a: Iterable<string>, b: { has(x: string): boolean }): string[] {
  const out: string[] = [];
  for (const x of a) if (!b.has(x)) out.push(x);
  return out.sort(compareCodePoints);
}

function listed(ids: string[]): string {
  const shown = ids.slice(0, SHOWN).map((x) => JSON.stringify(x)).join(", ");
  return ids.length > SHOWN ? `${shown}, … (${ids.length} in all)` : shown;
}

// A side that is not an evaluation report, or whose records, slices or metric names are
// malformed (evaluationReportProblem): nothing else of it can be read.
function shapeDifferences(reports: EvaluationReport[], arms: Arms): GateDifference[] {
  const d: GateDifference[] = [];
  reports.forEach((r, i) => {
    const arm = arms[i]!;
    if (!(EVALUATION_SCHEMAS as readonly string[]).includes(r?.schema)) {
      d.push({
        kind: "schema",
        detail: `the ${arm} report is not an evaluation report (schema ${
          JSON.stringify(r?.schema)
        })`,
        arm,
      });
    } else {
      const problem = evaluationReportProblem(r);
      if (problem) {
        d.push({
          kind: "malformed_report",
          detail: `the ${arm} report is malformed: ${problem}`,
          arm,
        });
      }
    }
  });
  return d;
}

// The names of a comparison's two arms, base first.
type Arms = readonly [base: string, other: string];

/**
 * Lists every way two evaluation reports differ that makes them incomparable. When a side is not
 * an evaluation report, or its records, slices or metric names are malformed
 * (`evaluationReportProblem`), that is all the list holds.
 *
 * @param base The base report.
 * @param adapter The other arm's report.
 * @param arms The two arms' names, base first, as the details name them (default
 *   `["base", "adapter"]`; `evaluateGate` names them base and candidate).
 * @param shared Whether the reports were cut to the examples they share (`intersectReports`):
 *   their examples files may then differ where both records of every example hold its gold call
 *   (scored with details), as `compareReports` with `on: "intersection"` compares them.
 * @returns The differences; empty when the gate passes.
 */
export function gateDifferences(
  base: EvaluationReport,
  adapter: EvaluationReport,
  arms: readonly [base: string, other: string] = ARMS,
  shared = false,
): GateDifference[] {
  const shape = shapeDifferences([base, adapter], arms);
  return shape.length > 0 ? shape : runDifferences(base, adapter, arms, shared);
}

const ARMS: Arms = ["base", "adapter"];

// How two well-formed evaluation reports differ. The examples files' digests must be equal where
// both reports record one, except on the shared examples (`shared`), which may come from two
// files when every shared example's records both hold its gold call (details); there, as
// everywhere, each example's gold must be the same as far as the records tell (gold_pairs, and the
// gold call of both records' details).
function runDifferences(
  base: EvaluationReport,
  adapter: EvaluationReport,
  arms: Arms,
  shared?: boolean,
): GateDifference[] {
  const d: GateDifference[] = [];
  const differ = (kind: Kind, what: string, b: unknown, a: unknown) =>
    b !== a && d.push({
      kind,
      detail: `${what} differ: ${arms[0]} ${JSON.stringify(b)}, ${arms[1]} ${JSON.stringify(a)}`,
      values: [b, a],
    });
  const bRec = new Map(base.records.map((r) => [r.example_id, r]));
  const aRec = new Map(adapter.records.map((r) => [r.example_id, r]));
  // A side that holds nothing of the difference is not named.
  const sets = (kind: Kind, what: string, b: Iterable<string>, a: Iterable<string>) => {
    const bs = new Set(b);
    const as = new Set(a);
    const only: [string[], string[]] = [setDifference(bs, as), setDifference(as, bs)];
    const words = only.flatMap((xs, i) =>
      xs.length ? [`${xs.length} only in ${arms[i]} (${listed(xs)})`] : []
    );
    if (words.length) d.push({ kind, detail: `${what} differ: ${words.join(", ")}`, only });
  };
  const be = base.inputs?.examples;
  const ae = adapter.inputs?.examples;
  // On the shared examples the files may differ only where both records of each example show
  // its gold call (detail.gold): gold_pairs alone misses a gold whose values changed.
  const unproven = (r: ExampleRecord) => !r.detail?.gold || !aRec.get(r.example_id)?.detail?.gold;
  if (be && ae && be.sha256 !== ae.sha256 && (!shared || base.records.some(unproven))) {
    differ("examples", "examples files' sha256", be.sha256, ae.sha256);
    if (shared) {
      d.at(-1)!.detail += " (on the shared examples two files are compared only when both " +
        "reports were scored with details, each record holding its gold call)";
    }
  }
  differ("parser_id", "parser ids", base.parser_id, adapter.parser_id);
  differ("canonical_id", "canonical ids", base.canonical_id, adapter.canonical_id);
  differ("numbers", "numbers", base.numbers ?? "exact", adapter.numbers ?? "exact");
  sets("metric_names", "metric names", base.metric_names, adapter.metric_names);
  sets("slices", "slice sets", base.slices, adapter.slices);
  sets("example_ids", "example-id sets", bRec.keys(), aRec.keys());
  const moved: string[] = [];
  const regold: string[] = [];
  for (const [id, r] of bRec) {
    const o = aRec.get(id);
    if (!o) continue;
    if (o.language !== r.language) moved.push(id);
    const x = r.detail?.gold;
    const y = o.detail?.gold;
    if (
      o.gold_pairs !== r.gold_pairs || x && y && (x.name !== y.name || x.arguments !== y.arguments)
    ) regold.push(id);
  }
  // What is said of one example, and of more.
  const flag = (kind: Kind, ids: string[], [one, more]: [string, string]) =>
    ids.length &&
    d.push({
      kind,
      detail: `${ids.length} example${ids.length === 1 ? ` ${one}` : `s ${more}`} ` +
        `(${listed(ids.sort(compareCodePoints))})`,
      ids,
    });
  flag("example_languages", moved, [
    "is in a different language slice",
    "are in different language slices",
  ]);
  flag("gold", regold, ["has a different gold call", "have different gold calls"]);
  // A report whose stored overall metrics are not the pooled sums of its records.
  if (d.length === 0) {
    [base, adapter].forEach((r, i) => {
      const sums = toolCallMetrics(r.records);
      const o = r.metrics?.overall;
      if (
        !METRIC_NAMES.every((m) =>
          sums[m].numerator === o?.[m]?.numerator && sums[m].denominator === o[m].denominator
        )
      ) {
        d.push({
          kind: "inconsistent_report",
          detail: `the ${arms[i]} report's overall metrics are not the sums of its records`,
          arm: arms[i],
        });
      }
    });
  }
  return d;
}

/**
 * Compares two evaluation reports: per slice and overall, per metric, the adapter − base delta
 * with a seeded paired-bootstrap percentile interval.
 *
 * Draws come from one sfc32 stream: overall first, then each slice in sorted order, each
 * resampling within its own examples.
 *
 * @param base The base model's evaluation report.
 * @param adapter The adapter's evaluation report, over the same examples.
 * @param options Seed (default 0), resamples (default 10,000), level (default 0.95), the
 *   engine whose kernel resamples (default: the default engine; both give identical output), and
 *   `on`: `all` (the default) or `intersection` (the shared examples, with the coverage reported).
 * @returns The `assay.comparison.v1` report.
 * @throws {ComparisonGateError} If a report is not an evaluation report or is malformed (its
 *   records, slices or metric names: `evaluationReportProblem`), or the reports differ in metric
 *   names, slices, example ids, parser id, canonical id, number mode, examples file (its SHA-256,
 *   where both reports record one; with `on: "intersection"`, unless both records of every shared
 *   example hold its gold call, `detail.gold`), or an example's gold (its
 *   `gold_pairs`, or its `detail.gold` where both records have one), or there is no example to
 *   compare (neither report holds one, or with `on: "intersection"` they share none). The
 *   prompts may differ.
 *
 * @example
 * ```ts
 * import { compareReports, scoreToolCalls } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * const examples = [{ example_id: "1", language: "en", target: { name: "f", arguments: {} } }];
 * const base = scoreToolCalls(examples, [{ example_id: "1", output: "no" }]);
 * const adapter = scoreToolCalls(examples, [{ example_id: "1", output: '{"name":"f","arguments":{}}' }]);
 * const cmp = compareReports(base, adapter, { seed: 7, resamples: 100 });
 * strictEqual(cmp.deltas.overall.full_call_exact_match.delta, 1);
 * ```
 */
export function compareReports(
  base: EvaluationReport,
  adapter: EvaluationReport,
  options: CompareOptions = {},
): ComparisonReport {
  checkOptions(options);
  let coverage: Coverage | undefined;
  const shape = shapeDifferences([base, adapter], ARMS);
  if (shape.length > 0) throw new ComparisonGateError(shape);
  if (options.on === "intersection") {
    ({ base, adapter, coverage } = intersectReports(base, adapter));
  } else if (options.on !== undefined && options.on !== "all") {
    throw new RangeError(`on must be "all" or "intersection", got ${JSON.stringify(options.on)}`);
  }
  const settings = bootstrapSettings(options);
  const differences = runDifferences(base, adapter, ARMS, !!coverage);
  // No example is nothing to compare: not a certain delta of 0 on n = 0 (two reports of
  // scoreToolCalls on empty arrays, or two runs that share no example).
  if (!base.records.length && !adapter.records.length) {
    differences.push({
      kind: "example_ids",
      detail: coverage ? "no example is shared" : "the reports hold no example",
    });
  }
  if (differences.length > 0) throw new ComparisonGateError(differences);

  const position = new Map<string, number>();
  adapter.records.forEach((r, i) => position.set(r.example_id, i));
  const aligned: ExampleRecord[] = base.records.map((r) =>
    adapter.records[position.get(r.example_id)!]!
  );
  const bp = packRecords(base.records);
  const ap = packRecords(aligned);
  const rng = new Sfc32(settings.seed);
  const run = (idx: Int32Array) =>
    bootstrapPacked(bp, idx, ap, idx, rng, settings.resamples, settings.level, options.engine);

  const overall = run(Int32Array.from(base.records, (_, i) => i));
  const slices = [...base.slices].sort(compareCodePoints);
  const by_language: Record<string, MetricDeltas> = {};
  const groups = indicesByLanguage(base.records);
  for (const lang of slices) by_language[lang] = run(Int32Array.from(groups.get(lang) ?? []));
  return {
    schema: "assay.comparison.v1",
    tool: { ...TOOL },
    parser_id: base.parser_id,
    canonical_id: base.canonical_id,
    bootstrap: { ...settings, streams: "one stream: overall, then slices in sorted order" },
    inputs: { base: base.inputs, adapter: adapter.inputs },
    n: base.records.length,
    metric_names: [...METRIC_NAMES],
    slices,
    deltas: { overall, by_language },
    ...exampleFlips(base.records, aligned),
    ...(coverage ? { coverage } : {}),
  };
}
