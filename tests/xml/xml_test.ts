// Unit tests for src/xml/xml.ts: verdicts and codes by rule, the metric, misuse, hostile input.
// The agreement with lxml is in xml_lxml_diff_test.ts.
import { deepStrictEqual as assertEquals, ok, strictEqual, throws } from "node:assert/strict";
import { checkXml, xmlValidity } from "../../src/xml/mod.ts";

const code = (text: string) => checkXml(text).code ?? "ok";

Deno.test("checkXml() accepts well-formed documents", () => {
  for (
    const text of [
      "<a/>",
      "\ufeff<a/>",
      '<?xml version="1.0"?><a/>',
      "<?xml version='1.1' encoding='ISO-8859-1' standalone='yes' ?>\n<a/>\n",
      '<?xml\tversion = "1.0"\nencoding="utf-8"\r\n?><a/>',
      '<!-- c --><?pi data?>\n<r a="1" b=\'"\'><b>t &lt;&gt;&amp;&apos;&quot; &#65;&#x1F600;</b></r>',
      "<a><![CDATA[<&>]]]]><!----><?pi?><?xml-stylesheet href='a'?>]] ></a >",
      '<p:a xmlns:p="urn:x" xmlns="http://e/" p:b="1" b="2"><p:c xmlns:p="urn:y"/></p:a>',
      '<a xmlns:xml="http://www.w3.org/XML/1998/namespace" xml:lang="en" xml:id=" i1 "/>',
      "<\u00e9\u0300 \u{10000}x='\u{10ffff}' a\u00b7b=''>\u0085\u2028\ufdd0\ue000</\u00e9\u0300>",
      "<a>\ud83d\ude00</a>",
      '<a xmlns="">&#xD;&#x9;</a>',
      '<a xmlns:p="http://[::1]:80/a?b#c[]" xmlns:q="mailto:x@y" xmlns:r="../r"/>',
    ]
  ) {
    assertEquals([text, checkXml(text)], [text, { wellFormed: true }]);
  }
});

