// scoreStructuredJsonl() keeps each row's figures compactly and writes the report in parts: the
// bytes are those of the former path, which held every row's fields, inputs and report row as
// objects and wrote JSON.stringify(report, null, 2). The digests below were computed by that path
// (at f74aba2, before the change) on seeded corpora: valid rows, outputs that are not JSON or
// not whole JSON, schema failures, non-ASCII ids and text, invalid UTF-8 in outputs, blank lines,
// `example_id` for `id`, fields no metric reads; and so were the errors of corpora with one or two
// broken rows, whose order (which row, which metric is refused first) the rows' new reading keeps.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createEngine, sha256Hex } from "../../mod.ts";
import { getDecoder } from "../../src/formats/mod.ts";
import {
  scoreStructuredJsonl,
  type ScoreStructuredJsonlOptions,
  scoreStructuredJsonlParts,
  StructuredInputError,
} from "../../src/structured_jsonl/mod.ts";
import { runMain } from "../cli/_main.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { assertSameBytes, variedRows, withoutReasons, withoutSettings } from "./_rows.ts";

const enc = new TextEncoder();
const TS = createEngine({ engine: "ts" });
const SCHEMA = enc.encode(
  '{"type": "object", "required": ["answer"], "properties": {"answer": {"type": "integer", ' +
    '"maximum": 25}, "user": {"type": "object", "required": ["name", "age"]}}}',
);

/** Seeded outputs and expected bytes, with the variations the scoring reads around. */
function corpus(
  rng: Rng,
  count: number,
  ids = true,
): { outputs: Uint8Array; expected: Uint8Array } {
  const rows = variedRows(rng, { count, ids });
  const vary = (text: string, outputs: boolean): Uint8Array => {
    const parts: Uint8Array[] = [];
    for (let line of text.split("\n")) {
      if (line === "") continue;
      if (rng.chance(0.05)) parts.push(enc.encode(rng.pick(["\n", "  \n", "\t\r\n"])));
      if (ids && rng.chance(0.1)) line = line.replace(/^\{"id":/, '{"example_id":');
      if (rng.chance(0.1)) line = line.replace(/\}$/, ',"meta":{"k":[1,2.0,"\u00e9"]}}');
      const bytes = enc.encode(line + "\n");
      const at = outputs && rng.chance(0.08) ? line.indexOf('"output":"') : -1;
      if (at < 0) {
        parts.push(bytes);
        continue;
      }
      // An invalid byte inside the output's string: model output, read with U+FFFD.
      const cut = enc.encode(line.slice(0, at + 10)).length;
      parts.push(bytes.subarray(0, cut), Uint8Array.of(rng.pick([0xff, 0xc3, 0xe2, 0x80])));
      parts.push(bytes.subarray(cut));
    }
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) all.set(p, (at += p.length) - p.length);
    return all;
  };
  return { outputs: vary(rows.outputs, true), expected: vary(rows.expected, false) };
}

interface Case {
  name: string;
  options: ScoreStructuredJsonlOptions;
  expected: boolean;
  schema: boolean;
  ids?: boolean;
  digest: string;
}

const CASES: Case[] = [
  {
    name: "every metric, fenced",
    options: { format: "Answer: [0-9]+", mode: "fenced" },
    expected: true,
    schema: true,
    digest: "28e64465245a24917dab5ddf518eacdb65f63e86360afecb58d0e3bd05fc5150",
  },
  {
    name: "every metric, strict, wasm",
    options: { format: "[^x]*", engine: createEngine({ engine: "wasm" }) },
    expected: true,
    schema: true,
    digest: "0a61544581b30fba947f0a69e110f832a321c8889f5935c1e8e9752fca3fc719",
  },
  {
    name: "no expected rows, lenient",
    options: { mode: "lenient", format: "[^x]*" },
    expected: false,
    schema: true,
    digest: "6900fcc6fa19de4e2d93b417ff1515acabdcb2cf454acf24ee5cb397ab69c847",
  },
  {
    name: "Hermes decoder, subset match, numbers numeric",
    options: { decoder: getDecoder("hermes"), match: "subset", numbers: "numeric" },
    expected: true,
    schema: false,
    digest: "08637dcdf4e0b3d78586bfb72d484d25d9d8b739260688fdf52b23dad3b34713",
  },
  {
    name: "metrics chosen, name match, ordered",
    options: {
      metrics: ["tool_call_f1", "json_validity", "tool_call_f1", "tool_selection_accuracy"],
      match: "name",
      ordered: true,
    },
    expected: true,
    schema: false,
    digest: "90c05cebdabace5969176341a53ab1f361d86c679147807be466863e5e53663a",
  },
  {
    name: "no ids: joined by line order, format assertion",
    options: { formatAssertion: true, mode: "fenced" },
    expected: true,
    schema: true,
    ids: false,
    digest: "b0b8f7c0ce4dc2115ec450a91b14772d0d3ae613cc11c7835dd4e38336c2cea4",
  },
];

