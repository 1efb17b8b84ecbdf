/**
 * What a gate reads from a report of any kind: each metric, per slice, as every example's share
 * of it (a numerator and a denominator, so that the metric is Σ numerators / Σ denominators).
 *
 * @module
 */
import {
  BINARY_METRIC_NAMES,
  EVALUATION_SCHEMAS,
  type ExampleRecord,
  exampleRight,
  METRIC_NAMES,
} from "../evaluation/mod.ts";
import { bfclGateId, suiteGateId } from "../explain/mod.ts";
import { checkReportBody } from "../report_check/mod.ts";
import { LOWER_IS_BETTER_STRUCTURED_METRICS } from "../structured_jsonl/report/mod.ts";
import {
  CALIBRATION_METRICS,
  LOWER_IS_BETTER_CALIBRATION_METRICS,
  suiteRunShape,
} from "./rule_fit.ts";

/** One example's share of a metric. */
export interface ExampleShare {
  /** The example's id, unique within the report. */
  id: string;
  /** Its part of the metric's numerator. */
  num: number;
  /** Its part of the metric's denominator. */
  den: number;
  /**
   * The scores its numerator sums, one per count of its denominator, where a unit pools several
   * (a golden's repeats in a suite run): the bootstrap of fractional scores pools them exactly.
   */
  values?: number[];
}

/** A report as the gate reads it. */
export interface MetricSource {
  /** The report's schema, e.g. `assay.bfcl.v1`. */
  kind: string;
  /** Its metrics. */
  metrics: readonly string[];
  /** Its slices: `overall` first. */
  slices: readonly string[];
  /** Whether every example is right or wrong in the metric (McNemar, max_regressions). */
  binary(metric: string): boolean;
  /**
   * Whether the metric counts a fault, so that lower is better (a structured report's
   * `extra_content_rate`, a calibration's `mae`): an example is right in it when it holds none of
   * it, a regression is a rise, and `non_inferior` and `superior` check the interval's upper bound.
   * Every other metric is higher-is-better.
   */
  lowerIsBetter(metric: string): boolean;
  /** Every example's share of the metric in the slice, in the report's order. */
  shares(metric: string, slice: string): ExampleShare[];
  /**
   * For a report of whole-set statistics (a calibration): the metric's value, null when it
   * cannot be computed. Such metrics have no per-example shares, so only `min` and `max` apply.
   */
  statistic?(metric: string): number | null;
}

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === "object" && x !== null;

/**
 * The items of a slice: `overall` is all of them, another slice those whose `sliceOf` is it, in
 * order. The items are grouped by slice once, when a slice is first read, so that each rule reads
 * only its slice's items (filtering them all for each rule was quadratic in a gate of many rules).
 */
function bySlice<T>(items: readonly T[], sliceOf: (x: T) => unknown): (slice: string) => T[] {
  let groups: Map<unknown, T[]> | undefined;
  return (slice) => {
    if (slice === "overall") return items as T[];
    if (groups === undefined) {
      groups = new Map();
      for (const x of items) {
        const key = sliceOf(x);
        (groups.get(key) ?? groups.set(key, []).get(key)!).push(x);
      }
    }
    return groups.get(slice) ?? [];
  };
}

function evaluationSource(r: Json): MetricSource {
  const records = r.records as ExampleRecord[];
  const slice = bySlice(records, (x) => x.language);
  return {
    kind: String(r.schema),
    metrics: METRIC_NAMES,
    slices: ["overall", ...(r.slices as string[])],
    binary: (m) => (BINARY_METRIC_NAMES as readonly string[]).includes(m),
    lowerIsBetter: () => false,
    shares: (m, name) =>
      slice(name).map((x) =>
        m === "argument_f1"
          ? { id: x.example_id, num: 2 * x.matched_pairs, den: x.predicted_pairs + x.gold_pairs }
          : {
            id: x.example_id,
            num: exampleRight(m as (typeof BINARY_METRIC_NAMES)[number], x) ? 1 : 0,
            den: 1,
          }
      ),
  };
}

