// The scoreStructuredJsonl part of the conformance run: JSONL bytes built from the corpus outputs
// (outputs with calls, checks and API results; expected rows joined by id, out of order; a
// schema), scored in chunks on one engine, its calls read from `tool_calls` and, a second time,
// decoded from each output by `hermes@2`. The report bytes with the engine blanked go into the
// digest, which every runtime and engine must share; so do bad inputs' error messages, and the
// report of the outputs compressed by the runtime's own CompressionStream("gzip"), which the
// library reads through DecompressionStream (one member) to the plain bytes' report.
import type { Engine } from "../../mod.ts";
import { getDecoder } from "../../src/formats/mod.ts";
import { scoreStructuredJsonl } from "../../src/structured_jsonl/mod.ts";
import { rng } from "./_corpus.ts";

const SCHEMA = {
  type: "object",
  properties: { name: { type: "string" }, arguments: { type: "object" } },
  required: ["name"],
};

const encode = (rows: unknown[]) =>
  new TextEncoder().encode(rows.map((r) => JSON.stringify(r) + "\n").join(""));

/** Chunks of 1 to 97 bytes, so that every line boundary and character is split somewhere. */
async function* chunks(bytes: Uint8Array, seed: number): AsyncGenerator<Uint8Array> {
  const next = rng(seed);
  for (let i = 0; i < bytes.length;) {
    const n = 1 + Math.floor(next() * 97);
    yield bytes.slice(i, i + n);
    i += n;
  }
}

/** The structured JSONL reports (engine blanked) and bad inputs' messages over corpus outputs. */
export async function structuredJsonlSection(engine: Engine, outputs: string[]): Promise<string[]> {
  const texts = outputs.slice(0, 400);
  const next = rng(11);
  const rows = texts.map((output, i) => {
    const name = /"name"\s*:\s*"([^"]*)"/.exec(output)?.[1] || "f";
    return {
      id: `r${i}`,
      output: i % 5 === 0
        ? `<tool_call>${JSON.stringify({ name, arguments: { k: i % 3 } })}</tool_call>`
        : output,
      tool_calls: i % 4 === 0 ? [] : [{ name, arguments: { k: i % 3 } }],
      checks: Array.from({ length: 1 + (i % 3) }, () => next() < 0.6),
      api_results: [i % 7 === 0 ? 500 : 200, next() < 0.5],
    };
  });
  const expected = rows.map((r, i) => ({
    id: r.id,
    fields: { name: i % 2 === 0 ? "get_weather" : "f" },
    tool_calls: [{ name: r.tool_calls[0]?.name ?? "f", arguments: { k: i % 3 } }],
  })).reverse();
  const sources = (seed: number) => ({
    outputs: chunks(encode(rows), seed),
    expected: chunks(encode(expected), seed + 1),
    schema: new TextEncoder().encode(JSON.stringify(SCHEMA)),
  });
  const names = { outputs: "outputs.jsonl", expected: "expected.jsonl", schema: "schema.json" };
  const results: string[] = [];
  for (
    const [seed, options] of [
      [1, { mode: "lenient" as const }],
      [2, { decoder: getDecoder("hermes"), match: "subset" as const, numbers: "numeric" as const }],
    ] as const
  ) {
    const { report } = await scoreStructuredJsonl(sources(seed), { engine, names, ...options });
    results.push(JSON.stringify({ ...report, engine: "-" }));
  }
  // Gzip-compressed outputs, in chunks: the first run's report, digests included (of the
  // decompressed bytes), whichever zlib the runtime compressed them with.
  const gz = new Uint8Array(
    await new Response(
      new Blob([encode(rows)]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer(),
  );
  try {
    const { report } = await scoreStructuredJsonl({
      outputs: chunks(gz, 3),
      expected: chunks(encode(expected), 4),
      schema: new TextEncoder().encode(JSON.stringify(SCHEMA)),
    }, { engine, names, mode: "lenient" });
    const same = JSON.stringify({ ...report, engine: "-" }) === results[0];
    results.push(same ? "gzip: the plain report" : JSON.stringify({ ...report, engine: "-" }));
  } catch (e) {
    results.push(`gzip: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  }
  const bad = [
    [...rows.slice(0, 3), { ...rows[3], checks: "yes" }],
    [...rows.slice(0, 3), rows[1]],
  ];
  for (const outputs of bad) {
    try {
      await scoreStructuredJsonl({ outputs: encode(outputs) }, { engine, names });
      results.push("no error");
    } catch (e) {
      results.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    }
  }
  return results;
}
