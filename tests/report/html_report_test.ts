// The HTML comparison report: deterministic bytes, escaped report strings, nothing external, and
// every delta and interval on the page.
import { deepStrictEqual as assertEquals, strictEqual, throws } from "node:assert/strict";
import {
  compareReports,
  type ComparisonReport,
  type EvaluationReport,
  type GapReport,
  languageGaps,
  type MetricDeltas,
  scoreToolCalls,
} from "../../mod.ts";
import { renderComparisonHtml } from "../../src/report/mod.ts";
import { esc } from "../../src/report/_html_text.ts";

const SYMBOLS: Record<string, string> = { up: "\u25b2", down: "\u25bc", none: "\u25cb" };

const HOSTILE = `<script>alert("x")</script>"&'`;

interface Fixture {
  base: EvaluationReport;
  adapter: EvaluationReport;
  cmp: ComparisonReport;
  gaps: { base: GapReport; adapter: GapReport };
}

/** Three languages (one hostile), roots and translations, a seeded mix of right and wrong. */
function fixture(): Fixture {
  const target = { name: "get_weather", arguments: { city: "Zürich", days: 3 } };
  const right = JSON.stringify(target);
  const wrongArgs = JSON.stringify({ name: "get_weather", arguments: { city: "Zurich", days: 3 } });
  const examples = [];
  const base = [];
  const adapter = [];
  let state = 7;
  const draw = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 24; i++) {
    for (const language of ["en", "de", HOSTILE]) {
      if (language !== "en" && i % 5 === 4) continue;
      const id = language === "en" ? `en-${i}` : `${language}-${i}`;
      examples.push({
        example_id: id,
        language,
        root_id: language === "en" ? null : `en-${i}`,
        target,
      });
      const hard = language === "en" ? 0.2 : 0.5;
      base.push({
        example_id: id,
        output: draw() < hard ? "Sorry, no." : draw() < 0.3 ? wrongArgs : right,
      });
      // The adapter fixes the format everywhere, but gets German arguments wrong more often.
      const slip = language === "de" ? 0.7 : 0.1;
      adapter.push({ example_id: id, output: draw() < slip ? wrongArgs : right });
    }
  }
  const b = scoreToolCalls(examples, base);
  const a = scoreToolCalls(examples, adapter);
  return {
    base: b,
    adapter: a,
    cmp: compareReports(b, a, { seed: 3, resamples: 500 }),
    gaps: {
      base: languageGaps(b, { resamples: 300 }),
      adapter: languageGaps(a, { resamples: 300 }),
    },
  };
}

const fx = fixture();
const html = renderComparisonHtml(fx.cmp, { gaps: fx.gaps, title: `Report ${HOSTILE}` });

function signed(v: number): string {
  const s = Math.abs(v).toFixed(3);
  return v === 0 ? s : (v < 0 ? "\u2212" : "+") + s;
}

