// The units of a BFCL, IFEval, structured or suite run report that a person asks to see, as text:
// chosen by `ShowSelection` (a filter naming what the report lacks is refused, not read as "no
// unit matches"), each written by its kind, and a last line counting them.
import { suggestName } from "../jsonl/mod.ts";
import { type ExactField, readExactObject } from "../engine/mod.ts";
import type { ShowSelection } from "./show_selection.ts";
import { listedId, printableString, printableText, readableJson, textHead } from "./text/mod.ts";

/**
 * A detail keeps at most this many UTF-16 code units of the output (fewer when a surrogate pair, a
 * combining sequence or an emoji sequence straddles the cut: it is left out whole, see
 * `textHead`); its length and SHA-256 are whole.
 */
export const DETAIL_OUTPUT_CHARS = 2000;

/** One unit of a report: its id, the slices it is in, whether it failed, its text. */
export interface Unit {
  id: string;
  /** The id a gate names it by, when not `id` (`simple#14`, `g1@base`): `ids` select it too. */
  gateId?: string;
  slices: readonly string[];
  /** Whether the unit failed `metric` (undefined: the kind's default sense of failing). */
  fails: (metric: string | undefined) => boolean;
  /** Its lines, ending with a newline. */
  text: () => string;
}

/** What a kind's units are called, and which filters it takes. */
export interface UnitKind {
  /** One unit, and several (`entry`, `entries`). */
  unit: string;
  units: string;
  /** What an id names, when not a unit (`golden`, for suite runs). */
  idName?: string;
  /** The metrics `failing` may read; undefined when the kind takes no `metric`, for `why`. */
  metrics?: readonly string[];
  /** Why `metric` does not apply, when `metrics` is undefined. */
  noMetric?: string;
  /** What a slice is (`category`), and the report's; undefined when the kind has none. */
  slice?: { name: string; known: readonly string[] };
  /** Why `slice` does not apply, when `slice` is undefined. */
  noSlice?: string;
  /** A last note on what the report does not record, if anything. */
  note?: string;
  /** What holds the units, in the count (`report`, or `file` for BFCL's and IFEval's files). */
  holder?: string;
}

/** A word of the user's or the report's in a message: bare when plain, else quoted printable. */
export const word = (w: string) => /^[\w.:/@+-]{1,200}$/.test(w) ? w : printableString(cut(w));
const cut = (text: string) => textHead(text, DETAIL_OUTPUT_CHARS);

/**
 * Canonical JSON as a person reads it (`formatExample`, and the comparison page's examples):
 * readable, and past DETAIL_OUTPUT_CHARS code units cut as an output is (never inside a character,
 * `textHead`, nor after half an escape) with its length, so that a model's 100,000-character
 * argument is not one line of the terminal, or of the page, per place it is.
 */
export function shownJson(canonical: string): string {
  const text = readableJson(canonical);
  if (text.length <= DETAIL_OUTPUT_CHARS) return text;
  const head = cut(text).replace(/(?<!\\)((?:\\\\)*)\\(u[0-9a-f]{0,3})?$/, "$1");
  return `${head} … (${text.length} characters)`;
}

/**
 * Text of a report shown on one line: printable (`printableText`), and past
 * `DETAIL_OUTPUT_CHARS` code units cut (`textHead`) and followed by its length.
 */
export function shownText(text: string): string {
  const head = cut(text);
  const more = head.length < text.length ? ` … (${text.length} characters)` : "";
  return printableText(head) + more;
}

/** A value the report must hold but does not: the kind's malformed-report error. */
export function malformed(schema: string, what: string): RangeError {
  return new RangeError(`The ${schema} report is malformed: ${what}`);
}

// `no slice "jp" (did you mean ja? it has en, ja)`: the known words listed when they are few. A
// bare number is pointed at the unit named `line N` (a row or prompt without an id of its own).
function unknown(kind: UnitKind, what: string, given: string, known: readonly string[]): string {
  const line = /^[0-9]+$/.test(given) ? `line ${given}` : undefined;
  const near = line !== undefined && known.includes(line) ? line : suggestName(given, known);
  const hint = [
    near === undefined ? "" : `did you mean ${word(near)}?`,
    known.length <= 30 ? `it has ${known.map(word).join(", ")}` : `${known.length} ${kind.units}`,
  ].filter((x) => x !== "").join(" ");
  return `no ${what} ${printableString(cut(given))} (${hint})`;
}

