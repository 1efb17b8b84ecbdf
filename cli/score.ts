// `assay score`: open the files, score them with scoreJsonl, write the report atomically, print.
import { createHash } from "node:crypto";
import { type EvaluationReport, METRIC_NAMES, scoreJsonl } from "../src/evaluation/mod.ts";
import type { JsonlSource, ScoreJsonlResult } from "../src/evaluation/mod.ts";
import {
  asDecompressed,
  decompressed,
  inputName,
  openFile,
  readHead,
  sizeOf,
  withLineHint,
  writeStdout,
} from "./_io.ts";
import { writeAtomic } from "./_atomic.ts";
import { checkPaths, reportKind } from "./_paths.ts";
import { engineFromFlag, maxLineBytesFlag, oneOf, parseOptions } from "./_options.ts";
import { UsageError } from "./_errors.ts";
import { Progress } from "./_progress.ts";
import { rate, table } from "./_table.ts";
import type { OutputDecoder } from "../src/evaluation/mod.ts";
import type { Engine } from "../src/engine/mod.ts";
import { printableText } from "../src/explain/text/mod.ts";
// The formats and explain rooms are loaded only for --format/--numbers and --details: most runs
// score with neither, and loading them costs about 9 ms.

const sha256Text = (text: string) => createHash("sha256").update(text).digest("hex");

const HELP = `Usage: deno task assay score --examples FILE --generations FILE [--prompts FILE]
                           [--out report.json] [--force] [--json] [--quiet]
                           [--engine auto|wasm|ts] [--format NAME] [--numbers exact|numeric]
                           [--allow-missing] [--details]

Scores raw tool-call generations against gold examples and prints the five
metrics overall and per language, with their counts (docs/evaluation.md).

Inputs (JSONL; "-" reads stdin; gzip-compressed files are read decompressed):
  --examples FILE      {example_id, language, target, root_id?}
  --generations FILE   {example_id, prompt_sha256, output}; output is the model's text,
                       or a whole JSON response (an object or array), read exactly
  --prompts FILE       the formatter's manifest {example_id, prompt_sha256, prompt?};
                       when given, every generation's prompt_sha256 must match it

Reading:
  --format NAME        how outputs are decoded: sommelier (default, the engine's parser
                       assay.parser.v1), openai-chat, openai-responses, anthropic, hermes,
                       llama3, mistral, pythonic or json-list (docs/formats.md); the report's
                       parser_id is the decoder's id. A score takes one call per output: one
                       that decodes to several is multiple_calls, to none no_call (not valid).
                       A run without it that reads under a tenth of the outputs as calls ends
                       with a hint on stderr when a decoder reads most of the generations'
                       first 100 lines (of their first MiB; of stdin's too)
  --numbers MODE       exact (default: 150 and 150.0 differ) or numeric (numbers compare by
                       value, as Python's int/float ==); the report records numeric
  --details            write into each record why it scored so: the output (its first 2000
                       UTF-16 units, fewer if the cut would part a character such as an emoji;
                       its length and SHA-256), the gold and predicted calls and the differing
                       argument paths (for assay show; read by the general reader)
  --allow-missing      score the examples that have a generation and list the others in
                       the report's missing_generations (default: a missing generation
                       refuses the run, exit 2); the denominators count the scored ones

Output:
  --out FILE           write the assay.evaluation.v2 report (atomically); FILE may not
                       be an input, and an existing FILE must be such a report (or empty)
  --force              let --out replace a file that is not an evaluation report
  --json               print the report to stdout instead of the table
  --quiet              no progress bar
  --engine NAME        auto (default), wasm or ts; both give identical reports
                       apart from their "engine" field (the wasm engine reads the
                       files in its scoring kernel)
  --max-line-bytes N   the longest input line, in bytes (default 67108864, 64 MiB);
                       a longer line is an input error, found before the rest is read

Exit codes: 0 success (also when a reader closes stdout early), 2 invalid input,
a broken invariant or an unusable path (no report is written), 1 internal error.
`;

/** Bytes read per chunk from a file. */
const READ_BYTES = 4 << 20;

/** How much of the generations the --format hint samples: their first MiB (decompressed). */
const HINT_HEAD = 1 << 20;

/** The first bytes of a one-shot input, kept as they are read (at most `bytes.length`). */
interface Head {
  bytes: Uint8Array;
  size: number;
}