function attr(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The opening tags of the interval groups of one plot, as attribute maps. */
function groups(page: string, plot: string): Record<string, string>[] {
  const start = page.indexOf(`<svg id="${plot}"`);
  const svg = page.slice(start, page.indexOf("</svg>", start));
  return [...svg.matchAll(/<g class="delta (up|down|none)"([^>]*)>/g)].map((m) => {
    const out: Record<string, string> = { direction: m[1]! };
    for (const a of m[2]!.matchAll(/ data-([a-z-]+)="([^"]*)"/g)) out[a[1]!] = a[2]!;
    return out;
  });
}

Deno.test("renderComparisonHtml() is deterministic: same report, same bytes", () => {
  const again = fixture();
  strictEqual(
    renderComparisonHtml(again.cmp, { gaps: again.gaps, title: `Report ${HOSTILE}` }),
    html,
  );
  const cloned = structuredClone({ cmp: fx.cmp, gaps: fx.gaps });
  strictEqual(
    renderComparisonHtml(cloned.cmp, { gaps: cloned.gaps, title: `Report ${HOSTILE}` }),
    html,
  );
  strictEqual(renderComparisonHtml(fx.cmp), renderComparisonHtml(fx.cmp));
});

Deno.test("renderComparisonHtml() escapes every string it takes from the reports", () => {
  strictEqual(fx.cmp.slices.includes(HOSTILE), true);
  strictEqual(/<script/i.test(html), false);
  strictEqual(html.includes(HOSTILE), false);
  strictEqual(html.includes(`"&'`), false);
  strictEqual(html.includes(`alert("x")`), false);
  const escaped = "&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#34;&#38;&#39;";
  strictEqual(html.includes(`<title>Report ${escaped}</title>`), true);
  strictEqual(html.includes(`data-slice="${escaped}"`), true);
  strictEqual(html.includes(`<th colspan="8">${escaped}</th>`), true);

  // Ids, digests and contract names are report strings too.
  const evil = structuredClone(fx.cmp);
  const digest = { sha256: `"><img src=x onerror=alert(1)>`, rows: 1 };
  evil.inputs.base.examples = digest;
  evil.parser_id = `<b onmouseover="x">`;
  evil.tool.name = "</style><script>";
  // Counts are numbers in a report, but one read back from JSON may hold a string in their place.
  (evil as { n: unknown }).n = "<i id=n1>";
  const metric = evil.deltas.overall[evil.metric_names[0]!];
  (metric.base as { numerator: unknown }).numerator = "<u id=f1>";
  const page = renderComparisonHtml(evil);
  strictEqual(/<script|<img|<b onmouseover|<i id|<u id/i.test(page), false);
  strictEqual(page.includes("&#60;i id=n1&#62;") && page.includes("&#60;u id=f1&#62;"), true);
  strictEqual(page.includes(`title="&#34;&#62;&#60;img src=x onerror=alert(1)&#62;"`), true);
  strictEqual(page.includes("&#60;b onmouseover=&#34;x&#34;&#62;"), true);
});

Deno.test("renderComparisonHtml() has no scripts and nothing external", () => {
  for (const [page, plots] of [[html, 2], [renderComparisonHtml(fx.cmp), 1]] as const) {
    strictEqual(/<script|javascript:|<iframe|<object|<embed|<link|<img|@import/i.test(page), false);
    strictEqual(/\s(src|href|on[a-z]+)=/i.test(page), false);
    strictEqual(/url\(/i.test(page), false);
    const urls = [...page.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)]*/gi)].map((m) => m[0]);
    strictEqual(urls.length, plots); // the xmlns of each plot
    for (const u of new Set(urls)) strictEqual(u, "http://www.w3.org/2000/svg");
  }
  strictEqual(html.startsWith("<!DOCTYPE html>\n"), true);
  strictEqual(html.endsWith("</html>\n"), true);
});

Deno.test("renderComparisonHtml() shows every delta and interval, overall first", () => {
  const forest = groups(html, "forest-plot");
  const expected: Record<string, string>[] = [];
  const slices: [string, MetricDeltas][] = [["overall", fx.cmp.deltas.overall]];
  for (const s of fx.cmp.slices) slices.push([s, fx.cmp.deltas.by_language[s]!]);
  for (const [slice, deltas] of slices) {
    for (const metric of fx.cmp.metric_names) {
      const d = deltas[metric];
      const direction = d.ci[0] > 0 ? "up" : d.ci[1] < 0 ? "down" : "none";
      expected.push({
        direction,
        slice: attr(slice),
        metric,
        delta: String(d.delta),
        "ci-low": String(d.ci[0]),
        "ci-high": String(d.ci[1]),
        "excludes-zero": String(direction !== "none"),
      });
      // Printed in the plot, and again in the table.
      const row = `${signed(d.delta)}</td><td class="n">[${signed(d.ci[0])}, ${signed(d.ci[1])}]`;
      strictEqual(html.includes(row), true, `${slice} ${metric}: ${row}`);
    }
  }
  // The plot groups rows by metric; compare as sets of rows.
  const key = (g: Record<string, string>) => JSON.stringify(g);
  assertEquals(forest.map(key).sort(), expected.map(key).sort());
  // Within each metric, overall comes first.
  for (let i = 0; i < forest.length; i += 1 + fx.cmp.slices.length) {
    strictEqual(forest[i]!.slice, "overall");
  }
  const ci = (html.match(/<line class="ci"/g) ?? []).length;
  const gapRows = 2 * fx.gaps.base.targets.length * fx.gaps.base.metric_names.length;
  strictEqual(ci, forest.length + gapRows);
});

