// A structured report's row says why its predicted calls are invalid: each invalid call's reason
// (at most ten, then how many more), or why its output did not decode, the same bytes on both
// engines; a row without an invalid call has no `reasons`. `assay show` prints them.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createEngine } from "../../mod.ts";
import { scoreStructuredJsonl } from "../../src/structured_jsonl/mod.ts";
import { getDecoder } from "../../src/formats/mod.ts";
import { runCli, runMain } from "../cli/_main.ts";

const enc = new TextEncoder();
const jsonl = (rows: unknown[]) => enc.encode(rows.map((r) => JSON.stringify(r) + "\n").join(""));
const ENGINES = [createEngine({ engine: "ts" }), createEngine({ engine: "wasm" })];
const call = { name: "f", arguments: { x: 1 } };
const dec = new TextDecoder();
/** A report's bytes as text, whichever engine wrote it. */
const anyEngine = (bytes: Uint8Array) =>
  dec.decode(bytes).replace('"engine": "wasm"', '"engine": "ts"');

const outputs = jsonl([
  { id: "ok", tool_calls: [call] },
  {
    id: "bad",
    tool_calls: [
      call,
      { name: "f", parameters: { x: 1 } },
      { name: "f", arguments: '{"x": ' },
      { type: "tool_use", name: "f", input: "[1]" },
      { type: "text", text: "skipped, no call" },
      { type: "server_tool_use", name: "f", input: {} },
    ],
  },
  { id: "one", tool_calls: { type: "function", function: { name: "", arguments: "{}" } } },
  { id: "null", tool_calls: null },
  { id: "many", tool_calls: Array.from({ length: 13 }, (_, i) => i) },
]);
const expected = jsonl(
  ["ok", "bad", "one", "null", "many"].map((id) => ({ id, tool_calls: [call] })),
);

Deno.test("a row's reasons name each invalid call and why, alike on both engines", async () => {
  const runs = await Promise.all(
    ENGINES.map((engine) => scoreStructuredJsonl({ outputs, expected }, { engine })),
  );
  const { report, bytes } = runs[0]!;
  deepStrictEqual(report.rows.map((r) => r.reasons), [
    undefined,
    [
      'tool_calls[1]: a call must be {name, arguments}: it has no arguments, an unknown key "parameters"',
      "tool_calls[2]: arguments are not JSON (expecting_value at 6)",
      "tool_calls[3]: input is not a JSON object, got an array",
      "tool_calls[5]: a call must be {name, arguments}: it has no arguments, an unknown key " +
      '"input", an unknown key "type"',
    ],
    ["tool_calls: a call needs a non-empty string name"],
    ["tool_calls: a call must be an object, got null"],
    [
      ...Array.from(
        { length: 10 },
        (_, i) => `tool_calls[${i}]: a call must be an object, got a number`,
      ),
      "and 3 more invalid calls",
    ],
  ]);
  // A row without one has no such key; the bytes are the report's JSON, and the engines' alike.
  ok(!("reasons" in report.rows[0]!));
  ok(Object.isFrozen(report.rows[1]!.reasons));
  deepStrictEqual(JSON.parse(dec.decode(bytes)), report);
  strictEqual(anyEngine(runs[1]!.bytes), anyEngine(bytes));
});

Deno.test("with a decoder, a row's reason is why its output did not decode", async () => {
  const outputs = jsonl([
    { id: "a", output: '<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>' },
    { id: "b", output: '<tool_call>{"name": "f", "parameters": {}}</tool_call>' },
    { id: "c", output: '<tool_call>{"name": "f", "arguments": {"x": </tool_call>' },
  ]);
  const expected = jsonl(["a", "b", "c"].map((id) => ({ id, tool_calls: [call] })));
  const runs = await Promise.all(
    ENGINES.map((engine) =>
      scoreStructuredJsonl({ outputs, expected }, {
        engine,
        decoder: getDecoder("hermes"),
        metrics: ["tool_call_f1"],
      })
    ),
  );
  deepStrictEqual(runs[0]!.report.rows.map((r) => r.reasons), [
    undefined,
    [
      "the output does not decode (invalid_shape): the call of the <tool_call> block at 0 must " +
      'be {name, arguments}: it has no arguments, an unknown key "parameters"',
    ],
    [
      "the output does not decode (invalid_json): the <tool_call> block at 0 is not JSON: " +
      "expecting_value at 44",
    ],
  ]);
  strictEqual(anyEngine(runs[1]!.bytes), anyEngine(runs[0]!.bytes));
});

Deno.test("no reasons without a tool metric that reads the predicted calls", async () => {
  const { report } = await scoreStructuredJsonl({
    outputs: jsonl([{ id: "a", tool_calls: null, api_results: [200] }]),
  });
  deepStrictEqual(Object.keys(report.metrics), ["api_call_success_rate"]);
  strictEqual(report.rows[0]!.reasons, undefined);
});

Deno.test("assay show --failing prints a structured row's reasons", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/o.jsonl`, outputs);
    await Deno.writeFile(`${dir}/e.jsonl`, expected);
    const scored = await runMain([
      "structured",
      "--outputs",
      `${dir}/o.jsonl`,
      "--expected",
      `${dir}/e.jsonl`,
      "--metrics",
      "tool_selection_accuracy",
      "--out",
      `${dir}/r.json`,
      "--quiet",
    ]);
    strictEqual(scored.code, 0, scored.stderr);
    const r = await runCli(["show", `${dir}/r.json`, "--failing", "--id", "one", "--id", "null"]);
    strictEqual(r.code, 0, r.stderr);
    strictEqual(
      r.stdout,
      "one  line 3\n" +
        "  failed: tool_selection_accuracy 0/1\n" +
        "  reason: tool_calls: a call needs a non-empty string name\n" +
        "\n" +
        "null  line 4\n" +
        "  failed: tool_selection_accuracy 0/1\n" +
        "  reason: tool_calls: a call must be an object, got null\n" +
        "\n" +
        "2 of 2 selected rows shown (5 in the report)\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
