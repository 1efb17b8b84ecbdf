// The Wasm engine: the JS side of the AssemblyScript module in assembly/.
//
// Memory protocol, one crossing per batch (chunk):
// 1. `prepare(count, inputCap)` lays out the batch and returns a header address.
// 2. JS writes every text as WTF-8 into the input area (TextEncoder.encodeInto;
//    lone surrogates by hand as 3-byte sequences), with a table of byte offsets
//    and a table of UTF-16 lengths. `reserveInput(cap)` grows the input area.
// 3. `run(mode)` processes the whole batch and fills the header: a result table
//    (RESULT_WORDS u32 per text: status, error code, UTF-16 offsets, output
//    ranges), one ASCII output area and, for pairs, a u32 word table, the
//    distinct paths of the batch (with their texts in a second ASCII area)
//    and the path nodes they are made of.
// 4. JS decodes the output area once and slices it. It builds each distinct
//    path string once per chunk, and pairs share them. The module writes
//    Python's repr of every float itself.
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
import { createWasmResampler } from "./_wasm_resample.ts";

interface WasmExports {
  memory: WebAssembly.Memory;
  prepare(count: number, inputCap: number): number;
  reserveInput(inputCap: number): void;
  run(mode: number): void;
}

/** Error codes in the module's numbering (assembly/text.ts). */
const ERROR_CODES: readonly JsonErrorCode[] = [
  "expecting_value",
  "expecting_property_name",
  "expecting_colon",
  "expecting_comma",
  "extra_data",
  "unterminated_string",
  "invalid_control_character",
  "invalid_escape",
  "invalid_unicode_escape",
  "integer_too_long",
  "nesting_too_deep",
  "mismatched_bracket",
  "unclosed_span",
];

const MODE_SPANS = 0;
const MODE_TOOL_CALLS = 1;
const MODE_TOOL_CALLS_PAIRS = 2;
const MODE_CANONICAL = 3;
const MODE_FLATTEN = 4;

const STATUS_OK = 0;
const STATUS_NO_JSON = 1;
const STATUS_INVALID = 2;

const RESULT_WORDS = 12;
/** Words per path node (assembly/intern.ts): parent, a, b, hash, leaf, tabled. */
const NODE_WORDS = 6;
/** A node's `a` word for an array-index segment. */
const INDEX_SEGMENT = 0xffffffff;
/** Words per leaf (assembly/flatten.ts): node, path text start, end. */
const LEAF_WORDS = 3;
/** A leaf's text-start word when its path is to be built from the nodes. */
const LONG_PATH = 0xffffffff;
/** Words per pair (assembly/flatten.ts): leaf, then a value range, constant or value id. */
const PAIR_WORDS = 3;
/** The third pair word when the second is one of these constants. */
const VALUE_CONSTANT = 0xfffffffe;
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
/** After a chunk leaves memory larger than this, the instance is dropped to release it. */
const RELEASE_BYTES = 256 * 1024 * 1024;
/** Texts up to this length get 3 bytes per code unit up front; longer ones grow as they encode. */
const EAGER_UNITS = 1 << 20;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const HAS_IS_WELL_FORMED = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed ===
  "function";

