// The suite's input readers (src/suite/inputs.ts, labels.ts): goldens, traces, catalog and labels
// from bytes or text, every problem a SuiteInputError naming its file, line and id as
// `assay suite run` and `assay calibrate` print them.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  type Golden,
  loadSuite,
  locateRunInputError,
  readCalibrationLabels,
  readCatalog,
  readGoldens,
  readTraces,
  RunInputError,
  runSuite,
  SuiteInputError,
} from "../../src/suite/mod.ts";
import { InputError, InvalidUtf8Error } from "../../src/jsonl/mod.ts";

const enc = (s: string) => new TextEncoder().encode(s);

/** Bytes of `before`, the byte 0xff, then `after`. */
const withBadByte = (before: string, after: string) =>
  new Uint8Array([...enc(before), 0xff, ...enc(after)]);

/** The SuiteInputError `f` throws, as [message, source, line, id]. */
function refusal(f: () => unknown): [string, string, number | undefined, string | undefined] {
  try {
    f();
  } catch (e) {
    ok(e instanceof SuiteInputError, String(e));
    ok(e instanceof InputError);
    strictEqual(e.name, "SuiteInputError");
    return [e.message, e.source, e.line, e.id];
  }
  throw new Error("nothing was thrown");
}

const golden = (id: string, more = "") => `{"id": ${JSON.stringify(id)}, "question": "q"${more}}`;
const trace = (golden_id: string, arm = "base", repeat = 0) =>
  JSON.stringify({
    golden_id,
    arm,
    repeat,
    tool_calls: [],
    sql: [],
    final_rows: null,
    final_answer: "42",
    submitted: true,
    hit_turn_limit: false,
  });
const GOLDENS: Golden[] = [{ id: "g1", question: "q" }, { id: "g2", question: "q" }];
const traceOptions = { source: "t.jsonl", goldens: GOLDENS, goldensSource: "g.jsonl" };

Deno.test("readGoldens reads bytes and text alike: a BOM, CRLF and blank lines, each row at its line", () => {
  const text = `\uFEFF${golden("g1")}\r\n\r\n   \n${golden("g2")}\r\n`;
  const want = [
    { value: { id: "g1", question: "q" }, line: 1 },
    { value: { id: "g2", question: "q" }, line: 4 },
  ];
  deepStrictEqual(readGoldens(text, { source: "g.jsonl" }), want);
  deepStrictEqual(readGoldens(enc(text), { source: "g.jsonl" }), want);
  deepStrictEqual(readGoldens(""), []);
});

Deno.test("readGoldens names the line and id of each kind of bad row", () => {
  const cases: [string | Uint8Array, [string, string, number | undefined, string | undefined]][] = [
    [
      `${golden("g1")}\n{"id": "g2", "question`,
      [
        'g.jsonl:2: malformed JSON line "{\\"id\\": \\"g2\\", \\"question" (unterminated_string at 13)',
        "g.jsonl",
        2,
        undefined,
      ],
    ],
    [
      `${golden("g1")}\n${golden("g2", ', "question": "again"')}`,
      ['g.jsonl:2:31 (id "g2"): Duplicate key "question" (first at 2:14)', "g.jsonl", 2, "g2"],
    ],
    // The id's own key repeated: which id was meant is the question, so none is named.
    [
      `${golden("g1", ', "id": "g9"')}`,
      ['g.jsonl:1:31: Duplicate key "id" (first at 1:2)', "g.jsonl", 1, undefined],
    ],
    [
      `\n${golden("g1", ', "expected_views": "orders"')}`,
      [
        'g.jsonl:2 (id "g1"): /expected_views: Expected array, got string',
        "g.jsonl",
        2,
        "g1",
      ],
    ],
    [
      `[1]`,
      [
        "g.jsonl:1: the line: Expected object, got array; JSONL is one JSON object per line, not " +
        "a JSON array",
        "g.jsonl",
        1,
        undefined,
      ],
    ],
    // An array on a later line is no JSON file given for JSONL: no hint.
    [
      `${golden("g1")}\n[1]`,
      ["g.jsonl:2: the line: Expected object, got array", "g.jsonl", 2, undefined],
    ],
    [
      `{"id": 7, "question": "q"}`,
      ["g.jsonl:1: /id: Expected string, got integer", "g.jsonl", 1, undefined],
    ],
    [
      `${golden("g1")}\r\n\r\n${golden("g2")}\r\n${golden("g1")}`,
      ['g.jsonl:4: duplicate golden id "g1" (first on line 1)', "g.jsonl", 4, "g1"],
    ],
  ];
  for (const [input, want] of cases) {
    deepStrictEqual(refusal(() => readGoldens(input, { source: "g.jsonl" })), want);
  }
});

