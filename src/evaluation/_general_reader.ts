// scoreJsonl's general reader: the sources as lines of text, read with the engine's batch calls
// and the scorer. It takes every input (the kernel hands it what it does not read itself) and
// words every error.
import {
  decodeCanonicalString,
  type Engine,
  type ExactField,
  fieldsOfCanonical,
} from "../engine/mod.ts";
import {
  type InputError,
  inputErrorAt,
  jsonArrayHint,
  type Line,
  type LineOptions,
  type LineRun,
  LineSplitter,
  quote,
  readJsonLine,
  scanStrictObject,
} from "../jsonl/mod.ts";
import type {
  EvaluationReport,
  ExampleInput,
  GenerationInput,
  PromptInput,
  ScoreOptions,
} from "./inputs.ts";
import { ScorerCore } from "./_scorer_core.ts";
import { requireDigest } from "./_row_checks.ts";
import type { RunSources } from "./_kernel_run.ts";
import type { Source } from "../jsonl/source/mod.ts";
import { inputDigests } from "./_report_frame.ts";

/**
 * The error of a line that is not one JSON object: malformed (`why` says how), or another value;
 * with jsonArrayHint's hint.
 */
function notObject(line: Line, source: string, why?: string): InputError {
  return inputErrorAt(
    { source, line: line.lineNo },
    (why
      ? `malformed JSON line ${quote(line.text)} (${why})`
      : `expected a JSON object, got ${quote(line.text)}`) + jsonArrayHint(line.text, line.lineNo),
  );
}

function lineObject(line: Line, source: string): Record<string, unknown> {
  const r = readJsonLine(line.text);
  if ("error" in r) throw notObject(line, source, r.error);
  const row = r.value;
  if (typeof row !== "object" || row === null || Array.isArray(row)) throw notObject(line, source);
  return row as Record<string, unknown>;
}

/**
 * Reads example lines. A line that is one object in the strictest JSON reading, with string
 * `example_id` and `language`, a string or null `root_id` and a `target`, is read by a scan that
 * cuts the target out as written (the scorer parses that text exactly, so `1.0` and big integers
 * survive). Any other line, for example one holding NaN, goes through the engine's canonicalizer
 * as a whole, which also words the errors.
 */
function exampleRows(
  engine: Engine,
  lines: Line[],
  source: string,
  languages: Map<string, string>,
): ExampleInput[] {
  const rows: ExampleInput[] = new Array(lines.length);
  let slow: number[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const row = fastExample(lines[i]!, languages);
    if (row) rows[i] = row;
    else (slow ??= []).push(i);
  }
  if (slow) {
    exactFields(engine, lines, slow, source, (f, i) => rows[i] = exampleRow(f, lines[i]!, source));
  }
  return rows;
}

/**
 * The top-level fields of the lines at `at`, read by the engine's canonicalizer in one batch, each
 * given to `each` with its index; the error of a line that is not one object.
 */
function exactFields(
  engine: Engine,
  lines: Line[],
  at: number[],
  source: string,
  each: (fields: Map<string, ExactField>, i: number) => void,
): void {
  if (at.length === 0) return;
  const canonical = engine.canonicalizeBatch(at.map((i) => lines[i]!.text));
  at.forEach((i, k) => {
    const c = canonical[k]!;
    const fields = c.ok && fieldsOfCanonical(c.canonical);
    if (!fields) {
      throw notObject(lines[i]!, source, c.ok ? "" : `${c.error.code} at ${c.error.offset}`);
    }
    each(fields, i);
  });
}

const EXAMPLE_FIELDS = ["example_id", "language", "root_id", "target"] as const;

/**
 * Decodes a string literal of a strict JSON text into a string of its own (a slice would keep
 * the whole chunk of input it was cut from alive for as long as the row).
 */
function decodeLiteral(literal: string): string {
  return JSON.parse(literal) as string;
}

/** Decodes a language's literal; languages are few, so each is decoded once (per `seen`). */
function decodeLanguage(literal: string, seen: Map<string, string>): string {
  let language = seen.get(literal);
  if (language === undefined) {
    language = decodeLiteral(literal);
    seen.set(JSON.parse(JSON.stringify(literal)) as string, language);
  }
  return language;
}

