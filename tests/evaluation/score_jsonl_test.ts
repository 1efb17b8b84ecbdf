// scoreJsonl(): the same bytes whatever the kind and chunking of its sources, on both engines and
// both readers; one-shot sources read on after the kernel gives a run back; digests, progress,
// the lazily parsed records and the errors on misuse.
import {
  deepStrictEqual as assertEquals,
  ok,
  rejects,
  strictEqual,
  throws,
} from "node:assert/strict";
import { createHash } from "node:crypto";
import { createEngine, scoreJsonl, sha256Hex } from "../../mod.ts";
import { writeScoreCorpus } from "./_score_corpus.ts";
import { makeRng } from "../_corpus.ts";
import { sourceOf } from "../_byte_sources.ts";

const WASM = createEngine({ engine: "wasm" });
const TS = createEngine({ engine: "ts" });
const decoder = new TextDecoder();

async function corpus(seed: number, prompts: boolean, count = 600) {
  const dir = await Deno.makeTempDir({ prefix: "assay_score_jsonl_" });
  const f = await writeScoreCorpus(dir, { seed, count, prompts, lineNoise: true });
  const files = {
    examples: await Deno.readFile(f.examples),
    generations: await Deno.readFile(f.generations),
    prompts: f.prompts ? await Deno.readFile(f.prompts) : undefined,
  };
  await Deno.remove(dir, { recursive: true });
  return files;
}

Deno.test("scoreJsonl() gives the same bytes whatever the kind and chunking of its sources", async () => {
  const rng = makeRng(515);
  for (const prompts of [true, false]) {
    const files = await corpus(prompts ? 41 : 42, prompts);
    let reference: string | undefined;
    const kinds = ["bytes", "stream", "iterable", "function", "function opening a stream"] as const;
    for (const kind of kinds) {
      for (const engine of [WASM, TS]) {
        const r = await scoreJsonl({
          examples: sourceOf(files.examples, kind, rng),
          generations: sourceOf(files.generations, kind, rng),
          prompts: files.prompts ? sourceOf(files.prompts, kind, rng) : undefined,
        }, { engine });
        strictEqual(r.handedBack, undefined, `${kind}: ${JSON.stringify(r.handedBack)}`);
        const text = decoder.decode(r.bytes).replace('"engine": "ts"', '"engine": "wasm"');
        reference ??= text;
        strictEqual(text, reference, `${kind} on ${engine.name}`);
      }
    }
    const report = JSON.parse(reference!);
    strictEqual(report.inputs.examples.sha256, sha256Hex(files.examples));
    strictEqual(report.inputs.generations.sha256, sha256Hex(files.generations));
    if (files.prompts) strictEqual(report.inputs.prompts.sha256, sha256Hex(files.prompts));
  }
});

Deno.test("scoreJsonl() reads a one-shot source on after the kernel gives the run back", async () => {
  const files = await corpus(43, true);
  // A manifest row whose key example_id is written with an escape, after the first rows: the
  // kernel gives the run back in the middle of prompts.jsonl, and the general reader reads it.
  const text = decoder.decode(files.prompts!).split("\n");
  text[5] = text[5]!.replace('"example_id"', '"example\\u005fid"');
  const prompts = new TextEncoder().encode(text.join("\n"));
  const expected = await scoreJsonl(
    { examples: files.examples, generations: files.generations, prompts },
    { kernel: false },
  );
  const rng = makeRng(516);
  for (const kind of ["stream", "iterable", "function"] as const) {
    const r = await scoreJsonl({
      examples: sourceOf(files.examples, kind, rng),
      generations: sourceOf(files.generations, kind, rng),
      prompts: sourceOf(prompts, kind, rng),
    }, { engine: WASM });
    ok(r.handedBack, `${kind}: the kernel took a key written with an escape`);
    strictEqual(r.handedBack.source, "prompts");
    assertEquals(decoder.decode(r.bytes), decoder.decode(expected.bytes), kind);
  }
  // A one-shot source that reuses one buffer for its chunks: the general reader read the kept
  // chunks as the buffer held them last, and refused a line that is well formed.
  const reusing = (bytes: Uint8Array) =>
    (async function* () {
      const buffer = new Uint8Array(4096);
      for (let at = 0; at < bytes.length; at += buffer.length) {
        const n = Math.min(buffer.length, bytes.length - at);
        buffer.set(bytes.subarray(at, at + n));
        yield buffer.subarray(0, n);
      }
    })();
  const r = await scoreJsonl({
    examples: reusing(files.examples),
    generations: reusing(files.generations),
    prompts: reusing(prompts),
  }, { engine: WASM });
  strictEqual(r.handedBack?.source, "prompts");
  assertEquals(decoder.decode(r.bytes), decoder.decode(expected.bytes), "a reused buffer");
});

