// The checks every command makes on its paths before it starts any work, in one place:
//
// - each input exists and is a file;
// - no output names an input, or another output, whatever path names it: `..` and symlinks are
//   resolved (the real path of an existing file, or of a new file's folder plus its name), and two
//   existing paths are one file when their device and inode agree (hard links);
// - each output can be written: not a folder nor a FIFO or device, its folder exists and takes a
//   new file (tried with the output's own temporary file, which also clears a stale one);
// - an existing output is replaced only when it is of the output's kind (read from its first
//   bytes), or is empty, or with --force; a metric store (an SQLite database) is never replaced by
//   a report, and `--store` never opens a file that is not one.
//
// Absent paths pass, and so does `-` for an input (stdin), but only one input may be `-`: stdin
// reads once. An output may be `-` only where the command writes it to stdout (parse and
// canonicalize's --out): anywhere else `-` is refused, not taken for a file named `-`.
import { basename, dirname, join, resolve } from "node:path";
import { InputError, UsageError } from "./_errors.ts";
import { isStreamPath, ownStream, reason, removeStaleTemp, tempPathFor } from "./_atomic.ts";

/**
 * A path from the command line and what gave it: a flag such as `--out`, or a description; and
 * whether the command reads `-` as stdin there (for the hint on `/dev/stdin`).
 */
export type PathArgument = readonly [
  label: string | undefined,
  path: string | undefined,
  stdin?: boolean,
];

/** What an output holds, to tell whether an existing file may be replaced by it. */
export interface OutputKind {
  /** The kind in messages, such as `an assay.evaluation.v2 report`. */
  readonly name: string;
  /**
   * Whether an existing file is of this kind, from its first bytes as text (`whole` when they are
   * the whole file).
   */
  recognizes(head: string, whole: boolean): boolean;
}

/** An output path, its flag, and what it holds (`store` for a metric store). */
export interface OutputArgument {
  flag: string;
  path: string | undefined;
  kind: OutputKind | "store";
  /** Whether `-` writes this output to stdout; otherwise `-` is refused. */
  stdout?: boolean;
}

/** How many bytes of an existing file are read to tell its kind. */
const HEAD_BYTES = 64 << 10;

const SQLITE_HEADER = "SQLite format 3\0";

/**
 * What to give instead of a path to stdin or stdout (`/dev/stdin`, which Deno opens only with
 * --allow-all, or another of its names), when the command reads or writes `-` there:
 * `; give - for standard input`.
 */
function dashHint(path: string, dash: boolean | undefined, stream: "stdin" | "stdout"): string {
  const [fd, name] = stream === "stdin" ? [0, "standard input"] : [1, "standard output"];
  return dash === true && ownStream(path) === fd ? `; give - for ${name}` : "";
}

/**
 * Refuses an output that names a stream (`/dev/stdout`): it is not written through, and its
 * atomic write would replace the link itself.
 *
 * @throws {UsageError} `Cannot write /dev/stdout (--out): it is a stream, not a file; give - for
 *   standard output` (the hint where the command writes `-` to stdout).
 */
function checkNotStream({ flag, path, stdout }: OutputArgument): void {
  if (path === undefined || !isStreamPath(path)) return;
  throw new UsageError(
    `Cannot write ${where(path, flag)}: it is a stream, not a file` +
      dashHint(path, stdout, "stdout"),
  );
}

function where(path: string, label: string | undefined): string {
  return label === undefined ? path : `${path} (${label})`;
}

/** `the --examples file`, `the base report`, `the input file`. */
function the(label: string | undefined): string {
  if (label === undefined) return "the input file";
  return label.startsWith("-") ? `the ${label} file` : `the ${label}`;
}

/**
 * Checks that each input can be read before any work starts: it exists and is a file, and at most
 * one of them is `-` (stdin, which can be read once), and only where the command reads `-` as
 * stdin (an input marked so); elsewhere `-` is refused, not read as a file named `-`.
 *
 * @throws {UsageError} When two inputs are `-`, naming both, or `-` is given where stdin is not
 *   read: `--labels -: give a file path; this command does not read --labels from stdin`.
 * @throws {InputError} Naming the path and its flag, for a missing path or a folder.
 */
