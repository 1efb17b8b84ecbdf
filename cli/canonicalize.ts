// `assay canonicalize`: one JSON text per line in, one canonical text or `!error` line out.
import { mapLines } from "./_io.ts";
import { parseLineCommand } from "./_options.ts";

const HELP = `Usage: deno task assay canonicalize [FILE] [--engine auto|wasm|ts] [--out FILE]

Reads one JSON text per line from FILE (or stdin, or '-') and writes, per line, its
canonical form: Python's json.dumps(json.loads(line), sort_keys=True,
separators=(",", ":"), ensure_ascii=True), byte for byte. A line that is not
accepted gives '!error <code> at <offset>' (offset in UTF-16 code units).

Options:
  --engine NAME   auto (default), wasm or ts; both give identical output
  --out FILE      write to FILE (atomically) instead of stdout
  -h, --help      show this help
`;

/** Runs `assay canonicalize`. */
export async function runCanonicalize(args: string[]): Promise<void> {
  const command = parseLineCommand(args, HELP);
  if (command === undefined) return;
  const { engine } = command;
  await mapLines(
    command.input,
    command.out,
    (batch) =>
      engine.canonicalizeBatch(batch.map((l) => l.text)).map((r) =>
        r.ok ? r.canonical : `!error ${r.error.code} at ${r.error.offset}`
      ),
  );
}
