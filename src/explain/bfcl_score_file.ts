/**
 * The failing entries of a BFCL score file as text a person reads (`assay show` on a score file):
 * why each failed, the question, the model's output and what was expected.
 *
 * @module
 */
import { decodeCanonicalString, type ExactField, readExactObject } from "../engine/mod.ts";
import {
  fieldLines,
  firstFields,
  messageLines,
  shownText,
  showUnits,
  type Unit,
} from "./_units.ts";
import { bfclGateId } from "./unit_ids.ts";
import type { ShowSelection } from "./show_selection.ts";

const SUMMARY = ["accuracy", "correct_count", "total_count"];

/** Whether `text` looks like a BFCL score file: its first line is BFCL's accuracy summary. */
export function isBfclScoreFile(text: string): boolean {
  const fields = firstFields(text);
  return SUMMARY.every((k) => fields?.get(k)?.kind === "number");
}

// A field as shown: a string decoded, any other value as its canonical JSON text.
function valueText(f: ExactField | undefined): string | undefined {
  if (f === undefined) return undefined;
  return f.kind === "string" ? decodeCanonicalString(f.canonical) : f.canonical;
}

/**
 * The entries of a BFCL score file (BFCL's own, or `assay bfcl --out`'s) that `selection`
 * chooses, as text: each failing entry's id, category and 1-based position, BFCL's error type and
 * each error message, then the question, the model's raw result, its decoding and the possible
 * answers, each on one line, printable and cut past `DETAIL_OUTPUT_CHARS` code units with its
 * length; then a line counting the entries shown, and how many the file says passed. A score file
 * lists the failing entries only (`failing` keeps any entry the file marks valid out); `metric` is
 * refused.
 *
 * The file is read as BFCL writes it: a first line `{accuracy, correct_count, total_count}`, then
 * one JSON object per failing entry, with `id` (its position), `test_category`, `error`,
 * `error_type`, `prompt` (the entry, with its `id` and `question`), `model_result_raw`,
 * `model_result_decoded` and `possible_answer`. Values are shown exactly as the file writes them
 * (`1.0` stays `1.0`).
 *
 * @param text The score file's text.
 * @param selection The filters; none chooses every entry.
 * @param source The file's name in errors.
 * @returns Lines of text, ending with a newline.
 * @throws {RangeError} For a text that is not a score file, a line that is not an entry (naming
 *   the line), or a filter naming what the file lacks (an id or category, with the nearest one).
 *
 * @example
 * ```ts
 * import { showBfclScoreFile } from "@assay/assay/explain";
 * import { ok } from "node:assert/strict";
 *
 * const file = '{"accuracy": 0.5, "correct_count": 1, "total_count": 2}\n' +
 *   '{"id": 2, "test_category": "simple", "valid": false, "error": ["Wrong value for x."], ' +
 *   '"error_type": "value_error:others", "prompt": {"id": "simple_1", "question": "Add 1.0"}, ' +
 *   '"model_result_raw": "[add(x=1)]", "model_result_decoded": [{"add": {"x": 1}}], ' +
 *   '"possible_answer": {"add": {"x": [1.0]}}}\n';
 * const shown = showBfclScoreFile(file);
 * ok(shown.startsWith("simple_1  [simple]  #2  valid NO  value_error:others\n"));
 * ok(shown.includes('  expected: {"add":{"x":[1.0]}}\n'));
 * ```
 */
export function showBfclScoreFile(
  text: string,
  selection: ShowSelection = {},
  source = "the score file",
): string {
  if (!isBfclScoreFile(text)) {
    throw new RangeError(
      `${source} is not a BFCL score file: its first line is not {accuracy, correct_count, ` +
        "total_count}",
    );
  }
  const summary = firstFields(text)!;
  const units: Unit[] = [];
  for (const [fields, n] of fieldLines(text, source, "a BFCL score file's entry", 1)) {
    const bad = (why: string) => new RangeError(`${source}:${n}: ${why}`);
    const position = fields.get("id");
    const category = fields.get("test_category");
    if (position?.kind !== "number" || category?.kind !== "string") {
      throw bad('an entry needs a number "id" and a string "test_category"');
    }
    const cat = decodeCanonicalString(category.canonical);
    const prompt = fields.get("prompt");
    const entry = prompt?.kind === "object" ? readExactObject(prompt.canonical) : undefined;
    const entryId = entry instanceof Map && entry.get("id")?.kind === "string"
      ? decodeCanonicalString(entry.get("id")!.canonical)
      : `${cat}_${Number(position.canonical) - 1}`;
    const question = entry instanceof Map ? valueText(entry.get("question")) : undefined;
    const errorType = valueText(fields.get("error_type"));
    // BFCL's `error` is a list of messages (or, in some versions, one string): each on its line.
    const error = fields.get("error");
    // BFCL lists the failing entries only; an entry marked valid is shown as such.
    const valid = fields.get("valid")?.canonical === "true";
    const shown: [string, string | undefined][] = [
      ["question", question],
      ["output", valueText(fields.get("model_result_raw"))],
      ["decoded", valueText(fields.get("model_result_decoded"))],
      ["expected", valueText(fields.get("possible_answer"))],
    ];
    units.push({
      id: entryId,
      gateId: bfclGateId(cat, Number(position.canonical)),
      slices: [cat],
      fails: () => !valid,
      text: () =>
        `${shownText(entryId)}  [${shownText(cat)}]  #${position.canonical}  valid ${
          valid ? "yes" : "NO"
        }${errorType === undefined ? "" : `  ${shownText(errorType)}`}\n` +
        (error === undefined || error.kind === "null"
          ? ""
          : messageLines("error", valueText(error)!)) +
        shown.filter(([, v]) => v !== undefined)
          .map(([k, v]) => `  ${`${k}:`.padEnd(9)} ${shownText(v!)}\n`).join(""),
    });
  }
  const count = (k: string) => summary.get(k)!.canonical;
  return showUnits(
    {
      unit: "entry",
      units: "entries",
      holder: "file",
      noMetric:
        "is a BFCL score file, whose entries have one verdict (valid): metric does not apply",
      slice: { name: "category", known: [...new Set(units.map((u) => u.slices[0]!))] },
      note: `a score file lists the failing entries only: ${count("correct_count")} of ` +
        `${count("total_count")} passed`,
    },
    units,
    selection,
    source,
  );
}
