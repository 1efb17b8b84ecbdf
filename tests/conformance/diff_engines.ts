/**
 * Lists the conformance inputs on which the wasm and ts engines differ, with
 * both results: the first thing to run when build/cross_runtime.ts reports
 * different digests.
 *
 * Usage: `deno run tests/conformance/diff_engines.ts [max per section, default 5]`.
 * Exits 1 when any input differs.
 *
 * @module
 */
import { createEngine } from "../../mod.ts";
import { conformanceSections, defaultConformanceCorpus, stableSerialize } from "./conformance.ts";

function show(text: string, max = 300): string {
  const s = stableSerialize(text);
  return s.length > max ? `${s.slice(0, max)}… (${text.length} code units)` : s;
}

const limit = Number(Deno.args[0] ?? 5);
const corpus = defaultConformanceCorpus();
const ts = conformanceSections(createEngine({ engine: "ts" }), corpus);
const wasm = conformanceSections(createEngine({ engine: "wasm" }), corpus);
let differing = 0;
for (let s = 0; s < ts.length; s++) {
  const a = ts[s]!;
  const b = wasm[s]!;
  let shown = 0;
  let count = 0;
  for (let i = 0; i < a.inputs.length; i++) {
    const x = stableSerialize(a.results[i]);
    const y = stableSerialize(b.results[i]);
    if (x === y) continue;
    count++;
    if (shown++ < limit) {
      console.log(`${a.name}[${i}] input: ${show(a.inputs[i]!)}`);
      console.log(`  ts:   ${x.slice(0, 600)}`);
      console.log(`  wasm: ${y.slice(0, 600)}`);
    }
  }
  if (count > 0) {
    console.log(`${a.name}: ${count} of ${a.inputs.length} differ\n`);
  }
  differing += count;
}
console.log(
  differing === 0 ? "The engines agree on every input" : `${differing} results differ`,
);
Deno.exit(differing === 0 ? 0 : 1);
