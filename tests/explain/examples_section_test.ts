// examplesSection(): the examples' rows and filters as the page writes them, without a browser
// (tests/report/examples_browser_test.ts runs the script in Chromium).
import { strictEqual } from "node:assert/strict";
import { compareReports, type EvaluationReport, scoreToolCalls } from "../../mod.ts";
import { examplesSection, explainScore } from "../../src/explain/mod.ts";

/**
 * A section over two examples per language, which the adapter gets right; `edit` may change the
 * base report first, as a hand edit would.
 */
function section(
  languages: string[],
  id = (lang: string, i: number) => `${lang}-${i}`,
  edit = (_: EvaluationReport) => {},
): string {
  const target = { name: "f", arguments: {} };
  const examples = languages.flatMap((language) =>
    [0, 1].map((i) => ({ example_id: id(language, i), language, target }))
  );
  const outputs = (output: string) => examples.map((e) => ({ example_id: e.example_id, output }));
  const b = scoreToolCalls(examples, outputs("no"), { detail: explainScore() });
  const a = scoreToolCalls(examples, outputs(JSON.stringify(target)), { detail: explainScore() });
  edit(b);
  return examplesSection(compareReports(b, a, { resamples: 10 }), b, a);
}

Deno.test("examplesSection() shows ids, languages and statuses that are not printable as escaped JSON strings", () => {
  const html = section(["en", "\u202ede"], (lang, i) => `${lang}\u2069\u202e-${i}`);
  // The data attributes keep the strings exactly, for the filters.
  strictEqual(html.includes('data-id="\u202ede\u2069\u202e-0" data-slice="\u202ede"'), true);
  strictEqual(html.includes("<summary>&#34;\\u202ede\\u2069\\u202e-0&#34;</summary>"), true);
  strictEqual(html.includes("<td>&#34;\\u202ede&#34;</td><td>no_json, wrong</td>"), true);
  // A status of a hand-edited report, in its cell and in its side's line.
  const edited = section(["en"], undefined, (b) => {
    for (const r of b.records) r.status = "no\u202ejson" as typeof r.status;
  });
  strictEqual(edited.includes("<td>&#34;no\\u202ejson&#34;, wrong</td>"), true);
  strictEqual(edited.includes("<b>base</b>: &#34;no\\u202ejson&#34;; predicted"), true);
});
