// Seeded near-XML strings for the lxml differential test (tests/xml/xml_lxml_diff_test.ts), and the
// table of known disagreements with lxml (rendered in docs/xml.md).
//
// A document starts well-formed: an optional BOM and XML declaration, comments and PIs around one
// root element with nested children, attributes in both quote styles, namespace declarations and
// prefixed names, text with references, CDATA sections, and non-ASCII (BMP and astral) names and
// text. Then zero to three mutations are applied, each a small edit aimed at one rule of XML 1.0
// or Namespaces in XML. Pure TypeScript, no I/O.
import type { Rng } from "../_corpus.ts";

/** One corpus entry: the text and the mutations applied to it (empty: generated well-formed). */
export interface XmlCase {
  text: string;
  mutations: string[];
}

const ASCII_NAMES = ["a", "b", "root", "item", "x-y", "z.9", "_u", "Data", "n1", "xmlfoo", "ab_c"];
const UNICODE_NAMES = [
  "é",
  "名前",
  "αβ",
  "a·b",
  "ÀÖ",
  "\u0410\u044f",
  "k\u0300",
  "\u{10000}x",
  "x\u{e0100}",
  "a\u203fb",
  "\u2070",
  "\u200c",
  "\uf900",
  "\ufdf0",
];
const PREFIXES = ["p", "q", "ns1", "é"];
const URIS = [
  "urn:x",
  "http://example.com/ns",
  "http://example.com/a?b#c",
  "u",
  "../rel/path",
  "http://[::1]:8080/x",
  "mailto:a@b",
  "tag:x,2000:y",
  "http://x/%41%7e",
  "//host/p",
];
const TEXT_PIECES = [
  "hello",
  " ",
  "\n",
  "\t",
  "\r\n",
  "1 > 0",
  "]]",
  "]",
  "&lt;",
  "&gt;",
  "&amp;",
  "&apos;",
  "&quot;",
  "&#65;",
  "&#x1F600;",
  "&#x10FFFF;",
  "&#xD;",
  "&#0000009;",
  "é",
  "中文",
  "😀",
  "\u{10ffff}",
  "\ue000",
  "\ufffd",
  "\u0085",
  "\u2028",
  "\u007f",
  "'\"",
  "=/?!-",
];
const INTERESTING = [
  "<",
  ">",
  "&",
  ";",
  "'",
  '"',
  "/",
  "=",
  "!",
  "?",
  "-",
  "[",
  "]",
  ":",
  "#",
  " ",
  "\t",
  "\n",
  "a",
  "Z",
  "1",
  ".",
  "\u0000",
  "\u0001",
  "\u000b",
  "\u001f",
  "\ud800",
  "\udc00",
  "\ufffe",
  "\uffff",
  "\ufeff",
  "é",
  "\u{1f600}",
  "\u0300",
  "\u00b7",
  "%",
  "x",
];

