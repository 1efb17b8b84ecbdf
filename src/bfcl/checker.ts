/**
 * BFCL's AST checker, `bfcl.ast@2024-08`: one entry's verdict (decoding, output format, the
 * category's checker, relevance), and a category file's run, as BFCL's eval runner scores it.
 *
 * @module
 */
import { checkOptions } from "../engine/mod.ts";
import { InputError } from "../jsonl/mod.ts";
import { PyDict, type PyValue } from "./py_value.ts";
import { BFCL_DECODERS, type BfclDecoder, decodeResult } from "./decode.ts";
import { checkCalls, type Language } from "./_function_checker.ts";
import {
  answerProblem,
  checkCategory,
  checkIds,
  entryIdOf,
  idOf,
  questionProblem,
  readRows,
} from "./_rows.ts";
import { bfclModelSettings, checkDecoderFits } from "./models.ts";
import { checkResultShapes } from "./_result_shape.ts";
import type { BfclFiles, BfclSource } from "./files.ts";
import { checkModelOptions } from "./_options.ts";

/** The checker's version id. */
export const BFCL_CHECKER = "bfcl.ast@2024-08";

/** The AST categories of BFCL's 2024-08 release. */
export const BFCL_CATEGORIES = [
  "simple",
  "multiple_function",
  "parallel_function",
  "parallel_multiple_function",
  "java",
  "javascript",
  "relevance",
] as const;

/** One of {@linkcode BFCL_CATEGORIES}. */
export type BfclCategory = typeof BFCL_CATEGORIES[number];

/**
 * How parallel calls are matched to the answer's entries: `greedy` is BFCL's (each entry, in
 * order, takes the first unused call that passes it); `optimal` is a maximum bipartite matching,
 * whose verdict does not depend on the order of the entries or of the calls.
 */
export type BfclMatching = "greedy" | "optimal";

/** How to check: the category, the model's decoder and its handler's name rewrite. */
export interface BfclOptions {
  /** The test category. */
  category: BfclCategory;
  /**
   * How the model's results are decoded (for `checkBfclEntry`, default `fc`; for `checkBfcl`,
   * default the known model's, else `fc`: see `bfclModelSettings`).
   */
  decoder?: BfclDecoder;
  /**
   * Whether the model's handler wrote `.` as `_` in function names (for `checkBfclEntry`,
   * default false; for `checkBfcl`, default whether `modelName` is one of BFCL's
   * `UNDERSCORE_TO_DOT` models).
   */
  underscoreToDot?: boolean;
  /** The model's name, written into score lines (default `model`). */
  modelName?: string;
  /** How parallel calls are matched (default `greedy`, BFCL's). */
  matching?: BfclMatching;
}

/** One entry to check: the question line, its ground truth and the model's result. */
export interface BfclEntry {
  /** The question line (`{"id", "question", "function"}`); unused for relevance. */
  question: PyValue;
  /** The ground truth (`{name: {param: [choices]}}`); unused for relevance. */
  possibleAnswer?: PyValue;
  /** The `result` field of the model's result line. */
  result: PyValue;
}

/** One entry's verdict, with what BFCL writes about a failing entry. */
export interface BfclVerdict {
  /** Whether the entry passed. */
  valid: boolean;
  /** BFCL's error_type, when it failed. */
  errorType?: string;
  /** BFCL's error list, when it failed. */
  error: PyValue[];
  /** The decoded calls, when decoding succeeded. */
  decoded?: PyValue;
  /** With `optimal` matching: greedy matching's failure, on an entry that only optimal passes. */
  greedy?: { errorType?: string; error: PyValue[] };
}

const LANGUAGE: Record<string, Language> = { java: "Java", javascript: "JavaScript" };

/** Whether a decoded relevance result holds no call (BFCL's is_empty_output). */
function isEmpty(decoded: PyValue): boolean {
  if (!isCallList(decoded)) return true;
  const calls = decoded as PyValue[];
  return calls.length === 0 || (calls.length === 1 && (calls[0] as PyDict).size === 0);
}

/** BFCL's is_function_calling_format_output: a list of dicts. */
function isCallList(decoded: PyValue): boolean {
  return Array.isArray(decoded) && decoded.every((c) => c instanceof PyDict);
}

