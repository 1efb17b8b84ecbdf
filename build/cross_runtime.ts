/**
 * The cross-runtime conformance run: the same corpus through every batch API,
 * on both engines, on Deno, Node, Bun and workerd, and one digest that must be
 * the same everywhere.
 *
 * - Deno runs `tests/conformance/main.ts` with no permissions at all, twice: on the sources, and
 *   (`deno+dist`) on dist/, the files the package publishes, through an import map.
 * - Node runs it bundled by `deno bundle` from dist/.
 * - Bun (pinned in `tests/runtimes/`) runs the TypeScript source.
 * - workerd (pinned in `tests/runtimes/`) serves two workers on ephemeral
 *   loopback ports: one imports `build/assay.wasm` as a module and passes it as
 *   `wasmModule`; the other has no module, so `auto` must fall back to `ts`.
 *   No worker has a compatibility flag (the config is checked for none).
 * - Before workerd starts, `deno bundle mod.ts` (the default platform,
 *   unminified) must import no `node:` module and stay within 350 KiB; the run
 *   prints its size and parts, and those of the `./suite` bundle on both
 *   platforms. workerd then also serves the edge workers of
 *   `build/_edge_workers.ts`: the root bundle scoring JSONL bytes with and
 *   without `wasmModule`, and the `./suite` bundle (browser platform) running a
 *   JSONC and a YAML suite, which must answer as Deno does on the sources.
 *
 * - Deno, Node and Bun also run `tests/conformance/bfcl_main.ts`: checkBfcl on the 11 vendored
 *   models' results in every category, one digest per run (`build/_bfcl_runs.ts`).
 *
 * Every run also scores seeded JSONL bytes with `scoreJsonl` from the root;
 * `assay score` scores the same bytes written to files, on `wasm` and on `ts`,
 * and each run's report must be the CLI's byte for byte on the same engine.
 * It scores JSONL bytes with `scoreStructuredJsonl` too, fed in small chunks, whose reports
 * (engine blanked) and refusals go into the digest (`tests/conformance/_structured_jsonl.ts`).
 *
 * Prints one line per runtime and engine, and exits 1 unless every run
 * started the engine it should, all digests are identical and every
 * scoreJsonl report is the CLI's.
 *
 * Usage: `deno run -A build/cross_runtime.ts [deno] [node] [bun] [workerd]`
 * (no arguments: all of them).
 *
 * @module
 */
import { ensureRuntimes } from "../tests/runtimes/ensure.ts";
import {
  type ConformanceFailure,
  type ConformanceReport,
  missingErrorCodes,
} from "../tests/conformance/_report.ts";
import {
  bundle,
  CrossRuntimeError,
  type Entry,
  exec,
  ROOT,
  type Run,
  RUN_TIMEOUT_MS,
  tail,
} from "./_runs.ts";
import { compatibilityFlags, runWorkerd, WORKERD_CONFIG } from "./_workerd.ts";
import { bfclAcrossRuntimes } from "./_bfcl_runs.ts";
import { type CliReport, scoreWithCli } from "./_cli_score.ts";
import {
  bundleInfo,
  describeBundle,
  readmeBundleProblems,
  ROOT_BUNDLE_BUDGET,
} from "./_bundles.ts";
import { checkEdge, suiteOnDeno } from "./_edge_workers.ts";
import { distImportMap } from "./build_dist.ts";
import { buildCorpus } from "../tests/conformance/_corpus.ts";
import { buildJsonlCorpus, type JsonlCorpus } from "../tests/conformance/_jsonl_corpus.ts";
import type { TestRuntimes } from "../tests/runtimes/ensure.ts";

const MAIN = "tests/conformance/main.ts";

function parseEntries(what: string, stdout: string): Entry[] {
  const entries = stdout.split("\n").filter((l) => l.startsWith("{")).map((l) =>
    JSON.parse(l) as Entry
  );
  if (entries.length === 0) {
    throw new CrossRuntimeError(`${what}: printed no result\n${tail(stdout)}`);
  }
  return entries;
}

/** Writes the import map that puts dist/ in place of the sources (see distImportMap). */
async function writeDistMap(tmp: string): Promise<string> {
  const file = `${tmp}/dist_import_map.json`;
  await Deno.writeTextFile(file, JSON.stringify(await distImportMap()));
  return file;
}

