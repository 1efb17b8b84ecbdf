// examplesSection(): the examples' rows and filters as the page writes them, without a browser
// (tests/report/examples_browser_test.ts runs the script in Chromium).
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { compareReports, type EvaluationReport, scoreToolCalls } from "../../mod.ts";
import {
  DETAIL_OUTPUT_CHARS,
  examplesSection,
  explainScore,
  formatExample,
} from "../../src/explain/mod.ts";

/**
 * A section over two examples per language, which the adapter gets right; `edit` may change the
 * reports after they are compared, as a hand edit would.
 */
function section(
  languages: string[],
  id = (lang: string, i: number) => `${lang}-${i}`,
  edit = (_base: EvaluationReport, _adapter: EvaluationReport) => {},
): string {
  const target = { name: "f", arguments: {} };
  const examples = languages.flatMap((language) =>
    [0, 1].map((i) => ({ example_id: id(language, i), language, target }))
  );
  const outputs = (output: string) => examples.map((e) => ({ example_id: e.example_id, output }));
  const b = scoreToolCalls(examples, outputs("no"), { detail: explainScore() });
  const a = scoreToolCalls(examples, outputs(JSON.stringify(target)), { detail: explainScore() });
  const comparison = compareReports(b, a, { resamples: 10 });
  edit(b, a);
  return examplesSection(comparison, b, a);
}

Deno.test("examplesSection() shows ids, languages and statuses that are not printable as escaped JSON strings", () => {
  const html = section(["en", "\u202ede"], (lang, i) => `${lang}\u2069\u202e-${i}`);
  // The data attributes hold the strings as the page shows them, for the filters and the sort.
  strictEqual(
    html.includes(
      'data-id="&#34;\\u202ede\\u2069\\u202e-0&#34;" data-slice="&#34;\\u202ede&#34;"',
    ),
    true,
  );
  strictEqual(html.includes("<summary>&#34;\\u202ede\\u2069\\u202e-0&#34;</summary>"), true);
  strictEqual(html.includes("<td>&#34;\\u202ede&#34;</td><td>no_json, wrong</td>"), true);
  // A status of a hand-edited report, in its cell and in its side's line.
  const edited = section(["en"], undefined, (b) => {
    for (const r of b.records) r.status = "no\u202ejson" as typeof r.status;
  });
  strictEqual(edited.includes("<td>&#34;no\\u202ejson&#34;, wrong</td>"), true);
  strictEqual(edited.includes("<b>base</b>: &#34;no\\u202ejson&#34;; predicted"), true);
});

Deno.test("examplesSection() shows each model's output with its non-printable characters escaped", () => {
  const output = "ok \u202eevil\u202c \u2028NEXT \u009b31mC1 \u200bzw \u0085nel\nline <b>";
  const html = section(["en"], undefined, (b) => {
    for (const r of b.records) r.detail!.output.text = output;
  });
  const pre = html.match(/<pre>([^<]*)<\/pre>/)![1]!;
  strictEqual(
    pre,
    // Its lines kept, as a reader of the page wants a model's output; nothing else raw.
    "ok \\u202eevil\\u202c \\u2028NEXT \\u009b31mC1 \\u200bzw \\u0085nel\nline &#60;b&#62;",
  );
  // Nothing that is not printable is left anywhere in the page.
  strictEqual(/[\u202e\u2028\u009b\u200b\u0085]/.test(html), false);
});

/** Each row's attribute `name` and its first cell's shown id, HTML's character references read. */
function rowsOf(html: string): { id: string; slice: string; status: string; shown: string }[] {
  const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
  return [
    ...html.matchAll(
      /<tr class="\w+" data-id="([^"]*)" data-slice="([^"]*)" data-status="([^"]*)"[^>]*><td><details><summary>([^<]*)<\/summary>/g,
    ),
  ].map((m) => ({
    id: unescape(m[1]!),
    slice: unescape(m[2]!),
    status: unescape(m[3]!),
    shown: unescape(m[4]!),
  }));
}

