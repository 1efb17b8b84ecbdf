// Tool-call evaluation: the worked example, the drop summary, the pooling identity and
// engine-independence of the report. The CLI's invariant handling is in score_cli_test.ts.
import { deepStrictEqual as assertEquals, strictEqual, throws } from "node:assert/strict";
import {
  countRecords,
  type ExampleInput,
  type ExampleRecord,
  formatReport,
  type GenerationInput,
  InputError,
  InvariantViolation,
  METRIC_NAMES,
  metricsFromCounts,
  type PromptInput,
  scoreToolCalls,
  toolCallMetrics,
} from "../../mod.ts";
import { ENGINES } from "../_engines.ts";
import { ScorerCore } from "../../src/evaluation/_scorer_core.ts";
import { makeRng, randomJsonText, type Rng } from "../_corpus.ts";

const gold = (city: string) => ({ name: "get_weather", arguments: { city, units: "celsius" } });
const WORKED: { examples: ExampleInput[]; generations: GenerationInput[] } = {
  examples: [
    { example_id: "1", language: "en", target: gold("Paris") },
    { example_id: "2", language: "en", target: gold("Paris") },
    { example_id: "3", language: "en", target: gold("Oslo") },
    { example_id: "4", language: "en", target: gold("Rome") },
  ],
  generations: [
    {
      example_id: "1",
      output: '{"name": "get_weather", "arguments": {"city": "Paris", "units": "celsius"}}',
    },
    {
      example_id: "2",
      output: '{"name": "get_weather", "arguments": {"city": "Paris", "units": "kelvin"}}',
    },
    {
      example_id: "3",
      output: '{"name": "fetch_weather", "arguments": {"city": "Oslo", "units": "celsius"}}',
    },
    { example_id: "4", output: "The weather in Rome is sunny." },
  ],
};

for (const engine of ENGINES) {
  Deno.test(`scoreToolCalls() [${engine.name}] reproduces the reference's worked example`, () => {
    const r = scoreToolCalls(WORKED.examples, WORKED.generations, { engine });
    const m = r.metrics.overall;
    assertEquals(m.valid_json_rate, { value: 0.75, numerator: 3, denominator: 4 });
    assertEquals(m.function_name_accuracy, { value: 0.5, numerator: 2, denominator: 4 });
    assertEquals(m.argument_exact_match, { value: 0.5, numerator: 2, denominator: 4 });
    assertEquals(m.argument_f1, { value: 10 / 14, numerator: 10, denominator: 14 });
    assertEquals(m.full_call_exact_match, { value: 0.25, numerator: 1, denominator: 4 });
    assertEquals(r.parse_status_counts, { ok: 3, no_json: 1, invalid_json: 0, invalid_shape: 0 });
    assertEquals(r.records.map((x) => [x.matched_pairs, x.predicted_pairs, x.gold_pairs]), [
      [2, 2, 2],
      [1, 2, 2],
      [2, 2, 2],
      [0, 0, 2],
    ]);
    assertEquals(r.metrics.by_language.en, m);
  });
}

Deno.test("scoreToolCalls() keeps 1 and 1.0 apart in gold targets given as JSON text", () => {
  const r = scoreToolCalls(
    [
      { example_id: "a", language: "en", target: '{"name":"f","arguments":{"x":1.0}}' },
      {
        example_id: "b",
        language: "en",
        target: '{"name":"f","arguments":{"x":12345678901234567890123}}',
      },
    ],
    [
      { example_id: "a", output: '{"name":"f","arguments":{"x":1}}' },
      { example_id: "b", output: '{"name":"f","arguments":{"x":12345678901234567890123}}' },
    ],
  );
  assertEquals(r.records.map((x) => x.arguments_match), [false, true]);
});