/** Deno on the sources, and on dist/ (the published files) through `distMap`. */
async function runDeno(distMap: string): Promise<Run[]> {
  const runs: Run[] = [];
  for (const map of [undefined, distMap]) {
    const host = map ? "deno+dist" : "deno";
    // No permission flags: importing and running the library must need none.
    const out = await exec(
      host,
      Deno.execPath(),
      [
        "run",
        "--no-prompt",
        ...(map ? ["--import-map", map] : []),
        // npm:yaml's Node build reads LOG_TOKENS and LOG_STREAM while parsing (docs/suite.md).
        "--allow-env=LOG_TOKENS,LOG_STREAM",
        MAIN,
      ],
      RUN_TIMEOUT_MS,
    );
    runs.push(
      ...parseEntries(host, out).map((entry) => ({ host, version: Deno.version.deno, entry })),
    );
  }
  return runs;
}

/** Node on a bundle of the conformance built from dist/, the files the package publishes. */
async function runNode(tmp: string, distMap: string): Promise<Run[]> {
  const file = `${tmp}/conformance_node.mjs`;
  await bundle(MAIN, file, "browser", distMap);
  const version = (await exec("node", "node", ["--version"], 30_000)).trim();
  const out = await exec("node", "node", [file], RUN_TIMEOUT_MS);
  return parseEntries("node", out).map((entry) => ({
    host: "node",
    version,
    entry,
  }));
}

async function runBun(bun: string, version: string): Promise<Run[]> {
  const out = await exec("bun", bun, ["run", MAIN], RUN_TIMEOUT_MS);
  return parseEntries("bun", out).map((entry) => ({
    host: "bun",
    version,
    entry,
  }));
}

/**
 * The workerd step: the root and `./suite` bundles and their checks (no `node:` import, the
 * root's budget, no compatibility flags), then the conformance and the edge workers on workerd.
 */
async function runWorkerdStep(
  tmp: string,
  rt: TestRuntimes,
  jsonl: JsonlCorpus,
  cli: Record<string, CliReport> | undefined,
  problems: string[],
): Promise<Run[]> {
  const dir = `${tmp}/bundles`;
  await Deno.mkdir(dir, { recursive: true });
  const root = await bundleInfo("mod.ts", dir, "deno");
  const rootBrowser = await bundleInfo("mod.ts", dir, "browser");
  const suiteDeno = await bundleInfo("src/suite/mod.ts", dir, "deno");
  const suite = await bundleInfo("src/suite/mod.ts", dir, "browser");
  const [deno, browser] = await Promise.all(
    [root.file, rootBrowser.file].map((f) => Deno.readFile(f)),
  );
  const same = deno!.length === browser!.length && deno!.every((x, i) => x === browser![i]);
  console.log(
    describeBundle(root) + `\n${"".padEnd(28)} budget ${ROOT_BUNDLE_BUDGET / 1024} KiB; ` +
      (same
        ? "--platform browser gives the same bytes"
        : `--platform browser: ${rootBrowser.bytes} bytes, imports ${
          rootBrowser.imports.join(", ") || "nothing"
        }`),
  );
  console.log(describeBundle(suite));
  const requires = [...suiteDeno.nodeRequires].map(([part, mods]) =>
    `${part} (${mods.join(", ")})`
  );
  console.log(
    describeBundle(suiteDeno) +
      (suiteDeno.imports.includes("node:module")
        ? `\n${"".padEnd(28)} not for workerd: deno bundle turns the require()s of ` +
          `${requires.join(", ") || "its CommonJS modules"} into node:module's createRequire; ` +
          "bundled for the browser platform, as workers' bundlers do, it takes the browser builds"
        : ""),
  );
  for (const b of [root, rootBrowser, suite]) {
    const node = b.imports.filter((i) => i.startsWith("node:"));
    if (node.length > 0) {
      problems.push(`${b.entry} bundled for ${b.platform} imports ${node.join(", ")}`);
    }
  }
  if (root.bytes > ROOT_BUNDLE_BUDGET) {
    problems.push(
      `The root bundle is ${root.bytes} bytes, over its budget of ${ROOT_BUNDLE_BUDGET} ` +
        `(${ROOT_BUNDLE_BUDGET / 1024} KiB): ${describeBundle(root)}`,
    );
  }
  problems.push(...readmeBundleProblems(await Deno.readTextFile("README.md"), root));
  const flags = compatibilityFlags(await Deno.readTextFile(WORKERD_CONFIG));
  if (flags.length > 0) {
    problems.push(`${WORKERD_CONFIG} turns on compatibility flags: ${flags.join(", ")}`);
  }
  const { runs, edge } = await runWorkerd(tmp, rt.workerd, rt.workerdPackageVersion, {
    root: root.file,
    suite: suite.file,
    jsonl,
  });
  for (const r of runs) console.log(describe(r));
  for (const line of await checkEdge(edge, cli, await suiteOnDeno(tmp), problems)) {
    console.log(line);
  }
  return runs;
}

