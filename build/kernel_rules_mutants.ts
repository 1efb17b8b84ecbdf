// Breaks each rule of the scoring kernel on purpose and checks that its test in
// tests/evaluation/kernel_rules_test.ts fails and names it.
//
//   deno run -A build/kernel_rules_mutants.ts [name…]
//
// Each mutant is one edit of assembly/*.ts, compiled in memory to a module in a temporary file;
// the tests run on it (ASSAY_RULES_WASM), and the committed artifacts are never touched. Prints,
// per mutant, the tests that failed and the first failure's line; exits 1 when a mutant's rule
// went uncaught. Slow (a compile and a test run per mutant), so not part of the gate.
import { ASC_FLAGS, compile, readSources, TEST_ENTRY } from "./build_wasm.ts";

interface Mutant {
  name: string;
  /** The rule whose test must fail, as the tests' names start. */
  rule: "line scan" | "field checks" | "drop reason" | "pair matching" | "records JSON";
  file: string;
  from: string;
  to: string;
  /** Why no test can catch it: it changes nothing any input can show (not counted as missed). */
  equivalent?: string;
}

export const MUTANTS: readonly Mutant[] = [
  {
    name: "an output written as a JSON value loses its last byte",
    rule: "line scan",
    file: "assembly/score_common.ts",
    from: "  copyBytes(text, outBase + skipMark, n);\n  return <i32> n;",
    to: "  copyBytes(text, outBase + skipMark, n);\n  return <i32> n - (n > 2 ? 1 : 0);",
  },
  {
    name: "an output written as a JSON value is read after a string output with invalid UTF-8",
    rule: "line scan",
    file: "assembly/score_common.ts",
    from: "  if (!skipParsed || decodedReplaced || n > 3 * (fieldEnd(2) - s)) return -1;",
    to: "  if (!skipParsed || n > 3 * (fieldEnd(2) - s)) return -1;",
  },
  {
    name: "an output written as a JSON value that the parser refused is read",
    rule: "line scan",
    file: "assembly/score_common.ts",
    from: "  if (!skipParsed || decodedReplaced || n > 3 * (fieldEnd(2) - s)) return -1;",
    to: "  if (decodedReplaced || n > 3 * (fieldEnd(2) - s)) return -1;",
  },
  {
    name: "the scan takes a raw tab in a string",
    rule: "line scan",
    file: "assembly/jsonl.ts",
    from: "    if (c == 0x22) return p + 1;\n    if (c < 0x20) return 0;",
    to:
      "    if (c == 0x22) return p + 1;\n    if (c == 0x09) {\n      p++;\n      continue;\n    }\n" +
      "    if (c < 0x20) return 0;",
  },
  {
    name: "the decoded field takes a raw tab",
    rule: "line scan",
    file: "assembly/jsonl_strings.ts",
    from: "      return p + 1;\n    }\n    return 0; // a control character",
    to:
      "      return p + 1;\n    }\n    if (c == 0x09) {\n      o++;\n      p++;\n      continue;\n    }\n" +
      "    return 0; // a control character",
  },
  {
    name: "a lone surrogate escape does not set decodedLone",
    rule: "line scan",
    file: "assembly/jsonl_strings.ts",
    from: "  if (u >= 0xd800 && u <= 0xdfff) decodedLone = true;",
    to: "  if (u >= 0xd800 && u <= 0xdbff) decodedLone = true;",
  },
  {
    name: "an escaped pair ending in \\udfff is not joined",
    rule: "line scan",
    file: "assembly/jsonl_strings.ts",
    from: "    if (low >= 0xdc00 && low <= 0xdfff) {",
    to: "    if (low >= 0xdc00 && low < 0xdfff) {",
  },
  {
    name: "the first of two equal keys is kept",
    rule: "line scan",
    file: "assembly/jsonl.ts",
    from: "    if (<usize> load<u32>(name, 4) == n && bytesEqual(key + 1, at, n)) {",
    to: "    if (<usize> load<u32>(name, 4) == n && bytesEqual(key + 1, at, n) &&\n" +
      "      load<u32>(FIELDS + (<usize> k << 3)) == 0) {",
  },
  {
    name: "UTF-8 takes encoded surrogates",
    rule: "line scan",
    file: "assembly/utf8.ts",
    from: "    if (c == 0xed && b >= 0xa0) return 0; // a surrogate\n",
    to: "",
  },
  {
    name: "a form feed is whitespace between tokens",
    rule: "line scan",
    file: "assembly/jsonl.ts",
    from: "    if (c != 0x20 && c != 0x0d && c != 0x09) break;",
    to: "    if (c != 0x20 && c != 0x0d && c != 0x09 && c != 0x0c) break;",
  },
  {
    name: "a blank line may hold any control character",
    rule: "line scan",
    file: "assembly/score.ts",
    from: "    if (c != 0x20 && (c < 0x09 || c > 0x0d)) return false;",
    to: "    if (c > 0x20) return false;",
  },
  {
    name: "an integer part may have 4,301 digits",
    rule: "line scan",
    file: "assembly/jsonl.ts",
    from: "    if (p - start > MAX_INT_DIGITS) return 0;",
    to: "    if (p - start > MAX_INT_DIGITS + 1) return 0;",
  },
  {
    name: "a target may nest one level deeper",
    rule: "line scan",
    file: "assembly/json.ts",
    from: "  depthLimit = on ? MAX_DEPTH - 1 : MAX_DEPTH;",
    to: "  depthLimit = MAX_DEPTH;",
  },
  {
    name: "a digest may run past 64 digits",
    rule: "field checks",
    file: "assembly/score_entries.ts",
    from: "  if (s == 0 || fieldEnd(1) - s != 66 || load<u8>(s) != 0x22) return false;",
    to: "  if (s == 0 || fieldEnd(1) - s < 66 || load<u8>(s) != 0x22) return false;",
  },
  {
    name: "an example id or language may be empty",
    rule: "field checks",
    file: "assembly/score_entries.ts",
    from: "  if (decodedLone || (n == 0 && !nullable)) return -1;",
    to: "  if (decodedLone) return -1;",
  },
  {
    name: "a root id may be any value",
    rule: "field checks",
    file: "assembly/score_entries.ts",
    from: "  if (c != 0x22) return nullable && c == 0x6e ? -2 : -1;",
    to: "  if (c != 0x22) return nullable ? -2 : -1;",
  },
  {
    name: "a prompt may hold a lone surrogate",
    rule: "field checks",
    file: "assembly/score.ts",
    from: "    if (lineLone) return BAIL_SURROGATE;\n",
    to: "",
  },
  {
    name: "an output need not be a string or a JSON value the scan read",
    rule: "field checks",
    file: "assembly/score.ts",
    from: "  if (out == 0 || (load<u8>(out) != 0x22 && !lineValue)) return BAIL_FIELD;",
    to: "  if (out == 0) return BAIL_FIELD;",
  },
  {
    name: "a list with a non-call is multiple_calls",
    rule: "drop reason",
    file: "assembly/score_entries.ts",
    from: "  return count >= 2 && calls ? MULTIPLE_CALLS : MALFORMED_TARGET;",
    to: "  return count >= 2 ? MULTIPLE_CALLS : MALFORMED_TARGET;",
  },
  {
    name: "a listed call may have an empty name",
    rule: "drop reason",
    file: "assembly/score_entries.ts",
    from: "  return n - (a + 8) > 2 && n + 1 == e && load<u8>(base + n) == 0x7d;",
    to: "  return n - (a + 8) >= 2 && n + 1 == e && load<u8>(base + n) == 0x7d;",
  },
  {
    name: "the gold's pairs count its name",
    rule: "drop reason",
    file: "assembly/score_entries.ts",
    from: "countLeaves(argumentsStart, argumentsEnd) : leaves - 1, 8);",
    to: "countLeaves(argumentsStart, argumentsEnd) : leaves, 8);",
  },
  {
    name: "two equal containers under a key share one pair",
    rule: "pair matching",
    file: "assembly/score_pairs.ts",
    from: "      if (sameField(a, b, 8)) matched += <i32> pairs;",
    to: "      if (sameField(a, b, 8)) matched += 1;",
  },
  {
    name: "a flat prediction's container counts one pair",
    rule: "pair matching",
    file: "assembly/score_pairs.ts",
    from: "    predicted += pairs;",
    to: "    predicted += 1;",
  },
  {
    name: "a nested pair matches whatever its value",
    rule: "pair matching",
    file: "assembly/score_pairs.ts",
    from: "    return !aNested && !bNested && sameBytes(a, aEnd - a, b, bEnd - b) ? 1 : 0;",
    to: "    return !aNested && !bNested ? 1 : 0;",
  },
  {
    name: "a nested member is compared with the gold's member the merge is at, whatever its key",
    rule: "pair matching",
    file: "assembly/score_pairs.ts",
    from: "    if (c == 0) shared += valuesShared(pv, pe, qv, qe);",
    to: "    shared += valuesShared(pv, pe, qv, qe);",
  },
  {
    name: "the merge passes the gold's member when the prediction's key comes first",
    rule: "pair matching",
    file: "assembly/score_pairs.ts",
    from: "    if (c >= 0) {",
    to: "    if (c != 0) {",
  },
  {
    name: "keys merge in reverse code point order",
    rule: "pair matching",
    file: "assembly/score_pairs.ts",
    from: "    if (x != y) return x < y ? -1 : 1;",
    to: "    if (x != y) return x < y ? 1 : -1;",
  },
  {
    name: "keys merge in their literals' byte order",
    rule: "pair matching",
    file: "assembly/score_pairs.ts",
    from: "  if (c != 0x5c) return c;",
    to: "  return c;",
  },
  {
    name: "a pair of surrogate escapes merges as two characters",
    rule: "pair matching",
    file: "assembly/score_pairs.ts",
    from: "    if (l < 0x400) {",
    to: "    if (false) {",
  },
  {
    name: "a key merges after the longer keys it starts",
    rule: "pair matching",
    file: "assembly/score_pairs.ts",
    from: "    if (a == 0x22) return -1;\n    if (b == 0x22) return 1;",
    to: "    if (a == 0x22) return 1;\n    if (b == 0x22) return -1;",
  },
  {
    name: "a prediction that held a raw surrogate is merged",
    rule: "pair matching",
    file: "assembly/score_pairs.ts",
    from: "  if (rawSurrogate) return searchedMembers(p, b);",
    to: "  if (false) return searchedMembers(p, b);",
  },
  {
    name: "a nested member of a prediction that held a raw surrogate is compared with the first " +
      "gold member searched",
    rule: "pair matching",
    file: "assembly/score_pairs.ts",
    from: "      if (sameBytes(p, ke - p, q, le - q)) {",
    to: "      if (true) {",
  },
  {
    name: "array elements are compared with the gold's first element",
    rule: "pair matching",
    file: "assembly/score_pairs.ts",
    from: "      p = pe + 1;\n      q = qe + 1;",
    to: "      p = pe + 1;",
  },
  {
    name: "arguments match when their lengths do",
    rule: "pair matching",
    file: "assembly/score_outputs.ts",
    from: "  const argsMatch = sameBytes(\n    goldCanon(g),\n    goldCanonLength(g),\n" +
      "    outBase + argumentsStart,\n    argumentsEnd - argumentsStart,\n  );",
    to: "  const argsMatch = goldCanonLength(g) == argumentsEnd - argumentsStart;",
  },
  {
    name: "DEL is escaped as \\u007f",
    rule: "records JSON",
    file: "assembly/jsonl_strings.ts",
    from: "    const m = stopsTo(v, p, end, 0);",
    to: "    const m = stopsTo(v, p, end, 0) | i8x16.bitmask(i8x16.eq(v, i8x16.splat(0x7f)));",
  },
  {
    name: "the unit separator (0x1f) is written raw, not \\u001f",
    rule: "records JSON",
    file: "assembly/jsonl_strings.ts",
    from: "    const c = <u32> load<u8>(p++);\n    store<u8>(o++, 0x5c);",
    to:
      "    const c = <u32> load<u8>(p++);\n    if (c == 0x1f) {\n      o++;\n      continue;\n    }\n" +
      "    store<u8>(o++, 0x5c);",
  },
  {
    name: "a form feed is written \\u000c",
    rule: "records JSON",
    file: "assembly/jsonl_strings.ts",
    from: "    else if (c == 0x0c) store<u8>(o++, 0x66);\n",
    to: "",
  },
  {
    name: "an empty root id is written null",
    rule: "records JSON",
    file: "assembly/score_records.ts",
    from: "  const root = rootLength(e);",
    to: "  const root = rootLength(e) == 0 ? -1 : rootLength(e);",
  },
  {
    name: "invalid_json and invalid_shape swap",
    rule: "records JSON",
    file: "assembly/score_records.ts",
    from: "const STATUS_AT: usize = memory.data<u8>([0, 4, 4, 9, 13, 14, 27, 15]);",
    to: "const STATUS_AT: usize = memory.data<u8>([0, 4, 4, 9, 27, 15, 13, 14]);",
  },
];

