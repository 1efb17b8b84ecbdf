// How the gate's CI outputs, the JUnit XML and the Markdown summary, list what may be huge (the
// failing ids, rules named by hostile slices) within one budget: each text cut whole past a length,
// a rule's ids counted past a number and past the bytes left, and a sentence saying where every
// one is. One implementation, so that both outputs cut and count alike.
import { textHead } from "../explain/text/mod.ts";

/** At most this many failing example ids are listed per rule; the count says how many in all. */
export const LISTED_EXAMPLES = 50;

/**
 * The Markdown summary's most UTF-8 bytes: a quarter of the 1 MiB (1,048,576 bytes) GitHub takes
 * for a step summary, so that the job's other output, or another gate in the same step, has room.
 * The JUnit XML keeps within it too: CI test reporters read the whole file, and choke on one of
 * megabytes.
 */
export const MARKDOWN_BYTES = 256 * 1024;

/**
 * In the Markdown summary and the JUnit XML an id or a rule's name longer than this many UTF-16
 * code units is cut (`textHead`: no character split) and ends in `…`.
 */
export const MARKDOWN_TEXT_CHARS = 200;

/** The verdict's note is cut past this many code units. */
export const NOTE_CHARS = 2000;

/** Room kept for the lines that say what was left out. */
export const RESERVED = 600;

const utf8 = new TextEncoder();

/** The UTF-8 bytes of `text`. */
export const utf8Bytes = (text: string): number => utf8.encode(text).length;

/** `text` cut to `max` code units (`textHead`), ending in `…` when cut. */
export function cutText(text: string, max = MARKDOWN_TEXT_CHARS): string {
  const head = textHead(text, max);
  return head === text ? text : `${head}…`;
}

/**
 * A rule's failing ids within `room` bytes, each as `show` writes it (in the output's own form,
 * escaped): `a, b, … and 7 more (10 in all)`, at most {@linkcode LISTED_EXAMPLES} of them;
 * undefined when not even the count fits.
 */
export function failingList(
  failing: readonly string[],
  show: (id: string) => string,
  room: number,
): { text: string; shown: number } | undefined {
  // Room for the count of those left out, whatever it is.
  let left = room - 48;
  if (left < 0) return undefined;
  let text = "";
  let count = 0;
  for (const id of failing.slice(0, LISTED_EXAMPLES)) {
    const piece = (count > 0 ? ", " : "") + show(id);
    const size = utf8Bytes(piece);
    if (size > left) break;
    text += piece;
    left -= size;
    count++;
  }
  const more = failing.length - count;
  if (more > 0) text += `${count > 0 ? ", " : ""}… and ${more} more (${failing.length} in all)`;
  return { text, shown: count };
}

/**
 * The last words of an output that left `left` out (each said once): what and why, and where
 * every rule and failing example is, each command written by `code`.
 */
export function notShownText(left: readonly string[], code: (command: string) => string): string {
  return `Not shown here: ${[...new Set(left)].join(", ")} (at most ${LISTED_EXAMPLES} failing ` +
    `examples a rule, and ${MARKDOWN_BYTES / 1024} KiB in all). The verdict's JSON ` +
    `(${code("assay gate --out FILE")} or ${code("--json")}) holds every rule and every failing ` +
    `example, and ${code("assay show REPORT --failing")} lists an evaluation report's wrong ` +
    "examples.";
}
