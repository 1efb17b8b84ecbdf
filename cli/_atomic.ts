// Writing a file atomically with one temporary file of a fixed name beside it.
//
// A write to `dir/name` goes to `dir/.name.assay-tmp`, is flushed to disk, and is renamed over
// `dir/name`. A writer killed at any moment leaves the old file or the new one, and at most that
// one temporary file, which the next write to the same target removes before it starts (the
// checks of `_paths.ts` remove it first, when they try the folder). The temporary file is created
// exclusively (O_EXCL), so a symlink planted at its name is removed, never written through.
// Two writers of the same target at once do not mix their bytes: the later one takes the name
// over, and the earlier one, finding at the end that the name is no longer its file, stops with
// an error instead of renaming.
import { basename, dirname, join } from "node:path";
import { InputError, UsageError } from "./_errors.ts";

/** The temporary file a write to `path` uses: `.<name>.assay-tmp`, in the same folder. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.assay-tmp`);
}

const STREAM = /^\/dev\/(?:std(in|out|err)|fd\/(\d+))$|^\/proc\/(self|\d+)\/fd\/(\d+)$/;

/**
 * Whether a path names a process's stream (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`, ...)
 * rather than a file: written through its temporary file, the rename would replace the link
 * itself (`/dev/stdout` made a regular file, for a process allowed to write in /dev).
 */
export function isStreamPath(path: string): boolean {
  return STREAM.test(path);
}

/**
 * The descriptor of this process's own stream that a path names (0 for `/dev/stdin`, `/dev/fd/0`
 * or `/proc/self/fd/0`), or undefined for a file or another process's stream.
 */
export function ownStream(path: string): number | undefined {
  const m = STREAM.exec(path);
  if (m === null || (m[3] !== undefined && m[3] !== "self")) return undefined;
  return m[1] !== undefined ? ["in", "out", "err"].indexOf(m[1]) : Number(m[2] ?? m[4]);
}

