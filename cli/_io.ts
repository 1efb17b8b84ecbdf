// Input and output for the CLI: a file or stdin in, a file (written atomically) or stdout out.
import { InputError, stdoutError } from "./_errors.ts";
import { decodeUtf8, type Line, LineTooLongError, readLines } from "../src/jsonl/mod.ts";
import { DECOMPRESSED } from "../src/jsonl/source/mod.ts";
import { AtomicFile } from "./_atomic.ts";
import { checkPaths, type OutputKind } from "./_paths.ts";

/** Where lines come from, for messages. */
export interface Source {
  name: string;
  lines: AsyncGenerator<Line>;
}

/**
 * Opens a file, or stdin for `-` or no path, decompressed when it is gzip
 * ({@linkcode decompressed}). Invalid UTF-8 is an input error at its line and byte, but inside the
 * string values of `modelFields` (model output: U+FFFD, and the line is flagged).
 */
export async function openSource(
  path: string | undefined,
  options: { modelFields?: readonly string[]; maxLineBytes?: number } = {},
): Promise<Source> {
  const name = inputName(path ?? "-");
  const chunks = decompressed(streamChunks(await openRaw(path ?? "-"), name), name);
  return { name, lines: readLines(ReadableStream.from(chunks), { ...options, source: name }) };
}

/** A file's stream, or stdin's for `-` (saying so when stdin is a terminal). */
async function openRaw(path: string): Promise<ReadableStream<Uint8Array>> {
  if (path !== "-") return (await openFile(path)).readable;
  stdinNotice();
  return Deno.stdin.readable;
}

/**
 * Opens a file to read.
 *
 * @throws {InputError} Naming the file, when it cannot be opened.
 */
export async function openFile(path: string): Promise<Deno.FsFile> {
  try {
    return await Deno.open(path, { read: true });
  } catch (e) {
    throw new InputError(`Cannot open ${path}: ${e instanceof Error ? e.message : e}`, {
      cause: e,
    });
  }
}

/**
 * A source the library is to read as it is: its chunks are {@linkcode decompressed}'s, every gzip
 * member read already, so that a file compressed twice is not decompressed a second time.
 */
export function asDecompressed<T extends object>(source: T): T {
  return Object.assign(source, { [DECOMPRESSED]: true });
}

/** Whether bytes start with gzip's magic number (1f 8b). */
function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** An input as messages name it: its name, and its flag when given (`r.json.gz (--result)`). */
const named = (name: string, flag: string | undefined) => flag ? `${name} (${flag})` : name;

/** An input whose gzip data is corrupt or cut short, named with its flag. */
function corruptGzip(name: string, flag: string | undefined, e: unknown): InputError {
  const why = e instanceof Error ? e.message : String(e);
  return new InputError(
    `${named(name, flag)} is gzip-compressed, and its gzip data is corrupt, cut short or ` +
      `followed by bytes that are not gzip (${why})`,
    { cause: e },
  );
}

/**
 * The chunks of an input as the commands read them: gzip-compressed bytes (BFCL's `.json.gz`, a
 * `.jsonl.gz` from a harness) decompressed, every member of a multi-member file as `gunzip` reads
 * them, and other bytes passed on as they come. Whether an input is compressed is told by its
 * first two bytes, not by its name. The reports' digests are then those of the decompressed
 * bytes, what was scored, so a report is the same whether its inputs were compressed or not.
 *
 * `chunks` may reuse one buffer (each chunk is used before the next is asked for).
 *
 * @throws {InputError} When the gzip data is corrupt, cut short or followed by other bytes.
 */
export async function* decompressed(
  chunks: AsyncIterable<Uint8Array>,
  name: string,
  flag?: string,
): AsyncGenerator<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  // The first bytes, held (copied: the buffer may be reused) until there are two to look at.
  let head: Uint8Array = new Uint8Array(0);
  for (;;) {
    const r = await it.next();
    if (r.done) {
      if (head.length > 0) yield head;
      return;
    }
    if (head.length === 0 && r.value.length >= 2) {
      head = r.value;
      break;
    }
    const joined = new Uint8Array(head.length + r.value.length);
    joined.set(head);
    joined.set(r.value, head.length);
    head = joined;
    if (head.length >= 2) break;
  }
  if (!isGzip(head)) {
    yield head;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    return;
  }
  yield* gunzipped(head, it, name, flag);
}

/**
 * The decompressed chunks of gzip data: `head`, then the rest of `it`. Apart from `decompressed`,
 * and with no closure over `head`, so that no finished generator, which the reader may still refer
 * to, holds a first chunk (and the 4 MiB buffer it may be a view of).
 */
