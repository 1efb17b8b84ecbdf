/**
 * XML validity: the share of outputs that are well-formed XML 1.0 with exactly one root element.
 *
 * @example
 * ```ts
 * import { xmlValidity } from "@assay/assay/xml";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(xmlValidity(["<a/>", "<a>"]).value, 0.5);
 * ```
 *
 * @module
 */
export * from "./xml.ts";
