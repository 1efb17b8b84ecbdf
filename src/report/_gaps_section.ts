// The language-gap sections: the paired gap plot of both models (one panel each) and the gap
// tables, each target language's rows paired with their roots in the reference slice.
import type { GapReport, PairedGap } from "../compare/mod.ts";
import { deltaData, deltaText } from "./_deltas.ts";
import {
  bdi,
  ci,
  count,
  direction,
  esc,
  fraction,
  label,
  legend,
  mark,
  percent,
  settingsText,
  short,
  signed,
} from "./_html_text.ts";
import { type ChartRow, intervalChart } from "./_interval_chart.ts";
import { valueCells } from "./_metric_tables.ts";

/** The gap reports given, as `[model, report]` panels, base first. */
export function gapPanels(
  gaps: { base?: GapReport; adapter?: GapReport } | undefined,
): [string, GapReport][] {
  const out: [string, GapReport][] = [];
  if (gaps?.base) out.push(["base", gaps.base]);
  if (gaps?.adapter) out.push(["adapter", gaps.adapter]);
  return out;
}

function union(lists: string[][]): string[] {
  const seen: string[] = [];
  for (const l of lists) for (const s of l) if (!seen.includes(s)) seen.push(s);
  return seen;
}

function gapPlot(panels: [string, GapReport][]): string {
  const targets = union(panels.map(([, g]) => g.targets));
  const metrics = union(panels.map(([, g]) => g.metric_names));
  const rows: ChartRow[] = [];
  for (const lang of targets) {
    rows.push({
      kind: "group",
      label: lang,
      notes: panels.map(([, g]) => {
        const p = g.gaps[lang]?.primary;
        return p
          ? `${count(p.n_pairs)} pairs \u00b7 coverage ${fraction(p.coverage)} (${
            (p.coverage.value * 100).toFixed(1)
          }%)`
          : "not in this report";
      }),
    });
    for (const metric of metrics) {
      rows.push({
        kind: "item",
        label: label(metric),
        strong: false,
        cells: panels.map(([model, g]) => {
          const all = g.gaps[lang]?.primary.metrics as Record<string, PairedGap> | undefined;
          const m = all?.[metric];
          // No pairs, no estimate: the language's note says 0 pairs.
          if (!m?.ci) return undefined;
          const d = { base: m.reference, adapter: m.target, delta: m.delta!, ci: m.ci };
          return {
            ...d,
            text: `${model}: ` +
              deltaText(lang, metric, d, percent(g.bootstrap.level), [g.reference, lang]),
            data: { model, ...deltaData(lang, metric, d), reference: g.reference },
          };
        }),
      });
    }
  }
  const refs = union(panels.map(([, g]) => [g.reference]));
  const ref = refs.length === 1 ? refs[0]! : "reference";
  return intervalChart({
    id: "gap-plot",
    title: `Language gaps, target \u2212 ${ref}, paired with their ${ref} roots`,
    desc:
      `For each model, target language and metric: the paired difference between the target rows and their ${ref} roots, with its bootstrap interval.`,
    labelWidth: 170,
    rowChars: 22,
    groupChars: 18,
    panels: panels.map(([model, g]) => ({
      heading: `${model === "base" ? "Base" : "Adapter"} model`,
      lower: `below ${g.reference}`,
      higher: `above ${g.reference}`,
    })),
    axisTitle: `\u0394 = target \u2212 ${ref} (paired rows only)`,
    rows,
  });
}

function gapTables(panels: [string, GapReport][]): string {
  return panels.map(([model, g]) => {
    const level = percent(g.bootstrap.level);
    const bodies = g.targets.map((lang) => {
      const gap = g.gaps[lang];
      if (!gap) return "";
      const p = gap.primary;
      const m = gap.marginal_full_slices;
      const rows = g.metric_names.map((metric) => {
        const x = p.metrics[metric];
        const mm = m.metrics[metric];
        if (!x) return "";
        const dir = x.ci ? direction(x.ci) : "";
        return `<tr class="${dir}"><th scope="row">${esc(label(metric))}</th>` +
          valueCells(x.reference) + valueCells(x.target) +
          (x.ci
            ? `<td class="n d">${signed(x.delta!)}</td><td class="n">${
              ci(x.ci)
            }</td><td class="m">${mark(dir as "none")}</td>`
            : `<td class="n muted" colspan="3">no pairs</td>`) +
          `<td class="n muted">${mm ? signed(mm.delta) : ""}</td></tr>`;
      });
      const unjoined = [
        p.unjoined.no_root_id ? `${count(p.unjoined.no_root_id)} without a root id` : "",
        p.unjoined.root_not_in_reference
          ? `${count(p.unjoined.root_not_in_reference)} whose root is not in ${bdi(g.reference)}`
          : "",
      ].filter((t) => t).join(", ");
      return `<tbody><tr class="slice"><th colspan="9">${bdi(lang)} <span class="muted">\u00b7 ${
        count(p.n_pairs)
      } pairs, coverage ${fraction(p.coverage)} (${(p.coverage.value * 100).toFixed(1)}%)${
        unjoined ? ` \u00b7 unjoined: ${unjoined}` : ""
      } \u00b7 full slices ${count(m.n_target)} vs ${
        count(m.n_reference)
      } \u00b7 pair set <code title="${esc(p.pair_set_sha256)}">${
        esc(short(p.pair_set_sha256))
      }</code></span></th></tr>${rows.join("")}</tbody>`;
    });
    return `<table class="metrics gaps"><caption>${
      model === "base" ? "Base" : "Adapter"
    } model <span class="muted">\u00b7 reference ${bdi(g.reference)} \u00b7 ${
      esc(settingsText(g.bootstrap))
    }</span></caption><thead><tr><th>Metric</th><th class="c" colspan="2">${
      bdi(g.reference)
    } roots</th><th class="c" colspan="2">Target rows</th><th class="n">Paired \u0394</th><th class="n">${level} interval</th><th class="m"><span class="sr">Mark</span></th><th class="n">Full-slice \u0394<br><small>descriptive</small></th></tr></thead>${
      bodies.join("")
    }</table>`;
  }).join("");
}

/** The gap plot and the gap tables, or nothing without gap reports; `level` is the comparison's. */
export function gapSection(panels: [string, GapReport][], level: string): string {
  if (panels.length === 0) return "";
  const refs = union(panels.map(([, g]) => [g.reference])).map(bdi).join(" / ");
  return `<section><h2>Language gaps</h2>` +
    `<p>Each target-language row is paired with its own ${refs} root, and the interval bootstraps those pairs, so each \u0394 compares the same requests in two languages. Rows without a root in the reference slice are left out and counted in the coverage.</p>` +
    `<figure>${legend(false)}${
      gapPlot(panels)
    }<figcaption>Paired \u0394 = target \u2212 ${refs} with ${level} intervals, per model (same scale in both panels); each language's header gives its joined pairs and coverage.</figcaption></figure></section>` +
    `<section><h2>Language-gap tables</h2><p>The full-slice \u0394 compares all rows of the two slices, whose cohorts can differ: it is descriptive and has no interval.</p>${
      gapTables(panels)
    }</section>`;
}
