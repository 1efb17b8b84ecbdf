/**
 * End-to-end benchmark of `assay score` and `scoreJsonl` against the Python oracle
 * (tests/evaluation/_score_oracle.py), on three seeded corpora, in one run:
 *
 * - `varied` (tests/evaluation/_varied_corpus.ts), written independently of the engine to be
 *   unlike what it was tuned on: floats of every magnitude, pretty-printed and compact JSON,
 *   non-ASCII keys and values, about half the outputs broken (25% invalid_json, 23%
 *   invalid_shape, 4% no_json);
 * - `classic` (tests/evaluation/_score_corpus.ts), the earlier bench corpus;
 * - `heldout` (tests/evaluation/_heldout_corpus.py), written on 2026-12-07 by a generator made
 *   from the docs alone, without sight of the engine or the corpora above: data the kernel was not
 *   tuned for, 1.5% of its outputs written as JSON values (an API's whole response).
 *
 * The sides, each a fresh process started as users start it, on the same files:
 *
 * - `assay score` (`deno run <the assay task's flags> cli/main.ts score ... --out report.json
 *   --quiet`): the Wasm engine and its scoring kernel;
 * - `scoreJsonl` (bench/_score_jsonl_run.ts): the library, each file a function that opens it,
 *   node:crypto's SHA-256, the bytes written to a file;
 * - `assay score --engine ts`: the general reader on the TS engine;
 * - `python3 tests/evaluation/_score_oracle.py`.
 *
 * Every side is pinned to one core (`taskset -c 0`, unless `--cpus all`), so the ratios are per
 * core. Each side runs several times, interleaved with the others; examples/s is from the median
 * wall time (process start to exit). Peak memory is the maximum resident set size reported by
 * `/usr/bin/time -v`. Before timing counts, the Assay reports are checked to be the same bytes
 * (but for the engine's name) and to agree with the oracle on every figure.
 *
 * Usage: `deno run -A bench/score_bench.ts [--corpus varied,classic,heldout] [--count N] [--reps R]
 *         [--oracle-reps R] [--cpus 0|all] [--no-prompts] [--no-phases] [--json FILE]`
 *
 * Unless `--no-phases`, it then shows where `assay score`'s time goes on each corpus
 * (bench/_score_phases.ts): start-up (a 10-example run), reading the files, their SHA-256, the
 * scoring kernel's phases on the files in memory (first run and warm), and the rest; and how fast
 * the kernel would have to be for the target ratio, the rest unchanged.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { SCORE_CORPORA, writeBenchCorpus } from "./_score_corpora.ts";
import { assayRun } from "./_cli.ts";
import type { PhaseTimes } from "./_score_phases.ts";
import { median } from "./_median.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    corpus: { type: "string", default: "varied,classic,heldout" },
    count: { type: "string", default: "100000" },
    reps: { type: "string", default: "5" },
    "oracle-reps": { type: "string", default: "3" },
    cpus: { type: "string", default: "0" },
    "no-prompts": { type: "boolean", default: false },
    "no-phases": { type: "boolean", default: false },
    json: { type: "string" },
    seed: { type: "string", default: "20240611" },
  },
});
const COUNT = Number(values.count);
const REPS = Number(values.reps);
const ORACLE_REPS = Number(values["oracle-reps"]);
const TARGET = 18;

const ROOT = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");
const run = await assayRun();
const ORACLE = `${ROOT}/tests/evaluation/_score_oracle.py`;
const LIBRARY = `${ROOT}/bench/_score_jsonl_run.ts`;
const TIME = "/usr/bin/time";
const hasTime = await Deno.stat(TIME).then(() => true, () => false);
const TASKSET = "/usr/bin/taskset";
const pin = values.cpus !== "all" && await Deno.stat(TASKSET).then(() => true, () => false);

interface Sample {
  seconds: number;
  peakKiB: number;
}

/** Runs a command once (on one core unless --cpus all); returns wall seconds and peak RSS. */
async function measure(cmd: string, args: string[]): Promise<Sample> {
  let argv = [cmd, ...args];
  if (pin) argv = [TASKSET, "-c", values.cpus!, ...argv];
  if (hasTime) argv = [TIME, "-v", ...argv];
  const started = performance.now();
  const out = await new Deno.Command(argv[0]!, {
    args: argv.slice(1),
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const seconds = (performance.now() - started) / 1000;
  const stderr = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed:\n${stderr}`);
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  return { seconds, peakKiB: m ? Number(m[1]) : NaN };
}

interface Row {
  name: string;
  runs: number;
  median_s: number;
  min_s: number;
  examples_per_s: number;
  x_oracle: number;
  peak_rss_mib: number;
}

async function benchCorpus(
  name: string,
  dir: string,
): Promise<{ rows: Row[]; info: unknown; phases: unknown }> {
  const prompts = !values["no-prompts"];
  console.log(`\n== ${name}: writing ${COUNT} examples to ${dir} ...`);
  const seed = Number(values.seed);
  const files = await writeBenchCorpus(name, dir, { seed, count: COUNT, prompts });
  const sizes: Record<string, number> = {};
  for (
    const [k, p] of Object.entries({
      examples: files.examples,
      generations: files.generations,
      prompts: files.prompts,
    })
  ) {
    if (p) sizes[k] = (await Deno.stat(p)).size;
  }
  const inputs = [
    "--examples",
    files.examples,
    "--generations",
    files.generations,
    ...(files.prompts ? ["--prompts", files.prompts] : []),
  ];
  const mb = (n: number) => (n / 1e6).toFixed(1) + " MB";
  console.log(Object.entries(sizes).map(([k, v]) => `${k} ${mb(v)}`).join(", "));

  const out = (side: string) => `${dir}/report_${side.replaceAll(/\W+/g, "_")}.json`;
  const SIDES: Record<string, [string, string[]]> = {
    "assay score": [Deno.execPath(), [...run, "score", ...inputs, "--quiet", "--out", out("cli")]],
    "scoreJsonl": [Deno.execPath(), ["run", "-A", LIBRARY, ...inputs, "--out", out("lib")]],
    "assay score --engine ts": [
      Deno.execPath(),
      [...run, "score", ...inputs, "--quiet", "--engine", "ts", "--out", out("ts")],
    ],
    "python oracle": ["python3", [ORACLE, ...inputs, "--out", out("oracle")]],
  };
  // Warm-up (module cache, page cache), and a check that every side agrees before timing counts.
  for (const [cmd, args] of Object.values(SIDES)) await measure(cmd, args);
  const oracle = JSON.parse(await Deno.readTextFile(out("oracle")));
  const cli = await Deno.readTextFile(out("cli"));
  for (const side of ["lib", "ts"]) {
    const text = await Deno.readTextFile(out(side));
    if (text.replace('"engine": "ts"', '"engine": "wasm"') !== cli) {
      throw new Error(`${side} wrote another report than assay score`);
    }
  }
  const report = JSON.parse(cli);
  for (const k of ["n", "drop_summary", "parse_status_counts", "slices", "metrics"]) {
    if (JSON.stringify(report[k]) !== JSON.stringify(oracle[k])) {
      throw new Error(`assay and the oracle disagree on ${k}`);
    }
  }
  const s = report.parse_status_counts;
  console.log(
    `reports agree (n ${report.n}; ok ${s.ok}, invalid_json ${s.invalid_json}, invalid_shape ` +
      `${s.invalid_shape}, no_json ${s.no_json}); timing ${REPS} runs each, oracle ${ORACLE_REPS}` +
      (pin ? `, every side on core ${values.cpus}` : ", unpinned"),
  );

  const results: Record<string, Sample[]> = {};
  // Interleave the sides so that drift on a shared machine hits them alike.
  for (let i = 0; i < Math.max(REPS, ORACLE_REPS); i++) {
    for (const [side, [cmd, args]] of Object.entries(SIDES)) {
      const reps = side === "python oracle" ? ORACLE_REPS : REPS;
      if (i < reps) (results[side] ??= []).push(await measure(cmd, args));
    }
  }
  const oracleT = median(results["python oracle"]!.map((r) => r.seconds));
  const rows: Row[] = Object.entries(results).map(([side, samples]) => {
    const t = median(samples.map((r) => r.seconds));
    return {
      name: side,
      runs: samples.length,
      median_s: t,
      min_s: Math.min(...samples.map((r) => r.seconds)),
      examples_per_s: COUNT / t,
      x_oracle: oracleT / t,
      peak_rss_mib: Math.max(...samples.map((r) => r.peakKiB)) / 1024,
    };
  });
  console.log(
    "\n" + "side".padEnd(25) + "runs".padStart(5) + "median s".padStart(10) + "min s".padStart(8) +
      "examples/s".padStart(12) + "x oracle".padStart(10) + "peak RSS".padStart(11),
  );
  for (const r of rows) {
    console.log(
      r.name.padEnd(25) + String(r.runs).padStart(5) + r.median_s.toFixed(2).padStart(10) +
        r.min_s.toFixed(2).padStart(8) +
        Math.round(r.examples_per_s).toLocaleString("en").padStart(12) +
        r.x_oracle.toFixed(1).padStart(10) + (r.peak_rss_mib.toFixed(0) + " MiB").padStart(11),
    );
  }
  for (const side of ["assay score", "scoreJsonl"]) {
    const r = rows.find((x) => x.name === side)!;
    console.log(
      `${side}: ${r.x_oracle.toFixed(1)}x the oracle (target ${TARGET}x): ` +
        (r.x_oracle >= TARGET ? "met" : "NOT met") +
        `; peak RSS ${r.peak_rss_mib.toFixed(0)} MiB (target 150 MiB)`,
    );
  }
  const phases = values["no-phases"]
    ? undefined
    : await wherePhases(dir, name, rows, oracleT, prompts);
  return { rows, info: { sizes, parse_status_counts: s, n: report.n }, phases };
}

/** Prints (and returns) where `assay score`'s time goes on the corpus in `dir`. */
async function wherePhases(
  dir: string,
  name: string,
  rows: Row[],
  oracleT: number,
  prompts: boolean,
): Promise<Record<string, unknown>> {
  const tiny = `${dir}/tiny`;
  await Deno.mkdir(tiny);
  const seed = Number(values.seed);
  const files = await writeBenchCorpus(name, tiny, { seed, count: 10, prompts });
  const tinyArgs = [
    ...run,
    "score",
    "--examples",
    files.examples,
    "--generations",
    files.generations,
    ...(files.prompts ? ["--prompts", files.prompts] : []),
    "--quiet",
    "--out",
    `${tiny}/report.json`,
  ];
  const startups: number[] = [];
  for (let i = 0; i < Math.max(REPS, 3); i++) {
    startups.push((await measure(Deno.execPath(), tinyArgs)).seconds);
  }
  const startup = median(startups);
  let argv = [Deno.execPath(), "run", "-A", `${ROOT}/bench/_score_phases.ts`, dir, String(REPS)];
  if (pin) argv = [TASKSET, "-c", values.cpus!, ...argv];
  const out = await new Deno.Command(argv[0]!, { args: argv.slice(1), stderr: "inherit" })
    .output();
  if (!out.success) throw new Error("bench/_score_phases.ts failed");
  const t = JSON.parse(new TextDecoder().decode(out.stdout)) as PhaseTimes;
  const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  const whole = rows.find((r) => r.name === "assay score")!.median_s;
  const first = sum(t.kernelFirst);
  const warm = sum(t.kernelWarm);
  const rest = whole - startup - t.read - t.sha256 - first;
  const parts = (r: Record<string, number>) =>
    Object.entries(r).map(([k, v]) => `${k} ${v.toFixed(3)}`).join(", ");
  const line = (what: string, s: number, more = "") =>
    console.log("  " + what.padEnd(34) + (s.toFixed(3) + " s").padStart(9) + (more && `  ${more}`));
  console.log(`\nwhere assay score's time goes on ${name} (kernel on the files in memory):`);
  line("whole run (median)", whole);
  line("start-up (a 10-example run)", startup);
  line("reading the files (4 MiB chunks)", t.read);
  line("SHA-256 of the files (node:crypto)", t.sha256);
  line("kernel, first run", first, parts(t.kernelFirst));
  line("kernel, warm (median)", warm, parts(t.kernelWarm));
  line("for scale: JSON.parse of each line", sum(t.jsonParse), parts(t.jsonParse));
  // Timed apart (the kernel in its own process), the parts need not add up: this can be below 0.
  line("the rest, by difference", rest, "copies into the kernel, progress, the report's write");
  const goal = oracleT / TARGET;
  const left = goal - (whole - first);
  console.log(
    `  ${TARGET}x the oracle is ${goal.toFixed(3)} s: the parts outside the kernel take ` +
      `${(whole - first).toFixed(3)} s, so the kernel's first run would have to take ` +
      (left > 0
        ? `${left.toFixed(3)} s (${(first / left).toFixed(1)}x faster than today)`
        : "less than nothing"),
  );
  return { whole, startup, ...t, rest, goal };
}

const corpora = values.corpus!.split(",");
const all: Record<string, unknown> = {};
for (const name of corpora) {
  if (!SCORE_CORPORA.includes(name)) throw new Error(`Unknown corpus "${name}"`);
  const dir = await Deno.makeTempDir({ prefix: `assay_score_bench_${name}_` });
  try {
    all[name] = await benchCorpus(name, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
console.log(`\npeak RSS from ${hasTime ? "/usr/bin/time -v" : "(unavailable: no /usr/bin/time)"}`);
if (values.json) {
  await Deno.writeTextFile(
    values.json,
    JSON.stringify({ count: COUNT, pinned: pin ? values.cpus : "all", corpora: all }, null, 2) +
      "\n",
  );
}
