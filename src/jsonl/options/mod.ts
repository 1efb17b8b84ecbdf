/**
 * The run-time check of option names, for the rooms outside the root: an options object given a
 * name the function does not take (`forScoring("anthropic", { number: "numeric" })`, a misspelt
 * `numbers`) ran as if the option were absent, a silent wrong number from JavaScript or an object
 * typed `any`. TypeScript refuses such a name in an object literal; this refuses it at run time,
 * with the closest name. Outside the root's exports, whose budget is spent (the root's functions
 * rely on TypeScript's check); the rooms above `jsonl` import it.
 *
 * @module
 */
import { suggestName } from "../suggest.ts";

/**
 * Refuses an own key of `options` that `known` does not list. `known` lists every option of the
 * type, each as `1`: as a `Record<keyof T, 1>` literal, TypeScript holds it to the type's names, so
 * that an option added to the type and not here does not type-check.
 *
 * @param fn The function's name, for the message.
 * @param options The options given (nothing is checked when it is not an object).
 * @param known Every option the function takes.
 * @throws {TypeError} `fn: unknown option "x" (did you mean "y"?)`, or with the options listed
 *   when none is close.
 *
 * @example
 * ```ts
 * import { checkOptionNames } from "./mod.ts";
 * import { throws } from "node:assert/strict";
 *
 * const known: Record<"numbers" | "engine", 1> = { numbers: 1, engine: 1 };
 * checkOptionNames("forScoring", { numbers: "exact" }, known);
 * // From JavaScript, or typed `any`: what TypeScript would have refused.
 * const given: object = { number: "exact" };
 * throws(() => checkOptionNames("forScoring", given, known), {
 *   name: "TypeError",
 *   message: 'forScoring: unknown option "number" (did you mean "numbers"?)',
 * });
 * ```
 */
export function checkOptionNames<T>(
  fn: string,
  options: T,
  known: Record<keyof NonNullable<T>, 1>,
): void {
  if (typeof options !== "object" || options === null) return;
  const names = Object.keys(known);
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(known, key)) continue;
    const near = suggestName(key, names);
    throw new TypeError(
      `${fn}: unknown option ${JSON.stringify(key)} ` +
        (near === undefined ? `(it takes ${names.join(", ")})` : `(did you mean "${near}"?)`),
    );
  }
}
