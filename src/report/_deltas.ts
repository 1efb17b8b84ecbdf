// The comparison's deltas as the page reads them: per slice (overall first) and metric, each
// with its tooltip text and its data attributes.
import type { ComparisonReport, MetricDelta } from "../compare/mod.ts";
import { ci, direction, fraction, label, rate, signed } from "./_html_text.ts";

/** A slice as the page names it: `overall` for the null slice. */
export function sliceLabel(slice: string | null): string {
  return slice === null ? "overall" : slice;
}

/** A delta in words, with both sides' rates, for its tooltip. */
export function deltaText(
  slice: string | null,
  metric: string,
  d: MetricDelta,
  level: string,
  arms: [string, string],
): string {
  const dir = direction(d.ci);
  const verdict = dir === "none"
    ? "the interval includes zero"
    : `the interval excludes zero (${arms[1]} ${dir === "up" ? "higher" : "lower"})`;
  return `${sliceLabel(slice)} \u00b7 ${label(metric)} (${metric}): ${arms[0]} ${
    rate(d.base.value)
  } (${fraction(d.base)}), ${arms[1]} ${rate(d.adapter.value)} (${fraction(d.adapter)}), \u0394 ${
    signed(d.delta)
  }, ${level} interval ${ci(d.ci)}; ${verdict}`;
}

/** A delta's data attributes (without the `data-` prefix). */
export function deltaData(slice: string, metric: string, d: MetricDelta): Record<string, string> {
  return {
    slice,
    metric,
    delta: String(d.delta),
    "ci-low": String(d.ci[0]),
    "ci-high": String(d.ci[1]),
    "excludes-zero": String(direction(d.ci) !== "none"),
  };
}

/** The comparison's deltas per slice, overall first; no other slice may be named overall. */
export function sliceDeltas(c: ComparisonReport): [string | null, Record<string, MetricDelta>][] {
  const out: [string | null, Record<string, MetricDelta>][] = [[null, c.deltas.overall]];
  for (const s of c.slices) {
    const d = c.deltas.by_language[s];
    if (s === "overall") {
      throw new TypeError(
        `The comparison's slice "overall" has the name of the slice of all examples`,
      );
    }
    if (!d) throw new TypeError(`The comparison has no deltas for its slice ${JSON.stringify(s)}`);
    out.push([s, d]);
  }
  return out;
}

/** One metric's delta. */
export function metricOf(
  deltas: Record<string, MetricDelta>,
  metric: string,
  where: string,
): MetricDelta {
  const d = deltas[metric];
  if (!d) throw new TypeError(`The comparison has no ${metric} delta for ${where}`);
  return d;
}