/** The fast reading of an example line, or `undefined` when it needs the engine. */
function fastExample(line: Line, languages: Map<string, string>): ExampleInput | undefined {
  const f = scanStrictObject(line.text, EXAMPLE_FIELDS);
  if (f === undefined) return undefined;
  const [id, language, root, target] = f;
  if (id?.charCodeAt(0) !== 0x22 || language?.charCodeAt(0) !== 0x22) return undefined;
  if (target === undefined) return undefined;
  let root_id: string | null = null;
  if (root !== undefined && root !== "null") {
    if (root.charCodeAt(0) !== 0x22) return undefined;
    root_id = decodeLiteral(root);
  }
  return {
    example_id: decodeLiteral(id),
    language: decodeLanguage(language, languages),
    root_id,
    target,
    line: line.lineNo,
  };
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
    if (!f) throw inputErrorAt(at, `missing field "${name}"`);
    if (f.kind !== "string") {
      throw inputErrorAt(at, `field "${name}" must be a string, got ${f.kind}`);
    }
  }
  const target = fields.get("target");
  if (!target) throw inputErrorAt(at, 'missing field "target"');
  const root = fields.get("root_id");
  if (root && root.kind !== "string" && root.kind !== "null") {
    throw inputErrorAt(at, 'field "root_id" must be a string or null');
  }
  return {
    example_id: id as string,
    language: str("language") as string,
    root_id: (str("root_id") ?? null) as string | null,
    target: target.canonical,
    line: line.lineNo,
  };
}

/**
 * The exact parser's fields of the generation lines whose `output` looks written as a JSON object
 * or array (an API's whole response, which a decoder reads), by line index. A line whose fields
 * give a string `example_id` and `prompt_sha256` and an object or array `output` is read from them
 * alone: JSON.parse would give the same id and digest, and the output is this canonical text
 * either way. Any other line (a wrong guess, a line in error, a field of another kind) is read by
 * JSON.parse, which words the errors, in line order.
 */
