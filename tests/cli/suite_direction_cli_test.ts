// The direction of `suite run`'s comparisons between arms: each arm minus the baseline arm, the
// suite's `repeats.baseline` or `--baseline`, else the first arm in code-point order (never the
// order of the traces' lines), so that the demo (`baseline: base`) gives the contract's
// adapter − base, as `assay compare BASE ADAPTER` and `suite compare base adapter` do; in the
// text, in --json, and read back from the store by `suite scorecard`.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_main.ts";
import { demoRunArgs } from "./_suite_demo.ts";
import { makeRng } from "../_corpus.ts";
import { loadSuite, runSuite, suiteChecks, suiteRunReport } from "../../src/suite/mod.ts";

const demo = new URL("../../samples/suite_demo", import.meta.url).pathname;

/** The demo's repeats comparison line, as `suite run` and `suite scorecard` print it. */
const ADAPTER_MINUS_BASE =
  /\nadapter − base \(paired, 8 goldens\): 0\.083 \[-?\d\.\d{3}, \d\.\d{3}\](\n|$)/;
const BASE_MINUS_ADAPTER = /\nbase − adapter \(paired, 8 goldens\): -0\.083 \[/;

/**
 * `suite run` of `suite` (the demo's by default) on `traces` (the demo's too) into `store` (null:
 * none).
 */
async function run(store: string | null, more: string[] = [], traces?: string, suite?: string) {
  const args = demoRunArgs(store ?? "", suite);
  if (store === null) args.splice(args.indexOf("--store"), 2);
  if (traces !== undefined) args[args.indexOf("--traces") + 1] = traces;
  return await runMain([...args, ...more]);
}

/** The demo's suite with its `repeats` section's `baseline` line replaced by `line` ("" drops it). */
async function demoSuite(dir: string, line: string, name = "suite.yaml"): Promise<string> {
  const text = await Deno.readTextFile(`${demo}/suite.yaml`);
  ok(text.includes("\n  baseline: base\n"), "the demo's suite names its baseline");
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(
    path,
    text.replace("\n  baseline: base\n", line ? `\n  ${line}\n` : "\n"),
  );
  return path;
}

/** The demo's traces with `edit` applied to each parsed line, written to `dir`. */
async function editedTraces(
  dir: string,
  edit: (lines: Record<string, unknown>[]) => Record<string, unknown>[],
): Promise<string> {
  const lines = (await Deno.readTextFile(`${demo}/traces.jsonl`)).trimEnd().split("\n");
  const path = `${dir}/traces.jsonl`;
  await Deno.writeTextFile(
    path,
    edit(lines.map((l) => JSON.parse(l))).map((t) => JSON.stringify(t) + "\n").join(""),
  );
  return path;
}

Deno.test("suite run gives the demo's repeats comparison as adapter − base, the baseline its suite names", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/metrics.db`;
  const text = await run(store);
  strictEqual(text.code, 0, text.stderr);
  match(text.stdout, ADAPTER_MINUS_BASE);
  ok(!BASE_MINUS_ADAPTER.test(text.stdout), text.stdout);
  const json = await run(`${dir}/other.db`, ["--json"]);
  strictEqual(json.code, 0, json.stderr);
  const repeats = JSON.parse(json.stdout).repeats;
  strictEqual(repeats.baseline, "base");
  deepStrictEqual(repeats.comparisons.map((c: { arms: string[] }) => c.arms), [[
    "base",
    "adapter",
  ]]);
  const [c] = repeats.comparisons;
  deepStrictEqual([c.reduced.a.value, c.reduced.b.value], [0.75, 0.8333333333333334]);
  strictEqual(c.reduced.delta, 0.8333333333333334 - 0.75);
  ok(c.reduced.delta > 0);
  // Read back from the store: the same line, and the same section byte for byte.
  const card = await runMain(["suite", "scorecard", "--store", store]);
  strictEqual(card.code, 0, card.stderr);
  match(card.stdout, ADAPTER_MINUS_BASE);
  const cardJson = await runMain(["suite", "scorecard", "--store", store, "--json"]);
  strictEqual(JSON.stringify(JSON.parse(cardJson.stdout).repeats), JSON.stringify(repeats));
  // suite compare base adapter gives the same difference.
  const cmp = await runMain(["suite", "compare", "base", "adapter", "--store", store, "--json"]);
  const { repeats: _r, bootstrap: _b, ...reduced } = JSON.parse(cmp.stdout).reduced_comparison;
  strictEqual(JSON.stringify(reduced), JSON.stringify(c));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("suite run --baseline overrides the suite's baseline; with neither, the first arm in code-point order, whatever the traces' order", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/metrics.db`;
  const flagged = await run(store, ["--baseline", "adapter"]);
  strictEqual(flagged.code, 0, flagged.stderr);
  match(flagged.stdout, BASE_MINUS_ADAPTER);
  const card = await runMain(["suite", "scorecard", "--store", store]);
  match(card.stdout, BASE_MINUS_ADAPTER);
  // The adapter's runs first: the suite's baseline still decides.
  const reversed = await editedTraces(dir, (ts) =>
    ts.filter((t) => t.arm === "adapter").concat(
      ts.filter((t) => t.arm !== "adapter"),
    ));
  const json = await run(`${dir}/reversed.db`, ["--json"], reversed);
  strictEqual(json.code, 0, json.stderr);
  strictEqual(JSON.parse(json.stdout).repeats.baseline, "base");
  // A suite that names none: the first arm in code-point order, whichever arm's runs come first.
  const unnamed = await demoSuite(dir, "");
  for (const traces of [undefined, reversed]) {
    const r = await run(`${dir}/unnamed.db`, ["--json"], traces, unnamed);
    strictEqual(r.code, 0, r.stderr);
    const repeats = JSON.parse(r.stdout).repeats;
    strictEqual(repeats.baseline, "adapter");
    deepStrictEqual(repeats.comparisons[0].arms, ["adapter", "base"]);
  }
  const text = await run(`${dir}/unnamed.db`, [], reversed, unnamed);
  match(text.stdout, BASE_MINUS_ADAPTER);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("suite run --baseline naming no arm of the traces is exit 2 before anything is stored", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/metrics.db`;
  const r = await run(store, ["--baseline", "adaptr"]);
  strictEqual(r.code, 2, r.stdout);
  match(r.stderr, /--baseline: Unknown arm "adaptr" \(did you mean adapter\?\) in the traces/);
  ok(!r.stderr.includes("    at "), r.stderr);
  deepStrictEqual([...Deno.readDirSync(dir)], []);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("suite run gives the same --json bytes whatever the order of the traces' lines", async () => {
  const dir = await Deno.makeTempDir();
  const unnamed = await demoSuite(dir, "", "unnamed.yaml");
  for (const suite of [undefined, unnamed]) {
    const reference = await run(null, ["--json"], undefined, suite);
    strictEqual(reference.code, 0, reference.stderr);
    // The lines reversed (`tac`), and shuffled by five seeds, as parallel workers might write them.
    const orders: ((ts: Record<string, unknown>[]) => Record<string, unknown>[])[] = [
      (ts) => ts.reverse(),
      ...[1, 2, 3, 4, 5].map((seed) => (ts: Record<string, unknown>[]) => {
        const rng = makeRng(seed);
        for (let i = ts.length - 1; i > 0; i--) {
          const j = rng.int(i + 1);
          [ts[i], ts[j]] = [ts[j]!, ts[i]!];
        }
        return ts;
      }),
    ];
    const firstArms = new Set<unknown>();
    for (const order of orders) {
      const traces = await editedTraces(dir, (ts) => {
        const out = order(ts);
        firstArms.add(out[0]!.arm);
        return out;
      });
      // Without --store: run_id is null, so the report is a function of the inputs alone.
      const r = await run(null, ["--json"], traces, suite);
      strictEqual(r.code, 0, r.stderr);
      strictEqual(r.stdout, reference.stdout);
    }
    // Both arms came first in some order: the first line's arm never decides.
    deepStrictEqual([...firstArms].sort(), ["adapter", "base"]);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("suiteRunReport() on the demo gives suite run's --json byte for byte: the library defaults to the suite's baseline as the CLI does", async () => {
  const text = await Deno.readTextFile(`${demo}/suite.yaml`);
  const suite = loadSuite(text, { source: "suite.yaml", ...suiteChecks() });
  const rows = async (f: string) =>
    (await Deno.readTextFile(`${demo}/${f}`)).trimEnd().split("\n").map((l) => JSON.parse(l));
  const goldens = await rows("goldens.jsonl");
  const inputs = {
    goldens,
    traces: await rows("traces.jsonl"),
    catalog: JSON.parse(await Deno.readTextFile(`${demo}/catalog.json`)),
  };
  const results = await runSuite(suite, inputs, { noJudge: true });
  const sha = async (bytes: Uint8Array<ArrayBuffer>) =>
    [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
      .map((b) => b.toString(16).padStart(2, "0")).join("");
  const report = suiteRunReport(suite, results, goldens, {
    suiteSha256: await sha(new TextEncoder().encode(text)),
    judge: "off",
    // The goldens' and catalog's bytes, as suite run records them.
    inputs: {
      goldensSha256: await sha(await Deno.readFile(`${demo}/goldens.jsonl`)),
      catalogSha256: await sha(await Deno.readFile(`${demo}/catalog.json`)),
    },
  });
  strictEqual(report.repeats!.baseline, "base");
  const cli = await run(null, ["--json"]);
  strictEqual(cli.code, 0, cli.stderr);
  // runMain joins the lines console.log printed: the text without its last newline.
  strictEqual(JSON.stringify(report, null, 2), cli.stdout);
});

Deno.test("a suite's repeats.baseline naming no arm of the traces is exit 2 with a suggestion, before anything is stored", async () => {
  const dir = await Deno.makeTempDir();
  const suite = await demoSuite(await Deno.makeTempDir({ dir }), "baseline: bse");
  const store = `${dir}/metrics.db`;
  const r = await run(store, [], undefined, suite);
  strictEqual(r.code, 2, r.stdout);
  match(
    r.stderr,
    /suite\.yaml: repeats\.baseline: Unknown arm "bse" \(did you mean base\?\) in the traces/,
  );
  ok(!r.stderr.includes("    at "), r.stderr);
  strictEqual(await Deno.stat(store).catch(() => null), null);
  // --baseline overrides it: the suite's name is not looked at.
  const flagged = await run(store, ["--json", "--baseline", "base"], undefined, suite);
  strictEqual(flagged.code, 0, flagged.stderr);
  strictEqual(JSON.parse(flagged.stdout).repeats.baseline, "base");
  // Not an arm's name at all: the suite is refused where it says so.
  const notName = await demoSuite(await Deno.makeTempDir({ dir }), "baseline: 3");
  const bad = await run(`${dir}/bad.db`, [], undefined, notName);
  strictEqual(bad.code, 2, bad.stdout);
  match(bad.stderr, /suite\.yaml:\d+:\d+: repeats\.baseline: Expected an arm's name, got 3/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("suite run --baseline is refused for a suite without repeats, whose runs keep no baseline", async () => {
  const dir = await Deno.makeTempDir();
  const text = await Deno.readTextFile(`${demo}/suite.yaml`);
  const noRepeats = `${dir}/suite.yaml`;
  await Deno.writeTextFile(noRepeats, text.replace(/\nrepeats:\n( {2}.*\n)+/, "\n"));
  const store = `${dir}/metrics.db`;
  const r = await run(store, ["--baseline", "base"], undefined, noRepeats);
  strictEqual(r.code, 2, r.stdout);
  match(r.stderr, /--baseline compares the repeats: the suite has none/);
  ok(!r.stderr.includes("    at "), r.stderr);
  strictEqual(await Deno.stat(store).catch(() => null), null);
  const plain = await run(store, [], undefined, noRepeats);
  strictEqual(plain.code, 0, plain.stderr);
  const db = new DatabaseSync(store);
  deepStrictEqual(
    { ...db.prepare("SELECT repeats, baseline FROM runs").get() },
    { repeats: "null", baseline: null },
  );
  db.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a run stored without its baseline compares with its first arm in code-point order, as the assay that stored it did", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/metrics.db`;
  strictEqual((await run(store)).code, 0);
  const db = new DatabaseSync(store);
  const runId = String(db.prepare("SELECT run_id FROM runs").get()?.run_id);
  strictEqual(db.prepare("SELECT baseline FROM runs").get()?.baseline, "base");
  const copy = (name: string, sql: string) => {
    db.exec(`VACUUM INTO '${dir}/${name}'`);
    const t = new DatabaseSync(`${dir}/${name}`);
    t.exec(sql);
    t.close();
    return `${dir}/${name}`;
  };
  const unkept = copy("unkept.db", "UPDATE runs SET baseline = NULL");
  const notArm = copy("not_arm.db", "UPDATE runs SET baseline = 'nope'");
  const notText = copy("not_text.db", "UPDATE runs SET baseline = X'62617365'");
  db.close();
  const card = await runMain(["suite", "scorecard", "--store", unkept]);
  strictEqual(card.code, 0, card.stderr);
  match(card.stdout, BASE_MINUS_ADAPTER);
  for (
    const [path, message] of [[notArm, /The baseline arm "nope" has no runs/], [
      notText,
      /malformed repeats column \(baseline is not an arm\)/,
    ]] as const
  ) {
    const r = await runMain(["suite", "scorecard", "--store", path]);
    strictEqual(r.code, 2, r.stdout);
    match(r.stderr, new RegExp(`${path.replaceAll(".", "\\.")}: run ${runId}`));
    match(r.stderr, message);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a baseline arm with a NUL in its name reads back whole from the store", async () => {
  const dir = await Deno.makeTempDir();
  const arm = "base\u0000x";
  const traces = await editedTraces(
    dir,
    (ts) => ts.map((t) => t.arm === "base" ? { ...t, arm } : t),
  );
  const store = `${dir}/metrics.db`;
  const live = await run(store, ["--json", "--baseline", arm], traces);
  strictEqual(live.code, 0, live.stderr);
  const repeats = JSON.parse(live.stdout).repeats;
  strictEqual(repeats.baseline, arm);
  const card = await runMain(["suite", "scorecard", "--store", store, "--json"]);
  strictEqual(card.code, 0, card.stderr);
  strictEqual(JSON.stringify(JSON.parse(card.stdout).repeats), JSON.stringify(repeats));
  await Deno.remove(dir, { recursive: true });
});
