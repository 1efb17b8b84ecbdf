// The scorecard (src/suite/scorecard.ts, src/stats/pooled/pooled.ts, src/stats/exact.ts): hand-computed fixtures, the
// judge-error rule, intervals (containment, degenerate, determinism, clustering by golden,
// pairing), the comparison gate, and an independent Python oracle (tests/suite/_scorecard_oracle.py:
// exact Fractions, numpy.quantile) that must agree bit for bit on seeded random suites.
//
// Needs --allow-run (/usr/bin/python3, apt-get) and --allow-sys (uid, for ensureScipy).
import {
  deepStrictEqual as assertEquals,
  notDeepStrictEqual,
  ok,
  strictEqual,
  throws,
} from "node:assert/strict";
import { Sfc32 } from "../../src/engine/mod.ts";
import { percentileSorted } from "../../src/stats/mod.ts";
import { type Estimate, runOverall, scorecard, type ScoreRow } from "../../src/suite/mod.ts";
import { ArmComparisonError, compareArms } from "../../src/suite/mod.ts";
import { decompose, roundRatio } from "../../src/stats/mod.ts";
import { exactMean, PooledColumn } from "../../src/stats/pooled/pooled.ts";
import { RubricMismatchError } from "../../src/suite/judge/judge.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { ensureScipy, runLineOracle } from "../_debian_python.ts";

const ORACLE = decodeURIComponent(new URL("./_scorecard_oracle.py", import.meta.url).pathname);

/** Runs the oracle once over every case (JSONL in, JSONL out). */
async function oracle<T>(cases: unknown[]): Promise<T[]> {
  await ensureScipy();
  const lines = await runLineOracle([ORACLE], cases.map((c) => JSON.stringify(c)));
  return lines.map((l) => JSON.parse(l) as T);
}

const row = (
  golden_id: string,
  repeat: number,
  metric: string,
  score: number | null,
  extra: Partial<ScoreRow> = {},
): ScoreRow => ({
  golden_id,
  arm: "base",
  repeat,
  metric,
  score,
  applicable: true,
  threshold: 0.5,
  ...extra,
});

const OPTS = { metrics: ["m1", "m2", "m3"], seed: 7, resamples: 2000 };

// The hand fixture: arm "base", metrics m1 (threshold 0.6, sets the pass threshold), m2
// (threshold 0.5, a judge), m3 (threshold 0.5, applicable on g1 only).
//   g1 r0: m1 1,    m2 0.5,  m3 1      → overall (1+0.5+1)/3 = 5/6 ≥ 0.6 pass
//   g1 r1: m1 0.5,  m2 0.25, m3 0      → overall 0.75/3 = 0.25 fail
//   g2 r0: m1 1,    m2 1,    m3 n/a    → overall 1 pass
//   g2 r1: m1 0.5,  m2 null (judge error), m3 n/a → incomplete: pass null, left out
//   g3 r0: m1 0,    m2 0.5,  m3 n/a    → overall 0.25 fail
// Complete runs 4: passes 2 → pass rate 0.5; overall mean (5/6 + 0.25 + 1 + 0.25)/4 = 7/12.
// m1: (1 + 0.5 + 1 + 0.5 + 0)/5 = 0.6; m2: applicable 5, 1 error, (0.5 + 0.25 + 1 + 0.5)/4 = 0.5625;
// m3: (1 + 0)/2 = 0.5, applicable 2.
function handFixture(): ScoreRow[] {
  const t = { m1: 0.6, m2: 0.5, m3: 0.5 } as Record<string, number>;
  const runs: [string, number, number, number | null, number | null][] = [
    ["g1", 0, 1, 0.5, 1],
    ["g1", 1, 0.5, 0.25, 0],
    ["g2", 0, 1, 1, null],
    ["g2", 1, 0.5, null, null],
    ["g3", 0, 0, 0.5, null],
  ];
  return runs.flatMap(([g, r, a, b, c]) => [
    row(g, r, "m1", a, { threshold: t.m1! }),
    row(g, r, "m2", b, { threshold: t.m2!, rubric_sha256: "ab".repeat(32) }),
    row(g, r, "m3", c, { threshold: t.m3!, applicable: c !== null }),
  ]);
}

