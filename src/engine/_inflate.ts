// Raw DEFLATE (RFC 1951) decoding, synchronous, for the module's inlined bytes: build/build_wasm.ts
// stores build/assay.wasm compressed (zlib's raw DEFLATE at level 9), which halves what the
// module costs an edge bundle, and createEngine() needs the bytes without waiting on a stream.
//
// Bits are read from a bit buffer, least significant first; each Huffman code is decoded with one
// look-up of its next `maxLength` bits in a table of (symbol, length) entries.

// Base values and extra bits of RFC 1951 §3.2.5's length codes 257..285 and distance codes
// 0..29: each code's base follows the one before by 2^(its extra bits); length code 285 is 258
// with no extra bits.
function baseTable(
  count: number,
  first: number,
  extra: (i: number) => number,
): [number[], number[]] {
  const bases: number[] = [];
  const extras: number[] = [];
  for (let i = 0, base = first; i < count; i++) {
    bases.push(base);
    extras.push(extra(i));
    base += 1 << extras[i]!;
  }
  return [bases, extras];
}
const [LENGTH_BASE, LENGTH_EXTRA] = baseTable(29, 3, (i) => i < 8 || i === 28 ? 0 : (i - 4) >> 2);
LENGTH_BASE[28] = 258;
const [DIST_BASE, DIST_EXTRA] = baseTable(30, 1, (i) => i < 4 ? 0 : (i >> 1) - 1);
/** The order in which a dynamic block lists its code-length code lengths. */
const CLEN_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A Huffman code as a look-up table: entry = symbol << 4 | length, indexed by `bits` bits. */
interface Code {
  table: Uint16Array;
  bits: number;
}

function corrupt(what: string): never {
  throw new RangeError(`Corrupt deflate data: ${what}`);
}

/** The canonical code of the given code lengths (RFC 1951 §3.2.2), as a look-up table. */
function codeOf(lengths: ArrayLike<number>, n: number): Code {
  let max = 0;
  const counts = new Uint16Array(16);
  for (let i = 0; i < n; i++) {
    const len = lengths[i]!;
    counts[len]!++;
    if (len > max) max = len;
  }
  const bits = Math.max(max, 1);
  const table = new Uint16Array(1 << bits);
  counts[0] = 0;
  const next = new Uint16Array(16);
  for (let len = 1, code = 0; len < 16; len++) {
    code = (code + counts[len - 1]!) << 1;
    next[len] = code;
  }
  for (let i = 0; i < n; i++) {
    const len = lengths[i]!;
    if (len === 0) continue;
    const code = next[len]!++;
    if (code >= 1 << len) corrupt("an over-subscribed Huffman code");
    // The code's bits come most significant first: reversed, they index the table.
    let reversed = 0;
    for (let k = 0; k < len; k++) reversed |= ((code >> k) & 1) << (len - 1 - k);
    for (let at = reversed; at < table.length; at += 1 << len) table[at] = (i << 4) | len;
  }
  return { table, bits };
}

class Inflater {
  readonly #in: Uint8Array;
  #pos = 0;
  #buffer = 0;
  #count = 0;
  out: Uint8Array;
  size = 0;

  constructor(input: Uint8Array, sizeHint: number) {
    this.#in = input;
    this.out = new Uint8Array(Math.max(sizeHint, 1024));
  }

