// A seeded fuzz of the CLI's inputs: each case takes a command that succeeds on valid inputs and
// spoils one thing (an input file's bytes or its JSON and YAML values, a path, a flag), then runs
// the command in this process. Whatever the spoiling, the command must end as the product's rule
// says: exit 0 (the input still valid), 3 (a gate that fails, only where a gate is asked for) or 2
// with a named error that names the file or flag spoiled, and never a stack, an "internal error"
// (exit 1) or an "Uncaught". Deterministic: a case is its seed and its number alone.
//
// The gate's test (fuzz_cli_test.ts) runs a small number of cases; a long local run:
//
//   deno run -A tests/cli/fuzz_cli.ts --cases 5000 [--seed N] [--from I] [--only NAME]
//
// prints each failing case with how to reproduce it and exits 1 when one failed.
import { gunzipSync } from "node:zlib";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { makeRng, type Rng } from "../_corpus.ts";
import { concatBytes } from "../_byte_sources.ts";
import { runMain } from "./_main.ts";

const repo = new URL("../../", import.meta.url).pathname;
const enc = new TextEncoder();
const dec = new TextDecoder();

/** The corpus: small valid inputs and the reports made from them, in one temporary folder. */
export interface Corpus {
  dir: string;
}

/** One command that succeeds on the corpus, and which of its arguments are input files. */
interface Scenario {
  name: string;
  /** The arguments; `@name` is the corpus file `name`, `%out` a fresh output path. */
  args: string[];
  /** Whether a valid run may exit 3 (a gate is asked for). */
  gate?: boolean;
  /** Files the command writes into: `@name` copied into the case's folder first. */
  writes?: string[];
}

const readdirNames = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

const lines = (path: string, n: number) =>
  Deno.readTextFileSync(path).split("\n").filter((l) => l !== "").slice(0, n).join("\n") + "\n";

