// The CLI's JSONL reading: the chunked line splitter, and the strict object scan that `assay score`
// uses for example lines (it must never accept a line the contract's reader refuses, and must cut
// out exactly the members JSON.parse would give); and decodeUtf8's errors.
import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import { rejects, throws } from "node:assert/strict";
import {
  decodeUtf8,
  DEFAULT_MAX_LINE_BYTES,
  firstInvalidUtf8,
  InputError,
  InvalidUtf8Error,
  invalidUtf8Outside,
  type Line,
  type LineRun,
  LineSplitter,
  LineTooLongError,
  longLineIn,
  maxLineBytesOf,
  readLineRuns,
  readLines,
  withoutBom,
} from "../../src/jsonl/mod.ts";
import { readJsonLine, scanStrictObject } from "../../src/jsonl/mod.ts";
import { createEngine } from "../../src/engine/mod.ts";
import { fieldsOfCanonical, parseJson } from "../../src/engine/mod.ts";
import { makeRng, mutate, randomJsonText } from "../_corpus.ts";

const enc = new TextEncoder();

function linesOf(runs: (LineRun | undefined)[]): Line[] {
  const out: Line[] = [];
  for (const run of runs) {
    if (!run) continue;
    const invalid = new Set(run.invalid);
    run.texts.forEach((text, i) =>
      out.push({ text, lineNo: run.first + i, invalidUtf8: invalid.has(i) })
    );
  }
  return out;
}

/** Splits `bytes` fed in pieces cut at `cuts`. */
function split(bytes: Uint8Array, cuts: number[]): Line[] {
  const splitter = new LineSplitter({ modelFields: ["output"] });
  const runs: (LineRun | undefined)[] = [];
  let at = 0;
  for (const c of [...cuts, bytes.length]) {
    // A reused buffer: the splitter must copy what it keeps.
    const piece = bytes.slice(at, c);
    runs.push(splitter.push(piece));
    piece.fill(0x21);
    at = c;
  }
  runs.push(splitter.end());
  return linesOf(runs);
}

/** Every line, decoded one by one: the reading the splitter must match. */
function reference(bytes: Uint8Array): Line[] {
  const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const lenient = new TextDecoder("utf-8", { ignoreBOM: true });
  const out: Line[] = [];
  let start = 0;
  let lineNo = 0;
  while (start < bytes.length) {
    let nl = bytes.indexOf(10, start);
    if (nl < 0) nl = bytes.length;
    lineNo++;
    let view = bytes.subarray(start, nl);
    if (view.at(-1) === 13) view = view.subarray(0, -1);
    if (lineNo === 1 && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf) {
      view = view.subarray(3);
    }
    let text: string;
    let invalidUtf8 = false;
    try {
      text = fatal.decode(view);
    } catch {
      text = lenient.decode(view);
      invalidUtf8 = true;
    }
    out.push({ text, lineNo, invalidUtf8 });
    start = nl + 1;
  }
  return out;
}

Deno.test("withoutBom() drops U+FEFF at the start of a text only, as the line splitters do", () => {
  assertEquals(["\ufeff{}", "{}", "\ufeff\ufeff", "{}\ufeff", ""].map(withoutBom), [
    "{}",
    "{}",
    "\ufeff",
    "{}\ufeff",
    "",
  ]);
});

Deno.test("LineSplitter gives the same lines wherever the chunks are cut", () => {
  const parts = [
    enc.encode('\ufeff{"a":1}\r\n'),
    enc.encode("ünïcödé 日本語 😀\n\n  \r\n"),
    new Uint8Array([...enc.encode('{"output":"'), 0xff, 0x22, 0x7d, 0x0a]), // invalid UTF-8
    enc.encode("x\r"),
    new Uint8Array([0x0a, 0xe6, 0x97, 0xa5, 0x0a]),
    enc.encode("last line, no break"),
  ];
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  const want = reference(bytes);
  strictEqual(want.length, 8);
  strictEqual(want[0]!.text, '{"a":1}');
  strictEqual(want[4]!.text, '{"output":"\ufffd"}');
  strictEqual(want[4]!.invalidUtf8, true);
  for (let a = 0; a <= bytes.length; a++) {
    assertEquals(split(bytes, [a]), want, `cut at ${a}`);
    for (let b = a; b <= bytes.length; b += 3) assertEquals(split(bytes, [a, b]), want);
  }
  // A BOM is dropped from the first line only; a file ending with a break has no empty last line.
  assertEquals(split(enc.encode("a\n\ufeffb\n"), [1]).map((l) => l.text), ["a", "\ufeffb"]);
  assertEquals(split(new Uint8Array(), []), []);
});

