/**
 * A JSON Schema draft 2020-12 validator that is safe on the edge: synchronous, no runtime code
 * generation, schemas compiled once into closures.
 *
 * @example
 * ```ts
 * import { compileSchema } from "@assay/assay/json-schema";
 * import { strictEqual } from "node:assert/strict";
 *
 * const schema = compileSchema({ type: "object", required: ["a"] });
 * strictEqual(schema.validate({ a: 1 }).valid, true);
 * ```
 *
 * @module
 */
export * from "./json_schema.ts";
export * from "./schema_error.ts";
