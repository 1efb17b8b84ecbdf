// `assay show --id` takes the ids a gate lists for failing units: for each report kind, the ids of
// a real failing verdict select exactly the units the gate meant (a BFCL entry as `category#N`, a
// suite run's golden in an arm as `golden@arm`, its repeats). Show refused the first two forms,
// so an id pasted from a CI summary named nothing.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { evaluateGate, parseGateRules } from "../../src/gate/mod.ts";
import {
  showBfclEntries,
  showIfevalPrompts,
  showStructuredRows,
  showSuiteRuns,
} from "../../src/explain/mod.ts";
import { bfclReport, checkBfcl } from "../../src/bfcl/mod.ts";
import { scoreStructuredJsonl } from "../../src/structured_jsonl/mod.ts";
import type { SuiteRunReport } from "../../src/suite/mod.ts";
import { suiteRun } from "../gate/_suite_runs.ts";
import { makeRng } from "../_corpus.ts";
import { IFEVAL_FIELDS } from "../report_check/_complete.ts";

const gate = (yaml: string) => parseGateRules(`resamples: 200\nrules:\n${yaml}`, "g.yaml");
const failingOf = (report: object, yaml: string) => {
  const v = evaluateGate(gate(yaml), { report });
  strictEqual(v.pass, false);
  return v.rules[0]!.failing;
};
// The first word of each unit's header line (a unit's lines after it are indented).
const headers = (text: string) =>
  text.split("\n").filter((l) => l !== "" && !l.startsWith(" ")).slice(0, -1);

Deno.test("show takes a BFCL gate's category#N ids, on 12 seeded reports", () => {
  let checked = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const rng = makeRng(seed);
    const n = 3 + rng.int(30);
    // Relevance: an entry that decodes to a call is valid, "No." is not.
    const lines = Array.from({ length: n }, (_, i) =>
      JSON.stringify({
        id: `relevance_${i}`,
        result: rng.float() < 0.5 ? [{ f: "{}" }] : "No.",
      }) + "\n");
    const report = bfclReport([
      checkBfcl({ results: { name: "r.json", text: lines.join("") } }, { category: "relevance" }),
    ]);
    if (report.records.every((r) => r.valid)) continue;
    const failing = failingOf(report, "  - metric: accuracy\n    min: 1\n");
    const want = report.records.filter((r) => !r.valid);
    deepStrictEqual(failing, want.map((r) => `relevance#${r.id}`));
    const shown = showBfclEntries(report, { ids: failing });
    deepStrictEqual(headers(shown).map((l) => l.split("  ")[0]), want.map((r) => r.entryId));
    ok(
      shown.endsWith(
        `${want.length} of ${want.length} selected entries shown (${n} in the report); ` +
          "the report records no model output: show BFCL's score file (assay bfcl --out) " +
          "for each failing entry's output\n",
      ),
      shown,
    );
    // Its own ids still select as before, and the two forms together once each.
    strictEqual(showBfclEntries(report, { ids: want.map((r) => r.entryId) }), shown);
    strictEqual(showBfclEntries(report, { ids: [...failing, want[0]!.entryId] }), shown);
    checked++;
  }
  ok(checked >= 10, `only ${checked} reports with a failing entry`);
});

Deno.test("show takes a suite gate's golden@arm ids, each choosing that arm's repeats of the golden", () => {
  let checked = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const report = suiteRun(seed, 4 + (seed % 7), 1 + (seed % 3)) as unknown as SuiteRunReport;
    const failing = failingOf(report, "  - metric: pass_rate\n    min: 1\n");
    const units = new Set(failing);
    const want = report.runs.filter((r) => units.has(`${r.golden_id}@${r.arm}`));
    const shown = showSuiteRuns(report, { ids: failing });
    deepStrictEqual(
      headers(shown).map((l) => l.split("  ").slice(0, 3).join(" ")),
      want.map((r) => `${r.golden_id} [${r.arm}] repeat ${r.repeat}`),
    );
    ok(
      shown.endsWith(
        `${want.length} of ${want.length} selected runs shown (${report.runs.length} in the report)\n`,
      ),
      shown,
    );
    // Every failing unit has a failing repeat among those shown.
    for (const id of failing) {
      ok(want.some((r) => `${r.golden_id}@${r.arm}` === id && r.overall.pass !== true), id);
    }
    checked += failing.length;
  }
  ok(checked > 20, `only ${checked} failing units`);
});

Deno.test("show takes a structured or IFEval gate's ids, which are its own (line N for a row without an id)", async () => {
  // A file's rows have ids all or none: without, each is named by its line.
  const outputs = new TextEncoder().encode(
    '{"output": "{}"}\n{"output": "no"}\n\n{"output": "x {}"}\n',
  );
  const { report } = await scoreStructuredJsonl({ outputs }, { metrics: ["json_validity"] });
  const failing = failingOf(report, "  - metric: json_validity\n    min: 1\n");
  deepStrictEqual(failing, ["line 2", "line 4"]);
  deepStrictEqual(
    headers(showStructuredRows(report, { ids: failing })),
    ["(no id)  line 2", "(no id)  line 4"],
  );
  const withIds = new TextEncoder().encode(
    '{"id": "a", "output": "{}"}\n{"id": "line 1", "output": "no"}\n{"id": "c", "output": "x {}"}\n',
  );
  const named = await scoreStructuredJsonl({ outputs: withIds }, { metrics: ["json_validity"] });
  const wrong = failingOf(named.report, "  - metric: json_validity\n    min: 1\n");
  deepStrictEqual(wrong, ["line 1", "c"]);
  deepStrictEqual(
    headers(showStructuredRows(named.report, { ids: wrong })).map((l) => l.split("  ")[0]),
    ["line 1", "c"],
  );
  const ifeval = {
    schema: "assay.ifeval.v1",
    ...IFEVAL_FIELDS,
    prompts: [
      { key: 1, instruction_id_list: ["a"], strict: [true], loose: [true] },
      { key: 2, instruction_id_list: ["a", "b"], strict: [true, false], loose: [true, true] },
    ],
  };
  const prompts = failingOf(ifeval, "  - metric: prompt_strict\n    min: 1\n");
  deepStrictEqual(prompts, ["2"]);
  ok(
    // deno-lint-ignore no-explicit-any
    showIfevalPrompts(ifeval as any, { ids: prompts }).startsWith("2  strict"),
  );
});