Deno.test("scoreJsonl() cancels a stream source it stops reading at a refused line", async () => {
  const line = '{"example_id": "a", "language": "en", "target": {"name": "f", "arguments": {}}}\n';
  for (const engine of [WASM, TS]) {
    let pulls = 0;
    let cancelled: unknown = "no";
    const examples = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(new TextEncoder().encode(pulls++ ? line.repeat(100) : "{oops\n"));
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    await rejects(
      scoreJsonl({ examples, generations: new Uint8Array() }, { engine }),
      /examples:1: malformed JSON line/,
    );
    strictEqual(cancelled, undefined, `${engine.name}: the stream was left open`);
    ok(pulls < 10, `${engine.name}: ${pulls} pulls after line 1 was refused`);
  }
});

Deno.test("scoreJsonl() parses the kernel's records on first use, as the general reader has them", async () => {
  const files = await corpus(44, false);
  const sources = { examples: files.examples, generations: files.generations };
  const kernel = await scoreJsonl(sources, { engine: WASM });
  const general = await scoreJsonl(sources, { engine: WASM, kernel: false });
  strictEqual(kernel.handedBack, undefined);
  assertEquals(kernel.report.records, general.report.records);
  assertEquals(JSON.parse(JSON.stringify(kernel.report)), JSON.parse(decoder.decode(kernel.bytes)));
});

Deno.test("scoreJsonl()'s streams of the report's bytes stay whole when its records or another stream are read between their chunks", async () => {
  // The kernel writes records from one cursor: a stream read in parts (an edge function's
  // Response) lost the records after the point where the report's records were read meanwhile.
  const files = await corpus(45, false, 12_000);
  const sources = { examples: files.examples, generations: files.generations };
  const join = (parts: Uint8Array[]) =>
    decoder.decode(new Uint8Array(parts.flatMap((p) => [...p])));
  for (const engine of [WASM, TS]) {
    const run = await scoreJsonl(sources, { engine });
    const whole = join([...run.chunks()]);
    const streams = [run.chunks()[Symbol.iterator](), run.chunks()[Symbol.iterator]()];
    const parts: Uint8Array[][] = [[], []];
    for (let step = 0, done = 0; done < 2; step++) {
      done = 0;
      for (const [i, s] of streams.entries()) {
        const next = s.next();
        if (next.done) done++;
        else parts[i]!.push(next.value);
      }
      if (step === 1) strictEqual(run.report.records.length, JSON.parse(whole).records.length);
    }
    ok(parts[0]!.length >= 4, `${parts[0]!.length} chunks: too few to interleave`);
    strictEqual(join(parts[0]!), whole);
    strictEqual(join(parts[1]!), whole);
    strictEqual(decoder.decode(run.bytes), whole);
  }
});

Deno.test("scoreJsonl() digests with the hasher it is given, and reports its progress", async () => {
  const files = await corpus(45, true);
  const seen: Record<string, number> = {};
  let hashers = 0;
  const r = await scoreJsonl({
    examples: files.examples,
    generations: async function* () {
      yield files.generations;
    },
    prompts: files.prompts,
  }, {
    sha256: () => {
      hashers++;
      return createHash("sha256");
    },
    onProgress: (p) => {
      ok(p.bytes >= (seen[p.source] ?? 0), "progress only grows within a pass");
      seen[p.source] = p.bytes;
      strictEqual(p.pass, 1);
    },
  });
  strictEqual(hashers, 3);
  assertEquals(seen, {
    examples: files.examples.length,
    generations: files.generations.length,
    prompts: files.prompts!.length,
  });
  strictEqual(r.report.inputs.generations!.sha256, sha256Hex(files.generations));
});

