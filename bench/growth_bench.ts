// Costs that once grew faster than their input, measured at two or three sizes each, so that a
// change that brings the product back shows as a time that grows by more than the input does:
//
// - requiredFieldAccuracy: n expected fields against one output holding n keys;
// - uniqueItems on arrays nested d deep (a recursive schema, uniqueItems at every level);
// - an enum of n objects against one object instance of 50,000 keys (0.88 MB);
// - compareReports (`all` and `intersection`) and languageGaps on r records in r/20 slices;
// - the scoring kernel's shared pairs: one call whose arguments hold n keys, each a nested value
//   that differs from the gold's (scoreJsonl on each engine; until 2026-12-06 a scan per key
//   made 32,000 keys take 23 s on the Wasm engine's kernel and 50 s on the TS engine); and one
//   whose n keys are mostly absent from the gold's n, each between two of them in canonical order
//   (a search that passes over the gold's members for each key it lacks is quadratic).
//
//   deno run -A bench/growth_bench.ts [--only fields|unique|enum|compare|pairs]
//
// Figures are the best of three runs on a shared machine: read them as growth, not as speed.
import { requiredFieldAccuracy } from "../src/structured/mod.ts";
import { compileSchema } from "../src/json_schema/mod.ts";
import { compareReports, languageGaps } from "../src/compare/mod.ts";
import { type ExampleInput, scoreJsonl, scoreToolCalls } from "../src/evaluation/mod.ts";
import { createEngine } from "../src/engine/mod.ts";

const only = Deno.args[Deno.args.indexOf("--only") + 1];

function best(run: () => unknown): number {
  let t = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    run();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
}

function row(what: string, size: string, ms: number) {
  console.log(`${what.padEnd(34)} ${size.padStart(24)} ${ms.toFixed(1).padStart(10)} ms`);
}

if (!only || only === "fields") {
  for (const n of [4_096, 8_192, 16_384]) {
    const keys = Array.from({ length: n }, (_, i) => `field_${String(i).padStart(6, "0")}`);
    const output = JSON.stringify(Object.fromEntries(keys.map((k, i) => [k, i])));
    const expected = [Object.fromEntries(keys.map((k, i) => [k, i]))];
    const ms = best(() => requiredFieldAccuracy(expected, [output]));
    row("requiredFieldAccuracy", `${n} fields, ${(output.length / 1000).toFixed(0)} kB`, ms);
  }
}

if (!only || only === "unique") {
  const schema = compileSchema({ uniqueItems: true, items: { $ref: "#" } });
  for (const depth of [150, 300, 450]) {
    // Each level: 100 distinct arrays of 8 numbers, then the next level (450 levels take 900 of
    // the 1,000 nested subschemas validation allows: items, then $ref).
    let x: unknown[] = [];
    for (let d = 0; d < depth; d++) {
      const level: unknown[] = Array.from(
        { length: 100 },
        (_, i) => Array.from({ length: 8 }, (_, j) => d * 1000 + i * 8 + j),
      );
      level.push(x);
      x = level;
    }
    const mb = (JSON.stringify(x).length / 1e6).toFixed(2);
    if (!schema.isValid(x)) throw new Error("the nested instance must be valid");
    const ms = best(() => schema.isValid(x));
    row("uniqueItems, nested", `${depth} deep, ${mb} MB`, ms);
  }
}

if (!only || only === "enum") {
  const x = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`key_${i}`, i]));
  const mb = (JSON.stringify(x).length / 1e6).toFixed(2);
  for (const n of [250, 500, 1000]) {
    const entries = Array.from({ length: n }, (_, i) => ({ id: i, name: `entry ${i}` }));
    const schema = compileSchema({ enum: entries });
    const ms = best(() => schema.isValid(x));
    row(`enum of ${n} objects`, `50000 keys, ${mb} MB`, ms);
  }
}

if (!only || only === "compare") {
  for (const r of [20_000, 40_000, 80_000]) {
    const examples: ExampleInput[] = Array.from({ length: r }, (_, i) => ({
      example_id: `x${i}`,
      language: i % 20 === 0 ? "en" : `l${i % (r / 20)}`,
      target: { name: "f", arguments: { a: i % 3 } },
      ...(i % 20 === 0 ? {} : { root_id: `x${i - (i % 20)}` }),
    }));
    const out = (k: number) =>
      examples.map((e, i) => ({
        example_id: e.example_id,
        output: (i + k) % 4 === 0 ? "no" : JSON.stringify({ name: "f", arguments: { a: i % 3 } }),
      }));
    const base = scoreToolCalls(examples, out(0));
    const adapter = scoreToolCalls(examples, out(1));
    const size = `${r} records, ${base.slices.length} slices`;
    const opts = { resamples: 10 };
    row("compareReports", size, best(() => compareReports(base, adapter, opts)));
    row(
      "compareReports on intersection",
      size,
      best(() => compareReports(base, adapter, { ...opts, on: "intersection" })),
    );
    row("languageGaps", size, best(() => languageGaps(base, opts)));
  }
}

if (!only || only === "pairs") {
  const enc = new TextEncoder();
  const CASES = ["nested values", "keys absent"].flatMap((what) =>
    [8_000, 16_000, 32_000].map((n) => [what, n] as const)
  );
  for (const kind of ["wasm", "ts"] as const) {
    const engine = await createEngine({ engine: kind });
    for (const [what, n] of CASES) {
      const args = (k: number) =>
        Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, { v: i, w: [i, k] }]));
      const examples = enc.encode(
        JSON.stringify({
          example_id: "a",
          language: "en",
          target: { name: "f", arguments: args(1) },
        }) +
          "\n",
      );
      // Absent keys: `k12.` sorts between `k12` and `k120`; one key in 50 is the gold's.
      const absent = () =>
        Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}${i % 50 ? "." : ""}`, i]));
      const output = JSON.stringify({
        name: "f",
        arguments: what === "nested values" ? args(2) : absent(),
      });
      const generations = enc.encode(
        JSON.stringify({ example_id: "a", prompt_sha256: "0".repeat(64), output }) + "\n",
      );
      let t = Infinity;
      for (let k = 0; k < 3; k++) {
        const t0 = performance.now();
        const { report } = await scoreJsonl({ examples, generations }, { engine });
        t = Math.min(t, performance.now() - t0);
        if (report.engine !== kind) throw new Error(`the run was not on the ${kind} engine`);
      }
      row(
        `shared pairs, ${what} (${kind})`,
        `${n} keys, ${(output.length / 1e6).toFixed(2)} MB`,
        t,
      );
    }
  }
}
