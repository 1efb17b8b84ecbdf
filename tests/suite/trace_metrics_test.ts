// The deterministic trace metrics: applicability rules, scoring semantics, params, the registry
// and seeded property checks. SQL reference extraction has its own file (sql_refs_test.ts).
import { deepStrictEqual as assertEquals, ok, strictEqual, throws } from "node:assert/strict";
import {
  DETERMINISTIC_METRIC_NAMES,
  DETERMINISTIC_METRICS,
  expectedViewRecall,
  hitLimit,
  referenceValueMatch,
  RunInputError,
  schemaMembership,
  stepEfficiency,
  TRACE_SCHEMA,
  trajectoryMatch,
  trajectoryMatchMetric,
} from "../../src/suite/mod.ts";
import { compileSchema } from "../../src/json_schema/mod.ts";
import type { Golden, SchemaCatalog, Trace, TraceToolCall } from "../../src/suite/mod.ts";
import { makeRng, type Rng, shuffleKeys } from "../_corpus.ts";

const CATALOG: SchemaCatalog = {
  views: [
    { name: "orders", columns: ["id", "total", "region"] },
    { name: "analytics.customers", columns: ["id", "name"] },
  ],
};
const GOLDEN: Golden = { id: "g", question: "?" };

function trace(over: Partial<Trace> = {}): Trace {
  return {
    golden_id: "g",
    arm: "base",
    repeat: 0,
    tool_calls: [],
    sql: [],
    final_rows: null,
    final_answer: null,
    submitted: true,
    hit_turn_limit: false,
    ...over,
  };
}

// ---- registry ---------------------------------------------------------------------------

Deno.test("DETERMINISTIC_METRICS maps every name to its function", () => {
  assertEquals(Object.keys(DETERMINISTIC_METRICS), [...DETERMINISTIC_METRIC_NAMES]);
  assertEquals(Object.values(DETERMINISTIC_METRICS), [
    schemaMembership,
    expectedViewRecall,
    referenceValueMatch,
    stepEfficiency,
    hitLimit,
    trajectoryMatchMetric,
  ]);
  ok(Object.isFrozen(DETERMINISTIC_METRICS));
});

Deno.test("every metric rejects unknown params with a RangeError naming the allowed ones", () => {
  for (const name of DETERMINISTIC_METRIC_NAMES) {
    throws(
      () =>
        DETERMINISTIC_METRICS[name]({ golden: GOLDEN, trace: trace(), catalog: CATALOG }, {
          bogus: 1,
        }),
      {
        name: "RangeError",
        message: new RegExp(`^Unknown param "bogus" for ${name}: expected [a-z_, ]+$`),
      },
    );
    throws(
      () =>
        DETERMINISTIC_METRICS[name](
          { golden: GOLDEN, trace: trace(), catalog: CATALOG },
          [] as never,
        ),
      TypeError,
    );
  }
});

// ---- schema_membership ----------------------------------------------------------------

Deno.test("schemaMembership() is not applicable without SQL", () => {
  for (const sql of [[], [""], ["  \n"], [";;", "-- just a comment\n/* and another */;"]]) {
    assertEquals(schemaMembership({ golden: GOLDEN, trace: trace({ sql }), catalog: CATALOG }), {
      applicable: false,
      score: null,
      details: { reason: "The trace contains no SQL" },
    });
  }
});

Deno.test("schemaMembership() is applicable with one non-blank statement among blank ones", () => {
  const r = schemaMembership({
    golden: GOLDEN,
    trace: trace({ sql: ["", ";", "SELECT id FROM orders"] }),
    catalog: CATALOG,
  });
  assertEquals(r, {
    applicable: true,
    score: 1,
    details: {
      dialect: "postgresql",
      statements: 1,
      unparseable: 0,
      errors: [],
      tables: 1,
      columns: 1,
      unknown_tables: [],
      unknown_columns: [],
      unchecked_columns: 0,
    },
  });
});