function valueOutputFields(engine: Engine, lines: Line[]): Map<number, Map<string, ExactField>> {
  const at = lines.flatMap((line, i) => /"output"\s*:\s*[[{]/.test(line.text) ? [i] : []);
  const fields = new Map<number, Map<string, ExactField>>();
  engine.canonicalizeBatch(at.map((i) => lines[i]!.text)).forEach((c, k) => {
    const f = c.ok && fieldsOfCanonical(c.canonical);
    if (f) fields.set(at[k]!, f);
  });
  return fields;
}

/** The members of a generation whose invalid UTF-8 is read with U+FFFD replacements. */
export const MODEL_FIELDS: readonly string[] = ["output"];

/** Scores the sources with the general reader; the report, or a named error. */
export async function scoreGeneral(
  sources: RunSources,
  engine: Engine,
  progress: (source: Source, bytes: number) => unknown,
  options: Pick<ScoreOptions, "decoder" | "detail"> = {},
): Promise<EvaluationReport> {
  const scorer = new ScorerCore({
    engine,
    decoder: options.decoder,
    allowMissing: sources.allowMissing,
    detail: options.detail,
    withPrompts: sources.prompts !== undefined,
    exactTargets: true,
    valueOutputs: true,
    sources: {
      examples: sources.examples.name,
      generations: sources.generations.name,
      prompts: sources.prompts?.name,
    },
  });

  async function stream<T>(
    source: Source,
    toRows: (lines: Line[], source: string) => T[],
    add: (batch: T[]) => void,
    modelFields: readonly string[] = [],
  ): Promise<number> {
    let rows = 0;
    const runs = runsOf(source, { maxLineBytes: sources.maxLineBytes, modelFields }, progress);
    for await (const batch of lineBatches(runs)) {
      const found = toRows(batch, source.name);
      rows += found.length;
      add(found);
    }
    return rows;
  }

  const languages = new Map<string, string>();
  const examples = await stream(
    sources.examples,
    (lines, source) => exampleRows(engine, lines, source, languages),
    (b) => scorer.addExamples(b),
  );
  // No example at all: that is what to say, rather than that every generation is an orphan.
  if (!examples) throw inputErrorAt({ source: sources.examples.name }, "no example in the file");
  const prompts = sources.prompts === undefined ? undefined : await stream(
    sources.prompts,
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
  let invalidOutputs = 0;
  const generations = await stream(
    sources.generations,
    (lines, source) => {
      const exact = valueOutputFields(engine, lines);
      const whole: number[] = [];
      const rows = lines.map((line, i): GenerationInput => {
        if (line.invalidUtf8) invalidOutputs++;
        const f = exact.get(i);
        const id = f?.get("example_id");
        const digest = f?.get("prompt_sha256");
        const output = f?.get("output");
        const value = output?.kind === "object" || output?.kind === "array";
        if (id?.kind === "string" && digest?.kind === "string" && value) {
          return {
            example_id: decodeCanonicalString(id.canonical),
            prompt_sha256: decodeCanonicalString(digest.canonical),
            output: output.canonical,
            line: line.lineNo,
          };
        }
        const r = lineObject(line, source);
        if (r.prompt_sha256 === undefined) {
          const id = typeof r.example_id === "string" ? r.example_id : undefined;
          requireDigest(undefined, { source, line: line.lineNo, id });
        }
        if (typeof r.output === "object" && r.output) whole.push(i);
        return {
          example_id: r.example_id as string,
          prompt_sha256: r.prompt_sha256 as string,
          output: r.output as string,
          line: line.lineNo,
        };
      });
      // An output written as a JSON object or array (an API's whole response) is read as its
      // canonical text, from the line by the exact parser, where JSON.parse lost `1.0` from `1`.
      exactFields(engine, lines, whole, source, (f, i) => {
        rows[i]!.output = f.get("output")!.canonical;
      });
      return rows;
    },
    (b) => scorer.addGenerations(b),
    MODEL_FIELDS,
  );
  return scorer.finish(
    await inputDigests(sources, examples, prompts, generations, invalidOutputs),
  );
}

/**
 * The general reader's two sizes: input bytes split into lines at a time, and lines read into
 * rows at a time. Both are small so that a run's lines and a batch's rows are garbage by the
 * young generation's next collection. Held longer (4 MiB runs, 2,048-line batches), they were
 * promoted, and piled up in the old generation until a full collection: at 1,000,000 examples
 * (`bench/score_scale.ts --openai`) the peak RSS was 1,765 MiB, and is 737 MiB with these sizes.
 */
const RUN_BYTES = 1 << 16;
const BATCH_LINES = 256;
const BATCH_CHARS = 1 << 20;

/** The lines of a source's chunks, a run of at most RUN_BYTES at a time. */
async function* runsOf(
  source: Source,
  options: LineOptions,
  progress: (source: Source, bytes: number) => unknown,
): AsyncGenerator<LineRun> {
  const splitter = new LineSplitter({ ...options, source: source.name });
  for await (const chunk of source.chunks()) {
    for (let at = 0; at < chunk.length; at += RUN_BYTES) {
      const part = chunk.subarray(at, at + RUN_BYTES);
      await progress(source, part.length);
      const run = splitter.push(part);
      if (run) yield run;
    }
  }
  const run = splitter.end();
  if (run) yield run;
}

function isBlank(text: string): boolean {
  const c = text.charCodeAt(0);
  return c !== 0x7b && text.trim() === "";
}

/**
 * The non-blank lines in batches of consecutive lines, at most `maxLines` lines or about
 * `maxChars` characters each (blank lines count).
 */
async function* lineBatches(
  runs: AsyncIterable<LineRun>,
  maxLines = BATCH_LINES,
  maxChars = BATCH_CHARS,
): AsyncGenerator<Line[]> {
  let batch: Line[] = [];
  let count = 0;
  let chars = 0;
  for await (const run of runs) {
    const texts = run.texts;
    const invalid = run.invalid === undefined ? undefined : new Set(run.invalid);
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      if (!isBlank(text)) {
        batch.push({ text, lineNo: run.first + i, invalidUtf8: invalid?.has(i) ?? false });
      }
      count++;
      chars += text.length;
      if (count >= maxLines || chars >= maxChars) {
        yield batch;
        batch = [];
        count = 0;
        chars = 0;
      }
    }
  }
  if (batch.length > 0) yield batch;
}
