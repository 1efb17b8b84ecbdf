// The Wasm scoring kernel (`assay score`'s fast path) against the general reader: on seeded
// corpora the kernel must take the whole run and write the general reader's report byte for
// byte; on every input it does not read itself it must give the run back (and the command then
// answers exactly as the general reader does, report or error).
import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import {
  createEngine,
  type Engine,
  scoreJsonl,
  type ScoreJsonlResult,
  sha256Hex,
} from "../../mod.ts";
import { writeScoreCorpus } from "./_score_corpus.ts";
import { writeVariedCorpus } from "./_varied_corpus.ts";
import { writeHeldoutCorpus } from "./_heldout_corpus.ts";
import { rng } from "../conformance/_corpus.ts";
import { createHash } from "node:crypto";
import { ScoreKernel } from "../../src/evaluation/_score_kernel.ts";
import { stringValueRanges } from "../../src/jsonl/mod.ts";

interface Outcome {
  report?: string;
  error?: string;
}

const WASM = createEngine({ engine: "wasm" });
const decoder = new TextDecoder();

/** Scores in-memory files with scoreJsonl; the report's text or the error's name and text. */
async function run(
  files: Record<string, string | Uint8Array>,
  options: { engine?: Engine; kernel?: boolean } = {},
): Promise<Outcome & { handedBack?: ScoreJsonlResult["handedBack"] }> {
  const bytes = (name: string) => {
    const body = files[name];
    return typeof body === "string" ? new TextEncoder().encode(body) : body;
  };
  try {
    const r = await scoreJsonl(
      {
        examples: bytes("examples")!,
        generations: bytes("generations")!,
        prompts: bytes("prompts"),
      },
      {
        engine: options.engine ?? WASM,
        kernel: options.kernel,
        names: {
          examples: "examples.jsonl",
          generations: "generations.jsonl",
          prompts: "prompts.jsonl",
        },
      },
    );
    return { report: decoder.decode(r.bytes), handedBack: r.handedBack };
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

/** Scores with the kernel and with the general reader; returns both and where the kernel gave back. */
async function both(files: Record<string, string | Uint8Array>) {
  const { handedBack: bail, ...fast } = await run(files);
  const { handedBack: _, ...general } = await run(files, { kernel: false });
  return { fast, general, bail };
}

/** A corpus's files, read into memory. */
async function readCorpus(files: { examples: string; generations: string; prompts?: string }) {
  const out: Record<string, Uint8Array> = {
    examples: await Deno.readFile(files.examples),
    generations: await Deno.readFile(files.generations),
  };
  if (files.prompts) out.prompts = await Deno.readFile(files.prompts);
  return out;
}

Deno.test("the kernel takes seeded corpora whole and writes the general reader's report byte for byte", async (t) => {
  const cases = [
    { seed: 11, count: 3000, prompts: true, lineNoise: false },
    { seed: 12, count: 3000, prompts: false, lineNoise: true },
    { seed: 13, count: 2000, prompts: true, lineNoise: true, outputBytes: 900 },
    { seed: 14, count: 2000, prompts: true, lineNoise: false, fuzzRate: 0.5, hostileGoldRate: 0.3 },
  ];
  for (const c of cases) {
    await t.step(`seed ${c.seed}`, async () => {
      const dir = await Deno.makeTempDir({ prefix: "assay_kernel_corpus_" });
      const files = await readCorpus(await writeScoreCorpus(dir, c));
      const { fast, general, bail } = await both(files);
      strictEqual(bail, undefined, `the kernel gave the run back: ${JSON.stringify(bail)}`);
      ok(fast.report !== undefined, fast.error);
      strictEqual(fast.report, general.report);
      const ts = await run(files, { engine: createEngine({ engine: "ts" }) });
      strictEqual(ts.report, fast.report!.replace('"engine": "wasm"', '"engine": "ts"'));
      await Deno.remove(dir, { recursive: true });
    });
  }
  // Outputs written as the JSON value itself (an API's whole response), read as canonical text.
  await t.step("varied seed 15, a third of the outputs written as JSON values", async () => {
    const dir = await Deno.makeTempDir({ prefix: "assay_kernel_corpus_" });
    const spec = { seed: 15, count: 3000, wholeOutputs: 0.33 };
    const files = await readCorpus(await writeVariedCorpus(dir, spec));
    const text = new TextDecoder().decode(files.generations);
    ok(/"output": ?[[{]/.test(text), "no output is written as a JSON value");
    const { fast, general, bail } = await both(files);
    strictEqual(bail, undefined, `the kernel gave the run back: ${JSON.stringify(bail)}`);
    ok(fast.report !== undefined, fast.error);
    strictEqual(fast.report, general.report);
    await Deno.remove(dir, { recursive: true });
  });
  await t.step("held-out seed 16", async () => {
    const dir = await Deno.makeTempDir({ prefix: "assay_kernel_corpus_" });
    const files = await readCorpus(await writeHeldoutCorpus(dir, { seed: 16, count: 3000 }));
    const { fast, general, bail } = await both(files);
    strictEqual(bail, undefined, `the kernel gave the run back: ${JSON.stringify(bail)}`);
    ok(fast.report !== undefined, fast.error);
    strictEqual(fast.report, general.report);
    await Deno.remove(dir, { recursive: true });
  });
});

Deno.test("the kernel agrees with the general reader on 24 small seeded corpora", async () => {
  for (let k = 0; k < 24; k++) {
    const dir = await Deno.makeTempDir({ prefix: "assay_kernel_small_" });
    const files = await readCorpus(
      await writeScoreCorpus(dir, {
        seed: 1000 + k,
        count: 40 + 16 * k,
        prompts: k % 2 === 0,
        lineNoise: k % 3 === 0,
        fuzzRate: 0.3,
        hostileGoldRate: 0.25,
        dropRate: 0.1,
      }),
    );
    const { fast, general, bail } = await both(files);
    strictEqual(bail, undefined, `seed ${1000 + k}: ${JSON.stringify(bail)}`);
    strictEqual(fast.report, general.report, `seed ${1000 + k}`);
    await Deno.remove(dir, { recursive: true });
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
  // A target that is dropped leaves the run with nothing scored, which is refused: the second
  // example is scored.
  const withPair = (f: { examples: string; generations: string }) => ({
    examples: f.examples + pair + "\n",
    generations: f.generations + gen2 + "\n",
  });
  const cases: {
    name: string;
    files: Record<string, string | Uint8Array>;
    kernel: boolean; // the kernel takes the run
  }[] = [
    { name: "the base case", files: base(), kernel: true },
    // Targets: the line scan parses a container target's raw bytes with every check (UTF-8 and
    // the line's nesting included), up to its line's end.
    {
      name: "a target nested 511 deep (512 with the line's object)",
      files: withPair(base({ target: "[".repeat(511) + "]".repeat(511) })),
      kernel: true,
    },
    {
      name: "a target nested 512 deep (513 with the line's object)",
      files: base({ target: "[".repeat(512) + "]".repeat(512) }),
      kernel: false,
    },
    {
      name: "a target with a raw tab in a string",
      files: base({ target: '{"name":"f","arguments":{"a":"x\ty"}}' }),
      kernel: false,
    },
    {
      name: "a target whose brackets do not match",
      files: base({ target: '{"name":"f","arguments":{"a":[1}]}' }),
      kernel: false,
    },
    {
      name: "a target with two values in a row",
      files: base({ target: '{"name":"f","arguments":{"a":1 2}}' }),
      kernel: false,
    },
    {
      name: "a target with an integer of 4,301 digits",
      files: base({ target: `{"name":"f","arguments":{"a":${"7".repeat(4301)}}}` }),
      kernel: false,
    },
    {
      name: "a target with an integer of 4,300 digits",
      files: base({ target: `{"name":"f","arguments":{"a":${"7".repeat(4300)}}}` }),
      kernel: true,
    },
    {
      name: "a target with a bracket and an escaped quote inside strings",
      files: base({ target: '{"name":"f","arguments":{"a":"}\\"]","b\\\\":"["}}' }),
      kernel: true,
    },
    {
      name: "a target whose string runs to the line's end",
      files: {
        examples:
          '{"example_id":"e1","language":"en","target":{"name":"f","arguments":{"a":"x\\\n' +
          '"}}}\n',
        generations: base().generations,
      },
      kernel: false,
    },
    {
      name: "two target members (the last one counts)",
      files: {
        examples: '{"example_id":"e1","language":"en","target":{"name":"g","arguments":{}},' +
          '"target":{"name":"f","arguments":{"a":1}}}\n',
        generations: base().generations,
      },
      kernel: false,
    },
    {
      name: "an invalid first target member before a valid one",
      files: {
        examples: '{"example_id":"e1","language":"en","target":{"name":"g" "arguments":{}},' +
          '"target":{"name":"f","arguments":{"a":1}}}\n',
        generations: base().generations,
      },
      kernel: false,
    },
    {
      name: "a target with invalid UTF-8 in a key and in a value",
      files: {
        examples: new Uint8Array([
          ...new TextEncoder().encode(
            '{"example_id":"e1","language":"en","target":{"name":"f","arguments":{"a',
          ),
          0xc0,
          0xaf,
          ...new TextEncoder().encode('":"x'),
          0xed,
          0xa0,
          0x80,
          ...new TextEncoder().encode('"}}}\n'),
        ]),
        generations: base().generations,
      },
      kernel: false,
    },
    {
      name: "a target with valid UTF-8 of every length",
      files: base({ target: '{"name":"f","arguments":{"é東":"😀\u00e9","ü":["€𝄞"]}}' }),
      kernel: true,
    },
    {
      name: "a one-call list target",
      files: base({ target: '[{"name":"f","arguments":{"a":1}}]' }),
      kernel: true,
    },
    { name: "an empty list target", files: withPair(base({ target: "[]" })), kernel: true },
    {
      name: "a list of two calls",
      files: withPair(
        base({ target: '[{"name":"f","arguments":{}},{"name":"g","arguments":{"x":[]}}]' }),
      ),
      kernel: true,
    },
    {
      name: "a list with a non-call",
      files: withPair(base({ target: '[{"name":"f","arguments":{}},1]' })),
      kernel: true,
    },
    {
      name: "a string target",
      files: withPair(base({ target: '"{\\"name\\":\\"f\\",\\"arguments\\":{}}"' })),
      kernel: true,
    },
    { name: "a number target", files: withPair(base({ target: "1e5" })), kernel: true },
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
      name: "an output written as a JSON object (a call, lexemes kept)",
      files: {
        ...base(),
        generations: `{"example_id":"e1","prompt_sha256":"${SHA}",` +
          '"output":{"arguments":{"a":1.0,"b":[1E2,"\\u00e9"]},"name":"f"}}\n',
      },
      kernel: true,
    },
    {
      name: "an output written as a JSON array, and an API response",
      files: {
        examples: base().examples + pair + "\n",
        generations: `{"output":[{"name":"f","arguments":{"a":1}}],"prompt_sha256":"${SHA}",` +
          `"example_id":"e1"}\n{"example_id":"e2","prompt_sha256":"${SHA}","output":` +
          '{"choices":[{"message":{"role":"assistant","content":null}}]}}\n',
      },
      kernel: true,
    },
    {
      name: "an output written as a JSON value holding invalid UTF-8",
      files: {
        ...base(),
        generations: new Uint8Array([
          ...new TextEncoder().encode(`{"example_id":"e1","prompt_sha256":"${SHA}","output":["`),
          0xff,
          ...new TextEncoder().encode('"]}\n'),
        ]),
      },
      kernel: false,
    },
    {
      name: "an output written as a JSON value whose canonical text outgrows the kernel's room",
      files: {
        ...base(),
        generations: `{"example_id":"e1","prompt_sha256":"${SHA}","output":[${
          "1e15,".repeat(20)
        }1]}\n`,
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
  /** The base files with this manifest, the generation's digest the prompt's. */
  const withManifest = (prompts: string) => ({
    examples: withPrompt.examples,
    generations: withPrompt.generations.replace(SHA, sha256Hex(text)),
    prompts,
  });
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
      // A subset of the examples scored against the whole manifest: rows of no example are
      // checked, and their ids must not repeat.
      name: "a prompt row for an unknown id",
      files: withManifest(
        prompt("e1", text) + "\n" + prompt("zz", text) + "\n" +
          row({ example_id: "zy", prompt_sha256: SHA }) + "\n",
      ),
      kernel: true,
    },
    {
      name: "two prompt rows for one unknown id",
      files: withManifest(
        prompt("zz", text) + "\n" + prompt("e1", text) + "\n" +
          row({ example_id: "zz", prompt_sha256: SHA }) + "\n",
      ),
      kernel: false,
    },
    {
      name: "two prompt rows for one unknown id, one of them escaped",
      files: withManifest(
        prompt("e1", text) + "\n" + prompt("zz", text) + "\n" +
          `{"example_id":"z\\u007a","prompt_sha256":"${SHA}"}\n`,
      ),
      kernel: false,
    },
    {
      name: "a prompt row for an unknown id, its prompt not its digest's",
      files: withManifest(prompt("e1", text) + "\n" + prompt("zz", text, SHA) + "\n"),
      kernel: false,
    },
  );
  for (const c of cases) {
    await t.step(c.name, async () => {
      const { fast, general, bail } = await both(c.files);
      assertEquals(fast, general);
      // An error is always worded by the general reader: the kernel gave the run back.
      const took = bail === undefined && fast.error === undefined;
      strictEqual(took, c.kernel, `bail: ${JSON.stringify(bail)}, error: ${fast.error}`);
    });
  }
});

Deno.test("the kernel agrees with the general reader on 70,000 distinct 17-digit floats", async () => {
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
  const { fast, general, bail } = await both({
    examples: examples.join("\n") + "\n",
    generations: generations.join("\n") + "\n",
  });
  strictEqual(bail, undefined);
  ok(fast.report);
  strictEqual(fast.report, general.report);
});

Deno.test("the kernel never reads a target across a line feed, on 200 seeded files", async () => {
  // Each file's examples are whole but for one target, cut by a line feed between two of its
  // tokens: the rest of it (and of its line) is the next line, and together they would parse.
  const random = rng(20261204);
  const int = (n: number) => Math.floor(random() * n);
  const value = (depth: number): unknown => {
    const k = int(depth > 2 ? 4 : 6);
    if (k === 0) return int(1000) - 500;
    if (k === 1) return int(2) === 0 ? 1.5 : "w" + int(50);
    if (k === 2) return null;
    if (k === 3) return true;
    if (k === 4) return Array.from({ length: int(3) }, () => value(depth + 1));
    return Object.fromEntries(
      Array.from({ length: int(3) }, (_, i) => ["k" + i, value(depth + 1)]),
    );
  };
  for (let file = 0; file < 200; file++) {
    const count = 1 + int(4);
    const cut = int(count);
    const examples: string[] = [];
    let generations = "";
    for (let i = 0; i < count; i++) {
      const id = `e${i}`;
      let target = JSON.stringify(call("f" + int(3), value(0)), null, int(2) === 0 ? undefined : 1)
        .replaceAll("\n", " ");
      if (i === cut) {
        // After a `{`, `[`, `:` or `,` of the target's (its strings hold none).
        const at = [...target].flatMap((c, j) => "{[:,".includes(c) ? [j + 1] : []);
        const j = at[int(at.length)]!;
        target = target.slice(0, j) + "\n" + target.slice(j);
      }
      const tail = int(2) === 0 ? "" : `,"root_id":null`;
      examples.push(`{"example_id":"${id}","language":"en","target":${target}${tail}}`);
      generations += row({ example_id: id, prompt_sha256: SHA, output: JSON.stringify(value(0)) }) +
        "\n";
    }
    const text = examples.join("\n") + "\n";
    const bytes = new TextEncoder().encode(text);
    const kernel = new ScoreKernel(WASM.wasmModule!, false);
    kernel.input(bytes.length).set(bytes);
    const bail = kernel.examples(bytes.length, 1);
    ok(bail, `file ${file}: the kernel read a target across a line feed`);
    strictEqual(bail.line, cut + 1, bail.reason);
    const { fast, general } = await both({ examples: text, generations });
    ok(general.error, `file ${file}: the general reader read it`);
    assertEquals(fast, general, `file ${file}`);
  }
});

Deno.test("the kernel reads a line longer than its read chunk", async () => {
  const output = "x".repeat(9 << 20) + '{"name":"f","arguments":{"a":1}}';
  const files = base({ output });
  files.examples = base().examples.repeat(1) +
    row({ example_id: "e2", language: "de", target: call("g", {}) });
  files.generations += row({ example_id: "e2", prompt_sha256: SHA, output: "y".repeat(5 << 20) });
  const { fast, general, bail } = await both(files);
  strictEqual(bail, undefined);
  ok(fast.report);
  strictEqual(fast.report, general.report);
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
      const { fast, general, bail } = await both(files);
      assertEquals(fast, general);
      if (bail === undefined && fast.error === undefined) kernelTook++;
    });
  }
  // Valid cases are taken, not all given back.
  ok(kernelTook > 10, `the kernel took ${kernelTook} of 120`);
});

Deno.test("the kernel checks manifest rows of no example across its chunks, as the general reader does", async () => {
  // A subset of the examples scored against a manifest of 40,000 rows (several of the kernel's
  // chunks): the rows of no example are checked, and a repeated id is found whatever chunks
  // its rows are in.
  const ids = ["e1", "e2", "e3"];
  const examples = ids.map((id) => row({ example_id: id, language: "en", target: call("f", {}) }));
  const generations = ids.map((id) =>
    row({ example_id: id, prompt_sha256: sha256Hex(id), output: call("f", {}) })
  );
  const manifest = (id: string) =>
    row({ example_id: id, prompt_sha256: sha256Hex(id), prompt: id, note: "·".repeat(40) });
  const rows = Array.from({ length: 40_000 }, (_, k) => manifest(`x${k}`));
  rows.splice(20_000, 0, ...ids.map(manifest));
  const files = (prompts: string[]) => ({
    examples: examples.join("\n") + "\n",
    generations: generations.join("\n") + "\n",
    prompts: prompts.join("\n") + "\n",
  });
  ok(files(rows).prompts.length > 3 << 20, "the manifest spans several chunks");
  const taken = await both(files(rows));
  strictEqual(taken.bail, undefined, JSON.stringify(taken.bail));
  ok(taken.fast.report !== undefined, taken.fast.error);
  strictEqual(taken.fast.report, taken.general.report);
  for (const [first, second] of [[5, 39_990], [17, 18], [39_998, 39_999]]) {
    const repeated = [...rows];
    repeated[second!] = manifest(`x${first}`);
    // The kernel gives the run back; the general reader words the error (an error ends the run,
    // so no hand-back is reported).
    const { fast, general } = await both(files(repeated));
    ok(general.error?.includes("duplicate"), general.error);
    strictEqual(fast.error, general.error);
  }
});

Deno.test("the kernel gives back a prompts file at the line one-at-a-time checking would", async (t) => {
  // The prompts of a batch of lines are hashed together after the batch's other checks: the
  // line given back must still be the first failing one in file order, whatever fails after it.
  const ids = Array.from({ length: 80 }, (_, k) => `e${k}`);
  const examples = ids.map((id) => row({ example_id: id, language: "en", target: call("f", {}) }))
    .join("\n") + "\n";
  const text = (k: number) => `prompt ${k} `.repeat(k % 23);
  type Line = { id?: string; text?: string; sha?: string; raw?: string };
  const good = (k: number): Line => ({ id: ids[k]!, text: text(k) });
  const lineOf = (l: Line) =>
    l.raw ?? row({
      example_id: l.id,
      prompt_sha256: l.sha ?? sha256Hex(l.text ?? ""),
      ...(l.text === undefined ? {} : { prompt: l.text }),
    });
  const wrong = (k: number): Line => ({ ...good(k), sha: sha256Hex(text(k) + "!") });
  const cases: {
    name: string;
    bend: Record<number, Line>;
    want?: { reason: string; line: number };
  }[] = [
    { name: "every prompt matching", bend: {} },
    { name: "one mismatch", bend: { 4: wrong(4) }, want: { reason: "digest", line: 5 } },
    {
      name: "a mismatch, then an unknown id",
      bend: { 4: wrong(4), 8: { id: "zz", text: "x" } },
      want: { reason: "digest", line: 5 },
    },
    {
      // A row of no example is checked as the others are (its id is only noted).
      name: "an unknown id, then a mismatch",
      bend: { 8: { id: "zz", text: "x" }, 20: wrong(20) },
      want: { reason: "digest", line: 21 },
    },
    {
      name: "an unknown id whose prompt is not its digest's",
      bend: { 8: { id: "zz", text: "x", sha: sha256Hex("y") } },
      want: { reason: "digest", line: 9 },
    },
    {
      // A repeated id among rows of no example is found once the chunk is read: it stands at
      // the chunk's first line, after any other failure in the chunk.
      name: "an unknown id twice",
      bend: { 8: { id: "zz" }, 60: { id: "zz", text: "x" } },
      want: { reason: "duplicate", line: 1 },
    },
    {
      name: "an unknown id twice, then a mismatch",
      bend: { 8: { id: "zz" }, 60: { id: "zz" }, 70: wrong(70) },
      want: { reason: "digest", line: 71 },
    },
    {
      name: "two mismatches",
      bend: { 2: wrong(2), 3: wrong(3) },
      want: { reason: "digest", line: 3 },
    },
    {
      name: "a mismatch, then a duplicate, in the second batch",
      bend: { 33: wrong(33), 39: good(35) },
      want: { reason: "digest", line: 34 },
    },
    {
      name: "a mismatch, then a lone surrogate",
      bend: {
        6: wrong(6),
        11: {
          id: ids[11],
          raw: `{"example_id":"e11","prompt_sha256":"${"a".repeat(64)}","prompt":"\\ud800"}`,
        },
      },
      want: { reason: "digest", line: 7 },
    },
    {
      name: "a mismatch, then a malformed digest",
      bend: { 5: wrong(5), 9: { ...good(9), sha: "A".repeat(64) } },
      want: { reason: "digest", line: 6 },
    },
    {
      name: "a mismatch on a batch's last line, then a prompt that is not a string",
      bend: {
        31: wrong(31),
        32: { raw: `{"example_id":"e32","prompt_sha256":"${"a".repeat(64)}","prompt":1}` },
      },
      want: { reason: "digest", line: 32 },
    },
    {
      name: "a duplicate on a batch's last line, then a mismatch",
      bend: { 31: good(3), 32: wrong(32) },
      want: { reason: "duplicate", line: 32 },
    },
    {
      name: "a mismatch, then a line that is not JSON, in one batch (the scan stops first)",
      bend: { 40: wrong(40), 50: { raw: "{nope" } },
      want: { reason: "strictly", line: 51 },
    },
    {
      name: "rows without a prompt around a mismatch",
      bend: { 1: { id: ids[1] }, 2: wrong(2), 3: { id: ids[3] } },
      want: { reason: "digest", line: 3 },
    },
    {
      name: "a mismatch on the last line",
      bend: { 79: wrong(79) },
      want: { reason: "digest", line: 80 },
    },
  ];
  const engine = createEngine({ engine: "wasm" });
  const encoder = new TextEncoder();
  for (const c of cases) {
    await t.step(c.name, () => {
      const kernel = new ScoreKernel(engine.wasmModule!, true);
      const ex = encoder.encode(examples);
      kernel.input(ex.length).set(ex);
      strictEqual(kernel.examples(ex.length, 1), undefined);
      strictEqual(kernel.freeze(), undefined);
      const lines = ids.map((_, k) => lineOf(c.bend[k] ?? good(k)));
      const bytes = encoder.encode(lines.join("\n") + "\n");
      kernel.input(bytes.length).set(bytes);
      const bail = kernel.prompts(bytes.length, 1);
      if (c.want === undefined) {
        strictEqual(bail, undefined);
        return;
      }
      ok(bail !== undefined, "the kernel took a prompts file it should give back");
      strictEqual(bail.line, c.want.line, bail.reason);
      ok(bail.reason.includes(c.want.reason), bail.reason);
    });
  }
});

Deno.test("the kernel holds about 64 bytes per example beside its id, language and gold, and no records or outputs", () => {
  // Two runs of n and 5n examples with 1 KB outputs: what the kernel keeps once it has read them
  // all (up to where the next chunk would go) is the entries (a 32-byte head, the strings, the
  // gold block) and the tables (the id table's 8-byte slots, at most half full); no output and
  // no record stays. Linear memory itself grows by a quarter at least each time, and by the
  // regions of a chunk, which do not grow with n.
  const encoder = new TextEncoder();
  const prose = "The user wants the forecast, so I will call the tool. ".repeat(18);
  const memoryAfter = (n: number) => {
    const kernel = new ScoreKernel(WASM.wasmModule!, false);
    const feed = (lines: string[], run: (len: number, first: number) => unknown) => {
      for (let i = 0; i < lines.length; i += 4000) {
        const bytes = encoder.encode(lines.slice(i, i + 4000).join("\n") + "\n");
        kernel.input(bytes.length).set(bytes);
        strictEqual(run(bytes.length, i + 1), undefined);
      }
    };
    let inputs = 0;
    const examples = Array.from({ length: n }, (_, i) => {
      const target = { name: "get_weather", arguments: { city: `City ${i % 997}`, days: 3 } };
      // id, language, and the gold block: 12 bytes, the name literal, the canonical arguments.
      const id = `ex-${i}`;
      inputs += id.length + 2 + 12 + 13 + JSON.stringify(target.arguments).length + 6;
      return JSON.stringify({ example_id: id, language: "en", target });
    });
    feed(examples, (l, f) => kernel.examples(l, f));
    strictEqual(kernel.freeze(), undefined);
    feed(
      examples.map((_, i) =>
        JSON.stringify({
          example_id: `ex-${i}`,
          prompt_sha256: SHA,
          output: `${prose} {"name":"get_weather","arguments":{"city":"City ${i % 997}","days":3}}`,
        })
      ),
      (l, f) => kernel.generations(l, f),
    );
    const report = kernel.finish("wasm", {});
    ok(!("reason" in report));
    strictEqual(report.n, n);
    let recordBytes = 0;
    for (const chunk of kernel.records()) recordBytes += chunk.length;
    ok(recordBytes > 150 * n, "the records were written");
    // The kernel's linear memory, seen through a view of it.
    const view = kernel.input(0);
    return { bytes: view.byteOffset, memory: view.buffer.byteLength, inputs };
  };
  const n = 20_000;
  const small = memoryAfter(n);
  const large = memoryAfter(5 * n);
  const perExample = (large.bytes - small.bytes) / (4 * n);
  const inputsPerExample = (large.inputs - small.inputs) / (4 * n);
  const state = perExample - inputsPerExample;
  console.log(
    `linear memory: ${perExample.toFixed(1)} bytes per example, of which ${
      inputsPerExample.toFixed(1)
    } are its id, language and gold and ${state.toFixed(1)} the rest`,
  );
  // A 32-byte head and 16 to 32 bytes of id table: 64 or less.
  ok(state <= 64, `${state.toFixed(1)} bytes of state per example`);
  // The records (over 150 bytes each) and the outputs (1 KB each) would double it and more.
  ok(large.memory < 2 * large.bytes + (64 << 20), `linear memory of ${large.memory} bytes`);
});

Deno.test("invalid UTF-8 in half the outputs: kernel and general reader agree, and count them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "assay_kernel_utf8_" });
  const files = await readCorpus(
    await writeScoreCorpus(dir, { seed: 77, count: 1500, prompts: true, lineNoise: true }),
  );
  await Deno.remove(dir, { recursive: true });
  const r = rng(78);
  const soup = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80], [
    0x80,
  ]];
  const lines: Uint8Array[] = [];
  let corrupted = 0;
  let start = 0;
  const g = files.generations!;
  while (start < g.length) {
    let nl = g.indexOf(10, start);
    if (nl < 0) nl = g.length;
    const line = g.subarray(start, nl);
    const ranges = stringValueRanges(line, ["output"]);
    if (ranges.length > 0 && r() < 0.5) {
      const [s, e] = ranges.at(-1)!;
      // At either end of the literal: never inside an escape.
      const at = r() < 0.5 ? s : e;
      const bad = soup[Math.floor(r() * soup.length)]!;
      lines.push(new Uint8Array([...line.subarray(0, at), ...bad, ...line.subarray(at)]));
      corrupted++;
    } else lines.push(line);
    start = nl + 1;
  }
  const joined = new Uint8Array(lines.reduce((n, l) => n + l.length + 1, 0));
  let at = 0;
  for (const l of lines) {
    joined.set(l, at);
    joined[at + l.length] = 10;
    at += l.length + 1;
  }
  const broken = { ...files, generations: joined };
  const { fast, general, bail } = await both(broken);
  strictEqual(bail, undefined, `the kernel gave the run back: ${JSON.stringify(bail)}`);
  ok(fast.report !== undefined, fast.error);
  strictEqual(fast.report, general.report);
  strictEqual(JSON.parse(fast.report!).inputs.generations.invalid_utf8_outputs, corrupted);
  ok(corrupted > 600, `${corrupted} outputs corrupted`);
  // The same bytes in an id instead: an input error at its file, line and byte, on both readers.
  const id = new TextEncoder().encode('"example_id"');
  const first = joined.indexOf(10);
  const line0 = joined.subarray(0, first);
  let k = 0;
  while (k < line0.length && !id.every((b, j) => line0[k + j] === b)) k++;
  const q = line0.indexOf(0x22, line0.indexOf(0x3a, k + id.length)) + 1;
  const badId = new Uint8Array([...joined.subarray(0, q), 0xff, ...joined.subarray(q)]);
  const a = await run({ ...files, generations: badId });
  const b = await run({ ...files, generations: badId }, { kernel: false });
  strictEqual(a.error, b.error);
  strictEqual(
    a.error,
    `InvalidUtf8Error: generations.jsonl:1: invalid UTF-8 at byte ${q} of the line (byte ${q} of the file)`,
  );
});

Deno.test("invalid_utf8_outputs counts lines: an earlier, duplicate output's invalid UTF-8 too, on both readers", async () => {
  const f = base();
  const enc = new TextEncoder();
  const line = (first: string) =>
    enc.encode(`{"example_id":"e1","prompt_sha256":"${SHA}","output":"${first}`);
  const tail = enc.encode(`","output":${JSON.stringify('{"name":"f","arguments":{"a":1}}')}}\n`);
  for (const [bad, count] of [[[0xff], 1], [[], 0]] as const) {
    const generations = new Uint8Array([...line("x"), ...bad, ...tail]);
    const { fast, general, bail } = await both({ examples: f.examples, generations });
    strictEqual(bail, undefined, JSON.stringify(bail));
    strictEqual(fast.report, general.report, fast.error ?? general.error);
    const report = JSON.parse(fast.report!);
    // The last output is the one scored, and it holds none.
    strictEqual(report.records[0].status, "ok");
    strictEqual(report.inputs.generations.invalid_utf8_outputs, count);
  }
});