function structuredSource(r: Json): MetricSource {
  const rows = r.rows as { line: number; id: string | null; metrics: Json }[];
  const metrics = Object.keys(r.metrics as Json);
  const share = (m: string) =>
    rows.map((row) => {
      const f = row.metrics[m] as { numerator: number; denominator: number };
      return { id: row.id ?? `line ${row.line}`, num: f.numerator, den: f.denominator };
    });
  return {
    kind: "assay.structured.v1",
    metrics,
    slices: ["overall"],
    binary: (m) => share(m).every((s) => s.den <= 1),
    lowerIsBetter: (m) => (LOWER_IS_BETTER_STRUCTURED_METRICS as readonly string[]).includes(m),
    shares: (m) => share(m),
  };
}

function bfclSource(r: Json): MetricSource {
  const records = r.records as { category: string; id: number; valid: boolean }[];
  const slice = bySlice(records, (x) => x.category);
  return {
    kind: "assay.bfcl.v1",
    metrics: ["accuracy"],
    slices: ["overall", ...new Set(records.map((x) => x.category))],
    binary: () => true,
    lowerIsBetter: () => false,
    shares: (_, name) =>
      slice(name).map((x) => ({
        id: bfclGateId(x.category, x.id),
        num: x.valid ? 1 : 0,
        den: 1,
      })),
  };
}

function ifevalSource(r: Json): MetricSource {
  const prompts = r.prompts as { key: number; strict: boolean[]; loose: boolean[] }[];
  return {
    kind: "assay.ifeval.v1",
    metrics: ["prompt_strict", "prompt_loose", "instruction_strict", "instruction_loose"],
    slices: ["overall"],
    binary: (m) => m.startsWith("prompt_"),
    lowerIsBetter: () => false,
    shares: (m) =>
      prompts.map((p) => {
        const follows = m.endsWith("strict") ? p.strict : p.loose;
        const followed = follows.filter((x) => x).length;
        return m.startsWith("prompt_")
          ? { id: String(p.key), num: followed === follows.length ? 1 : 0, den: 1 }
          : { id: String(p.key), num: followed, den: follows.length };
      }),
  };
}

/**
 * A suite run, per (golden, arm): its repeats pooled, so that resampling these units is the
 * scorecard's bootstrap by golden within each arm. `pass_rate` counts the runs with a pass
 * verdict (passes over them: complete runs, and incomplete ones whose missing scores cannot change
 * their pass), `overall_score` the complete runs' mean overall score, and each suite metric its
 * mean score over the applicable runs that have one, as the scorecard does.
 */
function suiteRunSource(r: Json): MetricSource {
  const runs = r.runs as {
    golden_id: string;
    arm: string;
    criteria: { metric: string; score: number | null; applicable: boolean }[];
    overall: { status: string; overall: number | null; pass: boolean | null };
  }[];
  const own = (r.scorecard as { metrics: string[] }).metrics;
  const shape = suiteRunShape(own); // a suite metric named pass_rate is refused
  // A slice named overall reads every run, so an arm of that name could not be read alone (a run
  // written before the suite refused such an arm).
  const overall = runs.find((x) => x.arm === "overall");
  if (overall) {
    throw new RangeError(
      `The run of golden ${JSON.stringify(overall.golden_id)} has arm "overall", the name of ` +
        "all arms at once in a gate rule's slice",
    );
  }
  const share = (m: string, run: (typeof runs)[number]): [number, number] => {
    const complete = run.overall.status === "complete";
    if (m === "pass_rate") return [run.overall.pass ? 1 : 0, run.overall.pass === null ? 0 : 1];
    if (m === "overall_score") return [complete ? run.overall.overall! : 0, complete ? 1 : 0];
    const c = run.criteria.find((x) => x.metric === m);
    return c?.applicable && c.score !== null ? [c.score, 1] : [0, 0];
  };
  const slice = bySlice(runs, (x) => x.arm);
  const shares = (m: string, name: string) => {
    const units = new Map<string, ExampleShare>();
    for (const run of slice(name)) {
      const id = suiteGateId(run.golden_id, run.arm);
      const u = units.get(id) ?? units.set(id, { id, num: 0, den: 0, values: [] }).get(id)!;
      const [num, den] = share(m, run);
      u.num += num;
      u.den += den;
      if (den === 1) u.values!.push(num);
    }
    return [...units.values()];
  };
  return {
    kind: "assay.suite_run.v1",
    metrics: shape.metrics,
    slices: ["overall", ...new Set(runs.map((x) => x.arm))],
    binary: (m) =>
      shares(m, "overall").every((s) => s.den <= 1 && (s.num === 0 || s.num === s.den)),
    // Every suite metric scores what is right (1.0 passes), and pass_rate and overall_score too.
    lowerIsBetter: () => false,
    shares,
  };
}

