// The SHA-256 of input files, as the evaluation report records them. `node:crypto` is loaded on
// first use: it takes a while to load, and the fast path's main thread does not need it.

const CHUNK = 4 << 20;

/** SHA-256 (lowercase hex) of each file's bytes, read in chunks. */
export async function digestFiles(paths: readonly string[]): Promise<string[]> {
  const { createHash } = await import("node:crypto");
  const buffer = new Uint8Array(CHUNK);
  return paths.map((path) => {
    const hash = createHash("sha256");
    const file = Deno.openSync(path, { read: true });
    try {
      for (;;) {
        const n = file.readSync(buffer);
        if (n === null) break;
        hash.update(buffer.subarray(0, n));
      }
    } finally {
      file.close();
    }
    return hash.digest("hex");
  });
}
