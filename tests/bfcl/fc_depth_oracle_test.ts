// FC arguments nested around the depth BFCL's json.loads reaches, against CPython: the oracle
// (tests/bfcl/_fc_depth_oracle.py, run by /usr/bin/python3) decodes them as BFCL's FC handlers
// do, its Python frames laid out as BFCL's eval runner's. Where json.loads reads the arguments,
// relevance fails the entry (BFCL decoded a call); where it raises (RecursionError at a 993rd
// nested container, or a JSON error), relevance passes it, and the other categories fail it with
// Python's message. Arguments between the reader's 512 levels and json.loads' 992 with a JSON
// error past the 512th level are left out: the reader cannot tell them from valid ones (a known
// difference, docs/bfcl.md).
//
// Needs --allow-run (python3) and --allow-read.
import { ok, strictEqual } from "node:assert/strict";
import { checkBfclEntry, PyDict } from "../../src/bfcl/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { runLineOracle } from "../_debian_python.ts";

const ORACLE = new URL("./_fc_depth_oracle.py", import.meta.url).pathname;
const FN = new PyDict([
  ["name", "f"],
  ["parameters", new PyDict([["type", "dict"], ["properties", new PyDict()], ["required", []]])],
]);

/**
 * JSON text of `depth` nested containers, arrays and objects mixed, with brackets and escaped
 * quotes in strings; with a JSON error at level `junk`, if given.
 */
function nested(rng: Rng, depth: number, junk: number | undefined): string {
  let open = "";
  const close: string[] = [];
  for (let level = 1; level <= depth; level++) {
    const bad = level === junk ? rng.pick(["1 2, ", "nul, ", "'x', ", '"\\q", ']) : "";
    if (rng.chance(0.5)) {
      open += `[${bad}${rng.pick(["", "", '"[{", ', '"a\\"[", ', "[], ", "{}, "])}`;
      close.push("]");
    } else {
      const before = rng.pick(["", "", '"a\\"[": 1, ', '"}": [], ']);
      open += `{${bad}${before}${rng.pick(['"k"', '"[["', '"\\""', '"{\\\\"'])}: `;
      close.push("}");
    }
  }
  return open + rng.pick(["1", '"]]}"', "null", "[]", "{}", "2.5"]) + close.reverse().join("");
}

Deno.test("FC arguments around json.loads' depth in BFCL's runner: relevance and messages as CPython's", async () => {
  const rng = makeRng(992_993);
  const texts: string[] = [];
  for (let k = 0; k < 300; k++) {
    const depth = rng.pick([985, 990, 991, 992, 992, 993, 993, 994, 1000, 1200]);
    // A JSON error within the reader's 512 levels, or past the 993rd level (after json.loads'
    // RecursionError), or none.
    const junk = rng.pick([undefined, undefined, 1 + rng.int(500), depth > 993 ? 994 : undefined]);
    texts.push(nested(rng, depth, junk));
  }
  const python = (await runLineOracle([ORACLE], texts.map((t) => JSON.stringify(t))))
    .map((line) => JSON.parse(line) as string | null);
  strictEqual(python.length, texts.length);
  const seen = { read: 0, recursion: 0, json: 0 };
  texts.forEach((text, i) => {
    const error = python[i]!;
    const where = `case ${i} (${text.length} characters): Python ${error ?? "read it"}`;
    const result = [new PyDict([["f", text]])];
    const relevance = checkBfclEntry({ question: null, result }, { category: "relevance" });
    strictEqual(relevance.valid, error !== null, where);
    if (error === null) seen.read++;
    else if (error.startsWith("maximum recursion depth exceeded")) {
      seen.recursion++;
      const simple = checkBfclEntry({
        question: new PyDict([["function", FN]]),
        possibleAnswer: new PyDict([["f", new PyDict()]]),
        result,
      }, { category: "simple" });
      strictEqual(simple.errorType, "ast_decoder:decoder_failed", where);
      strictEqual(simple.error[0], `Invalid syntax. Failed to decode AST. ${error}`, where);
    } else seen.json++;
  });
  for (const [what, n] of Object.entries(seen)) ok(n > 30, `${what}: ${n} of ${texts.length}`);
});
