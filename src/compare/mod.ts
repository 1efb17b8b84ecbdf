/**
 * Comparisons of evaluation reports: adapter − base with seeded paired-bootstrap intervals, behind
 * a gate that refuses apples-to-oranges comparisons (CONTRACT §6), and language gaps inside one
 * report (CONTRACT §7).
 *
 * @example Constant scores give a degenerate interval
 * ```ts
 * import { pairedBootstrap } from "@assay/assay/compare";
 * import type { ExampleRecord } from "@assay/assay/evaluation";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const rec = (ok: boolean): ExampleRecord => ({
 *   example_id: "x", language: "en", root_id: null, status: ok ? "ok" : "no_json",
 *   name_match: ok, arguments_match: ok, matched_pairs: ok ? 1 : 0, predicted_pairs: ok ? 1 : 0, gold_pairs: 1,
 * });
 * const r = pairedBootstrap([rec(false)], [rec(true)], { seed: 1, resamples: 100 });
 * assertEquals(r.valid_json_rate.ci, [1, 1]);
 * ```
 *
 * @module
 */
export * from "./paired_bootstrap.ts";
export * from "./comparison.ts";
export * from "./gaps.ts";
export * from "./flips.ts";
export * from "./intersection.ts";
