// `assay show` on the reports of assay bfcl, ifeval, structured and suite run, each made by the
// real command on vendored data: --failing lists exactly the units that failed by the report's own
// records, counted here independently; hostile text prints safely; a filter a kind has no use for,
// or naming what the report lacks, is exit 2 naming it; --limit cuts the list.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { runCli, runMain } from "./_main.ts";
import { reportCommands } from "./_report_kinds.ts";

const dir = await Deno.makeTempDir();
const commands = reportCommands(dir);

// The command that makes a report runs in this process; show, whose stdout is the test's, in its own.
async function make(args: string[]) {
  const r = await runMain(args);
  strictEqual(r.code, 0, r.stderr);
}
async function ok0(args: string[]) {
  const r = await runCli(args);
  strictEqual(r.code, 0, r.stderr);
  return r;
}
async function refused(args: string[], message: RegExp) {
  const r = await runCli(args);
  strictEqual(r.code, 2, r.stdout);
  match(r.stderr, message);
}
// The first line of each unit shown: the lines that do not start with spaces, the last (the
// count) left out.
const heads = (text: string) =>
  text.split("\n").filter((l) => l !== "" && !l.startsWith(" ")).slice(0, -1);
const firstWord = (text: string) => heads(text).map((l) => l.split("  ")[0]!);
const json = async (path: string) => JSON.parse(await Deno.readTextFile(path));

const bfcl = `${dir}/bfcl.json`;
await make([...commands.bfcl, "--quiet"]);

