/**
 * The examples of a comparison as a section of its HTML page: one row per example with each
 * model's status and outcome and whether it flipped, filters (slice, status, change, metric) and
 * sorting by a small inline script, and each row expandable (`<details>`, no script needed) to the
 * gold call against each model's output with the differing argument paths marked.
 *
 * @module
 */
import type { ComparisonReport } from "../compare/mod.ts";
import { printableLines, printableText } from "./text/mod.ts";
import { shownJson } from "./_units.ts";
import { detailedReportProblem } from "./detail_shape.ts";
import {
  BINARY_METRIC_NAMES,
  type BinaryMetricName,
  type EvaluationReport,
  type ExampleRecord,
  exampleRight,
} from "../evaluation/mod.ts";

/** At most this many examples are listed: flipped ones first, then in the reports' order. */
export const SECTION_EXAMPLES = 2000;

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// A report string as text: printable (a bidi control, say, escaped as in `assay show`), for HTML.
const text = (s: string) => esc(printableText(s));
// Canonical JSON for a person (cut past DETAIL_OUTPUT_CHARS, as `assay show` cuts it), escaped for
// HTML; with a name, as a call.
const show = (json: string, args?: string) =>
  esc(args === undefined ? shownJson(json) : `${printableText(json)}(${shownJson(args)})`);

// The example's cell breaks anywhere: an id or an argument with no space to break at widened the
// table past the page, and the other columns went out of view.
const CSS = `#examples .filters{display:flex;flex-wrap:wrap;gap:8px 16px;margin:8px 0}
#examples table{border-collapse:collapse;width:100%;font-size:14px}
#examples th,#examples td{border-bottom:1px solid #e3e6ea;padding:4px 6px;text-align:left;vertical-align:top}
#examples th{cursor:pointer;white-space:nowrap}
#examples td:first-child{overflow-wrap:anywhere}
#examples tr.regressed td.change{color:#b3261e;font-weight:600}
#examples tr.improved td.change{color:#1a7f37;font-weight:600}
#examples details pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;padding:6px;margin:4px 0;font-size:12.5px}
#examples .missing{color:#b3261e}#examples .extra{color:#8250df}#examples .different{color:#9a6700}`;

// Filters rows by the selects' values and sorts by a clicked header; the page reads without it.
const SCRIPT = `(()=>{const s=document.getElementById("examples");if(!s)return;
const f=s.querySelector(".filters");f.hidden=false;const rows=[...s.querySelectorAll("tbody tr")];
const sel=(n)=>f.querySelector("[name="+n+"]");
const apply=()=>{const m=sel("metric").value,sl=sel("slice").value,st=sel("status").value,ch=sel("change").value;let shown=0;
for(const r of rows){const d=r.dataset,c=d["change_"+m];const ok=(!sl||d.slice===sl)&&(!st||d.status===st)&&(!ch||c===ch);
r.hidden=!ok;r.className=c;r.querySelector("td.change").textContent=c==="same"?"":c;if(ok)shown++}
s.querySelector(".count").textContent=shown+" of "+rows.length+" shown"};
f.addEventListener("change",apply);
s.querySelectorAll("th[data-key]").forEach((th)=>th.addEventListener("click",()=>{const k=th.dataset.key,b=s.querySelector("tbody");
const dir=th.dataset.dir==="asc"?-1:1;th.dataset.dir=dir>0?"asc":"desc";
rows.sort((a,c)=>(a.dataset[k]<c.dataset[k]?-1:a.dataset[k]>c.dataset[k]?1:0)*dir).forEach((r)=>b.appendChild(r))}));apply()})();`;

function outcome(metric: BinaryMetricName, b: ExampleRecord, a: ExampleRecord): string {
  const before = exampleRight(metric, b), after = exampleRight(metric, a);
  return before === after ? "same" : before ? "regressed" : "improved";
}

function side(label: string, r: ExampleRecord): string {
  const d = r.detail;
  if (!d) return `<p><b>${label}</b>: ${text(r.status)} (no detail: score with --details)</p>`;
  const paths = [
    ...d.paths.missing.map((m) =>
      `<li class="missing">missing ${show(m.path)} = ${show(m.gold)}</li>`
    ),
    ...d.paths.extra.map((e) =>
      `<li class="extra">extra ${show(e.path)} = ${show(e.predicted)}</li>`
    ),
    ...d.paths.different.map((x) =>
      `<li class="different">different ${show(x.path)}: gold ${show(x.gold)}, predicted ${
        show(x.predicted)
      }</li>`
    ),
  ];
  return `<p><b>${label}</b>: ${text(r.status)}${
    d.error ? ` (${text(d.error.code)} at ${d.error.offset})` : ""
  }; predicted ${d.predicted ? show(d.predicted.name, d.predicted.arguments) : "nothing"}</p>` +
    (paths.length ? `<ul>${paths.join("")}</ul>` : "") +
    `<pre>${esc(printableLines(d.output.text))}${
      d.output.length > d.output.text.length ? " …" : ""
    }</pre>`;
}

