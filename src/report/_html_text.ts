// Text and numbers on the comparison page: HTML escaping, metric labels, rates, signed deltas,
// intervals, counts, and the ▲ ▼ ○ marks (and their legend) of an interval's direction.
import type { ComparisonReport } from "../compare/mod.ts";
import { levelPercent, type MetricValue } from "../stats/mod.ts";
import { METRIC_LABELS } from "../evaluation/mod.ts";
import { textHead } from "../jsonl/mod.ts";

const LABELS: Readonly<Record<string, string>> = METRIC_LABELS;

/** Escapes HTML's special characters, for text and attributes alike. */
function attr(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Escapes a value for HTML text and attributes, data attributes too (a browser reads a raw NUL in
 * one as U+FFFD, and grep takes a page holding one for binary), each character that shows
 * nothing or moves the text around it written as `\uXXXX` (two escapes past U+FFFF), so that two
 * names that differ only in one look different, and none reorders what follows: the controls (C0,
 * DEL, C1), the spaces but U+0020, U+2028 and U+2029, a lone surrogate, and Unicode 15's
 * default-ignorable code points: zero-width spaces and joiners, U+00AD, the bidi controls (U+061C,
 * U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), variation selectors, Hangul fillers, tags;
 * and the format characters that are not default-ignorable but show nothing alone: the braille
 * blank U+2800, the interlinear annotation marks U+FFF9 to U+FFFB and the Egyptian hieroglyph
 * format controls U+13430 to U+1343F; and a U+0020 that HTML would not show (the first, the last,
 * and one before another). A fixed list, so that every runtime writes the same page. A raw bidi
 * control would reorder the text after it, and an isolating element does not stop it, as a stray
 * U+2069 inside closes the isolate.
 */
export function esc(s: unknown): string {
  return attr(
    String(s).replace(
      /^ | (?= |$)|[\p{Cc}\xa0\xad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\ud800-\udfff\u{13430}-\u{1343f}\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]/gu,
      (c) => c.split("").map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
    ),
  );
}

/**
 * A report string in running text: escaped, and isolated so that right-to-left text in it does
 * not reorder its neighbours.
 */
export function bdi(s: unknown): string {
  return `<bdi>${esc(s)}</bdi>`;
}

/**
 * Cuts a label to `n` characters (code points) with an ellipsis, where textHead cuts (never inside
 * a character a person reads as one); the full text stays in the tooltip.
 */
export function clip(s: string, n: number): string {
  let count = 0;
  let head = 0; // the units of the first n - 1 characters
  for (const c of s) {
    if (++count > n) return `${textHead(s, head)}\u2026`;
    if (count < n) head += c.length;
  }
  return s;
}

/** A metric's display name (its own name when it has none). */
export function label(metric: string): string {
  return LABELS[metric] ?? metric;
}

/** A rate with three decimals, or `n/a`. */
export function rate(v: number): string {
  return Number.isFinite(v) ? v.toFixed(3) : "n/a";
}

/**
 * A signed number with a true minus sign. Only zero has no sign: a number that rounds to zero
 * keeps its own (`+0.000`, `−0.000`), so that an interval marked ▲ has a low bound written with
 * `+`, and one marked ▼ a high bound written with `−`.
 */
export function signed(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return "n/a";
  const s = Math.abs(v).toFixed(digits);
  return v ? (v < 0 ? "\u2212" : "+") + s : s;
}

/** An integer with thousands separators (anything else as text: a report read back may hold it). */
export function count(n: number): string {
  return Number.isInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",") : esc(String(n));
}

/** A metric's numerator/denominator. */
export function fraction(m: MetricValue): string {
  return `${count(m.numerator)}/${count(m.denominator)}`;
}

/** A confidence level as a percentage, e.g. `95%` (never 100% for a level below 1). */
export const percent = levelPercent;

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
  const what = d === "up" ? "above" : d === "down" ? "below" : "includes";
  return `<span class="mark ${d}" title="interval ${what} zero">${SYMBOL[d]}</span>`;
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
