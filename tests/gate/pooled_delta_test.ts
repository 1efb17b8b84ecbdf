// The gate's comparative rules on fractional scores (src/gate/_pooled_delta.ts): on seeded random
// suite runs, the point delta and the interval are an independent Python oracle's (exact Fractions,
// numpy's percentiles) bit for bit, on the draws the rule's stream gives; evaluateGate() passes or
// fails by that interval; and a `min` rule reads the scorecard's exact mean to the last bit.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { Sfc32 } from "../../src/engine/mod.ts";
import { ComparisonGateError } from "../../src/compare/mod.ts";
import {
  evaluateGate,
  type ExampleShare,
  metricSource,
  parseGateRules,
} from "../../src/gate/mod.ts";
import { pooledDelta } from "../../src/gate/_pooled_delta.ts";
import { PooledColumn } from "../../src/stats/pooled/mod.ts";
import { ensureScipy, runLineOracle } from "../_debian_python.ts";
import { suiteRun } from "./_suite_runs.ts";

const ORACLE = decodeURIComponent(new URL("./_pooled_delta_oracle.py", import.meta.url).pathname);

async function oracle(cases: unknown[]): Promise<{ delta: number; ci: [number, number] }[]> {
  await ensureScipy();
  const lines = await runLineOracle([ORACLE], cases.map((c) => JSON.stringify(c)));
  return lines.map((l) => JSON.parse(l));
}

// The draws pooledDelta takes from a fresh stream of `seed`: n per resample.
function draws(seed: number, n: number, resamples: number): number[][] {
  const rng = new Sfc32(seed);
  return Array.from({ length: resamples }, () => {
    const d = new Int32Array(n);
    rng.fillBelow(n, d);
    return [...d];
  });
}

const unitsOf = (xs: ExampleShare[]) =>
  xs.map((x) => ({ values: x.values ?? [x.num], count: x.den }));

// Hand-made sides: empty units (0/0), a side with nothing counted, tiny and repeated decimals.
const EDGES: [string, ExampleShare[], ExampleShare[]][] = [
  [
    "decimals",
    [0.1, 0.2, 0.3, 0.7].map((v, i) => ({ id: `${i}`, num: v, den: 1, values: [v] })),
    [0.3, 0.1, 0.2, 0.1].map((v, i) => ({ id: `${i}`, num: v + v, den: 2, values: [v, v] })),
  ],
  [
    "empty units",
    [{ id: "a", num: 0, den: 0, values: [] }, { id: "b", num: 0.5, den: 1, values: [0.5] }],
    [{ id: "a", num: 1e-300, den: 1, values: [1e-300] }, { id: "b", num: 0, den: 0, values: [] }],
  ],
  [
    "summed scores",
    [{ id: "a", num: 2.5, den: 3 }, { id: "b", num: 0.25, den: 1 }, { id: "c", num: 1, den: 4 }],
    [{ id: "a", num: 1.75, den: 3 }, { id: "b", num: 1, den: 1 }, { id: "c", num: 3.5, den: 4 }],
  ],
];

Deno.test("pooledDelta() is the Python oracle's paired bootstrap bit for bit on 93 seeded cases", async () => {
  const RESAMPLES = 300;
  const cases: { before: ExampleShare[]; now: ExampleShare[]; seed: number; level: number }[] = [];
  for (let seed = 1; seed <= 30; seed++) {
    const goldens = 2 + (seed % 11);
    const repeats = 1 + (seed % 3);
    const base = metricSource(suiteRun(seed, goldens, repeats));
    const candidate = metricSource(suiteRun(seed + 1000, goldens, repeats, 0.2));
    const metric = ["overall_score", "graded", "judged"][seed % 3]!;
    for (const slice of ["overall", "a", "b"]) {
      const before = base.shares(metric, slice);
      const now = candidate.shares(metric, slice);
      deepStrictEqual(now.map((x) => x.id), before.map((x) => x.id));
      cases.push({
        before,
        now,
        seed: seed * 7 + slice.length,
        level: [0.9, 0.95, 0.99][seed % 3]!,
      });
    }
  }
  EDGES.forEach(([_, before, now], i) => cases.push({ before, now, seed: i, level: 0.95 }));
  const theirs = await oracle(cases.map((c) => ({
    before: unitsOf(c.before),
    now: unitsOf(c.now),
    level: c.level,
    draws: draws(c.seed, c.now.length, RESAMPLES),
  })));
  let degenerate = 0;
  cases.forEach((c, i) => {
    const mine = pooledDelta(c.before, c.now, new Sfc32(c.seed), RESAMPLES, c.level);
    deepStrictEqual(mine, theirs[i], `case ${i}`);
    if (mine.ci[0] === mine.ci[1]) degenerate++;
  });
  ok(degenerate < cases.length / 4, `${degenerate} degenerate intervals`);
});