Deno.test("runOverall() averages the applicable criteria and passes at the first threshold", () => {
  const rows = handFixture();
  const r0 = runOverall(rows.slice(0, 3), OPTS.metrics);
  assertEquals(r0, {
    status: "complete",
    overall: 5 / 6,
    pass: true,
    threshold: 0.6,
    n_applicable: 3,
    n_scored: 3,
    errored: [],
  });
  // Row order within a run does not matter.
  assertEquals(runOverall([rows[2]!, rows[0]!, rows[1]!], OPTS.metrics), r0);
  strictEqual(runOverall(rows.slice(3, 6), OPTS.metrics).pass, false);
  const g2r0 = runOverall(rows.slice(6, 9), OPTS.metrics);
  assertEquals([g2r0.overall, g2r0.n_applicable, g2r0.pass], [1, 2, true]);
  // Exactly at the threshold passes: (0.5 + 0.7) / 2 = 0.6.
  const at = runOverall([row("g", 0, "m1", 0.5, { threshold: 0.6 }), row("g", 0, "m2", 0.7)], [
    "m1",
    "m2",
  ]);
  assertEquals([at.overall, at.pass], [0.6, true]);
});

Deno.test("runOverall() marks a judge error incomplete, never a silent 0 or 1", () => {
  const rows = handFixture();
  assertEquals(runOverall(rows.slice(9, 12), OPTS.metrics), {
    status: "incomplete",
    overall: 0.5,
    pass: null,
    threshold: 0.6,
    n_applicable: 2,
    n_scored: 1,
    errored: ["m2"],
  });
  const none = [row("g", 0, "a", null, { applicable: false })];
  assertEquals(runOverall(none, ["a"]), {
    status: "unscored",
    overall: null,
    pass: null,
    threshold: 0.5,
    n_applicable: 0,
    n_scored: 0,
    errored: [],
  });
  const allErr = runOverall([row("g", 0, "a", null)], ["a"]);
  assertEquals([allErr.status, allErr.overall, allErr.pass], ["incomplete", null, null]);
});

// A judge error's score is unknown, but it lies in [0, 1]: the run's overall score with every
// missing score at 0 and at 1 bounds every value it could have. Five metrics: m1 sets the
// threshold; j1 and j2 are judges; m3 does not apply, so it weighs nothing (the overall score is the
// mean of the four applicable criteria, each weighing 1/4).
//   m1 1, j1 error, m3 n/a, j2 error, m4 0.5 → lowest (1 + 0.5 + 0 + 0) / 4 = 0.375,
//                                              highest (1 + 0.5 + 1 + 1) / 4 = 0.875.
Deno.test("runOverall() decides an incomplete run's pass when no score of its judge errors could change it", () => {
  const order = ["m1", "j1", "m3", "j2", "m4"];
  const rows = (threshold: number, m1: number | null = 1, m4 = 0.5) => [
    row("g", 0, "m1", m1, { threshold }),
    row("g", 0, "j1", null),
    row("g", 0, "m3", null, { applicable: false }),
    row("g", 0, "j2", null),
    row("g", 0, "m4", m4),
  ];
  const verdict = (rs: ScoreRow[]) => {
    const r = runOverall(rs, order);
    return [r.status, r.overall, r.pass, r.n_applicable, r.errored];
  };
  const incomplete = (pass: boolean | null) => ["incomplete", 0.75, pass, 4, ["j1", "j2"]];
  // Even the lowest (0.375) reaches the threshold: passes, whatever the judges would have said.
  assertEquals(verdict(rows(0.3)), incomplete(true));
  assertEquals(verdict(rows(0.375)), incomplete(true)); // the lowest exactly at it passes
  // Even the highest (0.875) stays under it: fails.
  assertEquals(verdict(rows(0.9)), incomplete(false));
  // In between, the judges decide: no verdict, left out of the pass rate.
  assertEquals(verdict(rows(0.6)), incomplete(null));
  assertEquals(verdict(rows(0.875)), incomplete(null)); // the highest exactly at it could pass
  assertEquals(verdict(rows(0.37500000000000006)), incomplete(null)); // one ulp above the lowest
  assertEquals(verdict(rows(0.8750000000000001)), incomplete(false)); // one ulp above the highest
  // The overall score stays that of the scored criteria: a judge error never counts as a score.
  // Only the applicable criteria weigh: were m3 applicable with 0, the lowest would be 0.3.
  const m3 = rows(0.375).map((r) => r.metric === "m3" ? { ...r, score: 0, applicable: true } : r);
  assertEquals(verdict(m3), ["incomplete", 0.5, null, 5, ["j1", "j2"]]);
  // The threshold is the first metric's even when that metric is the one that failed: one
  // judge error among (j1 0.5) weighs half.
  const first = (t: number) => [row("g", 0, "j1", null, { threshold: t }), row("g", 0, "m1", 0.5)];
  assertEquals(runOverall(first(0.25), ["j1", "m1"]).pass, true);
  assertEquals(runOverall(first(0.5), ["j1", "m1"]).pass, null);
  assertEquals(runOverall(first(0.76), ["j1", "m1"]).pass, false);
  // Every applicable criterion failed: lowest 0, highest 1.
  const all = (t: number) => runOverall([row("g", 0, "a", null, { threshold: t })], ["a"]);
  assertEquals([all(0).overall, all(0).pass, all(0.5).pass], [null, true, null]);
  // The bounds are computed as a complete run's overall is (the exact mean rounded once), and
  // compared with the threshold as it is: 0.7, 1, 1 and a judge error's lowest 0 is
  // 2.7 / 4 = 0.675 exactly rounded, the pass of a complete run of the same scores.
  const lowest = runOverall(
    [row("g", 0, "a", 0.7), row("g", 0, "b", 1), row("g", 0, "c", 1), row("g", 0, "d", 0)],
    ["a", "b", "c", "d"],
  ).overall!;
  const rounded = (t: number) =>
    runOverall(
      [
        row("g", 0, "a", 0.7, { threshold: t }),
        row("g", 0, "b", 1),
        row("g", 0, "c", 1),
        row("g", 0, "d", null),
      ],
      ["a", "b", "c", "d"],
    ).pass;
  assertEquals([rounded(lowest), rounded(lowest + 2 ** -53)], [true, null]);
});

