/**
 * Exact pooled means and the bootstrap clustered by unit, for the suite's scorecard and arm
 * comparisons and the gate's comparative rules on fractional scores. Outside the root, whose
 * budget is spent; `suite` and `gate` import it.
 *
 * @module
 */
export * from "./pooled.ts";
