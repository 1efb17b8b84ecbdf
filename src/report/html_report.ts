/**
 * The comparison as one self-contained HTML page: a forest plot of every
 * adapter − base delta with its interval, the language gaps of both models,
 * and the metric tables. Inline CSS and SVG only: no scripts, no external
 * resources, and the same report always gives the same bytes.
 *
 * @module
 */
import type { MetricDelta } from "../compare/mod.ts";
import type { ComparisonReport } from "../compare/mod.ts";
import type { EvaluationReport } from "../evaluation/mod.ts";
import type { GapReport, PairedGap } from "../compare/mod.ts";
import type { MetricValue } from "../stats/mod.ts";

/** Options for {@linkcode renderComparisonHtml}. */
export interface HtmlReportOptions {
  /** Language-gap reports of the base and the adapter, for the gap plot and tables. */
  gaps?: { base?: GapReport; adapter?: GapReport };
  /** The page title (default `Assay comparison: adapter vs base`). */
  title?: string;
}

const LABELS: Record<string, string> = {
  valid_json_rate: "Valid JSON",
  function_name_accuracy: "Function name",
  argument_exact_match: "Argument exact match",
  argument_f1: "Argument F1",
  full_call_exact_match: "Full-call exact match",
};

/** The interval plots' width in SVG units; they scale down to fit. */
const WIDTH = 1100;

// ---------------------------------------------------------------- text and numbers

function esc(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Cuts a label to `n` characters with an ellipsis; the full text stays in the tooltip. */
function clip(s: string, n: number): string {
  const chars = Array.from(s);
  return chars.length > n ? `${chars.slice(0, n - 1).join("")}\u2026` : s;
}

function label(metric: string): string {
  return LABELS[metric] ?? metric;
}

function rate(v: number): string {
  return Number.isFinite(v) ? v.toFixed(3) : "n/a";
}

function signed(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return "n/a";
  const s = Math.abs(v).toFixed(digits);
  if (Number(s) === 0) return s;
  return (v < 0 ? "\u2212" : "+") + s;
}

function count(n: number): string {
  return Number.isInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",") : String(n);
}

function fraction(m: MetricValue): string {
  return `${count(m.numerator)}/${count(m.denominator)}`;
}

function percent(level: number): string {
  return `${Number((level * 100).toFixed(4))}%`;
}

function ci(c: readonly [number, number]): string {
  return `[${signed(c[0])}, ${signed(c[1])}]`;
}

function px(v: number): string {
  return String(Math.round(v * 10) / 10);
}

type Direction = "up" | "down" | "none";

function direction(c: readonly [number, number]): Direction {
  return c[0] > 0 ? "up" : c[1] < 0 ? "down" : "none";
}

const SYMBOL: Record<Direction, string> = { up: "\u25b2", down: "\u25bc", none: "\u25cb" };

function mark(d: Direction): string {
  const what = d === "up" ? "interval above zero" : d === "down" ? "interval below zero" : "";
  return d === "none"
    ? `<span class="mark none" title="interval includes zero">${SYMBOL.none}</span>`
    : `<span class="mark ${d}" title="${what}">${SYMBOL[d]}</span>`;
}

// ---------------------------------------------------------------- interval charts

interface Interval {
  delta: number;
  ci: readonly [number, number];
  /** Full text of the row, as the SVG tooltip. */
  text: string;
  data: Record<string, string>;
}

type ChartRow =
  | { kind: "group"; label: string; code?: string; notes: string[] }
  | { kind: "item"; label: string; sub?: string; strong: boolean; cells: (Interval | undefined)[] };

interface ChartSpec {
  id: string;
  title: string;
  desc: string;
  labelWidth: number;
  /** The longest row label that fits beside the plot. */
  rowChars: number;
  /** The longest group label that fits beside the plot. */
  groupChars: number;
  panels: { heading: string; lower: string; higher: string }[];
  axisTitle: string;
  rows: ChartRow[];
}

