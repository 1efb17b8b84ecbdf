// What a model's name gives a run (the decoder and BFCL's name rewrite), and the refusal of a
// decoder that does not fit the results: on the vendored files of the 11 models, and on texts of
// our own.
import { deepStrictEqual, match, strictEqual, throws } from "node:assert/strict";
import {
  BFCL_CATEGORIES,
  BFCL_UNDERSCORE_TO_DOT_MODELS,
  type BfclCategory,
  BfclDecoderError,
  BfclModelNameError,
  bfclModelSettings,
  checkBfcl,
  checkDecoderFits,
  PyDict,
  underscoreToDotForModel,
} from "../../src/bfcl/mod.ts";
import { InputError } from "../../src/jsonl/mod.ts";
import { FC_MODELS, gunzipText, PROMPTING_MODELS, publishedScore } from "./_fixtures.ts";

async function files(model: string, category: BfclCategory) {
  const data = `gorilla_openfunctions_v1_test_${category}.json.gz`;
  const read = async (path: string) => ({ name: path, text: await gunzipText(path) });
  return {
    questions: category === "relevance" ? undefined : await read(`data/${data}`),
    answers: category === "relevance" ? undefined : await read(`data/possible_answer/${data}`),
    results: await read(`results/${model}/${category}_result.json.gz`),
  };
}

Deno.test("a known model's name gives BFCL's decoder and name rewrite; an explicit setting wins", () => {
  const cases: [Parameters<typeof bfclModelSettings>[0], string, boolean][] = [
    [{ modelName: "gpt-4o-2024-05-13-FC" }, "fc", true],
    // Result folders spell '/' as '_'.
    [{ modelName: "meetkai_functionary-small-v3.1-FC" }, "fc", true],
    [{ modelName: "firefunction-v2-FC" }, "fc", false],
    [{ modelName: "meta-llama_Meta-Llama-3-70B-Instruct" }, "llama", false],
    [{ modelName: "my-run" }, "fc", false],
    [{}, "fc", false],
    [{ modelName: "gpt-4o-2024-05-13-FC", underscoreToDot: false }, "fc", false],
    [{ modelName: "gpt-4-0613", decoder: "claude" }, "claude", false],
  ];
  for (const [options, decoder, underscoreToDot] of cases) {
    deepStrictEqual(bfclModelSettings(options), { decoder, underscoreToDot }, options.modelName);
  }
  strictEqual(BFCL_UNDERSCORE_TO_DOT_MODELS.length, 39);
  strictEqual(underscoreToDotForModel("NousResearch_Hermes-2-Pro-Llama-3-8B"), true);
  strictEqual(underscoreToDotForModel("gpt-4o-2024-05-13"), false);
  throws(() => (BFCL_UNDERSCORE_TO_DOT_MODELS as string[]).push("x"), TypeError);
});

Deno.test("checkBfcl() takes the name rewrite from the model's name: gpt-4o-2024-05-13-FC simple is 353/400", async () => {
  const simple = await files("gpt-4o-2024-05-13-FC", "simple");
  const run = checkBfcl(simple, { category: "simple", modelName: "gpt-4o-2024-05-13-FC" });
  strictEqual(run.correct, publishedScore("gpt-4o-2024-05-13-FC", "simple").correct);
  strictEqual(run.correct, 353);
  const off = checkBfcl(simple, {
    category: "simple",
    modelName: "gpt-4o-2024-05-13-FC",
    underscoreToDot: false,
  });
  strictEqual(off.correct, 205);
});

Deno.test("every vendored model's results fit the decoder its name gives, and refuse the other kind", async () => {
  for (const model of [...FC_MODELS, ...PROMPTING_MODELS]) {
    const fc = FC_MODELS.includes(model);
    for (const category of BFCL_CATEGORIES) {
      const f = await files(model, category);
      // The derived decoder is accepted (conformance_test.ts checks every verdict it gives).
      checkBfcl(f, { category, modelName: model });
      if (fc) {
        // A prompting decoder is refused, naming it and the flag to use.
        throws(
          () => checkBfcl(f, { category, modelName: "an unknown name", decoder: "gpt" }),
          (e: Error) => {
            strictEqual(e instanceof BfclDecoderError && e instanceof InputError, true);
            strictEqual(e.name, "BfclDecoderError");
            match(e.message, /the gpt decoder reads/);
            match(e.message, /use --decoder fc$/);
            return true;
          },
          `${model} ${category}`,
        );
      } else {
        // An unknown name falls back to fc, which a prompting model's text refuses; fc given
        // explicitly is taken as given.
        throws(
          () => checkBfcl(f, { category, modelName: "my-run" }),
          (e: Error) =>
            e instanceof BfclDecoderError && /--decoder claude, gorilla, gpt/.test(e.message),
          `${model} ${category}`,
        );
        checkBfcl(f, { category, modelName: "my-run", decoder: "fc" });
      }
    }
  }
});

