/**
 * The verdict of a gate over one evaluation report, or over a base and a candidate: one object
 * that drives the printed report, the JUnit and Markdown files and the exit code.
 *
 * @module
 */
import {
  compareReports,
  ComparisonGateError,
  type ComparisonReport,
  exampleFlips,
  type Flips,
  gateDifferences,
} from "../compare/mod.ts";
import type { Position } from "../config/mod.ts";
import { compareCodePoints, type WithEngine } from "../engine/mod.ts";
import {
  BINARY_METRIC_NAMES,
  type BinaryMetricName,
  type EvaluationReport,
  type ExampleRecord,
  exampleRight,
  type MetricName,
} from "../evaluation/mod.ts";
import { holm, mcnemarExact } from "./mcnemar.ts";
import type { GateCheck, GateRules } from "./rules.ts";

/** The McNemar evidence of one comparative rule on a right-or-wrong metric. */
export interface McNemarEvidence {
  /** Examples right in base and wrong in candidate. */
  regressions: number;
  /** Examples wrong in base and right in candidate. */
  improvements: number;
  /** The exact two-sided p-value. */
  p_value: number;
  /** Holm's adjusted p-value across the gate's rules that have one. */
  holm_p_value: number;
  /** Whether the difference is significant at the gate's alpha after Holm's correction. */
  significant: boolean;
}

/** One rule's verdict. */
export interface RuleVerdict {
  /** The rule in words, e.g. `full_call_exact_match (overall) >= 0.5`. */
  name: string;
  /** The metric. */
  metric: MetricName;
  /** `overall` or a language. */
  slice: string;
  /** The check. */
  check: GateCheck;
  /** Where the rule is in its file. */
  at: Position;
  /** Whether it holds. */
  pass: boolean;
  /** What was measured, in words. */
  message: string;
  /** The examples that make it fail (regressions, or wrong examples for `min`), sorted. */
  failing: string[];
  /** For comparative rules on right-or-wrong metrics: the exact McNemar test. */
  mcnemar?: McNemarEvidence;
}

/** The `assay.gate.v1` verdict. */
export interface GateVerdict {
  /** Always `assay.gate.v1`. */
  schema: "assay.gate.v1";
  /** Whether every rule holds. */
  pass: boolean;
  /** Each rule's verdict, in file order. */
  rules: RuleVerdict[];
  /** The bootstrap settings of the comparison, when there is one. */
  bootstrap: ComparisonReport["bootstrap"] | null;
  /** The family-wise level of Holm's correction. */
  alpha: number;
}

/** The reports a gate reads: one report, or a base and a candidate. */
export type GateInput =
  | { report: EvaluationReport }
  | { base: EvaluationReport; candidate: EvaluationReport };

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(4));

function describe(metric: string, slice: string, check: GateCheck): string {
  const where = `${metric} (${slice})`;
  switch (check.kind) {
    case "min":
      return `${where} >= ${check.min}`;
    case "non_inferior":
      return `${where} non-inferior, margin ${check.margin}`;
    case "superior":
      return `${where} superior`;
    case "max_regressions":
      return `${where} at most ${check.max} regressions`;
  }
}

/**
 * Evaluates a gate. `min` rules read the candidate (or the single report); `non_inferior` and
 * `superior` read the seeded paired-bootstrap interval of candidate − base (through
 * `compareReports`, so the two reports must be comparable); `max_regressions` counts the examples
 * right in base and wrong in candidate. Every comparative rule on a right-or-wrong metric also
 * carries the exact McNemar test of its discordant pairs, Holm-corrected across those rules; it
 * is evidence beside the rule, not part of its pass condition.
 *
 * @param gate The rules.
 * @param input One report, or a base and a candidate over the same examples.
 * @param options The engine that resamples (default: the default engine).
 * @returns The verdict.
 * @throws {RangeError} If a comparative rule is given one report, or a slice is not in the reports.
 * @throws {ComparisonGateError} If the two reports cannot be compared.
 *
 * @example A minimum on one report
 * ```ts
 * import { evaluateGate, parseGateRules } from "@assay/assay/gate";
 * import { scoreToolCalls } from "@assay/assay";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const examples = [
 *   { example_id: "a", language: "en", target: { name: "f", arguments: {} } },
 *   { example_id: "b", language: "en", target: { name: "f", arguments: {} } },
 * ];
 * const report = scoreToolCalls(examples, [
 *   { example_id: "a", output: '{"name":"f","arguments":{}}' },
 *   { example_id: "b", output: "no call" },
 * ]);
 * const gate = parseGateRules("rules:\n  - metric: full_call_exact_match\n    min: 0.75\n", "g.yaml");
 * const verdict = evaluateGate(gate, { report });
 * strictEqual(verdict.pass, false);
 * deepStrictEqual(verdict.rules[0]!.failing, ["b"]);
 * ```
 */
