// The Assay Wasm engine: span extraction, JSON acceptance, canonical text and
// flattened pairs over a batch of texts, in one call. No imports.

export { prepare, reserveInput, run } from "./batch";
