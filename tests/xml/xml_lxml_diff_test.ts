// Differential test: checkXml() against lxml (libxml2) on seeded near-XML strings (docs/xml.md).
//
// 12,000 seeded documents from tests/xml/_xml_corpus.ts, plus hand-picked edge cases and the example
// of every known issue, go as JSON lines through ONE `/usr/bin/python3 tests/xml/_lxml_oracle.py`
// process. Every verdict must agree, except disagreements that a known issue's classifier claims;
// each known issue's example must still disagree, so the table cannot go stale.
//
// Needs --allow-run (python3, apt-get), --allow-read and --allow-sys (uid, via _debian_python.ts).
import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import { checkXml } from "../../src/xml/mod.ts";
import { makeRng } from "../_corpus.ts";
import { ensureLxml, runLineOracle } from "../_debian_python.ts";
import { classifyDisagreement, KNOWN_ISSUES, makeXmlCorpus } from "./_xml_corpus.ts";

const SEED = 0x0c0ffee1;
const COUNT = 12_000;
const ORACLE = new URL("./_lxml_oracle.py", import.meta.url).pathname;

/** Edge cases, each of which Assay and lxml must judge alike. */
const TARGETED: readonly string[] = [
  "<a/>",
  "\ufeff<a/>",
  "\ufeff\ufeff<a/>",
  " <a/> ",
  "",
  "  ",
  "<!--x-->",
  "<?pi?>",
  '<?xml version="1.0"?>',
  '<?xml version="1.0" encoding="ISO-8859-1"?><a>\u00e9</a>',
  '<?xml version="1.0" encoding="UTF-16"?><a/>',
  '<?xml version="1.0" encoding="1bad"?><a/>',
  '<?xml version="1.0" encoding=""?><a/>',
  '<?xml version="1.1"?><a/>',
  '<?xml version="2.0"?><a/>',
  '<?xml version="1.x"?><a/>',
  '<?xml version="1.0a"?><a/>',
  '<?xml version="1.0"encoding="UTF-8"?><a/>',
  '<?xml version="1.0" standalone="maybe"?><a/>',
  '<?xml version="1.0" standalone="no" encoding="UTF-8"?><a/>',
  '<?xml encoding="UTF-8"?><a/>',
  "<?xml version = '1.0' ?><a/>",
  ' <?xml version="1.0"?><a/>',
  '<a/><?xml version="1.0"?>',
  '<?XML version="1.0"?><a/>',
  "<?xml?><a/>",
  "<?xml ?><a/>",
  '<?xml version="1.0" foo="x"?><a/>',
  '<?xml version="1.0"? ><a/>',
  '<!--c--><?xml version="1.0"?><a/>',
  '<?xml version="1.0"?><?xml version="1.0"?><a/>',
  "<a><?Xml x?></a>",
  "<a><?xmlfoo x?></a>",
  "<a><?a:b x?></a>",
  "<a><?xml-stylesheet x?></a>",
  "<a><?pi x ?></a>",
  "<a><?pi\u0001?></a>",
  "<?pi?x?><a/>",
  "<a:b/>",
  '<a xmlns:x=""/>',
  '<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>',
  '<a xmlns:p="u" xmlns:q="&#x75;" p:x="1" q:x="2"/>',
  '<a xmlns:xml="http://www.w3.org/XML/1998/namespace"/>',
  '<a xmlns:xml="u"/>',
  '<a xmlns:xmlns="u"/>',
  '<a xmlns="http://www.w3.org/XML/1998/namespace"/>',
  '<a xmlns="http://www.w3.org/2000/xmlns/"/>',
  '<a xmlns:p="http://www.w3.org/XML/1998/namespace"/>',
  '<a xmlns:p="http://www.w3.org/XML/1998/namespac&#x65;"/>',
  "<xml:a/>",
  "<xmlns:a/>",
  "<xmlns/>",
  '<a xmlns:a="u"><a:b:c/></a>',
  "<:a/>",
  '<a :b="1"/>',
  '<a b:="1"/>',
  '<a b::c="1"/>',
  '<a xmlns:b="u"><b:1/></a>',
  '<a xml:lang="en"/>',
  '<a xml:space="preserve"/>',
  '<a xmlns=""/>',
  '<p:a xmlns:p="u"></q:a>',
  '<a xmlns:p="u"><p:b></b></a>',
  '<a xmlns:p="u"><b xmlns:p=""/></a>',
  '<a xmlns:p="u" p:b="1" p:b="2"/>',
  '<a b="1" xmlns:p="u" p:b="2"/>',
  '<a xmlns:p="u"/><p:b/>',
  '<a xml:b="1" xmlns:q="http://www.w3.org/XML/1998/namespace"/>',
  // Namespace names are URI references.
  ...[
    "%%",
    "a b",
    "u",
    "http://\u00e9",
    "%41",
    "%4",
    "[",
    "http://[::1]/",
    "http://[zz]/",
    "#a#b",
    "a#b",
    "#[",
    "?[",
    "{",
    "|",
    "\\",
    "^",
    "`",
    "'",
    "mailto:x@y",
    ":",
    "a:",
    "1a:b",
    "+a:c",
    "a+b:c",
    "//x",
    "//",
    "http://x:80/",
    "http://x:/",
    "http://x:8a/",
    "http://x:99999999999/",
    "http://a@b@c/",
    "//x:1:2",
    "http://x/%zz",
    "a&#9;b",
    "&#x20;",
    "u&amp;v",
    "\u00a0",
    "\u{10000}",
    "./a:b",
    "/a:b",
    "a/b:c",
  ].flatMap((u) => [`<a xmlns:p="${u}"/>`, `<a xmlns="${u}"/>`]),
  "<a xmlns:p='a\"'/>",
  // Text, references, comments, CDATA.
  "<a>]]></a>",
  "<a>]]]></a>",
  "<a>]]</a>",
  '<a b="]]>"/>',
  "<a><!-- a--b --></a>",
  "<a><!-- a ---></a>",
  "<a><!----></a>",
  "<a><!---></a>",
  "<a>&foo;</a>",
  "<a>&LT;</a>",
  "<a>&lt</a>",
  "<a>& </a>",
  "<a>&#0;</a>",
  "<a>&#xD800;</a>",
  "<a>&#xFFFE;</a>",
  "<a>&#x10FFFF;</a>",
  "<a>&#x110000;</a>",
  "<a>&#99999999999999999999;</a>",
  "<a>&#x;</a>",
  "<a>&#;</a>",
  "<a>&#X41;</a>",
  "<a>&#x00000000041;</a>",
  "<a>&#x1;</a>",
  "<a>&lt;&gt;&amp;&apos;&quot;</a>",
  "<a>\ud800</a>",
  "<a>\udc00</a>",
  "<a>\ud800\ud800</a>",
  "<a>\ude00\ud83d</a>",
  "<a>\ufffe</a>",
  "<a>\uffff</a>",
  "<a>\u0001</a>",
  "<a>\u0000</a>",
  "\u0000<a/>",
  "<a/><!--\u0000-->",
  "<a>\u0085\u2028\ufdd0\u007f</a>",
  '<a b="<"/>',
  '<a b="&"/>',
  '<a b="&#0;"/>',
  '<a b="\u0001"/>',
  '<a b="1"b="2"/>',
  '<a b="1" b="2"/>',
  "<a b/>",
  "<a b=1/>",
  "<a><![CDATA[x]]></a>",
  "<![CDATA[x]]><a/>",
  "<a/><![CDATA[x]]>",
  "<a><![CDATA[x]]]></a>",
  "<a><![cdata[x]]></a>",
  "<a><![CDATA[\u0001]]></a>",
  "<a><![CDATA[]]]]><![CDATA[>]]></a>",
  // DOCTYPE, rejected on both sides.
  "<!DOCTYPE a><a/>",
  '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>',
  '<!DOCTYPE a SYSTEM "a.dtd"><a/>',
  '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>' +
  "<lolz>&lol2;</lolz>",
  "<a/><!DOCTYPE a>",
  "<a><!DOCTYPE a></a>",
  "<a><!-- <!DOCTYPE a> --></a>",
  // Structure and names.
  "<a/>x",
  "x<a/>",
  "<a/><b/>",
  "<a></b>",
  "<a>",
  "<a></a >",
  "<a></ a>",
  "< a/>",
  "<a / >",
  "<a/ >",
  "<a\tb='1'\r\nc=\"2\"\n/>",
  '<a\u0085b="1"/>',
  "<a><b></a></b>",
  "<a/>\u000c",
  "<a/>\u00a0",
  "\u00a0<a/>",
  "<\u00e9/>",
  "<\u0300/>",
  "<a\u0300/>",
  "<\u{10000}/>",
  "<\u{f0000}/>",
  "<\u{effff}/>",
  "<a\u00b7/>",
  "<\u00b7/>",
  "<\u037e/>",
  "<\u2070/>",
  "<\u200c/>",
  "<\uf900/>",
  "<\ufdd0/>",
  "<\ufffd/>",
  "<a\ufeff/>",
  "<\ud800/>",
  "<a>\r\n</a>\r\n",
  // xml:id.
  '<a xml:id="1"/>',
  '<a xml:id=" a "/>',
  '<a xml:id="a&#9;"/>',
  '<a xml:id="a:b"/>',
  '<a xml:id=""/>',
  '<a xml:id="a b"/>',
  '<a xml:id="\u00e9\u0300"/>',
  '<a xml:id="x"><b xml:id="x"/></a>',
  '<a xml:id="a "><b xml:id="a"/></a>',
];

