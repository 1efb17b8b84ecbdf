/**
 * The prompts of an IFEval results file as text a person reads (`assay show` on
 * `eval_results_strict.jsonl` or `eval_results_loose.jsonl`): which instructions each did not
 * follow, the prompt and the response.
 *
 * @module
 */
import { decodeCanonicalString, type ExactField, materialize } from "../engine/mod.ts";
import { fieldLines, firstFields, shownText, showUnits, type Unit } from "./_units.ts";
import type { ShowSelection } from "./show_selection.ts";

const FIELDS = [
  "follow_all_instructions",
  "follow_instruction_list",
  "instruction_id_list",
  "prompt",
  "response",
];

/**
 * Whether `text` looks like an IFEval results file: its first line is an object with IFEval's
 * five fields.
 */
export function isIfevalResultsFile(text: string): boolean {
  const fields = firstFields(text);
  return FIELDS.every((k) => fields?.has(k));
}

// A list of strings or of booleans, as the file writes it; undefined when it is not one.
function list(f: ExactField | undefined): (string | boolean)[] | undefined {
  if (f?.kind !== "array") return undefined;
  const items = materialize(f.canonical) as unknown[];
  return items.every((x) => typeof x === "string" || typeof x === "boolean")
    ? items as (string | boolean)[]
    : undefined;
}

/**
 * The prompts of an IFEval results file (`assay ifeval --results-dir`'s, or IFEval's own
 * `eval_results_strict.jsonl` and `eval_results_loose.jsonl`) that `selection` chooses, as text:
 * each prompt's line (`line 12`: the file has no key; line N is the Nth prompt of the input),
 * whether it followed every instruction, its number of instructions, the instruction ids it did not
 * follow, then the prompt and the response, each on one line, printable and cut past
 * `DETAIL_OUTPUT_CHARS` code units with its length; then a line counting the prompts shown.
 *
 * Filters: `failing` chooses the prompts that did not follow every instruction (the file is one
 * evaluation, strict or loose, so `metric` is refused); `ids` are lines (`line 12`); `slice` is an
 * instruction id, choosing the prompts that have it.
 *
 * @param text The results file's text.
 * @param selection The filters; none chooses every prompt.
 * @param source The file's name in errors.
 * @returns Lines of text, ending with a newline.
 * @throws {RangeError} For a text that is not a results file, a line that is not one of its
 *   prompts (naming the line), or a filter naming what the file lacks.
 *
 * @example
 * ```ts
 * import { showIfevalResultsFile } from "@assay/assay/explain";
 * import { ok } from "node:assert/strict";
 *
 * const file = JSON.stringify({
 *   follow_all_instructions: false,
 *   follow_instruction_list: [false],
 *   instruction_id_list: ["punctuation:no_comma"],
 *   prompt: "No commas, please.",
 *   response: "Sure, here it is.",
 * }) + "\n";
 * const shown = showIfevalResultsFile(file, { failing: true });
 * ok(shown.startsWith("line 1  followed NO  1 instruction\n  not followed: punctuation:no_comma\n"));
 * ```
 */
export function showIfevalResultsFile(
  text: string,
  selection: ShowSelection = {},
  source = "the results file",
): string {
  if (!isIfevalResultsFile(text)) {
    throw new RangeError(
      `${source} is not an IFEval results file: its first line does not have ${FIELDS.join(", ")}`,
    );
  }
  const units: Unit[] = [];
  const instructions = new Set<string>();
  for (const [fields, at] of fieldLines(text, source, "an IFEval result")) {
    const bad = (why: string) => new RangeError(`${source}:${at}: ${why}`);
    const ids = list(fields.get("instruction_id_list"));
    const followed = list(fields.get("follow_instruction_list"));
    const all = fields.get("follow_all_instructions");
    const [prompt, response] = [fields.get("prompt"), fields.get("response")];
    if (
      ids === undefined || !ids.every((x) => typeof x === "string") || followed === undefined ||
      followed.length !== ids.length || !followed.every((x) => typeof x === "boolean") ||
      all?.kind !== "boolean" || prompt?.kind !== "string" || response?.kind !== "string"
    ) {
      throw bad(
        "a result needs instruction_id_list (strings), follow_instruction_list (as many " +
          "booleans), follow_all_instructions (a boolean) and prompt and response (strings)",
      );
    }
    for (const id of ids) instructions.add(id as string);
    const ok = all.canonical === "true";
    const missed = ids.filter((_, k) => !followed[k]) as string[];
    const n = ids.length;
    units.push({
      id: `line ${at}`,
      slices: ids as string[],
      fails: () => !ok,
      text: () =>
        `line ${at}  followed ${ok ? "yes" : "NO"}  ${n} instruction${n === 1 ? "" : "s"}\n` +
        (missed.length === 0 ? "" : `  not followed: ${missed.map(shownText).join(", ")}\n`) +
        `  prompt:   ${shownText(decodeCanonicalString(prompt.canonical))}\n` +
        `  response: ${shownText(decodeCanonicalString(response.canonical))}\n`,
    });
  }
  return showUnits(
    {
      unit: "prompt",
      units: "prompts",
      holder: "file",
      noMetric:
        "is an IFEval results file, one evaluation (strict or loose): metric does not apply",
      slice: { name: "instruction id", known: [...instructions].sort() },
    },
    units,
    selection,
    source,
  );
}