Deno.test("renderComparisonHtml() marks intervals that exclude zero with colour and a symbol", () => {
  const forest = groups(html, "forest-plot");
  const marked = forest.filter((g) => g.direction !== "none");
  strictEqual(marked.length > 0 && marked.length < forest.length, true);
  for (const g of forest) {
    strictEqual(g["excludes-zero"], String(g.direction !== "none"));
  }
  // Every interval row ends with its symbol: ▲ above zero, ▼ below, ○ includes zero.
  const start = html.indexOf('<svg id="forest-plot"');
  const svg = html.slice(start, html.indexOf("</svg>", start));
  const symbols = [...svg.matchAll(/<text class="sym"[^>]*>(.)<\/text>/g)].map((m) => m[1]);
  assertEquals(
    symbols,
    forest.map((g) => SYMBOLS[g.direction!]),
  );
});

Deno.test("renderComparisonHtml() plots both models' language gaps with pairs and coverage", () => {
  const gap = groups(html, "gap-plot");
  strictEqual(gap.length, 2 * fx.gaps.base.targets.length * fx.gaps.base.metric_names.length);
  for (const [model, g] of Object.entries(fx.gaps)) {
    for (const lang of g.targets) {
      const p = g.gaps[lang]!.primary;
      const note =
        `${p.n_pairs} pairs \u00b7 coverage ${p.coverage.numerator}/${p.coverage.denominator}`;
      strictEqual(html.includes(note), true, note);
      strictEqual(html.includes(`<code title="${p.pair_set_sha256}">`), true);
      for (const metric of g.metric_names) {
        const m = p.metrics[metric];
        const row = gap.find((r) =>
          r.model === model && r.slice === attr(lang) && r.metric === metric
        );
        assertEquals(
          [row?.delta, row?.["ci-low"], row?.["ci-high"], row?.reference],
          [String(m.delta), String(m.ci![0]), String(m.ci![1]), "en"],
        );
      }
    }
  }
  const alone = renderComparisonHtml(fx.cmp, { gaps: { adapter: fx.gaps.adapter } });
  strictEqual(groups(alone, "gap-plot").every((r) => r.model === "adapter"), true);
  strictEqual(renderComparisonHtml(fx.cmp).includes("gap-plot"), false);
});

Deno.test("renderComparisonHtml() prints signs, zeros and counts plainly: only zero has no sign", () => {
  const cmp = structuredClone(fx.cmp);
  const d = cmp.deltas.overall.valid_json_rate;
  d.delta = -0;
  d.ci = [-0.25, -0.0001];
  d.base = { value: 0.5, numerator: 12345, denominator: 24690 };
  const page = renderComparisonHtml(cmp);
  // The high bound rounds to zero and keeps its sign, as its ▼ says; the delta is zero.
  strictEqual(page.includes(`>0.000</td><td class="n">[\u22120.250, \u22120.000]`), true);
  strictEqual(page.includes("12,345/24,690"), true);
  strictEqual(
    page.includes('<g class="delta down" data-slice="overall" data-metric="valid_json_rate"'),
    true,
  );
});

/** Each interval printed with its mark, in the cards, the tables and the plots. */
function markedIntervals(page: string): [string, string, string][] {
  const found: [string, string, string][] = [];
  const patterns = [
    /class="mark (up|down|none)"[^>]*>.<\/span> [^<]*<\/div><div class="ci">[^[]*\[([^,]*), ([^\]]*)\]/g,
    /<td class="n">\[([^,]*), ([^\]]*)\]<\/td><td class="m"><span class="mark (up|down|none)"/g,
    /<g class="delta (up|down|none)"[^>]*>(?:(?!<\/g>).)*?<text class="val" [^>]*>\[([^,]*), ([^\]]*)\]/g,
  ];
  patterns.forEach((re, i) => {
    for (const m of page.matchAll(re)) {
      found.push(i === 1 ? [m[3]!, m[1]!, m[2]!] : [m[1]!, m[2]!, m[3]!]);
    }
  });
  return found;
}