function isWellFormed(s: string): boolean {
  return HAS_IS_WELL_FORMED ? s.isWellFormed() : !LONE_SURROGATE.test(s);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NO_STRINGS: string[] = [];

function instantiate(module: WebAssembly.Module): WasmExports {
  const exports = new WebAssembly.Instance(module, {}).exports as Partial<WasmExports>;
  if (
    !(exports.memory instanceof WebAssembly.Memory) || typeof exports.prepare !== "function" ||
    typeof exports.reserveInput !== "function" || typeof exports.run !== "function"
  ) {
    throw new TypeError("The module is not the Assay engine: missing exports");
  }
  return exports as WasmExports;
}

/** What one chunk left in memory, read back after `run`. */
class ChunkView {
  /** First result record (word index). */
  readonly results: number;
  /** Pair words (word index). */
  readonly pairs: number;
  /** Whether the chunk was run in a mode with pairs. */
  readonly hasPairs: boolean;
  /** The path text of each leaf (distinct pair path) of the chunk. */
  readonly paths: string[];
  /** Path prefixes (`[seg,seg`) by node, for the paths built here. */
  #prefixes: string[] | undefined;
  readonly #nodes: number;
  readonly #nodeCount: number;

  constructor(
    readonly words: Uint32Array,
    bytes: Uint8Array,
    header: number,
    readonly out: string,
  ) {
    const w = words;
    this.results = w[header + 3]! >>> 2;
    this.pairs = w[header + 6]! >>> 2;
    this.#nodes = w[header + 8]! >>> 2;
    this.#nodeCount = w[header + 9]!;
    this.hasPairs = this.#nodeCount !== 0;
    const leafCount = w[header + 11]!;
    this.paths = NO_STRINGS;
    if (leafCount > 0) {
      const textStart = w[header + 14]!;
      const text = decoder.decode(bytes.subarray(textStart, textStart + w[header + 15]!));
      const paths = new Array<string>(leafCount);
      for (let k = 0, e = w[header + 10]! >>> 2; k < leafCount; k++, e += LEAF_WORDS) {
        const a = w[e + 1]!;
        paths[k] = a === LONG_PATH ? this.#prefix(w[e]!) + "]" : text.slice(a, w[e + 2]!);
      }
      this.paths = paths;
    }
  }

  /** The prefix `[seg,seg` of path node `node` (the root's is `[`), built from the nodes. */
  #prefix(node: number): string {
    let prefixes = this.#prefixes;
    if (prefixes === undefined) {
      prefixes = this.#prefixes = new Array<string>(this.#nodeCount);
      prefixes[0] = "[";
    }
    const known = prefixes[node];
    if (known !== undefined) return known;
    const w = this.words;
    const parent = w[this.#nodes + node * NODE_WORDS]!;
    if (prefixes[parent] === undefined) {
      // Build the ancestors first, from the nearest one already built down.
      const chain: number[] = [];
      for (let k = parent; prefixes[k] === undefined; k = w[this.#nodes + k * NODE_WORDS]!) {
        chain.push(k);
      }
      for (let i = chain.length - 1; i >= 0; i--) this.#prefixOf(chain[i]!, prefixes);
    }
    return this.#prefixOf(node, prefixes);
  }

  /** Builds the prefix of `node`, whose parent's prefix is built. */
  #prefixOf(node: number, prefixes: string[]): string {
    const w = this.words;
    const e = this.#nodes + node * NODE_WORDS;
    const parent = w[e]!;
    const a = w[e + 1]!;
    const segment = a === INDEX_SEGMENT ? String(w[e + 2]!) : this.out.slice(a, w[e + 2]!);
    return prefixes[node] = parent === 0 ? "[" + segment : prefixes[parent]! + "," + segment;
  }
}

/** One instance of the module, with views of its memory kept while the memory does not grow. */
class Instance {
  readonly #ex: WasmExports;
  #buffer: ArrayBufferLike;
  #bytes: Uint8Array;
  #words: Uint32Array;
  // The chunk being written: input address, capacity and bytes written.
  #input = 0;
  #cap = 0;
  #pos = 0;

  constructor(module: WebAssembly.Module) {
    this.#ex = instantiate(module);
    this.#buffer = this.#ex.memory.buffer;
    this.#bytes = new Uint8Array(this.#buffer);
    this.#words = new Uint32Array(this.#buffer);
  }

  /** Refreshes the views after the memory grew. */
  #views(): void {
    const buffer = this.#ex.memory.buffer;
    if (buffer === this.#buffer) return;
    this.#buffer = buffer;
    this.#bytes = new Uint8Array(buffer);
    this.#words = new Uint32Array(buffer);
  }

  /** Makes room for `need` input bytes. */
  #ensure(need: number): void {
    if (need <= this.#cap) return;
    const cap = Math.max(need, Math.floor(this.#cap * 1.5));
    if (cap > 0xffff0000) throw new RangeError("A batch chunk is too large for the wasm engine");
    this.#cap = cap;
    this.#ex.reserveInput(cap);
    this.#views();
  }

  #encodeWellFormed(s: string): void {
    const input = this.#input;
    this.#ensure(this.#pos + (s.length <= EAGER_UNITS ? s.length * 3 : s.length + 16));
    let r = encoder.encodeInto(s, this.#bytes.subarray(input + this.#pos, input + this.#cap));
    this.#pos += r.written;
    let read = r.read;
    while (read < s.length) {
      this.#ensure(this.#pos + (s.length - read) * 3);
      r = encoder.encodeInto(
        s.substring(read),
        this.#bytes.subarray(input + this.#pos, input + this.#cap),
      );
      this.#pos += r.written;
      read += r.read;
    }
  }

  /** Lone surrogates: generalized UTF-8 (WTF-8), a lone surrogate as three bytes. */
  #encodeWtf8(s: string): void {
    this.#ensure(this.#pos + s.length * 3);
    const bytes = this.#bytes;
    const input = this.#input;
    let o = input + this.#pos;
    for (let j = 0; j < s.length; j++) {
      let u = s.charCodeAt(j);
      if (u < 0x80) {
        bytes[o++] = u;
        continue;
      }
      if (u < 0x800) {
        bytes[o++] = 0xc0 | (u >> 6);
        bytes[o++] = 0x80 | (u & 0x3f);
        continue;
      }
      if (u >= 0xd800 && u <= 0xdbff && j + 1 < s.length) {
        const low = s.charCodeAt(j + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
          bytes[o++] = 0xf0 | (u >> 18);
          bytes[o++] = 0x80 | ((u >> 12) & 0x3f);
          bytes[o++] = 0x80 | ((u >> 6) & 0x3f);
          bytes[o++] = 0x80 | (u & 0x3f);
          j++;
          continue;
        }
      }
      bytes[o++] = 0xe0 | (u >> 12);
      bytes[o++] = 0x80 | ((u >> 6) & 0x3f);
      bytes[o++] = 0x80 | (u & 0x3f);
    }
    this.#pos = o - input;
  }

  /** Writes texts[from, to) into memory, runs `mode`, and returns what the chunk left. */
  run(texts: readonly string[], from: number, to: number, units: number, mode: number): ChunkView {
    const ex = this.#ex;
    const count = to - from;
    this.#cap = units <= EAGER_UNITS ? units * 3 + 16 : units + (units >>> 3) + 16;
    const header = ex.prepare(count, this.#cap) >>> 2;
    this.#views();
    let words = this.#words;
    const offsets = words[header]! >>> 2;
    const lengths = words[header + 1]! >>> 2;
    this.#input = words[header + 2]!;
    this.#pos = 0;
    for (let k = 0; k < count; k++) {
      const s = texts[from + k]!;
      // Memory may grow while encoding: always write through the current view.
      this.#words[offsets + k] = this.#pos;
      this.#words[lengths + k] = s.length;
      if (s.length === 0) continue;
      if (isWellFormed(s)) this.#encodeWellFormed(s);
      else this.#encodeWtf8(s);
    }
    this.#words[offsets + count] = this.#pos;

    ex.run(mode);
    this.#views();
    words = this.#words;
    const outStart = words[header + 4]!;
    const outLength = words[header + 5]!;
    const out = outLength === 0
      ? ""
      : decoder.decode(this.#bytes.subarray(outStart, outStart + outLength));
    return new ChunkView(words, this.#bytes, header, out);
  }

  /** Bytes of linear memory. */
  get size(): number {
    return this.#buffer.byteLength;
  }
}

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
        // Start over with a fresh instance next time. A trap means linear memory could not grow.
        wasm = undefined;
        if (!(e instanceof WebAssembly.RuntimeError)) throw e;
        throw new RangeError("The wasm engine ran out of memory on this batch", { cause: e });
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
  return { code: ERROR_CODES[words[r + 1]!]!, offset: words[r + 2]! };
}

function decodeSpan(view: ChunkView, r: number): SpanResult {
  const w = view.words;
  const status = w[r]!;
  if (status === STATUS_OK) return { status: "found", start: w[r + 3]!, end: w[r + 4]! };
  if (status === STATUS_NO_JSON) return { status: "no_json" };
  return { status: "invalid_json", start: w[r + 3]!, error: errorOf(w, r) };
}

/** A tool call; with pairs when the chunk was run in MODE_TOOL_CALLS_PAIRS. */
function decodeCall(view: ChunkView, r: number): CoreToolCall {
  const w = view.words;
  const status = w[r]!;
  if (status === STATUS_NO_JSON) return { status: "no_json" };
  if (status === STATUS_INVALID) return { status: "invalid_json", error: errorOf(w, r) };
  if (status !== STATUS_OK) return { status: "invalid_shape" };
  const literal = view.out.slice(w[r + 7]!, w[r + 8]!);
  const name = literal.indexOf("\\") < 0 ? literal.slice(1, -1) : JSON.parse(literal) as string;
  const canonicalArguments = view.out.slice(w[r + 5]!, w[r + 6]!);
  if (!view.hasPairs) return { status: "ok", name, canonicalArguments };
  return {
    status: "ok",
    name,
    canonicalArguments,
    pairs: decodePairs(view, w[r + 9]!, w[r + 10]!),
  };
}

function decodeCanonical(view: ChunkView, r: number): CanonicalResult {
  const w = view.words;
  if (w[r] !== STATUS_OK) return { ok: false, error: errorOf(w, r) };
  return { ok: true, canonical: view.out.slice(w[r + 5]!, w[r + 6]!) };
}

function decodeFlatten(view: ChunkView, r: number): FlattenResult {
  const w = view.words;
  if (w[r] !== STATUS_OK) return { ok: false, error: errorOf(w, r) };
  return { ok: true, pairs: decodePairs(view, w[r + 9]!, w[r + 10]!) };
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
