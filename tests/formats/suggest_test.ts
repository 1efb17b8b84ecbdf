// suggestDecoder: which decoder a sample of a run's outputs wants, for the hint `assay score`
// gives when the engine's parser finds almost no call. Each API shape and chat template is named
// by its own decoder, outputs read as scoring reads them (strings, or JSON values as canonical
// text); a run the parser reads, or prose no decoder reads, gets no suggestion; and the rule
// (at least half, and twice the parser's count) holds on seeded mixes.
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { decodeToolCalls, suggestDecoder } from "../../src/formats/mod.ts";
import { createEngine, parseToolCall } from "../../src/engine/mod.ts";
import { makeRng } from "../_corpus.ts";

const enc = new TextEncoder();
const DIGEST = "0".repeat(64);
const lines = (outputs: unknown[]) =>
  enc.encode(
    outputs.map((output, i) =>
      JSON.stringify({ example_id: String(i), prompt_sha256: DIGEST, output })
    ).join("\n") + "\n",
  );

const chat = {
  role: "assistant",
  content: null,
  tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: '{"x": 1.0}' } }],
};
const SHAPES: [string, unknown][] = [
  ["openai-chat", { id: "chatcmpl-1", object: "chat.completion", choices: [{ message: chat }] }],
  ["openai-chat", JSON.stringify(chat)],
  ["openai-responses", [{ type: "function_call", call_id: "c", name: "f", arguments: "{}" }]],
  ["anthropic", {
    role: "assistant",
    content: [{ type: "text", text: "Sure." }, {
      type: "tool_use",
      id: "t",
      name: "f",
      input: { x: 1 },
    }],
  }],
  ["llama3", '<|python_tag|>{"name": "f", "parameters": {"x": 1}}'],
  ["mistral", '[TOOL_CALLS] [{"name": "f", "arguments": {"x": 1}}]'],
  ["pythonic", "[f(x=1.0, y='a')]"],
];

Deno.test("suggestDecoder names the decoder of outputs the engine's parser reads no call in", () => {
  for (const engine of [createEngine({ engine: "ts" }), createEngine({ engine: "wasm" })]) {
    for (const [format, output] of SHAPES) {
      const found = suggestDecoder(lines(Array(12).fill(output)), { engine });
      assertEquals(found, { sampled: 12, parsed: 0, best: { format, ok: 12 } }, format);
    }
  }
});

Deno.test("suggestDecoder suggests nothing for outputs the parser reads, nor for prose", () => {
  const call = '{"name": "f", "arguments": {"x": 1}}';
  for (const output of [call, `<tool_call>${call}</tool_call>`, `[${call}]`]) {
    strictEqual(suggestDecoder(lines(Array(5).fill(output))).best, undefined, output);
  }
  assertEquals(suggestDecoder(lines(Array(5).fill("I cannot help with that."))), {
    sampled: 5,
    parsed: 0,
  });
  assertEquals(suggestDecoder(new Uint8Array()), { sampled: 0, parsed: 0 });
});

Deno.test("suggestDecoder reads whole lines up to its limit, and skips a line it cannot read", () => {
  const chat1 = JSON.stringify({ example_id: "1", output: { choices: [{ message: chat }] } });
  const bytes = enc.encode(
    `${chat1}\n\n{"example_id": "2"}\nnot json\n[1]\n{"output": 7}\n${chat1}\n${
      chat1.slice(0, 30)
    }`,
  );
  assertEquals(suggestDecoder(bytes), {
    sampled: 2,
    parsed: 0,
    best: { format: "openai-chat", ok: 2 },
  });
  strictEqual(suggestDecoder(bytes, { lines: 1 }).sampled, 1);
  strictEqual(suggestDecoder(lines(Array(150).fill(JSON.stringify(chat)))).sampled, 100);
});

Deno.test("suggestDecoder's rule on seeded mixes: at least half, and twice what the parser reads", () => {
  const rng = makeRng(6161);
  const call = '{"name": "f", "arguments": {"x": 1}}';
  for (let t = 0; t < 60; t++) {
    const outputs: unknown[] = [];
    const n = 1 + rng.int(30);
    for (let i = 0; i < n; i++) {
      const r = rng.int(3);
      outputs.push(r === 0 ? SHAPES[0]![1] : r === 1 ? call : "No call here.");
    }
    const found = suggestDecoder(lines(outputs));
    const texts = outputs.map((o) => typeof o === "string" ? o : JSON.stringify(o));
    const parsed = texts.filter((o) => parseToolCall(o).status === "ok").length;
    const chatOk = texts.filter((o) => decodeToolCalls(o, "openai-chat").status === "ok").length;
    strictEqual(found.sampled, n);
    strictEqual(found.parsed, parsed);
    const wanted = chatOk > parsed && chatOk >= 2 * parsed && chatOk * 2 >= n;
    strictEqual(found.best?.format, wanted ? "openai-chat" : undefined, JSON.stringify(outputs));
  }
});

Deno.test("suggestDecoder refuses lines that are not a whole number of at least 1", () => {
  // 0, -1 and NaN sampled nothing and suggested nothing, in silence; 1.5 and "1" were taken.
  const bytes = new TextEncoder().encode('{"output": "x"}\n');
  for (const lines of [0, -1, NaN, 1.5, "1"]) {
    let error: unknown;
    try {
      suggestDecoder(bytes, { lines: lines as never });
    } catch (e) {
      error = e;
    }
    strictEqual(
      error instanceof RangeError &&
        error.message === `Option lines must be a whole number of at least 1, got ${lines}`,
      true,
      String(lines),
    );
  }
  strictEqual(suggestDecoder(bytes, { lines: 1 }).sampled, 1);
});
