/**
 * Judge calibration: how well an LLM judge's scores agree with human labels on the same runs,
 * and whether the judge can be trusted (Cohen's κ at a threshold against a bar).
 *
 * Statistics: mean absolute error; Pearson's r (two-pass: centred, scaled by the largest
 * deviation, compensated sums); Spearman's ρ (Pearson's r of average ranks, ties sharing their
 * mean rank, as `scipy.stats.spearmanr`); and Cohen's κ from the 2×2 confusion of
 * positive = score ≥ threshold on both sides, computed from integer counts and rounded once.
 *
 * @module
 */

import { isLabel, missingLabelField, PAIR_FIELDS } from "./_label_fields.ts";
import { checkOptions } from "../engine/mod.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** One judged run: the judge's score and the human label, both in [0, 1]. */
export interface CalibrationPair {
  /** The judge's score. */
  judge: number;
  /** The human label: 0 or 1, or a grade in [0, 1]. */
  human: number;
}

/** Parallel columns of judge scores and human labels. */
export interface CalibrationColumns {
  /** The judge's scores. */
  judge: readonly number[];
  /** The human labels, one per score. */
  human: readonly number[];
}

/** Options of {@linkcode calibrate}. */
export interface CalibrationOptions {
  /** A score or label is positive when ≥ this, in [0, 1] (default 0.5). */
  threshold?: number;
  /** The judge is trusted when κ ≥ this, in [-1, 1] (default 0.6). */
  kappaBar?: number;
  /** Fewer pairs than this give `insufficient_data`, an integer ≥ 1 (default 10). */
  minN?: number;
}

/** The 2×2 confusion at the threshold: the judge predicts, the human label is the truth. */
export interface Confusion {
  /** Judge positive, human positive. */
  tp: number;
  /** Judge positive, human negative. */
  fp: number;
  /** Judge negative, human positive. */
  fn: number;
  /** Judge negative, human negative. */
  tn: number;
}

/** How well a judge agrees with humans, and the verdict. */
export interface Calibration {
  /** Pairs. */
  n: number;
  /** The threshold used. */
  threshold: number;
  /** The κ bar used. */
  kappa_bar: number;
  /** The minimum number of pairs used. */
  min_n: number;
  /** `binary` when every human label is 0 or 1, otherwise `graded`. */
  human_scale: "binary" | "graded";
  /** Mean |judge − human|; null when n = 0. */
  mae: number | null;
  /** Pearson's r; null when n < 2 or either side is constant. */
  pearson: number | null;
  /** Spearman's ρ; null when n < 2 or either side is constant. */
  spearman: number | null;
  /** Cohen's κ at the threshold; null when n = 0 or the expected agreement is 1. */
  kappa: number | null;
  /** The confusion at the threshold. */
  confusion: Confusion;
  /** Raw agreement at the threshold, (tp + tn) / n; null when n = 0. */
  agreement: number | null;
  /** `trusted` iff n ≥ minN and κ ≥ kappaBar. */
  verdict: "trusted" | "not_trusted" | "insufficient_data";
  /** Why, in one sentence. */
  reason: string;
  /** Why each null statistic is null. */
  notes: string[];
}

/**
 * Checks a judge score or human label: a finite number in [0, 1].
 *
 * @param v The value.
 * @param at What it is, for the message (e.g. `pairs[3].judge`, or `"human"`).
 * @returns The value.
 * @throws {TypeError} If it is not a number.
 * @throws {RangeError} If it is not in [0, 1].
 *
 * @example
 * ```ts
 * import { checkCalibrationScore } from "@assay/assay/suite";
 * import { throws } from "node:assert/strict";
 *
 * throws(() => checkCalibrationScore(2, '"human"'), /"human" must be a finite number in \[0, 1\], got 2/);
 * ```
 */
export function checkCalibrationScore(v: unknown, at: string): number {
  if (typeof v !== "number") {
    const kind = v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
    throw new TypeError(`${at} must be a number, got ${kind}`);
  }
  if (!(v >= 0 && v <= 1)) {
    throw new RangeError(`${at} must be a finite number in [0, 1], got ${v}`);
  }
  return v;
}

/**
 * Checks calibration options and fills in their defaults: `threshold` in [0, 1] (0.5),
 * `kappaBar` in [-1, 1] (0.6), `minN` an integer ≥ 1 (10). Messages name each option as
 * `names` says, so that a command line can name its flags.
 *
 * @param options The options.
 * @param names What to call each option in messages (default: its own name).
 * @returns The options with their defaults.
 * @throws {RangeError} Naming the first option out of range.
 *
 * @example A flag's name in the message
 * ```ts
 * import { calibrationOptions } from "@assay/assay/suite";
 * import { throws } from "node:assert/strict";
 *
 * throws(() => calibrationOptions({ kappaBar: 5 }, { kappaBar: "--kappa-bar" }), /^RangeError: --kappa-bar must be in \[-1, 1\], got 5/);
 * ```
 */
