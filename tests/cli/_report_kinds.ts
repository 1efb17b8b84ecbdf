// The commands that write one real report of each kind beside the evaluation report (BFCL, IFEval,
// structured, suite run) from vendored data, for the CLI tests that read them back.
import { suiteInputs } from "./_suite_demo.ts";

const fixtures = new URL("../fixtures/", import.meta.url).pathname;
const samples = new URL("../../samples/", import.meta.url).pathname;

/**
 * The arguments of each command, writing into `dir`: `bfcl.json` (and BFCL's score file
 * `score.json`), `ifeval.json` (and IFEval's results files in `ifeval_results/`),
 * `structured.json` and `suite.json`.
 */
export function reportCommands(dir: string): Record<
  "bfcl" | "ifeval" | "structured" | "suite",
  string[]
> {
  const bfclData = `${fixtures}bfcl-v1/data`;
  return {
    bfcl: [
      "bfcl",
      "--checker",
      "bfcl.ast@2024-08",
      "--category",
      "simple",
      "--questions",
      `${bfclData}/gorilla_openfunctions_v1_test_simple.json.gz`,
      "--answers",
      `${bfclData}/possible_answer/gorilla_openfunctions_v1_test_simple.json.gz`,
      "--result",
      `${fixtures}bfcl-v1/results/gpt-4-0613/simple_result.json.gz`,
      "--model",
      "gpt-4-0613",
      "--out",
      `${dir}/score.json`,
      "--report",
      `${dir}/bfcl.json`,
    ],
    ifeval: [
      "ifeval",
      "--input",
      `${fixtures}ifeval/input_data.jsonl`,
      "--responses",
      `${fixtures}ifeval/responses_gpt4.jsonl`,
      "--out",
      `${dir}/ifeval.json`,
      "--results-dir",
      `${dir}/ifeval_results`,
    ],
    structured: [
      "structured",
      "--outputs",
      `${samples}outputs.jsonl`,
      "--mode",
      "lenient",
      "--out",
      `${dir}/structured.json`,
    ],
    suite: [
      "suite",
      "run",
      `${samples}suite_demo/suite.yaml`,
      ...suiteInputs(),
      "--no-judge",
      "--out",
      `${dir}/suite.json`,
    ],
  };
}