async function gunzip(path: string): Promise<string> {
  const stream = (await Deno.open(path)).readable.pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

/** Writes the corpus into a new temporary folder and makes its reports with the CLI itself. */
export async function makeCorpus(): Promise<Corpus> {
  const dir = await Deno.makeTempDir({ prefix: "assay_fuzz_" });
  const put = (name: string, text: string) => Deno.writeTextFileSync(`${dir}/${name}`, text);
  // score: twelve examples with their generations and prompts.
  const demo = `${repo}samples/demo/`;
  const base = lines(`${demo}generations.base.jsonl`, 12);
  const ids = new Set(base.trim().split("\n").map((l) => JSON.parse(l).example_id));
  const only = (file: string) =>
    Deno.readTextFileSync(`${demo}${file}`).split("\n").filter((l) =>
      l !== "" && ids.has(JSON.parse(l).example_id)
    ).join("\n") + "\n";
  put("examples.jsonl", only("examples.jsonl"));
  put("base.jsonl", base);
  put("adapter.jsonl", only("generations.adapter.jsonl"));
  put("prompts.jsonl", only("prompts.jsonl"));
  put("outputs.jsonl", Deno.readTextFileSync(`${repo}samples/outputs.jsonl`));
  // The calls expected of each output, for the tool metrics read from outputs.
  put(
    "c_expected.jsonl",
    Deno.readTextFileSync(`${repo}samples/outputs.jsonl`).trim().split("\n").map((l, i) =>
      JSON.stringify({
        example_id: JSON.parse(l).example_id,
        tool_calls: i % 3 === 0 ? [] : [{ name: "get_weather", arguments: { city: "Paris" } }],
      })
    ).join("\n") + "\n",
  );
  put("texts.txt", Deno.readTextFileSync(`${repo}samples/json_texts.txt`));
  const st = `${repo}tests/fixtures/structured/`;
  for (const f of ["outputs", "expected"]) {
    put(`s_${f}.jsonl`, Deno.readTextFileSync(`${st}${f}.jsonl`));
  }
  put("schema.json", Deno.readTextFileSync(`${st}schema.json`));
  const sd = `${repo}samples/suite_demo/`;
  put("suite.yaml", Deno.readTextFileSync(`${sd}suite.yaml`));
  for (const n of [3, 7]) {
    const name = (readdirNames(`${repo}tests/fixtures/suites/`).find((f) =>
      f.startsWith(`reference_${n}_`)
    ))!;
    put(`ref${n}.yaml`, Deno.readTextFileSync(`${repo}tests/fixtures/suites/${name}`));
  }
  put("suite.json", JSON.stringify(parseYaml(Deno.readTextFileSync(`${sd}suite.yaml`)), null, 1));
  put("goldens.jsonl", Deno.readTextFileSync(`${sd}goldens.jsonl`));
  put("traces.jsonl", Deno.readTextFileSync(`${sd}traces.jsonl`));
  put("catalog.json", Deno.readTextFileSync(`${sd}catalog.json`));
  put("labels.jsonl", Deno.readTextFileSync(`${repo}tests/fixtures/calibration/labels.jsonl`));
  const bf = `${repo}tests/fixtures/bfcl-v1/`;
  const head = async (path: string) =>
    (await gunzip(path)).split("\n").slice(0, 6).join("\n") + "\n";
  put("q.json", await head(`${bf}data/gorilla_openfunctions_v1_test_simple.json.gz`));
  put(
    "a.json",
    await head(`${bf}data/possible_answer/gorilla_openfunctions_v1_test_simple.json.gz`),
  );
  put("r1.json", await head(`${bf}results/gpt-4-0613/simple_result.json.gz`));
  put("r2.json", await head(`${bf}results/gpt-4o-2024-05-13-FC/simple_result.json.gz`));
  put("rel.json", await head(`${bf}results/gpt-4-0613/relevance_result.json.gz`));
  const ie = `${repo}tests/fixtures/ifeval/`;
  put("input.jsonl", lines(`${ie}input_data.jsonl`, 6));
  put("responses.jsonl", lines(`${ie}responses_gpt4.jsonl`, 6));
  put(
    "rules.yaml",
    stringifyYaml({
      seed: 1,
      resamples: 200,
      alpha: 0.05,
      rules: [
        { metric: "valid_json_rate", min: 0.1 },
        { metric: "full_call_exact_match", slice: "overall", non_inferior: { margin: 0.5 } },
        { metric: "argument_exact_match", max_regressions: 12 },
      ],
    }),
  );
  const minRule = (metric: string) => JSON.stringify({ rules: [{ metric, min: 0 }] });
  put("rules1.json", minRule("full_call_exact_match"));
  put("structured_rules.json", minRule("json_validity"));
  put("bfcl_rules.json", minRule("accuracy"));
  put("ifeval_rules.jsonc", `// a comment\n${minRule("prompt_loose")}`);
  put("srules.yaml", "rules:\n  - metric: pass_rate\n    slice: base\n    min: 0\n");
  put("crules.yaml", "rules:\n  - metric: mae\n    max: 1\n");
  // The reports every other command reads, made by the CLI from the files above.
  // Each command's words ("@" before the corpus's files), and what it makes.
  for (
    const [line, what] of [
      [
        "score --quiet --examples @examples.jsonl --generations @base.jsonl --prompts " +
        "@prompts.jsonl --details --out @base_report.json",
        "score base",
      ],
      [
        "score --quiet --examples @examples.jsonl --generations @adapter.jsonl --prompts " +
        "@prompts.jsonl --details --out @adapter_report.json",
        "score adapter",
      ],
      [
        "structured --quiet --outputs @s_outputs.jsonl --expected @s_expected.jsonl --schema " +
        "@schema.json --out @structured_report.json",
        "structured",
      ],
      [
        "bfcl --checker bfcl.ast@2024-08 --category simple --questions @q.json --answers @a.json " +
        "--result @r1.json --model gpt-4-0613 --quiet --out @score1.json --report @bfcl1.json",
        "bfcl 1",
      ],
      [
        "bfcl --checker bfcl.ast@2024-08 --category simple --questions @q.json --answers @a.json " +
        "--result @r2.json --model gpt-4o-2024-05-13-FC --quiet --out @score2.json " +
        "--report @bfcl2.json",
        "bfcl 2",
      ],
      [
        "ifeval --input @input.jsonl --responses @responses.jsonl --quiet --out @ifeval1.json",
        "ifeval 1",
      ],
      [
        "suite run @suite.yaml --goldens @goldens.jsonl --traces @traces.jsonl --catalog " +
        "@catalog.json --store @store.db --no-judge --quiet --resamples 100 " +
        "--out @suite_report.json --json",
        "suite run",
      ],
      ["calibrate --labels @labels.jsonl --out @calibration.json --json", "calibrate"],
    ] as const
  ) {
    const args = line.split(" ");
    // In the corpus's folder, by relative names: the reports' bytes do not depend on where it is.
    const r = await inFolder(dir, () => runMain(args.map((a) => a.replace(/^@/, ""))));
    if (r.code !== 0) throw new Error(`corpus: ${what} exited ${r.code}: ${r.stderr}`);
  }
  // A second ifeval report: the same input, other responses.
  put(
    "responses2.jsonl",
    Deno.readTextFileSync(`${dir}/responses.jsonl`).trim().split("\n").map((l) => {
      const row = JSON.parse(l);
      return JSON.stringify({ ...row, response: row.response.toUpperCase() });
    }).join("\n") + "\n",
  );
  const r = await inFolder(dir, () =>
    runMain([
      "ifeval",
      "--input",
      "input.jsonl",
      "--responses",
      "responses2.jsonl",
      "--quiet",
      "--out",
      "ifeval2.json",
    ]));
  if (r.code !== 0) throw new Error(`corpus: ifeval 2 exited ${r.code}: ${r.stderr}`);
  return { dir };
}

/** Runs `f` quietly (below) in folder `dir`. */
async function inFolder<T>(dir: string, f: () => Promise<T>): Promise<T> {
  const cwd = Deno.cwd();
  Deno.chdir(dir);
  try {
    return await quietly(f);
  } finally {
    Deno.chdir(cwd);
  }
}

/**
 * Runs `f` with stdout's direct writes (the commands' reports on stdout) dropped, and stdin empty
 * (a case that drops an input reads stdin, which must not wait for the terminal).
 */
async function quietly<T>(f: () => Promise<T>): Promise<T> {
  const write = Deno.stdout.write;
  // deno-lint-ignore require-await
  Deno.stdout.write = async (p: Uint8Array) => p.length;
  const stdin = Object.getOwnPropertyDescriptor(Deno.stdin, "readable");
  Object.defineProperty(Deno.stdin, "readable", {
    configurable: true,
    get: () => new Blob([]).stream(),
  });
  try {
    return await f();
  } finally {
    Deno.stdout.write = write;
    if (stdin) Object.defineProperty(Deno.stdin, "readable", stdin);
    else delete (Deno.stdin as { readable?: unknown }).readable;
  }
}

/** The commands, each with valid inputs from the corpus (no argument holds a space). */
const SCENARIO_LINES: readonly (Omit<Scenario, "args"> & { args: string })[] = [
  { name: "parse", args: "parse @outputs.jsonl --pairs --out %out" },
  {
    name: "parse-ts",
    args: "parse @outputs.jsonl --engine ts --max-line-bytes 100000 --out %out",
  },
  {
    name: "canonicalize-ts",
    args: "canonicalize @texts.txt --engine ts --out %out",
  },
  { name: "canonicalize", args: "canonicalize @texts.txt --out %out" },
  {
    name: "score",
    args:
      "score --quiet --examples @examples.jsonl --generations @base.jsonl --prompts @prompts.jsonl --details --out %out",
  },
  {
    name: "score-allow-missing",
    args:
      "score --quiet --examples @examples.jsonl --generations @adapter.jsonl --allow-missing --engine ts --format sommelier --numbers numeric --json",
  },
  {
    name: "compare",
    args:
      "compare @base_report.json @adapter_report.json --resamples 200 --seed 3 --level 0.9 --out %out --html %out",
  },
  {
    name: "compare-gate",
    gate: true,
    args:
      "compare @base_report.json @adapter_report.json --resamples 200 --on intersection --gate @rules.yaml --junit %out --markdown %out --json",
  },
  { name: "gaps", args: "gaps @base_report.json --resamples 200 --reference en" },
  {
    name: "structured",
    args:
      "structured --quiet --outputs @s_outputs.jsonl --expected @s_expected.jsonl --schema @schema.json --out %out",
  },
  {
    name: "structured-format",
    args:
      "structured --quiet --outputs @s_outputs.jsonl --format ^\\{.*\\}$ --metrics json_validity,format_compliance --mode lenient --json",
  },
  { name: "suite-validate", args: "suite validate @suite.yaml" },
  { name: "suite-validate-json", args: "suite validate @suite.json" },
  { name: "suite-validate-judge", args: "suite validate @ref3.yaml" },
  { name: "suite-validate-combined", args: "suite validate @ref7.yaml" },
  {
    name: "structured-calls",
    args:
      "structured --quiet --outputs @outputs.jsonl --expected @c_expected.jsonl --call-format sommelier --metrics tool_call_f1,json_validity --match subset --numbers numeric --json",
  },
  {
    name: "suite-run",
    gate: true,
    args:
      "suite run @suite.yaml --goldens @goldens.jsonl --traces @traces.jsonl --catalog @catalog.json --store %out --no-judge --quiet --resamples 100 --gate @srules.yaml --fail-under 0",
  },
  {
    name: "suite-run-stored",
    writes: ["@store.db"],
    args:
      "suite run @suite.json --goldens @goldens.jsonl --traces @traces.jsonl --catalog @catalog.json --store @store.db --no-judge --quiet --resamples 50 --json --baseline base",
  },
  {
    name: "suite-scorecard",
    writes: ["@store.db"],
    args: "suite scorecard --store @store.db --resamples 100 --json",
  },
  {
    name: "suite-compare",
    writes: ["@store.db"],
    args: "suite compare base adapter --store @store.db --resamples 100",
  },
  {
    name: "calibrate",
    gate: true,
    args: "calibrate --labels @labels.jsonl --threshold 0.5 --gate @crules.yaml --fail-under 0.1",
  },
  {
    name: "bfcl",
    args:
      "bfcl --checker bfcl.ast@2024-08 --category simple --questions @q.json --answers @a.json --result @r1.json --model gpt-4-0613 --quiet --out %out --report %out",
  },
  {
    name: "bfcl-relevance",
    args:
      "bfcl --checker bfcl.ast@2024-08 --category relevance --result @rel.json --quiet --out %out",
  },
  {
    name: "bfcl-compare",
    args: "bfcl compare @bfcl1.json @bfcl2.json --seed 1 --resamples 200",
  },
  {
    name: "ifeval",
    args:
      "ifeval --input @input.jsonl --responses @responses.jsonl --quiet --out %out --results-dir %out",
  },
  {
    name: "ifeval-compare",
    args: "ifeval compare @ifeval1.json @ifeval2.json --resamples 200",
  },
  { name: "show", args: "show @base_report.json --failing --limit 3" },
  { name: "show-id", args: "show @adapter_report.json --id en-0001 --slice en" },
  {
    name: "gate",
    gate: true,
    args:
      "gate @rules.yaml --base @base_report.json --candidate @adapter_report.json --out %out --junit %out --markdown %out",
  },
  // One run's report of each kind under min and max rules.
  ...([
    ["eval", "rules1.json", "base_report.json"],
    ["structured", "structured_rules.json", "structured_report.json"],
    ["bfcl", "bfcl_rules.json", "bfcl1.json"],
    ["ifeval", "ifeval_rules.jsonc", "ifeval1.json"],
    ["suite", "srules.yaml", "suite_report.json"],
    ["calibration", "crules.yaml", "calibration.json"],
  ] as const).map(([kind, rules, report]) => ({
    name: `gate-report-${kind}`,
    gate: true,
    args: `gate @${rules} --report @${report}`,
  })),
];

/** The commands, each with valid inputs from the corpus, its arguments split at spaces. */
export const SCENARIOS: readonly Scenario[] = SCENARIO_LINES.map((s) => ({
  ...s,
  args: s.args.split(" "),
}));

// ---------------------------------------------------------------------------------------------
// Spoiling a file's bytes.

const HUGE = [
  "1e400",
  "-1e400",
  "-0",
  "1e-400",
  "-0.0",
  "123456789012345678901234567890",
  "NaN",
  "Infinity",
  "0x10",
  "1E+999",
  "4.9e-325",
];
const WRONG: unknown[] = [
  null,
  0,
  -1,
  1.5,
  "",
  "x",
  true,
  false,
  {},
  [],
  [null],
  { a: 1 },
  "1e400",
  -0,
  1e308,
  "\u0000",
  "\ud800",
  "a".repeat(5000),
];

const cat = concatBytes;
const insertAt = (b: Uint8Array, at: number, x: Uint8Array) =>
  cat(b.subarray(0, at), x, b.subarray(at));
const textOf = (b: Uint8Array) => dec.decode(b);

/** The JSON values of a file: one per line (JSONL) or the whole file, and how to write them back. */
function jsonDoc(bytes: Uint8Array, name: string):
  | { values: unknown[]; write: (vs: unknown[]) => Uint8Array }
  | undefined {
  const text = textOf(bytes);
  if (/\.ya?ml$/.test(name)) {
    try {
      return { values: [parseYaml(text)], write: (vs) => enc.encode(stringifyYaml(vs[0])) };
    } catch {
      return undefined;
    }
  }
  try {
    const whole = JSON.parse(text);
    if (!name.endsWith(".jsonl") || !text.trim().includes("\n")) {
      return { values: [whole], write: (vs) => enc.encode(JSON.stringify(vs[0], null, 1)) };
    }
  } catch { /* JSONL */ }
  try {
    const values = text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
    return {
      values,
      write: (vs) => enc.encode(vs.map((v) => JSON.stringify(v)).join("\n") + "\n"),
    };
  } catch {
    return undefined;
  }
}

/** Every path to a value inside `v` (objects' keys and arrays' indexes), `v` itself first. */
function pathsOf(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at);
  if (out.length > 4000) return out;
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...at, i], out));
  else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  }
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [k, ...rest] = path;
  const copy = Array.isArray(root) ? [...root] : { ...(root as Record<string, unknown>) };
  (copy as Record<string | number, unknown>)[k!] = setAt(
    (root as Record<string | number, unknown>)[k!],
    rest,
    value,
  );
  return copy;
}

