/**
 * {@linkcode scoreJsonl}: the one scoring pipeline, from the bytes of examples.jsonl,
 * generations.jsonl and an optional prompts.jsonl to the `assay.evaluation.v2` report and its
 * exact bytes, as `assay score` writes them (docs/evaluation.md). Web APIs only: it runs in edge
 * functions as it does in the CLI.
 *
 * On the Wasm engine the files go through the module's scoring kernel, on one thread; on the TS
 * engine, or when the kernel meets an input it does not read itself (any error among them), the
 * general reader scores them. Both give the same report, byte for byte, but for its `engine`
 * field.
 *
 * @module
 */
import { checkOptions, type Engine, engineOf } from "../engine/mod.ts";
import type { EvaluationReport, OutputDecoder } from "./inputs.ts";
import type { DetailWriter } from "./metrics.ts";
import { type KernelGaveBack, type RunSources, scoreOnKernel } from "./_kernel_run.ts";
import { scoreGeneral } from "./_general_reader.ts";
import { type ByteHasher, type JsonlSource, Source } from "../jsonl/source/mod.ts";
import { formatReportParts } from "./report_json.ts";
import { InputError, maxLineBytesOf } from "../jsonl/mod.ts";

export type { ByteHasher, JsonlSource } from "../jsonl/source/mod.ts";

/** The inputs of {@linkcode scoreJsonl}. */
export interface JsonlSources {
  /** examples.jsonl: `{example_id, language, target, root_id?}` per line. */
  examples: JsonlSource;
  /**
   * generations.jsonl: `{example_id, prompt_sha256, output}` per line; an output written as a JSON
   * object or array (a whole API response) is read as its canonical text, exactly.
   */
  generations: JsonlSource;
  /** prompts.jsonl, the formatter's manifest: `{example_id, prompt_sha256, prompt?}` per line. */
  prompts?: JsonlSource;
}

/** What {@linkcode scoreJsonl} has read so far. */
export interface ScoreProgress {
  /** The source being read: `examples`, `prompts` or `generations`. */
  source: "examples" | "prompts" | "generations";
  /** Its name, as messages give it. */
  name: string;
  /** Bytes of it read so far in this pass (of a gzip source, decompressed bytes). */
  bytes: number;
  /**
   * 1, or 2 when the kernel gave the run back and the general reader reads the sources again from
   * the start.
   */
  pass: 1 | 2;
}

/** Options for {@linkcode scoreJsonl}. */
export interface ScoreJsonlOptions {
  /**
   * The engine (from `createEngine`; on workerd, one made with `wasmModule`); the default engine
   * when absent. A `wasm` engine scores on its scoring kernel.
   */
  engine?: Engine;
  /**
   * Whether a `wasm` engine scores on its scoring kernel (default `true`). With `false` the
   * general reader scores the sources, as on the `ts` engine; the report is the same.
   */
  kernel?: boolean;
  /** Names of the sources in messages and errors, such as file names. */
  names?: { examples?: string; generations?: string; prompts?: string };
  /**
   * The longest line read, in bytes before its `\n` (default 64 MiB): a longer line is an
   * {@linkcode LineTooLongError}, found as soon as its bytes pass the limit, so that memory stays
   * bounded by the limit whatever the input.
   */
  maxLineBytes?: number;
  /**
   * Called after each chunk a pass reads; a promise it returns (an async function) is awaited, and
   * its rejection is the run's.
   */
  onProgress?: (progress: ScoreProgress) => void;
  /**
   * Makes the incremental SHA-256 of a source read in chunks (for example
   * `() => createHash("sha256")` from `node:crypto`, which is faster than the built-in pure-TS
   * one). A source given as one Uint8Array is digested with Web Crypto when there is no hasher.
   * Its digest, which the report records, must be 64 lowercase hex digits (a TypeError else).
   */
  sha256?: () => ByteHasher;
  /**
   * Reads the outputs (and compares numbers) in place of the engine's parser: from
   * `@assay/assay/formats`' `forScoring` (anything else is a TypeError). The report's `parser_id`
   * is its id. The general reader scores: the kernel reads only the parser's outputs, numbers
   * exact.
   */
  decoder?: OutputDecoder;
  /**
   * Score the examples that have a generation and list the others in the report's
   * `missing_generations` (default `false`: a missing generation refuses the run).
   */
  allowMissing?: boolean;
  /**
   * Writes each record's `detail` (from `@assay/assay/explain`'s `explainScore`). The general
   * reader scores: the kernel writes no details.
   */
  detail?: DetailWriter;
}

