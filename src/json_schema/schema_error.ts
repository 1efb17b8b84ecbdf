/**
 * The error thrown when a JSON Schema cannot be compiled.
 *
 * @module
 */

/**
 * A schema that cannot be compiled: an unknown keyword, a malformed keyword value, an unresolvable
 * `$ref`, an invalid regular expression or an unsupported `$schema`. Carries the keyword and where
 * it is in the schema, as a JSON pointer.
 *
 * @example Catching an unknown keyword
 * ```ts
 * import { compileSchema, SchemaError } from "@assay/assay/json-schema";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * let caught: unknown;
 * try {
 *   compileSchema({ properties: { a: { minimun: 1 } } });
 * } catch (e) {
 *   caught = e;
 * }
 * assertEquals(caught instanceof SchemaError, true);
 * assertEquals((caught as SchemaError).keyword, "minimun");
 * assertEquals((caught as SchemaError).schemaLocation, "/properties/a/minimun");
 * ```
 */
export class SchemaError extends Error {
  /** The offending keyword, when there is one. */
  keyword: string | undefined;
  /** Where the problem is in the schema, as a JSON pointer (prefixed by a URI outside the root document). */
  schemaLocation: string;

  /**
   * Creates the error.
   *
   * @param message What is wrong.
   * @param keyword The offending keyword.
   * @param schemaLocation Where it is, as a JSON pointer.
   */
  constructor(message: string, keyword: string | undefined, schemaLocation: string) {
    super(`${message} at ${JSON.stringify(schemaLocation)}`);
    this.name = "SchemaError";
    this.keyword = keyword;
    this.schemaLocation = schemaLocation;
  }
}
