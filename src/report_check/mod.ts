/**
 * Checking a report read back from a file before a reader reads it: the fields each report kind's
 * readers rely on, so that a file edited by hand or cut short is bad input naming its first wrong
 * field, not a crash. Kept apart from the gate, whose rules read YAML and JSONC, so that every
 * reader can use it without loading those.
 *
 * @module
 */
export * from "./body.ts";
