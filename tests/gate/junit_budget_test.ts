// The gate's JUnit XML (--junit) keeps within the Markdown summary's byte budget whatever the
// failing ids, and stays well-formed: it listed up to 50 ids a rule uncut, so ids of 10 KB made
// some 500 KB a rule, and CI test reporters, which read the whole file, choked on it.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { printableText, textHead } from "../../src/explain/mod.ts";
import {
  gateJunit,
  type GateVerdict,
  LISTED_EXAMPLES,
  MARKDOWN_BYTES,
  MARKDOWN_TEXT_CHARS,
} from "../../src/gate/mod.ts";
import { makeRng } from "../_corpus.ts";
import { ensureDebianModule, PYTHON } from "../_debian_python.ts";
import { assertValidJunit } from "./_junit.ts";
import { hostileId, straddlingIds, verdict } from "./_hostile_ids.ts";

/** `1 more rule`, `2 more rules`. */
const moreRules = (n: number) => `${n} more rule${n === 1 ? "" : "s"}`;

/** One JUnit file as Python's XML parser (xml.etree, the standard library's) reads it. */
interface Parsed {
  suites: Record<string, string>;
  suite: Record<string, string>;
  out: string | null;
  cases: { name: string; classname: string; failure: string | null }[];
}

/** Parses each file with xml.etree, which refuses XML that is not well-formed. */
async function parsed(xmls: string[]): Promise<Parsed[]> {
  await ensureDebianModule("python3", "import xml.etree.ElementTree; print('ok')");
  const dir = await Deno.makeTempDir();
  try {
    const paths = await Promise.all(xmls.map(async (xml, i) => {
      await Deno.writeTextFile(`${dir}/${i}.xml`, xml);
      return `${dir}/${i}.xml`;
    }));
    const script = `
import json, sys, xml.etree.ElementTree as E
out = []
for path in sys.argv[1:]:
    root = E.parse(path).getroot()
    suite = root.find("testsuite")
    so = suite.find("system-out")
    out.append({
        "suites": root.attrib, "suite": suite.attrib,
        "out": None if so is None else so.text,
        "cases": [{
            "name": c.get("name"), "classname": c.get("classname"),
            "failure": None if c.find("failure") is None else c.find("failure").text,
        } for c in suite.findall("testcase")],
    })
print(json.dumps(out))
`;
    const r = await new Deno.Command(PYTHON, { args: ["-c", script, ...paths] }).output();
    strictEqual(r.success, true, new TextDecoder().decode(r.stderr));
    return JSON.parse(new TextDecoder().decode(r.stdout));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A text as the XML should hold it: cut with `…` past the limit, then printable. */
function expected(text: string): string {
  const head = textHead(text, MARKDOWN_TEXT_CHARS);
  return printableText(head === text ? text : `${head}…`);
}

/**
 * Checks one file: within the budget, valid UTF-8, every rule written a test case of its name and
 * metric (cut) until the budget, the rest counted; each failing rule's listed ids are its first
 * ones, as shown, and with the count of those left out make its failing count.
 */
function check(xml: string, p: Parsed, v: GateVerdict, file: string) {
  const encoded = new TextEncoder().encode(xml);
  ok(encoded.length <= MARKDOWN_BYTES, `${encoded.length} bytes`);
  strictEqual(new TextDecoder("utf-8", { fatal: true }).decode(encoded), xml);
  deepStrictEqual(p.suite.name, `assay gate ${expected(file)}`);
  deepStrictEqual([p.suite.tests, p.suite.failures], [`${v.rules.length}`, `${v.rules.length}`]);
  ok(p.cases.length <= v.rules.length);
  let cut = false;
  const names = new Set<string>();
  p.cases.forEach((c, i) => {
    const r = v.rules[i]!;
    // A name an earlier case has gets its rule's line (two lines alike never come here).
    const plain = expected(r.name);
    strictEqual(c.name, names.has(plain) ? `${plain} (rule at line ${r.at.line})` : plain);
    ok(!names.has(c.name), `two test cases named ${c.name}`);
    names.add(plain);
    names.add(c.name);
    strictEqual(c.classname, `assay.gate.${expected(r.metric)}`);
    const lines = c.failure!.split("\n");
    strictEqual(lines[0], r.message);
    const line = lines.find((l) => l.startsWith("Failing examples: "))!;
    const tail = line.match(/… and (\d+) more \((\d+) in all\)$/);
    const more = tail ? Number(tail[1]) : 0;
    if (tail) strictEqual(Number(tail[2]), r.failing.length);
    const shown = r.failing.length - more;
    ok(shown >= 0 && shown <= LISTED_EXAMPLES, `${shown} shown`);
    const rest = tail ? `${shown > 0 ? ", " : ""}${tail[0]}` : "";
    strictEqual(
      line,
      "Failing examples: " + r.failing.slice(0, shown).map(expected).join(", ") + rest,
    );
    if (shown < r.failing.length) cut = true;
  });
  const lessRules = p.cases.length < v.rules.length;
  const said = p.out ?? "";
  strictEqual(said.includes(`: ${moreRules(v.rules.length - p.cases.length)}`), lessRules);
  strictEqual(said.startsWith("Not shown here: "), lessRules || cut, said);
  return { rules: p.cases.length, cut };
}

Deno.test("gateJunit() of seeded hostile ids, slices and metrics stays within its budget, well-formed and valid UTF-8, every id counted", async () => {
  const cases: { v: GateVerdict; file: string; xml: string }[] = [];
  // Few rules, the lists cut by count; many, by the budget; and more, the test cases themselves.
  for (const [seed, count] of [[1, 5], [2, 40], [3, 400], [4, 3], [5, 2000]] as const) {
    const rng = makeRng(seed);
    const v = verdict(Array.from({ length: count }, (_, r) => ({
      slice: hostileId(rng, r),
      metric: rng.chance(0.5) ? hostileId(rng, r) : "argument_f1",
      failing: Array.from(
        { length: rng.pick(count > 1000 ? [1] : count > 100 ? [1, 7, 60] : [1, 7, 60, 5000]) },
        (_, i) => hostileId(rng, i),
      ),
    })));
    const file = `gate ${hostileId(rng, 0)}.yaml`;
    cases.push({ v, file, xml: gateJunit(v, file) });
  }
  const all = await parsed(cases.map((c) => c.xml));
  const seen = cases.map((c, i) => check(c.xml, all[i]!, c.v, c.file));
  // The seeds reach each way of cutting: a list cut, test cases left out, and all written whole.
  ok(seen.some((s) => s.cut));
  ok(seen.some((s, i) => s.rules < cases[i]!.v.rules.length));
  ok(seen.some((s, i) => s.rules === cases[i]!.v.rules.length));
  for (const c of cases) await assertValidJunit(c.xml);
});

Deno.test("gateJunit() cuts an over-long id with an ellipsis before a letter's combining marks and a surrogate pair", async () => {
  const cut = MARKDOWN_TEXT_CHARS;
  const ids = straddlingIds("]]>", 'short<&"]]>');
  const v = verdict([{ slice: "overall", failing: ids }]);
  const xml = gateJunit(v, "g.yaml");
  const [p] = await parsed([xml]);
  check(xml, p!, v, "g.yaml");
  const lines = p!.cases[0]!.failure!.split("\n");
  deepStrictEqual(
    lines.find((l) => l.startsWith("Failing examples: ")),
    [
      "Failing examples: " + "x".repeat(cut - 1) + "…",
      "x".repeat(cut - 1) + "…",
      "x".repeat(cut) + "…",
      'short<&"]]>',
    ].join(", "),
  );
  strictEqual(p!.out, null);
});

Deno.test("gateJunit() gives test cases of one name, or names alike where they are cut, the line of their rule", async () => {
  const long = "x".repeat(MARKDOWN_TEXT_CHARS + 50);
  const v = verdict([
    { slice: "en", failing: ["a"] },
    { slice: "en", failing: ["b"] },
    { slice: `${long}1`, failing: ["c"] },
    { slice: `${long}2`, failing: ["d"] },
    { slice: "fr", failing: ["e"] },
  ]);
  const xml = gateJunit(v, "gate.yaml");
  await assertValidJunit(xml);
  const [p] = await parsed([xml]);
  const names = p!.cases.map((c) => c.name);
  deepStrictEqual(names, [
    expected(v.rules[0]!.name),
    `${expected(v.rules[1]!.name)} (rule at line ${v.rules[1]!.at.line})`,
    expected(v.rules[2]!.name),
    `${expected(v.rules[3]!.name)} (rule at line ${v.rules[3]!.at.line})`,
    expected(v.rules[4]!.name),
  ]);
  strictEqual(new Set(names).size, names.length);
  check(xml, p!, v, "gate.yaml");
});
