# CPython's character predicates over every code point: prints a JSON object of, per predicate,
# the code points where it holds, the code points unassigned in CPython's Unicode version, and
# each code point's str.lower() where it is not the code point itself.
import json
import re
import sys
import unicodedata

WORD = re.compile(r"\w")
DIGIT = re.compile(r"\d")
SPACE = re.compile(r"\s")
out = {"unicode": unicodedata.unidata_version, "isspace": [], "isupper": [], "islower": [],
       "w": [], "d": [], "s": [], "unassigned": [], "lower": {}}
for cp in range(sys.maxunicode + 1):
    if 0xD800 <= cp <= 0xDFFF:
        continue
    ch = chr(cp)
    if unicodedata.category(ch) == "Cn":
        out["unassigned"].append(cp)
    if ch.isspace():
        out["isspace"].append(cp)
    if ch.isupper():
        out["isupper"].append(cp)
    if ch.islower():
        out["islower"].append(cp)
    if WORD.match(ch):
        out["w"].append(cp)
    if DIGIT.match(ch):
        out["d"].append(cp)
    if SPACE.match(ch):
        out["s"].append(cp)
    if ch.lower() != ch:
        out["lower"][cp] = ch.lower()
json.dump(out, sys.stdout)
