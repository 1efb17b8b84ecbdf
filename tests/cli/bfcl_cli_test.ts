// `assay bfcl` end to end: BFCL's score file and the assay.bfcl.v1 report, written atomically;
// exit 2 with a message naming the file and line for bad input or usage.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { compareBfclReports, mergeBfclReports } from "../../src/bfcl/mod.ts";
import { formatReport, sha256Hex } from "../../mod.ts";
import { runMain } from "./_main.ts";
import { gunzipText } from "../bfcl/_fixtures.ts";

async function fixtureFiles(dir: string, model: string, category: string) {
  const data = `data/gorilla_openfunctions_v1_test_${category}.json.gz`;
  const files = {
    questions: [data, `${dir}/q.json`],
    answers: [
      `data/possible_answer/gorilla_openfunctions_v1_test_${category}.json.gz`,
      `${dir}/a.json`,
    ],
    result: [`results/${model}/${category}_result.json.gz`, `${dir}/r.json`],
  };
  for (const [from, to] of Object.values(files)) {
    await Deno.writeTextFile(to!, await gunzipText(from!));
  }
  return [
    "--questions",
    `${dir}/q.json`,
    "--answers",
    `${dir}/a.json`,
    "--result",
    `${dir}/r.json`,
  ];
}

Deno.test("assay bfcl writes BFCL's score file and the assay.bfcl.v1 report", async () => {
  const dir = await Deno.makeTempDir();
  const inputs = await fixtureFiles(dir, "gpt-4o-2024-05-13-FC", "simple");
  const simple = ["bfcl", "--checker", "bfcl.ast@2024-08", "--category", "simple", ...inputs];
  const r = await runMain([
    ...simple,
    "--underscore-to-dot",
    "--model",
    "gpt-4o-2024-05-13-FC",
    "--out",
    `${dir}/score.json`,
    "--report",
    `${dir}/report.json`,
  ]);
  strictEqual(r.code, 0, r.stderr);
  match(r.stdout, /gpt-4o-2024-05-13-FC simple: 353\/400 correct \(0\.8825\)/);
  const published = await gunzipText("scores/gpt-4o-2024-05-13-FC/simple_score.json.gz");
  strictEqual(await Deno.readTextFile(`${dir}/score.json`), published.replace(/\n$/, ""));
  const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  strictEqual(report.schema, "assay.bfcl.v1");
  strictEqual(report.categories[0].accuracy.numerator, 353);
  // Without the name rewrite, every dotted function name is missed.
  const again = await runMain([
    ...simple,
    "--out",
    `${dir}/score.json`,
    "--quiet",
  ]);
  strictEqual(again.code, 0, again.stderr);
  match(await Deno.readTextFile(`${dir}/score.json`), /wrong_func_name/);
});