Deno.test("assay show --failing on a BFCL report lists exactly its entries that are not valid", async () => {
  const report = await json(bfcl);
  const failing = report.records.filter((r: { valid: boolean }) => !r.valid);
  ok(failing.length > 0);
  const shown = await ok0(["show", bfcl, "--failing"]);
  deepStrictEqual(firstWord(shown.stdout), failing.map((r: { entryId: string }) => r.entryId));
  const first = failing[0];
  match(
    shown.stdout,
    new RegExp(`^${first.entryId}  \\[simple\\]  #${first.id}  valid NO  ${first.errorType}\n`),
  );
  for (const m of JSON.parse(first.error)) ok(shown.stdout.includes(`  error: ${m}\n`), m);
  match(
    shown.stdout,
    new RegExp(`${failing.length} of ${failing.length} selected entries shown \\(400`),
  );
  const some = await ok0(["show", bfcl, "--failing", "--limit", "2", "--slice", "simple"]);
  strictEqual(heads(some.stdout).length, 2);
  match(some.stdout, new RegExp(`2 of ${failing.length} selected entries shown`));
  const one = await ok0(["show", bfcl, "--id", "simple_3"]);
  match(one.stdout, /^simple_3 {2}\[simple\] {2}#4 {2}valid yes\n\n1 of 1/);
});

Deno.test("assay show refuses on a BFCL report a --metric, a --status, an unknown id or category", async () => {
  await refused(
    ["show", bfcl, "--failing", "--metric", "accuracy"],
    /one verdict.*metric does not apply/,
  );
  await refused(["show", bfcl, "--status", "ok"], /--status reads an evaluation report's parse/);
  await refused(
    ["show", bfcl, "--id", "simple_3x"],
    /has no entry "simple_3x" \(did you mean simple_3\?/,
  );
  await refused(
    ["show", bfcl, "--slice", "simpel"],
    /has no category "simpel" \(did you mean simple\? it has simple\)/,
  );
  await refused(["show", bfcl, "--limit", "0"], /--limit must be a positive whole number/);
});

Deno.test("assay show on the BFCL score file (assay bfcl --out, or BFCL's own, gzipped) lists the report's failing entries with their outputs", async () => {
  const report = await json(bfcl);
  const failing = report.records.filter((r: { valid: boolean }) => !r.valid);
  const gz = `${dir}/score.json.gz`;
  await Deno.writeFile(
    gz,
    new Uint8Array(
      await new Response(
        new Blob([await Deno.readFile(`${dir}/score.json`)]).stream().pipeThrough(
          new CompressionStream("gzip"),
        ),
      ).arrayBuffer(),
    ),
  );
  for (const file of [`${dir}/score.json`, gz]) {
    const shown = await ok0(["show", file, "--failing"]);
    deepStrictEqual(firstWord(shown.stdout), failing.map((r: { entryId: string }) => r.entryId));
    // Each entry with the model's raw output and what was expected.
    strictEqual(shown.stdout.split("\n  output:   ").length - 1, failing.length);
    strictEqual(shown.stdout.split("\n  expected: ").length - 1, failing.length);
    match(shown.stdout, new RegExp(`only: ${400 - failing.length} of 400 passed\n$`));
  }
  await refused(["show", `${dir}/score.json`, "--status", "ok"], /is a BFCL score file, which/);
  await refused(["show", `${dir}/score.json`, "--id", "simple_0x"], /has no entry "simple_0x"/);
  // A file of JSON lines that is not a score file is refused as a file show does not read.
  await Deno.writeTextFile(`${dir}/lines.json`, '{"a": 1}\n{"b": 2}\n');
  await refused(["show", `${dir}/lines.json`], /lines\.json is not a report show reads: /);
});

Deno.test("assay show prints a BFCL report's hostile ids, types and errors safely", async () => {
  const report = await json(bfcl);
  const bad = report.records.find((r: { valid: boolean }) => !r.valid);
  const id = "a\n\u001b[31m\u202eb" + "x".repeat(10240);
  bad.entryId = id;
  bad.errorType = "type\u001b]0;title\u0007";
  bad.error = JSON.stringify(["line one\nline two \u2066evil", 7]);
  await Deno.writeTextFile(`${dir}/hostile.json`, JSON.stringify(report));
  const shown = await ok0(["show", `${dir}/hostile.json`, "--id", id]);
  // No control character but the line feeds, no bidi control.
  const controls = [...shown.stdout].filter((c) =>
    (c < " " && c !== "\n") || c === "\u007f" || c === "\u202e" || c === "\u2066"
  );
  deepStrictEqual(controls, []);
  match(shown.stdout, /^"a\\n\\u001b\[31m\\u202eb(x+)" … \(10249 characters\) {2}\[simple\]/);
  ok(shown.stdout.length < 3000, `${shown.stdout.length}`);
  match(shown.stdout, /valid NO {2}"type\\u001b\]0;title\\u0007"\n/);
  match(shown.stdout, /\n {2}error: "line one\\nline two \\u2066evil"\n {2}error: 7\n/);
  bad.error = 5;
  await Deno.writeTextFile(`${dir}/hostile.json`, JSON.stringify(report));
  await refused(["show", `${dir}/hostile.json`], /records\[\d+\]\.error is not a string or null/);
});

const ifeval = `${dir}/ifeval.json`;
await make([...commands.ifeval, "--quiet"]);

Deno.test("assay show --failing on an IFEval report lists exactly its prompts not followed, strict or loose", async () => {
  const report = await json(ifeval);
  type P = { key: number; instruction_id_list: string[]; strict: boolean[]; loose: boolean[] };
  for (const how of ["strict", "loose"] as const) {
    const failing = report.prompts.filter((p: P) => p[how].includes(false));
    ok(failing.length > 0);
    const args = ["show", ifeval, "--failing", ...(how === "loose" ? ["--metric", "loose"] : [])];
    const shown = await ok0(args);
    deepStrictEqual(firstWord(shown.stdout), failing.map((p: P) => String(p.key)));
  }
  const wrong = report.prompts.find((p: P) => p.strict.includes(false)) as P;
  const missed = wrong.instruction_id_list.filter((_, i) => !wrong.strict[i]);
  const one = await ok0(["show", ifeval, "--id", String(wrong.key)]);
  ok(one.stdout.includes(`\n  not followed (strict): ${missed.join(", ")}\n`), one.stdout);
  const slice = "punctuation:no_comma";
  const having = report.prompts.filter((p: P) =>
    p.instruction_id_list.includes(slice) && p.strict.includes(false)
  );
  const sliced = await ok0(["show", ifeval, "--failing", "--slice", slice, "--limit", "3"]);
  deepStrictEqual(firstWord(sliced.stdout), having.slice(0, 3).map((p: P) => String(p.key)));
  match(sliced.stdout, new RegExp(`3 of ${having.length} selected prompts shown \\(541`));
});

Deno.test("assay show refuses on an IFEval report an unknown key, instruction id or metric", async () => {
  await refused(["show", ifeval, "--id", "99999"], /has no prompt "99999"/);
  await refused(
    ["show", ifeval, "--slice", "punctuation:no_coma"],
    /did you mean punctuation:no_comma\?/,
  );
  await refused(
    ["show", ifeval, "--failing", "--metric", "lose"],
    /has no metric "lose" \(did you mean loose\? it has strict, loose\)/,
  );
  await refused(["show", ifeval, "--status", "ok"], /assay\.ifeval\.v1 report, which has none/);
});

Deno.test("assay show on IFEval's results files (--results-dir) lists the report's prompts not followed, with prompt and response", async () => {
  const report = await json(ifeval);
  type P = { key: number; strict: boolean[]; loose: boolean[] };
  for (const how of ["strict", "loose"] as const) {
    const file = `${dir}/ifeval_results/eval_results_${how}.jsonl`;
    const lines = report.prompts.flatMap((p: P, i: number) =>
      p[how].includes(false) ? [`line ${i + 1}`] : []
    );
    const shown = await ok0(["show", file, "--failing"]);
    deepStrictEqual(
      heads(shown.stdout).map((l) => l.split("  ")[0]),
      lines,
      `${how}: the report's failing prompts, by their place in the input`,
    );
    strictEqual(shown.stdout.split("\n  response: ").length - 1, lines.length);
    await refused(
      ["show", file, "--failing", "--metric", "loose"],
      /one evaluation \(strict or loose\): metric does not apply/,
    );
  }
  await refused(
    ["show", `${dir}/ifeval_results/eval_results_strict.jsonl`, "--status", "ok"],
    /is an IFEval results file, which has none/,
  );
  // The file's prompts are named by their line: a bare number is pointed at it.
  await refused(
    ["show", `${dir}/ifeval_results/eval_results_strict.jsonl`, "--id", "12"],
    /has no prompt "12" \(did you mean "line 12"\? /,
  );
});

const structured = `${dir}/structured.json`;
await make([...commands.structured, "--quiet"]);

Deno.test("assay show --failing on a structured report lists exactly its rows that failed a metric", async () => {
  const report = await json(structured);
  type Row = { id: string; metrics: Record<string, { numerator: number; denominator: number }> };
  const fails = (m: string, f: { numerator: number; denominator: number }) =>
    f.denominator > 0 &&
    (m === "extra_content_rate" ? f.numerator > 0 : f.numerator < f.denominator);
  const any = report.rows.filter((r: Row) =>
    Object.entries(r.metrics).some(([m, f]) => fails(m, f))
  );
  deepStrictEqual(
    firstWord((await ok0(["show", structured, "--failing"])).stdout),
    any.map((r: Row) => r.id),
  );
  for (const m of ["json_validity", "extra_content_rate"]) {
    const failing = report.rows.filter((r: Row) => fails(m, r.metrics[m]!));
    ok(failing.length > 0 && failing.length < report.rows.length);
    const shown = await ok0(["show", structured, "--failing", "--metric", m]);
    deepStrictEqual(firstWord(shown.stdout), failing.map((r: Row) => r.id));
  }
  const one = await ok0(["show", structured, "--id", "ex-002"]);
  match(one.stdout, /^ex-002 {2}line 2\n {2}failed: extra_content_rate 1\/1, xml_validity 0\/1\n/);
  await refused(["show", structured, "--slice", "en"], /no slices: slice does not apply/);
  await refused(
    ["show", structured, "--failing", "--metric", "json_valid"],
    /has no metric "json_valid" \(did you mean json_validity\?/,
  );
  await refused(
    ["show", structured, "--id", "ex-0002"],
    /has no row "ex-0002" \(did you mean ex-002\?/,
  );
});

const suite = `${dir}/suite.json`;
await make([...commands.suite, "--quiet"]);

Deno.test("assay show --failing on a suite run lists exactly its runs that failed", async () => {
  const report = await json(suite);
  type C = { metric: string; applicable: boolean; score: number | null; threshold: number };
  type Run = {
    golden_id: string;
    arm: string;
    repeat: number;
    criteria: C[];
    overall: { pass: boolean | null };
  };
  const below = (c: C) => c.applicable && c.score !== null && c.score < c.threshold;
  const key = (r: Run) => `${r.golden_id}  [${r.arm}]  repeat ${r.repeat}`;
  const runs = (text: string) => heads(text).map((l) => l.split("  ").slice(0, 3).join("  "));
  const failing = report.runs.filter((r: Run) =>
    r.overall.pass === false || r.criteria.some(below)
  );
  ok(failing.length > 0 && failing.length < report.runs.length);
  deepStrictEqual(runs((await ok0(["show", suite, "--failing"])).stdout), failing.map(key));
  const m = "trajectory_match";
  const onM = report.runs.filter((r: Run) =>
    r.arm === "base" && r.criteria.some((c) => c.metric === m && below(c))
  );
  const shown = await ok0(["show", suite, "--failing", "--metric", m, "--slice", "base"]);
  deepStrictEqual(runs(shown.stdout), onM.map(key));
  match(shown.stdout, / {2}trajectory_match: 0 \(threshold 0\.5\) FAILED\n/);
  const g = await ok0(["show", suite, "--id", "g01", "--limit", "4"]);
  match(g.stdout, /4 of 6 selected runs shown \(48 in the report\)/);
  await refused(["show", suite, "--id", "g1"], /has no golden "g1" \(did you mean g01\?/);
  await refused(
    ["show", suite, "--slice", "basee"],
    /has no arm "basee" \(did you mean base\? it has adapter, base\)/,
  );
  await refused(["show", suite, "--failing", "--metric", "hit_limt"], /did you mean hit_limit\?/);
});
