import { deepStrictEqual as assertEquals, strictEqual as equal } from "node:assert/strict";
import { benchGroups, SIZES } from "../../bench/_inputs.ts";
import {
  canonicalizeBatch,
  createEngine,
  extractSpanBatch,
  parseToolCallBatch,
} from "../../mod.ts";

const engine = createEngine({ engine: "ts" });

Deno.test("benchGroups() inputs have the stated sizes and are valid where they should be", () => {
  const groups = benchGroups();
  for (const { label, bytes } of SIZES) {
    const span = groups.find((g) => g.group === `span ${label}`)!;
    const doc = groups.find((g) => g.group === `canonical ${label}`)!;
    equal(span.bytes, bytes);
    equal(doc.bytes, bytes);
    equal(extractSpanBatch(span.texts, { engine })[0]!.status, "found");
    equal(canonicalizeBatch(doc.texts, { engine })[0]!.ok, true);
  }
  const batch = groups.find((g) => g.kind === "batch")!;
  equal(batch.texts.length, 10_000);
  const perText = batch.bytes / batch.texts.length;
  equal(perText > 450 && perText < 550, true, `${perText} bytes per output`);
  const counts: Record<string, number> = {};
  for (const r of parseToolCallBatch(batch.texts, { engine, arguments: false })) {
    counts[r.status] = (counts[r.status] ?? 0) + 1;
  }
  // Mostly valid calls, with every failure status present.
  assertEquals(Object.keys(counts).sort(), ["invalid_json", "invalid_shape", "no_json", "ok"]);
  equal(counts.ok! > 8_500, true);
});
