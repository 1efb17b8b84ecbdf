import {
  evaluatePrompt,
  IfevalInputError,
  officialLine,
  readIfevalInput,
  readIfevalResponses,
  runIfeval,
} from "../../src/ifeval/mod.ts";
import { deepStrictEqual as assertEquals, strictEqual, throws } from "node:assert/strict";

const row = (o: Record<string, unknown>) => JSON.stringify(o) + "\n";
const INPUT = {
  name: "in.jsonl",
  text: row({ key: 1, prompt: "A", instruction_id_list: ["punctuation:no_comma"], kwargs: [{}] }) +
    "\n" +
    row({ key: 2, prompt: "B", instruction_id_list: [], kwargs: [] }),
};

Deno.test("readIfevalInput() names the file, line and key of each bad line", () => {
  const cases: [string, string][] = [
    ["{", "in.jsonl:1: "],
    ['{"key": "1"}', 'in.jsonl:1: "key" must be an integer, got "1"'],
    ['{"key": 1.5}', 'in.jsonl:1: "key" must be an integer, got 1.5'],
    ['{"key": 9007199254740993}', 'in.jsonl:1: "key" must be an integer of at most 2^53 in size'],
    [
      '{"key": 1e400}',
      'in.jsonl:1: "key" must be an integer, got Infinity (a number past a double\'s range)',
    ],
    [
      '{"key": -1e400}',
      'in.jsonl:1: "key" must be an integer, got -Infinity (a number past a double\'s range)',
    ],
    ['{"prompt": "p"}', 'in.jsonl:1: "key" is missing'],
    ["[1]", 'in.jsonl:1: expected a JSON object, got "[1]"'],
    ["null", 'in.jsonl:1: expected a JSON object, got "null"'],
    ['{"key": 3, "prompt": 1}', 'in.jsonl:1 (key 3): "prompt" must be a string'],
    [
      '{"key": 3, "prompt": "p", "instruction_id_list": ["a"], "kwargs": []}',
      "in.jsonl:1 (key 3): 0 kwargs for 1 instructions",
    ],
    [
      '{"key": 3, "prompt": "p", "instruction_id_list": ["a:b"], "kwargs": [{}]}',
      'in.jsonl:1 (key 3): unknown instruction id "a:b"',
    ],
  ];
  for (const [text, start] of cases) {
    throws(() => readIfevalInput({ name: "in.jsonl", text }), (e: Error) => {
      strictEqual(e instanceof IfevalInputError, true);
      return e.message.startsWith(start);
    }, text);
  }
});

Deno.test("readIfevalResponses() matches by prompt, and names missing ones", () => {
  const inputs = readIfevalInput(INPUT);
  assertEquals(inputs.map((r) => r.line), [1, 3]);
  // The same response given again changes nothing.
  const text = row({ prompt: "B", response: "b" }) + row({ prompt: "A", response: "a" }) +
    row({ prompt: "B", response: "b" });
  assertEquals(readIfevalResponses({ name: "r.jsonl", text }, inputs), ["a", "b"]);
  throws(
    () =>
      readIfevalResponses(
        { name: "r.jsonl", text: row({ prompt: "A", response: "a" }) },
        inputs,
        INPUT.name,
      ),
    /: r\.jsonl: no response for the prompt of in\.jsonl:3 \(key 2\): "B"$/,
  );
  // Without the input file's name, it is "input"; with several missing, the count and the first.
  throws(
    () => readIfevalResponses({ name: "r.jsonl", text: "" }, inputs),
    /: r\.jsonl: no response for 2 of 2 prompts; the first is input:1 \(key 1\): "A"$/,
  );
  // runIfeval names the input file.
  throws(
    () => runIfeval({ input: INPUT, responses: { name: "r.jsonl", text: "" } }),
    /: r\.jsonl: no response for 2 of 2 prompts; the first is in\.jsonl:1 \(key 1\): "A"$/,
  );
  throws(
    () => readIfevalResponses({ name: "r.jsonl", text: row({ prompt: "A", response: 1 }) }, inputs),
    /r\.jsonl:1 \(key 1\): "response" must be a string, got 1$/,
  );
  throws(
    () => readIfevalResponses({ name: "r.jsonl", text: row({ prompt: "B" }) }, inputs),
    /r\.jsonl:1 \(key 2\): "response" is missing$/,
  );
});

