// The layout formatReport gives a report around its records: the text before the records array
// and the text after it, so that the records can be written between them a part at a time; and the
// inputs block both of scoreJsonl's readers write into it.
import type { Source } from "../jsonl/source/mod.ts";
import type { EvaluationReport, InputDigest } from "./inputs.ts";

const MARKER = "\u0000records\u0000";

/**
 * The report's text without its records (`head` is the report without `records`): before the
 * records array (ending with `"records": `) and after it (from the line break before `}`).
 */
export function reportFrame(head: object): { before: string; after: string } {
  const text = JSON.stringify({ ...head, records: MARKER }, null, 2);
  const marker = JSON.stringify(MARKER);
  const at = text.lastIndexOf(marker);
  return { before: text.slice(0, at), after: text.slice(at + marker.length) };
}

/** The text between `before` and the first record: the array's opening. */
export const RECORDS_OPEN = "[\n";
/** The text between the last record and `after`. */
export const RECORDS_CLOSE = "\n  ]";
/** The array when there are no records. */
export const RECORDS_EMPTY = "[]";

/**
 * The `inputs` a report records of a run: each source's SHA-256 (taken by the pass that read it
 * to its end) and its rows, and the generations whose output was not UTF-8.
 */
export async function inputDigests(
  sources: { examples: Source; prompts: Source | undefined; generations: Source },
  examples: number,
  prompts: number | undefined,
  generations: number,
  invalidUtf8Outputs: number,
): Promise<EvaluationReport["inputs"]> {
  const digest = async (s: Source, rows: number): Promise<InputDigest> => ({
    sha256: await s.digest(),
    rows,
  });
  return {
    examples: await digest(sources.examples, examples),
    generations: {
      ...await digest(sources.generations, generations),
      invalid_utf8_outputs: invalidUtf8Outputs,
    },
    prompts: sources.prompts ? await digest(sources.prompts, prompts!) : null,
  };
}
