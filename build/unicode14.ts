// Writes src/pytext/unicode14.generated.ts: Unicode 14.0 sets as CPython 3.11 holds them.
//   deno run --allow-run --allow-write build/unicode14.ts
// The IFEval checkers and BFCL's Python reader imitate Python's `re`, `str` methods and
// identifiers, whose Unicode is CPython 3.11's unicodedata (14.0.0), while the host's `\p{...}`
// classes are newer and differ by runtime (Deno 2.9.6's letters are 9,272 more than Python's,
// Bun's 13,916). Read here from Debian's python3:
// - the code points unassigned in 14.0 (category Cn), which the IFEval classes leave out: every
//   difference between the host's classes and Python's is a code point assigned since;
// - the code points that may start an identifier (XID_Start and `_`) and continue one
//   (XID_Continue), as `str.isidentifier()` and CPython's tokenizer test them;
// - the code points that are not printable, which `repr()` writes as escapes (lone surrogates
//   included: a JavaScript string may hold one);
// - for str.lower()'s final sigma, the code points that are Case_Ignorable, and those that are
//   cased and not Case_Ignorable (CPython skips Case_Ignorable ones before testing Cased, so the
//   Cased property of a Case_Ignorable one never matters), read off lower() itself: "A" + c + "Σ"
//   ends in ς when c is either, c + "Σ" only when c is the second;
// - re.IGNORECASE's equivalences: the groups of code points a cased literal matches, each the
//   code points whose simple lowercase (_sre.unicode_tolower) is one of the literal's lowercase and
//   its _EXTRA_CASES (i with ı, s with ſ, ...). An uncased literal matches itself alone; no uncased
//   code point is in a group, which the script asserts;
// - the decimal digits (`str.isdecimal()`, `re`'s `\d`, what `int()` and `float()` read as digits)
//   and the alphanumerics (`str.isalnum()`, `re`'s `\w` with `_`). Each run of decimal digits is
//   whole runs of ten, 0 to 9 (as Unicode promises, and the script asserts), so a digit's value is
//   its distance from its run's start, modulo 10: the runs are written out too (DECIMAL_RUNS_14);
// - for the columns a terminal gives a character (explain's `displayWidth`), the code points that
//   take none: nonspacing and enclosing marks (Mn, Me: combining marks, variation selectors),
//   format characters (Cf: joiners, bidi controls) but the soft hyphen and the prepended
//   concatenation marks, which are shown, and the Hangul jamo vowels and finals, which join the
//   syllable before them; and those that take two: East_Asian_Width Wide or Fullwidth (CJK,
//   kana, Hangul syllables, fullwidth forms, the emoji shown as emoji by default), and the
//   unassigned code points that EastAsianWidth.txt gives W by default (the CJK ideograph planes)
//   or that Unicode keeps for pictographs (1F000-1FAFF, where new emoji go). CPython's
//   east_asian_width() reads every unassigned code point as F, so it is asked about assigned ones.
const script = `
import _sre, json, unicodedata
from re._compiler import _EXTRA_CASES
assert unicodedata.unidata_version == "14.0.0", unicodedata.unidata_version
SIGMA, FINAL = "\\u03a3", "\\u03c2"
def final_after(c):
    return ("A" + c + SIGMA).lower()[-1] == FINAL
def final_alone(c):
    return (c + SIGMA).lower()[-1] == FINAL
groups = {}
for cp in range(0x110000):
    lo = _sre.unicode_tolower(cp)
    groups.setdefault(min((lo,) + _EXTRA_CASES.get(lo, ())), []).append(cp)
groups = sorted(g for g in groups.values() if len(g) > 1)
assert all(_sre.unicode_iscased(cp) for g in groups for cp in g)
def ranges(test, surrogates=False):
    out, start = [], None
    for cp in range(0x110000):
        hit = (surrogates or not 0xD800 <= cp <= 0xDFFF) and test(chr(cp))
        if hit and start is None:
            start = cp
        elif not hit and start is not None:
            out.append([start, cp - 1])
            start = None
    if start is not None:
        out.append([start, 0x10FFFF])
    return out
PREPENDED = {0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD,
             0x110CD}
def zero_width(c):
    cp, cat = ord(c), unicodedata.category(c)
    return (cat in ("Mn", "Me") or (cat == "Cf" and cp != 0xAD and cp not in PREPENDED)
            or 0x1160 <= cp <= 0x11FF or 0xD7B0 <= cp <= 0xD7FF)
WIDE_UNASSIGNED = [(0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x1F000, 0x1FAFF),
                   (0x20000, 0x2FFFD), (0x30000, 0x3FFFD)]
def wide(c):
    if zero_width(c):
        return False
    if unicodedata.category(c) == "Cn":
        return any(a <= ord(c) <= b for a, b in WIDE_UNASSIGNED)
    return unicodedata.east_asian_width(c) in ("W", "F")
decimal = ranges(lambda c: c.isdecimal())
for a, b in decimal:
    assert (b - a + 1) % 10 == 0, (a, b)
    assert all(unicodedata.decimal(chr(cp)) == (cp - a) % 10 for cp in range(a, b + 1)), (a, b)
print(json.dumps({
    "UNASSIGNED_14": ranges(lambda c: unicodedata.category(c) == "Cn"),
    "XID_START_14": ranges(lambda c: c.isidentifier()),
    "XID_CONTINUE_14": ranges(lambda c: ("a" + c).isidentifier()),
    "NONPRINTABLE_14": ranges(lambda c: not c.isprintable(), True),
    "CASE_IGNORABLE_14": ranges(lambda c: final_after(c) and not final_alone(c), True),
    "CASED_14": ranges(final_alone, True),
    "DECIMAL_14": decimal,
    "ALNUM_14": ranges(lambda c: c.isalnum()),
    "ZERO_WIDTH_14": ranges(zero_width),
    "WIDE_14": ranges(wide),
    "groups": groups,
}))
`;
const out = await new Deno.Command("/usr/bin/python3", { args: ["-c", script] }).output();
if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
const { groups, ...sets }: Record<string, [number, number][]> & { groups: number[][] } = JSON.parse(
  new TextDecoder().decode(out.stdout),
);
const WHAT: Record<string, string> = {
  UNASSIGNED_14: "The code points Unicode 14.0 leaves unassigned (category Cn)",
  XID_START_14:
    "The code points that start a Python identifier in Unicode 14.0 (XID_Start and `_`)",
  XID_CONTINUE_14:
    "The code points that continue a Python identifier in Unicode 14.0 (XID_Continue)",
  NONPRINTABLE_14: "The code points Python 3.11's `repr()` escapes (`str.isprintable()` is false)",
  CASE_IGNORABLE_14:
    "The code points Python 3.11's `str.lower()` skips around a final sigma (Case_Ignorable)",
  CASED_14:
    "The code points Python 3.11's `str.lower()` takes as cased next to a final sigma (Cased, not\n * Case_Ignorable)",
  DECIMAL_14:
    "The decimal digits of Unicode 14.0 (`str.isdecimal()`, category Nd: Python's `\\d`, and\n * the digits `int()` and `float()` read)",
  ALNUM_14: "The alphanumerics of Unicode 14.0 (`str.isalnum()`: Python's `\\w`, with `_`)",
  ZERO_WIDTH_14:
    "The code points a terminal gives no column in Unicode 14.0 (combining marks, variation\n * selectors, joiners and other format characters but the soft hyphen, conjoining Hangul jamo)",
  WIDE_14:
    "The code points a terminal gives two columns in Unicode 14.0 (East_Asian_Width Wide or\n * Fullwidth, and the unassigned code points of the CJK ideograph planes and of 1F000-1FAFF)",
};
// Each group as its first code point's base-36 gap from the last group's first, then each other
// member's base-36 distance from the first, e.g. "2x.w": groups sorted by their first member.
function packGroups(gs: number[][]): string {
  let last = 0;
  return gs.map((g) => {
    const s = [g[0]! - last, ...g.slice(1).map((cp) => cp - g[0]!)].map((n) => n.toString(36));
    last = g[0]!;
    return s.join(".");
  }).join(" ");
}
// Each range as base-36 gap from the last range's end and its length less one, e.g. "a.0".
function pack(ranges: [number, number][]): string {
  let last = -1;
  return ranges.map(([a, b]) => {
    const s = `${(a - last - 1).toString(36)}.${(b - a).toString(36)}`;
    last = b;
    return s;
  }).join(" ");
}
// UNASSIGNED_14 -> unassigned14, XID_START_14 -> xidStart14.
const fnName = (name: string) =>
  name.replace(/_14$/, "").toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) +
  "14";