Deno.test("readIfevalResponses() reads responses keyed by their prompt's key, and refuses a key that names no prompt or another", () => {
  const inputs = readIfevalInput(INPUT);
  const read = (...lines: Record<string, unknown>[]) => {
    try {
      return readIfevalResponses(
        { name: "r.jsonl", text: lines.map(row).join("") },
        inputs,
        "in.jsonl",
      );
    } catch (e) {
      if (!(e instanceof IfevalInputError)) throw e;
      return e.message.replace(/^.*?r\.jsonl/, "r.jsonl");
    }
  };
  // Google's script takes {prompt, response}; harnesses also write the key. Either, or both.
  assertEquals(read({ key: 2, response: "b" }, { key: 1, response: "a" }), ["a", "b"]);
  assertEquals(read({ key: 1, prompt: "A", response: "a" }, { prompt: "B", response: "b" }), [
    "a",
    "b",
  ]);
  strictEqual(
    read({ key: 1, prompt: "B", response: "a" }),
    'r.jsonl:1 (key 1): the prompt is not the one of key 1 (in.jsonl:1): "B"',
  );
  strictEqual(read({ key: 3, response: "a" }), "r.jsonl:1: key 3 is not a key of in.jsonl");
  strictEqual(
    read({ key: "1", response: "a" }),
    'r.jsonl:1: key "1" is not a key of in.jsonl (its keys are numbers)',
  );
  // A key and a prompt are one prompt: another response to it is refused as before.
  strictEqual(
    read({ key: 1, response: "a" }, { prompt: "A", response: "z" }),
    "r.jsonl:2 (key 1): the prompt of line 1 again, with another response (IFEval would score " +
      'only the last): "A"',
  );
  strictEqual(
    read({ key: 1, response: "a" }),
    'r.jsonl: no response for the prompt of in.jsonl:3 (key 2): "B"',
  );
});

Deno.test("runIfeval() fails an all-blank response and passes a prompt without instructions", () => {
  const run = runIfeval({
    input: INPUT,
    responses: {
      name: "r.jsonl",
      text: row({ prompt: "A", response: " \n " }) + row({ prompt: "B", response: "" }),
    },
  });
  assertEquals(run.strict.map((r) => r.follow_instruction_list), [[false], []]);
  assertEquals(run.loose.map((r) => r.follow_all_instructions), [false, true]);
  strictEqual(
    officialLine(run.strict[1]!),
    '{"follow_all_instructions": true, "follow_instruction_list": [], "instruction_id_list": [], "prompt": "B", "response": ""}',
  );
});

Deno.test("runIfeval() refuses an input file without a prompt: its accuracies would be 0 of 0", () => {
  for (const text of ["", "\n\n"]) {
    throws(
      () => runIfeval({ input: { name: "in.jsonl", text }, responses: { name: "r.jsonl", text } }),
      (e: unknown) =>
        e instanceof IfevalInputError && e.message === "in.jsonl: no prompt in the file",
    );
  }
});

Deno.test("readIfevalInput() refuses a key given twice, naming the line it first appeared on", () => {
  // The same prompt and instructions under one key: a comparison would pair the wrong prompts.
  const line = row({ key: 7, prompt: "P", instruction_id_list: [], kwargs: [] });
  const text = line + row({ key: 8, prompt: "Q", instruction_id_list: [], kwargs: [] }) + "\n" +
    line;
  throws(
    () => readIfevalInput({ name: "in.jsonl", text }),
    (e: unknown) =>
      e instanceof IfevalInputError && e.message === "in.jsonl:4: key 7 again (line 1)",
  );
});

Deno.test("readIfevalResponses() refuses a prompt given again with another response", () => {
  // IFEval's dictionary would keep "b2" and never score "b1".
  const text = row({ prompt: "B", response: "b1" }) + row({ prompt: "A", response: "a" }) +
    row({ prompt: "B", response: "b2" });
  throws(
    () => readIfevalResponses({ name: "r.jsonl", text }, readIfevalInput(INPUT)),
    (e: unknown) =>
      e instanceof IfevalInputError &&
      e.message ===
        'r.jsonl:3 (key 2): the prompt of line 1 again, with another response (IFEval would score only the last): "B"',
  );
});

Deno.test("runIfeval() drops a byte order mark as the CLI does, and words a malformed line", () => {
  const responses = {
    name: "r.jsonl",
    text: row({ prompt: "A", response: "a" }) + row({ prompt: "B", response: "b" }),
  };
  const results = (input: typeof INPUT, r: typeof responses) => {
    const run = runIfeval({ input, responses: r });
    return [run.inputs.map((x) => [x.key, x.line]), run.strict, run.loose];
  };
  const plain = results(INPUT, responses);
  const bom = (s: { name: string; text: string }) => ({ ...s, text: "\ufeff" + s.text });
  assertEquals(results(bom(INPUT), bom(responses)), plain);
  // CRLF lines too.
  const crlf = (s: { name: string; text: string }) => ({
    ...s,
    text: s.text.replaceAll("\n", "\r\n"),
  });
  assertEquals(results(crlf(INPUT), crlf(responses)), plain);
  // A BOM anywhere else is not JSON: the exact parser's code and offset, as assay score words it.
  throws(
    () => readIfevalInput({ name: "in.jsonl", text: INPUT.text + '\ufeff{"key": 2}' }),
    (e: unknown) =>
      e instanceof IfevalInputError &&
      e.message === 'in.jsonl:4: malformed JSON line "\ufeff{\\"key\\": 2}" (expecting_value at 0)',
  );
  throws(
    () => readIfevalInput({ name: "in.jsonl", text: '{"key": 1, "prompt": [1,}' }),
    (e: unknown) =>
      e instanceof IfevalInputError &&
      e.message ===
        'in.jsonl:1: malformed JSON line "{\\"key\\": 1, \\"prompt\\": [1,}" (expecting_value at 24)',
  );
});