Deno.test("scorecard() counts a decided incomplete run in the pass rate, never in the overall mean", () => {
  // Threshold 0.6; three criteria, so a run with a judge error lies between (m1 + m2) / 3 and
  // (m1 + m2 + 1) / 3.
  const run = (g: string, r: number, m1: number, m2: number, j: number | null, arm = "base") =>
    [
      row(g, r, "m1", m1, { threshold: 0.6 }),
      row(g, r, "m2", m2),
      row(g, r, "j", j, { rubric_sha256: "ab".repeat(32) }),
    ].map((x) => ({ ...x, arm }));
  const rows = [
    ...run("g1", 0, 1, 1, 1), //      complete, 1: pass
    ...run("g1", 1, 0, 0.5, 0.25), // complete, 0.25: fail
    ...run("g2", 0, 0, 0.5, null), // at most 0.5: fails whatever the judge says
    ...run("g2", 1, 1, 0.5, null), // from 0.5 to 0.83: no verdict, left out
    ...run("g3", 0, 1, 1, null), //   at least 0.67: passes whatever the judge says
    ...run("g3", 1, 0, 0, null), //   at most 0.33: fails
  ];
  const metrics = ["m1", "m2", "j"];
  const a = scorecard(rows, { metrics, seed: 1, resamples: 200 }).arms[0]!;
  assertEquals([a.n_runs, a.n_incomplete, a.n_unscored], [6, 4, 0]);
  const point = (e: Estimate) => [e.value, e.numerator, e.denominator];
  // 2 of the 5 decided runs pass. Before, 1 of the 2 complete ones: two runs that could not pass
  // were left out, and the pass rate rose to 0.5.
  assertEquals(point(a.pass_rate), [0.4, 2, 5]);
  assertEquals(point(a.overall), [0.625, 1.25, 2]); // complete runs only, as before
  assertEquals(a.metrics.map((m) => [m.n_applicable, m.n_errors]), [[6, 0], [6, 0], [6, 4]]);
  // The paired comparison reads the same verdicts: in "new", g2 r1's judge answered 1 (pass).
  const other = [...rows.slice(0, 9), ...run("g2", 1, 1, 0.5, 1), ...rows.slice(12)]
    .map((x) => ({ ...x, arm: "new" }));
  const c = compareArms([...rows, ...other], ["base", "new"], { metrics, resamples: 10 });
  assertEquals([c.pass_rate.a.value, c.pass_rate.b.value, c.pass_rate.delta], [
    0.4,
    0.5,
    0.5 - 0.4,
  ]);
});

