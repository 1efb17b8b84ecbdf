// A parsed evaluation report with a field changed to the wrong type, deleted or set to null, as a
// file edited by hand or cut short gives it: every library reader of it (compareReports,
// gateDifferences, intersectReports, languageGaps, formatExample, examplesSection) either refuses
// it with a named error that names the field, or reads it; none crashes with a TypeError. A report
// that detailedReportProblem() calls malformed is refused by every reader that reads that part,
// and checkReportBody() refuses it with the same words; checkReportBody() also refuses inputs
// that are not the files' digests, and a report it takes is one the comparison page can show.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  compareReports,
  ComparisonGateError,
  evaluationReportProblem,
  formatReport,
  gateDifferences,
  intersectReports,
  languageGaps,
  recordProblem,
  scoreToolCalls,
} from "../../mod.ts";
import {
  detailedReportProblem,
  detailProblem,
  examplesSection,
  explainScore,
  formatExample,
} from "../../src/explain/mod.ts";
import { checkReportBody } from "../../src/report_check/mod.ts";
import { renderComparisonHtml } from "../../src/report/mod.ts";
import { makeRng } from "../_corpus.ts";

type Json = Record<string, unknown>;

// Two real reports with details, as their readers parse them from their files.
function reports(): [Json, Json] {
  const t = (x: number) => ({ name: "f", arguments: { x, y: [x, "s"] } });
  const examples = ["en", "de", "fr"].flatMap((lang) =>
    [0, 1, 2, 3].map((i) => ({
      example_id: `${lang}-${i}`,
      language: lang,
      target: t(i),
      ...(lang === "en" ? {} : { root_id: `en-${i}` }),
    }))
  );
  const outputs = [
    (i: number) => JSON.stringify(t(i)),
    (i: number) => `Sure: {"name": "f", "arguments": {"x": ${i}.0, "z": null}}`,
    () => '{"name": "f", "arguments": {"x": 1',
    () => "no call here",
  ];
  const score = (shift: number) =>
    JSON.parse(formatReport(scoreToolCalls(
      examples,
      examples.map((e, k) => ({
        example_id: e.example_id,
        output: outputs[(k + shift) % 4]!(k % 4),
      })),
      { detail: explainScore() },
    )));
  return [score(0), score(1)];
}

const WRONG: unknown[] = [undefined, null, "1", 1.5, -1, 0, true, [], {}, [null], { a: 1 }];

// Every path to a value in the parts of a report its readers read.
function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []) {
  if (at.length > 0) out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (typeof v === "object" && v !== null) {
    for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  }
  return out;
}

function setAt(root: Json, path: (string | number)[], value: unknown): void {
  let o = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (value === undefined && !Array.isArray(o)) delete o[last];
  else o[last] = value;
}

// Runs a reader: undefined when it read the report, else the named error it refused it with.
function attempt(what: string, read: () => unknown): Error | undefined {
  try {
    read();
    return undefined;
  } catch (e) {
    ok(
      e instanceof RangeError || e instanceof ComparisonGateError,
      `${what}: ${e instanceof Error ? e.stack : e}`,
    );
    return e;
  }
}