Deno.test("scoreJsonl() awaits an async onProgress, and its rejection is the run's, on either reader", async () => {
  // An async callback that threw was an unhandled rejection: the process died, and no try/catch
  // around scoreJsonl saw it.
  const files = await corpus(46, false);
  const sources = { examples: files.examples, generations: files.generations };
  for (const engine of ["wasm", "ts"] as const) {
    const e = createEngine({ engine });
    let calls = 0;
    await rejects(
      () =>
        scoreJsonl(sources, {
          engine: e,
          onProgress: async (p) => {
            calls++;
            await Promise.resolve();
            if (p.source === "generations") throw new Error("async callback");
          },
        }),
      (err: unknown) => err instanceof Error && err.message === "async callback",
      engine,
    );
    ok(calls >= 2, engine);
    // Awaited in turn: no call starts before the one before it has settled.
    let busy = false;
    const r = await scoreJsonl(sources, {
      engine: e,
      onProgress: async () => {
        ok(!busy, "a call started while another was pending");
        busy = true;
        await new Promise((resolve) => setTimeout(resolve, 0));
        busy = false;
      },
    });
    strictEqual(r.report.n > 0, true);
  }
});

Deno.test("scoreJsonl() refuses a sha256 option that is not a function, or a hasher that gives no digest", async () => {
  // sha256: 5 failed as "this[#hasher] is not a function"; a hasher whose digest was "xyz" had
  // it written into the report as the file's SHA-256.
  const files = await corpus(5, false);
  const sources = { examples: files.examples, generations: files.generations };
  await rejects(
    () => scoreJsonl(sources, { sha256: 5 as never }),
    (e: unknown) => e instanceof TypeError && e.message === "Option sha256 must be a function",
  );
  for (const engine of ["wasm", "ts"] as const) {
    const bogus = () => ({ update: () => {}, digest: () => "xyz" });
    await rejects(
      () => scoreJsonl(sources, { sha256: bogus, engine: createEngine({ engine }) }),
      (e: unknown) => e instanceof TypeError && e.message === "examples: sha256 gave no hex digest",
      engine,
    );
  }
});

Deno.test("scoreJsonl() refuses sources that are not bytes, streams, iterables or functions", async () => {
  const bytes = new Uint8Array(0);
  await rejects(
    () => scoreJsonl({ examples: "x" as never, generations: bytes }),
    (e: unknown) => e instanceof TypeError && /examples: expected a Uint8Array/.test(e.message),
  );
  await rejects(
    () =>
      scoreJsonl({
        examples: bytes,
        generations: (async function* () {
          yield "text" as never;
        })(),
      }),
    (e: unknown) =>
      e instanceof TypeError && /generations: expected chunks of bytes/.test(e.message),
  );
  await rejects(() => scoreJsonl(null as never), TypeError);
});

Deno.test("scoreJsonl() refuses a line past maxLineBytes as soon as it passes, on both readers", async () => {
  const { LineTooLongError } = await import("../../src/jsonl/mod.ts");
  const files = await corpus(43, false);
  const limit = 1 << 20;
  // A 40 MiB line as the fourth of the generations, read from a function in 256 KiB chunks.
  const lines = decoder.decode(files.generations).split("\n");
  const head = new TextEncoder().encode(lines.slice(0, 3).join("\n") + "\n");
  for (const options of [{}, { kernel: false }, { engine: TS }]) {
    let read = 0;
    const generations = async function* () {
      const piece = new Uint8Array(256 << 10).fill(0x20);
      read += head.length;
      yield head;
      for (let k = 0; k < 160; k++) {
        read += piece.length;
        yield piece;
      }
    };
    await rejects(
      scoreJsonl({ examples: files.examples, generations }, { ...options, maxLineBytes: limit }),
      (e: Error) => {
        ok(e instanceof LineTooLongError, String(e));
        strictEqual(e.message.split(":").slice(0, 2).join(":"), "generations:4");
        return true;
      },
    );
    // Each pass stops within a chunk of the limit (the kernel's pass and the general reader's).
    ok(read <= 2 * (head.length + limit + (256 << 10)), `read ${read} bytes`);
  }
  await rejects(
    scoreJsonl({ examples: files.examples, generations: files.generations }, {
      maxLineBytes: 0,
    }),
    RangeError,
  );
});