function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

function domain(rows: ChartRow[], plotWidth: number): { lo: number; hi: number; step: number } {
  let lo = 0;
  let hi = 0;
  for (const r of rows) {
    if (r.kind !== "item") continue;
    for (const c of r.cells) {
      for (const v of c ? [c.delta, ...c.ci] : []) {
        if (Number.isFinite(v)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
      }
    }
  }
  if (hi - lo < 1e-9) [lo, hi] = [-0.1, 0.1];
  // About one tick per 70 px, and at most 8 intervals.
  const step = niceStep(Math.max((hi - lo) / 8, ((hi - lo) * 70) / plotWidth));
  // Round out to ticks, one more when a point would sit on the frame.
  let a = Math.floor(lo / step) * step;
  let b = Math.ceil(hi / step) * step;
  if (lo < 0 && lo - a < step * 0.05) a -= step;
  if (hi > 0 && b - hi < step * 0.05) b += step;
  // Keep zero off the frame, so that its line reads as zero and not as the axis.
  if (a === 0) a = -step;
  if (b === 0) b = step;
  return { lo: a, hi: b, step };
}

function tickLabel(v: number, step: number): string {
  let digits = 0;
  while (digits < 6 && Math.abs(step * 10 ** digits - Math.round(step * 10 ** digits)) > 1e-9) {
    digits++;
  }
  return Math.abs(v) < step / 1e6 ? "0" : signed(v, digits);
}

function intervalChart(spec: ChartSpec): string {
  const TOP = 58;
  const GROUP = 28;
  const ITEM = 23;
  const VALUES = 206;
  const panelWidth = (WIDTH - spec.labelWidth) / spec.panels.length;
  const plotWidth = panelWidth - VALUES - 24;
  const { lo, hi, step } = domain(spec.rows, plotWidth);
  const x = (p: number, v: number) =>
    spec.labelWidth + p * panelWidth + 8 + ((v - lo) / (hi - lo)) * plotWidth;
  let y = TOP;
  const body: string[] = [];
  const bands: string[] = [];
  for (const row of spec.rows) {
    if (row.kind === "group") {
      y += GROUP;
      // A white strip over the grid: each group reads as its own small panel.
      body.push(
        `<rect class="gap" x="0" y="${y - GROUP + 2}" width="${WIDTH}" height="${GROUP - 4}"/>`,
        `<line class="sep" x1="0" x2="${WIDTH}" y1="${y - GROUP + 2}" y2="${y - GROUP + 2}"/>`,
      );
      body.push(
        `<text class="group" x="4" y="${y - 8}">${esc(clip(row.label, spec.groupChars))}${
          row.code ? `<tspan class="code" dx="8">${esc(row.code)}</tspan>` : ""
        }</text>`,
      );
      row.notes.forEach((n, p) =>
        body.push(`<text class="note" x="${px(x(p, lo))}" y="${y - 8}">${esc(n)}</text>`)
      );
      continue;
    }
    const h = ITEM + (row.strong ? 3 : 0);
    const mid = y + h / 2;
    if (row.strong) {
      bands.push(`<rect class="band" x="0" y="${y}" width="${WIDTH}" height="${h}"/>`);
    }
    body.push(
      `<text class="row${row.strong ? " strong" : ""}" x="16" y="${px(mid + 4)}">${
        esc(clip(row.label, spec.rowChars))
      }</text>`,
    );
    if (row.sub) {
      body.push(
        `<text class="sub" x="${spec.labelWidth - 10}" y="${px(mid + 4)}" text-anchor="end">${
          esc(row.sub)
        }</text>`,
      );
    }
    row.cells.forEach((c, p) => {
      if (!c) return;
      const d = direction(c.ci);
      const data = Object.entries(c.data).map(([k, v]) => ` data-${k}="${esc(v)}"`).join("");
      const xs = [c.ci[0], c.ci[1], c.delta].map((v) => (Number.isFinite(v) ? x(p, v) : NaN));
      const [x0, x1, xd] = xs as [number, number, number];
      const parts = [`<title>${esc(c.text)}</title>`];
      if (Number.isFinite(x0) && Number.isFinite(x1)) {
        parts.push(
          `<line class="ci" x1="${px(x0)}" x2="${px(x1)}" y1="${px(mid)}" y2="${px(mid)}"/>`,
          `<line class="cap" x1="${px(x0)}" x2="${px(x0)}" y1="${px(mid - 4)}" y2="${
            px(mid + 4)
          }"/>`,
          `<line class="cap" x1="${px(x1)}" x2="${px(x1)}" y1="${px(mid - 4)}" y2="${
            px(mid + 4)
          }"/>`,
        );
      } else {
        parts.push(`<line class="ci missing" x1="0" x2="0" y1="0" y2="0"/>`);
      }
      if (Number.isFinite(xd)) {
        parts.push(
          row.strong
            ? `<path class="point" d="M${px(xd)} ${px(mid - 7)}L${px(xd + 7)} ${px(mid)}L${
              px(xd)
            } ${px(mid + 7)}L${px(xd - 7)} ${px(mid)}Z"/>`
            : `<circle class="point" cx="${px(xd)}" cy="${px(mid)}" r="4.5"/>`,
        );
      }
      const vx = spec.labelWidth + (p + 1) * panelWidth - VALUES;
      parts.push(
        `<text class="sym" x="${px(vx)}" y="${px(mid + 4)}">${SYMBOL[d]}</text>`,
        `<text class="val${row.strong ? " strong" : ""}" x="${px(vx + 66)}" y="${
          px(mid + 4)
        }" text-anchor="end">${signed(c.delta)}</text>`,
        `<text class="val" x="${px(vx + 76)}" y="${px(mid + 4)}">${ci(c.ci)}</text>`,
      );
      body.push(`<g class="delta ${d}"${data}>${parts.join("")}</g>`);
    });
    y += h;
  }
  const bottom = y + 6;
  const height = bottom + 48;
  const axes: string[] = [];
  spec.panels.forEach((panel, p) => {
    const px0 = x(p, lo);
    const px1 = x(p, hi);
    const zero = x(p, 0);
    const vx = spec.labelWidth + (p + 1) * panelWidth - VALUES;
    if (spec.panels.length > 1) {
      axes.push(`<text class="panel" x="${px(px0)}" y="16">${esc(panel.heading)}</text>`);
    }
    axes.push(
      `<text class="dir" x="${px(zero - 6)}" y="40" text-anchor="end">\u25c0 ${
        esc(panel.lower)
      }</text>`,
      `<text class="dir" x="${px(zero + 6)}" y="40">${esc(panel.higher)} \u25b6</text>`,
      `<text class="colhead" x="${px(vx + 66)}" y="40" text-anchor="end">\u0394</text>`,
      `<text class="colhead" x="${px(vx + 76)}" y="40">interval</text>`,
    );
    for (let i = Math.round(lo / step); i <= Math.round(hi / step); i++) {
      const v = i * step;
      const tx = px(x(p, v));
      axes.push(
        `<line class="${i === 0 ? "zero" : "grid"}" x1="${tx}" x2="${tx}" y1="${
          TOP - 8
        }" y2="${bottom}"/>`,
        `<line class="tick" x1="${tx}" x2="${tx}" y1="${bottom}" y2="${bottom + 5}"/>`,
        `<text class="tick" x="${tx}" y="${bottom + 18}" text-anchor="middle">${
          tickLabel(v, step)
        }</text>`,
      );
    }
    axes.push(
      `<line class="axis" x1="${px(px0)}" x2="${px(px1)}" y1="${bottom}" y2="${bottom}"/>`,
      `<text class="axis-title" x="${px((px0 + px1) / 2)}" y="${
        bottom + 38
      }" text-anchor="middle">${esc(spec.axisTitle)}</text>`,
    );
  });
  return `<svg id="${spec.id}" class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="${spec.id}-title ${spec.id}-desc">` +
    `<title id="${spec.id}-title">${esc(spec.title)}</title><desc id="${spec.id}-desc">${
      esc(spec.desc)
    }</desc>` +
    bands.join("") + axes.join("") + body.join("") + `</svg>`;
}

// ---------------------------------------------------------------- sections

function sliceLabel(slice: string | null): string {
  return slice === null ? "overall" : slice;
}

function deltaText(
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

function deltaData(slice: string, metric: string, d: MetricDelta): Record<string, string> {
  return {
    slice,
    metric,
    delta: String(d.delta),
    "ci-low": String(d.ci[0]),
    "ci-high": String(d.ci[1]),
    "excludes-zero": String(direction(d.ci) !== "none"),
  };
}

function sliceDeltas(c: ComparisonReport): [string | null, Record<string, MetricDelta>][] {
  const out: [string | null, Record<string, MetricDelta>][] = [[null, c.deltas.overall]];
  for (const s of c.slices) {
    const d = c.deltas.by_language[s];
    if (!d) throw new TypeError(`The comparison has no deltas for its slice ${JSON.stringify(s)}`);
    out.push([s, d]);
  }
  return out;
}

function metricOf(deltas: Record<string, MetricDelta>, metric: string, where: string): MetricDelta {
  const d = deltas[metric];
  if (!d) throw new TypeError(`The comparison has no ${metric} delta for ${where}`);
  return d;
}

function forestPlot(c: ComparisonReport): string {
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

function gapPanels(gaps: HtmlReportOptions["gaps"]): [string, GapReport][] {
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
          if (!m) return undefined;
          const d = { base: m.reference, adapter: m.target, delta: m.delta, ci: m.ci };
          return {
            delta: m.delta,
            ci: m.ci,
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

function metricTables(c: ComparisonReport): string {
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

function valueCells(m: MetricValue): string {
  return `<td class="n v">${rate(m.value)}</td><td class="f">${fraction(m)}</td>`;
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
        const dir = direction(x.ci);
        return `<tr class="${dir}"><th scope="row">${esc(label(metric))}</th>` +
          valueCells(x.reference) + valueCells(x.target) +
          `<td class="n d">${signed(x.delta)}</td><td class="n">${ci(x.ci)}</td><td class="m">${
            mark(dir)
          }</td><td class="n muted">${mm ? signed(mm.delta) : ""}</td></tr>`;
      });
      const unjoined = [
        p.unjoined.no_root_id ? `${count(p.unjoined.no_root_id)} without a root id` : "",
        p.unjoined.root_not_in_reference
          ? `${count(p.unjoined.root_not_in_reference)} whose root is not in ${esc(g.reference)}`
          : "",
      ].filter((t) => t).join(", ");
      return `<tbody><tr class="slice"><th colspan="9">${esc(lang)} <span class="muted">\u00b7 ${
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
    } model <span class="muted">\u00b7 reference ${esc(g.reference)} \u00b7 ${
      esc(settingsText(g.bootstrap))
    }</span></caption><thead><tr><th>Metric</th><th class="c" colspan="2">${
      esc(g.reference)
    } roots</th><th class="c" colspan="2">Target rows</th><th class="n">Paired \u0394</th><th class="n">${level} interval</th><th class="m"><span class="sr">Mark</span></th><th class="n">Full-slice \u0394<br><small>descriptive</small></th></tr></thead>${
      bodies.join("")
    }</table>`;
  }).join("");
}

function short(digest: string): string {
  return digest.length > 12 ? `${digest.slice(0, 12)}\u2026` : digest;
}

function settingsText(b: ComparisonReport["bootstrap"]): string {
  return `${b.prng}, seed ${b.seed}, ${count(b.resamples)} resamples, ${
    percent(b.level)
  } ${b.interval} intervals`;
}

function digestCell(d: EvaluationReport["inputs"]["examples"]): string {
  return d
    ? `<code title="${esc(d.sha256)}">${esc(short(d.sha256))}</code> <small>${
      count(d.rows)
    } rows</small>`
    : `<span class="muted">not recorded</span>`;
}

function header(c: ComparisonReport, title: string): string {
  const files = ["examples", "generations", "prompts"] as const;
  const inputs = files.map((f) => {
    const b = c.inputs.base[f];
    const a = c.inputs.adapter[f];
    const same = b && a && b.sha256 === a.sha256 && b.rows === a.rows;
    return `<tr><th scope="row">${f}</th><td>${digestCell(b)}</td><td>${
      same ? `<span class="muted">same as base</span>` : digestCell(a)
    }</td></tr>`;
  });
  return `<header><h1>${esc(title)}</h1><p class="lede">${
    count(c.n)
  } examples scored by both models, in ${c.slices.length} language slices (${
    c.slices.map(esc).join(", ")
  }). Every \u0394 is adapter \u2212 base, with a ${
    percent(c.bootstrap.level)
  } paired-bootstrap interval.</p>` +
    `<div class="meta"><dl>` +
    `<dt>Bootstrap</dt><dd>${esc(settingsText(c.bootstrap))}; ${esc(c.bootstrap.streams)}</dd>` +
    `<dt>Contracts</dt><dd><code>${esc(c.parser_id)}</code> \u00b7 <code>${
      esc(c.canonical_id)
    }</code></dd>` +
    `<dt>Tool</dt><dd>${esc(c.tool.name)} ${esc(c.tool.version)} \u00b7 <code>${
      esc(c.schema)
    }</code></dd></dl>` +
    `<table class="inputs"><thead><tr><th>Input</th><th>Base (SHA-256)</th><th>Adapter (SHA-256)</th></tr></thead><tbody>${
      inputs.join("")
    }</tbody></table></div></header>`;
}

function glance(c: ComparisonReport): string {
  const all = sliceDeltas(c).flatMap(([slice, d]) =>
    c.metric_names.map((m) => metricOf(d, m, sliceLabel(slice)))
  );
  const up = all.filter((d) => direction(d.ci) === "up").length;
  const down = all.filter((d) => direction(d.ci) === "down").length;
  const cards = c.metric_names.map((metric) => {
    const d = metricOf(c.deltas.overall, metric, "overall");
    const dir = direction(d.ci);
    return `<div class="card ${dir}"><div class="name">${esc(label(metric))}</div>` +
      `<div class="move">${rate(d.base.value)} \u2192 <b>${rate(d.adapter.value)}</b></div>` +
      `<div class="delta">${mark(dir)} ${signed(d.delta)}</div><div class="ci">${
        percent(c.bootstrap.level)
      } CI ${ci(d.ci)}</div></div>`;
  });
  return `<section><h2>Overall</h2><div class="cards">${cards.join("")}</div>` +
    `<p class="summary">${
      up + down
    } of ${all.length} intervals exclude zero: ${up} with the adapter higher (${SYMBOL.up}), ${down} with it lower (${SYMBOL.down}).</p></section>`;
}

function legend(overall: boolean): string {
  return `<p class="legend"><span>${SYMBOL.up} <b class="up">filled, blue</b>: interval above zero</span><span>${SYMBOL.down} <b class="down">filled, orange</b>: interval below zero</span><span>${SYMBOL.none} <b class="none">hollow, grey</b>: interval includes zero</span>${
    overall ? "<span>\u25c6 overall</span>" : ""
  }</p>`;
}

const CSS = `
:root{--ink:#1f2328;--muted:#59636e;--rule:#d1d9e0;--band:#eef3f8;--up:#0066a8;--down:#c24e00;--none:#7d8590}
*{box-sizing:border-box}
html{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{margin:0;background:#fff;color:var(--ink);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,sans-serif}
main{max-width:1160px;margin:0 auto;padding:32px 28px 48px}
h1{font-size:27px;line-height:1.25;margin:0 0 6px;letter-spacing:-.01em}
h2{font-size:20px;margin:40px 0 6px;padding-top:14px;border-top:1px solid var(--rule)}
h3{font-size:16px;margin:26px 0 8px}
p{margin:0 0 10px;max-width:80ch}
code{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:.86em;color:#3d444d}
small,.muted{color:var(--muted)}
.lede{font-size:16px;color:#3d444d}
.meta{display:grid;grid-template-columns:1fr 1fr;gap:8px 32px;align-items:start;margin-top:14px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px;margin:0;font-size:14px}
dt{color:var(--muted)}dd{margin:0}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(190px,1fr));gap:12px;margin:12px 0}
.card{border:1px solid var(--rule);border-top:4px solid var(--none);border-radius:6px;padding:10px 12px;break-inside:avoid}
.card.up{border-top-color:var(--up)}.card.down{border-top-color:var(--down)}
.card .name{font-size:13px;color:var(--muted);font-weight:600}
.card .move{font-size:18px;font-variant-numeric:tabular-nums}
.card .delta{font-variant-numeric:tabular-nums;font-weight:700;font-size:16px}
.card .ci{font-variant-numeric:tabular-nums;font-size:12.5px;color:var(--muted);white-space:nowrap}
.summary,.legend{font-size:14px;color:#3d444d}
.legend{display:flex;flex-wrap:wrap;gap:6px 22px;max-width:none}
.mark.up,.legend .up,.card.up .delta{color:var(--up)}.mark.down,.legend .down,.card.down .delta{color:var(--down)}.mark.none,.legend .none{color:var(--none)}
figure{margin:10px 0 0;break-inside:avoid}
figcaption{font-size:13.5px;color:var(--muted);margin-top:6px;max-width:110ch}
svg.chart{display:block;width:100%;height:auto;max-width:1100px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif}
.chart text{font-size:12.5px;fill:var(--ink);font-variant-numeric:tabular-nums}
.chart text.group{font-weight:700;font-size:13.5px}
.chart text.panel{font-weight:700;font-size:14.5px}
.chart text.note,.chart text.tick,.chart text.colhead,.chart text.dir{fill:var(--muted);font-size:12px}
.chart text.axis-title{fill:var(--muted);font-size:12.5px}
.chart text.strong{font-weight:700}
.chart text.sub{fill:var(--muted);font-size:11.5px}
.chart tspan.code{fill:var(--muted);font-weight:400;font-size:11.5px;font-family:ui-monospace,Menlo,Consolas,"DejaVu Sans Mono",monospace}
.chart .band{fill:var(--band)}
.chart .sep{stroke:var(--rule)}.chart .gap{fill:#fff}
.chart .grid{stroke:#e6eaef}
.chart .zero{stroke:#4b535c;stroke-width:1.4}
.chart .axis,.chart .tick{stroke:#8c959f}
.chart .ci,.chart .cap{stroke:var(--none);stroke-width:2}
.chart .point{fill:#fff;stroke:var(--none);stroke-width:2}
.chart .up .ci,.chart .up .cap{stroke:var(--up)}.chart .up .point{fill:var(--up);stroke:var(--up)}
.chart .down .ci,.chart .down .cap{stroke:var(--down)}.chart .down .point{fill:var(--down);stroke:var(--down)}
.chart .up text.sym{fill:var(--up)}.chart .down text.sym{fill:var(--down)}.chart .none text.sym{fill:var(--none)}
table{border-collapse:collapse;font-size:14px;font-variant-numeric:tabular-nums}
th,td{padding:4px 12px;text-align:left;vertical-align:baseline}
thead th{font-size:12.5px;color:var(--muted);font-weight:600;border-bottom:1.5px solid #8c959f}
.n{text-align:right;white-space:nowrap}.c{text-align:center}.m{text-align:center;width:2em}
table.inputs{font-size:13.5px}table.inputs th,table.inputs td{padding:2px 12px 2px 0}
table.metrics{width:100%;margin-top:6px}
caption{text-align:left;font-size:16px;font-weight:700;padding:26px 0 8px}
table.metrics tbody th{font-weight:500}
table.metrics td.v{padding-right:4px}table.metrics td.f{padding-left:0;font-size:12.5px;color:var(--muted);white-space:nowrap}
table.metrics th code{color:var(--muted);font-size:12px;margin-left:6px}
table.metrics tr:not(.slice) td,table.metrics tr:not(.slice) th{border-bottom:1px solid #eaeef2}
table.metrics tr.slice th{padding-top:14px;font-weight:700;border-bottom:1px solid var(--rule)}
table.metrics tbody.overall tr:not(.slice){background:var(--band)}
table.metrics td.d{font-weight:600}
tr.up td.d{color:var(--up)}tr.down td.d{color:var(--down)}
tbody{break-inside:avoid}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
footer{margin-top:40px;padding-top:12px;border-top:1px solid var(--rule);font-size:13px;color:var(--muted)}
@page{margin:12mm}
@media print{body{font-size:10.5pt}main{max-width:none;padding:0}h2{break-after:avoid}h2,h3,h2+p,p.legend{break-after:avoid}svg.chart{max-height:245mm}table.metrics thead{display:table-header-group}}
`;

/**
 * Renders a comparison report, and optionally both models' language gaps, as one
 * self-contained HTML page: a forest plot of every adapter − base delta with its interval
 * (overall first), the language-gap plot, and the metric tables. Intervals that exclude zero
 * are marked by colour, a filled point and a ▲ or ▼ symbol. The page has inline CSS and SVG
 * only, no scripts and no external resources, escapes every string it takes from the reports,
 * and is byte-for-byte the same for the same input.
 *
 * @param comparison An `assay.comparison.v1` report, from {@linkcode compareReports}.
 * @param options Gap reports of the base and the adapter (from {@linkcode languageGaps}), and
 *   the page title.
 * @returns The HTML document.
 * @throws {TypeError} If the comparison lacks the deltas of one of its slices or metrics.
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
  const gapSection = panels.length === 0 ? "" : `<section><h2>Language gaps</h2>` +
    `<p>Each target-language row is paired with its own ${
      esc(union(panels.map(([, g]) => [g.reference])).join(" / "))
    } root, and the interval bootstraps those pairs, so each \u0394 compares the same requests in two languages. Rows without a root in the reference slice are left out and counted in the coverage.</p>` +
    `<figure>${legend(false)}${gapPlot(panels)}<figcaption>Paired \u0394 = target \u2212 ${
      esc(union(panels.map(([, g]) => [g.reference])).join(" / "))
    } with ${level} intervals, per model (same scale in both panels); each language's header gives its joined pairs and coverage.</figcaption></figure></section>` +
    `<section><h2>Language-gap tables</h2><p>The full-slice \u0394 compares all rows of the two slices, whose cohorts can differ: it is descriptive and has no interval.</p>${
      gapTables(panels)
    }</section>`;
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
    gapSection +
    `<section><h2>Metric tables</h2><p>Per slice and metric: each model's rate with its numerator and denominator, the difference and its ${level} interval.</p>${
      metricTables(comparison)
    }</section>` +
    `<footer>Written by ${esc(comparison.tool.name)} ${
      esc(comparison.tool.version)
    } from an <code>${esc(comparison.schema)}</code> report.</footer></main></body></html>\n`;
}
