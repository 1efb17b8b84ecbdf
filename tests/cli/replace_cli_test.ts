// What an output may replace (issue 13, item 1): `--out` writes over an existing file only when it
// is a report of the same kind (or empty), unless --force is given; a metric store is never
// replaced by a report, a JSON file is never opened as a store, and a FIFO or device is never
// replaced. Each refusal exits 2 before any work, names the flag and the path, and changes nothing.
import { strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_main.ts";
import { demoScoreArgs } from "../_demo.ts";

const repo = new URL("../../", import.meta.url).pathname;
const suiteDemo = `${repo}samples/suite_demo`;
const structured = `${repo}tests/fixtures/structured`;
const NOTES = "my notes, not a report\n";

const score = (out: string, ...extra: string[]) => demoScoreArgs("--out", out, ...extra);

const suiteRun = (...extra: string[]) => [
  "suite",
  "run",
  `${suiteDemo}/suite.yaml`,
  "--goldens",
  `${suiteDemo}/goldens.jsonl`,
  "--traces",
  `${suiteDemo}/traces.jsonl`,
  "--catalog",
  `${suiteDemo}/catalog.json`,
  "--no-judge",
  "--quiet",
  ...extra,
];

function read(path: string): string {
  return new TextDecoder().decode(Deno.readFileSync(path));
}

/** A folder with the demo's base report, `base.json`. */
async function withReport(): Promise<string> {
  const dir = await Deno.makeTempDir();
  const r = await runMain(score(`${dir}/base.json`));
  strictEqual(r.code, 0, r.stderr);
  return dir;
}

Deno.test("--out replaces another kind of file only with --force, and its own kind always", async () => {
  const dir = await withReport();
  const base = `${dir}/base.json`;
  const notes = `${dir}/notes.txt`;
  const cases: [string, (out: string) => string[], string][] = [
    ["score", (out) => score(out), "an assay.evaluation.v2 report"],
    [
      "compare",
      (out) => ["compare", base, base, "--resamples", "10", "--out", out],
      "an assay.comparison.v1 report",
    ],
    [
      "compare",
      (out) => ["compare", base, base, "--resamples", "10", "--html", out],
      "an assay comparison page",
    ],
    ["gaps", (out) => ["gaps", base, "--resamples", "10", "--out", out], "an assay.gaps.v1 report"],
    [
      "structured",
      (out) => ["structured", "--outputs", `${structured}/outputs.jsonl`, "--out", out],
      "an assay.structured.v1 report",
    ],
    ["suite run", (out) => suiteRun("--out", out), "an assay.suite_run.v1 report"],
    [
      "parse",
      (out) => ["parse", `${repo}samples/outputs.jsonl`, "--out", out],
      "assay parse output",
    ],
    [
      "canonicalize",
      (out) => ["canonicalize", `${repo}samples/json_texts.txt`, "--out", out],
      "assay canonicalize output",
    ],
  ];
  for (const [command, args, kind] of cases) {
    Deno.writeTextFileSync(notes, NOTES);
    const flag = args(notes).includes("--html") ? "--html" : "--out";
    const r = await runMain(args(notes));
    strictEqual(r.code, 2, args(notes).join(" "));
    strictEqual(
      r.stderr,
      `assay ${command}: ${flag} ${notes} exists and is not ${kind} (pass --force to replace it)`,
    );
    strictEqual(read(notes), NOTES);
    const forced = await runMain([...args(notes), "--force"]);
    strictEqual(forced.code, 0, forced.stderr);
    const written = read(notes);
    const again = await runMain(args(notes));
    strictEqual(again.code, 0, `${command} over its own output: ${again.stderr}`);
    if (command !== "suite run") strictEqual(read(notes), written);
  }
  // An empty file holds nothing to lose.
  Deno.writeTextFileSync(notes, "");
  strictEqual((await runMain(score(notes))).code, 0);
  // A report of another kind is another kind.
  const cmp = await runMain(["compare", base, base, "--resamples", "10", "--out", notes]);
  strictEqual(cmp.code, 2);
  strictEqual(
    cmp.stderr,
    `assay compare: --out ${notes} exists and is not an assay.comparison.v1 report ` +
      "(pass --force to replace it)",
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a metric store is never replaced by a report, and a report is never opened as a store", async () => {
  const dir = await withReport();
  const base = `${dir}/base.json`;
  const store = `${dir}/metrics.db`;
  const run = await runMain(suiteRun("--store", store));
  strictEqual(run.code, 0, run.stderr);
  const storeBytes = Deno.readFileSync(store);
  for (const force of [[], ["--force"]]) {
    const r = await runMain(score(store, ...force));
    strictEqual(r.code, 2);
    strictEqual(
      r.stderr,
      `assay score: --out ${store} is an SQLite database (a metric store?): a report never ` +
        "replaces one, even with --force",
    );
    const s = await runMain(suiteRun("--store", base, ...force));
    strictEqual(s.code, 2);
    strictEqual(
      s.stderr,
      `assay suite run: --store ${base} is not a metric store (not an SQLite database)`,
    );
  }
  strictEqual(Deno.readFileSync(store).length, storeBytes.length);
  const baseText = read(base);
  for (
    const [command, args] of [
      ["suite scorecard", ["suite", "scorecard", "--store", base]],
      ["suite compare", ["suite", "compare", "base", "adapter", "--store", base]],
      ["calibrate", ["calibrate", "--labels", base, "--store", base, "--metric", "m"]],
    ] as const
  ) {
    const r = await runMain([...args]);
    strictEqual(r.code, 2, args.join(" "));
    strictEqual(
      r.stderr,
      `assay ${command}: --store ${base} is not a metric store (not an SQLite database)`,
    );
  }
  strictEqual(read(base), baseText);
  // An empty file is not a store to read, and stays empty (SQLite would make it one).
  const empty = `${dir}/empty.db`;
  Deno.writeFileSync(empty, new Uint8Array());
  const r = await runMain(["suite", "scorecard", "--store", empty]);
  strictEqual(r.code, 2);
  strictEqual(
    r.stderr,
    `assay suite scorecard: --store ${empty} is not a metric store (an empty file)`,
  );
  strictEqual(Deno.statSync(empty).size, 0);
  // ... but `suite run` may make one of it.
  const made = await runMain(suiteRun("--store", empty));
  strictEqual(made.code, 0, made.stderr);
  const db = new DatabaseSync(empty);
  strictEqual((db.prepare("SELECT count(*) AS n FROM runs").get() as { n: number }).n, 1);
  db.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("--out is never a FIFO or another file that is not a regular file", async () => {
  const dir = await Deno.makeTempDir();
  const fifo = `${dir}/fifo`;
  const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  strictEqual(made.code, 0);
  for (const force of [[], ["--force"]]) {
    const r = await runMain(score(fifo, ...force));
    strictEqual(r.code, 2);
    strictEqual(r.stderr, `assay score: Cannot write ${fifo} (--out): it is not a regular file`);
    strictEqual(Deno.lstatSync(fifo).isFile, false);
  }
  await Deno.remove(dir, { recursive: true });
});
