// `assay score`: stream examples, prompts and generations; write the evaluation report.
import { createHash } from "node:crypto";
import {
  type EvaluationReport,
  type ExampleInput,
  type GenerationInput,
  type PromptInput,
  ToolCallScorer,
} from "../src/evaluation.ts";
import { formatLocation, InputError } from "../src/errors.ts";
import { METRIC_NAMES } from "../src/metrics.ts";
import { formatReport } from "../src/report_json.ts";
import { decodeCanonicalString, type ExactField, fieldsOfCanonical } from "../src/_ts_engine.ts";
import type { Engine } from "../src/engine.ts";
import { batches, openSource, writeAtomic } from "./_io.ts";
import { readJsonLine } from "./_jsonl.ts";
import { engineFromFlag, parseOptions } from "./_options.ts";
import { quote, UsageError } from "./_errors.ts";
import { Progress } from "./_progress.ts";
import { rate, table } from "./_table.ts";
import type { Line } from "./_lines.ts";

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

Exit codes: 0 success, 2 invalid input or a broken invariant (no report is
written), 1 internal error.
`;

interface Tracked {
  path: string;
  hash: ReturnType<typeof createHash>;
  rows: number;
}

function lineObject(line: Line, source: string): Record<string, unknown> {
  const r = readJsonLine(line.text);
  if ("error" in r) {
    throw new InputError(
      `${source}:${line.lineNo}: malformed JSON line ${quote(line.text)} (${r.error})`,
    );
  }
  const row = r.value;
  if (typeof row !== "object" || row === null || Array.isArray(row)) {
    throw new InputError(
      `${source}:${line.lineNo}: expected a JSON object, got ${quote(line.text)}`,
    );
  }
  return row as Record<string, unknown>;
}

/** Example lines go through the engine's batch canonicalizer, then their fields are read off. */
function exampleRows(engine: Engine, lines: Line[], source: string): ExampleInput[] {
  const canonical = engine.canonicalizeBatch(lines.map((l) => l.text));
  return lines.map((line, i) => {
    const c = canonical[i]!;
    if (!c.ok) {
      throw new InputError(
        `${source}:${line.lineNo}: malformed JSON line ${
          quote(line.text)
        } (${c.error.code} at ${c.error.offset})`,
      );
    }
    const fields = fieldsOfCanonical(c.canonical);
    if (fields === null) {
      throw new InputError(
        `${source}:${line.lineNo}: expected a JSON object, got ${quote(line.text)}`,
      );
    }
    return exampleRow(fields, line, source);
  });
}

function exampleRow(fields: Map<string, ExactField>, line: Line, source: string): ExampleInput {
  const str = (name: string): unknown => {
    const f = fields.get(name);
    if (f === undefined) return undefined;
    if (f.kind === "null") return null;
    return f.kind === "string" ? decodeCanonicalString(f.canonical) : f.canonical;
  };
  const id = str("example_id");
  const at = { source, line: line.lineNo, id: typeof id === "string" ? id : undefined };
  for (const name of ["example_id", "language"]) {
    const f = fields.get(name);
    if (!f) throw new InputError(`${formatLocation(at)}: missing field "${name}"`);
    if (f.kind !== "string") {
      throw new InputError(
        `${formatLocation(at)}: field "${name}" must be a string, got ${f.kind}`,
      );
    }
  }
  const target = fields.get("target");
  if (!target) throw new InputError(`${formatLocation(at)}: missing field "target"`);
  const root = fields.get("root_id");
  if (root && root.kind !== "string" && root.kind !== "null") {
    throw new InputError(`${formatLocation(at)}: field "root_id" must be a string or null`);
  }
  return {
    example_id: id as string,
    language: str("language") as string,
    root_id: (str("root_id") ?? null) as string | null,
    target: target.canonical,
    line: line.lineNo,
  };
}

/** Runs `assay score`. */
export async function runScore(args: string[]): Promise<void> {
  const { values, positionals } = parseOptions(args, {
    examples: { type: "string" },
    generations: { type: "string" },
    prompts: { type: "string" },
    out: { type: "string" },
    json: { type: "boolean" },
    quiet: { type: "boolean", short: "q" },
    engine: { type: "string" },
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
  const scorer = new ToolCallScorer({
    engine,
    withPrompts: values.prompts !== undefined,
    canonicalTargets: true,
    sha256: (text) => createHash("sha256").update(text).digest("hex"),
    sources: {
      examples: values.examples,
      generations: values.generations,
      prompts: values.prompts,
    },
  });

  let totalBytes = 0;
  for (const p of [values.examples, values.prompts, values.generations]) {
    if (p !== undefined) totalBytes += await sizeOf(p);
  }
  const progress = new Progress(totalBytes, "scoring", !quiet);
  let rowsRead = 0;

  async function stream<T>(
    path: string,
    toRows: (lines: Line[], source: string) => T[],
    add: (batch: T[]) => void,
  ): Promise<Tracked> {
    const tracked: Tracked = { path, hash: createHash("sha256"), rows: 0 };
    const source = await openSource(path, (chunk) => {
      tracked.hash.update(chunk);
      progress.add(chunk.length, rowsRead);
    });
    for await (const batch of batches(source.lines)) {
      const rows = toRows(batch.filter((line) => line.text.trim() !== ""), source.name);
      tracked.rows += rows.length;
      rowsRead += rows.length;
      add(rows);
    }
    return tracked;
  }

  const examples = await stream(
    values.examples,
    (lines, source) => exampleRows(engine, lines, source),
    (b) => scorer.addExamples(b),
  );
  const prompts = values.prompts === undefined ? undefined : await stream(
    values.prompts,
    (lines, source) =>
      lines.map((line): PromptInput => {
        const r = lineObject(line, source);
        return {
          example_id: r.example_id as string,
          prompt_sha256: r.prompt_sha256 as string,
          prompt: r.prompt as string | undefined,
          line: line.lineNo,
        };
      }),
    (b) => scorer.addPrompts(b),
  );
  const generations = await stream(
    values.generations,
    (lines, source) =>
      lines.map((line): GenerationInput => {
        const r = lineObject(line, source);
        if (r.prompt_sha256 === undefined) {
          const id = typeof r.example_id === "string" ? r.example_id : undefined;
          throw new InputError(
            `${formatLocation({ source, line: line.lineNo, id })}: missing field "prompt_sha256"`,
          );
        }
        return {
          example_id: r.example_id as string,
          prompt_sha256: r.prompt_sha256 as string,
          output: r.output as string,
          line: line.lineNo,
        };
      }),
    (b) => scorer.addGenerations(b),
  );
  progress.done();

  const digest = (t: Tracked) => ({ sha256: t.hash.digest("hex"), rows: t.rows });
  const report = scorer.finish({
    examples: digest(examples),
    generations: digest(generations),
    prompts: prompts ? digest(prompts) : null,
  });
  const text = formatReport(report);
  if (values.out !== undefined) await writeAtomic(values.out, text);
  if (values.json) {
    await Deno.stdout.write(new TextEncoder().encode(text));
  } else {
    console.log(summary(report));
    if (values.out !== undefined) console.log(`\nReport written to ${values.out}`);
  }
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch {
    return 0; // openSource reports a missing file with its own message
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
