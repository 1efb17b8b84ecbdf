/**
 * End-to-end benchmark of `assay score` against the Python oracle (tests/evaluation/_score_oracle.py).
 *
 * Generates one seeded corpus (default 100,000 examples, model outputs of about 300 B, with a
 * prompts manifest) into a temp dir, then times, on the same files and in one run:
 *
 * - the Assay CLI (`deno run <the assay task's flags> cli/main.ts score ... --out report.json
 *   --quiet`, spawned with `Deno.execPath()`, as `deno task assay` runs it): read, join, parse,
 *   score and write, with `--engine wasm` (the scoring
 *   kernel, which takes two threads from 16 MB of input on), `--engine wasm --no-fast-path` (the
 *   general reader) and `--engine ts`;
 * - `python3 tests/evaluation/_score_oracle.py` on the same files.
 *
 * Each is run several times; examples/s is from the median wall time (process start to exit).
 * Peak memory is the maximum resident set size reported by `/usr/bin/time -v` (or, without it,
 * VmHWM polled from /proc/<pid>/status). Before timing counts, the Assay reports are checked to be
 * the same bytes (but for the engine's name) and to agree with the oracle on every figure.
 *
 * Usage: `deno run -A bench/score_bench.ts [--count N] [--bytes B] [--reps R] [--oracle-reps R]
 *         [--no-prompts] [--json FILE]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { writeScoreCorpus } from "../tests/evaluation/_score_corpus.ts";
import { assayRun } from "./_cli.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    count: { type: "string", default: "100000" },
    bytes: { type: "string", default: "300" },
    reps: { type: "string", default: "5" },
    "oracle-reps": { type: "string", default: "3" },
    "no-prompts": { type: "boolean", default: false },
    json: { type: "string" },
    seed: { type: "string", default: "20240601" },
  },
});
const COUNT = Number(values.count);
const BYTES = Number(values.bytes);
const REPS = Number(values.reps);
const ORACLE_REPS = Number(values["oracle-reps"]);

const ROOT = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");
/** `run`, the assay task's flags and cli/main.ts: the CLI as `deno task assay` starts it. */
const run = await assayRun();
const ORACLE = `${ROOT}/tests/evaluation/_score_oracle.py`;
const TIME = "/usr/bin/time";
const hasTime = await Deno.stat(TIME).then(() => true, () => false);

interface Sample {
  seconds: number;
  peakKiB: number;
}