Deno.test("scoreToolCalls() keeps NaN in a target given as a JS value", () => {
  const examples = [
    { example_id: "a", language: "en", target: { name: "f", arguments: { x: NaN } } },
    { example_id: "b", language: "en", target: { name: "f", arguments: { x: NaN } } },
  ];
  const r = scoreToolCalls(examples, [
    { example_id: "a", output: '{"name":"f","arguments":{"x":NaN}}' },
    // JSON.stringify would have written the target as {"x":null}.
    { example_id: "b", output: '{"name":"f","arguments":{"x":null}}' },
  ]);
  assertEquals(r.records.map((x) => x.arguments_match), [true, false]);
  throws(
    () =>
      scoreToolCalls([{
        example_id: "c",
        language: "en",
        target: { name: "f", arguments: { x: 1n } },
      }], []),
    /Not JSON at \$\.arguments\.x: a bigint/,
  );
});

Deno.test("scoreToolCalls() drops targets that are not exactly one call, by reason", () => {
  const call = { name: "f", arguments: {} };
  const r = scoreToolCalls(
    [
      { example_id: "one", language: "en", target: call },
      { example_id: "list1", language: "en", target: [call] },
      { example_id: "two", language: "en", target: [call, call] },
      { example_id: "two-bad", language: "en", target: [1, 2] },
      { example_id: "empty", language: "en", target: [] },
      { example_id: "bad-args", language: "en", target: { name: "f", arguments: "{}" } },
      { example_id: "no-name", language: "en", target: { arguments: {} } },
      { example_id: "scalar", language: "en", target: "3" },
    ],
    [
      { example_id: "one", output: '{"name":"f","arguments":{}}' },
      { example_id: "list1", output: '{"name":"f","arguments":{}}' },
      // A dropped example's generation is ignored with it, not an orphan.
      { example_id: "two", output: "whatever" },
    ],
  );
  strictEqual(r.n, 2);
  assertEquals(r.drop_summary, { multiple_calls: 1, empty_target: 1, malformed_target: 4 });
  strictEqual(r.metrics.overall.full_call_exact_match.value, 1);
});

Deno.test("scoreToolCalls() rejects a gold target that is not JSON, and a row that is not an object, with named errors", () => {
  throws(
    () =>
      scoreToolCalls([{ example_id: "x", language: "en", target: "{oops", line: 7 }], [], {
        sources: { examples: "ex.jsonl" },
      }),
    (e: unknown) =>
      e instanceof InputError && /ex\.jsonl:7 \(id "x"\): target is not valid JSON/.test(e.message),
  );
  // A JS value that is not JSON, at its row; a row that is not an object has no field.
  const gen = [{ example_id: "x", output: "{}" }];
  const ex = (target: unknown) => [{ example_id: "x", language: "en", target, line: 3 }];
  for (
    const [target, what] of [[new Date(0), "a Date"], [1n, "a bigint"], [undefined, "undefined"]]
  ) {
    throws(
      () => scoreToolCalls(ex({ name: "f", arguments: { v: target } }), gen),
      (e: unknown) =>
        e instanceof InputError &&
        e.message === `examples:3 (id "x"): field "target": Not JSON at $.arguments.v: ${what}`,
    );
  }
  for (
    const [examples, generations, source] of [
      [[null], gen, "examples"],
      [ex({ name: "f", arguments: {} }), [7], "generations"],
    ] as const
  ) {
    throws(
      () => scoreToolCalls(examples as never, generations as never),
      (e: unknown) =>
        e instanceof InputError && e.message === `${source}: missing field "example_id"`,
    );
  }
});

Deno.test("scoreToolCalls() collects every invariant violation before failing", () => {
  let caught: unknown;
  try {
    scoreToolCalls(
      [
        { example_id: "a", language: "en", target: gold("A"), line: 1 },
        { example_id: "a", language: "en", target: gold("A"), line: 2 },
        { example_id: "b", language: "en", target: gold("B"), line: 3 },
      ],
      [
        { example_id: "a", output: "x", line: 1 },
        { example_id: "zzz", output: "x", line: 2 },
      ],
      { sources: { examples: "e.jsonl", generations: "g.jsonl" } },
    );
  } catch (e) {
    caught = e;
  }
  if (!(caught instanceof InvariantViolation)) throw new Error("expected InvariantViolation");
  assertEquals(caught.violations.map((v) => v.kind).sort(), [
    "duplicate_id",
    "missing_generation",
    "orphan_generation",
  ]);
  strictEqual(caught.name, "InvariantViolation");
  const m = caught.message;
  for (
    const needle of [
      '"a" in e.jsonl at lines 1 and 2',
      'g.jsonl:2 (id "zzz")',
      'e.jsonl:3 (id "b")',
    ]
  ) {
    strictEqual(m.includes(needle), true, `${needle} in ${m}`);
  }
});

