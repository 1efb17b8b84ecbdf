#!/usr/bin/env python3
"""The Python oracle for tests/engine/python_diff_test.ts.

Usage: python3 tests/engine/_python_oracle.py MODE[+MODE...] [INPUT [OUTPUT]]

MODE is `canonical`, `flatten`, `span` or `toolcall`. INPUT (default stdin) is JSON lines, one JSON
string per line: the text to check, as written by JavaScript's JSON.stringify
(which escapes lone surrogates, so `json.loads` of the line gives back exactly
the same code points). OUTPUT (default stdout) gets one JSON object per input
line, written with ensure_ascii so that lone surrogates survive the trip back.
With several modes joined by `+`, each output line is {MODE: result, ...}.

canonical: {"ok": true, "canonical": C} or {"ok": false, "error": {"code", "offset"}}
    C = json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
flatten:   {"ok": true, "pairs": [{"path", "value"}]} or {"ok": false, "error": ...}
    the whole text as one document, flattened as in CONTRACT section 3.
span:      {"status": "found", "start", "end"} or {"status": "no_json"}
           or {"status": "invalid_json", "start", "error": ...}   (CONTRACT section 1)
toolcall:  {"status", "name"?, "canonicalArguments"?, "pairs"?, "error"?}
    span extraction and call shape from CONTRACT section 1, pairs from section 3.

Acceptance is Python's own `json.loads`. Error codes and offsets are derived
from Python's JSONDecodeError and mapped to the codes of src/engine/types.ts. The
places where the contract (docs/engine.md) deliberately differs from Python
are all in `expected_error` and `check_depth` below:
  * nesting deeper than 512 containers is rejected (`nesting_too_deep` at the
    bracket opening the 513th level), although Python accepts up to ~990;
  * an integer literal over 4,300 digits is `integer_too_long` at its first
    character (Python raises a ValueError without a position);
  * `invalid_unicode_escape` is reported at the backslash (Python: at the `u`);
  * a `\\uXXXX` escape with four hex digits that ends the input is reported as
    `unterminated_string` (Python: "Invalid \\uXXXX escape");
  * a leading U+FEFF is `expecting_value` at 0 (Python: "Unexpected UTF-8 BOM").
Offsets are converted from Python's code-point indices to UTF-16 code units.

This is a clean reading of docs/contract.md, independent of the TypeScript engine.
"""

import json
import re
import sys

MAX_DEPTH = 512
MAX_INT_DIGITS = 4300

_DECODER = json.JSONDecoder()

# A JSON string (possibly unterminated: it then runs to the end), or a bracket.
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)|[\[\]{}]', re.S)
# A JSON string (as above), or a number literal.
_STRING_OR_NUMBER = re.compile(
    r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)|(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][+-]?[0-9]+)?', re.S
)
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")


def utf16_offset(text, index):
    """UTF-16 code-unit offset of the code point at `index` in `text`."""
    if text.isascii():
        return index
    return index + sum(1 for ch in text[:index] if ord(ch) > 0xFFFF)


def first_too_deep(doc, limit):
    """Index in `doc` of the first bracket opening level MAX_DEPTH + 1 before `limit`, or None.

    Only meaningful on a prefix that Python scanned without error, where every
    quote delimits a string and every bracket outside strings was opened or
    closed by the parser.
    """
    # Cheap exit: fewer openers than the limit cannot nest too deep.
    head = doc if limit is None else doc[:limit]
    if head.count("[") + head.count("{") <= MAX_DEPTH:
        return None
    depth = 0
    for m in _STRING_OR_BRACKET.finditer(head):
        ch = m.group()
        if ch == "[" or ch == "{":
            depth += 1
            if depth > MAX_DEPTH:
                return m.start()
        elif ch == "]" or ch == "}":
            depth -= 1
    return None


def first_too_long_int(doc):
    """Index in `doc` of the first integer literal with more than MAX_INT_DIGITS digits."""
    for m in _STRING_OR_NUMBER.finditer(doc):
        if m.group(1) is not None and m.group(2) is None and m.group(3) is None:
            digits = len(m.group(1)) - (1 if m.group(1).startswith("-") else 0)
            if digits > MAX_INT_DIGITS:
                return m.start()
    return None


def string_start(doc, index):
    """Index of the opening quote of the string that contains `index` (scanning from 0)."""
    start = None
    for m in _STRING_OR_BRACKET.finditer(doc):
        if m.start() > index:
            break
        if m.group().startswith('"'):
            start = m.start()
    return start


def expected_error(doc, exc):
    """Maps Python's rejection of `doc` to (code, code-point index in doc), per docs/engine.md."""
    if isinstance(exc, RecursionError):
        deep = first_too_deep(doc, None)
        if deep is None:
            raise AssertionError("RecursionError without 513 nested levels")
        return "nesting_too_deep", deep
    if isinstance(exc, json.JSONDecodeError):
        msg, pos = exc.msg, exc.pos
        deep = first_too_deep(doc, pos)
        if deep is not None:
            return "nesting_too_deep", deep
        if msg == "Expecting value":
            return "expecting_value", pos
        if msg.startswith("Expecting property name"):
            return "expecting_property_name", pos
        if msg == "Expecting ':' delimiter":
            return "expecting_colon", pos
        if msg == "Expecting ',' delimiter":
            return "expecting_comma", pos
        if msg == "Extra data":
            return "extra_data", pos
        if msg == "Unterminated string starting at":
            return "unterminated_string", pos
        if msg == "Invalid control character at":
            return "invalid_control_character", pos
        if msg == "Invalid \\escape":
            return "invalid_escape", pos
        if msg == "Invalid \\uXXXX escape":
            # Python points at the `u`; four hex digits then the end of input is an
            # unterminated string for the engine (Python needs room for the quote).
            if _HEX4.fullmatch(doc, pos + 1, pos + 5) and pos + 5 == len(doc):
                return "unterminated_string", string_start(doc, pos)
            return "invalid_unicode_escape", pos - 1
        if msg.startswith("Unexpected UTF-8 BOM"):
            return "expecting_value", 0
        raise AssertionError("unmapped JSONDecodeError: %r at %d" % (msg, pos))
    if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
        where = first_too_long_int(doc)
        if where is None:
            raise AssertionError("int limit hit but no long integer found")
        deep = first_too_deep(doc, where)
        if deep is not None:
            return "nesting_too_deep", deep
        return "integer_too_long", where
    raise exc


