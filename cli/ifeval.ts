// `assay ifeval`: IFEval's strict and loose evaluations of one response per prompt, writing the
// official eval_results_{strict,loose}.jsonl and, optionally, the assay.ifeval.v1 report.
import { parseOptions } from "./_options.ts";
import { UsageError } from "./_errors.ts";
import { writeAtomic } from "./_atomic.ts";
import { readTextFile } from "./_io.ts";
import { checkPaths, createFolder, linesKind, reportKind } from "./_paths.ts";
import {
  digestIfevalInputs,
  IFEVAL_VERSION,
  ifevalReport,
  officialLine,
  runIfeval,
} from "../src/ifeval/mod.ts";

const HELP = `Usage: deno task assay ifeval --input input_data.jsonl --responses R.jsonl
                              [--out report.json] [--results-dir DIR] [options]
       deno task assay ifeval compare A.json B.json [--seed N] [--resamples N] [--out C.json]

Evaluates one response per prompt as IFEval's evaluation_main does (${IFEVAL_VERSION}),
verdict for verdict: each instruction's checker on the response (strict), and on the best of
eight relaxed variants of it (loose: without its first or last line, without '*').
The input is IFEval's input_data.jsonl ({"key", "prompt", "instruction_id_list", "kwargs"} per
line, each key once); the responses are {"prompt", "response"} lines, matched to the input by
prompt text (a prompt given twice must have the same response), or {"key", "response"} lines,
the key standing for its input prompt. Either file can be '-' (stdin).

Options:
  --input FILE          IFEval's input file (required)
  --responses FILE      the responses (required)
  --results-dir DIR     write eval_results_strict.jsonl and eval_results_loose.jsonl there, byte
                        for byte as IFEval writes them (the folder is created if missing)
  --out FILE            write the assay.ifeval.v1 report to FILE (atomically); it records the
                        SHA-256 of both files, and ifeval compare refuses two reports of
                        different input files
  --force               let the outputs replace files that are not of their kind
  --quiet               print nothing on success
  -h, --help            show this help

Exit codes: 0 on success, 2 on bad usage or bad input, 1 on an internal error.
`;

/** The official results files: lines that start with IFEval's first field. */
const RESULTS_FILE = linesKind(
  "an IFEval results file",
  (line) => line.startsWith('{"follow_all_instructions": '),
);

const percent = (v: { value: number; numerator: number; denominator: number }) =>
  `${v.numerator}/${v.denominator} (${(100 * v.value).toFixed(2)}%)`;

/**
 * Runs `assay ifeval`.
 *
 * @param args The command's arguments.
 */
export async function runIfevalCommand(args: string[]): Promise<void> {
  if (args[0] === "compare") {
    const { runIfevalCompare } = await import("./ifeval_compare.ts");
    return await runIfevalCompare(args.slice(1));
  }
  const { values, positionals } = parseOptions(args, {
    input: { type: "string" },
    responses: { type: "string" },
    out: { type: "string" },
    "results-dir": { type: "string" },
    force: { type: "boolean" },
    quiet: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
  if (values.input === undefined) throw new UsageError("--input is required");
  if (values.responses === undefined) throw new UsageError("--responses is required");
  const inputs = [
    ["--input", values.input, true],
    ["--responses", values.responses, true],
  ] as const;
  const force = values.force === true;
  checkPaths(inputs, [{ flag: "--out", path: values.out, kind: reportKind("assay.ifeval.v1") }], {
    force,
  });
  const dir = values["results-dir"];
  const results = dir === undefined ? [] : (["strict", "loose"] as const).map((mode) => ({
    mode,
    path: `${dir.replace(/\/+$/, "") || "/"}/eval_results_${mode}.jsonl`,
  }));
  if (dir !== undefined) {
    await createFolder("--results-dir", dir);
    checkPaths(inputs, [
      ...results.map((r) => ({ flag: "--results-dir", path: r.path, kind: RESULTS_FILE })),
      { flag: "--out", path: values.out, kind: reportKind("assay.ifeval.v1") },
    ], { force });
  }

  const files = {
    input: await readTextFile("--input", values.input),
    responses: await readTextFile("--responses", values.responses),
  };
  const run = runIfeval(files);
  for (const { mode, path } of results) {
    await writeAtomic(path, run[mode].map((r) => officialLine(r) + "\n").join(""));
  }
  const report = ifevalReport(run, await digestIfevalInputs(files));
  if (values.out !== undefined) {
    await writeAtomic(values.out, JSON.stringify(report, null, 2) + "\n");
  }
  if (!values.quiet) {
    for (const mode of ["strict", "loose"] as const) {
      const s = report[mode];
      console.log(
        `${mode}: prompt-level ${percent(s.prompt_level)}, instruction-level ${
          percent(s.instruction_level)
        }`,
      );
    }
    if (run.blankResponses > 0) {
      console.error(
        `note: ${run.blankResponses} of ${run.inputs.length} responses are blank, and follow no ` +
          "instruction",
      );
    }
  }
}