Deno.test("schemaMembership() counts across entries and fails on any miss", () => {
  const r = schemaMembership({
    golden: GOLDEN,
    trace: trace({
      sql: ["SELECT id FROM orders", "SELECT c.name, c.email FROM customers c", "x"],
    }),
    catalog: CATALOG,
  });
  assertEquals([r.score, r.details!.tables, r.details!.columns, r.details!.unknown_columns], [
    0,
    2,
    3,
    ["analytics.customers.email"],
  ]);
  strictEqual(r.details!.unparseable, 1);
});

Deno.test("schemaMembership() validates its inputs and the dialect", () => {
  throws(
    () =>
      schemaMembership({ golden: GOLDEN, trace: trace({ sql: [1] as never }), catalog: CATALOG }),
    TypeError,
  );
  throws(
    () =>
      schemaMembership({
        golden: GOLDEN,
        trace: trace(),
        catalog: { views: [{ name: "x" }] } as never,
      }),
    TypeError,
  );
  throws(
    () =>
      schemaMembership({ golden: GOLDEN, trace: trace(), catalog: CATALOG }, { dialect: "oracle" }),
    RangeError,
  );
  strictEqual(
    schemaMembership({ golden: GOLDEN, trace: trace({ sql: ["SELECT 1"] }), catalog: CATALOG }, {
      dialect: "sqlite",
    }).score,
    1,
  );
});

// ---- expected_view_recall -------------------------------------------------------------

Deno.test("expectedViewRecall() is applicable only with a non-empty expected_views", () => {
  const t = trace({ sql: ["SELECT * FROM orders"] });
  for (const g of [GOLDEN, { ...GOLDEN, expected_views: [] }]) {
    assertEquals(expectedViewRecall({ golden: g, trace: t, catalog: CATALOG }), {
      applicable: false,
      score: null,
      details: { reason: "The golden has no expected_views" },
    });
  }
  const g = { ...GOLDEN, expected_views: ["orders"] };
  assertEquals(expectedViewRecall({ golden: g, trace: trace(), catalog: CATALOG }).score, 0);
  assertEquals(expectedViewRecall({ golden: g, trace: t, catalog: CATALOG }).score, 1);
});

Deno.test("expectedViewRecall() counts SQL references, not extra views, CTEs or text", () => {
  const g = { ...GOLDEN, expected_views: ["orders", "analytics.customers", "refunds", "orders"] };
  const t = trace({
    sql: [
      "WITH refunds AS (SELECT 1) SELECT * FROM refunds", // a CTE is not a view
      "SELECT 'orders' AS s FROM regions", // a string is not a reference
      "SELECT * FROM customers c JOIN ORDERS o ON o.id = c.id", // unqualified, upper case
      "SELECT * FROM audit_log", // an extra view: not penalised
    ],
  });
  assertEquals(expectedViewRecall({ golden: g, trace: t, catalog: CATALOG }), {
    applicable: true,
    score: 2 / 3,
    details: {
      expected: 3,
      touched: ["orders", "analytics.customers"],
      missing: ["refunds"],
      unparseable: 0,
    },
  });
});

Deno.test("expectedViewRecall() matches dotted names on their shared trailing parts", () => {
  const g = { ...GOLDEN, expected_views: ["analytics.customers", "orders"] };
  const t = trace({ sql: ['SELECT 1 FROM sales.customers, "public"."orders"'] });
  assertEquals(expectedViewRecall({ golden: g, trace: t, catalog: CATALOG }).details!.missing, [
    "analytics.customers",
  ]);
});

