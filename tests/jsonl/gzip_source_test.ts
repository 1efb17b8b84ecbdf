// Gzip-compressed byte sources (src/jsonl/source/): a source whose first two bytes are gzip's magic
// number is read decompressed, with DecompressionStream, by every reader of sources (scoreJsonl,
// scoreStructuredJsonl, readOnce, readWhole). Its digest is the decompressed bytes', so a report is
// the same, byte for byte, whether its inputs were compressed or not. What DecompressionStream does
// not read (a second member, other bytes after one, data corrupt or cut short, no
// DecompressionStream at all) is an InputError naming the input.
import { gunzipSync, gzipSync } from "node:zlib";
import { ok, strictEqual } from "node:assert/strict";
import { DECOMPRESSED, readOnce, readWhole, Source } from "../../src/jsonl/source/mod.ts";
import { type JsonlSource, scoreJsonl } from "../../src/evaluation/mod.ts";
import { scoreStructuredJsonl } from "../../src/structured_jsonl/mod.ts";
import { createEngine, sha256Hex } from "../../src/engine/mod.ts";
import { decodeUtf8, InputError, readLines } from "../../src/jsonl/mod.ts";
import { concatBytes, handBackCorpus, type Kind, sourceOf } from "../_byte_sources.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { writeScoreCorpus } from "../evaluation/_score_corpus.ts";
import { assertSameBytes, variedRows } from "../structured_jsonl/_rows.ts";

const enc = new TextEncoder();
const KINDS: Kind[] = ["bytes", "stream", "iterable", "function", "function opening a stream"];

/** Gzip at a level the seed picks (0 stores the bytes: a member of stored blocks). */
function gzip(bytes: Uint8Array, rng: Rng): Uint8Array {
  return new Uint8Array(gzipSync(bytes, { level: rng.pick([0, 1, 6, 9]) }));
}

