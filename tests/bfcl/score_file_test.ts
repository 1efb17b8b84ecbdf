// formatScoreFile() writes BFCL's score files byte for byte (six published ones are vendored
// whole: four of FC models, and a prompting model's javascript and another's java), bfclReport() pools them with their counts, and mergeBfclReports() pools reports.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { bfclReport, checkBfcl, formatScoreFile, mergeBfclReports } from "../../src/bfcl/mod.ts";
import { gunzipText, PUBLISHED_SCORES as PUBLISHED, runModel } from "./_fixtures.ts";

Deno.test("formatScoreFile() writes the published score files byte for byte", async () => {
  for (const [model, category] of PUBLISHED) {
    const published = await gunzipText(`scores/${model}/${category}_score.json.gz`);
    const ours = formatScoreFile(await runModel(model, category));
    strictEqual(ours, published.replace(/\n$/, ""), `${model}/${category}`);
  }
});

Deno.test("bfclReport() pools categories and counts each error type", async () => {
  const model = "gpt-4o-2024-05-13-FC";
  const runs = [await runModel(model, "simple"), await runModel(model, "relevance")];
  const report = bfclReport(runs);
  strictEqual(report.schema, "assay.bfcl.v1");
  strictEqual(report.checker, "bfcl.ast@2024-08");
  deepStrictEqual(report.categories.map((c) => c.accuracy), [
    { value: 353 / 400, numerator: 353, denominator: 400 },
    { value: 185 / 240, numerator: 185, denominator: 240 },
  ]);
  deepStrictEqual(report.accuracy, { value: 538 / 640, numerator: 538, denominator: 640 });
  const failing = report.records.filter((r) => !r.valid).length;
  strictEqual(Object.values(report.errorTypes).reduce((a, b) => a + b, 0), failing);
  strictEqual(report.errorTypes["relevance_error:decoder_success"], 55);
  strictEqual(report.records[13]!.errorType, "type_error:nested");
});

Deno.test("bfclReport() refuses runs of different models", () => {
  const text = '{"id": "relevance_0", "result": "No."}\n';
  const run = (modelName: string) =>
    checkBfcl({ results: { name: "r.json", text } }, { category: "relevance", modelName });
  throws(() => bfclReport([run("a"), run("b")]), RangeError);
});

Deno.test("mergeBfclReports() gives the report of all the runs, and refuses what does not go together", async () => {
  const model = "gpt-4o-2024-05-13-FC";
  const runs = [
    await runModel(model, "parallel_function"),
    await runModel(model, "simple"),
    await runModel(model, "relevance"),
  ];
  deepStrictEqual(mergeBfclReports(runs.map((r) => bfclReport([r]))), bfclReport(runs));
  const optimal = bfclReport([await runModel(model, "java", "optimal")]);
  const [one] = runs.map((r) => bfclReport([r]));
  throws(() => mergeBfclReports([one!, optimal]), /different models, checkers or matchings/);
  throws(() => mergeBfclReports([one!, one!]), /The parallel_function category appears twice/);
  throws(() => mergeBfclReports([]), RangeError);
  const edited = { ...one!, categories: [null] } as unknown as typeof one;
  throws(() => mergeBfclReports([edited!]), /bfcl\.v1 report is malformed: categories\[0\] is not/);
});
