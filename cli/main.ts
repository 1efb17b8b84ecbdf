/**
 * The `assay` command line: `deno task assay <command>`.
 *
 * Commands:
 * - `parse`: JSONL with an `output` field in, JSONL of `{status, name, canonical_arguments}` out;
 * - `canonicalize`: one JSON text per line in, its canonical form (or `!error <reason>`) out;
 * - `score`: examples and generations in, the `assay.evaluation.v2` report and a metric table out;
 * - `compare`, `gaps`: paired-bootstrap comparisons of evaluation reports;
 * - `structured`: structured-output, tool and instruction metrics over a JSONL of outputs;
 * - `suite`, `calibrate`: declarative metric suites over agent traces, and judge calibration;
 * - `bfcl`: BFCL's AST checker over one category's files, writing BFCL's score file; `bfcl compare`:
 *   two models' BFCL reports, paired;
 * - `ifeval`: IFEval's strict and loose evaluations, writing IFEval's results files;
 * - `gate`: rules over evaluation reports for CI, exit 3 when one fails, JUnit and Markdown;
 * - `show`: the examples of a report (evaluation, BFCL, IFEval, structured, suite run) as text, the failing ones or by id.
 *
 * Relative paths are the caller's: `deno task` runs in the repository's folder and names the
 * folder it was started from in `INIT_CWD`, so the command line moves there before it reads any
 * argument.
 *
 * Exit codes: 0 on success, 2 on bad usage or bad input, 3 when `assay gate` finds a failing rule,
 * 1 on an internal error or a metric store that another process kept locked (`StoreBusyError`,
 * one line naming the store, as a refusal is named). A reader that
 * closes stdout early (`assay parse … | head -1`) ends the command quietly with 0, as ripgrep
 * does: the reader has what it asked for, and `set -o pipefail` does not turn `| head` into a
 * failure. (Deno ignores SIGPIPE, so a write fails with EPIPE instead of killing the process with
 * the shell's 141; 0 is chosen over imitating it.) A stdout that cannot be written otherwise (a
 * full disk) is exit 2, in one line naming stdout, as a refused `--out` is named. Files named by
 * `--out` are complete before anything is printed.
 *
 * @module
 */
import { InputError, StdoutClosed, stdoutError, UsageError } from "./_errors.ts";
import { unknownWord } from "./_options.ts";

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
  bfcl           BFCL's AST checker (bfcl.ast@2024-08): a model's category, verdict for verdict;
                 'bfcl compare': two models' reports, paired
  ifeval         IFEval's checkers (ifeval@google-3f357bde): strict and loose, verdict for verdict
  show           Print a report's examples as text: the failing ones, or by id, slice or status
  gate           Check reports against CI rules (min, non-inferior, superior, regressions): exit 3 on a failure

