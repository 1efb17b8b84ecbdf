// The SHA-256 of an input file, as the evaluation report records it.
import * as nodeCrypto from "node:crypto";

const CHUNK = 4 << 20;

/** SHA-256 (lowercase hex) of a file's bytes, read in chunks into `buffer`. */
export function digestFile(path: string, buffer: Uint8Array = new Uint8Array(CHUNK)): string {
  const hash = nodeCrypto.createHash("sha256");
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
}
