// The Wasm scoring kernel (`assay score`'s fast path) against the general reader: on seeded
// corpora the kernel must take the whole run and write the general reader's report byte for
// byte; on every input it does not read itself it must give the run back (and the command then
// answers exactly as the general reader does, report or error).
import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import { runScore } from "../cli/score.ts";
import { lastBail, lastRun, setParallelBytes } from "../cli/_score_fast.ts";
import { setClaimBytes } from "../cli/_kernel_read.ts";
import { prestartScoreWorker, takeScoreWorker } from "../cli/_score_prestart.ts";
import { main } from "../cli/main.ts";
import { sha256Hex } from "../mod.ts";
import { writeScoreCorpus } from "./_score_corpus.ts";
import { rng } from "./conformance/_corpus.ts";
import { createHash } from "node:crypto";

interface Outcome {
  report?: string;
  error?: string;
}

/** Runs `assay score` in this process, quietly; the report text or the error's name and text. */
async function run(dir: string, args: string[]): Promise<Outcome> {
  const out = `${dir}/report-${crypto.randomUUID()}.json`;
  const log = console.log;
  console.log = () => {};
  try {
    await runScore([...args, "--quiet", "--out", out]);
    return { report: await Deno.readTextFile(out) };
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  } finally {
    console.log = log;
    await Deno.remove(out).catch(() => {});
  }
}

/** Scores with the fast path and with the general reader; returns both and the kernel's bail. */
async function both(dir: string, args: string[]) {
  const fast = await run(dir, ["--engine", "wasm", ...args]);
  const bail = lastBail;
  const stats = lastRun;
  const general = await run(dir, ["--engine", "wasm", "--no-fast-path", ...args]);
  if (bail === undefined) strictEqual(stats?.helper, parallel, "the fast path's readers");
  return { fast, general, bail, stats };
}

/**
 * The ways the fast path reads: on this thread alone; with a worker reading a part of the
 * examples and claiming its share of the other files; and so with claims of at most a few lines,
 * so that the two readers take turns many times in each file.
 */
const MODES = [
  { name: "one reader", bytes: Infinity, claims: undefined },
  { name: "two readers", bytes: 0, claims: undefined },
  { name: "two readers, small claims", bytes: 0, claims: [16, 600] },
] as const;

let parallel = false;

/** Runs `fn` with the fast path set to read as `mode` says. */
async function inMode(mode: (typeof MODES)[number], fn: () => Promise<void>): Promise<void> {
  setParallelBytes(mode.bytes);
  if (mode.claims) setClaimBytes(mode.claims[0], mode.claims[1], mode.claims[1]);
  parallel = mode.bytes === 0;
  try {
    await fn();
  } finally {
    setParallelBytes(16 << 20);
    setClaimBytes(256 << 10, 2 << 20, 512 << 10);
    parallel = false;
  }
}

async function inModes(t: Deno.TestContext, name: string, fn: () => Promise<void>): Promise<void> {
  for (const mode of MODES) await t.step(`${name} (${mode.name})`, () => inMode(mode, fn));
}

async function withFiles(
  files: Record<string, string | Uint8Array>,
): Promise<[string, ...string[]]> {
  const dir = await Deno.makeTempDir({ prefix: "assay_kernel_" });
  const args: [string, ...string[]] = [dir];
  for (const [name, body] of Object.entries(files)) {
    const path = `${dir}/${name}.jsonl`;
    if (typeof body === "string") await Deno.writeTextFile(path, body);
    else await Deno.writeFile(path, body);
    args.push(`--${name}`, path);
  }
  return args;
}

