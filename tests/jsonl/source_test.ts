// The one reader of byte sources (src/jsonl/source/): scoreJsonl reads its inputs with it in passes,
// scoreStructuredJsonl (and its schema) in one pass. Both take and refuse the same sources.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readOnce, readWhole, Source } from "../../src/jsonl/source/mod.ts";
import { scoreJsonl } from "../../src/evaluation/mod.ts";
import { scoreStructuredJsonl } from "../../src/structured_jsonl/mod.ts";
import { sha256Hex } from "../../src/engine/mod.ts";
import { type Kind, sourceOf } from "../_byte_sources.ts";
import { makeRng } from "../_corpus.ts";

const enc = new TextEncoder();
const KINDS: Kind[] = ["bytes", "stream", "iterable", "function", "function opening a stream"];

/** An object with a stream's getReader, which is no ReadableStream and no async iterable. */
function streamLike(bytes: Uint8Array): unknown {
  return {
    getReader: () => {
      let done = false;
      return {
        read: () => {
          const r = done ? { done: true, value: undefined } : { done: false, value: bytes };
          done = true;
          return Promise.resolve(r);
        },
        releaseLock: () => {},
      };
    },
  };
}

/** The TypeError's message, or what was not a TypeError. */
async function typeError(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (e) {
    return e instanceof TypeError ? e.message : `not a TypeError: ${e}`;
  }
  return "accepted";
}

Deno.test("scoreJsonl and scoreStructuredJsonl refuse the same sources with the same words", async () => {
  const row = enc.encode('{"id": "a", "output": "{}"}\n');
  // Each made afresh for each call: a one-shot source is read once.
  const bad: [string, () => unknown][] = [
    ["a string", () => "x"],
    ["a number", () => 5],
    ["null", () => null],
    ["an object with a stream's getReader", () => streamLike(row)],
    ["a function that returns a number", () => () => 5],
    ["a function that returns a stream-like object", () => () => streamLike(row)],
    ["an iterable of strings", () =>
      (async function* () {
        yield "text";
      })()],
  ];
  for (const [what, source] of bad) {
    const structured = await typeError(() =>
      scoreStructuredJsonl({ outputs: source() as Uint8Array }, { names: { outputs: "in.jsonl" } })
    );
    const scored = await typeError(() =>
      scoreJsonl({ examples: source() as Uint8Array, generations: row }, {
        names: { examples: "in.jsonl" },
      })
    );
    ok(structured.startsWith("in.jsonl: "), `${what}: scoreStructuredJsonl says ${structured}`);
    strictEqual(structured, scored, what);
  }
});

Deno.test("readOnce and readWhole give every kind of source's bytes and digest", async () => {
  const rng = makeRng(2027);
  const bytes = new Uint8Array(300_000).map(() => rng.int(256));
  for (const kind of KINDS) {
    const parts: Uint8Array[] = [];
    const digest = await readOnce(
      sourceOf(bytes, kind, rng),
      kind,
      undefined,
      (c) => parts.push(c),
    );
    strictEqual(digest, sha256Hex(bytes), kind);
    deepStrictEqual(new Uint8Array(parts.flatMap((p) => [...p])), bytes, kind);
    deepStrictEqual(await readWhole(sourceOf(bytes, kind, rng), kind), bytes, kind);
  }
  // A one-shot source read once is read to its end, and by that pass only.
  const once = sourceOf(bytes, "iterable", rng);
  let size = 0;
  await readOnce(once, "once", undefined, (c) => void (size += c.length));
  strictEqual(size, bytes.length);
  size = 0;
  for await (const c of new Source(once, "again").chunks()) size += c.length;
  strictEqual(size, 0);
});

Deno.test("readWhole keeps each chunk as it was given, from a source that reuses its buffer", async () => {
  const buffer = new Uint8Array(4);
  async function* reused() {
    buffer.set(enc.encode("AAAA"));
    yield buffer;
    buffer.set(enc.encode("BBBB"));
    yield buffer;
  }
  strictEqual(new TextDecoder().decode(await readWhole(reused(), "schema")), "AAAABBBB");
});
