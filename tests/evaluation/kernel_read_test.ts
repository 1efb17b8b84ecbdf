// How the fast path's two readers share a file (cli/_kernel_read.ts): each claims byte ranges,
// and reads the lines that start in its claims. Whatever the claims, the lines they give must
// cover the file, each line exactly once, each in the claim where it starts.
import { ok, strictEqual } from "node:assert/strict";
import { claimLines } from "../../cli/_kernel_read.ts";
import { rng } from "../conformance/_corpus.ts";

/** A file of random lines: empty ones, CRLF ones, a few longer than the 4 KiB the scan reads. */
function randomFile(next: () => number): Uint8Array {
  const parts: string[] = [];
  const lines = 1 + Math.floor(next() * 120);
  for (let k = 0; k < lines; k++) {
    const long = next() < 0.05;
    const length = long ? 4000 + Math.floor(next() * 9000) : Math.floor(next() * 90);
    let line = "";
    for (let i = 0; i < length; i++) line += String.fromCharCode(0x20 + Math.floor(next() * 90));
    parts.push(line + (next() < 0.2 ? "\r\n" : "\n"));
  }
  let text = parts.join("");
  if (next() < 0.3) text = text.replace(/\r?\n$/, ""); // no final line break
  if (next() < 0.2) text = "\ufeff" + text;
  return new TextEncoder().encode(text);
}

Deno.test("claims of any size give every line once, in the claim where it starts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "assay_claims_" });
  const path = `${dir}/lines.jsonl`;
  try {
    for (let seed = 1; seed <= 300; seed++) {
      const next = rng(seed);
      const bytes = randomFile(next);
      await Deno.writeFile(path, bytes);
      const size = bytes.length;
      // Where lines start: 0 and after every line break before the end.
      const starts = [0];
      bytes.forEach((b, i) => {
        if (b === 10 && i + 1 < size) starts.push(i + 1);
      });
      const file = await Deno.open(path, { read: true });
      try {
        // Claims of random sizes, as two readers would take them from the shared counter.
        const pieces: [number, number][] = [];
        const maxClaim = 1 + Math.floor(next() * (next() < 0.5 ? 40 : 3000));
        for (let from = 0; from < size;) {
          const to = Math.min(size, from + 1 + Math.floor(next() * maxClaim));
          const [start, end] = claimLines(file, from, to, size);
          ok(start <= end, `seed ${seed}: claim [${from}, ${to}) gave [${start}, ${end})`);
          if (start < end) {
            // Its first line starts in the claim, and so does its last.
            ok(start >= from && start < to, `seed ${seed}: [${from}, ${to}) starts at ${start}`);
            ok(starts.includes(start), `seed ${seed}: ${start} is not a line start`);
            const lastStart = starts.filter((s) => s < end).at(-1)!;
            ok(lastStart < to, `seed ${seed}: [${from}, ${to}) reads a line from ${lastStart}`);
            pieces.push([start, end]);
          } else {
            // No line starts in the claim.
            ok(!starts.some((s) => s >= from && s < to), `seed ${seed}: [${from}, ${to}) empty`);
          }
          from = to;
        }
        // The pieces tile the file.
        strictEqual(pieces[0]?.[0], 0, `seed ${seed}`);
        strictEqual(pieces.at(-1)?.[1], size, `seed ${seed}`);
        for (let k = 1; k < pieces.length; k++) {
          strictEqual(pieces[k]![0], pieces[k - 1]![1], `seed ${seed}: piece ${k}`);
        }
      } finally {
        file.close();
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
