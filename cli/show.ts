// `assay show`: the examples of a report as text a person reads, by the report's kind.
import { EVALUATION_SCHEMAS, METRIC_NAMES } from "../src/evaluation/mod.ts";
import type { BinaryMetricName, EvaluationReport, ExampleRecord } from "../src/evaluation/mod.ts";
import { BINARY_METRIC_NAMES } from "../src/evaluation/mod.ts";
import type { BfclReport } from "../src/bfcl/mod.ts";
import type { IfevalReport } from "../src/ifeval/mod.ts";
import type { StructuredReport } from "../src/structured_jsonl/mod.ts";
import type { SuiteRunReport } from "../src/suite/mod.ts";
import {
  formatExample,
  isBfclScoreFile,
  isIfevalResultsFile,
  selectExamples,
  showBfclEntries,
  showBfclScoreFile,
  showIfevalPrompts,
  showIfevalResultsFile,
  type ShowSelection,
  showStructuredRows,
  showSuiteRuns,
} from "../src/explain/mod.ts";
import { jsonKind, parseJson } from "../src/engine/mod.ts";
import { inputName, readChunks, readTextFile, writeStdout } from "./_io.ts";
import { checkPaths } from "./_paths.ts";
import { parseOptions, unknownValue } from "./_options.ts";
import { InputError, UsageError } from "./_errors.ts";
import { readReportFile } from "./compare.ts";

// Each other report kind's renderer, by schema.
// deno-lint-ignore no-explicit-any
const RENDERERS = new Map<string, (r: any, s: ShowSelection, source: string) => string>([
  ["assay.bfcl.v1", (r: BfclReport, s, source) => showBfclEntries(r, s, source)],
  ["assay.ifeval.v1", (r: IfevalReport, s, source) => showIfevalPrompts(r, s, source)],
  ["assay.structured.v1", (r: StructuredReport, s, source) => showStructuredRows(r, s, source)],
  ["assay.suite_run.v1", (r: SuiteRunReport, s, source) => showSuiteRuns(r, s, source)],
]);
// The report kinds show reads, by schema.
const SCHEMAS: readonly string[] = [...EVALUATION_SCHEMAS, ...RENDERERS.keys()];

const HELP = `Usage: deno task assay show REPORT.json [--failing [--metric M]] [--id ID]...
                          [--slice S] [--status S] [--limit N]

Prints the examples of a report as text, by the report's kind (its "schema"); REPORT.json may be
gzip-compressed, or - for stdin.

  evaluation (assay score): each example's id, slice, parse status, whether name and arguments
    match and the pairs matched; scored with --details, also the gold and predicted calls, the
    argument paths missing, extra or different, and the output
  BFCL (assay bfcl --report): each entry's id, category, position, valid or not, BFCL's
    error_type and error messages (the model's output is in BFCL's score file: show that)
  BFCL score file (assay bfcl --out, or BFCL's own *_score.json): each failing entry's id,
    category, position, error type and messages, the question, the model's raw output, its
    decoding and the possible answers
  IFEval (assay ifeval --out): each prompt's key, whether it followed all its instructions
    strict and loose, and the instruction ids it did not follow
  IFEval results file (assay ifeval --results-dir, or IFEval's own eval_results_*.jsonl): each
    prompt's line, the instruction ids it did not follow, the prompt and the response
  structured (assay structured --out): each row's id and line, the metrics it failed, passed
    or that do not apply, with their numerator/denominator, and why its calls are invalid
  suite run (assay suite run --out): each (golden, arm, repeat) run's status, overall score,
    pass, and each metric's score against its threshold

Selection (all given filters apply; a filter a kind has no use for is refused):
  --failing          evaluation: wrong on full_call_exact_match; BFCL: not valid; IFEval: not
                     every instruction followed, strict; structured: failed any metric (a
                     numerator below its denominator; for extra_content_rate, above 0); suite
                     run: did not pass, or a metric below its threshold
  --metric M         with --failing: wrong on M instead; evaluation: one of
                     ${BINARY_METRIC_NAMES.slice(0, 3).join(", ")},
                     ${BINARY_METRIC_NAMES.slice(3).join(", ")};
                     IFEval: strict or loose; structured and suite run: one of the report's
                     metrics (BFCL has one verdict: refused)
  --id ID            this example (repeat for several): evaluation: example id; BFCL: entry id
                     (simple_13); IFEval: key; structured: row id, or 'line N' for a row without
                     one; suite run: golden id (every arm and repeat). An id listed in quotes
                     (one with a control character, or one that starts with ") is its JSON
                     string: give it as listed
  --slice S          evaluation: language; BFCL: category; IFEval: an instruction id the prompt
                     has; suite run: arm (structured reports have none: refused)
  --status S         evaluation only: parse status S (ok, no_json, invalid_json, ...; the
                     statuses the report counts)
  --limit N          at most N examples (default all)

Exit codes: 0 on success (also when a reader closes stdout early), 2 on bad usage or bad input
(an id, slice, metric or status the report does not have, a filter its kind does not take),
1 on an internal error.
`;

