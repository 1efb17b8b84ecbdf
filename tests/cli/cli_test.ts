// The `assay` CLI, run as a user would: a subprocess with files and stdin.
import {
  deepStrictEqual as deepEqual,
  match,
  ok as assertOk,
  strictEqual as equal,
} from "node:assert/strict";

const deno = Deno.execPath();
const main = new URL("../../cli/main.ts", import.meta.url).pathname;
const samples = new URL("../../samples/", import.meta.url).pathname;

async function assay(
  args: string[],
  stdin?: string | Uint8Array,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(deno, {
    args: ["run", "--allow-read", "--allow-write", main, ...args],
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(typeof stdin === "string" ? new TextEncoder().encode(stdin) : stdin);
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("assay parse gives the same JSONL on the wasm and ts engines", async () => {
  const ts = await assay(["parse", samples + "outputs.jsonl", "--engine", "ts", "--pairs"]);
  const wasm = await assay(["parse", samples + "outputs.jsonl", "--engine", "wasm", "--pairs"]);
  equal(ts.code, 0, ts.stderr);
  equal(wasm.code, 0, wasm.stderr);
  equal(wasm.stdout, ts.stdout);
  const rows = ts.stdout.trim().split("\n").map((l) => JSON.parse(l));
  equal(rows.length, 20);
  deepEqual(rows[0], {
    example_id: "ex-001",
    status: "ok",
    name: "get_weather",
    canonical_arguments: '{"city":"Paris","units":"celsius"}',
    pairs: [['["city"]', '"Paris"'], ['["units"]', '"celsius"']],
  });
  const statuses = rows.map((r) => r.status);
  for (const s of ["ok", "no_json", "invalid_json", "invalid_shape"]) {
    equal(statuses.includes(s), true, `samples cover ${s}`);
  }
});

Deno.test("assay parse reads stdin, skips blank lines and reports invalid_json errors", async () => {
  const input = [
    JSON.stringify({ id: 7, output: 'x {"name":"f","arguments":{"a":1.0}} y' }),
    "",
    JSON.stringify({ output: '{"name": "f", "arguments": {"a": 01}}' }),
  ].join("\n");
  const r = await assay(["parse", "--engine", "ts"], input);
  equal(r.code, 0, r.stderr);
  deepEqual(r.stdout.trim().split("\n").map((l) => JSON.parse(l)), [
    { id: 7, status: "ok", name: "f", canonical_arguments: '{"a":1.0}' },
    {
      status: "invalid_json",
      name: null,
      canonical_arguments: null,
      error: "expecting_comma at 34",
    },
  ]);
});

Deno.test("assay parse names the file, line and id of a bad input line and exits 2", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/in.jsonl`;
  await Deno.writeTextFile(
    file,
    '{"example_id": "a", "output": "{}"}\n{"example_id": "b", "output": 5}\n',
  );
  const r = await assay(["parse", file, "--out", `${dir}/out.jsonl`]);
  equal(r.code, 2);
  match(
    r.stderr,
    /in\.jsonl:2 \(example_id "b"\): field "output" must be a string, got a number$/m,
  );
  // Nothing half-written is left behind.
  deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["in.jsonl"]);

  await Deno.writeTextFile(file, '{"output": "ok"}\n{"output": "trunc\n');
  const m = await assay(["parse", file]);
  equal(m.code, 2);
  match(m.stderr, /in\.jsonl:2: malformed JSON line "\{\\"output\\": \\"trunc"/);

  const missing = await assay(["parse", `${dir}/nope.jsonl`]);
  equal(missing.code, 2);
  match(missing.stderr, /Cannot read .*nope\.jsonl: no such file or folder/);

  // A line reads as assay score reads it: NaN elsewhere in the row is JSON (Python's), nesting
  // past 512 is not.
  await Deno.writeTextFile(
    file,
    '{"example_id": 7, "t": NaN, "output": "{\\"name\\": \\"f\\", \\"arguments\\": {}}"}\n',
  );
  const nan = await assay(["parse", file]);
  equal(nan.code, 0, nan.stderr);
  equal(nan.stdout, '{"example_id":7,"status":"ok","name":"f","canonical_arguments":"{}"}\n');
  await Deno.writeTextFile(file, `{"output": "x", "deep": ${"[".repeat(600)}${"]".repeat(600)}}\n`);
  const deep = await assay(["parse", file]);
  equal(deep.code, 2);
  match(deep.stderr, /in\.jsonl:1: malformed JSON line .* \(nesting_too_deep at 535\)$/m);
});

Deno.test("assay parse copies each id as the line writes it, on both engines", async () => {
  const ids = [
    ["example_id", "9007199254740992"],
    ["example_id", "9007199254740993"],
    ["id", "1.0"],
    ["id", "-0.0"],
    ["id", "1e400"],
    ["id", "NaN"],
    ["id", "12345678901234567890123"],
    ["id", '{"a": 1.0, "b": [-0, 1E2]}'],
    ["id", '"caf\\u00e9"'],
  ];
  const input = ids.map(([key, id]) => `{"${key}":  ${id} ,"output":"x"}\n`).join("") +
    // The last of a repeated key, whose name is escaped.
    `{"\\u0069d":1,"x":1,"id":1.50,"output":"x"}\n`;
  const want = [...ids, ["id", "1.50"]].map(([key, id]) =>
    `{"${key}":${id === '"caf\\u00e9"' ? '"café"' : id},"status":"no_json","name":null,` +
    `"canonical_arguments":null}\n`
  ).join("");
  for (const engine of ["wasm", "ts"]) {
    const r = await assay(["parse", "--engine", engine], input);
    equal(r.code, 0, r.stderr);
    equal(r.stdout, want, engine);
  }
  // Output whose first id is NaN is still parse output, which --out may replace.
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/in.jsonl`, '{"id":NaN,"output":"x"}\n');
  for (let i = 0; i < 2; i++) {
    const r = await assay(["parse", `${dir}/in.jsonl`, "--out", `${dir}/out.jsonl`]);
    equal(r.code, 0, r.stderr);
  }
  await Deno.remove(dir, { recursive: true });
  // A line the contract reads but the strict scan does not (an integer part of 4,301 digits):
  // its id is not copied in a lossy form, it is refused unless it is a string.
  const long = `{"id":1,"x":1${"0".repeat(4300)}.5,"output":"x"}\n`;
  const refused = await assay(["parse"], long);
  equal(refused.code, 2);
  match(
    refused.stderr,
    /<stdin>:1: field "id" is not a string, and the line holds a number too long/,
  );
  const taken = await assay(["parse"], long.replace('"id":1', '"id":"a"'));
  equal(taken.code, 0, taken.stderr);
  // An id in a message is as exact.
  const bad = await assay(["parse"], '{"id": 1.0, "output": 5}\n');
  equal(bad.code, 2);
  match(bad.stderr, /<stdin>:1 \(id 1\.0\): field "output" must be a string/);
});

Deno.test("assay parse turns invalid UTF-8 into U+FFFD with a warning, not a crash", async () => {
  const bytes = new Uint8Array([
    ...new TextEncoder().encode('{"output": "{\\"name\\": \\"f\\", \\"arguments\\": {\\"a\\": \\"'),
    0xff,
    0xc3,
    ...new TextEncoder().encode('\\"}}"}\n'),
  ]);
  const r = await assay(["parse", "--engine", "ts"], bytes);
  equal(r.code, 0, r.stderr);
  equal(JSON.parse(r.stdout).canonical_arguments, '{"a":"\\ufffd\\ufffd"}');
  match(r.stderr, /1 line\(s\) of <stdin> held invalid UTF-8 in "output", read with U\+FFFD/);
  // Outside "output" (an id here), and in canonicalize's JSON texts, it is an input error.
  const enc = new TextEncoder();
  const badId = new Uint8Array([
    ...enc.encode('{"output": "x"}\n{"id": "'),
    0xe2,
    0x82,
    ...enc.encode('", "output": "x"}\n'),
  ]);
  for (const engine of ["wasm", "ts"]) {
    const p = await assay(["parse", "--engine", engine], badId);
    equal(p.code, 2, p.stderr);
    match(p.stderr, /<stdin>:2: invalid UTF-8 at byte 8 of the line \(byte 24 of the file\)/);
    equal(p.stdout, "", "no line is written");
  }
  const c = await assay(
    ["canonicalize"],
    new Uint8Array([0x5b, 0x31, 0x5d, 0x0a, 0x22, 0xff, 0x22]),
  );
  equal(c.code, 2, c.stderr);
  match(c.stderr, /<stdin>:2: invalid UTF-8 at byte 1 of the line \(byte 5 of the file\)/);
});

Deno.test("assay canonicalize writes one line per input line, with !error lines", async () => {
  const r = await assay(["canonicalize", samples + "json_texts.txt"]);
  equal(r.code, 0, r.stderr);
  deepEqual(r.stdout.split("\n"), [
    '{"a":1,"b":2}',
    "[1.0,1,0,1e+16,1e-05]",
    '{"\\u00e9":"\\u00fc","\\ud83d\\ude00":true}',
    "[NaN,Infinity]",
    '{"a":2}',
    "!error expecting_value at 3",
    '"\\ud83d\\ude00"',
    '{"nested":{"list":[{},[]]}}',
    "",
  ]);
  const crlf = await assay(["canonicalize", "--engine", "wasm"], '\ufeff[1]\r\n\r\n{"a" 1}');
  equal(crlf.stdout, "[1]\n!error expecting_value at 0\n!error expecting_colon at 5\n");
});

Deno.test("assay --help and bad usage", async () => {
  const help = await assay(["--help"]);
  equal(help.code, 0);
  match(help.stdout, /Commands:/);
  for (const cmd of ["parse", "canonicalize"]) {
    const h = await assay([cmd, "--help"]);
    equal(h.code, 0);
    match(h.stdout, /--engine/);
  }
  const { version } = JSON.parse(
    await Deno.readTextFile(new URL("../../deno.json", import.meta.url)),
  );
  for (const flag of ["--version", "-V"]) {
    const v = await assay([flag]);
    equal(v.code, 0);
    equal(
      v.stdout,
      `@assay/assay ${version} (parser assay.parser.v1, canonical assay.canonical.v1)\n`,
    );
  }
  const unknown = await assay(["frobnicate"]);
  equal(unknown.code, 2);
  match(unknown.stderr, /Unknown command "frobnicate"/);
  // A name an object has by inheritance is no command either.
  for (const name of ["constructor", "toString", "__proto__"]) {
    const r = await assay([name]);
    equal(r.code, 2, name);
    match(r.stderr, new RegExp(`^assay ${name}: Unknown command "${name}"`));
  }
  const badEngine = await assay(["canonicalize", "--engine", "gpu"], "1");
  equal(badEngine.code, 2);
  match(badEngine.stderr, /Unknown value "gpu" for --engine \(one of auto, wasm, ts\)/);
  const badFlag = await assay(["parse", "--nope"], "");
  equal(badFlag.code, 2);
});

Deno.test("assay parse gives hostile outputs from a file a status, never a crash", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/hostile.jsonl`;
  const enc = new TextEncoder();
  const lines = [
    // 100 MB of prose, then a call.
    JSON.stringify({ id: "big", output: "x".repeat(100_000_000) + '{"name":"f","arguments":{}}' }),
    JSON.stringify({ id: "deep", output: "[".repeat(1_000_000) + "]".repeat(1_000_000) }),
    JSON.stringify({
      id: "proto",
      output: '{"name":"__proto__","arguments":{"__proto__":{"x":1},"constructor":null}}',
    }),
    JSON.stringify({ id: "lone", output: '{"name":"f","arguments":{"s":"\ud800 \\udfff"}}' }),
    JSON.stringify({ id: "nul", output: '{"name":"f","arguments":{"s":"a\u0000b"}}' }),
    JSON.stringify({ id: "nul-escaped", output: '{"name":"f","arguments":{"s":"a\\u0000b"}}' }),
    JSON.stringify({
      id: "unterminated",
      output: '{"name":"f","arguments":{"s":"' + "a".repeat(1e7),
    }),
  ];
  const parts = lines.map((l) => enc.encode(l + "\n"));
  // A line whose bytes are not UTF-8 at all.
  parts.push(
    new Uint8Array([
      ...enc.encode('{"id":"bytes","output":"{\\"name\\":\\"'),
      0xc0,
      0xaf,
      ...enc.encode('\\",\\"arguments\\":{}}"}\n'),
    ]),
  );
  await Deno.writeFile(file, new Uint8Array(await new Blob(parts).arrayBuffer()));
  const byEngine: string[] = [];
  for (const engine of ["wasm", "ts"]) {
    const r = await assay(["parse", file, "--engine", engine, "--max-line-bytes", "200000000"]);
    equal(r.code, 0, r.stderr);
    byEngine.push(r.stdout);
    const rows = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    deepEqual(rows.map((x) => [x.id, x.status]), [
      ["big", "ok"],
      ["deep", "invalid_json"],
      ["proto", "ok"],
      ["lone", "ok"],
      ["nul", "invalid_json"],
      ["nul-escaped", "ok"],
      ["unterminated", "invalid_json"],
      ["bytes", "ok"],
    ]);
    equal(rows[2].canonical_arguments, '{"__proto__":{"x":1},"constructor":null}');
    equal(rows[3].canonical_arguments, '{"s":"\\ud800 \\udfff"}');
    equal(rows[4].error, "invalid_control_character at 31");
    equal(rows[6].error, "unclosed_span at 10000030");
    equal(rows[7].name, "\ufffd\ufffd");
    match(r.stderr, /1 line\(s\) of .*hostile\.jsonl held invalid UTF-8 in "output"/);
  }
  equal(byEngine[0], byEngine[1]);
  // Under the default limit of 64 MiB the 100 MB line is refused at its line, before the rest.
  const long = await assay(["parse", file]);
  equal(long.code, 2, long.stderr);
  match(
    long.stderr,
    /hostile\.jsonl:1: line longer than the limit of 67108864 bytes \(64 MiB\) \(raise it with --max-line-bytes\)/,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay help <command> prints that command's help; an unknown one exits 2", async () => {
  for (const args of [["gate"], ["score"], ["bfcl", "compare"], ["suite"]]) {
    const help = await assay(["help", ...args]);
    const own = await assay([...args, "--help"]);
    equal(help.code, 0, args.join(" "));
    equal(own.code, 0, args.join(" "));
    equal(help.stdout, own.stdout);
    equal(help.stdout.includes("Commands:\n  parse"), false, args.join(" "));
  }
  const gat = await assay(["help", "gat"]);
  equal(gat.code, 2);
  equal(gat.stdout, "");
  equal(gat.stderr, 'assay gat: Unknown command "gat" (did you mean gate?)\n');
  const help = await assay(["help"]);
  equal(help.code, 0);
  match(help.stdout, /Commands:/);
});

Deno.test("every command's --help says its exit codes, 3 where a gate can fail", async () => {
  const commands = [
    ["score"],
    ["compare"],
    ["gaps"],
    ["structured"],
    ["suite"],
    ["calibrate"],
    ["bfcl"],
    ["bfcl", "compare"],
    ["ifeval"],
    ["ifeval", "compare"],
    ["gate"],
    ["show"],
  ];
  const gated = ["compare", "suite", "calibrate", "gate"];
  for (const args of commands) {
    const h = await assay([...args, "--help"]);
    equal(h.code, 0, args.join(" "));
    match(
      h.stdout,
      /Exit codes:[^]*\b0 [^]*\b2 [^]*\b1 (on an\s+|an )?internal error/,
      args.join(" "),
    );
    const name = args.join(" ");
    equal(/\b3 (when|a rule fails)/.test(h.stdout), gated.includes(name), name);
  }
});

Deno.test("assay suite <command> --help prints that command's help, not the whole suite's", async () => {
  const help = async (args: string[]) => {
    const r = await assay(args);
    equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const whole = await help(["suite", "--help"]);
  for (const part of ["Options of run:", "Options of scorecard and compare:", "Exit codes:"]) {
    assertOk(whole.includes(part), part);
  }
  const run = await help(["suite", "run", "--help"]);
  assertOk(run.startsWith("Usage: deno task assay suite run SUITE --goldens G"), run);
  assertOk(run.includes("Options of run:") && !run.includes("Options of scorecard"), run);
  for (const command of ["scorecard", "compare"]) {
    const own = await help(["suite", command, "--help"]);
    assertOk(own.startsWith(`Usage: deno task assay suite ${command} `), own);
    assertOk(
      own.includes("Options of scorecard and compare:") && !own.includes("Options of run"),
      own,
    );
  }
  const validate = await help(["suite", "validate", "--help"]);
  assertOk(validate.includes("validate SUITE") && !validate.includes("Options of"), validate);
  equal(await help(["help", "suite", "run"]), run);
});
