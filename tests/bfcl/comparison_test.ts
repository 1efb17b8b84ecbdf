// compareBfclReports(): two models' assay.bfcl.v1 reports compared entry by entry, behind the
// gate. Byte-identical output for the same inputs and seed on both engines; every refusal (other
// question or answer files among them); and
// the interval against NumPy's percentile of the same resamples
// (tests/bfcl/_paired_bootstrap_oracle.py, run by /usr/bin/python3).
//
// Needs --allow-run (python3, apt-get), --allow-read and --allow-sys (uid, for ensureScipy).
import { deepStrictEqual, match, ok, strictEqual, throws } from "node:assert/strict";
import { formatReport, PRNG_NAME, Sfc32, sha256Hex } from "../../mod.ts";
import {
  BFCL_CATEGORIES,
  type BfclCategory,
  type BfclReport,
  bfclReport,
  checkBfcl,
  compareBfclReports,
  ComparisonGateError,
  digestBfclInputs,
  mergeBfclReports,
} from "../../src/bfcl/mod.ts";
import { metricValue } from "../../src/stats/mod.ts";
import { ENGINES } from "../_engines.ts";
import { ensureScipy, PYTHON } from "../_debian_python.ts";
import { gunzipText, runModel } from "./_fixtures.ts";

const ORACLE = new URL("./_paired_bootstrap_oracle.py", import.meta.url).pathname;

async function vendored(model: string): Promise<BfclReport> {
  const runs = [];
  for (const category of BFCL_CATEGORIES) runs.push(await runModel(model, category));
  return bfclReport(runs);
}

const gpt = await vendored("gpt-4o-2024-05-13-FC");
const claude = await vendored("claude-3-5-sonnet-20240620-FC");

Deno.test("compareBfclReports() is byte-identical for the same inputs and seed, on both engines", () => {
  const texts = new Set<string>();
  for (const engine of ENGINES) {
    for (let run = 0; run < 2; run++) {
      texts.add(
        formatReport(compareBfclReports(gpt, claude, { seed: 7, resamples: 1000, engine })),
      );
    }
  }
  strictEqual(texts.size, 1);
  const cmp = compareBfclReports(gpt, claude, { seed: 7, resamples: 1000 });
  strictEqual(cmp.schema, "assay.bfcl.comparison.v1");
  deepStrictEqual(cmp.models, { a: "gpt-4o-2024-05-13-FC", b: "claude-3-5-sonnet-20240620-FC" });
  strictEqual(cmp.bootstrap.prng, PRNG_NAME);
  strictEqual(cmp.bootstrap.seed, 7);
  strictEqual(cmp.n, gpt.records.length);
  deepStrictEqual(cmp.categories, [...BFCL_CATEGORIES].sort());
  deepStrictEqual(cmp.overall.a, gpt.accuracy);
  deepStrictEqual(cmp.overall.b, claude.accuracy);
  for (const c of gpt.categories) {
    const d = cmp.byCategory[c.category]!;
    deepStrictEqual(d.a, c.accuracy);
    // The difference of the counts is the discordant entries' difference.
    strictEqual(d.b.numerator - d.a.numerator, d.onlyB - d.onlyA, c.category);
    ok(d.ci[0] <= d.delta && d.delta <= d.ci[1], c.category);
  }
  // Another seed, other draws.
  const other = compareBfclReports(gpt, claude, { seed: 8, resamples: 1000 });
  strictEqual(other.overall.delta, cmp.overall.delta);
  ok(other.overall.ci[0] !== cmp.overall.ci[0] || other.overall.ci[1] !== cmp.overall.ci[1]);
});

/** A hand-made report: its records' verdicts, with the counts they imply. */
function report(model: string, rows: [BfclCategory, string, boolean][]): BfclReport {
  const records = rows.map(([category, entryId, valid], i) => ({
    category,
    id: i + 1,
    entryId,
    valid,
    errorType: valid ? null : "value_error:others",
    error: valid ? null : "[]",
  }));
  const count = (rs: typeof records) => metricValue(rs.filter((r) => r.valid).length, rs.length);
  const categories = [...new Set(rows.map(([c]) => c))].map((category) => ({
    category,
    accuracy: count(records.filter((r) => r.category === category)),
    errorTypes: {},
  }));
  return {
    schema: "assay.bfcl.v1",
    checker: "bfcl.ast@2024-08",
    model,
    matching: "greedy",
    matchingDisagreements: [],
    accuracy: count(records),
    errorTypes: {},
    categories,
    records,
  };
}

