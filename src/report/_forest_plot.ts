// The forest plot: every adapter − base delta with its interval, per metric, overall first.
import type { ComparisonReport } from "../compare/mod.ts";
import { deltaData, deltaText, metricOf, sliceDeltas, sliceLabel } from "./_deltas.ts";
import { label, percent, rate } from "./_html_text.ts";
import { type ChartRow, intervalChart } from "./_interval_chart.ts";

/** Draws the forest plot of a comparison. */
export function forestPlot(c: ComparisonReport): string {
  const level = percent(c.bootstrap.level);
  const rows: ChartRow[] = [];
  for (const metric of c.metric_names) {
    rows.push({ kind: "group", label: label(metric), code: metric, notes: [] });
    for (const [slice, deltas] of sliceDeltas(c)) {
      const d = metricOf(deltas, metric, sliceLabel(slice));
      rows.push({
        kind: "item",
        label: sliceLabel(slice),
        sub: `${rate(d.base.value)} \u2192 ${rate(d.adapter.value)}`,
        strong: slice === null,
        cells: [{
          delta: d.delta,
          ci: d.ci,
          text: deltaText(slice, metric, d, level, ["base", "adapter"]),
          data: deltaData(slice ?? "overall", metric, d),
        }],
      });
    }
  }
  return intervalChart({
    id: "forest-plot",
    title: `Adapter \u2212 base, per metric and slice, with ${level} intervals`,
    desc:
      `One row per metric and slice: the point is the adapter \u2212 base difference, the line its ${level} paired-bootstrap interval. Filled points with \u25b2 or \u25bc have intervals that exclude zero.`,
    labelWidth: 190,
    rowChars: 10,
    groupChars: 40,
    panels: [{ heading: "", lower: "adapter lower", higher: "adapter higher" }],
    axisTitle: "\u0394 = adapter \u2212 base (difference of rates)",
    rows,
  });
}
