// `assay score`'s fast path: the three files read straight into the Wasm scoring kernel
// (src/_score_kernel.ts), one chunk of whole lines at a time. It returns undefined when the
// kernel gives the run back (anything it does not read itself, errors included); the caller then
// scores the files with the general reader, which gives the same report or words the error.
import { digestFiles } from "./_digest.ts";
import type { Engine } from "../src/engine.ts";
import type { EvaluationReport } from "../src/evaluation.ts";
import { formatReport } from "../src/report_json.ts";
import { type KernelBail, ScoreKernel } from "../src/_score_kernel.ts";
import { defaultWasmModule } from "../src/_wasm_engine.ts";
import { type FileRange, readPhase, splitPoint } from "./_kernel_read.ts";
import type { Progress } from "./_progress.ts";

/** Inputs at least this large are read by two kernel instances, here and on a worker. */
let parallelBytes = 16 << 20;
/**
 * The share of examples.jsonl read here: the worker starts later, and ships its entries over.
 */
const EXAMPLES_HERE = 0.55;
/** The share of prompts.jsonl and generations.jsonl read here. */
const REST_HERE = 0.55;

/** Sets the input size from which a worker reads half the files (for tests). */
export function setParallelBytes(bytes: number): void {
  parallelBytes = bytes;
}
const encoder = new TextEncoder();

/**
 * The fast path's result: the report (records left out) and the report file's bytes, in parts
 * (the records' lines are a view of the kernel's memory).
 */
export interface FastScore {
  report: EvaluationReport;
  parts: Uint8Array[];
}

/** Why the last fast run gave up, for tests. */
export let lastBail: (KernelBail & { file: string }) | undefined;
/** How the last fast run went, for tests: whether a worker read half, and how many examples
 * the glue scored on this thread. */
export let lastRun: { helper: boolean; scoredHere: number } | undefined;

/** The worker's reply to "examples". */
interface EntriesReply {
  rows: number;
  entries: { bytes: Uint8Array; count: number };
}

/** The worker's reply to "score". */
interface ResultsReply {
  rows: { prompts: number; generations: number };
  results: Uint8Array;
  digests: string[];
}

/** The worker that reads the second half of each file (cli/_score_worker.ts), if one starts. */
function startHelper():
  | {
    post(message: unknown, transfer?: Transferable[]): void;
    next<T extends EntriesReply | ResultsReply>(): Promise<T | { bail: KernelBail }>;
    stop(): void;
  }
  | undefined {
  let worker: Worker;
  try {
    worker = new Worker(new URL("./_score_worker.ts", import.meta.url), { type: "module" });
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
  worker.onmessage = (e: MessageEvent<{ error?: string }>) => {
    deliver(
      e.data.error !== undefined
        ? { error: new Error(`Score worker: ${e.data.error}`) }
        : { value: e.data },
    );
  };
  worker.onerror = (e) => {
    e.preventDefault();
    deliver({ error: new Error(`Score worker: ${e.message}`) });
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
  // From parallelBytes on, a worker reads the later part of each file and digests the files;
  // below, this thread digests them at the end (hashing less than that takes less than starting
  // a worker).
  const helper = sizes.reduce((a, b) => a + b, 0) >= parallelBytes ? startHelper() : undefined;
  if (helper) stops.push(helper.stop);
  const kernel = new ScoreKernel(defaultWasmModule(), engine, withPrompts);
  const gaveUp = (file: string, bail: KernelBail): undefined => {
    for (const stop of stops) stop();
    lastBail = { ...bail, file };
    return undefined;
  };
  const onRead = (n: number, rows: number) => progress.add(n, rows);
  const whole = (path: string, size: number): FileRange => ({ path, from: 0, to: size });
  // Each file is read whole here, or (with a helper) its first half here and the rest there.
  const split = (path: string, size: number, share: number): [FileRange, FileRange | undefined] => {
    if (!helper) return [whole(path, size), undefined];
    const at = splitPoint(path, size, share);
    return [{ path, from: 0, to: at }, { path, from: at, to: size }];
  };

  const [examplesHere, examplesThere] = split(paths.examples, sizes[0]!, EXAMPLES_HERE);
  helper?.post({
    kind: "examples",
    range: examplesThere,
    withPrompts,
    digest: files,
    module: defaultWasmModule(),
  });
  let examples = readPhase(examplesHere, kernel, (l, f) => kernel.examples(l, f), onRead);
  if (typeof examples !== "number") return gaveUp(paths.examples, examples);
  if (helper) {
    kernel.settleGold(); // while the worker reads its part
    const r = await helper.next<EntriesReply>();
    if ("bail" in r) return gaveUp(paths.examples, r.bail);
    kernel.appendEntries(r.entries);
    examples += r.rows;
  }
  const frozen = kernel.freeze();
  if (frozen) return gaveUp(paths.examples, frozen);

  const [promptsHere, promptsThere] = paths.prompts === undefined
    ? [undefined, undefined]
    : split(paths.prompts, sizes[2]!, REST_HERE);
  const [generationsHere, generationsThere] = split(paths.generations, sizes[1]!, REST_HERE);
  if (helper) {
    const state = kernel.frozenState();
    helper.post(
      { kind: "score", state, prompts: promptsThere, generations: generationsThere },
      [state.bytes.buffer],
    );
  }
  let prompts = 0;
  if (promptsHere) {
    const p = readPhase(promptsHere, kernel, (l, f) => kernel.prompts(l, f), onRead);
    if (typeof p !== "number") return gaveUp(promptsHere.path, p);
    prompts = p;
  }
  let generations = readPhase(
    generationsHere,
    kernel,
    (l, f) => kernel.generations(l, f),
    onRead,
  );
  if (typeof generations !== "number") return gaveUp(paths.generations, generations);
  let fileDigests: string[];
  if (helper) {
    const r = await helper.next<ResultsReply>();
    helper.stop();
    if ("bail" in r) return gaveUp(paths.generations, r.bail);
    fileDigests = r.digests;
    const merged = kernel.merge(r.results);
    if (merged) return gaveUp(paths.generations, merged);
    prompts += r.rows.prompts;
    generations += r.rows.generations;
  } else {
    fileDigests = await digestFiles(files);
  }
  const [e, g, p] = fileDigests;
  lastRun = { helper: helper !== undefined, scoredHere: kernel.scoredHere };
  const done = kernel.finish(engine.name, {
    examples: { sha256: e!, rows: examples },
    generations: { sha256: g!, rows: generations },
    prompts: p === undefined ? null : { sha256: p, rows: prompts },
  });
  if ("reason" in done) return gaveUp(paths.examples, done);
  // The report with `"records": []`, its records spliced in as the general writer lays them out.
  const text = formatReport(done.report);
  const end = "[]\n}\n";
  if (!text.endsWith(end)) throw new Error("Unexpected report layout");
  const head = encoder.encode(text.slice(0, -end.length));
  const parts = done.records.length === 0
    ? [head, encoder.encode(end)]
    : [head, encoder.encode("[\n"), done.records, encoder.encode("\n  ]\n}\n")];
  return { report: done.report, parts };
}