export function checkInputs(inputs: readonly PathArgument[]): void {
  for (const [label, path, stdin] of inputs) {
    if (path !== "-" || stdin === true) continue;
    const what = label ?? "this input";
    throw new UsageError(
      `${what} -: give a file path; this command does not read ${what} from stdin`,
    );
  }
  const stdin = inputs.filter(([, path]) => path === "-").map(([label]) => label ?? "input");
  if (stdin.length > 1) {
    const which = `${stdin.slice(0, -1).join(", ")} and ${stdin.at(-1)}`;
    throw new UsageError(
      `Only one input can be stdin: ${which} are ${stdin.length === 2 ? "both" : "all"} "-"`,
    );
  }
  for (const [label, path, stdin] of inputs) {
    if (path === undefined || path === "-") continue;
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(path);
    } catch (e) {
      throw new InputError(
        `Cannot read ${where(path, label)}: ${reason(e)}${dashHint(path, stdin, "stdin")}`,
        { cause: e },
      );
    }
    if (info.isDirectory) {
      throw new InputError(`Cannot read ${where(path, label)}: it is a folder, not a file`);
    }
  }
}

/**
 * Creates the folder an option names for its outputs, with its parents; one that exists is fine.
 *
 * @throws {UsageError} Naming the path, its flag and why, as the other path checks do:
 *   `Cannot create out (--results-dir): it exists and is not a folder`.
 */
export async function createFolder(flag: string, path: string): Promise<void> {
  if (path === "-") throw new UsageError(`${flag} -: give a folder path`);
  try {
    await Deno.mkdir(path, { recursive: true });
  } catch (e) {
    const why = e instanceof Deno.errors.AlreadyExists
      ? "it exists and is not a folder"
      : e instanceof Deno.errors.NotADirectory
      ? "a part of its path is not a folder"
      : reason(e);
    throw new UsageError(`Cannot create ${where(path, flag)}: ${why}`);
  }
}

/** A path as the file system sees it: its real path and, when it exists, its device and inode. */
interface Resolved {
  real: string;
  id: string | undefined;
}

function resolvePath(path: string): Resolved {
  try {
    const info = Deno.statSync(path);
    return {
      real: Deno.realPathSync(path),
      id: info.ino === null ? undefined : `${info.dev}:${info.ino}`,
    };
  } catch { /* not there yet: its folder's real path and its name */ }
  try {
    return { real: join(Deno.realPathSync(dirname(path)), basename(path)), id: undefined };
  } catch {
    return { real: resolve(path), id: undefined };
  }
}

function same(a: Resolved, b: Resolved): boolean {
  return a.real === b.real || (a.id !== undefined && a.id === b.id);
}

/**
 * Checks that no output is an input or another output, and that no input stands at an output's
 * temporary name (which the write would remove).
 *
 * @throws {UsageError} `--out /x/e.jsonl is the --examples file`.
 */
export function checkDistinct(inputs: readonly PathArgument[], outputs: readonly OutputArgument[]) {
  const ins = inputs.filter(([, p]) => p !== undefined && p !== "-").map(([label, path]) => ({
    label,
    path: path!,
    at: resolvePath(path!),
  }));
  const seen: { flag: string; path: string; at: Resolved }[] = [];
  for (const { flag, path } of outputs) {
    if (path === undefined || path === "-") continue;
    const at = resolvePath(path);
    const also = (other: string) => (other === path ? "" : ` (${other})`);
    for (const input of ins) {
      if (same(at, input.at)) {
        throw new UsageError(`${flag} ${path} is ${the(input.label)}${also(input.path)}`);
      }
    }
    for (const output of seen) {
      if (same(at, output.at)) {
        throw new UsageError(`${flag} ${path} is the ${output.flag} file${also(output.path)}`);
      }
    }
    const tmp = resolvePath(tempPathFor(path));
    for (const input of ins) {
      if (same(tmp, input.at)) {
        throw new UsageError(
          `${flag} ${path} would write its temporary file over ${the(input.label)} ${input.path}`,
        );
      }
    }
    seen.push({ flag, path, at });
  }
}

/**
 * Checks that an output can be written: a file name, not a folder nor a FIFO or device, in an
 * existing folder that takes a new file (tried with the output's temporary file, created and
 * removed at once, after a stale one is cleared). A store is written in place by SQLite, which
 * several writers may open at once: its folder is tried with a file of this process's own.
 *
 * @throws {UsageError} Naming the path and its flag.
 */
