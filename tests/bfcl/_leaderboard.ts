// How BFCL's leaderboard ran a model on a category, over the vendored files
// (tests/fixtures/bfcl-v1/): which files; the decoder and whether names map underscores to dots
// are left to checkBfcl, which derives them from the model's name (bfclModelSettings), so that
// every conformance run checks the derivation too.
// Runtime-agnostic (relative imports, the files read by the caller), so the conformance test on
// Deno and the cross-runtime BFCL step on Deno, Node and Bun run the same thing.
import {
  type BfclCategory,
  type BfclMatching,
  type BfclRun,
  type BfclSource,
  checkBfcl,
} from "../../src/bfcl/mod.ts";

/**
 * Runs our checker on a model's category, as BFCL's leaderboard ran it (or with `matching`).
 *
 * @param read A vendored gzipped file as a source, by its path under tests/fixtures/bfcl-v1/.
 */
export async function leaderboardRun(
  model: string,
  category: BfclCategory,
  read: (path: string) => BfclSource | Promise<BfclSource>,
  matching: BfclMatching = "greedy",
): Promise<BfclRun> {
  const data = `gorilla_openfunctions_v1_test_${category}.json.gz`;
  return checkBfcl({
    questions: category === "relevance" ? undefined : await read(`data/${data}`),
    answers: category === "relevance" ? undefined : await read(`data/possible_answer/${data}`),
    results: await read(`results/${model}/${category}_result.json.gz`),
  }, {
    category,
    modelName: model,
    matching,
  });
}
