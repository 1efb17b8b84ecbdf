// The SVG interval chart behind the forest plot and the gap plot: one row per delta, grouped,
// with a point, its interval and its values, in one or more panels on a shared, rounded scale.
import { ci, clip, direction, esc, px, signed, SYMBOL } from "./_html_text.ts";

/** The interval plots' width in SVG units; they scale down to fit. */
const WIDTH = 1100;

interface Interval {
  delta: number;
  ci: readonly [number, number];
  /** Full text of the row, as the SVG tooltip. */
  text: string;
  data: Record<string, string>;
}

/** A row of a chart: a group heading, or an item with one cell per panel. */
export type ChartRow =
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
  // The power of ten of raw's decimal exponent, read from text: 10 ** k and Math.log10 are not
  // rounded alike on every runtime (Node 20 gives 10 ** -4 as 0.00009999999999999999).
  const p = Number(`1e${raw.toExponential().split("e")[1]}`);
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

function domain(
  rows: ChartRow[],
  plotWidth: number,
): { lo: number; hi: number; step: number } {
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

/** Draws an interval chart as one SVG element. */
export function intervalChart(spec: ChartSpec): string {
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
      // As the page shows them: a raw NUL or bidi control in an attribute was read as U+FFFD.
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
