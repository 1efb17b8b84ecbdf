// The Wasm engine: the JS side of the AssemblyScript module in assembly/.
//
// Memory protocol, one crossing per batch (chunk):
// 1. `prepare(count, inputCap)` lays out the batch and returns a header address.
// 2. JS writes every text as WTF-8 into the input area (TextEncoder.encodeInto;
//    lone surrogates by hand as 3-byte sequences), with a table of byte offsets
//    and a table of UTF-16 lengths. `reserveInput(cap)` grows the input area.
// 3. `run(mode)` processes the whole batch and fills the header: a result table
//    (RESULT_WORDS u32 per text: status, error code, UTF-16 offsets, output
//    ranges), one ASCII output area and, for pairs, a u32 word table.
// 4. JS decodes the output area once and slices it. Floats are left in the
//    output as \x01lexeme\x01 and formatted here with `canonicalFloat`.
import type { CoreToolCall, EngineCore } from "./_engine_core.ts";
import { canonicalFloat } from "./float_repr.ts";
import type {
  ArgumentPair,
  CanonicalResult,
  FlattenResult,
  JsonError,
  JsonErrorCode,
  SpanResult,
} from "./types.ts";
import { WASM_BYTES } from "./wasm_bytes.generated.ts";

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
const INDEX_SEGMENT = 0xffffffff;

/** At most this many UTF-16 code units per chunk, unless one text is longer. */
const CHUNK_UNITS = 1 << 22;
/** At most this many texts per chunk. */
const CHUNK_TEXTS = 1 << 14;
/** After a chunk leaves memory larger than this, the instance is dropped to release it. */
const RELEASE_BYTES = 256 * 1024 * 1024;
/** Texts up to this length get 3 bytes per code unit up front; longer ones grow as they encode. */
const EAGER_UNITS = 1 << 20;

const FLOAT_MARK = "\x01";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const HAS_IS_WELL_FORMED = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed ===
  "function";

function isWellFormed(s: string): boolean {
  return HAS_IS_WELL_FORMED ? s.isWellFormed() : !LONE_SURROGATE.test(s);
}

