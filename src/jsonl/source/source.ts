// The byte sources of scoreJsonl and scoreStructuredJsonl: bytes, streams, async iterables of
// chunks, or functions that open a fresh one. A source is read once per pass; a one-shot source (a
// stream or an iterable) keeps its chunks while the run lasts, so that a second pass (scoreJsonl's
// general reader, after the kernel gave the run back) can read it again. Each source's SHA-256 is
// taken by the first pass that reads it to its end. A reader of one pass (readOnce, readWhole)
// keeps nothing.
import { Sha256, sha256Digest } from "../../engine/mod.ts";
import { InputError } from "../errors.ts";
import { bytesChunk } from "../lines.ts";

/**
 * The bytes of one JSONL input, read decompressed when they start with gzip's magic number (with
 * DecompressionStream: see {@linkcode Source}). A function must open a new stream or iterable
 * each time it is called: one that gives the same one again is refused (a `TypeError`).
 */
export type JsonlSource =
  | Uint8Array
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array>
  | (() => ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>);

/**
 * Marks a source (set to `true` on the function, stream or iterable) whose bytes are read as they
 * are, gzip's magic number or not: the CLI's, which it has decompressed itself, every member. A
 * file compressed twice is then refused as it was before the library read gzip, not decompressed
 * twice.
 */
export const DECOMPRESSED: unique symbol = Symbol("decompressed");

/** A source that may be marked {@linkcode DECOMPRESSED}. */
type Marked = { [DECOMPRESSED]?: boolean };

/** An incremental SHA-256 (for example `node:crypto`'s `createHash("sha256")`). */
export interface ByteHasher {
  /** Adds the next chunk. */
  update(bytes: Uint8Array): unknown;
  /** The digest as lowercase hex. */
  digest(encoding: "hex"): string;
}

/** Chunks handed to a pass at most this long (a Uint8Array source is cut up). */
export const PASS_CHUNK = 4 << 20;

function isAsyncIterable(x: unknown): x is AsyncIterable<Uint8Array> {
  return typeof x === "object" && x !== null && Symbol.asyncIterator in x;
}

async function* readStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let end = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if ((end = done)) return;
      yield value;
    }
  } finally {
    // Stopped before its end (a refused line, an error): the stream is cancelled, not left open.
    if (!end) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function* slices(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += PASS_CHUNK) {
    yield bytes.subarray(at, Math.min(at + PASS_CHUNK, bytes.length));
  }
}

/**
 * One input of a run: its passes, its digest and its size. It is made from the bytes (or a
 * stream, an iterable or a function that opens one), the name for messages (a file name), and
 * what makes the incremental SHA-256 of a source read in chunks. A one-shot source keeps its
 * iterator (until it ends), the chunks read so far and their hash in #iter, #kept and #hash.
 * Bytes that start with gzip's magic number (1f 8b) are read decompressed, with
 * `DecompressionStream("gzip")` (see `gunzip`): the chunks and the digest are the decompressed
 * bytes', so a report is the same whether its inputs were compressed or not.
 *
 * Members: `chunks()` gives the chunks of one pass, in order; a pass that reads the source to its
 * end digests it, unless an earlier pass did, and a pass may stop early (the next one starts again
 * from the first byte). `digest()` is its SHA-256 (lowercase hex), once a pass has read it whole.
 * `release()` lets go of a one-shot source's chunks, and closes what is still open.
 * (These docs are not on the members: the bundler keeps a class member's docs, in the root's
 * budget.)
 */
export class Source {
  readonly name: string;
  #source: JsonlSource;
  #hasher: (() => ByteHasher) | undefined;
  #digest: Promise<string> | string | undefined;
  #iter: AsyncIterator<Uint8Array> | undefined;
  #kept: Uint8Array[] | undefined;
  #hash: ByteHasher | undefined;
  #opened: unknown;

  constructor(source: JsonlSource, name: string, hasher?: () => ByteHasher) {
    if (hasher !== undefined && typeof hasher != "function") {
      throw new TypeError("Option sha256 must be a function");
    }
    // ReadableStream last: Deno loads its streams on the global's first use (about 10 ms).
    const ok = source instanceof Uint8Array || typeof source === "function" ||
      source instanceof ReadableStream || isAsyncIterable(source);
    if (!ok) {
      throw new TypeError(
        `${name}: expected a Uint8Array, a ReadableStream, an async iterable of chunks or a ` +
          `function that opens one`,
      );
    }
    // Bytes that may be gzip are read as a function that opens them (each pass decompressing
    // anew); `gunzip` tells.
    this.#source = source instanceof Uint8Array && source[0] === 31
      ? async function* () {
        yield source;
      }
      : source;
    this.name = name;
    this.#hasher = hasher;
  }

