// How a gate's rules and measurements are written in its verdict: the rule in words, and numbers
// never written so as to contradict the verdict they explain.
import { printableText } from "../explain/text/mod.ts";
import type { GateCheck, GateRule, RulePlaces } from "./rules.ts";
import type { RuleVerdict } from "./verdict.ts";

/** A count and its noun, singular for one: `1 regression`, `2 regressions`, `0 rules`. */
export const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** How many of a verdict's rules hold: `1 of 1 rule holds`, `2 of 3 rules hold`. */
export const heldText = (held: number, rules: number) =>
  `${held} of ${rules} ${rules === 1 ? "rule holds" : "rules hold"}`;

/** A number with four decimals, an integer as it is. */
export const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(4));

/**
 * `x` as {@linkcode fmt} writes it, or with as many more decimals as put the printed number on the
 * same side of `bound` as `x` (or on it, when `x` is), so that a message never contradicts its
 * verdict: -0.029932 against -0.02993 is not written -0.0299.
 */
export function beside(x: number, bound: number): string {
  const side = Math.sign(x - bound);
  let digits = 4;
  while (
    !Number.isInteger(x) && digits < 100 && Math.sign(Number(x.toFixed(digits)) - bound) !== side
  ) digits++;
  return Number.isInteger(x) ? String(x) : x.toFixed(digits);
}

/**
 * A rule in a message about one of its values: `The rule at line 12 (its metric at line 14,
 * column 13)`, the value's place when the rule was read from a file.
 */
export function ruleAt(rule: GateRule, value: keyof RulePlaces): string {
  const p = rule.places?.[value];
  return `The rule at line ${rule.at.line}` +
    (p ? ` (its ${value} at line ${p.line}, column ${p.column})` : "");
}

/**
 * Refuses a `max_regressions` rule on a metric that is not right-or-wrong in this report (known
 * only from its scores, so after `checkRulesFit`).
 *
 * @throws {RangeError} Naming the first such rule, and its check's place.
 */
export function checkRegressionRules(
  rules: readonly GateRule[],
  report: { kind: string; binary: (metric: string) => boolean },
): void {
  const rule = rules.find((r) => r.check.kind === "max_regressions" && !report.binary(r.metric));
  if (rule === undefined) return;
  throw new RangeError(
    `${ruleAt(rule, "check")}: max_regressions needs a right-or-wrong metric, one outcome of 0 ` +
      `or 1 per example, and an ${report.kind} report's ${rule.metric} is not one` +
      (report.kind === "assay.suite_run.v1" ? " (a golden's repeats are pooled)" : ""),
  );
}

/** The rule in words: `full_call_exact_match (overall) >= 0.5`. */
export function describe(metric: string, slice: string, check: GateCheck): string {
  const where = `${printableText(metric)} (${printableText(slice)})`;
  switch (check.kind) {
    case "min":
    case "max":
      return `${where} ${boundText(check)}`;
    case "non_inferior":
      return `${where} non-inferior, margin ${check.margin}`;
    case "superior":
      return `${where} superior`;
    case "max_regressions":
      return `${where} at most ${counted(check.max, "regression")}`;
  }
}

/** A `min` or `max` check. */
export type Bound = Extract<GateCheck, { kind: "min" | "max" }>;

/** Whether `value` is within a `min` or `max` bound. */
export const withinBound = (check: Bound, value: number) =>
  check.kind === "min" ? value >= check.min : value <= check.max;

/** The bound of a `min` or `max` rule. */
export const bound = (check: Bound) => check.kind === "min" ? check.min : check.max;

/** The bound in words: `>= 0.5`, `<= 0.2`. */
export const boundText = (check: Bound) =>
  check.kind === "min" ? `>= ${check.min}` : `<= ${check.max}`;

/** A rule's McNemar evidence in words, empty without one (JUnit's failure and the Markdown). */
export function mcnemarText(rule: RuleVerdict): string {
  const m = rule.mcnemar;
  if (!m) return "";
  return `McNemar: ${counted(m.regressions, "regression")}, ` +
    `${counted(m.improvements, "improvement")}, ` +
    `p = ${m.p_value.toPrecision(4)}, Holm p = ${m.holm_p_value.toPrecision(4)}` +
    (m.significant ? " (significant)" : "");
}
