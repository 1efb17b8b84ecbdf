/**
 * The `assay.ifeval.v1` report: prompt-level and instruction-level accuracy of the strict and
 * loose evaluations as MetricValues, broken down by instruction id and by category (the id's part
 * before the colon), with each prompt's verdicts.
 *
 * @module
 */
import { type MetricValue, metricValue } from "../stats/mod.ts";
import { constraintSatisfactionRate, instructionComplianceRate } from "../structured/mod.ts";
import { IFEVAL_VERSION } from "./checkers.ts";
import type { IfevalResult } from "./evaluate.ts";
import type { IfevalRun } from "./files.ts";
import { type DigestedSource, digestSource, type FileDigest } from "../report_check/mod.ts";

/** The files a run read, as their SHA-256 digests. */
export interface IfevalInputDigests {
  /** The input file's (the prompts, their instructions and kwargs): compared by `compare`. */
  input: FileDigest;
  /** The responses file's (what the two models of a comparison differ in). */
  responses: FileDigest;
}

/**
 * The digests of a run's files, for {@linkcode ifevalReport}, so that
 * {@linkcode compareIfevalReports} can refuse two reports scored against different inputs. The
 * SHA-256 of each file's bytes (or its text's UTF-8, when the bytes are not given), by Web Crypto
 * where the runtime has it, as the evaluation room digests its files.
 *
 * @param files The files given to {@linkcode runIfeval}, with their bytes when known.
 * @returns Their digests.
 * @throws {never} Never.
 *
 * @example
 * ```ts
 * import { digestIfevalInputs } from "@assay/assay/ifeval";
 * import { strictEqual } from "node:assert/strict";
 *
 * const d = await digestIfevalInputs({ input: { text: "abc" }, responses: { text: "" } });
 * strictEqual(d.input.sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
 * ```
 */
export async function digestIfevalInputs(
  files: { input: DigestedSource; responses: DigestedSource },
): Promise<IfevalInputDigests> {
  return { input: await digestSource(files.input), responses: await digestSource(files.responses) };
}

/** One evaluation's accuracies. */
export interface IfevalScores {
  /** Prompts whose every instruction is followed, over prompts. */
  prompt_level: MetricValue;
  /** Instructions followed, over instructions. */
  instruction_level: MetricValue;
  /** Instruction-level accuracy per instruction id, ids sorted. */
  by_instruction: Record<string, MetricValue>;
  /** Instruction-level accuracy per category (`keywords`, `detectable_format`, ...), sorted. */
  by_category: Record<string, MetricValue>;
}

/** The `assay.ifeval.v1` report. */
export interface IfevalReport {
  /** `"assay.ifeval.v1"`. */
  schema: "assay.ifeval.v1";
  /** The checker semantics, {@linkcode IFEVAL_VERSION}. */
  checker: string;
  /**
   * The digests of the files the run read; absent in a report written before 2026-12-05, or
   * built without them.
   */
  inputs?: IfevalInputDigests;
  /** The strict evaluation. */
  strict: IfevalScores;
  /** The loose evaluation. */
  loose: IfevalScores;
  /** Each prompt's key and verdicts, in input order. */
  prompts: { key: number; instruction_id_list: string[]; strict: boolean[]; loose: boolean[] }[];
}

function breakdown(results: readonly IfevalResult[], keyOf: (id: string) => string) {
  const counts = new Map<string, [number, number]>();
  for (const r of results) {
    r.instruction_id_list.forEach((id, i) => {
      const k = keyOf(id);
      const c = counts.get(k) ?? [0, 0];
      if (r.follow_instruction_list[i]) c[0]++;
      c[1]++;
      counts.set(k, c);
    });
  }
  const out: Record<string, MetricValue> = {};
  for (const k of [...counts.keys()].sort()) out[k] = metricValue(...counts.get(k)!);
  return out;
}

/**
 * One evaluation's accuracies, as IFEval's `print_report` computes them (prompt level, instruction
 * level, per category and per instruction id).
 *
 * @param results The evaluation's results; prompts without instructions count as followed.
 * @returns The scores.
 * @throws {TypeError} Never for results.
 * @example Two prompts
 * ```ts
 * import { ifevalScores } from "@assay/assay/ifeval";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const row = (list: boolean[]) => ({
 *   instruction_id_list: ["punctuation:no_comma", "keywords:existence"].slice(0, list.length),
 *   prompt: "p", response: "r", follow_all_instructions: list.every((x) => x),
 *   follow_instruction_list: list,
 * });
 * const s = ifevalScores([row([true, false]), row([true])]);
 * deepStrictEqual(s.prompt_level, { value: 0.5, numerator: 1, denominator: 2 });
 * deepStrictEqual(s.instruction_level, { value: 2 / 3, numerator: 2, denominator: 3 });
 * deepStrictEqual(s.by_category.keywords, { value: 0, numerator: 0, denominator: 1 });
 * ```
 */
export function ifevalScores(results: readonly IfevalResult[]): IfevalScores {
  const withChecks = results.filter((r) => r.follow_instruction_list.length > 0);
  const vacuous = results.length - withChecks.length;
  const lists = withChecks.map((r) => r.follow_instruction_list);
  const compliant = lists.length ? instructionComplianceRate(lists).numerator : 0;
  const instruction = lists.length ? constraintSatisfactionRate(lists) : metricValue(0, 0);
  return {
    // all([]) is True upstream: a prompt without instructions is followed.
    prompt_level: metricValue(compliant + vacuous, results.length),
    instruction_level: metricValue(instruction.numerator, instruction.denominator),
    by_instruction: breakdown(results, (id) => id),
    by_category: breakdown(results, (id) => id.split(":")[0]!),
  };
}

/**
 * The `assay.ifeval.v1` report of a run.
 *
 * @param run The run, from {@linkcode runIfeval}.
 * @param inputs The digests of its files ({@linkcode digestIfevalInputs}), to record.
 * @returns The report.
 * @throws {TypeError} Never for a run.
 * @example Strict and loose prompt-level accuracy
 * ```ts
 * import { ifevalReport, runIfeval } from "@assay/assay/ifeval";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const run = runIfeval({
 *   input: {
 *     name: "input.jsonl",
 *     text: '{"key": 1, "prompt": "P", "instruction_id_list": ["startend:quotation"], "kwargs": [{}]}\n',
 *   },
 *   responses: { name: "r.jsonl", text: '{"prompt": "P", "response": "Sure:\\n\\"hi\\""}\n' },
 * });
 * const report = ifevalReport(run);
 * deepStrictEqual(report.strict.prompt_level, { value: 0, numerator: 0, denominator: 1 });
 * deepStrictEqual(report.loose.prompt_level, { value: 1, numerator: 1, denominator: 1 });
 * ```
 */
export function ifevalReport(run: IfevalRun, inputs?: IfevalInputDigests): IfevalReport {
  return {
    schema: "assay.ifeval.v1",
    checker: IFEVAL_VERSION,
    ...(inputs ? { inputs } : {}),
    strict: ifevalScores(run.strict),
    loose: ifevalScores(run.loose),
    prompts: run.inputs.map((row, i) => ({
      key: row.key,
      instruction_id_list: row.instruction_id_list,
      strict: run.strict[i]!.follow_instruction_list,
      loose: run.loose[i]!.follow_instruction_list,
    })),
  };
}
