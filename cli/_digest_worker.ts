// A worker that computes the SHA-256 of input files while the main thread scores them (the
// report records each input file's digest). It reads each file itself, so no bytes cross threads.
//
// Message in: { paths: string[] }. Message out: { digests: string[] } (lowercase hex, in order),
// or { error: string }.
import { digestFile } from "./_digest.ts";

/** This worker's side of the channel (the default lib types `self` as a window). */
const scope = self as unknown as {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent) => void) | null;
};

scope.onmessage = (e: MessageEvent<{ paths: string[] }>) => {
  try {
    const buffer = new Uint8Array(4 << 20);
    scope.postMessage({ digests: e.data.paths.map((p) => digestFile(p, buffer)) });
  } catch (err) {
    scope.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