/** A seeded scoreJsonl corpus (examples, generations, prompts) as bytes. */
async function scoreCorpus(seed: number, lineNoise: boolean) {
  const dir = await Deno.makeTempDir({ prefix: "assay_gzip_" });
  try {
    const files = await writeScoreCorpus(dir, { seed, count: 120, outputBytes: 200, lineNoise });
    return {
      examples: await Deno.readFile(files.examples),
      generations: await Deno.readFile(files.generations),
      prompts: await Deno.readFile(files.prompts!),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The message of what `run` threw, or `accepted` (a thrown non-Error as `not an Error`). */
async function thrown(run: () => unknown): Promise<{ error?: unknown; message: string }> {
  try {
    await run();
  } catch (e) {
    return { error: e, message: e instanceof Error ? `${e.name}: ${e.message}` : "not an Error" };
  }
  return { message: "accepted" };
}

Deno.test("scoreJsonl reads gzip sources of every kind, at seeded chunkings, to the plain inputs' report bytes", async () => {
  for (const [seed, lineNoise] of [[11, false], [12, true], [13, false]] as const) {
    const plain = await scoreCorpus(seed, lineNoise);
    const rng = makeRng(seed);
    const gz = {
      examples: gzip(plain.examples, rng),
      generations: gzip(plain.generations, rng),
      prompts: gzip(plain.prompts, rng),
    };
    for (const engine of ["ts", "wasm"] as const) {
      const options = { engine: createEngine({ engine }) };
      const expected = await scoreJsonl(plain, options);
      for (const kind of KINDS) {
        // Every file compressed, then each file alone (the others plain).
        const mixes: (keyof typeof gz)[][] = [
          ["examples", "generations", "prompts"],
          [rng.pick(["examples", "generations", "prompts"] as const)],
        ];
        for (const compressed of mixes) {
          const sources: Record<string, JsonlSource> = {};
          for (const file of ["examples", "generations", "prompts"] as const) {
            const bytes = compressed.includes(file) ? gz[file] : plain[file];
            sources[file] = sourceOf(bytes, kind, rng);
          }
          const got = await scoreJsonl(
            sources as { examples: JsonlSource; generations: JsonlSource },
            options,
          );
          assertSameBytes(
            got.bytes,
            expected.bytes,
            `seed ${seed}, ${engine}, ${kind}, ${compressed.join("+")} compressed`,
          );
        }
      }
    }
  }
});

Deno.test("a gzip source read twice (the kernel gives the run back) is read decompressed both times", async () => {
  // Line 2 of generations has a top-level key with an escape: the kernel gives the run back, and
  // the general reader reads every source again (a one-shot source from what it kept).
  const { examples, generations: gens } = handBackCorpus(40);
  const generations = enc.encode(gens.join(""));
  const rng = makeRng(7);
  const expected = await scoreJsonl({ examples, generations }, {});
  strictEqual(expected.handedBack?.line, 2);
  for (const kind of KINDS) {
    const got = await scoreJsonl({
      examples: sourceOf(gzip(examples, rng), kind, rng),
      generations: sourceOf(gzip(generations, rng), kind, rng),
    }, {});
    strictEqual(got.handedBack?.line, 2, kind);
    assertSameBytes(got.bytes, expected.bytes, kind);
  }
});

Deno.test("scoreStructuredJsonl reads gzip outputs, expected rows and schema to the plain inputs' report bytes", async () => {
  const schema = enc.encode('{"type": "object", "required": ["answer"]}');
  for (const seed of [21, 22]) {
    const rng = makeRng(seed);
    const rows = variedRows(rng, { count: 80 });
    const plain = { outputs: enc.encode(rows.outputs), expected: enc.encode(rows.expected) };
    const expected = await scoreStructuredJsonl({ ...plain, schema });
    for (const kind of KINDS) {
      const got = await scoreStructuredJsonl({
        outputs: sourceOf(gzip(plain.outputs, rng), kind, rng),
        expected: sourceOf(gzip(plain.expected, rng), kind, rng),
        schema: sourceOf(gzip(schema, rng), kind, rng),
      });
      assertSameBytes(got.bytes, expected.bytes, `seed ${seed}, ${kind}`);
    }
  }
});

Deno.test("readOnce and readWhole give a gzip source's decompressed bytes and their digest", async () => {
  const rng = makeRng(31);
  const bytes = enc.encode(
    Array.from({ length: 3000 }, (_, i) => `{"i": ${i}, "r": ${rng.next()}}\n`).join(""),
  );
  for (const kind of KINDS) {
    const parts: Uint8Array[] = [];
    const digest = await readOnce(sourceOf(gzip(bytes, rng), kind, rng), kind, undefined, (c) => {
      parts.push(c.slice());
    });
    strictEqual(digest, sha256Hex(bytes), kind);
    assertSameBytes(concatBytes(...parts), bytes, kind);
    assertSameBytes(await readWhole(sourceOf(gzip(bytes, rng), kind, rng), kind), bytes, kind);
  }
  // A source that reuses one buffer for its chunks, cut to one byte first.
  const gz = gzip(bytes, rng);
  const buffer = new Uint8Array(1000);
  async function* reused() {
    for (let at = 0, size = 1; at < gz.length; at += size, size = 1000) {
      const n = Math.min(size, gz.length - at);
      buffer.set(gz.subarray(at, at + n));
      yield buffer.subarray(0, n);
    }
  }
  assertSameBytes(await readWhole(reused(), "reused"), bytes, "a reused buffer");
  // Bytes that start with 1f but are not gzip are read as they are.
  for (const odd of [[0x1f], [0x1f, 0x8c, 10], [0x1f, 10, 0x8b]]) {
    const b = new Uint8Array(odd);
    for (const kind of KINDS) {
      assertSameBytes(await readWhole(sourceOf(b, kind, rng), kind), b, `${odd} as ${kind}`);
    }
  }
});

Deno.test("a multi-member, trailing, corrupt or cut gzip source is an InputError naming it, from every reader", async () => {
  const rng = makeRng(41);
  const row = (id: string) => JSON.stringify({ id, output: "{}" }) + "\n";
  const first = enc.encode(Array.from({ length: 50 }, (_, i) => row(`a${i}`)).join(""));
  const second = enc.encode(Array.from({ length: 50 }, (_, i) => row(`b${i}`)).join(""));
  const one = gzip(first, rng);
  const corrupt = one.slice();
  corrupt[corrupt.length - 6]! ^= 0xff; // the CRC-32
  const spoiled: [string, Uint8Array][] = [
    ["two members", concatBytes(one, gzip(second, rng))],
    ["bytes after the member", concatBytes(one, enc.encode("\n"))],
    ["a wrong CRC", corrupt],
    ["a member cut short", one.subarray(0, one.length - 10)],
    ["the magic number alone", new Uint8Array([0x1f, 0x8b])],
  ];
  for (const [what, bytes] of spoiled) {
    for (const kind of KINDS) {
      const runs: [string, () => Promise<unknown>][] = [
        [
          "scoreStructuredJsonl",
          () =>
            scoreStructuredJsonl({ outputs: sourceOf(bytes, kind, rng) }, {
              names: { outputs: "out.jsonl.gz" },
            }),
        ],
        [
          "scoreJsonl",
          () =>
            scoreJsonl({ examples: sourceOf(bytes, kind, rng), generations: enc.encode("") }, {
              names: { examples: "out.jsonl.gz" },
            }),
        ],
        [
          "readOnce",
          () => readOnce(sourceOf(bytes, kind, rng), "out.jsonl.gz", undefined, () => {}),
        ],
      ];
      for (const [reader, run] of runs) {
        const { error, message } = await thrown(run);
        ok(
          error instanceof InputError && error.source === "out.jsonl.gz" &&
            /^InputError: out\.jsonl\.gz: its gzip data does not decompress \(\w*Error: .+\)$/
              .test(message),
          `${what}, ${kind}, ${reader}: ${message}`,
        );
      }
    }
  }
});

/**
 * A DecompressionStream that reads on after the member, as Node's and Bun's do: every member, and
 * zero padding.
 */
class ReadsOn extends TransformStream<Uint8Array, Uint8Array> {
  constructor() {
    const parts: Uint8Array[] = [];
    super({
      transform: (c) => void parts.push(c.slice()),
      flush: (c) => c.enqueue(new Uint8Array(gunzipSync(concatBytes(...parts)))),
    });
  }
}

Deno.test("gzip data of two members or with zero padding is refused where the runtime's DecompressionStream reads on", async () => {
  const rng = makeRng(42);
  const text = (p: string) => enc.encode(`{"id": "${p}", "output": "{}"}\n`.repeat(40));
  const one = gzip(text("a"), rng);
  const saved = globalThis.DecompressionStream;
  globalThis.DecompressionStream = ReadsOn as unknown as typeof DecompressionStream;
  try {
    // The stand-in reads them all: Node's and Bun's reports held both members' rows.
    strictEqual(gunzipSync(concatBytes(one, gzip(text("b"), rng))).length, 2 * text("a").length);
    for (
      const [what, bytes] of [
        ["two members", concatBytes(one, gzip(text("b"), rng))],
        ["zero padding", concatBytes(one, new Uint8Array(512))],
        ["an empty member after it", concatBytes(one, gzip(new Uint8Array(), rng))],
      ] as const
    ) {
      for (const kind of KINDS) {
        const { error, message } = await thrown(() =>
          readWhole(sourceOf(bytes, kind, rng), "o.jsonl.gz")
        );
        ok(error instanceof InputError && error.source === "o.jsonl.gz", `${what}: ${message}`);
        ok(message.includes("more than one gzip member, or other bytes after"), message);
      }
    }
    assertSameBytes(await readWhole(one, "o.jsonl.gz"), text("a"), "one member");
  } finally {
    globalThis.DecompressionStream = saved;
  }
});

Deno.test("a runtime without ReadableStream.from (a browser) reads gzip sources", async () => {
  const rng = makeRng(43);
  const plain = enc.encode('{"id": "a", "output": "{}"}\n'.repeat(300));
  const from = Object.getOwnPropertyDescriptor(ReadableStream, "from")!;
  // deno-lint-ignore no-explicit-any
  delete (ReadableStream as any).from;
  try {
    for (const kind of KINDS) {
      assertSameBytes(await readWhole(sourceOf(gzip(plain, rng), kind, rng), "g"), plain, kind);
    }
  } finally {
    Object.defineProperty(ReadableStream, "from", from);
  }
});

Deno.test("a runtime without DecompressionStream refuses a gzip source, naming it, and closes it", async () => {
  const gz = gzip(enc.encode('{"id": "a", "output": "{}"}\n'), makeRng(51));
  const saved = globalThis.DecompressionStream;
  // deno-lint-ignore no-explicit-any
  delete (globalThis as any).DecompressionStream;
  try {
    let closed = false;
    const chunks = (async function* () {
      try {
        yield gz.subarray(0, 1);
        yield gz.subarray(1);
      } finally {
        closed = true;
      }
    })();
    const { error, message } = await thrown(() =>
      scoreStructuredJsonl({ outputs: chunks }, { names: { outputs: "o.jsonl.gz" } })
    );
    ok(error instanceof InputError, message);
    strictEqual(error.source, "o.jsonl.gz");
    strictEqual(
      message,
      "InputError: o.jsonl.gz: its gzip data does not decompress " +
        "(ReferenceError: DecompressionStream is not defined)",
    );
    ok(closed, "the source was not closed");
    // Plain bytes are read as before.
    const plain = await readWhole(enc.encode("{}\n"), "plain");
    strictEqual(new TextDecoder().decode(plain), "{}\n");
  } finally {
    globalThis.DecompressionStream = saved;
  }
});

Deno.test("a gzip source's own error is named with it, and a pass that stops early closes it", async () => {
  const rng = makeRng(61);
  const gz = gzip(enc.encode('{"id": "a", "output": "{}"}\n'.repeat(2000)), rng);
  // A chunk that is not bytes, after gzip data: the source's TypeError, not a gzip error.
  const { message } = await thrown(() =>
    readOnce(
      (async function* () {
        yield gz.subarray(0, 100);
        yield "text";
      })() as AsyncIterable<Uint8Array>,
      "g.jsonl.gz",
      undefined,
      () => {},
    )
  );
  strictEqual(message, "TypeError: g.jsonl.gz: expected chunks of bytes (Uint8Array), got string");
  // A stream that fails, with an error or anything else, or that is locked, is an InputError
  // naming the source, its error the cause (it was passed on bare: "nope", with no source named).
  for (
    const [why, shown] of [[new RangeError("disk on fire"), "RangeError: disk on fire"], [
      "nope",
      "nope",
    ]] as const
  ) {
    const failing = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(gz.subarray(0, 100));
      },
      pull(c) {
        c.error(why);
      },
    });
    const { error, message } = await thrown(() => readWhole(failing, "f"));
    strictEqual(message, `InputError: f: the source failed (${shown})`);
    ok(error instanceof InputError && error.cause === why && error.source === "f");
  }
  const locked = new ReadableStream<Uint8Array>();
  locked.getReader();
  const { message: lockedMessage } = await thrown(() => readWhole(locked, "g"));
  ok(lockedMessage.startsWith("InputError: g: the source failed (TypeError: "), lockedMessage);
  // A pass that stops after its first chunk closes the source it opened, each time.
  for (const bytes of [gz, enc.encode('{"id": "a"}\n'.repeat(100))]) {
    let opened = 0, closed = 0;
    const source = new Source(async function* () {
      opened++;
      try {
        for (let at = 0; at < bytes.length; at += 64) yield bytes.subarray(at, at + 64);
      } finally {
        closed++;
      }
    }, "s");
    for (let pass = 0; pass < 2; pass++) {
      for await (const chunk of source.chunks()) {
        ok(chunk.length > 0);
        break;
      }
    }
    strictEqual(opened, 2);
    strictEqual(closed, 2, bytes === gz ? "gzip" : "plain");
  }
  // The gzip source read whole gives its decompressed text (which the old reader refused).
  strictEqual((await readWhole(gz, "g")).length, 2000 * 28);
});

