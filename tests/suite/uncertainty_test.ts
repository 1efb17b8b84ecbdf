// meanUncertainty() and repeatsReport(): the clustered standard error against an independent
// Python implementation of Miller's formula (exact rationals) on 1,000 seeded datasets, the t
// quantiles against SciPy, and the report's structure.
import { deepStrictEqual as assertEquals, ok, strictEqual, throws } from "node:assert/strict";
import { meanUncertainty, repeatsReport, type RunResult } from "../../src/suite/mod.ts";
import { studentTQuantile } from "../../src/suite/_student_t.ts";
import { ensureScipy, runLineOracle } from "../_debian_python.ts";
import { run } from "./_run_results.ts";
import { makeRng } from "../_corpus.ts";

const ORACLE = decodeURIComponent(new URL("./_miller_oracle.py", import.meta.url).pathname);

const close = (a: number, b: number, rel: number, what: string) =>
  ok(Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b)), `${what}: ${a} vs ${b}`);

/** An interval against mean ± half-width clipped to [0, 1], each end to 1e-12 (scores' scale). */
function clippedInterval(ci: [number, number], mean: number, half: number, what: string): void {
  const want = [Math.max(0, mean - half), Math.min(1, mean + half)];
  ci.forEach((end, i) =>
    ok(Math.abs(end - want[i]!) <= 1e-12, `${what}[${i}]: ${end} vs ${want[i]}`)
  );
}

Deno.test("meanUncertainty() matches an exact Python implementation of Miller's formula on 1,000 seeded datasets", async () => {
  await ensureScipy();
  const rng = makeRng(2024);
  const datasets: { values: number[]; clusters: string[]; level: number }[] = [];
  while (datasets.length < 1000) {
    const n = 2 + rng.int(59);
    const c = 1 + rng.int(n);
    const binary = rng.chance(0.5);
    const values = Array.from({ length: n }, () => binary ? rng.int(2) : rng.float());
    if (values.every((v) => v === values[0])) continue; // a zero standard error has no relative error
    const clusters = values.map(() => `c${rng.int(c)}`);
    datasets.push({ values, clusters, level: rng.pick([0.9, 0.95, 0.99]) });
  }
  const answers = await runLineOracle([ORACLE], datasets.map((d) => JSON.stringify(d)));
  let clustered = 0;
  datasets.forEach((d, i) => {
    const want = JSON.parse(answers[i]!);
    const got = meanUncertainty(d.values, { clusters: d.clusters, level: d.level });
    const at = `dataset ${i}`;
    close(got.mean!, want.mean, 1e-15, `${at} mean`);
    close(got.clt!.se, want.se_clt, 1e-12, `${at} CLT se`);
    clippedInterval(got.clt!.ci, want.mean, want.t_clt * want.se_clt, `${at} CLT interval`);
    strictEqual(got.clusters, want.clusters, at);
    if (want.se_clustered === undefined) {
      strictEqual(got.clustered, null, at);
      return;
    }
    clustered++;
    if (want.se_clustered === 0) strictEqual(got.clustered!.se, 0, at);
    close(got.clustered!.se, want.se_clustered, 1e-12, `${at} clustered se`);
    close(got.miller_se!, want.miller_se, 1e-12, `${at} Miller se`);
    strictEqual(got.clustered!.df, want.clusters - 1, at);
    clippedInterval(
      got.clustered!.ci,
      want.mean,
      want.t_clustered * want.se_clustered,
      `${at} clustered interval`,
    );
  });
  ok(clustered > 900, `${clustered} clustered datasets`);
  // Both ends are clipped somewhere in the 1,000, and both ends are inside [0, 1] everywhere.
  const all = datasets.map((d) =>
    meanUncertainty(d.values, { clusters: d.clusters, level: d.level })
  );
  const cis = all.flatMap((u) => [u.clt!.ci, ...(u.clustered ? [u.clustered.ci] : [])]);
  ok(cis.every(([lo, hi]) => 0 <= lo && lo <= hi && hi <= 1));
  ok(cis.some(([lo]) => lo === 0) && cis.some(([, hi]) => hi === 1));
});

Deno.test("meanUncertainty() clips its t intervals to [0, 1], where the mean of scores in [0, 1] lies", () => {
  // The suite demo's adapter arm: pass@2 over 8 goldens in 5 topics. Unclipped, its intervals were
  // [0.535, 1.131] (CLT) and [0.456, 1.210] (clustered).
  const values = [1, 0, 1, 1, 1, 1, 1, 2 / 3];
  const topics = ["rev", "ref", "prod", "ord", "rev", "cust", "ord", "prod"];
  const u = meanUncertainty(values, { clusters: topics });
  assertEquals(u.clt!.ci.map((x) => x.toFixed(3)), ["0.535", "1.000"]);
  assertEquals(u.clustered!.ci.map((x) => x.toFixed(3)), ["0.456", "1.000"]);
  // A mean near 0 is clipped below, and the interval of a constant is the constant.
  strictEqual(meanUncertainty([0, 0, 0, 1 / 3]).clt!.ci[0], 0);
  assertEquals(meanUncertainty([1, 1, 1]).clt!.ci, [1, 1]);
});

