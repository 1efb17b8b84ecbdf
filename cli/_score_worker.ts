// The second reader of `assay score`'s fast path: a worker with its own instance of the scoring
// kernel. It reads the second half of examples.jsonl (its entries go to the main thread, which
// freezes them with its own), then adopts the frozen state and reads the second halves of the
// prompts and generations; the main thread merges what it read.
//
// Messages in:  { kind: "examples", range, withPrompts, digest: paths, module } then
//               { kind: "score", state, prompts?: range, generations: range }.
// Messages out: { rows, entries } then { rows: { prompts, generations }, results, digests }
// (the SHA-256 of the `digest` files, computed while the main thread freezes), or
//               { bail } (the kernel gave up) or { error } (anything else).
import { createEngine } from "../src/engine.ts";
import { type FrozenState, type KernelBail, ScoreKernel } from "../src/_score_kernel.ts";
import { digestFiles } from "./_digest.ts";
import { type FileRange, readPhase } from "./_kernel_read.ts";

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
    digest: string[];
    /** The main thread's compiled module: its code is shared, not compiled again. */
    module: WebAssembly.Module;
  }
  | { kind: "score"; state: FrozenState; prompts?: FileRange; generations: FileRange };

let kernel: ScoreKernel | undefined;
let digests: Promise<string[]> | undefined;

async function handle(m: Message): Promise<void> {
  if (m.kind === "examples") {
    const engine = createEngine({ engine: "wasm", wasmModule: m.module });
    kernel = new ScoreKernel(m.module, engine, m.withPrompts);
    const k = kernel;
    const rows = readPhase(m.range, k, (l, f) => k.examples(l, f));
    if (typeof rows !== "number") return bail(rows);
    const entries = k.exportEntries();
    scope.postMessage({ rows, entries }, [entries.bytes.buffer]);
    // While the main thread freezes the examples, the input files' digests.
    digests = digestFiles(m.digest);
    await digests;
    return;
  }
  const k = kernel!;
  const fileDigests = await digests!;
  k.adopt(m.state);
  let prompts = 0;
  if (m.prompts) {
    const r = readPhase(m.prompts, k, (l, f) => k.prompts(l, f));
    if (typeof r !== "number") return bail(r);
    prompts = r;
  }
  const generations = readPhase(m.generations, k, (l, f) => k.generations(l, f));
  if (typeof generations !== "number") return bail(generations);
  const results = k.results();
  scope.postMessage({ rows: { prompts, generations }, results, digests: fileDigests }, [
    results.buffer,
  ]);
}

function bail(b: KernelBail): void {
  scope.postMessage({ bail: b });
}

scope.onmessage = async (e: MessageEvent<Message>) => {
  try {
    await handle(e.data);
  } catch (err) {
    scope.postMessage({
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    });
  }
};
