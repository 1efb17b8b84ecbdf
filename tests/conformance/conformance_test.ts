import {
  deepStrictEqual as assertEquals,
  notDeepStrictEqual as assertNotEquals,
} from "node:assert/strict";
import { buildCorpus } from "./_corpus.ts";
import { buildJsonlCorpus } from "./_jsonl_corpus.ts";
import { createEngine, scoreJsonl } from "../../mod.ts";
import { missingErrorCodes, runConformance, stableSerialize } from "./conformance.ts";
import { structuredJsonlSection } from "./_structured_jsonl.ts";

Deno.test("buildCorpus() builds the same texts for the same seed", () => {
  const a = buildCorpus(7);
  assertEquals(buildCorpus(7), a);
  assertNotEquals(buildCorpus(8).outputs, a.outputs);
});

Deno.test("buildJsonlCorpus() builds the same bytes for the same seed, and every kind of row", async () => {
  const outputs = buildCorpus().outputs;
  const a = await buildJsonlCorpus(outputs);
  assertEquals(await buildJsonlCorpus(outputs), a);
  assertNotEquals((await buildJsonlCorpus(outputs, 1)).examples, a.examples);
  const text = new TextDecoder().decode(a.examples);
  for (const lexeme of ['"amount":1,', '"amount":1.0,', "123456789012345678901234567890", "東京"]) {
    assertEquals(text.includes(lexeme), true, lexeme);
  }
  // Outputs written as JSON values, and manifest rows of no example: the kernel reads both.
  const generations = new TextDecoder().decode(a.generations);
  assertEquals(/"output":[[{]/.test(generations), true, "no output written as a JSON value");
  assertEquals(new TextDecoder().decode(a.prompts).includes('"unscored-'), true);
  const { report, handedBack } = await scoreJsonl(a, { engine: createEngine({ engine: "wasm" }) });
  assertEquals(handedBack, undefined);
  for (const [status, count] of Object.entries(report.parse_status_counts)) {
    assertEquals(count > 0, true, status);
  }
  for (const [reason, count] of Object.entries(report.drop_summary)) {
    assertEquals(count > 0, true, reason);
  }
});

Deno.test("stableSerialize() keeps lone surrogates, -0 and special numbers apart", () => {
  assertEquals(stableSerialize("\ud83d\ude00"), '"\\ud83d\\ude00"');
  assertNotEquals(stableSerialize("\ud800"), stableSerialize("\ufffd"));
  assertEquals(
    stableSerialize([-0, 0, NaN, -Infinity]),
    "[-0,0,NaN,-Infinity]",
  );
  assertEquals(
    stableSerialize({ b: 1, a: undefined, c: [null] }),
    '{"b":1,"c":[null]}',
  );
  assertEquals(
    stableSerialize({ b: 1, a: 2 }),
    stableSerialize({ a: 2, b: 1 }),
  );
  assertNotEquals(stableSerialize(Object.create(null)), stableSerialize({}));
});

Deno.test("runConformance() gives one digest on the wasm and ts engines", async () => {
  const ts = await runConformance({ engine: "ts" });
  const wasm = await runConformance({ engine: "wasm" });
  assertEquals(wasm.engine, "wasm");
  assertEquals(wasm.sections, ts.sections);
  assertEquals(wasm.sha256, ts.sha256);
  assertEquals(wasm.counts, ts.counts);
});

Deno.test("runConformance() covers every error code", async () => {
  assertEquals(missingErrorCodes(await runConformance({ engine: "ts" })), []);
});

Deno.test("conformanceSections() evaluation comparison matches its golden file on both engines, 3 runs", async () => {
  const { conformanceSections, defaultConformanceCorpus } = await import("./conformance.ts");
  const { createEngine } = await import("../../mod.ts");
  const goldenUrl = new URL("../golden/conformance_comparison.json", import.meta.url);
  const corpus = defaultConformanceCorpus();
  const texts: string[] = [];
  for (const engine of [createEngine({ engine: "wasm" }), createEngine({ engine: "ts" })]) {
    for (let run = 0; run < 3; run++) {
      const section = conformanceSections(engine, corpus).find((s) => s.name === "evaluation")!;
      texts.push((section.results as string[])[1]!);
    }
  }
  if (Deno.env.get("ASSAY_UPDATE_GOLDEN") === "1") await Deno.writeTextFile(goldenUrl, texts[0]!);
  const golden = await Deno.readTextFile(goldenUrl);
  for (const t of texts) assertEquals(t, golden);
});

Deno.test("the conformance run's gzip-compressed outputs give the plain outputs' report", async () => {
  // The cross-runtime run requires every runtime's digest to be Deno's: this holds Deno's to it.
  const results = await structuredJsonlSection(
    createEngine({ engine: "ts" }),
    buildCorpus().outputs,
  );
  assertEquals(results[2], "gzip: the plain report");
});