Deno.test("readLineRuns and readLines read a stream alike", async () => {
  const rng = makeRng(11);
  const text = Array.from({ length: 3000 }, (_, i) => `{"i":${i},"s":"${"é".repeat(rng.int(40))}"}`)
    .join("\n");
  const bytes = enc.encode(text);
  let pos = 0;
  let tapped = 0;
  const reader = {
    read(p: Uint8Array): Promise<number | null> {
      if (pos >= bytes.length) return Promise.resolve(null);
      const n = Math.min(p.length, bytes.length - pos, 1 + rng.int(5000));
      p.set(bytes.subarray(pos, pos + n));
      pos += n;
      return Promise.resolve(n);
    },
  };
  const runs: LineRun[] = [];
  for await (const run of readLineRuns(reader, (c) => tapped += c.length, 4096)) runs.push(run);
  strictEqual(tapped, bytes.length);
  const want = reference(bytes);
  assertEquals(linesOf(runs), want);
  const fromStream: Line[] = [];
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += 777) c.enqueue(bytes.slice(i, i + 777));
      c.close();
    },
  });
  for await (const line of readLines(stream)) fromStream.push(line);
  assertEquals(fromStream, want);
});

Deno.test("readLineRuns() refuses a read size that is not a whole number of bytes, at least 1", async () => {
  for (const size of [0, -1, 1.5, NaN, 2 ** 53, "10" as unknown as number]) {
    let reads = 0;
    const reader = {
      // With size 0 the old reader asked for 0 bytes forever; stop it so that the test fails.
      read(p: Uint8Array): Promise<number | null> {
        if (++reads > 5) throw new Error(`read ${reads} times into ${p.length} bytes`);
        return Promise.resolve(0);
      },
    };
    await rejects(
      async () => {
        for await (const _ of readLineRuns(reader, undefined, size)) { /* nothing */ }
      },
      (e: unknown) =>
        e instanceof RangeError &&
        e.message === `size must be a whole number of bytes, at least 1; got ${
            // A string is quoted: "got 10" hid that it was one.
            typeof size === "string" ? '"10"' : size}`,
    );
    strictEqual(reads, 0);
  }
});

Deno.test("readLines() and LineSplitter refuse a chunk that is not a Uint8Array", async () => {
  const want = (got: string) => (e: unknown) =>
    e instanceof TypeError &&
    e.message === `data.jsonl: expected chunks of bytes (Uint8Array), got ${got}`;
  // A stream of strings was read as NUL bytes: one line of five NULs.
  const strings = ReadableStream.from(["a\nb\n", "c"]) as unknown as ReadableStream<Uint8Array>;
  await rejects(async () => {
    for await (const _ of readLines(strings, { source: "data.jsonl" })) { /* nothing */ }
  }, want("string"));
  const numbers = ReadableStream.from([[97, 10]]) as unknown as ReadableStream<Uint8Array>;
  await rejects(async () => {
    for await (const _ of readLines(numbers, { source: "data.jsonl" })) { /* nothing */ }
  }, want("Array (wrap it: new Uint8Array(chunk))"));
  const splitter = new LineSplitter({ source: "data.jsonl" });
  throws(() => splitter.push("a\n" as unknown as Uint8Array), want("string"));
  throws(() => splitter.push(null as unknown as Uint8Array), want("object"));
  // Buffers and other views are named, with the way to their bytes (they were all "object").
  for (
    const [chunk, kind] of [[new Uint16Array([97, 10]), "Uint16Array"], [
      new ArrayBuffer(2),
      "ArrayBuffer",
    ], [new DataView(new ArrayBuffer(2)), "DataView"]] as const
  ) {
    throws(
      () => splitter.push(chunk as unknown as Uint8Array),
      want(`${kind} (wrap it: new Uint8Array(chunk))`),
    );
  }
  // Bytes of any Uint8Array, a Buffer-like subclass too, are read.
  class Bytes extends Uint8Array {}
  assertEquals(splitter.push(new Bytes([97, 10]))?.texts, ["a"]);
});

