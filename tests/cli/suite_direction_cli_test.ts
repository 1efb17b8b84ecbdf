// The direction of `suite run`'s comparisons between arms: each arm minus the baseline arm, the arm
// of the traces' first line or `--baseline`, so that the demo (base's runs first) gives the
// contract's adapter − base, as `assay compare BASE ADAPTER` and `suite compare base adapter` do;
// in the text, in --json, and read back from the store by `suite scorecard`.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_main.ts";
import { demoRunArgs } from "./_suite_demo.ts";

const demo = new URL("../../samples/suite_demo", import.meta.url).pathname;

/** The demo's repeats comparison line, as `suite run` and `suite scorecard` print it. */
const ADAPTER_MINUS_BASE =
  /\nadapter − base \(paired, 8 goldens\): 0\.083 \[-?\d\.\d{3}, \d\.\d{3}\](\n|$)/;
const BASE_MINUS_ADAPTER = /\nbase − adapter \(paired, 8 goldens\): -0\.083 \[/;

/** `suite run` of the demo's suite on `traces` (the demo's own by default) into `store`. */
async function run(store: string, more: string[] = [], traces?: string) {
  const args = demoRunArgs(store);
  if (traces !== undefined) args[args.indexOf("--traces") + 1] = traces;
  return await runMain([...args, ...more]);
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

Deno.test("suite run gives the demo's repeats comparison as adapter − base, its base's runs coming first", async () => {
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

Deno.test("suite run --baseline picks the arm compared with; without it, the traces' first line's arm", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/metrics.db`;
  const flagged = await run(store, ["--baseline", "adapter"]);
  strictEqual(flagged.code, 0, flagged.stderr);
  match(flagged.stdout, BASE_MINUS_ADAPTER);
  const card = await runMain(["suite", "scorecard", "--store", store]);
  match(card.stdout, BASE_MINUS_ADAPTER);
  // The adapter's runs first: it is the baseline.
  const reversed = await editedTraces(dir, (ts) =>
    ts.filter((t) => t.arm === "adapter").concat(
      ts.filter((t) => t.arm !== "adapter"),
    ));
  const json = await run(`${dir}/reversed.db`, ["--json"], reversed);
  strictEqual(json.code, 0, json.stderr);
  const repeats = JSON.parse(json.stdout).repeats;
  strictEqual(repeats.baseline, "adapter");
  deepStrictEqual(repeats.comparisons[0].arms, ["adapter", "base"]);
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
  const live = await run(store, ["--json"], traces);
  strictEqual(live.code, 0, live.stderr);
  const repeats = JSON.parse(live.stdout).repeats;
  strictEqual(repeats.baseline, arm);
  const card = await runMain(["suite", "scorecard", "--store", store, "--json"]);
  strictEqual(card.code, 0, card.stderr);
  strictEqual(JSON.stringify(JSON.parse(card.stdout).repeats), JSON.stringify(repeats));
  await Deno.remove(dir, { recursive: true });
});