/** What {@linkcode scoreJsonl} returns. */
export interface ScoreJsonlResult {
  /**
   * The report. On the scoring kernel its `records` are made when first read (an array of a
   * million records is a few hundred MB: chunks() gives their bytes without it).
   */
  report: EvaluationReport;
  /**
   * The report file's exact bytes, what `assay score --out` writes, in chunks of about 1 MiB
   * made as they are read (each call starts again from the first byte). Writing them one after
   * the other holds one chunk of the report at a time, whatever its size; in an edge function,
   * `new Response(ReadableStream.from(result.chunks()))` streams it.
   */
  chunks(): Iterable<Uint8Array>;
  /** The report file's exact bytes, all at once (the chunks joined, when first read). */
  readonly bytes: Uint8Array;
  /** Set when the kernel gave the run back to the general reader: why, and where. */
  handedBack?: { reason: string; source: string; line: number };
}

const encoder = new TextEncoder();

// A run that scored no example has no score: its report would give every metric as 0 of 0,
// which a CI job would take for a result (say, when the step that writes the files wrote
// nothing, or every target was dropped).
function nonEmpty(report: EvaluationReport, run: RunSources): EvaluationReport {
  if (report.n) return report;
  const d = report.drop_summary;
  throw new InputError(
    `${run.examples.name}: no example ` +
      (report.inputs.examples?.rows
        ? `scored: ${d.multiple_calls + d.empty_target + d.malformed_target} dropped, ${
          report.missing_generations?.count ?? 0
        } missing`
        : "in the file"),
    { at: { source: run.examples.name } },
  );
}

/**
 * Scores tool-call generations in JSONL against examples in JSONL (CONTRACT §4–5): reads the
 * lines exactly (a gold `1.0` stays a float, big integers keep their digits), checks the
 * invariants and returns the report with its exact bytes.
 *
 * A source is a `Uint8Array`, a `ReadableStream<Uint8Array>`, an async iterable of chunks, or a
 * function that opens a fresh stream or iterable each time it is called. A one-shot stream or
 * iterable keeps a copy of its chunks until the run ends (the general reader may need to read it
 * again), so a function is the way to score files larger than memory; any source's chunks may
 * reuse one buffer. A source whose first two bytes are gzip's magic number is read decompressed
 * (with `DecompressionStream`; one gzip member, on every runtime), and its digest is the
 * decompressed bytes', so the report is the plain file's.
 *
 * @param sources The examples, the generations and, optionally, the prompts manifest.
 * @param options The engine, the sources' names, a progress callback and a SHA-256 hasher.
 * @returns The report and its bytes.
 * @throws {InputError} If a line is malformed, longer than the line limit (a
 *   {@linkcode LineTooLongError}), or a field is missing or mistyped, or no example was scored
 *   (the examples source holds none, or every example was dropped or, with `allowMissing`,
 *   missing its generation), or a source is gzip that DecompressionStream does not read (a
 *   second member on Deno, corrupt or cut short data, or no DecompressionStream in the runtime).
 * @throws {InvariantViolation} If the inputs break an invariant (duplicate ids, orphans, missing
 *   generations, digest mismatches).
 * @throws {TypeError} If a source is not bytes, a stream, an iterable or a function, or a
 *   function gives the stream or iterable it gave before (a second pass would read on from where
 *   the first stopped), or an option that should be an engine is not one, or `decoder` is not
 *   a scoring decoder from `forScoring` (a name, or `getDecoder`'s decoder, among others).
 * @throws {RangeError} If `maxLineBytes` is not a positive whole number.
 *
 * @example Score JSONL bytes
 * ```ts
 * import { scoreJsonl } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const bytes = (lines: unknown[]) =>
 *   new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
 * const sha = "0".repeat(64);
 * const { report } = await scoreJsonl({
 *   examples: new TextEncoder().encode(
 *     '{"example_id": "1", "language": "en", "target": {"name": "f", "arguments": {"x": 1.0}}}\n',
 *   ),
 *   generations: bytes([
 *     { example_id: "1", prompt_sha256: sha, output: '{"name": "f", "arguments": {"x": 1}}' },
 *   ]),
 * });
 * // 1 is not 1.0: the name matches, the arguments do not.
 * assertEquals(report.metrics.overall.function_name_accuracy.value, 1);
 * assertEquals(report.metrics.overall.argument_exact_match.value, 0);
 * ```
 */