/**
 * Checks one entry as BFCL's eval runner does: decode the result (a failure is
 * `ast_decoder:decoder_failed`), require a list of calls
 * (`ast_decoder:decoder_wrong_output_format`), then the category's checker. For relevance, an
 * entry passes when decoding fails or gives no call (`relevance_error:decoder_success` else).
 *
 * @param entry The question, its ground truth and the model's result.
 * @param options The category, decoder, name rewrite and matching.
 * @returns The verdict, with BFCL's error_type when it fails (and, with `optimal` matching,
 * greedy matching's failure when only optimal matching passes it).
 * @throws {InputError} If the question or the ground truth is not of the category's shape in
 * BFCL's 2024-08 files (see {@linkcode checkBfcl}), where BFCL's checker would stop with an
 * exception; a bad model output is never an error, but a failing verdict.
 * @throws {RangeError} For a category, decoder or matching that is not one of theirs.
 * @throws {TypeError} For an `underscoreToDot` that is not a boolean or a `modelName` that is not
 *   a string.
 *
 * @example A wrong value fails with BFCL's error type
 * ```ts
 * import { checkBfclEntry, PyDict, PyInt } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const fn = new PyDict([["name", "math.factorial"], ["parameters", new PyDict([
 *   ["properties", new PyDict([["number", new PyDict([["type", "integer"]])]])],
 *   ["required", ["number"]],
 * ])]]);
 * const question = new PyDict([["function", fn]]);
 * const possibleAnswer = new PyDict([["math.factorial", new PyDict([["number", [new PyInt(5n)]]])]]);
 * const result = [new PyDict([["math_factorial", '{"number": 6}']])];
 * const v = checkBfclEntry({ question, possibleAnswer, result }, {
 *   category: "simple",
 *   underscoreToDot: true,
 * });
 * strictEqual(v.errorType, "value_error:others");
 * ```
 *
 * @example Optimal matching passes what BFCL's greedy matching misses
 * ```ts
 * import { checkBfclEntry, PyDict, PyInt } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const fn = new PyDict([["name", "f"], ["parameters", new PyDict([
 *   ["properties", new PyDict([["x", new PyDict([["type", "integer"]])]])],
 *   ["required", ["x"]],
 * ])]]);
 * const x = (...xs: number[]) => new PyDict([["x", xs.map((n) => new PyInt(BigInt(n)))]]);
 * // The first entry takes x=1, and greedy matching leaves the second with x=2.
 * const possibleAnswer = new PyDict([["f_1", x(1, 2)], ["f_2", x(1)]]);
 * const entry = {
 *   question: new PyDict([["function", fn]]),
 *   possibleAnswer,
 *   result: [new PyDict([["f", '{"x": 1}']]), new PyDict([["f", '{"x": 2}']])],
 * };
 * strictEqual(checkBfclEntry(entry, { category: "parallel_function" }).valid, false);
 * const optimal = checkBfclEntry(entry, { category: "parallel_function", matching: "optimal" });
 * strictEqual(optimal.valid, true);
 * strictEqual(optimal.greedy?.errorType, "parallel_function_checker_no_order:cannot_find_match");
 * ```
 */
export function checkBfclEntry(entry: BfclEntry, options: BfclOptions): BfclVerdict {
  checkBfclOptions(options, "checkBfclEntry");
  if (options.category !== "relevance") {
    const problem = questionProblem(entry.question, options.category) ??
      answerProblem(entry.possibleAnswer ?? null, options.category, entry.question);
    if (problem !== undefined) throw new InputError(`Bad ${options.category} entry: ${problem}`);
  }
  return checkEntry(entry, options);
}

// Options from JavaScript, unchecked by a compiler: an unknown decoder failed inside decoding, an
// unknown matching was read as greedy, in silence. Options left out have no category, named.
function checkBfclOptions(options: BfclOptions, fn: string): void {
  checkOptions(options);
  checkModelOptions(options, fn); // the names are checked by it (checkOptionNames), and the model's
  const { category, decoder, matching } = options ?? {};
  const known = (what: string, value: unknown, words: readonly string[], plural: string) => {
    if (words.includes(value as string)) return;
    throw new RangeError(
      `Unknown ${what} ${JSON.stringify(value)} (${plural}: ${words.join(", ")})`,
    );
  };
  known("category", category, BFCL_CATEGORIES, "categories");
  if (decoder !== undefined) known("decoder", decoder, BFCL_DECODERS, "decoders");
  if (matching !== undefined) known("matching", matching, ["greedy", "optimal"], "matchings");
}

