// `assay score`: stream examples, prompts and generations; write the evaluation report.
import type { EvaluationReport } from "../src/evaluation/mod.ts";
import { METRIC_NAMES } from "../src/evaluation/mod.ts";
import { formatReport } from "../src/report/mod.ts";
import { writeAll, writeAtomic } from "./_io.ts";
import { engineFromFlag, parseOptions } from "./_options.ts";
import { UsageError } from "./_errors.ts";
import { Progress } from "./_progress.ts";
import { scoreFast } from "./_score_fast.ts";
import { takeScoreWorker } from "./_score_prestart.ts";
import { rate, table } from "./_table.ts";

const HELP = `Usage: deno task assay score --examples FILE --generations FILE [--prompts FILE]
                           [--out report.json] [--json] [--quiet] [--engine auto|wasm|ts]

Scores raw tool-call generations against gold examples (reference:
toolcall_scoring_metrics.md; docs/evaluation.md) and prints the five metrics
overall and per language, with their counts.

Inputs (JSONL):
  --examples FILE      {example_id, language, target, root_id?}
  --generations FILE   {example_id, prompt_sha256, output}
  --prompts FILE       the formatter's manifest {example_id, prompt_sha256, prompt?};
                       when given, every generation's prompt_sha256 must match it

Output:
  --out FILE           write the assay.evaluation.v1 report (atomically)
  --json               print the report to stdout instead of the table
  --quiet              no progress bar
  --engine NAME        auto (default), wasm or ts; both give identical reports
  --no-fast-path       read with the general reader only; by default the wasm
                       engine reads the files in its scoring kernel and hands
                       the run to the general reader on anything else (the
                       report is the same either way)

Exit codes: 0 success, 2 invalid input or a broken invariant (no report is
written), 1 internal error.
`;

/** Runs `assay score`. */
export async function runScore(args: string[]): Promise<void> {
  try {
    await score(args);
  } finally {
    takeScoreWorker()?.worker.terminate(); // started for a fast path that did not use it
  }
}

async function score(args: string[]): Promise<void> {
  const { values, positionals } = parseOptions(args, {
    examples: { type: "string" },
    generations: { type: "string" },
    prompts: { type: "string" },
    out: { type: "string" },
    json: { type: "boolean" },
    quiet: { type: "boolean", short: "q" },
    engine: { type: "string" },
    "no-fast-path": { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
  if (!values.examples) throw new UsageError("--examples is required");
  if (!values.generations) throw new UsageError("--generations is required");
  const quiet = values.quiet === true;
  const engine = engineFromFlag(values.engine, quiet);
  const paths = {
    examples: values.examples,
    generations: values.generations,
    prompts: values.prompts,
  };
  let totalBytes = 0;
  for (const p of [values.examples, values.prompts, values.generations]) {
    if (p !== undefined) totalBytes += sizeOf(p);
  }

  /**
   * Writes the report (to --out, atomically) and prints it or its table. `head`, when given,
   * resolves to the report's first part as it is to be: it replaces that part, of the same length,
   * once the rest is written (the fast path's digests may still be on their way).
   */
  async function emit(
    report: EvaluationReport,
    text: string | Uint8Array[],
    head?: Promise<Uint8Array>,
  ): Promise<void> {
    if (values.out !== undefined) await writeAtomic(values.out, text, head);
    else await head;
    if (values.json) {
      const parts = typeof text === "string" ? [new TextEncoder().encode(text)] : text;
      for (const part of parts) await writeAll(Deno.stdout, part);
    } else {
      console.log(summary(report));
      if (values.out !== undefined) console.log(`\nReport written to ${values.out}`);
    }
  }

  if (engine.name === "wasm" && values["no-fast-path"] !== true) {
    const progress = new Progress(totalBytes, "scoring", !quiet);
    const fast = await scoreFast(paths, engine, progress);
    progress.done();
    if (fast) return await emit(fast.report, fast.parts, fast.digests);
  }

  const { scoreGeneral } = await import("./_score_general.ts");
  const report = await scoreGeneral(paths, engine, totalBytes, quiet);
  await emit(report, formatReport(report));
}

// A stat that does not wait on the event loop: the worker started ahead is busy by now, and an
// async stat waits for a thread of its own.
function sizeOf(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0; // opening the file reports a missing file with its own message
  }
}

const SHORT: Record<(typeof METRIC_NAMES)[number], string> = {
  valid_json_rate: "valid_json",
  function_name_accuracy: "fn_name",
  argument_exact_match: "args_exact",
  argument_f1: "args_f1",
  full_call_exact_match: "full_call",
};

/** The human-readable summary: metrics per slice with counts, statuses and drops. */
export function summary(report: EvaluationReport): string {
  const rows = [
    ["overall", report.metrics.overall] as const,
    ...report.slices.map((s) => [s, report.metrics.by_language[s]!] as const),
  ].map((
    [slice, m],
  ) => [slice, String(m.valid_json_rate.denominator), ...METRIC_NAMES.map((k) => rate(m[k]))]);
  const s = report.parse_status_counts;
  const d = report.drop_summary;
  const dropped = d.multiple_calls + d.empty_target + d.malformed_target;
  return [
    table(["slice", "n", ...METRIC_NAMES.map((k) => SHORT[k])], rows),
    "",
    `parse status: ok ${s.ok}, no_json ${s.no_json}, invalid_json ${s.invalid_json}, invalid_shape ${s.invalid_shape}`,
    `dropped before scoring: ${dropped} (multiple_calls ${d.multiple_calls}, empty_target ${d.empty_target}, malformed_target ${d.malformed_target})`,
    `engine ${report.engine}, ${report.parser_id}, ${report.canonical_id}`,
  ].join("\n");
}
