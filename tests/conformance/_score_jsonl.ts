// The scoreJsonl part of the conformance run: the seeded JSONL inputs scored from bytes on one
// engine. The exact report bytes' SHA-256 goes into the result (build/cross_runtime.ts compares it
// with `assay score` on the same bytes written to files, engine for engine); the report with its
// `engine` field blanked goes into the digest, which every engine must share.
import { type Engine, formatReport, scoreJsonl } from "../../mod.ts";
import { buildJsonlCorpus, type JsonlCorpus } from "./_jsonl_corpus.ts";
import type { ScoreJsonlRun } from "./_report.ts";
import { sha256Hex } from "./_sha256.ts";

let inputs: Promise<JsonlCorpus> | undefined;

/** The JSONL inputs of the default seed, built once per process. */
export function defaultJsonlCorpus(outputs: readonly string[]): Promise<JsonlCorpus> {
  return (inputs ??= buildJsonlCorpus(outputs));
}

/**
 * Scores the JSONL inputs on `engine`.
 *
 * @param engine The engine (on workerd, one made with `wasmModule` runs the scoring kernel).
 * @param corpus examples.jsonl, generations.jsonl and prompts.jsonl.
 * @returns What the run says about the report bytes, and the report with `engine` blanked.
 */
export async function scoreJsonlSection(
  engine: Engine,
  corpus: JsonlCorpus,
): Promise<{ run: ScoreJsonlRun; neutral: string }> {
  const { report, bytes, handedBack } = await scoreJsonl(corpus, {
    engine,
    names: {
      examples: "examples.jsonl",
      generations: "generations.jsonl",
      prompts: "prompts.jsonl",
    },
  });
  const run: ScoreJsonlRun = {
    engine: report.engine,
    sha256: await sha256Hex(bytes),
    bytes: bytes.length,
    n: report.n,
  };
  if (handedBack) run.handedBack = `${handedBack.source}:${handedBack.line}: ${handedBack.reason}`;
  return { run, neutral: formatReport({ ...report, engine: "-" }) };
}
