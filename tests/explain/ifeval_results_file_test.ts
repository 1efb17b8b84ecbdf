// showIfevalResultsFile(): IFEval's official results files for GPT-4 (vendored) shown prompt by
// prompt, the failing ones and each instruction id's exactly as the file's own verdicts say;
// a text that is not a results file, or a broken line, is a RangeError naming it.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { isIfevalResultsFile, showIfevalResultsFile } from "../../src/explain/mod.ts";

async function fixture(name: string): Promise<string> {
  const bytes = await Deno.readFile(new URL(`../fixtures/ifeval/${name}`, import.meta.url));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

interface Result {
  follow_all_instructions: boolean;
  follow_instruction_list: boolean[];
  instruction_id_list: string[];
}

// The first line of each prompt shown, the last (the count) left out.
const heads = (text: string) =>
  text.split("\n").filter((l) => l !== "" && !l.startsWith(" ")).slice(0, -1);

Deno.test("IFEval's official results files show exactly the prompts and instructions their verdicts fail", async () => {
  for (const how of ["strict", "loose"]) {
    const text = await fixture(`expected_gpt4_${how}.jsonl.gz`);
    ok(isIfevalResultsFile(text));
    // The file's own verdicts, read independently of the engine.
    const rows = text.trim().split("\n").map((l) => JSON.parse(l) as Result);
    const failing = rows.flatMap((r, i) => r.follow_all_instructions ? [] : [i]);
    const shown = showIfevalResultsFile(text, { failing: true }, how);
    deepStrictEqual(heads(shown).map((h) => h.split("  ")[0]), failing.map((i) => `line ${i + 1}`));
    ok(
      shown.endsWith(
        `${failing.length} of ${failing.length} selected prompts shown (541 in the file)\n`,
      ),
    );
    // Each prompt's block: its verdict and the instructions it did not follow.
    const blocks = showIfevalResultsFile(text).split("\n\n");
    rows.forEach((r, i) => {
      const missed = r.instruction_id_list.filter((_, k) => !r.follow_instruction_list[k]);
      const n = r.instruction_id_list.length;
      const head = `line ${i + 1}  followed ${r.follow_all_instructions ? "yes" : "NO"}  ` +
        `${n} instruction${n === 1 ? "" : "s"}\n`;
      strictEqual(blocks[i]!.startsWith(head), true, blocks[i]!.slice(0, 100));
      strictEqual(blocks[i]!.includes("\n  not followed: "), missed.length > 0, `line ${i + 1}`);
      if (missed.length > 0) ok(blocks[i]!.includes(`\n  not followed: ${missed.join(", ")}\n`));
    });
    // A slice: the prompts that have the instruction.
    const slice = "punctuation:no_comma";
    const having = rows.flatMap((r, i) => r.instruction_id_list.includes(slice) ? [i] : []);
    const sliced = showIfevalResultsFile(text, { slice }, how);
    deepStrictEqual(heads(sliced).map((h) => h.split("  ")[0]), having.map((i) => `line ${i + 1}`));
    console.log(`${how}: ${failing.length} of ${rows.length} prompts not followed`);
  }
});

Deno.test("a text that is not a results file, or a broken result, is a RangeError naming it", () => {
  for (const text of ["", "{}\n", '{"prompt": "x", "response": "y"}\n', "[1]\n"]) {
    strictEqual(isIfevalResultsFile(text), false, text);
    throws(
      () => showIfevalResultsFile(text, {}, "r.jsonl"),
      /^RangeError: r\.jsonl is not an IFEval/,
    );
  }
  const good = JSON.stringify({
    follow_all_instructions: true,
    follow_instruction_list: [true],
    instruction_id_list: ["punctuation:no_comma"],
    prompt: "p",
    response: "r",
  });
  for (
    const broken of [
      good.replace("[true]", "[true, false]"),
      good.replace("[true]", "[NaN]"),
      good.replace('"r"', "1"),
      "{oops",
    ]
  ) {
    throws(() => showIfevalResultsFile(`${good}\n${broken}\n`, {}, "r.jsonl"), /r\.jsonl:2: /);
  }
  strictEqual(
    showIfevalResultsFile(`${good}\n`, { failing: true }),
    "No prompt matches the filters given (1 in the file)\n",
  );
});

Deno.test("an id given as a bare number is pointed at its line: the file names its prompts line N", async () => {
  const text = await fixture("expected_gpt4_strict.jsonl.gz");
  throws(
    () => showIfevalResultsFile(text, { ids: ["12"] }, "r.jsonl"),
    (e: Error) => {
      strictEqual(e.message, 'r.jsonl has no prompt "12" (did you mean "line 12"? 541 prompts)');
      return true;
    },
  );
  // A number past the file's lines has no line to point at.
  throws(
    () => showIfevalResultsFile(text, { ids: ["542"] }, "r.jsonl"),
    /^RangeError: r\.jsonl has no prompt "542" \(541 prompts\)$/,
  );
  ok(showIfevalResultsFile(text, { ids: ["line 12"] }, "r.jsonl").startsWith("line 12  "));
});