Deno.test("readGoldens: invalid UTF-8 is refused at its line and byte, the decoder's error as cause", () => {
  const bytes = withBadByte(`${golden("g1")}\n{"id": "g`, `2", "question": "q"}\n`);
  try {
    readGoldens(bytes, { source: "g.jsonl" });
    throw new Error("nothing was thrown");
  } catch (e) {
    ok(e instanceof SuiteInputError, String(e));
    strictEqual(e.message, "g.jsonl:2: invalid UTF-8 at byte 9 of the line (byte 39 of the file)");
    deepStrictEqual([e.source, e.line, e.id], ["g.jsonl", 2, undefined]);
    ok(e.cause instanceof InvalidUtf8Error);
  }
});

Deno.test("readGoldens without a source names <input>", () => {
  deepStrictEqual(refusal(() => readGoldens("{")), [
    '<input>:1: malformed JSON line "{" (expecting_property_name at 1)',
    "<input>",
    1,
    undefined,
  ]);
});

Deno.test("readTraces reads bytes and text alike, each run at its line", () => {
  const text = `\uFEFF${trace("g1")}\r\n\n${trace("g2", "adapter", 2)}\r\n`;
  for (const input of [text, enc(text)]) {
    const rows = readTraces(input, traceOptions);
    deepStrictEqual(rows.map((r) => [r.value.golden_id, r.value.arm, r.value.repeat, r.line]), [
      ["g1", "base", 0, 1],
      ["g2", "adapter", 2, 3],
    ]);
  }
});

Deno.test("readTraces names the line and golden_id of each kind of bad run", () => {
  const cases: [string | Uint8Array, [string, string, number | undefined, string | undefined]][] = [
    ["", ["t.jsonl: no traces: the file has no runs to score", "t.jsonl", undefined, undefined]],
    [
      "\r\n \n",
      ["t.jsonl: no traces: the file has no runs to score", "t.jsonl", undefined, undefined],
    ],
    [
      `${trace("g1")}\n${trace("g3")}`,
      ['t.jsonl:2 (golden_id "g3"): no golden with this id in g.jsonl', "t.jsonl", 2, "g3"],
    ],
    [
      `${trace("g1", "overall")}`,
      [
        't.jsonl:1 (golden_id "g1"): arm "overall" is the name of all arms at once (a gate ' +
        "rule's slice: overall): rename the arm",
        "t.jsonl",
        1,
        "g1",
      ],
    ],
    [
      `${trace("g1")}\n${trace("g1", "adapter")}\n\n${trace("g1")}`,
      [
        't.jsonl:4 (golden_id "g1"): run (arm "base", repeat 0) already on line 1',
        "t.jsonl",
        4,
        "g1",
      ],
    ],
    [
      trace("g1").replace('"repeat":0', '"repeat":-1'),
      ['t.jsonl:1 (golden_id "g1"): /repeat: -1 is less than the minimum 0', "t.jsonl", 1, "g1"],
    ],
    [
      trace("g1").replace('"submitted":true', '"submitted":true,"submitted":false'),
      [
        't.jsonl:1:123 (golden_id "g1"): Duplicate key "submitted" (first at 1:106)',
        "t.jsonl",
        1,
        "g1",
      ],
    ],
    [
      withBadByte(`${trace("g1")}\n`, ""),
      [
        "t.jsonl:2: invalid UTF-8 at byte 0 of the line (byte 146 of the file)",
        "t.jsonl",
        2,
        undefined,
      ],
    ],
  ];
  for (const [input, want] of cases) {
    deepStrictEqual(refusal(() => readTraces(input, traceOptions)), want);
  }
  // A bad line is named before a missing golden on an earlier line: every line is read first.
  deepStrictEqual(refusal(() => readTraces(`${trace("g3")}\n{`, traceOptions))[2], 2);
  // The goldens' name defaults to "the goldens".
  deepStrictEqual(
    refusal(() => readTraces(trace("g3"), { goldens: GOLDENS }))[0],
    '<input>:1 (golden_id "g3"): no golden with this id in the goldens',
  );
});

