// scoreJsonl on the Wasm scoring kernel: each source's chunks go straight into the kernel's
// memory, whole lines at a time, on one thread. It returns the kernel's bail when the kernel gives
// the run back (anything it does not read exactly as the general reader does, errors included):
// the caller then scores the sources with the general reader, which gives the same report or
// words the error.
import type { Engine } from "../engine/mod.ts";
import { RECORDS_CLOSE, RECORDS_OPEN, reportFrame } from "./_report_frame.ts";
import type { EvaluationReport } from "./inputs.ts";
import type { ExampleRecord } from "./metrics.ts";
import { type KernelBail, ScoreKernel } from "./_score_kernel.ts";
import type { Source } from "../jsonl/source/mod.ts";
import { inputDigests } from "./_report_frame.ts";
import { LineTooLongError, longLineIn } from "../jsonl/mod.ts";

/** The sources of a run, in the order they are read. */
export interface RunSources {
  examples: Source;
  prompts: Source | undefined;
  generations: Source;
  /** The longest line read, in bytes (LineSplitter's limit). */
  maxLineBytes: number;
  /** Whether a kept example may lack its generation (scoreJsonl's allowMissing). */
  allowMissing: boolean;
}

/** A run's report, and its bytes in chunks made as they are read (each call starts again). */
export interface Scored {
  report: EvaluationReport;
  chunks: () => Iterable<Uint8Array>;
}

/** Where a kernel gave a run back. */
export interface KernelGaveBack extends KernelBail {
  /** The source's name. */
  source: string;
}

const encoder = new TextEncoder();

/**
 * At most this many bytes of whole lines go to the kernel at once (a longer line goes whole): the
 * kernel lays out its regions for a chunk in proportion to its length, so a smaller chunk keeps
 * its memory small, and a call costs next to nothing.
 */
const KERNEL_CHUNK = 1 << 20;

/**
 * Feeds one source through a kernel phase: each chunk's whole lines are written into the kernel's
 * memory and run, KERNEL_CHUNK bytes at most at a time; a line that goes on past the chunk waits
 * for the rest (its parts are kept, not copied again). Returns the non-blank rows, or the bail.
 */
async function feed(
  source: Source,
  maxLineBytes: number,
  kernel: ScoreKernel,
  run: (len: number, firstLine: number) => KernelBail | undefined,
  progress: (bytes: number) => unknown,
): Promise<number | KernelBail> {
  let pending: Uint8Array[] = [];
  let pendingLen = 0;
  let line = 1;
  let rows = 0;
  let atStart = true;
  const flush = (chunk: Uint8Array | undefined, upTo: number): KernelBail | undefined => {
    const len = pendingLen + upTo;
    if (len === 0) return undefined;
    const view = kernel.input(len);
    let at = 0;
    for (const p of pending) {
      view.set(p, at);
      at += p.length;
    }
    if (chunk) view.set(chunk.subarray(0, upTo), at);
    let start = 0;
    if (atStart && len >= 3 && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf) start = 3;
    atStart = false;
    if (start > 0) view.copyWithin(0, start, len);
    pending = [];
    pendingLen = 0;
    const bail = len - start > 0 ? run(len - start, line) : undefined;
    if (bail) return bail;
    line = kernel.nextLine;
    rows += kernel.chunkRows;
    return undefined;
  };
  for await (const chunk of source.chunks()) {
    await progress(chunk.length);
    // A line past the limit is the error the general reader would give: every line before it
    // was read (the general reader reads no further either), so nothing else comes first.
    const long = longLineIn(chunk, pendingLen, maxLineBytes);
    if (long >= 0) throw new LineTooLongError(source.name, line + long, maxLineBytes);
    for (let a = 0; a < chunk.length;) {
      const b = Math.min(a + KERNEL_CHUNK, chunk.length);
      const nl = chunk.lastIndexOf(10, b - 1);
      if (nl < a) {
        pending.push(chunk.slice(a, b)); // the producer may reuse its buffer
        pendingLen += b - a;
        a = b;
        continue;
      }
      // A BOM split across chunks is only seen once its three bytes are in.
      if (atStart && pendingLen + nl + 1 - a < 3) atStart = false;
      const bail = flush(chunk.subarray(a), nl + 1 - a);
      if (bail) return bail;
      a = nl + 1;
    }
  }
  const bail = flush(undefined, 0);
  return bail ?? rows;
}

/** Records' JSON lines (as formatReport lays them out, joined by ",\n") as records. */
function parseRecords(chunks: Iterable<Uint8Array>): ExampleRecord[] {
  const decoder = new TextDecoder();
  const out: ExampleRecord[] = [];
  for (const chunk of chunks) {
    // A chunk after the first starts with the ",\n" that ends the line before it.
    const text = decoder.decode(chunk[0] === 0x2c ? chunk.subarray(2) : chunk);
    for (const r of JSON.parse(`[${text}]`) as ExampleRecord[]) out.push(r);
  }
  return out;
}

/**
 * Scores the sources on the kernel. Returns the report and its bytes, or where the kernel gave
 * the run back.
 */
export async function scoreOnKernel(
  sources: RunSources,
  engine: Engine,
  progress: (source: Source, bytes: number) => unknown,
): Promise<Scored | KernelGaveBack> {
  const kernel = new ScoreKernel(engine.wasmModule!, sources.prompts !== undefined);
  const gaveUp = (source: Source, bail: KernelBail): KernelGaveBack => ({
    ...bail,
    source: source.name,
  });
  const phase = async (
    source: Source,
    run: (len: number, firstLine: number) => KernelBail | undefined,
  ) => await feed(source, sources.maxLineBytes, kernel, run, (n) => progress(source, n));

  const examples = await phase(sources.examples, (l, f) => kernel.examples(l, f));
  if (typeof examples !== "number") return gaveUp(sources.examples, examples);
  const frozen = kernel.freeze();
  if (frozen) return gaveUp(sources.examples, frozen);
  let prompts: number | undefined;
  if (sources.prompts) {
    const p = await phase(sources.prompts, (l, f) => kernel.prompts(l, f));
    if (typeof p !== "number") return gaveUp(sources.prompts, p);
    prompts = p;
  }
  const generations = await phase(sources.generations, (l, f) => kernel.generations(l, f));
  if (typeof generations !== "number") return gaveUp(sources.generations, generations);

  const inputs = await inputDigests(
    sources,
    examples,
    prompts,
    generations,
    kernel.invalidUtf8Outputs,
  );
  const done = kernel.finish(engine.name, inputs, sources.allowMissing);
  if ("reason" in done) return gaveUp(sources.examples, done);

  // The report's head and tail as formatReport lays them out, the kernel's records between.
  const { records: _, ...head } = done;
  const { before, after } = reportFrame(head);
  // A run that scored no example is refused (scoreJsonl's nonEmpty): there are records.
  function* chunks(): Generator<Uint8Array> {
    yield encoder.encode(before + RECORDS_OPEN);
    yield* kernel.records();
    yield encoder.encode(RECORDS_CLOSE + after + "\n");
  }
  // The records are parsed on first use, from the kernel's entries.
  let parsed: ExampleRecord[] | undefined;
  Object.defineProperty(done, "records", {
    enumerable: true,
    configurable: true,
    get: () => parsed ??= parseRecords(kernel.records()),
    set: (v: ExampleRecord[]) => {
      parsed = v;
    },
  });
  return { report: done, chunks };
}
