// `assay score`'s fast path: the three files read straight into the Wasm scoring kernel
// (src/evaluation/_score_kernel.ts), one chunk of whole lines at a time. It returns undefined when the
// kernel gives the run back (anything it does not read itself, errors included); the caller then
// scores the files with the general reader, which gives the same report or words the error.
import { digestFiles } from "./_digest.ts";
import type { Engine } from "../src/engine/mod.ts";
import type { EvaluationReport } from "../src/evaluation/mod.ts";
import { formatReport } from "../src/report/mod.ts";
import { type KernelBail, ScoreKernel } from "../src/evaluation/_score_kernel.ts";
import { defaultWasmModule } from "../src/engine/_wasm_engine.ts";
import {
  endChunkBytes,
  type FileRange,
  type FileShare,
  readClaims,
  readEnds,
  readPhase,
} from "./_kernel_read.ts";
import type { Progress } from "./_progress.ts";
import { parallelBytes, type Prestarted, takeScoreWorker } from "./_score_prestart.ts";
export { setParallelBytes } from "./_score_prestart.ts";

const encoder = new TextEncoder();

/**
 * The fast path's result: the report (records left out) and the report file's bytes, in parts
 * (the records' lines are a view of the kernel's memory). With a worker, the files' digests may
 * still be on their way: `digests` resolves once they are in the report and in `parts[0]`, the
 * head, which it gives again (the same length: a digest is 64 hex digits, placeholders too), so
 * the rest of the file can be written meanwhile.
 */
export interface FastScore {
  report: EvaluationReport;
  parts: Uint8Array[];
  digests: Promise<Uint8Array>;
}

/** Why the last fast run gave up, for tests. */
export let lastBail: (KernelBail & { file: string }) | undefined;
/** How the last fast run went, for tests: whether a worker read a part (and whether it was
 * started ahead), and how many examples the glue scored on this thread. */
export let lastRun: { helper: boolean; ahead: boolean; scoredHere: number } | undefined;

/** The worker's messages after "examples": a chunk's entries each, then its rows. */
type EntriesReply = { segment: { bytes: Uint8Array; count: number } } | { rows: number };

/** The worker's reply to "score", once all it found is in the shared buffer. */
interface ResultsReply {
  rows: { prompts: number; generations: number };
}

/** The worker's reply to the last "digest". */
interface DigestsReply {
  digests: Record<string, string>;
}

/**
 * The worker that reads examples.jsonl from its back end and claims its share of the others
 * (cli/_score_worker.ts): `started` (with what it said before this took it over), or a new one,
 * if one starts.
 */
function startHelper(started?: { worker: Worker; early: Prestarted["early"] }):
  | {
    post(message: unknown, transfer?: Transferable[]): void;
    next<T extends EntriesReply | ResultsReply | DigestsReply>(): Promise<T | { bail: KernelBail }>;
    stop(): void;
  }
  | undefined {
  let worker: Worker;
  try {
    worker = started?.worker ??
      new Worker(new URL("./_score_worker.ts", import.meta.url), { type: "module" });
  } catch {
    return undefined;
  }
  // Replies in order; a reply that comes before `next` is asked for waits in `arrived`.
  const arrived: ({ value: unknown } | { error: Error })[] = [];
  let waiting: { resolve(v: unknown): void; reject(e: unknown): void } | undefined;
  const deliver = (r: { value: unknown } | { error: Error }) => {
    const w = waiting;
    waiting = undefined;
    if (!w) arrived.push(r);
    else if ("error" in r) w.reject(r.error);
    else w.resolve(r.value);
  };
  const received = (data: { error?: string }) =>
    deliver(
      data.error !== undefined
        ? { error: new Error(`Score worker: ${data.error}`) }
        : { value: data },
    );
  const failed = (message: string) => deliver({ error: new Error(`Score worker: ${message}`) });
  // A worker started ahead may have spoken already (its words were kept for this).
  for (const m of started?.early ?? []) {
    if ("error" in m) failed(m.error);
    else received(m.data as { error?: string });
  }
  worker.onmessage = (e: MessageEvent<{ error?: string }>) => received(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    failed(e.message);
  };
  return {
    post: (message, transfer) => worker.postMessage(message, transfer ?? []),
    next: <T>() =>
      new Promise<T>((resolve, reject) => {
        const r = arrived.shift();
        if (!r) waiting = { resolve: resolve as (v: unknown) => void, reject };
        else if ("error" in r) reject(r.error);
        else resolve(r.value as T);
      }),
    stop: () => worker.terminate(),
  };
}