/** The first line of `bytes` longer than `max` bytes before its break (1-based), or 0. */
function longLineOracle(bytes: Uint8Array, max: number): number {
  let line = 1;
  let len = 0;
  for (const b of bytes) {
    if (b === 10) {
      if (len > max) return line;
      line++;
      len = 0;
    } else len++;
  }
  return len > max ? line : 0;
}

Deno.test("a line past the limit is a LineTooLongError at its line, wherever the chunks are cut", () => {
  const rng = makeRng(64);
  for (let trial = 0; trial < 400; trial++) {
    const max = 1 + rng.int(40);
    const lines = Array.from({ length: 1 + rng.int(12) }, () => {
      const n = rng.int(3) === 0 ? max + rng.int(3) : rng.int(max + 1);
      return "x".repeat(n) + (rng.int(4) === 0 ? "\r" : "");
    });
    const bytes = enc.encode(lines.join("\n") + (rng.int(2) ? "\n" : ""));
    const want = longLineOracle(bytes, max);
    const splitter = new LineSplitter({ maxLineBytes: max, source: "f.jsonl" });
    let got = 0;
    let read = 0;
    try {
      for (let at = 0; at < bytes.length;) {
        const n = 1 + rng.int(3 * max);
        const piece = bytes.subarray(at, at + n);
        read += piece.length;
        splitter.push(piece);
        at += n;
      }
      splitter.end();
    } catch (e) {
      if (!(e instanceof LineTooLongError)) throw e;
      got = e.line;
      strictEqual(e.source, "f.jsonl");
      strictEqual(e.limit, max);
      strictEqual(e.message, `f.jsonl:${e.line}: line longer than the limit of ${max} bytes`);
    }
    strictEqual(got, want, `trial ${trial}: ${JSON.stringify(lines)} with limit ${max}`);
    // Nothing is read past the chunk where the long line passes the limit.
    if (want > 0) {
      const before = enc.encode(lines.slice(0, want - 1).join("\n")).length + (want > 1 ? 1 : 0);
      ok(read <= before + max + 1 + 3 * max, `trial ${trial}: read ${read} bytes`);
    }
  }
});

Deno.test("longLineIn agrees with a byte-by-byte count on seeded chunks", () => {
  const rng = makeRng(65);
  for (let trial = 0; trial < 3000; trial++) {
    const max = 1 + rng.int(20);
    const carried = rng.int(2 * max);
    const chunk = Uint8Array.from(
      { length: rng.int(4 * max) },
      () => (rng.int(6) === 0 ? 10 : 120),
    );
    const prefix = new Uint8Array(carried).fill(120);
    const whole = new Uint8Array(carried + chunk.length);
    whole.set(prefix);
    whole.set(chunk, carried);
    const oracle = longLineOracle(whole, max);
    strictEqual(longLineIn(chunk, carried, max), oracle === 0 ? -1 : oracle - 1, `trial ${trial}`);
  }
});

Deno.test("the line limit: 64 MiB by default, a positive whole number otherwise", () => {
  strictEqual(DEFAULT_MAX_LINE_BYTES, 67_108_864);
  strictEqual(maxLineBytesOf(undefined), DEFAULT_MAX_LINE_BYTES);
  strictEqual(maxLineBytesOf(5), 5);
  for (const bad of [0, -1, 1.5, NaN, Infinity]) throws(() => maxLineBytesOf(bad), RangeError);
  // A line of exactly the limit is read; one byte more is refused.
  const splitter = new LineSplitter({ maxLineBytes: 3 });
  assertEquals(splitter.push(enc.encode("abc\n"))?.texts, ["abc"]);
  throws(
    () => splitter.push(enc.encode("abcd")),
    /<input>:2: line longer than the limit of 3 bytes/,
  );
});

