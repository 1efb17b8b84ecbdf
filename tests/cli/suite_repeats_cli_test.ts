// `assay suite scorecard --store` and `assay suite compare --store` on runs with repeats: the
// stored run's repeats section equals the live `suite run` report's, byte for byte as JSON, on
// seeded random suites run end to end through the SQLite store (judges over loopback, some of
// them failing); the tables; and the exit code 2 of a bad store or bad flags.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_main.ts";
import { demoRunArgs, suiteInputs } from "./_suite_demo.ts";
import { openaiContent, startJudgeServer } from "../suite/_judge_server.ts";
import { randomSuiteRun, REDUCER_CASES } from "../suite/_random_suite_runs.ts";
import { makeRng } from "../_corpus.ts";

const KEY = "OPENAI_COMPATIBLE_API_KEY";

/** A judge that fails (HTTP 400: a judge error, no retry) or scores, by a hash of its prompt. */
function hashedReply(body: unknown) {
  let h = 2166136261;
  for (const ch of JSON.stringify(body)) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619);
  const rng = makeRng(h >>> 0);
  if (rng.int(5) === 0) return { status: 400, body: { error: { message: "bad request" } } };
  const score = rng.chance(0.5) ? rng.pick([0, 0.5, 1]) : rng.float();
  return openaiContent(JSON.stringify({ score, reason: "r" }));
}

Deno.test("suite scorecard and compare --store give the live run's repeats numbers on 28 seeded random suites", async () => {
  const server = startJudgeServer((q) => hashedReply(q.body));
  Deno.env.set(KEY, "test-key-0123456789");
  let compared = 0;
  let judgeErrors = 0;
  try {
    for (const [c, [reducer, cluster]] of REDUCER_CASES.entries()) {
      for (let i = 0; i < 2; i++) {
        const dir = await Deno.makeTempDir();
        const input = randomSuiteRun(7000 + 10 * c + i, reducer, cluster);
        const suite = JSON.parse(input.suiteText);
        for (const m of suite.metrics) {
          if (m.type === "llm_judge") {
            m.params.judge_model = `openai-compatible:judge-1@${server.baseUrl}`;
          }
        }
        await Deno.writeTextFile(`${dir}/suite.json`, JSON.stringify(suite));
        const lines = (xs: unknown[]) => xs.map((x) => JSON.stringify(x) + "\n").join("");
        await Deno.writeTextFile(`${dir}/goldens.jsonl`, lines(input.goldens));
        await Deno.writeTextFile(`${dir}/traces.jsonl`, lines(input.traces));
        await Deno.writeTextFile(`${dir}/catalog.json`, JSON.stringify(input.catalog));
        const store = `${dir}/metrics.db`;
        const bootstrap = ["--seed", String(input.seed), "--resamples", String(input.resamples)];
        const at = `${reducer}, cluster ${cluster}, case ${i}`;
        const run = await runMain([
          ...["suite", "run", `${dir}/suite.json`, ...suiteInputs(dir), "--store", store],
          ...["--out", `${dir}/run.json`, "--quiet", ...bootstrap],
        ]);
        strictEqual(run.code, 0, `${at}: ${run.stderr}`);
        const live = JSON.parse(await Deno.readTextFile(`${dir}/run.json`));
        judgeErrors +=
          live.runs.flatMap((r: { criteria: { applicable: boolean; score: null }[] }) =>
            r.criteria.filter((x) => x.applicable && x.score === null)
          ).length;
        const card = await runMain([
          "suite",
          "scorecard",
          "--store",
          store,
          "--json",
          ...bootstrap,
        ]);
        strictEqual(card.code, 0, `${at}: ${card.stderr}`);
        const stored = JSON.parse(card.stdout);
        strictEqual(JSON.stringify(stored.repeats), JSON.stringify(live.repeats), at);
        strictEqual(JSON.stringify(stored.scorecard), JSON.stringify(live.scorecard), at);
        // compare FIRST OTHER: its reduced comparison is the live report's comparison entry.
        for (const entry of live.repeats.comparisons) {
          const [a, b] = entry.arms;
          const cmp = await runMain([
            "suite",
            "compare",
            a,
            b,
            "--store",
            store,
            "--json",
            ...bootstrap,
          ]);
          strictEqual(cmp.code, 0, `${at}: ${cmp.stderr}`);
          const { repeats, bootstrap: settings, ...reduced } = JSON.parse(cmp.stdout)
            .reduced_comparison;
          strictEqual(JSON.stringify(reduced), JSON.stringify(entry), `${at}: ${b} − ${a}`);
          strictEqual(
            JSON.stringify([repeats, settings]),
            JSON.stringify([
              live.repeats.repeats,
              live.repeats.bootstrap,
            ]),
          );
          compared++;
        }
      }
    }
  } finally {
    Deno.env.delete(KEY);
    await server.close();
  }
  ok(compared > 20, `${compared} comparisons`);
  ok(judgeErrors > 20, `${judgeErrors} judge errors`);
});

