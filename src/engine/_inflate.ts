// Raw DEFLATE (RFC 1951) decoding, synchronous, for the scoring module's inlined bytes:
// build/build_wasm.ts stores build/assay.wasm compressed (Zopfli) and written in base85, which
// halves what the module costs an edge bundle, and createEngine() needs the bytes without waiting
// on a stream. The decoding runs in a small module of its own (assembly/inflate.ts, inlined in
// base64): a decoder in TS runs once, interpreted, and took about ten milliseconds of every
// process's first createEngine().
import { INFLATE_WASM_BASE64 } from "./_inflate_wasm.generated.ts";

interface InflateExports {
  memory: WebAssembly.Memory;
  reserve(n: number): number;
  unbase85(at: number, length: number): number;
  inflate(src: number, length: number, dst: number, cap: number): number;
}

/** What `inflate`'s negative results mean, from -1 on. */
const ERRORS = [
  "the data ends early",
  "a block of type 3",
  "a stored block fails its length check",
  "an invalid Huffman code",
  "a distance before the start",
];
const FULL = -6;

/** Uint8Array.fromBase64 where the host has it: Deno's first atob() costs about a millisecond. */
const fromBase64 = (Uint8Array as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> })
  .fromBase64;

/** A fresh instance of the decoding module (its memory goes with it). */
function decoder(): InflateExports {
  const bytes = fromBase64?.(INFLATE_WASM_BASE64) ??
    Uint8Array.from(atob(INFLATE_WASM_BASE64), (c) => c.charCodeAt(0));
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), {})
    .exports as unknown as InflateExports;
}

/** Decodes `length` bytes at `src` into the `cap` bytes after them: null if they do not fit. */
function run(x: InflateExports, src: number, length: number, cap: number): Uint8Array | null {
  const n = x.inflate(src, length, src + length, cap);
  if (n === FULL) return null;
  if (n < 0) throw new RangeError(`Corrupt deflate data: ${ERRORS[-n - 1]}`);
  return new Uint8Array(x.memory.buffer.slice(src + length, src + length + n));
}

/**
 * Decodes raw DEFLATE data (no zlib or gzip header), as `DecompressionStream("deflate-raw")` does.
 *
 * @param input The compressed bytes.
 * @param sizeHint The expected output size (the output may be longer).
 * @returns The decompressed bytes.
 * @throws {RangeError} If the data is truncated or corrupt.
 */
export function inflateRaw(input: Uint8Array, sizeHint = 0): Uint8Array<ArrayBuffer> {
  const x = decoder();
  for (let cap = Math.max(sizeHint, 4 * input.length, 1024);; cap *= 2) {
    const at = x.reserve(input.length + cap);
    new Uint8Array(x.memory.buffer, at, input.length).set(input);
    const out = run(x, at, input.length, cap);
    if (out) return out as Uint8Array<ArrayBuffer>;
  }
}

/**
 * Decodes base85 text (see build/build_wasm.ts's toBase85) and inflates the bytes.
 *
 * @param text The base85 digits, ASCII.
 * @param size The length of the decompressed bytes.
 * @returns The decompressed bytes.
 * @throws {RangeError} If the data is corrupt or decompresses to more than `size` bytes.
 */
export function inflateBase85(text: string, size: number): Uint8Array<ArrayBuffer> {
  const x = decoder();
  const at = x.reserve(text.length + size);
  new TextEncoder().encodeInto(text, new Uint8Array(x.memory.buffer, at, text.length));
  const out = run(x, at, x.unbase85(at, text.length), size);
  if (!out) throw new RangeError(`Corrupt deflate data: more than ${size} bytes`);
  return out as Uint8Array<ArrayBuffer>;
}
