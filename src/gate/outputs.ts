/**
 * A gate verdict's CI outputs as every command that gates writes them: the JUnit XML, the Markdown
 * summary, and the same Markdown appended to a CI step summary.
 *
 * @module
 */
import { gateJunit } from "./junit.ts";
import { gateMarkdown } from "./markdown.ts";
import type { GateVerdict } from "./verdict.ts";

/**
 * Where a gate's CI outputs go, each when given: `assay gate`'s `--junit` and `--markdown`, and
 * the step summary that CI reads (GitHub's `GITHUB_STEP_SUMMARY`). Every command that gates
 * (`gate`, and `compare`, `suite run` and `calibrate` with `--gate`) writes them through
 * {@linkcode gateOutputs}.
 */
export interface GateOutputPaths {
  /** The JUnit XML file ({@linkcode gateJunit}), written whole. */
  junit?: string | undefined;
  /** The Markdown summary file ({@linkcode gateMarkdown}), written whole. */
  markdown?: string | undefined;
  /** A CI step summary: the same Markdown, appended to what the job's earlier steps wrote. */
  stepSummary?: string | undefined;
}

/** One file of a gate's CI outputs: what to write where, and whether it is appended. */
export interface GateOutput {
  /** Which output it is. */
  output: keyof GateOutputPaths;
  /** The file. */
  path: string;
  /** Its text. */
  text: string;
  /** Whether the text is appended to the file (the step summary) rather than replacing it. */
  append: boolean;
}

/**
 * A verdict's CI outputs, in the order they are written: the JUnit XML, the Markdown summary, and
 * the same Markdown appended to the step summary, each where its path is given.
 *
 * @param verdict The gate's verdict.
 * @param file The rules file, for the JUnit test suite's name and the Markdown's headline.
 * @param paths Where each output goes; an output without a path is not made.
 * @returns The files to write.
 *
 * @example
 * ```ts
 * import { gateMarkdown, gateOutputs } from "@assay/assay/gate";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const verdict = { schema: "assay.gate.v1" as const, pass: true, rules: [], bootstrap: null, alpha: 0.05 };
 * const outputs = gateOutputs(verdict, "gate.yaml", { stepSummary: "summary.md" });
 * deepStrictEqual(outputs, [{
 *   output: "stepSummary",
 *   path: "summary.md",
 *   text: gateMarkdown(verdict, "gate.yaml"),
 *   append: true,
 * }]);
 * ```
 */
export function gateOutputs(
  verdict: GateVerdict,
  file: string,
  paths: GateOutputPaths,
): GateOutput[] {
  const out: GateOutput[] = [];
  // The Markdown is written once, for --markdown and the step summary alike.
  let markdown: string | undefined;
  for (const output of ["junit", "markdown", "stepSummary"] as const) {
    const path = paths[output];
    if (path === undefined) continue;
    const text = output === "junit"
      ? gateJunit(verdict, file)
      : markdown ??= gateMarkdown(verdict, file);
    out.push({ output, path, text, append: output === "stepSummary" });
  }
  return out;
}