Deno.test("readIfevalResponses() names the input prompt a response's differs from only in whitespace or normalization", () => {
  const input = {
    name: "in.jsonl",
    text: row({ key: 5, prompt: "Écris  un\npoème.", instruction_id_list: [], kwargs: [] }),
  };
  const inputs = readIfevalInput(input);
  const refusal = (prompt: unknown, extra: Record<string, unknown> = {}) => {
    try {
      readIfevalResponses(
        { name: "r.jsonl", text: row({ prompt, response: "x", ...extra }) },
        inputs,
        "in.jsonl",
      );
      return "accepted";
    } catch (e) {
      if (!(e instanceof IfevalInputError)) throw e;
      return e.message.replace(/^.*?r\.jsonl/, "r.jsonl");
    }
  };
  strictEqual(refusal("Écris  un\npoème."), "accepted");
  // IFEval matches prompts exactly, so these are refused, but the message says which prompt they
  // nearly are: a harness that strips prompts, rewraps them or writes them decomposed (NFD).
  const near = "r.jsonl:1: prompt not in the input file (it differs from the prompt of " +
    "in.jsonl:1 (key 5) only in whitespace or Unicode normalization): ";
  for (
    const prompt of [" Écris un poème. ", "Écris un\r\npoème.", "E\u0301cris  un\npoe\u0300me."]
  ) {
    strictEqual(refusal(prompt), near + JSON.stringify(prompt));
  }
  strictEqual(
    refusal("Écris un poème!"),
    'r.jsonl:1: prompt not in the input file: "Écris un poème!"',
  );
  strictEqual(refusal(undefined), 'r.jsonl:1: "prompt" is missing (give the prompt, or its "key")');
  strictEqual(refusal(5), 'r.jsonl:1: "prompt" must be a string');
});

Deno.test("evaluatePrompt() refuses a mode other than strict or loose, and a malformed prompt", () => {
  // A typo ("Strict") was read as loose: this response follows the instruction only loosely.
  const input = {
    key: 1,
    prompt: "p",
    instruction_id_list: ["startend:quotation"],
    kwargs: [{}],
  };
  const response = 'Sure:\n"Hello"';
  assertEquals(evaluatePrompt(input, response, "strict").follow_instruction_list, [false]);
  assertEquals(evaluatePrompt(input, response, "loose").follow_instruction_list, [true]);
  for (const [mode, shown] of [["Strict", '"Strict"'], ["", '""'], [undefined, "undefined"]]) {
    throws(() => evaluatePrompt(input, response, mode as never), {
      name: "RangeError",
      message: `mode must be "strict" or "loose", got ${shown}`,
    });
  }
  throws(() => evaluatePrompt(input, 5 as never, "strict"), {
    name: "TypeError",
    message: "The response must be a string, got number",
  });
  const bad: [unknown, string][] = [
    [null, "input (key undefined): a prompt must be an object"],
    [{ ...input, prompt: 1 }, 'input (key 1): "prompt" must be a string'],
    [
      { ...input, instruction_id_list: "x" },
      'input (key 1): "instruction_id_list" must be a list of strings',
    ],
    [{ ...input, kwargs: [] }, "input (key 1): 0 kwargs for 1 instructions"],
    [{ ...input, kwargs: [null] }, 'input (key 1): "kwargs" must be a list of objects'],
  ];
  for (const [p, message] of bad) {
    throws(() => evaluatePrompt(p as never, response, "strict"), {
      name: "IfevalInputError",
      message,
    });
  }
});

Deno.test("readIfevalInput() and readIfevalResponses() refuse a source without its text", () => {
  // A misspelled `text` was read as an empty file: no prompt, no error.
  for (const source of [{ name: "i", txt: "{}" }, "raw text", null, { text: "" }]) {
    for (const read of [readIfevalInput, (s: never) => readIfevalResponses(s, [])]) {
      throws(() => read(source as never), {
        name: "TypeError",
        message: "A source must be { name: string, text: string }",
      });
    }
  }
});