Deno.test("renderComparisonHtml() writes a bound that rounds to zero with its sign, as its mark says", () => {
  // The reviewer's case: 5,000 examples, the base always wrong, the adapter right on six.
  const target = { name: "f", arguments: {} };
  const examples = Array.from({ length: 5000 }, (_, i) => ({
    example_id: `e${i}`,
    language: "en",
    target,
  }));
  const outputs = (right: number) =>
    examples.map((e, i) => ({
      example_id: e.example_id,
      output: i < right ? JSON.stringify(target) : "no",
    }));
  const cmp = compareReports(
    scoreToolCalls(examples, outputs(0)),
    scoreToolCalls(examples, outputs(6)),
    {
      resamples: 2000,
    },
  );
  assertEquals(cmp.deltas.overall.valid_json_rate.ci, [0.0004, 0.0022]);
  const page = renderComparisonHtml(cmp);
  strictEqual(
    page.includes(
      '<span class="mark up" title="interval above zero">\u25b2</span> +0.001</div><div class="ci">95% CI [+0.000, +0.002]</div>',
    ),
    true,
  );
  // Everywhere, on this page and the fixture's: ▲ has a low bound written with +, ▼ a high bound
  // written with −, and ○ neither.
  for (const p of [page, html]) {
    const marked = markedIntervals(p);
    strictEqual(marked.length > 10, true);
    for (const [mark, low, high] of marked) {
      const got = low.startsWith("+") ? "up" : high.startsWith("\u2212") ? "down" : "none";
      strictEqual(got, mark, `${mark} [${low}, ${high}]`);
    }
  }
});

Deno.test("renderComparisonHtml() never writes a level below 1 as 100%, nor one above 0 as 0%", () => {
  const level = (l: number) => {
    const cmp = structuredClone(fx.cmp);
    cmp.bootstrap.level = l;
    const page = renderComparisonHtml(cmp, { gaps: fx.gaps });
    return page.slice(page.indexOf("</style>"));
  };
  for (const [l, shown] of [[0.95, "95%"], [0.9999999, "99.99999%"], [1e-7, "0.00001%"]] as const) {
    const page = level(l);
    strictEqual(page.includes(`${shown} CI [`), true, shown);
    strictEqual(page.includes(`${shown} paired-bootstrap interval.`), true, shown);
    strictEqual(/(?<![\d.])(100|0)%/.test(page), false, shown);
  }
  strictEqual(level(0.9999999999999999).includes("99.99999999999999% CI"), true);
});

Deno.test("renderComparisonHtml() rejects a report with missing deltas or mismatched gaps", () => {
  const cmp = structuredClone(fx.cmp);
  delete cmp.deltas.by_language.de;
  throws(() => renderComparisonHtml(cmp), TypeError);
  throws(
    () => {
      const other = structuredClone(fx.gaps.base);
      other.inputs.generations = { sha256: "0".repeat(64), rows: 1 };
      renderComparisonHtml(fx.cmp, { gaps: { base: other } });
    },
    (e: unknown) => e instanceof RangeError && /base gap report/.test(e.message),
  );
});