Deno.test("assay bfcl takes the decoder and the name rewrite from --model, and refuses a decoder the results do not fit", async () => {
  const dir = await Deno.makeTempDir();
  const run = async (model: string, category: string, flags: string[]) =>
    await runMain([
      "bfcl",
      "--checker",
      "bfcl.ast@2024-08",
      "--category",
      category,
      ...await fixtureFiles(dir, model, category),
      ...flags,
      "--out",
      `${dir}/score.json`,
    ]);
  // The name rewrite of an UNDERSCORE_TO_DOT model, without --underscore-to-dot.
  const gpt4o = await run("gpt-4o-2024-05-13-FC", "simple", ["--model", "gpt-4o-2024-05-13-FC"]);
  strictEqual(gpt4o.code, 0, gpt4o.stderr);
  match(gpt4o.stdout, /simple: 353\/400 correct/);
  const off = await run("gpt-4o-2024-05-13-FC", "simple", [
    "--model",
    "gpt-4o-2024-05-13-FC",
    "--no-underscore-to-dot",
    "--report",
    `${dir}/off.json`,
  ]);
  strictEqual(off.code, 0, off.stderr);
  match(off.stdout, /simple: 205\/400 correct/);
  // A known model's name in another case is refused: it fell back to the defaults (205 of 400).
  const lower = await run("gpt-4o-2024-05-13-FC", "simple", ["--model", "gpt-4o-2024-05-13-fc"]);
  strictEqual(lower.code, 2, lower.stderr);
  strictEqual(
    lower.stderr,
    'assay bfcl: --model: Unknown model "gpt-4o-2024-05-13-fc" (did you mean ' +
      '"gpt-4o-2024-05-13-FC"?): the decoder and the name rewrite are derived from BFCL\'s ' +
      "spelling of a known model's name",
  );
  // The report records the decoding, and a comparison of the same results decoded two ways is
  // refused: it is one model scored twice.
  await run("gpt-4o-2024-05-13-FC", "simple", [
    "--model",
    "gpt-4o-2024-05-13-FC",
    "--report",
    `${dir}/on.json`,
  ]);
  const on = JSON.parse(await Deno.readTextFile(`${dir}/on.json`));
  deepStrictEqual([on.categories[0].decoder, on.categories[0].underscoreToDot], ["fc", true]);
  const twice = await runMain(["bfcl", "compare", `${dir}/on.json`, `${dir}/off.json`]);
  strictEqual(twice.code, 2, twice.stdout);
  match(
    twice.stderr,
    /simple: the same results decoded differently: A fc with underscore-to-dot, B fc without/,
  );
  // A prompting model under a name BFCL does not know: fc is refused, nothing is written.
  await Deno.remove(`${dir}/score.json`).catch(() => {});
  const unknown = await run("gpt-4-0613", "simple", ["--model", "my-gpt4-run"]);
  strictEqual(unknown.code, 2, unknown.stderr);
  match(
    unknown.stderr,
    /r\.json: the fc decoder reads a function-calling model's lists of calls, but all 400 results are text, and line 1 \(id simple_0\) reads as calls, .*--decoder claude, gorilla, gpt, llama or mistral/,
  );
  strictEqual(await Deno.stat(`${dir}/score.json`).then(() => true, () => false), false);
  const given = await run("gpt-4-0613", "simple", ["--model", "my-gpt4-run", "--decoder", "gpt"]);
  strictEqual(given.code, 0, given.stderr);
  match(given.stdout, /simple: 375\/400 correct/);
  // A known model whose handler reads its own format is refused unless a decoder is given.
  const hermes = await run("gpt-4-0613", "simple", [
    "--model",
    "NousResearch/Hermes-2-Pro-Llama-3-8B",
  ]);
  strictEqual(hermes.code, 2, hermes.stderr);
  match(hermes.stderr, /handler for NousResearch\/Hermes-2-Pro-Llama-3-8B decodes the model's own/);
  // A prompting decoder on a function-calling model's lists of calls.
  const fcAsText = await run("gpt-4o-2024-05-13-FC", "simple", ["--decoder", "gpt"]);
  strictEqual(fcAsText.code, 2, fcAsText.stderr);
  match(
    fcAsText.stderr,
    /the gpt decoder reads a prompting model's text, but 399 of the 400 results are lists or objects of calls.*use --decoder fc/,
  );
  const both = await run("gpt-4o-2024-05-13-FC", "simple", [
    "--underscore-to-dot",
    "--no-underscore-to-dot",
  ]);
  strictEqual(both.code, 2);
  match(both.stderr, /--underscore-to-dot or --no-underscore-to-dot, not both/);
  const help = await runMain(["bfcl", "--help"]);
  match(help.stdout, /it also sets what the two flags\n\s+below do not: the decoder/);
});

Deno.test("assay bfcl --matching optimal records the matching and the entries it changes", async () => {
  const dir = await Deno.makeTempDir();
  const inputs = await fixtureFiles(dir, "gpt-4-0613", "parallel_function");
  const r = await runMain([
    "bfcl",
    "--checker",
    "bfcl.ast@2024-08",
    "--category",
    "parallel_function",
    ...inputs,
    "--model",
    "gpt-4-0613",
    "--matching",
    "optimal",
    "--out",
    `${dir}/score.json`,
    "--report",
    `${dir}/report.json`,
  ]);
  strictEqual(r.code, 0, r.stderr);
  match(r.stdout, /optimal matching passes 0 entries that greedy matching fails/);
  const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  strictEqual(report.matching, "optimal");
  strictEqual(report.matchingDisagreements.length, 0);
});

Deno.test("assay bfcl exits 2 naming the file and line of bad input, and on bad usage", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/r.json`, '{"id": "relevance_0", "result": "No."}\n{"id": 1,\n');
  const bad = await runMain([
    "bfcl",
    "--checker",
    "bfcl.ast@2024-08",
    "--category",
    "relevance",
    "--result",
    `${dir}/r.json`,
    "--out",
    `${dir}/s.json`,
  ]);
  strictEqual(bad.code, 2);
  match(bad.stderr, new RegExp(`${dir}/r\\.json:2: not JSON`));
  const usage = [
    [["--checker", "bfcl.ast@2025"], /Unknown value "bfcl\.ast@2025" for --checker/],
    [
      ["--checker", "bfcl.ast@2024-08", "--category", "simpel"],
      /Unknown value "simpel" for --category/,
    ],
    [
      ["--checker", "bfcl.ast@2024-08", "--category", "simple", "--result", "x"],
      /needs --questions and --answers/,
    ],
    [["--category", "relevance"], /--checker bfcl\.ast@2024-08 is required/],
    [
      [
        "--checker",
        "bfcl.ast@2024-08",
        "--category",
        "relevance",
        "--result",
        "x",
        "--matching",
        "best",
      ],
      /Unknown value "best" for --matching \(one of greedy, optimal\)/,
    ],
  ] as const;
  for (const [args, message] of usage) {
    const r = await runMain(["bfcl", ...args, "--out", `${dir}/s.json`]);
    strictEqual(r.code, 2, args.join(" "));
    match(r.stderr, message);
  }
  const help = await runMain(["bfcl", "--help"]);
  strictEqual(help.code, 0);
  match(help.stdout, /Usage: deno task assay bfcl --checker bfcl\.ast@2024-08/);
});

// Until 2026-12-07 relevance ignored --questions and --answers, even paths that did not exist
// (exit 0, the report's inputs null): it reads neither, and giving one is a usage error.
Deno.test("assay bfcl refuses --questions and --answers with relevance, which reads only --result", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/r.json`, '{"id": "relevance_0", "result": "No."}\n');
  const relevance = ["bfcl", "--checker", "bfcl.ast@2024-08", "--category", "relevance"];
  const cases = [
    [["--questions", "/nonexistent.json", "--answers", "/etc/passwd"], "--questions and --answers"],
    [["--questions", `${dir}/r.json`], "--questions"],
    [["--answers", `${dir}/r.json`], "--answers"],
  ] as const;
  for (const [flags, named] of cases) {
    const r = await runMain([
      ...relevance,
      ...flags,
      "--result",
      `${dir}/r.json`,
      "--out",
      `${dir}/s.json`,
    ]);
    strictEqual(r.code, 2, flags.join(" "));
    strictEqual(
      r.stderr,
      `assay bfcl: The relevance category reads only --result: drop ${named}`,
    );
    strictEqual(r.stdout, "");
    await Deno.stat(`${dir}/s.json`).then(
      () => ok(false, "s.json was written"),
      (e) => ok(e instanceof Deno.errors.NotFound),
    );
  }
  const alone = await runMain([
    ...relevance,
    "--result",
    `${dir}/r.json`,
    "--out",
    `${dir}/s.json`,
  ]);
  strictEqual(alone.code, 0, alone.stderr);
  await Deno.remove(dir, { recursive: true });
});

