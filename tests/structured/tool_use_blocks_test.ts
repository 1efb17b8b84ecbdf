// Anthropic tool_use blocks in the tool metrics: on a seeded corpus they score exactly as the
// same calls written {name, arguments}, whatever the mix of shapes, the content blocks that are
// no calls (text, thinking, redacted_thinking) and the refused blocks; then each rule alone.
import { deepStrictEqual as assertEquals, ok, strictEqual, throws } from "node:assert/strict";
import {
  toolArgumentAccuracy,
  toolCallF1,
  toolSelectionAccuracy,
} from "../../src/structured/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { ENGINES } from "../_engines.ts";

// ------------------------------------------------------------------ the corpus

interface Call {
  name: string;
  args: Record<string, unknown>;
}

const NAMES = ["get_weather", "search", "__proto__"];
const VALUES: unknown[] = [1, 2, 1.5, -0.25, "Paris", "Zürich 😀", true, null, [1, "a"], {
  unit: "c",
}];

function randomCall(rng: Rng): Call {
  const args: Record<string, unknown> = {};
  for (const k of ["city", "days", "unit"]) if (rng.chance(0.5)) args[k] = rng.pick(VALUES);
  return { name: rng.pick(NAMES), args };
}

/** A near copy: a changed, added or dropped argument, sometimes another name. */
function nearCopy(rng: Rng, c: Call): Call {
  const args = { ...c.args };
  if (rng.chance(0.4)) args[rng.pick(["city", "days", "extra"])] = rng.pick(VALUES);
  if (rng.chance(0.2)) delete args[rng.pick(Object.keys(args).concat("city"))];
  return { name: rng.chance(0.9) ? c.name : rng.pick(NAMES), args };
}