Deno.test("a source marked DECOMPRESSED (the CLI's) is read as it is, gzip's magic number or not", async () => {
  const rng = makeRng(71);
  const plain = enc.encode('{"id": "a", "output": "{}"}\n');
  const gz = gzip(plain, rng);
  for (const kind of KINDS) {
    if (kind === "bytes") continue; // the CLI passes functions and stdin's stream
    const marked = () => Object.assign(sourceOf(gz, kind, rng), { [DECOMPRESSED]: true });
    // Unmarked, the same source is read decompressed.
    assertSameBytes(await readWhole(sourceOf(gz, kind, rng), kind), plain, kind);
    assertSameBytes(await readWhole(marked(), kind), gz, `${kind}, marked`);
    const parts: Uint8Array[] = [];
    const digest = await readOnce(marked(), kind, undefined, (c) => parts.push(c.slice()));
    strictEqual(digest, sha256Hex(gz), kind);
    assertSameBytes(concatBytes(...parts), gz, `${kind}, marked, readOnce`);
    // scoreStructuredJsonl then refuses the bytes as they are: not UTF-8.
    const { message } = await thrown(() =>
      scoreStructuredJsonl({ outputs: marked() }, { names: { outputs: "o.gz" } })
    );
    ok(message.startsWith("InvalidUtf8Error: o.gz:1: invalid UTF-8 at byte 1"), message);
  }
});