Deno.test("the kernel takes seeded corpora whole and writes the general reader's report byte for byte", async (t) => {
  const cases = [
    { seed: 11, count: 3000, prompts: true, lineNoise: false },
    { seed: 12, count: 3000, prompts: false, lineNoise: true },
    { seed: 13, count: 2000, prompts: true, lineNoise: true, outputBytes: 900 },
    { seed: 14, count: 2000, prompts: true, lineNoise: false, fuzzRate: 0.5, hostileGoldRate: 0.3 },
  ];
  for (const c of cases) {
    await inModes(t, `seed ${c.seed}`, async () => {
      const dir = await Deno.makeTempDir({ prefix: "assay_kernel_corpus_" });
      const files = await writeScoreCorpus(dir, c);
      const args = ["--examples", files.examples, "--generations", files.generations];
      if (files.prompts) args.push("--prompts", files.prompts);
      const { fast, general, bail } = await both(dir, args);
      strictEqual(bail, undefined, `the kernel gave the run back: ${JSON.stringify(bail)}`);
      ok(fast.report !== undefined, fast.error);
      strictEqual(fast.report, general.report);
      const ts = await run(dir, ["--engine", "ts", ...args]);
      strictEqual(ts.report, fast.report!.replace('"engine": "wasm"', '"engine": "ts"'));
      await Deno.remove(dir, { recursive: true });
    });
  }
});

Deno.test("the kernel agrees with the general reader on 24 small seeded corpora, with one reader and with two", async (t) => {
  for (const mode of MODES) {
    await t.step(mode.name, async () => {
      await inMode(mode, async () => {
        for (let k = 0; k < 24; k++) {
          const dir = await Deno.makeTempDir({ prefix: "assay_kernel_small_" });
          const files = await writeScoreCorpus(dir, {
            seed: 1000 + k,
            count: 40 + 16 * k,
            prompts: k % 2 === 0,
            lineNoise: k % 3 === 0,
            fuzzRate: 0.3,
            hostileGoldRate: 0.25,
            dropRate: 0.1,
          });
          const args = ["--examples", files.examples, "--generations", files.generations];
          if (files.prompts) args.push("--prompts", files.prompts);
          const { fast, general, bail } = await both(dir, args);
          strictEqual(bail, undefined, `seed ${1000 + k}: ${JSON.stringify(bail)}`);
          strictEqual(fast.report, general.report, `seed ${1000 + k}`);
          await Deno.remove(dir, { recursive: true });
        }
      });
    });
  }
});

const call = (name: string, args: unknown) => ({ name, arguments: args });
const row = (o: Record<string, unknown>) => JSON.stringify(o);
const SHA = "a".repeat(64);

/** One example, one generation, and optionally a prompt: the base that each case bends. */
function base(opts: { target?: string; output?: string; id?: string } = {}) {
  const id = opts.id ?? "e1";
  const target = opts.target ?? JSON.stringify(call("f", { a: 1 }));
  return {
    examples: `{"example_id":${JSON.stringify(id)},"language":"en","target":${target}}\n`,
    generations: row({
      example_id: id,
      prompt_sha256: SHA,
      output: opts.output ?? '{"name":"f","arguments":{"a":1}}',
    }) + "\n",
  };
}