Deno.test("invalid UTF-8 outside the model-output fields is an InvalidUtf8Error at its line and bytes", () => {
  const rng = makeRng(8);
  const bad = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80]];
  for (let trial = 0; trial < 500; trial++) {
    // Lines of {"id": ..., "output": ..., "note": ...}, some with invalid bytes in a field.
    const lines: Uint8Array[] = [];
    let want: { line: number; lineOffset: number; offset: number } | undefined;
    let offset = 0;
    let flagged = 0;
    for (let i = 0; i < 1 + rng.int(8); i++) {
      const field = rng.int(4); // 0 id, 1 output, 2 note, 3 none
      let badAt = -1;
      const body: number[] = [0x7b];
      ["id", "output", "note"].forEach((name, k) => {
        if (k > 0) body.push(0x2c);
        body.push(...enc.encode(`"${name}":"v${i}é`));
        // Each bad sequence's first byte is its first invalid one (its lead is not followed as
        // a valid sequence would be).
        if (k === field) {
          badAt = body.length;
          body.push(...rng.pick(bad));
        }
        body.push(0x22);
      });
      body.push(0x7d);
      const line = new Uint8Array(body);
      if (field !== 3 && field !== 1 && want === undefined) {
        want = { line: i + 1, lineOffset: badAt, offset: offset + badAt };
      }
      if (field === 1 && want === undefined) flagged++;
      lines.push(line);
      offset += line.length + 1;
    }
    const bytes = new Uint8Array(offset);
    let at = 0;
    for (const l of lines) {
      bytes.set(l, at);
      bytes[at + l.length] = 10;
      at += l.length + 1;
    }
    const splitter = new LineSplitter({ modelFields: ["output"], source: "s.jsonl" });
    let got: typeof want;
    let seen = 0;
    try {
      for (let a = 0; a < bytes.length;) {
        const n = 1 + rng.int(40);
        const run = splitter.push(bytes.subarray(a, a + n));
        seen += run?.invalid?.length ?? 0;
        a += n;
      }
      seen += splitter.end()?.invalid?.length ?? 0;
    } catch (e) {
      if (!(e instanceof InvalidUtf8Error)) throw e;
      got = { line: e.line, lineOffset: e.lineOffset, offset: e.offset };
      strictEqual(e.message.startsWith(`s.jsonl:${e.line}: invalid UTF-8 at byte`), true);
    }
    assertEquals(got, want, `trial ${trial}`);
    if (want === undefined) strictEqual(seen, flagged, `trial ${trial}: flagged lines`);
  }
  // With no model fields, any invalid byte is an error (the default).
  throws(() => new LineSplitter().push(new Uint8Array([0x22, 0xff, 0x22, 0x0a])), InvalidUtf8Error);
});

Deno.test("firstInvalidUtf8 and invalidUtf8Outside agree with TextDecoder on seeded byte soup", () => {
  const rng = makeRng(9);
  const fatal = new TextDecoder("utf-8", { fatal: true });
  for (let trial = 0; trial < 20000; trial++) {
    const bytes = Uint8Array.from(
      { length: rng.int(8) },
      () => rng.pick([0x41, 0x80 + rng.int(0x40), 0xc0 + rng.int(0x40), 0xe0 + rng.int(0x20)]),
    );
    let valid = true;
    try {
      fatal.decode(bytes);
    } catch {
      valid = false;
    }
    const k = firstInvalidUtf8(bytes);
    strictEqual(k < 0, valid, `${[...bytes]}`);
    if (k >= 0) {
      // Everything before it is valid, and the sequence at it is not.
      let before = true;
      try {
        fatal.decode(bytes.subarray(0, k));
      } catch {
        before = false;
      }
      strictEqual(before, true, `${[...bytes]} at ${k}`);
    }
    const line = new Uint8Array([...enc.encode('{"output":"'), ...bytes, ...enc.encode('"}')]);
    strictEqual(invalidUtf8Outside(line, ["output"]), -1);
    strictEqual(invalidUtf8Outside(line, []), k < 0 ? -1 : 11 + k);
  }
  // Escaped names count; values that are not strings, and nested members, do not.
  const at = (text: string) => {
    const i = text.indexOf("!");
    const b = enc.encode(text.replace("!", ""));
    return new Uint8Array([
      ...b.subarray(0, enc.encode(text.slice(0, i)).length),
      0xff,
      ...b.subarray(enc.encode(text.slice(0, i)).length),
    ]);
  };
  strictEqual(invalidUtf8Outside(at('{"outp\\u0075t":"!"}'), ["output"]), -1);
  strictEqual(invalidUtf8Outside(at('{"x":{"output":"!"}}'), ["output"]), 16);
  strictEqual(invalidUtf8Outside(at('{"output":["!"]}'), ["output"]), 12);
  strictEqual(invalidUtf8Outside(at('{"output":"a","b":"!"}'), ["output"]), 19);
});

