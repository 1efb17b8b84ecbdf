// The Assay Wasm engine: span extraction, JSON acceptance, canonical text and
// flattened pairs over a batch of texts, in one call; and the paired bootstrap's
// resampling kernel; and entry points that run one rule of the scoring kernel each, for its
// tests (rules.ts). No imports.

export { prepare, reserveInput, run } from "./batch";
export { resampleDirect, resampleGrouped, resampleReserve } from "./bootstrap";
export {
  chunkRows,
  invalidOutputs,
  kExamples,
  kFreeze,
  kGenerations,
  kInput,
  kPrompts,
  kStart,
  nextLine,
} from "./score";
export { bailLine } from "./score_common";
export { ruleDropKind, ruleRecordLine, ruleScanLine, ruleScore } from "./rules";
export { DROPS } from "./score_entries";
export {
  kCounts,
  kFinish,
  kLanguage,
  kLanguageCount,
  kLanguageLength,
  kRecords,
  kRecordsText,
} from "./score_records";
export { sha256EqualsMany, sha256Many } from "./sha256_x4";
export { pow10Table } from "./float_table";