/**
 * The text of the `units` of a report of `kind` that `selection` chooses, in the report's order:
 * each unit's lines, then a line counting those shown, chosen and in the report.
 */
export function showUnits(
  kind: UnitKind,
  units: readonly Unit[],
  selection: ShowSelection,
  source: string,
): string {
  const { failing, metric, slice, limit = Infinity } = selection;
  const refuse = (what: string) => new RangeError(`${source} ${what}`);
  if (limit !== Infinity && !(Number.isInteger(limit) && limit > 0)) {
    throw new RangeError(`limit must be a positive whole number, got ${limit}`);
  }
  if (metric !== undefined) {
    if (!failing) throw new RangeError("metric needs failing (it names what the units failed)");
    if (kind.metrics === undefined) throw refuse(kind.noMetric!);
    if (!kind.metrics.includes(metric)) {
      throw refuse(`has ${unknown(kind, "metric", metric, kind.metrics)}`);
    }
  }
  if (slice !== undefined) {
    if (kind.slice === undefined) throw refuse(kind.noSlice!);
    if (!kind.slice.known.includes(slice)) {
      throw refuse(`has ${unknown(kind, kind.slice.name, slice, kind.slice.known)}`);
    }
  }
  let ids: Set<string> | undefined;
  if (selection.ids) {
    const known = new Set(units.flatMap((u) => u.gateId === undefined ? [u.id] : [u.id, u.gateId]));
    ids = new Set(selection.ids.map((id) => listedId(id, known)));
    const absent = [...ids].filter((id) => !known.has(id));
    if (absent.length > 0) {
      throw refuse(
        `has ${unknown(kind, kind.idName ?? kind.unit, absent[0]!, [...known])}` +
          (absent.length > 1 ? `, nor ${absent.length - 1} more of the ids given` : ""),
      );
    }
  }
  const chosen = units.filter((u) =>
    (!failing || u.fails(metric)) &&
    (!ids || ids.has(u.id) || (u.gateId !== undefined && ids.has(u.gateId))) &&
    (slice === undefined || u.slices.includes(slice))
  );
  const shown = chosen.slice(0, limit);
  const parts = shown.map((u) => u.text());
  parts.push(
    (chosen.length === 0
      ? `No ${kind.unit} matches the filters given`
      : `${shown.length} of ${chosen.length} selected ${kind.units} shown`) +
      ` (${units.length} in the ${kind.holder ?? "report"})` + (kind.note ? `; ${kind.note}` : "") +
      "\n",
  );
  return parts.join("\n");
}

/** The fields of a JSON-lines text's first line, read exactly; undefined when it is no object. */
export function firstFields(text: string): Map<string, ExactField> | undefined {
  const fields = readExactObject(text.slice(0, text.indexOf("\n") >>> 0).trim());
  return fields instanceof Map ? fields : undefined;
}

/**
 * The non-blank lines of a JSON-lines text (BFCL's score file, IFEval's results), from line
 * `from` (0-based) on: each line's fields, read exactly, and its 1-based number. A line that is
 * not one object is a RangeError naming `source` and the line, and saying what it should be.
 */
export function* fieldLines(
  text: string,
  source: string,
  what: string,
  from = 0,
): Generator<[fields: Map<string, ExactField>, line: number]> {
  const lines = text.split("\n");
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    const fields = readExactObject(line);
    if (!(fields instanceof Map)) {
      throw new RangeError(`${source}:${i + 1}: not a JSON object: not ${what}`);
    }
    yield [fields, i + 1];
  }
}

/**
 * Messages as `  <label>: …` lines, each shown printable and cut (`shownText`): a list written as
 * JSON text (BFCL's `error`, `json.dumps` of a list of messages) one line per message, any other
 * text one line.
 */
export function messageLines(label: string, text: string): string {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch { /* not JSON: one message */ }
  const messages = Array.isArray(list) && list.length > 0
    ? list.map((m) => typeof m === "string" ? m : JSON.stringify(m))
    : [text];
  return messages.map((m) => `  ${label}: ${shownText(m)}\n`).join("");
}