/** What each host must start for each requested engine. */
function expectedEngine(host: string, requested: string): string | "failure" {
  if (host === "workerd") return requested === "wasm" ? "failure" : "ts";
  return requested === "auto" ? "wasm" : requested;
}

function isFailure(e: Entry): e is ConformanceFailure {
  return "error" in e;
}

function check(
  runs: Run[],
  cli: Record<string, CliReport> | undefined,
  problems: string[],
): void {
  const reports = runs.filter((r) => !isFailure(r.entry)) as (Run & { entry: ConformanceReport })[];
  for (const r of reports) {
    const got = r.entry.scoreJsonl;
    const want = cli?.[got.engine];
    if (cli && !want) {
      problems.push(`${r.host} (asked ${r.entry.requested}): scoreJsonl ran engine ${got.engine}`);
    } else if (want && want.sha256 !== got.sha256) {
      problems.push(
        `${r.host} (asked ${r.entry.requested}): the scoreJsonl report (sha256 ` +
          `${got.sha256.slice(0, 16)}, ${got.bytes} bytes) is not \`assay score --engine ` +
          `${got.engine}\`'s (sha256 ${want.sha256.slice(0, 16)}, ${want.bytes} bytes)`,
      );
    }
  }
  for (const r of runs) {
    const want = expectedEngine(r.host, r.entry.requested);
    const where = `${r.host} (asked ${r.entry.requested})`;
    if (isFailure(r.entry)) {
      if (want !== "failure") {
        problems.push(`${where}: could not start: ${r.entry.error}`);
      }
    } else if (want === "failure") {
      problems.push(
        `${where}: started engine ${r.entry.engine}, but should have failed`,
      );
    } else if (r.entry.engine !== want) {
      problems.push(`${where}: ran engine ${r.entry.engine}, expected ${want}`);
    } else if (
      r.host === "workerd" && r.entry.requested === "auto" &&
      !r.entry.fallbackReason
    ) {
      problems.push(`${where}: fell back to ts without a fallbackReason`);
    }
  }
  // The reference: the ts engine on Deno (the reference reading of docs/engine.md).
  const ref = reports.find((r) => r.host === "deno" && r.entry.engine === "ts") ??
    reports[0];
  if (!ref) {
    problems.push("No conformance report at all");
    return;
  }
  const missing = missingErrorCodes(ref.entry);
  if (missing.length > 0) {
    problems.push(
      `The corpus no longer produces these error codes: ${missing.join(", ")}`,
    );
  }
  const byDigest = new Map<string, string[]>();
  for (const r of reports) {
    const who = `${r.host} ${r.entry.engine}${r.entry.requested === "auto" ? " (auto)" : ""}`;
    byDigest.set(r.entry.sha256, [
      ...(byDigest.get(r.entry.sha256) ?? []),
      who,
    ]);
  }
  if (byDigest.size > 1) {
    const lines = [
      `Digests differ (reference: ${ref.host} ${ref.entry.engine}):`,
    ];
    for (const [digest, who] of byDigest) {
      const r = reports.find((x) => x.entry.sha256 === digest)!;
      const diff = Object.keys(ref.entry.sections).filter((k) =>
        r.entry.sections[k] !== ref.entry.sections[k]
      );
      const where = diff.length > 0 ? `differs in ${diff.join(", ")}` : "reference";
      lines.push(`  ${digest.slice(0, 16)} (${where}): ${who.join(", ")}`);
    }
    lines.push(
      "  To list the inputs on which the engines differ: deno run tests/conformance/diff_engines.ts",
    );
    problems.push(lines.join("\n"));
  }
}