/** Replaces each FLOAT_MARK lexeme FLOAT_MARK in canonical text with Python's repr of the float. */
function withFloats(canonical: string): string {
  let i = canonical.indexOf(FLOAT_MARK);
  if (i < 0) return canonical;
  let out = "";
  let from = 0;
  while (i >= 0) {
    const j = canonical.indexOf(FLOAT_MARK, i + 1);
    out += canonical.slice(from, i) + canonicalFloat(canonical.slice(i + 1, j));
    from = j + 1;
    i = canonical.indexOf(FLOAT_MARK, from);
  }
  return out + canonical.slice(from);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

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
interface ChunkView {
  words: Uint32Array;
  results: number;
  out: string;
  pairs: number;
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
  const compiled = module ?? new WebAssembly.Module(WASM_BYTES);
  let wasm: WasmExports | undefined = instantiate(compiled);

  function exportsNow(): WasmExports {
    wasm ??= instantiate(compiled);
    return wasm;
  }

  /** Writes texts[from, to) into memory, runs `mode`, and hands each result to `read`. */
  function runChunk(
    texts: readonly string[],
    from: number,
    to: number,
    units: number,
    mode: number,
    read: (view: ChunkView, record: number, index: number) => void,
  ): void {
    const ex = exportsNow();
    const count = to - from;
    let cap = units <= EAGER_UNITS ? units * 3 + 16 : units + (units >>> 3) + 16;
    const header = ex.prepare(count, cap) >>> 2;
    let bytes = new Uint8Array(ex.memory.buffer);
    let words = new Uint32Array(ex.memory.buffer);
    const offsets = words[header]! >>> 2;
    const lengths = words[header + 1]! >>> 2;
    const input = words[header + 2]!;
    let pos = 0;

    const ensure = (need: number): void => {
      if (need <= cap) return;
      cap = Math.max(need, Math.floor(cap * 1.5));
      if (cap > 0xffff0000) throw new RangeError("A batch chunk is too large for the wasm engine");
      ex.reserveInput(cap);
      bytes = new Uint8Array(ex.memory.buffer);
      words = new Uint32Array(ex.memory.buffer);
    };
    const encodeWellFormed = (s: string): void => {
      ensure(pos + (s.length <= EAGER_UNITS ? s.length * 3 : s.length + 16));
      let r = encoder.encodeInto(s, bytes.subarray(input + pos, input + cap));
      pos += r.written;
      let read = r.read;
      while (read < s.length) {
        ensure(pos + (s.length - read) * 3);
        r = encoder.encodeInto(s.substring(read), bytes.subarray(input + pos, input + cap));
        pos += r.written;
        read += r.read;
      }
    };

    for (let k = 0; k < count; k++) {
      const s = texts[from + k]!;
      words[offsets + k] = pos;
      words[lengths + k] = s.length;
      if (s.length === 0) continue;
      if (isWellFormed(s)) {
        encodeWellFormed(s);
        continue;
      }
      // Lone surrogates: generalized UTF-8 (WTF-8), a lone surrogate as three bytes.
      ensure(pos + s.length * 3);
      let o = input + pos;
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
      pos = o - input;
    }
    words[offsets + count] = pos;

    ex.run(mode);
    const buffer = ex.memory.buffer;
    words = new Uint32Array(buffer);
    const outLength = words[header + 5]!;
    const view: ChunkView = {
      words,
      results: words[header + 3]! >>> 2,
      out: outLength === 0
        ? ""
        : decoder.decode(new Uint8Array(buffer, words[header + 4]!, outLength)),
      pairs: words[header + 6]! >>> 2,
    };
    for (let k = 0; k < count; k++) read(view, view.results + k * RESULT_WORDS, from + k);
    if (buffer.byteLength > RELEASE_BYTES) wasm = undefined;
  }

  /** Runs `texts` through `mode` in chunks of bounded size. */
  function runBatch<T>(
    texts: readonly string[],
    mode: number,
    decode: (view: ChunkView, record: number) => T,
  ): T[] {
    const results = new Array<T>(texts.length);
    const read = (view: ChunkView, record: number, index: number): void => {
      results[index] = decode(view, record);
    };
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
      try {
        runChunk(texts, i, j, units, mode, read);
      } catch (e) {
        // Start over with a fresh instance next time. A trap means linear memory could not grow.
        wasm = undefined;
        if (!(e instanceof WebAssembly.RuntimeError)) throw e;
        throw new RangeError("The wasm engine ran out of memory on this batch", { cause: e });
      }
      i = j;
    }
    return results;
  }

  return {
    name: "wasm",
    spans: (texts) => runBatch(texts, MODE_SPANS, decodeSpan),
    toolCalls: (texts, pairs) =>
      runBatch(
        texts,
        pairs ? MODE_TOOL_CALLS_PAIRS : MODE_TOOL_CALLS,
        (view, r) => decodeCall(view, r, pairs),
      ),
    canonical: (texts) => runBatch(texts, MODE_CANONICAL, decodeCanonical),
    flatten: (texts) => runBatch(texts, MODE_FLATTEN, decodeFlatten),
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

function decodeCall(view: ChunkView, r: number, pairs: boolean): CoreToolCall {
  const w = view.words;
  const status = w[r]!;
  if (status === STATUS_NO_JSON) return { status: "no_json" };
  if (status === STATUS_INVALID) return { status: "invalid_json", error: errorOf(w, r) };
  if (status !== STATUS_OK) return { status: "invalid_shape" };
  const literal = view.out.slice(w[r + 7]!, w[r + 8]!);
  const call: CoreToolCall = {
    status: "ok",
    name: literal.indexOf("\\") < 0 ? literal.slice(1, -1) : JSON.parse(literal) as string,
    canonicalArguments: withFloats(view.out.slice(w[r + 5]!, w[r + 6]!)),
  };
  if (pairs) call.pairs = decodePairs(view, w[r + 9]!, w[r + 10]!);
  return call;
}

function decodeCanonical(view: ChunkView, r: number): CanonicalResult {
  const w = view.words;
  if (w[r] !== STATUS_OK) return { ok: false, error: errorOf(w, r) };
  return { ok: true, canonical: withFloats(view.out.slice(w[r + 5]!, w[r + 6]!)) };
}

function decodeFlatten(view: ChunkView, r: number): FlattenResult {
  const w = view.words;
  if (w[r] !== STATUS_OK) return { ok: false, error: errorOf(w, r) };
  return { ok: true, pairs: decodePairs(view, w[r + 9]!, w[r + 10]!) };
}

/** Rebuilds `count` pairs from the word table (see assembly/flatten.ts). */
function decodePairs(view: ChunkView, first: number, count: number): ArgumentPair[] {
  const w = view.words;
  const out = view.out;
  const pairs = new Array<ArgumentPair>(count);
  // prefixes[d] is "[" followed by the first d segments, comma-separated: each pair keeps
  // a prefix of the previous pair's path, so paths are built by concatenation, never joined.
  const prefixes: string[] = ["["];
  let p = view.pairs + first;
  for (let i = 0; i < count; i++) {
    let depth = w[p]!;
    const n = w[p + 1]!;
    p += 2;
    for (let k = 0; k < n; k++) {
      const a = w[p]!;
      const b = w[p + 1]!;
      const segment = a === INDEX_SEGMENT ? String(b) : out.slice(a, b);
      prefixes[depth + 1] = depth === 0 ? "[" + segment : prefixes[depth] + "," + segment;
      depth++;
      p += 2;
    }
    let value = out.slice(w[p]!, w[p + 1]!);
    p += 2;
    if (value.charCodeAt(0) === 1) value = canonicalFloat(value.slice(1, -1));
    pairs[i] = { path: prefixes[depth] + "]", value };
  }
  return pairs;
}
