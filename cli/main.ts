/**
 * The `assay` command line: `deno task assay <command>`.
 *
 * Commands:
 * - `parse`: JSONL with an `output` field in, JSONL of `{status, name, canonical_arguments}` out;
 * - `canonicalize`: one JSON text per line in, its canonical form (or `!error <reason>`) out;
 * - `score`: examples and generations in, the `assay.evaluation.v1` report and a metric table out;
 * - `compare`, `gaps`: paired-bootstrap comparisons of evaluation reports;
 * - `structured`: structured-output, tool and instruction metrics over a JSONL of outputs;
 * - `suite`, `calibrate`: declarative metric suites over agent traces, and judge calibration.
 *
 * Exit codes: 0 on success, 2 on bad usage or bad input, 1 on an internal error.
 *
 * @module
 */
import { InputError, InvariantViolation, UsageError } from "./_errors.ts";
import { runParse } from "./parse.ts";
import { runCanonicalize } from "./canonicalize.ts";
import { runScore } from "./score.ts";
import { runCompare, runGaps } from "./compare.ts";
import { runStructured } from "./structured.ts";
import { runCalibrate, runSuiteCommand } from "./suite.ts";
import { ComparisonGateError } from "../src/comparison.ts";
import { ArmComparisonError } from "../src/arm_comparison.ts";
import { RubricMismatchError } from "../src/judge.ts";

const HELP = `assay — exact scoring for LLM evaluations

Usage: deno task assay <command> [options]

Commands:
  parse          Parse raw model outputs into tool calls (JSONL in, JSONL out)
  canonicalize   Canonicalize one JSON text per line
  score          Score tool-call generations against examples (the five metrics)
  compare        Compare two evaluation reports: paired-bootstrap deltas per slice
  gaps           Language gaps inside one evaluation report
  structured     Structured-output, tool and instruction metrics (JSON, schema, XML, format, ...)
  suite          Metric suites over agent traces: validate, run, scorecard, compare
  calibrate      Check a judge criterion against human labels (kappa, correlations, verdict)

Run 'deno task assay <command> --help' for a command's options.
`;

const COMMANDS: Record<string, (args: string[]) => Promise<void> | void> = {
  parse: runParse,
  canonicalize: runCanonicalize,
  score: runScore,
  compare: runCompare,
  gaps: runGaps,
  structured: runStructured,
  suite: runSuiteCommand,
  calibrate: runCalibrate,
};

/**
 * Runs the CLI and returns its exit code.
 *
 * @param args The command-line arguments, without the program name.
 * @returns 0 on success, 2 on bad usage or input, 1 on an internal error.
 */
export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    console.log(HELP);
    return command === undefined ? 2 : 0;
  }
  const run = COMMANDS[command];
  try {
    if (!run) {
      throw new UsageError(
        `Unknown command "${command}" (commands: ${Object.keys(COMMANDS).join(", ")})`,
      );
    }
    await run(rest);
    return 0;
  } catch (e) {
    if (
      e instanceof UsageError || e instanceof InputError || e instanceof InvariantViolation ||
      e instanceof ComparisonGateError || e instanceof ArmComparisonError ||
      e instanceof RubricMismatchError
    ) {
      console.error(`assay ${command}: ${e.message}`);
      return 2;
    }
    console.error(`assay ${command}: internal error:`, e);
    return 1;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
