// A gate's CI outputs as every command that gates takes them (`gate`, and `compare`, `suite run`
// and `calibrate` with --gate): the --junit and --markdown flags, their help, and the checks of
// their paths and of GITHUB_STEP_SUMMARY's before any work. What they hold is the library's
// (`gateOutputs` in src/gate); cli/gate.ts writes them. This file loads no gate code, so that a
// command loads the gate's module (and its YAML reader) only with --gate.
import type { GateOutputPaths } from "../src/gate/mod.ts";
import {
  checkAppend,
  checkDistinct,
  checkPaths,
  linesKind,
  type OutputArgument,
  type PathArgument,
} from "./_paths.ts";
import { UsageError } from "./_errors.ts";

/** The flags of a gate's CI outputs, for parseOptions. */
export const GATE_OUTPUT_FLAGS = {
  junit: { type: "string" },
  markdown: { type: "string" },
} as const;

const JUNIT = linesKind("a JUnit XML file of assay gate", (line) => line.startsWith("<?xml"));
const MARKDOWN = linesKind("an assay gate summary", (line) => line.startsWith("### assay gate"));

/** The variable that names GitHub's step summary, a file each step of a job appends to. */
export const STEP_SUMMARY = "GITHUB_STEP_SUMMARY";

/**
 * The file named by GITHUB_STEP_SUMMARY, when the variable is set, not empty, and may be read
 * (never a permission prompt).
 */
function stepSummary(): string | undefined {
  if (Deno.permissions.querySync({ name: "env", variable: STEP_SUMMARY }).state !== "granted") {
    return undefined;
  }
  return Deno.env.get(STEP_SUMMARY) || undefined;
}

/**
 * The help of --junit and --markdown, their descriptions at `column`; `gated` for a command whose
 * gate is its --gate option.
 */
export function gateOutputsHelp(column: number, gated: boolean): string {
  const also = gated ? "with --gate, also write its verdict" : "also write the verdict";
  const item = (flag: string, ...lines: string[]) =>
    `  ${flag}`.padEnd(column) + lines.join(`\n${" ".repeat(column)}`) + "\n";
  return item(
    "--junit FILE",
    `${also} as JUnit XML: one test case per`,
    "rule, failing examples inside",
  ) + item(
    "--markdown FILE",
    `${also} as a Markdown summary (an existing`,
    "FILE of either must be one, or empty, unless --force). With",
    `${STEP_SUMMARY} set, that summary is appended to its file too,`,
    "with or without --markdown (checked up front: never an input or an",
    "output, and its folder must exist)",
  );
}

/** What a command's gate writes: its rules file (when it has one), --junit and --markdown. */
export interface GateOutputValues {
  /** The rules file of --gate; undefined when the command does not gate. */
  gate?: string | undefined;
  junit?: string | undefined;
  markdown?: string | undefined;
  force?: boolean | undefined;
}

/**
 * A command's path checks (checkPaths) before any work, with the gate's CI outputs among its
 * outputs: --junit and --markdown are outputs of their kinds, and need --gate; with --gate,
 * GITHUB_STEP_SUMMARY's file must take an append and be no input nor other output.
 *
 * @returns Where the gate's outputs go (none without --gate), and those outputs as the path
 *   checks name them, for a later check against a file the command opens (a metric store).
 * @throws {UsageError} For --junit or --markdown without --gate, or an output that may not be
 *   written, naming its flag (or the variable) and path.
 * @throws {InputError} For an input that cannot be read.
 */
export function checkGatePaths(
  inputs: readonly PathArgument[],
  outputs: readonly OutputArgument[],
  values: GateOutputValues,
): { paths: GateOutputPaths; outputs: OutputArgument[] } {
  const gated: OutputArgument[] = [
    { flag: "--junit", path: values.junit, kind: JUNIT },
    { flag: "--markdown", path: values.markdown, kind: MARKDOWN },
  ];
  for (const { flag, path } of gated) {
    if (path !== undefined && values.gate === undefined) {
      throw new UsageError(`${flag} writes the verdict of --gate: give --gate RULES`);
    }
  }
  const all = [...outputs, ...gated];
  checkPaths(inputs, all, { force: values.force });
  const summary = values.gate === undefined ? undefined : stepSummary();
  if (summary !== undefined) {
    // Appended to, never replaced: no kind to check, but never an input nor another output.
    const appended = { flag: STEP_SUMMARY, path: summary, kind: MARKDOWN };
    checkDistinct(inputs, [...all, appended]);
    checkAppend(STEP_SUMMARY, summary);
    gated.push(appended);
  }
  return {
    paths: { junit: values.junit, markdown: values.markdown, stepSummary: summary },
    outputs: gated.filter((o) => o.path !== undefined),
  };
}
