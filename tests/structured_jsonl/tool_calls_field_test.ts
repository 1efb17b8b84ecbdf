// toolCallsField(): a list of calls is split into its items once, and each call's exact arguments
// are the text a lookup from the list's start finds at [i, ("function",) "arguments"].
import { deepStrictEqual, ok } from "node:assert/strict";
import { lookupCanonical, materialize, readExactObject } from "../../src/engine/mod.ts";
import { canonicalLiteral } from "../../src/structured/mod.ts";
import { type Loaded, type Row, toolCallsField } from "../../src/structured_jsonl/_rows.ts";
import { makeRng, randomJsonText, type Rng } from "../_corpus.ts";

const json = (rng: Rng) =>
  randomJsonText(rng, { mutationRate: 0, illegalRate: 0, deepRate: 0, maxNodes: 8 });

function callText(rng: Rng): string {
  const args = rng.chance(0.8) ? `{"k":${json(rng)},"n":1.0,"b":12345678901234567890}` : json(rng);
  const shape = rng.int(6);
  if (shape === 0) return `{"type":"function","function":{"name":"f","arguments":${args}}}`;
  if (shape === 1) return `{"function":${json(rng)},"arguments":${args},"name":"g"}`;
  if (shape === 2) return `{"name":"h","arguments":${JSON.stringify(args)}}`;
  if (shape === 3) return json(rng); // not a call: a string, a number, a list, an object
  return `{"id":"c","arguments":${args},"name":"x","extra":{"arguments":[1]}}`;
}

/** The calls as the old reading gave them: each call's arguments looked up from the list's start. */
function fromStart(canonical: string): unknown[] | unknown {
  const value = materialize(canonical);
  const calls = Array.isArray(value) ? value : [value];
  return calls.map((call, i) => {
    if (typeof call !== "object" || call === null || Array.isArray(call)) return call;
    const c = call as Record<string, unknown>;
    const fn = c.function;
    const inner = typeof fn === "object" && fn !== null && !Array.isArray(fn);
    const path = [
      ...(Array.isArray(value) ? [String(i)] : []),
      ...(inner ? ["function"] : []),
      "arguments",
    ];
    const args = (inner ? (fn as Record<string, unknown>) : c).arguments;
    if (typeof args !== "object" || args === null) return call;
    const exact = lookupCanonical(canonical, path, path.map(canonicalLiteral));
    const copy = { ...(inner ? (fn as Record<string, unknown>) : c), arguments: exact };
    return inner ? { ...c, function: copy } : copy;
  });
}

Deno.test("toolCallsField() reads each call's exact arguments as a lookup from the list's start", () => {
  const rng = makeRng(22407);
  const file = { name: "o.jsonl", rows: [], sha256: "", invalidUtf8: 0 } as unknown as Loaded;
  let compared = 0;
  for (let n = 0; n < 1500; n++) {
    const k = rng.int(7);
    const items = Array.from({ length: k }, () => callText(rng));
    const field = k === 1 && rng.chance(0.4) ? items[0]! : `[${items.join(",")}]`;
    const fields = readExactObject(`{"tool_calls":${field}}`);
    if (!(fields instanceof Map)) continue;
    const f = fields.get("tool_calls")!;
    if (f.kind !== "array" && f.kind !== "object") continue;
    const row: Row = { line: 1, id: "r", fields };
    deepStrictEqual(toolCallsField(file, row, "tool_calls", true), fromStart(f.canonical));
    compared++;
  }
  ok(compared > 1200, `${compared} rows compared`);
});
