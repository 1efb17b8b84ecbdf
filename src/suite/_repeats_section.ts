// What `repeatsReport` and `clusterKeys` compute, on goldens already checked: `suiteRunReport` and
// `keptRepeats` check the goldens they are given once, and `storedRepeatsReport` gives the goldens
// it rebuilds from a metric store (which carry only an id and a cluster value, and are refused,
// if at all, by the store's own checks).
import { suggestName } from "../jsonl/mod.ts";
import { compareArms } from "./arm_comparison.ts";
import { type ClusterBootstrapSettings, scorecard, type ScoreRow } from "./scorecard.ts";
import { type ReducedArm, reduceRepeats, type Repeats } from "./repeats.ts";
import type { RunResult } from "./run.ts";
import type { Golden } from "./types.ts";
import {
  type ArmRepeats,
  meanUncertainty,
  type ReducedComparison,
  type RepeatsReport,
  type RepeatsReportOptions,
} from "./uncertainty.ts";

const METRIC = "reduced";

function rowsOf(arm: ReducedArm, key: (golden: string) => string): ScoreRow[] {
  const repeat = new Map<string, number>();
  return arm.goldens.map((g) => {
    const k = key(g.golden_id);
    const r = repeat.get(k) ?? 0;
    repeat.set(k, r + 1);
    return {
      golden_id: k,
      arm: arm.arm,
      repeat: r,
      metric: METRIC,
      score: g.value,
      applicable: g.value !== null,
      threshold: 0.5,
    };
  });
}

/** `clusterKeys` on goldens already checked. */
export function clusterKeysOf(goldens: readonly Golden[], field: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const g of goldens) {
    const v = (g as unknown as Record<string, unknown>)[field];
    if (typeof v !== "string" && typeof v !== "number") {
      throw new RangeError(`Golden "${g.id}" has no ${field} (a string or number) to cluster by`);
    }
    keys.set(g.id, `${typeof v}:${v}`);
  }
  return keys;
}

/** `repeatsReport` on goldens already checked. */
export function repeatsSection(
  results: readonly RunResult[],
  goldens: readonly Golden[],
  repeats: Repeats,
  options: RepeatsReportOptions = {},
): RepeatsReport {
  const field = options.cluster ?? repeats.cluster;
  const clusterOf = field === undefined ? new Map<string, string>() : clusterKeysOf(goldens, field);
  const key = (id: string) => clusterOf.get(id) ?? `golden:${id}`;
  const level = options.level ?? 0.95;
  const settings = {
    seed: options.seed ?? 0,
    resamples: options.resamples ?? 10_000,
    level,
    metrics: [METRIC],
  };
  const reduced = reduceRepeats(results, repeats, goldens.map((g) => g.id));
  let bootstrap: ClusterBootstrapSettings | undefined;
  const arms = reduced.map((arm): ArmRepeats => {
    const scored = arm.goldens.filter((g) => g.value !== null);
    const u = meanUncertainty(scored.map((g) => g.value!), {
      ...(field !== undefined && { clusters: scored.map((g) => key(g.golden_id)) }),
      level,
    });
    const card = scorecard(rowsOf(arm, key), settings);
    bootstrap = card.bootstrap;
    return { ...arm, ...u, bootstrap: card.arms[0]!.metrics[0]!.mean };
  });
  const rows = reduced.flatMap((arm) => rowsOf(arm, (id) => id));
  const { baseline: declared, ...block } = repeats;
  const baseline = options.baseline ?? declared ?? arms[0]?.arm;
  const base = arms.find((a) => a.arm === baseline);
  if (baseline !== undefined && base === undefined) {
    const hint = suggestName(baseline, arms.map((a) => a.arm));
    throw new RangeError(
      `The baseline arm ${JSON.stringify(baseline)} has no runs` +
        (hint === undefined ? "" : ` (did you mean ${JSON.stringify(hint)}?)`),
    );
  }
  const baseIds = new Set(base?.goldens.map((g) => g.golden_id));
  const comparisons = arms.filter((a) => a.arm !== baseline).map((b): ReducedComparison => {
    if (!b.goldens.some((g) => baseIds.has(g.golden_id))) {
      return { arms: [baseline!, b.arm], n_goldens: 0, reduced: null };
    }
    const c = compareArms(rows, [baseline!, b.arm], settings);
    return {
      arms: [c.a, c.b] as [string, string],
      n_goldens: c.n_goldens,
      reduced: c.metrics_delta[0]!,
    };
  });
  return {
    repeats: block,
    cluster: field ?? null,
    // The scorecard draws its rows' golden_id, which here holds the cluster key.
    bootstrap: { ...(bootstrap ?? scorecard([], settings).bootstrap), cluster: field ?? "golden" },
    arms,
    baseline: baseline ?? null,
    comparisons,
  };
}
