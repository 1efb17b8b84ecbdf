// scoreJsonl({allowMissing}) and scoreToolCalls: a partial run is scored on the examples that
// have a generation, the others listed; the strict default refuses it; a run that misses none
// gives the strict report byte for byte, on both engines.
import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import { InvariantViolation, scoreJsonl, scoreToolCalls } from "../../mod.ts";
import { ENGINES } from "../_engines.ts";
import { makeRng } from "../_corpus.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
const sha = "0".repeat(64);

function corpus(n: number, keep: (i: number) => boolean) {
  const rng = makeRng(n);
  const examples = Array.from({ length: n }, (_, i) => ({
    example_id: `ex-${i}`,
    language: ["en", "de", "ja"][i % 3]!,
    target: { name: "f", arguments: { x: i % 4 } },
  }));
  const generations = examples.filter((_, i) => keep(i)).map((e, i) => ({
    example_id: e.example_id,
    prompt_sha256: sha,
    output: rng.chance(0.7) ? `{"name":"f","arguments":{"x":${i % 4}}}` : "no call",
  }));
  const jsonl = (rows: object[]) =>
    enc.encode(rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return {
    examples,
    generations,
    bytes: { examples: jsonl(examples), generations: jsonl(generations) },
  };
}

Deno.test("scoreJsonl() with allowMissing scores a partial run and lists the missing examples", async () => {
  const missing = (i: number) => i % 7 === 3 || i >= 290;
  const { examples, generations, bytes } = corpus(300, (i) => !missing(i));
  const want = examples.filter((_, i) => missing(i)).map((e) => e.example_id).sort();
  const outputs: string[] = [];
  for (const engine of ENGINES) {
    await rejects(scoreJsonl(bytes, { engine }), InvariantViolation);
    const { report, bytes: out } = await scoreJsonl(bytes, { engine, allowMissing: true });
    deepStrictEqual(report.missing_generations, { count: want.length, ids: want });
    strictEqual(report.records.length, 300 - want.length);
    strictEqual(report.metrics.overall.valid_json_rate.denominator, 300 - want.length);
    outputs.push(dec.decode(out).replace(/"engine": "\w+"/, ""));
  }
  strictEqual(new Set(outputs).size, 1);
  // The in-memory scorer agrees.
  const mem = scoreToolCalls(examples, generations, { allowMissing: true });
  deepStrictEqual(mem.missing_generations, { count: want.length, ids: want });
  throws(() => scoreToolCalls(examples, generations), InvariantViolation);
});

Deno.test("scoreJsonl() with allowMissing and nothing missing gives the strict report byte for byte", async () => {
  const { bytes } = corpus(120, () => true);
  for (const engine of ENGINES) {
    const strict = await scoreJsonl(bytes, { engine });
    const lenient = await scoreJsonl(bytes, { engine, allowMissing: true });
    strictEqual(dec.decode(lenient.bytes), dec.decode(strict.bytes));
    ok(!("missing_generations" in lenient.report));
  }
});
