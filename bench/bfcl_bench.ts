// BFCL checker throughput: checkBfcl over every category of the 11 vendored models (15,290
// entries: reading the JSONL texts, decoding, checking, the records), timed per category and in all, as
// entries/s. Files are read and decompressed before timing; the best of the rounds is reported.
//
//   deno run -A bench/bfcl_bench.ts [--rounds 5] [--matching greedy|optimal]
import { parseArgs } from "node:util";
import { BFCL_CATEGORIES, type BfclCategory, type BfclFiles, checkBfcl } from "../src/bfcl/mod.ts";
import { FC_MODELS, gunzipText, PROMPTING_MODELS } from "../tests/bfcl/_fixtures.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { rounds: { type: "string" }, matching: { type: "string" } },
});
const rounds = Number(values.rounds ?? 5);
const matching = values.matching === "optimal" ? "optimal" : "greedy";

interface Job {
  model: string;
  category: BfclCategory;
  files: BfclFiles;
}

const jobs: Job[] = [];
for (const category of BFCL_CATEGORIES) {
  const data = `data/gorilla_openfunctions_v1_test_${category}.json.gz`;
  const answers = `data/possible_answer/gorilla_openfunctions_v1_test_${category}.json.gz`;
  const questions = category === "relevance"
    ? undefined
    : { name: data, text: await gunzipText(data) };
  const answerFile = category === "relevance"
    ? undefined
    : { name: answers, text: await gunzipText(answers) };
  for (const model of [...FC_MODELS, ...PROMPTING_MODELS]) {
    const results = `results/${model}/${category}_result.json.gz`;
    jobs.push({
      model,
      category,
      files: {
        questions,
        answers: answerFile,
        results: { name: results, text: await gunzipText(results) },
      },
    });
  }
}

const best = new Map<string, { ms: number; entries: number }>();
for (let round = 0; round < rounds; round++) {
  for (const category of [...BFCL_CATEGORIES, "all"] as const) {
    const selected = jobs.filter((j) => category === "all" || j.category === category);
    const start = performance.now();
    let entries = 0;
    for (const job of selected) {
      entries += checkBfcl(job.files, {
        category: job.category,
        modelName: job.model,
        matching,
      }).total;
    }
    const ms = performance.now() - start;
    const prev = best.get(category);
    if (!prev || ms < prev.ms) best.set(category, { ms, entries });
  }
}

console.log(
  `checkBfcl, ${matching} matching, best of ${rounds} rounds (11 models; the files read beforehand)`,
);
console.log("category                      entries      ms   entries/s");
for (const [category, { ms, entries }] of best) {
  console.log(
    `${category.padEnd(28)} ${String(entries).padStart(8)} ${ms.toFixed(0).padStart(7)} ${
      Math.round(entries / (ms / 1000)).toLocaleString("en-US").padStart(11)
    }`,
  );
}
