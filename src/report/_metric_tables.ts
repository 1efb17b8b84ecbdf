// The metric tables: per slice and metric, each model's rate with its numerator and
// denominator, the delta, its interval and its mark.
import type { ComparisonReport } from "../compare/mod.ts";
import type { MetricValue } from "../stats/mod.ts";
import { metricOf, sliceDeltas, sliceLabel } from "./_deltas.ts";
import { ci, direction, esc, fraction, label, mark, percent, rate, signed } from "./_html_text.ts";

/** The comparison's metric table, one body per slice. */
export function metricTables(c: ComparisonReport): string {
  const level = percent(c.bootstrap.level);
  const bodies = sliceDeltas(c).map(([slice, deltas]) => {
    const rows = c.metric_names.map((metric) => {
      const d = metricOf(deltas, metric, sliceLabel(slice));
      const dir = direction(d.ci);
      return `<tr class="${dir}"><th scope="row">${esc(label(metric))} <code>${
        esc(metric)
      }</code></th>` +
        valueCells(d.base) + valueCells(d.adapter) +
        `<td class="n d">${signed(d.delta)}</td><td class="n">${ci(d.ci)}</td><td class="m">${
          mark(dir)
        }</td></tr>`;
    });
    return `<tbody${slice === null ? ' class="overall"' : ""}><tr class="slice"><th colspan="8">${
      esc(sliceLabel(slice))
    }</th></tr>${rows.join("")}</tbody>`;
  });
  return `<table class="metrics"><thead><tr><th>Metric</th><th class="c" colspan="2">Base</th><th class="c" colspan="2">Adapter</th><th class="n">\u0394</th><th class="n">${level} interval</th><th class="m"><span class="sr">Mark</span></th></tr></thead>${
    bodies.join("")
  }</table>`;
}

/** A metric value's two cells: the rate, and numerator/denominator. */
export function valueCells(m: MetricValue): string {
  return `<td class="n v">${rate(m.value)}</td><td class="f">${fraction(m)}</td>`;
}
