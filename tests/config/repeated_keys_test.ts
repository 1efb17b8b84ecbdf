// repeatedKeys(): every key repeated in one object of a JSON or JSONC text, by decoded value, at
// any depth, checked by hand and against jsonc-parser's tree on 3,000 seeded texts that hide
// quotes, backslashes, brackets, commas and comment markers inside strings and comments.
import { deepStrictEqual } from "node:assert/strict";
import * as jsonc from "jsonc-parser";
import { parseJsonc, repeatedKeys } from "../../src/config/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";

const where = (text: string) => repeatedKeys(text).map((r) => [r.key, r.at, r.first]);
const pos = (line: number, column: number) => ({ line, column });

Deno.test("repeatedKeys() finds a repeat at any depth, by decoded key, in text order", () => {
  deepStrictEqual(repeatedKeys('{"id":"g1","expected":"a"}'), []);
  deepStrictEqual(where('{"id":"g1","expected":"a","expected":"b"}'), [
    ["expected", pos(1, 27), pos(1, 12)],
  ]);
  // Nested, in an array's object, and escaped (`\u0065` is `e`; `\\` and `\"` are keys too).
  deepStrictEqual(
    where(
      '{"a":{"b":1,"b":2},"c":[{"d":1},{"d":1,"\\u0064":2}],' +
        '"e\\\\":1,"e\\u005c":2,"\\"":0,"\\u0022":1}',
    ),
    [
      ["b", pos(1, 13), pos(1, 7)],
      ["d", pos(1, 40), pos(1, 34)],
      ["e\\", pos(1, 61), pos(1, 53)],
      ['"', pos(1, 80), pos(1, 73)],
    ],
  );
  // Equal keys in different objects, keys equal to values, and text inside strings are none.
  deepStrictEqual(repeatedKeys('[{"a":1},{"a":1}]'), []);
  deepStrictEqual(repeatedKeys('{"a":"a","b":{"a":"\\",\\"a\\":{"}}'), []);
  // Lone surrogates are kept apart, as JSON.parse keeps them.
  deepStrictEqual(repeatedKeys('{"\\ud800":1,"\\udc00":2}'), []);
  deepStrictEqual(where('{"\\ud800":1,"\\uD800":2}'), [["\ud800", pos(1, 13), pos(1, 2)]]);
  // Lines and columns in a file; JSONC comments hold no keys.
  deepStrictEqual(
    where('{\r\n  // "a": {\n  "a": 1, /* "a", } */\n  "b": [1,],\n  "a": 2,\n}'),
    [["a", pos(5, 3), pos(3, 3)]],
  );
});

Deno.test("parseJsonc() reports every repeat, the key cut short when long", () => {
  const long = "k".repeat(100);
  deepStrictEqual(parseJsonc(`{"${long}":1,"${long}":2}`), [
    { line: 1, column: 107, message: `Duplicate key "${"k".repeat(80)}\u2026" (first at 1:2)` },
  ]);
});

/** The repeats of a JSONC text as jsonc-parser's tree has its keys, by their offsets. */
function treeRepeats(text: string): [string, number, number][] {
  const tree = jsonc.parseTree(text, [], { allowTrailingComma: true })!;
  const out: [string, number, number][] = [];
  const stack = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const seen = new Map<string, number>();
    for (const child of node.children ?? []) {
      if (node.type === "object") {
        const [k, v] = child.children!;
        const first = seen.get(k!.value);
        if (first === undefined) seen.set(k!.value, k!.offset);
        else out.push([k!.value, k!.offset, first]);
        if (v) stack.push(v);
      } else {
        stack.push(child);
      }
    }
  }
  return out.sort((a, b) => a[1] - b[1]);
}

const KEYS = ["a", "b", "\\u0061", "\\\\", "\\u005c", '\\"', "{", "}", ",", ":", "//", "/*"];

function randomString(rng: Rng): string {
  return `"${Array.from({ length: rng.int(3) }, () => rng.pick(KEYS)).join("")}"`;
}

/** A key: mostly one of six that decode to three keys, so that objects often repeat one. */
function randomKey(rng: Rng): string {
  return rng.chance(0.8) ? `"${rng.pick(KEYS.slice(0, 6))}"` : randomString(rng);
}

function randomValue(rng: Rng, depth: number): string {
  const ws = () => rng.pick(["", " ", "\n", "\r\n", ' /* } " */ ', ' // { "a":\n']);
  const r = rng.int(depth > 3 ? 3 : 6);
  if (r === 0) return rng.pick(["1", "-0.5e3", "true", "null"]);
  if (r <= 2) return randomString(rng);
  const object = r <= 4;
  const items = Array.from({ length: rng.int(7) }, () => {
    const value = randomValue(rng, depth + 1);
    return object ? `${ws()}${randomKey(rng)}${ws()}:${ws()}${value}` : `${ws()}${value}`;
  });
  const body = items.join(",") + (items.length > 0 && rng.chance(0.2) ? "," : "") + ws();
  return object ? `{${body}}` : `[${body}]`;
}

Deno.test("repeatedKeys() finds what jsonc-parser's tree finds, on 3,000 seeded JSONC texts", () => {
  const rng = makeRng(20261213);
  let repeats = 0;
  for (let n = 0; n < 3000; n++) {
    const text = randomValue(rng, 0);
    const errors: jsonc.ParseError[] = [];
    jsonc.parseTree(text, errors, { allowTrailingComma: true });
    deepStrictEqual(errors, [], text);
    const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
    const at = (o: number) => {
      const line = starts.findLastIndex((s) => s <= o);
      return pos(line + 1, o - starts[line]! + 1);
    };
    const expected = treeRepeats(text).map(([k, o, f]) => [k, at(o), at(f)]);
    deepStrictEqual(where(text), expected, text);
    repeats += expected.length;
  }
  // The texts do repeat keys, often.
  deepStrictEqual(repeats > 1000, true, `${repeats} repeats`);
});
