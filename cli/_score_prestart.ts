// Starts the worker of `assay score`'s fast path (cli/_score_worker.ts) before the command loads
// the rest of its code, and sets it reading examples.jsonl from its end. Starting a worker blocks
// this thread for about 10 ms, and the worker then loads its own modules; begun here, both happen
// while `score` is still being loaded, and the worker starts reading about 20 ms sooner.
// This module is loaded by cli/main.ts for every command, so it imports nothing up front.

/** Inputs at least this large are read by two kernel instances (cli/_score_fast.ts). */
export let parallelBytes = 16 << 20;

/** Sets the input size from which a worker reads a part of the files (for tests). */
export function setParallelBytes(bytes: number): void {
  parallelBytes = bytes;
}

/** The chunk the two readers of examples.jsonl take from its two ends (see readEnds). */
export const EXAMPLE_CHUNK = 512 << 10;

/**
 * A worker started ahead, reading examples.jsonl from its end in chunks of `chunk` bytes (see
 * readEnds): `taken` counts the chunks the two readers have taken.
 */
export interface Prestarted {
  worker: Worker;
  examples: { path: string; size: number; chunk: number; taken: Int32Array };
  withPrompts: boolean;
  /** The compiled module the worker was sent, for this thread's kernel. */
  module: WebAssembly.Module;
  /** The bytes the worker has read (for the progress bar). */
  read: BigInt64Array;
  /**
   * What the worker said before the fast path took it over, in order (a message event that
   * finds no handler is lost): its messages, and its errors as `{ error }`.
   */
  early: ({ data: unknown } | { error: string })[];
}

let started: Prestarted | undefined;

/**
 * Starts the worker when `args` (those of `assay score`) name files of at least parallelBytes
 * in all and leave the fast path on, and sets it reading examples.jsonl from its back end (the
 * job the fast path would give it). It only guesses from the arguments: `score` parses them
 * again, and takes the worker with takeScoreWorker when the guess is the run it makes; otherwise
 * the worker is stopped.
 */
export async function prestartScoreWorker(args: readonly string[]): Promise<void> {
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("--")) continue;
    const eq = arg.indexOf("=");
    if (eq > 0) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
    else if (["examples", "generations", "prompts", "engine"].includes(arg.slice(2))) {
      const value = args[i + 1];
      if (value === undefined) return;
      flags.set(arg.slice(2), value);
      i++;
    } else flags.set(arg.slice(2), true);
  }
  if (flags.has("help") || flags.has("no-fast-path") || flags.get("engine") === "ts") return;
  const sizes = new Map<string, number>();
  for (const name of ["examples", "generations", "prompts"]) {
    const path = flags.get(name);
    if (path === undefined) continue;
    if (typeof path !== "string" || path === "-") return;
    try {
      const info = Deno.statSync(path);
      if (!info.isFile) return;
      sizes.set(name, info.size);
    } catch {
      return;
    }
  }
  const examples = flags.get("examples");
  if (typeof examples !== "string" || !sizes.has("generations")) return;
  if ([...sizes.values()].reduce((a, b) => a + b, 0) < parallelBytes) return;
  let worker: Worker;
  try {
    worker = new Worker(new URL("./_score_worker.ts", import.meta.url), { type: "module" });
  } catch {
    return; // the fast path starts one itself, or reads alone
  }
  // Until the fast path takes the worker over, what it says is kept here.
  const early: ({ data: unknown } | { error: string })[] = [];
  worker.onmessage = (e: MessageEvent) => early.push({ data: e.data });
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    early.push({ error: e.message });
  };
  try {
    // A module `score` loads anyway: loaded here, the worker has its compiled module sooner.
    const { defaultWasmModule } = await import("../src/engine/_wasm_engine.ts");
    const module = defaultWasmModule();
    const size = sizes.get("examples")!;
    const taken = new Int32Array(new SharedArrayBuffer(4));
    const withPrompts = flags.has("prompts");
    const read = new BigInt64Array(new SharedArrayBuffer(8));
    const chunk = EXAMPLE_CHUNK;
    worker.postMessage({
      kind: "examples",
      path: examples,
      size,
      chunk,
      taken,
      withPrompts,
      module,
      read,
    });
    started = {
      worker,
      examples: { path: examples, size, chunk, taken },
      withPrompts,
      module,
      read,
      early,
    };
  } catch {
    worker.terminate(); // the fast path starts its own worker, or reads alone
  }
}

/** The worker prestartScoreWorker started, if any; it is handed out once. */
export function takeScoreWorker(): Prestarted | undefined {
  const worker = started;
  started = undefined;
  return worker;
}