Deno.test("expectedViewRecall() counts view_tools arguments only when asked", () => {
  const g = { ...GOLDEN, expected_views: ["orders", "analytics.customers"] };
  const tool_calls: TraceToolCall[] = [
    { name: "describe_view", arguments: '{"view": "orders"}' },
    { name: "get_views", arguments: { names: ["customers", 3] } },
    { name: "search", arguments: { q: "analytics.customers" } },
  ];
  const t = trace({ tool_calls });
  assertEquals(expectedViewRecall({ golden: g, trace: t, catalog: CATALOG }).score, 0);
  const r = expectedViewRecall({ golden: g, trace: t, catalog: CATALOG }, {
    view_tools: ["describe_view", "get_views"],
  });
  assertEquals(r.score, 1);
  // The same calls as Anthropic tool_use blocks and LangChain calls name the same views.
  const shaped = trace({
    tool_calls: [
      { type: "tool_use", id: "t", name: "describe_view", input: { view: "orders" } },
      { name: "get_views", args: { names: ["customers", 3] }, id: "c", type: "tool_call" },
    ],
  });
  const views = { view_tools: ["describe_view", "get_views"] };
  assertEquals(expectedViewRecall({ golden: g, trace: shaped, catalog: CATALOG }, views).score, 1);
  const ambiguous = trace({ tool_calls: [{ name: "get_views", args: {}, input: {} }] as never });
  throws(
    () => expectedViewRecall({ golden: g, trace: ambiguous, catalog: CATALOG }, views),
    (e: unknown) => e instanceof RunInputError && /^tool_calls\[0\] is ambiguous/.test(e.message),
  );
  throws(
    () =>
      expectedViewRecall({ golden: g, trace: t, catalog: CATALOG }, {
        view_tools: "describe_view",
      }),
    RangeError,
  );
  throws(
    () =>
      expectedViewRecall({
        golden: { ...g, expected_views: "orders" as never },
        trace: t,
        catalog: CATALOG,
      }),
    TypeError,
  );
});

// ---- reference_value_match ------------------------------------------------------------

Deno.test("referenceValueMatch() is applicable only with a non-empty reference_values", () => {
  for (const g of [GOLDEN, { ...GOLDEN, reference_values: {} }]) {
    assertEquals(
      referenceValueMatch({
        golden: g,
        trace: trace({ final_rows: [{ a: 1 }] }),
        catalog: CATALOG,
      }),
      {
        applicable: false,
        score: null,
        details: { reason: "The golden has no reference_values" },
      },
    );
  }
});

Deno.test("referenceValueMatch() scores 0 when there are no final rows", () => {
  const g = { ...GOLDEN, reference_values: { n: 1 } };
  for (const final_rows of [null, []]) {
    const r = referenceValueMatch({ golden: g, trace: trace({ final_rows }), catalog: CATALOG });
    assertEquals([r.applicable, r.score, r.details!.reason], [
      true,
      0,
      "The trace has no final rows",
    ]);
  }
});

Deno.test("referenceValueMatch() compares per entry, in any row, by exact column name", () => {
  const g = {
    ...GOLDEN,
    reference_values: { revenue: 1000, region: "EU", active: true, note: null, Count: 3 },
  };
  const rows = [
    { region: "US", revenue: "1000.0000001", active: "true", count: 3 },
    { region: "EU", revenue: 999, note: null },
  ];
  const r = referenceValueMatch({
    golden: g,
    trace: trace({ final_rows: rows }),
    catalog: CATALOG,
  });
  assertEquals(r.score, 3 / 5);
  assertEquals(r.details!.entries, [
    { column: "revenue", expected: 1000, matched: true, column_present: true },
    { column: "region", expected: "EU", matched: true, column_present: true },
    { column: "active", expected: true, matched: false, column_present: true },
    { column: "note", expected: null, matched: true, column_present: true },
    { column: "Count", expected: 3, matched: false, column_present: false },
  ]);
});

Deno.test("referenceValueMatch() applies |a - b| <= abs_tol + rel_tol * |b| exactly", () => {
  const check = (expected: number, actual: unknown, params?: Record<string, number>) =>
    referenceValueMatch({
      golden: { ...GOLDEN, reference_values: { v: expected } },
      trace: trace({ final_rows: [{ v: actual }] }),
      catalog: CATALOG,
    }, params).score;
  strictEqual(check(1e6, 1e6 + 1), 1); // 1 <= 1e-9 + 1e-6 * 1e6
  strictEqual(check(1e6, 1e6 + 1.01), 0);
  strictEqual(check(0, 1e-9), 1);
  strictEqual(check(0, 2e-9), 0);
  strictEqual(check(10, 10.5, { abs_tol: 0.5, rel_tol: 0 }), 1);
  strictEqual(check(10, 10.6, { abs_tol: 0.5, rel_tol: 0 }), 0);
  strictEqual(check(100, "1e2"), 1);
  strictEqual(check(100, 100n), 1);
  strictEqual(check(100, " 100"), 0); // padded strings are not numbers
  strictEqual(check(100, "100 apples"), 0);
  strictEqual(check(1, true), 0);
  strictEqual(check(0, null), 0);
  strictEqual(check(Infinity, Infinity), 1);
  strictEqual(check(1, NaN), 0);
  strictEqual(check(1, "NaN"), 0);
  throws(() => check(1, 1, { abs_tol: -1 }), RangeError);
  throws(() => check(1, 1, { rel_tol: Infinity }), RangeError);
});

