// scoreJsonl on an adversarial corpus (tests/evaluation/_adversarial_corpus.ts), against the Python
// oracle (tests/evaluation/_score_oracle.py) and across every way of reading it:
//
// - the TS engine, the Wasm engine's scoring kernel and the Wasm engine's general reader
//   (`kernel: false`);
// - sources given as bytes, as ReadableStreams and async iterables cut into odd chunks (1 byte,
//   7 bytes, 65,537 bytes, just past 1 MiB, and at each line end and one byte either side of it),
//   as views into larger buffers between empty chunks, and as a function that opens a stream.
//
// Every run must give the same report bytes but for the `engine` field, and the oracle must agree on
// n, the drop summary, the parse-status counts, the slices, every metric's numerator and denominator
// (overall and per language) and every record. The clean corpora must stay on the kernel (no hand
// back), so that the kernel itself is what is compared; the hand-back corpora must be given back.
// The partial corpora run with `allowMissing`, and the oracle reads their examples without the
// ones that miss a generation. What the generator knows without scoring (dropped ids by reason,
// missing ids in code point order, rows, outputs with invalid UTF-8) is checked too. Last, a set of
// refusals (BOMs and NBSP where they do not belong, invalid UTF-8 outside an output, ids that only
// look alike, digests of another normal form, ...) must be refused alike by the oracle and by
// every engine, in the same words.
//
// Needs --allow-run (python3), --allow-read and --allow-write (a temp dir).
import { deepStrictEqual, fail, ok, strictEqual } from "node:assert/strict";
import {
  createEngine,
  InputError,
  InvariantViolation,
  type JsonlSource,
  type JsonlSources,
  scoreJsonl,
  type ScoreJsonlOptions,
} from "../../mod.ts";
import {
  type AdversarialCorpus,
  adversarialCorpus,
  type AdversarialOptions,
  bytesOf,
} from "./_adversarial_corpus.ts";

const ORACLE = new URL("./_score_oracle.py", import.meta.url).pathname;
const TS = createEngine({ engine: "ts" });
const WASM = createEngine({ engine: "wasm" });
const dec = new TextDecoder();

// deno-lint-ignore no-explicit-any
type Json = any;

// ------------------------------------------------------------------ sources cut into chunks

/** Chunk ends for `bytes`: a list of sizes used in turn, the first `head` bytes one at a time. */
function cycleCuts(bytes: Uint8Array, sizes: number[], head = 0): number[] {
  const cuts: number[] = [];
  let at = 0;
  while (at < head && at < bytes.length) cuts.push(++at);
  for (let i = 0; at < bytes.length; i++) {
    at = Math.min(bytes.length, at + sizes[i % sizes.length]!);
    cuts.push(at);
  }
  return cuts;
}

/** Chunk ends at each `\n`, and one byte before and after it. */
function lineCuts(bytes: Uint8Array): number[] {
  const cuts = new Set<number>();
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      for (const c of [i, i + 1, i + 2]) if (c > 0 && c <= bytes.length) cuts.add(c);
    }
  }
  cuts.add(bytes.length);
  return [...cuts].sort((a, b) => a - b);
}

function* slices(bytes: Uint8Array, cuts: number[]): Generator<Uint8Array> {
  let from = 0;
  for (const to of cuts) {
    if (to > from) yield bytes.slice(from, to);
    from = to;
  }
}

