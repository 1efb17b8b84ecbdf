/**
 * The verdict of a gate over one report, or over a base and a candidate: one object
 * that drives the printed report, the JUnit and Markdown files and the exit code.
 *
 * @module
 */
import {
  bootstrapPacked,
  ComparisonGateError,
  type ComparisonReport,
  type Coverage,
  gateDifferences,
  packRecords,
} from "../compare/mod.ts";
import type { Position } from "../config/mod.ts";
import { checkOptions, Sfc32, type WithEngine } from "../engine/mod.ts";
import { EVALUATION_SCHEMAS, type EvaluationReport } from "../evaluation/mod.ts";
import {
  type BootstrapSettings,
  bootstrapSettings,
  levelPercent,
  metricValue,
} from "../stats/mod.ts";
import { inputDifferences, settingDifferences, unrecordedInputs } from "../report_check/mod.ts";
import { holm, mcnemarExact } from "./mcnemar.ts";
import { pooledDelta, pooledValue } from "./_pooled_delta.ts";
import { against, flips, paired } from "./_paired.ts";
import { type ExampleShare, type MetricSource, metricSource } from "./sources.ts";
import { checkRulesFit } from "./rule_fit.ts";
import { checkGateArguments } from "./_arguments.ts";
import { onShared, sameKind } from "./_shared.ts";
import { gateUnscoredNote } from "./_unscored.ts";
import {
  beside,
  type Bound,
  bound,
  boundText,
  checkRegressionRules,
  counted,
  describe,
  fmt,
  withinBound,
} from "./_rule_text.ts";
import type { GateCheck, GateRules } from "./rules.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

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
  /**
   * The rule in words, e.g. `full_call_exact_match (overall) >= 0.5`, its metric and slice as
   * `printableText` writes them (`metric` and `slice` keep them exactly).
   */
  name: string;
  /** The metric. */
  metric: string;
  /** `overall` or a language. */
  slice: string;
  /** The check. */
  check: GateCheck;
  /** Where the rule is in its file. */
  at: Position;
  /** Whether it holds. */
  pass: boolean;
  /**
   * What was measured, in words. A number compared with the rule's bound is written with four
   * decimals, or with as many more as keep it on the bound's side where it is (`-0.029932`
   * against a margin of 0.02993), so the words never contradict `pass`.
   */
  message: string;
  /**
   * `min` and `max`: the measured value (the candidate's, or the report's), exactly; null for a
   * statistic that cannot be computed. Absent when nothing was measured (0/0).
   */
  value?: number | null;
  /** `non_inferior` and `superior`: candidate − base, exactly. */
  delta?: number;
  /**
   * `non_inferior` and `superior`: the interval of the delta, as computed (`ci[0]` is what is
   * checked, `ci[1]` for a lower-is-better metric; within 2^-51 of the bound, it is on it).
   */
  ci?: [number, number];
  /**
   * The examples that make it fail (regressions, or wrong examples for `min`, and for `max` on a
   * lower-is-better metric, or goldens with a wrong repeat), in the report's order (the base's, for
   * regressions): the first ten shown first.
   */
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
  /**
   * Present when a BFCL or IFEval report records no input digest (written before they were
   * recorded): their inputs were not compared (see `unrecordedInputs`); or when an evaluation
   * report left out examples that had no generation (its `missing_generations`, `assay score
   * --allow-missing`): the rules read only the scored examples.
   */
  note?: string;
  /**
   * With `on: "intersection"`: the examples gated (both reports hold them) and those each side
   * left out (`base_only`, and the candidate's as `adapter_only`, as `compareReports` names them).
   */
  coverage?: Coverage;
}

/** How {@linkcode evaluateGate} runs. */
export interface GateOptions extends WithEngine {
  /**
   * Which examples a base and a candidate evaluation report are gated on: `all` (the default)
   * requires both to hold the same; `intersection` gates the examples both hold (a partial rerun)
   * and records the coverage in the verdict.
   */
  on?: "all" | "intersection";
}

