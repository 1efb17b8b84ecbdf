// The values a gate's checks may hold, one rule for parseGateRules (rules.ts), which reads them
// from a rules file, and evaluateGate (_arguments.ts), which is given a gate built by hand.
import type { GateCheck } from "./rules.ts";

const unit = (v: unknown) => typeof v === "number" && v >= 0 && v <= 1;

/**
 * What is wrong with a check's value, if anything, as parseGateRules words it: a bound or margin
 * that is not a number in [0, 1] (NaN included), a count that is not a whole number of at least 0.
 * A gate built by hand is held to it too (evaluateGate).
 */
export function checkValueProblem(check: GateCheck): string | undefined {
  switch (check.kind) {
    case "min":
      return unit(check.min) ? undefined : "min must be a number in [0, 1]";
    case "max":
      return unit(check.max) ? undefined : "max must be a number in [0, 1]";
    case "non_inferior":
      return unit(check.margin) ? undefined : "non_inferior must be { margin: m } with m in [0, 1]";
    case "max_regressions":
      return Number.isSafeInteger(check.max) && check.max >= 0
        ? undefined
        : "max_regressions must be a whole number of at least 0";
    case "superior":
      return undefined;
  }
}