/** Runs the oracle once over all texts: one verdict per text. */
async function lxmlVerdicts(texts: readonly string[]): Promise<string[][]> {
  const lines = await runLineOracle([ORACLE], texts.map((t) => JSON.stringify(t)));
  return lines.map((l) => JSON.parse(l));
}

const show = (t: string) => JSON.stringify(t.length > 160 ? t.slice(0, 160) + "…" : t);

Deno.test("checkXml() agrees with lxml on 12,000 seeded near-XML strings", async () => {
  const version = await ensureLxml();
  const corpus = makeXmlCorpus(makeRng(SEED), COUNT);
  const texts = [...corpus.map((c) => c.text), ...TARGETED, ...KNOWN_ISSUES.map((k) => k.example)];
  const verdicts = await lxmlVerdicts(texts);
  strictEqual(verdicts.length, texts.length);
  assertEquals(verdicts.filter((v) => v[0] === "crash"), []);

  const unexplained: string[] = [];
  const byIssue: Record<string, number> = Object.fromEntries(KNOWN_ISSUES.map((k) => [k.id, 0]));
  const perMutation: Record<string, { cases: number; wellFormed: number }> = {};
  let wellFormed = 0, doctypeBoth = 0;
  for (let k = 0; k < corpus.length + TARGETED.length; k++) {
    const text = texts[k]!;
    const lxml = verdicts[k]!;
    const ours = checkXml(text);
    const lxmlAccepts = lxml[0] === "ok";
    if (k < corpus.length) {
      if (lxmlAccepts) wellFormed++;
      for (const m of new Set(corpus[k]!.mutations.length ? corpus[k]!.mutations : ["(none)"])) {
        const row = perMutation[m] ??= { cases: 0, wellFormed: 0 };
        row.cases++;
        if (lxmlAccepts) row.wellFormed++;
      }
    }
    if (lxml[0] === "doctype" && ours.code === "doctype") doctypeBoth++;
    if (ours.wellFormed === lxmlAccepts) continue;
    const issue = k < corpus.length ? classifyDisagreement(text, ours, lxmlAccepts) : undefined;
    if (issue) byIssue[issue.id]!++;
    else {
      unexplained.push(
        `${k < corpus.length ? `corpus[${k}]` : `targeted[${k - corpus.length}]`} ${show(text)}\n` +
          `  assay: ${JSON.stringify(ours)}\n  lxml:  ${JSON.stringify(lxml)}`,
      );
    }
  }

  const split = wellFormed / corpus.length;
  console.log(
    `lxml ${version}: ${corpus.length} corpus texts (seed 0x${SEED.toString(16)}, sfc32), ` +
      `${wellFormed} well-formed (${(100 * split).toFixed(1)}%), ` +
      `${TARGETED.length} targeted, DOCTYPE rejected on both sides in ${doctypeBoth}`,
  );
  console.table(perMutation);
  console.log("disagreements by known issue:", byIssue, "unexplained:", unexplained.length);

  assertEquals(unexplained.slice(0, 10), [], `${unexplained.length} unexplained disagreements`);
  ok(split >= 0.35 && split <= 0.65, `well-formed share ${split} is outside 35–65%`);
  ok(doctypeBoth >= 100, `only ${doctypeBoth} DOCTYPE texts were rejected on both sides`);

  // Every known issue still disagrees on its example, and is the class its example falls in.
  for (let j = 0; j < KNOWN_ISSUES.length; j++) {
    const issue = KNOWN_ISSUES[j]!;
    const lxmlAccepts = verdicts[corpus.length + TARGETED.length + j]![0] === "ok";
    const ours = checkXml(issue.example);
    strictEqual(lxmlAccepts, issue.accepts === "lxml", `${issue.id}: lxml's verdict changed`);
    strictEqual(ours.wellFormed, issue.accepts === "assay", `${issue.id}: our verdict changed`);
    strictEqual(classifyDisagreement(issue.example, ours, lxmlAccepts)?.id, issue.id);
  }
});

Deno.test("docs/xml.md lists every known lxml disagreement", async () => {
  const doc = await Deno.readTextFile(new URL("../../docs/xml.md", import.meta.url));
  assertEquals(KNOWN_ISSUES.filter((k) => !doc.includes(`\`${k.id}\``)).map((k) => k.id), []);
});