/** checkBfclEntry of an entry whose question and ground truth are known to be of their shape. */
function checkEntry(entry: BfclEntry, options: BfclOptions): BfclVerdict {
  const language = LANGUAGE[options.category] ?? "Python";
  const decoded = decodeResult(entry.result, options.decoder ?? "fc", language);
  if (options.category === "relevance") {
    // Arguments nested past the JSON reader's 512 levels are read by Python's json.loads (to 992
    // in BFCL's runner), so BFCL decodes them: they count as a call, and a model earns no pass by
    // them. Deeper, json.loads raises, and decoding failed here as there.
    const noCall = decoded.ok ? isEmpty(decoded.value) : !decoded.nestedTooDeep;
    if (noCall) return { valid: true, error: [] };
    return {
      valid: false,
      errorType: "relevance_error:decoder_success",
      error: ["Valid syntax. Successfully decode AST when it should not."],
      decoded: decoded.ok ? decoded.value : undefined,
    };
  }
  if (!decoded.ok) {
    return {
      valid: false,
      errorType: "ast_decoder:decoder_failed",
      error: [`Invalid syntax. Failed to decode AST. ${decoded.reason}`],
    };
  }
  if (!isCallList(decoded.value)) {
    return {
      valid: false,
      errorType: "ast_decoder:decoder_wrong_output_format",
      error: [
        "Did not output in the specified format. Note: the model_result is wrapped in a string to ensure json serializability.",
      ],
      decoded: decoded.value,
    };
  }
  const docs = entry.question instanceof PyDict ? entry.question.get("function") ?? null : null;
  const verdict = checkCalls(
    docs,
    decoded.value as PyValue[],
    entry.possibleAnswer ?? null,
    options.category,
    {
      language,
      underscoreToDot: options.underscoreToDot ?? false,
      matching: options.matching ?? "greedy",
    },
  );
  return { ...verdict, decoded: decoded.value };
}

/** One checked entry of a run. */
export interface BfclRecord extends BfclVerdict {
  /** The entry's 1-based position (BFCL's score-file id). */
  id: number;
  /**
   * The entry's id in the result file (`simple_13`); for a result line without one, its
   * question's or answer's, else `line N`.
   */
  entryId: string;
  /** The question line; null for relevance. */
  prompt: PyValue;
  /** The ground truth; null for relevance. */
  possibleAnswer: PyValue;
  /** The result as published. */
  raw: PyValue;
}

/** A category's run: counts, accuracy and every entry's record. */
export interface BfclRun {
  /** The checker's version id. */
  checker: string;
  /** The category. */
  category: BfclCategory;
  /** The model's name. */
  modelName: string;
  /** How parallel calls were matched. */
  matching: BfclMatching;
  /** The decoder of the results, as given or derived from the model's name. */
  decoder: BfclDecoder;
  /** Whether expected names were compared with `.` written `_` (BFCL's `UNDERSCORE_TO_DOT`). */
  underscoreToDot: boolean;
  /** Entries that passed. */
  correct: number;
  /** Entries checked. */
  total: number;
  /** correct / total (0 for no entry). */
  accuracy: number;
  /** One record per entry, in file order. */
  records: BfclRecord[];
}

