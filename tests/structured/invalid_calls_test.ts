// invalidCalls (structured/calls/) names the invalid predicted calls the tool metrics count, each
// with its reason: as many as the metrics count on seeded entries, in order, the same on both
// engines.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { createEngine, toolCallF1 } from "../../mod.ts";
import { invalidCalls } from "../../src/structured/calls/mod.ts";
import { makeRng } from "../_corpus.ts";

const ENGINES = [createEngine({ engine: "ts" }), createEngine({ engine: "wasm" })];

const CALLS: unknown[] = [
  { name: "f", arguments: { a: 1 } },
  { name: "f", arguments: '{"a": 1.0}' },
  { name: "f", arguments: '{"a": ' },
  { name: "f", arguments: "[1]" },
  { name: "f", arguments: "null" },
  { name: "f", arguments: 5 },
  { name: "", arguments: {} },
  { name: "f", parameters: {} },
  { type: "function", function: { name: "f", arguments: "{}" } },
  { type: "custom", function: { name: "f", arguments: "{}" } },
  { type: "tool_use", name: "f", input: '{"x": 1}' },
  { type: "tool_use", name: "f", input: "1" },
  { type: "text", text: "no call" },
  { type: "image" },
  null,
  "call",
  [1],
];

Deno.test("invalidCalls counts what the tool metrics count, alike on both engines", () => {
  const rng = makeRng(8123);
  for (let k = 0; k < 300; k++) {
    const list = Array.from({ length: rng.int(6) }, () => rng.pick(CALLS));
    const entry = list.length === 1 && rng.chance(0.3) ? list[0] : list;
    const [ts, wasm] = ENGINES.map((engine) => invalidCalls(entry, { engine }));
    deepStrictEqual(wasm, ts);
    const counted = toolCallF1([[]], [entry as never]).details.invalidCalls;
    strictEqual(ts!.count, counted, JSON.stringify(entry));
    strictEqual(ts!.calls.length, counted);
    // In order, each at its index in the list.
    deepStrictEqual(
      ts!.calls.map((c) => c.index),
      [...ts!.calls.map((c) => c.index)].sort((a, b) => a - b),
    );
  }
});

Deno.test("invalidCalls gives each reason, and at most limit of them", () => {
  deepStrictEqual(
    invalidCalls([
      { name: "f", arguments: '{"a": ' },
      { type: "text", text: "" },
      { type: "tool_use", name: "f", input: "[1]" },
      { name: "f", arguments: {} },
      { name: "f", parameters: {} },
    ]),
    {
      calls: [
        { index: 0, reason: "arguments are not JSON (expecting_value at 6)" },
        { index: 2, reason: "input is not a JSON object, got an array" },
        {
          index: 4,
          reason:
            'a call must be {name, arguments}: it has no arguments, an unknown key "parameters"',
        },
      ],
      count: 3,
    },
  );
  deepStrictEqual(invalidCalls(null), {
    calls: [{ index: 0, reason: "a call must be an object, got null" }],
    count: 1,
  });
  deepStrictEqual(invalidCalls([1, 2, 3], { limit: 1 }), {
    calls: [{ index: 0, reason: "a call must be an object, got a number" }],
    count: 3,
  });
  deepStrictEqual(invalidCalls([]), { calls: [], count: 0 });
});
