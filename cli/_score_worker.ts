// The second reader of `assay score`'s fast path: a worker with its own instance of the scoring
// kernel. It reads the later part of examples.jsonl (its entries go to the main thread, which
// freezes them with its own), then adopts the frozen state and claims its share of the prompts
// and generations with the main thread (see readClaims); the main thread merges what it read. It
// also takes the SHA-256 of the input files when told to, which the main thread does so that it
// happens while this thread would otherwise wait for the frozen state.
//
// Messages in, handled one after the other:
//   { kind: "examples", range, withPrompts, module } (from cli/_score_prestart.ts or the fast
//     path), { kind: "digest", paths } (before "score"), then
//   { kind: "score", state, claims, prompts?: file, generations: file }.
// Messages out: { rows, entries } then { rows: { prompts, generations }, results, digests }
// (digests: path -> SHA-256 of every file it was told to digest), or
//               { bail } (the kernel gave up) or { error } (anything else).
import { createEngine } from "../src/engine.ts";
import { type FrozenState, type KernelBail, ScoreKernel } from "../src/_score_kernel.ts";
import { digestFiles } from "./_digest.ts";
import { type FileRange, type FileShare, readClaims, readPhase } from "./_kernel_read.ts";

/** This worker's side of the channel (the default lib types `self` as a window). */
const scope = self as unknown as {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent) => void) | null;
};

type Message =
  | {
    kind: "examples";
    range: FileRange;
    withPrompts: boolean;
    /** The main thread's compiled module: its code is shared, not compiled again. */
    module: WebAssembly.Module;
  }
  | {
    kind: "score";
    state: FrozenState;
    /** The counters the two readers claim ranges of prompts (0) and generations (1) by. */
    claims: BigInt64Array;
    prompts?: FileShare;
    generations: FileShare;
  }
  | { kind: "digest"; paths: string[] };

let kernel: ScoreKernel | undefined;
const digests: Record<string, string> = {};

async function handle(m: Message): Promise<void> {
  if (m.kind === "digest") {
    const hex = await digestFiles(m.paths);
    m.paths.forEach((path, i) => digests[path] = hex[i]!);
    return;
  }
  if (m.kind === "examples") {
    const engine = createEngine({ engine: "wasm", wasmModule: m.module });
    kernel = new ScoreKernel(m.module, engine, m.withPrompts);
    const k = kernel;
    const rows = readPhase(m.range, k, (l, f) => k.examples(l, f));
    if (typeof rows !== "number") return bail(rows);
    const entries = k.exportEntries();
    scope.postMessage({ rows, entries }, [entries.bytes.buffer]);
    return;
  }
  const k = kernel!;
  k.adopt(m.state);
  let prompts = 0;
  if (m.prompts) {
    const { path, size } = m.prompts;
    const r = readClaims(path, size, m.claims, 0, k, (l, f) => k.prompts(l, f));
    if (typeof r !== "number") return bail(r);
    prompts = r;
  }
  const { path, size } = m.generations;
  const generations = readClaims(path, size, m.claims, 1, k, (l, f) => k.generations(l, f));
  if (typeof generations !== "number") return bail(generations);
  const results = k.results();
  scope.postMessage({ rows: { prompts, generations }, results, digests }, [
    results.buffer,
  ]);
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
