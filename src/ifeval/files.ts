/**
 * IFEval's files: the input (`key`, `prompt`, `instruction_id_list`, `kwargs` per line, each key
 * once) and the responses (`prompt`, `response` per line, matched to inputs by prompt text as in
 * IFEval's dictionary, or `key`, `response`, the key standing for its prompt; a prompt may repeat
 * only with the same response), evaluated strict and loose.
 *
 * @module
 */
import { jsonArrayHint, LineSplitter, quote, readJsonLine } from "../jsonl/mod.ts";
import { buildCheck, IfevalInputError, type InstructionCheck } from "./checkers.ts";
import { shown } from "./_kwargs.ts";
import { pySplit, pyStrip } from "./_python_text.ts";
import { evaluatePrompt, type IfevalPrompt, type IfevalResult } from "./evaluate.ts";
import { checkPrompt } from "./_prompt_shape.ts";

/** A named text: a file's name (for messages) and its contents. */
export interface IfevalSource {
  /** The file name, as messages should show it. */
  name: string;
  /**
   * The file's text, read as the jsonl room reads a file's bytes: a byte order mark at its start
   * is dropped, and a line may end in `\r\n` (a lone surrogate, which no UTF-8 file holds, is
   * read as U+FFFD).
   */
  text: string;
}

/** One input line, with its line number and built checks. */
export interface IfevalInputRow extends IfevalPrompt {
  /** The 1-based line number in the input file. */
  line: number;
  /** One built check per instruction. */
  checks: InstructionCheck[];
}

/** The strict and loose results of every input prompt, in input order. */
export interface IfevalRun {
  /** The input rows. */
  inputs: IfevalInputRow[];
  /** The strict results (the official eval_results_strict.jsonl rows). */
  strict: IfevalResult[];
  /** The loose results (the official eval_results_loose.jsonl rows). */
  loose: IfevalResult[];
  /**
   * How many responses are blank (empty or whitespace, as Python's `str.strip` reads it), which
   * follow no instruction in either mode: many of them usually mean a harness that lost the text.
   */
  blankResponses: number;
}

// The lines of a source as the CLI and scoreJsonl split a file's bytes: the jsonl room's splitter
// (a leading BOM dropped, `\r\n` read as `\n`), with no limit on a line's length.
function* jsonObjects(source: IfevalSource): Generator<[Record<string, unknown>, number]> {
  // A source without its text read as an empty file would give no prompt, in silence.
  if (typeof source?.name !== "string" || typeof source.text !== "string") {
    throw new TypeError("A source must be { name: string, text: string }");
  }
  const splitter = new LineSplitter({ source: source.name, maxLineBytes: Number.MAX_SAFE_INTEGER });
  const bytes = new TextEncoder().encode(source.text);
  for (const run of [splitter.push(bytes), splitter.end()]) {
    for (const [i, line] of (run?.texts ?? []).entries()) {
      if (line.trim() === "") continue;
      const at = `${source.name}:${run!.first + i}`;
      const hint = jsonArrayHint(line, run!.first + i);
      const r = readJsonLine(line);
      if ("error" in r) {
        throw new IfevalInputError(
          `${at}: malformed JSON line ${quote(line)} (${r.error})${hint}`,
        );
      }
      if (typeof r.value !== "object" || r.value === null || Array.isArray(r.value)) {
        throw new IfevalInputError(`${at}: expected a JSON object, got ${quote(line)}${hint}`);
      }
      yield [r.value as Record<string, unknown>, run!.first + i];
    }
  }
}

/**
 * Reads IFEval's input file and builds each instruction's check.
 *
 * @param source The input file.
 * @returns The rows, in file order.
 * @throws {IfevalInputError} For a line that is not a JSON object, a missing or mistyped field, a
 * key given on an earlier line, kwargs whose count differs from the instructions', or an
 * instruction that cannot be built; the message names the file, line and key.
 * @throws {TypeError} When the source is not `{ name, text }` with two strings.
 * @example One prompt
 * ```ts
 * import { readIfevalInput } from "@assay/assay/ifeval";
 * import { strictEqual } from "node:assert/strict";
 *
 * const text = '{"key": 7, "prompt": "Say hi.", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}\n';
 * const rows = readIfevalInput({ name: "input.jsonl", text });
 * strictEqual(rows[0]!.checks[0]!("hi, you"), false);
 * ```
 */