export async function scoreJsonl(
  sources: JsonlSources,
  options: ScoreJsonlOptions = {},
): Promise<ScoreJsonlResult> {
  checkOptions(options);
  if (typeof sources !== "object" || sources === null) {
    throw new TypeError("Expected the sources { examples, generations, prompts? }");
  }
  const engine = engineOf(options.engine);
  const names = options.names ?? {};
  const run: RunSources = {
    maxLineBytes: maxLineBytesOf(options.maxLineBytes),
    allowMissing: options.allowMissing === true,
    examples: new Source(sources.examples, names.examples ?? "examples", options.sha256),
    prompts: sources.prompts === undefined
      ? undefined
      : new Source(sources.prompts, names.prompts ?? "prompts", options.sha256),
    generations: new Source(
      sources.generations,
      names.generations ?? "generations",
      options.sha256,
    ),
  };
  const kinds = new Map<Source, ScoreProgress["source"]>([
    [run.examples, "examples"],
    [run.generations, "generations"],
  ]);
  if (run.prompts) kinds.set(run.prompts, "prompts");
  let pass: 1 | 2 = 1;
  const read = new Map<Source, number>();
  const progress = (source: Source, n: number) => {
    const bytes = (read.get(source) ?? 0) + n;
    read.set(source, bytes);
    return options.onProgress?.({ source: kinds.get(source)!, name: source.name, bytes, pass });
  };
  try {
    let gaveBack: KernelGaveBack | undefined;
    if (
      options.decoder === undefined && !options.detail && options.kernel !== false &&
      engine.name === "wasm" &&
      engine.wasmModule !== undefined
    ) {
      const scored = await scoreOnKernel(run, engine, progress);
      if (!("source" in scored)) return resultOf(nonEmpty(scored.report, run), scored.chunks);
      gaveBack = scored;
      pass = 2;
      read.clear();
    }
    const report = nonEmpty(await scoreGeneral(run, engine, progress, options), run);
    const result = resultOf(report, function* () {
      for (const part of formatReportParts(report)) yield encoder.encode(part);
    });
    if (gaveBack) {
      result.handedBack = {
        reason: gaveBack.reason,
        source: gaveBack.source,
        line: gaveBack.line,
      };
    }
    return result;
  } finally {
    for (const s of [run.examples, run.prompts, run.generations]) await s?.release();
  }
}

function resultOf(
  report: EvaluationReport,
  chunks: () => Iterable<Uint8Array>,
): ScoreJsonlResult {
  let bytes: Uint8Array | undefined;
  return {
    report,
    chunks,
    get bytes(): Uint8Array {
      if (bytes === undefined) {
        const parts = [...chunks()];
        bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const p of parts) {
          bytes.set(p, at);
          at += p.length;
        }
      }
      return bytes;
    },
  };
}