/** Runs a command once; returns wall seconds and peak RSS in KiB. */
async function measure(cmd: string, args: string[]): Promise<Sample> {
  const argv = hasTime ? [TIME, ["-v", cmd, ...args]] as const : [cmd, args] as const;
  const started = performance.now();
  const child = new Deno.Command(argv[0], {
    args: [...argv[1]],
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  let polledKiB = 0;
  let polling = !hasTime;
  const poll = (async () => {
    while (polling) {
      try {
        const status = await Deno.readTextFile(`/proc/${child.pid}/status`);
        const m = /VmHWM:\s+(\d+) kB/.exec(status);
        if (m) polledKiB = Math.max(polledKiB, Number(m[1]));
      } catch { /* exited */ }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const out = await child.output();
  const seconds = (performance.now() - started) / 1000;
  polling = false;
  await poll;
  const stderr = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed:\n${stderr}`);
  let peakKiB = polledKiB;
  if (hasTime) {
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
    if (!m) throw new Error(`no RSS in /usr/bin/time output:\n${stderr}`);
    peakKiB = Number(m[1]);
  }
  return { seconds, peakKiB };
}

const median = (xs: number[]): number => {
  const s = xs.slice().sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const dir = await Deno.makeTempDir({ prefix: "assay_score_bench_" });
try {
  console.log(`writing ${COUNT} examples (outputs of about ${BYTES} B) to ${dir} ...`);
  // The generator's outputs run a little long (deep and fuzzed outputs); aim low to land near BYTES.
  const corpus = await writeScoreCorpus(dir, {
    seed: Number(values.seed),
    count: COUNT,
    outputBytes: Math.round(BYTES * 0.95),
    prompts: !values["no-prompts"],
  });
  const sizes: Record<string, number> = {};
  for (
    const [k, p] of Object.entries({
      examples: corpus.examples,
      generations: corpus.generations,
      prompts: corpus.prompts,
    })
  ) {
    if (p) sizes[k] = (await Deno.stat(p)).size;
  }
  const inputs = [
    "--examples",
    corpus.examples,
    "--generations",
    corpus.generations,
    ...(corpus.prompts ? ["--prompts", corpus.prompts] : []),
  ];
  const mb = (n: number) => (n / 1e6).toFixed(1) + " MB";
  console.log(
    `corpus: ${corpus.rows.examples} examples (${corpus.rows.dropped} dropped targets), ` +
      `${corpus.rows.generations} generations, mean output ${
        corpus.outputBytes.mean.toFixed(0)
      } B; ` +
      Object.entries(sizes).map(([k, v]) => `${k} ${mb(v)}`).join(", "),
  );

  // The sides: the Wasm engine with its scoring kernel (the default), the Wasm engine with the
  // general reader only, and the TS engine (which always reads with the general reader).
  const SIDES: Record<string, string[]> = {
    "assay wasm": ["--engine", "wasm"],
    "assay general": ["--engine", "wasm", "--no-fast-path"],
    "assay ts": ["--engine", "ts"],
  };
  const assayArgs = (side: string) => [
    ...run,
    "score",
    ...inputs,
    "--out",
    `${dir}/report_${side.replace(" ", "_")}.json`,
    "--quiet",
    ...SIDES[side]!,
  ];
  const oracleArgs = [ORACLE, ...inputs, "--out", `${dir}/oracle.json`];

  // Warm-up (module cache, page cache), and a check that every side agrees before timing counts:
  // the Assay reports byte for byte (but for the engine's name), the oracle on every figure.
  for (const side of Object.keys(SIDES)) await measure(Deno.execPath(), assayArgs(side));
  await measure("python3", oracleArgs);
  const oracleReport = JSON.parse(await Deno.readTextFile(`${dir}/oracle.json`));
  const reportOf = (side: string) =>
    Deno.readTextFile(`${dir}/report_${side.replace(" ", "_")}.json`);
  const kernelText = await reportOf("assay wasm");
  for (const side of Object.keys(SIDES)) {
    const text = await reportOf(side);
    if (text.replace('"engine": "ts"', '"engine": "wasm"') !== kernelText) {
      throw new Error(`${side} wrote another report than the kernel`);
    }
    const r = JSON.parse(text);
    for (const k of ["n", "drop_summary", "parse_status_counts", "slices", "metrics"]) {
      if (JSON.stringify(r[k]) !== JSON.stringify(oracleReport[k])) {
        throw new Error(`${side} and the oracle disagree on ${k}`);
      }
    }
  }
  console.log(
    `reports agree (n ${oracleReport.n}); timing ${REPS} runs each, oracle ${ORACLE_REPS}`,
  );

  const results: Record<string, { seconds: number[]; peakKiB: number[] }> = {};
  const record = (name: string, s: Sample) => {
    const r = results[name] ??= { seconds: [], peakKiB: [] };
    r.seconds.push(s.seconds);
    r.peakKiB.push(s.peakKiB);
  };
  // Interleave the sides so that drift on a shared machine hits both alike.
  for (let i = 0; i < Math.max(REPS, ORACLE_REPS); i++) {
    for (const side of Object.keys(SIDES)) {
      if (i < REPS) record(side, await measure(Deno.execPath(), assayArgs(side)));
    }
    if (i < ORACLE_REPS) record("python oracle", await measure("python3", oracleArgs));
  }

  const rows = Object.entries(results).map(([name, r]) => {
    const t = median(r.seconds);
    return {
      name,
      runs: r.seconds.length,
      median_s: t,
      min_s: Math.min(...r.seconds),
      examples_per_s: COUNT / t,
      peak_rss_mib: Math.max(...r.peakKiB) / 1024,
    };
  });
  const oracleRow = rows.find((r) => r.name === "python oracle")!;
  console.log(
    "\n" + "side".padEnd(15) + "runs".padStart(5) + "median s".padStart(10) + "min s".padStart(8) +
      "examples/s".padStart(12) + "x oracle".padStart(10) + "peak RSS".padStart(11),
  );
  for (const r of rows) {
    console.log(
      r.name.padEnd(15) + String(r.runs).padStart(5) + r.median_s.toFixed(2).padStart(10) +
        r.min_s.toFixed(2).padStart(8) +
        Math.round(r.examples_per_s).toLocaleString("en").padStart(12) +
        (r.examples_per_s / oracleRow.examples_per_s).toFixed(1).padStart(10) +
        (r.peak_rss_mib.toFixed(0) + " MiB").padStart(11),
    );
  }
  const wasm = rows.find((r) => r.name === "assay wasm")!;
  const ratio = wasm.examples_per_s / oracleRow.examples_per_s;
  console.log(
    `\nassay (wasm) is ${ratio.toFixed(1)}x the oracle's throughput (target: 20x): ` +
      (ratio >= 20 ? "met" : "NOT met"),
  );
  console.log(`peak RSS from ${hasTime ? "/usr/bin/time -v" : "/proc/<pid>/status VmHWM, polled"}`);
  if (values.json) {
    await Deno.writeTextFile(
      values.json,
      JSON.stringify(
        {
          count: COUNT,
          mean_output_bytes: corpus.outputBytes.mean,
          file_bytes: sizes,
          prompts: Boolean(corpus.prompts),
          rss_source: hasTime ? "/usr/bin/time -v" : "VmHWM",
          results: rows,
          ratio_wasm_over_oracle: ratio,
        },
        null,
        2,
      ) + "\n",
    );
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