/** `chunks` as they are, their first bytes copied into `head` on the way. */
async function* keepingHead(
  chunks: AsyncIterable<Uint8Array>,
  head: Head,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    const n = Math.min(chunk.length, head.bytes.length - head.size);
    head.bytes.set(chunk.subarray(0, n), head.size);
    head.size += n;
    yield chunk;
  }
}

/**
 * A file as a source scoreJsonl can open again, stdin as a one-shot stream (its first bytes kept
 * in `head`, when given), each decompressed when it is gzip. `onOpen` is told each time the file
 * is opened.
 */
function fileSource(
  path: string,
  onOpen: (path: string) => void,
  onRead: (bytes: number) => void,
  head?: Head,
): JsonlSource {
  if (path === "-") {
    const chunks = decompressed(Deno.stdin.readable, inputName(path));
    return asDecompressed(head === undefined ? chunks : keepingHead(chunks, head));
  }
  return asDecompressed(() => {
    onOpen(path);
    return decompressed(fileChunks(path, onRead), path);
  });
}

/**
 * A file's chunks as read, into one buffer reused from chunk to chunk, telling `onRead` the bytes
 * read (of the file: a compressed file's progress is its own size's).
 */
async function* fileChunks(
  path: string,
  onRead: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  const file = await openFile(path);
  try {
    const buffer = new Uint8Array(READ_BYTES);
    for (;;) {
      const n = await file.read(buffer);
      if (n === null) return;
      onRead(n);
      if (n > 0) yield buffer.subarray(0, n);
    }
  } finally {
    file.close();
  }
}