export function readIfevalInput(source: IfevalSource): IfevalInputRow[] {
  const rows: IfevalInputRow[] = [];
  // Reports and comparisons join prompts by key: a key given twice would pair the wrong prompts.
  const firstLine = new Map<number, number>();
  for (const [o, line] of jsonObjects(source)) {
    const at = `${source.name}:${line}`;
    const key = o.key;
    if (key === undefined) throw new IfevalInputError(`${at}: "key" is missing`);
    if (typeof key !== "number" || !Number.isInteger(key)) {
      throw new IfevalInputError(`${at}: "key" must be an integer, got ${shown(key)}`);
    }
    if (!Number.isSafeInteger(key)) {
      // Two keys past 2^53 may read as one double: refused, not taken as a repeat.
      throw new IfevalInputError(`${at}: "key" must be an integer of at most 2^53 in size`);
    }
    const first = firstLine.get(key);
    if (first !== undefined) {
      throw new IfevalInputError(`${at}: key ${key} again (line ${first})`);
    }
    firstLine.set(key, line);
    const where = `${at} (key ${key})`;
    checkPrompt(o, where);
    const ids = o.instruction_id_list;
    const kwargs = o.kwargs;
    const checks = ids.map((id, i) => buildCheck(id, kwargs[i]!, { where }));
    rows.push({ key, prompt: o.prompt, instruction_id_list: ids, kwargs, line, checks });
  }
  return rows;
}

/** A prompt as a harness may rewrite it by mistake: NFC, its whitespace runs one space, stripped. */
const loosely = (prompt: string) => pySplit(prompt.normalize("NFC")).join(" ");

/**
 * A response line's prompt: its `prompt`, or that of its `key` in the input; given both, they must
 * name the same prompt.
 */
function promptOf(
  o: Record<string, unknown>,
  at: string,
  byKey: ReadonlyMap<number, IfevalInputRow>,
  inputName: string,
): string {
  if (o.key !== undefined) {
    const row = typeof o.key === "number" ? byKey.get(o.key) : undefined;
    if (row === undefined) {
      throw new IfevalInputError(
        `${at}: key ${shown(o.key)} is not a key of ${inputName}` +
          (typeof o.key === "number" ? "" : " (its keys are numbers)"),
      );
    }
    if (o.prompt === undefined) return row.prompt;
    if (o.prompt !== row.prompt) {
      throw new IfevalInputError(
        `${at} (key ${row.key}): the prompt is not the one of key ${row.key} ` +
          `(${inputName}:${row.line}): ${
            typeof o.prompt === "string" ? quote(o.prompt) : shown(o.prompt)
          }`,
      );
    }
  }
  if (o.prompt === undefined) {
    throw new IfevalInputError(`${at}: "prompt" is missing (give the prompt, or its "key")`);
  }
  if (typeof o.prompt !== "string") throw new IfevalInputError(`${at}: "prompt" must be a string`);
  return o.prompt;
}

/**
 * Reads a responses file and matches each response to its input prompt.
 *
 * @param source The responses file: `prompt` and `response` per line, as IFEval's script reads
 *   it; or `key` and `response`, the key standing for its input prompt (given both, the prompt
 *   must be the key's).
 * @param inputs The input rows.
 * @param inputName The input file's name, where a prompt without a response is named
 *   (`input` when absent).
 * @returns The response of each input, in input order.
 * @throws {IfevalInputError} For a line that is not a JSON object, a missing or mistyped field, a
 * key not in the input or whose prompt is not the line's, a response whose prompt is not in the
 * input (naming the input prompt it differs from only in
 * whitespace or Unicode normalization, if one does), a prompt given again with another response (IFEval's
 * dictionary would keep the last and score it for every line of that prompt), or an input prompt
 * without a response (named at its line of the input file, the first one, with how many lack one).
 * @throws {TypeError} When the source is not `{ name, text }` with two strings.
 * @example Matching by prompt
 * ```ts
 * import { readIfevalInput, readIfevalResponses } from "@assay/assay/ifeval";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const inputs = readIfevalInput({
 *   name: "input.jsonl",
 *   text: '{"key": 1, "prompt": "P", "instruction_id_list": [], "kwargs": []}\n',
 * });
 * const responses = readIfevalResponses(
 *   { name: "r.jsonl", text: '{"prompt": "P", "response": "R"}\n' },
 *   inputs,
 * );
 * deepStrictEqual(responses, ["R"]);
 * // or by the prompt's key
 * const byKey = { name: "r.jsonl", text: '{"key": 1, "response": "R"}\n' };
 * deepStrictEqual(readIfevalResponses(byKey, inputs), ["R"]);
 * ```
 */