Deno.test("renderComparisonHtml() shows bidi controls in report strings as escapes and isolates languages", () => {
  // Every bidi control, and the reviewer's right-to-left override.
  const CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069";
  const RAW = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
  const target = { name: "f", arguments: {} };
  const examples = [];
  const base = [];
  const adapter = [];
  for (let i = 0; i < 6; i++) {
    for (const language of ["en", "\u202ede", `x${CONTROLS}y`]) {
      const id = `${language}-${i}`;
      examples.push({
        example_id: id,
        language,
        root_id: language === "en" ? null : `en-${i}`,
        target,
      });
      base.push({ example_id: id, output: i % 2 ? "no" : JSON.stringify(target) });
      adapter.push({ example_id: id, output: JSON.stringify(target) });
    }
  }
  const b = scoreToolCalls(examples, base);
  const a = scoreToolCalls(examples, adapter);
  const cmp = compareReports(b, a, { resamples: 100 });
  const gaps = {
    base: languageGaps(b, { resamples: 100 }),
    adapter: languageGaps(a, { resamples: 100 }),
  };
  const page = renderComparisonHtml(cmp, { gaps, title: "\u202eReport" });
  const shown =
    "x\\u061c\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069y";
  // No raw control anywhere, the data attributes included: they hold the slice as it is shown.
  strictEqual(RAW.test(page), false);
  strictEqual(page.includes('data-slice="\\u202ede"'), true);
  strictEqual(page.includes("<title>\\u202eReport</title>"), true);
  // Languages in running text are isolated, in the lede and the gap tables' headers.
  assertEquals(cmp.slices, ["en", `x${CONTROLS}y`, "\u202ede"]);
  strictEqual(
    page.includes(`language slices (<bdi>en</bdi>, <bdi>${shown}</bdi>, <bdi>\\u202ede</bdi>)`),
    true,
  );
  strictEqual(page.includes(`<th colspan="9"><bdi>\\u202ede</bdi> <span class="muted">`), true);
  // The metric tables, the plots' labels and the tooltips.
  strictEqual(page.includes(`<th colspan="8">${shown}</th>`), true);
  strictEqual(page.includes(`<title>\\u202ede \u00b7 Valid JSON`), true);
  strictEqual(page.includes(`<title>adapter: ${shown} \u00b7 `), true);
});

Deno.test("renderComparisonHtml() shows invisible characters in slice names as escapes, so no two slices look alike", () => {
  // Each language is "en" with one character that shows nothing (or only as a space): zero-width
  // ones, a soft hyphen, a word joiner, a variation selector, a Hangul filler, a tag, controls, a
  // no-break space, a line separator and a lone surrogate.
  const hidden = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\u00ad",
    "\u2060",
    "\ufeff",
    "\ufe0f",
    "\u3164",
    "\u{e0001}",
    "\u0000",
    "\u0007",
    "\n",
    "\u0085",
    "\u00a0",
    "\u2028",
    "\ud800",
  ];
  const languages = ["en", ...hidden.map((c) => `e${c}n`)];
  const target = { name: "f", arguments: {} };
  const examples = [];
  const base = [];
  const adapter = [];
  for (let i = 0; i < 4; i++) {
    for (const [k, language] of languages.entries()) {
      const id = `${k}-${i}`;
      examples.push({ example_id: id, language, root_id: null, target });
      base.push({ example_id: id, output: i % 2 ? "no" : JSON.stringify(target) });
      adapter.push({ example_id: id, output: JSON.stringify(target) });
    }
  }
  const cmp = compareReports(scoreToolCalls(examples, base), scoreToolCalls(examples, adapter), {
    resamples: 50,
  });
  const page = renderComparisonHtml(cmp);
  // As the metric tables' slice headers show them: each escaped as \uXXXX, a pair past U+FFFF.
  const escaped = (c: string) =>
    c.split("").map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
  const headers = [...page.matchAll(/<th colspan="8">([^<]*)<\/th>/g)].map((m) => m[1]);
  assertEquals(
    headers.sort(),
    ["overall", "en", ...hidden.map((c) => `e${escaped(c)}n`)].sort(),
  );
  strictEqual(new Set(headers).size, headers.length);
  // Nothing invisible is written raw, the data attributes included (until 2026-12-07 they held
  // each slice raw, a NUL too, which a browser reads as U+FFFD).
  const INVISIBLE = /[\p{Cc}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}\p{Cs}\u00a0]/u;
  const raw = [...page.replace(/\n/g, "")].filter((c) => INVISIBLE.test(c));
  assertEquals(raw, []);
  strictEqual(page.includes(`data-slice="e\\u200bn"`), true);
});

