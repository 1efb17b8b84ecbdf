// `assay compare` and `assay gaps` end to end: tables with marks, a refusal that writes nothing.
import { match, ok, strictEqual } from "node:assert/strict";
import { formatReport, scoreToolCalls } from "../../mod.ts";
import { runCli } from "./_main.ts";

const main = new URL("../../cli/main.ts", import.meta.url).pathname;

const assay = runCli;

const call = '{"name":"f","arguments":{"a":1}}';
function report(langs: string[], good: (i: number) => boolean) {
  const examples = Array.from({ length: 40 }, (_, i) => ({
    example_id: `${langs[i % langs.length]}-${i}`,
    language: langs[i % langs.length]!,
    root_id: i % langs.length === 0 ? null : `${langs[0]}-${i - (i % langs.length)}`,
    target: call,
  }));
  return scoreToolCalls(
    examples,
    examples.map((e, i) => ({ example_id: e.example_id, output: good(i) ? call : "no call" })),
  );
}

Deno.test("assay compare prints marked deltas and writes JSON and HTML", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/base.json`,
    formatReport(report(["en", "de"], (i) => i % 3 === 0)),
  );
  await Deno.writeTextFile(`${dir}/adapter.json`, formatReport(report(["en", "de"], () => true)));
  const r = await assay([
    "compare",
    `${dir}/base.json`,
    `${dir}/adapter.json`,
    "--resamples",
    "500",
    "--out",
    `${dir}/cmp.json`,
    "--html",
    `${dir}/cmp.html`,
  ]);
  strictEqual(r.code, 0, r.stderr);
  match(
    r.stdout,
    /overall\s+valid_json_rate\s+0\.350 \(14\/40\)\s+1\.000 \(40\/40\)\s+\+0\.650\s+\[\+\d\.\d{3}, \+\d\.\d{3}\]\s+\*/,
  );
  strictEqual(JSON.parse(await Deno.readTextFile(`${dir}/cmp.json`)).schema, "assay.comparison.v1");
  match(await Deno.readTextFile(`${dir}/cmp.html`), /<svg/);
  const g = await assay(["gaps", `${dir}/base.json`, "--reference", "en", "--resamples", "300"]);
  strictEqual(g.code, 0, g.stderr);
  match(g.stdout, /de − en\s+valid_json_rate/);
  match(g.stdout, /de: 20 pairs, coverage 1\.000 \(20\/20\)/);
  const bad = await assay(["gaps", `${dir}/base.json`, "--reference", "fr"]);
  strictEqual(bad.code, 2);
  strictEqual(
    bad.stderr.trim(),
    `assay gaps: ${dir}/base.json: The reference language "fr" is not a slice of the report ` +
      "(slices: de, en)",
  );
  // A level just below 1 is not printed as 100%, nor with float noise (99.99999000000001%).
  const near = await assay([
    "compare",
    `${dir}/base.json`,
    `${dir}/adapter.json`,
    "--resamples",
    "100",
    "--level",
    "0.9999999",
  ]);
  strictEqual(near.code, 0, near.stderr);
  match(near.stdout, / 99\.99999% CI$/m);
});

Deno.test("assay compare refuses apples-to-oranges reports with exit 2 and writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/base.json`, formatReport(report(["en", "de"], () => false)));
  await Deno.writeTextFile(`${dir}/other.json`, formatReport(report(["en", "fr"], () => true)));
  const r = await assay([
    "compare",
    `${dir}/base.json`,
    `${dir}/other.json`,
    "--out",
    `${dir}/cmp.json`,
    "--html",
    `${dir}/cmp.html`,
  ]);
  strictEqual(r.code, 2);
  match(
    r.stderr,
    /Refusing to compare: slice sets differ: 1 only in base \("de"\), 1 only in adapter \("fr"\)/,
  );
  // Their example ids differ too: the refusal says how to compare the ones they share.
  match(
    r.stderr,
    /example-id sets differ: [^\n]*\); pass --on intersection to compare the examples both reports hold\n$/,
  );
  strictEqual(
    [...Deno.readDirSync(dir)].map((e) => e.name).sort().join(","),
    "base.json,other.json",
  );
  const notReport = await assay(["compare", `${dir}/base.json`, main]);
  strictEqual(notReport.code, 2);
  match(notReport.stderr, /is not JSON/);
  // A report edited by hand or cut short is bad input for every reader, naming the file and field.
  const edited = JSON.parse(await Deno.readTextFile(`${dir}/base.json`));
  edited.records[7] = null;
  await Deno.writeTextFile(`${dir}/edited.json`, JSON.stringify(edited));
  for (const args of [["compare", `${dir}/base.json`], ["gaps"], ["show"]]) {
    const r = await assay([...args, `${dir}/edited.json`]);
    strictEqual(r.code, 2, `${args[0]}: ${r.stderr}`);
    ok(
      r.stderr.includes(
        `${dir}/edited.json: The assay.evaluation.v2 report is malformed: records[7] is not an object`,
      ),
      r.stderr,
    );
  }
});