export function readIfevalResponses(
  source: IfevalSource,
  inputs: readonly IfevalInputRow[],
  inputName = "input",
): string[] {
  const byText = new Map([...inputs].reverse().map((row) => [row.prompt, row]));
  const byKey = new Map(inputs.map((row) => [row.key, row]));
  const byPrompt = new Map<string, { response: string; line: number }>();
  for (const [o, line] of jsonObjects(source)) {
    const prompt = promptOf(o, `${source.name}:${line}`, byKey, inputName);
    const row = byText.get(prompt);
    if (row === undefined) {
      const near = inputs.find((row) => loosely(row.prompt) === loosely(prompt));
      throw new IfevalInputError(
        `${source.name}:${line}: prompt not in the input file` +
          (near === undefined ? "" : ` (it differs from the prompt of ${inputName}:${near.line} ` +
            `(key ${near.key}) only in whitespace or Unicode normalization)`) +
          `: ${quote(prompt)}`,
      );
    }
    const at = `${source.name}:${line} (key ${row.key})`;
    if (typeof o.response !== "string") {
      throw new IfevalInputError(
        `${at}: "response" ` +
          (o.response === undefined ? "is missing" : `must be a string, got ${shown(o.response)}`),
      );
    }
    const first = byPrompt.get(prompt);
    if (first !== undefined && first.response !== o.response) {
      throw new IfevalInputError(
        `${at}: the prompt of line ${first.line} again, with another response (IFEval would ` +
          `score only the last): ${quote(prompt)}`,
      );
    }
    if (first === undefined) byPrompt.set(prompt, { response: o.response, line });
  }
  const missing = inputs.filter((row) => !byPrompt.has(row.prompt));
  const first = missing[0];
  if (first !== undefined) {
    const at = `${inputName}:${first.line} (key ${first.key}): ${quote(first.prompt)}`;
    throw new IfevalInputError(
      `${source.name}: no response for ` +
        (missing.length === 1
          ? `the prompt of ${at}`
          : `${missing.length} of ${inputs.length} prompts; the first is ${at}`),
    );
  }
  return inputs.map((row) => byPrompt.get(row.prompt)!.response);
}

/**
 * Reads both files and evaluates every prompt strict and loose, as IFEval's evaluation_main.
 *
 * @param files The input and responses files.
 * @returns The run.
 * @throws {IfevalInputError} As {@linkcode readIfevalInput} and {@linkcode readIfevalResponses},
 * and if the input file holds no prompt.
 * @example A prompt followed loosely but not strictly
 * ```ts
 * import { runIfeval } from "@assay/assay/ifeval";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const run = runIfeval({
 *   input: {
 *     name: "input.jsonl",
 *     text: '{"key": 1, "prompt": "P", "instruction_id_list": ["startend:quotation"], "kwargs": [{}]}\n',
 *   },
 *   responses: { name: "r.jsonl", text: '{"prompt": "P", "response": "Sure:\\n\\"hi\\""}\n' },
 * });
 * deepStrictEqual(run.strict[0]!.follow_instruction_list, [false]);
 * deepStrictEqual(run.loose[0]!.follow_instruction_list, [true]);
 * ```
 */
export function runIfeval(files: { input: IfevalSource; responses: IfevalSource }): IfevalRun {
  const inputs = readIfevalInput(files.input);
  // A run without prompts has no score (its accuracies would be 0 of 0).
  if (inputs.length === 0) throw new IfevalInputError(`${files.input.name}: no prompt in the file`);
  const responses = readIfevalResponses(files.responses, inputs, files.input.name);
  return {
    inputs,
    strict: inputs.map((row, i) => evaluatePrompt(row, responses[i]!, "strict", row.checks)),
    loose: inputs.map((row, i) => evaluatePrompt(row, responses[i]!, "loose", row.checks)),
    blankResponses: responses.filter((r) => pyStrip(r) === "").length,
  };
}
