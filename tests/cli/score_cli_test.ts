// `assay score` end to end: the worked example, and every invariant failing with exit code 2,
// a message naming ids and lines, and no report file.
import { deepStrictEqual as assertEquals, match, strictEqual } from "node:assert/strict";
import { sha256Hex } from "../../mod.ts";
import { writeScoreCorpus } from "../evaluation/_score_corpus.ts";

const deno = Deno.execPath();
const main = new URL("../../cli/main.ts", import.meta.url).pathname;

async function score(
  files: Record<string, string>,
  extra: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string; dir: string; files: string[] }> {
  const dir = await Deno.makeTempDir();
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  const args = ["run", "-A", main, "score", "--quiet", "--out", `${dir}/report.json`];
  for (const name of ["examples", "generations", "prompts"]) {
    if (files[`${name}.jsonl`] !== undefined) args.push(`--${name}`, `${dir}/${name}.jsonl`);
  }
  const out = await new Deno.Command(deno, {
    args: [...args, ...extra],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  const left = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    dir,
    files: left,
  };
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
const call = (city: string, units = "celsius") =>
  JSON.stringify({ name: "get_weather", arguments: { city, units } });
const prompt = (id: string) => `Weather question ${id}`;

function worked() {
  const cities = ["Paris", "Paris", "Oslo", "Rome"];
  const outputs = [
    call("Paris"),
    call("Paris", "kelvin"),
    call("Oslo").replace("get_weather", "fetch_weather"),
    "The weather in Rome is sunny.",
  ];
  const ids = ["1", "2", "3", "4"];
  return {
    examples: ids.map((id, i) => ({
      example_id: id,
      language: "en",
      target: { name: "get_weather", arguments: { city: cities[i], units: "celsius" } },
    })),
    prompts: ids.map((id) => ({
      example_id: id,
      prompt_sha256: sha256Hex(prompt(id)),
      prompt: prompt(id),
    })),
    generations: ids.map((id, i) => ({
      example_id: id,
      prompt_sha256: sha256Hex(prompt(id)),
      output: outputs[i],
    })),
  };
}

function files(w: ReturnType<typeof worked>) {
  return {
    "examples.jsonl": jsonl(w.examples),
    "prompts.jsonl": jsonl(w.prompts),
    "generations.jsonl": jsonl(w.generations),
  };
}

Deno.test("assay score reproduces the worked example and prints the metric table", async () => {
  const r = await score(files(worked()));
  strictEqual(r.code, 0, r.stderr);
  match(
    r.stdout,
    /overall\s+4\s+0\.750 \(3\/4\)\s+0\.500 \(2\/4\)\s+0\.500 \(2\/4\)\s+0\.714 \(10\/14\)\s+0\.250 \(1\/4\)/,
  );
  const report = JSON.parse(await Deno.readTextFile(`${r.dir}/report.json`));
  strictEqual(report.schema, "assay.evaluation.v2");
  assertEquals(report.metrics.overall.argument_f1, {
    value: 10 / 14,
    numerator: 10,
    denominator: 14,
  });
  strictEqual(
    report.inputs.examples.sha256,
    sha256Hex(await Deno.readFile(`${r.dir}/examples.jsonl`)),
  );
  strictEqual(report.inputs.prompts.rows, 4);
  assertEquals(r.files, ["examples.jsonl", "generations.jsonl", "prompts.jsonl", "report.json"]);
});

Deno.test("assay score --json prints the same report it writes, on both engines", async () => {
  const texts: string[] = [];
  for (const engine of ["wasm", "ts"]) {
    const r = await score(files(worked()), ["--json", "--engine", engine]);
    strictEqual(r.code, 0, r.stderr);
    strictEqual(r.stdout, await Deno.readTextFile(`${r.dir}/report.json`));
    texts.push(r.stdout.replace(`"engine": "${engine}"`, '"engine": "?"'));
  }
  strictEqual(texts[0], texts[1]);
});

/** Runs a broken input and checks: exit 2, the message, and no report written. */
async function refuses(f: Record<string, string>, pattern: RegExp) {
  const r = await score(f);
  strictEqual(r.code, 2, `exit code; stderr: ${r.stderr}`);
  match(r.stderr, pattern);
  strictEqual(r.files.includes("report.json"), false, "no report");
  strictEqual(r.files.some((n) => n.includes("tmp")), false, "no temporary file");
}

Deno.test("assay score refuses a duplicate id in each file", async () => {
  for (const which of ["examples", "prompts", "generations"] as const) {
    const w = worked();
    w[which].push({ ...w[which][1]! } as never);
    await refuses(
      files(w),
      new RegExp(`duplicate_id \\(1\\): example_id "2" in .*${which}\\.jsonl at lines 2 and 5`),
    );
  }
});

Deno.test("assay score refuses a missing generation and an orphan generation", async () => {
  const missing = worked();
  missing.generations.splice(2, 1);
  await refuses(
    files(missing),
    /missing_generation \(1\): .*examples\.jsonl:3 \(id "3"\) has no generation/,
  );
  const orphan = worked();
  orphan.generations.push({ ...orphan.generations[0]!, example_id: "99" });
  orphan.prompts.push({ ...orphan.prompts[0]!, example_id: "99" });
  await refuses(
    files(orphan),
    /orphan_generation \(1\): .*generations\.jsonl:5 \(id "99"\) has no example/,
  );
});

Deno.test("assay score refuses a run that scored no example: all missing, or all dropped", async () => {
  // --allow-missing with an empty generations file: every example misses its generation.
  const w = worked();
  let r = await score(
    { "examples.jsonl": jsonl(w.examples), "generations.jsonl": "" },
    ["--allow-missing"],
  );
  strictEqual(r.code, 2, r.stderr);
  strictEqual(
    r.stderr.trim(),
    `assay score: ${r.dir}/examples.jsonl: no example scored: 0 dropped, 4 missing`,
  );
  assertEquals(r.files, ["examples.jsonl", "generations.jsonl"]);
  // Every target dropped (an empty list is no call).
  r = await score({
    "examples.jsonl": jsonl([{ example_id: "a", language: "en", target: [] }]),
    "generations.jsonl": "",
  });
  strictEqual(r.code, 2, r.stderr);
  strictEqual(
    r.stderr.trim(),
    `assay score: ${r.dir}/examples.jsonl: no example scored: 1 dropped, 0 missing`,
  );
  assertEquals(r.files, ["examples.jsonl", "generations.jsonl"]);
});

Deno.test("assay score refuses a prompt digest mismatch and a prompt that does not hash to its digest", async () => {
  const mismatch = worked();
  mismatch.generations[1]!.prompt_sha256 = sha256Hex("another prompt");
  await refuses(
    files(mismatch),
    /prompt_digest_mismatch \(1\): .*generations\.jsonl:2 \(id "2"\): prompt_sha256 .* differs from .*prompts\.jsonl:2/,
  );
  const text = worked();
  text.prompts[3]!.prompt = "edited after hashing";
  await refuses(
    files(text),
    /prompt_text_digest_mismatch \(1\): .*prompts\.jsonl:4 \(id "4"\): prompt hashes to/,
  );
});

Deno.test("assay score refuses a malformed line in each file, naming file, line and text", async () => {
  for (const which of ["examples", "prompts", "generations"]) {
    const f = files(worked());
    const lines = f[`${which}.jsonl` as keyof typeof f].split("\n");
    lines[2] = lines[2]!.slice(0, 25);
    f[`${which}.jsonl` as keyof typeof f] = lines.join("\n");
    await refuses(f, new RegExp(`${which}\\.jsonl:3: malformed JSON line "`));
  }
});

Deno.test("assay score refuses a missing required field", async () => {
  const cases: [string, string, RegExp][] = [
    ["examples", "language", /examples\.jsonl:2 \(id "2"\): missing field "language"/],
    ["examples", "target", /examples\.jsonl:2 \(id "2"\): missing field "target"/],
    ["examples", "example_id", /examples\.jsonl:2: missing field "example_id"/],
    ["generations", "output", /generations\.jsonl:2 \(id "2"\): missing field "output"/],
    [
      "generations",
      "prompt_sha256",
      /generations\.jsonl:2 \(id "2"\): missing field "prompt_sha256"/,
    ],
    ["prompts", "prompt_sha256", /prompts\.jsonl:2 \(id "2"\): missing field "prompt_sha256"/],
  ];
  for (const [which, field, pattern] of cases) {
    const w = worked() as unknown as Record<string, Record<string, unknown>[]>;
    delete w[which]![1]![field];
    await refuses(files(w as unknown as ReturnType<typeof worked>), pattern);
  }
});

Deno.test("assay score without --examples is a usage error", async () => {
  const r = await score({ "generations.jsonl": "" });
  strictEqual(r.code, 2);
  match(r.stderr, /--examples is required/);
});

Deno.test("assay score refuses a line longer than --max-line-bytes at its file and line, on both engines", async () => {
  const f = files(worked());
  const long = JSON.stringify({
    example_id: "4",
    prompt_sha256: "0".repeat(64),
    output: "x".repeat(500),
  });
  const lines = f["generations.jsonl"].split("\n");
  lines[2] = long;
  const broken = { ...f, "generations.jsonl": lines.join("\n") };
  for (const engine of ["wasm", "ts"]) {
    const r = await score(broken, ["--max-line-bytes", "300", "--engine", engine]);
    strictEqual(r.code, 2, r.stderr);
    match(
      r.stderr,
      /generations\.jsonl:3: line longer than the limit of 300 bytes \(raise it with --max-line-bytes\)/,
    );
    strictEqual(r.files.includes("report.json"), false, "no report");
  }
  // The same files pass under a limit above the line, and the default limit is 64 MiB.
  strictEqual((await score(f, ["--max-line-bytes", "300"])).code, 0);
  for (const bad of ["0", "-1", "1e3", "1.5", "x"]) {
    const r = await score(f, [`--max-line-bytes=${bad}`]);
    strictEqual(r.code, 2, bad);
    match(r.stderr, /--max-line-bytes must be a whole number of bytes/);
  }
});

Deno.test("assay score: invalid UTF-8 in an id is an input error at its byte; in an output, U+FFFD and a count", async () => {
  const enc = new TextEncoder();
  const w = worked();
  const dir = await Deno.makeTempDir();
  // Replaces the first `marker` (ASCII) in `text` with `bytes`.
  const withBytes = (text: string | Uint8Array, marker: string, bytes: number[]) => {
    const b = typeof text === "string" ? enc.encode(text) : text;
    const m = enc.encode(marker);
    let at = 0;
    while (!m.every((x, j) => b[at + j] === x)) at++;
    return new Uint8Array([...b.subarray(0, at), ...bytes, ...b.subarray(at + m.length)]);
  };
  // Two ids that differ only in their invalid bytes were one id, read as U+FFFD.
  const examples = jsonl([
    { ...w.examples[0], example_id: "a@" },
    { ...w.examples[1], example_id: "a#" },
  ]);
  const both = withBytes(withBytes(examples, "#", [0xfe]), "@", [0xff]);
  await Deno.writeFile(`${dir}/examples.jsonl`, both);
  await Deno.writeTextFile(`${dir}/generations.jsonl`, jsonl(w.generations));
  const run = async (...extra: string[]) =>
    await new Deno.Command(deno, {
      args: [
        "run",
        "-A",
        main,
        "score",
        "--quiet",
        "--examples",
        `${dir}/examples.jsonl`,
        "--generations",
        `${dir}/generations.jsonl`,
        "--out",
        `${dir}/report.json`,
        ...extra,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
  for (const engine of ["wasm", "ts"]) {
    const r = await run("--engine", engine);
    strictEqual(r.code, 2, engine);
    match(
      new TextDecoder().decode(r.stderr),
      /examples\.jsonl:1: invalid UTF-8 at byte 16 of the line \(byte 16 of the file\)/,
    );
  }
  // Invalid bytes inside two outputs: read with U+FFFD, counted in the report, on both engines.
  await Deno.writeTextFile(`${dir}/examples.jsonl`, jsonl(w.examples));
  const gens = jsonl(w.generations.map((g, i) => i < 2 ? { ...g, output: `@${g.output}` } : g));
  const g1 = withBytes(gens, "@", [0xc0, 0xaf]);
  await Deno.writeFile(`${dir}/generations.jsonl`, withBytes(g1, "@", [0xed, 0xa0, 0x80]));
  const reports: string[] = [];
  for (const engine of ["wasm", "ts"]) {
    const r = await run("--engine", engine, "--force");
    strictEqual(r.code, 0, new TextDecoder().decode(r.stderr));
    const text = await Deno.readTextFile(`${dir}/report.json`);
    strictEqual(JSON.parse(text).inputs.generations.invalid_utf8_outputs, 2);
    reports.push(text.replace(`"engine": "${engine}"`, '"engine": "?"'));
  }
  strictEqual(reports[0], reports[1]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay score --format decodes outputs, --numbers numeric compares by value", async () => {
  const w = worked();
  const chat = (args: string, extra = "") =>
    `{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", ` +
    `"function": {"name": "get_weather", "arguments": ${JSON.stringify(args)}}}${extra}]}`;
  w.generations[0]!.output = chat('{"city": "Paris", "units": "celsius"}');
  w.generations[1]!.output = chat(
    '{"city": "Paris", "units": "celsius"}',
    ', {"id": "c2", "type": "function", "function": {"name": "f", "arguments": "{}"}}',
  );
  w.generations[2]!.output = chat('{"city": "Oslo", "units": "celsius", "days": 1.0}');
  (w.examples[2] as { target: unknown }).target = {
    name: "get_weather",
    arguments: { city: "Oslo", units: "celsius", days: 1 },
  };
  const r = await score(files(w), ["--format", "openai-chat", "--json"]);
  strictEqual(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  strictEqual(report.parser_id, "openai-chat@3");
  assertEquals(
    report.records.map((x: { status: string; arguments_match: boolean }) => [
      x.status,
      x.arguments_match,
    ]),
    [["ok", true], ["multiple_calls", false], ["ok", false], ["invalid_json", false]],
  );
  assertEquals(
    report.records[1].reason,
    "the output holds 2 calls (get_weather, f); a score takes one",
  );
  const numeric = await score(files(w), [
    "--format",
    "openai-chat",
    "--numbers",
    "numeric",
    "--json",
  ]);
  strictEqual(numeric.code, 0, numeric.stderr);
  const n = JSON.parse(numeric.stdout);
  strictEqual(n.numbers, "numeric");
  assertEquals(n.records.map((x: { arguments_match: boolean }) => x.arguments_match), [
    true,
    false,
    true,
    false,
  ]);
  const table = await score(files(w), ["--format", "openai-chat"]);
  match(
    table.stdout,
    /parse status: ok 2, no_json 0, invalid_json 1, invalid_shape 0, invalid_syntax 0, no_call 0, multiple_calls 1/,
  );
  const bad = await score(files(w), ["--format", "openia-chat"]);
  strictEqual(bad.code, 2);
  match(bad.stderr, /--format: Unknown decoder "openia-chat".*did you mean openai-chat\?/);
  const badNumbers = await score(files(w), ["--numbers", "loose"]);
  strictEqual(badNumbers.code, 2);
  match(badNumbers.stderr, /Unknown value "loose" for --numbers \(one of exact, numeric\)/);
});

Deno.test("assay score --format sommelier --numbers exact writes the default report byte for byte", async () => {
  const plain = await score(files(worked()));
  const named = await score(files(worked()), ["--format", "sommelier", "--numbers", "exact"]);
  strictEqual(named.code, 0, named.stderr);
  strictEqual(
    await Deno.readTextFile(`${named.dir}/report.json`),
    await Deno.readTextFile(`${plain.dir}/report.json`),
  );
});

Deno.test("assay score writes the same report from build/assay.wasm as from the inlined module", async () => {
  // With read access to the checkout the CLI compiles build/assay.wasm; with access to the
  // inputs' folder only, it never asks for more and inflates the engine's inlined copy.
  const dir = await Deno.makeTempDir();
  const f = await writeScoreCorpus(dir, { seed: 1204, count: 400, prompts: true });
  const reports: string[] = [];
  for (const read of [[], [`--allow-read=${dir}`, `--allow-write=${dir}`]]) {
    const out = await new Deno.Command(deno, {
      args: [
        "run",
        ...(read.length ? read : ["-A"]),
        main,
        "score",
        "--quiet",
        "--json",
        "--examples",
        f.examples,
        "--generations",
        f.generations,
        "--prompts",
        f.prompts!,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
    reports.push(new TextDecoder().decode(out.stdout));
  }
  match(reports[0]!, /"engine": "wasm"/);
  strictEqual(reports[1], reports[0]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay score hints at --format when the outputs are an API's responses, logged whole", async () => {
  // Without --format, OpenAI chat completions are one JSON object each, not a call: every example
  // scores zero as invalid_shape. The run still succeeds, with its report, and says which decoder
  // reads them; with that decoder, or when the parser reads the outputs, there is no hint.
  const ids = ["1", "2", "3"];
  const message = (city: string) => ({
    role: "assistant",
    content: null,
    tool_calls: [{
      id: "c",
      type: "function",
      function: { name: "get_weather", arguments: JSON.stringify({ city, units: "celsius" }) },
    }],
  });
  const examples = jsonl(ids.map((id) => ({
    example_id: id,
    language: "en",
    target: { name: "get_weather", arguments: { city: `C${id}`, units: "celsius" } },
  })));
  const generations = (output: (id: string) => unknown) =>
    jsonl(ids.map((id) => ({ example_id: id, prompt_sha256: "0".repeat(64), output: output(id) })));
  const api = generations((id) => ({
    object: "chat.completion",
    choices: [{ message: message(`C${id}`) }],
  }));
  const hint =
    /^hint: 0 of 3 outputs parsed as a call; of the first 3, --format openai-chat reads 3 as calls, where the default parser read 0\. Score them with --format openai-chat$/m;

  const bare = await score({ "examples.jsonl": examples, "generations.jsonl": api });
  strictEqual(bare.code, 0, bare.stderr);
  match(bare.stderr, hint);
  match(bare.stdout, /invalid_shape 3/);
  assertEquals(bare.files, ["examples.jsonl", "generations.jsonl", "report.json"]);

  const decoded = await score({ "examples.jsonl": examples, "generations.jsonl": api }, [
    "--format",
    "openai-chat",
  ]);
  strictEqual(decoded.code, 0, decoded.stderr);
  strictEqual(decoded.stderr, "");
  match(decoded.stdout, /parse status: ok 3\b/);

  const plain = await score({
    "examples.jsonl": examples,
    "generations.jsonl": generations((id) => call(`C${id}`)),
  });
  strictEqual(plain.stderr, "");
  for (const r of [bare, decoded, plain]) await Deno.remove(r.dir, { recursive: true });
});

Deno.test("assay score hints at --format with --numbers given, and from a stdin of generations", async () => {
  const ids = ["1", "2", "3"];
  const examples = jsonl(ids.map((id) => ({
    example_id: id,
    language: "en",
    target: { name: "f", arguments: { n: Number(id) } },
  })));
  const api = jsonl(ids.map((id) => ({
    example_id: id,
    prompt_sha256: "0".repeat(64),
    output: {
      object: "chat.completion",
      choices: [{
        message: {
          role: "assistant",
          tool_calls: [{
            type: "function",
            function: { name: "f", arguments: JSON.stringify({ n: Number(id) }) },
          }],
        },
      }],
    },
  })));
  const hint = (numbers: string) =>
    new RegExp(
      `^hint: 0 of 3 outputs parsed as a call; of the first 3, --format openai-chat reads 3 as ` +
        `calls, where the default parser read 0\\. Score them with --format openai-chat${numbers}$`,
      "m",
    );
  // --numbers alone is no --format: the hint keeps it.
  for (const numbers of ["numeric", "exact"]) {
    const r = await score({ "examples.jsonl": examples, "generations.jsonl": api }, [
      "--numbers",
      numbers,
    ]);
    strictEqual(r.code, 0, r.stderr);
    match(r.stderr, hint(` --numbers ${numbers}`));
    await Deno.remove(r.dir, { recursive: true });
  }
  // Generations from stdin, read once: the hint samples what was read.
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/examples.jsonl`, examples);
  for (const engine of ["wasm", "ts"]) {
    const child = new Deno.Command(deno, {
      args: ["run", "-A", main, "score", "--quiet", "--examples", `${dir}/examples.jsonl`]
        .concat(["--generations", "-", "--engine", engine]),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(api));
    await writer.close();
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr);
    strictEqual(out.code, 0, stderr);
    match(stderr, hint(""), engine);
  }
  await Deno.remove(dir, { recursive: true });
});
