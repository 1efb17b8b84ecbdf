// BFCL's Python reader reads names as CPython 3.11 does (Debian's python3): a name starts with
// XID_Start or `_` and goes on with XID_Continue, in Unicode 14.0, whatever the host's Unicode;
// the decoded names are NFKC-normalized (python_calls_diff_test.ts checks them in calls against
// ast.parse). CPython's tokenizer tests a name with the check `str.isidentifier()` makes
// (_PyUnicode_ScanIdentifier), which is the oracle here.
//
// Needs --allow-run (python3).
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parsePythonExpression } from "../../src/bfcl/mod.ts";
import { xidContinue14, xidStart14 } from "../../src/pytext/mod.ts";
import { PYTHON } from "../_debian_python.ts";

// Every code point past ASCII that Unicode 14 could assign a letter to: planes 0 to 3 and 14
// (planes 4 to 13 are empty, 15 and 16 private use, which the tables test covers).
const SWEPT: [number, number][] = [[0x80, 0x3ffff], [0xe0000, 0xe0fff]];

/** The code points of `domain` for which `test` holds, as [first, last] ranges. */
function ranges(domain: [number, number][], test: (c: string) => boolean): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of domain) {
    for (let cp = a; cp <= b; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (!test(String.fromCodePoint(cp))) continue;
      const last = out.at(-1);
      if (last && last[1] === cp - 1) last[1] = cp;
      else out.push([cp, cp]);
    }
  }
  return out;
}

async function python(
  domain: [number, number][],
): Promise<{ start: number[][]; part: number[][] }> {
  const script = `
import json, sys, unicodedata
assert unicodedata.unidata_version == "14.0.0"
domain = json.loads(sys.argv[1])
def ranges(test):
    out = []
    for a, b in domain:
        for cp in range(a, b + 1):
            if 0xD800 <= cp <= 0xDFFF or not test(chr(cp)):
                continue
            if out and out[-1][1] == cp - 1:
                out[-1][1] = cp
            else:
                out.append([cp, cp])
    return out
print(json.dumps({"start": ranges(str.isidentifier), "part": ranges(lambda c: ("a" + c).isidentifier())}))
`;
  const out = await new Deno.Command(PYTHON, { args: ["-c", script, JSON.stringify(domain)] })
    .output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

const hex = (rs: number[][]) =>
  rs.map(([a, b]) => a === b ? a!.toString(16) : `${a!.toString(16)}-${b!.toString(16)}`);

/** The ranges in one list and not the other, both ways, to name what differs. */
function differ(ours: number[][], theirs: number[][]): string[] {
  const key = (r: number[]) => r.join("-");
  const a = new Set(ours.map(key));
  const b = new Set(theirs.map(key));
  return [
    ...hex(ours.filter((r) => !b.has(key(r)))).map((r) => `ours only ${r}`),
    ...hex(theirs.filter((r) => !a.has(key(r)))).map((r) => `python only ${r}`),
  ].slice(0, 20);
}

Deno.test("every code point starts and continues a Python name as in CPython 3.11", async () => {
  const want = await python(SWEPT);
  const start = ranges(SWEPT, (c) => parsePythonExpression(c).ok);
  const part = ranges(SWEPT, (c) => parsePythonExpression("a" + c).ok);
  assertEquals(differ(start, want.start), []);
  assertEquals(differ(part, want.part), []);
  // Not vacuous: CJK, Hangul and the rest, and the marks that only continue a name.
  assertEquals([start.length > 600, part.length > start.length], [true, true]);
});

Deno.test("the identifier tables are CPython 3.11's on every code point", async () => {
  const all: [number, number][] = [[0x0, 0x10ffff]];
  const want = await python(all);
  const s = new RegExp(xidStart14(), "u");
  const p = new RegExp(xidContinue14(), "u");
  assertEquals(differ(ranges(all, (c) => s.test(c)), want.start), []);
  assertEquals(differ(ranges(all, (c) => p.test(c)), want.part), []);
});

Deno.test("a name past ASCII is read NFKC-normalized, and a keyword only as written", () => {
  const read = (t: string) => {
    const r = parsePythonExpression(t);
    return r.ok ? JSON.stringify(r.tree) : r.reason;
  };
  assertEquals(read("ｆｕｎｃ"), read("func"));
  assertEquals(read("ﬁle.ｒｅａｄ"), read("file.read"));
  assertEquals(read("\u{1d431}_\u{1d7cf}"), read("x_1"));
  // `Ｔrue` is the name `True`, not the constant.
  assertEquals(read("Ｔrue"), JSON.stringify({ k: "name", id: "True" }));
  // `ｉｎ` is a name, so `x not ｉｎ y` is no comparison (CPython: invalid syntax).
  assertEquals(parsePythonExpression("x not ｉｎ y").ok, false);
  assertEquals(parsePythonExpression("x not in y").ok, true);
});
