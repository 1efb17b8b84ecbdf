// `assay gate`: checks reports against a rules file and exits 3 when a rule fails.
import {
  checkRulesFit,
  coverageText,
  evaluateGate,
  GATE_REPORT_KINDS,
  type GateInput,
  type GateOptions,
  type GateOutputPaths,
  gateOutputs,
  type GateRules,
  GateRulesError,
  type GateVerdict,
  parseGateRules,
  type ReportShape,
  verdictText,
} from "../src/gate/mod.ts";
import { decodeUtf8, InputError } from "../src/jsonl/mod.ts";
import { writeStdout } from "./_io.ts";
import { working } from "./_progress.ts";
import { reason, writeAtomic } from "./_atomic.ts";
import { type OutputArgument, type PathArgument, reportKind } from "./_paths.ts";
import {
  checkGatePaths,
  GATE_OUTPUT_FLAGS,
  gateOutputsHelp,
  STEP_SUMMARY,
} from "./_gate_outputs.ts";
import { oneOf, parseOptions } from "./_options.ts";
import { GateFailed, UsageError } from "./_errors.ts";
import { EVALUATION_SCHEMAS } from "../src/evaluation/mod.ts";
import { namingFiles, readReportFile } from "./compare.ts";

const HELP =
  `Usage: deno task assay gate RULES --base BASE.json --candidate CANDIDATE.json [options]
       deno task assay gate RULES --report REPORT.json [options]

Checks reports against a rules file (YAML, or JSONC for .json and .jsonc files) and
prints one line per rule. Exit codes: 0 every rule holds, 3 a rule fails, 2 bad input
(a bad rules file is reported at its file, line and column), 1 an internal error.

Reports, and the metrics and slices their rules name:
  assay.evaluation.v2 (or v1)  the five tool-call metrics; overall or a language
  assay.structured.v1          its metrics (from its per-example rows); overall
  assay.bfcl.v1                accuracy; overall or a category
  assay.ifeval.v1              prompt_strict, prompt_loose, instruction_strict,
                               instruction_loose; overall
  assay.suite_run.v1           pass_rate, overall_score and each suite metric; overall
                               or an arm (goldens are the units, repeats pooled)
  assay.calibration.v1         kappa, agreement, mae, pearson, spearman; overall
                               (statistics of all the labels: min and max rules only)

A rules file:
  seed: 0              # the paired bootstrap's seed, in [0, 2^32) (default 0)
  resamples: 10000     # its resamples, in [1, 10^7] (default 10000)
  alpha: 0.05          # Holm's family-wise level for the McNemar tests (default 0.05)
  rules:
    - metric: full_call_exact_match   # slice defaults to overall
      min: 0.5                        # the candidate's (or the report's) value
    - metric: mae
      max: 0.2                        # likewise, at most
    - metric: argument_f1
      slice: ja
      non_inferior: { margin: 0.01 }  # CI lower bound of candidate - base >= -margin
    - metric: valid_json_rate
      superior: true                  # CI lower bound > 0
    - metric: full_call_exact_match
      max_regressions: 10             # right in base, wrong in candidate

extra_content_rate (structured) and mae (calibration) are lower-is-better: their right
examples hold none, and non_inferior and superior check the upper bound (<= margin, < 0).

Every comparative rule on a right-or-wrong metric also shows the exact McNemar test of
its discordant pairs, Holm-corrected across those rules (evidence, not a condition).

Options:
  --base FILE        the base run's report
  --candidate FILE   the candidate run's report
  --report FILE      one run's report (min and max rules only)
  --on all|intersection
                     all (default): base and candidate hold the same examples;
                     intersection: gate the examples both evaluation reports hold (a
                     partial rerun, scored with --allow-missing), and say how many each
                     left out
${gateOutputsHelp(21, false)}  --out FILE         write the assay.gate.v1 verdict as JSON
  --force            let --out, --junit or --markdown replace a file of another kind
  --json             print the verdict as JSON instead of the lines
`;

