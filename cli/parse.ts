// `assay parse`: JSONL of raw model outputs in, JSONL of parse results out.
import { jsonKind } from "../src/engine/mod.ts";
import { mapLines } from "./_io.ts";
import { parseLineCommand } from "./_options.ts";
import { InputError, quote } from "./_errors.ts";
import { readJsonLine, scanStrictObject } from "../src/jsonl/mod.ts";
import { linesKind } from "./_paths.ts";

const HELP = `Usage: deno task assay parse [FILE] [--engine auto|wasm|ts] [--pairs] [--out FILE]
                           [--force]

Reads JSONL from FILE (or stdin, or '-'). Each line is an object with a string
field "output" (a raw model output); "example_id" or "id", when present, is
copied to the result exactly: a string as the same string, any other value as
the line writes it (1.0, -0.0, 1e400, NaN and a 30-digit integer stay as they
are, so no two ids become one). Writes one JSON line per input line:

  {"example_id": ..., "status": "ok", "name": "get_weather", "canonical_arguments": "{...}"}

Invalid UTF-8 inside "output" is read with U+FFFD replacements (a warning counts
the lines); anywhere else in a line it is an input error at its line and byte.

status is ok, no_json, invalid_json or invalid_shape (parser assay.parser.v1);
name and canonical_arguments are null unless status is ok; invalid_json lines
carry "error": "<code> at <offset>". Blank lines are skipped.

Options:
  --engine NAME   auto (default), wasm or ts; both give identical output
  --pairs         add "pairs": the flattened [path, value] argument pairs
  --out FILE      write to FILE (atomically) instead of stdout; FILE may not be the
                  input, and an existing FILE must be parse output (or empty)
  --force         let --out replace a file that is not parse output
  --max-line-bytes N   the longest input line, in bytes (default 67108864, 64 MiB);
                  a longer line is an input error
  -h, --help      show this help
`;

const STATUSES = new Set(["ok", "no_json", "invalid_json", "invalid_shape"]);

/** What `parse --out` may replace: a file whose first line is a parse result. */
const PARSE_OUTPUT = linesKind("assay parse output", (line) => {
  // Read as the input is (an id may be NaN).
  const read = readJsonLine(line);
  if ("error" in read) return false;
  const row = read.value;
  if (typeof row !== "object" || row === null || Array.isArray(row)) return false;
  const r = row as Record<string, unknown>;
  return STATUSES.has(r.status as string) && "name" in r && "canonical_arguments" in r;
});

interface Row {
  /** The id field's name in the input (`example_id` or `id`), if any. */
  idKey: string | undefined;
  /** The id's JSON text: a string's own, any other value's as the line writes it. */
  idText: string | undefined;
  output: string;
}

function readRow(text: string, source: string, lineNo: number): Row {
  // The contract's reading of a JSONL line, as every other command reads one: NaN and Infinity
  // accepted, nesting past 512 and integers past 4,300 digits refused.
  const read = readJsonLine(text);
  if ("error" in read) {
    throw new InputError(`${source}:${lineNo}: malformed JSON line ${quote(text)} (${read.error})`);
  }
  const row = read.value;
  if (typeof row !== "object" || row === null || Array.isArray(row)) {
    throw new InputError(`${source}:${lineNo}: expected a JSON object, got ${quote(text)}`);
  }
  const r = row as Record<string, unknown>;
  const idKey = Object.hasOwn(r, "example_id")
    ? "example_id"
    : Object.hasOwn(r, "id")
    ? "id"
    : undefined;
  // A string id is the same string; any other id, the text the line writes (scanStrictObject's),
  // where a JavaScript value would change 1.0, -0.0, 1e400 or a 30-digit integer, or merge two.
  const idText = idKey === undefined
    ? undefined
    : typeof r[idKey] === "string"
    ? JSON.stringify(r[idKey])
    : scanStrictObject(text, [idKey])?.[0];
  if (idKey !== undefined && idText === undefined) {
    // Only a line with a number of more than 4,300 integer digits (with a fraction) gets here.
    throw new InputError(
      `${source}:${lineNo}: field "${idKey}" is not a string, and the line holds a number too ` +
        "long to copy it exactly: give the id as a string",
    );
  }
  const where = `${source}:${lineNo}${idKey ? ` (${idKey} ${idText})` : ""}`;
  if (!Object.hasOwn(r, "output")) throw new InputError(`${where}: missing field "output"`);
  if (typeof r.output !== "string") {
    throw new InputError(`${where}: field "output" must be a string, got ${jsonKind(r.output)}`);
  }
  return { idKey, idText, output: r.output };
}

/** Runs `assay parse`. */
export async function runParse(args: string[]): Promise<void> {
  const command = parseLineCommand(args, HELP, true);
  if (command === undefined) return;
  const { engine, pairs } = command;
  await mapLines(command, PARSE_OUTPUT, (batch, source) => {
    const rows = batch.filter((l) => l.text.trim() !== "").map((l) =>
      readRow(l.text, source, l.lineNo)
    );
    const results = engine.parseToolCallBatch(rows.map((r) => r.output), {
      arguments: false,
      pairs,
    });
    return rows.map((row, i) => {
      const r = results[i]!;
      const out: Record<string, unknown> = {};
      out.status = r.status;
      out.name = r.name ?? null;
      out.canonical_arguments = r.canonicalArguments ?? null;
      if (pairs) out.pairs = r.pairs ? r.pairs.map((p) => [p.path, p.value]) : null;
      if (r.error) out.error = `${r.error.code} at ${r.error.offset}`;
      // The id's text goes in as it is: a JavaScript value would change 1.0, 1e400 or NaN.
      const line = JSON.stringify(out);
      return row.idKey === undefined
        ? line
        : `{${JSON.stringify(row.idKey)}:${row.idText},${line.slice(1)}`;
    });
  }, ["output"]);
}