Deno.test("every library reader refuses or reads 3,000 seeded malformed evaluation reports, never crashing", () => {
  const [base, adapter] = reports();
  strictEqual(detailedReportProblem(base), undefined);
  strictEqual(detailedReportProblem(adapter), undefined);
  const all = paths(base).filter((p) => p[0] !== "schema");
  const rng = makeRng(20261205);
  let malformed = 0;
  for (let n = 0; n < 3000; n++) {
    const bad = structuredClone(base);
    const path = rng.pick(all);
    const value = structuredClone(rng.pick(WRONG));
    setAt(bad, path, value);
    const what = `${JSON.stringify(path)} = ${JSON.stringify(value)}`;
    const problem = detailedReportProblem(bad);
    const options = { resamples: 20 };
    const errors = {
      compare: attempt(
        `compare ${what}`,
        () => compareReports(bad as never, adapter as never, options),
      ),
      compareBack: attempt(
        `compare back ${what}`,
        () => compareReports(adapter as never, bad as never, options),
      ),
      intersection: attempt(
        `intersection ${what}`,
        () => compareReports(bad as never, adapter as never, { ...options, on: "intersection" }),
      ),
      gate: attempt(`gate ${what}`, () => gateDifferences(bad as never, adapter as never)),
      intersect: attempt(
        `intersect ${what}`,
        () => intersectReports(bad as never, adapter as never),
      ),
      gaps: attempt(`gaps ${what}`, () => languageGaps(bad as never, options)),
      section: attempt(`section ${what}`, () => {
        const c = compareReports(base as never, adapter as never, options);
        return examplesSection(c, bad as never, adapter as never);
      }),
      format: attempt(`format ${what}`, () => {
        const records = Array.isArray(bad.records) ? bad.records : [];
        for (const r of records) formatExample(r as never);
      }),
    };
    // checkReportBody is the CLI's check: the same words, after the report's schema, then the
    // rest of the schema (report_check/_evaluation.ts), which names the field changed or one
    // that no longer agrees with the records (a sum of theirs, the slices).
    const body = attempt(`body ${what}`, () => checkReportBody(bad));
    if (problem === undefined && body !== undefined) {
      const field = typeof path[1] === "number" ? `${path[0]}[${path[1]}]` : String(path[0]);
      ok(
        body.message.includes(` report is malformed: ${field}`) ||
          new RegExp(
            ", not the sum over|is not one of slices$|: slices is not|, not drop_summary\\.|" +
              "is not one of the parse statuses the report counts",
          ).test(body.message),
        `${what}: ${body.message}`,
      );
    } else {
      strictEqual(
        body?.message,
        problem && `The ${bad.schema} report is malformed: ${problem}`,
        what,
      );
    }
    // What the CLI's check takes, the page shows (it reads the inputs unchecked).
    if (body === undefined && errors.compare === undefined) {
      renderComparisonHtml(compareReports(bad as never, adapter as never, options));
    }
    if (body === undefined && errors.compareBack === undefined) {
      renderComparisonHtml(compareReports(adapter as never, bad as never, options));
    }
    if (problem === undefined) continue;
    malformed++;
    // A malformed report is refused by every reader of the part that is wrong, in the same words.
    const wrongRecords = evaluationReportProblem(bad);
    for (const [reader, e] of Object.entries(errors)) {
      // The gate lists differences instead (below); formatExample reads one record.
      if (reader === "gate" || reader === "format") continue;
      // Only the examples section reads details.
      if (wrongRecords === undefined && reader !== "section") continue;
      ok(e, `${reader} read a report whose ${problem}`);
      ok(e.message.includes(problem), `${reader}: ${e.message} (${problem})`);
    }
    if (/^records\[\d+\]( |\.[a-z_]+ is not|\.detail)/.test(problem)) {
      ok(errors.format?.message.includes(problem.replace(/^records\[\d+\]/, "record")), what);
    }
    if (wrongRecords) {
      deepStrictEqual(gateDifferences(bad as never, adapter as never), [
        {
          kind: "malformed_report",
          detail: `the base report is malformed: ${wrongRecords}`,
          arm: "base",
        },
      ]);
    }
  }
  // Most changes make the report malformed; some leave it readable (a string for a string).
  ok(malformed > 1500 && malformed < 3000, `${malformed} of 3000 malformed`);
});

Deno.test("recordProblem() and detailProblem() name the first wrong field in the documented words", () => {
  const [base] = reports();
  const record = (base.records as Json[])[1]!;
  strictEqual(recordProblem(record), undefined);
  strictEqual(recordProblem(null), " is not an object");
  strictEqual(recordProblem({ ...record, status: 1 }), ".status is not a string");
  strictEqual(
    recordProblem({ ...record, matched_pairs: 1.5 }),
    ".matched_pairs is not a count below 2^31",
  );
  strictEqual(
    recordProblem({ ...record, predicted_pairs: 2 ** 31 }),
    ".predicted_pairs is not a count below 2^31",
  );
  strictEqual(
    recordProblem({ ...record, matched_pairs: 2, predicted_pairs: 1, gold_pairs: 2 }),
    ".matched_pairs is more than predicted_pairs or gold_pairs",
  );
  strictEqual(recordProblem({ ...record, reason: 3 }), ".reason is not a string");
  const detail = record.detail as Json;
  strictEqual(detailProblem(detail), undefined);
  strictEqual(detailProblem({ ...detail, predicted: null, error: null }), undefined);
  strictEqual(detailProblem([]), ".output is not {text, length, sha256}");
  strictEqual(detailProblem({ ...detail, gold: { name: "f" } }), ".gold is not {name, arguments}");
  strictEqual(
    detailProblem({ ...detail, paths: { missing: [], extra: [{ path: "[]" }], different: [] } }),
    ".paths.extra is not a list of {path, predicted}",
  );
  for (const nothing of [null, undefined, 5, "report", []]) {
    strictEqual(evaluationReportProblem(nothing), "records is not a list");
  }
  const twice = structuredClone(base);
  (twice.records as Json[]).push((twice.records as Json[])[0]!);
  strictEqual(evaluationReportProblem(twice), "records[12].example_id repeats an earlier record's");
  throws(() => formatExample({ ...record, detail: {} } as never), {
    name: "RangeError",
    message: "The record is malformed: record.detail.output is not {text, length, sha256}",
  });
});
