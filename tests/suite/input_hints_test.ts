// A goldens or traces line's key that misspells a field the line does not give is refused with
// the field it is closest to (readGoldens, readTraces): the schemas let other keys through as the
// user's metadata, so a misspelt optional field used to pass and its metric skipped the row. The
// rule is narrow on purpose: ordinary metadata keys pass, listed below.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { type Golden, readGoldens, readTraces, SuiteInputError } from "../../src/suite/mod.ts";

const GOLDENS: Golden[] = [{ id: "g1", question: "q" }];
const options = { source: "t.jsonl", goldens: GOLDENS };

const golden = (more: Record<string, unknown>) =>
  JSON.stringify({ id: "g1", question: "q", ...more });
const TRACE = {
  golden_id: "g1",
  arm: "base",
  repeat: 0,
  tool_calls: [],
  sql: [],
  final_rows: null,
  final_answer: "42",
  submitted: true,
  hit_turn_limit: false,
};
const trace = (more: Record<string, unknown>, drop?: string) => {
  const t: Record<string, unknown> = { ...TRACE, ...more };
  if (drop !== undefined) delete t[drop];
  return JSON.stringify(t);
};

/** The SuiteInputError `f` throws, as [message, source, line, id]. */
function refusal(f: () => unknown): [string, string, number | undefined, string | undefined] {
  try {
    f();
  } catch (e) {
    ok(e instanceof SuiteInputError, String(e));
    return [e.message, e.source, e.line, e.id];
  }
  throw new Error("nothing was thrown");
}

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
    const text = `${golden({})}\n\n${golden(more).replace('"g1"', '"g2"')}\n`;
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
    [trace({ Messages: [] }), "Messages", "messages"],
    [trace({ messagess: [] }), "messagess", "messages"],
    [trace({ tool_call: [] }, "tool_calls"), "tool_call", "tool_calls"],
    [trace({ "hit-turn-limit": false }, "hit_turn_limit"), "hit-turn-limit", "hit_turn_limit"],
    [trace({ hit_turn_limt: false }, "hit_turn_limit"), "hit_turn_limt", "hit_turn_limit"],
    [trace({ finalAnswer: "42" }, "final_answer"), "finalAnswer", "final_answer"],
  ];
  for (const [line, key, field] of cases) {
    deepStrictEqual(refusal(() => readTraces(`${trace({})}\n${line}`, options)), [
      `t.jsonl:2 (golden_id "g1"): unknown field "${key}" (did you mean "${field}"?), ${why}`,
      "t.jsonl",
      2,
      "g1",
    ]);
  }
});

Deno.test("a key close to a field the line gives too is the line's own", () => {
  const g = golden({ expected_views: ["orders"], expected_view: "orders", Expected_Views: 1 });
  strictEqual(readGoldens(g)[0]!.value.expected_views![0], "orders");
  const t = trace({ messages: [], messagess: 1, Messages: 2, tool_call: 3 });
  strictEqual(readTraces(t, options).length, 1);
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
    strictEqual(readGoldens(golden({ [key]: 1 }))[0]!.value.id, "g1", key);
  }
  strictEqual(readGoldens(golden(all(GOLDEN_METADATA))).length, 1);
  for (const key of TRACE_METADATA) strictEqual(readTraces(trace({ [key]: 1 }), options).length, 1);
  strictEqual(readTraces(trace(all(TRACE_METADATA)), options).length, 1);
});