/**
 * The reports a gate reads, of one kind (see {@linkcode metricSource}): one report, or a base
 * and a candidate.
 */
export type GateInput = { report: object } | { base: object; candidate: object };

/**
 * Evaluates a gate over reports of one kind: evaluation, structured, BFCL, IFEval, suite run or
 * calibration (see {@linkcode metricSource}; each metric is a ratio of sums over its examples, but
 * a calibration's are statistics of the whole report). `min` and `max` rules read the candidate
 * (or the single report); `non_inferior` and `superior` read the seeded
 * paired-bootstrap percentile interval of candidate − base, resampling examples (one sfc32 stream,
 * the rules in order; its upper bound for a lower-is-better metric, `MetricSource.lowerIsBetter`);
 * `max_regressions` counts the examples right in base and wrong in candidate, in the metric's
 * direction. The two reports must hold the same examples (evaluation reports must pass
 * `compareReports`' gate; BFCL and IFEval reports that record their input files' SHA-256 must
 * record the same, see `inputDifferences`). Every comparative rule on a right-or-wrong metric also
 * carries the exact McNemar test of its discordant pairs, Holm-corrected across those rules; it
 * is evidence beside the rule, not part of its pass condition.
 *
 * @param gate The rules.
 * @param input One report, or a base and a candidate over the same examples.
 * @param options The engine that resamples (default: the default engine), and the examples gated
 *   (`on`: `all`, or `intersection` for evaluation reports of a partial rerun).
 * @returns The verdict.
 * @throws {RangeError} If `on` is not `all` or `intersection` (which needs a base and a candidate
 *   evaluation report), or a comparative rule is given one report, or a metric or slice is not
 *   the report's, or the report is of another kind, or a check's value is not one
 *   `parseGateRules` accepts (a bound of NaN, say).
 * @throws {ComparisonGateError} If the two reports cannot be compared (with `on: "intersection"`,
 *   also if they share no example).
 * @throws {TypeError} If the gate is not one `parseGateRules` gives, or the input is not
 *   `{ report }` or `{ base, candidate }`.
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
  options: GateOptions = {},
): GateVerdict {
  checkOptions(options);
  checkOptionNames("evaluateGate", options, { engine: 1, on: 1 });
  checkGateArguments(gate, input);
  // What each side left unscored, as its report has it (on the shared examples, too).
  const unscored = gateUnscoredNote(input);
  const shared = onShared(input, options.on);
  input = shared.input;
  const candidate = metricSource("report" in input ? input.report : input.candidate);
  const base = "report" in input ? undefined : metricSource(input.base);
  const comparative = gate.rules.filter((r) => !ABSOLUTE.has(r.check.kind));
  // Reports of two kinds are refused first: a rule's metric would be blamed on one of them.
  if (base !== undefined && !sameKind(base.kind, candidate.kind)) {
    const detail = `the reports are ${base.kind} and ${candidate.kind}`;
    throw new ComparisonGateError([{
      kind: "schema",
      detail,
      values: [base.kind, candidate.kind],
    }]);
  }
  let note = unscored;
  // Then two reports that are not of one run's examples, before the rules are fitted to the
  // candidate: a partial candidate's missing slice was blamed on the rule that names it.
  if (base !== undefined) {
    const b = "base" in input ? input.base : undefined;
    const c = "candidate" in input ? input.candidate : undefined;
    // Evaluation reports: compareReports' refusal (examples and gold, slices, parser and ids);
    // BFCL and IFEval reports: their input files' digests, where both record them.
    const differences = (EVALUATION_SCHEMAS as readonly string[]).includes(base.kind)
      ? gateDifferences(b as EvaluationReport, c as EvaluationReport, ARMS, !!shared.coverage)
      : [...settingDifferences(b, c, ARMS), ...inputDifferences(b, c, ARMS)];
    if (differences.length > 0) throw new ComparisonGateError(differences);
    note ??= unrecordedInputs(b, c, ARMS);
  }
  checkRulesFit(gate, { ...candidate, statistic: candidate.statistic !== undefined }, !!base);
  checkRegressionRules(gate.rules, candidate);
  const rng = new Sfc32(gate.seed);
  const settings = bootstrapSettings({ seed: gate.seed, resamples: gate.resamples });
  const rules = gate.rules.map((rule) =>
    ruleVerdict(rule, candidate, base, rng, settings, options)
  );
  const tested = rules.filter((r) => r.mcnemar !== undefined);
  const corrected = holm(tested.map((r) => r.mcnemar!.p_value), gate.alpha);
  tested.forEach((r, i) => {
    r.mcnemar!.holm_p_value = corrected.adjusted[i]!;
    r.mcnemar!.significant = corrected.reject[i]!;
  });
  const bootstrapped = comparative.some((r) => r.check.kind !== "max_regressions");
  return {
    schema: "assay.gate.v1",
    pass: rules.every((r) => r.pass),
    rules,
    bootstrap: bootstrapped ? { ...settings, streams: "one stream: the rules in order" } : null,
    alpha: gate.alpha,
    ...(note === undefined ? {} : { note }),
    ...(shared.coverage && { coverage: shared.coverage }),
  };
}

/** The arms of a gate over two reports, as its messages name them. */
const ARMS = ["base", "candidate"] as const;
const ABSOLUTE = new Set(["min", "max"]);