Deno.test("readCatalog reads bytes and text, and names a bad catalog", () => {
  const text = '{"views": [\r\n  {"name": "orders", "columns": ["id"]}\r\n]}\r\n';
  const want = { views: [{ name: "orders", columns: ["id"] }] };
  deepStrictEqual(readCatalog(text), want);
  deepStrictEqual(readCatalog(enc(`\uFEFF${text}`), { source: "c.json" }), want);
  deepStrictEqual(readCatalog(`\uFEFF${text}`), want);
  const cases: [string | Uint8Array, [string, string, number | undefined, string | undefined]][] = [
    [
      '{"views": [',
      [
        "c.json:1:12: not valid JSON (expecting_value)",
        "c.json",
        1,
        undefined,
      ],
    ],
    // The contract's reader takes NaN, which JSON.parse refuses: said, with no place.
    [
      '{"views": [{"name": "v", "columns": [NaN]}]}',
      [
        "c.json: not valid JSON: NaN, Infinity and -Infinity are not JSON",
        "c.json",
        undefined,
        undefined,
      ],
    ],
    // The user's trailing comma: at the "}" where a property name was expected.
    [
      '{\n  "views": [\n    {"name": "orders", "columns": ["a"]}\n  ],\n}\n',
      [
        "c.json:5:1: not valid JSON (expecting_property_name)",
        "c.json",
        5,
        undefined,
      ],
    ],
    [
      '{"views": [\r\n  {"name": \'orders\', "columns": []}\r\n]}',
      [
        "c.json:2:12: not valid JSON (expecting_value)",
        "c.json",
        2,
        undefined,
      ],
    ],
    [
      enc('\uFEFF{"views": []} []'),
      [
        "c.json:1:15: not valid JSON (extra_data)",
        "c.json",
        1,
        undefined,
      ],
    ],
    [
      '{"views": [\n  {"name": "a", "columns": [], "name": "b"}\n]}',
      ['c.json:2:32: Duplicate key "name" (first at 2:4)', "c.json", 2, undefined],
    ],
    [
      '{"views": [{"name": "a", "columns": ["x", "x"]}]}',
      [
        "c.json: /views/0/columns: Items 0 and 1 are equal",
        "c.json",
        undefined,
        undefined,
      ],
    ],
    [
      withBadByte('{"views": [\n{"name": "', '"}]}'),
      [
        "c.json:2: invalid UTF-8 at byte 10 of the line (byte 22 of the file)",
        "c.json",
        2,
        undefined,
      ],
    ],
  ];
  for (const [input, want] of cases) {
    deepStrictEqual(refusal(() => readCatalog(input, { source: "c.json" })), want);
  }
});

