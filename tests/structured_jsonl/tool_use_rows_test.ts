// Anthropic tool_use blocks in the rows of scoreStructuredJsonl: read as exactly as an object
// `arguments` is (a `1.0` stays a float, big integers keep their digits), among an Anthropic
// message's text and thinking blocks, and refused at their row when expected and malformed.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { createEngine } from "../../mod.ts";
import { scoreStructuredJsonl } from "../../src/structured_jsonl/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";

const enc = new TextEncoder();
const TS = createEngine({ engine: "ts" });
const lines = (rows: string[]) => enc.encode(rows.map((r) => r + "\n").join(""));

/** Argument texts that a JS object would not keep apart: 1 and 1.0, big integers. */
const ARGS = [
  '{"n": 1}',
  '{"n": 1.0}',
  '{"n": 1.50}',
  '{"big": 12345678901234567890123}',
  '{"big": 12345678901234567890124}',
  '{"q": "Z\\u00fcrich", "opts": {"k": [1, 2.0]}}',
  "{}",
];
const NAMES = ["f", "g"];
const NO_CALLS = [
  '{"type": "text", "text": "Let me look."}',
  '{"type": "thinking", "thinking": "Hmm.", "signature": "c2ln"}',
  '{"type": "redacted_thinking", "data": "ZW5j"}',
  '{"type": "web_search_tool_result", "tool_use_id": "s", "content": []}',
];
/** Refused blocks, and the invalid {name, arguments} call each stands for. */
const REFUSED = [
  '{"type": "tool_use", "id": "t", "name": "f", "input": "[1]"}',
  '{"type": "tool_use", "id": "t", "name": "f", "input": [1]}',
  '{"type": "tool_use", "name": "f", "input": {}, "citations": null}',
  '{"type": "server_tool_use", "id": "s", "name": "web_search", "input": {}}',
];
const INVALID = '{"name": "f", "arguments": "["}';

type Call = [name: string, args: string] | null;

const asString = ([name, args]: [string, string]) =>
  `{"name": "${name}", "arguments": ${JSON.stringify(args)}}`;

function asBlock(rng: Rng, [name, args]: [string, string]): string {
  const id = rng.chance(0.5) ? `"id": "toolu_${rng.int(9)}", ` : "";
  return `{"type": "tool_use", ${id}"name": "${name}", "input": ${args}}`;
}

function field(items: string[], calls: number, alone: boolean): string {
  return calls === 1 && items.length === 1 && alone ? items[0]! : `[${items.join(", ")}]`;
}

Deno.test("scoreStructuredJsonl() reads tool_use blocks exactly, as the same calls with string arguments", async () => {
  const rng = makeRng(5207);
  const ref = { outputs: [] as string[], expected: [] as string[] };
  const blocks = { outputs: [] as string[], expected: [] as string[] };
  for (let i = 0; i < 250; i++) {
    const pick = (): [string, string] => [rng.pick(NAMES), rng.pick(ARGS)];
    const exp: Call[] = Array.from({ length: rng.int(3) }, pick);
    const pred: Call[] = Array.from(
      { length: rng.int(4) },
      () => exp.length > 0 && rng.chance(0.6) ? [exp[0]![0], rng.pick(ARGS)] : pick(),
    );
    if (rng.chance(0.2)) pred.push(null);
    const alone = rng.chance(0.4);
    for (const [side, calls] of [["expected", exp], ["outputs", pred]] as const) {
      const refItems = calls.map((c) => c === null ? INVALID : asString(c));
      const items = calls.map((c) => c === null ? rng.pick(REFUSED) : asBlock(rng, c));
      const content = rng.chance(0.5);
      if (content) items.splice(rng.int(items.length + 1), 0, rng.pick(NO_CALLS));
      ref[side].push(`{"id": "r${i}", "tool_calls": ${field(refItems, calls.length, alone)}}`);
      blocks[side].push(
        `{"id": "r${i}", "tool_calls": ${field(items, calls.length, alone && !content)}}`,
      );
    }
  }
  const score = (files: { outputs: string[]; expected: string[] }, match: "exact" | "subset") =>
    scoreStructuredJsonl(
      { outputs: lines(files.outputs), expected: lines(files.expected) },
      { engine: TS, match },
    );
  for (const match of ["exact", "subset"] as const) {
    const want = (await score(ref, match)).report;
    const got = (await score(blocks, match)).report;
    deepStrictEqual(got.metrics, want.metrics, match);
    // The same figures, and reasons on the same rows (in other words: a refused block's, at its
    // place among the blocks, where the reference has an invalid string's).
    const figures = (rows: typeof want.rows) =>
      rows.map(({ reasons, ...row }) => ({ ...row, reasons: reasons?.length }));
    deepStrictEqual(figures(got.rows), figures(want.rows), match);
    const f1 = want.metrics.tool_call_f1!;
    ok(f1.numerator > 0 && f1.numerator < f1.denominator, JSON.stringify(f1));
    const invalid = (f1.details as { invalidCalls: number }).invalidCalls;
    ok(invalid > 20, `${invalid} invalid calls`);
  }
});

Deno.test("a tool_use block's input in a row keeps 1.0 a float and a big integer's digits", async () => {
  const block = (args: string) =>
    `[{"type": "tool_use", "id": "t", "name": "f", "input": ${args}}]`;
  const rows = (calls: string[]) =>
    lines(calls.map((c, i) => `{"id": "r${i}", "tool_calls": ${c}}`));
  const { report } = await scoreStructuredJsonl({
    outputs: rows([
      block('{"n": 1.0}'),
      block('{"b": 12345678901234567890124}'),
      block('{"n": 1}'),
    ]),
    expected: rows([
      '{"name": "f", "arguments": {"n": 1}}',
      '{"name": "f", "arguments": {"b": 12345678901234567890123}}',
      '{"name": "f", "arguments": {"n": 1}}',
    ]),
  }, { metrics: ["tool_argument_accuracy"] });
  const m = report.metrics.tool_argument_accuracy!;
  const invalid = (m.details as { invalidCalls: number }).invalidCalls;
  deepStrictEqual([m.numerator, m.denominator, invalid], [1, 3, 0]);
});

Deno.test("a malformed expected tool_use block is refused at its row, indexed in its list", async () => {
  const outputs = lines(['{"id": "a", "tool_calls": []}']);
  // Each reason after `field "tool_calls"`.
  const cases: [string, string][] = [
    // As an array arguments is: its exact text, which is no object.
    ['"input": []', "[1] has invalid arguments: they are not a JSON object"],
    ['"input": {}, "x": 1', '[1] is malformed: a tool_use block has an unknown key "x"'],
    ['"id": "t"', "[1] is malformed: a tool_use block has no input"],
  ];
  for (const [keys, reason] of cases) {
    const bad = `{"type": "tool_use", "name": "f", ${keys}}`;
    const expected = lines([`{"id": "a", "tool_calls": [{"type": "text", "text": "x"}, ${bad}]}`]);
    await rejects(
      scoreStructuredJsonl({ outputs, expected }, {
        metrics: ["tool_call_f1"],
        names: { expected: "e.jsonl" },
      }),
      (e: Error) => {
        strictEqual(
          e.message,
          `e.jsonl:1 (id "a"): tool_call_f1: field "tool_calls"${reason}`,
        );
        return true;
      },
    );
  }
});
