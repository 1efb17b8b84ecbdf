// evaluateGate's `on` option: a base and a candidate evaluation report gated on the examples both
// hold (a partial rerun, `assay score --allow-missing`), as `compareReports` compares them.
import { ComparisonGateError, type Coverage, intersectReports } from "../compare/mod.ts";
import { EVALUATION_SCHEMAS, type EvaluationReport } from "../evaluation/mod.ts";
import type { GateInput } from "./verdict.ts";

const isEvaluation = (r: object) =>
  (EVALUATION_SCHEMAS as readonly unknown[]).includes((r as { schema?: unknown }).schema);

/**
 * Whether two reports' schemas are one kind for a comparative rule: the same schema, or two
 * evaluation schemas (v1 and v2 hold the same records, as `compareReports` reads them).
 */
export const sameKind = (a: string, b: string) =>
  a === b || [a, b].every((k) => (EVALUATION_SCHEMAS as readonly string[]).includes(k));

/**
 * The input as the gate reads it: unchanged for `on` `all` (the default); for `intersection`,
 * both evaluation reports restricted to the examples they share (`intersectReports`), with what
 * each left out.
 *
 * @throws {RangeError} If `on` is neither, or `intersection` is asked of one report or of reports
 *   that are not evaluation reports.
 * @throws {ComparisonGateError} If the two share no example.
 */
export function onShared(input: GateInput, on: unknown): { input: GateInput; coverage?: Coverage } {
  if (on === undefined || on === "all") return { input };
  if (on !== "intersection") {
    throw new RangeError(`on must be "all" or "intersection", got ${JSON.stringify(on)}`);
  }
  if (!("base" in input)) throw new RangeError('on "intersection" needs a base and a candidate');
  if (!isEvaluation(input.base) || !isEvaluation(input.candidate)) {
    throw new RangeError(
      'on "intersection" is for evaluation reports (assay score\'s): other reports are gated on ' +
        "the examples both hold in full",
    );
  }
  const { base, adapter, coverage } = intersectReports(
    input.base as EvaluationReport,
    input.candidate as EvaluationReport,
  );
  // Nothing shared is nothing to gate: not a certain delta of 0.
  if (coverage.shared === 0) {
    throw new ComparisonGateError([{ kind: "example_ids", detail: "no example is shared" }]);
  }
  return { input: { base, candidate: adapter }, coverage };
}
