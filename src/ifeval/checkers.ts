/**
 * IFEval's 25 registered checkers (`ifeval@google-3f357bde`), each built from its kwargs as
 * IFEval's `build_description(**kwargs)` builds it and deciding as its `check_following`.
 *
 * @module
 */
import { type CheckerSpec, CONTENT_CHECKS } from "./_content_checks.ts";
import { FORMAT_CHECKS } from "./_format_checks.ts";
import { Kwargs, KwargsProblem } from "./_kwargs.ts";
import { InputError, quote, suggestName } from "../jsonl/mod.ts";
import { checkOptions } from "../engine/mod.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** The checker semantics reproduced: IFEval's instructions.py at google-research 3f357bde. */
export const IFEVAL_VERSION = "ifeval@google-3f357bde";

const SPECS: Record<string, CheckerSpec> = { ...CONTENT_CHECKS, ...FORMAT_CHECKS };

/** The registered instruction ids, sorted. */
export const INSTRUCTION_IDS: readonly string[] = Object.keys(SPECS).sort();

/** Bad IFEval input: a malformed line, a response without its prompt, an unknown instruction id, or kwargs IFEval would reject or randomize. */
export class IfevalInputError extends InputError {
  /**
   * Creates the error.
   *
   * @param message What is wrong, naming the file, line and key where known.
   * @param options The underlying cause.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "IfevalInputError";
  }
}

/** A built instruction check: whether a response follows it. */
export type InstructionCheck = (response: string) => boolean;

/**
 * Builds one instruction's check from its id and kwargs.
 *
 * @param id The instruction id, such as `"punctuation:no_comma"`.
 * @param kwargs Its kwargs from the input file (`null` values count as missing).
 * @param options `where`: a location for messages, such as `input.jsonl:3 (key 1001)`.
 * @returns The check.
 * @throws {IfevalInputError} For an unknown id (naming the registered id it likely misspells), an
 * unexpected or mistyped kwarg, or a kwarg IFEval would draw at random (missing or negative
 * counts, a missing keyword).
 * @example Building two checks
 * ```ts
 * import { buildCheck } from "@assay/assay/ifeval";
 * import { strictEqual } from "node:assert/strict";
 *
 * const noComma = buildCheck("punctuation:no_comma", {});
 * strictEqual(noComma("Yes and no"), true);
 * const words = buildCheck("length_constraints:number_words", { num_words: 3, relation: "less than" });
 * strictEqual(words("one two"), true);
 * strictEqual(words("one two three"), false);
 * ```
 */
export function buildCheck(
  id: string,
  kwargs: Readonly<Record<string, unknown>>,
  options: { where?: string } = {},
): InstructionCheck {
  checkOptions(options);
  checkOptionNames("buildCheck", options, { where: 1 });
  const where = options.where ? `${options.where}: ` : "";
  const spec = Object.hasOwn(SPECS, id) ? SPECS[id] : undefined;
  if (!spec) {
    const near = suggestName(id, INSTRUCTION_IDS);
    throw new IfevalInputError(
      `${where}unknown instruction id ${quote(id)}` + (near ? ` (did you mean "${near}"?)` : ""),
    );
  }
  try {
    return spec.build(new Kwargs(kwargs, spec.kwargs));
  } catch (e) {
    if (e instanceof KwargsProblem) {
      throw new IfevalInputError(`${where}${id}: ${e.message}`, { cause: e });
    }
    throw e;
  }
}
