// The one reader of byte sources (src/jsonl/source/): scoreJsonl reads its inputs with it in passes,
// scoreStructuredJsonl (and its schema) in one pass. Both take and refuse the same sources.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readOnce, readWhole, Source } from "../../src/jsonl/source/mod.ts";
import { scoreJsonl } from "../../src/evaluation/mod.ts";
import { scoreStructuredJsonl } from "../../src/structured_jsonl/mod.ts";
import { sha256Hex } from "../../src/engine/mod.ts";
import { handBackCorpus, type Kind, sourceOf } from "../_byte_sources.ts";
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

Deno.test("a function source that gives the same stream again is refused, not read on from where a pass stopped", async () => {
  // The kernel gives the run back at line 2 of generations (a top-level key with an escape), so
  // the general reader opens every source again. A function that hands back the one stream it
  // opened before (`() => file.readable` of a file opened once) would be read on from the third
  // line: with allowMissing, a report of 8 examples of 10 with two "missing" generations.
  const { examples, generations: gens } = handBackCorpus(10);
  const head = enc.encode(gens.slice(0, 2).join(""));
  const tail = enc.encode(gens.slice(2).join(""));
  const whole = await scoreJsonl({ examples, generations: new Uint8Array([...head, ...tail]) });
  strictEqual(whole.handedBack?.line, 2);
  strictEqual(whole.report.n, 10);
  const opened: Record<string, () => unknown> = {
    "a stream": () =>
      new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(head);
          c.enqueue(tail);
          c.close();
        },
      }),
    "an async iterable": () =>
      (async function* () {
        yield head;
        yield tail;
      })(),
  };
  for (const [what, open] of Object.entries(opened)) {
    for (const allowMissing of [true, false]) {
      const once = open();
      const message = await typeError(() =>
        scoreJsonl({ examples, generations: () => once as ReadableStream<Uint8Array> }, {
          allowMissing,
          names: { generations: "g.jsonl" },
        })
      );
      strictEqual(message, "g.jsonl: the function gave the same stream twice", what);
    }
    // A function that opens a new one each time gives the whole run's report.
    const fresh = await scoreJsonl({
      examples,
      generations: open as () => ReadableStream<Uint8Array>,
    });
    deepStrictEqual(fresh.bytes, whole.bytes, what);
  }
});
