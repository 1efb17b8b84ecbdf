"""The lxml oracle for tests/xml/xml_lxml_diff_test.ts: XML well-formedness verdicts.

Reads JSON lines on stdin, each one JSON string, and prints one JSON line per input:
  ["ok"]            lxml parsed it and it has no document type declaration,
  ["doctype"]       lxml parsed it but it has a DOCTYPE (rejected, as Assay rejects it),
  ["error", msg]    lxml raised XMLSyntaxError (msg is its message),
  ["crash", msg]    anything else raised (the test fails on these).

Every text is fed to lxml as UTF-8 bytes, so libxml2 applies XML's own rules to them. A lone
surrogate is encoded with "surrogatepass" (3 bytes, as CESU-8 would), which libxml2 rejects as a
character out of range, like Assay. The parser is told the bytes are UTF-8 (encoding="utf-8"), so
an encoding declaration does not change how the bytes are decoded; libxml2 still looks the declared
name up and fails on names it does not know (docs/xml.md, known issue "encoding-name").
"""
import json
import sys

from lxml import etree


def verdict(text):
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=True,
        recover=False,
        encoding="utf-8",
    )
    try:
        root = etree.fromstring(text.encode("utf-8", "surrogatepass"), parser)
    except etree.XMLSyntaxError as e:
        return ["error", str(e)]
    except Exception as e:  # noqa: BLE001 - reported, and the test fails on it
        return ["crash", "%s: %s" % (type(e).__name__, e)]
    info = root.getroottree().docinfo
    if info.doctype or info.internalDTD is not None or info.public_id or info.system_url:
        return ["doctype"]
    return ["ok"]


def main():
    out = sys.stdout
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        out.write(json.dumps(verdict(json.loads(line))) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
