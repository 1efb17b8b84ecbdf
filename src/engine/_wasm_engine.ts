// The Wasm engine: the engine contract on the AssemblyScript module in assembly/, a chunk of
// texts per crossing (see _wasm_instance.ts for the batch protocol), each result decoded from the
// chunk's result records. The module writes Python's repr of every float itself.
import type { CoreToolCall, EngineCore } from "./_core.ts";
import type {
  ArgumentPair,
  CanonicalResult,
  FlattenResult,
  JsonError,
  JsonErrorCode,
  SpanResult,
} from "./types.ts";
import { wasmBytes } from "./wasm_bytes.generated.ts";
import {
  ERROR_CODE_NAMES,
  MODE_CANONICAL,
  MODE_FLATTEN,
  MODE_SPANS,
  MODE_TOOL_CALLS,
  MODE_TOOL_CALLS_PAIRS,
  PAIR_WORDS,
  RESULT_CANONICAL_END,
  RESULT_CANONICAL_START,
  RESULT_ERROR_CODE,
  RESULT_ERROR_OFFSET,
  RESULT_FIRST_PAIR,
  RESULT_NAME_END,
  RESULT_NAME_START,
  RESULT_PAIR_COUNT,
  RESULT_SPAN_END,
  RESULT_SPAN_START,
  RESULT_STATUS,
  RESULT_WORDS,
  STATUS_INVALID,
  STATUS_NO_JSON,
  STATUS_OK,
  VALUE_CONSTANT,
} from "./_abi.generated.ts";
import { createWasmResampler } from "./_wasm_resample.ts";
import { decodeCanonicalString } from "./exact_fields.ts";
import { type ChunkView, Instance, outOfMemory, RELEASE_BYTES } from "./_wasm_instance.ts";

/** The module's error codes, named as JsonErrorCode names them (in the ABI's order). */
const ERROR_CODES: readonly JsonErrorCode[] = ERROR_CODE_NAMES;

const CONSTANTS: readonly string[] = [
  "true",
  "false",
  "null",
  "{}",
  "[]",
  "NaN",
  "Infinity",
  "-Infinity",
];

/** At most this many UTF-16 code units per chunk, unless one text is longer. */
const CHUNK_UNITS = 1 << 22;
/** At most this many texts per chunk. */
const CHUNK_TEXTS = 1 << 14;
let compiledDefault: WebAssembly.Module | undefined;

/**
 * The inlined module, compiled once (throws on hosts that forbid compiling Wasm from bytes).
 *
 * @returns The compiled build/assay.wasm.
 */
export function defaultWasmModule(): WebAssembly.Module {
  return compiledDefault ??= new WebAssembly.Module(wasmBytes());
}

/**
 * Creates the Wasm engine.
 *
 * @param module A compiled build/assay.wasm; without it, the inlined bytes are compiled here
 *   (which throws on hosts that forbid compiling Wasm from bytes).
 * @returns The engine core.
 * @throws {WebAssembly.CompileError | WebAssembly.LinkError | Error} If the module cannot be
 *   compiled or instantiated.
 */
export function createWasmCore(module?: WebAssembly.Module): EngineCore {
  const compiled = module ?? defaultWasmModule();
  let wasm: Instance | undefined = new Instance(compiled);

  /** Runs `texts` through `mode` in chunks of bounded size. */
  function runBatch<T>(
    texts: readonly string[],
    mode: number,
    decode: (view: ChunkView, record: number) => T,
  ): T[] {
    const results = new Array<T>(texts.length);
    let i = 0;
    while (i < texts.length) {
      let units = 0;
      let j = i;
      while (j < texts.length && j - i < CHUNK_TEXTS) {
        const len = texts[j]!.length;
        if (j > i && units + len > CHUNK_UNITS) break;
        units += len;
        j++;
      }
      let view: ChunkView;
      try {
        wasm ??= new Instance(compiled);
        view = wasm.run(texts, i, j, units, mode);
      } catch (e) {
        // Start over with a fresh instance next time.
        wasm = undefined;
        outOfMemory(e, "batch");
      }
      if (wasm.size > RELEASE_BYTES) wasm = undefined;
      for (let k = i, r = view.results; k < j; k++, r += RESULT_WORDS) {
        results[k] = decode(view, r);
      }
      i = j;
    }
    return results;
  }

  return {
    name: "wasm",
    module: compiled,
    spans: (texts) => runBatch(texts, MODE_SPANS, decodeSpan),
    toolCalls: (texts, pairs) =>
      runBatch(texts, pairs ? MODE_TOOL_CALLS_PAIRS : MODE_TOOL_CALLS, decodeCall),
    canonical: (texts) => runBatch(texts, MODE_CANONICAL, decodeCanonical),
    flatten: (texts) => runBatch(texts, MODE_FLATTEN, decodeFlatten),
    resample: createWasmResampler(compiled),
  };
}