Deno.test("checkXml() rejects every DOCTYPE with the code doctype", () => {
  const laughs = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
    Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`)
      .join("") +
    "]><lolz>&lol9;</lolz>";
  for (
    const text of [
      "<!DOCTYPE a><a/>",
      '<!DOCTYPE a SYSTEM "http://example.com/a.dtd"><a/>',
      '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>',
      laughs,
      "<a/><!DOCTYPE a>",
      "<a><!DOCTYPE a></a>",
      "<!DOCTYPE",
    ]
  ) {
    strictEqual(code(text), "doctype", text);
  }
  strictEqual(code("<a><!-- <!DOCTYPE a> --><![CDATA[<!DOCTYPE a>]]></a>"), "ok");
  assertEquals(checkXml(laughs).offset, 21);
});

Deno.test("checkXml() reports the first violation with its code and UTF-16 offset", () => {
  const cases: [string, string, number][] = [
    ["", "no-root", 0],
    [" \n<!--c-->", "no-root", 10],
    ["<a>\u0001</a>", "invalid-char", 3],
    ["<a>\ud800</a>", "invalid-char", 3],
    ["<a>\udc00\ud800</a>", "invalid-char", 3],
    ["<a>\ufffe</a>", "invalid-char", 3],
    ["<a>\u{1f600}\uffff</a>", "invalid-char", 5],
    ["<a>\u0000</a>", "invalid-char", 3],
    ["<a b='\u000b'/>", "invalid-char", 6],
    ["\ufeff\ufeff<a/>", "content-outside-root", 1],
    ['<?xml version="1."?><a/>', "xml-declaration", 14],
    ['<?xml version="2.0"?><a/>', "xml-declaration", 14],
    ['<?xml version="1.0"encoding="UTF-8"?><a/>', "xml-declaration", 19],
    ['<?xml version="1.0" encoding="8bit"?><a/>', "xml-declaration", 29],
    ['<?xml version="1.0" standalone="maybe"?><a/>', "xml-declaration", 31],
    ['<?xml version="1.0" standalone="no" encoding="UTF-8"?><a/>', "xml-declaration", 36],
    ['<?xml encoding="UTF-8"?><a/>', "xml-declaration", 6],
    [' <?xml version="1.0"?><a/>', "pi", 1],
    ["<?XmL x?><a/>", "pi", 0],
    ["<a><?pi\u0001?></a>", "invalid-char", 7],
    ["<a><?pi?x?></a>", "pi", 7],
    ["<a><?a:b?></a>", "namespace", 5],
    ["<a/><!x>", "markup", 4],
    ["< a/>", "tag", 1],
    ["<a b='1'c='2'/>", "tag", 8],
    ["<a/ >", "tag", 2],
    ["<a b/>", "attribute", 4],
    ["<a b=1/>", "attribute", 5],
    ["<a b='<'/>", "attribute", 6],
    ["<a b='1/>", "attribute", 5],
    ["<a b='1' b='2'/>", "duplicate-attribute", 9],
    ["<a><b></a>", "mismatched-end-tag", 6],
    ["<ab></a>", "mismatched-end-tag", 4],
    ["<a></ab>", "mismatched-end-tag", 3],
    ["<a><b>", "unclosed-element", 6],
    ["<a>&foo;</a>", "reference", 3],
    ["<a>&lt</a>", "reference", 3],
    ["<a>&#0;</a>", "reference", 3],
    ["<a>&#xD800;</a>", "reference", 3],
    ["<a>&#x110000;</a>", "reference", 3],
    ["<a>&#X41;</a>", "reference", 3],
    ["<a b='&#1;'/>", "reference", 6],
    ["<a><!-- a--b --></a>", "comment", 9],
    ["<a><!-- a ---></a>", "comment", 10],
    ["<a><!---></a>", "comment", 3],
    ["<a><![CDATA[x</a>", "cdata", 3],
    ["<a>]]></a>", "cdata-end-in-text", 3],
    ["x<a/>", "content-outside-root", 0],
    ["<a/>x", "content-outside-root", 4],
    ["<a/>\u00a0", "content-outside-root", 4],
    ["<![CDATA[x]]><a/>", "content-outside-root", 0],
    ["</a>", "content-outside-root", 0],
    ["<a/><b/>", "multiple-roots", 4],
    ["<a:b/>", "namespace", 1],
    ["<a b:c='1'/>", "namespace", 3],
    ["<xmlns:a/>", "namespace", 1],
    ["<a:b:c xmlns:a='u'/>", "namespace", 1],
    ["<a xmlns:p=''/>", "namespace", 3],
    ["<a xmlns:xml='u'/>", "namespace", 3],
    ["<a xmlns:xmlns='u'/>", "namespace", 3],
    ["<a xmlns='http://www.w3.org/XML/1998/namespace'/>", "namespace", 3],
    ["<a xmlns:p='http://www.w3.org/2000/xmlns/'/>", "namespace", 3],
    ["<a xmlns:p='a b'/>", "namespace", 3],
    ["<a xmlns:p='%zz'/>", "namespace", 3],
    ["<a xmlns:p='http://\u00e9/'/>", "namespace", 3],
    ["<a xmlns:p='u' xmlns:q='u' p:x='1' q:x='2'/>", "namespace", 35],
    ["<a xmlns:p='u'><b/><p:c/></a><!--x-->", "ok", -1],
    ["<a xmlns:p='u'><b/></a>", "ok", -1],
    ["<a><b xmlns:p='u'/><p:c/></a>", "namespace", 20],
    ["<a xml:id='1'/>", "xml-id", 3],
    ["<a xml:id='a b'/>", "xml-id", 3],
    ["<a xml:id='x'><b xml:id='x'/></a>", "xml-id", 17],
  ];
  const got = cases.map(([text]) => {
    const r = checkXml(text);
    return [text, r.code ?? "ok", r.offset ?? -1];
  });
  assertEquals(got, cases);
  for (const [text] of cases) {
    const r = checkXml(text);
    ok(r.wellFormed === (r.code === undefined) && (r.wellFormed || typeof r.message === "string"));
  }
});

Deno.test("checkXml() keeps messages short on huge input", () => {
  const r = checkXml(`<a>&#${"9".repeat(100_000)};</a>`);
  strictEqual(r.code, "reference");
  ok(r.message!.length < 200);
  const m = checkXml(`<${"a".repeat(100_000)}></b>`);
  strictEqual(m.code, "mismatched-end-tag");
  ok(m.message!.length < 200);
});