Deno.test("scoreToolCalls(): an id given twice in rows without lines is named so, not at lines ? and ?", () => {
  const row = { example_id: "a", language: "en", target: gold("A") };
  throws(
    () => scoreToolCalls([row, row], [{ example_id: "a", output: "x" }]),
    (e: unknown) =>
      e instanceof InvariantViolation &&
      e.message === 'Invariant violated: duplicate_id (1): example_id "a" in examples twice',
  );
});

/** A seeded random evaluation: examples in several languages and outputs of every kind. */
function randomEvaluation(rng: Rng, n: number) {
  const langs = ["en", "de", "fr", "ja"];
  const examples: ExampleInput[] = [];
  const generations: GenerationInput[] = [];
  for (let i = 0; i < n; i++) {
    const id = `ex-${i}`;
    const args: Record<string, unknown> = {};
    for (let k = rng.int(4); k >= 0; k--) {
      args[`k${rng.int(6)}`] = rng.pick([1, 1.5, "v", true, null, [1, 2], { x: rng.int(3) }, {}]);
    }
    const name = rng.pick(["f", "g", "h"]);
    examples.push({ example_id: id, language: rng.pick(langs), target: { name, arguments: args } });
    const pred: Record<string, unknown> = { ...args };
    if (rng.chance(0.3)) pred[`k${rng.int(6)}`] = rng.pick([2, "w", false, [1], {}]);
    if (rng.chance(0.2)) delete pred[`k${rng.int(6)}`];
    const call = JSON.stringify({ name: rng.chance(0.8) ? name : "other", arguments: pred });
    const output = rng.pick([
      call,
      `Sure: ${call} done`,
      "[" + call + "]",
      call.slice(0, -1),
      "no call here",
      '{"name": "f"}',
    ]);
    generations.push({ example_id: id, output });
  }
  return { examples, generations };
}

Deno.test("scoreToolCalls() pools exactly: overall is the sum of the slices, any subset rescored from raw outputs matches", () => {
  const rng = makeRng(20261130);
  for (let round = 0; round < 20; round++) {
    const { examples, generations } = randomEvaluation(rng, 50 + rng.int(200));
    const report = scoreToolCalls(examples, generations);
    // Overall equals the sum of the language slices.
    for (const name of METRIC_NAMES) {
      let num = 0;
      let den = 0;
      for (const lang of report.slices) {
        num += report.metrics.by_language[lang]![name].numerator;
        den += report.metrics.by_language[lang]![name].denominator;
      }
      strictEqual(num, report.metrics.overall[name].numerator, name);
      strictEqual(den, report.metrics.overall[name].denominator, name);
    }
    // A random subset's pooled records equal a fresh evaluation of just that subset.
    const keep = examples.map(() => rng.chance(0.4));
    const subEx = examples.filter((_, i) => keep[i]);
    const subGen = generations.filter((_, i) => keep[i]);
    if (subEx.length === 0) continue;
    const fresh = scoreToolCalls(subEx, subGen);
    const pooled = toolCallMetrics(report.records.filter((_, i) => keep[i]));
    assertEquals(pooled, fresh.metrics.overall);
    assertEquals(metricsFromCounts(countRecords(fresh.records)), fresh.metrics.overall);
  }
});

Deno.test("scoreToolCalls() gives the same report on both engines except the engine field", () => {
  const { examples, generations } = randomEvaluation(makeRng(7), 500);
  const texts = ENGINES.map((engine) => {
    const r = scoreToolCalls(examples, generations, { engine });
    strictEqual(r.engine, engine.name);
    return formatReport({ ...r, engine: "<engine>" });
  });
  for (const t of texts) strictEqual(t, texts[0]);
});

