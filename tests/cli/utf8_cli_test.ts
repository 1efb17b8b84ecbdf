// Invalid UTF-8 in the files of every command that reads whole files: an input error (exit 2) at
// its file, line and byte, but inside a model output (structured's "output"), which is read with
// U+FFFD replacements and counted. (score, parse and canonicalize: score_cli_test.ts, cli_test.ts.)
import { match, strictEqual } from "node:assert/strict";
import { runCli } from "./_main.ts";

const demo = new URL("../../samples/suite_demo", import.meta.url).pathname;
const enc = new TextEncoder();

const assay = runCli;

/** `text` with its first `@` replaced by `bytes`. */
function withBytes(text: string, bytes: number[]): Uint8Array {
  const at = enc.encode(text.slice(0, text.indexOf("@"))).length;
  const b = enc.encode(text.replace("@", ""));
  return new Uint8Array([...b.subarray(0, at), ...bytes, ...b.subarray(at)]);
}

Deno.test("assay structured: invalid UTF-8 in an output is counted, anywhere else it is exit 2", async () => {
  const dir = await Deno.makeTempDir();
  const rows = ['{"id":"a","output":"{\\"x\\": 1}"}', '{"id":"b","output":"@{\\"x\\": 2}"}'];
  await Deno.writeFile(`${dir}/o.jsonl`, withBytes(rows.join("\n") + "\n", [0xff, 0xc3]));
  const ok = await assay(["structured", "--outputs", `${dir}/o.jsonl`, "--json"]);
  strictEqual(ok.code, 0, ok.stderr);
  const report = JSON.parse(ok.stdout);
  strictEqual(report.inputs.outputs.invalid_utf8_outputs, 1);
  strictEqual(report.metrics.json_validity.numerator, 1, "the U+FFFD output is not JSON");
  await Deno.writeFile(
    `${dir}/o.jsonl`,
    withBytes('{"id":"a","output":"1"}\n{"id":"b@","output":"2"}\n', [0xe2, 0x82]),
  );
  const bad = await assay(["structured", "--outputs", `${dir}/o.jsonl`]);
  strictEqual(bad.code, 2, bad.stderr);
  match(bad.stderr, /o\.jsonl:2: invalid UTF-8 at byte 8 of the line \(byte 32 of the file\)/);
  await Deno.writeFile(`${dir}/s.json`, withBytes('{"type": "object", "title": "@"}', [0x80]));
  await Deno.writeTextFile(`${dir}/o.jsonl`, '{"id":"a","output":"{}"}\n');
  const schema = await assay([
    "structured",
    "--outputs",
    `${dir}/o.jsonl`,
    "--schema",
    `${dir}/s.json`,
  ]);
  strictEqual(schema.code, 2, schema.stderr);
  match(schema.stderr, /s\.json:1: invalid UTF-8 at byte 29 of the line \(byte 29 of the file\)/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay compare and suite validate: invalid UTF-8 in a report or a suite is exit 2 at its line", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeFile(
    `${dir}/a.json`,
    withBytes('{\n  "schema": "@"\n}\n', [0xf4, 0x90, 0x80, 0x80]),
  );
  await Deno.copyFile(`${dir}/a.json`, `${dir}/b.json`);
  const c = await assay(["compare", `${dir}/a.json`, `${dir}/b.json`]);
  strictEqual(c.code, 2, c.stderr);
  match(c.stderr, /a\.json:2: invalid UTF-8 at byte 13 of the line \(byte 15 of the file\)/);
  const suite = await Deno.readTextFile(`${demo}/suite.yaml`);
  await Deno.writeFile(
    `${dir}/suite.yaml`,
    withBytes(suite.replace("\n", "\n# @\n"), [0xc0, 0x80]),
  );
  const s = await assay(["suite", "validate", `${dir}/suite.yaml`]);
  strictEqual(s.code, 2, s.stderr);
  match(s.stderr, /suite\.yaml:2: invalid UTF-8 at byte 2 of the line/);
  await Deno.remove(dir, { recursive: true });
});
