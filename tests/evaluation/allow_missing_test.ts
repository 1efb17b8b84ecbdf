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
    for (const kernel of [true, false]) {
      await rejects(scoreJsonl(bytes, { engine, kernel }), InvariantViolation);
      const r = await scoreJsonl(bytes, { engine, kernel, allowMissing: true });
      // The scoring kernel scores a partial run itself.
      strictEqual(r.handedBack, undefined);
      deepStrictEqual(r.report.missing_generations, { count: want.length, ids: want });
      strictEqual(r.report.records.length, 300 - want.length);
      strictEqual(r.report.metrics.overall.valid_json_rate.denominator, 300 - want.length);
      outputs.push(dec.decode(r.bytes).replace(/"engine": "\w+"/, ""));
    }
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

Deno.test("scoreJsonl() lists the dropped examples' ids by reason, the same on the kernel and the general reader", async () => {
  const targets = [
    { name: "f", arguments: {} }, // kept
    [{ name: "f", arguments: {} }, { name: "g", arguments: {} }], // multiple_calls
    [], // empty_target
    { arguments: {} }, // malformed_target
    [{ name: "f", arguments: {} }], // one call in a list: kept
  ];
  const examples = Array.from({ length: 60 }, (_, i) => ({
    example_id: `d-${String(59 - i).padStart(2, "0")}`, // not in code point order
    language: "en",
    target: targets[i % targets.length],
  }));
  const generations = examples.map((e) => ({
    example_id: e.example_id,
    prompt_sha256: sha,
    output: '{"name": "f", "arguments": {}}',
  }));
  const jsonl = (rows: object[]) =>
    enc.encode(rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const want = {
    multiple_calls: examples.filter((_, i) => i % 5 === 1).map((e) => e.example_id),
    empty_target: examples.filter((_, i) => i % 5 === 2).map((e) => e.example_id),
    malformed_target: examples.filter((_, i) => i % 5 === 3).map((e) => e.example_id),
  };
  const texts: string[] = [];
  for (const engine of ENGINES) {
    for (const kernel of [true, false]) {
      const r = await scoreJsonl(
        { examples: jsonl(examples), generations: jsonl(generations) },
        { engine, kernel },
      );
      deepStrictEqual(r.report.dropped_ids, want, `${engine.name}, kernel ${kernel}`);
      strictEqual(r.report.drop_summary.multiple_calls, 12);
      texts.push(dec.decode(r.bytes).replace(/"engine": "\w+"/, ""));
    }
  }
  strictEqual(new Set(texts).size, 1);
});

Deno.test("scoreJsonl() with allowMissing: a language whose examples all miss their generation leaves no slice, on the kernel as on the general reader", async () => {
  // Every "ja" example (i % 3 == 2) misses its generation; the ids are not in code point order.
  const { bytes } = corpus(90, (i) => i % 3 !== 2);
  const texts: string[] = [];
  for (const engine of ENGINES) {
    for (const kernel of [true, false]) {
      const r = await scoreJsonl(bytes, { engine, kernel, allowMissing: true });
      strictEqual(r.handedBack, undefined);
      deepStrictEqual(r.report.slices, ["de", "en"]);
      strictEqual(r.report.missing_generations?.count, 30);
      deepStrictEqual(
        r.report.missing_generations?.ids,
        r.report.missing_generations?.ids.slice().sort(),
      );
      texts.push(dec.decode(r.bytes).replace(/"engine": "\w+"/, ""));
    }
  }
  strictEqual(new Set(texts).size, 1);
});

Deno.test("scoreJsonl() with allowMissing still refuses a kept example with no prompt row, on every path", async () => {
  const { examples, bytes } = corpus(30, (i) => i !== 4);
  // The manifest lacks ex-4 (which also has no generation) and ex-9 (which has one).
  const prompts = enc.encode(
    examples.filter((_, i) => i !== 4 && i !== 9)
      .map((e) => JSON.stringify({ example_id: e.example_id, prompt_sha256: sha })).join("\n") +
      "\n",
  );
  for (const engine of ENGINES) {
    for (const kernel of [true, false]) {
      await rejects(
        scoreJsonl({ ...bytes, prompts }, { engine, kernel, allowMissing: true }),
        (e: unknown) =>
          e instanceof InvariantViolation && /ex-4\b/.test(e.message) && /ex-9\b/.test(e.message),
      );
    }
  }
});

Deno.test("scoreJsonl() lifts the invariant for allowMissing true only, on the kernel and the general reader alike", async () => {
  // A truthy value that is not true: the kernel refused it and handed the run to the general
  // reader, which allowed it.
  const examples = enc.encode(
    '{"example_id": "a", "language": "en", "target": {"name": "f", "arguments": {}}}\n' +
      '{"example_id": "b", "language": "en", "target": {"name": "f", "arguments": {}}}\n',
  );
  const generations = enc.encode(
    JSON.stringify({
      example_id: "a",
      prompt_sha256: sha,
      output: '{"name": "f", "arguments": {}}',
    }) +
      "\n",
  );
  for (const kernel of [true, false]) {
    await rejects(
      scoreJsonl({ examples, generations }, { kernel, allowMissing: "yes" as never }),
      InvariantViolation,
    );
    const { report } = await scoreJsonl({ examples, generations }, { kernel, allowMissing: true });
    strictEqual(report.n, 1);
  }
});
