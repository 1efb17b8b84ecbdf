/**
 * Reading a report back a line at a time, so that one larger than a JavaScript string can hold
 * (about 512 MiB of text: a million examples with `--details`, or three million without) is still
 * read. Assay writes every report with a `records` list the way `formatReport` lays it out: the
 * report's other members first, `"records": [` on a line of its own, one record per line, `]` and
 * the closing brace. That layout is read here record by record; nothing else is.
 *
 * @module
 */
import { parseJson } from "../engine/mod.ts";
import { InputError, type Line } from "../jsonl/mod.ts";

// The lines formatReport writes around the records.
const OPEN = '  "records": [';
const CLOSE = "  ]";

/**
 * Parses a report from its lines, as `formatReport` lays it out: the members before `records`
 * and the closing brace as one JSON text, each record as a JSON text of its own line. A report
 * without a `records` list (or with an empty one) is parsed whole.
 *
 * @param lines The report's lines (for example `readLines` of its file), in order.
 * @param source The report's name in errors (a file name).
 * @param maxRest The most characters of the report outside its records list (default 2^28,
 *   268,435,456): that part is read whole, as one string.
 * @returns The parsed report.
 * @throws {InputError} If a record's line is not one JSON object (naming `source` and the line),
 *   the records list is not closed, the rest of the report is not JSON, or it is longer than
 *   `maxRest` (a report without a records list, as `assay structured` and `suite run` write,
 *   read past the limit: it ran the heap out, or was called not JSON).
 *
 * @example
 * ```ts
 * import { parseReportLines } from "@assay/assay/report-check";
 * import { formatReport } from "@assay/assay";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const report = { schema: "x", n: 2, records: [{ id: "a" }, { id: "b" }] };
 * const lines = formatReport(report).split("\n").map((text, i) => ({
 *   text,
 *   lineNo: i + 1,
 *   invalidUtf8: false,
 * }));
 * deepStrictEqual(await parseReportLines(lines, "r.json"), report);
 * ```
 */
export async function parseReportLines(
  lines: AsyncIterable<Line> | Iterable<Line>,
  source: string,
  maxRest: number = 256 << 20,
): Promise<unknown> {
  const rest: string[] = [];
  let restChars = 0;
  let records: unknown[] | undefined;
  let open = false;
  let last = 0;
  for await (const { text, lineNo } of lines) {
    last = lineNo;
    if (open) {
      if (text === CLOSE) {
        open = false;
        continue;
      }
      let record: unknown;
      try {
        record = parseJson(text.endsWith(",") ? text.slice(0, -1) : text);
      } catch (e) {
        throw new InputError(`${source}:${lineNo}: not a record of the report (${message(e)})`, {
          cause: e,
        });
      }
      if (typeof record !== "object" || record === null || Array.isArray(record)) {
        throw new InputError(`${source}:${lineNo}: a record of the report is not an object`);
      }
      records!.push(record);
    } else if (text === OPEN && records === undefined) {
      // The records come last: the rest is read with an empty list in their place.
      rest.push('  "records": []');
      records = [];
      open = true;
    } else {
      restChars += text.length + 1;
      if (restChars > maxRest) {
        throw new InputError(
          `${source}: more than ${maxRest} characters of the report lie outside a records list ` +
            `(read at line ${lineNo}); only an evaluation report's records are read a line at ` +
            "a time",
        );
      }
      rest.push(text);
    }
  }
  if (open) throw new InputError(`${source}:${last}: the report ends inside its records list`);
  let report: unknown;
  try {
    report = parseJson(rest.join("\n"));
  } catch (e) {
    throw new InputError(`${source} is not JSON: ${message(e)}`, { cause: e });
  }
  if (records !== undefined) {
    if (typeof report !== "object" || report === null || !("records" in report)) {
      throw new InputError(`${source}: its records list is not a member of the report`);
    }
    (report as { records: unknown }).records = records;
  }
  return report;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