Deno.test("the page's escaping lists every character that shows nothing, and no other", () => {
  // Its fixed list against this runtime's Unicode: every default-ignorable code point, control,
  // space but U+0020, line and paragraph separator and lone surrogate is escaped; and the blank
  // format characters that are not default-ignorable (braille blank, interlinear annotation marks,
  // hieroglyph format controls).
  const invisible =
    /[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Zs}\p{Zl}\p{Zp}\p{Cs}\u2800\ufff9-\ufffb\u{13430}-\u{1343f}]/u;
  for (let c = 0; c < 0x110000; c++) {
    const ch = String.fromCodePoint(c);
    // Between two letters: a space is escaped only where HTML would not show it (see below).
    const shown = esc(`a${ch}b`).slice(1, -1);
    if (c === 0x20 || !invisible.test(ch)) {
      if (shown.startsWith("\\u")) throw new Error(`U+${c.toString(16)} is escaped`);
    } else if (!/^(\\u[0-9a-f]{4}){1,2}$/.test(shown)) {
      throw new Error(`U+${c.toString(16)} is shown as ${JSON.stringify(shown)}`);
    }
  }
});

Deno.test("the page escapes the spaces HTML would not show: first, last, and before another", () => {
  // "en", "en ", " en", "e  n" and "e n" would read alike (HTML drops the first three's spaces and
  // collapses a run): each space that would not show is written \u0020; a single inner one stays.
  const names = ["en", "en ", " en", "e  n", "e n", "   "];
  const shown = names.map((n) => esc(n));
  assertEquals(shown, [
    "en",
    "en\\u0020",
    "\\u0020en",
    "e\\u0020 n",
    "e n",
    "\\u0020\\u0020\\u0020",
  ]);
  // In a page, as slices: the headers of the metric tables differ.
  const target = { name: "f", arguments: {} };
  const examples = [];
  const rows = [];
  for (const [k, language] of names.slice(0, 5).entries()) {
    for (let i = 0; i < 2; i++) {
      examples.push({ example_id: `${k}-${i}`, language, root_id: null, target });
      rows.push({ example_id: `${k}-${i}`, output: i ? "no" : JSON.stringify(target) });
    }
  }
  const report = scoreToolCalls(examples, rows);
  const page = renderComparisonHtml(compareReports(report, report, { resamples: 20 }));
  const headers = [...page.matchAll(/<th colspan="8">([^<]*)<\/th>/g)].map((m) => m[1]);
  assertEquals(headers.sort(), ["overall", ...shown.slice(0, 5)].sort());
});

Deno.test("renderComparisonHtml() refuses a comparison with a slice named overall", () => {
  // compareReports never makes one (no language may be named overall); a hand-made one would show
  // two overall groups.
  const slices = [...fx.cmp.slices, "overall"];
  const by_language = { ...fx.cmp.deltas.by_language, overall: fx.cmp.deltas.overall };
  const cmp = { ...fx.cmp, slices, deltas: { ...fx.cmp.deltas, by_language } };
  throws(
    () => renderComparisonHtml(cmp),
    /slice "overall" has the name of the slice of all examples/,
  );
});

Deno.test("renderComparisonHtml() shows a language without joined pairs as no pairs, not a zero gap", () => {
  // The adapter's rows lose their root ids: its gaps have no pairs, so no delta and no interval.
  const records = fx.adapter.records.map((r) => ({ ...r, root_id: null }));
  const unjoined = languageGaps({ ...fx.adapter, records }, { resamples: 50 });
  strictEqual(unjoined.gaps.de!.primary.metrics.argument_f1.ci, null);
  const page = renderComparisonHtml(fx.cmp, { gaps: { base: fx.gaps.base, adapter: unjoined } });
  // Each metric row of the adapter's two targets says so, and the plot draws no adapter point.
  strictEqual(page.split('<td class="n muted" colspan="3">no pairs</td>').length - 1, 2 * 5);
  strictEqual(groups(page, "gap-plot").some((r) => r.model === "adapter"), false);
  strictEqual(groups(page, "gap-plot").filter((r) => r.model === "base").length, 2 * 5);
  strictEqual(/NaN|null/.test(page), false);
});