Deno.test("assay compare --on intersection compares the shared examples and says what each side left out", async () => {
  const dir = await Deno.makeTempDir();
  const base = report(["en", "de"], (i) => i % 3 === 0);
  // A run on some of base's examples, every output right.
  const partial = (records: typeof base.records) =>
    formatReport(scoreToolCalls(
      records.map((r) => ({ example_id: r.example_id, language: r.language, target: call })),
      records.map((r) => ({ example_id: r.example_id, output: call })),
    ));
  // A partial adapter run: its first 6 examples are missing.
  await Deno.writeTextFile(`${dir}/base.json`, formatReport(base));
  await Deno.writeTextFile(`${dir}/adapter.json`, partial(base.records.slice(6)));
  const strict = await assay(["compare", `${dir}/base.json`, `${dir}/adapter.json`]);
  strictEqual(strict.code, 2);
  match(strict.stderr, /6 only in base/);
  const r = await assay([
    "compare",
    `${dir}/base.json`,
    `${dir}/adapter.json`,
    "--on",
    "intersection",
    "--resamples",
    "200",
    "--out",
    `${dir}/cmp.json`,
  ]);
  strictEqual(r.code, 0, r.stderr);
  match(
    r.stdout,
    /On the 34 shared examples: 6 only in base \(de-1, de-3, de-5, en-0, en-2, en-4\) left out/,
  );
  const c = JSON.parse(await Deno.readTextFile(`${dir}/cmp.json`));
  strictEqual(c.n, 34);
  strictEqual(c.coverage.base_only.count, 6);
  // Both sides named when both left some out; "none" when neither did (it said "0 only in base,
  // 0 only in adapter left out").
  await Deno.writeTextFile(`${dir}/short.json`, partial(base.records.slice(0, 38)));
  const intersection = (a: string, b: string) =>
    assay(["compare", a, b, "--on", "intersection", "--resamples", "200"]);
  const both = await intersection(`${dir}/short.json`, `${dir}/adapter.json`);
  strictEqual(both.code, 0, both.stderr);
  match(
    both.stdout,
    /\nOn the 32 shared examples: 6 only in base \(de-1, de-3, de-5, en-0, en-2, en-4\) and 2 only in adapter \(de-39, en-38\) left out\n/,
  );
  const none = await intersection(`${dir}/short.json`, `${dir}/short.json`);
  strictEqual(none.code, 0, none.stderr);
  match(none.stdout, /\nOn the 38 shared examples: none left out\n/);
  const bad = await assay(["compare", `${dir}/base.json`, `${dir}/adapter.json`, "--on", "some"]);
  strictEqual(bad.code, 2);
  match(bad.stderr, /Unknown value "some" for --on \(one of all, intersection\)/);

  // The gate reads the partial run the same way: refused whole, gated on the shared examples
  // with --on intersection, its coverage on stderr and in the Markdown.
  await Deno.writeTextFile(
    `${dir}/g.yaml`,
    "rules:\n  - metric: full_call_exact_match\n    max_regressions: 0\n",
  );
  const pair = ["--base", `${dir}/base.json`, "--candidate", `${dir}/adapter.json`];
  const whole = await assay(["gate", `${dir}/g.yaml`, ...pair]);
  strictEqual(whole.code, 2, whole.stderr);
  match(whole.stderr, /example-id sets differ/);
  const gated = await assay([
    "gate",
    `${dir}/g.yaml`,
    ...pair,
    "--on",
    "intersection",
    "--markdown",
    `${dir}/g.md`,
    "--out",
    `${dir}/v.json`,
  ]);
  strictEqual(gated.code, 0, gated.stderr);
  const said =
    "Gated on the 34 examples both reports hold; 6 only in the base, 0 only in the candidate.";
  match(gated.stderr, new RegExp(`^${said.replaceAll(".", "\\.")}$`, "m"));
  match(await Deno.readTextFile(`${dir}/g.md`), new RegExp(said.replaceAll(".", "\\.")));
  strictEqual(JSON.parse(await Deno.readTextFile(`${dir}/v.json`)).coverage.shared, 34);
  for (
    const [args, message] of [
      [["--report", `${dir}/base.json`, "--on", "intersection"], /--on intersection gates a base/],
      [[...pair, "--on", "some"], /Unknown value "some" for --on \(one of all, intersection\)/],
      [
        ["--base", `${dir}/v.json`, "--candidate", `${dir}/adapter.json`, "--on", "intersection"],
        /v\.json has schema "assay\.gate\.v1", not an assay\.evaluation\.v2/,
      ],
    ] as const
  ) {
    const r = await assay(["gate", `${dir}/g.yaml`, ...args]);
    strictEqual(r.code, 2, r.stderr);
    match(r.stderr, message);
  }
});

