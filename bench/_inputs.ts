// Deterministic benchmark inputs, shared by engine_bench.ts (which times them)
// and report.ts (which needs their sizes to turn times into MB/s).

import { rng } from "../tests/conformance/_corpus.ts";

/** The input sizes of the per-size groups, in UTF-8 bytes. */
export const SIZES: readonly { label: string; bytes: number }[] = [
  { label: "256B", bytes: 256 },
  { label: "4KB", bytes: 4 * 1024 },
  { label: "64KB", bytes: 64 * 1024 },
  { label: "1MB", bytes: 1024 * 1024 },
];

/** Outputs in the tool-call batch, and the approximate size of each. */
export const BATCH_COUNT = 10_000;
export const BATCH_ITEM_BYTES = 500;

const encoder = new TextEncoder();

/** UTF-8 length of a text. */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

const WORDS = [
  "alpha",
  "beta",
  "gamma",
  "delta",
  "café",
  "naïve",
  "東京",
  "emoji 😀",
  "x",
];

/** One record of realistic argument JSON: keys, strings with escapes, ints, floats, nesting. */
function record(next: () => number, i: number): string {
  const w = () => WORDS[Math.floor(next() * WORDS.length)]!;
  const score = (Math.floor(next() * 1_000_000) / 4096).toString();
  return `{"id": ${i}, "name": "item-${i} ${w()}", "score": ${score}, "ratio": 1.0, ` +
    `"tags": ["${w()}", "${w()}"], "ok": ${next() < 0.5}, "note": null, ` +
    `"meta": {"path": "a\\\\b\\"c\\n", "big": 123456789012345678901234567890, "exp": 1.5e-7}}`;
}

/**
 * A JSON document of exactly `bytes` UTF-8 bytes (at least 64): an object
 * holding an array of records, then small items, then JSON whitespace.
 */
export function jsonDocument(bytes: number, seed = 1): string {
  const next = rng(seed);
  const head = '{"query": "benchmark", "limit": 10, "items": [';
  const tail = "]}";
  const parts: string[] = [];
  let size = utf8Length(head) + utf8Length(tail);
  let full = true;
  for (let i = 0;; i++) {
    const sep = i > 0 ? ", " : "";
    // Whole records while they fit, then small ones and short strings to fill the rest.
    let item = full ? sep + record(next, i) : "";
    if (!full || size + utf8Length(item) > bytes) {
      full = false;
      item = `${sep}{"id": ${i}, "score": 0.5, "tag": "é"}`;
      if (size + utf8Length(item) > bytes) item = `${sep}"v${i}"`;
      if (size + utf8Length(item) > bytes) break;
    }
    parts.push(item);
    size += utf8Length(item);
  }
  return head + parts.join("") + " ".repeat(Math.max(0, bytes - size)) + tail;
}

/** A model output of about `bytes` bytes: prose, then a JSON span, then prose. */
export function spanText(bytes: number, seed = 2): string {
  const prefix = "Sure! I'll call the tool with these arguments (see below):\n```json\n";
  const suffix = "\n```\nLet me know if you need anything else.";
  const budget = bytes - utf8Length(prefix) - utf8Length(suffix);
  return prefix + jsonDocument(Math.max(budget, 64), seed) + suffix;
}

const NAMES = ["search", "get_weather", "send_email", "create_event", "calc"];
const PROSE = [
  "Sure, calling the tool:\n",
  "```json\n",
  "I'll look that up for you. ",
  "",
  "Thought: I need the tool.\nAction: ",
];

/**
 * A batch of tool-call outputs of about `itemBytes` bytes each, mostly valid,
 * with some invalid JSON, wrong shapes and outputs with no JSON.
 */
export function toolCallBatch(
  count = BATCH_COUNT,
  itemBytes = BATCH_ITEM_BYTES,
  seed = 3,
): string[] {
  const next = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = NAMES[Math.floor(next() * NAMES.length)]!;
    const prose = PROSE[Math.floor(next() * PROSE.length)]!;
    const members: string[] = [];
    // Members until the output reaches about `itemBytes`.
    let size = utf8Length(prose) + 36 + name.length;
    for (let k = 0; size < itemBytes - 8; k++) {
      const v = k % 5 === 0
        ? `"${WORDS[Math.floor(next() * WORDS.length)]} ${i}"`
        : k % 5 === 1
        ? String(Math.floor(next() * 100_000))
        : k % 5 === 2
        ? (Math.floor(next() * 1_000_000) / 1024).toString()
        : k % 5 === 3
        ? `[${Math.floor(next() * 10)}, true, null]`
        : `{"unit": "celsius", "days": ${Math.floor(next() * 14)}}`;
      const m = `"arg_${k}": ${v}`;
      members.push(m);
      size += utf8Length(m) + 2;
    }
    let call = `{"name": "${name}", "arguments": {${members.join(", ")}}}`;
    const roll = next();
    if (roll < 0.05) call = call.slice(0, call.length - 7); // truncated
    else if (roll < 0.08) call = call.replace('"arguments"', '"args"'); // wrong shape
    else if (roll < 0.1) call = "I can't do that."; // no JSON
    out.push(prose + call + (next() < 0.5 ? "\n```" : ""));
  }
  return out;
}

/** One benchmark group: the same texts through both engines. */
export interface BenchGroup {
  /** The `Deno.bench` group name, e.g. `span 4KB`. */
  group: string;
  /** Which API the group times. */
  kind: "span" | "canonical" | "batch" | "crossing";
  /** The batch passed per iteration. */
  texts: string[];
  /** UTF-8 bytes per iteration (0 for the crossing baseline). */
  bytes: number;
}

/** Every group of bench/engine_bench.ts, in order, with its inputs. */
export function benchGroups(): BenchGroup[] {
  const groups: BenchGroup[] = [];
  const sum = (texts: string[]) => texts.reduce((n, t) => n + utf8Length(t), 0);
  groups.push({ group: "crossing", kind: "crossing", texts: [], bytes: 0 });
  for (const { label, bytes } of SIZES) {
    const texts = [spanText(bytes)];
    groups.push({
      group: `span ${label}`,
      kind: "span",
      texts,
      bytes: sum(texts),
    });
  }
  for (const { label, bytes } of SIZES) {
    const texts = [jsonDocument(bytes)];
    groups.push({
      group: `canonical ${label}`,
      kind: "canonical",
      texts,
      bytes: sum(texts),
    });
  }
  const batch = toolCallBatch();
  groups.push({
    group: `tool calls ${BATCH_COUNT}x${BATCH_ITEM_BYTES}B`,
    kind: "batch",
    texts: batch,
    bytes: sum(batch),
  });
  return groups;
}
