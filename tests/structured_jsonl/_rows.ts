// Seeded, varied rows for the structured scoring tests: outputs with JSON (whole, fenced, embedded,
// broken), XML, Hermes tool-call blocks and plain text; tool calls in each shape the metrics read
// (a list, one call, a `function` wrapper, arguments as a JSON string); API results, checks and
// retention; expected rows with exact fields (1.0 kept apart from 1, big integers) and calls,
// written in another order than the outputs.
import type { Rng } from "../_corpus.ts";

/** A row's JSON text, with `"@1.0@"` written as the float literal 1.0. */
function line(row: unknown): string {
  return JSON.stringify(row).replaceAll('"@1.0@"', "1.0").replaceAll(
    '"@big@"',
    "12345678901234567890",
  );
}

/** Options of {@linkcode variedRows}. */
export interface VariedOptions {
  /** How many outputs. */
  count: number;
  /** Whether the rows have ids (without, expected rows are joined by line order). */
  ids?: boolean;
}

/** The outputs and expected JSONL texts. */
export interface VariedRows {
  outputs: string;
  expected: string;
  /** The outputs' ids, in order (empty without ids). */
  ids: string[];
}

const NAMES = ["search", "get_weather", "pay", "lookup"];

function args(rng: Rng): Record<string, unknown> {
  const pick = rng.int(5);
  if (pick === 0) return {};
  if (pick === 1) return { q: rng.pick(["assay", "café", "x"]) };
  if (pick === 2) return { amount: rng.pick([150, "@1.0@", 2.5, "@big@"]) };
  if (pick === 3) return { city: "Paris", days: rng.int(4) };
  return { nested: { a: [1, { b: null }], "k.dot": true } };
}

function call(rng: Rng): Record<string, unknown> {
  const name = rng.pick(NAMES);
  const a = args(rng);
  const shape = rng.int(4);
  if (shape === 0) return { name, arguments: JSON.stringify(a).replaceAll('"@1.0@"', "1.0") };
  if (shape === 1) return { type: "function", function: { name, arguments: a } };
  return { name, arguments: a };
}

function calls(rng: Rng): unknown {
  const n = rng.int(3);
  const list = Array.from({ length: n }, () => call(rng));
  return n === 1 && rng.chance(0.3) ? list[0] : list;
}

function hermes(rng: Rng, list: unknown): string {
  const entries = Array.isArray(list) ? list : [list];
  if (rng.chance(0.15)) return '<tool_call>{"name": "f", "arguments": {"x": </tool_call>';
  if (rng.chance(0.1)) return "No tool is needed.";
  return entries.map((c) => {
    const k = c as {
      name?: string;
      arguments?: unknown;
      function?: { name: string; arguments: unknown };
    };
    const name = k.function?.name ?? k.name;
    const a = k.function?.arguments ?? k.arguments;
    const object = typeof a === "string" ? JSON.parse(a) : a;
    return `<tool_call>\n${line({ name, arguments: object })}\n</tool_call>`;
  }).join("\n");
}

function output(rng: Rng, answer: number, list: unknown): string {
  switch (rng.int(10)) {
    case 0:
      return `{"answer": ${answer}, "user": {"name": "Ada"}}`;
    case 1:
      return "```json\n" + `{"answer": ${answer}.0}` + "\n```";
    case 2:
      return `Answer: ${answer} {"answer": ${answer}}`;
    case 3:
      return '{"answer": ';
    case 4:
      return `<r><answer>${answer}</answer></r>`;
    case 5:
    case 8:
    case 9:
      return hermes(rng, list);
    case 6:
      return `Answer: ${answer}`;
    default:
      return "plain text, é and \u{1F600}";
  }
}

/**
 * Writes `count` outputs and their expected rows. Ids are strings (some not ASCII) or numbers;
 * the expected rows are shuffled when the rows have ids.
 */
export function variedRows(rng: Rng, options: VariedOptions): VariedRows {
  const ids = options.ids ?? true;
  const outputs: string[] = [];
  const expected: string[] = [];
  const idList: string[] = [];
  for (let i = 0; i < options.count; i++) {
    const id = rng.pick([`r${i}`, `é-${i}`, `\u{1F600}${i}`, 1000 + i]);
    if (ids) idList.push(String(id));
    const answer = rng.int(50);
    const gold = calls(rng);
    // The gold calls, the same in another order (which only ordered selection tells apart), or
    // others.
    const predicted = rng.chance(0.4)
      ? gold
      : Array.isArray(gold) && gold.length > 1 && rng.chance(0.5)
      ? [...gold].reverse()
      : calls(rng);
    const out: Record<string, unknown> = {
      ...(ids && { id }),
      output: output(rng, answer, predicted),
      tool_calls: predicted,
      api_results: Array.from(
        { length: rng.int(3) },
        () => rng.pick([200, 404, true, false, { error: "timeout" }, { ok: true }]),
      ),
      checks: Array.from({ length: 1 + rng.int(3) }, () => rng.chance(0.6)),
      retention: rng.chance(0.5)
        ? [rng.chance(0.7), Array.from({ length: rng.int(3) }, () => rng.chance(0.6))]
        : { initial: rng.chance(0.7), later: [rng.chance(0.5)] },
    };
    outputs.push(line(out));
    const fields: Record<string, unknown> = { answer: rng.chance(0.3) ? "@1.0@" : answer };
    if (rng.chance(0.5)) fields["user.name"] = "Ada";
    expected.push(line({ ...(ids && { id }), fields, tool_calls: gold }));
  }
  if (ids) {
    for (let i = expected.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [expected[i], expected[j]] = [expected[j]!, expected[i]!];
    }
  }
  return { outputs: outputs.join("\n") + "\n", expected: expected.join("\n") + "\n", ids: idList };
}

/**
 * Asserts that two byte strings are equal, naming the first byte where they differ and the text
 * around it (an assertion's diff of two long arrays would take all of memory).
 */
export function assertSameBytes(actual: Uint8Array, expected: Uint8Array, what: string): void {
  const n = Math.min(actual.length, expected.length);
  let at = 0;
  while (at < n && actual[at] === expected[at]) at++;
  if (at === n && actual.length === expected.length) return;
  const around = (b: Uint8Array) =>
    JSON.stringify(new TextDecoder().decode(b.subarray(Math.max(0, at - 60), at + 60)));
  throw new Error(
    `${what}: the bytes differ at ${at} (lengths ${actual.length} and ${expected.length}):\n` +
      `  actual   ${around(actual)}\n  expected ${around(expected)}`,
  );
}

/**
 * A report's text without its `settings` block (recorded since 2026-12-06), so that a digest or a
 * golden file written before it still checks every other byte; the block must be there.
 */
export function withoutSettings(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes);
  const cut = text.replace(/\n {2}"settings": \{\n(?: {4}.*\n)+ {2}\},/, "");
  if (cut === text) throw new Error("The report has no settings block");
  return cut;
}

/**
 * A report's text without its rows' `reasons` (written since 2026-12-07, on the rows whose
 * predicted calls are invalid), so that a digest or a golden file written before them still checks
 * every other byte.
 */
export function withoutReasons(text: string): string {
  return text.replace(/\},\n {6}"reasons": \[\n(?: {8}".*\n)+ {6}\]\n/g, "}\n");
}