const stream = (bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> =>
  ReadableStream.from(slices(bytes, cuts));

async function* iterable(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  yield* slices(bytes, cuts);
}

type Shape = (bytes: Uint8Array) => JsonlSource;

const SHAPES: Record<string, Shape> = {
  bytes: (b) => b,
  "stream 1-byte head, then 7/65537/1/1MiB+1/13/65536/3": (b) =>
    stream(b, cycleCuts(b, [7, 65537, 1, (1 << 20) + 1, 13, 65536, 3], 4096)),
  "stream cut at every line end and either side": (b) => stream(b, lineCuts(b)),
  "iterable 7-byte chunks for 200 KB, then 65537": (b) => {
    const cuts = cycleCuts(b.subarray(0, 200_000), [7]);
    const rest = cycleCuts(b.subarray(cuts.at(-1) ?? 0), [65537]).map((c) =>
      c + (cuts.at(-1) ?? 0)
    );
    return iterable(b, [...cuts, ...rest]);
  },
  "function opening a stream of 65537-byte chunks": (b) => () => stream(b, cycleCuts(b, [65537])),
  "stream of views into larger buffers, between empty chunks": (b) =>
    ReadableStream.from(
      (function* () {
        for (const chunk of slices(b, cycleCuts(b, [4099, 70001]))) {
          yield new Uint8Array(0);
          // The chunk sits inside a buffer of "{" bytes: only the view's bytes are the source's.
          const buffer = new Uint8Array(chunk.length + 16).fill(0x7b);
          buffer.set(chunk, 8);
          yield buffer.subarray(8, 8 + chunk.length);
        }
        yield new Uint8Array(0);
      })(),
    ),
};

interface Mode {
  label: string;
  options: ScoreJsonlOptions;
  shape: string;
  /** Whether this run is on the scoring kernel. */
  kernel: boolean;
}

const MODES: Mode[] = [
  { label: "ts", options: { engine: TS }, shape: "bytes", kernel: false },
  {
    label: "ts",
    options: { engine: TS },
    shape: "stream cut at every line end and either side",
    kernel: false,
  },
  {
    label: "wasm general",
    options: { engine: WASM, kernel: false },
    shape: "bytes",
    kernel: false,
  },
  ...Object.keys(SHAPES).map((shape) => ({
    label: "wasm kernel",
    options: { engine: WASM },
    shape,
    kernel: true,
  })),
];

function sourcesOf(c: AdversarialCorpus, shape: Shape): JsonlSources {
  const s: JsonlSources = { examples: shape(c.examples), generations: shape(c.generations) };
  if (c.prompts) s.prompts = shape(c.prompts);
  return s;
}

// ------------------------------------------------------------------ the oracle

async function oracle(
  c: AdversarialCorpus,
  dir: string,
): Promise<{ code: number; out?: Json; stderr: string }> {
  // With missing generations, the oracle (which has no partial runs) reads the examples file
  // without the examples that miss theirs.
  await Deno.writeFile(`${dir}/examples.jsonl`, c.scored ?? c.examples);
  await Deno.writeFile(`${dir}/generations.jsonl`, c.generations);
  const args = [
    ORACLE,
    "--examples",
    `${dir}/examples.jsonl`,
    "--generations",
    `${dir}/generations.jsonl`,
  ];
  if (c.prompts) {
    await Deno.writeFile(`${dir}/prompts.jsonl`, c.prompts);
    args.push("--prompts", `${dir}/prompts.jsonl`);
  }
  args.push("--records", "--out", `${dir}/oracle.json`);
  const r = await new Deno.Command("python3", { args, stdout: "piped", stderr: "piped" }).output();
  const stderr = dec.decode(r.stderr);
  if (r.code !== 0) return { code: r.code, stderr };
  return { code: 0, out: JSON.parse(await Deno.readTextFile(`${dir}/oracle.json`)), stderr };
}

/** The parts of a report the oracle also computes. */
const comparable = (r: Json) => ({
  n: r.n,
  drop_summary: r.drop_summary,
  parse_status_counts: r.parse_status_counts,
  slices: r.slices,
  metrics: r.metrics,
});

/** The first records that differ, side by side. */
function recordDiff(a: Json[], o: Json[]): string {
  const lines = [`records: assay ${a.length}, oracle ${o.length}`];
  for (let i = 0, shown = 0; i < Math.max(a.length, o.length) && shown < 5; i++) {
    if (JSON.stringify(a[i]) !== JSON.stringify(o[i])) {
      lines.push(
        `  assay  ${JSON.stringify(a[i]).slice(0, 600)}`,
        `  oracle ${JSON.stringify(o[i]).slice(0, 600)}`,
      );
      shown++;
    }
  }
  return lines.join("\n");
}

// ------------------------------------------------------------------ the corpora

const CORPORA: (AdversarialOptions & { label: string })[] = [
  { label: "clean, with prompts", seed: 7001, count: 1200, bigLines: 2 },
  { label: "clean, no prompts", seed: 7002, count: 1200, bigLines: 1, prompts: false },
  { label: "hand-back", seed: 7003, count: 900, bigLines: 1, handback: true },
  { label: "partial (allowMissing)", seed: 7004, count: 900, bigLines: 1, missing: 0.15 },
  {
    label: "partial, hand-back",
    seed: 7005,
    count: 600,
    bigLines: 0,
    handback: true,
    missing: 0.15,
  },
];

for (const spec of CORPORA) {
  Deno.test(`scoreJsonl on the adversarial corpus (${spec.label}, seed ${spec.seed}) agrees with the oracle on every engine and source shape`, async () => {
    const corpus = adversarialCorpus(spec);
    const dir = await Deno.makeTempDir({ prefix: "assay_adversarial_" });
    try {
      // The lines past the kernel's 1 MiB chunk are there (each file's longest line).
      const longest = (b: Uint8Array) => {
        let most = 0;
        for (let at = 0, nl = 0; at < b.length; at = nl + 1) {
          nl = b.indexOf(10, at);
          if (nl < 0) nl = b.length;
          most = Math.max(most, nl - at);
        }
        return most;
      };
      if (spec.bigLines) {
        ok(longest(corpus.examples) > 1 << 20, "an examples line of more than 1 MiB");
        ok(longest(corpus.generations) > 1 << 20, "a generations line of more than 1 MiB");
      }
      const o = await oracle(corpus, dir);
      if (o.code !== 0) fail(`the oracle refused the corpus: ${o.stderr}`);
      let first: { label: string; text: string } | undefined;
      for (const mode of MODES) {
        const label = `${mode.label} (${mode.shape})`;
        const options = spec.missing ? { ...mode.options, allowMissing: true } : mode.options;
        const result = await scoreJsonl(sourcesOf(corpus, SHAPES[mode.shape]!), options);
        if (mode.kernel) {
          if (spec.handback) {
            ok(result.handedBack, `${label}: the kernel took the hand-back corpus`);
          } else {strictEqual(
              result.handedBack,
              undefined,
              `${label}: ${JSON.stringify(result.handedBack)}`,
            );}
        }
        const text = dec.decode(result.bytes);
        const report = JSON.parse(text);
        strictEqual(report.engine, mode.label.startsWith("ts") ? "ts" : "wasm", label);
        // Byte for byte the same report, but for its engine field.
        const same = text.replace(/"engine": ?"(ts|wasm)"/, '"engine":"?"');
        if (first === undefined) first = { label, text: same };
        else if (same !== first.text) {
          let i = 0;
          while (same[i] === first.text[i]) i++;
          fail(
            `${label} and ${first.label} give different report bytes at ${i}:\n  ${
              same.slice(Math.max(0, i - 200), i + 200)
            }\n  ${first.text.slice(Math.max(0, i - 200), i + 200)}`,
          );
        }
        // What the generator knows without scoring.
        const x = corpus.expect;
        deepStrictEqual(report.dropped_ids, x.dropped, `${label}: dropped_ids`);
        deepStrictEqual(
          report.missing_generations,
          spec.missing ? { count: x.missing.length, ids: x.missing } : undefined,
          `${label}: missing_generations`,
        );
        deepStrictEqual(
          [
            report.inputs.examples.rows,
            report.inputs.generations.rows,
            report.inputs.prompts?.rows ?? 0,
          ],
          [x.rows.examples, x.rows.generations, x.rows.prompts],
          `${label}: rows`,
        );
        strictEqual(
          report.inputs.generations.invalid_utf8_outputs,
          x.invalidUtf8Outputs,
          `${label}: invalid_utf8_outputs`,
        );
        if (JSON.stringify(report.records) !== JSON.stringify(o.out.records)) {
          fail(
            `${label}: records differ from the oracle's\n${
              recordDiff(report.records, o.out.records)
            }`,
          );
        }
        deepStrictEqual(comparable(report), comparable(o.out), label);
      }
      const m = o.out.metrics.overall;
      const frac = (k: string) => `${m[k].numerator}/${m[k].denominator}`;
      console.log(
        `${spec.label}: ${
          corpus.examples.length + corpus.generations.length + (corpus.prompts?.length ?? 0)
        } bytes, ` +
          `n ${o.out.n}, dropped ${JSON.stringify(o.out.drop_summary)}, status ${
            JSON.stringify(o.out.parse_status_counts)
          }, ${o.out.slices.length} slices; valid ${frac("valid_json_rate")}, name ${
            frac("function_name_accuracy")
          }, args ${frac("argument_exact_match")}, f1 ${frac("argument_f1")}, full ${
            frac("full_call_exact_match")
          }\n` +
          `  generated: ${JSON.stringify(corpus.counts)}`,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

// ------------------------------------------------------------------ refusals

const H0 = "0".repeat(64);
/** SHA-256 of the UTF-8 of "caf\u00e9" (NFC). */
const SHA_CAFE_NFC = "850f7dc43910ff890f8879c0ed26fe697c93a067ad93a7d50f466a7028a9bf4e";
const CALL = '{"name":"f","arguments":{}}';
const ex = (id: string, lang = "en", target = CALL) =>
  `{"example_id":${JSON.stringify(id)},"language":${JSON.stringify(lang)},"target":${target}}`;
const gen = (id: string, output = CALL) =>
  `{"example_id":${JSON.stringify(id)},"prompt_sha256":"${H0}","output":${JSON.stringify(output)}}`;

interface Refusal {
  name: string;
  examples: Uint8Array;
  generations: Uint8Array;
  prompts?: Uint8Array;
  /** The oracle's kind of failure. */
  kind: "InputError" | "InvariantViolation";
}

const REFUSALS: Refusal[] = [
  {
    name: "a BOM at the start of a later line",
    examples: bytesOf(ex("a") + "\n\ufeff" + ex("b") + "\n"),
    generations: bytesOf(gen("a") + "\n" + gen("b") + "\n"),
    kind: "InputError",
  },
  {
    name: "two BOMs at the start of the file",
    examples: bytesOf("\ufeff\ufeff" + ex("a") + "\n"),
    generations: bytesOf(gen("a") + "\n"),
    kind: "InputError",
  },
  {
    name: "NBSP before a row",
    examples: bytesOf("\u00a0" + ex("a") + "\n"),
    generations: bytesOf(gen("a") + "\n"),
    kind: "InputError",
  },
  {
    name: 'language "overall" on a dropped row',
    examples: bytesOf(ex("a", "overall", "[]") + "\n" + ex("b") + "\n"),
    generations: bytesOf(gen("b") + "\n"),
    kind: "InputError",
  },
  {
    name: "invalid UTF-8 in an ignored field of a generation",
    examples: bytesOf(ex("a") + "\n"),
    generations: bytesOf(
      `{"example_id":"a","prompt_sha256":"${H0}","note":"`,
      [0xff],
      `","output":"x"}\n`,
    ),
    kind: "InputError",
  },
  {
    name: "invalid UTF-8 in an output nested below the top level",
    examples: bytesOf(ex("a") + "\n"),
    generations: bytesOf(
      `{"example_id":"a","prompt_sha256":"${H0}","m":{"output":"`,
      [0xe2, 0x82],
      `"},"output":"x"}\n`,
    ),
    kind: "InputError",
  },
  {
    name: "invalid UTF-8 in the key of the output",
    examples: bytesOf(ex("a") + "\n"),
    generations: bytesOf(
      `{"example_id":"a","prompt_sha256":"${H0}","outp`,
      [0xc0, 0x80],
      `ut":"x","output":"y"}\n`,
    ),
    kind: "InputError",
  },
  {
    name: "invalid UTF-8 in a language",
    examples: bytesOf(
      '{"example_id":"a","language":"e',
      [0xed, 0xa0, 0x80],
      `n","target":${CALL}}\n`,
    ),
    generations: bytesOf(gen("a") + "\n"),
    kind: "InputError",
  },
  {
    name: 'the same id spelled "a" and "\\u0061"',
    examples: bytesOf(
      ex("a") + '\n{"example_id":"\\u0061","language":"en","target":' + CALL + "}\n",
    ),
    generations: bytesOf(gen("a") + "\n"),
    kind: "InvariantViolation",
  },
  {
    name: "ids that differ only by NFC and NFD",
    examples: bytesOf(ex("\u00e9") + "\n"),
    generations: bytesOf(gen("e\u0301") + "\n"),
    kind: "InvariantViolation",
  },
  {
    name: "a lone surrogate id against U+FFFD",
    examples: bytesOf('{"example_id":"\\ud800","language":"en","target":' + CALL + "}\n"),
    generations: bytesOf(gen("\ufffd") + "\n"),
    kind: "InvariantViolation",
  },
  {
    name: "a last line cut short, without its newline",
    examples: bytesOf(ex("a") + "\n" + ex("b").slice(0, -3)),
    generations: bytesOf(gen("a") + "\n" + gen("b") + "\n"),
    kind: "InputError",
  },
  {
    name: "a prompt in NFD whose prompt_sha256 is its NFC form's",
    examples: bytesOf(ex("a") + "\n"),
    generations: bytesOf(gen("a").replace(H0, SHA_CAFE_NFC) + "\n"),
    prompts: bytesOf(
      `{"example_id":"a","prompt_sha256":"${SHA_CAFE_NFC}","prompt":"cafe\u0301"}\n`,
    ),
    kind: "InvariantViolation",
  },
  {
    name: "a manifest without the row of a generation",
    examples: bytesOf(ex("a") + "\n" + ex("b") + "\n"),
    generations: bytesOf(gen("a") + "\n" + gen("b") + "\n"),
    prompts: bytesOf(
      `{"example_id":"a","prompt_sha256":"${H0}"}\r\n{"example_id":"\u0062 ","prompt_sha256":"${H0}"}`,
    ),
    kind: "InvariantViolation",
  },
  {
    name: "a 4,301-digit integer in an ignored field",
    examples: bytesOf(ex("a").slice(0, -1) + ',"n":-' + "4".repeat(4301) + "}\n"),
    generations: bytesOf(gen("a") + "\n"),
    kind: "InputError",
  },
];

Deno.test("scoreJsonl and the oracle refuse each adversarial input alike, on every engine", async () => {
  const dir = await Deno.makeTempDir({ prefix: "assay_adversarial_refusals_" });
  try {
    for (const c of REFUSALS) {
      const sources = { examples: c.examples, generations: c.generations, prompts: c.prompts };
      const o = await oracle(sources as AdversarialCorpus, dir);
      strictEqual(o.code, 2, `${c.name}: the oracle exits ${o.code}`);
      ok(o.stderr.startsWith(`score_oracle: ${c.kind}: `), `${c.name}: ${o.stderr}`);
      const seen = new Set<string>();
      for (const mode of MODES.filter((m) => m.shape === "bytes")) {
        const e = await scoreJsonl(sources, mode.options).then(
          () => fail(`${c.name}: ${mode.label} scored it`),
          (e: Error) => e,
        );
        const want = c.kind === "InputError" ? InputError : InvariantViolation;
        ok(e instanceof want, `${c.name}: ${mode.label} threw ${e.name}: ${e.message}`);
        seen.add(`${e.name}: ${e.message}`);
      }
      strictEqual(
        seen.size,
        1,
        `${c.name}: the engines word it differently: ${[...seen].join(" | ")}`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
