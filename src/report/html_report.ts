/**
 * The comparison as one self-contained HTML page: a forest plot of every
 * adapter − base delta with its interval, the language gaps of both models,
 * and the metric tables. Inline CSS and SVG only: no scripts, no external
 * resources, and the same report always gives the same bytes.
 *
 * @module
 */
import type { ComparisonReport, GapReport } from "../compare/mod.ts";
import { forestPlot } from "./_forest_plot.ts";
import { gapPanels, gapSection } from "./_gaps_section.ts";
import { esc, legend, percent, settingsText } from "./_html_text.ts";
import { metricTables } from "./_metric_tables.ts";
import { CSS } from "./_page_css.ts";
import { glance, header } from "./_page_header.ts";
import { checkOptions } from "../engine/mod.ts";

/** Options for {@linkcode renderComparisonHtml}. */
export interface HtmlReportOptions {
  /** Language-gap reports of the base and the adapter, for the gap plot and tables. */
  gaps?: { base?: GapReport; adapter?: GapReport };
  /** The page title (default `Assay comparison: adapter vs base`). */
  title?: string;
  /**
   * More sections of trusted HTML after the metric tables, such as `@assay/assay/explain`'s
   * `examplesSection` (the examples, with filters and each one's detail).
   */
  sections?: readonly string[];
}

/**
 * Renders a comparison report, and optionally both models' language gaps, as one
 * self-contained HTML page: a forest plot of every adapter − base delta with its interval
 * (overall first), the language-gap plot, and the metric tables. Intervals that exclude zero
 * are marked by colour, a filled point and a ▲ or ▼ symbol; a difference or bound that rounds to
 * zero keeps its sign (`+0.000`, `−0.000`), so only an exact zero is unsigned, and the level is
 * written with as many digits as keep it from reading 100% or 0%. The page has inline CSS and SVG
 * only, no scripts and no external resources, escapes every string it takes from the reports,
 * and is byte-for-byte the same for the same input. A character of such a string that shows
 * nothing or moves the text around it (a control, a space but U+0020, a zero-width or other
 * default-ignorable code point, a bidi control, U+2028, a lone surrogate) is written as
 * `\uXXXX`, so that two slices that differ only in one cannot look alike and none can reorder the
 * text around it (the data attributes keep it), and a language in running text is isolated in
 * `<bdi>`. A gap language with no joined pair has no estimate: its table rows say
 * "no pairs" and the gap plot draws no point for it.
 *
 * @param comparison An `assay.comparison.v1` report, from {@linkcode compareReports}.
 * @param options Gap reports of the base and the adapter (from {@linkcode languageGaps}), and
 *   the page title.
 * @returns The HTML document.
 * @throws {TypeError} If the comparison lacks the deltas of one of its slices or metrics, or has a
 *   slice named `overall`.
 * @throws {RangeError} If a gap report's inputs are not those of its side of the comparison.
 *
 * @example Render a comparison and check the page
 * ```ts
 * import { compareReports, renderComparisonHtml, scoreToolCalls } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * const examples = [{ example_id: "1", language: "en", target: { name: "f", arguments: {} } }];
 * const base = scoreToolCalls(examples, [{ example_id: "1", output: "no" }]);
 * const adapter = scoreToolCalls(examples, [{ example_id: "1", output: '{"name":"f","arguments":{}}' }]);
 * const html = renderComparisonHtml(compareReports(base, adapter, { resamples: 100 }));
 * strictEqual(html.startsWith("<!DOCTYPE html>"), true);
 * strictEqual(html.includes("<script"), false);
 * strictEqual(html.includes('id="forest-plot"'), true);
 * ```
 */
export function renderComparisonHtml(
  comparison: ComparisonReport,
  options: HtmlReportOptions = {},
): string {
  checkOptions(options);
  const title = options.title ?? "Assay comparison: adapter vs base";
  const panels = gapPanels(options.gaps);
  for (const [model, g] of panels) {
    const expected = comparison.inputs[model as "base" | "adapter"];
    if (JSON.stringify(g.inputs) !== JSON.stringify(expected)) {
      throw new RangeError(
        `The ${model} gap report's inputs are not the ${model} inputs of the comparison`,
      );
    }
  }
  const level = percent(comparison.bootstrap.level);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${
    esc(title)
  }</title><style>${CSS}</style></head><body><main>` +
    header(comparison, title) + glance(comparison) +
    `<section><h2>Every delta, with its interval</h2><figure>${legend(true)}${
      forestPlot(comparison)
    }<figcaption>Per metric: overall (\u25c6, shaded) then each language slice. Points are adapter \u2212 base; lines are ${level} paired-bootstrap percentile intervals (${
      esc(settingsText(comparison.bootstrap))
    }).</figcaption></figure></section>` +
    gapSection(panels, level) +
    `<section><h2>Metric tables</h2><p>Per slice and metric: each model's rate with its numerator and denominator, the difference and its ${level} interval.</p>${
      metricTables(comparison)
    }</section>` + (options.sections ?? []).join("") +
    `<footer>Written by ${esc(comparison.tool.name)} ${
      esc(comparison.tool.version)
    } from an <code>${esc(comparison.schema)}</code> report.</footer></main></body></html>\n`;
}
