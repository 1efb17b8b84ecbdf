// `assay canonicalize`: one JSON text per line in, one canonical text or `!error` line out.
import { batches, openSource, Sink } from "./_io.ts";
import { engineFromFlag, parseOptions } from "./_options.ts";
import { UsageError } from "./_errors.ts";

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
  const { values, positionals } = parseOptions(args, {
    engine: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  if (positionals.length > 1) throw new UsageError("Expected at most one input file");
  const engine = engineFromFlag(values.engine);
  const source = await openSource(positionals[0]);
  const sink = await Sink.open(values.out);
  let invalidUtf8 = 0;
  let firstInvalid = 0;
  try {
    for await (const batch of batches(source.lines)) {
      const results = engine.canonicalizeBatch(batch.map((l) => l.text));
      for (let i = 0; i < batch.length; i++) {
        const r = results[i]!;
        if (batch[i]!.invalidUtf8 && invalidUtf8++ === 0) firstInvalid = batch[i]!.lineNo;
        await sink.line(r.ok ? r.canonical : `!error ${r.error.code} at ${r.error.offset}`);
      }
    }
    await sink.close();
  } catch (e) {
    sink.abort();
    throw e;
  }
  if (invalidUtf8 > 0) {
    console.error(
      `warning: ${invalidUtf8} line(s) of ${source.name} were not valid UTF-8 and were read with U+FFFD replacements (first: line ${firstInvalid})`,
    );
  }
}