function checkLocation(flag: string, path: string, store: boolean): void {
  checkWritable(`Cannot write ${where(path, flag)}`, path, store ? "store" : "replace");
}

/**
 * Checks, before any work, that a file named by another program (such as GitHub's
 * `GITHUB_STEP_SUMMARY`) can take an append: an existing regular file that opens for appending
 * (nothing is written), or a new name in an existing folder that takes a new file.
 *
 * @param label What named the path, such as the variable, for messages.
 * @throws {UsageError} Naming the label, the path and why.
 */
export function checkAppend(label: string, path: string): void {
  checkWritable(`Cannot append to ${where(path, label)}`, path, "append");
}

// The checks of checkLocation and checkAppend; `at` starts each message. An output replaced
// through its temporary file has a stale one cleared and its own tried; a store or an append
// tries a file of this process's own, and an existing file to append to is opened for it.
function checkWritable(at: string, path: string, mode: "replace" | "store" | "append"): void {
  if (path === "" || /[/\\]$/.test(path)) throw new UsageError(`${at}: expected a file name`);
  let info: Deno.FileInfo | undefined;
  try {
    info = Deno.statSync(path);
  } catch { /* missing, or under a file: the parent's checks say which */ }
  if (info?.isDirectory) throw new UsageError(`${at}: it is a folder`);
  if (info && !info.isFile) throw new UsageError(`${at}: it is not a regular file`);
  if (info && mode === "append") {
    try {
      Deno.openSync(path, { append: true }).close();
    } catch (e) {
      throw new UsageError(`${at}: ${reason(e)}`);
    }
    return;
  }
  const parent = dirname(path);
  let folder: Deno.FileInfo;
  try {
    folder = Deno.statSync(parent);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) {
      throw new UsageError(`${at}: folder ${parent} does not exist`);
    }
    throw new UsageError(`${at}: ${reason(e)}`);
  }
  if (!folder.isDirectory) throw new UsageError(`${at}: ${parent} is not a folder`);
  const replace = mode === "replace";
  const probe = replace ? tempPathFor(path) : `${tempPathFor(path)}-${Deno.pid}`;
  try {
    if (replace) removeStaleTemp(path);
    Deno.openSync(probe, { write: true, createNew: true }).close();
  } catch (e) {
    if (e instanceof UsageError) throw new UsageError(`${at}: ${e.message}`);
    throw new UsageError(`${at}: folder ${parent} does not accept new files (${reason(e)})`);
  }
  Deno.removeSync(probe);
}

/**
 * The first bytes of an existing regular file; undefined when there is none or it is empty, and
 * `unreadable` when it cannot be opened.
 */
function head(path: string): { bytes: Uint8Array; whole: boolean } | "unreadable" | undefined {
  let file: Deno.FsFile;
  try {
    if (!Deno.statSync(path).isFile) return undefined;
  } catch {
    return undefined;
  }
  try {
    file = Deno.openSync(path, { read: true });
  } catch {
    return "unreadable";
  }
  try {
    const bytes = new Uint8Array(HEAD_BYTES);
    let n = 0;
    for (;;) {
      const got = file.readSync(bytes.subarray(n));
      if (got === null) break;
      n += got;
      if (n === bytes.length) break;
    }
    if (n === 0) return undefined;
    return {
      bytes: bytes.subarray(0, n),
      whole: n < bytes.length || file.readSync(new Uint8Array(1)) === null,
    };
  } finally {
    file.close();
  }
}

function isSqlite(bytes: Uint8Array): boolean {
  return bytes.length >= SQLITE_HEADER.length &&
    String.fromCharCode(...bytes.subarray(0, SQLITE_HEADER.length)) === SQLITE_HEADER;
}

/**
 * Checks that an existing output may be replaced (or, for a store, opened).
 *
 * @throws {UsageError} Naming the flag, the path and what it holds.
 */
