// A worker that computes the SHA-256 of input files while the main thread scores them (the
// report records each input file's digest). It reads each file itself, so no bytes cross threads.
//
// Message in: { paths: string[] }. Message out: { digests: string[] } (lowercase hex, in order),
// or { error: string }.
import { digestFiles } from "./_digest.ts";

/** This worker's side of the channel (the default lib types `self` as a window). */
const scope = self as unknown as {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent) => void) | null;
};

scope.onmessage = async (e: MessageEvent<{ paths: string[] }>) => {
  try {
    scope.postMessage({ digests: await digestFiles(e.data.paths) });
  } catch (err) {
    scope.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