/**
 * The examples section of a comparison page, for `renderComparisonHtml`'s `sections` option. Ids,
 * languages and statuses are shown as {@linkcode printableText} writes them (a bidi control, say,
 * as `\u202e` in a JSON string), and so are they in the rows' data attributes and the filters'
 * options, which the script compares and sorts (until 2026-12-07 those held them raw, a NUL too).
 *
 * @param comparison The comparison of the two reports (its flips order the rows).
 * @param base The base report (with details, when scored with them).
 * @param adapter The adapter report, over the same examples.
 * @returns The section's HTML, with its style and script.
 * @throws {RangeError} If a report is malformed, details included (`detailedReportProblem`).
 *
 * @example
 * ```ts
 * import { examplesSection } from "@assay/assay/explain";
 * import { compareReports, scoreToolCalls } from "@assay/assay";
 * import { ok } from "node:assert/strict";
 *
 * const ex = [{ example_id: "a", language: "en", target: { name: "f", arguments: {} } }];
 * const base = scoreToolCalls(ex, [{ example_id: "a", output: "{}" }]);
 * const adapter = scoreToolCalls(ex, [{ example_id: "a", output: '{"name": "f", "arguments": {}}' }]);
 * const html = examplesSection(compareReports(base, adapter, { resamples: 10 }), base, adapter);
 * ok(html.includes('data-id="a"'));
 * ```
 */
export function examplesSection(
  comparison: ComparisonReport,
  base: EvaluationReport,
  adapter: EvaluationReport,
): string {
  for (const [side, r] of [["base", base], ["adapter", adapter]] as const) {
    const problem = detailedReportProblem(r);
    if (problem) throw new RangeError(`The ${side} report is malformed: ${problem}`);
  }
  const byId = new Map(adapter.records.map((r) => [r.example_id, r]));
  const pairs = base.records.flatMap((b) => {
    const a = byId.get(b.example_id);
    return a ? [[b, a] as const] : [];
  });
  const flipped = new Set(
    BINARY_METRIC_NAMES.flatMap((m) => [
      ...comparison.regressions.overall[m].ids,
      ...comparison.improvements.overall[m].ids,
    ]),
  );
  const ordered = [
    ...pairs.filter(([b]) => flipped.has(b.example_id)),
    ...pairs.filter(([b]) => !flipped.has(b.example_id)),
  ].slice(0, SECTION_EXAMPLES);
  const rows = ordered.map(([b, a]) => {
    const changes = BINARY_METRIC_NAMES.map((m) => `data-change_${m}="${outcome(m, b, a)}"`).join(
      " ",
    );
    const full = outcome("full_call_exact_match", b, a);
    const right = (
      r: ExampleRecord,
    ) => (exampleRight("full_call_exact_match", r) ? "right" : "wrong");
    const gold = a.detail?.gold ?? b.detail?.gold;
    // The data attributes are the strings as the row shows them: the script filters by them (as
    // the options' values write them) and sorts by them, and no attribute holds a raw NUL or bidi
    // control (a browser reads a NUL as U+FFFD, and grep takes the page for binary).
    return `<tr class="${full}" data-id="${text(b.example_id)}" data-slice="${
      text(b.language)
    }" data-status="${text(a.status)}" ${changes}>` +
      `<td><details><summary>${text(b.example_id)}</summary>` +
      (gold ? `<p><b>gold</b>: ${show(gold.name, gold.arguments)}</p>` : "") +
      side("base", b) + side("adapter", a) + `</details></td>` +
      `<td>${text(b.language)}</td><td>${text(b.status)}, ${right(b)}</td>` +
      `<td>${text(a.status)}, ${right(a)}</td><td class="change">${
        full === "same" ? "" : full
      }</td></tr>`;
  });
  const options = (name: string, values: readonly string[], all: string) =>
    `<label>${name} <select name="${name}"><option value="">${all}</option>${
      values.map((v) => `<option value="${text(v)}">${text(v)}</option>`).join("")
    }</select></label>`;
  const statuses = [...new Set(adapter.records.map((r) => r.status))].sort();
  return `<section id="examples"><h2>The examples</h2><style>${CSS}</style>` +
    `<p>Each example's status and full-call outcome in both runs; open a row for the gold call, ` +
    `each output and the argument paths that differ. ${
      ordered.length < pairs.length ? `The first ${ordered.length} of ${pairs.length}, ` : ""
    }flipped examples first.</p>` +
    `<div class="filters" hidden>` +
    `<label>metric <select name="metric">${
      BINARY_METRIC_NAMES.map((m) =>
        `<option${m === "full_call_exact_match" ? " selected" : ""}>${m}</option>`
      ).join("")
    }</select></label>` +
    options("slice", comparison.slices, "every slice") +
    options("status", statuses, "every status") +
    options("change", ["regressed", "improved", "same"], "every change") +
    `<span class="count"></span></div>` +
    `<table><thead><tr><th data-key="id">example</th><th data-key="slice">slice</th>` +
    `<th>base</th><th data-key="status">adapter</th><th>change</th></tr></thead><tbody>` +
    rows.join("") + `</tbody></table><script>${SCRIPT}</script></section>`;
}
