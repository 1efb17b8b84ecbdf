// A result line whose `result` is a provider's payload rather than what BFCL's handlers wrote
// (src/bfcl/_result_shape.ts): an OpenAI chat completion, message or tool call, a Responses
// function_call item, Anthropic blocks or message, a call object, an item of several keys. Each
// failed every entry's decoding (0 of N, exit 0); each is refused, naming the file, line and id.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { checkBfcl } from "../../src/bfcl/mod.ts";
import { InputError } from "../../src/jsonl/mod.ts";

const FN = {
  name: "f.g",
  parameters: { type: "dict", properties: { x: { type: "integer" } }, required: ["x"] },
};
const line = (o: unknown) => JSON.stringify(o) + "\n";

/** checkBfcl of a simple file of two entries, the second's result as given. */
function check(result: unknown) {
  const ids = ["simple_0", "simple_1"];
  return checkBfcl({
    questions: { name: "q.json", text: ids.map((id) => line({ id, function: FN })).join("") },
    answers: {
      name: "a.json",
      text: ids.map((id) => line({ id, ground_truth: { "f.g": { x: [1] } } })).join(""),
    },
    results: {
      name: "r.json",
      text: line({ id: "simple_0", result: [{ f_g: '{"x": 1}' }] }) +
        line({ id: "simple_1", result }),
    },
  }, { category: "simple", underscoreToDot: true });
}

const TOOL_CALL = {
  id: "call_1",
  type: "function",
  function: { name: "f_g", arguments: '{"x":1}' },
};
const TOOL_USE = { type: "tool_use", id: "toolu_1", name: "f_g", input: { x: 1 } };
const MESSAGE = { role: "assistant", content: null, tool_calls: [TOOL_CALL] };

const CASES: [string, unknown, string][] = [
  [
    "an OpenAI tool call",
    [TOOL_CALL],
    `result[0] is an OpenAI chat tool call ({type, id, function: {name, arguments}}). BFCL's ` +
    `handler wrote this one {"f_g": "{\\"x\\":1}"}`,
  ],
  ["an OpenAI message", MESSAGE, "the result is an OpenAI chat message."],
  [
    "an OpenAI completion",
    { object: "chat.completion", choices: [{ index: 0, message: MESSAGE }] },
    "the result is an OpenAI chat completion.",
  ],
  [
    "a Responses item",
    [{ type: "function_call", call_id: "c", name: "f_g", arguments: '{"x":1}' }],
    `result[0] is an OpenAI Responses function_call item. BFCL's handler wrote this one ` +
    `{"f_g": "{\\"x\\":1}"}`,
  ],
  [
    "an Anthropic block",
    [{ type: "text", text: "Calling." }, TOOL_USE],
    `result[0] is a "text" block. BFCL's handler wrote a text answer as the result's text`,
  ],
  [
    "an Anthropic tool_use",
    [TOOL_USE],
    `result[0] is an Anthropic tool_use block. BFCL's handler wrote this one {"f_g": "{\\"x\\": 1}"}`,
  ],
  ["an Anthropic message", { role: "assistant", content: [TOOL_USE] }, "an Anthropic message."],
  [
    "one call object",
    { name: "f_g", arguments: '{"x":1}' },
    `the result is an object, not a list of calls: a call object {name, arguments}`,
  ],
  [
    "an item of two calls",
    [{ f_g: '{"x":1}', h: '{"y":2}' }],
    "result[0] is an object of 2 keys, of which BFCL reads only the first as a call",
  ],
  [
    "arguments as an object",
    [{ f_g: { x: 1 } }],
    "result[0] is an object whose value is not the arguments' JSON text",
  ],
  [
    "arguments as an object after an empty object",
    [{}, { f_g: { x: 1 } }],
    "result[1] is an object whose value is not the arguments' JSON text",
  ],
  // Until 2026-12-07 one call outside a list was said to be "an object whose value is not the
  // arguments' JSON text", though its value is just that.
  [
    "one call outside a list",
    { f_g: '{"x":1}' },
    `the result is one call, not a list of calls. BFCL's handler wrote it in a list, ` +
    `[{"f_g": "{\\"x\\":1}"}]`,
  ],
  [
    "calls as the keys of one object",
    { f_g: '{"x":1}', h: "{}" },
    "the result is an object of 2 calls, not a list of calls. BFCL's handler wrote each as an " +
    "object {name: arguments} of its own, in a list",
  ],
  [
    "a chat message with text",
    { role: "assistant", content: "I cannot." },
    "the result is a chat message. BFCL's handler wrote its calls, each as {name: arguments}, " +
    "in a list, or its content when it made no call",
  ],
  ["an object of one key", { answer: 1 }, "the result is an object of 1 key, not a list of calls"],
];

for (const [what, result, words] of CASES) {
  Deno.test(`checkBfcl() refuses a result that is ${what}, naming the line and id`, () => {
    throws(() => check(result), (e) => {
      if (!(e instanceof InputError)) return false;
      strictEqual(
        e.message.startsWith(
          "r.json:2 (id simple_1): a BFCL result is a list of calls, each {name: arguments as " +
            "JSON text}, or the model's text, but ",
        ),
        true,
        e.message,
      );
      strictEqual(e.message.includes(words), true, e.message);
      return true;
    });
  });
}

Deno.test("checkBfcl() reads BFCL's own shapes of a result as before", () => {
  // A call, prose, an empty list or object, null and a non-object item are verdicts, as in BFCL.
  const verdicts = [[{ f_g: '{"x": 1}' }], "I cannot.", [], {}, null, ["f_g(x=1)"]].map((r) =>
    check(r).records[1]!.errorType ?? "pass"
  );
  strictEqual(
    verdicts.join(" "),
    "pass ast_decoder:decoder_failed simple_function_checker:wrong_count " +
      "simple_function_checker:wrong_count ast_decoder:decoder_failed ast_decoder:decoder_failed",
  );
});

/** checkBfcl of a relevance file of one entry, its result as given. */
const relevance = (result: unknown) =>
  checkBfcl({ results: { name: "r.json", text: line({ id: "relevance_0", result }) } }, {
    category: "relevance",
  }).records[0]!;

// Until 2026-12-07 an empty object in the list was refused as the harness's malformed line
// ("result[0] is an object whose value is not the arguments' JSON text"), exit 2. It is the
// model's output: BFCL's FC decoder takes the first key of each item, and an empty dict has
// none (IndexError), so decoding fails: relevance passes, the other categories fail the entry.
for (const result of [[{}], [{ f_g: '{"x": 1}' }, {}], [{}, { f_g: '{"x": 1}' }], [{}, null]]) {
  const shown = JSON.stringify(result);
  Deno.test(`checkBfcl() fails the decoding of ${shown} as BFCL's decoder does`, () => {
    const simple = check(result).records[1]!;
    strictEqual(simple.valid, false);
    strictEqual(simple.errorType, "ast_decoder:decoder_failed");
    deepStrictEqual(simple.error, [
      "Invalid syntax. Failed to decode AST. list index out of range",
    ]);
    const passed = relevance(result);
    strictEqual(passed.valid, true);
    strictEqual(passed.errorType ?? null, null);
    deepStrictEqual(passed.error ?? [], []);
  });
}

Deno.test("checkBfcl() fails [null] in simple and passes it in relevance, as [{}]", () => {
  strictEqual(check([null]).records[1]!.errorType, "ast_decoder:decoder_failed");
  strictEqual(relevance([null]).valid, true);
});