/**
 * Scores the files with the kernel. Returns undefined when the kernel gives the run back, or
 * when a file is not a regular file (stdin cannot be read twice).
 */
export async function scoreFast(
  paths: { examples: string; generations: string; prompts: string | undefined },
  engine: Engine,
  progress: Progress,
): Promise<FastScore | undefined> {
  lastBail = undefined;
  lastRun = undefined;
  const stops: (() => void)[] = [];
  try {
    return await runFast(paths, engine, progress, stops);
  } catch (e) {
    // A failure of the fast path itself (a worker that died, memory past the module's 4 GiB):
    // the general reader scores the files, and says so.
    for (const stop of stops) stop();
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    lastBail = { reason: `the fast path failed (${why})`, line: 0, file: "" };
    console.error(`assay score: the fast path failed (${why}); reading with the general reader`);
    return undefined;
  }
}

async function runFast(
  paths: { examples: string; generations: string; prompts: string | undefined },
  engine: Engine,
  progress: Progress,
  stops: (() => void)[],
): Promise<FastScore | undefined> {
  const files = [paths.examples, paths.generations, ...paths.prompts ? [paths.prompts] : []];
  const sizes: number[] = [];
  for (const p of files) {
    if (p === "-") return undefined;
    try {
      const info = Deno.statSync(p);
      if (!info.isFile) return undefined;
      sizes.push(info.size);
    } catch {
      return undefined; // the general reader words the error
    }
  }
  const withPrompts = paths.prompts !== undefined;
  // From parallelBytes on, a worker reads the later part of examples.jsonl, claims its share of
  // the other files and digests the files; below, this thread reads them all and digests them at
  // the end (hashing less than that takes less than starting a worker). A worker started ahead
  // (cli/_score_prestart.ts) is already reading its part of the examples, if it guessed the
  // files this run reads.
  let ahead = takeScoreWorker();
  const parallel = sizes.reduce((a, b) => a + b, 0) >= parallelBytes;
  if (
    ahead &&
    (!parallel || ahead.examples.path !== paths.examples || ahead.examples.size !== sizes[0] ||
      ahead.examples.chunk !== endChunkBytes() ||
      ahead.withPrompts !== withPrompts)
  ) {
    ahead.worker.terminate();
    ahead = undefined;
  }
  const helper = parallel ? startHelper(ahead) : undefined;
  if (helper) stops.push(helper.stop);
  const module = ahead?.module ?? defaultWasmModule();
  const kernel = new ScoreKernel(module, engine, withPrompts);
  const gaveUp = (file: string, bail: KernelBail): undefined => {
    for (const stop of stops) stop();
    lastBail = { ...bail, file };
    return undefined;
  };
  // Rows are counted per claim here, and in part there: the bar shows bytes.
  const onRead = (n: number) => progress.add(n);
  // The bytes the worker has read, which it counts where the progress bar sees them.
  const workerRead = ahead?.read ?? new BigInt64Array(new SharedArrayBuffer(8));
  if (helper) progress.countOthers(() => Number(Atomics.load(workerRead, 0)));
  const whole = (path: string, size: number): FileRange => ({ path, from: 0, to: size });
  // examples.jsonl is read whole here, or (with a helper) from its two ends: this thread takes
  // chunks from the front, the worker from the back, until they meet (see readEnds).
  const taken = ahead?.examples.taken ?? new Int32Array(new SharedArrayBuffer(4));
  if (helper && !ahead) {
    helper.post({
      kind: "examples",
      path: paths.examples,
      size: sizes[0]!,
      chunk: endChunkBytes(),
      taken,
      withPrompts,
      module,
      read: workerRead,
    });
  }
  // Once the worker has read its examples, and while this thread freezes them, it digests the
  // other files; examples.jsonl once all are read, while this thread writes the records (the
  // digests are written last, over placeholders of the same length).
  helper?.post({ kind: "digest", paths: files.filter((f) => f !== paths.examples) });
  const runExamples = (l: number, f: number) => kernel.examples(l, f);
  let examples = helper
    ? readEnds(paths.examples, sizes[0]!, endChunkBytes(), taken, true, kernel, runExamples, onRead)
    : readPhase(whole(paths.examples, sizes[0]!), kernel, runExamples, onRead);
  if (typeof examples !== "number") return gaveUp(paths.examples, examples);
  if (helper) {
    kernel.settleGold(); // while the worker reads its last chunks
    // Its chunks came from the back of the file, the last first: appended the other way round.
    const segments: { bytes: Uint8Array; count: number }[] = [];
    for (;;) {
      const r = await helper.next<EntriesReply>();
      if ("bail" in r) return gaveUp(paths.examples, r.bail);
      if ("segment" in r) {
        segments.push(r.segment);
        continue;
      }
      for (const segment of segments.reverse()) kernel.appendEntries(segment);
      examples += r.rows;
      break;
    }
  }
  const frozen = kernel.freeze();
  if (frozen) return gaveUp(paths.examples, frozen);

  // Prompts, then generations. With a helper, both readers claim ranges of each file in turn
  // through shared counters (see readClaims), so they end together however fast each reads. The
  // worker appends what each of its chunks found to `found` (and its length to the third
  // counter); this thread merges it between its own chunks, so little is left at the end.
  const claims = helper ? new BigInt64Array(new SharedArrayBuffer(24)) : undefined;
  // At most a prompt (40 bytes) and a generation (56) per example: more is a duplicate, which
  // the worker gives up on first.
  const found = helper ? new Uint8Array(new SharedArrayBuffer(examples * 96 + 1024)) : undefined;
  let merged = 0;
  const merge = (): KernelBail | undefined => {
    const written = Number(Atomics.load(claims!, 2));
    if (written === merged) return undefined;
    const bail = kernel.merge(found!.subarray(merged, written));
    merged = written;
    return bail;
  };
  const prompts: FileShare | undefined = paths.prompts === undefined
    ? undefined
    : { path: paths.prompts, size: sizes[2]! };
  const generations: FileShare = { path: paths.generations, size: sizes[1]! };
  if (helper) {
    const state = kernel.frozenState();
    helper.post({ kind: "score", state, claims, found, prompts, generations }, [
      state.bytes.buffer,
    ]);
    helper.post({ kind: "digest", paths: [paths.examples], reply: true });
  }
  const read = (
    file: FileShare,
    slot: number,
    run: (len: number, firstLine: number) => KernelBail | undefined,
  ) =>
    claims
      ? readClaims(file.path, file.size, claims, slot, kernel, run, onRead, merge)
      : readPhase(whole(file.path, file.size), kernel, run, onRead);
  let promptRows = 0;
  if (prompts) {
    const p = read(prompts, 0, (l, f) => kernel.prompts(l, f));
    if (typeof p !== "number") return gaveUp(prompts.path, p);
    promptRows = p;
  }
  let generationRows = read(generations, 1, (l, f) => kernel.generations(l, f));
  if (typeof generationRows !== "number") return gaveUp(paths.generations, generationRows);
  if (helper) {
    const r = await helper.next<ResultsReply>();
    if ("bail" in r) return gaveUp(paths.generations, r.bail);
    const bail = merge(); // what the worker found in its last chunks
    if (bail) return gaveUp(paths.generations, bail);
    promptRows += r.rows.prompts;
    generationRows += r.rows.generations;
  }
  lastRun = {
    helper: helper !== undefined,
    ahead: ahead !== undefined,
    scoredHere: kernel.scoredHere,
  };
  const placeholder = "0".repeat(64);
  const done = kernel.finish(engine.name, {
    examples: { sha256: placeholder, rows: examples },
    generations: { sha256: placeholder, rows: generationRows },
    prompts: prompts ? { sha256: placeholder, rows: promptRows } : null,
  });
  if ("reason" in done) return gaveUp(paths.examples, done);
  // The report with `"records": []`, its records spliced in as the general writer lays them out.
  const end = "[]\n}\n";
  const headOf = (report: EvaluationReport) => {
    const text = formatReport(report);
    if (!text.endsWith(end)) throw new Error("Unexpected report layout");
    return encoder.encode(text.slice(0, -end.length));
  };
  const head = headOf(done.report);
  const parts = done.records.length === 0
    ? [head, encoder.encode(end)]
    : [head, encoder.encode("[\n"), done.records, encoder.encode("\n  ]\n}\n")];
  const digests = (async () => {
    let hex: string[] | undefined;
    if (helper) {
      // The worker digests examples.jsonl while the records are written.
      const r = await helper.next<DigestsReply>().catch(() => undefined);
      helper.stop();
      if (r && !("bail" in r)) hex = files.map((f) => r.digests[f]!);
    }
    hex ??= await digestFiles(files); // alone, or if the worker failed to
    const inputs = done.report.inputs;
    (["examples", "generations", "prompts"] as const).forEach((file, i) => {
      const input = inputs[file];
      if (input) input.sha256 = hex[i]!;
    });
    parts[0] = headOf(done.report);
    if (parts[0].length !== head.length) throw new Error("The report's head changed length");
    return parts[0];
  })();
  return { report: done.report, parts, digests };
}