  async digest(): Promise<string> {
    if (this.#digest === undefined) throw new Error(`${this.name} was not read to its end`);
    const hex = await this.#digest;
    // The sha256 option's hasher writes it into the report: it must be a digest.
    if (!/^[\da-f]{64}$/.test(hex)) throw new TypeError(`${this.name}: sha256 gave no hex digest`);
    return hex;
  }

  #newHash(): ByteHasher {
    return this.#hasher?.() ?? new Sha256();
  }

  async *chunks(): AsyncGenerator<Uint8Array> {
    const src = this.#source;
    if (src instanceof Uint8Array) {
      if (this.#digest === undefined) {
        this.#digest = this.#hasher === undefined
          ? sha256Digest(src)
          : hashChunks(slices(src), this.#newHash());
      }
      yield* slices(src);
      return;
    }
    if (typeof src === "function") {
      const hash = this.#digest === undefined ? this.#newHash() : undefined;
      const opened = src();
      // The stream it opened before would be read on from where the last pass stopped: a report
      // of part of the file, or the wrong error.
      if (opened === this.#opened) {
        throw new TypeError(`${this.name}: the function gave the same stream twice`);
      }
      this.#opened = opened;
      // What has no getReader is no stream: an async generator is iterated without looking up
      // ReadableStream (see the constructor).
      const iter = (opened as ReadableStream)?.getReader && opened instanceof ReadableStream
        ? readStream(opened)
        : isAsyncIterable(opened)
        ? opened
        : undefined;
      if (iter === undefined) {
        throw new TypeError(`${this.name}: the function did not return a stream or an iterable`);
      }
      for await (const chunk of gunzip(iter, this.name, src as Marked)) {
        hash?.update(chunk);
        yield* pieces(chunk);
      }
      if (hash) this.#digest = hash.digest("hex");
      return;
    }
    // A one-shot source: what earlier passes read is kept; the rest is read on.
    if (this.#kept === undefined) {
      this.#kept = [];
      this.#hash = this.#newHash();
      this.#iter = gunzip(
        src instanceof ReadableStream ? readStream(src) : src,
        this.name,
        src as Marked,
      );
    }
    for (let k = 0; k < this.#kept.length; k++) yield* pieces(this.#kept[k]!);
    while (this.#iter) {
      const { done, value } = await this.#iter.next();
      if (done) {
        this.#iter = undefined;
        this.#digest = this.#hash!.digest("hex");
        break;
      }
      // Kept as a copy: a source may reuse its buffer, and a later pass reads what is kept.
      const copy = value.slice();
      this.#hash!.update(copy);
      this.#kept.push(copy);
      yield* pieces(copy);
    }
  }

  async release(): Promise<void> {
    this.#kept = undefined;
    const iter = this.#iter;
    this.#iter = undefined;
    await iter?.return?.();
  }
}

/**
 * The chunks of a source (none empty), decompressed when its first two bytes are gzip's magic
 * number, unless it is marked {@linkcode DECOMPRESSED}. The data must be one gzip member: Deno's
 * and workerd's `DecompressionStream` stop with an error at a second member or other bytes after
 * one, and Node's and Bun's read on, so the member's recorded size (its last four bytes) is checked
 * against the bytes decompressed, and every runtime refuses them alike. They, data corrupt or cut
 * short, and a runtime with no `DecompressionStream` are an InputError naming the source. An error of the source itself (a
 * chunk that is not bytes) is passed on as it is. Closing the chunks closes the source, before
 * the closing returns.
 */
async function* gunzip(
  chunks: AsyncIterable<unknown>,
  name: string,
  from: Marked,
): AsyncGenerator<Uint8Array> {
  let bad: unknown;
  const src = (async function* () {
    try {
      for await (const c of chunks) if (bytesChunk(c, name).length) yield c as Uint8Array;
    } catch (e) {
      // The source's own failure (a stream's error, a locked stream) is named with the source;
      // the CLI's InputErrors and the chunks' TypeErrors name it already.
      throw (bad = e instanceof InputError || `${(e as Error)?.message}`.startsWith(name)
        ? e
        : new InputError(`${name}: the source failed (${e})`, { cause: e, at: { source: name } }));
    }
  })();
  // The first chunks, copied (a source may reuse its buffer), until they hold two bytes: one
  // chunk, or two when the first is one byte (no chunk is empty). None of a marked source.
  const head: Uint8Array[] = [];
  for (
    let r;
    !from[DECOMPRESSED] && !(r = await src.next()).done && head.push(r.value.slice()) < 2 &&
    r.value.length < 2;
  );
  // Only `head` holds them, until they are read (spliced out).
  const all = (async function* () {
    yield* head.splice(0);
    yield* src;
  })();
  try {
    if (head[0]?.[0] !== 31 || (head[0][1] ?? head[1]?.[0]) !== 139) return yield* all;
    // The last four bytes read (a member's size mod 2^32), and the bytes decompressed.
    const last = new Uint8Array(4);
    let out = 0;
    // Not ReadableStream.from, which browsers lack.
    const input = new ReadableStream<BufferSource>({
      async pull(controller) {
        const r = await all.next();
        if (r.done) return controller.close();
        const c = r.value;
        if (c.length >= 4) last.set(c.subarray(c.length - 4));
        else last.set([...last.subarray(c.length), ...c]);
        controller.enqueue(c as Uint8Array<ArrayBuffer>);
      },
      cancel: () => void all.return(undefined),
    }, { highWaterMark: 0 }); // a chunk is read when the decompressor takes it: a buffer reused
    for await (const c of readStream(input.pipeThrough(new DecompressionStream("gzip")))) {
      out += c.length;
      yield c;
    }
    if (new DataView(last.buffer).getUint32(0, true) !== out % 2 ** 32) {
      throw new Error("more than one gzip member, or other bytes after the member");
    }
  } catch (e) {
    if (e === bad) throw e;
    // Corrupt, cut short, more after the member, or a runtime without DecompressionStream.
    throw new InputError(`${name}: its gzip data does not decompress (${e})`, {
      cause: e,
      at: { source: name },
    });
  } finally {
    // Closes the source now, also when the pass stops early (even within the first chunks).
    await src.return();
  }
}

function* pieces(chunk: Uint8Array): Generator<Uint8Array> {
  if (chunk.length <= PASS_CHUNK) yield chunk;
  else yield* slices(chunk);
}

function hashChunks(chunks: Iterable<Uint8Array>, hash: ByteHasher): string {
  for (const c of chunks) hash.update(c);
  return hash.digest("hex");
}

/**
 * Reads a source in one pass, handing each chunk to `take`, and returns its SHA-256 (lowercase
 * hex). A one-shot source is read as a function that opens it would be, so that its chunks are
 * not kept for a pass that will not come.
 *
 * @throws {TypeError} If the source is not bytes, a stream, an iterable or a function that opens
 *   one, or a chunk is not a Uint8Array.
 */
export async function readOnce(
  source: JsonlSource,
  name: string,
  hasher: (() => ByteHasher) | undefined,
  take: (chunk: Uint8Array) => void,
): Promise<string> {
  // The constructor refuses what is no source, in the words scoreJsonl uses.
  const checked = new Source(source, name, hasher);
  const once = source instanceof Uint8Array || typeof source === "function" ? checked : new Source(
    Object.assign(() => source, { [DECOMPRESSED]: (source as Marked)[DECOMPRESSED] }),
    name,
    hasher,
  );
  for await (const chunk of once.chunks()) take(chunk);
  return await once.digest();
}

/** A hasher that hashes nothing, for a pass whose digest goes unused (64 zeros). */
const NO_HASH = (): ByteHasher => ({ update() {}, digest: () => "0".repeat(64) });

/**
 * A source's bytes, whole, read in one pass. Not hashed: a schema's digest is taken of its text.
 */
export async function readWhole(source: JsonlSource, name: string): Promise<Uint8Array> {
  // Bytes that may be gzip are read as any source is (see Source).
  if (source instanceof Uint8Array && source[0] !== 31) return source;
  const parts: Uint8Array[] = [];
  // A copy of each chunk: a source may reuse its buffer for the next one.
  await readOnce(source, name, NO_HASH, (c) => parts.push(c.slice()));
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}
