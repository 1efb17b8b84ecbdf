/**
 * A JSON Schema draft 2020-12 validator that is safe on the edge: synchronous, no runtime code
 * generation, schemas compiled once into closures. It supports local and
 * `$id`-relative `$ref`, `$anchor`, `$dynamicRef`/`$dynamicAnchor`, `unevaluatedProperties`/
 * `unevaluatedItems`, and `format` as an annotation (asserted with `formatAssertion: true`).
 * Validation errors are data; a schema that cannot be compiled throws {@link SchemaError}.
 *
 * @example Validating tool arguments
 * ```ts
 * import { compileSchema } from "@assay/assay/json-schema";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const schema = compileSchema({
 *   type: "object",
 *   properties: { city: { type: "string", minLength: 1 } },
 *   required: ["city"],
 * });
 * assertEquals(schema.isValid({ city: "Oslo" }), true);
 * assertEquals(schema.validate({}).errors, [
 *   { keywordLocation: "/required", instanceLocation: "", message: 'Missing required property "city"' },
 * ]);
 * ```
 *
 * @module
 */

import { Compiler, KEYWORDS } from "./_compile.ts";
import { SchemaError } from "./schema_error.ts";
import {
  type Ctx,
  isStackOverflow,
  MAX_DEPTH,
  type Node,
  TooDeep,
  type ValidationError,
} from "./_runtime.ts";
import { checkOptions } from "../engine/mod.ts";

export type { ValidationError } from "./_runtime.ts";

/** Options for {@link compileSchema}. */
export interface SchemaOptions {
  /** Assert `format` (default `false`: `format` is an annotation only). Unknown formats always pass. */
  formatAssertion?: boolean;
  /**
   * What an unknown keyword in a compiled (reachable) subschema does: `"error"` (the default) throws
   * a {@link SchemaError}; `"ignore"` skips it.
   */
  unknownKeywords?: "error" | "ignore";
}

/** The outcome of validating one instance. */
export interface ValidationResult {
  /** Whether the instance is valid. */
  valid: boolean;
  /** Every error found (empty when valid). */
  errors: ValidationError[];
}

/** A compiled schema, reusable across instances. */
export interface CompiledSchema {
  /**
   * Validates an instance and collects every error.
   *
   * @param instance The instance (a JSON value).
   * @returns The verdict and the errors.
   */
  validate(instance: unknown): ValidationResult;
  /**
   * Validates an instance, stopping at the first error.
   *
   * @param instance The instance (a JSON value).
   * @returns Whether the instance is valid.
   */
  isValid(instance: unknown): boolean;
}

/**
 * The keywords this validator supports: every keyword of the draft 2020-12 vocabularies (core,
 * applicator, unevaluated, validation, meta-data, format-annotation, content).
 *
 * @example Checking a keyword
 * ```ts
 * import { SUPPORTED_KEYWORDS } from "@assay/assay/json-schema";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(SUPPORTED_KEYWORDS.includes("unevaluatedProperties"), true);
 * ```
 */
export const SUPPORTED_KEYWORDS: readonly string[] = Object.freeze([...KEYWORDS]);

const TOO_DEEP: ValidationError = Object.freeze({
  keywordLocation: "",
  instanceLocation: "",
  message: `Validation exceeds the call stack (the depth cap is ${MAX_DEPTH} nested subschemas)`,
});

/** The error of a validation that the depth cap or a stack overflow stopped; rethrows the rest. */
function stopped(e: unknown): ValidationError {
  if (e instanceof TooDeep) return e.error;
  if (!isStackOverflow(e)) throw e;
  return TOO_DEEP;
}

let metaschema: Node | undefined;

/**
 * Refuses a schema that the draft 2020-12 metaschema refuses, as Python's `check_schema` does (all
 * of it, `$defs` nothing references included); a schema nested past the depth cap is checked by
 * the keyword builders alone.
 */
function checkMetaschema(schema: unknown): void {
  metaschema ??= new Compiler({ formatAssertion: false, unknownKeywords: "error" })
    .compile({ $ref: "https://json-schema.org/draft/2020-12/schema" });
  const errs: ValidationError[] = [];
  try {
    if (
      metaschema.v(schema, { errs: null, scope: [] }, "", "", null, 0) ||
      metaschema.v(schema, { errs, scope: [] }, "", "", null, 0)
    ) return;
  } catch (e) {
    if (e instanceof TooDeep) return;
    throw e;
  }
  // The vocabularies' metaschemas name each keyword under their `properties`.
  const { keywordLocation, instanceLocation, message } = errs[0]!;
  const k = /.*\/properties\/([^/]+)/.exec(keywordLocation)?.[1];
  throw new SchemaError(
    `The value of ${k} is not what the draft 2020-12 metaschema allows: ${message}`,
    k,
    instanceLocation,
  );
}

/**
 * Compiles a draft 2020-12 schema into a reusable validator.
 *
 * @param schema The schema (an object or a boolean, as from `JSON.parse`).
 * @param options Whether to assert `format`, and what unknown keywords do.
 * @returns The compiled schema.
 * @throws {SchemaError} When the schema has an unknown keyword (by default), a keyword value the
 * draft 2020-12 metaschema refuses (anywhere in the schema, as Python's `check_schema` finds them),
 * an unresolvable `$ref`, an invalid regular expression or a `$schema` other than 2020-12.
 * @throws {TypeError} When an option has the wrong type.
 *
 * @example Errors as data, and the fast boolean path
 * ```ts
 * import { compileSchema } from "@assay/assay/json-schema";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const schema = compileSchema({ items: { type: "integer" } });
 * assertEquals(schema.isValid([1, 2.5]), false);
 * assertEquals(schema.validate([1, 2.5]).errors, [
 *   { keywordLocation: "/items/type", instanceLocation: "/1", message: "Expected integer, got number" },
 * ]);
 * ```
 */
export function compileSchema(schema: unknown, options: SchemaOptions = {}): CompiledSchema {
  checkOptions(options);
  const formatAssertion = options.formatAssertion ?? false;
  const unknownKeywords = options.unknownKeywords ?? "error";
  if (typeof formatAssertion !== "boolean") {
    throw new TypeError("Option formatAssertion must be a boolean");
  }
  if (unknownKeywords !== "error" && unknownKeywords !== "ignore") {
    throw new TypeError('Option unknownKeywords must be "error" or "ignore"');
  }
  const compiler = new Compiler({ formatAssertion, unknownKeywords });
  const root = compiler.compile(schema);
  checkMetaschema(schema);
  const fast: Ctx = { errs: null, scope: [] };
  return {
    validate(instance: unknown): ValidationResult {
      const errors: ValidationError[] = [];
      let valid: boolean;
      try {
        valid = root.v(instance, { errs: errors, scope: [] }, "", "", null, 0);
      } catch (e) {
        return { valid: false, errors: [stopped(e)] };
      }
      return { valid, errors: valid ? [] : errors };
    },
    isValid(instance: unknown): boolean {
      fast.scope.length = 0;
      fast.u = undefined; // the last instance's ids: it may have changed since
      try {
        return root.v(instance, fast, "", "", null, 0);
      } catch (e) {
        stopped(e);
        // The reused context is left as the throw found it: a $dynamicRef's scope, pushed.
        fast.errs = null;
        fast.scope.length = 0;
        return false;
      }
    },
  };
}
