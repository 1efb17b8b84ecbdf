// Input and output for the CLI: a file or stdin in, a file (written atomically) or stdout out.
import { InputError } from "./_errors.ts";
import { type Line, type LineRun, readLineRuns, readLines } from "../src/jsonl/mod.ts";

/** Where lines come from, for messages. */
export interface Source {
  name: string;
  lines: AsyncGenerator<Line>;
}

/** Sees every chunk of bytes as it is read (for digests and progress). */
export type Tap = (chunk: Uint8Array) => void;

/** Opens a file, or stdin for `-` or no path. */
export async function openSource(path: string | undefined): Promise<Source> {
  if (path === undefined || path === "-") {
    if (Deno.stdin.isTerminal()) {
      console.error("Reading from stdin (pass a file, or pipe input; --help for usage)");
    }
    return { name: "<stdin>", lines: readLines(Deno.stdin.readable) };
  }
  try {
    const file = await Deno.open(path, { read: true });
    return { name: path, lines: readLines(file.readable) };
  } catch (e) {
    throw new InputError(`Cannot open ${path}: ${e instanceof Error ? e.message : e}`, {
      cause: e,
    });
  }
}

/** Where runs of lines come from, for messages. */
export interface RunSource {
  name: string;
  runs: AsyncGenerator<LineRun>;
}

/**
 * Opens a file, or stdin for `-` or no path, to be read in large chunks: each chunk goes to `tap`
 * and the lines it completes come out as one run.
 */
export async function openRuns(path: string | undefined, tap?: Tap): Promise<RunSource> {
  if (path === undefined || path === "-") {
    if (Deno.stdin.isTerminal()) {
      console.error("Reading from stdin (pass a file, or pipe input; --help for usage)");
    }
    return { name: "<stdin>", runs: readLineRuns(Deno.stdin, tap) };
  }
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    throw new InputError(`Cannot open ${path}: ${e instanceof Error ? e.message : e}`, {
      cause: e,
    });
  }
  async function* runs(): AsyncGenerator<LineRun> {
    try {
      yield* readLineRuns(file, tap);
    } finally {
      file.close();
    }
  }
  return { name: path, runs: runs() };
}

/** A buffered text sink. With a path, it writes to a temporary file and renames it on `close`. */
export class Sink {
  #encoder = new TextEncoder();
  #parts: string[] = [];
  #size = 0;
  #file: Deno.FsFile | undefined;
  #tmp: string | undefined;

  private constructor(readonly path: string | undefined) {}

  /** Opens stdout, or a temporary file beside `path`. */
  static async open(path: string | undefined): Promise<Sink> {
    const sink = new Sink(path);
    if (path !== undefined && path !== "-") {
      sink.#tmp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
      sink.#file = await Deno.open(sink.#tmp, { write: true, createNew: true });
    }
    return sink;
  }

  /** Queues one line. */
  async line(text: string): Promise<void> {
    this.#parts.push(text, "\n");
    this.#size += text.length + 1;
    if (this.#size >= 1 << 20) await this.flush();
  }

  /** Writes what is queued. */
  async flush(): Promise<void> {
    if (this.#parts.length === 0) return;
    const bytes = this.#encoder.encode(this.#parts.join(""));
    this.#parts = [];
    this.#size = 0;
    await writeAll(this.#file ?? Deno.stdout, bytes);
  }

  /** Flushes and, for a file, renames the temporary file into place. */
  async close(): Promise<void> {
    await this.flush();
    if (this.#file) {
      this.#file.close();
      await Deno.rename(this.#tmp!, this.path!);
    }
  }

  /** Drops a half-written file. */
  abort(): void {
    if (this.#file) {
      try {
        this.#file.close();
      } catch { /* already closed */ }
      try {
        Deno.removeSync(this.#tmp!);
      } catch { /* already gone */ }
    }
  }
}

/** Writes all of `bytes` to `w`. */
export async function writeAll(
  w: { write(p: Uint8Array): Promise<number> },
  bytes: Uint8Array,
): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await w.write(bytes.subarray(at));
}

/**
 * Writes a whole text (or its bytes, or its bytes in parts) to `path` atomically: a temporary file
 * beside it, then a rename.
 */
export async function writeAtomic(
  path: string,
  text: string | Uint8Array | readonly Uint8Array[],
): Promise<void> {
  const tmp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  try {
    const parts = typeof text === "string"
      ? [new TextEncoder().encode(text)]
      : text instanceof Uint8Array
      ? [text]
      : text;
    const file = await Deno.open(tmp, { write: true, createNew: true });
    try {
      for (const part of parts) await writeAll(file, part);
    } finally {
      file.close();
    }
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/** Collects lines into batches of at most `maxLines` lines or about `maxChars` characters. */
export async function* batches(
  lines: AsyncGenerator<Line>,
  maxLines = 2048,
  maxChars = 8 << 20,
): AsyncGenerator<Line[]> {
  let batch: Line[] = [];
  let chars = 0;
  for await (const line of lines) {
    batch.push(line);
    chars += line.text.length;
    if (batch.length >= maxLines || chars >= maxChars) {
      yield batch;
      batch = [];
      chars = 0;
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * The loop shared by the line-to-line commands: reads `input` (a file, or stdin) in batches,
 * turns each batch into output lines with `convert`, and writes them to `output` (a file written
 * atomically, or stdout). Lines that were not valid UTF-8 are counted and reported on stderr.
 */
export async function mapLines(
  input: string | undefined,
  output: string | undefined,
  convert: (batch: Line[], source: string) => string[],
): Promise<void> {
  const source = await openSource(input);
  const sink = await Sink.open(output);
  let invalid = 0;
  let firstInvalid = 0;
  try {
    for await (const batch of batches(source.lines)) {
      for (const line of batch) {
        if (line.invalidUtf8 && invalid++ === 0) firstInvalid = line.lineNo;
      }
      for (const text of convert(batch, source.name)) await sink.line(text);
    }
    await sink.close();
  } catch (e) {
    sink.abort();
    throw e;
  }
  if (invalid > 0) {
    console.error(
      `warning: ${invalid} line(s) of ${source.name} were not valid UTF-8 and were read with ` +
        `U+FFFD replacements (first: line ${firstInvalid})`,
    );
  }
}