/** The error that ends a command with exit 3 when a verdict fails. */
export function gateFailure(verdict: GateVerdict): GateFailed {
  const failed = verdict.rules.filter((r) => !r.pass).length;
  return new GateFailed(`${failed} rule${failed === 1 ? "" : "s"} failed`);
}

/** Reads a rules file: a bad one is an InputError (exit 2) with every problem at its line. */
export async function readGateRules(rulesPath: string): Promise<GateRules> {
  let text: string;
  try {
    text = decodeUtf8(await Deno.readFile(rulesPath), rulesPath);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`Cannot read ${rulesPath}: ${e instanceof Error ? e.message : e}`);
  }
  try {
    return parseGateRules(text, rulesPath);
  } catch (e) {
    if (e instanceof GateRulesError) throw new InputError(e.message, { cause: e });
    throw e;
  }
}

/** The gate's verdict; a rule that does not fit the reports is bad input naming the rules file. */
export function verdictOf(
  gate: GateRules,
  input: GateInput,
  rulesPath: string,
  options: GateOptions = {},
): GateVerdict {
  const done = working(`gate: ${gate.rules.length} ${gate.rules.length === 1 ? "rule" : "rules"}`);
  try {
    return evaluateGate(gate, input, options);
  } catch (e) {
    throw atRules(e, rulesPath);
  } finally {
    done();
  }
}

/** A RangeError of the rules (one problem a line) as bad input, each line at the rules file. */
function atRules(e: unknown, rulesPath: string): unknown {
  if (!(e instanceof RangeError)) return e;
  const lines = e.message.split("\n").map((line) => `${rulesPath}: ${line}`);
  return new InputError(lines.join("\n"), { cause: e });
}

/**
 * Checks a `--gate` rules file against what is known of the report before the command does any
 * work: a rule that cannot fit (a metric or slice the report will not have) is bad input naming
 * the rules file.
 */
export function checkRulesUpFront(
  gate: GateRules,
  shape: ReportShape,
  paired: boolean,
  rulesPath: string,
): void {
  try {
    checkRulesFit(gate, shape, paired);
  } catch (e) {
    throw atRules(e, rulesPath);
  }
}

/**
 * `--gate RULES` on another command: the verdict's lines after its results (on stderr when stdout
 * holds JSON), and the exit-3 error when a rule fails. The verdict is made (`verdictOf`) before
 * the command writes anything, so that a rule that does not fit the report writes nothing.
 */
export function printVerdict(
  verdict: GateVerdict,
  rulesPath: string,
  json: boolean | undefined,
): GateFailed | undefined {
  (json ? console.error : console.log)(`\n${verdictText(verdict, rulesPath).trimEnd()}`);
  if (verdict.note !== undefined) console.error(`note: ${verdict.note}`);
  return verdict.pass ? undefined : gateFailure(verdict);
}

/**
 * The line feeds that put a text appended to `path` after a blank line, so that its Markdown
 * heading starts a block of its own whatever the file ends with (text without a line feed, a
 * table, an HTML block): none for a file that is empty, missing or unreadable, or ends with a
 * blank line.
 */
async function blankLineBefore(path: string): Promise<string> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return "";
  }
  try {
    const size = (await file.stat()).size;
    if (size === 0) return "";
    // The last 4 bytes hold the last two line ends, "\r\n" each at most.
    const tail = new Uint8Array(Math.min(size, 4));
    await file.seek(size - tail.length, Deno.SeekMode.Start);
    let n = 0;
    for (let r; n < tail.length && (r = await file.read(tail.subarray(n))) !== null;) n += r;
    // The length of the line end that ends tail[0, end), 0 when none does.
    const lineEnd = (end: number) =>
      end >= 1 && tail[end - 1] === 0x0a ? (end >= 2 && tail[end - 2] === 0x0d ? 2 : 1) : 0;
    const last = lineEnd(n);
    if (last === 0) return "\n\n";
    // A file that is one line end holds a blank line already.
    return (n === size && last === n) || lineEnd(n - last) > 0 ? "" : "\n";
  } catch {
    return "";
  } finally {
    file.close();
  }
}

