/**
 * Two models' IFEval reports compared on the same prompts, keyed by the prompt `key`: the
 * prompt-level and instruction-level accuracies, strict and loose, with the seeded paired
 * bootstrap of the compare room (prompts are resampled; each brings all its instructions).
 *
 * @module
 */
import {
  bootstrapPacked,
  ComparisonGateError,
  type CountedFields,
  type GateDifference,
  packRecords,
} from "../compare/mod.ts";
import { Sfc32 } from "../engine/mod.ts";
import {
  checkReportBody,
  inputDifferences,
  settingDifferences,
  unrecordedInputs,
} from "../report_check/mod.ts";
import {
  type BootstrapOptions,
  type BootstrapSettings,
  bootstrapSettings,
  type MetricValue,
  metricValue,
} from "../stats/mod.ts";
import type { IfevalReport } from "./report.ts";

/** One accuracy of both models, the difference and its interval. */
export interface IfevalDelta {
  /** Model A's accuracy. */
  a: MetricValue;
  /** Model B's accuracy. */
  b: MetricValue;
  /** `b.value − a.value`. */
  delta: number;
  /** The percentile interval of the delta. */
  ci: [number, number];
}

/** The `assay.ifeval.comparison.v1` report. */
export interface IfevalComparison {
  /** Always `assay.ifeval.comparison.v1`. */
  schema: "assay.ifeval.comparison.v1";
  /** The checker version both reports share. */
  checker: string;
  /** How the intervals were made. */
  bootstrap: BootstrapSettings & { streams: string };
  /** Prompts compared. */
  n: number;
  /** Per mode: prompt-level (every instruction followed) and instruction-level accuracy. */
  strict: { prompt: IfevalDelta; instruction: IfevalDelta };
  /** The same, loose. */
  loose: { prompt: IfevalDelta; instruction: IfevalDelta };
  /** Present when a report records no input digest, so the inputs were not compared: why. */
  note?: string;
}

const SHOWN = 5;

/** The first keys, in order, and how many there are when that is not all. */
function listed(keys: readonly number[]): string {
  const sorted = [...keys].sort((x, y) => x - y);
  const shown = sorted.slice(0, SHOWN).join(", ");
  return keys.length > SHOWN ? `${shown}, … (${keys.length} in all)` : shown;
}

/**
 * A prompt as a record the paired bootstrap reads: `full_call_exact_match` is whether every
 * instruction was followed, and `argument_f1`'s pooled ratio 2·Σmatched / (Σpredicted + Σgold)
 * is Σfollowed / Σinstructions when matched = followed and predicted = gold = instructions.
 */
function asRecord(follows: readonly boolean[]): CountedFields {
  const followed = follows.filter((x) => x).length;
  const all = followed === follows.length;
  return {
    status: "ok",
    name_match: all,
    arguments_match: true,
    matched_pairs: followed,
    predicted_pairs: follows.length,
    gold_pairs: follows.length,
  };
}

/**
 * Compares two IFEval reports over the same prompts: B − A for the prompt-level and
 * instruction-level accuracies, strict then loose, with seeded paired-bootstrap percentile
 * intervals from one sfc32 stream (strict first, then loose).
 *
 * @param a Model A's `assay.ifeval.v1` report.
 * @param b Model B's report, over the same prompts and instructions.
 * @param options Seed (default 0), resamples (default 10,000), level (default 0.95), engine.
 * @returns The comparison.
 * @throws {ComparisonGateError} If the reports differ in checker, prompt keys, a prompt's
 *   instructions, or their input files (the SHA-256 each records: the prompts' kwargs live
 *   there), or a report gives a key to two prompts. A report without a digest (written before
 *   2026-12-05) is compared, and the comparison's `note` says so.
 * @throws {RangeError} If a report is not what an `assay.ifeval.v1` report holds, its prompts
 *   or any other field (`checkReportBody`).
 *
 * @example
 * ```ts
 * import { compareIfevalReports, type IfevalReport } from "@assay/assay/ifeval";
 * import { strictEqual } from "node:assert/strict";
 *
 * // The report's own scores, which the comparison does not read (it pairs the prompts).
 * const none = { value: 0, numerator: 0, denominator: 0 };
 * const scores = { prompt_level: none, instruction_level: none, by_instruction: {}, by_category: {} };
 * const report = (follows: boolean[]): IfevalReport => ({
 *   schema: "assay.ifeval.v1", checker: "ifeval@google-3f357bde", strict: scores, loose: scores,
 *   prompts: follows.map((f, key) => ({
 *     key, instruction_id_list: ["punctuation:no_comma"], strict: [f], loose: [f],
 *   })),
 * });
 * const c = compareIfevalReports(report([true, false]), report([true, true]), { resamples: 100 });
 * strictEqual(c.strict.prompt.delta, 0.5);
 * ```
 */