function refusal(a: BfclReport, b: BfclReport): string[] {
  try {
    compareBfclReports(a, b, { resamples: 10 });
  } catch (e) {
    ok(e instanceof ComparisonGateError);
    strictEqual(e.name, "ComparisonGateError");
    ok(e.message.startsWith("Refusing to compare: "), e.message);
    return e.differences.map((d) => `${d.kind}: ${d.detail}`);
  }
  throw new Error("Not refused");
}

Deno.test("compareBfclReports() gives the same bytes whatever the order of the reports merged into each side", async () => {
  // The overall interval resampled A's entries in the order its files were given (bfcl compare
  // --a x --a y against --a y --a x moved a bound).
  const runsOf = async (model: string) =>
    await Promise.all(BFCL_CATEGORIES.map((c) => runModel(model, c)));
  const [g, c] = [
    await runsOf("gpt-4o-2024-05-13-FC"),
    await runsOf("claude-3-5-sonnet-20240620-FC"),
  ];
  const merged = (runs: typeof g, order: number[]) =>
    mergeBfclReports(order.map((i) => bfclReport([runs[i]!])));
  const forward = BFCL_CATEGORIES.map((_, i) => i);
  const texts = new Set<string>();
  for (const order of [forward, [...forward].reverse(), [2, 0, 3, 1, ...forward.slice(4)]]) {
    texts.add(formatReport(
      compareBfclReports(merged(g, order), merged(c, forward), { seed: 7, resamples: 500 }),
    ));
  }
  strictEqual(texts.size, 1);
});

Deno.test("compareBfclReports() refuses other checkers, matchings, categories and entry sets", () => {
  const a = report("a", [["simple", "simple_0", true], ["relevance", "relevance_0", false]]);
  const b = report("b", [["simple", "simple_0", false], ["relevance", "relevance_0", true]]);
  strictEqual(compareBfclReports(a, b, { resamples: 10 }).overall.delta, 0);
  deepStrictEqual(refusal(a, { ...b, checker: "bfcl.ast@2025-01" }), [
    "checker: checkers differ: A bfcl.ast@2024-08, B bfcl.ast@2025-01",
  ]);
  deepStrictEqual(refusal(a, { ...b, matching: "optimal" }), [
    "matching: matchings differ: A greedy, B optimal",
  ]);
  deepStrictEqual(
    refusal(a, report("b", [["simple", "simple_0", true], ["java", "relevance_0", true]])),
    [
      "slices: category sets differ: only in A [relevance], only in B [java]",
      'example_ids: entry sets differ: 1 only in A ("relevance/relevance_0"), 1 only in B ("java/relevance_0")',
    ],
  );
  deepStrictEqual(
    refusal(a, report("b", [["simple", "simple_0", true], ["relevance", "r_1", true]])),
    [
      'example_ids: entry sets differ: 1 only in A ("relevance/relevance_0"), 1 only in B ("relevance/r_1")',
    ],
  );
  deepStrictEqual(refusal(a, { ...b, accuracy: metricValue(2, 2) }), [
    "inconsistent_report: the B report's accuracy is not the count of its records' verdicts",
  ]);
  deepStrictEqual(
    refusal(
      report("a", [["simple", "simple_0", true], ["simple", "simple_0", true]]),
      report("b", [["simple", "simple_0", true], ["simple", "simple_0", true]]),
    ),
    [
      'inconsistent_report: the A report repeats entries ("simple/simple_0")',
      'inconsistent_report: the B report repeats entries ("simple/simple_0")',
    ],
  );
  const notBfcl = { schema: "assay.evaluation.v1" } as unknown as BfclReport;
  deepStrictEqual(refusal(notBfcl, b), [
    'schema: the A report is not an assay.bfcl.v1 report (schema "assay.evaluation.v1")',
  ]);
  throws(() => compareBfclReports(a, b, { seed: -1 }), RangeError);
});