const decoder = new TextDecoder();

/** The tests that failed in a `deno test` run's output, and the first failure's rule line. */
function failures(out: string): { tests: string[]; first: string | undefined } {
  const tests = [...out.matchAll(/^(.+?) => \.\/tests\/evaluation\/kernel_rules_test\.ts/gm)]
    .map((m) => m[1]!.trim());
  const first = /inputs failed:\n(.*)$/m.exec(out);
  return {
    tests: [...new Set(tests)],
    first: first === null ? undefined : first[1]!.slice(0, 400),
  };
}

async function main(names: string[]): Promise<number> {
  const sources = await readSources();
  const dir = await Deno.makeTempDir({ prefix: "assay_mutants_" });
  let uncaught = 0;
  for (const m of MUTANTS) {
    if (names.length > 0 && !names.some((n) => m.name.includes(n))) continue;
    const text = sources.get(m.file);
    if (text === undefined || text.split(m.from).length !== 2) {
      throw new Error(`${m.name}: "${m.from}" is not once in ${m.file}`);
    }
    const mutated = new Map(sources);
    mutated.set(m.file, text.replace(m.from, m.to));
    const wasm = `${dir}/mutant.wasm`;
    await Deno.writeFile(wasm, await compile(mutated, ASC_FLAGS, TEST_ENTRY));
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["test", "-A", "tests/evaluation/kernel_rules_test.ts"],
      env: { ASSAY_RULES_WASM: wasm, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = decoder.decode(run.stdout) + decoder.decode(run.stderr);
    const f = failures(out);
    const caught = f.tests.some((t) => t.startsWith(m.rule)) && f.first !== undefined;
    if (!caught && m.equivalent === undefined) uncaught++;
    const verdict = caught ? "caught  " : m.equivalent ? "equiv.  " : "MISSED  ";
    console.log(
      `${verdict} ${m.rule}: ${m.name}${caught ? "" : m.equivalent ? ` (${m.equivalent})` : ""}`,
    );
    console.log(`         failed: ${f.tests.join("; ") || "none"}`);
    if (f.first) console.log(`         ${f.first}`);
  }
  await Deno.remove(dir, { recursive: true });
  return uncaught === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