/** Blocks of an Anthropic message's content that are no calls. */
const NO_CALLS: unknown[] = [
  { type: "text", text: "Let me check the weather." },
  { type: "text", text: '{"name": "search", "arguments": {}}' },
  { type: "thinking", thinking: "The user wants Paris.", signature: "c2ln" },
  { type: "redacted_thinking", data: "ZW5jcnlwdGVk" },
  { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
];

/** Invalid calls as tool_use blocks (or other blocks), each refused as one invalid call. */
const REFUSED: unknown[] = [
  { type: "tool_use", id: "toolu_9", name: "search", input: "[1]" }, // a JSON array's text
  { type: "tool_use", id: "toolu_9", name: "search", input: [1] }, // array input
  { type: "tool_use", name: "search", input: null },
  { type: "tool_use", name: "search" }, // no input
  { type: "tool_use", input: {} }, // no name
  { type: "tool_use", name: "", input: {} },
  { type: "tool_use", name: "search", input: {}, citations: null }, // extra key
  { type: "tool_use", name: "search", arguments: {} },
  { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { q: "x" } },
  { type: "tool_result", tool_use_id: "toolu_1", content: "sunny" },
  { type: "image", source: {} },
];

/** The reference: a call as {name, arguments}; an invalid one as one invalid {name, arguments}. */
const plain = (c: Call) => ({ name: c.name, arguments: c.args });
const PLAIN_INVALID = { name: "search", arguments: "{" };

let toolUseBlocks = 0;

/** The same call in a random shape: {name, arguments}, OpenAI's wrapper or a tool_use block. */
function anyShape(rng: Rng, c: Call): unknown {
  const shape = rng.int(4);
  if (shape === 0) return plain(c);
  if (shape === 1) return { type: "function", id: "call_1", function: plain(c) };
  toolUseBlocks++;
  return shape === 2
    ? { type: "tool_use", id: `toolu_${rng.int(100)}`, name: c.name, input: c.args }
    : { type: "tool_use", name: c.name, input: c.args, cache_control: { type: "ephemeral" } };
}

interface Example {
  expected: Call[];
  predicted: (Call | null)[]; // null: an invalid call
}

function randomExample(rng: Rng): Example {
  const expected = Array.from({ length: rng.int(4) }, () => randomCall(rng));
  const predicted: (Call | null)[] = Array.from(
    { length: rng.int(5) },
    () =>
      expected.length > 0 && rng.chance(0.7) ? nearCopy(rng, rng.pick(expected)) : randomCall(rng),
  );
  if (rng.chance(0.25)) predicted.splice(rng.int(predicted.length + 1), 0, null);
  return { expected, predicted };
}

/** An entry as a list, or (one call, sometimes) the call alone. */
function entry(rng: Rng, items: unknown[], calls: number): unknown {
  return calls === 1 && items.length === 1 && rng.chance(0.4) ? items[0] : items;
}

/** The reference entries: {name, arguments} only. */
function asPlain(rng: Rng, ex: Example): { expected: unknown; predicted: unknown } {
  return {
    expected: entry(rng, ex.expected.map(plain), ex.expected.length),
    predicted: entry(
      rng,
      ex.predicted.map((c) => c === null ? PLAIN_INVALID : plain(c)),
      ex.predicted.length,
    ),
  };
}

/** The same entries in mixed shapes, with blocks that are no calls put in between. */
function asMixed(rng: Rng, ex: Example): { expected: unknown; predicted: unknown } {
  const side = (calls: (Call | null)[]) => {
    const items = calls.map((c) => c === null ? rng.pick(REFUSED) : anyShape(rng, c));
    if (rng.chance(0.5)) {
      // An Anthropic message's content: calls in their order, among text and thinking.
      for (let n = rng.int(3); n > 0; n--) {
        items.splice(rng.int(items.length + 1), 0, rng.pick(NO_CALLS));
      }
      return items;
    }
    return entry(rng, items, calls.length);
  };
  return { expected: side(ex.expected), predicted: side(ex.predicted) };
}

// ------------------------------------------------------------------ equivalence

/** Every tool metric under every option that changes how calls are matched. */
function allFigures(expected: unknown[], predicted: unknown[], engine = ENGINES[0]!) {
  const e = expected as never;
  return {
    selection: toolSelectionAccuracy(e, predicted, { engine }),
    selectionOrdered: toolSelectionAccuracy(e, predicted, { ordered: true, engine }),
    argumentsExact: toolArgumentAccuracy(e, predicted, { match: "exact", engine }),
    argumentsSubset: toolArgumentAccuracy(e, predicted, { match: "subset", engine }),
    f1Exact: toolCallF1(e, predicted, { match: "exact", engine }),
    f1Name: toolCallF1(e, predicted, { match: "name", engine }),
    f1Subset: toolCallF1(e, predicted, { match: "subset", engine }),
  };
}

for (const engine of ENGINES) {
  Deno.test(`tool metrics [${engine.name}] score tool_use blocks as the same {name, arguments} calls`, () => {
    for (const seed of [4101, 4102, 4103]) {
      const rng = makeRng(seed);
      toolUseBlocks = 0;
      const examples = Array.from({ length: 300 }, () => randomExample(rng));
      const plainE: unknown[] = [], plainP: unknown[] = [];
      const mixedE: unknown[] = [], mixedP: unknown[] = [];
      for (const ex of examples) {
        const a = asPlain(rng, ex), b = asMixed(rng, ex);
        plainE.push(a.expected);
        plainP.push(a.predicted);
        mixedE.push(b.expected);
        mixedP.push(b.predicted);
      }
      const want = allFigures(plainE, plainP, engine);
      assertEquals(allFigures(mixedE, mixedP, engine), want, `seed ${seed}`);
      // The corpus is not trivial: matches, misses, invalid calls and many tool_use blocks.
      ok(toolUseBlocks > 200, `${toolUseBlocks} tool_use blocks`);
      const f1 = want.f1Exact;
      ok(f1.numerator > 0 && f1.numerator < f1.denominator, JSON.stringify(f1));
      ok(want.f1Subset.details.recall.numerator > f1.details.recall.numerator);
      ok(f1.details.invalidCalls > 30, `${f1.details.invalidCalls} invalid calls`);
      ok(want.selection.numerator !== want.selectionOrdered.numerator);
    }
  });
}

// ------------------------------------------------------------------ each rule alone

Deno.test("a tool_use block is a call: its input is read as an object arguments", () => {
  const expected = [[{ name: "get_weather", arguments: { city: "Paris", days: 2 } }]];
  for (
    const block of [
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { days: 2, city: "Paris" } },
      { type: "tool_use", name: "get_weather", input: { city: "Paris", days: 2.0 } },
    ]
  ) {
    const r = toolCallF1(expected, [[block]]);
    assertEquals([r.numerator, r.denominator, r.details.invalidCalls], [2, 2, 0]);
  }
  // An input of {} is a call without arguments, as {name, arguments: {}} is.
  strictEqual(
    toolArgumentAccuracy([{ name: "ping", arguments: "{}" }], [{
      type: "tool_use",
      id: "toolu_1",
      name: "ping",
      input: {},
    }]).numerator,
    1,
  );
  // A tool_use block is expected as it is predicted.
  strictEqual(
    toolArgumentAccuracy([{ type: "tool_use", name: "ping", input: { n: 1 } }], [{
      name: "ping",
      arguments: '{"n": 1}',
    }]).numerator,
    1,
  );
});