Deno.test("compareBfclReports() refuses reports scored against other question or answer files, category by category", async () => {
  const text = (path: string) => gunzipText(path);
  const data = (c: string) => `gorilla_openfunctions_v1_test_${c}.json.gz`;
  const files = async (model: string, category: BfclCategory, answers?: string) => ({
    questions: { name: "q.json", text: await text(`data/${data(category)}`) },
    answers: {
      name: "a.json",
      text: answers ?? await text(`data/possible_answer/${data(category)}`),
    },
    results: { name: "r.json", text: await text(`results/${model}/${category}_result.json.gz`) },
  });
  const scored = async (model: string, f: Awaited<ReturnType<typeof files>>) =>
    bfclReport([{
      ...checkBfcl(f, { category: "java", modelName: model }),
      inputs: await digestBfclInputs(f),
    }]);
  const gptFiles = await files("gpt-4o-2024-05-13-FC", "java");
  const gptJava = await scored("gpt-4o-2024-05-13-FC", gptFiles);
  deepStrictEqual(gptJava.categories[0]!.inputs, {
    questions: { sha256: sha256Hex(gptFiles.questions.text) },
    answers: { sha256: sha256Hex(gptFiles.answers.text) },
    results: { sha256: sha256Hex(gptFiles.results.text) },
  });
  const claudeJava = await scored(
    "claude-3-5-sonnet-20240620-FC",
    await files("claude-3-5-sonnet-20240620-FC", "java"),
  );
  strictEqual(compareBfclReports(gptJava, claudeJava, { resamples: 10 }).note, undefined);
  // Another answer file (here: one more accepted value for java_0) for the same entries.
  const answers = gptFiles.answers.text.replace(
    '["mapController"]',
    '["mapController", "otherController"]',
  );
  const edited = await scored(
    "claude-3-5-sonnet-20240620-FC",
    await files("claude-3-5-sonnet-20240620-FC", "java", answers),
  );
  const short = (t: string) => `${sha256Hex(t).slice(0, 12)}…`;
  deepStrictEqual(refusal(gptJava, edited), [
    `examples: java answer files' sha256 differ: A ${short(gptFiles.answers.text)}, B ${
      short(answers)
    }`,
  ]);
  // Merged reports keep each category's digests; categories recorded on one side only are noted.
  const relevance = await runModel("gpt-4o-2024-05-13-FC", "relevance");
  const merged = mergeBfclReports([gptJava, bfclReport([relevance])]);
  deepStrictEqual(merged.categories[0]!.inputs, gptJava.categories[0]!.inputs);
  const claudeRelevance = await runModel("claude-3-5-sonnet-20240620-FC", "relevance");
  const other = mergeBfclReports([edited, bfclReport([claudeRelevance])]);
  strictEqual(refusal(merged, other).length, 1);
  const { inputs: _, ...old } = claudeJava.categories[0]!;
  const c = compareBfclReports(gptJava, { ...claudeJava, categories: [old] }, { resamples: 10 });
  match(c.note!, /^report B records no input digest \(written before 2026-12-05/);
});

Deno.test("compareBfclReports() gives NumPy's percentile interval of the same paired resamples", async () => {
  await ensureScipy();
  const verdicts = "1101100111010110011001".split("").map((c) => c === "1");
  const others = "0111101101110010110101".split("").map((c) => c === "1");
  const cats = (i: number): BfclCategory => i < 13 ? "simple" : "parallel_function";
  const rows = (v: boolean[]) =>
    v.map((x, i) => [cats(i), `e_${i}`, x] as [BfclCategory, string, boolean]);
  const a = report("a", rows(verdicts));
  // B's records in another order: they are joined by category and id.
  const b = report("b", rows(others).reverse());
  const seed = 20261204, resamples = 2000, level = 0.9;
  const cmp = compareBfclReports(a, b, { seed, resamples, level });

  // The same stream, drawn one index at a time: overall, then the categories in sorted order.
  const rng = new Sfc32(seed);
  const slice = (idx: number[]) => ({
    a: idx.map((i) => verdicts[i]! ? 1 : 0),
    b: idx.map((i) => others[i]! ? 1 : 0),
    draws: Array.from(
      { length: resamples },
      () => idx.map(() => rng.nextBelow(idx.length)),
    ),
  });
  const all = verdicts.map((_, i) => i);
  const request = {
    level,
    slices: [
      slice(all),
      ...["parallel_function", "simple"].map((c) => slice(all.filter((i) => cats(i) === c))),
    ],
  };
  const child = new Deno.Command(PYTHON, { args: [ORACLE], stdin: "piped", stdout: "piped" })
    .spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(request)));
  await writer.close();
  const out = await child.output();
  strictEqual(out.success, true);
  const numpy: { slices: { delta: number; ci: [number, number] }[] } = JSON.parse(
    new TextDecoder().decode(out.stdout),
  );
  const ours = [cmp.overall, cmp.byCategory.parallel_function!, cmp.byCategory.simple!];
  ours.forEach((d, k) => {
    const want = numpy.slices[k]!;
    ok(Math.abs(d.delta - want.delta) < 1e-12, `slice ${k}: ${d.delta} vs ${want.delta}`);
    for (const j of [0, 1]) {
      ok(Math.abs(d.ci[j]! - want.ci[j]!) < 1e-12, `slice ${k}: ${d.ci} vs ${want.ci}`);
    }
    ok(d.ci[0] < d.ci[1], `slice ${k}: a proper interval`);
  });
});
