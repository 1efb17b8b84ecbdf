// The decoders' section of the cross-runtime conformance: the nine decoders of
// `@assay/assay/formats` over outputs in each shape they read, made from the corpus's documents
// (valid JSON or not), and hostile ones: brackets past Python's 200, operator chains past the
// Python reader's limit, JSON nested past 512, lone surrogates. Every runtime and engine must
// decode them alike, to the reason's last character.
import type { Engine } from "../../mod.ts";
import { DECODER_NAMES, getDecoder } from "../../src/formats/mod.ts";
import { decodePromptResult } from "../../src/bfcl/mod.ts";

const q = JSON.stringify;

/** The shapes an output is written in, each around one document as a call's arguments. */
const SHAPES: ((doc: string) => string)[] = [
  (d) =>
    `{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", ` +
    `"function": {"name": "f", "arguments": ${q(d)}}}]}`,
  (d) => `[{"type": "function_call", "name": "f", "arguments": ${q(d)}, "call_id": "c1"}]`,
  (d) =>
    `[{"type": "text", "text": "ok"}, {"type": "tool_use", "id": "t", "name": "f", "input": ${d}}]`,
  (d) => `<tool_call>{"name": "f", "arguments": ${d}}</tool_call>`,
  (d) => `<|python_tag|>{"name": "f", "parameters": ${d}}`,
  (d) => `[TOOL_CALLS] [{"name": "f", "arguments": ${d}}]`,
  (d) => `[{"name": "f", "arguments": ${d}}]`,
  (d) => `[f(a=${d}, b=-1.5e3)]`,
  (d) => `Sure: {"name": "f", "arguments": ${d}}`,
];

/** Outputs no decoder may crash on, each read the same everywhere. */
const HOSTILE: string[] = [
  "[" + "[".repeat(199) + "]".repeat(199) + "]",
  "[" + "[".repeat(200) + "]".repeat(200) + "]",
  "[f(a=" + "(".repeat(5000) + "1" + ")".repeat(5000) + ")]",
  "[f(a=" + "-".repeat(994) + "1)]",
  "[f(a=" + "-".repeat(995) + "1)]",
  "[f(a=" + "not ".repeat(20000) + "1)]",
  "[f(a=" + "lambda: ".repeat(3000) + "1)]",
  "[f(a=1" + "+1".repeat(2983) + ")]",
  "[f(a=1" + "+1".repeat(2984) + ")]",
  "[" + "a.".repeat(100000) + "f(x=1)]",
  "[f(a=x" + "[0]".repeat(3000) + ")]",
  "[f(a=-(a:=1), b=-..., c=-x.y, d=-{k: 1 for k in y}, e=--1)]",
  '{"name": "f", "arguments": ' + "[".repeat(600) + "]".repeat(600) + "}",
  `<tool_call>{"name": "f", "arguments": {"s": "\\ud800"}}</tool_call>`,
  `{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{\\"a\\": 1e400}"}}]}`,
  // Names with letters newer than CPython 3.11's Unicode 14 (Garay 16.0, CJK extension J 17.0),
  // which the runtimes' tables hold or not, and a number before a character past ASCII.
  "[f(a\u{10D50}=1), g\u{323B0}(b=2)]",
  "[f(a=1\u20ac)]",
];

/** The section's inputs: each document in one shape (taken in turn), then the hostile outputs. */
export function formatsInputs(documents: readonly string[]): string[] {
  return [...documents.map((d, i) => SHAPES[i % SHAPES.length]!(d)), ...HOSTILE];
}

/** Each input decoded by each decoder, in DECODER_NAMES order. */
export function formatsSection(engine: Engine, inputs: readonly string[]): unknown[] {
  const decoders = DECODER_NAMES.map(getDecoder);
  return inputs.map((t) => decoders.map((d) => d.decode(t, { engine })));
}

/**
 * BFCL's readers of prompting models' Python, Java and JavaScript calls on the hostile outputs and
 * on nesting at their limits, which must be refused alike on every runtime (each has its own
 * stack; a reader that recursed past Node's would crash there only).
 */
export function bfclDepthSection(): unknown[] {
  const parens = (k: number) => `[f(a=${"(".repeat(k)}1${")".repeat(k)})]`;
  const texts = [
    ...HOSTILE,
    parens(199),
    parens(247),
    parens(248),
    `[f(a=${"c ? b : ".repeat(600)}1)]`,
    `[f(a=1${"+1".repeat(5000)})]`,
  ];
  const languages = ["Python", "Java", "JavaScript"] as const;
  return texts.map((t) => languages.map((l) => decodePromptResult(t, "gpt", l)));
}