/**
 * Writes a verdict's CI outputs (`gateOutputs`: JUnit XML, Markdown, the step summary), as every
 * command that gates writes them: a file whole and atomically, the step summary appended to,
 * after a blank line when the file holds text (blankLineBefore).
 */
export async function writeGateOutputs(
  verdict: GateVerdict,
  rulesPath: string,
  paths: GateOutputPaths,
): Promise<void> {
  for (const { path, text, append } of gateOutputs(verdict, rulesPath, paths)) {
    if (!append) {
      await writeAtomic(path, text);
      continue;
    }
    try {
      await Deno.writeTextFile(path, (await blankLineBefore(path)) + text, { append: true });
    } catch (e) {
      throw new InputError(`Cannot append to ${path} (${STEP_SUMMARY}): ${reason(e)}`, {
        cause: e,
      });
    }
  }
}

/** Runs `assay gate`. */
export async function runGate(args: string[]): Promise<void> {
  const { values, positionals } = parseOptions(args, {
    base: { type: "string" },
    candidate: { type: "string" },
    report: { type: "string" },
    on: { type: "string", default: "all" },
    ...GATE_OUTPUT_FLAGS,
    out: { type: "string" },
    force: { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    await writeStdout(HELP);
    return;
  }
  if (positionals.length !== 1) {
    throw new UsageError("Give one rules file (see --help)");
  }
  const pair = values.base !== undefined || values.candidate !== undefined;
  if (pair && (values.base === undefined || values.candidate === undefined)) {
    throw new UsageError("--base and --candidate go together");
  }
  if (pair === (values.report !== undefined)) {
    throw new UsageError("Give either --base and --candidate, or --report");
  }
  const on = oneOf("--on", values.on, ["all", "intersection"] as const);
  if (on === "intersection" && !pair) {
    throw new UsageError("--on intersection gates a base and a candidate, not --report");
  }
  const rulesPath = positionals[0]!;
  const inputs: PathArgument[] = [
    ["rules", rulesPath],
    ["--base", values.base, true],
    ["--candidate", values.candidate, true],
    ["--report", values.report, true],
  ];
  const outputs: OutputArgument[] = [
    { flag: "--out", path: values.out, kind: reportKind("assay.gate.v1") },
  ];
  const { paths } = checkGatePaths(inputs, outputs, { ...values, gate: rulesPath });
  const gate = await readGateRules(rulesPath);
  const input: GateInput = pair
    ? {
      // The examples both hold are an evaluation report's records: other kinds are gated whole.
      base: await readReportFile(
        values.base!,
        on === "all" ? GATE_REPORT_KINDS : EVALUATION_SCHEMAS,
      ),
      candidate: await readReportFile(
        values.candidate!,
        on === "all" ? GATE_REPORT_KINDS : EVALUATION_SCHEMAS,
      ),
    }
    : { report: await readReportFile(values.report!, GATE_REPORT_KINDS) };
  const verdict = namingFiles(
    pair ? `${values.base} (base) and ${values.candidate} (candidate)` : values.report!,
    () => verdictOf(gate, input, rulesPath, { on }),
    { on, verb: "gate" },
  );
  if (verdict.note !== undefined) console.error(`note: ${verdict.note}`);
  if (verdict.coverage) console.error(coverageText(verdict.coverage));
  if (values.out) await writeAtomic(values.out, JSON.stringify(verdict, null, 2) + "\n");
  await writeGateOutputs(verdict, rulesPath, paths);
  await writeStdout(
    values.json ? JSON.stringify(verdict, null, 2) + "\n" : verdictText(verdict, rulesPath),
  );
  if (!verdict.pass) throw gateFailure(verdict);
}