/** Runs `assay score`. */
export async function runScore(args: string[]): Promise<void> {
  const { values, positionals } = parseOptions(args, {
    examples: { type: "string" },
    generations: { type: "string" },
    prompts: { type: "string" },
    out: { type: "string" },
    force: { type: "boolean" },
    json: { type: "boolean" },
    quiet: { type: "boolean", short: "q" },
    engine: { type: "string" },
    "max-line-bytes": { type: "string" },
    format: { type: "string" },
    numbers: { type: "string" },
    "allow-missing": { type: "boolean" },
    details: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
  if (!values.examples) throw new UsageError("--examples is required");
  if (!values.generations) throw new UsageError("--generations is required");
  checkPaths(
    [
      ["--examples", values.examples, true],
      ["--generations", values.generations, true],
      ["--prompts", values.prompts, true],
    ],
    [{
      flag: "--out",
      path: values.out,
      kind: reportKind("assay.evaluation.v2", "assay.evaluation.v1"),
    }],
    { force: values.force },
  );
  const quiet = values.quiet === true;
  const engine = engineFromFlag(values.engine, quiet);
  const maxLineBytes = maxLineBytesFlag(values["max-line-bytes"]);
  const decoder = await decoderFromFlags(values.format, values.numbers);
  const paths = { examples: values.examples, generations: values.generations };
  const all = [values.examples, values.generations, values.prompts].filter((p) => p !== undefined);
  const progress = new Progress(
    all.reduce((n, p) => n + sizeOf(p!), 0),
    "scoring",
    !quiet,
  );
  // The bar counts the files' bytes as they are read; a file opened again means a second pass
  // (the kernel gave the run back), which starts the bar again before its first read.
  const opened = new Set<string>();
  const onOpen = (path: string) => {
    if (opened.has(path)) {
      opened.clear();
      progress.restart();
    }
    opened.add(path);
  };
  const onRead = (bytes: number) => progress.add(bytes);
  // Stdin cannot be read again for the --format hint: the head it samples is kept as it is read.
  const hinted = values.format === undefined;
  const stdinHead = hinted && paths.generations === "-"
    ? { bytes: new Uint8Array(HINT_HEAD), size: 0 }
    : undefined;
  const sources = {
    examples: fileSource(paths.examples, onOpen, onRead),
    generations: fileSource(paths.generations, onOpen, onRead, stdinHead),
    prompts: values.prompts === undefined ? undefined : fileSource(values.prompts, onOpen, onRead),
  };
  const options = {
    engine,
    names: {
      examples: inputName(paths.examples),
      generations: inputName(paths.generations),
      prompts: values.prompts === undefined ? undefined : inputName(values.prompts),
    },
    sha256: () => createHash("sha256"),
    maxLineBytes,
    decoder,
    allowMissing: values["allow-missing"] === true,
    ...(values.details && {
      detail: (await import("../src/explain/mod.ts")).explainScore({ sha256: sha256Text }),
    }),
  };
  let scored: ScoreJsonlResult;
  try {
    scored = await scoreJsonl(sources, options);
  } catch (e) {
    throw withLineHint(e);
  }
  const { report, chunks } = scored;
  progress.done();
  if (values.out !== undefined) await writeAtomic(values.out, chunks());
  if (values.json) {
    await writeStdout(chunks());
  } else {
    console.log(summary(report));
    if (values.out !== undefined) console.log(`\nReport written to ${values.out}`);
  }
  if (hinted) {
    const head = async () =>
      stdinHead === undefined
        ? await readHead(paths.generations, HINT_HEAD)
        : stdinHead.bytes.subarray(0, stdinHead.size);
    const hint = await formatHint(report, head, values.numbers, engine);
    if (hint !== undefined) console.error(hint);
  }
}

/**
 * The hint of a run that read under a tenth of its outputs as calls with no --format given, when
 * a decoder reads most of a sample of them (suggestDecoder, on the generations' first 100 lines
 * within their first MiB, `head`): outputs logged as an API's whole responses want --format. The
 * command it suggests keeps the run's --numbers. The formats room is loaded only then.
 */
async function formatHint(
  report: EvaluationReport,
  head: () => Promise<Uint8Array>,
  numbers: string | undefined,
  engine: Engine,
): Promise<string | undefined> {
  if (report.n === 0 || report.parse_status_counts.ok * 10 >= report.n) return undefined;
  const { suggestDecoder } = await import("../src/formats/mod.ts");
  const { sampled, parsed, best } = suggestDecoder(await head(), { engine });
  if (best === undefined) return undefined;
  return `hint: ${report.parse_status_counts.ok} of ${report.n} outputs parsed as a call; of ` +
    `the first ${sampled}, --format ${best.format} reads ${best.ok} as calls, where the default ` +
    `parser read ${parsed}. Score them with --format ${best.format}` +
    (numbers === undefined ? "" : ` --numbers ${numbers}`);
}

/**
 * The decoder of --format and --numbers, or undefined for the default (the engine's parser,
 * numbers exact), which keeps the scoring kernel and today's reports byte for byte.
 */
async function decoderFromFlags(
  format: string | undefined,
  numbers: string | undefined,
): Promise<OutputDecoder | undefined> {
  if (numbers !== undefined) oneOf("--numbers", numbers, ["exact", "numeric"]);
  const plain = format === undefined || format === "sommelier" || format === "sommelier@1";
  if (plain && numbers !== "numeric") return undefined;
  const { forScoring } = await import("../src/formats/mod.ts");
  try {
    return forScoring(format, { numbers: numbers as "exact" | "numeric" | undefined });
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new UsageError(`--format: ${e.message}`);
  }
}

/**
 * The human-readable summary: metrics per slice with counts, statuses and drops. Languages and
 * ids are shown as printableText writes them.
 */
export function summary(report: EvaluationReport): string {
  const rows = [
    ["overall", report.metrics.overall] as const,
    ...report.slices.map((s) => [s, report.metrics.by_language[s]!] as const),
  ].map(([slice, m]) => [
    printableText(slice),
    String(m.valid_json_rate.denominator),
    ...METRIC_NAMES.map((k) => rate(m[k])),
  ]);
  const s = report.parse_status_counts;
  const d = report.drop_summary;
  const dropped = d.multiple_calls + d.empty_target + d.malformed_target;
  return [
    table(["slice", "n", ...METRIC_NAMES], rows),
    "",
    `parse status: ${Object.entries(s).map(([k, v]) => `${k} ${v}`).join(", ")}`,
    `dropped before scoring: ${dropped} (multiple_calls ${d.multiple_calls}, empty_target ${d.empty_target}, malformed_target ${d.malformed_target})`,
    `engine ${report.engine}, ${report.parser_id}, ${report.canonical_id}` +
    (report.numbers ? `, numbers ${report.numbers}` : ""),
    ...(report.missing_generations
      ? [
        `missing generations (left out of every metric): ${report.missing_generations.count} ` +
        `(${report.missing_generations.ids.slice(0, 12).map(printableText).join(", ")}` +
        `${report.missing_generations.count > 12 ? ", …" : ""})`,
      ]
      : []),
  ].join("\n");
}