def parse(doc):
    """json.loads(doc) under the contract: (True, value) or (False, (code, index))."""
    try:
        value = json.loads(doc)
    except (ValueError, RecursionError) as exc:
        return False, expected_error(doc, exc)
    deep = first_too_deep(doc, None)
    if deep is not None:
        return False, ("nesting_too_deep", deep)
    return True, value


def canonical(value):
    """CONTRACT section 2."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def canonical_result(text):
    ok, res = parse(text)
    if ok:
        return {"ok": True, "canonical": canonical(res)}
    code, index = res
    return {"ok": False, "error": {"code": code, "offset": utf16_offset(text, index)}}


def flatten_result(text):
    ok, res = parse(text)
    if ok:
        return {"ok": True, "pairs": flatten(res)}
    code, index = res
    return {"ok": False, "error": {"code": code, "offset": utf16_offset(text, index)}}


def span_result(text):
    span = extract_span(text)
    if span[0] == "no_json":
        return {"status": "no_json"}
    if span[0] == "found":
        return {"status": "found", "start": utf16_offset(text, span[1]), "end": utf16_offset(text, span[2])}
    _, start, code, index = span
    return {
        "status": "invalid_json",
        "start": utf16_offset(text, start),
        "error": {"code": code, "offset": utf16_offset(text, index)},
    }


_OPENER = re.compile(r"[\[{]")
_DELIMITER = re.compile(r'[\[\]{}"\\]')


def extract_span(text):
    """CONTRACT section 1 span extraction, on code points.

    Returns ("no_json",), ("found", start, end) or ("invalid_json", start, code, index).
    """
    m = _OPENER.search(text)
    if m is None:
        return ("no_json",)
    start = m.start()
    stack = []
    in_string = False
    escaped = -1  # index of the character a backslash escapes
    for m in _DELIMITER.finditer(text, start):
        i = m.start()
        if i == escaped:
            continue
        ch = m.group()
        if in_string:
            if ch == "\\":
                escaped = i + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{" or ch == "[":
            stack.append("}" if ch == "{" else "]")
        elif ch == "}" or ch == "]":
            if stack[-1] != ch:
                return ("invalid_json", start, "mismatched_bracket", i)
            stack.pop()
            if not stack:
                return ("found", start, i + 1)
        # a backslash outside a string is an ordinary character
    return ("invalid_json", start, "unclosed_span", len(text))


def is_call(value):
    return (
        isinstance(value, dict)
        and len(value) == 2
        and "name" in value
        and "arguments" in value
        and isinstance(value["name"], str)
        and value["name"] != ""
        and isinstance(value["arguments"], dict)
    )


def flatten(value):
    """CONTRACT section 3: (path segments, leaf) pairs, depth first in canonical order."""
    out = []

    def walk(v, path):
        if isinstance(v, dict) and v:
            for k in sorted(v):
                walk(v[k], path + [k])
        elif isinstance(v, list) and v:
            for i, x in enumerate(v):
                walk(x, path + [i])
        else:
            out.append({"path": canonical(path), "value": canonical(v)})

    walk(value, [])
    return out


def toolcall_result(text):
    span = extract_span(text)
    if span[0] == "no_json":
        return {"status": "no_json"}
    if span[0] == "invalid_json":
        _, _, code, index = span
        return {"status": "invalid_json", "error": {"code": code, "offset": utf16_offset(text, index)}}
    _, start, end = span
    ok, res = parse(text[start:end])
    if not ok:
        code, index = res
        return {"status": "invalid_json", "error": {"code": code, "offset": utf16_offset(text, start + index)}}
    value = res
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if not is_call(value):
        return {"status": "invalid_shape"}
    args = value["arguments"]
    return {
        "status": "ok",
        "name": value["name"],
        "canonicalArguments": canonical(args),
        "pairs": flatten(args),
    }


MODES = {
    "canonical": canonical_result,
    "flatten": flatten_result,
    "span": span_result,
    "toolcall": toolcall_result,
}


def main(argv):
    modes = argv[1].split("+") if len(argv) > 1 else []
    if not modes or any(m not in MODES for m in modes):
        sys.stderr.write(__doc__)
        return 2
    if len(modes) == 1:
        check = MODES[modes[0]]
    else:
        fns = [(m, MODES[m]) for m in modes]

        def check(text):
            return {m: f(text) for m, f in fns}
    if len(argv) <= 2:
        sys.stdin.reconfigure(encoding="utf-8")
    if len(argv) <= 3:
        sys.stdout.reconfigure(encoding="utf-8")
    src = open(argv[2], encoding="utf-8") if len(argv) > 2 else sys.stdin
    dst = open(argv[3], "w", encoding="utf-8") if len(argv) > 3 else sys.stdout
    out = []
    for line in src:
        if line.strip():
            out.append(json.dumps(check(json.loads(line)), ensure_ascii=True))
            if len(out) >= 10000:
                dst.write("\n".join(out) + "\n")
                out = []
    if out:
        dst.write("\n".join(out) + "\n")
    dst.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
