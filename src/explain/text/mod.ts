/**
 * Text for display, kept apart from the rest of `explain` so that what prints an id or a table
 * (the CLI, the gate's outputs) loads no more than it: printable text (`printableText`,
 * `printableLines`, `printableString`, `markdownText`, `readableJson`), where a long text is cut
 * (`textHead`, jsonl's, re-exported) and the columns a terminal gives a text (`displayWidth`).
 * `explain`'s `mod.ts` re-exports it.
 *
 * @example
 * ```ts
 * import { printableText } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(printableText("ex\u202e"), '"ex\\u202e"');
 * ```
 *
 * @module
 */
export * from "./printable.ts";
export { textHead } from "../../jsonl/mod.ts";
export * from "./display_width.ts";