/** Runs `assay show`. */
export async function runShow(args: string[]): Promise<void> {
  const { values, positionals } = parseOptions(args, {
    failing: { type: "boolean" },
    metric: { type: "string" },
    id: { type: "string", multiple: true },
    slice: { type: "string" },
    status: { type: "string" },
    limit: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    await writeStdout(HELP);
    return;
  }
  if (positionals.length !== 1) {
    // `--id a b`: the second id reads as a second report.
    const hint = positionals.length > 1 && values.id
      ? "; repeat --id for several: --id a --id b"
      : "";
    throw new UsageError(`Give one report (see --help${hint})`);
  }
  if (values.metric !== undefined && !values.failing) {
    throw new UsageError(
      "--metric needs --failing (it names the metric the examples are wrong on)",
    );
  }
  const limit = values.limit === undefined ? Infinity : Number(values.limit);
  if (!(Number.isInteger(limit) && limit > 0) && limit !== Infinity) {
    throw new UsageError(`--limit must be a positive whole number, got "${values.limit}"`);
  }
  checkPaths([[undefined, positionals[0], true]], []);
  const path = positionals[0]!;
  let read: Record<string, unknown>;
  let render: ((r: unknown, s: ShowSelection, source: string) => string) | undefined;
  // What the file is, in --status's refusal.
  let what: string;
  try {
    read = await readReportFile(path, SCHEMAS);
    render = RENDERERS.get(read.schema as string);
    what = `an ${read.schema} report`;
  } catch (e) {
    // A BFCL score file or an IFEval results file (BFCL's or IFEval's own, or Assay's) is JSON
    // lines, not one report: told by its first line, before the whole file is read again.
    const first = e instanceof InputError && path !== "-" && / is not JSON: /.test(e.message)
      ? await firstLine(path)
      : undefined;
    const kind = first === undefined
      ? undefined
      : isBfclScoreFile(first)
      ? "a BFCL score file"
      : isIfevalResultsFile(first)
      ? "an IFEval results file"
      : undefined;
    if (kind === undefined) throw notRead(e, first, path);
    const lines = (await readTextFile("REPORT", path)).text;
    read = {};
    what = kind;
    render = (_, s, source) =>
      kind === "a BFCL score file"
        ? showBfclScoreFile(lines, s, source)
        : showIfevalResultsFile(lines, s, source);
  }
  if (render === undefined) {
    return await showEvaluation(read as unknown as EvaluationReport, values, limit, path);
  }
  if (values.status !== undefined) {
    throw new UsageError(
      `--status reads an evaluation report's parse statuses; ${inputName(path)} is ${what}, ` +
        "which has none",
    );
  }
  let text: string;
  try {
    text = render(read, {
      failing: values.failing,
      metric: values.metric,
      ids: values.id,
      slice: values.slice,
      limit,
    }, inputName(path));
  } catch (e) {
    if (e instanceof RangeError) throw new InputError(e.message, { cause: e });
    throw e;
  }
  await writeStdout(text);
}

/**
 * The refusal of a file of JSON lines that is no kind show reads (an examples or generations
 * file): what it is and what show reads, not the parser's offset of its second line. Any other
 * error (a report with more after it included) is `e` unchanged.
 */
function notRead(e: unknown, first: string | undefined, path: string): unknown {
  if (first === undefined || !/ is not JSON: extra_data /.test((e as Error).message)) return e;
  let value: unknown;
  try {
    value = parseJson(first);
  } catch {
    return e;
  }
  const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
  if (isObject && SCHEMAS.includes((value as { schema?: unknown }).schema as string)) return e;
  const kinds = `${SCHEMAS.slice(0, -1).join(", ")} or ${SCHEMAS.at(-1)}`;
  return new InputError(
    `${inputName(path)} is not a report show reads: it is JSON lines, and its first line is ` +
      `${isObject ? "an object of no known kind" : jsonKind(value)} (show reads an ${kinds} ` +
      "report, a BFCL score file or an IFEval results file: see --help)",
  );
}

/** A file's first line (decompressed), if it ends within its first MiB; the rest is not read. */
async function firstLine(path: string): Promise<string | undefined> {
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for await (const chunk of readChunks(path)) {
    const nl = chunk.indexOf(10);
    text += decoder.decode(nl < 0 ? chunk : chunk.subarray(0, nl), { stream: true });
    size += chunk.length;
    if (nl >= 0) break;
    if (size > 1 << 20) return undefined;
  }
  return text + decoder.decode();
}

// The examples of an evaluation report, by selectExamples and formatExample.
async function showEvaluation(
  report: EvaluationReport,
  values: { failing?: boolean; metric?: string; id?: string[]; slice?: string; status?: string },
  limit: number,
  path: string,
): Promise<void> {
  const metric = (values.metric ?? "full_call_exact_match") as BinaryMetricName;
  if (!BINARY_METRIC_NAMES.includes(metric)) {
    throw new UsageError(
      (METRIC_NAMES as readonly string[]).includes(metric)
        ? `--metric must be one of ${BINARY_METRIC_NAMES.join(", ")} (argument_f1 pools pairs)`
        : unknownValue("--metric", metric, BINARY_METRIC_NAMES),
    );
  }
  let chosen: ExampleRecord[];
  try {
    chosen = selectExamples(report, {
      failing: values.failing ? metric : undefined,
      ids: values.id,
      slice: values.slice,
      status: values.status,
    }, path);
  } catch (e) {
    if (e instanceof RangeError) throw new InputError(e.message, { cause: e });
    throw e;
  }
  const shown = chosen.slice(0, limit);
  const parts = shown.map(formatExample);
  const detailed = report.records.some((r) => r.detail !== undefined);
  // Examples with no generation (score --allow-missing) are in no record: say how many.
  const unscored = report.missing_generations?.count ?? 0;
  parts.push(
    (chosen.length === 0
      ? "No example matches the filters given"
      : `${shown.length} of ${chosen.length} selected examples shown`) +
      ` (${report.records.length} in the report` +
      (unscored > 0 ? `; ${unscored} more had no generation and were not scored` : "") + ")" +
      (detailed ? "" : "; the report has no details: score with --details to see outputs, " +
        "gold and predicted calls and the differing paths") +
      "\n",
  );
  await writeStdout(parts.join("\n"));
}