async function* gunzipped(
  head: Uint8Array,
  it: AsyncIterator<Uint8Array>,
  name: string,
  flag: string | undefined,
): AsyncGenerator<Uint8Array> {
  // node:zlib reads every member, as gunzip does; Deno's DecompressionStream stops with an error
  // at a second member.
  const { createGunzip } = await import("node:zlib");
  const gunzip = createGunzip();
  const fed = feed(gunzip, head, it, name, flag);
  try {
    for await (const chunk of gunzip) yield chunk as Uint8Array;
    await fed;
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw corruptGzip(name, flag, e);
  } finally {
    gunzip.destroy();
  }
}

/**
 * Writes `head`, then the rest of `it`, into `gunzip`, a chunk at a time (each copied: node:zlib
 * may read a chunk once the next is in), and ends it; or destroys it with the error. node:zlib
 * stops, without a word, at a zero byte after a member, and in Deno starts again at the next
 * chunk: where it stops, the bytes it leaves and all that follow must be zeros, the padding that
 * gunzip reads as the end; any other byte there is refused, as gunzip warns of "trailing garbage"
 * and exits 2 (an InputError naming the input).
 */
async function feed(
  gunzip: import("node:zlib").Gunzip,
  head: Uint8Array,
  it: AsyncIterator<Uint8Array>,
  name: string,
  flag: string | undefined,
): Promise<void> {
  try {
    let offered = 0;
    let read = 0;
    let padding = false;
    for (let chunk: Uint8Array | undefined = head; chunk !== undefined;) {
      let rest = chunk;
      if (!padding && chunk.length > 0) {
        offered += chunk.length;
        const copy = chunk.slice();
        await new Promise<void>((resolve, reject) =>
          gunzip.write(copy, (e) => e ? reject(e) : resolve())
        );
        // The bytes at the end of this chunk that zlib left.
        rest = chunk.subarray(chunk.length - (offered - gunzip.bytesWritten));
        padding = rest.length > 0;
      }
      const garbage = rest.findIndex((b) => b !== 0);
      if (garbage >= 0) {
        const at = read + chunk.length - rest.length + garbage;
        throw corruptGzip(
          name,
          flag,
          `byte ${at} follows a member and zero bytes: trailing garbage`,
        );
      }
      read += chunk.length;
      const r = await it.next();
      chunk = r.done ? undefined : r.value;
    }
    gunzip.end();
  } catch (e) {
    gunzip.destroy(e instanceof Error ? e : new Error(String(e)));
  }
}

/**
 * A whole input's bytes, decompressed when they are gzip ({@linkcode decompressed}).
 *
 * @param bytes The bytes as read.
 * @param limit The most bytes the decompressed input may have (default 1 GiB): a small file can
 *   hold a much larger one, which would otherwise exhaust memory.
 * @param hint Said after the error of an input over `limit`.
 * @throws {InputError} When the gzip data is corrupt, or decompresses to more than `limit`.
 */
export async function decompressWhole(
  bytes: Uint8Array,
  name: string,
  flag?: string,
  limit = 1 << 30,
  hint = "",
): Promise<Uint8Array> {
  if (!isGzip(bytes)) return bytes;
  const parts: Uint8Array[] = [];
  let size = 0;
  const nothingMore = (async function* (): AsyncGenerator<Uint8Array> {})();
  for await (const chunk of gunzipped(bytes, nothingMore, name, flag)) {
    size += chunk.length;
    if (size > limit) {
      throw new InputError(
        `${named(name, flag)} is gzip-compressed and decompresses to more than ` +
          `${limit >= 1 << 30 ? `${limit / (1 << 30)} GiB` : `${limit / (1 << 20)} MiB`}, more ` +
          `than this command reads into memory at once${hint}`,
      );
    }
    parts.push(chunk);
  }
  const whole = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

/** An input's name in messages and reports: `<stdin>` for `-`, else its path. */
export function inputName(path: string): string {
  return path === "-" ? "<stdin>" : path;
}

/** Says on stderr that stdin is read, when it is a terminal (nothing was piped). */
function stdinNotice(): void {
  if (Deno.stdin.isTerminal()) {
    console.error("Reading from stdin (pass a file, or pipe input; --help for usage)");
  }
}

/** All of stdin's bytes, for an input given as `-`, saying so when stdin is a terminal. */
export async function readStdin(): Promise<Uint8Array> {
  stdinNotice();
  return new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer());
}

/**
 * A file's bytes (or stdin's, for `-`) chunk by chunk as they are read, decompressed when they are
 * gzip ({@linkcode decompressed}), for a library call that reads its source once and keeps only
 * what it needs of it.
 *
 * @throws {InputError} When the file cannot be read (naming it) or its gzip data is corrupt.
 */