Deno.test("the kernel reads the rare forms it should, and gives back everything else", async (t) => {
  const pair = row({ example_id: "e2", language: "en", target: call("g", {}) });
  const gen2 = row({ example_id: "e2", prompt_sha256: SHA, output: "none" });
  const prompt = (id: string, text: string, sha = sha256Hex(text)) =>
    row({ example_id: id, prompt_sha256: sha, prompt: text });
  const cases: {
    name: string;
    files: Record<string, string | Uint8Array>;
    kernel: boolean; // the kernel takes the run
    glue?: number; // examples the glue scores
  }[] = [
    { name: "the base case", files: base(), kernel: true },
    {
      name: "a one-call list target",
      files: base({ target: '[{"name":"f","arguments":{"a":1}}]' }),
      kernel: true,
    },
    { name: "an empty list target", files: base({ target: "[]" }), kernel: true },
    {
      name: "a list of two calls",
      files: base({ target: '[{"name":"f","arguments":{}},{"name":"g","arguments":{"x":[]}}]' }),
      kernel: true,
    },
    {
      name: "a list with a non-call",
      files: base({ target: '[{"name":"f","arguments":{}},1]' }),
      kernel: true,
    },
    {
      name: "a string target",
      files: base({ target: '"{\\"name\\":\\"f\\",\\"arguments\\":{}}"' }),
      kernel: true,
    },
    { name: "a number target", files: base({ target: "1e5" }), kernel: true },
    {
      name: "a call with NaN",
      files: base({
        target: '{"name":"f","arguments":{"a":NaN,"b":-Infinity}}',
        output: '{"name":"f","arguments":{"a":NaN}}',
      }),
      kernel: true,
    },
    {
      name: "17-digit floats in gold and output",
      files: base({
        target: '{"name":"f","arguments":{"a":0.30000000000000004,"b":[1e400]}}',
        output: 'x {"name":"f","arguments":{"a":0.30000000000000004,"b":[1E+400]}}',
      }),
      kernel: true,
    },
    {
      name: "a 17-digit float in the output only",
      files: base({ output: '{"name":"f","arguments":{"a":1.0000000000000002}}' }),
      kernel: true,
    },
    {
      name: "a path longer than 256 bytes",
      files: base({
        target: `{"name":"f","arguments":{"${"k".repeat(300)}":1}}`,
        output: `{"name":"f","arguments":{"${"k".repeat(300)}":1,"b":2}}`,
      }),
      kernel: true,
    },
    {
      name: "escapes, __proto__ and control characters",
      files: base({
        id: 'e\u0001"\\\u2028',
        target: '{"name":"f\\u00e9","arguments":{"__proto__":{"x":"\\u0000"},"\\ud83d\\ude00":1}}',
        output: '{"name":"fé","arguments":{"__proto__":{"x":"\\u0000"},"😀":1}}',
      }),
      kernel: true,
    },
    {
      name: "a lone surrogate in the output",
      files: base({ output: '{"name":"f","arguments":{"a":"\ud800"}}' }),
      kernel: true,
    },
    {
      name: "nesting 600 deep in the output",
      files: base({
        output: `{"name":"f","arguments":{"a":${"[".repeat(600)}${"]".repeat(600)}}}`,
      }),
      kernel: true,
    },
    {
      name: "CRLF, a BOM, blank lines and no final newline",
      files: {
        examples: "\ufeff\r\n  \t\r\n" + base().examples.replace("\n", "\r\n") + pair,
        generations: "\n" + base().generations + "\n \n" + gen2,
      },
      kernel: true,
    },
    {
      name: "a generation whose digest is not its prompt's",
      files: { ...base(), prompts: prompt("e1", "héllo\n😀") + "\n" },
      kernel: false, // the generation's digest is not the prompt's: a broken invariant
    },
    {
      name: "a duplicate example",
      files: { ...base(), examples: base().examples + base().examples },
      kernel: false,
    },
    {
      name: "a duplicate generation",
      files: { ...base(), generations: base().generations + base().generations },
      kernel: false,
    },
    {
      name: "an orphan generation",
      files: { ...base(), generations: base().generations + gen2 },
      kernel: false,
    },
    {
      name: "a missing generation",
      files: { ...base(), examples: base().examples + pair },
      kernel: false,
    },
    {
      name: "an escaped nested key",
      files: base({
        target: '{"name":"f","arguments":{"\\u0061":1}}',
        output: '{"name":"f","arguments":{"a":1}}',
      }),
      kernel: true,
    },
    {
      name: "an escaped top-level key",
      files: { ...base(), generations: base().generations.replace('"output"', '"\\u006futput"') },
      kernel: false,
    },
    {
      name: "a malformed line",
      files: { ...base(), generations: base().generations + "{oops\n" },
      kernel: false,
    },
    {
      name: "invalid UTF-8",
      files: {
        ...base(),
        examples: new Uint8Array([
          ...new TextEncoder().encode(base().examples.slice(0, -3)),
          0xff,
          0x7d,
          0x7d,
          0x0a,
        ]),
      },
      kernel: false,
    },
    { name: "a lone surrogate in an id", files: base({ id: "e\ud800" }), kernel: false },
    { name: "an empty id", files: base({ id: "" }), kernel: false },
    {
      name: "a missing output",
      files: { ...base(), generations: row({ example_id: "e1", prompt_sha256: SHA }) + "\n" },
      kernel: false,
    },
    {
      name: "an output that is not a string",
      files: {
        ...base(),
        generations: row({ example_id: "e1", prompt_sha256: SHA, output: 1 }) + "\n",
      },
      kernel: false,
    },
    {
      name: "an uppercase digest",
      files: {
        ...base(),
        generations: row({ example_id: "e1", prompt_sha256: SHA.toUpperCase(), output: "x" }) +
          "\n",
      },
      kernel: false,
    },
    {
      name: "a line nested 100,000 deep",
      files: {
        ...base(),
        generations: base().generations.replace(
          "}\n",
          `,"meta":${"[".repeat(100000)}${"]".repeat(100000)}}\n`,
        ),
      },
      kernel: false,
    },
    {
      name: "a NaN in a line's extra field",
      files: { ...base(), examples: base().examples.replace("}\n", ',"meta":NaN}\n') },
      kernel: true,
    },
    {
      name: "Unicode whitespace on a blank line",
      files: { ...base(), examples: base().examples + "\u00a0\n" },
      kernel: false,
    },
  ];
  // Ten examples: with two readers, the first lines are read here and the last ones there.
  const ten = Array.from({ length: 10 }, (_, k) => base({ id: `e${k}` }));
  const tenFiles = {
    examples: ten.map((f) => f.examples).join(""),
    generations: ten.map((f) => f.generations).join(""),
  };
  const longFloat = "0." + "1".repeat(5000);
  const floatGold = base({
    id: "f",
    target: '{"name":"f","arguments":{"a":0.30000000000000004}}',
    output: '{"name":"f","arguments":{"a":0.30000000000000004}}',
  });
  cases.push(
    { name: "ten examples", files: tenFiles, kernel: true },
    {
      // Its gold is read again once its float is formatted, and its block moved back inside it.
      name: "a 17-digit float in the last example's gold",
      files: {
        examples: tenFiles.examples + floatGold.examples,
        generations: floatGold.generations + tenFiles.generations,
      },
      kernel: true,
    },
    {
      name: "a duplicate example, first and last",
      files: { ...tenFiles, examples: tenFiles.examples + ten[0]!.examples },
      kernel: false,
    },
    {
      name: "a duplicate generation, first and last",
      files: { ...tenFiles, generations: tenFiles.generations + ten[0]!.generations },
      kernel: false,
    },
    {
      name: "a float of 5,000 digits (formatted in Wasm like any other)",
      files: {
        examples: tenFiles.examples +
          base({ id: "f", target: `{"name":"f","arguments":{"a":${longFloat},"b":1.5}}` }).examples,
        generations: tenFiles.generations +
          base({ id: "f", output: `{"name":"f","arguments":{"a":${longFloat}1,"b":1.5}}` })
            .generations,
      },
      kernel: true,
      glue: 0,
    },
  );
  // Arguments that differ from the gold's: flat ones (every value a scalar or an empty
  // container) are matched member by member, the others flattened.
  const differing: [string, string, string][] = [
    ["flat, some members shared", '{"a":1,"b":"x","c":[]}', '{"b":"x","a":2,"c":[],"d":null}'],
    ["flat, keys escaped and out of byte order", '{"z":1,"ä":2,"\\n":3}', '{"ä":2,"z":3,"\\n":3}'],
    ["flat, a dotted key against a nested one", '{"a.b":1,"c":{}}', '{"a":{"b":1},"c":{}}'],
    ["flat, strings with escapes", '{"s":"a\\"b","t":"\\u00e9"}', '{"s":"a\\"b","t":"é","u":""}'],
    ["flat, numbers written two ways", '{"a":1.0,"b":-0,"c":1e2}', '{"a":1,"b":0,"c":100.0}'],
    ["flat against empty", "{}", '{"a":1}'],
    ["empty against flat", '{"a":1}', "{}"],
    ["flat with nothing shared", '{"a":1}', '{"b":1}'],
    [
      "a nested member equal, another not",
      '{"a":{"b":1,"c":[1,2]},"d":1}',
      '{"a":{"b":1,"c":[1,2]},"d":2,"e":{"f":[3]}}',
    ],
    ["a nested member against a scalar", '{"a":{"b":1},"c":[1]}', '{"a":1,"c":[1],"d":[[]]}'],
    ["a scalar against a nested member", '{"a":1,"c":2}', '{"a":{"b":1},"c":2}'],
    ["equal nested values under other keys", '{"a":{"x":1},"b":2}', '{"c":{"x":1},"b":2}'],
    ["two different nested members", '{"a":{"b":1,"c":2},"d":3}', '{"a":{"b":1,"c":3},"d":3}'],
    ["a dotted key next to a nested one", '{"a.b":1,"a":{"b":1}}', '{"a":{"b":1},"a.b":2}'],
    ["nested empty containers", '{"a":[[]],"b":{},"c":[{}]}', '{"a":[[]],"b":[],"c":[{}]}'],
    [
      "flat, 40 members",
      `{${Array.from({ length: 40 }, (_, k) => `"k${k}":${k}`)}}`,
      `{${Array.from({ length: 40 }, (_, k) => `"k${k}":${k % 3}`)}}`,
    ],
  ];
  for (const [name, gold, output] of differing) {
    cases.push({
      name: `differing arguments: ${name}`,
      files: base({
        target: `{"name":"f","arguments":${gold}}`,
        output: `{"name":"f","arguments":${output}}`,
      }),
      kernel: true,
    });
  }
  // A digest is 64 lowercase hex digits; bytes just outside their ranges are given back.
  for (const c of ["/", ":", "@", "`", "g", "A", "F", "G", " "]) {
    for (const at of [0, 37, 63]) {
      const hex = "0123456789abcdef".repeat(4);
      const sha = hex.slice(0, at) + c + hex.slice(at + 1);
      cases.push({
        name: `a generation digest holding ${JSON.stringify(c)} at ${at}`,
        files: { ...base(), generations: base().generations.replace(SHA, sha) },
        kernel: false,
      });
    }
  }
  const withPrompt = base();
  const text = "the prompt";
  cases.push(
    {
      name: "a manifest whose prompts hash to their digests",
      files: {
        examples: withPrompt.examples,
        generations: withPrompt.generations.replace(SHA, sha256Hex(text)),
        prompts: prompt("e1", text) + "\n",
      },
      kernel: true,
    },
    {
      name: "a prompt that does not hash to its digest",
      files: {
        examples: withPrompt.examples,
        generations: withPrompt.generations,
        prompts: prompt("e1", text, SHA) + "\n",
      },
      kernel: false,
    },
    {
      name: "a duplicate prompt row, first and last",
      files: {
        ...tenFiles,
        generations: tenFiles.generations.replaceAll(SHA, sha256Hex(text)),
        prompts: ten.map((_, k) => prompt(`e${k}`, text) + "\n").join("") + prompt("e0", text) +
          "\n",
      },
      kernel: false,
    },
    {
      name: "a prompt and its generation read apart, digests unequal",
      files: {
        ...tenFiles,
        generations: tenFiles.generations.replaceAll(SHA, sha256Hex(text)).replace(
          sha256Hex(text),
          SHA,
        ),
        prompts: ten.map((_, k) => prompt(`e${9 - k}`, text) + "\n").join(""),
      },
      kernel: false,
    },
    {
      name: "ten prompts read apart from their generations",
      files: {
        ...tenFiles,
        generations: tenFiles.generations.replaceAll(SHA, sha256Hex(text)),
        prompts: ten.map((_, k) => prompt(`e${9 - k}`, text) + "\n").join(""),
      },
      kernel: true,
    },
    {
      name: "a prompt row for an unknown id",
      files: {
        examples: withPrompt.examples,
        generations: withPrompt.generations.replace(SHA, sha256Hex(text)),
        prompts: prompt("e1", text) + "\n" + prompt("zz", text) + "\n",
      },
      kernel: false,
    },
  );
  for (const c of cases) {
    await inModes(t, c.name, async () => {
      const [dir, ...args] = await withFiles(c.files);
      const { fast, general, bail, stats } = await both(dir, args);
      assertEquals(fast, general);
      strictEqual(bail === undefined, c.kernel, `bail: ${JSON.stringify(bail)}`);
      if (c.kernel && !parallel) strictEqual(stats?.scoredHere, c.glue ?? 0);
      await Deno.remove(dir, { recursive: true });
    });
  }
});