function deleteAt(root: unknown, path: (string | number)[]): unknown {
  if (path.length === 0) return root;
  if (path.length === 1) {
    if (Array.isArray(root)) return root.filter((_, i) => i !== path[0]);
    const copy = { ...(root as Record<string, unknown>) };
    delete copy[path[0] as string];
    return copy;
  }
  const [k, ...rest] = path;
  const copy = Array.isArray(root) ? [...root] : { ...(root as Record<string, unknown>) };
  (copy as Record<string | number, unknown>)[k!] = deleteAt(
    (root as Record<string | number, unknown>)[k!],
    rest,
  );
  return copy;
}

/** What the last JSON change did, for the case's description. */
let detail = "";

/** `n` values of a JSON or YAML file, at most `depth` deep, replaced by values of other types. */
function wrongTypes(b: Uint8Array, rng: Rng, name: string, n: number, depth: number) {
  const doc = jsonDoc(b, name);
  if (!doc || doc.values.length === 0) return undefined;
  const values = [...doc.values];
  const changes: string[] = [];
  for (let k = 0; k < n; k++) {
    const i = rng.int(values.length);
    const path = rng.pick(pathsOf(values[i]).filter((p) => p.length <= depth));
    const value = rng.pick(WRONG);
    values[i] = setAt(values[i], path, value);
    changes.push(`${i}/${path.join("/")} = ${JSON.stringify(value)?.slice(0, 20)}`);
  }
  detail = ` (${changes.join(", ")})`;
  return doc.write(values);
}