// Until 2026-12-07 a result of [{}] (an FC model's list holding an empty object) was refused as a
// malformed result file, exit 2. It is the model's output, which BFCL's decoder fails on.
Deno.test("assay bfcl scores a result of [{}] as BFCL does: relevance passes, simple fails to decode", async () => {
  const dir = await Deno.makeTempDir();
  const model = "gpt-4o-2024-05-13-FC";
  const scored = [];
  for (const category of ["relevance", "simple"]) {
    const inputs = category === "relevance" ? ["--result", `${dir}/r.json`] : await fixtureFiles(
      dir,
      model,
      category,
    );
    if (category === "relevance") {
      await Deno.writeTextFile(
        `${dir}/r.json`,
        await gunzipText(`results/${model}/relevance_result.json.gz`),
      );
    }
    const lines = (await Deno.readTextFile(`${dir}/r.json`)).split("\n");
    lines[2] = JSON.stringify({ ...JSON.parse(lines[2]!), result: [{}] });
    await Deno.writeTextFile(`${dir}/r.json`, lines.join("\n"));
    const r = await runMain([
      "bfcl",
      "--checker",
      "bfcl.ast@2024-08",
      "--category",
      category,
      ...inputs,
      "--model",
      model,
      "--out",
      `${dir}/s.json`,
    ]);
    strictEqual(r.code, 0, r.stderr);
    scored.push(r.stdout.split("\n")[0]);
    if (category === "simple") {
      const line = (await Deno.readTextFile(`${dir}/s.json`)).split("\n")
        .map((l) => JSON.parse(l)).find((l) => l.id === 3);
      deepStrictEqual(
        [line.valid, line.error_type, line.error, line.model_result_raw],
        [
          false,
          "ast_decoder:decoder_failed",
          ["Invalid syntax. Failed to decode AST. list index out of range"],
          [{}],
        ],
      );
    }
  }
  // relevance_2 passed already (prose); simple_2 passed, and now fails.
  deepStrictEqual(scored, [
    `${model} relevance: 185/240 correct (0.7708333333333334)`,
    `${model} simple: 352/400 correct (0.88)`,
  ]);
  await Deno.remove(dir, { recursive: true });
});