function calibrationSource(r: Json): MetricSource {
  return {
    kind: "assay.calibration.v1",
    metrics: CALIBRATION_METRICS,
    slices: ["overall"],
    binary: () => false,
    lowerIsBetter: (m) => LOWER_IS_BETTER_CALIBRATION_METRICS.includes(m),
    shares: (m) => {
      throw new RangeError(`A calibration's ${m} is a statistic of all its labels`);
    },
    statistic: (m) => (typeof r[m] === "number" ? r[m] as number : null),
  };
}

/** The report kinds a gate reads, by schema. */
export const GATE_REPORT_KINDS: readonly string[] = [
  ...EVALUATION_SCHEMAS,
  "assay.structured.v1",
  "assay.bfcl.v1",
  "assay.ifeval.v1",
  "assay.suite_run.v1",
  "assay.calibration.v1",
];

/**
 * The metrics of a report as the gate reads them: an evaluation report (`assay.evaluation.v2` or
 * v1: the five metrics, overall and per language), a structured report (its metrics, overall, from
 * its per-example rows), a BFCL report (`accuracy`, overall and per category), an IFEval report
 * (`prompt_strict`, `prompt_loose`, `instruction_strict`, `instruction_loose`), a suite run
 * (`pass_rate`, `overall_score` and each suite metric, overall and per arm, by golden and arm with
 * the repeats pooled) or a calibration (`kappa`, `agreement`, `mae`, `pearson`, `spearman`:
 * statistics of the whole label set, for `min` and `max` rules only).
 *
 * @param report A parsed report.
 * @returns Its metric source.
 * @throws {RangeError} If the report is of another kind, a structured report has no rows, a
 *   suite has a metric named `pass_rate` or `overall_score`, or the report is not what its schema
 *   says (`checkReportBody`: the error names the first wrong field, e.g. `records[3].matched_pairs`).
 *
 * @example An IFEval report
 * ```ts
 * import { metricSource } from "@assay/assay/gate";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const none = { value: 0, numerator: 0, denominator: 0 };
 * const scores = { prompt_level: none, instruction_level: none, by_instruction: {}, by_category: {} };
 * const s = metricSource({
 *   schema: "assay.ifeval.v1",
 *   checker: "ifeval@google-3f357bde",
 *   strict: scores, // the report's own figures, which the gate does not read
 *   loose: scores,
 *   prompts: [{ key: 1, instruction_id_list: ["a", "b"], strict: [true, false], loose: [true, true] }],
 * });
 * deepStrictEqual(s.shares("instruction_strict", "overall"), [{ id: "1", num: 1, den: 2 }]);
 * ```
 */
export function metricSource(report: unknown): MetricSource {
  checkReportBody(report);
  const schema = isObject(report) ? report.schema : undefined;
  if ((EVALUATION_SCHEMAS as readonly unknown[]).includes(schema)) {
    return evaluationSource(report as Json);
  }
  if (schema === "assay.structured.v1") return structuredSource(report as Json);
  if (schema === "assay.bfcl.v1") return bfclSource(report as Json);
  if (schema === "assay.ifeval.v1") return ifevalSource(report as Json);
  if (schema === "assay.suite_run.v1") return suiteRunSource(report as Json);
  if (schema === "assay.calibration.v1") return calibrationSource(report as Json);
  throw new RangeError(
    `A gate reads ${GATE_REPORT_KINDS.join(", ")} reports, not ${JSON.stringify(schema)}`,
  );
}
