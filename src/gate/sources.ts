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

/** One example's share of a metric. */
export interface ExampleShare {
  /** The example's id, unique within the report. */
  id: string;
  /** Its part of the metric's numerator. */
  num: number;
  /** Its part of the metric's denominator. */
  den: number;
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
  /** Every example's share of the metric in the slice, in the report's order. */
  shares(metric: string, slice: string): ExampleShare[];
}

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === "object" && x !== null;

function evaluationSource(r: Json): MetricSource {
  const records = r.records as ExampleRecord[];
  return {
    kind: String(r.schema),
    metrics: METRIC_NAMES,
    slices: ["overall", ...(r.slices as string[])],
    binary: (m) => (BINARY_METRIC_NAMES as readonly string[]).includes(m),
    shares: (m, slice) =>
      records.filter((x) => slice === "overall" || x.language === slice).map((x) =>
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
    shares: (m) => share(m),
  };
}

function bfclSource(r: Json): MetricSource {
  const records = r.records as { category: string; id: number; valid: boolean }[];
  return {
    kind: "assay.bfcl.v1",
    metrics: ["accuracy"],
    slices: ["overall", ...new Set(records.map((x) => x.category))],
    binary: () => true,
    shares: (_, slice) =>
      records.filter((x) => slice === "overall" || x.category === slice).map((x) => ({
        id: `${x.category}#${x.id}`,
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

/** The report kinds a gate reads, by schema. */
export const GATE_REPORT_KINDS: readonly string[] = [
  ...EVALUATION_SCHEMAS,
  "assay.structured.v1",
  "assay.bfcl.v1",
  "assay.ifeval.v1",
];

/**
 * The metrics of a report as the gate reads them: an evaluation report (`assay.evaluation.v2` or
 * v1: the five metrics, overall and per language), a structured report (its metrics, overall, from
 * its per-example rows), a BFCL report (`accuracy`, overall and per category) or an IFEval report
 * (`prompt_strict`, `prompt_loose`, `instruction_strict`, `instruction_loose`).
 *
 * @param report A parsed report.
 * @returns Its metric source.
 * @throws {RangeError} If the report is of another kind, or a structured report has no rows.
 *
 * @example An IFEval report
 * ```ts
 * import { metricSource } from "@assay/assay/gate";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const s = metricSource({ schema: "assay.ifeval.v1", prompts: [{ key: 1, strict: [true, false], loose: [true, true] }] });
 * deepStrictEqual(s.shares("instruction_strict", "overall"), [{ id: "1", num: 1, den: 2 }]);
 * ```
 */
export function metricSource(report: unknown): MetricSource {
  const schema = isObject(report) ? report.schema : undefined;
  if ((EVALUATION_SCHEMAS as readonly unknown[]).includes(schema)) {
    return evaluationSource(report as Json);
  }
  if (schema === "assay.structured.v1") {
    if (!Array.isArray((report as Json).rows)) {
      throw new RangeError("The structured report has no per-example rows: score it again");
    }
    return structuredSource(report as Json);
  }
  if (schema === "assay.bfcl.v1") return bfclSource(report as Json);
  if (schema === "assay.ifeval.v1") return ifevalSource(report as Json);
  throw new RangeError(
    `A gate reads ${GATE_REPORT_KINDS.join(", ")} reports, not ${JSON.stringify(schema)}`,
  );
}
