/**
 * Comparing the overlap of two runs: both reports restricted to the examples they share, with
 * what each side left out counted and listed.
 *
 * @module
 */
import { compareCodePoints } from "../engine/mod.ts";
import { indicesByLanguage } from "./_by_language.ts";
import {
  type EvaluationReport,
  evaluationReportProblem,
  type ExampleRecord,
  toolCallMetrics,
} from "../evaluation/mod.ts";

/** What a comparison on the shared examples left out. */
export interface Coverage {
  /** Always `intersection`: the comparison covers the examples both reports hold. */
  on: "intersection";
  /** Examples compared. */
  shared: number;
  /** Examples only the base report holds, by id. */
  base_only: { count: number; ids: string[] };
  /** Examples only the adapter report holds, by id. */
  adapter_only: { count: number; ids: string[] };
}

function restrict(r: EvaluationReport, keep: Set<string>): EvaluationReport {
  const records: ExampleRecord[] = r.records.filter((x) => keep.has(x.example_id));
  const groups = indicesByLanguage(records);
  const slices = [...groups.keys()].sort(compareCodePoints);
  const by_language = Object.fromEntries(
    slices.map((l) => [l, toolCallMetrics(groups.get(l)!.map((i) => records[i]!))]),
  );
  return { ...r, records, slices, metrics: { overall: toolCallMetrics(records), by_language } };
}

/**
 * Both reports restricted to the examples they share (their metrics and slices recomputed from
 * the kept records), and what each left out.
 *
 * @param base The base report.
 * @param adapter The adapter report.
 * @returns The restricted reports and the coverage.
 * @throws {RangeError} If a report's records, slices or metric names are malformed
 *   (`evaluationReportProblem`).
 *
 * @example
 * ```ts
 * import { intersectReports, scoreToolCalls } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * const ex = (id: string) => ({ example_id: id, language: "en", target: { name: "f", arguments: {} } });
 * const gen = (id: string) => ({ example_id: id, output: "{}" });
 * const a = scoreToolCalls([ex("1"), ex("2")], [gen("1"), gen("2")]);
 * const b = scoreToolCalls([ex("2"), ex("3")], [gen("2"), gen("3")]);
 * strictEqual(intersectReports(a, b).coverage.shared, 1);
 * ```
 */
export function intersectReports(
  base: EvaluationReport,
  adapter: EvaluationReport,
): { base: EvaluationReport; adapter: EvaluationReport; coverage: Coverage } {
  const check = (side: string, r: EvaluationReport) => {
    const problem = evaluationReportProblem(r);
    if (problem) throw new RangeError(`The ${side} report is malformed: ${problem}`);
  };
  check("base", base);
  check("adapter", adapter);
  const inBase = new Set(base.records.map((r) => r.example_id));
  const inAdapter = new Set(adapter.records.map((r) => r.example_id));
  const shared = new Set([...inBase].filter((id) => inAdapter.has(id)));
  const only = (ids: Set<string>) => {
    const out = [...ids].filter((id) => !shared.has(id)).sort(compareCodePoints);
    return { count: out.length, ids: out };
  };
  return {
    base: restrict(base, shared),
    adapter: restrict(adapter, shared),
    coverage: {
      on: "intersection",
      shared: shared.size,
      base_only: only(inBase),
      adapter_only: only(inAdapter),
    },
  };
}
