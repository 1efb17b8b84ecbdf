// `assay structured` end to end on a small fixture: the table, the JSON report, exact expected
// values from the file, and named errors for bad input.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";

const deno = Deno.execPath();
const root = new URL("../../", import.meta.url).pathname;
const main = `${root}cli/main.ts`;
const fx = `${root}tests/fixtures/structured`;
const dec = new TextDecoder();

async function assay(args: string[]) {
  const out = await new Deno.Command(deno, {
    args: ["run", "-A", main, "structured", ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const all = [
  "--outputs",
  `${fx}/outputs.jsonl`,
  "--expected",
  `${fx}/expected.jsonl`,
  "--schema",
  `${fx}/schema.json`,
  "--format",
  "Answer: [0-9]+",
];

Deno.test("assay structured computes every metric the inputs allow", async () => {
  const dir = await Deno.makeTempDir();
  const r = await assay([...all, "--mode", "fenced", "--json", "--out", `${dir}/r.json`]);
  strictEqual(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  deepStrictEqual(JSON.parse(await Deno.readTextFile(`${dir}/r.json`)), report);
  strictEqual(report.schema, "assay.structured.v1");
  const counts = Object.fromEntries(
    Object.entries(report.metrics as Record<string, { numerator: number; denominator: number }>)
      .map(([k, v]) => [k, [v.numerator, v.denominator]]),
  );
  deepStrictEqual(counts, {
    json_validity: [2, 3],
    json_schema_compliance: [2, 3],
    extra_content_rate: [2, 3],
    // q2 expects 7.0 and the output says 7: the file's 7.0 is kept, so it is a miss.
    required_field_accuracy: [1, 3],
    xml_validity: [0, 3],
    format_compliance: [1, 3],
    tool_selection_accuracy: [2, 3],
    tool_argument_accuracy: [1, 1],
    tool_call_f1: [2, 3],
    api_call_success_rate: [2, 3],
    instruction_compliance_rate: [1, 3],
    constraint_satisfaction_rate: [3, 5],
    instruction_retention: [2, 3],
  });
  const numeric = await assay([...all, "--mode", "fenced", "--numbers", "numeric", "--json"]);
  strictEqual(JSON.parse(numeric.stdout).metrics.required_field_accuracy.numerator, 2);
  const table = await assay([...all, "--metrics", "json_validity,tool_call_f1"]);
  strictEqual(table.code, 0, table.stderr);
  match(table.stdout, /json_validity\s+0\.333 \(1\/3\)/);
  match(table.stdout, /tool_call_f1\s+0\.667 \(2\/3\)\s+precision 0\.500 \(1\/2\)/);
  ok(!table.stdout.includes("xml_validity"));
});

Deno.test("assay structured exits 2 on bad input, naming file, line and id", async () => {
  const dir = await Deno.makeTempDir();
  const lines = (await Deno.readTextFile(`${fx}/outputs.jsonl`)).trimEnd().split("\n");
  await Deno.writeTextFile(`${dir}/bad.jsonl`, lines[0] + "\n{oops\n");
  let r = await assay(["--outputs", `${dir}/bad.jsonl`]);
  strictEqual(r.code, 2);
  // Worded as every reader of JSON lines words it: the line, then the parser's code and offset.
  match(r.stderr, /bad\.jsonl:2: malformed JSON line "\{oops" \(expecting_property_name at 1\)\n$/);
  await Deno.writeTextFile(`${dir}/dup.jsonl`, [lines[0], lines[0]].join("\n"));
  r = await assay(["--outputs", `${dir}/dup.jsonl`, "--expected", `${fx}/expected.jsonl`]);
  strictEqual(r.code, 2);
  match(r.stderr, /duplicate id "q1" on lines 1 and 2/);
  // Without --expected too: the report's rows are keyed by id.
  r = await assay(["--outputs", `${dir}/dup.jsonl`]);
  strictEqual(r.code, 2, r.stderr);
  strictEqual(
    r.stderr.trim(),
    `assay structured: ${dir}/dup.jsonl: duplicate id "q1" on lines 1 and 2`,
  );
  await Deno.writeTextFile(`${dir}/two.jsonl`, lines.slice(0, 2).join("\n"));
  r = await assay(["--outputs", `${dir}/two.jsonl`, "--expected", `${fx}/expected.jsonl`]);
  strictEqual(r.code, 2);
  match(r.stderr, /expected row\(s\) have no output .*expected\.jsonl:3 \(id "q3"\)/);
  r = await assay(["--outputs", `${fx}/outputs.jsonl`, "--metrics", "json_validty"]);
  strictEqual(r.code, 2);
  match(r.stderr, /Unknown value "json_validty" for --metrics \(did you mean json_validity\?\)/);
  r = await assay(["--outputs", `${fx}/outputs.jsonl`, "--metrics", "json_schema_compliance"]);
  strictEqual(r.code, 2);
  match(r.stderr, /needs --schema/);
  // A --metrics that names no metric would write an empty report, read as a score.
  for (const list of ["", ","]) {
    r = await assay(["--outputs", `${fx}/outputs.jsonl`, "--metrics", list]);
    strictEqual(r.code, 2, r.stderr);
    strictEqual(r.stderr.trim(), `assay structured: --metrics names no metric (got "${list}")`);
  }
  await Deno.writeTextFile(`${dir}/schema.json`, '{"type": "object", "propertys": {}}');
  r = await assay(["--outputs", `${fx}/outputs.jsonl`, "--schema", `${dir}/schema.json`]);
  strictEqual(r.code, 2);
  match(r.stderr, /schema\.json: .*propertys/);
});

Deno.test("assay structured names the row, or the file without rows, that a metric asked for lacks its field in", async () => {
  const dir = await Deno.makeTempDir();
  const json = ["--metrics", "json_validity"];
  await Deno.writeTextFile(
    `${dir}/o.jsonl`,
    '{"id": "a", "output": "{}"}\n\n{"id": "b", "tool_calls": []}\n',
  );
  let r = await assay(["--outputs", `${dir}/o.jsonl`, ...json]);
  strictEqual(r.code, 2, r.stderr);
  strictEqual(
    r.stderr.trim(),
    `assay structured: Metric json_validity needs an "output" on every line: ${dir}/o.jsonl:3 ` +
      '(id "b") has no "output"',
  );
  // An outputs file with no rows (empty, or blank lines only) says so, asked for a metric or not.
  for (const text of ["", "\n \n"]) {
    await Deno.writeTextFile(`${dir}/none.jsonl`, text);
    r = await assay(["--outputs", `${dir}/none.jsonl`, ...json]);
    strictEqual(r.code, 2, r.stderr);
    strictEqual(
      r.stderr.trim(),
      `assay structured: Metric json_validity needs an "output" on every line: ${dir}/none.jsonl ` +
        "has no rows",
    );
    r = await assay(["--outputs", `${dir}/none.jsonl`]);
    strictEqual(r.code, 2, r.stderr);
    strictEqual(
      r.stderr.trim(),
      `assay structured: No metric can be computed from these inputs: ${dir}/none.jsonl has no ` +
        "rows (see --help for the fields)",
    );
  }
  // Tool metrics: the expected side first, then the outputs.
  await Deno.writeTextFile(`${dir}/e.jsonl`, '{"id": "a", "tool_calls": []}\n{"id": "b"}\n');
  r = await assay([
    "--outputs",
    `${dir}/o.jsonl`,
    "--expected",
    `${dir}/e.jsonl`,
    "--metrics",
    "tool_call_f1",
  ]);
  strictEqual(r.code, 2, r.stderr);
  match(
    r.stderr.trim(),
    /needs tool_calls on both sides: \S*e\.jsonl:2 \(id "b"\) has no "tool_calls"$/,
  );
  // A missing flag is still named alone.
  r = await assay(["--outputs", `${dir}/o.jsonl`, "--metrics", "format_compliance"]);
  strictEqual(r.stderr.trim(), "assay structured: Metric format_compliance needs --format");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay structured names the file, line and id of a bad field, counting within its row", async () => {
  const dir = await Deno.makeTempDir();
  const write = (name: string, rows: unknown[]) =>
    Deno.writeTextFile(`${dir}/${name}`, rows.map((r) => JSON.stringify(r) + "\n").join(""));
  const call = { name: "f", arguments: {} };
  await write("checks.jsonl", [{ id: "q1", checks: [true] }, { id: "q2", checks: "bad" }]);
  await write("flags.jsonl", [{ id: "q1", checks: [true] }, { id: "q2", checks: [true, 3] }]);
  // Row q2's second result is bad; the library counted results across rows (3).
  await write("api.jsonl", [{ id: "q1", api_results: [true, 200] }, {
    id: "q2",
    api_results: [true, "bad"],
  }]);
  await write("retention.jsonl", [{ id: "q1", retention: [true, [true]] }, {
    id: "q2",
    retention: [true, [1]],
  }]);
  await write("calls.jsonl", [{ id: "q1", tool_calls: [call] }, { id: "q2", tool_calls: [] }]);
  // Joined by id: q1's expected row is line 2 of the expected file, the second example.
  await write("expected.jsonl", [{ id: "q2", tool_calls: [call] }, {
    id: "q1",
    tool_calls: [call, { nome: "g" }],
  }]);
  const cases: [string[], string][] = [
    [
      ["--outputs", `${dir}/checks.jsonl`],
      `${dir}/checks.jsonl:2 (id "q2"): instruction_compliance_rate: field "checks" must be an ` +
      "array of booleans",
    ],
    [
      ["--outputs", `${dir}/flags.jsonl`],
      `${dir}/flags.jsonl:2 (id "q2"): instruction_compliance_rate: field "checks"[1] must be a ` +
      "boolean, got a number",
    ],
    [
      ["--outputs", `${dir}/api.jsonl`],
      `${dir}/api.jsonl:2 (id "q2"): api_call_success_rate: field "api_results"[1] is not a ` +
      'flag, status code or exception: "bad"',
    ],
    [
      ["--outputs", `${dir}/retention.jsonl`],
      `${dir}/retention.jsonl:2 (id "q2"): instruction_retention: field "retention" later[0] ` +
      "must be a boolean, got a number",
    ],
    [
      ["--outputs", `${dir}/calls.jsonl`, "--expected", `${dir}/expected.jsonl`],
      `${dir}/expected.jsonl:2 (id "q1"): tool_selection_accuracy: field "tool_calls"[1] is ` +
      'malformed: a call must be {name, arguments}: it has no name, no arguments, an unknown key "nome"',
    ],
  ];
  for (const [args, message] of cases) {
    const r = await assay(args);
    strictEqual(r.code, 2, args.join(" "));
    strictEqual(r.stderr.trim(), `assay structured: ${message}`);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay structured --call-format decodes the predicted calls from each output", async () => {
  const dir = await Deno.makeTempDir();
  const line = (x: unknown) => JSON.stringify(x) + "\n";
  const block = (name: string, args: unknown) =>
    `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
  await Deno.writeTextFile(
    `${dir}/o.jsonl`,
    line({
      id: "a",
      output: `${block("get_weather", { city: "Paris" })}\n${block("get_time", {})}`,
    }) +
      line({ id: "b", output: block("pay", { amount: 150 }) }) +
      line({ id: "c", output: '<tool_call>{"name": "f", "arguments": {"x": </tool_call>' }) +
      line({ id: "d", output: "No tool is needed." }),
  );
  await Deno.writeTextFile(
    `${dir}/e.jsonl`,
    line({
      id: "a",
      tool_calls: [{ name: "get_weather", arguments: { city: "Paris" } }, {
        name: "get_time",
        arguments: {},
      }],
    }) +
      // 150.0 in the file is kept: the decoded 150 does not match it exactly.
      '{"id": "b", "tool_calls": [{"name": "pay", "arguments": {"amount": 150.0}}]}\n' +
      line({ id: "c", tool_calls: [{ name: "f", arguments: { x: 1 } }] }) +
      line({ id: "d", tool_calls: [] }),
  );
  const files = ["--outputs", `${dir}/o.jsonl`, "--expected", `${dir}/e.jsonl`];
  const r = await assay([...files, "--call-format", "hermes", "--json"]);
  strictEqual(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  deepStrictEqual(report.call_format, {
    decoder: "hermes@2",
    statuses: { ok: 3, invalid_json: 1 },
  });
  const f1 = report.metrics.tool_call_f1;
  // Matched: get_weather and get_time; pay differs (150 vs 150.0); c's output is one invalid call.
  deepStrictEqual([f1.numerator, f1.denominator], [4, 8]);
  strictEqual(f1.details.invalidCalls, 1);
  // Without the flag the tool metrics read "tool_calls", which these outputs do not have.
  const plain = await assay([...files, "--metrics", "tool_call_f1"]);
  strictEqual(plain.code, 2);
  match(plain.stderr, /Metric tool_call_f1 needs tool_calls on both sides/);
  const bad = await assay([...files, "--call-format", "hermez"]);
  strictEqual(bad.code, 2);
  match(bad.stderr, /--call-format: Unknown decoder "hermez".*did you mean hermes\?/);
});

Deno.test("assay structured writes each example's own figures, which add up to the totals", async () => {
  type Figures = Record<string, { numerator: number; denominator: number }>;
  const check = (report: { metrics: Figures; rows: { line: number; metrics: Figures }[] }) => {
    for (const [m, total] of Object.entries(report.metrics)) {
      const sum = (k: "numerator" | "denominator") =>
        report.rows.reduce((s, row) => s + row.metrics[m]![k], 0);
      deepStrictEqual(
        [sum("numerator"), sum("denominator")],
        [total.numerator, total.denominator],
        m,
      );
    }
  };
  const fixture = await assay([...all, "--mode", "fenced", "--json"]);
  strictEqual(fixture.code, 0, fixture.stderr);
  const report = JSON.parse(fixture.stdout);
  strictEqual(report.rows.length, 3);
  strictEqual(Object.keys(report.rows[0].metrics).length, Object.keys(report.metrics).length);
  check(report);
  // A seeded corpus of 300 outputs: JSON whole, fenced, embedded, broken; XML; the format.
  const dir = await Deno.makeTempDir();
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const shapes = [
    () => `{"answer": ${Math.floor(next() * 100)}}`,
    () => '```json\n{"answer": 1}\n```',
    () => `Answer: ${Math.floor(next() * 9)} {"answer": 2}`,
    () => `{"answer": `,
    () => "<a><b>1</b></a>",
    () => "plain text",
  ];
  const lines = Array.from(
    { length: 300 },
    (_, i) =>
      JSON.stringify({ id: `r${i}`, output: shapes[Math.floor(next() * shapes.length)]!() }),
  );
  await Deno.writeTextFile(`${dir}/o.jsonl`, lines.join("\n") + "\n");
  for (const mode of ["strict", "fenced", "lenient"]) {
    const r = await assay([
      "--outputs",
      `${dir}/o.jsonl`,
      "--schema",
      `${fx}/schema.json`,
      "--format",
      "Answer: [0-9]+",
      "--mode",
      mode,
      "--json",
    ]);
    strictEqual(r.code, 0, r.stderr);
    const rep = JSON.parse(r.stdout);
    strictEqual(rep.rows.length, 300);
    check(rep);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay structured notes tool metrics left out because the outputs have no tool_calls", async () => {
  // Expected calls, and outputs that are OpenAI responses logged whole, with no "tool_calls": the
  // tool_* metrics are left out, and the note says where and which --call-format reads the calls.
  const dir = await Deno.makeTempDir();
  const line = (x: unknown) => JSON.stringify(x) + "\n";
  const ids = ["q0", "q1", "q2"];
  const message = (q: string) => ({
    role: "assistant",
    tool_calls: [{ type: "function", function: { name: "search", arguments: `{"q": "${q}"}` } }],
  });
  await Deno.writeTextFile(
    `${dir}/o.jsonl`,
    ids.map((id) => line({ id, output: { choices: [{ message: message(id) }] } })).join(""),
  );
  await Deno.writeTextFile(
    `${dir}/e.jsonl`,
    ids.map((id) => line({ id, tool_calls: [{ name: "search", arguments: { q: id } }] })).join(""),
  );
  const files = ["--outputs", `${dir}/o.jsonl`, "--expected", `${dir}/e.jsonl`];
  const note = `note: no tool_* metric: ${dir}/o.jsonl:1 (id "q0") has no "tool_calls" (the ` +
    `expected rows have "tool_calls"); --call-format openai-chat reads 3 of the first 3 outputs ` +
    "as calls\n";
  const r = await assay(files);
  strictEqual(r.code, 0, r.stderr);
  strictEqual(r.stderr, note);
  ok(!r.stdout.includes("tool_call_f1"));
  strictEqual((await assay([...files, "--quiet"])).stderr, "");
  const decoded = await assay([...files, "--call-format", "openai-chat"]);
  strictEqual(decoded.stderr, "");
  match(decoded.stdout, /tool_call_f1 +1\.000 \(6\/6\)/);
  // Text the engine's parser reads names no decoder, and no expected file means no note.
  await Deno.writeTextFile(
    `${dir}/t.jsonl`,
    ids.map((id) => line({ id, output: `{"name": "search", "arguments": {"q": "${id}"}}` })).join(
      "",
    ),
  );
  const text = await assay(["--outputs", `${dir}/t.jsonl`, "--expected", `${dir}/e.jsonl`]);
  strictEqual(
    text.stderr,
    `note: no tool_* metric: ${dir}/t.jsonl:1 (id "q0") has no "tool_calls" (the expected rows ` +
      'have "tool_calls"); --call-format NAME reads the calls from each output instead\n',
  );
  strictEqual((await assay(["--outputs", `${dir}/o.jsonl`])).stderr, "");
  await Deno.remove(dir, { recursive: true });
});