/** A random well-formed document. */
export function randomXmlDocument(rng: Rng): string {
  const ws = () => rng.pick([" ", " ", "  ", "\t", "\n", "\r\n"]);
  const q = () => rng.pick(['"', "'"]);
  const quoted = (v: string) => {
    const c = v.includes('"') ? "'" : v.includes("'") ? '"' : q();
    return c + v + c;
  };
  const out: string[] = [];
  if (rng.chance(0.08)) out.push("\ufeff");
  if (rng.chance(0.35)) {
    let d = `<?xml${ws()}version${rng.chance(0.2) ? " = " : "="}${
      quoted(rng.pick(["1.0", "1.0", "1.1", "1.10"]))
    }`;
    if (rng.chance(0.5)) d += `${ws()}encoding=${quoted(rng.pick(["UTF-8", "utf-8", "UTF8"]))}`;
    if (rng.chance(0.3)) d += `${ws()}standalone=${quoted(rng.pick(["yes", "no"]))}`;
    out.push(d + (rng.chance(0.3) ? ws() : "") + "?>");
  }
  const misc = () => {
    const k = rng.int(3);
    for (let j = 0; j < k; j++) {
      out.push(
        rng.pick([
          ws(),
          "<!-- note -->",
          "<!---->",
          `<!--${rng.pick(["é", "x-y", "<a>", "&amp"])}-->`,
          "<?pi?>",
          "<?pi data?>",
          "<?xml-stylesheet href='s.css'?>",
          "<?target <&>?>",
        ]),
      );
    }
  };
  misc();
  const text = () => {
    let t = "";
    const k = 1 + rng.int(4);
    for (let j = 0; j < k; j++) t += rng.pick(TEXT_PIECES);
    return t;
  };
  const ids = new Set<string>();
  const element = (depth: number, scope: string[]) => {
    const local = rng.chance(0.75) ? rng.pick(ASCII_NAMES) : rng.pick(UNICODE_NAMES);
    const inScope = [...scope];
    const attrs: string[] = [];
    const used = new Set<string>();
    if (rng.chance(0.25)) {
      const p = rng.pick(PREFIXES);
      if (!used.has(`xmlns:${p}`)) {
        used.add(`xmlns:${p}`);
        attrs.push(`xmlns:${p}=${quoted(rng.pick(URIS))}`);
        inScope.push(p);
      }
    }
    if (rng.chance(0.1)) {
      used.add("xmlns");
      attrs.push(`xmlns=${quoted(rng.chance(0.2) ? "" : rng.pick(URIS))}`);
    }
    const prefix = inScope.length > 0 && rng.chance(0.4) ? rng.pick(inScope) + ":" : "";
    const name = prefix + local;
    const nattrs = rng.int(4);
    for (let j = 0; j < nattrs; j++) {
      let an = rng.chance(0.8) ? rng.pick(ASCII_NAMES) : rng.pick(UNICODE_NAMES);
      if (inScope.length > 0 && rng.chance(0.3)) an = `${rng.pick(inScope)}:${an}`;
      else if (rng.chance(0.06)) an = `xml:${rng.pick(["lang", "space", "id"])}`;
      const local = an.slice(an.indexOf(":") + 1);
      if (used.has(an) || (an.includes(":") && [...used].some((u) => u.endsWith(":" + local)))) {
        continue;
      }
      used.add(an);
      const c = q();
      let value = text().replaceAll(c, c === '"' ? "&quot;" : "&apos;");
      if (an === "xml:id") value = `${rng.pick(ASCII_NAMES)}${ids.size}${rng.pick(["", " "])}`;
      if (an === "xml:id") ids.add(value);
      if (an === "xml:space") value = rng.pick(["default", "preserve", "preserve"]);
      attrs.push(`${an}${rng.chance(0.15) ? " = " : "="}${c}${value}${c}`);
    }
    const open = `<${name}${attrs.map((a) => ws() + a).join("")}${rng.chance(0.1) ? ws() : ""}`;
    if (depth > 5 || rng.chance(0.2)) {
      out.push(open + "/>");
      return;
    }
    out.push(open + ">");
    const k = rng.int(5);
    for (let j = 0; j < k; j++) {
      const r = rng.int(10);
      if (r < 4) out.push(text());
      else if (r < 7) element(depth + 1, inScope);
      else if (r === 7) out.push(`<![CDATA[${rng.pick(["x", "<&>", "]]", "", "é😀", "]"])}]]>`);
      else if (r === 8) out.push(`<!--${rng.pick([" c ", "", "<a>", "- x"])}-->`);
      else out.push(`<?${rng.pick(["pi", "go", "x-y"])}${rng.pick(["", " a=1", " ?"])}?>`);
    }
    out.push(`</${name}${rng.chance(0.1) ? ws() : ""}>`);
  };
  element(0, []);
  misc();
  return out.join("");
}

// ------------------------------------------------------------------ mutations

const at = (s: string, i: number, piece: string, del = 0) =>
  s.slice(0, i) + piece + s.slice(i + del);

/** Index just after a random occurrence of `needle` in `s`, or a random index. */
function after(rng: Rng, s: string, needle: string): number {
  const hits: number[] = [];
  for (let i = s.indexOf(needle); i >= 0 && hits.length < 64; i = s.indexOf(needle, i + 1)) {
    hits.push(i + needle.length);
  }
  return hits.length > 0 ? rng.pick(hits) : rng.int(s.length + 1);
}