Deno.test("examplesSection() writes no NUL, bidi control or other invisible character raw, in attributes too", () => {
  // The user's page: the id was shown "n\u0000ul21" but its data-id held a raw NUL and U+202E
  // (grep read the page as binary; a browser reads a NUL as U+FFFD, which the id's sort read).
  const html = section(
    ["en", "d\u0000e"],
    (lang, i) => (lang === "en" ? `n\u0000ul2${i}\u202e` : `${lang}\u200b-${i}`),
    (b, a) => {
      for (const r of [...b.records, ...a.records]) {
        if (r.language === "en") r.status = "no\u0000json" as typeof r.status;
      }
    },
  );
  const INVISIBLE = /[\p{Cc}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}\p{Cs}]/u;
  // Line feeds aside (the style's, and an output's lines in its <pre>).
  deepStrictEqual([...html].filter((c) => c !== "\n" && INVISIBLE.test(c)), []);
  const rows = rowsOf(html);
  strictEqual(rows.length, 4);
  // What the script filters and sorts by is what the row shows, as in the filters' options.
  for (const r of rows) strictEqual(r.id, r.shown);
  deepStrictEqual(rows.map((r) => r.id).sort(), [
    '"d\\u0000e\\u200b-0"',
    '"d\\u0000e\\u200b-1"',
    '"n\\u0000ul20\\u202e"',
    '"n\\u0000ul21\\u202e"',
  ]);
  deepStrictEqual([...new Set(rows.map((r) => r.slice))].sort(), ['"d\\u0000e"', "en"]);
  deepStrictEqual(optionValues(html, "slice"), ["", '"d\\u0000e"', "en"]);
  deepStrictEqual([...new Set(rows.map((r) => r.status))].sort(), ['"no\\u0000json"', "ok"]);
  deepStrictEqual(optionValues(html, "status"), ["", '"no\\u0000json"', "ok"]);
});

/** The values of a select's options as HTML gives them: an option without a value attribute has
 * its text, with ASCII whitespace stripped and collapsed. */
function optionValues(html: string, name: string): string[] {
  const start = html.indexOf(`<select name="${name}">`);
  const select = html.slice(start, html.indexOf("</select>", start));
  const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
  return [...select.matchAll(/<option(?: value="([^"]*)")?[^>]*>([^<]*)<\/option>/g)].map((m) =>
    m[1] === undefined ? unescape(m[2]!).replace(/[\t\n\f\r ]+/g, " ").trim() : unescape(m[1])
  );
}

Deno.test("examplesSection() gives each filter option its slice or status exactly, whitespace too", () => {
  const odd = "not  json";
  const html = section(["en", " en", "a  b", "a\tb "], undefined, (_, adapter) => {
    for (const r of adapter.records) if (r.language !== "en") r.status = odd as typeof r.status;
  });
  // The tab is not printable: written as the page shows it, in the option and the rows alike.
  deepStrictEqual(optionValues(html, "slice"), ["", " en", '"a\\tb "', "a  b", "en"]);
  deepStrictEqual(optionValues(html, "status"), ["", odd, "ok"]);
  // Each option selects rows: its value is some row's data-slice or data-status.
  const rows = rowsOf(html);
  deepStrictEqual(new Set(rows.map((r) => r.slice)), new Set(optionValues(html, "slice").slice(1)));
  deepStrictEqual(
    new Set(rows.map((r) => r.status)),
    new Set(optionValues(html, "status").slice(1)),
  );
});

Deno.test("examplesSection() cuts a long call or value as assay show does, saying its length", () => {
  // A 100,000-character argument: the page shows what formatExample shows of it, not the whole.
  const long = "x".repeat(100_000);
  const target = { name: "f", arguments: { a: "short" } };
  const examples = [{ example_id: "a", language: "en", target }];
  const b = scoreToolCalls(examples, [{ example_id: "a", output: "no" }], {
    detail: explainScore(),
  });
  const output = JSON.stringify({ name: "f", arguments: { a: long } });
  const a = scoreToolCalls(examples, [{ example_id: "a", output }], { detail: explainScore() });
  const html = examplesSection(compareReports(b, a, { resamples: 10 }), b, a);
  const text = formatExample(a.records[0]!);
  const call = `f({"a":"${"x".repeat(DETAIL_OUTPUT_CHARS - 6)} … (100008 characters))`;
  const value = `"${"x".repeat(DETAIL_OUTPUT_CHARS - 1)} … (100002 characters)`;
  const html4 = (s: string) => s.replaceAll('"', "&#34;");
  strictEqual(text.includes(`  predicted: ${call}\n`), true);
  strictEqual(text.includes(`predicted ${value}\n`), true);
  strictEqual(html.includes(`<b>adapter</b>: ok; predicted ${html4(call)}</p>`), true);
  strictEqual(html.includes(`predicted ${html4(value)}</li>`), true);
  strictEqual(html.includes("x".repeat(DETAIL_OUTPUT_CHARS)), false);
  strictEqual(html.length < 20_000, true, `${html.length} characters`);
});
