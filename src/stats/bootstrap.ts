/**
 * Bootstrap settings and percentiles shared by every interval Assay reports: the seed, the
 * resample count and the level, checked once and recorded in reports as
 * {@linkcode BootstrapSettings}, and NumPy's default (linear) percentile.
 *
 * Draws: one sfc32 stream ({@linkcode PRNG_NAME}), each resample taking n indices in [0, n) by
 * Lemire's multiply-shift method ({@linkcode DRAW_NAME}); reports record both.
 *
 * @module
 */
import { checkOptions, DRAW_NAME, PRNG_NAME } from "../engine/mod.ts";
import type { WithEngine } from "../engine/mod.ts";

/** Bootstrap options: seed, resamples and level; `engine` runs the resampling (default engine). */
export interface BootstrapOptions extends WithEngine {
  /** The PRNG seed, an integer in [0, 2^32) (default 0). */
  seed?: number;
  /** Resamples (default 10,000). */
  resamples?: number;
  /** Interval level (default 0.95). */
  level?: number;
}

/** How the intervals were made, as recorded in reports. */
export interface BootstrapSettings {
  /** The PRNG. */
  prng: string;
  /** How its outputs become indices. */
  draw: string;
  /** Its seed. */
  seed: number;
  /** Resamples per interval. */
  resamples: number;
  /** Interval level. */
  level: number;
  /** Always `percentile`. */
  interval: "percentile";
}

/**
 * Checks and fills in bootstrap options.
 *
 * @param options Seed (default 0), resamples (default 10,000) and level (default 0.95).
 * @returns The settings as reports record them.
 * @throws {RangeError} If an option is out of range.
 *
 * @example
 * ```ts
 * import { bootstrapSettings } from "@assay/assay/stats";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(bootstrapSettings({ seed: 7 }).resamples, 10_000);
 * ```
 */
export function bootstrapSettings(options: BootstrapOptions = {}): BootstrapSettings {
  checkOptions(options);
  const seed = options.seed ?? 0;
  const resamples = options.resamples ?? 10_000;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`seed must be an integer in [0, 2^32), got ${seed}`);
  }
  if (!Number.isInteger(resamples) || resamples < 1 || resamples > 10_000_000) {
    throw new RangeError(`resamples must be an integer in [1, 10^7], got ${resamples}`);
  }
  if (!(typeof level === "number" && level > 0 && level < 1)) {
    throw new RangeError(`level must be a number in (0, 1), got ${level}`);
  }
  return { prng: PRNG_NAME, draw: DRAW_NAME, seed, resamples, level, interval: "percentile" };
}

/**
 * NumPy's default (linear) percentile of sorted values, with its two-sided lerp.
 *
 * @param sorted Values in ascending order (at least one).
 * @param q The quantile, in [0, 1].
 * @returns The interpolated percentile.
 *
 * @example
 * ```ts
 * import { percentileSorted } from "@assay/assay/stats";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(percentileSorted(Float64Array.of(1, 2, 3, 4), 0.5), 2.5);
 * ```
 */
export function percentileSorted(sorted: Float64Array, q: number): number {
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const t = pos - lo;
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/**
 * An interval's confidence level as a percentage, e.g. `95%`: to six significant digits, or as
 * many more as keep a level below 1 from being written as 100% (0.9999999 is `99.99999%`, where
 * `level * 100` gives 99.99999000000001). A level above 0 is never written as 0%.
 *
 * @param level A level in (0, 1).
 * @returns The percentage, with its sign.
 *
 * @example
 * ```ts
 * import { levelPercent } from "@assay/assay/stats";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(levelPercent(0.95), "95%");
 * strictEqual(levelPercent(0.9999999), "99.99999%");
 * ```
 */
export function levelPercent(level: number): string {
  let p = 100;
  for (let d = 6; d < 18 && p >= 100; d++) p = +(level * 100).toPrecision(d);
  return `${p}%`;
}
