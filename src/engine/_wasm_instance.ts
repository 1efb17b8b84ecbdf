// One instance of the Wasm module with its batch protocol (one crossing per chunk):
// 1. `prepare(count, inputCap)` lays out the batch and returns a header address.
// 2. JS writes every text as WTF-8 into the input area (TextEncoder.encodeInto;
//    lone surrogates by hand as 3-byte sequences), with a table of byte offsets
//    and a table of UTF-16 lengths. `reserveInput(cap)` grows the input area.
// 3. `run(mode)` processes the whole batch and fills the header: a result table
//    (RESULT_WORDS u32 per text: status, error code, UTF-16 offsets, output
//    ranges), one ASCII output area and, for pairs, a u32 word table, the
//    distinct paths of the batch (with their texts in a second ASCII area)
//    and the path nodes they are made of.
// 4. JS decodes the output area once (ChunkView) and slices it. It builds each
//    distinct path string once per chunk, and pairs share them.
import {
  ALL_EXPORTS,
  type EngineExports,
  HEADER_INPUT,
  HEADER_LEAF_COUNT,
  HEADER_LEAVES,
  HEADER_LENGTHS,
  HEADER_NODE_COUNT,
  HEADER_NODES,
  HEADER_OFFSETS,
  HEADER_OUT,
  HEADER_OUT_LENGTH,
  HEADER_PAIRS,
  HEADER_PATH_TEXT,
  HEADER_PATH_TEXT_LENGTH,
  HEADER_RESULTS,
  INDEX_SEGMENT,
  LEAF_WORDS,
  LONG_PATH,
  NODE_WORDS,
} from "./_abi.generated.ts";
import { isWellFormed } from "./well_formed.ts";

/** Texts up to this length get 3 bytes per code unit up front; longer ones grow as they encode. */
const EAGER_UNITS = 1 << 20;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NO_STRINGS: string[] = [];

/** After a crossing leaves memory larger than this, its instance is dropped to release it. */
export const RELEASE_BYTES = 256 * 1024 * 1024;

/**
 * Throws what a failed crossing threw, but a trap (linear memory could not grow) as a RangeError
 * that says it ran out of memory on this `what`.
 */
export function outOfMemory(e: unknown, what: string): never {
  if (!(e instanceof WebAssembly.RuntimeError)) throw e;
  throw new RangeError(`The wasm engine ran out of memory on this ${what}`, { cause: e });
}

/** Instantiates the module, checking that it has every export this version's glue calls. */
export function instantiate(module: WebAssembly.Module): EngineExports {
  const exports = new WebAssembly.Instance(module, {}).exports;
  const missing = ALL_EXPORTS.filter((name) => !(name in exports));
  if (missing.length > 0) {
    throw new TypeError(`The module is not this version's Assay engine: no ${missing.join(", ")}`);
  }
  return exports as unknown as EngineExports;
}

/**
 * What one chunk left in memory, read back after `run`: `results`, the first result record, and
 * `pairs`, the pair words (word indexes); `hasPairs`, whether the chunk was run in a mode with
 * pairs; `paths`, the path text of each leaf (distinct pair path) of the chunk. `#prefix(node)` is
 * the prefix `[seg,seg` of path node `node` (the root's is `[`), built from the nodes by
 * `#prefixOf` (a node's, once its parent's is built) and kept in `#prefixes`, for the paths built
 * here. (These docs are not on the members: the bundler keeps a class member's docs, in the root's
 * budget.)
 */
export class ChunkView {
  readonly results: number;
  readonly pairs: number;
  readonly hasPairs: boolean;
  readonly paths: string[];
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
    this.results = w[header + HEADER_RESULTS]! >>> 2;
    this.pairs = w[header + HEADER_PAIRS]! >>> 2;
    this.#nodes = w[header + HEADER_NODES]! >>> 2;
    this.#nodeCount = w[header + HEADER_NODE_COUNT]!;
    this.hasPairs = this.#nodeCount !== 0;
    const leafCount = w[header + HEADER_LEAF_COUNT]!;
    this.paths = NO_STRINGS;
    if (leafCount > 0) {
      const textStart = w[header + HEADER_PATH_TEXT]!;
      const text = decoder.decode(
        bytes.subarray(textStart, textStart + w[header + HEADER_PATH_TEXT_LENGTH]!),
      );
      const paths = new Array<string>(leafCount);
      for (let k = 0, e = w[header + HEADER_LEAVES]! >>> 2; k < leafCount; k++, e += LEAF_WORDS) {
        const a = w[e + 1]!;
        paths[k] = a === LONG_PATH ? this.#prefix(w[e]!) + "]" : text.slice(a, w[e + 2]!);
      }
      this.paths = paths;
    }
  }

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

  #prefixOf(node: number, prefixes: string[]): string {
    const w = this.words;
    const e = this.#nodes + node * NODE_WORDS;
    const parent = w[e]!;
    const a = w[e + 1]!;
    const segment = a === INDEX_SEGMENT ? String(w[e + 2]!) : this.out.slice(a, w[e + 2]!);
    return prefixes[node] = parent === 0 ? "[" + segment : prefixes[parent]! + "," + segment;
  }
}

/**
 * One instance of the module, with views of its memory kept while the memory does not grow:
 * `run(texts, from, to, units, mode)` writes `texts[from, to)` into memory (well-formed text by
 * `#encodeWellFormed`, text with lone surrogates as generalized UTF-8, WTF-8, a lone surrogate as
 * three bytes, by `#encodeWtf8`), runs `mode`, and returns what the chunk left; `#ensure(need)`
 * makes room for `need` input bytes, `#views()` refreshes the views after the memory grew; `size`
 * is the bytes of linear memory. (These docs are not on the members, as ChunkView's.)
 */
export class Instance {
  readonly #ex: EngineExports;
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

  #views(): void {
    const buffer = this.#ex.memory.buffer;
    if (buffer === this.#buffer) return;
    this.#buffer = buffer;
    this.#bytes = new Uint8Array(buffer);
    this.#words = new Uint32Array(buffer);
  }

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

  run(texts: readonly string[], from: number, to: number, units: number, mode: number): ChunkView {
    const ex = this.#ex;
    const count = to - from;
    this.#cap = units <= EAGER_UNITS ? units * 3 + 16 : units + (units >>> 3) + 16;
    const header = ex.prepare(count, this.#cap) >>> 2;
    this.#views();
    let words = this.#words;
    const offsets = words[header + HEADER_OFFSETS]! >>> 2;
    const lengths = words[header + HEADER_LENGTHS]! >>> 2;
    this.#input = words[header + HEADER_INPUT]!;
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
    const outStart = words[header + HEADER_OUT]!;
    const outLength = words[header + HEADER_OUT_LENGTH]!;
    const out = outLength === 0
      ? ""
      : decoder.decode(this.#bytes.subarray(outStart, outStart + outLength));
    return new ChunkView(words, this.#bytes, header, out);
  }

  get size(): number {
    return this.#buffer.byteLength;
  }
}