export function calibrationOptions(
  options: CalibrationOptions = {},
  names: { threshold?: string; kappaBar?: string; minN?: string } = {},
): Required<CalibrationOptions> {
  checkOptions(options);
  checkOptionNames("calibrationOptions", options, { threshold: 1, kappaBar: 1, minN: 1 });
  const threshold = options.threshold ?? 0.5;
  const kappaBar = options.kappaBar ?? 0.6;
  const minN = options.minN ?? 10;
  if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 1)) {
    throw new RangeError(`${names.threshold ?? "threshold"} must be in [0, 1], got ${threshold}`);
  }
  if (typeof kappaBar !== "number" || !(kappaBar >= -1 && kappaBar <= 1)) {
    throw new RangeError(`${names.kappaBar ?? "kappaBar"} must be in [-1, 1], got ${kappaBar}`);
  }
  if (!Number.isSafeInteger(minN) || minN < 1) {
    throw new RangeError(`${names.minN ?? "minN"} must be an integer ≥ 1, got ${minN}`);
  }
  return { threshold, kappaBar, minN };
}

function readInput(
  pairs: readonly CalibrationPair[] | CalibrationColumns,
): { judge: Float64Array; human: Float64Array } {
  if (Array.isArray(pairs)) {
    const judge = new Float64Array(pairs.length);
    const human = new Float64Array(pairs.length);
    pairs.forEach((p: unknown, i) => {
      // As a labels file's line is read: an object, each field there, the human label first.
      if (!isLabel(p)) throw new TypeError(`pairs[${i}] must be an object {judge, human}`);
      const missing = missingLabelField(p, PAIR_FIELDS);
      if (missing !== undefined) throw new TypeError(`pairs[${i}]: ${missing}`);
      human[i] = checkCalibrationScore(p.human, `pairs[${i}].human`);
      judge[i] = checkCalibrationScore(p.judge, `pairs[${i}].judge`);
    });
    return { judge, human };
  }
  if (typeof pairs !== "object" || pairs === null) {
    throw new TypeError("pairs must be an array of {judge, human} or {judge: [...], human: [...]}");
  }
  const c = pairs as unknown as Record<string, unknown>;
  if (!Array.isArray(c.judge) || !Array.isArray(c.human)) {
    throw new TypeError("judge and human must both be arrays of numbers");
  }
  const [j, h] = [c.judge as unknown[], c.human as unknown[]];
  if (j.length !== h.length) {
    const at = Math.min(j.length, h.length);
    throw new RangeError(
      `judge has ${j.length} scores but human has ${h.length} labels: index ${at} has no ` +
        (j.length > h.length ? "human label" : "judge score"),
    );
  }
  return {
    judge: Float64Array.from(j, (v, i) => checkCalibrationScore(v, `judge[${i}]`)),
    human: Float64Array.from(h, (v, i) => checkCalibrationScore(v, `human[${i}]`)),
  };
}

/** A compensated (Neumaier) sum. */
function sum(xs: ArrayLike<number>): number {
  let s = 0;
  let c = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    const t = s + x;
    c += Math.abs(s) >= Math.abs(x) ? (s - t) + x : (x - t) + s;
    s = t;
  }
  return s + c;
}

/**
 * Deviations from the mean by the corrected two-pass algorithm (Chan, Golub and LeVeque):
 * x − m − c, where m is the mean in doubles and c = Σ(x − m)/n corrects its rounding, so that
 * deviations smaller than the mean's last bit survive. Scaled so that the largest is ±1 (no
 * underflow in their squares); null when x is constant.
 */
function scaledDeviations(x: Float64Array): Float64Array | null {
  const n = x.length;
  if (x.every((v) => v === x[0])) return null;
  const mean = sum(x) / n;
  const correction = sum(x.map((v) => v - mean)) / n;
  const d = x.map((v) => (v - mean) - correction);
  let max = 0;
  for (const v of d) max = Math.max(max, Math.abs(v));
  return d.map((v) => v / max);
}

/** Pearson's r by the two-pass algorithm; null when n < 2 or either side is constant. */
function pearsonOf(x: Float64Array, y: Float64Array): number | null {
  if (x.length < 2) return null;
  const u = scaledDeviations(x);
  const v = scaledDeviations(y);
  if (u === null || v === null) return null;
  const r = sum(u.map((a, i) => a * v[i]!)) /
    Math.sqrt(sum(u.map((a) => a * a)) * sum(v.map((b) => b * b)));
  return Math.max(-1, Math.min(1, r));
}

/** Ranks 1..n, tied values sharing the mean of their ranks (`scipy.stats.rankdata`). */
function averageRanks(x: Float64Array): Float64Array {
  const order = Array.from(x.keys()).sort((a, b) => x[a]! - x[b]! || a - b);
  const ranks = new Float64Array(x.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && x[order[j + 1]!] === x[order[i]!]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]!] = rank;
    i = j + 1;
  }
  return ranks;
}

function fmt(x: number): string {
  return String(x);
}

