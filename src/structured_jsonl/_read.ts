// Reading the sources of scoreStructuredJsonl: each is read once, whole, chunk by chunk, and its
// SHA-256 taken as it is read (the engine's sha256Digest for one Uint8Array without a hasher,
// else the given hasher or the pure-TS one).
import { Sha256, sha256Digest } from "../engine/mod.ts";
import type { ByteHasher, JsonlSource } from "../evaluation/mod.ts";
import { bytesChunk } from "../jsonl/mod.ts";

function isAsyncIterable(x: unknown): x is AsyncIterable<unknown> {
  return typeof x === "object" && x !== null && Symbol.asyncIterator in x;
}

async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = stream.getReader();
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value;
  } finally {
    reader.releaseLock();
  }
}

/** A source's chunks: the bytes themselves, or what its stream, iterable or function gives. */
function chunksOf(source: JsonlSource, name: string): AsyncIterable<unknown> | Uint8Array {
  const opened: unknown = typeof source === "function" ? source() : source;
  if (opened instanceof Uint8Array) return opened;
  // What has no getReader is no stream: an async generator is iterated as it is.
  const stream = opened as ReadableStream<Uint8Array> | undefined;
  if (typeof stream?.getReader === "function") return streamChunks(stream);
  if (isAsyncIterable(opened)) return opened;
  throw new TypeError(
    typeof source === "function"
      ? `${name}: the function did not return a stream or an iterable`
      : `${name}: expected a Uint8Array, a ReadableStream, an async iterable of chunks or a ` +
        `function that opens one`,
  );
}

/**
 * Reads a source to its end, handing each chunk to `take`, and returns its SHA-256 (lowercase
 * hex).
 *
 * @throws {TypeError} If the source is not bytes, a stream, an iterable or a function that opens
 *   one, or a chunk is not a Uint8Array.
 */
export async function readSource(
  source: JsonlSource,
  name: string,
  hasher: (() => ByteHasher) | undefined,
  take: (chunk: Uint8Array) => void,
): Promise<string> {
  const chunks = chunksOf(source, name);
  if (
    chunks instanceof Uint8Array && hasher === undefined &&
    typeof crypto?.subtle?.digest === "function"
  ) {
    take(chunks);
    return await sha256Digest(chunks);
  }
  const hash = hasher?.() ?? new Sha256();
  await eachChunk(chunks, name, (chunk) => {
    hash.update(chunk);
    take(chunk);
  });
  return hash.digest("hex");
}

/** Hands each non-empty chunk to `take`, refusing a chunk that is not a Uint8Array. */
async function eachChunk(
  chunks: AsyncIterable<unknown> | Uint8Array,
  name: string,
  take: (chunk: Uint8Array) => void,
): Promise<void> {
  for await (const raw of chunks instanceof Uint8Array ? [chunks] : chunks) {
    const chunk = bytesChunk(raw, name);
    if (chunk.length > 0) take(chunk);
  }
}

/** A source's bytes, whole, with no digest (a schema's is taken of its text). */
export async function readAll(source: JsonlSource, name: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  await eachChunk(chunksOf(source, name), name, (c) => parts.push(c.slice()));
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}
