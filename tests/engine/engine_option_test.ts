// The `engine` option and createEngine's options as a plain-JavaScript caller may get them wrong:
// the name "ts" where an Engine is expected, or createEngine("ts"). Each is a TypeError that says
// what was expected, never a TypeError from deep inside a function ("….parseToolCallBatch is not a
// function"), and createEngine("ts") never runs the auto engine as if asked for nothing.
import { deepStrictEqual as assertEquals, strictEqual, throws } from "node:assert/strict";
import {
  canonicalize,
  canonicalizeBatch,
  compareReports,
  createEngine,
  type Engine,
  engineOf,
  extractSpan,
  flattenArguments,
  getDefaultEngine,
  jsonSchemaCompliance,
  jsonValidity,
  pairedBootstrap,
  parseToolCall,
  parseToolCallBatch,
  requiredFieldAccuracy,
  scoreJsonl,
  scoreToolCalls,
  setDefaultEngine,
  ToolCallScorer,
} from "../../mod.ts";
import { scoreStructuredJsonl } from "../../src/structured_jsonl/mod.ts";

// What a caller without types may pass as an engine.
const NOT_ENGINES: [unknown, string][] = [
  ["ts", "string"],
  ["wasm", "string"],
  [{ name: "ts" }, "object"],
  [null, "null"],
  [5, "number"],
];

/** A TypeError whose message names what was expected and what was given. */
const expected = (shown: string) => (e: unknown) =>
  e instanceof TypeError && e.message === `Expected an Engine from createEngine(), got ${shown}`;

const CALL = '{"name": "f", "arguments": {"a": 1}}';
const examples = [{ example_id: "1", language: "en", target: { name: "f", arguments: { a: 1 } } }];
const generations = [{ example_id: "1", output: CALL }];
const bytes = (rows: unknown[]) =>
  new TextEncoder().encode(rows.map((r) => JSON.stringify(r)).join("\n") + "\n");

Deno.test("engineOf: an Engine, the default engine when absent, else a TypeError", () => {
  const ts = createEngine({ engine: "ts" });
  strictEqual(engineOf(ts), ts);
  strictEqual(engineOf(undefined), getDefaultEngine());
  for (const [x, shown] of NOT_ENGINES) {
    throws(() => engineOf(x), expected(shown));
  }
  // setDefaultEngine takes no absent engine (which it names null).
  throws(() => setDefaultEngine(undefined as unknown as Engine), expected("null"));
  throws(() => setDefaultEngine("ts" as unknown as Engine), expected("string"));
});

Deno.test("an engine option that is not an Engine is named, in every function that takes one", async () => {
  const runs: [string, (engine: Engine) => unknown][] = [
    ["parseToolCall", (engine) => parseToolCall(CALL, { engine })],
    ["parseToolCallBatch", (engine) => parseToolCallBatch([CALL], { engine })],
    ["canonicalize", (engine) => canonicalize("{}", { engine })],
    ["canonicalizeBatch", (engine) => canonicalizeBatch(["{}"], { engine })],
    ["extractSpan", (engine) => extractSpan("{}", { engine })],
    ["flattenArguments", (engine) => flattenArguments("{}", { engine })],
    ["jsonValidity", (engine) => jsonValidity(["{}"], { engine })],
    ["jsonSchemaCompliance", (engine) => jsonSchemaCompliance(["{}"], {}, { engine })],
    ["requiredFieldAccuracy", (engine) => requiredFieldAccuracy([{}], ["{}"], { engine })],
    ["scoreToolCalls", (engine) => scoreToolCalls(examples, generations, { engine })],
    ["ToolCallScorer", (engine) => new ToolCallScorer({ engine })],
    [
      "pairedBootstrap",
      (engine) => {
        const r = scoreToolCalls(examples, generations).records;
        return pairedBootstrap(r, r, { engine, resamples: 10 });
      },
    ],
    [
      "compareReports",
      (engine) => {
        const r = scoreToolCalls(examples, generations);
        return compareReports(r, r, { engine, resamples: 10 });
      },
    ],
  ];
  for (const [name, run] of runs) {
    for (const [x, shown] of NOT_ENGINES) {
      throws(() => run(x as Engine), expected(shown), `${name} with ${shown}`);
    }
  }
  const sources = {
    examples: bytes([{ ...examples[0], prompt_sha256: undefined }]),
    generations: bytes([{ ...generations[0], prompt_sha256: "0".repeat(64) }]),
  };
  for (const [x, shown] of NOT_ENGINES) {
    await scoreJsonl(sources, { engine: x as Engine }).then(
      () => Promise.reject(new Error(`scoreJsonl took ${shown}`)),
      (e) => strictEqual(expected(shown)(e), true, e.message),
    );
    await scoreStructuredJsonl({ outputs: bytes([{ id: "a", output: "{}" }]) }, {
      engine: x as Engine,
    }).then(
      () => Promise.reject(new Error(`scoreStructuredJsonl took ${shown}`)),
      (e) => strictEqual(expected(shown)(e), true, e.message),
    );
  }
  // An Engine still runs, on both engines.
  for (const engine of [createEngine({ engine: "ts" }), createEngine({ engine: "auto" })]) {
    assertEquals(parseToolCall(CALL, { engine }).status, "ok");
    const { report } = await scoreJsonl(sources, { engine });
    strictEqual(report.engine, engine.name);
  }
});

Deno.test("createEngine refuses options that are not an object, instead of running auto", () => {
  // A string is an engine's name given bare: the message shows how to ask for it.
  const cases = [
    ["ts", 'an object of options (createEngine({ engine: "ts" })), got string'],
    ["wasm", 'an object of options (createEngine({ engine: "wasm" })), got string'],
    ['w"x', 'an object of options (createEngine({ engine: "w\\"x" })), got string'],
    [null, "an object of options, or none, got null"],
    [1, "an object of options, or none, got number"],
  ];
  for (const [x, expected] of cases) {
    throws(
      () => createEngine(x as never),
      (e: unknown) => e instanceof TypeError && e.message === `Expected ${expected}`,
    );
  }
  strictEqual(createEngine({ engine: "ts" }).name, "ts");
  const auto = createEngine(undefined);
  strictEqual(auto.name === "wasm" || auto.fallbackReason !== undefined, true);
});
