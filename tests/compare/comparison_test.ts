// The comparison gate, determinism against a golden file, and language gaps on a fixture
// computed by hand.
import {
  deepStrictEqual as assertEquals,
  match,
  ok,
  strictEqual,
  throws,
} from "node:assert/strict";
import {
  compareReports,
  ComparisonGateError,
  type EvaluationReport,
  type ExampleInput,
  type ExampleRecord,
  formatReport,
  gateDifferences,
  type GenerationInput,
  intersectReports,
  languageGaps,
  pairSetSha256,
  scoreToolCalls,
  sha256Hex,
} from "../../mod.ts";
import { evaluateGate, parseGateRules } from "../../src/gate/mod.ts";
import { explainScore } from "../../src/explain/mod.ts";
import { ENGINES } from "../_engines.ts";

const call = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ name, arguments: args });

function evaluation(outputs: Record<string, string>, extra: ExampleInput[] = []): EvaluationReport {
  const examples: ExampleInput[] = [
    { example_id: "en-1", language: "en", target: { name: "f", arguments: { a: 1 } } },
    { example_id: "en-2", language: "en", target: { name: "g", arguments: { b: [1, 2] } } },
    {
      example_id: "de-1",
      language: "de",
      target: { name: "f", arguments: { a: 1 } },
      root_id: "en-1",
    },
    {
      example_id: "de-2",
      language: "de",
      target: { name: "g", arguments: { b: [1, 2] } },
      root_id: "en-2",
    },
    ...extra,
  ];
  const generations: GenerationInput[] = examples.map((e) => ({
    example_id: e.example_id,
    output: outputs[e.example_id] ?? "no call",
  }));
  return scoreToolCalls(examples, generations);
}

const BASE = evaluation({ "en-1": call("f", { a: 1 }), "de-2": call("g", { b: [1] }) });
const ADAPTER = evaluation({
  "en-1": call("f", { a: 1 }),
  "en-2": call("g", { b: [1, 2] }),
  "de-1": '{"name": "f", "arguments": {"a": 1.0}}', // 1.0 is not the gold 1
  "de-2": call("g", { b: [1, 2] }),
});

function refusal(
  base: EvaluationReport,
  adapter: EvaluationReport,
  on?: "intersection",
): ComparisonGateError {
  try {
    compareReports(base, adapter, { resamples: 10, on });
  } catch (e) {
    if (e instanceof ComparisonGateError) return e;
    throw e;
  }
  throw new Error("the gate let it through");
}

Deno.test("compareReports() refuses different metric names, saying which", () => {
  const e = refusal(BASE, {
    ...ADAPTER,
    metric_names: [...ADAPTER.metric_names.slice(0, 4), "bleu"] as never,
  });
  assertEquals(e.differences.map((d) => d.kind), ["metric_names"]);
  match(
    e.message,
    /metric names differ: 1 only in base \("full_call_exact_match"\), 1 only in adapter \("bleu"\)/,
  );
  strictEqual(e.name, "ComparisonGateError");
});

Deno.test("compareReports() refuses different slice sets, naming the slices on one side only", () => {
  const onlyEn = evaluation({}, []);
  const withJa = evaluation({}, [{
    example_id: "ja-1",
    language: "ja",
    target: { name: "f", arguments: {} },
  }]);
  const e = refusal(onlyEn, withJa);
  // The base holds no slice the adapter lacks: that side is not named.
  match(e.message, /slice sets differ: 1 only in adapter \("ja"\);/);
  match(e.message, /example-id sets differ: 1 only in adapter \("ja-1"\)/);
});

/** Seven examples in en, with ids `prefix-0` to `prefix-6`. */
const many = (prefix: string) =>
  Array.from({ length: 7 }, (_, i): ExampleInput => ({
    example_id: `${prefix}-${i}`,
    language: "en",
    target: { name: "f", arguments: {} },
  }));

