// IFEval throughput: runIfeval over the 541 vendored GPT-4 responses (reading both JSONL texts,
// building the checks, the strict and loose evaluations), and the text machinery on its own
// (Punkt sentences, word_tokenize, langdetect), as responses/s. Files are read beforehand, and
// langdetect's profiles are loaded before timing (their one-time cost is printed); the best of
// the rounds is reported.
//
//   deno run -A bench/ifeval_bench.ts [--rounds 5]
import { parseArgs } from "node:util";
import {
  detectLanguageOrUndefined,
  runIfeval,
  splitSentences,
  wordTokenize,
} from "../src/ifeval/mod.ts";
import { fixtureText, responses } from "../tests/ifeval/_fixtures.ts";

const { values } = parseArgs({ args: Deno.args, options: { rounds: { type: "string" } } });
const rounds = Number(values.rounds ?? 5);
const input = { name: "input_data.jsonl", text: await fixtureText("input_data.jsonl") };
const answers = { name: "responses_gpt4.jsonl", text: await fixtureText("responses_gpt4.jsonl") };
const texts = await responses();

let start = performance.now();
detectLanguageOrUndefined("warm up");
console.log(`langdetect profiles loaded in ${(performance.now() - start).toFixed(0)} ms`);

const jobs: [string, () => void][] = [
  ["runIfeval (strict + loose)", () => void runIfeval({ input, responses: answers })],
  ["splitSentences (Punkt)", () => texts.forEach((t) => splitSentences(t))],
  ["wordTokenize (Treebank)", () => texts.forEach((t) => wordTokenize(t))],
  ["detectLanguage (langdetect)", () => texts.forEach((t) => detectLanguageOrUndefined(t))],
];
const best = new Map<string, number>();
for (let round = 0; round < rounds; round++) {
  for (const [name, job] of jobs) {
    start = performance.now();
    job();
    const ms = performance.now() - start;
    best.set(name, Math.min(ms, best.get(name) ?? Infinity));
  }
}

console.log(`best of ${rounds} rounds over ${texts.length} responses`);
console.log("job                              ms   responses/s");
for (const [name, ms] of best) {
  console.log(
    `${name.padEnd(30)} ${ms.toFixed(0).padStart(5)} ${
      Math.round(texts.length / (ms / 1000)).toLocaleString("en-US").padStart(13)
    }`,
  );
}
