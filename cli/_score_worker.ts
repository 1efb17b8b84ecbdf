// The second reader of `assay score`'s fast path: a worker with its own instance of the scoring
// kernel. It reads examples.jsonl from its back end while the main thread reads it from the front
// (see readEnds; its entries go to the main thread, which freezes them with its own), then adopts
// the frozen state and claims its share of the prompts and generations with the main thread (see
// readClaims), writing what it finds where the main thread merges it. It also takes the SHA-256 of
// the input files when told to: the main thread has it do so while it would otherwise wait (for
// the frozen state, and while the records are written).
//
// Messages in, handled one after the other:
//   { kind: "examples", path, size, chunk, taken, withPrompts, module, read } (from
//     cli/_score_prestart.ts or the fast path), { kind: "digest", paths, reply? } (any number),
//   and { kind: "score", state, claims, found, prompts?: file, generations: file }.
// Messages out: { segment: { bytes, count } } for each chunk of examples it read, then { rows };
// { rows: { prompts, generations } } once all it found is in `found`; { digests } after a
// "digest" with `reply` (path -> SHA-256 of every file digested so far); or { bail } (the kernel
// gave up) or { error } (anything else) in place of any of them.
import { createEngine } from "../src/engine/mod.ts";
import { type FrozenState, type KernelBail, ScoreKernel } from "../src/evaluation/_score_kernel.ts";
import { digestFiles } from "./_digest.ts";
import { type FileShare, readClaims, readEnds } from "./_kernel_read.ts";

/** This worker's side of the channel (the default lib types `self` as a window). */
const scope = self as unknown as {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent) => void) | null;
};

type Message =
  | {
    kind: "examples";
    path: string;
    size: number;
    /** The chunk of readEnds, and the chunks of examples.jsonl the two readers have taken. */
    chunk: number;
    taken: Int32Array;
    withPrompts: boolean;
    /** The main thread's compiled module: its code is shared, not compiled again. */
    module: WebAssembly.Module;
    /** Where this worker counts the bytes it reads, for the main thread's progress bar. */
    read: BigInt64Array;
  }
  | {
    kind: "score";
    state: FrozenState;
    /**
     * The counters the two readers claim ranges of prompts (0) and generations (1) by, and the
     * length of what this worker wrote to `found` (2).
     */
    claims: BigInt64Array;
    /** Where this worker appends what each of its chunks found, for the main thread to merge. */
    found: Uint8Array;
    prompts?: FileShare;
    generations: FileShare;
  }
  | {
    kind: "digest";
    paths: string[];
    /** Reply with every digest taken so far. */
    reply?: boolean;
  };

let kernel: ScoreKernel | undefined;
let counted: BigInt64Array | undefined;
const countRead = (bytes: number) => {
  if (counted) Atomics.add(counted, 0, BigInt(bytes));
};
const digests: Record<string, string> = {};

async function handle(m: Message): Promise<void> {
  if (m.kind === "digest") {
    const hex = await digestFiles(m.paths);
    m.paths.forEach((path, i) => digests[path] = hex[i]!);
    if (m.reply) scope.postMessage({ digests });
    return;
  }
  if (m.kind === "examples") {
    const engine = createEngine({ engine: "wasm", wasmModule: m.module });
    kernel = new ScoreKernel(m.module, engine, m.withPrompts);
    const k = kernel;
    counted = m.read;
    // Chunks from the back of the file: each one's entries go to the main thread as soon as they
    // are read, and it appends them in the file's order.
    let top = k.entriesEnd;
    let count = k.entryCount;
    const run = (l: number, f: number) => k.examples(l, f);
    const rows = readEnds(m.path, m.size, m.chunk, m.taken, false, k, run, countRead, () => {
      const bytes = k.entriesBetween(top, k.entriesEnd);
      scope.postMessage({ segment: { bytes, count: k.entryCount - count } }, [bytes.buffer]);
      top = k.entriesEnd;
      count = k.entryCount;
    });
    if (typeof rows !== "number") return bail(rows);
    scope.postMessage({ rows });
    return;
  }
  const k = kernel!;
  k.adopt(m.state);
  let written = 0;
  const publish = (): undefined => {
    const bytes = k.chunkResults();
    if (written + bytes.length > m.found.length) throw new Error("The results buffer is full");
    m.found.set(bytes, written);
    written += bytes.length;
    Atomics.store(m.claims, 2, BigInt(written)); // after the bytes: the main thread reads up to it
  };
  let prompts = 0;
  if (m.prompts) {
    const { path, size } = m.prompts;
    const r = readClaims(path, size, m.claims, 0, k, (l, f) => k.prompts(l, f), countRead, publish);
    if (typeof r !== "number") return bail(r);
    prompts = r;
  }
  const { path, size } = m.generations;
  const run = (l: number, f: number) => k.generations(l, f);
  const generations = readClaims(path, size, m.claims, 1, k, run, countRead, publish);
  if (typeof generations !== "number") return bail(generations);
  scope.postMessage({ rows: { prompts, generations } });
}

function bail(b: KernelBail): void {
  scope.postMessage({ bail: b });
}

// One message at a time: a digest awaits its first import of node:crypto.
let queue = Promise.resolve();
scope.onmessage = (e: MessageEvent<Message>) => {
  queue = queue.then(() => handle(e.data)).catch((err) => {
    scope.postMessage({
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    });
  });
};