Deno.test("an Anthropic message's content: text, thinking and redacted_thinking blocks are no calls", () => {
  const content = [
    { type: "thinking", thinking: "Weather in Paris, then Oslo.", signature: "c2ln" },
    { type: "text", text: "Let me check both cities." },
    { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
    { type: "redacted_thinking", data: "ZW5jcnlwdGVk" },
    { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Oslo" } },
  ] as const;
  const expected = [[
    { name: "get_weather", arguments: { city: "Paris" } },
    { name: "get_weather", arguments: { city: "Oslo" } },
  ]];
  const f1 = toolCallF1(expected, [content]);
  assertEquals([f1.numerator, f1.denominator, f1.details.invalidCalls], [4, 4, 0]);
  assertEquals(f1.details.precision, { value: 1, numerator: 2, denominator: 2 });
  assertEquals(toolArgumentAccuracy(expected, [content]).details, {
    invalidCalls: 0,
    predictedCalls: 2,
  });
  strictEqual(toolSelectionAccuracy(expected, [content], { ordered: true }).numerator, 1);
  // A text answer, in a list or alone, is no call: right where none was expected.
  const text = { type: "text", text: "It is sunny in Paris." };
  for (const answer of [[text], text, [text, NO_CALLS[2]]]) {
    assertEquals(toolSelectionAccuracy([[]], [answer]), {
      value: 1,
      numerator: 1,
      denominator: 1,
      details: { invalidCalls: 0 },
    });
    const missed = toolCallF1(expected, [answer]);
    assertEquals([missed.numerator, missed.denominator, missed.details.invalidCalls], [0, 2, 0]);
  }
  // Expected entries follow the same rules.
  strictEqual(toolCallF1([content], [expected[0]]).details.recall.denominator, 2);
});

Deno.test("a block of another type, or a tool_use block of another shape, is an invalid call", () => {
  const expected = [{ name: "search", arguments: {} }];
  for (const bad of REFUSED) {
    const r = toolCallF1(expected, [[bad, { type: "text", text: "" }]]);
    assertEquals(
      [r.numerator, r.details.invalidCalls, r.details.precision.denominator],
      [0, 1, 1],
      JSON.stringify(bad),
    );
  }
});

Deno.test("a malformed expected tool_use block is refused with its reason, at its place", () => {
  const good = { type: "tool_use", id: "toolu_1", name: "search", input: {} } as const;
  const text = { type: "text", text: "Searching." } as const;
  const reasons: [unknown, string][] = [
    [{ ...good, input: ["x"] }, "input must be an object or a JSON string, got an array"],
    [{ ...good, citations: [] }, 'an unknown key "citations"'],
    [{ type: "tool_use", id: "toolu_1", input: {} }, "a tool_use block has no name"],
    [{ type: "tool_use", name: "search", arguments: {} }, "has no input, an unknown key"],
    [{ type: "server_tool_use", name: "web_search", input: {} }, "a call must be {name, argu"],
  ];
  for (const [bad, reason] of reasons) {
    for (const fn of [toolSelectionAccuracy, toolArgumentAccuracy, toolCallF1]) {
      // The text block keeps its place: the bad block is call 2 of its list.
      throws(
        () => fn([[good], [text, good, bad as never]], [[], []]),
        (e: Error) =>
          e instanceof TypeError &&
          e.message.startsWith("Expected call 2 of example 1 is malformed: ") &&
          e.message.includes(reason),
        `${JSON.stringify(bad)}`,
      );
    }
  }
  throws(
    () => toolCallF1([[text, { ...good, input: { a: 1n } }]] as never, [[]]),
    /^TypeError: Expected call 1 of example 0 is malformed: input is not JSON/,
  );
  // A JSON string input that is no object, as a string arguments.
  throws(
    () => toolCallF1([[text, { ...good, input: "[1]" }]], [[]]),
    /^TypeError: Expected call 1 of example 0 has invalid arguments: they are not a JSON object/,
  );
});