Deno.test("the kernel agrees with the general reader on 70,000 distinct 17-digit floats, leaving none to the glue", async () => {
  // 70,000 examples whose gold holds a float of 17 significant digits, each a new one: more than
  // the 65,536 the kernel once listed for kRegold and its float table held. The Wasm formats
  // every float itself now, so no gold is left for floats.
  const n = 70_000;
  const examples: string[] = [];
  const generations: string[] = [];
  for (let i = 0; i < n; i++) {
    const x = `0.${1_000_000_000_000_000n + BigInt(i) * 7919n}1`; // 17 significant digits
    examples.push(
      `{"example_id":"g${i}","language":"en","target":{"name":"f","arguments":{"x":${x}}}}`,
    );
    const output = i % 3 === 0
      ? `{"name":"f","arguments":{"x":${x}}}`
      : `{"name":"f","arguments":{"x":1}}`;
    generations.push(row({ example_id: `g${i}`, prompt_sha256: SHA, output }));
  }
  const [dir, ...args] = await withFiles({
    examples: examples.join("\n") + "\n",
    generations: generations.join("\n") + "\n",
  });
  setParallelBytes(Infinity);
  try {
    const { fast, general, bail, stats } = await both(dir, args);
    strictEqual(bail, undefined);
    ok(fast.report);
    strictEqual(fast.report, general.report);
    strictEqual(stats!.scoredHere, 0, `gold left to the glue: ${JSON.stringify(stats)}`);
  } finally {
    setParallelBytes(16 << 20);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the kernel reads a line longer than its read chunk", async (t) => {
  await inModes(t, "a 9 MB output", longLine);
});

async function longLine(): Promise<void> {
  const output = "x".repeat(9 << 20) + '{"name":"f","arguments":{"a":1}}';
  const files = base({ output });
  files.examples = base().examples.repeat(1) +
    row({ example_id: "e2", language: "de", target: call("g", {}) });
  files.generations += row({ example_id: "e2", prompt_sha256: SHA, output: "y".repeat(5 << 20) });
  const [dir, ...args] = await withFiles(files);
  const { fast, general, bail } = await both(dir, args);
  strictEqual(bail, undefined);
  ok(fast.report);
  strictEqual(fast.report, general.report);
  await Deno.remove(dir, { recursive: true });
}

Deno.test("a worker started ahead reads its part of the examples, and is let go when the run does not need it", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "assay_kernel_ahead_" });
  const corpus = async (name: string, seed: number) => {
    await Deno.mkdir(`${dir}/${name}`);
    const f = await writeScoreCorpus(`${dir}/${name}`, { seed, count: 1500, prompts: true });
    return ["--examples", f.examples, "--generations", f.generations, "--prompts", f.prompts!];
  };
  const a = await corpus("a", 71);
  const b = await corpus("b", 72);
  await Deno.mkdir(`${dir}/big`);
  const f = await writeScoreCorpus(`${dir}/big`, { seed: 73, count: 4000, prompts: false });
  const big = ["--examples", f.examples, "--generations", f.generations];
  ok((await Deno.stat(f.examples)).size > 512 << 10, "more than one chunk of examples");
  const bigExpected = (await run(dir, ["--engine", "wasm", "--no-fast-path", ...big])).report;
  const expected = (await run(dir, ["--engine", "wasm", "--no-fast-path", ...a])).report;
  ok(expected);
  setParallelBytes(0);
  try {
    await t.step("through the command line, which starts it while `score` loads", async () => {
      const out = `${dir}/cli.json`;
      const log = console.log;
      console.log = () => {};
      let code: number;
      try {
        code = await main(["score", ...a, "--quiet", "--out", out]);
      } finally {
        console.log = log;
      }
      strictEqual(code, 0);
      strictEqual(lastRun?.ahead, true, "the worker started ahead read the examples");
      strictEqual(await Deno.readTextFile(out), expected);
    });
    await t.step("whose messages came before the fast path took it over", async () => {
      // The worker reads all of examples.jsonl (2 chunks here) and sends its entries while no
      // one listens yet: what it said must reach the fast path all the same.
      await prestartScoreWorker(big);
      await new Promise((r) => setTimeout(r, 400));
      const fast = await run(dir, big);
      strictEqual(lastRun?.ahead, true, "the worker started ahead read the examples");
      strictEqual(fast.report, bigExpected);
    });
    await t.step("started for other files than the run reads", async () => {
      await prestartScoreWorker(b);
      const fast = await run(dir, a);
      strictEqual(lastRun?.ahead, false);
      strictEqual(lastRun?.helper, true);
      strictEqual(fast.report, expected);
    });
    await t.step("started for a run that stops on a usage error", async () => {
      await prestartScoreWorker(a);
      const r = await run(dir, a.slice(0, 2)); // no --generations
      ok(r.error?.startsWith("UsageError"), r.error);
      // runScore took the worker and stopped it (workers escape the test's sanitizers).
      const left = takeScoreWorker();
      left?.worker.terminate();
      strictEqual(left, undefined, "the worker started ahead was left running");
    });
  } finally {
    setParallelBytes(16 << 20);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the kernel reads UTF-8 in ids, prompts and outputs as the general reader does", async (t) => {
  // Byte sequences at the edges of UTF-8: valid two-, three- and four-byte forms next to the
  // overlong ones, surrogates, truncated forms, stray continuation bytes and bytes never used.
  const units: number[][] = [
    [0x41],
    [0x5c, 0x6e],
    [0x5c, 0x22],
    [0xc2, 0x80],
    [0xdf, 0xbf],
    [0xc0, 0xaf],
    [0xc1, 0xbf],
    [0xe0, 0xa0, 0x80],
    [0xe0, 0x9f, 0xbf],
    [0xe3, 0x81, 0x82],
    [0xed, 0x9f, 0xbf],
    [0xed, 0xa0, 0x80],
    [0xef, 0xbf, 0xbf],
    [0xf0, 0x90, 0x80, 0x80],
    [0xf0, 0x8f, 0xbf, 0xbf],
    [0xf4, 0x8f, 0xbf, 0xbf],
    [0xf4, 0x90, 0x80, 0x80],
    [0xf5, 0x80, 0x80, 0x80],
    [0x80],
    [0xbf],
    [0xe3, 0x81],
    [0xc2],
    [0xf0, 0x90, 0x80],
    [0xff],
    [0xfe],
  ];
  const next = rng(20261130);
  const encoder = new TextEncoder();
  const bytesOf = (n: number) => {
    const out: number[] = [];
    for (let k = 0; k < n; k++) out.push(...units[Math.floor(next() * units.length)]!);
    return out;
  };
  const cat = (...parts: (string | number[])[]) =>
    new Uint8Array(parts.flatMap((p) => typeof p === "string" ? [...encoder.encode(p)] : p));
  let kernelTook = 0;
  for (let k = 0; k < 120; k++) {
    const where = k % 3; // the output, the id, the prompt
    const id = where === 1 ? bytesOf(1 + Math.floor(next() * 4)) : [...encoder.encode("e1")];
    const text = where === 2 ? bytesOf(1 + Math.floor(next() * 6)) : [...encoder.encode("p")];
    const output = where === 0 ? bytesOf(1 + Math.floor(next() * 12)) : [];
    // The prompt's digest is that of its bytes as JSON.parse reads the two escapes used here.
    const decoded: number[] = [];
    for (let i = 0; i < text.length; i++) {
      if (text[i] === 0x5c) decoded.push(text[++i] === 0x6e ? 0x0a : text[i]!);
      else decoded.push(text[i]!);
    }
    const sha = createHash("sha256").update(new Uint8Array(decoded)).digest("hex");
    const target = '{"name":"f","arguments":{"a":"x"}}';
    const files = {
      examples: cat('{"example_id":"', id, `","language":"en","target":${target}}\n`),
      generations: cat(
        '{"example_id":"',
        id,
        `","prompt_sha256":"${sha}","output":"{\\"name\\":\\"f\\",\\"arguments\\":{\\"a\\":\\"`,
        output,
        '\\"}}"}\n',
      ),
      prompts: cat('{"example_id":"', id, `","prompt_sha256":"${sha}","prompt":"`, text, '"}\n'),
    };
    await t.step(`case ${k}`, async () => {
      const [dir, ...args] = await withFiles(files);
      const { fast, general, bail } = await both(dir, args);
      assertEquals(fast, general);
      if (bail === undefined) kernelTook++;
      await Deno.remove(dir, { recursive: true });
    });
  }
  // Valid cases are taken, not all given back.
  ok(kernelTook > 10, `the kernel took ${kernelTook} of 120`);
});