Deno.test("xmlValidity() counts well-formed outputs and failures by code", () => {
  assertEquals(xmlValidity(["<a><b>1</b></a>", "<a>"]), {
    value: 0.5,
    numerator: 1,
    denominator: 2,
    details: { doctypeRejected: 0, errors: { "unclosed-element": 1 } },
  });
  assertEquals(xmlValidity(["<!DOCTYPE a><a/>", "<!DOCTYPE b><b/>", "<a/><b/>", "<a/>"]), {
    value: 0.25,
    numerator: 1,
    denominator: 4,
    details: { doctypeRejected: 2, errors: { doctype: 2, "multiple-roots": 1 } },
  });
  assertEquals(xmlValidity([]), {
    value: 0,
    numerator: 0,
    denominator: 0,
    details: { doctypeRejected: 0, errors: {} },
  });
});

Deno.test("xmlValidity() and checkXml() throw TypeError on misuse", () => {
  throws(() => xmlValidity(["<a/>", 1 as unknown as string]), {
    name: "TypeError",
    message: "xmlValidity() needs strings: outputs[1] is number",
  });
  throws(() => xmlValidity([null as unknown as string]), /outputs\[0\] is null/);
  throws(() => xmlValidity("<a/>" as unknown as string[]), TypeError);
  throws(() => checkXml(undefined as unknown as string), TypeError);
});

Deno.test("checkXml() handles hostile input without recursion or blow-up", () => {
  const MB = 1024 * 1024;
  const deep = 1_000_000;
  strictEqual(code("<a>".repeat(deep) + "</a>".repeat(deep)), "ok");
  assertEquals(checkXml("<a>".repeat(deep)).offset, 3 * deep);
  strictEqual(code("<a>".repeat(deep) + "</a>".repeat(deep - 1) + "</b>"), "mismatched-end-tag");
  strictEqual(code('<p:a xmlns:p="u">'.repeat(deep) + "</p:a>".repeat(deep)), "ok");
  strictEqual(code("<a>" + "x".repeat(100 * MB) + "</a>"), "ok");
  strictEqual(code("<a>" + "\u{1f600}".repeat(8 * MB) + "\ud800</a>"), "invalid-char");
  strictEqual(code(" ".repeat(100 * MB)), "no-root");
  strictEqual(code("<".repeat(10 * MB)), "tag");
  strictEqual(code(`<a xml:id="a${" ".repeat(10 * MB)}b"/>`), "xml-id");
  strictEqual(code(`<a xmlns:p="${"a/".repeat(4 * MB)}"/>`), "ok");
  const attrs = Array.from({ length: 100_000 }, (_, i) => `xmlns:p${i}="u" p${i}:x="1"`);
  strictEqual(code(`<a ${attrs.join(" ")}/>`), "namespace");
  strictEqual(code(`<a ${attrs.join(" ").replaceAll(':x="1"', `:x${"y"}="1"`)}/>`), "namespace");
  const distinct = Array.from({ length: 100_000 }, (_, i) => `xmlns:p${i}="u${i}" p${i}:x="1"`);
  strictEqual(code(`<a ${distinct.join(" ")}/>`), "ok");
  strictEqual(
    code('<__proto__ __proto__="1" xmlns:__proto__="u" __proto__:constructor="2"/>'),
    "ok",
  );
  for (let c = 0; c < 0x20; c++) {
    const expected = c === 0x9 || c === 0xa || c === 0xd ? "ok" : "invalid-char";
    strictEqual(code(`<a>${String.fromCharCode(c)}</a>`), expected, `U+${c.toString(16)}`);
  }
});