Deno.test("readCalibrationLabels reads pairs from bytes or text, and runs through a lookup", () => {
  const text = '\uFEFF{"human": 1, "judge": 0.75}\r\n\r\n{"human": 0, "judge": 0}\r\n';
  const want = { pairs: [{ judge: 0.75, human: 1 }, { judge: 0, human: 0 }], skipped: 0 };
  deepStrictEqual(readCalibrationLabels(text), want);
  deepStrictEqual(readCalibrationLabels(enc(text)), want);
  const scores = new Map<string, number | null>([["g1", 0.5], ["g2", null]]);
  const run = (g: string, repeat = 0) =>
    `{"golden_id": "${g}", "arm": "base", "repeat": ${repeat}, "human": 1}`;
  const options = {
    source: "l.jsonl",
    judgeScore: (r: { golden_id: string; arm: string; repeat: number }) =>
      r.repeat === 0 ? scores.get(r.golden_id) : undefined,
    scoreName: "correctness",
    scoresIn: "the store",
  };
  deepStrictEqual(readCalibrationLabels(`${run("g1")}\n${run("g2")}`, options), {
    pairs: [{ judge: 0.5, human: 1 }],
    skipped: 1,
  });
  const cases: [string | Uint8Array, string, number][] = [
    [
      `${run("g1")}\n${run("g2")}\n${run("g1")}`,
      'l.jsonl:3: a second label for run ["g1","base",0] (the first is on line 1): each run is labelled once',
      3,
    ],
    [run("g1", 1), 'l.jsonl:1: no correctness score for run ["g1","base",1] in the store', 1],
    ['{"golden_id": "g1", "arm": "base", "human": 1}', 'l.jsonl:1: missing field "repeat"', 1],
    [
      '{"golden_id": "g1", "arm": 2, "repeat": 0, "human": 1}',
      'l.jsonl:1: "arm" must be a string, got number',
      1,
    ],
    [
      '{"golden_id": "g1", "arm": "a", "repeat": 1.5, "human": 1}',
      'l.jsonl:1: "repeat" must be an integer ≥ 0, got 1.5',
      1,
    ],
    [
      '{"golden_id": "g1", "arm": "a", "repeat": 0, "human": 2}',
      'l.jsonl:1: "human" must be a finite number in [0, 1], got 2',
      1,
    ],
  ];
  for (const [input, message, line] of cases) {
    deepStrictEqual(refusal(() => readCalibrationLabels(input, options)), [
      message,
      "l.jsonl",
      line,
      undefined,
    ]);
  }
});

Deno.test("readCalibrationLabels names the line of a label that is not one", () => {
  const cases: [string | Uint8Array, string, number][] = [
    ['{"human": 1, "judge": 1}\n[1]', 'l.jsonl:2: expected a JSON object, got "[1]"', 2],
    ['{"human": 1', 'l.jsonl:1: malformed JSON line "{\\"human\\": 1" (expecting_comma at 11)', 1],
    // NaN, which the exact parser reads (as Python does), is not JSON: said so.
    [
      '{"human": NaN}',
      'l.jsonl:1: malformed JSON line "{\\"human\\": NaN}" (NaN and Infinity are not JSON)',
      1,
    ],
    [
      '{"human": 1, "judge": 1, "human": 0}',
      'l.jsonl:1:26: Duplicate key "human" (first at 1:2)',
      1,
    ],
    ['{"judge": 1}', 'l.jsonl:1: missing field "human"', 1],
    ['{"human": 1, "judge": "1"}', 'l.jsonl:1: "judge" must be a number, got string', 1],
    [
      withBadByte('{"human": 1, "judge": 1}\r\n{"human": 1, "judge": 1, "note": "', '"}'),
      "l.jsonl:2: invalid UTF-8 at byte 34 of the line (byte 60 of the file)",
      2,
    ],
  ];
  for (const [input, message, line] of cases) {
    deepStrictEqual(refusal(() => readCalibrationLabels(input, { source: "l.jsonl" })), [
      message,
      "l.jsonl",
      line,
      undefined,
    ]);
  }
});

Deno.test("locateRunInputError puts runSuite's unreadable golden at its line in the goldens file", async () => {
  const text = `${golden("g1")}\n\n${
    golden("g2", ', "reference_trajectory": [{"arguments": {}}]')
  }\n`;
  const goldens = readGoldens(text, { source: "g.jsonl" });
  const values = goldens.map((r) => r.value);
  const traces = readTraces(`${trace("g2")}\n${trace("g1")}\n`, { goldens: values });
  const suite = loadSuite("- type: trajectory_match\n  params: {trajectory: unordered}\n");
  const error = await runSuite(suite, {
    goldens: values,
    traces: traces.map((r) => r.value),
    catalog: { views: [] },
  }, { noJudge: true }).catch((e) => e);
  ok(error instanceof RunInputError, String(error));
  const located = locateRunInputError(error, {
    goldens,
    traces,
    goldensSource: "g.jsonl",
    tracesSource: "t.jsonl",
  });
  ok(located instanceof SuiteInputError);
  strictEqual(located.cause, error);
  deepStrictEqual([located.message, located.source, located.line, located.id], [
    `g.jsonl:3: ${error.message}`,
    "g.jsonl",
    3,
    "g2",
  ]);
});