/** Writes a model's assay.bfcl.v1 report of one category with `assay bfcl --report`. */
async function reportOf(dir: string, model: string, category: string): Promise<string> {
  const sub = await Deno.makeTempDir({ dir });
  const out = `${dir}/${model}_${category}.json`;
  const r = await runMain([
    "bfcl",
    "--checker",
    "bfcl.ast@2024-08",
    "--category",
    category,
    ...await fixtureFiles(sub, model, category),
    "--model",
    model,
    "--out",
    `${sub}/score.json`,
    "--report",
    out,
    "--quiet",
  ]);
  strictEqual(r.code, 0, r.stderr);
  return out;
}

Deno.test("assay bfcl compare merges --a and --b per model and writes the same bytes for the same seed", async () => {
  const dir = await Deno.makeTempDir();
  const [a, b] = ["gpt-4-0613", "mistral-large-2407"];
  const side = (m: string) =>
    Promise.all(["simple", "parallel_function"].map((c) => reportOf(dir, m, c)));
  const [as, bs] = [await side(a), await side(b)];
  const args = (out: string) => [
    "bfcl",
    "compare",
    ...as.flatMap((p) => ["--a", p]),
    ...bs.flatMap((p) => ["--b", p]),
    "--seed",
    "11",
    "--resamples",
    "500",
    "--out",
    out,
  ];
  const first = await runMain(args(`${dir}/c1.json`));
  strictEqual(first.code, 0, first.stderr);
  match(first.stdout, /^category +A +B +B − A +95% CI +only A +only B/);
  match(first.stdout, /\nparallel_function +0\.\d{3} \(/);
  match(first.stdout, /A = gpt-4-0613, B = mistral-large-2407 \(bfcl\.ast@2024-08, greedy/);
  strictEqual((await runMain(args(`${dir}/c2.json`))).code, 0);
  const text = await Deno.readTextFile(`${dir}/c1.json`);
  strictEqual(await Deno.readTextFile(`${dir}/c2.json`), text);
  // The library's comparison of the merged reports, byte for byte.
  const read = async (ps: string[]) =>
    mergeBfclReports(
      await Promise.all(ps.map(async (p) => JSON.parse(await Deno.readTextFile(p)))),
    );
  strictEqual(
    formatReport(compareBfclReports(await read(as), await read(bs), { seed: 11, resamples: 500 })),
    text,
  );
});

Deno.test("assay bfcl compare exits 2 on reports that do not compare, naming what differs", async () => {
  const dir = await Deno.makeTempDir();
  const simple = await reportOf(dir, "gpt-4-0613", "simple");
  const parallel = await reportOf(dir, "mistral-large-2407", "parallel_function");
  const other = await reportOf(dir, "mistral-large-2407", "simple");
  await Deno.writeTextFile(`${dir}/not.json`, '{"schema": "assay.evaluation.v1", "records": []}');
  const cases = [
    [
      [simple, parallel],
      new RegExp(
        `^assay bfcl compare: ${simple} \\(A\\) and ${parallel} \\(B\\): ` +
          "Refusing to compare: category sets differ: only in A \\[simple\\]",
      ),
    ],
    [
      [simple, `${dir}/not.json`],
      /not\.json has schema "assay\.evaluation\.v1", not an assay\.bfcl\.v1 report/,
    ],
    [["--a", simple, "--a", other, "--b", other], /different models/],
    [["--a", simple, parallel], /Give both --a and --b, and no other report/],
    [[simple], /Expected two reports: A\.json B\.json/],
  ] as const;
  for (const [args, message] of cases) {
    const r = await runMain(["bfcl", "compare", ...args]);
    strictEqual(r.code, 2, args.join(" "));
    match(r.stderr, message);
  }
  const help = await runMain(["bfcl", "compare", "--help"]);
  strictEqual(help.code, 0);
  match(help.stdout, /Usage: deno task assay bfcl compare A\.json B\.json/);
});

Deno.test("assay bfcl exits 2 on files of BFCL v3's shape or of another category, naming them", async () => {
  const dir = await Deno.makeTempDir();
  const args = await fixtureFiles(dir, "gpt-4o-2024-05-13-FC", "simple");
  const run = (category: string, files: string[]) =>
    runMain([
      "bfcl",
      "--checker",
      "bfcl.ast@2024-08",
      "--category",
      category,
      ...files,
      "--out",
      `${dir}/s.json`,
    ]);
  // BFCL v3's simple questions list their one function, and its answers their one call.
  const v3 = (text: string, key: string) =>
    text.split("\n").filter((l) => l).map((l) => {
      const o = JSON.parse(l);
      return JSON.stringify({ ...o, [key]: [o[key]] });
    }).join("\n") + "\n";
  await Deno.writeTextFile(
    `${dir}/q3.json`,
    v3(await Deno.readTextFile(`${dir}/q.json`), "function"),
  );
  await Deno.writeTextFile(
    `${dir}/a3.json`,
    v3(await Deno.readTextFile(`${dir}/a.json`), "ground_truth"),
  );
  const questions = await run("simple", ["--questions", `${dir}/q3.json`, ...args.slice(2)]);
  strictEqual(questions.code, 2);
  strictEqual(
    questions.stderr,
    `assay bfcl: ${dir}/q3.json:1: function is a list of functions: looks like BFCL v3's files; ` +
      "this checker reads the 2024-08 files, where a simple question's function is one (id simple_0)",
  );
  const answers = await run("simple", [
    ...args.slice(0, 2),
    "--answers",
    `${dir}/a3.json`,
    ...args.slice(4),
  ]);
  strictEqual(answers.code, 2);
  match(answers.stderr, /a3\.json:1: ground_truth is a list of calls: looks like BFCL v3's files/);
  // Simple results scored as relevance.
  const relevance = await run("relevance", args.slice(4));
  strictEqual(relevance.code, 2);
  strictEqual(
    relevance.stderr,
    `assay bfcl: ${dir}/r.json:1: id "simple_0" is of the simple category, not relevance`,
  );
  const unknown = await run("simpel", args);
  strictEqual(
    unknown.stderr,
    'assay bfcl: Unknown value "simpel" for --category (did you mean simple?)',
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay bfcl compare names itself in its refusals, and refuses a report whose model is not a string", async () => {
  const dir = await Deno.makeTempDir();
  const simple = await reportOf(dir, "gpt-4-0613", "simple");
  const report = JSON.parse(await Deno.readTextFile(simple));
  await Deno.writeTextFile(`${dir}/m.json`, JSON.stringify({ ...report, model: { x: 1 } }));
  const r = await runMain(["bfcl", "compare", `${dir}/m.json`, simple]);
  strictEqual(r.code, 2);
  strictEqual(
    r.stderr,
    `assay bfcl compare: ${dir}/m.json: The assay.bfcl.v1 report is malformed: model is not a string`,
  );
  const missing = await runMain(["bfcl", "compare", simple]);
  strictEqual(
    missing.stderr,
    "assay bfcl compare: Expected two reports: A.json B.json (or --a and --b)",
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("bfcl compare, gate and show refuse a report whose entry id, error type or error is malformed, in one message", async () => {
  const dir = await Deno.makeTempDir();
  const simple = await reportOf(dir, "gpt-4-0613", "simple");
  const report = JSON.parse(await Deno.readTextFile(simple));
  await Deno.writeTextFile(`${dir}/rules.yaml`, "rules:\n  - metric: accuracy\n    min: 0\n");
  const k = report.records.findIndex((r: { valid: boolean }) => !r.valid);
  const cases: [string, unknown, string][] = [
    ["entryId", 17, "a string"],
    ["entryId", undefined, "a string"],
    ["errorType", { type: "x" }, "a string or null"],
    ["error", ["bad"], "a string or null"],
  ];
  for (const [key, value, text] of cases) {
    const bad = structuredClone(report);
    bad.records[k][key] = value;
    const file = `${dir}/bad.json`;
    await Deno.writeTextFile(file, JSON.stringify(bad));
    const words =
      `${file}: The assay.bfcl.v1 report is malformed: records[${k}].${key} is not ${text}`;
    for (
      const [command, args] of [
        ["bfcl compare", ["bfcl", "compare", file, simple]],
        ["gate", ["gate", `${dir}/rules.yaml`, "--report", file]],
        ["show", ["show", file, "--failing"]],
      ] as const
    ) {
      const r = await runMain([...args]);
      strictEqual(r.code, 2, `${command} ${key}: ${r.stderr}`);
      strictEqual(r.stdout, "", `${command} ${key}`);
      ok(r.stderr.trimEnd().endsWith(words), `${command} ${key}: ${r.stderr}`);
      ok(r.stderr.startsWith(`assay ${command}: `), `${command} ${key}: ${r.stderr}`);
    }
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay bfcl --report records the files' SHA-256, and bfcl compare refuses reports of other answers", async () => {
  const dir = await Deno.makeTempDir();
  const a = await reportOf(dir, "gpt-4o-2024-05-13-FC", "java");
  const report = JSON.parse(await Deno.readTextFile(a));
  const sha = async (gz: string) => sha256Hex(await gunzipText(gz));
  const data = "gorilla_openfunctions_v1_test_java.json.gz";
  deepStrictEqual(report.categories[0].inputs, {
    questions: { sha256: await sha(`data/${data}`) },
    answers: { sha256: await sha(`data/possible_answer/${data}`) },
    results: { sha256: await sha("results/gpt-4o-2024-05-13-FC/java_result.json.gz") },
  });
  // The other model scored against an answer file with one more accepted value.
  const sub = await Deno.makeTempDir({ dir });
  const inputs = await fixtureFiles(sub, "mistral-large-2407-FC-Any", "java");
  const answers = await Deno.readTextFile(`${sub}/a.json`);
  await Deno.writeTextFile(
    `${sub}/a.json`,
    answers.replace('["mapController"]', '["mapController", "otherController"]'),
  );
  const b = `${dir}/b.json`;
  const scored = await runMain([
    "bfcl",
    "--checker",
    "bfcl.ast@2024-08",
    "--category",
    "java",
    ...inputs,
    "--model",
    "mistral-large-2407-FC-Any",
    "--out",
    `${sub}/score.json`,
    "--report",
    b,
    "--quiet",
  ]);
  strictEqual(scored.code, 0, scored.stderr);
  const refused = await runMain(["bfcl", "compare", a, b, "--out", `${dir}/c.json`]);
  strictEqual(refused.code, 2, refused.stderr);
  match(
    refused.stderr,
    /Refusing to compare: java answer files' sha256 differ: A [0-9a-f]{12}…, B [0-9a-f]{12}…/,
  );
  strictEqual(await Deno.stat(`${dir}/c.json`).then(() => true, () => false), false);
  // A report written before the digests: compared, with a note on stderr.
  delete report.categories[0].inputs;
  await Deno.writeTextFile(`${dir}/old.json`, JSON.stringify(report));
  const old = await runMain(["bfcl", "compare", `${dir}/old.json`, a, "--resamples", "20"]);
  strictEqual(old.code, 0, old.stderr);
  match(old.stderr, /^note: report A records no input digest .*score it again/);
});

Deno.test("assay bfcl says so when no result decoded, which is BFCL's verdict but almost always the wrong decoder", async () => {
  const dir = await Deno.makeTempDir();
  const inputs = await fixtureFiles(dir, "gpt-4o-2024-05-13-FC", "simple");
  const args = ["bfcl", "--checker", "bfcl.ast@2024-08", "--category", "simple", ...inputs];
  const out = ["--out", `${dir}/score.json`];
  const decoded = await runMain([...args, "--model", "gpt-4o-2024-05-13-FC", ...out]);
  strictEqual(decoded.code, 0, decoded.stderr);
  strictEqual(decoded.stderr, "");
  // Fenced code, which the gpt decoder does not read: every entry decoder_failed.
  const lines = (await Deno.readTextFile(`${dir}/r.json`)).trimEnd().split("\n");
  const fenced = lines.map((line) =>
    JSON.stringify({ id: JSON.parse(line).id, result: "```python\nf(a=1)\n```" })
  );
  await Deno.writeTextFile(`${dir}/r.json`, fenced.join("\n") + "\n");
  const failed = await runMain([...args, "--decoder", "gpt", ...out]);
  strictEqual(failed.code, 0, failed.stderr);
  match(failed.stdout, /simple: 0\/400 correct/);
  strictEqual(
    failed.stderr,
    "note: no result decoded (all 400 ast_decoder:decoder_failed): check that the gpt decoder " +
      "reads these results (--decoder, docs/bfcl.md)",
  );
});
