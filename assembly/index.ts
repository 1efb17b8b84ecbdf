// The Assay Wasm engine: span extraction, JSON acceptance, canonical text and
// flattened pairs over a batch of texts, in one call; and the paired bootstrap's
// resampling kernel. No imports.

export { prepare, reserveInput, run } from "./batch";
export { resampleDirect, resampleGrouped, resampleReserve } from "./bootstrap";