Deno.test("locateRunInputError puts a trace's error at the line of its run (golden, arm and repeat), else at its file", () => {
  const text = [trace("g1"), trace("g1", "adapter"), trace("g1", "adapter", 1)].join("\n");
  const traces = readTraces(text, traceOptions);
  const goldens = readGoldens(`${golden("g1")}\n`);
  const rows = { goldens, traces, goldensSource: "g.jsonl", tracesSource: "t.jsonl" };
  const at = (run?: { golden_id: string; arm: string; repeat: number }) => {
    const e = locateRunInputError(new RunInputError("trace", "tool_calls[0]: bad", { run }), rows);
    return [e.message, e.source, e.line, e.id];
  };
  const run = (arm: string, repeat: number) => ({ golden_id: "g1", arm, repeat });
  deepStrictEqual(at(run("adapter", 0)), ["t.jsonl:2: tool_calls[0]: bad", "t.jsonl", 2, "g1"]);
  deepStrictEqual(at(run("adapter", 1)), ["t.jsonl:3: tool_calls[0]: bad", "t.jsonl", 3, "g1"]);
  // A run the rows do not hold, and an error that names no run: the file, without a line.
  deepStrictEqual(at(run("base", 1)), ["t.jsonl: tool_calls[0]: bad", "t.jsonl", undefined, "g1"]);
  deepStrictEqual(at(), ["t.jsonl: tool_calls[0]: bad", "t.jsonl", undefined, undefined]);
  const unnamed = locateRunInputError(new RunInputError("golden", "bad"), { goldens, traces });
  strictEqual(unnamed.message, "<input>: bad");
});

// A key that misspells a field the line does not give is refused with the field meant: the
// schemas let other keys through as the user's metadata, so a misspelt optional field passed and
// its metric skipped the row. The rule is narrow on purpose: ordinary metadata keys pass.
const goldenWith = (more: Record<string, unknown>) =>
  JSON.stringify({ id: "g1", question: "q", ...more });
const traceWith = (more: Record<string, unknown>, drop?: string) => {
  const t: Record<string, unknown> = { ...JSON.parse(trace("g1")), ...more };
  if (drop !== undefined) delete t[drop];
  return JSON.stringify(t);
};
const hintOptions = { source: "t.jsonl", goldens: GOLDENS };

const why = "too close to a field the line does not give to be read as metadata";

Deno.test("readGoldens refuses a misspelt field at its line and id, with the field meant", () => {
  const cases: [Record<string, unknown>, string, string][] = [
    // Each optional field, one or two edits away, in the line's case, `_` and `-` or not.
    [{ expected_view: ["orders"] }, "expected_view", "expected_views"],
    [{ expectedViews: ["orders"] }, "expectedViews", "expected_views"],
    [{ reference_value: { n: 1 } }, "reference_value", "reference_values"],
    [{ "Reference-Values": { n: 1 } }, "Reference-Values", "reference_values"],
    [{ reference_answr_text: "1" }, "reference_answr_text", "reference_answer_text"],
    [{ referenceAnswerText: "1" }, "referenceAnswerText", "reference_answer_text"],
    [{ refrence_trajectory: [] }, "refrence_trajectory", "reference_trajectory"],
    [{ reference_trajectroy: [] }, "reference_trajectroy", "reference_trajectory"],
    [{ REFERENCE_TRAJECTORY: [] }, "REFERENCE_TRAJECTORY", "reference_trajectory"],
  ];
  for (const [more, key, field] of cases) {
    const text = `${goldenWith({})}\n\n${goldenWith(more).replace('"g1"', '"g2"')}\n`;
    deepStrictEqual(refusal(() => readGoldens(text, { source: "g.jsonl" })), [
      `g.jsonl:3 (id "g2"): unknown field "${key}" (did you mean "${field}"?), ${why}`,
      "g.jsonl",
      3,
      "g2",
    ]);
  }
  // A required field's variant is named as such, not as the field missing.
  deepStrictEqual(
    refusal(() => readGoldens('{"id": "g1", "Question": "q"}', { source: "g.jsonl" }))[0],
    `g.jsonl:1 (id "g1"): unknown field "Question" (did you mean "question"?), ${why}`,
  );
  // The line's first such key is named, and a line without an id is named by its line.
  deepStrictEqual(
    refusal(() => readGoldens('{"ID": "g1", "question": "q", "expected_view": []}')),
    ['<input>:1: unknown field "ID" (did you mean "id"?), ' + why, "<input>", 1, undefined],
  );
});