/**
 * Calibrates a judge against human labels: MAE, Pearson, Spearman, Cohen's κ at the threshold,
 * the confusion and raw agreement, and a verdict.
 *
 * Edge cases: with n < 2, or when either side is constant, Pearson and Spearman are null (as
 * SciPy returns nan). κ is null when the expected agreement is 1, that is when every judge
 * score and every human label falls on the same side of the threshold: κ = 0/0 there, and
 * scikit-learn's `cohen_kappa_score` returns nan. The verdict is `insufficient_data` when
 * n < minN or κ is null, `trusted` when κ ≥ kappaBar, `not_trusted` otherwise.
 *
 * @param pairs The judged runs: `{judge, human}` pairs, or `{judge: [...], human: [...]}`.
 * @param options The threshold (default 0.5), the κ bar (default 0.6) and the minimum n
 *   (default 10).
 * @returns The statistics, the verdict and its reason.
 * @throws {TypeError} If a pair is not an object (a list is not one) or lacks `human` or `judge`
 *   (`pairs[0]: missing field "human"`, as `readCalibrationLabels` names a line's), a score or
 *   label is not a number, or the input has another shape.
 * @throws {RangeError} If a score or label is not a finite number in [0, 1] (naming its index),
 *   the columns differ in length, or an option is out of range.
 *
 * @example A judge that agrees with the humans
 * ```ts
 * import { calibrate } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const judge = [0.9, 0.8, 0.2, 0.1, 0.7, 0.3, 0.95, 0.05, 0.6, 0.4];
 * const human = [1, 1, 0, 0, 1, 0, 1, 0, 1, 0];
 * const c = calibrate({ judge, human });
 * assertEquals(c.confusion, { tp: 5, fp: 0, fn: 0, tn: 5 });
 * assertEquals([c.kappa, c.agreement, c.verdict], [1, 1, "trusted"]);
 * ```
 */
export function calibrate(
  pairs: readonly CalibrationPair[] | CalibrationColumns,
  options: CalibrationOptions = {},
): Calibration {
  const { threshold, kappaBar, minN } = calibrationOptions(options);
  const { judge, human } = readInput(pairs);
  const n = judge.length;
  const notes: string[] = [];

  const confusion: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (let i = 0; i < n; i++) {
    const j = judge[i]! >= threshold;
    const h = human[i]! >= threshold;
    if (j && h) confusion.tp++;
    else if (j) confusion.fp++;
    else if (h) confusion.fn++;
    else confusion.tn++;
  }
  const { tp, fp, fn, tn } = confusion;
  // κ = (p_o − p_e) / (1 − p_e) = (n·agree − e) / (n² − e), e = Σ marginal products: integers.
  const e = (tp + fp) * (tp + fn) + (fn + tn) * (fp + tn);
  let kappa: number | null = null;
  if (n === 0) notes.push("κ, MAE and agreement are undefined with no pairs");
  else if (n * n === e) {
    notes.push(
      `κ is undefined: every judge score and human label is on the same side of the ` +
        `threshold ${fmt(threshold)} (expected agreement 1; scikit-learn returns nan)`,
    );
  } else kappa = (n * (tp + tn) - e) / (n * n - e);

  let pearson: number | null = null;
  let spearman: number | null = null;
  if (n < 2) notes.push("Pearson and Spearman need at least 2 pairs");
  else {
    const constant = [judge.every((v) => v === judge[0]) ? "judge scores" : ""]
      .concat(human.every((v) => v === human[0]) ? ["human labels"] : []).filter((s) => s);
    if (constant.length > 0) {
      notes.push(`Pearson and Spearman are undefined: the ${constant.join(" and ")} are constant`);
    } else {
      pearson = pearsonOf(judge, human);
      spearman = pearsonOf(averageRanks(judge), averageRanks(human));
    }
  }

  let verdict: Calibration["verdict"];
  let reason: string;
  if (n < minN) {
    verdict = "insufficient_data";
    reason = `${n} pairs: at least ${minN} are needed to calibrate a judge`;
  } else if (kappa === null) {
    verdict = "insufficient_data";
    reason = `κ is undefined: all pairs are on one side of the threshold ${fmt(threshold)}`;
  } else if (kappa >= kappaBar) {
    verdict = "trusted";
    reason = `κ = ${fmt(kappa)} ≥ ${fmt(kappaBar)} over ${n} pairs`;
  } else {
    verdict = "not_trusted";
    reason = `κ = ${fmt(kappa)} < ${fmt(kappaBar)} over ${n} pairs`;
  }

  return {
    n,
    threshold,
    kappa_bar: kappaBar,
    min_n: minN,
    human_scale: human.every((v) => v === 0 || v === 1) ? "binary" : "graded",
    mae: n === 0 ? null : sum(judge.map((v, i) => Math.abs(v - human[i]!))) / n,
    pearson,
    spearman,
    kappa,
    confusion,
    agreement: n === 0 ? null : (tp + tn) / n,
    verdict,
    reason,
    notes,
  };
}
