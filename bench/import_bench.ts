/**
 * Import cost of the root, in one run: a fresh `deno run` process that imports the root `mod.ts`
 * and calls `canonicalize` once, against one that imports `src/engine/mod.ts` alone and calls
 * the same function (issue 12, acceptance 3: the root within 2× of the engine alone).
 *
 * The two processes alternate (A B B A …) after warm-up runs of each, which also fill Deno's
 * transpile cache. Each is timed twice: the whole process, from spawn to exit, as the parent
 * sees it; and, inside it, from before its dynamic `import()` to after the call. The figures to
 * read are the medians' ratios, measured side by side on the same machine. The module counts
 * come from `deno info --json`.
 *
 * Usage: `deno run -A bench/import_bench.ts [--runs 40] [--warmup 3] [--json FILE]`
 *
 * @module
 */
import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "40" },
    warmup: { type: "string", default: "3" },
    json: { type: "string" },
  },
});
const RUNS = Number(values.runs);
const WARMUP = Number(values.warmup);
if (!(RUNS >= 1 && WARMUP >= 0)) throw new RangeError("--runs must be ≥ 1 and --warmup ≥ 0");

const ROOT = new URL("../", import.meta.url);
const path = (rel: string) => decodeURIComponent(new URL(rel, ROOT).pathname);

interface Side {
  /** What it imports, relative to the repository. */
  entry: string;
  /** The child script. */
  script: string;
  /** Milliseconds per run: the whole process, and its import plus the call. */
  process: number[];
  inside: number[];
}

function childScript(entry: string): string {
  const url = new URL(entry, ROOT).href;
  return `const t0 = performance.now();
const { canonicalize } = await import(${JSON.stringify(url)});
const r = canonicalize('{"b": 1e16, "a": 1.0}');
if (!r.ok || r.canonical !== '{"a":1.0,"b":1e+16}') throw new Error("Unexpected result");
console.log(performance.now() - t0);
`;
}

async function runOnce(side: Side): Promise<[number, number]> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--quiet", side.script],
    cwd: path("./"),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const wall = performance.now() - started;
  if (!out.success) {
    throw new Error(`${side.entry}: ${new TextDecoder().decode(out.stderr).trim().slice(-2000)}`);
  }
  return [wall, Number(new TextDecoder().decode(out.stdout).trim())];
}

async function moduleCount(entry: string): Promise<{ modules: number; bytes: number }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: path("./"),
    stdout: "piped",
  }).output();
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { size?: number }[];
  };
  return {
    modules: graph.modules.length,
    bytes: graph.modules.reduce((n, m) => n + (m.size ?? 0), 0),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const tmp = await Deno.makeTempDir({ prefix: "assay_import_bench_" });
try {
  const sides: Side[] = ["mod.ts", "src/engine/mod.ts"].map((entry, i) => ({
    entry,
    script: `${tmp}/child_${i}.js`,
    process: [],
    inside: [],
  }));
  for (const s of sides) await Deno.writeTextFile(s.script, childScript(s.entry));
  const [root, engine] = sides as [Side, Side];
  for (let i = 0; i < WARMUP; i++) for (const s of sides) await runOnce(s);
  for (let i = 0; i < RUNS; i++) {
    for (const s of i % 2 === 0 ? [root, engine] : [engine, root]) {
      const [wall, inside] = await runOnce(s);
      s.process.push(wall);
      s.inside.push(inside);
    }
  }
  const counts = await Promise.all(sides.map((s) => moduleCount(s.entry)));
  const result = {
    runs: RUNS,
    deno: Deno.version.deno,
    call: 'canonicalize(\'{"b": 1e16, "a": 1.0}\') on the default engine',
    sides: sides.map((s, i) => ({
      entry: s.entry,
      modules: counts[i]!.modules,
      moduleBytes: counts[i]!.bytes,
      processMedianMs: median(s.process),
      importAndCallMedianMs: median(s.inside),
    })),
    ratio: {
      process: median(root.process) / median(engine.process),
      importAndCall: median(root.inside) / median(engine.inside),
    },
  };
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  console.log(`Import cost, ${RUNS} interleaved runs of each (Deno ${Deno.version.deno}):`);
  for (const s of result.sides) {
    console.log(
      `  ${s.entry.padEnd(18)} ${String(s.modules).padStart(3)} modules ` +
        `(${(s.moduleBytes / 1000).toFixed(0)} KB)  process ${ms(s.processMedianMs)}  ` +
        `import + call ${ms(s.importAndCallMedianMs)}`,
    );
  }
  console.log(
    `  root / engine: ${result.ratio.process.toFixed(2)}x for the process, ` +
      `${result.ratio.importAndCall.toFixed(2)}x for the import and call (target ≤ 2x)`,
  );
  if (values.json) await Deno.writeTextFile(values.json, JSON.stringify(result, null, 2) + "\n");
} finally {
  await Deno.remove(tmp, { recursive: true });
}