Deno.test("pooledDelta() takes n draws per resample, as the whole-count kernel does, and is exact on constants", () => {
  const [_, before, now] = EDGES[0]!;
  const rng = new Sfc32(5);
  pooledDelta(before, now, rng, 50, 0.95);
  const replay = new Sfc32(5);
  const d = new Int32Array(4 * 50);
  replay.fillBelow(4, d);
  strictEqual(rng.nextUint32(), replay.nextUint32());
  // The same units on both sides: every resample's delta is 0.
  deepStrictEqual(pooledDelta(now, now, new Sfc32(1), 200, 0.95), { delta: 0, ci: [0, 0] });
  // What cannot be pooled exactly is refused, naming the unit.
  for (
    const [bad, words] of [
      [{ num: -0.5, den: 1 }, "a score of -0.5"],
      [{ num: Infinity, den: 1 }, "a score of Infinity"],
      [{ num: 0.5, den: 1.5 }, "a count of 1.5"],
      [{ num: 0.5, den: 1, values: [1, -0.5] }, "a score of -0.5"],
    ] as [Omit<ExampleShare, "id">, string][]
  ) {
    throws(
      () => pooledDelta([{ id: "u", num: 0, den: 1 }], [{ id: "u", ...bad }], new Sfc32(1), 5, 0.9),
      new RegExp(`Unit "u" has ${words}: a bootstrap pools finite scores of at least 0`),
    );
  }
  // Below it, PooledColumn refuses what decompose() would pool without its sign.
  throws(
    () => new PooledColumn([[0.25, -0.25]]),
    /A pooled value must be finite and ≥ 0, got -0.25/,
  );
});

Deno.test("evaluateGate() gates overall_score and graded metrics between suite runs by that interval", () => {
  const base = suiteRun(11, 24, 2);
  const candidate = suiteRun(12, 24, 2, 0.25);
  const rules = (yaml: string) =>
    parseGateRules(`seed: 9\nresamples: 400\nrules:\n${yaml}`, "g.yaml");
  const shares = (r: typeof base, m: string, slice: string) => metricSource(r).shares(m, slice);
  for (const [metric, slice] of [["overall_score", "overall"], ["graded", "a"], ["judged", "b"]]) {
    const d = pooledDelta(
      shares(base, metric!, slice!),
      shares(candidate, metric!, slice!),
      new Sfc32(9),
      400,
      0.95,
    );
    for (const margin of [0, 0.01, 0.05, 0.2]) {
      const v = evaluateGate(
        rules(
          `  - metric: ${metric}\n    slice: ${slice}\n    non_inferior: { margin: ${margin} }\n`,
        ),
        { base, candidate },
      );
      strictEqual(v.rules[0]!.pass, d.ci[0] >= -margin, `${metric} ${slice} ${margin}`);
      ok(v.rules[0]!.message.startsWith("delta "), v.rules[0]!.message);
    }
    const superior = evaluateGate(
      rules(`  - metric: ${metric}\n    slice: ${slice}\n    superior: true\n`),
      { base, candidate },
    );
    strictEqual(superior.rules[0]!.pass, d.ci[0] > 0);
  }
  // A run against itself: delta 0 in every resample, so non-inferior at margin 0, not superior.
  const same = evaluateGate(
    rules(
      "  - metric: overall_score\n    non_inferior: { margin: 0 }\n" +
        "  - metric: overall_score\n    superior: true\n",
    ),
    { base, candidate: base },
  );
  deepStrictEqual(same.rules.map((r) => r.pass), [true, false]);
});

Deno.test("evaluateGate() refuses to compare suite runs scored under different suite files", () => {
  // A candidate scored under a suite with a lower pass threshold (or another rubric, params or
  // metrics) was compared with its base as if comparable: non-inferior, even superior.
  const a = "9b8c4f11".repeat(8), b = "f011bb95".repeat(8);
  const base = { ...suiteRun(11, 24, 2), suite_sha256: a };
  const candidate = { ...suiteRun(12, 24, 2, 0.25), suite_sha256: b };
  const gate = parseGateRules("rules:\n  - metric: pass_rate\n    superior: true\n", "g.yaml");
  throws(() => evaluateGate(gate, { base, candidate }), (e: unknown) => {
    ok(e instanceof ComparisonGateError, String(e));
    deepStrictEqual(e.differences, [{
      kind: "examples",
      detail: "suite files' sha256 differ: base 9b8c4f119b8c…, candidate f011bb95f011…",
    }]);
    return true;
  });
  // The same suite file: compared as before.
  evaluateGate(gate, { base, candidate: { ...candidate, suite_sha256: a } });
});

Deno.test("evaluateGate() min on a suite metric holds at the scorecard's exact mean and fails one ulp above", () => {
  const nextUp = (x: number) => {
    const b = new DataView(new ArrayBuffer(8));
    b.setFloat64(0, x);
    b.setBigUint64(0, b.getBigUint64(0) + 1n);
    return b.getFloat64(0);
  };
  let checked = 0;
  for (let seed = 1; seed <= 20; seed++) {
    const report = suiteRun(seed, 3 + (seed % 7), 1 + (seed % 3));
    for (const arm of report.scorecard.arms) {
      for (
        const [metric, e] of [
          ["overall_score", arm.overall],
          ...arm.metrics.map((m) => [m.metric, m.mean] as const),
        ] as const
      ) {
        if (e.denominator === 0 || e.value === 0) continue;
        const at = (bound: number) =>
          evaluateGate(
            parseGateRules(
              `rules:\n  - metric: ${metric}\n    slice: ${arm.arm}\n    min: ${bound}\n`,
              "g.yaml",
            ),
            { report },
          ).rules[0]!.pass;
        ok(at(e.value!), `${seed} ${arm.arm} ${metric} at ${e.value}`);
        // A bound is at most 1.
        if (e.value! < 1) {
          ok(!at(nextUp(e.value!)), `${seed} ${arm.arm} ${metric} above ${e.value}`);
        }
        checked++;
      }
    }
  }
  ok(checked > 100, `${checked} checked`);
});