Deno.test("readTraces refuses a misspelt field at its line and golden_id, with the field meant", () => {
  const cases: [string, string, string][] = [
    [traceWith({ Messages: [] }), "Messages", "messages"],
    [traceWith({ messagess: [] }), "messagess", "messages"],
    [traceWith({ tool_call: [] }, "tool_calls"), "tool_call", "tool_calls"],
    [traceWith({ "hit-turn-limit": false }, "hit_turn_limit"), "hit-turn-limit", "hit_turn_limit"],
    [traceWith({ hit_turn_limt: false }, "hit_turn_limit"), "hit_turn_limt", "hit_turn_limit"],
    [traceWith({ finalAnswer: "42" }, "final_answer"), "finalAnswer", "final_answer"],
  ];
  for (const [line, key, field] of cases) {
    deepStrictEqual(refusal(() => readTraces(`${trace("g2")}\n${line}`, hintOptions)), [
      `t.jsonl:2 (golden_id "g1"): unknown field "${key}" (did you mean "${field}"?), ${why}`,
      "t.jsonl",
      2,
      "g1",
    ]);
  }
});

Deno.test("a key close to a field the line gives too is the line's own", () => {
  const g = goldenWith({ expected_views: ["orders"], expected_view: "orders", Expected_Views: 1 });
  strictEqual(readGoldens(g)[0]!.value.expected_views![0], "orders");
  const t = traceWith({ messages: [], messagess: 1, Messages: 2, tool_call: 3 });
  strictEqual(readTraces(t, hintOptions).length, 1);
});

// Metadata keys a user plausibly keeps on a golden or a trace, some of them a few edits from a
// field (passages, submitted_at, reference_answer, expected_values, final_score): none is refused.
const GOLDEN_METADATA = [
  "notes",
  "source",
  "difficulty",
  "tags",
  "meta",
  "metadata",
  "category",
  "sub_category",
  "language",
  "question_id",
  "questions_asked",
  "topic",
  "cluster",
  "split",
  "dataset",
  "author",
  "created_at",
  "updated_at",
  "version",
  "priority",
  "reference",
  "references",
  "reference_answer",
  "reference_sql",
  "reference_url",
  "reference_rows",
  "reference_rules",
  "expected",
  "expected_sql",
  "expected_output",
  "expected_answer",
  "expected_values",
  "expected_tables",
  "expected_tools",
  "message",
  "passages",
];
const TRACE_METADATA = [
  ...GOLDEN_METADATA,
  "model",
  "latency_ms",
  "cost_usd",
  "trace_id",
  "run_id",
  "session_id",
  "timestamp",
  "submitted_at",
  "error",
  "errors",
  "usage",
  "tokens",
  "status",
  "final_score",
  "final_sql",
  "final_answer_text",
  "tool_results",
  "tool_errors",
  "sql_errors",
  "hit_limit",
  "turns",
];

Deno.test("ordinary metadata keys pass on goldens and traces, each alone and all at once", () => {
  const all = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, k]));
  for (const key of GOLDEN_METADATA) {
    strictEqual(readGoldens(goldenWith({ [key]: 1 }))[0]!.value.id, "g1", key);
  }
  strictEqual(readGoldens(goldenWith(all(GOLDEN_METADATA))).length, 1);
  for (const key of TRACE_METADATA) {
    strictEqual(readTraces(traceWith({ [key]: 1 }), hintOptions).length, 1);
  }
  strictEqual(readTraces(traceWith(all(TRACE_METADATA)), hintOptions).length, 1);
});