/** The demo run into a fresh store, with its table output. */
async function demoRun(dir: string, more: string[] = []) {
  const store = `${dir}/metrics.db`;
  const r = await runMain([...demoRunArgs(store), ...more]);
  strictEqual(r.code, 0, r.stderr);
  return { store, stdout: r.stdout };
}

/** The lines of a printed repeats section: from its heading to the blank line after it. */
function repeatsSection(text: string): string {
  const start = text.indexOf("\nrepeats: ");
  ok(start >= 0, text);
  const end = text.indexOf("\n\n", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

Deno.test("suite scorecard --store prints the repeats section as suite run does", async () => {
  const dir = await Deno.makeTempDir();
  const { store, stdout } = await demoRun(dir);
  const card = await runMain(["suite", "scorecard", "--store", store]);
  strictEqual(card.code, 0, card.stderr);
  strictEqual(repeatsSection(card.stdout), repeatsSection(stdout));
  match(card.stdout, /\nrepeats: pass_at_k k=2 over n=3 runs per golden\n/);
  match(card.stdout, /adapter +0\.833 \(8 goldens\) .* C=5 /);
  match(card.stdout, /adapter − base \(paired, 8 goldens\): 0\.083 \[/);
  ok(!card.stdout.includes("stored before"));
  // --seed and --resamples set its bootstrap, as they set the live run's.
  const seeded = await runMain(["suite", "scorecard", "--store", store, "--seed", "9", "--json"]);
  const live = await demoRun(await Deno.makeTempDir(), ["--seed", "9", "--json"]);
  strictEqual(
    JSON.stringify(JSON.parse(seeded.stdout).repeats),
    JSON.stringify(JSON.parse(live.stdout).repeats),
  );
  strictEqual(JSON.parse(seeded.stdout).repeats.bootstrap.seed, 9);
});

Deno.test("suite compare --store adds B − A on the reduced per-golden scores, labelled, beside the pooled table", async () => {
  const dir = await Deno.makeTempDir();
  const { store } = await demoRun(dir);
  const json = await runMain(["suite", "compare", "base", "adapter", "--store", store, "--json"]);
  strictEqual(json.code, 0, json.stderr);
  const out = JSON.parse(json.stdout);
  deepStrictEqual(Object.keys(out), ["run", "suite", "comparison", "reduced_comparison"]);
  deepStrictEqual(out.reduced_comparison.arms, ["base", "adapter"]);
  strictEqual(out.reduced_comparison.reduced.metric, "reduced");
  deepStrictEqual(
    [out.reduced_comparison.reduced.a.value, out.reduced_comparison.reduced.b.value],
    [0.75, 0.8333333333333334],
  );
  strictEqual(out.reduced_comparison.reduced.delta, 0.8333333333333334 - 0.75);
  strictEqual(out.comparison.n_goldens, 8);
  const text = await runMain(["suite", "compare", "base", "adapter", "--store", store]);
  strictEqual(text.code, 0, text.stderr);
  const [pooled, reduced] = text.stdout.split("\n\n");
  match(pooled!, /^adapter − base, paired by golden \(8 goldens\), run /);
  match(pooled!, /\npass rate +0\.458 +0\.625 +0\.167 /);
  strictEqual(
    reduced!.split("\n")[0],
    "repeats: pass_at_k k=2 over n=3 runs per golden: adapter − base on the reduced per-golden " +
      "scores, paired by golden (8 goldens)",
  );
  match(reduced!, /\nreduced +0\.750 +0\.833 +0\.083 +\[-?\d\.\d{3}, \d\.\d{3}\]/);
});

Deno.test("suite scorecard and compare exit 2 naming the store for a bad store, a tampered run or bad flags", async () => {
  const dir = await Deno.makeTempDir();
  const text = `${dir}/notes.db`;
  await Deno.writeTextFile(text, "not a database, just a line of text long enough for a header\n");
  const { store } = await demoRun(dir);
  const cases: [string[], RegExp][] = [
    [["scorecard", "--store", text], /--store .*notes\.db is not a metric store \(not an SQLite/],
    [["compare", "a", "b", "--store", text], /notes\.db is not a metric store/],
    [["scorecard", "--store", store, "--seed", "abc"], /--seed must be an integer in \[0, 2\^32\)/],
    [["scorecard", "--store", store, "--resamples", "0"], /--resamples must be a positive/],
    [["compare", "base", "base", "--store", store], /two different arms, got base twice/],
  ];
  const db = new DatabaseSync(store);
  const runId = String(db.prepare("SELECT run_id FROM runs").get()?.run_id);
  const tamper = (sql: string, message: RegExp) => {
    const copy = `${dir}/tampered-${cases.length}.db`;
    db.exec(`VACUUM INTO '${copy}'`);
    const t = new DatabaseSync(copy);
    t.exec(sql);
    t.close();
    cases.push([["scorecard", "--store", copy], message]);
    cases.push([["compare", "base", "adapter", "--store", copy], message]);
  };
  const named = (what: string) => new RegExp(`tampered-\\d+\\.db: run ${runId}.*${what}`);
  tamper(`UPDATE runs SET repeats = '{"n": 0, "reducer": "mean"}'`, named("n: Expected"));
  tamper("UPDATE runs SET repeats = 'nope'", named("repeats is not JSON"));
  tamper(`UPDATE runs SET clusters = '[["g01"]]'`, named("not \\[golden id, key\\] pairs"));
  tamper(`UPDATE runs SET golden_ids = '["g01", 2]'`, named("goldens are not golden ids"));
  tamper(`UPDATE runs SET golden_ids = '{}'`, named("goldens are not golden ids"));
  tamper(
    `UPDATE runs SET clusters = '[["g01", "string:revenue"]]'`,
    named(`Golden "g02" has runs but no cluster key`),
  );
  tamper(
    `UPDATE runs SET clusters = json_set(clusters, '$[0][1]', 'number:NaN')`,
    named(`Golden "g01" has a malformed cluster key "number:NaN"`),
  );
  tamper(
    "DELETE FROM scores WHERE golden_id = 'g01' AND metric = 'hit_limit' AND repeat = 0",
    named(`has no row for "hit_limit"`),
  );
  db.close();
  for (const [args, message] of cases) {
    const r = await runMain(["suite", ...args]);
    strictEqual(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    match(r.stderr, message, args.join(" "));
    ok(!r.stderr.includes("    at "), `a stack: ${r.stderr}`);
  }
});

Deno.test("suite run's text output lists the goldens whose runs are not the suite's n, as --json does", async () => {
  const dir = await Deno.makeTempDir();
  const demo = new URL("../../samples/suite_demo", import.meta.url).pathname;
  const lines = (await Deno.readTextFile(`${demo}/traces.jsonl`)).trimEnd().split("\n");
  // Drop one run of g03 in the base arm: that golden has 2 runs where the suite declares 3.
  const drop = lines.findIndex((l) => {
    const t = JSON.parse(l);
    return t.golden_id === "g03" && t.arm === "base";
  });
  await Deno.writeTextFile(`${dir}/traces.jsonl`, lines.filter((_, i) => i !== drop).join("\n"));
  const inputs = suiteInputs();
  inputs[inputs.indexOf("--traces") + 1] = `${dir}/traces.jsonl`;
  const base = ["suite", "run", `${demo}/suite.yaml`, ...inputs, "--no-judge", "--quiet"];
  const json = await runMain([...base, "--json"]);
  strictEqual(json.code, 0, json.stderr);
  const arms = JSON.parse(json.stdout).repeats.arms;
  deepStrictEqual(arms.map((a: { mismatched: string[] }) => a.mismatched), [[], ["g03"]]);
  const text = await runMain(base);
  strictEqual(text.code, 0, text.stderr);
  match(text.stdout, /arm base: 1 golden\(s\) without n=3 runs: g03/);
  ok(!/arm adapter: \d+ golden\(s\) without/.test(text.stdout));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a golden with no traces is listed as mismatched, live and read back from the store", async () => {
  const dir = await Deno.makeTempDir();
  const demo = new URL("../../samples/suite_demo", import.meta.url).pathname;
  const lines = (await Deno.readTextFile(`${demo}/traces.jsonl`)).trimEnd().split("\n");
  // g03 has no run in any arm: it must not vanish from the repeats section.
  const kept = lines.filter((l) => JSON.parse(l).golden_id !== "g03");
  await Deno.writeTextFile(`${dir}/traces.jsonl`, kept.join("\n") + "\n");
  const inputs = suiteInputs();
  inputs[inputs.indexOf("--traces") + 1] = `${dir}/traces.jsonl`;
  const store = `${dir}/metrics.db`;
  const live = await runMain([
    ...["suite", "run", `${demo}/suite.yaml`, ...inputs, "--no-judge", "--quiet", "--json"],
    ...["--store", store],
  ]);
  strictEqual(live.code, 0, live.stderr);
  const arms = JSON.parse(live.stdout).repeats.arms;
  deepStrictEqual(arms.map((a: { mismatched: string[] }) => a.mismatched), [["g03"], ["g03"]]);
  const card = await runMain(["suite", "scorecard", "--store", store, "--json"]);
  strictEqual(card.code, 0, card.stderr);
  strictEqual(
    JSON.stringify(JSON.parse(card.stdout).repeats),
    JSON.stringify(JSON.parse(live.stdout).repeats),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("an empty traces file is exit 2 naming it, and --fail-under never passes it", async () => {
  const dir = await Deno.makeTempDir();
  const demo = new URL("../../samples/suite_demo", import.meta.url).pathname;
  await Deno.writeTextFile(`${dir}/empty.jsonl`, "");
  const inputs = suiteInputs();
  inputs[inputs.indexOf("--traces") + 1] = `${dir}/empty.jsonl`;
  const r = await runMain([
    ...["suite", "run", `${demo}/suite.yaml`, ...inputs, "--no-judge", "--quiet"],
    ...["--fail-under", "0.99"],
  ]);
  strictEqual(r.code, 2, r.stdout);
  match(r.stderr, new RegExp(`${dir}/empty\\.jsonl: no traces: the file has no runs to score`));
  ok(!/pass: every arm/.test(r.stdout + r.stderr));
  await Deno.remove(dir, { recursive: true });
});
