/**
 * Structured scoring from JSONL bytes: {@linkcode scoreStructuredJsonl} reads an outputs JSONL
 * (and, optionally, an expected JSONL and a JSON Schema) exactly, joins the expected rows by id,
 * computes the structured-output, tool and instruction metrics of `@assay/assay/structured`
 * overall and on each row, and returns the `assay.structured.v1` report with the bytes
 * `assay structured --out` writes. A bad row is a {@linkcode StructuredInputError} that names
 * and carries its file, line and id. Web APIs only; a decoder of `@assay/assay/formats` is passed
 * in, so this room does not load them.
 *
 * @example Score JSONL bytes
 * ```ts
 * import { scoreStructuredJsonl } from "@assay/assay/structured-jsonl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const outputs = new TextEncoder().encode(
 *   '{"id": "a", "output": "{\\"x\\": 1}"}\n{"id": "b", "output": "x = 1"}\n',
 * );
 * const { report } = await scoreStructuredJsonl({ outputs }, { metrics: ["json_validity"] });
 * strictEqual(report.metrics.json_validity?.value, 0.5);
 * strictEqual(report.rows[0]!.metrics.json_validity!.numerator, 1);
 * ```
 *
 * @module
 */
export * from "./errors.ts";
export * from "./report/mod.ts";
export * from "./score_structured_jsonl.ts";