Deno.test("the readers that do not decompress (decodeUtf8, readLines) say so of gzip data, and only of it", async () => {
  const rng = makeRng(77);
  const hint = ": it is gzip data: decompress it first";
  for (let i = 0; i < 20; i++) {
    const gz = gzip(enc.encode('{"id": "a", "output": "{}"}\n'.repeat(1 + rng.int(50))), rng);
    const fromDecode = await thrown(() => decodeUtf8(gz, "in.jsonl.gz"));
    strictEqual(
      fromDecode.message,
      "InvalidUtf8Error: in.jsonl.gz:1: invalid UTF-8 at byte 1 of the line (byte 1 of the file)" +
        hint,
    );
    const fromLines = await thrown(async () => {
      for await (const _ of readLines(ReadableStream.from([gz]), { source: "in.jsonl.gz" }));
    });
    ok(fromLines.message.endsWith(hint), fromLines.message);
  }
  // Not gzip: the same byte (0x8b) second, after another first byte, or gzip's two bytes later.
  for (const bytes of [[0x61, 0x8b], [0x1e, 0x8b], [0x61, 0x0a, 0x1f, 0x8b]]) {
    const { message } = await thrown(() => decodeUtf8(new Uint8Array(bytes), "x"));
    ok(message.startsWith("InvalidUtf8Error: x:") && !message.includes("gzip"), message);
  }
});