function checkReplace({ flag, path, kind }: OutputArgument, force: boolean): void {
  const first = head(path!);
  if (first === undefined) return; // missing or empty: nothing to lose
  if (first === "unreadable") {
    if (force && kind !== "store") return;
    throw new UsageError(
      `${flag} ${path} exists and cannot be read to tell what it holds` +
        (kind === "store" ? "" : " (pass --force to replace it)"),
    );
  }
  if (kind === "store") {
    // All zeros: the first page of a store another writer is creating (the store decides).
    if (!isSqlite(first.bytes) && !first.bytes.every((b) => b === 0)) {
      throw new UsageError(`${flag} ${path} is not a metric store (not an SQLite database)`);
    }
    return;
  }
  if (isSqlite(first.bytes)) {
    throw new UsageError(
      `${flag} ${path} is an SQLite database (a metric store?): a report never replaces one, ` +
        "even with --force",
    );
  }
  if (force) return;
  const text = new TextDecoder().decode(first.bytes);
  if (!kind.recognizes(text, first.whole)) {
    throw new UsageError(
      `${flag} ${path} exists and is not ${kind.name} (pass --force to replace it)`,
    );
  }
}

/**
 * Refuses `-` for an output that only a file can take: it would be written to a file named `-`.
 *
 * @throws {UsageError} `--out -: give a file path; this command does not write --out to stdout`.
 */
function checkNotDash(flag: string): never {
  throw new UsageError(
    `${flag} -: give a file path; this command does not write ${flag} to stdout`,
  );
}

/**
 * The checks every command makes before any work: `inputs` can be read; `outputs` name none of
 * them nor each other, can be written, and replace only a file of their kind unless `force`.
 *
 * @throws {InputError} For an input that cannot be read.
 * @throws {UsageError} For an output that may not be written, naming its flag and path.
 */
export function checkPaths(
  inputs: readonly PathArgument[],
  outputs: readonly OutputArgument[],
  options: { force?: boolean } = {},
): void {
  for (const o of outputs) {
    if (o.path === "-" && o.stdout !== true) checkNotDash(o.flag);
    checkNotStream(o);
  }
  checkInputs(inputs);
  checkDistinct(inputs, outputs);
  for (const o of outputs) {
    if (o.path !== undefined && o.path !== "-") checkLocation(o.flag, o.path, o.kind === "store");
  }
  for (const o of outputs) {
    if (o.path !== undefined && o.path !== "-") checkReplace(o, options.force === true);
  }
}

/**
 * Checks a metric store a command reads: an existing, non-empty SQLite database (SQLite would
 * make a database of any empty file it opens).
 *
 * @throws {InputError} When there is no file at `path`, or it is a folder.
 * @throws {UsageError} When the file is empty or not an SQLite database.
 */
export function checkStore(flag: string, path: string): void {
  if (path === "-") {
    throw new UsageError(`${flag} -: give a file path; a metric store cannot be stdin`);
  }
  try {
    Deno.statSync(path);
  } catch {
    // A blank path quoted, so that the message shows one.
    const shown = path.trim() === "" ? JSON.stringify(path) : path;
    throw new InputError(`No metric store at ${shown} (${flag})`);
  }
  checkInputs([[flag, path]]);
  const first = head(path);
  if (first === undefined) {
    throw new UsageError(`${flag} ${path} is not a metric store (an empty file)`);
  }
  if (first === "unreadable") throw new InputError(`Cannot read ${where(path, flag)}`);
  if (!isSqlite(first.bytes)) {
    throw new UsageError(`${flag} ${path} is not a metric store (not an SQLite database)`);
  }
}

/** A JSON report whose first member is `"schema": "<schema>"`, as every assay report writes it. */
export function reportKind(schema: string, ...older: string[]): OutputKind {
  const names = [schema, ...older].map((s) => s.replaceAll(".", "\\.")).join("|");
  const pattern = new RegExp(`^\\uFEFF?\\s*\\{\\s*"schema"\\s*:\\s*"(?:${names})"`);
  return { name: `an ${schema} report`, recognizes: (text) => pattern.test(text) };
}

/** The comparison's HTML page, as `assay compare --html` writes it. */
export const COMPARISON_PAGE: OutputKind = {
  name: "an assay comparison page",
  recognizes: (text) =>
    /^<!DOCTYPE html>/i.test(text) && text.includes("<code>assay.comparison.v1</code>"),
};

/** Lines of output whose first line `test` accepts (which must lie within the first bytes). */
export function linesKind(name: string, test: (line: string) => boolean): OutputKind {
  return {
    name,
    recognizes: (text, whole) => {
      const end = text.indexOf("\n");
      if (end < 0 && !whole) return false;
      return test((end < 0 ? text : text.slice(0, end)).replace(/\r$/, ""));
    },
  };
}
