// The official verdicts on GPT-4's 541 responses (tests/fixtures/ifeval/SOURCE): every entry's
// follow_instruction_list, counted per checker id, and every output line byte for byte.
import { ifevalReport, type IfevalRun, officialLine, runIfeval } from "../../src/ifeval/mod.ts";
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { fixtureText } from "./_fixtures.ts";

let cached: IfevalRun | undefined;
async function run(): Promise<IfevalRun> {
  cached ??= runIfeval({
    input: { name: "input_data.jsonl", text: await fixtureText("input_data.jsonl") },
    responses: { name: "responses_gpt4.jsonl", text: await fixtureText("responses_gpt4.jsonl") },
  });
  return cached;
}

for (const mode of ["strict", "loose"] as const) {
  Deno.test(`runIfeval() agrees with every official ${mode} verdict, per checker id`, async () => {
    const lines = (await fixtureText(`expected_gpt4_${mode}.jsonl.gz`)).split("\n");
    const results = (await run())[mode];
    strictEqual(results.length, 541);
    const agree = new Map<string, string>();
    const tally = new Map<string, [number, number]>();
    results.forEach((r, i) => {
      const want = JSON.parse(lines[i]!).follow_instruction_list as boolean[];
      r.instruction_id_list.forEach((id, k) => {
        const t = tally.get(id) ?? [0, 0];
        if (r.follow_instruction_list[k] === want[k]) t[0]++;
        t[1]++;
        tally.set(id, t);
      });
    });
    for (const [id, [a, n]] of [...tally].sort()) agree.set(id, `${a}/${n}`);
    // Every checker agrees on every instruction it has (25 ids, 834 instructions).
    strictEqual(agree.size, 25);
    for (const [id, [, n]] of tally) strictEqual(agree.get(id), `${n}/${n}`, id);
    const byteForByte = results.filter((r, i) => officialLine(r) === lines[i]).length;
    strictEqual(byteForByte, 541);
  });
}

Deno.test("ifevalReport() gives the official totals: strict 417/541 and 698/834, loose 431/541 and 714/834", async () => {
  const report = ifevalReport(await run());
  const counts = (m: { numerator: number; denominator: number }) =>
    `${m.numerator}/${m.denominator}`;
  assertEquals(
    [report.strict, report.loose].map((s) => [counts(s.prompt_level), counts(s.instruction_level)]),
    [["417/541", "698/834"], ["431/541", "714/834"]],
  );
  strictEqual(Object.keys(report.strict.by_instruction).length, 25);
  assertEquals(Object.keys(report.strict.by_category), [
    "change_case",
    "combination",
    "detectable_content",
    "detectable_format",
    "keywords",
    "language",
    "length_constraints",
    "punctuation",
    "startend",
  ]);
  const sum = Object.values(report.loose.by_category).reduce((s, m) => s + m.numerator, 0);
  strictEqual(sum, 714);
});