Deno.test("scoreJsonl() reads an output written as a JSON object or array as its canonical text, and names the kind of any other", async () => {
  const { scoreToolCalls } = await import("../../src/evaluation/mod.ts");
  const enc = new TextEncoder();
  const examples = enc.encode(
    '{"example_id": "a", "language": "en", "target": {"name": "f", "arguments": {"x": 1.0}}}\n',
  );
  const line = (output: string) =>
    enc.encode(`{"example_id": "a", "prompt_sha256": "${"0".repeat(64)}", "output": ${output}}\n`);
  const read: [string, string, boolean][] = [
    ['{"arguments": {"x": 1.0}, "name": "f"}', "ok", true],
    ['{"name": "f", "arguments": {"x": 1}}', "ok", false],
    ['{"role": "assistant"}', "invalid_shape", false],
    ["[1]", "invalid_shape", false],
  ];
  for (const [output, status, match] of read) {
    for (const options of [{}, { engine: TS }, { kernel: false }]) {
      const r = await scoreJsonl({ examples, generations: line(output) }, options);
      assertEquals(
        [r.report.records[0]!.status, r.report.records[0]!.arguments_match],
        [status, match],
        output,
      );
      // The scoring kernel reads such an output itself, as the general reader does.
      strictEqual(r.handedBack, undefined, `${output}: ${JSON.stringify(r.handedBack)}`);
    }
  }
  // A line may give an object or an array, and its message says so.
  const refused: [string, RegExp][] = [
    ["null", /must be a string, an object or an array, got null$/],
    ["5", /must be a string, an object or an array, got a number$/],
    ["true", /must be a string, an object or an array, got a boolean$/],
  ];
  for (const [output, message] of refused) {
    for (const options of [{}, { engine: TS }, { kernel: false }]) {
      await rejects(
        scoreJsonl({ examples, generations: line(output) }, options),
        (e: Error) =>
          /^generations:1 \(id "a"\): field "output"/.test(e.message) && message.test(e.message),
        output,
      );
    }
  }
  // In memory the object has lost its lexemes (1.0 is 1): it is refused, with where it goes.
  throws(
    () =>
      scoreToolCalls(
        [{ example_id: "a", language: "en", target: { name: "f", arguments: {} } }],
        [{ example_id: "a", prompt_sha256: "0".repeat(64), output: { name: "f" } as never }],
      ),
    /got an object: give a JSON message as its JSON text, which keeps its numbers exact/,
  );
  throws(
    () =>
      scoreToolCalls(
        [{ example_id: "a", language: "en", target: { name: "f", arguments: {} } }],
        [{ example_id: "a", prompt_sha256: "0".repeat(64), output: null as never }],
      ),
    /field "output" must be a string, got null$/,
  );
});

Deno.test("scoreJsonl() refuses a run that scored no example: every one dropped or missing", async () => {
  const { InputError } = await import("../../src/jsonl/mod.ts");
  const enc = new TextEncoder();
  const call = { name: "f", arguments: {} };
  const examples = enc.encode(
    [
      { example_id: "a", language: "en", target: [] },
      { example_id: "b", language: "en", target: [call, call] },
      { example_id: "c", language: "en", target: call },
    ].map((r) => JSON.stringify(r) + "\n").join(""),
  );
  const dropped = enc.encode(
    JSON.stringify({ example_id: "a", language: "en", target: [] }) + "\n",
  );
  const empty = new Uint8Array(0);
  const cases: [Uint8Array, boolean, string][] = [
    // Every target dropped: nothing was scored.
    [dropped, false, "e.jsonl: no example scored: 1 dropped, 0 missing"],
    // A partial run whose generations file is empty: the kept example misses its generation.
    [examples, true, "e.jsonl: no example scored: 2 dropped, 1 missing"],
  ];
  for (const options of [{}, { kernel: false }, { engine: TS }, { engine: WASM }]) {
    for (const [ex, allowMissing, message] of cases) {
      await rejects(
        scoreJsonl({ examples: ex, generations: empty }, {
          ...options,
          allowMissing,
          names: { examples: "e.jsonl" },
        }),
        (e: unknown) => e instanceof InputError && e.message === message,
      );
    }
  }
});

