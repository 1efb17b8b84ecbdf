// compareIfevalReports(): exact point estimates, the same bytes for the same seed on both engines,
// intervals that collapse when the models agree, refusals of unlike reports, and the CLI.
import { deepStrictEqual, match, ok, strictEqual, throws } from "node:assert/strict";
import { ComparisonGateError, formatReport } from "../../mod.ts";
import { compareIfevalReports, type IfevalReport } from "../../src/ifeval/mod.ts";
import { ENGINES } from "../_engines.ts";
import { makeRng } from "../_corpus.ts";
import { IFEVAL_FIELDS } from "../report_check/_complete.ts";

function report(follows: boolean[][], checker = "ifeval@google-3f357bde"): IfevalReport {
  return {
    schema: "assay.ifeval.v1",
    checker,
    // What the comparison does not read: the report's own scores, as checkReportBody needs them.
    strict: IFEVAL_FIELDS.strict,
    loose: IFEVAL_FIELDS.loose,
    prompts: follows.map((f, key) => ({
      key: 1000 + key,
      instruction_id_list: f.map((_, i) => `punctuation:no_comma#${i}`),
      strict: f,
      loose: f.map((x, i) => x || i === 0),
    })),
  };
}

Deno.test("compareIfevalReports() gives exact accuracies and the same bytes on both engines", () => {
  const rng = makeRng(3);
  const shape = Array.from({ length: 200 }, () => 1 + rng.int(3));
  const a = report(shape.map((n) => Array.from({ length: n }, () => rng.chance(0.7))));
  const b = report(shape.map((n) => Array.from({ length: n }, () => rng.chance(0.8))));
  const texts = ENGINES.map((engine) =>
    formatReport(compareIfevalReports(a, b, { seed: 9, resamples: 2000, engine }))
  );
  strictEqual(new Set(texts).size, 1);
  const c = compareIfevalReports(a, b, { seed: 9, resamples: 2000 });
  const count = (r: IfevalReport, all: boolean) =>
    r.prompts.reduce(
      (s, p) => s + (all ? (p.strict.every((x) => x) ? 1 : 0) : p.strict.filter((x) => x).length),
      0,
    );
  const instructions = shape.reduce((s, n) => s + n, 0);
  deepStrictEqual(c.strict.prompt.a, {
    value: count(a, true) / 200,
    numerator: count(a, true),
    denominator: 200,
  });
  deepStrictEqual(
    [c.strict.instruction.a.numerator, c.strict.instruction.a.denominator],
    [count(a, false), instructions],
  );
  strictEqual(
    c.strict.instruction.delta,
    count(b, false) / instructions - count(a, false) / instructions,
  );
  ok(
    c.strict.prompt.ci[0] <= c.strict.prompt.delta &&
      c.strict.prompt.delta <= c.strict.prompt.ci[1],
  );
  // A model against itself: no difference, a degenerate interval.
  const same = compareIfevalReports(a, a, { resamples: 500 });
  deepStrictEqual([same.loose.instruction.delta, same.loose.instruction.ci], [0, [0, 0]]);
});

Deno.test("compareIfevalReports() refuses reports of other checkers or prompts", () => {
  const a = report([[true], [false, true]]);
  throws(
    () => compareIfevalReports(a, report([[true], [false, true]], "ifeval@other")),
    ComparisonGateError,
  );
  // The first keys of each kind of difference are named.
  throws(
    () => compareIfevalReports(a, report([[true]])),
    /prompts differ: 1 only in A \(keys 1001\)$/,
  );
  throws(
    () => compareIfevalReports(a, report([[true], [false]])),
    /prompts differ: 1 with other instructions in B \(keys 1001\)$/,
  );
  const many = report(Array.from({ length: 8 }, () => [true]));
  const moved = structuredClone(many);
  moved.prompts.forEach((p) => p.key += 100);
  throws(
    () => compareIfevalReports(many, moved),
    (e: unknown) =>
      e instanceof ComparisonGateError &&
      e.differences[0]!.detail ===
        "the reports' prompts differ: 8 only in A (keys 1000, 1001, 1002, 1003, 1004, … (8 in all)), " +
          "8 only in B (keys 1100, 1101, 1102, 1103, 1104, … (8 in all))",
  );
  // A report edited by hand: the gate names the row.
  const edited = structuredClone(a) as unknown as { prompts: unknown[] };
  edited.prompts[1] = { key: 1, strict: [true] };
  throws(
    () => compareIfevalReports(a, edited as unknown as typeof a),
    /assay\.ifeval\.v1 report is malformed: prompts\[1\]\.instruction_id_list is not a list/,
  );
});

Deno.test("compareIfevalReports() refuses a report that gives a key to two prompts", () => {
  // Two identical reports whose prompts share a key: paired by key, B's first prompt was lost and
  // B scored 0/6 where its own report said 2/6.
  const twice = report([[true, false, false], [false, true, false]]);
  twice.prompts[1]!.key = twice.prompts[0]!.key;
  twice.prompts[1]!.instruction_id_list = twice.prompts[0]!.instruction_id_list;
  const refusal = (() => {
    try {
      compareIfevalReports(twice, structuredClone(twice));
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  ok(refusal instanceof ComparisonGateError);
  deepStrictEqual(refusal.differences, [
    { kind: "inconsistent_report", detail: "the A report repeats prompts (keys 1000)" },
    { kind: "inconsistent_report", detail: "the B report repeats prompts (keys 1000)" },
  ]);
  throws(() => compareIfevalReports(report([[true], [true]]), twice), /the B report repeats/);
});

Deno.test("assay ifeval compare prints both modes and levels, and writes the comparison", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.json`, formatReport(report([[true, false], [true], [false]])));
  await Deno.writeTextFile(`${dir}/b.json`, formatReport(report([[true, true], [true], [true]])));
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../../cli/main.ts", import.meta.url).pathname,
      "ifeval",
      "compare",
      `${dir}/a.json`,
      `${dir}/b.json`,
      "--resamples",
      "300",
      "--out",
      `${dir}/c.json`,
    ],
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
  match(stdout, /strict\s+prompt\s+0\.333 \(1\/3\)\s+1\.000 \(3\/3\)\s+\+0\.667/);
  strictEqual(
    JSON.parse(await Deno.readTextFile(`${dir}/c.json`)).schema,
    "assay.ifeval.comparison.v1",
  );
  await Deno.remove(dir, { recursive: true });
});
