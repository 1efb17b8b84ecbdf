/**
 * SQL reference extraction for the trace metrics: which catalog views a statement reads.
 *
 * @module
 */
export * from "./sql_refs.ts";