function errorOf(words: Uint32Array, r: number): JsonError {
  return {
    code: ERROR_CODES[words[r + RESULT_ERROR_CODE]!]!,
    offset: words[r + RESULT_ERROR_OFFSET]!,
  };
}

function decodeSpan(view: ChunkView, r: number): SpanResult {
  const w = view.words;
  const status = w[r + RESULT_STATUS]!;
  if (status === STATUS_OK) {
    return { status: "found", start: w[r + RESULT_SPAN_START]!, end: w[r + RESULT_SPAN_END]! };
  }
  if (status === STATUS_NO_JSON) return { status: "no_json" };
  return { status: "invalid_json", start: w[r + RESULT_SPAN_START]!, error: errorOf(w, r) };
}

/** A tool call; with pairs when the chunk was run in MODE_TOOL_CALLS_PAIRS. */
function decodeCall(view: ChunkView, r: number): CoreToolCall {
  const w = view.words;
  const status = w[r + RESULT_STATUS]!;
  if (status === STATUS_NO_JSON) return { status: "no_json" };
  if (status === STATUS_INVALID) return { status: "invalid_json", error: errorOf(w, r) };
  if (status !== STATUS_OK) return { status: "invalid_shape" };
  const literal = view.out.slice(w[r + RESULT_NAME_START]!, w[r + RESULT_NAME_END]!);
  const call: CoreToolCall = {
    status: "ok",
    name: decodeCanonicalString(literal),
    canonicalArguments: view.out.slice(
      w[r + RESULT_CANONICAL_START]!,
      w[r + RESULT_CANONICAL_END]!,
    ),
  };
  if (view.hasPairs) {
    call.pairs = decodePairs(view, w[r + RESULT_FIRST_PAIR]!, w[r + RESULT_PAIR_COUNT]!);
  }
  return call;
}

function decodeCanonical(view: ChunkView, r: number): CanonicalResult {
  const w = view.words;
  if (w[r + RESULT_STATUS] !== STATUS_OK) return { ok: false, error: errorOf(w, r) };
  return {
    ok: true,
    canonical: view.out.slice(w[r + RESULT_CANONICAL_START]!, w[r + RESULT_CANONICAL_END]!),
  };
}

function decodeFlatten(view: ChunkView, r: number): FlattenResult {
  const w = view.words;
  if (w[r + RESULT_STATUS] !== STATUS_OK) return { ok: false, error: errorOf(w, r) };
  return {
    ok: true,
    pairs: decodePairs(view, w[r + RESULT_FIRST_PAIR]!, w[r + RESULT_PAIR_COUNT]!),
  };
}

/** Rebuilds `count` pairs from the word table (see assembly/flatten.ts). */
function decodePairs(view: ChunkView, first: number, count: number): ArgumentPair[] {
  const w = view.words;
  const paths = view.paths;
  const out = view.out;
  const pairs = new Array<ArgumentPair>(count);
  for (let i = 0, p = view.pairs + first; i < count; i++, p += PAIR_WORDS) {
    const a = w[p + 1]!;
    const b = w[p + 2]!;
    pairs[i] = {
      path: paths[w[p]!]!,
      value: b === VALUE_CONSTANT ? CONSTANTS[a]! : out.slice(a, b),
    };
  }
  return pairs;
}