Deno.test("ScorerCore with exactTargets (the JSONL readers' scorer) scores JSON-text targets as the canonicalizing path does", () => {
  const F = '{"name":"f","arguments":{}}';
  const fixed = [
    F,
    ` ${F}\t`,
    `[${F}]`,
    `[ ${F} , ${F} ]`,
    "[]",
    "[1, 2]",
    JSON.stringify(F),
    '"x {\\"name\\":\\"f\\",\\"arguments\\":{}}"',
    "null",
    "3",
    "1.0",
    '{"name":"","arguments":{}}',
    '{"name":"f","arguments":[]}',
    '{"arguments":{"b":1},"name":"g","name":"f","arguments":{"a":[1.0,-0,1e5,1E+2]}}',
    '{ "name" : "\u00e9", "arguments" : {"\u00fc": "\ud83d\ude00", "x": NaN, "y": -Infinity} }',
    '{"name":"f","arguments":{"n":123456789012345678901234567890,"s":"\ud800","e":{},"l":[]}}',
    '{"name":"f","arguments":{"a.b":1,"a":{"b":1},"0":"x","k":[[],[{}]]}}',
  ];
  for (const engine of ENGINES) {
    const rng = makeRng(424242);
    const texts = [...fixed];
    while (texts.length < 1500) {
      const args = randomJsonText(rng, { mutationRate: 0, illegalRate: 0 });
      const text = rng.chance(0.7) ? `{"name": "f", "arguments": ${args}}` : args;
      if (engine.canonicalizeBatch([text])[0]!.ok) texts.push(text);
    }
    const examples: ExampleInput[] = texts.map((target, i) => ({
      example_id: `e${i}`,
      language: i % 2 ? "en" : "de",
      target,
      line: i + 1,
    }));
    const generations: GenerationInput[] = texts.map((target, i) => ({
      example_id: `e${i}`,
      output: rng.pick([target, `Call: ${texts[rng.int(texts.length)]}`, F, "none"]),
    }));
    const want = formatReport(scoreToolCalls(examples, generations, { engine }));
    const core = new ScorerCore({ engine, exactTargets: true });
    core.addExamples(examples);
    core.addGenerations(generations);
    strictEqual(formatReport(core.finish()), want);
  }
});

Deno.test("ToolCallScorer checks each manifest row's id and digest before anything else", () => {
  const H = "0".repeat(64);
  const cases: [PromptInput, RegExp][] = [
    [
      { example_id: "a", prompt_sha256: undefined as unknown as string },
      /missing field "prompt_sha256"/,
    ],
    [
      { example_id: "a", prompt_sha256: undefined as unknown as string, prompt: "p" },
      /missing field "prompt_sha256"/,
    ],
    [{ example_id: "a", prompt_sha256: H.toUpperCase().replace(/0/g, "A") }, /64 lowercase hex/],
    [{ example_id: "", prompt_sha256: H, prompt: "p" }, /"example_id" must be a non-empty string/],
    [{ example_id: "a", prompt_sha256: "x", prompt: 5 as unknown as string }, /64 lowercase hex/],
    [
      { example_id: "a", prompt_sha256: H, prompt: 5 as unknown as string },
      /"prompt" must be a string/,
    ],
  ];
  for (const [row, message] of cases) {
    throws(
      () =>
        scoreToolCalls([], [], { prompts: [{ ...row, line: 3 }], sources: { prompts: "p.jsonl" } }),
      (e: unknown) =>
        e instanceof InputError && /^p\.jsonl:3/.test(e.message) && message.test(e.message),
      JSON.stringify(row),
    );
  }
  // A generation's digest is checked whether or not it matches its manifest row.
  throws(
    () =>
      scoreToolCalls(
        [{ example_id: "a", language: "en", target: gold("A") }],
        [{ example_id: "a", output: "x", prompt_sha256: "X".repeat(64), line: 2 }],
        { prompts: [{ example_id: "a", prompt_sha256: H }] },
      ),
    (e: unknown) => e instanceof InputError && /:2 \(id "a"\).*64 lowercase hex/.test(e.message),
  );
});

Deno.test("toolCallMetrics() gives zero, not NaN, for an empty slice", () => {
  const empty: ExampleRecord[] = [];
  for (const name of METRIC_NAMES) {
    assertEquals(toolCallMetrics(empty)[name], { value: 0, numerator: 0, denominator: 0 });
  }
});