/**
 * The changes to a file's bytes, by name, each given the file's name for the JSON and YAML ones;
 * undefined when a change does not apply to these bytes.
 */
const FILE_MUTATORS: Record<
  string,
  (b: Uint8Array, rng: Rng, name: string) => Uint8Array | undefined
> = {
  truncate: (b, rng) => b.length < 2 ? undefined : b.slice(0, rng.int(b.length)),
  "cut mid-UTF-8": (b, rng) => {
    const at = [...b.keys()].filter((i) => b[i]! >= 0xc0);
    if (at.length > 0) {
      const i = rng.pick(at);
      return cat(b.subarray(0, i + 1), rng.chance(0.5) ? enc.encode("\n") : new Uint8Array(0));
    }
    return cat(b, new Uint8Array([0xe3, 0x81]));
  },
  "invalid UTF-8": (b, rng) =>
    insertAt(b, rng.int(b.length + 1), new Uint8Array([rng.pick([0xff, 0xc0, 0x80, 0xed])])),
  BOM: (b) => cat(new Uint8Array([0xef, 0xbb, 0xbf]), b),
  CRLF: (b) => enc.encode(textOf(b).replaceAll("\n", "\r\n")),
  NUL: (b, rng) => insertAt(b, rng.int(b.length + 1), new Uint8Array([0])),
  "huge number": (b, rng) => {
    const text = textOf(b);
    const nums = [...text.matchAll(/-?\b\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g)];
    if (nums.length === 0) return undefined;
    const m = rng.pick(nums);
    return enc.encode(text.slice(0, m.index) + rng.pick(HUGE) + text.slice(m.index! + m[0].length));
  },
  "deep nesting": (b, rng) => {
    const text = textOf(b);
    const spots = [...text.matchAll(/[:\[,]/g)];
    const deep = rng.pick(["[", '{"a":']).repeat(100000);
    const close = deep[0] === "[" ? "]".repeat(100000) : "}".repeat(100000);
    const tail = rng.chance(0.5) ? close : "";
    if (spots.length === 0) return enc.encode(deep + tail + "\n" + text);
    const m = rng.pick(spots);
    const at = m.index! + 1;
    return enc.encode(text.slice(0, at) + deep + "1" + tail + text.slice(at));
  },
  "duplicate key": (b, rng) => {
    const text = textOf(b);
    const keys = [...text.matchAll(/([{,]\s*)("(?:[^"\\]|\\.)*")(\s*:\s*)/g)];
    if (keys.length === 0) return undefined;
    const m = rng.pick(keys);
    const value = JSON.stringify(rng.pick(WRONG));
    return enc.encode(
      text.slice(0, m.index! + m[1]!.length) + `${m[2]}${m[3]}${value}, ` +
        text.slice(m.index! + m[1]!.length),
    );
  },
  "wrong type": (b, rng, name) => wrongTypes(b, rng, name, 1, Infinity),
  "wrong type near the top": (b, rng, name) => wrongTypes(b, rng, name, 1, 2),
  "wrong types": (b, rng, name) => wrongTypes(b, rng, name, 2 + rng.int(4), Infinity),
  "field dropped": (b, rng, name) => {
    const doc = jsonDoc(b, name);
    if (!doc || doc.values.length === 0) return undefined;
    const i = rng.int(doc.values.length);
    const paths = pathsOf(doc.values[i]).filter((p) => p.length > 0);
    if (paths.length === 0) return undefined;
    const values = [...doc.values];
    const path = rng.pick(paths);
    values[i] = deleteAt(values[i], path);
    detail = ` (${i}/${path.join("/")})`;
    return doc.write(values);
  },
  "line repeated": (b, rng) => {
    const ls = textOf(b).split("\n");
    const i = rng.int(ls.length);
    ls.splice(i, 0, ls[i]!);
    return enc.encode(ls.join("\n"));
  },
  "line dropped": (b, rng) => {
    const ls = textOf(b).split("\n");
    if (ls.length < 2) return undefined;
    ls.splice(rng.int(ls.length), 1);
    return enc.encode(ls.join("\n"));
  },
  "lines swapped": (b, rng) => {
    const ls = textOf(b).split("\n");
    const i = rng.int(ls.length), j = rng.int(ls.length);
    [ls[i], ls[j]] = [ls[j]!, ls[i]!];
    return enc.encode(ls.join("\n"));
  },
  "byte flipped": (b, rng) => {
    if (b.length === 0) return undefined;
    const c = b.slice();
    c[rng.int(c.length)] = rng.pick([
      0x22,
      0x5c,
      0x7b,
      0x7d,
      0x5b,
      0x5d,
      0x3a,
      0x2c,
      0x0a,
      0x20,
      0x23,
      0x2d,
    ]);
    return c;
  },
  empty: () => new Uint8Array(0),
  "blank lines": () => enc.encode("\n \n\t\n"),
  "not JSON": (_b, rng) =>
    enc.encode(
      rng.pick([
        "null\n",
        "[]\n",
        "{}\n",
        "1\n",
        '"x"\n',
        "true\n",
        "[1,2]\n",
        "---\n",
        "- a\n",
        "a: [\n",
      ]),
    ),
  gzip: (b) => {
    // A gzip member (stored block, no compression): the magic number and a valid stream.
    const crc = crc32(b);
    const header = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
    const blocks: Uint8Array[] = [];
    for (let at = 0; at < b.length || at === 0; at += 65535) {
      const part = b.subarray(at, at + 65535);
      const last = at + 65535 >= b.length ? 1 : 0;
      blocks.push(
        new Uint8Array([
          last,
          part.length & 255,
          part.length >> 8,
          ~part.length & 255,
          (~part.length >> 8) & 255,
        ]),
        part,
      );
      if (b.length === 0) break;
    }
    const n = b.length;
    const trailer = new Uint8Array([
      crc & 255,
      (crc >>> 8) & 255,
      (crc >>> 16) & 255,
      crc >>> 24,
      n & 255,
      (n >>> 8) & 255,
      (n >>> 16) & 255,
      n >>> 24,
    ]);
    return cat(header, ...blocks, trailer);
  },
};

function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const x of b) {
    c ^= x;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** The values a flag is given in place of its own. */
const FLAG_VALUES = [
  "",
  " ",
  "-1",
  "0",
  "1e400",
  "NaN",
  "1.5",
  "-0",
  "0x10",
  "abc",
  "4294967296",
  "--json",
  "\u0000",
  "é",
];

// ---------------------------------------------------------------------------------------------
// A case.

/** What one case did, and whether it broke the rule. */
export interface CaseResult {
  scenario: string;
  mutation: string;
  args: string[];
  code: number;
  stderr: string;
  /** Why the case broke the rule; undefined when it kept it. */
  problem?: string;
}

/** Runs case `index` of `seed` against the corpus. */
export async function runCase(
  corpus: Corpus,
  seed: number,
  index: number,
  scenarios: readonly Scenario[] = SCENARIOS,
): Promise<CaseResult> {
  const rng = makeRng((seed * 1000003 + index) >>> 0);
  const scenario = scenarios[index % scenarios.length]!;
  const dir = await Deno.makeTempDir({ dir: corpus.dir, prefix: "case_" });
  let outs = 0;
  const files = new Map<string, string>();
  const args = scenario.args.map((a) => {
    if (a === "%out") return `${dir}/out${outs++}`;
    if (!a.startsWith("@")) return a;
    const name = a.slice(1);
    if (scenario.writes?.includes(a)) {
      Deno.copyFileSync(`${corpus.dir}/${name}`, `${dir}/${name}`);
      files.set(name, `${dir}/${name}`);
      return `${dir}/${name}`;
    }
    files.set(name, `${corpus.dir}/${name}`);
    return `${corpus.dir}/${name}`;
  });
  let mutation: string;
  // What a refusal must name (one of them): a file of the command, or the flag spoiled.
  let expect: string[] = [...files.keys()];
  const inputs = args.map((a, i) => [a, i] as const).filter(([a]) =>
    [...files.values()].includes(a)
  );
  const kind = rng.int(10);
  if (kind < 7 && inputs.length > 0) {
    // Spoil one input file's bytes, in a copy.
    const [path, at] = rng.pick(inputs);
    const name = path.slice(path.lastIndexOf("/") + 1);
    const names = Object.keys(FILE_MUTATORS);
    let bytes: Uint8Array | undefined;
    let m = "";
    for (let tries = 0; bytes === undefined && tries < 20; tries++) {
      m = rng.pick(names);
      detail = "";
      bytes = FILE_MUTATORS[m]!(Deno.readFileSync(path), rng, name);
    }
    mutation = `${m} of ${name}${detail}`;
    const copy = `${dir}/${name}`;
    Deno.writeFileSync(copy, bytes ?? new Uint8Array(0));
    args[at] = copy;
    expect = [...files.keys()];
  } else if (kind < 8 && inputs.length > 0) {
    const [path, at] = rng.pick(inputs);
    if (rng.chance(0.5)) {
      args[at] = `${dir}/missing.json`;
      mutation = `missing file for ${path.slice(path.lastIndexOf("/") + 1)}`;
      expect = ["missing.json"];
    } else {
      Deno.mkdirSync(`${dir}/folder.jsonl`);
      args[at] = `${dir}/folder.jsonl`;
      mutation = `folder for ${path.slice(path.lastIndexOf("/") + 1)}`;
      expect = ["folder.jsonl"];
    }
  } else {
    // Spoil the command line.
    const flags = args.map((a, i) => [a, i] as const).filter(([a], i) =>
      a.startsWith("--") && i + 1 < args.length && !args[i + 1]!.startsWith("--")
    );
    const what = rng.int(5);
    if (what === 0 && flags.length > 0) {
      const [flag, i] = rng.pick(flags);
      const value = rng.pick(FLAG_VALUES);
      args[i + 1] = value;
      mutation = `${flag} ${JSON.stringify(value)}`;
      // The value as a message shows it: quoted when blank, its controls escaped.
      expect = [flag, value.trim() === "" ? JSON.stringify(value) : value.replace("\0", "\\u0000")];
    } else if (what === 1 && flags.length > 0) {
      const [flag, i] = rng.pick(flags);
      args.push(flag, args[i + 1]!);
      mutation = `${flag} repeated`;
      expect = [flag];
    } else if (what === 2) {
      const flag = rng.pick(["--bogus", "--", "-x", "--out", "--json=1", "--help=no", "---", "-"]);
      args.splice(1 + rng.int(args.length), 0, flag);
      mutation = `${JSON.stringify(flag)} inserted`;
      expect = [];
    } else if (what === 3 && flags.length > 0) {
      const [flag, i] = rng.pick(flags);
      args.splice(i + 1, 1);
      mutation = `value of ${flag} dropped`;
      expect = [];
    } else {
      const i = 1 + rng.int(Math.max(1, args.length - 1));
      const removed = args.splice(i, 1)[0];
      mutation = `argument ${JSON.stringify(removed)} dropped`;
      expect = [];
    }
  }
  // In the case's folder: a flag's value spoiled into a relative path writes there.
  const run = await inFolder(dir, () => runMain(args));
  const lost = run.code === 0 ? lostRows(scenario, args) : undefined;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  const result: CaseResult = {
    scenario: scenario.name,
    mutation,
    args,
    code: run.code,
    stderr: run.stderr,
  };
  const ok = run.code === 0 || run.code === 2 || (run.code === 3 && scenario.gate === true);
  if (!ok) result.problem = `exit ${run.code}`;
  else if (/^\s+at /m.test(run.stderr)) result.problem = "a stack trace";
  else if (/Uncaught|internal error/.test(run.stderr)) result.problem = "an internal error";
  else if (run.code === 2 && run.stderr.trim() === "") result.problem = "exit 2 without a message";
  else if (run.code === 2 && expect.length > 0 && !expect.some((x) => run.stderr.includes(x))) {
    result.problem = `exit 2 without naming ${expect.join(" or ")}`;
  } else if (lost !== undefined) result.problem = lost;
  return result;
}

/**
 * For the line-to-line commands (parse, canonicalize) that succeeded: whether the output has a
 * line for each line of the input that is not blank (none lost, none made up).
 */
function lostRows(scenario: Scenario, args: string[]): string | undefined {
  if (!["parse", "canonicalize"].includes(args[0]!)) return undefined;
  const input = args[1]!;
  const out = args[args.indexOf("--out") + 1]!;
  let inLines: number, outLines: number;
  try {
    // A gzip-compressed input is read decompressed.
    const raw = Deno.readFileSync(input);
    const text = textOf(raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw);
    inLines = text.split("\n").filter((l) => l.replace(/^\ufeff/, "").trim() !== "").length;
    outLines = textOf(Deno.readFileSync(out)).split("\n").filter((l) => l !== "").length;
  } catch {
    return undefined; // the input was spoiled into something else than a file
  }
  return (scenario.name.startsWith("parse") ? outLines === inLines : outLines >= inLines)
    ? undefined
    : `${inLines} input lines gave ${outLines} output lines`;
}

/** What a run of cases gave: the cases that broke the rule, and the exits. */
export interface FuzzResult {
  failing: CaseResult[];
  /** How many cases ended with each exit code. */
  exits: Record<number, number>;
}

/** Runs cases `from` to `from + cases - 1` of `seed`. */
export async function fuzz(
  options: { seed: number; cases: number; from?: number; only?: string; log?: boolean },
): Promise<FuzzResult> {
  const corpus = await makeCorpus();
  const scenarios = options.only === undefined
    ? SCENARIOS
    : SCENARIOS.filter((s) => s.name === options.only);
  const result: FuzzResult = { failing: [], exits: {} };
  try {
    for (let i = options.from ?? 0; i < (options.from ?? 0) + options.cases; i++) {
      const r = await runCase(corpus, options.seed, i, scenarios);
      result.exits[r.code] = (result.exits[r.code] ?? 0) + 1;
      if (options.log) console.error(`case ${i}: ${r.scenario}: ${r.mutation}: exit ${r.code}`);
      if (r.problem === undefined) continue;
      result.failing.push(r);
      if (options.log) {
        console.error(`FAIL case ${i} (${r.problem}): assay ${r.args.join(" ")}\n${r.stderr}\n`);
      }
    }
  } finally {
    await Deno.remove(corpus.dir, { recursive: true });
  }
  return result;
}

/** Runs each scenario as it is, unspoiled: the exit codes, by scenario. */
export async function unspoiled(): Promise<Record<string, CaseResult>> {
  const corpus = await makeCorpus();
  const out: Record<string, CaseResult> = {};
  try {
    for (const s of SCENARIOS) {
      const dir = await Deno.makeTempDir({ dir: corpus.dir });
      let n = 0;
      const args = s.args.map((a) =>
        a === "%out" ? `${dir}/out${n++}` : a.startsWith("@") ? `${dir}/${a.slice(1)}` : a
      );
      for (const a of s.args.filter((a) => a.startsWith("@"))) {
        Deno.copyFileSync(`${corpus.dir}/${a.slice(1)}`, `${dir}/${a.slice(1)}`);
      }
      const r = await inFolder(dir, () => runMain(args));
      out[s.name] = { scenario: s.name, mutation: "none", args, code: r.code, stderr: r.stderr };
    }
  } finally {
    await Deno.remove(corpus.dir, { recursive: true });
  }
  return out;
}

if (import.meta.main) {
  const flag = (name: string) => {
    const i = Deno.args.indexOf(`--${name}`);
    return i < 0 ? undefined : Deno.args[i + 1];
  };
  const { failing, exits } = await fuzz({
    seed: Number(flag("seed") ?? 0),
    cases: Number(flag("cases") ?? 1000),
    from: Number(flag("from") ?? 0),
    ...(flag("only") !== undefined && { only: flag("only") }),
    log: true,
  });
  console.error(
    `${failing.length} failing case(s); exits ${JSON.stringify(exits)}`,
  );
  Deno.exit(failing.length === 0 ? 0 : 1);
}
