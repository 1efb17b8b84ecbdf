// checkOptionNames (src/jsonl/options/): outside the root's rooms, an option name a function does
// not take is a TypeError with the closest name, where it ran as absent: forScoring("anthropic",
// { number: "numeric" }) compared numbers exactly, runSuite(..., { nojudge: true }) called judges,
// evaluateGate(gate, reports, { onn: "all" }) gated every example. Each room's functions, here
// through one of each, refuse the misspelling and take every name they list.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { checkOptionNames } from "../../src/jsonl/options/mod.ts";
import { decodeToolCalls, forScoring, suggestDecoder } from "../../src/formats/mod.ts";
import { createJudge, loadSuite, readGoldens, scorecard } from "../../src/suite/mod.ts";
import { evaluateGate, parseGateRules } from "../../src/gate/mod.ts";
import { scoreStructuredJsonl } from "../../src/structured_jsonl/mod.ts";
import { checkBfclEntry } from "../../src/bfcl/mod.ts";

/** The TypeError a call throws, as "name: message". */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
  return "no error";
}

Deno.test("checkOptionNames names the closest option, or lists them, and takes every listed name", () => {
  const known = { numbers: 1, engine: 1, maxLineBytes: 1 } as const;
  const check = (options: unknown) => () => checkOptionNames("f", options as object, known);
  strictEqual(
    refusal(check({ number: 1 })),
    'TypeError: f: unknown option "number" (did you mean "numbers"?)',
  );
  strictEqual(
    refusal(check({ maxlinebytes: 1 })),
    'TypeError: f: unknown option "maxlinebytes" (did you mean "maxLineBytes"?)',
  );
  strictEqual(
    refusal(check({ zzz: 1 })),
    'TypeError: f: unknown option "zzz" (it takes numbers, engine, maxLineBytes)',
  );
  // Every listed name, undefined too; nothing for what is not an object (checkOptions' to refuse).
  check({ numbers: "exact", engine: undefined, maxLineBytes: 5 })();
  for (const x of [undefined, null, 5, "s"]) check(x)();
  // Own keys only: an inherited one is not an option given.
  check(Object.create({ inherited: 1 }))();
});

Deno.test("the rooms outside the root refuse a misspelt option with the closest name", async () => {
  const cases: [string, () => unknown, string][] = [
    [
      "forScoring",
      () => forScoring("anthropic", { number: "numeric" } as never),
      '"number" (did you mean "numbers"?)',
    ],
    [
      "decodeToolCalls",
      () => decodeToolCalls("[]", "pythonic", { engin: "ts" } as never),
      '"engin" (did you mean "engine"?)',
    ],
    [
      "suggestDecoder",
      () => suggestDecoder(new Uint8Array(), { line: 5 } as never),
      '"line" (did you mean "lines"?)',
    ],
    [
      "loadSuite",
      () => loadSuite("metrics: []\n", { sorce: "s.yaml" } as never),
      '"sorce" (did you mean "source"?)',
    ],
    [
      "readGoldens",
      () => readGoldens("", { sorce: "g.jsonl" } as never),
      '"sorce" (did you mean "source"?)',
    ],
    [
      "createJudge",
      () => createJudge({ apikeys: {} } as never),
      '"apikeys" (did you mean "apiKeys"?)',
    ],
    [
      "scorecard",
      () => scorecard([], { metric: [] } as never),
      '"metric" (did you mean "metrics"?)',
    ],
    [
      "checkBfclEntry",
      () => checkBfclEntry({} as never, { categroy: "simple" } as never),
      '"categroy" (did you mean "category"?)',
    ],
  ];
  for (const [fn, call, what] of cases) {
    strictEqual(refusal(call), `TypeError: ${fn}: unknown option ${what}`, fn);
  }
  const gate = parseGateRules(
    "rules:\n  - metric: full_call_exact_match\n    min: 0.5\n",
    "g.yaml",
  );
  strictEqual(
    refusal(() => evaluateGate(gate, { report: {} }, { onn: "all" } as never)),
    'TypeError: evaluateGate: unknown option "onn" (did you mean "on"?)',
  );
  let thrown: unknown;
  await scoreStructuredJsonl({ outputs: new Uint8Array() }, { mdoe: "strict" } as never).catch((
    e,
  ) => thrown = e);
  ok(thrown instanceof TypeError);
  strictEqual(thrown.message, 'scoreStructuredJsonl: unknown option "mdoe" (did you mean "mode"?)');
});

Deno.test("evaluateGate takes its reports as { report } or { base, candidate }, not both", () => {
  // { report, candidate } gated the report alone, in silence.
  const gate = parseGateRules(
    "rules:\n  - metric: full_call_exact_match\n    min: 0.5\n",
    "g.yaml",
  );
  for (
    const [input, extra] of [
      [{ report: {}, candidate: {} }, '"candidate"'],
      [{ report: {}, base: {} }, '"base"'],
      [{ base: {}, candidate: {}, report2: {} }, '"report2"'],
    ] as const
  ) {
    const shape = "report" in input ? "{ report }" : "{ base, candidate }";
    deepStrictEqual(
      refusal(() => evaluateGate(gate, input as never)),
      `TypeError: Expected the reports as { report } or { base, candidate }, got ${shape} and ${extra}`,
    );
  }
  // One shape alone passes this check (an empty object is then no report, a RangeError).
  throws(() => evaluateGate(gate, { report: {} } as never), { name: "RangeError" });
});
