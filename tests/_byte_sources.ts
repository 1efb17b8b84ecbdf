// The kinds of byte source scoreJsonl and scoreStructuredJsonl take, made from bytes cut into
// chunks of random sizes: the bytes themselves, a stream, an async iterable, or a function that
// opens one.
import type { JsonlSource } from "../mod.ts";
import type { Rng } from "./_corpus.ts";

/** Cuts bytes into chunks of random sizes (some of one byte, some large). */
export function cut(bytes: Uint8Array, rng: Rng): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = rng.pick([1, 2, 3, 7, 64, 1000, 4096, 65536, 1 << 20]);
    out.push(bytes.slice(at, at + size));
    at += size;
  }
  return out;
}

/** A kind of source. */
export type Kind = "bytes" | "stream" | "iterable" | "function" | "function opening a stream";

/** The bytes as a source of that kind, in chunks of random sizes. */
export function sourceOf(bytes: Uint8Array, kind: Kind, rng: Rng): JsonlSource {
  if (kind === "bytes") return bytes;
  const chunks = cut(bytes, rng);
  const stream = () =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(chunk);
        c.close();
      },
    });
  if (kind === "stream") return stream();
  if (kind === "function opening a stream") return stream;
  const iterable = async function* () {
    for (const chunk of chunks) yield chunk.slice();
  };
  return kind === "iterable" ? iterable() : iterable;
}

/** The bytes of the parts, one after the other. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * A corpus of `count` examples, each with a generation, that the scoring kernel gives back: line 2
 * of the generations has a top-level key with an escape, so the general reader reads every
 * source again. The generations are one JSONL text a line.
 */
export function handBackCorpus(count: number): { examples: Uint8Array; generations: string[] } {
  const ids = Array.from({ length: count }, (_, i) => `id${i}`);
  const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r) + "\n").join("");
  const examples = new TextEncoder().encode(
    lines(
      ids.map((id) => ({ example_id: id, language: "en", target: { name: "f", arguments: {} } })),
    ),
  );
  const generations = ids.map((id) =>
    lines([{
      example_id: id,
      prompt_sha256: "0".repeat(64),
      output: '{"name":"f","arguments":{}}',
    }])
  );
  generations[1] = generations[1]!.replace('"output"', '"\\u006futput"');
  return { examples, generations };
}
