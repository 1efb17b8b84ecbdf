// The report's text made in chunks from rows held compactly is JSON.stringify(report, null, 2)
// + "\n" of the report with every row as an object: for seeded rows (ids not ASCII or null,
// figures that are not counts, which the rows then keep in eight bytes), with a head longer than
// a chunk, and with no rows; some rows with reasons. Each chunk ends with a line break.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { STRUCTURED_METRICS, type StructuredReport } from "../../src/structured_jsonl/mod.ts";
import { type Figures, RowNumbers } from "../../src/structured_jsonl/_compute.ts";
import {
  type CompactRows,
  reportBytes,
  reportChunks,
  reportRows,
} from "../../src/structured_jsonl/_report_text.ts";
import { makeRng, type Rng } from "../_corpus.ts";

function compact(rng: Rng, n: number): CompactRows {
  const metrics = STRUCTURED_METRICS.filter(() => rng.chance(0.5));
  if (metrics.length === 0) metrics.push("json_validity");
  const odd = [0.5, -0, 2 ** 33, -1, 1e21, NaN, 2 ** 32 - 1];
  const figures: Figures[] = metrics.map((metric) => {
    const numerators = new RowNumbers(n), denominators = new RowNumbers(n);
    for (let i = 0; i < n; i++) {
      numerators.set(i, rng.chance(0.01) ? rng.pick(odd) : rng.int(5));
      denominators.set(i, rng.int(7));
    }
    return { metric, numerators, denominators };
  });
  return {
    lines: Array.from({ length: n }, (_, i) => 2 * i + 1),
    ids: Array.from(
      { length: n },
      (_, i) => rng.pick([undefined, `r${i}`, `é"\\${i}`, `\u{1F600}${i}`, "\ud800", String(i)]),
    ),
    figures,
    // Some rows say why their calls are invalid: one reason or several, any text.
    reasons: new Map(
      Array.from({ length: n }, (_, i) => i).filter(() => rng.chance(0.2)).map((i) => [
        i,
        Array.from(
          { length: 1 + rng.int(3) },
          (_, k) => rng.pick([`tool_calls[${k}]: why`, 'é"\\\n', "\ud800", "\u{1F600}", ""]),
        ),
      ]),
    ),
  };
}

function head(rng: Rng, n: number, long: boolean): StructuredReport {
  return {
    schema: "assay.structured.v1",
    tool: { name: "@assay/assay", version: "0" },
    engine: "ts",
    mode: "strict",
    inputs: {
      outputs: { sha256: "0", rows: n, invalid_utf8_outputs: 0 },
      expected: null,
      schema: null,
    },
    n,
    metrics: {
      format_compliance: {
        value: 0,
        numerator: 0,
        denominator: n,
        details: { matches: Array.from({ length: long ? 40_000 : 3 }, () => rng.chance(0.5)) },
      },
    },
    rows: [],
  };
}

Deno.test("the report's chunks are JSON.stringify's text of the report with its rows", () => {
  const rng = makeRng(4404);
  const dec = new TextDecoder();
  let chunked = 0;
  for (let k = 0; k < 30; k++) {
    const n = k === 0 ? 0 : rng.pick([1, 2, 50, 3000]);
    const rows = compact(rng, n);
    const h = head(rng, n, k % 5 === 1);
    const report = { ...h, rows: [...reportRows(rows)] };
    const want = JSON.stringify(report, null, 2) + "\n";
    const chunks = [...reportChunks(h, rows)];
    for (const c of chunks) strictEqual(c.at(-1), 0x0a);
    strictEqual(chunks.map((c) => dec.decode(c)).join(""), want, `case ${k}`);
    deepStrictEqual(reportBytes(h, rows), new TextEncoder().encode(want));
    if (chunks.length > 2) chunked++;
  }
  ok(chunked > 3, `${chunked} reports in more than two chunks`);
});

Deno.test("a row's figures keep -0, fractions and numbers past 2^32", () => {
  const r = new RowNumbers(4);
  r.set(0, 3);
  r.set(1, -0);
  r.set(2, 0.25);
  r.set(3, 2 ** 40);
  deepStrictEqual([r.get(0), r.get(1), r.get(2), r.get(3)], [3, -0, 0.25, 2 ** 40]);
});