Deno.test("referenceValueMatch() compares strings exactly and never reads the prototype", () => {
  const g = { ...GOLDEN, reference_values: { name: "Acme", toString: "x", __proto__x: 1 } };
  const rows = [{ name: "acme" }, JSON.parse('{"__proto__": {"name": "Acme"}, "name": "Acme "}')];
  const r = referenceValueMatch({
    golden: g,
    trace: trace({ final_rows: rows }),
    catalog: CATALOG,
  });
  assertEquals([r.score, r.details!.matched], [0, 0]);
  throws(
    () =>
      referenceValueMatch({
        golden: g,
        trace: trace({ final_rows: {} as never }),
        catalog: CATALOG,
      }),
    TypeError,
  );
});

// ---- step_efficiency ------------------------------------------------------------------

const efficiency = (tool_calls: TraceToolCall[]) =>
  stepEfficiency({ golden: GOLDEN, trace: trace({ tool_calls }), catalog: CATALOG });

Deno.test("stepEfficiency() is always applicable and scores 1 with no tool calls", () => {
  assertEquals(stepEfficiency({ golden: GOLDEN, trace: trace(), catalog: CATALOG }), {
    applicable: true,
    score: 1,
    details: { tool_calls: 0, duplicates: 0, duplicate_calls: [] },
  });
});

Deno.test("stepEfficiency() follows the canonical contract for string arguments", () => {
  const calls: TraceToolCall[] = [
    { name: "q", arguments: '{"a": 1}' },
    { name: "q", arguments: '{"a": 1.0}' }, // 1.0 is not 1
    { name: "q", arguments: '{"a":1.0}' }, // a duplicate of the previous one
    { name: "q", arguments: { a: 1.0 } }, // the JS value 1.0 is 1: a duplicate of the first
    { name: "r", arguments: '{"a": 1}' }, // another tool
    { name: "q", arguments: "{not json" },
    { name: "q", arguments: "{not json" }, // same raw text
    { name: "q", arguments: "{not  json" },
    { name: "q", arguments: '{"a": 100000000000000000001}' },
    { name: "q", arguments: '{"a": 100000000000000000000}' }, // big integers keep their digits
  ];
  assertEquals(
    stepEfficiency({ golden: GOLDEN, trace: trace({ tool_calls: calls }), catalog: CATALOG }),
    {
      applicable: true,
      score: 1 - 3 / 10,
      details: { tool_calls: 10, duplicates: 3, duplicate_calls: [2, 3, 6] },
    },
  );
});

Deno.test("stepEfficiency() never crashes on arguments JSON.stringify cannot serialise", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 1_000_000; i++) deep = { d: deep };
  const calls = [
    { name: "q", arguments: cyclic },
    { name: "q", arguments: cyclic },
    { name: "q", arguments: { n: 1n } },
    { name: "q", arguments: deep },
    { name: "q", arguments: deep },
    { name: "q", arguments: "[".repeat(100_000) },
    { name: "q", arguments: "[".repeat(100_000) },
  ] as TraceToolCall[];
  const r = stepEfficiency({
    golden: GOLDEN,
    trace: trace({ tool_calls: calls }),
    catalog: CATALOG,
  });
  // Object arguments that are not JSON (a cycle, a BigInt, nesting past 512 levels) are never
  // duplicates; a JSON string nesting past 512 levels compares by its raw text.
  assertEquals(r.details, { tool_calls: 7, duplicates: 1, duplicate_calls: [6] });
  throws(
    () =>
      stepEfficiency({
        golden: GOLDEN,
        trace: trace({ tool_calls: null as never }),
        catalog: CATALOG,
      }),
    TypeError,
  );
});