Deno.test("checkDecoderFits(): prose fits fc in relevance; text that reads as calls, text elsewhere, or a list for a prompting decoder, does not", () => {
  const call = [new PyDict([["f", "{}"]])];
  const fc = { decoder: "fc" as const };
  checkDecoderFits("r.json", ["I cannot help with that.", "No function fits."], {
    ...fc,
    relevance: true,
  });
  checkDecoderFits("r.json", ["", "[f(x=1)]", call], fc);
  checkDecoderFits("r.json", ["[f(x=1)]", "prose"], { decoder: "gpt" });
  throws(
    () => checkDecoderFits("r.json", ["No.", "f(x=1)"], { ...fc, relevance: true }),
    /^BfclDecoderError: r\.json: the fc decoder reads a function-calling model's lists of calls, but all 2 results are text, and line 2 reads as calls/,
  );
  // Outside relevance, text alone would fail every entry under fc (a model whose handler has
  // its own format, such as Hermes' <tool_call> tags).
  throws(
    () => checkDecoderFits("r.json", ['<tool_call>\n{"name": "f"}\n</tool_call>'], fc),
    /all 1 results are text, and under fc every entry would fail/,
  );
  // fc given explicitly is taken as given: an FC model that declines and once writes a call as
  // text is read as BFCL's FC handler reads it.
  checkDecoderFits("r.json", ["I cannot help with that.", "f(base=10)"], { ...fc, given: true });
  checkDecoderFits("r.json", ["<tool_call>{}</tool_call>"], { ...fc, given: true });
  // With the entries' ids, the message names the line's.
  throws(
    () => checkDecoderFits("r.json", ["No.", "f(x=1)"], { ...fc, ids: ["simple_0", "simple_1"] }),
    /all 2 results are text, and line 2 \(id simple_1\) reads as calls/,
  );
  throws(
    () =>
      checkDecoderFits("r.json", ["x", call], { decoder: "gpt", ids: ["simple_0", "simple_1"] }),
    /\(the first on line 2 \(id simple_1\)\); a prompting handler writes text only/,
  );
  // A line without an id (relevance has no question file to take one from) is named by its line.
  throws(
    () => checkDecoderFits("r.json", ["x", call], { decoder: "gpt", ids: ["simple_0", undefined] }),
    /\(the first on line 2\); a prompting handler writes text only/,
  );
  // A line without a result keeps its place: the counts and the line are the file's.
  throws(
    () => checkDecoderFits("r.json", [undefined, "[f(x=1)]", call], { decoder: "claude" }),
    /^BfclDecoderError: r\.json: the claude decoder reads a prompting model's text, but 1 of the 2 results are lists or objects of calls, .* \(the first on line 3\); a prompting handler writes text only: use --decoder fc$/,
  );
  // Java and JavaScript read calls in their own language.
  throws(
    () => checkDecoderFits("r.json", ["[A.b(x=1)]"], { ...fc, language: "Java", relevance: true }),
    BfclDecoderError,
  );
});

Deno.test("bfclModelSettings() refuses a known model whose handler has its own output format, unless a decoder is given", () => {
  for (const model of ["NousResearch/Hermes-2-Pro-Llama-3-8B", "THUDM_glm-4-9b-chat"]) {
    throws(() => bfclModelSettings({ modelName: model }), /decodes the model's own output format/);
    deepStrictEqual(bfclModelSettings({ modelName: model, decoder: "fc" }), {
      decoder: "fc",
      underscoreToDot: true,
    });
  }
});

Deno.test("bfclModelSettings() refuses a known model's name in another case, naming BFCL's spelling", () => {
  // Matched as written, gpt-4o-2024-05-13-fc fell back to the defaults: no name rewrite.
  const cases = [
    ["gpt-4o-2024-05-13-fc", "gpt-4o-2024-05-13-FC"],
    ["meetkai_functionary-small-v3.1-fc", "meetkai_functionary-small-v3.1-FC"],
    ["Meta-Llama/meta-llama-3-70b-instruct", "meta-llama/Meta-Llama-3-70B-Instruct"],
    ["GPT-4-0613", "gpt-4-0613"],
  ];
  for (const [model, known] of cases) {
    throws(
      () => bfclModelSettings({ modelName: model, decoder: "fc", underscoreToDot: false }),
      (e) =>
        e instanceof BfclModelNameError && e instanceof InputError && e.known === known &&
        e.message.startsWith(`Unknown model "${model}" (did you mean "${known}"?)`),
      model,
    );
  }
  // BFCL's spellings, and names it does not know, are taken as they are.
  for (
    const model of ["gpt-4o-2024-05-13-FC", "meetkai_functionary-small-v3.1-FC", "my-model-fc"]
  ) {
    bfclModelSettings({ modelName: model });
  }
});
