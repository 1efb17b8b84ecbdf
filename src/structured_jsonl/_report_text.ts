// The report of scoreStructuredJsonl with its rows' figures held in typed arrays: each row as an
// object when asked for, and the report's text in pieces of whole lines, as
// JSON.stringify(report, null, 2) + "\n" writes it, without the whole text or every row's object
// at once.
import type { StructuredReport, StructuredReportRow } from "./report/mod.ts";
import type { Figures } from "./_compute.ts";

/** The report's rows, held compactly. */
export interface CompactRows {
  /** Each row's 1-based line. */
  lines: readonly number[];
  /** Each row's id, if it has one. */
  ids: readonly (string | undefined)[];
  /** Each metric's figures on each row, in the report's order. */
  figures: readonly Figures[];
  /** The reasons of the rows (by index) whose predicted calls are invalid (none when absent). */
  reasons?: ReadonlyMap<number, readonly string[]>;
}

/** One metric's figures on one row. */
type Figure = StructuredReportRow["metrics"][string];

/** The most figure objects one walk of the rows shares (past it, each is made anew). */
const SHARED_FIGURES = 1 << 16;

/**
 * The report's rows, one object at a time. The figures of a metric on a row are an object
 * `{numerator, denominator}` that every row of this walk with the same two numbers shares, frozen:
 * as copies, the 13 metrics' objects took 520 of a row's 720 bytes of heap.
 */
export function* reportRows(rows: CompactRows): Generator<StructuredReportRow> {
  const shared = new Map<number, Map<number, Figure>>();
  let count = 0;
  const figure = (numerator: number, denominator: number): Figure => {
    const byDenominator = shared.get(numerator);
    const known = byDenominator?.get(denominator);
    if (known !== undefined) return known;
    const made = Object.freeze({ numerator, denominator });
    // A Map's keys do not tell -0 from 0.
    if (count >= SHARED_FIGURES || Object.is(numerator, -0) || Object.is(denominator, -0)) {
      return made;
    }
    if (byDenominator === undefined) shared.set(numerator, new Map([[denominator, made]]));
    else byDenominator.set(denominator, made);
    count++;
    return made;
  };
  for (let i = 0; i < rows.lines.length; i++) {
    const metrics: StructuredReportRow["metrics"] = {};
    for (const f of rows.figures) {
      metrics[f.metric] = figure(f.numerators.get(i), f.denominators.get(i));
    }
    const reasons = rows.reasons?.get(i);
    yield { line: rows.lines[i]!, id: rows.ids[i] ?? null, metrics, ...(reasons && { reasons }) };
  }
}

/**
 * About how many characters a piece of the report's text holds: few enough that a piece is a
 * young object of the heap, freed as soon as it is encoded.
 */
const PIECE = 1 << 14;

/** How many bytes a chunk of the report's bytes holds, at most (but for a longer piece). */
const CHUNK = 1 << 20;

/**
 * The text of a report whose head (`rows` empty, its last key) is `head`, in pieces that each end
 * with a line break: each row as JSON.stringify writes it two levels in.
 */
function* reportPieces(head: StructuredReport, rows: CompactRows): Generator<string> {
  const text = JSON.stringify(head, null, 2);
  const n = rows.lines.length;
  if (n === 0) {
    yield text + "\n";
    return;
  }
  // The head's text ends with `"rows": []` and the closing brace.
  yield text.slice(0, -"[]\n}".length) + "[\n";
  const opens = rows.figures.map((f) =>
    `        ${JSON.stringify(f.metric)}: {\n          "numerator": `
  );
  let piece = "";
  for (let i = 0; i < n; i++) {
    piece += `    {\n      "line": ${rows.lines[i]},\n      "id": ${
      JSON.stringify(rows.ids[i] ?? null)
    },\n      "metrics": {\n`;
    for (const [k, f] of rows.figures.entries()) {
      piece += `${opens[k]}${JSON.stringify(f.numerators.get(i))},\n          "denominator": ${
        JSON.stringify(f.denominators.get(i))
      }\n        }${k + 1 < rows.figures.length ? ",\n" : "\n"}`;
    }
    const reasons = rows.reasons?.get(i);
    // A row's reasons, after its metrics, only on the rows that have them.
    if (reasons !== undefined) {
      piece += `      },\n      "reasons": [\n${
        reasons.map((r) => `        ${JSON.stringify(r)}`).join(",\n")
      }\n      ]\n`;
    } else piece += "      }\n";
    piece += i + 1 < n ? "    },\n" : "    }\n";
    if (piece.length >= PIECE) {
      yield piece;
      piece = "";
    }
  }
  yield piece + "  ]\n}\n";
}

/** The report's bytes in chunks of whole lines (of about 1 MiB, but for a longer line). */
export function* reportChunks(head: StructuredReport, rows: CompactRows): Generator<Uint8Array> {
  const enc = new TextEncoder();
  let chunk = new Uint8Array(CHUNK);
  let used = 0;
  for (const piece of reportPieces(head, rows)) {
    // A UTF-16 unit takes at most three bytes.
    if (used > 0 && used + 3 * piece.length > CHUNK) {
      yield chunk.subarray(0, used);
      chunk = new Uint8Array(CHUNK);
      used = 0;
    }
    if (3 * piece.length > CHUNK) yield enc.encode(piece);
    else used += enc.encodeInto(piece, chunk.subarray(used)).written;
  }
  if (used > 0) yield chunk.subarray(0, used);
}

/** The report's bytes in one array (its chunks made twice: to measure them, then to copy them). */
export function reportBytes(head: StructuredReport, rows: CompactRows): Uint8Array {
  let size = 0;
  for (const chunk of reportChunks(head, rows)) size += chunk.length;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of reportChunks(head, rows)) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}
