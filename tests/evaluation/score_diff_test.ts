// `assay score` against an independent Python oracle (tests/evaluation/_score_oracle.py), end to end through
// the CLI: the same JSONL files in, and agreement required on n, drop_summary, parse-status counts,
// slices, every metric's numerator, denominator and value (overall and per language) and every
// per-example record, on both engines.
//
// 1. Seeded corpora from tests/evaluation/_score_corpus.ts, over 100,000 examples in all, and from
//    tests/evaluation/_varied_corpus.ts (the bench's held-out corpus: floats of every magnitude,
//    pretty-printed and compact JSON, non-ASCII keys, about half the outputs broken).
// 2. Each invariant class (and a few input errors): both sides exit 2 and no report is written.
// 3. Readings the texts leave open, one small input each (see the docstring of the oracle).
//
// Needs --allow-run (deno, python3), --allow-read, --allow-write (temp dirs).
import { deepStrictEqual, fail, match, strictEqual } from "node:assert/strict";
import { type ScoreCorpusOptions, writeScoreCorpus } from "./_score_corpus.ts";
import { type VariedCorpusOptions, writeVariedCorpus } from "./_varied_corpus.ts";
import { writeHeldoutCorpus } from "./_heldout_corpus.ts";

const DENO = Deno.execPath();
const CLI = new URL("../../cli/main.ts", import.meta.url).pathname;
const ORACLE = new URL("./_score_oracle.py", import.meta.url).pathname;
const dec = new TextDecoder();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(cmd: string, args: string[]): Promise<Run> {
  const out = await new Deno.Command(cmd, {
    args,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

interface Inputs {
  examples: string;
  generations: string;
  prompts?: string;
}

const fileArgs = (f: Inputs): string[] => [
  "--examples",
  f.examples,
  "--generations",
  f.generations,
  ...(f.prompts ? ["--prompts", f.prompts] : []),
];

/** `assay score --json --quiet` through the CLI, also writing `out`. */
function assay(f: Inputs, out: string, engine?: "wasm" | "ts"): Promise<Run> {
  return run(DENO, [
    "run",
    "-A",
    CLI,
    "score",
    ...fileArgs(f),
    "--out",
    out,
    "--json",
    "--quiet",
    ...(engine ? ["--engine", engine] : []),
  ]);
}

function oracle(f: Inputs, out?: string): Promise<Run> {
  return run("python3", [ORACLE, ...fileArgs(f), "--records", ...(out ? ["--out", out] : [])]);
}

// deno-lint-ignore no-explicit-any
type Json = any;

/** The parts of a report the oracle also computes. */
function comparable(r: Json) {
  return {
    n: r.n,
    drop_summary: r.drop_summary,
    parse_status_counts: r.parse_status_counts,
    slices: r.slices,
    metrics: r.metrics,
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The first few records that differ, with the input lines behind them. */
async function explain(f: Inputs, a: Json[], o: Json[]): Promise<string> {
  const lines: string[] = [`records: assay ${a.length}, oracle ${o.length}`];
  const ids = new Set<string>();
  for (let i = 0; i < Math.max(a.length, o.length) && ids.size < 5; i++) {
    if (JSON.stringify(a[i]) !== JSON.stringify(o[i])) {
      lines.push(`  assay  ${JSON.stringify(a[i])}`, `  oracle ${JSON.stringify(o[i])}`);
      ids.add((a[i] ?? o[i]).example_id);
    }
  }
  for (const path of [f.examples, f.generations]) {
    for (const line of (await Deno.readTextFile(path)).split("\n")) {
      for (const id of ids) {
        if (line.includes(JSON.stringify(id))) lines.push(`  ${path}: ${line.slice(0, 2000)}`);
      }
    }
  }
  return lines.join("\n");
}

// ------------------------------------------------------------------ 1. seeded corpora

const CORPORA: ScoreCorpusOptions[] = [
  { seed: 101, count: 35_000 },
  { seed: 202, count: 30_000, prompts: false },
  { seed: 303, count: 25_000, lineNoise: true, fuzzRate: 0.2, dropRate: 0.08 },
  { seed: 404, count: 12_000, outputBytes: 1500, hostileGoldRate: 0.15 },
];
const VARIED: VariedCorpusOptions[] = [
  { seed: 505, count: 8_000 },
  { seed: 606, count: 4_000, prompts: false },
  // Outputs written as the JSON value itself, an API's whole response (read as canonical text).
  { seed: 707, count: 6_000, wholeOutputs: 0.8 },
];
/** The held-out corpus, written without sight of the engine or the corpora above. */
const HELDOUT = [{ seed: 808, count: 6_000 }];
/** Each corpus: its label, its rows, and what writes it to a directory. */
const SOURCES = [
  ...CORPORA.map((spec) => ({
    label: `seed ${spec.seed}`,
    count: spec.count,
    write: (dir: string) => writeScoreCorpus(dir, spec),
  })),
  ...VARIED.map((spec) => ({
    label: `varied seed ${spec.seed}`,
    count: spec.count,
    write: (dir: string) => writeVariedCorpus(dir, spec),
  })),
  ...HELDOUT.map((spec) => ({
    label: `held-out seed ${spec.seed}`,
    count: spec.count,
    write: (dir: string) => writeHeldoutCorpus(dir, spec),
  })),
];

Deno.test("assay score agrees with the Python oracle on >100,000 examples of two corpora, on wasm and ts", async () => {
  const root = await Deno.makeTempDir({ prefix: "assay_score_diff_" });
  try {
    const files: (Inputs & { dir: string; label: string })[] = [];
    for (const [i, source] of SOURCES.entries()) {
      const dir = `${root}/corpus${i}`;
      await Deno.mkdir(dir);
      const f = await source.write(dir);
      files.push({ ...f, dir, label: source.label });
    }
    // Two chains on two cores: the oracle on each corpus, and Assay on each corpus and engine.
    const oracleChain = (async () => {
      const out: Json[] = [];
      for (const f of files) {
        const r = await oracle(f, `${f.dir}/oracle.json`);
        if (r.code !== 0) fail(`oracle failed on ${f.label}: ${r.stderr}`);
        out.push(JSON.parse(await Deno.readTextFile(`${f.dir}/oracle.json`)));
      }
      return out;
    })();
    const assayChain = (async () => {
      const out: Record<string, Json>[] = [];
      for (const f of files) {
        const byEngine: Record<string, Json> = {};
        for (const engine of ["wasm", "ts"] as const) {
          const path = `${f.dir}/report_${engine}.json`;
          const r = await assay(f, path, engine);
          if (r.code !== 0) {
            fail(`assay score --engine ${engine} failed on ${f.label}: ${r.stderr}`);
          }
          strictEqual(r.stdout, await Deno.readTextFile(path), "--json prints what --out writes");
          byEngine[engine] = JSON.parse(r.stdout);
        }
        out.push(byEngine);
      }
      return out;
    })();
    const [oracles, assays] = await Promise.all([oracleChain, assayChain]);
    let total = 0;
    for (let i = 0; i < files.length; i++) {
      const f = files[i]!;
      const o = oracles[i]!;
      for (const engine of ["wasm", "ts"]) {
        const a = assays[i]![engine];
        strictEqual(a.engine, engine);
        if (JSON.stringify(a.records) !== JSON.stringify(o.records)) {
          fail(
            `${f.label} --engine ${engine}: records differ\n${await explain(
              f,
              a.records,
              o.records,
            )}`,
          );
        }
        deepStrictEqual(comparable(a), comparable(o), `${f.label} --engine ${engine}`);
      }
      const rows = SOURCES[i]!.count;
      total += rows;
      const m = o.metrics.overall;
      const frac = (k: string) => `${m[k].numerator}/${m[k].denominator}`;
      console.log(
        `${f.label}: ${rows} examples, n ${o.n}, dropped ${JSON.stringify(o.drop_summary)}, ` +
          `status ${JSON.stringify(o.parse_status_counts)}, ${o.slices.length} slices; ` +
          `valid ${frac("valid_json_rate")}, name ${frac("function_name_accuracy")}, ` +
          `args ${frac("argument_exact_match")}, f1 ${frac("argument_f1")}, ` +
          `full ${frac("full_call_exact_match")}`,
      );
    }
    console.log(`${total} examples: wasm, ts and the oracle agree on every count and record`);
    strictEqual(total >= 100_000, true);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

// ------------------------------------------------------------------ small cases

const H0 = "0".repeat(64);
const H1 = "1".repeat(64);
const call = (name: string, args: unknown): string => JSON.stringify({ name, arguments: args });
const F = call("f", {});
const ex = (id: string, target: string, lang = "en", extra = ""): string =>
  `{"example_id":${JSON.stringify(id)},"language":${
    JSON.stringify(lang)
  },"target":${target}${extra}}`;
const gen = (id: string, output: string, extra = "", sha = H0): string =>
  `{"example_id":${JSON.stringify(id)},"prompt_sha256":"${sha}","output":${
    JSON.stringify(output)
  }${extra}}`;
const okGen = (id: string, sha = H0): string => gen(id, F, "", sha);
const manifest = (id: string, sha = H0, extra = ""): string =>
  `{"example_id":${JSON.stringify(id)},"prompt_sha256":"${sha}"${extra}}`;

interface Case {
  name: string;
  ex: string[];
  gen: string[];
  pr?: string[];
}

async function writeCase(dir: string, c: Case): Promise<Inputs> {
  await Deno.mkdir(dir, { recursive: true });
  const put = async (name: string, lines: string[]) => {
    await Deno.writeTextFile(`${dir}/${name}`, lines.map((l) => l + "\n").join(""));
    return `${dir}/${name}`;
  };
  const f: Inputs = {
    examples: await put("examples.jsonl", c.ex),
    generations: await put("generations.jsonl", c.gen),
  };
  if (c.pr) f.prompts = await put("prompts.jsonl", c.pr);
  return f;
}

/** Runs cases two at a time. */
async function eachCase<T>(cases: T[], fn: (c: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      await fn(cases[i]!, i);
    }
  };
  await Promise.all([worker(), worker()]);
}

// ------------------------------------------------------------------ 2. invariants and input errors

interface Rejection extends Case {
  /** An invariant (true) or an input error (false). */
  invariant: boolean;
  /** Text Assay's message must contain (an id or a line). */
  names: string;
}

const REJECTIONS: Rejection[] = [
  {
    name: "duplicate example_id in examples",
    invariant: true,
    names: "dup",
    ex: [ex("dup", F), ex("b", F), ex("dup", F)],
    gen: [okGen("dup"), okGen("b")],
  },
  {
    name: "duplicate example_id in examples, both rows dropped",
    invariant: true,
    names: "dup",
    ex: [ex("a", F), ex("dup", "[]"), ex("dup", `[${F},${F}]`)],
    gen: [okGen("a")],
  },
  {
    name: "duplicate example_id in generations",
    invariant: true,
    names: "dup",
    ex: [ex("dup", F)],
    gen: [okGen("dup"), gen("dup", "other")],
  },
  {
    name: "duplicate example_id in prompts",
    invariant: true,
    names: "dup",
    ex: [ex("dup", F)],
    gen: [okGen("dup")],
    pr: [manifest("dup"), manifest("dup")],
  },
  {
    name: "generation with no example (orphan)",
    invariant: true,
    names: "orphan",
    ex: [ex("a", F)],
    gen: [okGen("a"), okGen("orphan")],
  },
  {
    name: "kept example with no generation",
    invariant: true,
    names: "lonely",
    ex: [ex("a", F), ex("lonely", F)],
    gen: [okGen("a")],
  },
  {
    name: "generation and kept example with no manifest row",
    invariant: true,
    names: "unlisted",
    ex: [ex("a", F), ex("unlisted", F)],
    gen: [okGen("a"), okGen("unlisted")],
    pr: [manifest("a")],
  },
  {
    name: "generation prompt_sha256 differs from the manifest",
    invariant: true,
    names: "drift",
    ex: [ex("a", F), ex("drift", F)],
    gen: [okGen("a"), okGen("drift", H1)],
    pr: [manifest("a"), manifest("drift")],
  },
  {
    name: "manifest prompt that does not hash to its prompt_sha256",
    invariant: true,
    names: "prompts.jsonl:2",
    ex: [ex("a", F), ex("b", F)],
    gen: [okGen("a"), okGen("b")],
    pr: [manifest("a"), manifest("b", H0, ',"prompt":"hello"')],
  },
  {
    name: "malformed JSON line",
    invariant: false,
    names: "examples.jsonl:2",
    ex: [ex("a", F), '{"example_id": "b", '],
    gen: [okGen("a")],
  },
  {
    name: "line that is not an object",
    invariant: false,
    names: "generations.jsonl:1",
    ex: [ex("a", F)],
    gen: ["[1, 2]", okGen("a")],
  },
  {
    name: "missing target",
    invariant: false,
    names: "examples.jsonl:1",
    ex: ['{"example_id":"a","language":"en"}'],
    gen: [okGen("a")],
  },
  ...["42", "true", "null"].map((value) => ({
    name: `output ${value}: not a string, object or array`,
    invariant: false,
    names: "generations.jsonl:1",
    ex: [ex("a", F)],
    gen: [`{"example_id":"a","prompt_sha256":"${H0}","output":${value}}`],
  })),
  {
    name: "prompt_sha256 not 64 lowercase hex",
    invariant: false,
    names: "generations.jsonl:1",
    ex: [ex("a", F)],
    gen: [okGen("a", "AB".repeat(32))],
  },
  {
    name: 'language "overall" on a dropped row',
    invariant: false,
    names: "examples.jsonl:1",
    ex: [ex("a", "[]", "overall"), ex("b", F)],
    gen: [okGen("b")],
  },
  {
    name: "gold target nested 513 deep in its line",
    invariant: false,
    names: "examples.jsonl:1",
    ex: [ex("a", `{"name":"f","arguments":{"x":${"[".repeat(510)}${"]".repeat(510)}}}`)],
    gen: [okGen("a")],
  },
];

Deno.test("assay score and the oracle both refuse each invariant class and input error (exit 2, no report)", async () => {
  const root = await Deno.makeTempDir({ prefix: "assay_score_reject_" });
  try {
    await eachCase(REJECTIONS, async (c, i) => {
      const f = await writeCase(`${root}/${i}`, c);
      const out = `${root}/${i}/report.json`;
      const [a, o] = await Promise.all([assay(f, out), oracle(f)]);
      strictEqual(
        a.code,
        2,
        `${c.name}: assay exit ${a.code}\n${a.stderr}${a.stdout.slice(0, 300)}`,
      );
      strictEqual(o.code, 2, `${c.name}: oracle exit ${o.code}\n${o.stderr}`);
      strictEqual(await exists(out), false, `${c.name}: no report is written`);
      strictEqual(a.stdout, "", `${c.name}: nothing on stdout`);
      match(a.stderr, new RegExp(c.names.replace(/[.]/g, "\\.")), c.name);
      const kind = c.invariant ? "InvariantViolation" : "InputError";
      match(o.stderr, new RegExp(`^score_oracle: ${kind}: `), c.name);
      if (c.invariant) match(a.stderr, /invariant/i, c.name);
      else strictEqual(/invariant/i.test(a.stderr), false, `${c.name}: ${a.stderr}`);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

// ------------------------------------------------------------------ 3. readings, one input each

const SHA_FFFD = "83d544ccc223c057d2bf80d3f2a32982c32c3c0db8e2674820da5064783fb097"; // sha256(UTF-8 of U+FFFD)
const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

const READINGS: Case[] = [
  {
    name: "the reference's worked example",
    ex: ["Paris", "Paris", "Oslo", "Rome"].map((city, i) =>
      ex(String(i + 1), call("get_weather", { city, units: "celsius" }))
    ),
    gen: [
      gen("1", call("get_weather", { city: "Paris", units: "celsius" })),
      gen("2", call("get_weather", { city: "Paris", units: "kelvin" })),
      gen("3", call("fetch_weather", { city: "Oslo", units: "celsius" })),
      gen("4", "The weather in Rome is sunny."),
    ],
  },
  {
    name: "1 and 1.0, big integers and -0 in gold and output",
    ex: [
      ex("a", '{"name":"f","arguments":{"x":1.0,"n":123456789012345678901234567890,"z":-0}}'),
      ex("b", '{"name":"f","arguments":{"x":1,"n":123456789012345678901234567891}}'),
    ],
    gen: [
      gen("a", '{"name":"f","arguments":{"z":0,"x":1.00,"n":123456789012345678901234567890}}'),
      gen("b", '{"name":"f","arguments":{"x":1.0,"n":123456789012345678901234567890}}'),
    ],
  },
  {
    name: 'dotted key versus nesting, key "0" versus index 0, {} versus []',
    ex: [ex("a", '{"name":"f","arguments":{"a.b":1,"l":{"0":"x"},"e":{},"k":[]}}')],
    gen: [gen("a", '{"name":"f","arguments":{"a":{"b":1},"l":["x"],"e":[],"k":[]}}')],
  },
  {
    name: "gold target as a one-element list; duplicate keys, last wins",
    ex: [
      ex("a", `[${F}]`),
      `{"example_id":"b","language":"en","target":{"name":"f","arguments":{},"arguments":{"x":1.0}}}`,
    ],
    gen: [okGen("a"), gen("b", '{"name":"g","arguments":{"x":1.0},"name":"f"}')],
  },
  {
    name: "outputs nested 512 and 513 deep",
    ex: [ex("a", F), ex("b", F)],
    gen: [
      gen("a", `{"name":"f","arguments":{"x":${deep(510)}}}`),
      gen("b", `{"name":"f","arguments":{"x":${deep(511)}}}`),
    ],
  },
  {
    name: "gold target nested to line depth 512",
    ex: [ex("a", `{"name":"f","arguments":{"x":${deep(509)}}}`)],
    gen: [gen("a", `{"name":"f","arguments":{"x":${deep(509)}}}`)],
  },
  {
    name: "NaN and a long float in an ignored field of an example line",
    ex: [ex("a", F, "en", ',"t":NaN,"u":1.5e999')],
    gen: [okGen("a")],
  },
  {
    name: "target given as a JSON string is malformed",
    ex: [ex("a", JSON.stringify(F)), ex("b", F)],
    gen: [okGen("b")],
  },
  {
    name: "drop reasons; a dropped example's generation is not an orphan",
    ex: [
      ex("a", F),
      ex("b", "[]"),
      ex("c", `[${F},${F}]`),
      ex("d", '{"name":"f","arguments":[]}'),
      ex("e", "null"),
      ex("f", '{"name":"","arguments":{}}'),
    ],
    gen: [okGen("a"), okGen("b"), okGen("d")],
  },
  {
    name: "a language present only in dropped rows is no slice",
    ex: [ex("a", F, "en"), ex("b", "[]", "de")],
    gen: [okGen("a")],
  },
  {
    name: "with a manifest, a dropped example's generation needs a matching row",
    ex: [ex("a", F), ex("b", "[]")],
    gen: [okGen("a"), okGen("b", H1)],
    pr: [manifest("a"), manifest("b")],
  },
  {
    name: "manifest rows without an example are allowed",
    ex: [ex("a", F)],
    gen: [okGen("a")],
    pr: [manifest("a"), manifest("nobody")],
  },
  {
    name: "a prompt with a lone surrogate hashes as U+FFFD (TextEncoder)",
    ex: [ex("a", F)],
    gen: [okGen("a", SHA_FFFD)],
    pr: [manifest("a", SHA_FFFD, ',"prompt":"\\ud800"')],
  },
  {
    name: "blank lines: spaces, NBSP and U+FEFF are blank",
    ex: [ex("a", F), "  \u00a0\ufeff", ""],
    gen: ["\t", okGen("a")],
  },
  {
    name: "__proto__ as a field and as an argument key",
    ex: [
      `{"__proto__":{"x":1},"example_id":"a","language":"en","target":{"name":"f","arguments":{"__proto__":{"a":1}}}}`,
    ],
    gen: [gen("a", '{"name":"f","arguments":{"__proto__":{"a":1}}}', ',"__proto__":null')],
  },
  {
    name: "raw U+2028 and U+0085 inside strings",
    ex: [ex("a", call("f", { x: "\u2028\u0085" }))],
    gen: [gen("a", call("f", { x: "\u2028\u0085" }))],
  },
  {
    name: "a target list of two or more elements that are not all calls",
    ex: [ex("a", `[${F}, 1]`), ex("b", `[[${F}],[${F}]]`), ex("c", F)],
    gen: [okGen("c")],
  },
  {
    name: "a generation without prompt_sha256 and no manifest",
    ex: [ex("a", F)],
    gen: [`{"example_id":"a","output":"x"}`],
  },
  {
    name: "NaN in an ignored field of a generation line",
    ex: [ex("a", F)],
    gen: [gen("a", "x", ',"t":NaN')],
  },
  {
    name: "a 5,000-digit integer in an ignored field of a generation line",
    ex: [ex("a", F)],
    gen: [gen("a", "x", ',"t":' + "1".repeat(5000))],
  },
  {
    name: "nesting 600 deep in an ignored field of a generation line",
    ex: [ex("a", F)],
    gen: [gen("a", "x", ',"t":' + deep(600))],
  },
  {
    name: "NaN in an ignored field of a prompts line",
    ex: [ex("a", F)],
    gen: [okGen("a")],
    pr: [manifest("a", H0, ',"t":NaN')],
  },
  {
    name: "surrogate-split name: escaped high surrogate then a raw low one",
    ex: [ex("a", call("get\u{1F600}", {}))],
    gen: [gen("a", '{"name":"get\\ud83d\ude00","arguments":{}}')],
  },
  {
    name: "surrogate-split argument key",
    ex: [ex("a", call("f", { "\u{1F600}": 1 }))],
    gen: [gen("a", '{"name":"f","arguments":{"\\ud83d\ude00":1}}')],
  },
  {
    name: "an output written as a JSON object or array: its canonical text, lexemes kept",
    ex: [
      ex("a", '{"name":"f","arguments":{"x":1.0,"n":123456789012345678901234567890}}'),
      ex("b", '{"name":"f","arguments":{"x":1}}'),
      ex("c", '{"name":"f","arguments":{"k\u00e9":1}}'),
      ex("d", F),
      ex("e", F),
      ex("f", F),
    ],
    gen: [
      `{"example_id":"a","prompt_sha256":"${H0}","output":{"arguments":{"n":123456789012345678901234567890,"x":1.00},"name":"f"}}`,
      `{"example_id":"b","prompt_sha256":"${H0}","output":{"name":"f","arguments":{"x":1.0}}}`,
      `{"example_id":"c","prompt_sha256":"${H0}","output":{"name":"f","arguments":{"ké":NaN}}}`,
      `{"example_id":"d","prompt_sha256":"${H0}","output":[{"name":"f","arguments":{}}]}`,
      `{"example_id":"e","prompt_sha256":"${H0}","output":{"name":"g","name":"f","arguments":{}}}`,
      `{"example_id":"f","prompt_sha256":"${H0}","output":{"name":"f"}}`,
    ],
  },
  {
    name: "slices sorted by code point (U+FF41 before U+1F600)",
    ex: [ex("a", F, "\uff41"), ex("b", F, "\u{1F600}"), ex("c", F, "en")],
    gen: [okGen("a"), okGen("b"), okGen("c")],
  },
];

/**
 * Readings on which Assay and the oracle disagree today, each with the side the oracle takes.
 * The test requires that each of these still disagrees (so that a fix shows up here) and that
 * every other reading agrees. Remove an entry once Assay or the oracle changes.
 */
// Known issues (docs/engine.md): each must still disagree, so that a fix is noticed.
const OPEN_DISAGREEMENTS: Record<string, string> = {
  "surrogate-split name: escaped high surrogate then a raw low one":
    "known issue: Python keeps the two code points apart, so the name differs from U+1F600 (no " +
    "name match); Assay compares the decoded names as JS strings, which are equal",
  "surrogate-split argument key":
    "known issue: the keys differ as code points, but pair paths print alike, so Assay matches " +
    "the pair; Python's own result is inconsistent here (exact match 1, matched pairs 0)",
};

Deno.test("assay score and the oracle agree on each open reading, one input at a time", async () => {
  const root = await Deno.makeTempDir({ prefix: "assay_score_readings_" });
  const agreed: string[] = [];
  const disagreed: string[] = [];
  try {
    await eachCase(READINGS, async (c, i) => {
      const f = await writeCase(`${root}/${i}`, c);
      const [a, o] = await Promise.all([
        assay(f, `${root}/${i}/report.json`),
        oracle(f, `${root}/${i}/oracle.json`),
      ]);
      if (o.code === 0) o.stdout = await Deno.readTextFile(`${root}/${i}/oracle.json`);
      const view = (r: Run) =>
        r.code === 0 ? { code: 0, ...comparable(JSON.parse(r.stdout)) } : { code: r.code };
      const av = view(a), ov = view(o);
      const records = (r: Run) => (r.code === 0 ? JSON.parse(r.stdout).records : null);
      const same = JSON.stringify(av) === JSON.stringify(ov) &&
        JSON.stringify(records(a)) === JSON.stringify(records(o));
      (same ? agreed : disagreed).push(c.name);
      if (same !== !(c.name in OPEN_DISAGREEMENTS)) {
        fail(
          same
            ? `"${c.name}" now agrees: remove it from OPEN_DISAGREEMENTS`
            : `"${c.name}": assay and the oracle disagree\n  assay  ${
              a.code ? a.stderr.trim() : JSON.stringify(records(a))
            }\n  oracle ${o.code ? o.stderr.trim() : JSON.stringify(records(o))}\n` +
              `  assay  ${JSON.stringify(av).slice(0, 400)}\n  oracle ${
                JSON.stringify(ov).slice(0, 400)
              }`,
        );
      }
    });
    // The worked example's values are pinned too, not only agreed on (READINGS[0]).
    const o = JSON.parse(await Deno.readTextFile(`${root}/0/oracle.json`)).metrics.overall;
    deepStrictEqual(
      Object.values(o).map((m: Json) => [m.numerator, m.denominator]),
      [[3, 4], [2, 4], [2, 4], [10, 14], [1, 4]],
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  console.log(`${agreed.length} readings agree; ${disagreed.length} open disagreements:`);
  for (const name of disagreed.sort()) console.log(`  - ${name}: ${OPEN_DISAGREEMENTS[name]}`);
});