Deno.test("runOverall() refuses rows of several runs, missing or repeated metrics", () => {
  const rows = handFixture();
  throws(() => runOverall(rows.slice(0, 4), OPTS.metrics), /rows\[3\] is of run/);
  throws(() => runOverall(rows.slice(0, 2), OPTS.metrics), /has no row for "m3"/);
  throws(() => runOverall([...rows.slice(0, 3), rows[0]!], OPTS.metrics), /two rows for "?m/);
  throws(() => runOverall(rows.slice(0, 3), ["m1", "m2"]), /not in metrics/);
  throws(() => runOverall(rows.slice(0, 3), ["m1", "m1"]), RangeError);
  throws(() => runOverall([], ["m1"]), TypeError);
  throws(() => runOverall([{ ...rows[0]!, score: 1.5 }], ["m1"]), /rows\[0\]\.score.*1\.5/);
  throws(() => runOverall([{ ...rows[0]!, score: NaN }], ["m1"]), RangeError);
  throws(() => runOverall([{ ...rows[0]!, repeat: -1 }], ["m1"]), RangeError);
  throws(() => runOverall([{ ...rows[0]!, golden_id: 3 } as never], ["m1"]), TypeError);
  throws(() => runOverall([null as never], ["m1"]), /rows\[0\] must be an object/);
});

Deno.test("scorecard() reproduces the hand-computed fixture", () => {
  const card = scorecard(handFixture(), OPTS);
  strictEqual(card.arms.length, 1);
  const a = card.arms[0]!;
  assertEquals(
    [a.arm, a.n_runs, a.n_goldens, a.n_incomplete, a.n_unscored, a.threshold],
    ["base", 5, 3, 1, 0, 0.6],
  );
  const point = (e: Estimate) => [e.value, e.numerator, e.denominator];
  assertEquals(point(a.pass_rate), [0.5, 2, 4]);
  assertEquals(point(a.overall), [7 / 12, 5 / 6 + 0.25 + 1 + 0.25, 4]);
  assertEquals(a.metrics.map((m) => [m.metric, m.threshold, m.n_applicable, m.n_errors]), [
    ["m1", 0.6, 5, 0],
    ["m2", 0.5, 5, 1],
    ["m3", 0.5, 2, 0],
  ]);
  assertEquals(a.metrics.map((m) => point(m.mean)), [[0.6, 3, 5], [0.5625, 2.25, 4], [0.5, 1, 2]]);
  assertEquals(a.metrics.map((m) => m.rubric_sha256), [[], ["ab".repeat(32)], []]);
  assertEquals(card.bootstrap.cluster, "golden");
  assertEquals(card.bootstrap.seed, 7);
  // m3 applies on g1 only: resamples that drew no g1 are undefined, left out of its interval.
  // P(no g1 in 3 draws) = (2/3)^3 ≈ 0.30.
  const u = a.metrics[2]!.mean.undefined_resamples;
  ok(u > 0.25 * 2000 && u < 0.35 * 2000, `undefined resamples ${u}`);
  // g1's m3 is always (1 + 0) / 2 per draw: degenerate.
  assertEquals(a.metrics[2]!.mean.ci, [0.5, 0.5]);
});

/** A seeded random suite: rows of `arms` over some goldens, repeats and metrics. */
function randomSuite(rng: Rng, arms: string[], opts: { hostile?: boolean } = {}) {
  const ids = ["g1", "g2", "g10", "a", "B", "\u{1F600}", "\uFF5E", "é", "__proto__", "g 3"];
  const nm = 1 + rng.int(4);
  const metrics = Array.from({ length: nm }, (_, i) => i === 1 ? "__proto__" : `m${i}`);
  const thresholds = metrics.map(() => rng.pick([0, 0.5, 0.7, 1, rng.float()]));
  // The first metric nearly always applies; others often, rarely or never.
  const applies = metrics.map((_, i) => i === 0 ? 0.95 : rng.pick([0.75, 0.75, 0.1, 0]));
  const kind = rng.int(5);
  const score = (): number => {
    switch (kind) {
      case 0:
        return rng.int(2);
      case 1:
        return rng.int(5) / 4;
      case 2:
        return rng.pick([0.1, 0.2, 0.3, 0.7, 0.9, 1 / 3]);
      case 3:
        return rng.float();
      default:
        return rng.pick([0, 1, 0.7, 1e-300, 5e-324, 2.2250738585072014e-308, rng.float() ** 40]);
    }
  };
  const rows: ScoreRow[] = [];
  for (const arm of arms) {
    const extra = rng.int(3);
    const pool = ids.slice(0, 3 + rng.int(ids.length - 3));
    const goldens = pool.filter((g) => g === "g1" || rng.chance(0.85)).concat([`x${arm}${extra}`]);
    for (const g of goldens) {
      const reps = 1 + rng.int(4);
      const base = score();
      for (let r = 0; r < reps; r++) {
        metrics.forEach((m, i) => {
          const applicable = rng.chance(applies[i]!);
          const s = !applicable || rng.chance(0.06) ? null : rng.chance(0.5) ? base : score();
          rows.push({
            golden_id: g,
            arm,
            repeat: r * 3,
            metric: m,
            score: s,
            applicable,
            threshold: thresholds[i]!,
            ...(i === 1 ? { rubric_sha256: "cd".repeat(32) } : {}),
          });
        });
      }
    }
  }
  if (opts.hostile) rows.reverse();
  return { rows, metrics };
}

interface OracleColumn {
  value: number | null;
  numerator: number;
  denominator: number;
  ci: [number, number] | null;
  undefined: number;
}

const asOracle = (e: Estimate): OracleColumn => ({
  value: e.value,
  numerator: e.numerator,
  denominator: e.denominator,
  ci: e.ci,
  undefined: e.undefined_resamples,
});

function drawsFor(seed: number, goldens: number, resamples: number): number[][] {
  const rng = new Sfc32(seed);
  const out: number[][] = [];
  for (let r = 0; r < resamples; r++) {
    const d = new Int32Array(goldens);
    rng.fillBelow(goldens, d);
    out.push([...d]);
  }
  return out;
}

Deno.test("scorecard() and compareArms() agree bit for bit with the Python oracle", async () => {
  const rng = makeRng(20261130);
  const RESAMPLES = 200;
  const cases: unknown[] = [];
  const mine: { columns: OracleColumn[]; deltas: unknown[] }[] = [];
  // Incomplete runs by pass: decided either way (counted in the pass rate) or not.
  const verdicts = { true: 0, false: 0, null: 0 };
  for (let i = 0; i < 300; i++) {
    const level = rng.pick([0.95, 0.9, 0.5, 0.99]);
    const seed = rng.int(2 ** 32);
    const paired = i % 2 === 1;
    const arms = paired ? ["base", "new"] : ["solo"];
    const { rows, metrics } = randomSuite(rng, arms, { hostile: i % 3 === 0 });
    const opts = { metrics, seed, resamples: RESAMPLES, level };
    const runs = Map.groupBy(rows, (r) => JSON.stringify([r.arm, r.golden_id, r.repeat]));
    for (const run of runs.values()) {
      const o = runOverall(run, metrics);
      if (o.status === "incomplete") verdicts[String(o.pass) as keyof typeof verdicts]++;
    }
    let goldens: number;
    if (paired) {
      const c = compareArms(rows, ["base", "new"], opts);
      goldens = c.n_goldens;
      const ds = [c.pass_rate, c.overall, ...c.metrics_delta];
      mine.push({
        columns: [...ds.map((d) => asOracle(d.a)), ...ds.map((d) => asOracle(d.b))],
        deltas: ds.map((d) => ({ delta: d.delta, ci: d.ci, undefined: d.undefined_resamples })),
      });
    } else {
      const a = scorecard(rows, opts).arms[0]!;
      goldens = a.n_goldens;
      mine.push({
        columns: [a.pass_rate, a.overall, ...a.metrics.map((m) => m.mean)].map(asOracle),
        deltas: [],
      });
    }
    cases.push({ rows, metrics, level, arms, draws: drawsFor(seed, goldens, RESAMPLES) });
  }
  const theirs = await oracle<{ columns: (OracleColumn & { resampled: unknown })[] }>(cases);
  let columns = 0;
  const seen = { undefinedResamples: 0, nullValue: 0, nullCi: 0 };
  theirs.forEach((t, i) => {
    const cols = t.columns.map(({ resampled: _, ...c }) => c);
    for (const c of cols) {
      if (c.undefined > 0) seen.undefinedResamples++;
      if (c.value === null) seen.nullValue++;
      if (c.ci === null) seen.nullCi++;
    }
    assertEquals(mine[i]!.columns, cols, `case ${i}`);
    assertEquals(mine[i]!.deltas, (t as unknown as { deltas: unknown[] }).deltas, `case ${i}`);
    columns += cols.length;
  });
  ok(columns > 1500, `${columns} columns compared`);
  ok(verdicts.true > 50 && verdicts.false > 50 && verdicts.null > 50, JSON.stringify(verdicts));
  ok(
    seen.undefinedResamples > 100 && seen.nullValue > 10 && seen.nullCi > 10,
    JSON.stringify(seen),
  );
  console.log(
    `scorecard vs oracle: ${cases.length} suites, ${columns} statistics, bit-identical; ` +
      JSON.stringify(seen),
  );
});

Deno.test("PooledColumn.pool() rounds the exact pooled mean once (Python Fractions)", async () => {
  const rng = makeRng(99);
  const cases: { kind: "pool"; per_golden: number[][]; weights: number[] }[] = [];
  const mine: { sum: number; count: number; mean: number | null }[] = [];
  const value = () =>
    rng.pick([
      () => rng.float(),
      () => rng.int(11) / 10,
      () => rng.float() * 2 ** -rng.int(1080),
      () => 5e-324 * rng.int(100),
      () => 1,
    ])();
  for (let i = 0; i < 3000; i++) {
    const per = Array.from(
      { length: 1 + rng.int(6) },
      () => Array.from({ length: rng.int(5) }, value),
    );
    const weights = per.map(() => rng.int(4));
    const col = new PooledColumn(per);
    const [sum, count, mean] = col.pool(Int32Array.from(weights));
    mine.push({ sum, count, mean: count === 0 ? null : mean });
    cases.push({ kind: "pool", per_golden: per, weights });
  }
  const theirs = await oracle<typeof mine[number]>(cases);
  theirs.forEach((t, i) => assertEquals(mine[i], t, `case ${i}: ${JSON.stringify(cases[i])}`));
});

Deno.test("roundRatio() and exactMean() are exact on the edges", () => {
  assertEquals(decompose(0.75), [3, -2]);
  assertEquals(decompose(5e-324), [1, -1074]);
  assertEquals(decompose(1), [1, 0]);
  strictEqual(roundRatio(1n, 3n, 0), 1 / 3);
  strictEqual(roundRatio(1n, 1n, -1074), 5e-324);
  strictEqual(roundRatio(1n, 2n, -1074), 0); // a tie, to even
  strictEqual(roundRatio(3n, 2n, -1074), 1e-323); // 1.5 ulps: a tie, to even (2)
  strictEqual(exactMean([0.5, 0.25]), 0.375);
  // 0.1 + 0.2 is 0.3000000000000000166… exactly; half of it rounds up, not to 0.15.
  strictEqual(exactMean([0.1, 0.2]), 0.15000000000000002);
  strictEqual(exactMean(Array(7).fill(0.7)), 0.7);
  strictEqual(exactMean([]), null);
});

Deno.test("scorecard() intervals contain the point estimate", () => {
  const rng = makeRng(5);
  let checked = 0;
  for (let i = 0; i < 40; i++) {
    const { rows, metrics } = randomSuite(rng, ["x", "y"]);
    const card = scorecard(rows, { metrics, seed: i, resamples: 500 });
    for (const a of card.arms) {
      for (const e of [a.pass_rate, a.overall, ...a.metrics.map((m) => m.mean)]) {
        if (e.value === null) continue;
        ok(e.ci !== null && e.ci[0] <= e.value && e.value <= e.ci[1], JSON.stringify(e));
        checked++;
      }
    }
  }
  ok(checked > 200, `${checked} intervals`);
});

Deno.test("scorecard() gives a degenerate interval for constant scores", () => {
  for (const c of [0.7, 0.1, 1 / 3, 1, 0]) {
    const rows: ScoreRow[] = [];
    for (let g = 0; g < 9; g++) {
      for (let r = 0; r <= g % 4; r++) rows.push(row(`g${g}`, r, "m", c, { threshold: 0.3 }));
    }
    const a = scorecard(rows, { metrics: ["m"], seed: 3, resamples: 1000 }).arms[0]!;
    assertEquals([a.overall.value, a.overall.ci], [c, [c, c]]);
    assertEquals([a.metrics[0]!.mean.value, a.metrics[0]!.mean.ci], [c, [c, c]]);
    const p = c >= 0.3 ? 1 : 0;
    assertEquals([a.pass_rate.value, a.pass_rate.ci], [p, [p, p]]);
  }
});

Deno.test("scorecard() is deterministic: same seed, same bytes; another seed, other bounds", () => {
  const { rows, metrics } = randomSuite(makeRng(11), ["b", "a"]);
  const one = JSON.stringify(scorecard(rows, { metrics, seed: 1, resamples: 1000 }));
  strictEqual(JSON.stringify(scorecard(rows, { metrics, seed: 1, resamples: 1000 })), one);
  // Row order does not matter.
  const shuffled = [...rows].reverse();
  strictEqual(JSON.stringify(scorecard(shuffled, { metrics, seed: 1, resamples: 1000 })), one);
  assertEquals(JSON.parse(one).arms.map((a: { arm: string }) => a.arm), ["a", "b"]);
  // A continuous, non-degenerate case: another seed moves the bounds.
  const r2 = makeRng(12);
  const cont: ScoreRow[] = [];
  for (let g = 0; g < 30; g++) cont.push(row(`g${g}`, 0, "m", r2.float()));
  const ci = (seed: number) =>
    scorecard(cont, { metrics: ["m"], seed, resamples: 1000 }).arms[0]!.metrics[0]!.mean.ci;
  assertEquals(ci(1), ci(1));
  notDeepStrictEqual(ci(1), ci(2));
});

Deno.test("scorecard() clusters by golden: correlated repeats widen the interval", () => {
  // 40 goldens × 5 repeats, every repeat of a golden scoring the same: 40 independent values,
  // not 200. A run-level bootstrap (computed here) treats them as 200 and is about √5 ≈ 2.24
  // times too narrow.
  const rng = makeRng(77);
  const rows: ScoreRow[] = [];
  const runScores: number[] = [];
  for (let g = 0; g < 40; g++) {
    const s = rng.float();
    for (let r = 0; r < 5; r++) {
      rows.push(row(`g${String(g).padStart(2, "0")}`, r, "m", s));
      runScores.push(s);
    }
  }
  const B = 4000;
  const ci = scorecard(rows, { metrics: ["m"], seed: 5, resamples: B }).arms[0]!.metrics[0]!
    .mean.ci!;
  // The naive run-level bootstrap: draw 200 runs with replacement.
  const draw = new Sfc32(5);
  const d = new Int32Array(runScores.length);
  const means = new Float64Array(B);
  for (let b = 0; b < B; b++) {
    draw.fillBelow(runScores.length, d);
    let s = 0;
    for (const k of d) s += runScores[k]!;
    means[b] = s / d.length;
  }
  means.sort();
  const naive = [percentileSorted(means, 0.025), percentileSorted(means, 0.975)];
  const ratio = (ci[1] - ci[0]) / (naive[1]! - naive[0]!);
  ok(ratio > 1.8 && ratio < 2.8, `cluster/naive width ratio ${ratio}`);
});

Deno.test("compareArms() pairs by golden and reports the dropped goldens", () => {
  const rows: ScoreRow[] = [];
  // base: g1 0, g2 1, g3 1 (g3 only in base); new: g1 1 (two repeats: 1, 0.5), g2 1, g4 0.
  const add = (arm: string, g: string, r: number, s: number) =>
    rows.push({ ...row(g, r, "m", s), arm });
  add("base", "g1", 0, 0);
  add("base", "g2", 0, 1);
  add("base", "g3", 0, 1);
  add("new", "g1", 0, 1);
  add("new", "g1", 1, 0.5);
  add("new", "g2", 0, 1);
  add("new", "g4", 0, 0);
  add("other", "g1", 0, 0.25);
  const c = compareArms(rows, ["base", "new"], { metrics: ["m"], seed: 2, resamples: 1000 });
  assertEquals([c.a, c.b, c.n_goldens, c.dropped, c.dropped_goldens], [
    "base",
    "new",
    2,
    { a: 1, b: 1 },
    { a: ["g3"], b: ["g4"] },
  ]);
  // base over g1, g2: mean 0.5, passes 1/2; new: mean (1 + 0.5 + 1)/3, passes 3/3.
  assertEquals([c.metrics_delta[0]!.a.value, c.metrics_delta[0]!.b.value], [0.5, 2.5 / 3]);
  strictEqual(c.metrics_delta[0]!.delta, 2.5 / 3 - 0.5);
  assertEquals([c.pass_rate.a.value, c.pass_rate.b.value, c.pass_rate.delta], [0.5, 1, 0.5]);
  // Draws {g1,g1}: 1 − 0; {g2,g2}: 1 − 1; mixed: 1 − 0.5.
  assertEquals(c.pass_rate.ci, [0, 1]);
  strictEqual(c.metrics_delta[0]!.rubric_sha256, null);
});

Deno.test("compareArms() uses the same golden draw for both arms", () => {
  // B scores every golden exactly 0.25 above A: the delta is 0.25 in every paired resample,
  // whatever goldens are drawn. Independent draws would give a wide interval. (16 goldens × 2
  // repeats: every resample pools 32 dyadic scores, so both means are exact.)
  const rng = makeRng(3);
  const rows: ScoreRow[] = [];
  for (let g = 0; g < 16; g++) {
    const s = rng.int(4) / 4 * 0.75;
    for (let r = 0; r < 2; r++) {
      rows.push({ ...row(`g${g}`, r, "m", s), arm: "a" });
      rows.push({ ...row(`g${g}`, r, "m", s + 0.25), arm: "b" });
    }
  }
  const c = compareArms(rows, ["a", "b"], { metrics: ["m"], seed: 9, resamples: 2000 });
  const m = c.metrics_delta[0]!;
  ok(m.a.ci![1] - m.a.ci![0] > 0.1, "the arms themselves vary");
  assertEquals([m.delta, m.ci], [0.25, [0.25, 0.25]]);
  assertEquals([c.overall.delta, c.overall.ci], [0.25, [0.25, 0.25]]);
});

Deno.test("compareArms() refuses different metric sets, thresholds and rubric hashes", () => {
  const base = (arm: string, metric: string, extra: Partial<ScoreRow> = {}) => ({
    ...row("g1", 0, metric, 1, extra),
    arm,
  });
  const opts = { metrics: ["m", "j"], resamples: 10 };
  const h1 = "1".repeat(64);
  const h2 = "2".repeat(64);
  const ok1 = [base("a", "m"), base("a", "j", { rubric_sha256: h1 })];
  // Different rubric hashes.
  throws(
    () =>
      compareArms(
        [...ok1, base("b", "m"), base("b", "j", { rubric_sha256: h2 })],
        ["a", "b"],
        opts,
      ),
    (e: unknown) =>
      e instanceof ArmComparisonError && e.name === "ArmComparisonError" &&
      /metric "j": scores made under different rubric hashes cannot be compared/.test(e.message) &&
      e.message.includes(h1) && e.message.includes(h2) && e.differences.length === 1 &&
      e.differences[0]!.kind === "rubric_sha256",
  );
  // A hash on one side only.
  throws(
    () => compareArms([...ok1, base("b", "m"), base("b", "j")], ["a", "b"], opts),
    /different rubric hashes.*none/,
  );
  // Different metric sets.
  throws(
    () => compareArms([...ok1, base("b", "m"), base("b", "k")], ["a", "b"], opts),
    (e: unknown) =>
      e instanceof ArmComparisonError &&
      /only in "a": "j"; only in "b": "k"/.test(e.message),
  );
  // Different thresholds.
  throws(
    () =>
      compareArms(
        [...ok1, base("b", "m", { threshold: 0.7 }), base("b", "j", { rubric_sha256: h1 })],
        ["a", "b"],
        opts,
      ),
    (e: unknown) => e instanceof ArmComparisonError && e.differences[0]!.kind === "threshold",
  );
  // Misuse.
  const same = [...ok1, base("b", "m"), base("b", "j", { rubric_sha256: h1 })];
  throws(() => compareArms(same, ["a", "a"], opts), RangeError);
  throws(() => compareArms(same, ["a", "zz"], opts), /No rows for arm "zz"/);
  throws(() => compareArms(same, ["a"] as never, opts), TypeError);
  throws(() => compareArms(same, ["a", "b"], { metrics: [] }), TypeError);
  throws(() => compareArms(same, ["a", "b"], { ...opts, resamples: 0 }), RangeError);
  const far = same.map((r) => r.arm === "b" ? { ...r, golden_id: "g9" } : r);
  throws(() => compareArms(far, ["a", "b"], opts), /share no golden/);
  strictEqual(compareArms(same, ["a", "b"], opts).metrics_delta[1]!.rubric_sha256, h1);
});

Deno.test("scorecard() refuses malformed rows and a threshold that varies within an arm", () => {
  const rows = handFixture();
  throws(() => scorecard(rows, { metrics: ["m1", "m2"] }), /not in metrics/);
  throws(() => scorecard(rows, { metrics: ["m1", "m2", "m3", "m4"] }), /no row for "m4"/);
  const varied = rows.map((r, i) => i === 3 ? { ...r, threshold: 0.9 } : r);
  throws(() => scorecard(varied, OPTS), /metric "m1" has thresholds 0\.6, 0\.9/);
  throws(() => scorecard("x" as never, OPTS), TypeError);
  throws(() => scorecard(rows, { ...OPTS, seed: -1 }), RangeError);
  throws(() => scorecard(rows, { ...OPTS, level: 1 }), RangeError);
  assertEquals(scorecard([], OPTS).arms, []);
});

Deno.test("scorecard() handles hostile ids: __proto__, lone surrogates, astral order", () => {
  const ids = ["__proto__", "\uD800", "\u{1F600}", "\uFF5E", "constructor"];
  const rows = ids.flatMap((g, i) => [
    { ...row(g, 0, "__proto__", i / 4), arm: "\uDFFF" },
    { ...row(g, 0, "__proto__", i / 4), arm: "__proto__" },
  ]);
  const card = scorecard(rows, { metrics: ["__proto__"], seed: 1, resamples: 100 });
  // Code-point order: "\uDFFF" (a lone surrogate, U+DFFF) sorts before "\uFF5E" and astral.
  assertEquals(card.arms.map((a) => a.arm), ["__proto__", "\uDFFF"]);
  strictEqual(card.arms[0]!.metrics[0]!.mean.value, 0.5);
  strictEqual(Object.getPrototypeOf(card.arms[0]!), Object.prototype);
});

Deno.test("scorecard() refuses to aggregate scores made under different rubric hashes", () => {
  const row = (arm: string, golden_id: string, rubric_sha256: string): ScoreRow => ({
    golden_id,
    arm,
    repeat: 0,
    metric: "judge",
    score: 1,
    applicable: true,
    threshold: 0.5,
    rubric_sha256,
  });
  const same = [row("a", "g1", "h1"), row("a", "g2", "h1"), row("b", "g1", "h1")];
  strictEqual(scorecard(same, { metrics: ["judge"], resamples: 10 }).arms.length, 2);
  throws(
    () => scorecard([...same, row("b", "g2", "h2")], { metrics: ["judge"], resamples: 10 }),
    (e: unknown) => e instanceof RubricMismatchError && /judge/.test(e.message),
  );
});
