// The library side of bench/score_bench.ts: scoreJsonl called as a server-side library user would
// call it, with each file as a function that opens it (so nothing is held in memory whole) and
// node:crypto's SHA-256, then the report's bytes written to --out.
//
//   deno run -A bench/_score_jsonl_run.ts --examples E --generations G [--prompts P] --out O
//     [--engine wasm|ts]
import { parseArgs } from "node:util";
import { createHash } from "node:crypto";
import { createEngine, type JsonlSource, scoreJsonl } from "../mod.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    examples: { type: "string" },
    generations: { type: "string" },
    prompts: { type: "string" },
    out: { type: "string" },
    engine: { type: "string", default: "wasm" },
  },
});

function file(path: string): JsonlSource {
  return async function* () {
    using f = await Deno.open(path);
    const buffer = new Uint8Array(4 << 20);
    for (;;) {
      const n = await f.read(buffer);
      if (n === null) return;
      yield buffer.subarray(0, n);
    }
  };
}

const { bytes } = await scoreJsonl(
  {
    examples: file(values.examples!),
    generations: file(values.generations!),
    prompts: values.prompts === undefined ? undefined : file(values.prompts),
  },
  {
    engine: createEngine({ engine: values.engine as "wasm" | "ts" }),
    sha256: () => createHash("sha256"),
  },
);
// Written from the bytes as they are (Deno.writeFile would copy them first).
using out = await Deno.open(values.out!, { write: true, create: true, truncate: true });
for (let at = 0; at < bytes.length;) at += await out.write(bytes.subarray(at));
