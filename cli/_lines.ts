// Streaming line reader for the CLI: bounded by the longest line, never by the file.

/** One input line. */
export interface Line {
  /** The decoded text, without its line break (a trailing `\r` is dropped too). */
  text: string;
  /** 1-based line number. */
  lineNo: number;
  /** The bytes were not valid UTF-8 and were decoded with U+FFFD replacements. */
  invalidUtf8: boolean;
}

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { ignoreBOM: true });

function decode(bytes: Uint8Array, lineNo: number): Line {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 13) end--;
  let start = 0;
  if (lineNo === 1 && end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    start = 3;
  }
  const view = bytes.subarray(start, end);
  try {
    return { text: fatal.decode(view), lineNo, invalidUtf8: false };
  } catch {
    return { text: lenient.decode(view), lineNo, invalidUtf8: true };
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Splits a byte stream into lines; a UTF-8 BOM at the very start is dropped. Each run of
 * complete lines in a chunk is decoded at once; only a run with invalid UTF-8 is decoded line
 * by line, to flag exactly the lines that were replaced.
 */
export async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<Line> {
  let pending: Uint8Array[] = [];
  let pendingLen = 0;
  let lineNo = 0;
  for await (const chunk of stream) {
    const last = chunk.lastIndexOf(10);
    if (last < 0) {
      pending.push(chunk.slice());
      pendingLen += chunk.length;
      continue;
    }
    let region = chunk.subarray(0, last);
    if (pendingLen > 0) {
      pending.push(region);
      region = concat(pending, pendingLen + region.length);
      pending = [];
      pendingLen = 0;
    }
    let text: string | undefined;
    try {
      text = fatal.decode(region);
    } catch {
      text = undefined;
    }
    if (text === undefined) {
      let start = 0;
      for (;;) {
        const nl = region.indexOf(10, start);
        yield decode(region.subarray(start, nl < 0 ? region.length : nl), ++lineNo);
        if (nl < 0) break;
        start = nl + 1;
      }
    } else {
      const lines = text.split("\n");
      for (let l of lines) {
        lineNo++;
        if (l.charCodeAt(l.length - 1) === 13) l = l.slice(0, -1);
        if (lineNo === 1 && l.charCodeAt(0) === 0xfeff) l = l.slice(1);
        yield { text: l, lineNo, invalidUtf8: false };
      }
    }
    if (last + 1 < chunk.length) {
      pending.push(chunk.slice(last + 1));
      pendingLen += chunk.length - last - 1;
    }
  }
  if (pendingLen > 0) yield decode(concat(pending, pendingLen), ++lineNo);
}
