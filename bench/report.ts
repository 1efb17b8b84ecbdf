/**
 * Runs `deno bench --json bench/engine_bench.ts` and prints a table of MB/s
 * per case and the wasm/ts throughput ratio (above 1: wasm is faster).
 *
 * Usage: `deno run -A bench/report.ts [extra deno bench flags, e.g. --filter span]`.
 * The raw JSON and the table are also written to `bench/results/` (not
 * committed). MB/s is 10^6 bytes of UTF-8 input per second, from the mean
 * time per iteration. Absolute numbers on a shared machine mean little; the
 * ratios are what to compare.
 *
 * @module
 */
import { benchGroups } from "./_inputs.ts";
import { type InMemoryResult, inMemoryResults } from "./_in_memory.ts";

interface BenchStats {
  n: number;
  min: number;
  avg: number;
  p75: number;
}

interface BenchEntry {
  group: string | null;
  name: string;
  results: ({ ok: BenchStats } | { failed: unknown })[];
}

interface BenchJson {
  runtime: string;
  cpu: string;
  benches: BenchEntry[];
}

const ROOT = decodeURIComponent(new URL("../", import.meta.url).pathname)
  .replace(/\/$/, "");
const BENCH_FILE = "bench/engine_bench.ts";
const RESULTS = `${ROOT}/bench/results`;
const TIMEOUT_MS = 20 * 60_000;

async function runBench(extra: string[]): Promise<BenchJson> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["bench", "--json", ...extra, BENCH_FILE],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
  const out = await child.output();
  clearTimeout(timer);
  if (!out.success) {
    throw new Error(
      `deno bench failed (exit ${out.code}${out.signal ? `, ${out.signal}` : ""})`,
    );
  }
  return JSON.parse(new TextDecoder().decode(out.stdout)) as BenchJson;
}

function statsOf(json: BenchJson, name: string): BenchStats | undefined {
  const entry = json.benches.find((b) => b.name === name);
  const r = entry?.results[0];
  return r && "ok" in r ? r.ok : undefined;
}

function fmtTime(ns: number): string {
  if (ns < 1e3) return `${ns.toFixed(0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(1)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}

function mbps(bytes: number, ns: number): number {
  return (bytes / ns) * 1e3; // bytes/ns * 1e9 / 1e6
}

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

/** Builds the Markdown table from `deno bench --json` output. */
export function formatReport(json: BenchJson): string {
  const lines: string[] = [];
  lines.push(`${json.runtime}, ${json.cpu}`);
  lines.push("");
  lines.push(
    row(["case", "input", "wasm", "ts", "wasm MB/s", "ts MB/s", "wasm/ts"]),
  );
  lines.push(row(["---", "---:", "---:", "---:", "---:", "---:", "---:"]));
  for (const g of benchGroups()) {
    if (g.kind === "crossing") {
      for (const label of ["empty batch", "one empty text"]) {
        const w = statsOf(json, `${label} wasm`);
        const t = statsOf(json, `${label} ts`);
        if (!w || !t) continue;
        lines.push(row([
          `crossing: ${label}`,
          "0 B",
          fmtTime(w.avg),
          fmtTime(t.avg),
          "-",
          "-",
          (t.avg / w.avg).toFixed(2),
        ]));
      }
      continue;
    }
    const w = statsOf(json, `${g.group} wasm`);
    const t = statsOf(json, `${g.group} ts`);
    if (!w || !t) continue;
    const input = g.texts.length > 1 ? `${g.texts.length} texts, ${g.bytes} B` : `${g.bytes} B`;
    lines.push(row([
      g.group,
      input,
      fmtTime(w.avg),
      fmtTime(t.avg),
      mbps(g.bytes, w.avg).toFixed(1),
      mbps(g.bytes, t.avg).toFixed(1),
      (t.avg / w.avg).toFixed(2),
    ]));
  }
  lines.push("");
  lines.push(
    "Times are means per iteration; wasm/ts is the throughput ratio (above 1: wasm faster).",
  );
  return lines.join("\n");
}

/** The table of the kernels alone, the input already in linear memory. */
function formatInMemory(results: InMemoryResult[]): string {
  const lines = [
    "",
    "The Wasm kernels alone, the input already in linear memory as UTF-8 bytes (best of 30 runs):",
    "",
    row(["case", "input", "wasm MB/s"]),
    row(["---", "---:", "---:"]),
  ];
  for (const r of results) lines.push(row([r.case, `${r.bytes} B`, r.mbPerS.toFixed(1)]));
  return lines.join("\n");
}

if (import.meta.main) {
  const json = await runBench(Deno.args);
  const table = formatReport(json) + "\n" + formatInMemory(inMemoryResults());
  console.log(table);
  await Deno.mkdir(RESULTS, { recursive: true });
  await Deno.writeTextFile(
    `${RESULTS}/engine_bench.json`,
    JSON.stringify(json, null, 2) + "\n",
  );
  await Deno.writeTextFile(`${RESULTS}/engine_bench.md`, table + "\n");
  console.error(
    `\nWrote bench/results/engine_bench.json and bench/results/engine_bench.md`,
  );
}
