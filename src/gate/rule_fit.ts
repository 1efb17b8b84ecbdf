/**
 * Whether a gate's rules fit a report, checked as far as the report is known: its kind and
 * metrics (known before the work that makes it, from the suite or the report kind) and, when
 * known, its slices. A command checks its `--gate` rules with it before any work, so that a rule
 * naming a metric the report cannot have is refused before anything is paid for or written.
 *
 * @module
 */
import { EVALUATION_SCHEMAS, METRIC_NAMES } from "../evaluation/mod.ts";
import type { GateRules } from "./rules.ts";
import { ruleAt } from "./_rule_text.ts";
import { suggestName } from "../jsonl/mod.ts";

/** What a gate can know of a report, possibly before the report is made. */
export interface ReportShape {
  /** The report's schema, e.g. `assay.suite_run.v1`. */
  kind: string;
  /** Its metrics. */
  metrics: readonly string[];
  /** Its slices, `overall` first; undefined while they are not known. */
  slices?: readonly string[];
  /** Whether its metrics are statistics of the whole report (min and max rules only). */
  statistic?: boolean;
}

/** The metrics a gate reads from every suite run, beside the suite's own. */
export const SUITE_RUN_METRICS: readonly string[] = ["pass_rate", "overall_score"];
/** The metrics a gate reads from a calibration report. */
export const CALIBRATION_METRICS: readonly string[] = [
  "kappa",
  "agreement",
  "mae",
  "pearson",
  "spearman",
];
/** The calibration metrics where lower is better: `mae`, the judge's mean absolute error. */
export const LOWER_IS_BETTER_CALIBRATION_METRICS: readonly string[] = ["mae"];

/**
 * The shape of a suite run's report before it is made: `pass_rate`, `overall_score` and the
 * suite's metrics, and, when given, the slices `overall` and each arm.
 *
 * @param metrics The suite's metric names, in suite order.
 * @param arms The runs' arms, when known.
 * @returns The shape.
 * @throws {RangeError} If the suite has a metric named `pass_rate` or `overall_score`.
 *
 * @example
 * ```ts
 * import { suiteRunShape } from "@assay/assay/gate";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(suiteRunShape(["hit_limit"], ["base"]).slices, ["overall", "base"]);
 * ```
 */
export function suiteRunShape(
  metrics: readonly string[],
  arms?: readonly string[],
): ReportShape {
  const clash = metrics.find((m) => SUITE_RUN_METRICS.includes(m));
  if (clash !== undefined) {
    throw new RangeError(
      `The suite has a metric named ${JSON.stringify(clash)}, which a gate reads as the runs' ` +
        `${clash}: rename it in the suite`,
    );
  }
  return {
    kind: "assay.suite_run.v1",
    metrics: [...SUITE_RUN_METRICS, ...metrics],
    ...(arms && { slices: ["overall", ...new Set(arms)] }),
  };
}

/**
 * The shape of an evaluation report (`assay.evaluation.v2`): its five metrics and, when given,
 * the slices `overall` and each language.
 *
 * @param languages The report's language slices, when known.
 * @returns The shape.
 *
 * @example
 * ```ts
 * import { evaluationShape } from "@assay/assay/gate";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(evaluationShape(["en"]).metrics.length, 5);
 * ```
 */
export function evaluationShape(languages?: readonly string[]): ReportShape {
  return {
    kind: EVALUATION_SCHEMAS[0],
    metrics: METRIC_NAMES,
    ...(languages && { slices: ["overall", ...languages] }),
  };
}

/** The shape of a calibration report: statistics of all its labels, one slice. */
export const CALIBRATION_SHAPE: ReportShape = {
  kind: "assay.calibration.v1",
  metrics: CALIBRATION_METRICS,
  slices: ["overall"],
  statistic: true,
};

/**
 * Checks that every rule fits a report of this shape: a comparative rule has a base (`paired`),
 * its metric is the report's, its slice too (when the slices are known), and a statistic takes
 * only `min` and `max`. What depends on the scores (whether a metric is right-or-wrong, for
 * `max_regressions`) is left to `evaluateGate`.
 *
 * @param gate The rules.
 * @param shape What is known of the report.
 * @param paired Whether the gate will get a base and a candidate (else one report).
 * @throws {RangeError} Naming every rule that does not fit, one a line, by its line, and the line
 *   and column of the value that does not fit (its metric, slice or check) when it was read from a
 *   file, with the nearest name the report has for a misspelt metric or slice.
 *
 * @example A misspelt metric
 * ```ts
 * import { checkRulesFit, parseGateRules, suiteRunShape } from "@assay/assay/gate";
 * import { throws } from "node:assert/strict";
 *
 * const gate = parseGateRules("rules:\n  - metric: pass_rat\n    min: 0.5\n", "g.yaml");
 * throws(() => checkRulesFit(gate, suiteRunShape(["hit_limit"]), false), /line 2/);
 * ```
 */
export function checkRulesFit(gate: GateRules, shape: ReportShape, paired: boolean): void {
  // Every rule's misfits at once, each with the nearest name, as the rules' own errors are listed.
  const problems: string[] = [];
  const near = (name: string, names: readonly string[]) => {
    const n = suggestName(name, names);
    return n === undefined ? "" : `did you mean ${JSON.stringify(n)}? `;
  };
  for (const rule of gate.rules) {
    if (!paired && !ABSOLUTE.has(rule.check.kind)) {
      problems.push(`${ruleAt(rule, "check")} compares two runs: give a base and a candidate`);
    }
    if (!shape.metrics.includes(rule.metric)) {
      problems.push(
        `${ruleAt(rule, "metric")} names the metric ${JSON.stringify(rule.metric)}, which an ` +
          `${shape.kind} report does not have (${near(rule.metric, shape.metrics)}it has ` +
          `${shape.metrics.join(", ")})`,
      );
    }
    if (shape.slices !== undefined && !shape.slices.includes(rule.slice)) {
      problems.push(
        `${ruleAt(rule, "slice")} names the slice ${JSON.stringify(rule.slice)}, which the ` +
          `report does not have (${near(rule.slice, shape.slices)}it has ${
            shape.slices.join(", ")
          })`,
      );
    }
    if (shape.statistic && !ABSOLUTE.has(rule.check.kind)) {
      problems.push(
        `${ruleAt(rule, "check")}: an ${shape.kind} report's ${rule.metric} is a statistic of ` +
          "the whole report, not a sum over examples: only min and max apply to it",
      );
    }
  }
  if (problems.length > 0) throw Object.assign(new RangeError(problems.join("\n")), { problems });
}

const ABSOLUTE = new Set(["min", "max"]);