Deno.test("compareReports() refuses different example-id sets, listing the first ids", () => {
  const a = evaluation({}, many("x"));
  const b = evaluation({}, many("y"));
  const e = refusal(a, b);
  assertEquals(e.differences.map((d) => d.kind), ["example_ids"]);
  match(
    e.message,
    /example-id sets differ: 7 only in base \("x-0", "x-1", "x-2", "x-3", "x-4", … \(7 in all\)\), 7 only in adapter \("y-0"/,
  );
});

Deno.test("ComparisonGateError's differences hold what differs as data, and its words quote names and use the caller's arm names", () => {
  // Seven ids only in each report (the words list five), a slice on one side only, other parser
  // ids, and an example that moved slice.
  const ids = many;
  const base = evaluation({}, ids("x"));
  const other = {
    ...evaluation({}, [...ids("y"), { ...ids("ja")[0]!, language: "ja" }]),
    parser_id: "other.parser.v2",
  };
  const all = (prefix: string) => ids(prefix).map((x) => x.example_id);
  const expected = (arm: string) => [
    {
      kind: "parser_id",
      detail: `parser ids differ: base "assay.parser.v1", ${arm} "other.parser.v2"`,
      values: ["assay.parser.v1", "other.parser.v2"],
    },
    {
      kind: "slices",
      detail: `slice sets differ: 1 only in ${arm} ("ja")`,
      only: [[], ["ja"]],
    },
    {
      kind: "example_ids",
      detail: `example-id sets differ: 7 only in base ("x-0", "x-1", "x-2", "x-3", "x-4", … ` +
        `(7 in all)), 8 only in ${arm} ("ja-0", "y-0", "y-1", "y-2", "y-3", … (8 in all))`,
      only: [all("x"), ["ja-0", ...all("y")]],
    },
  ];
  assertEquals(refusal(base, other).differences, expected("adapter"));
  assertEquals(gateDifferences(base, other, ["base", "candidate"]), expected("candidate"));
  // Through the gate: the candidate is named so.
  const rules = parseGateRules("rules:\n  - metric: argument_f1\n    superior: true\n", "g.yaml");
  throws(() => evaluateGate(rules, { base, candidate: other }), (e: unknown) => {
    ok(e instanceof ComparisonGateError, String(e));
    assertEquals(e.differences, expected("candidate"));
    ok(!e.message.includes("adapter"), e.message);
    return true;
  });
  // Examples that moved slice, and a report that is not its records' sums: every id, and the arm.
  const moved = {
    ...ADAPTER,
    records: ADAPTER.records.map((r) => ({ ...r, language: r.language === "de" ? "en" : "de" })),
  };
  const m = refusal(BASE, moved);
  assertEquals(m.differences.map((d) => [d.kind, d.ids]), [[
    "example_languages",
    BASE.records.map((r) => r.example_id).sort(),
  ]]);
  const forged = structuredClone(ADAPTER);
  forged.metrics.overall.valid_json_rate.numerator += 1;
  assertEquals(gateDifferences(BASE, forged, ["base", "candidate"]), [{
    kind: "inconsistent_report",
    detail: "the candidate report's overall metrics are not the sums of its records",
    arm: "candidate",
  }]);
});

Deno.test("compareReports() refuses different parser ids and canonical ids", () => {
  const p = refusal(BASE, { ...ADAPTER, parser_id: "other.parser.v2" });
  match(p.message, /parser ids differ: base "assay\.parser\.v1", adapter "other\.parser\.v2"/);
  const c = refusal({ ...BASE, canonical_id: "assay.canonical.v0" }, ADAPTER);
  match(
    c.message,
    /canonical ids differ: base "assay\.canonical\.v0", adapter "assay\.canonical\.v1"/,
  );
});

Deno.test("compareReports() refuses reports whose numbers compared differently", () => {
  const n = refusal(BASE, { ...ADAPTER, numbers: "numeric" });
  assertEquals(n.differences.map((d) => d.kind), ["numbers"]);
  match(n.message, /numbers differ: base "exact", adapter "numeric"/);
});

Deno.test("compareReports() refuses an example that moved slice, and a report whose metrics are not its records' sums", () => {
  const moved = {
    ...ADAPTER,
    records: ADAPTER.records.map((r) => r.example_id === "de-1" ? { ...r, language: "en" } : r),
  };
  match(refusal(BASE, moved).message, /1 example is in a different language slice \("de-1"\)/);
  const forged = structuredClone(ADAPTER);
  forged.metrics.overall.valid_json_rate.numerator += 1;
  match(
    refusal(BASE, forged).message,
    /the adapter report's overall metrics are not the sums of its records/,
  );
  throws(
    () => compareReports({ schema: "x" } as never, ADAPTER),
    /not an evaluation report \(schema "x"\)/,
  );
});

Deno.test("compareReports() refuses reports scored against different examples files or gold", () => {
  // The reviewer's case: the same ids, each run's outputs exactly its own gold, but the gold
  // differs: get_weather {city} against send_email {to}. Every metric compared +1.000.
  const gold = (name: string, key: string, values: string[]) =>
    values.map((v, i): ExampleInput => ({
      example_id: String(i + 1),
      language: "en",
      target: { name, arguments: { [key]: v } },
    }));
  const a = gold("get_weather", "city", ["Paris", "Oslo"]);
  const b = gold("send_email", "to", ["x", "y"]);
  const outputs = a.map((e) => ({ example_id: e.example_id, output: JSON.stringify(e.target) }));
  const digest = (text: string) => ({ sha256: sha256Hex(text), rows: 2 });
  const scored = (examples: ExampleInput[], sha: string) =>
    scoreToolCalls(examples, outputs, { inputs: { examples: digest(sha), generations: null } });
  const base = scored(a, "gold_a");
  const adapter = scored(b, "gold_b");
  const e = refusal(base, adapter);
  assertEquals(e.differences.map((d) => d.kind), ["examples"]);
  strictEqual(
    e.differences[0]!.detail,
    `examples files' sha256 differ: base "${sha256Hex("gold_a")}", adapter "${
      sha256Hex("gold_b")
    }"`,
  );
  // On the shared examples the files may differ (a run on part of them) only where the records
  // show each example's gold call: a gold whose value changed keeps its pair count, and the
  // example counted as a regression of the model (a user's CI found it).
  const moved = scored(gold("get_weather", "city", ["London", "Oslo"]), "gold_a2");
  const m = refusal(base, moved, "intersection");
  assertEquals(m.differences.map((d) => d.kind), ["examples"]);
  match(m.message, /shared examples two files are compared only when both reports were scored/);
  const detailed = (examples: ExampleInput[], sha: string) =>
    scoreToolCalls(examples, outputs, {
      inputs: { examples: digest(sha), generations: null },
      detail: explainScore(),
    });
  const same = detailed(gold("get_weather", "city", ["Paris", "Oslo"]), "gold_a2");
  strictEqual(
    compareReports(detailed(a, "gold_a"), same, { on: "intersection", resamples: 10 }).n,
    2,
  );
  throws(() => compareReports(detailed(a, "gold_a"), same, { resamples: 10 }), ComparisonGateError);
  const g0 = refusal(
    detailed(a, "gold_a"),
    detailed(gold("get_weather", "city", ["London", "Oslo"]), "gold_a2"),
    "intersection",
  );
  assertEquals(g0.differences.map((d) => d.kind), ["gold"]);
  match(g0.message, /1 example has a different gold call \("1"\)/);
  // The same file, no details needed: each example's gold pairs are compared, as everywhere.
  const twoPairs = scored(
    a.map((x, i) =>
      i ? x : { ...x, target: { name: "get_weather", arguments: { city: "Paris", n: 1 } } }
    ),
    "gold_a",
  );
  const g = refusal(base, twoPairs, "intersection");
  assertEquals(g.differences.map((d) => d.kind), ["gold"]);
  strictEqual(g.message, 'Refusing to compare: 1 example has a different gold call ("1")');
  // Same pair counts, another gold call: only the records' details tell them apart.
  const withGold = (r: EvaluationReport, name: string) => ({
    ...r,
    records: r.records.map((x) => ({
      ...x,
      detail: { gold: { name, arguments: "{}" } } as ExampleRecord["detail"],
    })),
  });
  const n = refusal(
    withGold(base, "get_weather"),
    withGold({ ...adapter, inputs: base.inputs }, "send_email"),
  );
  assertEquals(n.differences.map((d) => d.kind), ["gold"]);
  match(n.message, /2 examples have different gold calls \("1", "2"\)/);
  // A report that records no digest (made in memory) is compared on its records alone.
  const bare = scoreToolCalls(a, outputs);
  strictEqual(compareReports(bare, base, { resamples: 10 }).n, 2);
  // The prompts manifest is not part of the gold: a base model and its fine-tuned adapter may be
  // prompted with different templates.
  const prompts = { ...base.inputs, prompts: digest("other template") };
  strictEqual(compareReports(base, { ...base, inputs: prompts }, { resamples: 10 }).n, 2);
});

Deno.test("compareReports() refuses impossible counts as a malformed report: more matched pairs than predicted or gold, 2^31 or more", () => {
  const malformed = (e: ComparisonGateError) => e.differences.map((d) => d.kind);
  // Matched pairs above predicted and gold, with the sums made to agree: an F1 of 100 was compared.
  const forged = structuredClone(BASE);
  forged.records[0]!.matched_pairs = 50;
  forged.metrics.overall.argument_f1.numerator += 2 * 49;
  const e = refusal(BASE, forged);
  assertEquals(malformed(e), ["malformed_report"]);
  match(e.message, /records\[0\]\.matched_pairs is more than predicted_pairs or gold_pairs/);
  // Gold pairs past 2^31 overflowed the packed counts (an internal RangeError).
  const huge = structuredClone(BASE);
  huge.records[1]!.gold_pairs = 3e9;
  huge.metrics.overall.argument_f1.denominator += 3e9 - BASE.records[1]!.gold_pairs;
  const h = refusal(BASE, huge);
  assertEquals(malformed(h), ["malformed_report"]);
  match(h.message, /records\[1\]\.gold_pairs is not a count below 2\^31/);
  const edge = structuredClone(BASE);
  edge.records[1]!.gold_pairs = 2 ** 31;
  match(refusal(edge, BASE).message, /base report is malformed: records\[1\]\.gold_pairs/);
});

Deno.test("compareReports() takes options of their documented types only", () => {
  throws(() => compareReports(BASE, ADAPTER, { resamples: 10, level: "0.9" as never }), {
    name: "RangeError",
    message: "level must be a number in (0, 1), got 0.9",
  });
  throws(() => compareReports(BASE, ADAPTER, { resamples: 10, seed: "1" as never }), RangeError);
  throws(() => compareReports(BASE, ADAPTER, { resamples: "10" as never }), RangeError);
  strictEqual(compareReports(BASE, ADAPTER, { resamples: 10, level: 0.9 }).bootstrap.level, 0.9);
});

Deno.test("compareReports() gives deltas adapter − base with the base and adapter counts", () => {
  const c = compareReports(BASE, ADAPTER, { seed: 3, resamples: 500 });
  const full = c.deltas.overall.full_call_exact_match;
  assertEquals(full.base, { value: 0.25, numerator: 1, denominator: 4 });
  assertEquals(full.adapter, { value: 0.75, numerator: 3, denominator: 4 });
  strictEqual(full.delta, 0.5);
  strictEqual(full.ci[0] <= full.delta && full.delta <= full.ci[1], true);
  assertEquals(c.slices, ["de", "en"]);
  assertEquals(c.bootstrap.seed, 3);
  // de, base: de-1 has no call (0 predicted, 1 gold pair); de-2 predicts b[0] (1 of 2 gold pairs).
  assertEquals(c.deltas.by_language.de!.argument_f1.base, {
    value: 0.5,
    numerator: 2,
    denominator: 4,
  });
});

Deno.test("compareReports() is byte-identical across runs and engines and matches the golden file", async () => {
  const goldenUrl = new URL("../golden/demo_comparison.json", import.meta.url);
  const demo = await demoReports();
  if (Deno.env.get("ASSAY_UPDATE_GOLDEN") === "1") {
    const { base, adapter } = demo[0]!;
    await Deno.writeTextFile(
      goldenUrl,
      formatReport(compareReports(base, adapter, { seed: 20261130, resamples: 2000 })),
    );
  }
  const golden = await Deno.readTextFile(goldenUrl);
  // Reports scored on each engine, bootstrapped on each engine's kernel.
  for (const { base, adapter } of demo) {
    for (const engine of ENGINES) {
      for (let run = 0; run < 3; run++) {
        strictEqual(
          formatReport(compareReports(base, adapter, { seed: 20261130, resamples: 2000, engine })),
          golden,
          `bootstrap on ${engine.name}, run ${run}`,
        );
      }
    }
  }
});

/** The demo scored on every engine. */
async function demoReports(): Promise<{ base: EvaluationReport; adapter: EvaluationReport }[]> {
  const dir = new URL("../../samples/demo/", import.meta.url);
  const rows = async (f: string) =>
    (await Deno.readTextFile(new URL(f, dir))).split("\n").filter((l) => l.trim()).map((l) =>
      JSON.parse(l)
    );
  // Targets are re-read as JSON text slices so that 150.0 stays a float.
  const exampleLines = (await Deno.readTextFile(new URL("examples.jsonl", dir))).split("\n").filter(
    (l) => l.trim(),
  );
  const { readExactObject } = await import("../../src/engine/mod.ts");
  const examples: ExampleInput[] = exampleLines.map((line, i) => {
    const f = readExactObject(line) as Map<string, { canonical: string }>;
    const j = JSON.parse(line);
    return {
      example_id: j.example_id,
      language: j.language,
      root_id: j.root_id,
      target: f.get("target")!.canonical,
      line: i + 1,
    };
  });
  const prompts = await rows("prompts.jsonl");
  const base = await rows("generations.base.jsonl");
  const adapter = await rows("generations.adapter.jsonl");
  return ENGINES.map((engine) => ({
    base: scoreToolCalls(examples, base, { engine, prompts }),
    adapter: scoreToolCalls(examples, adapter, { engine, prompts }),
  }));
}

Deno.test("languageGaps() matches a hand-computed fixture: pairs, coverage, digest and deltas", () => {
  const report = evaluation(
    { "en-1": call("f", { a: 1 }), "en-2": call("g", { b: [1, 2] }), "de-1": call("f", { a: 1 }) },
    [
      {
        example_id: "de-3",
        language: "de",
        target: { name: "f", arguments: {} },
        root_id: "en-404",
      },
      { example_id: "de-4", language: "de", target: { name: "f", arguments: {} } },
    ],
  );
  const g = languageGaps(report, { seed: 1, resamples: 300 });
  assertEquals(g.targets, ["de"]);
  const p = g.gaps.de!.primary;
  strictEqual(p.n_pairs, 2);
  assertEquals(p.coverage, { value: 0.5, numerator: 2, denominator: 4 });
  assertEquals(p.unjoined, { no_root_id: 1, root_not_in_reference: 1 });
  // sha256 of '[["de-1","en-1"],["de-2","en-2"]]', computed independently with Python's hashlib.
  strictEqual(
    p.pair_set_sha256,
    "eaa92f05e58bd5b051d895227a8a890000b0f672bb0ce0da97910ef365c1ec3a",
  );
  // Joined rows: de-1 (ok, exact) and de-2 (no call) against en-1 and en-2 (both exact).
  assertEquals(p.metrics.full_call_exact_match.target, {
    value: 0.5,
    numerator: 1,
    denominator: 2,
  });
  assertEquals(p.metrics.full_call_exact_match.reference, {
    value: 1,
    numerator: 2,
    denominator: 2,
  });
  strictEqual(p.metrics.full_call_exact_match.delta, -0.5);
  const m = g.gaps.de!.marginal_full_slices;
  strictEqual(m.descriptive, true);
  assertEquals([m.n_target, m.n_reference], [4, 2]);
  strictEqual(m.metrics.full_call_exact_match.delta, 0.25 - 1);
  throws(() => languageGaps(report, { reference: "fr" }), /"fr" is not a slice of the report/);
});

Deno.test("languageGaps() gives no delta and no interval when no row is joined", () => {
  // de rows without a root_id: nothing to pair, so no estimate (it was a certain 0, [0, 0]).
  const base = evaluation({ "en-1": call("f", { a: 1 }) });
  const records = base.records.map((r) => ({ ...r, root_id: null }));
  const g = languageGaps({ ...base, records }, { seed: 1, resamples: 50 });
  const p = g.gaps.de!.primary;
  strictEqual(p.n_pairs, 0);
  assertEquals(p.unjoined, { no_root_id: 2, root_not_in_reference: 0 });
  for (const m of Object.values(p.metrics)) {
    strictEqual(m.delta, null);
    strictEqual(m.ci, null);
    assertEquals(m.target, { value: 0, numerator: 0, denominator: 0 });
  }
  // The full slices are still there, descriptively.
  strictEqual(g.gaps.de!.marginal_full_slices.metrics.full_call_exact_match.delta, -0.5);
});

Deno.test("pairSetSha256() hashes the pairs as canonical JSON, non-ASCII ids escaped", () => {
  strictEqual(
    pairSetSha256([["d\u00e9-1", "en-1"], ["d\u00e9-0", "en-\u{1f600}"]]),
    sha256Hex('[["d\\u00e9-0","en-\\ud83d\\ude00"],["d\\u00e9-1","en-1"]]'),
  );
});

Deno.test("compareReports() lists the examples each right-or-wrong metric flips, as a join of the two reports by id shows", async () => {
  const { base, adapter } = (await demoReports())[0]!;
  const c = compareReports(base, adapter, { seed: 1, resamples: 10 });
  const byId = new Map(adapter.records.map((r) => [r.example_id, r]));
  const right = {
    valid_json_rate: (r: ExampleRecord) => r.status === "ok",
    function_name_accuracy: (r: ExampleRecord) => r.name_match,
    argument_exact_match: (r: ExampleRecord) => r.arguments_match,
    full_call_exact_match: (r: ExampleRecord) => r.name_match && r.arguments_match,
  };
  for (
    const [m, f] of Object.entries(right) as [keyof typeof right, typeof right.valid_json_rate][]
  ) {
    const regressed = base.records.filter((b) => f(b) && !f(byId.get(b.example_id)!));
    const improved = base.records.filter((b) => !f(b) && f(byId.get(b.example_id)!));
    assertEquals(c.regressions.overall[m].ids, regressed.map((r) => r.example_id).sort());
    strictEqual(c.improvements.overall[m].count, improved.length);
    for (const lang of c.slices) {
      strictEqual(
        c.regressions.by_language[lang]![m].count,
        regressed.filter((r) => r.language === lang).length,
      );
    }
  }
  // The demo's adapter regresses 11 full calls, fr-0010 among them (it drops `text`).
  strictEqual(c.regressions.overall.full_call_exact_match.count, 11);
  ok(c.regressions.overall.full_call_exact_match.ids.includes("fr-0010"));
});

Deno.test("compareReports() with on: intersection compares the shared examples and counts what each side left out", async () => {
  const { base, adapter } = (await demoReports())[0]!;
  // The base lost its first 5 examples, the adapter its last 7 and every ja example.
  const cutBase = { ...base, records: base.records.slice(5) };
  const keepAdapter = adapter.records.slice(0, -7).filter((r) => r.language !== "ja");
  const cutAdapter = { ...adapter, records: keepAdapter };
  throws(() => compareReports(cutBase, cutAdapter), ComparisonGateError);
  const c = compareReports(cutBase, cutAdapter, { on: "intersection", seed: 3, resamples: 200 });
  const shared = cutBase.records.filter((r) =>
    keepAdapter.some((a) => a.example_id === r.example_id)
  );
  strictEqual(c.n, shared.length);
  strictEqual(c.coverage!.shared, shared.length);
  strictEqual(c.coverage!.base_only.count, cutBase.records.length - shared.length);
  strictEqual(c.coverage!.adapter_only.count, 5);
  assertEquals(
    c.coverage!.adapter_only.ids,
    base.records.slice(0, 5).map((r) => r.example_id).sort(),
  );
  ok(!c.slices.includes("ja"));
  // The same as comparing reports scored on the shared examples alone.
  const ids = new Set(shared.map((r) => r.example_id));
  const { base: b2, adapter: a2 } = intersectReports(
    { ...base, records: base.records.filter((r) => ids.has(r.example_id)) },
    { ...adapter, records: adapter.records.filter((r) => ids.has(r.example_id)) },
  );
  assertEquals(c.deltas, compareReports(b2, a2, { seed: 3, resamples: 200 }).deltas);
  throws(() => compareReports(base, adapter, { on: "some" as "all" }), RangeError);
  // No example shared is no comparison, not a certain delta of 0 on n = 0.
  const half = base.records.length >> 1;
  throws(
    () =>
      compareReports(
        { ...base, records: base.records.slice(0, half) },
        { ...adapter, records: adapter.records.slice(half) },
        { on: "intersection" },
      ),
    (e: unknown) =>
      e instanceof ComparisonGateError && e.message === "Refusing to compare: no example is shared",
  );
});

Deno.test("compareReports() refuses two reports that hold no example: a delta of 0 on n = 0 is no result", () => {
  // scoreToolCalls gives such a report for empty arrays, or when every target is dropped.
  const empty = scoreToolCalls([], []);
  const dropped = scoreToolCalls(
    [{ example_id: "a", language: "en", target: [] }],
    [],
  );
  strictEqual(empty.n, 0);
  strictEqual(dropped.n, 0);
  for (const [b, a] of [[empty, empty], [dropped, dropped], [empty, dropped]]) {
    throws(
      () => compareReports(b!, a!, { resamples: 10 }),
      (e: unknown) =>
        e instanceof ComparisonGateError &&
        e.message === "Refusing to compare: the reports hold no example" &&
        e.differences.length === 1 && e.differences[0]!.kind === "example_ids",
    );
  }
  // One empty side is told by the sets that differ, not as two empty reports.
  throws(
    () => compareReports(empty, BASE, { resamples: 10 }),
    (e: unknown) =>
      e instanceof ComparisonGateError &&
      e.differences.map((d) => d.kind).join() === "slices,example_ids",
  );
  throws(
    () => compareReports(empty, empty, { resamples: 10, on: "intersection" }),
    (e: unknown) =>
      e instanceof ComparisonGateError && e.message === "Refusing to compare: no example is shared",
  );
});