Deno.test("assay compare, gate and show still read v1 evaluation reports", async () => {
  const dir = await Deno.makeTempDir();
  const v1 = (r: ReturnType<typeof report>) => {
    const { dropped_ids: _, ...rest } = r;
    return formatReport({ ...rest, schema: "assay.evaluation.v1" });
  };
  strictEqual(report(["en"], () => true).schema, "assay.evaluation.v2");
  await Deno.writeTextFile(`${dir}/base.json`, v1(report(["en", "de"], (i) => i % 2 === 0)));
  await Deno.writeTextFile(`${dir}/adapter.json`, formatReport(report(["en", "de"], () => true)));
  const c = await assay([
    "compare",
    `${dir}/base.json`,
    `${dir}/adapter.json`,
    "--resamples",
    "100",
  ]);
  strictEqual(c.code, 0, c.stderr);
  await Deno.writeTextFile(
    `${dir}/rules.yaml`,
    "rules:\n  - metric: valid_json_rate\n    min: 0.4\n",
  );
  const g = await assay(["gate", `${dir}/rules.yaml`, "--report", `${dir}/base.json`]);
  strictEqual(g.code, 0, g.stderr);
  const s = await assay(["show", `${dir}/base.json`, "--failing", "--limit", "2"]);
  strictEqual(s.code, 0, s.stderr);
  match(s.stdout, /2 of 20 selected examples shown/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay compare --html --reference refuses a language that is not a slice, writing nothing", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/base.json`, formatReport(report(["en", "de"], (i) => i > 3)));
  await Deno.writeTextFile(`${dir}/adapter.json`, formatReport(report(["en", "de"], () => true)));
  const args = ["compare", `${dir}/base.json`, `${dir}/adapter.json`, "--resamples", "50"];
  const outputs = ["--html", `${dir}/c.html`, "--out", `${dir}/c.json`];
  const bad = await assay([...args, "--reference", "XX", ...outputs]);
  strictEqual(bad.code, 2, bad.stderr);
  match(bad.stderr, /--reference: The reference language "XX" is not a slice of the report/);
  strictEqual(bad.stdout, "");
  for (const f of ["c.html", "c.json"]) {
    strictEqual(await Deno.stat(`${dir}/${f}`).then(() => true, () => false), false, f);
  }
  // A slice that is one: its gaps are on the page.
  const good = await assay([...args, "--reference", "de", ...outputs]);
  strictEqual(good.code, 0, good.stderr);
  match(await Deno.readTextFile(`${dir}/c.html`), / − de \(paired rows only\)/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay compare and gate refuse reports scored against different examples files, naming them", async () => {
  // The reviewer's case: the same ids, but gold_a asks get_weather and gold_b send_email; the
  // generations are exactly gold_a's calls. compare said +1.000 on function_name_accuracy.
  const dir = await Deno.makeTempDir();
  const gold = (name: string, key: string, values: string[]) =>
    values.map((v, i) =>
      JSON.stringify({
        example_id: String(i + 1),
        language: "en",
        target: { name, arguments: { [key]: v } },
      }) + "\n"
    ).join("");
  await Deno.writeTextFile(`${dir}/gold_a.jsonl`, gold("get_weather", "city", ["Paris", "Oslo"]));
  await Deno.writeTextFile(`${dir}/gold_b.jsonl`, gold("send_email", "to", ["x", "y"]));
  await Deno.writeTextFile(
    `${dir}/gen.jsonl`,
    ["Paris", "Oslo"].map((city, i) =>
      JSON.stringify({
        example_id: String(i + 1),
        prompt_sha256: "0".repeat(64),
        output: JSON.stringify({ name: "get_weather", arguments: { city } }),
      }) + "\n"
    ).join(""),
  );
  for (const [g, out] of [["gold_a", "base"], ["gold_b", "cand"]]) {
    const s = await assay([
      "score",
      "--examples",
      `${dir}/${g}.jsonl`,
      "--generations",
      `${dir}/gen.jsonl`,
      "--out",
      `${dir}/${out}.json`,
      "--quiet",
    ]);
    strictEqual(s.code, 0, s.stderr);
  }
  const sha = async (f: string) =>
    JSON.parse(await Deno.readTextFile(`${dir}/${f}.json`)).inputs.examples.sha256;
  const [a, b] = [await sha("base"), await sha("cand")];
  const c = await assay(["compare", `${dir}/cand.json`, `${dir}/base.json`, "--resamples", "50"]);
  strictEqual(c.code, 2, c.stdout);
  ok(
    c.stderr.includes(
      `${dir}/cand.json (base) and ${dir}/base.json (adapter): Refusing to compare: ` +
        `examples files' sha256 differ: base "${b}", adapter "${a}"`,
    ),
    c.stderr,
  );
  // The same example ids: --on intersection would not help, and is not offered.
  ok(!c.stderr.includes("--on intersection"), c.stderr);
  await Deno.writeTextFile(
    `${dir}/rules.yaml`,
    "rules:\n  - metric: argument_f1\n    superior: true\n",
  );
  const g = await assay([
    "gate",
    `${dir}/rules.yaml`,
    "--base",
    `${dir}/cand.json`,
    "--candidate",
    `${dir}/base.json`,
  ]);
  strictEqual(g.code, 2, g.stdout);
  ok(
    g.stderr.includes(
      `${dir}/cand.json (base) and ${dir}/base.json (candidate): Refusing to compare: ` +
        `examples files' sha256 differ`,
    ),
    g.stderr,
  );
  // The same examples file: compared (the prompts manifest may differ, and is not checked).
  const same = await assay([
    "compare",
    `${dir}/base.json`,
    `${dir}/base.json`,
    "--resamples",
    "50",
  ]);
  strictEqual(same.code, 0, same.stderr);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay gaps says no pairs, with null delta and interval, when no target row has a root", async () => {
  const dir = await Deno.makeTempDir();
  const r = report(["en", "de"], (i) => i % 3 === 0);
  const records = r.records.map((x) => ({ ...x, root_id: null }));
  await Deno.writeTextFile(`${dir}/r.json`, formatReport({ ...r, records }));
  const g = await assay(["gaps", `${dir}/r.json`, "--resamples", "50", "--out", `${dir}/g.json`]);
  strictEqual(g.code, 0, g.stderr);
  // It printed 0.000 (0/0), +0.000 and a certain [+0.000, +0.000] for every metric.
  match(
    g.stdout,
    /de − en\s+valid_json_rate\s+0\.000 \(0\/0\)\s+0\.000 \(0\/0\)\s+no pairs\s+[+-]/,
  );
  ok(!g.stdout.includes("[+0.000, +0.000]"), g.stdout);
  match(g.stdout, /de: 0 pairs, coverage 0\.000 \(0\/20\) \(unjoined: 20 without root_id/);
  const json = JSON.parse(await Deno.readTextFile(`${dir}/g.json`));
  for (const m of Object.values(json.gaps.de.primary.metrics) as { delta: null; ci: null }[]) {
    strictEqual(m.delta, null);
    strictEqual(m.ci, null);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay gaps says so when the report has no language besides the reference", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/r.json`, formatReport(report(["en"], (i) => i % 3 === 0)));
  const g = await assay(["gaps", `${dir}/r.json`, "--resamples", "50", "--out", `${dir}/g.json`]);
  strictEqual(g.code, 0, g.stderr);
  strictEqual(g.stdout, "no language besides the reference en to compare\n");
  strictEqual(JSON.parse(await Deno.readTextFile(`${dir}/g.json`)).targets.length, 0);
  // With --json, stdout is the report alone, and the note goes to stderr.
  const json = await assay(["gaps", `${dir}/r.json`, "--resamples", "50", "--json"]);
  strictEqual(json.code, 0, json.stderr);
  strictEqual(JSON.parse(json.stdout).schema, "assay.gaps.v1");
  strictEqual(json.stderr, "note: no language besides the reference en to compare\n");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay compare refuses --reference without --html, as --junit without --gate", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/base.json`, formatReport(report(["en", "de"], (i) => i > 3)));
  await Deno.writeTextFile(`${dir}/adapter.json`, formatReport(report(["en", "de"], () => true)));
  const r = await assay([
    ...["compare", `${dir}/base.json`, `${dir}/adapter.json`, "--reference", "de"],
    ...["--out", `${dir}/c.json`],
  ]);
  strictEqual(r.code, 2, r.stderr);
  strictEqual(
    r.stderr,
    "assay compare: --reference chooses the gaps of --html's page: give --html FILE\n",
  );
  strictEqual(r.stdout, "");
  strictEqual(await Deno.stat(`${dir}/c.json`).then(() => true, () => false), false);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a file that is not a whole report is named with what it lacks, by every reader", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/r.yaml`,
    "rules:\n  - metric: full_call_exact_match\n    min: 0.1\n",
  );
  const evaluation = "an assay.evaluation.v2 or assay.evaluation.v1 report";
  const shown = "an assay.evaluation.v2, assay.evaluation.v1, assay.bfcl.v1, assay.ifeval.v1, " +
    "assay.structured.v1 or assay.suite_run.v1 report";
  const files: [string, string, string][] = [
    [
      "no_records",
      '{"schema":"assay.evaluation.v2"}',
      'the assay.evaluation.v2 report has no "records" list',
    ],
    [
      "object_records",
      '{"schema":"assay.evaluation.v2","records":{}}',
      '"records" of the assay.evaluation.v2 report is an object, not a list',
    ],
    ["list", "[1]", "is not a report: it holds an array, not an object"],
    ["no_schema", "{}", `is not a report: it has no "schema" (expected ${evaluation})`],
    ["other", '{"schema":"foo"}', `has schema "foo", not ${evaluation}`],
  ];
  for (const [file, text, message] of files) {
    const path = `${dir}/${file}.json`;
    await Deno.writeTextFile(path, text + "\n");
    const said = message.startsWith("is") || message.startsWith("has")
      ? ` ${message}`
      : `: ${message}`;
    for (
      const [command, args] of [
        ["show", ["show", path]],
        ["gaps", ["gaps", path]],
        ["compare", ["compare", path, path]],
      ] as const
    ) {
      const r = await assay([...args]);
      strictEqual(r.code, 2, r.stderr);
      // show reads every kind of report that lists examples.
      const expected = command === "show" ? said.replace(evaluation, shown) : said;
      strictEqual(r.stderr, `assay ${command}: ${path}${expected}\n`);
    }
    // The gate reads every kind: the same words, but for the kinds it expects.
    const gate = await assay(["gate", `${dir}/r.yaml`, "--report", path]);
    strictEqual(gate.code, 2, gate.stderr);
    ok(gate.stderr.startsWith(`assay gate: ${path}${said.split(evaluation)[0]}`), gate.stderr);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay compare refuses two reports without examples with exit 2, and no hint to intersect", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/empty.json`, formatReport(scoreToolCalls([], [])));
  const r = await assay([
    "compare",
    `${dir}/empty.json`,
    `${dir}/empty.json`,
    "--out",
    `${dir}/c.json`,
  ]);
  strictEqual(r.code, 2, r.stderr);
  match(r.stderr, /Refusing to compare: the reports hold no example\n$/);
  strictEqual([...Deno.readDirSync(dir)].length, 1);
});

Deno.test("assay compare --html refuses a report whose inputs are missing or misshapen, naming the file", async () => {
  // The page shows each input's digest: such a report crashed it (exit 1) after the comparison,
  // which reads no digest but the examples', had taken it.
  const dir = await Deno.makeTempDir();
  const good = JSON.parse(formatReport(report(["en", "de"], (i) => i % 3 !== 0)));
  await Deno.writeTextFile(`${dir}/a.json`, JSON.stringify(good));
  const digest = { sha256: "0".repeat(64), rows: 40 };
  const spoiled: [string, unknown][] = [
    ["missing", undefined],
    ["a list", []],
    ["a file that is not a digest", { examples: true, generations: null, prompts: null }],
    ["a digest without rows", {
      examples: { sha256: "0".repeat(64) },
      generations: null,
      prompts: null,
    }],
    ["a short digest", { examples: { ...digest, sha256: "0" }, generations: null, prompts: null }],
    ["a file left out", { examples: digest, generations: digest }],
  ];
  for (const [what, inputs] of spoiled) {
    await Deno.writeTextFile(`${dir}/b.json`, JSON.stringify({ ...good, inputs }));
    const r = await assay(["compare", `${dir}/b.json`, `${dir}/a.json`, "--html", `${dir}/c.html`]);
    strictEqual(r.code, 2, `${what}: ${r.stderr}`);
    match(
      r.stderr,
      /b\.json: The assay\.evaluation\.v2 report is malformed: inputs is (not |missing)/,
      what,
    );
    strictEqual(await Deno.stat(`${dir}/c.html`).then(() => true, () => false), false, what);
  }
  // Files not recorded (null) are shown as such.
  const unrecorded = { examples: null, generations: null, prompts: null };
  await Deno.writeTextFile(`${dir}/b.json`, JSON.stringify({ ...good, inputs: unrecorded }));
  const r = await assay(["compare", `${dir}/b.json`, `${dir}/a.json`, "--html", `${dir}/c.html`]);
  strictEqual(r.code, 0, r.stderr);
  match(await Deno.readTextFile(`${dir}/c.html`), /not recorded/);
  await Deno.remove(dir, { recursive: true });
});
