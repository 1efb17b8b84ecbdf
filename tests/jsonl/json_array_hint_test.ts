// A JSONL input given as one JSON array (`[{...}, {...}]` on one line, or pretty-printed over
// several) is refused at its first line, as before, with a hint that JSONL wants one object per
// line (jsonArrayHint, src/jsonl/errors.ts), from every reader of one JSON object per line.
import { ok, strictEqual } from "node:assert/strict";
import { createEngine, jsonArrayHint, scoreJsonl } from "../../mod.ts";
import { scoreStructuredJsonl } from "../../src/structured_jsonl/mod.ts";
import { readIfevalInput, readIfevalResponses } from "../../src/ifeval/mod.ts";
import { readCalibrationLabels, readGoldens } from "../../src/suite/mod.ts";

const enc = new TextEncoder();
const HINT = "; JSONL is one JSON object per line, not a JSON array";

const example = { example_id: "a", language: "en", target: { name: "f", arguments: {} } };
const generation = {
  example_id: "a",
  prompt_sha256: "0".repeat(64),
  output: '{"name": "f", "arguments": {}}',
};

/** Rows as JSONL, as one JSON array on one line, and as a pretty-printed JSON array. */
function spellings(rows: unknown[]): Record<string, string> {
  return {
    jsonl: rows.map((r) => JSON.stringify(r) + "\n").join(""),
    "one-line array": JSON.stringify(rows) + "\n",
    "pretty array": JSON.stringify(rows, null, 2) + "\n",
    "indented array": "  " + JSON.stringify(rows) + "\n",
  };
}

async function message(run: () => Promise<unknown> | unknown): Promise<string> {
  try {
    await run();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return "accepted";
}

Deno.test("jsonArrayHint hints only at a first line that opens an array", () => {
  strictEqual(jsonArrayHint("[", 1), HINT);
  strictEqual(jsonArrayHint(' \t[{"a": 1}]', 1), HINT);
  strictEqual(jsonArrayHint("[", 2), "");
  strictEqual(jsonArrayHint('{"a": [1]}', 1), "");
  strictEqual(jsonArrayHint("1", 1), "");
});

Deno.test("scoreJsonl's line errors hint at JSONL when a file is one JSON array, on both engines", async () => {
  const exampleText = spellings([example, { ...example, example_id: "b" }]);
  const generationText = spellings([generation, { ...generation, example_id: "b" }]);
  for (const engine of ["ts", "wasm"] as const) {
    const options = { engine: createEngine({ engine }), allowMissing: true };
    for (const [spelling, text] of Object.entries(exampleText)) {
      if (spelling === "jsonl") continue;
      const inExamples = await message(() =>
        scoreJsonl({ examples: enc.encode(text), generations: enc.encode(generationText.jsonl) }, {
          ...options,
          names: { examples: "ex.jsonl" },
        })
      );
      ok(inExamples.startsWith("ex.jsonl:1: ") && inExamples.endsWith(HINT), inExamples);
      const inGenerations = await message(() =>
        scoreJsonl({
          examples: enc.encode(exampleText.jsonl!),
          generations: enc.encode(generationText[spelling]!),
        }, { ...options, names: { generations: "gen.jsonl" } })
      );
      ok(inGenerations.startsWith("gen.jsonl:1: ") && inGenerations.endsWith(HINT), inGenerations);
    }
    // The same rows as JSONL are read; an array on a later line is refused without the hint.
    const good = await scoreJsonl({
      examples: enc.encode(exampleText.jsonl!),
      generations: enc.encode(generationText.jsonl!),
    }, options);
    strictEqual(good.report.n, 2);
    const later = await message(() =>
      scoreJsonl({
        examples: enc.encode(exampleText.jsonl! + "[1]\n"),
        generations: enc.encode(generationText.jsonl!),
      }, options)
    );
    strictEqual(later, 'examples:3: expected a JSON object, got "[1]"');
  }
});

Deno.test("scoreStructuredJsonl, IFEval's and the suite's readers hint at JSONL for a JSON array", async () => {
  const outputs = spellings([{ id: "a", output: "x" }, { id: "b", output: "y" }]);
  const prompts = spellings([{ key: 1, prompt: "A", instruction_id_list: [], kwargs: [] }]);
  const responses = spellings([{ prompt: "A", response: "r" }]);
  const goldens = spellings([{ id: "g1", question: "q" }]);
  const labels = spellings([{ human: 1, judge: 1 }]);
  for (const spelling of ["one-line array", "pretty array", "indented array"]) {
    const refusals = [
      await message(() =>
        scoreStructuredJsonl({ outputs: enc.encode(outputs[spelling]!) }, {
          names: { outputs: "o.jsonl" },
        })
      ),
      await message(() =>
        scoreStructuredJsonl({
          outputs: enc.encode(outputs.jsonl!),
          expected: enc.encode(outputs[spelling]!),
        }, { names: { outputs: "o.jsonl", expected: "e.jsonl" } })
      ),
      await message(() => readIfevalInput({ name: "in.jsonl", text: prompts[spelling]! })),
      await message(() => readIfevalResponses({ name: "r.jsonl", text: responses[spelling]! }, [])),
      await message(() => readGoldens(goldens[spelling]!, { source: "g.jsonl" })),
      await message(() => readCalibrationLabels(labels[spelling]!, { source: "l.jsonl" })),
    ];
    for (const m of refusals) {
      ok(/^\w+\.jsonl:1[: ]/.test(m) && m.endsWith(HINT), `${spelling}: ${m}`);
    }
  }
});
