/**
 * A linear-time full-match regex engine for ECMAScript patterns (Thompson's construction and a
 * state-set simulation, no backtracking), so a verdict never takes exponential time.
 *
 * @example
 * ```ts
 * import { LinearRegex } from "@assay/assay/structured";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(new LinearRegex("(a|aa)+").fullMatch("aaaa"), true);
 * ```
 *
 * @module
 */
export * from "./linear_regex.ts";
