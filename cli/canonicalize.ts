// `assay canonicalize`: one JSON text per line in, one canonical text or `!error` line out.
import { mapLines } from "./_io.ts";
import { parseLineCommand } from "./_options.ts";
import { linesKind } from "./_paths.ts";

const HELP = `Usage: deno task assay canonicalize [FILE] [--engine auto|wasm|ts] [--out FILE]
                                  [--force]

Reads one JSON text per line from FILE (or stdin, or '-') and writes, per line, its
canonical form: Python's json.dumps(json.loads(line), sort_keys=True,
separators=(",", ":"), ensure_ascii=True), byte for byte. A line that is not
accepted gives '!error <code> at <offset>' (offset in UTF-16 code units). Invalid
UTF-8 is an input error at its line and byte (exit 2).

Options:
  --engine NAME   auto (default), wasm or ts; both give identical output
  --out FILE      write to FILE (atomically) instead of stdout; FILE may not be the
                  input, and an existing FILE must be canonicalize output (or empty)
  --force         let --out replace a file that is not canonicalize output
  --max-line-bytes N   the longest input line, in bytes (default 67108864, 64 MiB);
                  a longer line is an input error
  -h, --help      show this help
`;

/** Runs `assay canonicalize`. */
export async function runCanonicalize(args: string[]): Promise<void> {
  const command = parseLineCommand(args, HELP);
  if (command === undefined) return;
  const { engine } = command;
  // What --out may replace: a file whose first line is an error line or canonical already.
  const kind = linesKind("assay canonicalize output", (line) => {
    if (line.startsWith("!error ")) return true;
    const r = engine.canonicalizeBatch([line])[0]!;
    return r.ok && r.canonical === line;
  });
  await mapLines(
    command,
    kind,
    (batch) =>
      engine.canonicalizeBatch(batch.map((l) => l.text)).map((r) =>
        r.ok ? r.canonical : `!error ${r.error.code} at ${r.error.offset}`
      ),
  );
}
