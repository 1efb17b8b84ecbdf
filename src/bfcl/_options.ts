// The options of checkBfcl and checkBfclEntry from JavaScript, unchecked by a compiler: their
// names, and the model's name and name rewrite (the category, decoder and matching are checked
// against their lists in checker.ts).
import type { BfclOptions } from "./checker.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** Refuses an option name they do not take, and a modelName or underscoreToDot of another type. */
export function checkModelOptions(options: BfclOptions, fn: string): void {
  checkOptionNames(fn, options, {
    decoder: 1,
    modelName: 1,
    underscoreToDot: 1,
    category: 1,
    matching: 1,
  });
  const { underscoreToDot, modelName } = options ?? {};
  // "no" was read as true (and recorded as "no", which checkReport refuses).
  if (underscoreToDot !== undefined && typeof underscoreToDot !== "boolean") {
    throw new TypeError(
      `Option underscoreToDot must be true or false, got ${typeof underscoreToDot}`,
    );
  }
  if (modelName !== undefined && typeof modelName !== "string") {
    throw new TypeError(`Option modelName must be a string, got ${typeof modelName}`);
  }
}