Deno.test("meanUncertainty() gives the CLT standard error when every score is its own cluster", () => {
  const values = [0.1, 0.5, 0.9, 1, 0];
  const u = meanUncertainty(values, { clusters: values.map((_, i) => `g${i}`) });
  close(u.clustered!.se, u.clt!.se, 1e-15, "singletons");
  close(u.miller_se!, u.clt!.se, 1e-15, "Miller singletons");
  strictEqual(u.clustered!.df, 4);
  assertEquals(meanUncertainty([0.5]).clt, null);
  assertEquals(meanUncertainty([1, 0], { clusters: ["a", "a"] }).clustered, null);
  throws(() => meanUncertainty([2]), /in \[0, 1\]/);
  throws(() => meanUncertainty([1], { clusters: [] }), /1 scores/);
});

Deno.test("studentTQuantile() inverts SciPy's t CDF (stdtr) to 1e-14 (1e-13 at 100,000 df)", async () => {
  await ensureScipy();
  const cases: [number, number][] = [];
  for (const df of [1, 2, 3, 4, 5, 7, 10, 15, 29, 30, 59, 100, 999, 1000, 3001, 100_000]) {
    for (const p of [0.6, 0.8, 0.9, 0.95, 0.975, 0.995, 0.9995, 0.025]) cases.push([p, df]);
  }
  // SciPy's own t.ppf is good to about 1e-10 only: check ours through SciPy's CDF instead.
  const src = "import sys, json\nfrom scipy.special import stdtr\n" +
    "for l in sys.stdin:\n x, df = json.loads(l)\n print(json.dumps(float(stdtr(df, x))), flush=True)";
  const xs = cases.map(([p, df]) => studentTQuantile(p, df));
  const cdf = await runLineOracle(
    ["-c", src],
    cases.map(([, df], i) => JSON.stringify([xs[i], df])),
  );
  cases.forEach(([p, df], i) => {
    // At 100,000 df the continued fraction leaves 3.4e-14 at p = 0.975 (mpmath agrees with SciPy).
    const tolerance = df > 10_000 ? 1e-13 : 1e-14;
    ok(Math.abs(Number(cdf[i]) - p) <= tolerance, `t(${p}, ${df}) = ${xs[i]}: CDF ${cdf[i]}`);
  });
});

Deno.test("repeatsReport() reduces, clusters by a golden field and compares arms on reduced scores", () => {
  const goldens = ["g1", "g2", "g3", "g4"].map((id, i) => ({
    id,
    question: "?",
    topic: i < 2 ? "sales" : "refunds",
  }));
  const results: RunResult[] = [];
  goldens.forEach((g, i) => {
    for (let r = 0; r < 3; r++) {
      results.push(run(g.id, "a", r, r <= i % 2 ? 1 : 0));
      results.push(run(g.id, "b", r, 1));
    }
  });
  const report = repeatsReport(results, goldens, {
    n: 3,
    reducer: "pass_at_k",
    k: 2,
    cluster: "topic",
  }, {
    seed: 7,
    resamples: 200,
  });
  assertEquals(report.cluster, "topic");
  assertEquals(report.bootstrap.seed, 7);
  // The bootstrap draws topics, and says so (it said "golden").
  strictEqual(report.bootstrap.cluster, "topic");
  strictEqual(
    repeatsReport(results, goldens, { n: 3, reducer: "mean" }, { resamples: 10 }).bootstrap.cluster,
    "golden",
  );
  const [a, b] = report.arms;
  assertEquals(a!.goldens.map((g) => g.value), [2 / 3, 1, 2 / 3, 1]);
  strictEqual(a!.clusters, 2);
  strictEqual(a!.clustered!.df, 1);
  strictEqual(a!.bootstrap.denominator, 4);
  strictEqual(b!.mean, 1);
  const [c] = report.comparisons;
  assertEquals([c!.arms, c!.n_goldens, c!.reduced!.a.value, c!.reduced!.b.value], [
    ["a", "b"],
    4,
    a!.mean,
    1,
  ]);
  strictEqual(c!.reduced!.delta, 1 - a!.mean!);
  throws(
    () =>
      repeatsReport(results, [{ id: "g1", question: "?" }, ...goldens.slice(1)], {
        n: 3,
        reducer: "mean",
        cluster: "topic",
      }),
    /Golden "g1" has no topic/,
  );
});

