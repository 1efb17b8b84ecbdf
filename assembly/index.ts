// The Assay Wasm engine: span extraction, JSON acceptance, canonical text and
// flattened pairs over a batch of texts, in one call; the paired bootstrap's
// resampling kernel; and the scoring kernel. No imports. The tests compile
// test_entry.ts, which adds the entry points only they call.

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
export { DROPS } from "./score_entries";
export {
  kCounts,
  kDropped,
  kFinish,
  kLanguage,
  kLanguageCount,
  kLanguageLength,
  kRecords,
  kRecordsText,
  missingCount,
} from "./score_records";