async function score(
  files: { outputs: Uint8Array; expected: Uint8Array },
  c: Pick<Case, "options" | "expected" | "schema">,
) {
  return await scoreStructuredJsonl(
    {
      outputs: files.outputs,
      ...(c.expected && { expected: files.expected }),
      ...(c.schema && { schema: SCHEMA }),
    },
    { engine: TS, ...c.options, names: { outputs: "o.jsonl", expected: "e.jsonl" } },
  );
}

Deno.test("the report's bytes are the former path's, on seeded corpora", async () => {
  const rng = makeRng(60607);
  const digests: string[] = [];
  let withReasons = 0;
  for (const c of CASES) {
    const files = corpus(rng, 1500, c.ids);
    const { report, bytes } = await score(files, c);
    strictEqual(report.rows.length, report.n);
    // The report object is the bytes' JSON, written as the former path wrote it.
    const text = JSON.stringify(report, null, 2) + "\n";
    strictEqual(new TextDecoder().decode(bytes), text, c.name);
    // Rows say why their calls are invalid since 2026-12-07; nothing else moved.
    digests.push(sha256Hex(withoutReasons(withoutSettings(bytes))));
    withReasons += report.rows.filter((r) => r.reasons !== undefined).length;
    // The settings the case scored with, defaults written out.
    const o = c.options;
    deepStrictEqual(report.settings, {
      numbers: o.numbers ?? "exact",
      match: o.match ?? "exact",
      ordered: o.ordered === true,
      format: o.format ?? null,
      format_assertion: o.formatAssertion === true,
    }, c.name);
  }
  const want = CASES.map((c) => c.digest);
  strictEqual(digests.join("\n"), want.join("\n"));
  ok(withReasons > 100, `${withReasons} rows with reasons`);
});

/** Breaks one line of a corpus: of the outputs or of the expected rows. */
const FAULTS: [file: "outputs" | "expected", edit: (line: string) => string][] = [
  ["outputs", (l) => l.replace(/"checks":\[[^\]]*\]/, '"checks":[true,3]')],
  ["outputs", (l) => l.replace(/"checks":\[[^\]]*\]/, '"checks":"yes"')],
  ["outputs", (l) => l.replace(/"api_results":\[[^\]]*\]/, '"api_results":[true,"bad"]')],
  ["outputs", (l) => l.replace(/"output":"(?:[^"\\]|\\.)*"/, '"output":7')],
  ["outputs", (l) => l.replace(/"retention":/, '"retention":[1],"x":')],
  ["outputs", (l) => l.replace(/"tool_calls":/, '"tool_calls":[{"name":5}],"x":')],
  ["expected", (l) => l.replace(/"tool_calls":.*\}$/, '"tool_calls":[{"nome":"g"}]}')],
  ["expected", (l) => l.replace(/"tool_calls":.*\}$/, '"tool_calls":5}')],
  ["expected", (l) => l.replace(/"fields":\{[^}]*\}/, '"fields":[1]')],
  ["expected", (l) => l.replace(/"fields":\{/, '"fields":{"a":1,"a":2,')],
];

// The messages name a bad api_results entry as JSON writes it ("bad", quoted) since
// apiCallSuccessRate stopped printing strings bare, and an output of 7 "must be a string, an object
// or an array" since objects and arrays are read (2026-12-07); nothing else of them changed.
const ERRORS_DIGEST = "a22b0a6bfb2690073e5e51dd5ca63e696bebe70a5d34d05978026000c814b61e";