const NAMES = ["example_id", "language", "root_id", "target"];

Deno.test("scanStrictObject cuts out the last member of each name, as written", () => {
  assertEquals(
    scanStrictObject(
      ' { "target" : {"a": [1.0, "}", NaN]} , "example_id":"x\\"y", "t\\u0061rget": 1e999 ,' +
        '"meta":{"target":2},"language":"en"} ',
      NAMES,
    ),
    ['"x\\"y"', '"en"', undefined, "1e999"],
  );
  assertEquals(scanStrictObject("{}", NAMES), [undefined, undefined, undefined, undefined]);
  assertEquals(scanStrictObject('{"root_id":null}', NAMES), [
    undefined,
    undefined,
    "null",
    undefined,
  ]);
  assertEquals(scanStrictObject('{"target":[NaN,Infinity,-Infinity]}', NAMES), [
    undefined,
    undefined,
    undefined,
    "[NaN,Infinity,-Infinity]",
  ]);
  for (
    const refused of [
      "[]",
      '"x"',
      '{"a":-NaN}',
      '{"a":+1}',
      '{"a":nan}',
      '{"a":-Inf}',
      '{"a":Infinityx}',
      '{"a":1,}',
      '{"a":01}',
      '{"a":1.}',
      '{"a":"\t"}',
      '{"a":"\\x"}',
      '{"a":"\\u12g4"}',
      '{"a":1} x',
      '\ufeff{"a":1}',
      '{"a":1',
      '{"a":' + "[".repeat(512) + "]".repeat(512) + "}",
      '{"a":' + "1".repeat(4301) + "}",
      '{"a":' + "1".repeat(4301) + ".5}",
    ]
  ) {
    strictEqual(scanStrictObject(refused, NAMES), undefined, refused.slice(0, 40));
  }
  // The deepest nesting and the longest integer the contract allows are accepted, as by the
  // exact parser; one more is refused by both.
  const engine = createEngine({ engine: "ts" });
  for (const [n, ok] of [[511, true], [512, false]] as const) {
    const deep = '{"a":' + "[".repeat(n) + "]".repeat(n) + "}";
    strictEqual(scanStrictObject(deep, NAMES) !== undefined, ok);
    strictEqual(engine.canonicalizeBatch([deep])[0]!.ok, ok);
  }
  for (const [n, ok] of [[4300, true], [4301, false]] as const) {
    const long = '{"a":' + "9".repeat(n) + "}";
    strictEqual(scanStrictObject(long, NAMES) !== undefined, ok);
    strictEqual(engine.canonicalizeBatch([long])[0]!.ok, ok);
  }
});

