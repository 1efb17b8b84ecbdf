// Text and numbers on the comparison page: HTML escaping, metric labels, rates, signed deltas,
// intervals, counts, and the ▲ ▼ ○ marks (and their legend) of an interval's direction.
import type { ComparisonReport } from "../compare/mod.ts";
import type { MetricValue } from "../stats/mod.ts";
import { METRIC_LABELS } from "../evaluation/mod.ts";

const LABELS: Readonly<Record<string, string>> = METRIC_LABELS;

/** Escapes a value for HTML text and attribute values. */
export function esc(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Cuts a label to `n` characters with an ellipsis; the full text stays in the tooltip. */
export function clip(s: string, n: number): string {
  const chars = Array.from(s);
  return chars.length > n ? `${chars.slice(0, n - 1).join("")}\u2026` : s;
}

/** A metric's display name (its own name when it has none). */
export function label(metric: string): string {
  return LABELS[metric] ?? metric;
}

/** A rate with three decimals, or `n/a`. */
export function rate(v: number): string {
  return Number.isFinite(v) ? v.toFixed(3) : "n/a";
}

/** A signed number with a true minus sign; zero has no sign. */
export function signed(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return "n/a";
  const s = Math.abs(v).toFixed(digits);
  if (Number(s) === 0) return s;
  return (v < 0 ? "\u2212" : "+") + s;
}

/** An integer with thousands separators. */
export function count(n: number): string {
  return Number.isInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",") : String(n);
}

/** A metric's numerator/denominator. */
export function fraction(m: MetricValue): string {
  return `${count(m.numerator)}/${count(m.denominator)}`;
}

/** A confidence level as a percentage, e.g. `95%`. */
export function percent(level: number): string {
  return `${Number((level * 100).toFixed(4))}%`;
}

/** An interval as `[low, high]`, signed. */
export function ci(c: readonly [number, number]): string {
  return `[${signed(c[0])}, ${signed(c[1])}]`;
}

/** An SVG coordinate, to a tenth. */
export function px(v: number): string {
  return String(Math.round(v * 10) / 10);
}

type Direction = "up" | "down" | "none";

/** Whether an interval lies above zero, below zero, or includes it. */
export function direction(c: readonly [number, number]): Direction {
  return c[0] > 0 ? "up" : c[1] < 0 ? "down" : "none";
}

/** The symbol of each direction. */
export const SYMBOL: Record<Direction, string> = { up: "\u25b2", down: "\u25bc", none: "\u25cb" };

/** An interval's direction as a coloured symbol with its tooltip. */
export function mark(d: Direction): string {
  const what = d === "up" ? "interval above zero" : d === "down" ? "interval below zero" : "";
  return d === "none"
    ? `<span class="mark none" title="interval includes zero">${SYMBOL.none}</span>`
    : `<span class="mark ${d}" title="${what}">${SYMBOL[d]}</span>`;
}

/** The legend of the marks (with the overall diamond when `overall`). */
export function legend(overall: boolean): string {
  return `<p class="legend"><span>${SYMBOL.up} <b class="up">filled, blue</b>: interval above zero</span><span>${SYMBOL.down} <b class="down">filled, orange</b>: interval below zero</span><span>${SYMBOL.none} <b class="none">hollow, grey</b>: interval includes zero</span>${
    overall ? "<span>\u25c6 overall</span>" : ""
  }</p>`;
}

/** A digest cut to its first twelve digits. */
export function short(digest: string): string {
  return digest.length > 12 ? `${digest.slice(0, 12)}\u2026` : digest;
}

/** The bootstrap's settings in words. */
export function settingsText(b: ComparisonReport["bootstrap"]): string {
  return `${b.prng}, seed ${b.seed}, ${count(b.resamples)} resamples, ${
    percent(b.level)
  } ${b.interval} intervals`;
}