Deno.test("a corpus with broken rows fails at the row and metric the former path named", async () => {
  const rng = makeRng(8017);
  const seen: string[] = [];
  for (let k = 0; k < 150; k++) {
    const rows = variedRows(rng, { count: 40 + rng.int(40) });
    const lines = { outputs: rows.outputs.split("\n"), expected: rows.expected.split("\n") };
    for (let f = rng.chance(0.7) ? 2 : 1; f > 0; f--) {
      const [file, edit] = rng.pick(FAULTS);
      const i = rng.int(lines[file].length - 1);
      lines[file][i] = edit(lines[file][i]!);
    }
    const c = rng.pick([
      { options: {}, expected: true, schema: true },
      { options: { metrics: ["instruction_retention", "required_field_accuracy"] } },
      { options: { metrics: ["tool_argument_accuracy", "api_call_success_rate"] } },
      { options: { decoder: getDecoder("hermes") }, expected: true, schema: false },
    ]);
    const files = {
      outputs: enc.encode(lines.outputs.join("\n")),
      expected: enc.encode(lines.expected.join("\n")),
    };
    try {
      await score(files, { expected: true, schema: false, ...c });
      seen.push("ok");
    } catch (e) {
      ok(e instanceof StructuredInputError || e instanceof Error, String(e));
      const s = e as StructuredInputError;
      seen.push(`${s.name}: ${s.message} | ${s.line} ${s.id} ${s.metric}`);
    }
  }
  ok(seen.filter((s) => s !== "ok").length > 90, seen.join("\n"));
  strictEqual(sha256Hex(seen.join("\n")), ERRORS_DIGEST, seen.join("\n"));
});

Deno.test("the report's rows share one frozen object per figure, and read as the bytes do", async () => {
  // 13 metrics' {numerator, denominator} on every row took 520 of a row's 720 bytes of heap as
  // copies; the rows of a report now share them, frozen, so that no row's change reaches another.
  const files = corpus(makeRng(7208), 2000);
  const { report, bytes } = await score(files, CASES[0]!);
  deepStrictEqual(report.rows, JSON.parse(new TextDecoder().decode(bytes)).rows);
  const objects = new Set<object>();
  let figures = 0;
  for (const row of report.rows) {
    for (const f of Object.values(row.metrics)) {
      ok(Object.isFrozen(f), `row ${row.line}: its figures are frozen`);
      objects.add(f);
      figures++;
    }
  }
  strictEqual(figures, 13 * 2000);
  ok(objects.size < 200, `${objects.size} objects for ${figures} figures`);
  // One object for each pair of numbers: equal figures are the same object.
  const byPair = new Map<string, object>();
  for (const f of objects as Set<{ numerator: number; denominator: number }>) {
    const pair = `${f.numerator}/${f.denominator}`;
    strictEqual(byPair.has(pair), false, `two objects for ${pair}`);
    byPair.set(pair, f);
  }
  // A row's own object and its metrics stay its own.
  strictEqual(new Set(report.rows.map((r) => r.metrics)).size, 2000);
});

Deno.test("the report's parts, and what assay structured prints and writes, are the same bytes", async () => {
  const files = corpus(makeRng(7207), 3000);
  const c = CASES[0]!;
  const { report, bytes } = await score(files, c);
  ok(report.inputs.outputs.invalid_utf8_outputs > 0);
  const parts = await scoreStructuredJsonlParts(
    { outputs: files.outputs, expected: files.expected, schema: SCHEMA },
    { engine: TS, ...c.options, names: { outputs: "o.jsonl", expected: "e.jsonl" } },
  );
  deepStrictEqual({ ...parts.head, rows: [...parts.rows()] }, report);
  const chunks = [...parts.chunks()];
  ok(chunks.length > 2, `${chunks.length} chunks`);
  for (const chunk of chunks) strictEqual(chunk.at(-1), 0x0a);
  assertSameBytes(Uint8Array.from(chunks.flatMap((c) => [...c])), bytes, "chunks");
  assertSameBytes(parts.bytes(), bytes, "bytes()");
  const dir = await Deno.makeTempDir({ prefix: "assay_structured_bytes_" });
  try {
    await Deno.writeFile(`${dir}/o.jsonl`, files.outputs);
    await Deno.writeFile(`${dir}/e.jsonl`, files.expected);
    await Deno.writeFile(`${dir}/s.json`, SCHEMA);
    const run = await runMain([
      "structured",
      "--outputs",
      `${dir}/o.jsonl`,
      "--expected",
      `${dir}/e.jsonl`,
      "--schema",
      `${dir}/s.json`,
      "--format",
      "Answer: [0-9]+",
      "--mode",
      "fenced",
      "--engine",
      "ts",
      "--json",
      "--out",
      `${dir}/r.json`,
    ]);
    strictEqual(run.code, 0, run.stderr);
    const cli = await Deno.readFile(`${dir}/r.json`);
    const text = new TextDecoder().decode(cli);
    strictEqual(run.stdout + "\n", text);
    assertSameBytes(cli, bytes, "--out");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
