/**
 * Reading a report back from a file: its bytes or text whole, refused with a named error unless
 * it is a report of the kinds a reader takes (`checkReport(parseReportJson(bytes, name), name,
 * schemas)`); its text a line at a time, for reports larger than a JavaScript string can hold
 * (`parseReportLines`); and the fields each report kind's readers rely on, so that a file edited
 * by hand or cut short is bad input naming its first wrong field, not a crash (`checkReportBody`). Kept apart from the gate, whose rules read YAML and JSONC, so that
 * every reader can use it without loading those.
 *
 * @module
 */
export * from "./body.ts";
export * from "./lines.ts";
export * from "./inputs.ts";
export * from "./report.ts";
export * from "./unscored.ts";
