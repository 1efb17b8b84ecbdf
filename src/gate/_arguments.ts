// evaluateGate's arguments, checked before they are read: a gate or input of another shape (from
// a caller's code, not a rules file) is a TypeError that says what was expected, not one thrown
// from inside the verdict (`Cannot use 'in' operator`, `gate.rules.filter is not a function`).

import { checkValueProblem } from "./_check_values.ts";
import type { GateCheck } from "./rules.ts";

const CHECK_KINDS = new Set(["min", "max", "non_inferior", "superior", "max_regressions"]);

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * Checks that `gate` is a gate as `parseGateRules` returns it and `input` is `{ report }` or
 * `{ base, candidate }`.
 *
 * @throws {TypeError} Saying which is not of its shape, and what was expected.
 */
export function checkGateArguments(gate: unknown, input: unknown): void {
  if (!isObject(gate) || !Array.isArray(gate.rules)) {
    throw new TypeError(
      "Expected a gate { rules, seed, resamples, alpha }, as parseGateRules gives",
    );
  }
  gate.rules.forEach((rule: unknown, i) => {
    const ok = isObject(rule) && typeof rule.metric === "string" &&
      typeof rule.slice === "string" && isObject(rule.check) && isObject(rule.at) &&
      CHECK_KINDS.has(rule.check.kind as string);
    if (!ok) {
      throw new TypeError(
        `Expected gate.rules[${i}] to be a rule { metric, slice, check, at }, as parseGateRules ` +
          "gives",
      );
    }
    // A NaN bound gave a verdict (`>= NaN`, failed) where the rules file would be refused.
    const wrong = checkValueProblem(rule.check as GateCheck);
    if (wrong !== undefined) throw new RangeError(`gate.rules[${i}].check: ${wrong}`);
  });
  const report = (k: string) => isObject((input as Record<string, unknown>)[k]);
  if (!isObject(input) || !(report("report") || (report("base") && report("candidate")))) {
    throw new TypeError("Expected the reports as { report } or { base, candidate }, objects");
  }
  // { report, candidate } gated the report alone, in silence: one shape or the other, no more.
  const shape = report("report") ? ["report"] : ["base", "candidate"];
  const extra = Object.keys(input).filter((k) => !shape.includes(k));
  if (extra.length > 0) {
    throw new TypeError(
      `Expected the reports as { report } or { base, candidate }, got { ${shape.join(", ")} } ` +
        `and ${extra.map((k) => JSON.stringify(k)).join(", ")}`,
    );
  }
}
