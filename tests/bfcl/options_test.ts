// checkBfcl() and checkBfclEntry() refuse options a JavaScript caller got wrong, as the CLI
// refuses its flags: an unknown decoder failed inside decoding with a TypeError, and an unknown
// matching was read as greedy, in silence.
import { strictEqual, throws } from "node:assert/strict";
import {
  BFCL_DECODERS,
  type BfclOptions,
  checkBfcl,
  checkBfclEntry,
  decodeResult,
  PyDict,
} from "../../src/bfcl/mod.ts";

const text = '{"id": "relevance_0", "result": "[f(a=1)]"}\n';
const files = { results: { name: "r.json", text } };
const entry = { question: new PyDict([]), result: "[f(a=1)]" };

Deno.test("checkBfcl and checkBfclEntry refuse an unknown category, decoder or matching", () => {
  for (
    const [options, message] of [
      [
        { category: "relevence" },
        'Unknown category "relevence" (categories: simple, ' +
        "multiple_function, parallel_function, parallel_multiple_function, java, javascript, " +
        "relevance)",
      ],
      [{}, "Unknown category undefined (categories: simple, "],
      [
        { category: "relevance", decoder: "openai" },
        'Unknown decoder "openai" (decoders: fc, ' +
        "claude, gorilla, gpt, llama, mistral)",
      ],
      [
        { category: "relevance", matching: "best" },
        'Unknown matching "best" (matchings: greedy, ' +
        "optimal)",
      ],
    ] as const
  ) {
    for (
      const run of [
        () => checkBfcl(files, options as unknown as BfclOptions),
        () => checkBfclEntry(entry, options as unknown as BfclOptions),
      ]
    ) {
      throws(run, (e) => e instanceof RangeError && e.message.startsWith(message));
    }
  }
});

Deno.test("checkBfcl takes every decoder of BFCL_DECODERS and both matchings", () => {
  strictEqual(BFCL_DECODERS.length, 6);
  for (const decoder of BFCL_DECODERS) {
    for (const matching of ["greedy", "optimal"] as const) {
      const run = checkBfcl(files, { category: "relevance", decoder, matching });
      strictEqual(run.total, 1, `${decoder} ${matching}`);
    }
  }
});

Deno.test("checkBfcl refuses an underscoreToDot that is not a boolean, a modelName that is not a string, and a file without its text", () => {
  // "no" was read as true and recorded as "no", which checkReport refuses; modelName 5 failed as
  // "model.toLowerCase is not a function"; a file without text as "reading 'startsWith'".
  const cases: [BfclOptions, string][] = [
    [
      { category: "relevance", underscoreToDot: "no" as never },
      "Option underscoreToDot must be true or false, got string",
    ],
    [
      { category: "relevance", modelName: 5 as never },
      "Option modelName must be a string, got number",
    ],
  ];
  for (const [options, message] of cases) {
    for (const run of [() => checkBfcl(files, options), () => checkBfclEntry(entry, options)]) {
      throws(run, (e) => e instanceof TypeError && e.message === message);
    }
  }
  for (const results of [{ name: "r.json" }, { name: "r.json", text: new Uint8Array(1) }, "x"]) {
    throws(
      () => checkBfcl({ results } as never, { category: "relevance" }),
      (e) =>
        e instanceof TypeError && e.message === "A file must be { name: string, text: string }",
    );
  }
});

Deno.test("decodeResult refuses a decoder that is not one of BFCL_DECODERS", () => {
  // It failed inside decoding: "Cannot read properties of undefined (reading 'length')".
  for (const decoder of ["nonsense", "openai", undefined]) {
    throws(
      () => decodeResult("[f(a=1)]", decoder as never),
      (e) =>
        e instanceof RangeError &&
        e.message ===
          `Unknown decoder ${JSON.stringify(decoder)} (decoders: ${BFCL_DECODERS.join(", ")})`,
    );
  }
  strictEqual(decodeResult("[f(a=1)]", "gpt").ok, true);
});
