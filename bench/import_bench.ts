/**
 * Import cost of the root, in one run: a fresh `deno run` process that imports the root and calls
 * `canonicalize` once, against one that imports the engine's folder alone and calls the same
 * function (issue 12, acceptance 3: the root within 2× of the engine alone).
 *
 * Each is measured as published (deno.json's `.` and `./engine`, files of dist/, which the bench
 * builds first, as `deno task build:dist` does) and as TypeScript sources (`mod.ts` and
 * `src/engine/mod.ts`, what the repository's own code and tests import).
 *
 * The processes take turns, in an order that rotates each round, after warm-up runs of each,
 * which also fill Deno's transpile cache. Each is timed twice: the whole process, from spawn to
 * exit, as the parent sees it; and, inside it, from before its dynamic `import()` to after the
 * call. The figures to read are the medians' ratios, measured side by side on the same machine.
 * The module counts are those the run loads: `deno info --json`'s code modules, without the
 * TypeScript a dist/ file names for its types.
 *
 * Usage: `deno run -A bench/import_bench.ts [--runs 40] [--warmup 3] [--json FILE]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { loadedModules, readConfig, writeDist } from "../build/build_dist.ts";
import { median } from "./_median.ts";

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
  /** What the output calls it. */
  label: string;
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
  const loaded = await loadedModules(path(entry));
  return { modules: loaded.size, bytes: [...loaded.values()].reduce((n, b) => n + b, 0) };
}

const exportsMap = (await readConfig()).exports;
await writeDist();
const tmp = await Deno.makeTempDir({ prefix: "assay_import_bench_" });
try {
  const entries: [string, string][] = [
    [`${exportsMap["."]} (published .)`, exportsMap["."]!],
    [`${exportsMap["./engine"]} (published ./engine)`, exportsMap["./engine"]!],
    ["mod.ts (source)", "./mod.ts"],
    ["src/engine/mod.ts (source)", "./src/engine/mod.ts"],
  ];
  const sides: Side[] = entries.map(([label, entry], i) => ({
    label,
    entry,
    script: `${tmp}/child_${i}.js`,
    process: [],
    inside: [],
  }));
  for (const s of sides) await Deno.writeTextFile(s.script, childScript(s.entry));
  for (let i = 0; i < WARMUP; i++) for (const s of sides) await runOnce(s);
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < sides.length; k++) {
      const s = sides[(i + k) % sides.length]!;
      const [wall, inside] = await runOnce(s);
      s.process.push(wall);
      s.inside.push(inside);
    }
  }
  const counts = await Promise.all(sides.map((s) => moduleCount(s.entry)));
  const ratio = (a: Side, b: Side) => ({
    process: median(a.process) / median(b.process),
    importAndCall: median(a.inside) / median(b.inside),
  });
  const [pubRoot, pubEngine, srcRoot, srcEngine] = sides as [Side, Side, Side, Side];
  const result = {
    runs: RUNS,
    deno: Deno.version.deno,
    call: 'canonicalize(\'{"b": 1e16, "a": 1.0}\') on the default engine',
    sides: sides.map((s, i) => ({
      entry: s.label,
      modules: counts[i]!.modules,
      moduleBytes: counts[i]!.bytes,
      processMedianMs: median(s.process),
      importAndCallMedianMs: median(s.inside),
    })),
    ratio: {
      published: ratio(pubRoot, pubEngine),
      publishedRootToSourceEngine: ratio(pubRoot, srcEngine),
      sources: ratio(srcRoot, srcEngine),
    },
  };
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  console.log(`Import cost, ${RUNS} runs of each, in turn (Deno ${Deno.version.deno}):`);
  for (const s of result.sides) {
    console.log(
      `  ${s.entry.padEnd(52)} ${String(s.modules).padStart(3)} modules ` +
        `(${(s.moduleBytes / 1000).toFixed(0)} KB)  process ${ms(s.processMedianMs)}  ` +
        `import + call ${ms(s.importAndCallMedianMs)}`,
    );
  }
  const line = (what: string, r: { process: number; importAndCall: number }) =>
    console.log(
      `  ${what.padEnd(52)} ${r.importAndCall.toFixed(2)}x for the import and call, ` +
        `${r.process.toFixed(2)}x for the process`,
    );
  line("root / engine, as published (target ≤ 2x):", result.ratio.published);
  line("root as published / engine's TypeScript:", result.ratio.publishedRootToSourceEngine);
  line("root / engine, as TypeScript sources:", result.ratio.sources);
  if (values.json) await Deno.writeTextFile(values.json, JSON.stringify(result, null, 2) + "\n");
} finally {
  await Deno.remove(tmp, { recursive: true });
}
