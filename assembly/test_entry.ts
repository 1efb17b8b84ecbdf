// The module the tests compile (build/build_wasm.ts TEST_ENTRY): every export of the shipped
// module, plus entry points that only tests call: one rule of the scoring kernel on one input
// (rules.ts), and the address of the power-of-ten table (float_table.ts).

export * from "./index";
export { ruleDropKind, ruleRecordLine, ruleScanLine, ruleScore } from "./rules";
export { pow10Table } from "./float_table";