Deno.test("scoreJsonl() refuses examples without an example, on both engines and both readers", async () => {
  const { InputError } = await import("../../src/jsonl/mod.ts");
  const empty = new Uint8Array(0);
  const blank = new TextEncoder().encode("\n \n");
  // With generations too: the file without an example is named, not every generation's orphan.
  const one = new TextEncoder().encode(
    `{"example_id": "a", "prompt_sha256": "${"0".repeat(64)}", "output": "{}"}\n`,
  );
  for (const options of [{}, { kernel: false }, { engine: TS }, { engine: WASM }]) {
    for (const examples of [empty, blank]) {
      for (const generations of [empty, one]) {
        await rejects(
          scoreJsonl({ examples, generations }, { ...options, names: { examples: "e.jsonl" } }),
          (e: unknown) =>
            e instanceof InputError && e.message === "e.jsonl: no example in the file",
        );
      }
    }
  }
});

Deno.test("scoreJsonl()'s InputError carries the file, line and id its message names, on both engines and both readers", async () => {
  const { InputError, InvalidUtf8Error, formatLocation } = await import("../../src/jsonl/mod.ts");
  const enc = new TextEncoder();
  const H = "0".repeat(64);
  const ex = (id: string) => `{"example_id": "${id}", "language": "en", "target": {"name": "f"}}`;
  const gen = (id: string, rest = `, "output": "{}"`) =>
    `{"example_id": "${id}", "prompt_sha256": "${H}"${rest}}`;
  const good = [ex("a"), ex("b")];
  const goodGen = [gen("a"), gen("b")];
  const bytes = (lines: (string | Uint8Array)[]) => {
    const parts = lines.map((l) => typeof l === "string" ? enc.encode(l + "\n") : l);
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) out.set(p, (at += p.length) - p.length);
    return out;
  };
  // [what, examples, generations, the place: source, line, id]
  const cases: [string, (string | Uint8Array)[], string[], [string, number?, string?]][] = [
    ["malformed example line", [ex("a"), '{"example_id": "b",'], goodGen, ["e.jsonl", 2]],
    ["example not an object", ["[1]", ex("b")], goodGen, ["e.jsonl", 1]],
    ["example without a target", [ex("a"), '{"example_id": "b", "language": "en"}'], goodGen, [
      "e.jsonl",
      2,
      "b",
    ]],
    ["example without an id", ['{"language": "en", "target": {"name": "f"}}'], goodGen, [
      "e.jsonl",
      1,
    ]],
    ["generation without an output", good, [gen("a"), gen("b", "")], ["g.jsonl", 2, "b"]],
    ["generation output not a string", good, [gen("a", `, "output": 5`), gen("b")], [
      "g.jsonl",
      1,
      "a",
    ]],
    [
      "generation without a prompt digest",
      good,
      [gen("a"), `{"example_id": "b", "output": "{}"}`],
      [
        "g.jsonl",
        2,
        "b",
      ],
    ],
    ["malformed generation line", good, [gen("a"), "{"], ["g.jsonl", 2]],
    ["invalid UTF-8 in an example", [ex("a"), new Uint8Array([0x22, 0xff, 0x22, 0x0a])], goodGen, [
      "e.jsonl",
      2,
    ]],
    ["no example in the file", [], [], ["e.jsonl"]],
  ];
  for (const options of [{}, { kernel: false }, { engine: TS }, { engine: WASM }]) {
    for (const [what, examples, generations, [source, line, id]] of cases) {
      await rejects(
        scoreJsonl({ examples: bytes(examples), generations: bytes(generations) }, {
          ...options,
          names: { examples: "e.jsonl", generations: "g.jsonl" },
        }),
        (e: unknown) => {
          ok(e instanceof InputError, `${what}: ${e}`);
          assertEquals([e.source, e.line, e.id], [source, line, id], `${what}: ${e.message}`);
          ok(e.message.startsWith(formatLocation({ source, line, id })), e.message);
          if (what.startsWith("invalid UTF-8")) ok(e instanceof InvalidUtf8Error, what);
          return true;
        },
      );
    }
  }
});