/**
 * Checks a category's files as BFCL's eval runner does, entry by entry in file order.
 *
 * @param files The questions, possible answers (both unused for relevance) and results.
 * @param options The category, decoder, name rewrite, model name and matching.
 * @returns The run: counts, accuracy and every entry's record.
 * @throws {InputError} If a line is not a JSON object, a result line has no `result`, an answer
 * line has no `ground_truth`, the result file is empty, the files' line counts differ, an id of
 * the form `<category>_<n>` names another category, a result's id repeats, or a line's ids differ
 * between the files (BFCL pairs them by position); or if a question or an answer is not of the
 * category's shape in BFCL's 2024-08 files: a question's `function` one function
 * `{name, parameters: {properties: {param: {type, [items: {type}]}}, required: [names]}}` with the
 * language's types (a list of them in the multiple categories), an answer's `ground_truth` an
 * object `{function_name: {param: [choices]}}` (BFCL v3's lists are named as such); or a result is
 * a provider's payload (an OpenAI completion, Anthropic blocks). Each names file, line and id.
 * @throws {BfclDecoderError} If the results are of another kind of model than the decoder reads
 * (`checkDecoderFits`): a prompting decoder on lists of calls, `fc` on text that reads as calls.
 * @throws {RangeError} For a category, decoder or matching that is not one of theirs.
 * @throws {TypeError} For an `underscoreToDot` that is not a boolean or a `modelName` that is not
 *   a string.
 *
 * @example A relevance file: prose passes, a call fails
 * ```ts
 * import { checkBfcl } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const text = '{"id": "relevance_0", "result": "No function fits."}\n' +
 *   '{"id": "relevance_1", "result": [{"f": "{}"}]}\n';
 * const run = checkBfcl({ results: { name: "r.json", text } }, { category: "relevance" });
 * strictEqual(`${run.correct}/${run.total}`, "1/2");
 * strictEqual(run.records[1]!.errorType, "relevance_error:decoder_success");
 * ```
 */
export function checkBfcl(files: BfclFiles, options: BfclOptions): BfclRun {
  checkBfclOptions(options, "checkBfcl");
  // Each file's rows, their ids' category checked first: a file of another category is named.
  const read = (src: BfclSource) => {
    const rows = readRows(src);
    checkCategory(src, rows, options.category, BFCL_CATEGORIES);
    return rows;
  };
  const results = read(files.results);
  // A run without entries has no score (its accuracy would be 0 of 0).
  if (results.length === 0) throw new InputError(`${files.results.name}: no entry in the file`);
  const relevance = options.category === "relevance";
  let questions: PyDict[] = [];
  let answers: PyDict[] = [];
  if (!relevance) {
    if (!files.questions || !files.answers) {
      throw new TypeError(`The ${options.category} category needs questions and answers`);
    }
    questions = read(files.questions);
    answers = read(files.answers);
  }
  const others = relevance
    ? []
    : [[files.questions!, questions], [files.answers!, answers]] as const;
  checkIds(files.results, results, others);
  checkResultShapes(files.results, results);
  // The decoder and name rewrite: as given, else the known model's; refused if the results are
  // of another kind of model.
  const given = options.decoder !== undefined;
  const ids = results.map((row, i) => entryIdOf(row, questions[i], answers[i]));
  options = { ...options, ...bfclModelSettings(options) };
  checkDecoderFits(files.results.name, results.map((row) => row.get("result")), {
    decoder: options.decoder!,
    given,
    language: LANGUAGE[options.category],
    relevance,
    ids,
  });
  const records: BfclRecord[] = results.map((row, i) => {
    const raw = row.get("result");
    if (raw === undefined) {
      throw new InputError(`${files.results.name}:${i + 1}: no "result" (id ${idOf(row)})`);
    }
    const possibleAnswer = relevance ? null : answers[i]!.get("ground_truth");
    if (possibleAnswer === undefined) {
      throw new InputError(
        `${files.answers!.name}:${i + 1}: no "ground_truth" (id ${idOf(answers[i]!)})`,
      );
    }
    const prompt = relevance ? null : questions[i]!;
    if (!relevance) {
      const bad = (src: BfclSource, line: PyDict, problem: string) =>
        new InputError(`${src.name}:${i + 1}: ${problem} (id ${idOf(line)})`);
      const question = questionProblem(prompt, options.category);
      if (question !== undefined) throw bad(files.questions!, questions[i]!, question);
      const answer = answerProblem(possibleAnswer, options.category, prompt);
      if (answer !== undefined) throw bad(files.answers!, answers[i]!, answer);
    }
    const v = checkEntry({ question: prompt, possibleAnswer, result: raw }, options);
    return { ...v, id: i + 1, entryId: ids[i] ?? `line ${i + 1}`, prompt, possibleAnswer, raw };
  });
  const correct = records.filter((r) => r.valid).length;
  return {
    checker: BFCL_CHECKER,
    category: options.category,
    modelName: options.modelName ?? "model",
    matching: options.matching ?? "greedy",
    decoder: options.decoder!,
    underscoreToDot: options.underscoreToDot!,
    correct,
    total: records.length,
    accuracy: records.length === 0 ? 0 : correct / records.length,
    records,
  };
}
