// Engine benchmarks: the wasm engine against its pure-TS twin on the same
// inputs (ts is each group's baseline), plus the cost of an empty JS↔Wasm
// crossing. `deno run -A bench/report.ts` turns the timings into MB/s and
// wasm/ts ratios. Run alone with `deno bench bench/engine_bench.ts`.
import {
  canonicalizeBatch,
  createEngine,
  type Engine,
  extractSpanBatch,
  parseToolCallBatch,
} from "../mod.ts";
import { benchGroups } from "./_inputs.ts";

const engines: Engine[] = [
  createEngine({ engine: "ts" }),
  createEngine({ engine: "wasm" }),
];

for (const g of benchGroups()) {
  for (const engine of engines) {
    const base = { group: g.group, baseline: engine.name === "ts" };
    const texts = g.texts;
    switch (g.kind) {
      case "crossing":
        // An empty batch, and a batch of one empty text: the fixed cost per call.
        Deno.bench({
          ...base,
          name: `empty batch ${engine.name}`,
          fn: () => void canonicalizeBatch([], { engine }),
        });
        Deno.bench({
          group: g.group,
          name: `one empty text ${engine.name}`,
          fn: () => void extractSpanBatch([""], { engine }),
        });
        break;
      case "span":
        Deno.bench({
          ...base,
          name: `${g.group} ${engine.name}`,
          fn: () => void extractSpanBatch(texts, { engine }),
        });
        break;
      case "canonical":
        Deno.bench({
          ...base,
          name: `${g.group} ${engine.name}`,
          fn: () => void canonicalizeBatch(texts, { engine }),
        });
        break;
      case "batch":
        Deno.bench({
          ...base,
          name: `${g.group} ${engine.name}`,
          fn: () =>
            void parseToolCallBatch(texts, {
              engine,
              pairs: true,
              arguments: false,
            }),
        });
        break;
    }
  }
}
