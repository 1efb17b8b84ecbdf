// The input files' digests of BFCL and IFEval reports: what checkReportBody accepts of them, how
// inputDifferences words a difference (both digests cut short), what unrecordedInputs notes, and
// digestSource's agreement with the engine's pure-TS SHA-256.
import { deepStrictEqual, match, strictEqual, throws } from "node:assert/strict";
import {
  checkReportBody,
  digestSource,
  inputDifferences,
  unrecordedInputs,
} from "../../src/report_check/mod.ts";
import { sha256Hex } from "../../src/engine/mod.ts";
import { BFCL_FIELDS, IFEVAL_FIELDS } from "./_complete.ts";

const digest = (c: string) => ({ sha256: c.repeat(64) });
// A category's accuracy and error types, of no entries (the reports here hold none).
const NO_ENTRIES = { accuracy: { value: 0, numerator: 0, denominator: 0 }, errorTypes: {} };
const bfcl = (...categories: [string, string | null, string | null][]) => ({
  schema: "assay.bfcl.v1",
  ...BFCL_FIELDS,
  categories: categories.map(([category, q, a]) => ({
    category,
    ...NO_ENTRIES,
    inputs: { questions: q && digest(q), answers: a && digest(a), results: digest("0") },
  })),
  records: [],
});

Deno.test("checkReportBody() takes reports without inputs, and refuses malformed digests", () => {
  checkReportBody(bfcl(["simple", "a", "b"], ["relevance", null, null]));
  checkReportBody({ ...bfcl(), categories: [{ category: "simple", ...NO_ENTRIES }] });
  const ifeval = { schema: "assay.ifeval.v1", ...IFEVAL_FIELDS, prompts: [] };
  checkReportBody(ifeval);
  checkReportBody({ ...ifeval, inputs: { input: digest("a"), responses: digest("b") } });
  throws(
    () =>
      checkReportBody({ ...ifeval, inputs: { input: { sha256: "ABC" }, responses: digest("b") } }),
    /assay\.ifeval\.v1 report is malformed: inputs is not absent or \{input, responses\}, each digest a \{sha256\} of 64 lowercase hex digits/,
  );
  const bad = bfcl(["simple", "a", "b"]);
  (bad.categories[0]!.inputs as Record<string, unknown>).results = null;
  throws(() => checkReportBody(bad), /categories\[0\]\.inputs is not absent or \{questions/);
});

Deno.test("inputDifferences() names each differing file of the categories both reports hold", () => {
  deepStrictEqual(inputDifferences(bfcl(["simple", "a", "b"]), bfcl(["simple", "a", "b"])), []);
  deepStrictEqual(
    inputDifferences(
      bfcl(["simple", "a", "b"], ["java", "c", "d"], ["relevance", null, null]),
      bfcl(["java", "e", "d"], ["simple", "a", "f"], ["relevance", null, null], ["x", "1", "2"]),
      ["base", "candidate"],
    ).map((d) => `${d.kind}: ${d.detail}`),
    [
      "examples: simple answer files' sha256 differ: base bbbbbbbbbbbb…, candidate ffffffffffff…",
      "examples: java question files' sha256 differ: base cccccccccccc…, candidate eeeeeeeeeeee…",
    ],
  );
  // A category recorded on one side only is not compared, and is noted.
  const partial = bfcl(["simple", "a", "b"], ["java", "c", "d"]);
  delete (partial.categories[1] as { inputs?: unknown }).inputs;
  deepStrictEqual(inputDifferences(partial, bfcl(["simple", "a", "b"], ["java", "z", "z"])), []);
  match(
    unrecordedInputs(bfcl(["simple", "a", "b"]), partial)!,
    /^report B records no input digest/,
  );
  strictEqual(unrecordedInputs(bfcl(["simple", "a", "b"]), bfcl(["simple", "c", "d"])), undefined);
  // Other kinds of report: nothing to compare, nothing to note.
  deepStrictEqual(inputDifferences({ schema: "x" }, { schema: "x" }), []);
  strictEqual(unrecordedInputs({ schema: "assay.evaluation.v2" }, null), undefined);
});

Deno.test("digestSource() is the SHA-256 of the bytes when given, else of the text's UTF-8", async () => {
  const text = "é\n";
  deepStrictEqual(await digestSource({ text }), { sha256: sha256Hex(text) });
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
  deepStrictEqual(await digestSource({ text, bytes: bom }), { sha256: sha256Hex(bom) });
});

Deno.test("inputDifferences() refuses one results file decoded two ways, not two models' decoders", () => {
  const report = (results: string, decoder: string, underscoreToDot: boolean) => ({
    ...bfcl(["simple", "a", "b"]),
    categories: [{
      category: "simple",
      ...NO_ENTRIES,
      inputs: { questions: digest("a"), answers: digest("b"), results: digest(results) },
      decoder,
      underscoreToDot,
    }],
  });
  // The same model's results with and without the name rewrite: 353 against 205 for gpt-4o.
  deepStrictEqual(inputDifferences(report("c", "fc", true), report("c", "fc", false)), [{
    kind: "examples",
    detail: "simple: the same results decoded differently: A fc with underscore-to-dot, " +
      "B fc without underscore-to-dot",
  }]);
  deepStrictEqual(inputDifferences(report("c", "fc", true), report("c", "fc", true)), []);
  // Two models, each decoded as its handler needs: what a comparison is for.
  deepStrictEqual(inputDifferences(report("c", "fc", true), report("d", "gpt", false)), []);
  // A report written before the decoding was recorded compares as before.
  const old = bfcl(["simple", "a", "b"]);
  deepStrictEqual(inputDifferences(report("0", "fc", true), old), []);
  checkReportBody(report("c", "fc", true));
  throws(
    () =>
      checkReportBody({
        ...report("c", "fc", true),
        categories: [{ category: "simple", ...NO_ENTRIES, decoder: 1 }],
      }),
    /categories\[0\]\.decoder is not/,
  );
});