  /** Makes at least `n` (≤ 16) bits available, zeros past the input's end. */
  #fill(n: number): void {
    while (this.#count < n) {
      const byte = this.#pos < this.#in.length ? this.#in[this.#pos]! : 0;
      this.#pos++;
      this.#buffer |= byte << this.#count;
      this.#count += 8;
    }
  }

  #drop(n: number): void {
    this.#buffer >>>= n;
    this.#count -= n;
    // Bits taken from past the input's end mean it was cut short.
    if ((this.#pos << 3) - this.#count > this.#in.length << 3) corrupt("it is truncated");
  }

  bits(n: number): number {
    if (n === 0) return 0;
    this.#fill(n);
    const v = this.#buffer & ((1 << n) - 1);
    this.#drop(n);
    return v;
  }

  symbol(code: Code): number {
    this.#fill(code.bits);
    const entry = code.table[this.#buffer & ((1 << code.bits) - 1)]!;
    if (entry === 0) corrupt("an unused Huffman code");
    this.#drop(entry & 15);
    return entry >> 4;
  }

  #grow(need: number): void {
    if (this.size + need <= this.out.length) return;
    const grown = new Uint8Array(Math.max(this.out.length * 2, this.size + need));
    grown.set(this.out.subarray(0, this.size));
    this.out = grown;
  }

  stored(): void {
    this.#drop(this.#count & 7); // to a byte boundary
    const len = this.bits(16);
    if ((len ^ 0xffff) !== this.bits(16)) corrupt("a stored block's length check");
    this.#grow(len);
    for (let i = 0; i < len; i++) this.out[this.size++] = this.bits(8);
  }

  compressed(lit: Code, dist: Code): void {
    for (;;) {
      const s = this.symbol(lit);
      if (s < 256) {
        this.#grow(1);
        this.out[this.size++] = s;
        continue;
      }
      if (s === 256) return;
      const li = s - 257;
      if (li >= 29) corrupt("a length code past 285");
      const length = LENGTH_BASE[li]! + this.bits(LENGTH_EXTRA[li]!);
      const di = this.symbol(dist);
      if (di >= 30) corrupt("a distance code past 29");
      const distance = DIST_BASE[di]! + this.bits(DIST_EXTRA[di]!);
      if (distance > this.size) corrupt("a distance before the start");
      this.#grow(length);
      const out = this.out;
      for (let i = 0; i < length; i++, this.size++) out[this.size] = out[this.size - distance]!;
    }
  }

  dynamicCodes(): [Code, Code] {
    const nlen = this.bits(5) + 257;
    const ndist = this.bits(5) + 1;
    const ncode = this.bits(4) + 4;
    const clens = new Uint8Array(19);
    for (let i = 0; i < ncode; i++) clens[CLEN_ORDER[i]!] = this.bits(3);
    const clen = codeOf(clens, 19);
    const lengths = new Uint8Array(nlen + ndist);
    for (let i = 0; i < nlen + ndist;) {
      const s = this.symbol(clen);
      if (s < 16) {
        lengths[i++] = s;
        continue;
      }
      if (s === 16 && i === 0) corrupt("a repeat with nothing before it");
      const value = s === 16 ? lengths[i - 1]! : 0;
      const repeat = s === 16 ? 3 + this.bits(2) : s === 17 ? 3 + this.bits(3) : 11 + this.bits(7);
      if (i + repeat > nlen + ndist) corrupt("code lengths past their count");
      lengths.fill(value, i, i + repeat);
      i += repeat;
    }
    return [codeOf(lengths, nlen), codeOf(lengths.subarray(nlen), ndist)];
  }
}

let fixed: [Code, Code] | undefined;

function fixedCodes(): [Code, Code] {
  if (fixed) return fixed;
  const lengths = new Uint8Array(288);
  lengths.fill(8, 0, 144);
  lengths.fill(9, 144, 256);
  lengths.fill(7, 256, 280);
  lengths.fill(8, 280, 288);
  return fixed = [codeOf(lengths, 288), codeOf(new Uint8Array(30).fill(5), 30)];
}

/**
 * Decodes raw DEFLATE data (no zlib or gzip header), as `DecompressionStream("deflate-raw")` does.
 *
 * @param input The compressed bytes.
 * @param sizeHint The expected output size (the buffer grows past it if needed).
 * @returns The decompressed bytes.
 * @throws {RangeError} If the data is truncated or corrupt.
 */
export function inflateRaw(input: Uint8Array, sizeHint = 0): Uint8Array<ArrayBuffer> {
  const z = new Inflater(input, sizeHint);
  for (;;) {
    const last = z.bits(1);
    const type = z.bits(2);
    if (type === 0) z.stored();
    else if (type === 1) z.compressed(...fixedCodes());
    else if (type === 2) z.compressed(...z.dynamicCodes());
    else corrupt("a block of type 3");
    if (last) break;
  }
  return z.out.slice(0, z.size);
}
