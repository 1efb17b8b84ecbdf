// A language named "overall": every output names the slice of all examples so (the score table,
// the comparison, the HTML page, a gate rule's `slice`), so such a language would be a second
// "overall" beside it. It is refused as input, on both engines and both readers, a kept or a
// dropped example's alike, and a report that holds one is refused by its readers (docs/contract.md
// §5). The CLI refuses both with exit 2.
import {
  deepStrictEqual as assertEquals,
  ok,
  rejects,
  strictEqual,
  throws,
} from "node:assert/strict";
import {
  compareReports,
  ComparisonGateError,
  createEngine,
  evaluationReportProblem,
  InputError,
  intersectReports,
  languageGaps,
  recordProblem,
  scoreJsonl,
  scoreToolCalls,
  toolCallMetrics,
} from "../../mod.ts";
import { evaluateGate, parseGateRules } from "../../src/gate/mod.ts";
import { runMain } from "../cli/_main.ts";

const TAKEN = '"overall", the name of the slice of all examples';
const H = "0".repeat(64);
const call = { name: "f", arguments: { a: 1 } };
const output = JSON.stringify(call);

Deno.test("scoreToolCalls() refuses an example whose language is overall, naming it", () => {
  const examples = [
    { example_id: "a", language: "en", target: call },
    { example_id: "b", language: "overall", target: call },
  ];
  throws(
    () => scoreToolCalls(examples, [{ example_id: "a", output }, { example_id: "b", output }]),
    (e: unknown) => {
      ok(e instanceof InputError, String(e));
      assertEquals([e.source, e.id], ["examples", "b"]);
      strictEqual(e.message, `examples (id "b"): field "language" is ${TAKEN}`);
      return true;
    },
  );
  // Another spelling is another language.
  const other = scoreToolCalls([{ example_id: "a", language: "Overall", target: call }], [
    { example_id: "a", output },
  ]);
  assertEquals(other.slices, ["Overall"]);
});

Deno.test("scoreJsonl() refuses a language named overall on both engines and both readers, a dropped example's too", async () => {
  const enc = new TextEncoder();
  const lines = (rows: unknown[]) => enc.encode(rows.map((r) => JSON.stringify(r)).join("\n"));
  const generations = lines(
    ["a", "b"].map((id) => ({ example_id: id, prompt_sha256: H, output })),
  );
  for (const target of [call, [call, call]]) {
    const examples = lines([
      { example_id: "a", language: "en", target: call },
      { example_id: "b", language: "overall", target },
    ]);
    for (
      const options of [
        { engine: createEngine({ engine: "wasm" }) },
        { engine: createEngine({ engine: "wasm" }), kernel: false },
        { engine: createEngine({ engine: "ts" }) },
      ]
    ) {
      await rejects(
        scoreJsonl({ examples, generations }, { ...options, names: { examples: "e.jsonl" } }),
        (e: unknown) => {
          ok(e instanceof InputError, String(e));
          assertEquals([e.source, e.line, e.id], ["e.jsonl", 2, "b"]);
          strictEqual(e.message, `e.jsonl:2 (id "b"): field "language" is ${TAKEN}`);
          return true;
        },
      );
    }
  }
});

/** A report over languages en and `language`, as scoreToolCalls writes it, then edited. */
function reportWith(language: string) {
  const examples = ["a", "b"].map((id) => ({ example_id: id, language: "en", target: call }));
  const r = scoreToolCalls(examples, examples.map((x) => ({ example_id: x.example_id, output })));
  r.records[1]!.language = language;
  r.slices = ["en", language].sort();
  // Each slice's metrics are its records' sums, as in a report scored so.
  for (const slice of r.slices) {
    r.metrics.by_language[slice] = toolCallMetrics(r.records.filter((x) => x.language === slice));
  }
  return r;
}

Deno.test("a report whose record or slice is named overall is refused by its readers", () => {
  const bad = reportWith("overall");
  strictEqual(recordProblem(bad.records[1]), `.language is ${TAKEN}`);
  strictEqual(evaluationReportProblem(bad), `records[1].language is ${TAKEN}`);
  strictEqual(
    evaluationReportProblem({ ...bad, records: bad.records.slice(0, 1) }),
    `slices[1] is ${TAKEN}`,
  );
  const good = reportWith("de");
  strictEqual(evaluationReportProblem(good), undefined);
  for (const [base, adapter] of [[bad, good], [good, bad]] as const) {
    throws(() => compareReports(base, adapter, { resamples: 10 }), (e: unknown) => {
      ok(e instanceof ComparisonGateError, String(e));
      assertEquals(e.differences.map((d) => d.kind), ["malformed_report"]);
      ok(e.message.includes(`records[1].language is ${TAKEN}`), e.message);
      return true;
    });
    throws(() => intersectReports(base, adapter), RangeError);
  }
  throws(() => languageGaps(bad, { reference: "en", resamples: 10 }), RangeError);
  const gate = parseGateRules(
    "rules:\n  - metric: full_call_exact_match\n    slice: overall\n    min: 0.5\n",
    "g.yaml",
  );
  throws(() => evaluateGate(gate, { report: bad }), (e: unknown) => {
    ok(e instanceof Error && e.message.includes(`records[1].language is ${TAKEN}`), String(e));
    return true;
  });
  strictEqual(evaluateGate(gate, { report: good }).pass, true);
});

Deno.test("assay score, compare and gate refuse a language named overall with exit 2", async () => {
  const dir = await Deno.makeTempDir({ prefix: "assay_overall_" });
  try {
    const examples = ["a", "b"].map((id, i) =>
      JSON.stringify({ example_id: id, language: i ? "overall" : "en", target: call })
    );
    const generations = ["a", "b"].map((id) =>
      JSON.stringify({ example_id: id, prompt_sha256: H, output })
    );
    await Deno.writeTextFile(`${dir}/e.jsonl`, examples.join("\n") + "\n");
    await Deno.writeTextFile(`${dir}/g.jsonl`, generations.join("\n") + "\n");
    const score = await runMain([
      "score",
      "--examples",
      `${dir}/e.jsonl`,
      "--generations",
      `${dir}/g.jsonl`,
      "--out",
      `${dir}/r.json`,
    ]);
    strictEqual(score.code, 2, score.stderr);
    ok(score.stderr.includes(`e.jsonl:2 (id "b"): field "language" is ${TAKEN}`), score.stderr);
    await Deno.writeTextFile(`${dir}/bad.json`, JSON.stringify(reportWith("overall")));
    await Deno.writeTextFile(`${dir}/good.json`, JSON.stringify(reportWith("de")));
    await Deno.writeTextFile(
      `${dir}/gate.yaml`,
      "rules:\n  - metric: full_call_exact_match\n    slice: overall\n    min: 0.5\n",
    );
    for (
      const args of [
        ["compare", `${dir}/good.json`, `${dir}/bad.json`, "--resamples", "10"],
        ["gate", `${dir}/gate.yaml`, "--report", `${dir}/bad.json`],
      ]
    ) {
      const run = await runMain(args);
      strictEqual(run.code, 2, `${args[0]}: ${run.stderr}`);
      ok(run.stderr.includes(`records[1].language is ${TAKEN}`), run.stderr);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