function randomArgs(rng: Rng, depth = 0): unknown {
  const k = depth === 0 ? 4 : rng.int(depth > 2 ? 3 : 5);
  if (k === 0) return rng.int(4);
  if (k === 1) return rng.pick(["a", "b", "é", "\u0000", "__proto__"]);
  if (k === 2) return rng.pick([true, null, 0.5, -0]);
  if (k === 3) return Array.from({ length: rng.int(3) }, () => randomArgs(rng, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = rng.int(4); i > 0; i--) {
    Object.defineProperty(o, rng.pick(["x", "y", "z", "__proto__"]), {
      value: randomArgs(rng, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return o;
}

Deno.test("stepEfficiency() duplicate counts ignore key order and spacing (seeded, 500 runs)", () => {
  const rng = makeRng(0x7ace);
  let withDuplicates = 0;
  for (let run = 0; run < 500; run++) {
    const calls: TraceToolCall[] = Array.from({ length: 1 + rng.int(8) }, () => ({
      name: rng.pick(["run_sql", "get_view"]),
      arguments: randomArgs(rng) as Record<string, unknown>,
    }));
    // The reference count: distinct (name, JSON.stringify with sorted keys) pairs.
    const sorted = (v: unknown): unknown =>
      Array.isArray(v)
        ? { a: v.map(sorted) }
        : typeof v === "object" && v !== null
        ? { o: Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]) }
        : v;
    const distinct = new Set(calls.map((c) => JSON.stringify([c.name, sorted(c.arguments)])));
    const expected = calls.length - distinct.size;
    if (expected > 0) withDuplicates++;
    const base = stepEfficiency({
      golden: GOLDEN,
      trace: trace({ tool_calls: calls }),
      catalog: CATALOG,
    });
    strictEqual(base.details!.duplicates, expected);
    const shuffled = calls.map((c) => ({ ...c, arguments: shuffleKeys(rng, c.arguments) }));
    const asText = shuffled.map((c, i) =>
      i % 2 ? { ...c, arguments: JSON.stringify(c.arguments, null, rng.int(3)) } : c
    ) as TraceToolCall[];
    strictEqual(
      stepEfficiency({ golden: GOLDEN, trace: trace({ tool_calls: asText }), catalog: CATALOG })
        .details!.duplicates,
      expected,
    );
    strictEqual(base.score, 1 - expected / calls.length);
  }
  ok(withDuplicates > 100, `${withDuplicates} runs had duplicates`);
});

Deno.test("stepEfficiency() keeps 1 and 1.0 apart in JSON strings (seeded, 300 runs)", () => {
  const rng = makeRng(0x1d0e);
  for (let run = 0; run < 300; run++) {
    const n = rng.pick(["0", "-0", "1", "-7", "9007199254740993", "100000000000000000000001"]);
    const key = rng.pick(["a", "é", "__proto__"]);
    const int = `{"${key}": ${n}, "k": [${n}]}`;
    const spaced = `{ "k" : [ ${n} ] , "${key}" :${n} }`;
    const float = `{"${key}": ${n}.0, "k": [${n}]}`;
    const calls = [int, spaced, float].map((args) => ({ name: "q", arguments: args }));
    // The second is the first with other spacing and key order; the third has a float.
    assertEquals(
      stepEfficiency({ golden: GOLDEN, trace: trace({ tool_calls: calls }), catalog: CATALOG })
        .details,
      {
        tool_calls: 3,
        duplicates: 1,
        duplicate_calls: [1],
      },
    );
  }
});

Deno.test("stepEfficiency() reads every call shape trajectory_match reads, one rule for all", () => {
  // An Anthropic or LangChain call read as one without arguments (all "undefined"), so that every
  // call of a tool repeated the first: these four scored 0.25.
  const calls = [
    { type: "tool_use", id: "t1", name: "q", input: { a: 1 } },
    { name: "q", args: { a: 2 }, id: "c2", type: "tool_call" },
    { id: "c3", type: "function", function: { name: "q", arguments: '{"a": 3}' } },
    { name: "q", arguments: { a: 4 } },
    // Repeats, each in another shape: of 0, of 1 and of 2.
    { name: "q", arguments: '{"a":1}' },
    { type: "tool_use", id: "t6", name: "q", input: { a: 2 } },
    { name: "q", args: { a: 3 } },
  ] as TraceToolCall[];
  assertEquals(efficiency(calls).details, {
    tool_calls: 7,
    duplicates: 3,
    duplicate_calls: [4, 5, 6],
  });
  // A call that is ambiguous or has no name is the trace's bad input, named by its index.
  const bad: [unknown, RegExp][] = [
    [
      { name: "q", arguments: {}, input: {} },
      /^tool_calls\[1\] is ambiguous: .*"arguments" and "input"/,
    ],
    [{ type: "tool_use", input: {} }, /^tool_calls\[1\] must be a call: /],
    [7, /^tool_calls\[1\] must be a call: /],
    [
      { type: "server_tool_use", id: "s", name: "web_search", input: {} },
      /^tool_calls\[1\] is a "server_tool_use" block, a call run by a server/,
    ],
  ];
  for (const [call, words] of bad) {
    const t = trace({ tool_calls: [calls[0]!, call] as TraceToolCall[] });
    throws(() => stepEfficiency({ golden: GOLDEN, trace: t, catalog: CATALOG }), (e: unknown) => {
      ok(e instanceof RunInputError, String(e));
      assertEquals(e.input, "trace");
      ok(words.test(e.message), e.message);
      return true;
    });
  }
});

Deno.test("TRACE_SCHEMA accepts each call shape the metrics read and refuses what they refuse", () => {
  const schema = compileSchema(TRACE_SCHEMA);
  const valid = (call: unknown) => schema.validate(trace({ tool_calls: [call] as never })).valid;
  const read = [
    { name: "f", arguments: { a: 1 }, result: [], error: null },
    { type: "function_call", call_id: "c", name: "f", arguments: "{}", status: "completed" },
    { id: "c", type: "function", function: { name: "f", arguments: "{}" } },
    { type: "tool_use", id: "t", name: "f", input: { a: 1 } },
    // As an Anthropic SDK dumps a response's block: who called, and a cache mark, not read.
    {
      type: "tool_use",
      id: "t",
      name: "f",
      input: { a: 1 },
      caller: { type: "direct" },
      cache_control: { type: "ephemeral" },
    },
    { name: "f", args: { a: 1 }, id: null, type: "tool_call" },
    // As the OpenAI SDK dumps a Responses item after .parse(), in no tool group.
    { type: "function_call", name: "f", arguments: "{}", parsed_arguments: {}, namespace: null },
  ];
  for (const call of read) {
    ok(valid(call), JSON.stringify(call));
    // And step_efficiency reads it: twice is one repeat.
    strictEqual(efficiency([call, call] as TraceToolCall[]).details!.duplicates, 1);
  }
  const refused = [
    { name: "f" }, // no arguments
    { name: "f", arguments: {}, input: {} },
    { name: "f", input: {}, args: {} },
    { function: { name: "f", arguments: "{}" }, name: "f", arguments: {} },
    { function: { name: "f", arguments: "{}" }, input: {} },
    { function: { name: "f" } },
    { name: "f", argument: {} },
    { type: "tool_use", name: "f", input: "{}" }, // Anthropic's input is an object
    { type: "computer_tool_use", id: "s", name: "f", input: {} }, // no call type it knows
    { type: "mcp_tool_use", id: "m", name: "f", input: {} }, // an MCP call without its server
    { name: "f", args: {}, id: "c", type: "invalid_tool_call" }, // LangChain: args did not parse
    { type: "function_call", name: "get", arguments: "{}", namespace: "crm" }, // crm's get, not get
  ];
  for (const call of refused) ok(!valid(call), JSON.stringify(call));
});

Deno.test("TRACE_SCHEMA accepts messages with a role or LangChain's type, as trajectory_match reads them", () => {
  const schema = compileSchema(TRACE_SCHEMA);
  const valid = (message: unknown) =>
    schema.validate({ ...trace({ tool_calls: [] }), messages: [message] }).valid;
  const calls = [{ name: "f", args: { a: 1 }, id: "c1", type: "tool_call" }];
  const read = [
    { role: "assistant", tool_calls: [] },
    { type: "ai", content: "", tool_calls: calls }, // LangChain's model_dump()
    { type: "ai", data: { type: "ai", content: "", tool_calls: calls } }, // messages_to_dict()
    { type: "human", content: "Hi" },
    { type: "tool", content: "42", tool_call_id: "c1" },
  ];
  for (const m of read) {
    ok(valid(m), JSON.stringify(m));
    trajectoryMatch([m as never], [m as never], { trajectory: "strict" });
  }
  // The schema's types are those the reader takes.
  const types = TRACE_SCHEMA.properties.messages.items.anyOf[1].properties.type.enum;
  for (const type of types) {
    ok(valid({ type }) && trajectoryMatch([{ type }], [{ type }], { trajectory: "strict" }).pass);
  }
  const refused = [{ type: "AIMessage", content: "" }, { content: "" }, { type: "message" }];
  for (const m of refused) {
    ok(!valid(m), JSON.stringify(m));
    throws(
      () => trajectoryMatch([m as never], [], { trajectory: "strict" }),
      (e: Error) =>
        e instanceof TypeError &&
        e.message.startsWith("reference[0] must be a message: ") &&
        e.message.endsWith(`LangChain's {type, ...} with type ${types.join(", ")}`),
    );
  }
  // A LangChain type stands for its role: ai is assistant, human is user; a chunk's type too.
  const chunked = [{ type: "HumanMessageChunk", content: "Hi" }, {
    type: "AIMessageChunk",
    content: "",
    tool_calls: calls,
  }];
  const dumped = [{ type: "human", content: "Hi" }, { type: "ai", content: "", tool_calls: calls }];
  const plain = [{ role: "user" }, {
    role: "assistant",
    tool_calls: [{ name: "f", arguments: { a: 1 } }],
  }];
  ok(trajectoryMatch(dumped as never, plain, { trajectory: "strict" }).pass);
  ok(trajectoryMatch(chunked as never, plain, { trajectory: "strict" }).pass);
  ok(!trajectoryMatch(dumped.reverse() as never, plain, { trajectory: "strict" }).pass);
});

// ---- hit_limit ------------------------------------------------------------------------

Deno.test("hitLimit() is 0 only when the limit was hit without an answer", () => {
  const table: [boolean, boolean, number][] = [
    [false, false, 1],
    [false, true, 1],
    [true, true, 1],
    [true, false, 0],
  ];
  for (const [hit_turn_limit, submitted, score] of table) {
    assertEquals(
      hitLimit({ golden: GOLDEN, trace: trace({ hit_turn_limit, submitted }), catalog: CATALOG }),
      {
        applicable: true,
        score,
        details: { hit_turn_limit, submitted },
      },
    );
  }
  throws(
    () =>
      hitLimit({ golden: GOLDEN, trace: trace({ submitted: "yes" as never }), catalog: CATALOG }),
    TypeError,
  );
});

Deno.test("stepEfficiency() writes object arguments with canonicalValue: NaN is not null", () => {
  const calls = [
    { name: "q", arguments: { n: NaN } },
    { name: "q", arguments: { n: null } },
    { name: "q", arguments: '{"n": NaN}' },
    { name: "q", arguments: { n: 1, m: undefined } },
    { name: "q", arguments: { n: 1 } },
  ] as TraceToolCall[];
  // JSON.stringify would have made 1 and 2 duplicates of 0, and 4 a duplicate of 3.
  assertEquals(efficiency(calls).details, { tool_calls: 5, duplicates: 1, duplicate_calls: [2] });
});
