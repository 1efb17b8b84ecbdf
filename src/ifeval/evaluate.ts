/**
 * IFEval's strict and loose evaluations of one response per prompt, with the official output
 * rows (`eval_results_strict.jsonl`, `eval_results_loose.jsonl`).
 *
 * @module
 */
import { buildCheck, type InstructionCheck } from "./checkers.ts";
import { checkPrompt } from "./_prompt_shape.ts";
import { pyStrip } from "./_python_text.ts";
import { canonicalValue } from "../engine/mod.ts";

/** One prompt of IFEval's input file. */
export interface IfevalPrompt {
  /** The prompt's key. */
  key: number;
  /** The prompt text (responses are matched to prompts by it). */
  prompt: string;
  /** The instructions' ids. */
  instruction_id_list: string[];
  /** Each instruction's kwargs. */
  kwargs: Record<string, unknown>[];
}

/** The two evaluations: the response as given, or the best of eight relaxed variants. */
export type IfevalMode = "strict" | "loose";

/** One evaluated prompt, in the official output's fields. */
export interface IfevalResult {
  /** The instructions' ids. */
  instruction_id_list: string[];
  /** The prompt. */
  prompt: string;
  /** The response. */
  response: string;
  /** Whether every instruction is followed. */
  follow_all_instructions: boolean;
  /** Each instruction's verdict. */
  follow_instruction_list: boolean[];
}

/**
 * The variants loose evaluation tries, in IFEval's order: the response; it with every `*` removed;
 * it without its first line, its last line, or both (each stripped); and the `*`-removed form of
 * each of those three.
 *
 * @param response The response.
 * @returns The eight variants.
 * @throws {TypeError} Never for a string.
 * @example The eight variants
 * ```ts
 * import { looseVariants } from "@assay/assay/ifeval";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(looseVariants("Sure:\n*x*\nBye"), [
 *   "Sure:\n*x*\nBye", "Sure:\nx\nBye", "*x*\nBye", "Sure:\n*x*", "*x*", "x\nBye", "Sure:\nx", "x",
 * ]);
 * ```
 */
export function looseVariants(response: string): string[] {
  const lines = response.split("\n");
  const first = pyStrip(lines.slice(1).join("\n"));
  const last = pyStrip(lines.slice(0, -1).join("\n"));
  const both = pyStrip(lines.slice(1, -1).join("\n"));
  const bare = (s: string) => s.replaceAll("*", "");
  return [response, bare(response), first, last, both, bare(first), bare(last), bare(both)];
}

/** Whether a response follows a check in a mode (an all-blank response follows nothing). */
function follows(check: InstructionCheck, variants: readonly string[]): boolean {
  return variants.some((r) => pyStrip(r) !== "" && check(r));
}

/**
 * The built checks of a prompt's instructions.
 *
 * @param input The prompt.
 * @param where A location for messages, such as `input.jsonl:3`.
 * @returns One check per instruction.
 * @throws {IfevalInputError} When an instruction cannot be built.
 * @example Building a prompt's checks
 * ```ts
 * import { buildChecks } from "@assay/assay/ifeval";
 * import { strictEqual } from "node:assert/strict";
 *
 * const checks = buildChecks({
 *   key: 1, prompt: "p", instruction_id_list: ["punctuation:no_comma"], kwargs: [{}],
 * });
 * strictEqual(checks[0]!("a, b"), false);
 * ```
 */
export function buildChecks(input: IfevalPrompt, where?: string): InstructionCheck[] {
  const at = `${where ?? "input"} (key ${input?.key})`;
  checkPrompt(input, at);
  return input.instruction_id_list.map((id, i) =>
    buildCheck(id, input.kwargs[i] ?? {}, { where: at })
  );
}

/**
 * Evaluates one response against a prompt's instructions, as IFEval's
 * `test_instruction_following_strict` or `_loose`.
 *
 * @param input The prompt.
 * @param response The response.
 * @param mode `"strict"` or `"loose"`.
 * @param checks The prompt's built checks, when already built.
 * @returns The official result row.
 * @throws {IfevalInputError} When the prompt is malformed (its prompt, instruction ids or
 *   kwargs) or an instruction cannot be built.
 * @throws {TypeError} When the response is not a string.
 * @throws {RangeError} When the mode is neither `"strict"` nor `"loose"`.
 * @example Strict and loose
 * ```ts
 * import { evaluatePrompt } from "@assay/assay/ifeval";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const input = {
 *   key: 1,
 *   prompt: "Wrap it in quotes.",
 *   instruction_id_list: ["startend:quotation"],
 *   kwargs: [{}],
 * };
 * const response = 'Sure:\n"Hello"';
 * deepStrictEqual(evaluatePrompt(input, response, "strict").follow_instruction_list, [false]);
 * deepStrictEqual(evaluatePrompt(input, response, "loose").follow_instruction_list, [true]);
 * ```
 */
export function evaluatePrompt(
  input: IfevalPrompt,
  response: string,
  mode: IfevalMode,
  checks: readonly InstructionCheck[] = buildChecks(input),
): IfevalResult {
  // Any other mode read as loose would score a typo ("Strict") loosely, in silence.
  if (mode !== "strict" && mode !== "loose") {
    throw new RangeError(`mode must be "strict" or "loose", got ${showMode(mode)}`);
  }
  if (typeof response !== "string") {
    throw new TypeError(`The response must be a string, got ${typeof response}`);
  }
  const variants = mode === "strict" ? [response] : looseVariants(response);
  const list = checks.map((check) => follows(check, variants));
  return {
    instruction_id_list: input.instruction_id_list,
    prompt: input.prompt,
    response,
    follow_all_instructions: list.every((x) => x),
    follow_instruction_list: list,
  };
}

const showMode = (m: unknown) => typeof m === "string" ? JSON.stringify(m) : String(m);

/** Python's `json.dumps` of a string (ensure_ascii): the canonical form of the string. */
const pyString = (s: string): string => canonicalValue(s);

/**
 * One official output line, byte for byte as IFEval's `write_outputs` writes it (Python's
 * `json.dumps` with its default separators and `ensure_ascii`, fields in name order).
 *
 * @param result The result.
 * @returns The line, without its newline.
 * @throws {TypeError} Never for a result.
 * @example A row
 * ```ts
 * import { officialLine } from "@assay/assay/ifeval";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(
 *   officialLine({
 *     instruction_id_list: ["punctuation:no_comma"], prompt: "é", response: "ok",
 *     follow_all_instructions: true, follow_instruction_list: [true],
 *   }),
 *   '{"follow_all_instructions": true, "follow_instruction_list": [true], ' +
 *     '"instruction_id_list": ["punctuation:no_comma"], "prompt": "\\u00e9", "response": "ok"}',
 * );
 * ```
 */
export function officialLine(result: IfevalResult): string {
  const list = (xs: readonly (string | boolean)[]) =>
    `[${xs.map((x) => typeof x === "string" ? pyString(x) : String(x)).join(", ")}]`;
  return `{"follow_all_instructions": ${result.follow_all_instructions}, ` +
    `"follow_instruction_list": ${list(result.follow_instruction_list)}, ` +
    `"instruction_id_list": ${list(result.instruction_id_list)}, ` +
    `"prompt": ${pyString(result.prompt)}, "response": ${pyString(result.response)}}`;
}