/** Why a file operation failed, in a few words. */
export function reason(e: unknown): string {
  if (e instanceof Deno.errors.NotFound) return "no such file or folder";
  if (e instanceof Deno.errors.PermissionDenied || e instanceof Deno.errors.NotCapable) {
    return "permission denied";
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * Removes what a killed writer may have left at `path`'s temporary name (a file or a symlink,
 * not followed). Nothing there is fine.
 *
 * @throws {UsageError} When a folder stands at the temporary name.
 */
export function removeStaleTemp(path: string): void {
  const tmp = tempPathFor(path);
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(tmp);
  } catch {
    return; // nothing there (or nothing we may see, which the write will report)
  }
  if (info.isDirectory) {
    throw new UsageError(`Cannot write ${path}: a folder stands at its temporary name ${tmp}`);
  }
  try {
    Deno.removeSync(tmp);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

/** `Cannot write <path>: <why>`, an InputError (exit 2). */
function cannotWrite(path: string, e: unknown): InputError {
  return new InputError(`Cannot write ${path}: ${reason(e)}`, { cause: e });
}

function writeError(path: string, e: unknown): unknown {
  if (
    e instanceof Deno.errors.NotFound || e instanceof Deno.errors.IsADirectory ||
    e instanceof Deno.errors.NotADirectory || e instanceof Deno.errors.PermissionDenied ||
    e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.AlreadyExists
  ) {
    return cannotWrite(path, e);
  }
  return e;
}

/** A file being written to its temporary name, renamed into place by `commit`. */
export class AtomicFile {
  #file: Deno.FsFile;
  #ino: number | null;
  #open = true;

  private constructor(
    /** The target. */
    readonly path: string,
    /** The temporary file. */
    readonly tmp: string,
    file: Deno.FsFile,
  ) {
    this.#file = file;
    this.#ino = file.statSync().ino;
  }

  /**
   * Removes a stale temporary file of `path` and creates a fresh one, with the permissions of the
   * file it will replace, if any.
   *
   * @throws {InputError} When the temporary file cannot be created.
   */
  static async create(path: string): Promise<AtomicFile> {
    // `-` is stdout where a command writes there; it is never a file named `-` (the checks of
    // `_paths.ts` refuse it up front, naming the flag).
    if (path === "-" || isStreamPath(path)) {
      throw new UsageError(`Cannot write ${path}: give a file path`);
    }
    const tmp = tempPathFor(path);
    let mode: number | undefined;
    try {
      const info = Deno.statSync(path);
      if (info.isFile && info.mode !== null) mode = info.mode & 0o7777;
    } catch { /* no file to replace */ }
    for (let attempt = 0;; attempt++) {
      removeStaleTemp(path);
      let file: Deno.FsFile;
      try {
        file = await Deno.open(tmp, { write: true, createNew: true });
      } catch (e) {
        // Another writer created it between the removal and here: take the name over.
        if (e instanceof Deno.errors.AlreadyExists && attempt < 3) continue;
        throw writeError(path, e);
      }
      if (mode !== undefined) {
        try {
          await Deno.chmod(tmp, mode);
        } catch { /* a file system without modes */ }
      }
      return new AtomicFile(path, tmp, file);
    }
  }

  /**
   * Appends `bytes`.
   *
   * @throws {InputError} When the file system refuses them (a full disk, a file size limit).
   */
  async write(bytes: Uint8Array): Promise<void> {
    try {
      for (let at = 0; at < bytes.length;) at += await this.#file.write(bytes.subarray(at));
    } catch (e) {
      throw cannotWrite(this.path, e);
    }
  }

  /**
   * Flushes the temporary file to disk and renames it over the target.
   *
   * @throws {UsageError} When another writer took the temporary name over meanwhile.
   * @throws {InputError} When the rename fails (the target became a folder, say).
   */
  async commit(): Promise<void> {
    try {
      await this.#file.syncData();
    } catch (e) {
      // A full disk may show first here, where the written bytes go to it.
      throw cannotWrite(this.path, e);
    } finally {
      this.#close();
    }
    if (!this.#stillOurs()) {
      throw new UsageError(
        `Cannot write ${this.path}: another process is writing it too (its temporary file ` +
          `${this.tmp} is no longer this one's)`,
      );
    }
    try {
      await Deno.rename(this.tmp, this.path);
    } catch (e) {
      this.abort();
      throw writeError(this.path, e);
    }
    syncFolder(dirname(this.path));
  }

  /** Drops the temporary file, if it is still this writer's. */
  abort(): void {
    this.#close();
    if (!this.#stillOurs()) return;
    try {
      Deno.removeSync(this.tmp);
    } catch { /* already gone */ }
  }

  #close(): void {
    if (!this.#open) return;
    this.#open = false;
    try {
      this.#file.close();
    } catch { /* already closed */ }
  }

  #stillOurs(): boolean {
    try {
      const info = Deno.lstatSync(this.tmp);
      return this.#ino === null || info.ino === this.#ino;
    } catch {
      return false;
    }
  }
}

/** Flushes a folder's entries (the rename) to disk, where the platform allows it. */
function syncFolder(dir: string): void {
  try {
    const folder = Deno.openSync(dir, { read: true });
    try {
      folder.syncSync();
    } finally {
      folder.close();
    }
  } catch { /* not on this platform or file system */ }
}

/**
 * Writes a whole text (or its bytes, or its bytes in parts) to `path` atomically, through its
 * temporary file.
 *
 * @throws {InputError} When the file cannot be written.
 */
export async function writeAtomic(
  path: string,
  text: string | Uint8Array | Iterable<Uint8Array>,
): Promise<void> {
  const parts = typeof text === "string"
    ? [new TextEncoder().encode(text)]
    : text instanceof Uint8Array
    ? [text]
    : text;
  const file = await AtomicFile.create(path);
  try {
    for (const part of parts) await file.write(part);
    await file.commit();
  } catch (e) {
    file.abort();
    throw e;
  }
}