Deno.test("repeatsReport() compares every other arm with the baseline arm", () => {
  const goldens = ["g1", "g2", "g3"].map((id) => ({ id, question: "?" }));
  const results: RunResult[] = [];
  goldens.forEach((g, i) => {
    for (let r = 0; r < 2; r++) {
      results.push(run(g.id, "a", r, i === 0 ? 0 : 1));
      results.push(run(g.id, "b", r, 1));
      results.push(run(g.id, "c", r, r === 0 ? 1 : 0));
    }
  });
  const repeats = { n: 2, reducer: "mean" as const };
  const first = repeatsReport(results, goldens, repeats, { resamples: 100 });
  assertEquals(first.comparisons.map((c) => c.arms), [["a", "b"], ["a", "c"]]);
  const byB = repeatsReport(results, goldens, repeats, { resamples: 100, baseline: "b" });
  assertEquals(byB.arms, first.arms);
  assertEquals(byB.comparisons.map((c) => c.arms), [["b", "a"], ["b", "c"]]);
  // The report names its baseline: each delta is the other arm minus it.
  assertEquals([first.baseline, byB.baseline], ["a", "b"]);
  const [ba, bc] = byB.comparisons;
  strictEqual(ba!.reduced!.delta, first.arms[0]!.mean! - 1);
  strictEqual(bc!.reduced!.delta, 0.5 - 1);
  assertEquals(
    repeatsReport(results, goldens, repeats, { resamples: 100, baseline: "a" }),
    first,
  );
  throws(
    () => repeatsReport(results, goldens, repeats, { baseline: "z" }),
    /The baseline arm "z" has no runs/,
  );
});

Deno.test("repeatsReport() takes the suite's repeats.baseline by default, an option overriding it, never the results' order", () => {
  const goldens = ["g1", "g2"].map((id) => ({ id, question: "?" }));
  const results: RunResult[] = [];
  for (const g of goldens) {
    results.push(run(g.id, "base", 0, 0), run(g.id, "base", 1, 1));
    results.push(run(g.id, "adapter", 0, 1), run(g.id, "adapter", 1, 1));
  }
  const block = { n: 2, reducer: "mean" as const };
  const named = { ...block, baseline: "base" };
  const byBase = repeatsReport(results, goldens, named, { resamples: 100 });
  strictEqual(byBase.baseline, "base");
  assertEquals(byBase.comparisons.map((c) => c.arms), [["base", "adapter"]]);
  strictEqual(byBase.comparisons[0]!.reduced!.delta, 0.5);
  // The section's block is the suite's without its baseline, which the section gives itself.
  assertEquals(byBase.repeats, block);
  // The results in another order: the same section.
  assertEquals(repeatsReport([...results].reverse(), goldens, named, { resamples: 100 }), byBase);
  // With none named, the first arm in code-point order; an option overrides the suite's.
  const unnamed = repeatsReport(results, goldens, block, { resamples: 100 });
  strictEqual(unnamed.baseline, "adapter");
  assertEquals(
    repeatsReport(results, goldens, named, { resamples: 100, baseline: "adapter" }),
    unnamed,
  );
  throws(
    () => repeatsReport(results, goldens, { ...block, baseline: "bse" }),
    /The baseline arm "bse" has no runs \(did you mean "base"\?\)/,
  );
});

Deno.test("repeatsReport() pairs nothing between arms that share no golden, and says so", () => {
  const goldens = ["g1", "g2", "g3", "g4"].map((id) => ({ id, question: "?" }));
  const results: RunResult[] = [];
  for (let r = 0; r < 2; r++) {
    results.push(run("g1", "a", r, 1), run("g2", "a", r, r));
    results.push(run("g3", "b", r, 0), run("g4", "b", r, 1));
    results.push(run("g2", "c", r, 1), run("g3", "c", r, 0));
  }
  const report = repeatsReport(results, goldens, { n: 2, reducer: "mean" }, { resamples: 100 });
  assertEquals(report.arms.map((a) => [a.arm, a.mean]), [["a", 0.75], ["b", 0.5], ["c", 0.5]]);
  const [ab, ac] = report.comparisons;
  assertEquals(ab, { arms: ["a", "b"], n_goldens: 0, reduced: null });
  // One golden in common (g2) is paired as before.
  assertEquals([ac!.arms, ac!.n_goldens], [["a", "c"], 1]);
  strictEqual(ac!.reduced!.delta, 1 - 0.5);
});

Deno.test("meanUncertainty() takes a level that is a number in (0, 1) only", () => {
  throws(() => meanUncertainty([0, 1], { level: "0.9" as never }), {
    name: "RangeError",
    message: "level must be a number in (0, 1), got 0.9",
  });
  throws(() => meanUncertainty([0, 1], { level: 1 }), RangeError);
  strictEqual(meanUncertainty([0, 1], { level: 0.9 }).level, 0.9);
});