const consts = Object.entries(sets).map(([name, ranges]) => `
let ${name}: string | undefined;
/**
 * ${WHAT[name]},
 * as a \`u\`-flag character class (${ranges.length} ranges), unpacked on the first call.
 */
export function ${fnName(name)}(): string {
  return ${name} ??= unpack(
    "${pack(ranges)}",
  );
}
`).join("");
const runs = `
/**
 * The runs of decimal digits of DECIMAL_14, packed as its ranges (each whole runs of ten digits,
 * 0 to 9; see \`pyDecimalValue\`).
 */
export const DECIMAL_RUNS_14 =
  "${pack(sets.DECIMAL_14!)}";
`;
const text = `// @generated by build/unicode14.ts from CPython 3.11's unicodedata: do not edit.
// Each set is a list of ranges, each as base-36 gap from the previous range's end and length less
// one, unpacked into a character class on its first use (a command that needs none of them, such
// as \`assay score\` printing ASCII ids, never pays for them).

function unpack(packed: string): string {
  let last = -1;
  const hex = (n: number) => \`\\\\u{\${n.toString(16)}}\`;
  const body = packed.split(" ").map((p) => {
    const [gap, length] = p.split(".").map((x) => parseInt(x, 36));
    const a = last + 1 + gap!;
    last = a + length!;
    return a === last ? hex(a) : \`\${hex(a)}-\${hex(last)}\`;
  }).join("");
  return \`[\${body}]\`;
}
${consts}${runs}
/**
 * Python 3.11's re.IGNORECASE equivalences (Unicode 14.0): groups of code points that match each
 * other as literals, packed (${groups.length} groups; see \`pyIgnoreCase\`). A code point in no
 * group matches only itself.
 */
export const IGNORECASE_GROUPS_14 =
  "${packGroups(groups)}";
`;
await Deno.writeTextFile(new URL("../src/pytext/unicode14.generated.ts", import.meta.url), text);
console.log(
  `wrote src/pytext/unicode14.generated.ts: ${
    Object.entries(sets).map(([n, r]) => `${n} ${r.length} ranges`).join(", ")
  }, ${groups.length} IGNORECASE groups; ${text.length} bytes`,
);