function describe(r: Run): string {
  const host = `${r.host} ${r.version}`.padEnd(28);
  if (isFailure(r.entry)) {
    return `${host} ${"-".padEnd(5)} (asked ${
      r.entry.requested.padEnd(4)
    })  not started: ${r.entry.error}`;
  }
  const e = r.entry;
  const calls = e.counts.toolCalls ?? {};
  const fallback = e.fallbackReason ? `  fallback: ${e.fallbackReason}` : "";
  return `${host} ${e.engine.padEnd(5)} (asked ${e.requested.padEnd(4)})  sha256 ${
    e.sha256.slice(0, 16)
  }  ` +
    `calls ok=${calls.ok ?? 0} shape=${calls.invalid_shape ?? 0} json=${calls.invalid_json ?? 0} ` +
    `none=${calls.no_json ?? 0}  scoreJsonl ${e.scoreJsonl.sha256.slice(0, 16)}${fallback}`;
}

async function main(args: string[]): Promise<number> {
  const all = ["deno", "node", "bun", "workerd"];
  const wanted = args.length > 0 ? args : all;
  for (const a of wanted) {
    if (!all.includes(a)) {
      console.error(
        `Unknown runtime "${a}": expected some of ${all.join(", ")}`,
      );
      return 2;
    }
  }
  await Deno.mkdir(`${ROOT}/.tmp`, { recursive: true });
  const tmp = await Deno.makeTempDir({
    dir: `${ROOT}/.tmp`,
    prefix: "cross_runtime_",
  });
  const problems: string[] = [];
  const runs: Run[] = [];
  let cli: Record<"wasm" | "ts", CliReport> | undefined;
  try {
    const jsonl = await buildJsonlCorpus(buildCorpus().outputs);
    try {
      cli = await scoreWithCli(tmp, jsonl);
      for (const [engine, r] of Object.entries(cli)) {
        console.log(
          `${`assay score --engine ${engine}`.padEnd(28)} report sha256 ${
            r.sha256.slice(0, 16)
          } (${r.bytes} bytes)`,
        );
      }
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      console.log(`${"assay score".padEnd(28)} FAILED: ${msg.split("\n")[0]}`);
      problems.push(msg);
    }
    const needsNpm = wanted.includes("bun") || wanted.includes("workerd");
    const rt = needsNpm ? await ensureRuntimes() : undefined;
    if (rt) {
      console.log(`Test runtimes: bun ${rt.bunVersion}, ${rt.workerdVersion}`);
    }
    const distMap = await writeDistMap(tmp);
    const steps: [string, () => Promise<Run[]>][] = [
      ["deno", () => runDeno(distMap)],
      ["node", () => runNode(tmp, distMap)],
      ["bun", () => runBun(rt!.bun, rt!.bunVersion)],
      ["workerd", () => runWorkerdStep(tmp, rt!, jsonl, cli, problems)],
    ];
    for (const [name, step] of steps) {
      if (!wanted.includes(name)) continue;
      try {
        const got = await step();
        if (name !== "workerd") { for (const r of got) console.log(describe(r)); }
        runs.push(...got);
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        console.log(`${name.padEnd(28)} FAILED: ${msg.split("\n")[0]}`);
        problems.push(msg);
      }
    }
    const bfcl = await bfclAcrossRuntimes(tmp, wanted, rt?.bun);
    for (const line of bfcl.lines) console.log(line);
    problems.push(...bfcl.problems);
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
  check(runs, cli, problems);
  if (problems.length > 0) {
    console.error(
      `\nCross-runtime conformance failed (${problems.length} problem(s)):`,
    );
    for (const p of problems) console.error(`- ${p}`);
    return 1;
  }
  const ref = runs.find((r) => !isFailure(r.entry))!.entry as ConformanceReport;
  console.log(
    `\nCross-runtime conformance: ${runs.length} runs on ${wanted.join(", ")} agree ` +
      `(sha256 ${ref.sha256}, corpus ${ref.corpus.prng} seed ${ref.corpus.seed}: ` +
      `${ref.corpus.outputs} outputs, ${ref.corpus.documents} documents; every scoreJsonl ` +
      `report is assay score's: wasm ${cli?.wasm.sha256.slice(0, 16)}, ts ${
        cli?.ts.sha256.slice(0, 16)
      })` +
      (wanted.includes("workerd")
        ? "; the root bundle and ./suite run on workerd with no compatibility flags"
        : ""),
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
