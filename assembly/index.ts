// The Assay Wasm engine: span extraction, JSON acceptance, canonical text and
// flattened pairs over a batch of texts, in one call; and the paired bootstrap's
// resampling kernel. No imports.

export { prepare, reserveInput, run } from "./batch";
export { resampleDirect, resampleGrouped, resampleReserve } from "./bootstrap";
export {
  bailLine,
  chunkRows,
  DROPS,
  kCounts,
  kExamples,
  kFinish,
  kFreeze,
  kGenerations,
  kGold,
  kGoldLength,
  kInput,
  kLanguage,
  kLanguageLength,
  kNameLength,
  kPrompts,
  kQueue,
  kQueueCount,
  kRecordsLength,
  kRecordsText,
  kSetRecord,
  kStart,
  langCount,
  nextLine,
} from "./score";
