// parseReportLines(): a report read a line at a time (as the CLI reads one too large for a
// string) is the report JSON.parse reads from its whole text, for every report kind Assay writes
// with formatReport; a broken record line, an unclosed records list or a broken head is bad
// input naming the file and the line. And the CLI's readJsonFile takes that path above its size
// limit, giving what it gives below it.
import { deepStrictEqual, rejects } from "node:assert/strict";
import { parseReportLines } from "../../src/report_check/mod.ts";
import { formatReport, scoreJsonl, scoreToolCalls } from "../../src/evaluation/mod.ts";
import { InputError, readLines } from "../../src/jsonl/mod.ts";
import { readJsonFile } from "../../cli/compare.ts";
import { makeRng } from "../_corpus.ts";
import { explainScore } from "../../src/explain/mod.ts";

const enc = new TextEncoder();

/** The lines of `text`, as readLines gives them. */
async function linesOf(text: string) {
  const lines = [];
  for await (const l of readLines(ReadableStream.from([enc.encode(text)]))) lines.push(l);
  return lines;
}

/**
 * A seeded evaluation report: odd ids, strings with quotes, commas, brackets and line breaks;
 * `dropAll` gives every example an empty target, so that no record is left (a report of
 * scoreToolCalls: scoreJsonl refuses such a run).
 */
async function report(seed: number, n: number, detail: boolean, dropAll = false) {
  const rng = makeRng(seed);
  const odd = ["  ]", "},", '"', "\n  ]\n", ",", "é\u2028", "[", "{}"];
  const examples = Array.from({ length: n }, (_, i) => ({
    example_id: `${rng.pick(odd)}${i}${rng.pick(odd)}`,
    language: rng.pick(["en", "de", odd[rng.int(odd.length)]!]),
    target: dropAll || rng.chance(0.1)
      ? []
      : { name: "f", arguments: { s: rng.pick(odd), x: rng.int(5) / 2 } },
  }));
  const generations = examples.map((e) => ({
    example_id: e.example_id,
    prompt_sha256: "0".repeat(64),
    output: rng.chance(0.5)
      ? JSON.stringify({ name: "f", arguments: { s: rng.pick(odd), x: rng.int(5) / 2 } })
      : rng.pick(odd),
  }));
  // scoreJsonl refuses a run that scored nothing; scoreToolCalls (arrays) still writes its report.
  if (dropAll) return formatReport(scoreToolCalls(examples, generations));
  const jsonl = (rows: object[]) => enc.encode(rows.map((r) => JSON.stringify(r)).join("\n"));
  const { bytes } = await scoreJsonl(
    { examples: jsonl(examples), generations: jsonl(generations) },
    detail ? { detail: explainScore() } : {},
  );
  return new TextDecoder().decode(bytes);
}

Deno.test("parseReportLines() reads every report as JSON.parse reads its whole text", async () => {
  const texts = [
    await report(1, 200, false),
    await report(2, 150, true),
    await report(3, 4, false, true), // no records: "records": [] on its line
    formatReport({ schema: "x", records: [{ a: 1 }] }),
    formatReport({ schema: "no records", n: 1 }),
    formatReport({ schema: "records not a list", records: { a: [1] } }),
  ];
  for (const text of texts) {
    deepStrictEqual(await parseReportLines(await linesOf(text), "r.json"), JSON.parse(text));
  }
});

Deno.test("parseReportLines() refuses a broken report, naming the file and the line", async () => {
  const text = formatReport({ schema: "x", records: [{ a: 1 }, { a: 2 }, { a: 3 }] });
  const lines = text.split("\n");
  const broken = (at: number, line: string) =>
    [...lines.slice(0, at), line, ...lines.slice(at + 1)].join("\n");
  const at = lines.indexOf('    {"a":2},');
  const cases: [string, RegExp][] = [
    [broken(at, '    {"a":2'), new RegExp(`^r.json:${at + 1}: not a record of the report`)],
    [broken(at, "    [2],"), new RegExp(`^r.json:${at + 1}: a record of the report is not an`)],
    [lines.slice(0, at + 1).join("\n"), new RegExp(`^r.json:${at + 1}: the report ends inside`)],
    [broken(0, "{,"), /^r.json is not JSON/],
  ];
  for (const [bad, message] of cases) {
    await rejects(
      parseReportLines(await linesOf(bad), "r.json"),
      (e: unknown) => e instanceof InputError && message.test(e.message),
    );
  }
});

Deno.test("readJsonFile() reads a file above its whole-text limit a line at a time, to the same report", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/report.json`;
    const text = await report(4, 300, true);
    await Deno.writeTextFile(path, text);
    deepStrictEqual(await readJsonFile(path, 0), await readJsonFile(path));
    deepStrictEqual(await readJsonFile(path, 0), JSON.parse(text));
    // A file in no report's layout, over the limit, is bad input naming it.
    await Deno.writeTextFile(path, '{"schema": "x",\n"records": [1, 2]\n');
    await rejects(
      readJsonFile(path, 0),
      (e: unknown) => e instanceof InputError && e.message.startsWith(`${path} is not JSON`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseReportLines() refuses a report whose part outside a records list is over its limit, naming it", async () => {
  // A structured report (rows, no records list) of 1M rows, 1.39 GB, was pushed line by line and
  // joined: past 512 MiB "not JSON: Invalid string length", at 1.39 GB the heap ran out (a crash).
  const rows = Array.from({ length: 200 }, (_, i) => `    {"id": "r${i}", "ok": true},`);
  const text = [
    "{",
    '  "schema": "assay.structured.v1",',
    '  "rows": [',
    ...rows,
    "    {}",
    "  ]",
    "}",
  ]
    .join("\n");
  await rejects(
    parseReportLines(await linesOf(text), "s.json", 1000),
    (e: unknown) =>
      e instanceof InputError &&
      e.message === "s.json: more than 1000 characters of the report lie outside a " +
          "records list (read at line 35); only an evaluation report's records are read a line " +
          "at a time",
  );
  // Within the limit it is read whole, as JSON.parse reads it.
  deepStrictEqual(await parseReportLines(await linesOf(text), "s.json"), JSON.parse(text));
});

Deno.test("readJsonFile() reads a gzip file above its whole-text limit decompressed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/report.json.gz`;
    const text = await report(4, 300, true);
    const gz = new Uint8Array(
      await new Response(
        ReadableStream.from([enc.encode(text)]).pipeThrough(new CompressionStream("gzip")),
      ).arrayBuffer(),
    );
    await Deno.writeFile(path, gz);
    // It was read as lines of gzip bytes: "invalid UTF-8 at byte 1 ... it is gzip data".
    deepStrictEqual(await readJsonFile(path, 0), JSON.parse(text));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