export function evaluateGate(
  gate: GateRules,
  input: GateInput,
  options: WithEngine = {},
): GateVerdict {
  const candidate = "report" in input ? input.report : input.candidate;
  const base = "report" in input ? undefined : input.base;
  const comparative = gate.rules.filter((r) => r.check.kind !== "min");
  if (comparative.length > 0 && base === undefined) {
    throw new RangeError(
      `The rule at line ${comparative[0]!.at.line} compares two runs: give a base and a candidate`,
    );
  }
  for (const rule of gate.rules) {
    if (rule.slice !== "overall" && !candidate.slices.includes(rule.slice)) {
      throw new RangeError(
        `The rule at line ${rule.at.line} names the slice ${JSON.stringify(rule.slice)}, ` +
          `which the report does not have (it has ${candidate.slices.join(", ")})`,
      );
    }
  }
  let flips: ReturnType<typeof exampleFlips> | undefined;
  let comparison: ComparisonReport | undefined;
  if (base !== undefined && comparative.length > 0) {
    // The same refusal as compareReports': the same examples, parser and canonical ids.
    const differences = gateDifferences(base, candidate);
    if (differences.length > 0) throw new ComparisonGateError(differences);
    const position = new Map(candidate.records.map((r, i) => [r.example_id, i]));
    flips = exampleFlips(
      base.records,
      base.records.map((r) => candidate.records[position.get(r.example_id)!]!),
    );
    if (comparative.some((r) => r.check.kind === "non_inferior" || r.check.kind === "superior")) {
      comparison = compareReports(base, candidate, {
        seed: gate.seed,
        resamples: gate.resamples,
        ...(options.engine ? { engine: options.engine } : {}),
      });
    }
  }
  const inSlice = (slice: string) => (r: ExampleRecord) =>
    slice === "overall" || r.language === slice;

  const rules: RuleVerdict[] = gate.rules.map((rule) => {
    const { metric, slice, check } = rule;
    const name = describe(metric, slice, check);
    const binary = (BINARY_METRIC_NAMES as readonly string[]).includes(metric)
      ? metric as BinaryMetricName
      : undefined;
    let pass: boolean;
    let message: string;
    let failing: string[] = [];
    let flipped: { regressions: string[]; improvements: number } | undefined;
    if (flips && binary && check.kind !== "min") {
      const pick = (side: Flips) =>
        slice === "overall" ? side.overall[binary] : side.by_language[slice]![binary];
      flipped = {
        regressions: pick(flips.regressions).ids,
        improvements: pick(flips.improvements).count,
      };
    }
    if (check.kind === "min") {
      const mv = slice === "overall"
        ? candidate.metrics.overall[metric]
        : candidate.metrics.by_language[slice]![metric];
      pass = mv.value >= check.min;
      message = `${fmt(mv.value)} (${mv.numerator}/${mv.denominator}), needs >= ${check.min}`;
      if (!pass && binary) {
        failing = candidate.records.filter((r) => inSlice(slice)(r) && !exampleRight(binary, r))
          .map((r) => r.example_id).sort(compareCodePoints);
      }
    } else if (check.kind === "max_regressions") {
      pass = flipped!.regressions.length <= check.max;
      message =
        `${flipped!.regressions.length} regressions, ${flipped!.improvements} improvements; ` +
        `at most ${check.max} allowed`;
      failing = pass ? [] : flipped!.regressions;
    } else {
      const d = slice === "overall"
        ? comparison!.deltas.overall[metric]
        : comparison!.deltas.by_language[slice]![metric];
      const [lo, hi] = d.ci;
      pass = check.kind === "superior" ? lo > 0 : lo >= -check.margin;
      message =
        `delta ${fmt(d.delta)}, ${Math.round(comparison!.bootstrap.level * 100)}% interval ` +
        `[${fmt(lo)}, ${fmt(hi)}]; needs a lower bound ` +
        (check.kind === "superior" ? "above 0" : `of at least ${-check.margin}`);
      if (!pass && flipped) failing = flipped.regressions;
    }
    const verdict: RuleVerdict = {
      name,
      metric,
      slice,
      check,
      at: rule.at,
      pass,
      message,
      failing,
    };
    if (flipped) {
      const t = mcnemarExact(flipped.regressions.length, flipped.improvements);
      verdict.mcnemar = {
        regressions: t.regressions,
        improvements: t.improvements,
        p_value: t.pValue,
        holm_p_value: t.pValue,
        significant: false,
      };
    }
    return verdict;
  });
  const tested = rules.filter((r) => r.mcnemar !== undefined);
  const corrected = holm(tested.map((r) => r.mcnemar!.p_value), gate.alpha);
  tested.forEach((r, i) => {
    r.mcnemar!.holm_p_value = corrected.adjusted[i]!;
    r.mcnemar!.significant = corrected.reject[i]!;
  });
  return {
    schema: "assay.gate.v1",
    pass: rules.every((r) => r.pass),
    rules,
    bootstrap: comparison?.bootstrap ?? null,
    alpha: gate.alpha,
  };
}
