// SHA-256 as lowercase hex, by Web Crypto: the digest every part of the conformance run uses (the
// runtimes, for their results and the JSONL inputs' prompts; the orchestrator, for the CLI's
// reports).

const HEX = "0123456789abcdef";

/** SHA-256 (lowercase hex) of bytes, or of a string's UTF-8. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  let s = "";
  for (const b of digest) s += HEX[b >> 4]! + HEX[b & 15]!;
  return s;
}