Deno.test("the readers say so of a UTF-16 file with its byte order mark, and only of that", async () => {
  const hint = ": it is UTF-16: save it as UTF-8";
  const text = '{"id": "a", "output": "é"}\n';
  const utf16 = (bigEndian: boolean) => {
    const out = new Uint8Array(2 + 2 * text.length);
    const view = new DataView(out.buffer);
    view.setUint16(0, 0xfeff, !bigEndian);
    for (let i = 0; i < text.length; i++) view.setUint16(2 + 2 * i, text.charCodeAt(i), !bigEndian);
    return out;
  };
  for (const bigEndian of [false, true]) {
    const bytes = utf16(bigEndian);
    strictEqual(
      (await thrown(() => decodeUtf8(bytes, "u.jsonl"))).message,
      "InvalidUtf8Error: u.jsonl:1: invalid UTF-8 at byte 0 of the line (byte 0 of the file)" +
        hint,
    );
    const fromLines = await thrown(async () => {
      for await (const _ of readLines(ReadableStream.from([bytes]), { source: "u.jsonl" }));
    });
    ok(fromLines.message.endsWith(hint), fromLines.message);
  }
  // Not a byte order mark: one of its bytes alone, or both after the first byte of the file.
  for (const bytes of [[0xff, 0x61], [0xfe], [0xff, 0xff], [0x61, 0xff, 0xfe]]) {
    const { message } = await thrown(() => decodeUtf8(new Uint8Array(bytes), "x"));
    ok(message.startsWith("InvalidUtf8Error: x:") && !message.includes("UTF-16"), message);
  }
});