Run 'deno task assay <command> --help' (or 'deno task assay help <command>') for a command's
options, and 'deno task assay --version' for the version and the parser and canonical form its
reports record.
`;

type Command = (args: string[]) => Promise<void> | void;

// Each command's module is evaluated only when it runs, so a command pays for its own imports'
// start-up only. Deno still reads every command's module graph when the program starts (about 290
// files, some 8 ms of `assay score`'s 60 on 10 examples): a computed specifier would spare that,
// but Deno then asks for read permission on the CLI's own files, which a run with a narrow
// --allow-read does not have. deno.json's "unstable": ["lazy-dynamic-imports"] fails the same way.
const COMMANDS: Record<string, () => Promise<Command>> = {
  parse: async () => (await import("./parse.ts")).runParse,
  canonicalize: async () => (await import("./canonicalize.ts")).runCanonicalize,
  score: async () => (await import("./score.ts")).runScore,
  compare: async () => (await import("./compare.ts")).runCompare,
  gaps: async () => (await import("./compare.ts")).runGaps,
  structured: async () => (await import("./structured.ts")).runStructured,
  suite: async () => (await import("./suite.ts")).runSuiteCommand,
  calibrate: async () => (await import("./suite.ts")).runCalibrate,
  bfcl: async () => (await import("./bfcl.ts")).runBfcl,
  ifeval: async () => (await import("./ifeval.ts")).runIfevalCommand,
  gate: async () => (await import("./gate.ts")).runGate,
  show: async () => (await import("./show.ts")).runShow,
};

/**
 * The subcommands whose refusals are named by the command and the subcommand (`assay bfcl
 * compare: …`), since their inputs and flags are not the command's.
 */
const SUBCOMMANDS: Record<string, readonly string[]> = {
  bfcl: ["compare"],
  ifeval: ["compare"],
  suite: ["validate", "run", "scorecard", "compare"],
};

/**
 * The named errors that mean bad usage or bad input (exit 2), by their `name`; and every
 * InputError (LineTooLongError and InvalidUtf8Error among them).
 */
const INPUT_ERRORS = new Set([
  "UsageError",
  "InputError",
  "InvariantViolation",
  "ComparisonGateError",
  "ArmComparisonError",
  "RubricMismatchError",
]);

/**
 * The named failures that are neither bad usage nor bad input, nor a fault of assay's: exit 1, in
 * one line naming what failed, without a stack. A metric store that another process kept locked
 * for the whole wait (`StoreBusyError`, from the CLI's store, named here so that this file does
 * not load node:sqlite) is not the user's mistake, and running again later may well succeed.
 */
const KNOWN_FAILURES = new Set(["StoreBusyError"]);

/**
 * An error's message as the terminal shows it: a refusal that lists its differences
 * (ComparisonGateError's "Refusing to compare: …", ArmComparisonError's) writes each as
 * printableText does, as they quote the reports' languages and example ids; and any other control
 * or bidi character left in a message (the ids, names and texts from the data that messages quote,
 * JSON.stringify leaving bidi controls, C1 and U+2028 raw) is escaped as printableText escapes it,
 * so that no message colours the terminal, reorders a line or starts a new one (but for the line
 * breaks of a list of problems).
 */
async function shownMessage(e: Error): Promise<string> {
  const { printableLines, printableText } = await import("../src/explain/text/mod.ts");
  // Each line's characters escaped, a line break too: no message starts a line of its own.
  const shown = (text: string) => printableLines(text).replaceAll("\n", "\\n");
  let message = e.message;
  const differences = (e as { differences?: unknown }).differences;
  if (Array.isArray(differences) && differences.length > 0) {
    const details = differences.map((d) => String((d as { detail?: unknown })?.detail));
    const all = details.join("; ");
    // The details end the message, or come before a hint of the command's (compare's --on).
    const at = message.lastIndexOf(all);
    if (at >= 0) {
      message = message.slice(0, at) + details.map(printableText).join("; ") +
        message.slice(at + all.length);
    }
  }
  // A list of problems (a suite's issues, a rules file's) has one on each line, after a heading
  // at most: those line breaks stay, unless a problem's own text (a name from the data) holds one,
  // which would start a line of its own making.
  const of = (x: unknown) =>
    (x as { issues?: unknown })?.issues ?? (x as { problems?: unknown })?.problems;
  const list = of(e) ?? of(e.cause);
  const lines = message.split("\n");
  const oneLine = (p: unknown) =>
    (typeof p === "object" && p !== null ? Object.values(p) : [p]).every((t) =>
      !/\n/.test(String(t))
    );
  if (
    Array.isArray(list) && list.length > 0 && list.every(oneLine) &&
    lines.length - list.length <= 1
  ) {
    return lines.map(shown).join("\n");
  }
  return shown(message);
}

/**
 * Runs the CLI and returns its exit code.
 *
 * @param args The command-line arguments, without the program name.
 * @returns 0 on success, 2 on bad usage or input, 3 when `assay gate` finds a rule that fails,
 *   1 on an internal error or a metric store that another process kept locked.
 */
export async function main(args: string[]): Promise<number> {
  if (args[0] === "help" && args.length > 1) {
    // `assay help gate` is `assay gate --help`; `assay help bfcl compare`, `bfcl compare --help`.
    return await main([...args.slice(1), "--help"]);
  }
  const [command, ...rest] = args;
  const help = command === undefined || command === "--help" || command === "-h" ||
    command === "help";
  const version = command === "--version" || command === "-V";
  // console.log throws the OS error of a write that fails (a full disk): stdout's, named as
  // writeStdout names it. (A closed stdout it passes over.)
  const log = console.log;
  console.log = (...data: unknown[]) => {
    try {
      log(...data);
    } catch (e) {
      throw stdoutError(e);
    }
  };
  try {
    if (help) {
      console.log(HELP);
      return command === undefined ? 2 : 0;
    }
    if (version) {
      // What a CI log needs to say which scorer ran: the package and the ids its reports record.
      const { CANONICAL_ID, PARSER_ID, TOOL } = await import("../src/engine/mod.ts");
      console.log(`${TOOL.name} ${TOOL.version} (parser ${PARSER_ID}, canonical ${CANONICAL_ID})`);
      return 0;
    }
    const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!load) {
      throw new UsageError(unknownWord("command", command, Object.keys(COMMANDS)));
    }
    const run = await load();
    await run(rest);
    return 0;
  } catch (e) {
    if (e instanceof StdoutClosed) return 0;
    // A gate that failed has printed its verdict: exit 3, as CI reads it.
    if (e instanceof Error && e.name === "GateFailed") return 3;
    const sub = Object.hasOwn(SUBCOMMANDS, command ?? "") &&
      SUBCOMMANDS[command!]!.includes(rest[0]!);
    // `assay: …` for the help and the version, `assay gate: …` for a command.
    const name = help || version ? "" : ` ${sub ? `${command} ${rest[0]}` : command}`;
    if (e instanceof InputError || (e instanceof Error && INPUT_ERRORS.has(e.name))) {
      console.error(`assay${name}: ${await shownMessage(e)}`);
      return 2;
    }
    if (e instanceof Error && KNOWN_FAILURES.has(e.name)) {
      console.error(`assay${name}: ${await shownMessage(e)}`);
      return 1;
    }
    console.error(`assay${name}: internal error:`, e);
    return 1;
  } finally {
    console.log = log;
  }
}

/**
 * Moves to the folder `deno task` was started from (`INIT_CWD`), so that relative paths in the
 * arguments, inputs and outputs alike, are the caller's and not the repository's. Only when the
 * process runs in the repository's folder, where `deno task` runs its tasks: a direct
 * `deno run cli/main.ts` elsewhere, under an `INIT_CWD` left by some outer npm script, keeps its
 * own working directory. Without permission to read `INIT_CWD`, nothing moves.
 */
export function moveToCaller(): void {
  if (Deno.permissions.querySync({ name: "env", variable: "INIT_CWD" }).state !== "granted") return;
  const caller = Deno.env.get("INIT_CWD");
  if (!caller || !import.meta.url.startsWith("file:")) return;
  try {
    const here = Deno.realPathSync(Deno.cwd());
    const repo = Deno.realPathSync(new URL("../", import.meta.url));
    if (here === repo && Deno.realPathSync(caller) !== here) Deno.chdir(caller);
  } catch { /* a caller folder that is gone: paths stay the repository's */ }
}

if (import.meta.main) {
  moveToCaller();
  Deno.exit(await main(Deno.args));
}