Deno.test("scanStrictObject accepts only what the exact parser accepts, and cuts out its members", () => {
  const engine = createEngine({ engine: "ts" });
  const rng = makeRng(20240601);
  const ws = () => rng.pick(["", " ", "\t", "\r\n", "  "]);
  let accepted = 0;
  let withNaN = 0;
  for (let i = 0; i < 20000; i++) {
    const v = randomJsonText(rng, { deepRate: 0.02, bigIntRate: 0.01 });
    const key = rng.pick(['"target"', '"t\\u0061rget"', '"example_id"', '"root_id"', '"x"']);
    let t = rng.chance(0.1)
      ? v
      : `${ws()}{"example_id":${ws()}"a\\n",${key}${ws()}:${ws()}${v}${ws()}` +
        `${rng.chance(0.3) ? `,"target":${v}` : ""}${
          rng.chance(0.3) ? ',"language":"de"' : ""
        }}${ws()}`;
    if (rng.chance(0.3)) t = mutate(rng, t);
    const found = scanStrictObject(t, NAMES);
    if (found === undefined) continue;
    accepted++;
    const c = engine.canonicalizeBatch([t])[0]!;
    if (!c.ok) throw new Error(`accepted a line the exact parser refuses: ${t}`);
    const fields = fieldsOfCanonical(c.canonical);
    if (fields === null) throw new Error(`accepted a line that is not an object: ${t}`);
    NAMES.forEach((name, k) => {
      const text = found[k];
      const field = fields.get(name);
      strictEqual(text === undefined, field === undefined, t);
      if (text === undefined) return;
      const own = engine.canonicalizeBatch([text])[0]!;
      strictEqual(own.ok && own.canonical, field!.canonical, t);
    });
    const r = readJsonLine(t);
    if ("value" in r && !/NaN|Infinity/.test(t)) {
      const row = r.value as Record<string, unknown>;
      NAMES.forEach((name, k) => {
        // parseJson, not JSON.parse, which misreads some escaped keys here (parse_json_test.ts).
        if (found[k] !== undefined) assertEquals(parseJson(found[k]!), row[name], t);
      });
    } else {
      withNaN++;
    }
  }
  strictEqual(accepted > 5000, true, `accepted ${accepted}`);
  strictEqual(withNaN > 100, true, `with NaN or Infinity ${withNaN}`);
});

Deno.test("decodeUtf8() names valid UTF-8 that no string can hold as too large, not as invalid", () => {
  // V8's strings end at 2^29 - 24 code units: 2^29 ASCII bytes are one text too many.
  const bytes = new Uint8Array((1 << 29) + 64).fill(0x61);
  throws(
    () => decodeUtf8(bytes, "big.txt"),
    (e: unknown) =>
      e instanceof InputError && !(e instanceof InvalidUtf8Error) &&
      e.message === "big.txt is too large to read as one text (536870976 bytes)",
  );
});

Deno.test("readJsonLine() reads an escaped key that Deno's JSON.parse misreads after a line of its raw text", () => {
  // Deno 2.9.6's V8 gives the third line the second's key "outpu\" (see parse_json.ts).
  const lines = [
    String.raw`{"example_id":"a","outpu\\":"x"}`,
    String.raw`{"example_id":"b","outpu\u0074":"{\"name\":\"f\",\"arguments\":{}}"}`,
  ];
  const first = readJsonLine(lines[0]!);
  assertEquals("value" in first && Object.keys(first.value as object), ["example_id", "outpu\\"]);
  const second = readJsonLine(lines[1]!);
  assertEquals("value" in second && second.value, {
    example_id: "b",
    output: '{"name":"f","arguments":{}}',
  });
});

Deno.test("readJsonLine() gives a line with NaN the values JSON.parse gives the others", () => {
  // JSON.parse refuses NaN and Infinity, so such a line is read by the exact parser: its fields
  // were once left as canonical text, so an example_id 5 was the string "5" there only.
  const nan = readJsonLine(
    '{"example_id": 5, "a": true, "b": [1, {"z": null, "y": 2.50}], "c": NaN, "d": -Infinity, ' +
      '"e": "\\u00e9\\ud800"}',
  );
  ok("value" in nan);
  const v = nan.value as Record<string, unknown>;
  strictEqual(v.example_id, 5);
  strictEqual(v.a, true);
  assertEquals(v.b, [1, { y: 2.5, z: null }]);
  ok(Number.isNaN(v.c));
  strictEqual(v.d, -Infinity);
  strictEqual(v.e, "\u00e9\ud800");
  // Keys come in canonical order there, as the exact parser gives them.
  assertEquals(Object.keys(v), ["a", "b", "c", "d", "e", "example_id"]);
});

Deno.test("readJsonLine() words a malformed line as the exact parser does, the same on every runtime", () => {
  // Not JSON.parse's message, which V8, Node's V8 and JavaScriptCore each word their own way.
  const cases: [string, string][] = [
    ["{", "expecting_property_name at 1"],
    ['{"example_id": 1,', "expecting_property_name at 17"],
    ["[1,", "expecting_value at 3"],
    ['{"a": tru}', "expecting_value at 6"],
  ];
  for (const [text, error] of cases) assertEquals(readJsonLine(text), { error }, text);
});