export function compareIfevalReports(
  a: IfevalReport,
  b: IfevalReport,
  options: BootstrapOptions = {},
): IfevalComparison {
  const settings = bootstrapSettings(options);
  checkReportBody(a);
  checkReportBody(b);
  const differences: GateDifference[] = settingDifferences(a, b);
  // Prompts are paired by key: a key given twice would pair the wrong prompts.
  for (const [side, r] of [["A", a], ["B", b]] as const) {
    const seen = new Set<number>();
    const repeated = new Set<number>();
    for (const p of r.prompts) (seen.has(p.key) ? repeated : seen).add(p.key);
    if (repeated.size > 0) {
      differences.push({
        kind: "inconsistent_report",
        detail: `the ${side} report repeats prompts (keys ${listed([...repeated])})`,
      });
    }
  }
  if (differences.length > 0) throw new ComparisonGateError(differences);
  const byKey = new Map(b.prompts.map((p) => [p.key, p]));
  const aKeys = new Set(a.prompts.map((p) => p.key));
  const onlyA = a.prompts.filter((p) => !byKey.has(p.key)).map((p) => p.key);
  const onlyB = b.prompts.filter((p) => !aKeys.has(p.key)).map((p) => p.key);
  const reworded = a.prompts.filter((p) => {
    const q = byKey.get(p.key);
    return q && q.instruction_id_list.join("\n") !== p.instruction_id_list.join("\n");
  }).map((p) => p.key);
  const parts: string[] = [];
  const part = (keys: number[], what: string) =>
    keys.length > 0 && parts.push(`${keys.length} ${what} (keys ${listed(keys)})`);
  part(onlyA, "only in A");
  part(onlyB, "only in B");
  part(reworded, "with other instructions in B");
  if (parts.length > 0) {
    differences.push({
      kind: "example_ids",
      detail: `the reports' prompts differ: ${parts.join(", ")}`,
    });
  }
  differences.push(...inputDifferences(a, b));
  if (differences.length > 0) throw new ComparisonGateError(differences);
  const note = unrecordedInputs(a, b);
  const rng = new Sfc32(settings.seed);
  const rows = Int32Array.from(a.prompts, (_, i) => i);
  const mode = (m: "strict" | "loose") => {
    const pa = packRecords(a.prompts.map((p) => asRecord(p[m])));
    const pb = packRecords(a.prompts.map((p) => asRecord(byKey.get(p.key)![m])));
    const d = bootstrapPacked(
      pa,
      rows,
      pb,
      rows,
      rng,
      settings.resamples,
      settings.level,
      options.engine,
    );
    const as = (x: (typeof d)["argument_f1"]): IfevalDelta => ({
      a: x.base,
      b: x.adapter,
      delta: x.delta,
      ci: x.ci,
    });
    // argument_f1's pooled counts are twice the instructions': report the instructions'.
    const half = (v: MetricValue) => metricValue(v.numerator / 2, v.denominator / 2);
    const instruction = as(d.argument_f1);
    return {
      prompt: as(d.full_call_exact_match),
      instruction: { ...instruction, a: half(instruction.a), b: half(instruction.b) },
    };
  };
  const strict = mode("strict");
  const loose = mode("loose");
  return {
    schema: "assay.ifeval.comparison.v1",
    checker: a.checker,
    bootstrap: { ...settings, streams: "one stream: strict, then loose" },
    n: a.prompts.length,
    strict,
    loose,
    ...(note === undefined ? {} : { note }),
  };
}