export async function* readChunks(
  path: string,
  onRead?: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  const name = inputName(path);
  yield* decompressed(streamChunks(await openRaw(path), name, onRead), name);
}

/** A file's size in bytes, for a progress bar: 0 for stdin, or when it cannot be read. */
export function sizeOf(path: string): number {
  try {
    return path === "-" ? 0 : Deno.statSync(path).size;
  } catch {
    return 0; // opening the file reports a missing file with its own message
  }
}

/**
 * A file's first `max` bytes or fewer (decompressed when it is gzip); the rest is not read.
 *
 * @throws {InputError} When the file cannot be read (naming it) or its gzip data is corrupt.
 */
export async function readHead(path: string, max: number): Promise<Uint8Array> {
  const head = new Uint8Array(max);
  let size = 0;
  for await (const chunk of readChunks(path)) {
    const n = Math.min(chunk.length, max - size);
    head.set(chunk.subarray(0, n), size);
    size += n;
    if (size === max) break;
  }
  return head.subarray(0, size);
}

/** A stream's chunks; a failed read is an input error naming the input. */
async function* streamChunks(
  stream: ReadableStream<Uint8Array>,
  name: string,
  onRead?: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await reader.read();
      } catch (e) {
        throw cannotRead(name, e);
      }
      if (r.done) return;
      onRead?.(r.value.length);
      yield r.value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function cannotRead(name: string, e: unknown): InputError {
  return new InputError(`Cannot read ${name}: ${e instanceof Error ? e.message : e}`, { cause: e });
}

/**
 * Reads a whole file (or stdin, for `-`) as UTF-8 text, for commands whose library call takes
 * `{name, text}`, with its bytes, whose SHA-256 the reports record.
 *
 * @throws {InputError} When the file cannot be read (naming it and `flag`) or is not UTF-8.
 */
export async function readTextFile(
  flag: string,
  path: string,
): Promise<{ name: string; text: string; bytes: Uint8Array }> {
  const name = inputName(path);
  let bytes: Uint8Array;
  try {
    bytes = path === "-" ? await readStdin() : await Deno.readFile(path);
  } catch (e) {
    throw new InputError(`Cannot read ${name} (${flag}): ${e instanceof Error ? e.message : e}`);
  }
  bytes = await decompressWhole(bytes, name, flag);
  return { name, text: decodeUtf8(bytes, name), bytes };
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
    else await writeStdout(bytes);
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

/**
 * Writes all of `bytes` (a text, or bytes in parts) to stdout.
 *
 * @throws {StdoutClosed} When the reader has closed stdout (`| head`): the command stops there.
 * @throws {InputError} Naming stdout, when it cannot be written (a full disk).
 */
export async function writeStdout(
  bytes: string | Uint8Array | Iterable<Uint8Array>,
): Promise<void> {
  const parts = typeof bytes === "string"
    ? [new TextEncoder().encode(bytes)]
    : bytes instanceof Uint8Array
    ? [bytes]
    : bytes;
  for (const part of parts) {
    // Only the write's error is stdout's: the parts' own (a generator's) pass as they are.
    try {
      await writeAll(Deno.stdout, part);
    } catch (e) {
      throw stdoutError(e);
    }
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
 * turns each batch into output lines with `convert`, and writes them to `--out` (a file written
 * atomically, which may replace only a file of `kind` unless `force`), or to stdout. Lines that
 * were not valid UTF-8 are counted and reported on stderr.
 */
export async function mapLines(
  command: {
    input: string | undefined;
    out: string | undefined;
    force: boolean;
    maxLineBytes?: number;
  },
  kind: OutputKind,
  convert: (batch: Line[], source: string) => string[],
  modelFields: readonly string[] = [],
): Promise<void> {
  const { input, out: output, maxLineBytes } = command;
  checkPaths(
    [[undefined, input, true]],
    [{ flag: "--out", path: output, kind, stdout: true }],
    command,
  );
  const source = await openSource(input, { modelFields, maxLineBytes });
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
    throw withLineHint(e);
  }
  if (invalid > 0) {
    console.error(
      `warning: ${invalid} line(s) of ${source.name} held invalid UTF-8 in ` +
        `${modelFields.map((f) => `"${f}"`).join(", ")}, read with U+FFFD replacements ` +
        `(first: line ${firstInvalid})`,
    );
  }
}

/** A line past the limit, with how to raise it (for the commands that take --max-line-bytes). */
export function withLineHint(e: unknown): unknown {
  if (!(e instanceof LineTooLongError)) return e;
  return new InputError(`${e.message} (raise it with --max-line-bytes)`, { cause: e });
}
