// Scale check for `assay structured`: N varied rows (by default 50,000, 100,000 and 200,000) with
// expected rows, a schema and a format, so that all thirteen metrics are computed, scored from
// disk through the CLI to an --out report. The rows are those of the structured tests: JSON whole,
// fenced, embedded and broken, XML, tool calls in each shape, non-ASCII ids and text. Prints per
// run the wall time, rows/s, peak RSS (VmHWM, polled) and the report's size, and the RSS each row
// adds between the smallest and the largest run. With --library, it runs the library's
// scoreStructuredJsonl instead (bench/_structured_library.ts: the report's rows as objects and its
// bytes whole, held at once), on the same files.
//
//   deno run -A bench/structured_scale.ts [N ...] [--library] [--keep]
import { assayPeak, denoPeak } from "./_cli.ts";
import { makeRng } from "../tests/_corpus.ts";
import { variedRows } from "../tests/structured_jsonl/_rows.ts";

const sizes = Deno.args.filter((a) => /^\d+$/.test(a)).map(Number);
if (sizes.length === 0) sizes.push(50_000, 100_000, 200_000);
const dir = await Deno.makeTempDir({ prefix: "assay-structured-scale-" });
const SCHEMA = '{"type": "object", "required": ["answer"], "properties": {"answer": ' +
  '{"type": "integer", "maximum": 25}, "user": {"type": "object"}}}';

const library = Deno.args.includes("--library");

/**
 * Runs `assay structured` (or, with --library, scoreStructuredJsonl) on the corpus; its exit code,
 * stderr, seconds and peak RSS in MiB.
 */
function structured() {
  if (library) {
    const script = decodeURIComponent(new URL("_structured_library.ts", import.meta.url).pathname);
    return denoPeak(["run", "-A", script, dir]);
  }
  return assayPeak([
    "structured",
    "--quiet",
    "--outputs",
    `${dir}/outputs.jsonl`,
    "--expected",
    `${dir}/expected.jsonl`,
    "--schema",
    `${dir}/schema.json`,
    "--format",
    "Answer: [0-9]+",
    "--out",
    `${dir}/report.json`,
  ]);
}

const runs: { n: number; peakMiB: number }[] = [];
for (const n of sizes) {
  const rows = variedRows(makeRng(12345), { count: n });
  await Deno.writeTextFile(`${dir}/outputs.jsonl`, rows.outputs);
  await Deno.writeTextFile(`${dir}/expected.jsonl`, rows.expected);
  await Deno.writeTextFile(`${dir}/schema.json`, SCHEMA);
  const outputsMb = Deno.statSync(`${dir}/outputs.jsonl`).size / 1e6;
  const r = await structured();
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
  const reportMb = library
    ? Number(/(\d+) bytes/.exec(r.stderr)?.[1]) / 1e6
    : Deno.statSync(`${dir}/report.json`).size / 1e6;
  runs.push({ n, peakMiB: r.peakMiB });
  console.log(
    `${String(n).padStart(9)} rows (${outputsMb.toFixed(0)} MB of outputs): ${
      r.seconds.toFixed(1)
    } s = ${(n / r.seconds).toFixed(0)} rows/s, peak RSS ${r.peakMiB.toFixed(0)} MiB, ` +
      `report ${reportMb.toFixed(0)} MB`,
  );
}
if (runs.length >= 2) {
  const a = runs[0]!;
  const b = runs.at(-1)!;
  const perRow = (b.peakMiB - a.peakMiB) * (1 << 20) / (b.n - a.n);
  console.log(`peak RSS grows by ${perRow.toFixed(0)} bytes per row from ${a.n} to ${b.n}`);
}
if (!Deno.args.includes("--keep")) await Deno.remove(dir, { recursive: true });