function ruleVerdict(
  rule: GateRules["rules"][number],
  candidate: MetricSource,
  base: MetricSource | undefined,
  rng: Sfc32,
  settings: BootstrapSettings,
  options: WithEngine,
): RuleVerdict {
  const { metric, slice, check } = rule;
  if (candidate.statistic !== undefined) {
    return statisticVerdict(rule, candidate.statistic(metric));
  }
  const binary = candidate.binary(metric);
  const lower = candidate.lowerIsBetter(metric);
  const now = candidate.shares(metric, slice);
  // Units that pool scores (a suite run's) are summed exactly, as the scorecard sums them.
  const total = (xs: ExampleShare[]) =>
    xs.some((x) => x.values)
      ? pooledValue(xs)
      : metricValue(xs.reduce((s, x) => s + x.num, 0), xs.reduce((s, x) => s + x.den, 0));
  let pass: boolean;
  let message: string;
  let failing: string[] = [];
  let flipped: { regressions: string[]; improvements: number } | undefined;
  let before: ExampleShare[] = [];
  let measured: Pick<RuleVerdict, "value" | "delta" | "ci"> = {};
  if (base !== undefined && !ABSOLUTE.has(check.kind)) {
    before = base.shares(metric, slice);
    const aligned = paired(before, now, rule.at.line);
    if (binary) flipped = flips(before, aligned, lower);
    // Element by element: spread into splice's arguments, 125,000 examples overflowed the stack.
    aligned.forEach((x, i) => now[i] = x);
  }
  const empty = (xs: ExampleShare[]) => xs.every((x) => x.den === 0);
  if (check.kind !== "max_regressions" && (empty(now) || (before.length > 0 && empty(before)))) {
    // Nothing counts (a metric that applies nowhere, a judge that never ran): never a pass.
    const side = empty(now) ? (base === undefined ? "the report" : "the candidate") : "the base";
    return ruleResult(rule, false, `nothing to measure in ${side} (0/0)`, []);
  }
  if (check.kind === "min" || check.kind === "max") {
    const mv = total(now);
    pass = withinBound(check, mv.value);
    measured = { value: mv.value };
    message = `${beside(mv.value, bound(check))} (${mv.numerator}/${mv.denominator}), ` +
      `needs ${boundText(check)}`;
    // The units against the metric, when the rule bounds its worse side (min, or max for a
    // lower-is-better metric); also a suite run's goldens whose repeats are each right or wrong:
    // those with a wrong one.
    const each = binary || now.every((x) => x.values?.every((v) => v === 0 || v === 1));
    if (!pass && each && check.kind === (lower ? "max" : "min")) {
      failing = now.filter(against(lower)).map((x) => x.id);
    }
  } else if (check.kind === "max_regressions") {
    pass = flipped!.regressions.length <= check.max;
    message = `${counted(flipped!.regressions.length, "regression")}, ` +
      `${counted(flipped!.improvements, "improvement")}; at most ${check.max} allowed`;
    failing = pass ? [] : flipped!.regressions;
  } else {
    // Whole counts go to the engine's resampling kernel; fractional scores (a suite run's
    // overall_score, a graded metric) to the same bootstrap with exact pooled sums.
    const whole = [...before, ...now].every((x) =>
      Number.isInteger(x.num) && Number.isInteger(x.den)
    );
    // The ratio Σnum/Σden, resampled over examples: argument_f1's pooled 2·Σmatched /
    // (Σpredicted + Σgold) with matched = num and predicted = gold = den.
    const pack = (xs: ExampleShare[]) =>
      packRecords(xs.map((x) => ({
        status: "ok",
        name_match: true,
        arguments_match: true,
        matched_pairs: x.num,
        predicted_pairs: x.den,
        gold_pairs: x.den,
      })));
    const rows = Int32Array.from(now, (_, i) => i);
    const { resamples, level } = settings;
    const d = whole
      ? bootstrapPacked(pack(before), rows, pack(now), rows, rng, resamples, level, options.engine)
        .argument_f1
      : pooledDelta(before, now, rng, resamples, level);
    const [lo, hi] = d.ci;
    // A lower-is-better metric improves downwards: its upper bound is checked, against +margin.
    const margin = check.kind === "superior" ? 0 : lower ? check.margin : -check.margin;
    const checked = lower ? hi : lo;
    // The deltas are differences of ratios rounded apart (17/20 − 20/20 is −0.15000000000000002),
    // so a bound exactly on the margin came out on either side of it by the levels it was at:
    // within 2^-51 (above that rounding, far below any gap to a bound it is not on) it is on it.
    const at = Math.abs(checked - margin) <= 2 ** -51 ? margin : checked;
    pass = check.kind === "superior"
      ? (lower ? at < 0 : at > 0)
      : lower
      ? at <= margin
      : at >= margin;
    measured = { delta: d.delta, ci: [lo, hi] };
    message = `delta ${fmt(d.delta)}, ${levelPercent(settings.level)} interval ` +
      (lower ? `[${fmt(lo)}, ${beside(at, margin)}]` : `[${beside(at, margin)}, ${fmt(hi)}]`) +
      `; needs ${lower ? "an upper" : "a lower"} bound ` +
      (check.kind === "superior"
        ? (lower ? "below 0" : "above 0")
        : `of ${lower ? "at most" : "at least"} ${margin}`) +
      (lower ? " (lower is better)" : "");
    if (!pass && flipped) failing = flipped.regressions;
  }
  const verdict = { ...ruleResult(rule, pass, message, failing), ...measured };
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
}

/** A `min` or `max` rule on a statistic of a whole report; one that cannot be computed fails. */
function statisticVerdict(rule: GateRules["rules"][number], value: number | null): RuleVerdict {
  const check = rule.check as Bound; // evaluateGate refuses the other checks on statistics
  const pass = value !== null && withinBound(check, value);
  const measured = value === null ? "cannot be computed" : beside(value, bound(check));
  return { ...ruleResult(rule, pass, `${measured}, needs ${boundText(check)}`, []), value };
}

function ruleResult(
  rule: GateRules["rules"][number],
  pass: boolean,
  message: string,
  failing: string[],
): RuleVerdict {
  const { metric, slice, check, at } = rule;
  return { name: describe(metric, slice, check), metric, slice, check, at, pass, message, failing };
}
