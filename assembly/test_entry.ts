// The module the tests compile (build/build_wasm.ts TEST_ENTRY): every export of the shipped
// module, plus entry points that only tests call: one rule of the scoring kernel on one input
// (rules.ts), the address of the power-of-ten table (float_table.ts), and the multi-buffer
// SHA-256 (sha256_x4.ts), which the kernel calls inside for prompt digests.

export * from "./index";
export { ruleDropKind, ruleRecordLine, ruleScanLine, ruleScore } from "./rules";
export { pow10Table } from "./float_table";
export { sha256EqualsMany, sha256Many } from "./sha256_x4";