/** The mutations, by name. */
export const MUTATIONS: Record<string, (rng: Rng, s: string) => string> = {
  "delete-char": (rng, s) => at(s, rng.int(s.length + 1), "", 1),
  "duplicate-char": (rng, s) => {
    const i = rng.int(Math.max(1, s.length));
    return at(s, i, s.slice(i, i + 1));
  },
  "swap-chars": (rng, s) => {
    const i = rng.int(Math.max(1, s.length - 1));
    return s.slice(0, i) + s.slice(i + 1, i + 2) + s.slice(i, i + 1) + s.slice(i + 2);
  },
  "replace-char": (rng, s) => at(s, rng.int(s.length + 1), rng.pick(INTERESTING), 1),
  "insert-char": (rng, s) => at(s, rng.int(s.length + 1), rng.pick(INTERESTING)),
  "inject-in-text": (rng, s) =>
    at(
      s,
      after(rng, s, ">"),
      rng.pick(["&", "<", "]]>", "--", "&amp;", "& x", "&lt", "<>", ">", "]]", "\u0000", "'"]),
    ),
  "mismatch-tag": (rng, s) => {
    const i = after(rng, s, "</");
    return at(s, i, rng.pick(["x", "b", "a", "p:", ""]), rng.int(3));
  },
  "doctype": (rng, s) => {
    const dt = rng.pick([
      "<!DOCTYPE a>",
      '<!DOCTYPE root SYSTEM "r.dtd">',
      '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>',
      "<!DOCTYPE a [<!ELEMENT a ANY>]>",
      "<!DOCTYPE",
    ]);
    const i = s.startsWith("<?xml")
      ? s.indexOf("?>") + 2
      : rng.chance(0.7)
      ? 0
      : rng.int(s.length + 1);
    return at(s, Math.max(0, i), dt);
  },
  "entity-ref": (rng, s) =>
    at(s, after(rng, s, ">"), rng.pick(["&foo;", "&lol;", "&nbsp;", "&AMP;", "&lt;", "&x:y;"])),
  "second-root": (rng, s) =>
    rng.chance(0.5)
      ? s + rng.pick(["<b/>", "<a></a>", "\n<c/>\n"])
      : rng.pick(["<b/>", "<z></z>"]) + s,
  "unbound-prefix": (rng, s) =>
    rng.chance(0.5)
      ? at(s, after(rng, s, "<"), rng.pick(["u:", "zz:", "xmlns:"]))
      : at(s, s.indexOf(">") < 0 ? 0 : after(rng, s, " "), rng.pick(['u:x="1" ', "r:y='2' "])),
  "duplicate-attribute": (rng, s) => {
    const m = [...s.matchAll(/ ([^\s=<>]+)="[^"<]*"/g)];
    if (m.length === 0) return at(s, after(rng, s, "<a"), ' x="1" x="2"');
    const hit = rng.pick(m);
    return at(s, hit.index! + hit[0].length, hit[0]);
  },
  "namespace-collision": (rng, s) => {
    const m = /<[^!?/\s>][^\s/>]*/.exec(s);
    const j = m ? m.index + m[0].length : rng.int(s.length + 1);
    return at(
      s,
      j,
      rng.pick([
        ' xmlns:g="urn:x" xmlns:h="urn:x" g:k="1" h:k="2"',
        ' xmlns:g="urn:x" xmlns:h="urn:y" g:k="1" h:k="2"',
        ' xmlns:g="urn:x" xmlns:h="urn:&#x78;" g:k="1" h:k="2"',
        ' xmlns:g=""',
        ' xmlns:xml="urn:x"',
        ' xmlns:xmlns="urn:x"',
        ' xmlns="http://www.w3.org/XML/1998/namespace"',
        ' xmlns:xml="http://www.w3.org/XML/1998/namespace"',
        ' xmlns:g="http://www.w3.org/2000/xmlns/"',
        ' xmlns:g="a b"',
        ' xmlns:g="%zz"',
        ' xmlns:g="http://é.example/"',
        ' xmlns:g="http://x:/"',
        ' xmlns:g="#a#b"',
        ' xmlns:g="urn:ok"',
        ' xml:lang="en" xml:lang="fr"',
        ' a:b:c="1"',
        ' xmlns:g="u"',
      ]),
    );
  },
  "bad-char-ref": (rng, s) =>
    at(
      s,
      after(rng, s, rng.pick([">", '="'])),
      rng.pick([
        "&#0;",
        "&#xD800;",
        "&#xFFFE;",
        "&#x110000;",
        "&#x;",
        "&#X41;",
        "&#12a;",
        "&#x1;",
        "&#9;",
        "&#xDFFF;",
        "&#99999999999;",
      ]),
    ),
  "text-outside-root": (rng, s) => {
    const t = rng.pick(["x", " ", "\n", "\u00a0", "&amp;", "\u0085", "\t\r\n"]);
    return rng.chance(0.5) ? s + t : t + s;
  },
  "bom": (rng, s) => rng.chance(0.5) ? "\ufeff" + s : at(s, rng.int(s.length + 1), "\ufeff"),
  "late-xml-declaration": (rng, s) =>
    at(
      s,
      rng.chance(0.3) ? 0 : after(rng, s, ">"),
      rng.pick([" ", "", "<!--c-->"]) + '<?xml version="1.0"?>',
    ),
  "control-char": (rng, s) =>
    at(
      s,
      rng.int(s.length + 1),
      rng.pick(["\u0001", "\u0008", "\u000c", "\u001b", "\u0000", "\u007f", "\u0085", "\u009f"]),
    ),
  "comment-dashes": (rng, s) => {
    const i = s.indexOf("<!--");
    if (i < 0) {
      return at(s, after(rng, s, ">"), rng.pick(["<!-- a -- b -->", "<!-- a --->", "<!--->"]));
    }
    return at(s, i + 4, rng.pick(["--", "-", " -", "x--y"]));
  },
  "xml-declaration": (rng, s) => {
    const body = s.startsWith("\ufeff") ? s.slice(1) : s;
    const stripped = body.startsWith("<?xml ") ? body.slice(body.indexOf("?>") + 2) : body;
    return rng.pick([
      '<?xml version="1.0" standalone="maybe"?>',
      '<?xml version="2.0"?>',
      '<?xml version="1.0" encoding="1bad"?>',
      '<?xml version="1.0" encoding=""?>',
      '<?xml version="1.0"encoding="UTF-8"?>',
      '<?xml encoding="UTF-8"?>',
      '<?xml version="1.0" standalone="no" encoding="UTF-8"?>',
      '<?xml version="1.0" foo="x"?>',
      "<?xml version='1.0\"?>",
      '<?XML version="1.0"?>',
      "<?xml?>",
      '<?xml version="1.0" ?>',
      '<?xml version="1.1" encoding="utf-8" standalone="yes"?>',
      '<?xml\tversion = "1.0"\n?>',
    ]) + stripped;
  },
  "truncate": (rng, s) => s.slice(0, rng.int(s.length + 1)),
  "cdata": (rng, s) =>
    at(
      s,
      rng.int(s.length + 1),
      rng.pick(["<![CDATA[x]]>", "<![CDATA[", "<![cdata[x]]>", "]]>", "<![CDATA[]]]>"]),
    ),
  "pi": (rng, s) =>
    at(
      s,
      after(rng, s, ">"),
      rng.pick(["<?a:b x?>", "<?Xml x?>", "<?pi\u0001?>", "<?pi?x?>", "<?1pi?>", "<??>", "<?pi x"]),
    ),
};

const MUTATION_NAMES = Object.keys(MUTATIONS);

/**
 * The corpus: `count` seeded cases, about `cleanRate` of them left as generated.
 *
 * @param rng The seeded PRNG.
 * @param count How many cases.
 * @param cleanRate The share of documents with no mutation.
 */
export function makeXmlCorpus(rng: Rng, count: number, cleanRate = 0.4): XmlCase[] {
  const cases: XmlCase[] = [];
  for (let k = 0; k < count; k++) {
    let text = randomXmlDocument(rng);
    const mutations: string[] = [];
    if (!rng.chance(cleanRate)) {
      const m = 1 + (rng.chance(0.25) ? rng.int(3) : 0);
      for (let j = 0; j < m; j++) {
        const name = rng.pick(MUTATION_NAMES);
        text = MUTATIONS[name]!(rng, text);
        mutations.push(name);
      }
    }
    cases.push({ text, mutations });
  }
  return cases;
}

// ------------------------------------------------------------------ known issues

/** What Assay's checker said about a text (the part of `XmlCheck` a classifier needs). */
export interface Verdict {
  wellFormed: boolean;
  code?: string;
  offset?: number;
}

/** A class of texts on which Assay and lxml knowingly disagree. */
export interface KnownIssue {
  /** A stable id, also used in docs/xml.md. */
  id: string;
  /** Which side accepts the text. */
  accepts: "assay" | "lxml";
  /** Why Assay's verdict is the one the specifications ask for. */
  reason: string;
  /** A text that shows the disagreement (the test asserts it still disagrees). */
  example: string;
  /** Whether a disagreement on `text` belongs to this class. */
  matches(text: string, ours: Verdict): boolean;
}

const S = "[ \\t\\r\\n]";
const DECL = `^\\uFEFF?<\\?xml${S}+version${S}*=${S}*(?:"[^"]*"|'[^']*')`;
const ENCODING = new RegExp(`${DECL}${S}+encoding${S}*=${S}*(?:"([^"]*)"|'([^']*)')`);
const XML_ID = new RegExp(`xml:id${S}*=${S}*(?:"([^"]*)"|'([^']*)')`, "g");
/** The libxml2 warnings that can come after a non-fatal error and so hide it from lxml. */
const WARNINGS = [
  new RegExp(`xml:space${S}*=${S}*(?:"(?!(?:default|preserve)")|'(?!(?:default|preserve)'))`),
  new RegExp(
    `${S}xmlns${S}*=${S}*(?:"(?![A-Za-z][A-Za-z0-9+.-]*:)[^"]|'(?![A-Za-z][A-Za-z0-9+.-]*:)[^'])`,
  ),
  /<\?(?!xml-stylesheet[\s?]|xml-model[\s?])[Xx][Mm][Ll][^\s?]/,
];

/** The known disagreements with lxml 4.9 / libxml2 2.9 (rendered in docs/xml.md). */
export const KNOWN_ISSUES: readonly KnownIssue[] = [
  {
    id: "version-without-minor",
    accepts: "lxml",
    reason: "XML 1.0 [26] VersionNum ::= '1.' [0-9]+ needs a digit after the dot; " +
      "libxml2 reads `1.` as a 1.x version and only warns.",
    example: '<?xml version="1."?><a/>',
    matches: (text, ours) =>
      ours.code === "xml-declaration" &&
      new RegExp(`^\\uFEFF?<\\?xml${S}+version${S}*=${S}*(["'])1\\.\\1`).test(text),
  },
  {
    id: "standalone-without-space",
    accepts: "lxml",
    reason: "XML 1.0 [32] SDDecl ::= S 'standalone' Eq … needs whitespace before `standalone`; " +
      "libxml2 does not ask for it after an encoding declaration.",
    example: '<?xml version="1.0" encoding="UTF-8"standalone="no"?><a/>',
    matches: (text, ours) =>
      ours.code === "xml-declaration" &&
      new RegExp(`${DECL}${S}+encoding${S}*=${S}*(?:"[^"]*"|'[^']*')standalone`).test(text),
  },
  {
    id: "encoding-name",
    accepts: "assay",
    reason: "The input is already decoded text, so only the EncName syntax (XML 1.0 [81]) is " +
      "checked; libxml2 also looks the name up among its converters and fails on names it does " +
      "not know (the oracle forces UTF-8 decoding, so a known name changes nothing).",
    example: '<?xml version="1.0" encoding="UTF-"?><a/>',
    matches: (text) => {
      const m = ENCODING.exec(text);
      return m !== null && !/^utf-?8$/i.test(m[1] ?? m[2] ?? "");
    },
  },
  {
    id: "nul-after-root",
    accepts: "lxml",
    reason: "U+0000 is not a Char (XML 1.0 [2]) anywhere; libxml2 takes a NUL after the root " +
      "element for the end of the input and ignores it and everything after it.",
    example: "<a/>\u0000",
    matches: (text, ours) =>
      ours.code === "invalid-char" && text.charCodeAt(ours.offset ?? -1) === 0,
  },
  {
    id: "error-hidden-by-warning",
    accepts: "lxml",
    reason: "Namespace errors (Namespaces in XML 1.0 §§3, 5, 6) and xml:id errors (xml:id §4) " +
      "are non-fatal in libxml2, and lxml decides from the last message only: a later warning " +
      "(an xml:space value other than default/preserve, a relative default namespace, a PI " +
      "target starting with `xml`) makes it accept the document.",
    example: '<p:a><b xml:space="keep"/></p:a>',
    matches: (text, ours) =>
      (ours.code === "namespace" || ours.code === "xml-id") &&
      WARNINGS.some((w) => w.test(text.slice(ours.offset ?? 0))),
  },
  {
    id: "duplicate-hidden-by-namespace-error",
    accepts: "lxml",
    reason: "An attribute name may not appear twice in a tag (XML 1.0 §3.1, WFC: Unique Att " +
      "Spec); libxml2 compares a prefixed attribute with the earlier ones in order and stops at " +
      "the first with its local name and namespace: when that one has another prefix, it reports " +
      "the non-fatal namespace collision and never sees the later exact duplicate, which a " +
      "later warning then hides from lxml (as in `error-hidden-by-warning`).",
    example: '<a xmlns:g="urn:x" xmlns:h="urn:x" g:k="1" h:k="2" h:k="2"><b xml:space="keep"/></a>',
    matches: (text, ours) => {
      if (ours.code !== "duplicate-attribute" || ours.offset === undefined) return false;
      const name = /^([^\s=:]+):([^\s=]+)/.exec(text.slice(ours.offset));
      if (name === null) return false;
      const tag = text.slice(text.lastIndexOf("<", ours.offset), ours.offset);
      const earlier = [...tag.matchAll(/\s([^\s=:]+):([^\s=]+)\s*=/g)]
        .filter((m) => m[2] === name[2]);
      // The name is truly repeated, and another prefix with its local name comes first.
      return earlier.some((m) => m[1] === name[1]) && earlier[0]![1] !== name[1] &&
        WARNINGS.some((w) => w.test(text.slice(ours.offset ?? 0)));
    },
  },
  {
    id: "duplicate-xml-declaration",
    accepts: "lxml",
    reason: "An attribute name may not appear twice in a tag (XML 1.0 §3.1, WFC: Unique Att " +
      "Spec), `xmlns:xml` included; libxml2 drops a (correct) `xmlns:xml` declaration before " +
      "it looks for duplicates.",
    example: '<a xmlns:xml="http://www.w3.org/XML/1998/namespace" ' +
      'xmlns:xml="http://www.w3.org/XML/1998/namespace"/>',
    matches: (text, ours) =>
      ours.code === "duplicate-attribute" &&
      new RegExp(`^xmlns:xml${S}*=`).test(text.slice(ours.offset ?? 0)),
  },
  {
    id: "xml-id-name-rules",
    accepts: "assay",
    reason: "An xml:id value must be an NCName (xml:id §4), whose characters XML 1.0 5th ed. " +
      "defines; libxml2 checks xml:id values with the older 4th-edition tables, which lack " +
      "e.g. U+2070, U+3001, U+FEFF and all astral letters.",
    example: '<a xml:id="\u{10000}"/>',
    matches: (text) => {
      for (const m of text.matchAll(XML_ID)) {
        if (/[\u0080-\u{10ffff}]/u.test(m[1] ?? m[2] ?? "")) return true;
      }
      return false;
    },
  },
];

/** The known issue a disagreement belongs to, or undefined. */
export function classifyDisagreement(
  text: string,
  ours: Verdict,
  lxmlAccepts: boolean,
): KnownIssue | undefined {
  if (ours.wellFormed === lxmlAccepts) return undefined;
  return KNOWN_ISSUES.find((k) => (k.accepts === "lxml") === lxmlAccepts && k.matches(text, ours));
}
