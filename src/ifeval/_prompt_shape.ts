// The shape of an IFEval prompt, checked where a prompt comes in: a line of the input file
// (files.ts) or a prompt given to evaluatePrompt or buildChecks (evaluate.ts).
import { IfevalInputError } from "./checkers.ts";

/** The fields checkPrompt checks. */
interface PromptFields {
  prompt: string;
  instruction_id_list: string[];
  kwargs: Record<string, unknown>[];
}

const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === "string");

/**
 * Checks a prompt's fields other than its key (a prompt line of IFEval's input file, or a prompt
 * given to `evaluatePrompt`): the prompt a string, the instruction ids a list of
 * strings, and one kwargs object per instruction.
 *
 * @throws {IfevalInputError} At `where`, naming the first field that is not so.
 */
export function checkPrompt(o: unknown, where: string): asserts o is PromptFields {
  if (typeof o !== "object" || o === null || Array.isArray(o)) {
    throw new IfevalInputError(`${where}: a prompt must be an object`);
  }
  const p = o as Record<string, unknown>;
  if (typeof p.prompt !== "string") {
    throw new IfevalInputError(`${where}: "prompt" must be a string`);
  }
  if (!isStrings(p.instruction_id_list)) {
    throw new IfevalInputError(`${where}: "instruction_id_list" must be a list of strings`);
  }
  const kwargs = p.kwargs;
  if (
    !Array.isArray(kwargs) ||
    !kwargs.every((k) => typeof k === "object" && k !== null && !Array.isArray(k))
  ) {
    throw new IfevalInputError(`${where}: "kwargs" must be a list of objects`);
  }
  if (kwargs.length !== p.instruction_id_list.length) {
    throw new IfevalInputError(
      `${where}: ${kwargs.length} kwargs for ${p.instruction_id_list.length} instructions`,
    );
  }
}
