// build/kernel_rules_mutants.ts is slow (a compile and a test run per mutant), so the gate does not
// run it; this keeps it runnable: each mutant's edit must still find its text, once, in its file,
// or the script stops at it (as it did when score_records.ts's indentation changed).
import { deepStrictEqual } from "node:assert/strict";
import { MUTANTS } from "../../build/kernel_rules_mutants.ts";
import { readSources } from "../../build/build_wasm.ts";

Deno.test("every kernel-rule mutant's edit applies: its text is once in its file", async () => {
  const sources = await readSources();
  const stale = MUTANTS.filter((m) => (sources.get(m.file) ?? "").split(m.from).length !== 2)
    .map((m) => `${m.name} (${m.file})`);
  deepStrictEqual(stale, []);
});
