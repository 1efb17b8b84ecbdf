// Input and output for the CLI: a file or stdin in, a file (written atomically) or stdout out,
// and the checks every command makes on its paths before it starts any work.
import { dirname } from "node:path";
import { InputError, UsageError } from "./_errors.ts";
import { type Line, readLines } from "../src/jsonl/mod.ts";
import { AtomicFile, reason, removeStaleTemp, tempPathFor } from "./_atomic.ts";

/** A path from the command line and what gave it: a flag such as `--out`, or a description. */
export type PathArgument = readonly [label: string | undefined, path: string | undefined];

function where(path: string, label: string | undefined): string {
  return label === undefined ? path : `${path} (${label})`;
}

/**
 * Checks that each input can be read before any work starts: it exists and is a file. `-` (stdin)
 * and absent paths pass.
 *
 * @throws {InputError} Naming the path and its flag, for a missing path or a folder.
 */
export function checkInputs(inputs: readonly PathArgument[]): void {
  for (const [label, path] of inputs) {
    if (path === undefined || path === "-") continue;
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(path);
    } catch (e) {
      throw new InputError(`Cannot read ${where(path, label)}: ${reason(e)}`, { cause: e });
    }
    if (info.isDirectory) {
      throw new InputError(`Cannot read ${where(path, label)}: it is a folder, not a file`);
    }
  }
}

/**
 * Checks that each output can be written before any work starts: the path is not a folder, and
 * its parent is an existing folder that accepts a new file (tried with the output's own temporary
 * file, created and removed at once, after a stale one a killed writer left is cleared). `-`
 * (stdout) and absent paths pass.
 *
 * @throws {UsageError} Naming the path and its flag.
 */
export function checkOutputs(outputs: readonly PathArgument[]): void {
  for (const [label, path] of outputs) {
    if (path === undefined || path === "-") continue;
    const at = `Cannot write ${where(path, label)}`;
    if (path === "" || /[/\\]$/.test(path)) throw new UsageError(`${at}: expected a file name`);
    let isFolder = false;
    try {
      isFolder = Deno.statSync(path).isDirectory;
    } catch { /* missing, or under a file: the parent's checks say which */ }
    if (isFolder) throw new UsageError(`${at}: it is a folder`);
    const parent = dirname(path);
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(parent);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) {
        throw new UsageError(`${at}: folder ${parent} does not exist`);
      }
      throw new UsageError(`${at}: ${reason(e)}`);
    }
    if (!info.isDirectory) throw new UsageError(`${at}: ${parent} is not a folder`);
    const probe = tempPathFor(path);
    try {
      removeStaleTemp(path);
      Deno.openSync(probe, { write: true, createNew: true }).close();
    } catch (e) {
      if (e instanceof UsageError) throw new UsageError(`${at}: ${e.message}`);
      throw new UsageError(`${at}: folder ${parent} does not accept new files (${reason(e)})`);
    }
    Deno.removeSync(probe);
  }
}

/** Where lines come from, for messages. */
export interface Source {
  name: string;
  lines: AsyncGenerator<Line>;
}

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

/** A buffered text sink: stdout, or a file written atomically and renamed into place on `close`. */
export class Sink {
  #encoder = new TextEncoder();
  #parts: string[] = [];
  #size = 0;
  #file: AtomicFile | undefined;

  private constructor(readonly path: string | undefined) {}

  /** Opens stdout, or the temporary file of `path`. */
  static async open(path: string | undefined): Promise<Sink> {
    const sink = new Sink(path);
    if (path !== undefined && path !== "-") sink.#file = await AtomicFile.create(path);
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
    if (this.#file) await this.#file.write(bytes);
    else await writeAll(Deno.stdout, bytes);
  }

  /** Flushes and, for a file, renames the temporary file into place. */
  async close(): Promise<void> {
    await this.flush();
    await this.#file?.commit();
  }

  /** Drops a half-written file. */
  abort(): void {
    this.#file?.abort();
  }
}

/** Writes all of `bytes` to `w`. */
export async function writeAll(
  w: { write(p: Uint8Array): Promise<number> },
  bytes: Uint8Array,
): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await w.write(bytes.subarray(at));
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
  checkInputs([[undefined, input]]);
  checkOutputs([["--out", output]]);
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
