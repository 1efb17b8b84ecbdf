// `assay show`: the examples of an evaluation report as text a person reads.
import { METRIC_NAMES } from "../src/evaluation/mod.ts";
import type { BinaryMetricName, ExampleRecord } from "../src/evaluation/mod.ts";
import { BINARY_METRIC_NAMES } from "../src/evaluation/mod.ts";
import { formatExample, selectExamples } from "../src/explain/mod.ts";
import { writeStdout } from "./_io.ts";
import { checkPaths } from "./_paths.ts";
import { parseOptions } from "./_options.ts";
import { InputError, UsageError } from "./_errors.ts";
import { readEvaluation } from "./compare.ts";

const HELP = `Usage: deno task assay show REPORT.json [--failing [--metric M]] [--id ID]...
                          [--slice L] [--status S] [--limit N]

Prints the examples of an evaluation report (v2 or v1) as text: id, slice, parse status,
whether name and arguments match and the pairs matched; for a report scored with
'assay score --details', also the gold and predicted calls, the argument paths that are
missing, extra or different, and the output. REPORT.json may be - for stdin.

Selection (all given filters apply):
  --failing          examples wrong on full_call_exact_match
  --metric M         with --failing: wrong on M instead (${BINARY_METRIC_NAMES.join(", ")})
  --id ID            this example (repeat for several)
  --slice L          examples of language L
  --status S         examples with parse status S (ok, no_json, invalid_json, ...; the
                     statuses the report counts)
  --limit N          at most N examples (default all)

Exit codes: 0 on success (also when a reader closes stdout early), 2 on bad usage or bad input
(an id, slice or status the report does not have), 1 on an internal error.
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
  const metric = (values.metric ?? "full_call_exact_match") as BinaryMetricName;
  if (!BINARY_METRIC_NAMES.includes(metric)) {
    throw new UsageError(
      `--metric must be one of ${BINARY_METRIC_NAMES.join(", ")}` +
        ((METRIC_NAMES as readonly string[]).includes(metric) ? " (argument_f1 pools pairs)" : ""),
    );
  }
  const limit = values.limit === undefined ? Infinity : Number(values.limit);
  if (!(Number.isInteger(limit) && limit > 0) && limit !== Infinity) {
    throw new UsageError(`--limit must be a positive whole number, got "${values.limit}"`);
  }
  checkPaths([[undefined, positionals[0], true]], []);
  const report = await readEvaluation(positionals[0]!);
  let chosen: ExampleRecord[];
  try {
    chosen = selectExamples(report, {
      failing: values.failing ? metric : undefined,
      ids: values.id,
      slice: values.slice,
      status: values.status,
    }, positionals[0]);
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
