// The decoders of API shapes (openai-chat, openai-responses, anthropic) and of tool-call texts
// (hermes, llama3, mistral, json-list) against an independent Python oracle
// (tests/formats/_api_decoder_oracle.py, written from docs/formats.md), on seeded outputs of each
// format (tests/formats/_api_corpus.ts), on both engines: every output's status, and for `ok` its
// calls' names and canonical arguments. The reasons are Assay's own wording and are checked by the
// decoders' table (decoders_test.ts).
//
// Needs --allow-run (python3) and --allow-read.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createEngine } from "../../src/engine/mod.ts";
import { decodeToolCalls } from "../../src/formats/mod.ts";
import { makeRng } from "../_corpus.ts";
import { PYTHON, runLineOracle } from "../_debian_python.ts";
import { API_FORMATS, apiOutputs } from "./_api_corpus.ts";

const ORACLE = new URL("./_api_decoder_oracle.py", import.meta.url).pathname;
const PER_FORMAT = 2_000;

interface Verdict {
  status: string;
  calls: [string, string][];
}

for (const format of API_FORMATS) {
  Deno.test(`${format}: ${PER_FORMAT} seeded outputs decode as the Python oracle reads them, on both engines`, async () => {
    const outputs = apiOutputs(makeRng(20261207 + API_FORMATS.indexOf(format)), format, PER_FORMAT);
    const answers = await runLineOracle(
      [ORACLE],
      outputs.map((output) => JSON.stringify({ format, output })),
    );
    const expected = answers.map((a) => JSON.parse(a) as Verdict);
    const statuses = new Map<string, number>();
    for (const e of expected) statuses.set(e.status, (statuses.get(e.status) ?? 0) + 1);
    // The corpus reaches every status a decoder of whole JSON gives, and mostly calls.
    for (const s of ["ok", "no_json", "invalid_json", "invalid_shape"]) {
      ok((statuses.get(s) ?? 0) > 0, `${format}: no output is ${s} (${[...statuses]})`);
    }
    ok(expected.filter((e) => e.calls.length > 0).length > PER_FORMAT / 4, `${format}: few calls`);
    for (const engine of [createEngine({ engine: "wasm" }), createEngine({ engine: "ts" })]) {
      const wrong: string[] = [];
      outputs.forEach((output, i) => {
        const d = decodeToolCalls(output, format, { engine });
        const got: Verdict = {
          status: d.status,
          calls: d.calls.map((c) => [c.name, c.arguments]),
        };
        try {
          assertEquals(got, expected[i]);
        } catch {
          wrong.push(
            `#${i} ${output.slice(0, 400)}\n  assay ${JSON.stringify(got)} (${d.reason ?? ""})\n` +
              `  oracle ${JSON.stringify(expected[i])}`,
          );
        }
      });
      assertEquals(
        wrong.slice(0, 8),
        [],
        `${format} on ${engine.name}: ${wrong.length} of ${PER_FORMAT} disagree (${PYTHON})`,
      );
    }
  });
}
