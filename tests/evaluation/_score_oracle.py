#!/usr/bin/env python3
"""An independent oracle for `assay score` (tool-call evaluation).

Usage:
    python3 tests/evaluation/_score_oracle.py --examples E --generations G [--prompts P]
                                   [--out FILE] [--records]

Written from docs/contract.md sections 1-5 (and 9.1, the tool-call reference's requirements) and
docs/evaluation.md, in plain Python with the standard library only. It shares no code with the
TypeScript engine nor with tests/engine/_python_oracle.py.

Output (stdout, or FILE with --out), one JSON object:
    {"n", "drop_summary", "parse_status_counts", "slices",
     "metrics": {"overall": {METRIC: MetricValue}, "by_language": {LANG: {...}}},
     "records": [...]}          # records only with --records, in examples-file order

Exit status: 0 on success; 2 on an input error or an invariant violation, after one line on stderr
("score_oracle: InputError: ..." or "score_oracle: InvariantViolation: ..."). Nothing is written
to FILE then.

Readings taken where the texts leave a choice open (each is covered by a targeted test in
tests/evaluation/score_diff_test.ts or tests/evaluation/adversarial_diff_test.ts):
  * JSON acceptance is `json.loads` with default arguments, plus CONTRACT section 1's one
    deliberate deviation: nesting deeper than 512 containers is rejected (Python itself accepts
    about 990). This applies to model outputs and to the JSONL input lines alike.
  * Lines are split on LF only; a trailing CR is dropped; a UTF-8 BOM at the start of the file is
    dropped. Bytes that are not UTF-8 are an input error (docs/evaluation.md), except inside the
    string value of a top-level `output` member of a generations line (any of them, when the key
    is given twice), where they are decoded with U+FFFD replacements (as a WHATWG decoder does).
    A line is blank when it holds only ECMAScript whitespace (String.prototype.trim).
  * An `output` that is a JSON object or array (an API's whole response) is read as its canonical
    text, `json.dumps(output, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`; any
    other value that is not a string is an input error.
  * An example whose language is "overall" (the name of the slice of all examples) is an input
    error, dropped or not (CONTRACT section 5).
  * A target list of two or more elements is `multiple_calls` only when every element is a call;
    otherwise it is `malformed_target`.
  * With a manifest, every generation (also one belonging to a dropped example) must have a
    manifest row with the same prompt_sha256, and so must every kept example.
  * A prompt's SHA-256 is over its UTF-8 bytes; lone surrogates (which have no UTF-8 form) are
    encoded as U+FFFD, as TextEncoder does.
  * Slices are the languages of the kept examples, sorted by code point.
  * Names are compared as Python strings (code points); argument paths are tuples of segments
    (str keys, int indices), compared as tuples; values as canonical text.
"""

import hashlib
import json
import re
import sys
from collections import Counter

MAX_DEPTH = 512
STATUSES = ("ok", "no_json", "invalid_json", "invalid_shape")
DROP_REASONS = ("multiple_calls", "empty_target", "malformed_target")
METRICS = (
    "valid_json_rate",
    "function_name_accuracy",
    "argument_exact_match",
    "argument_f1",
    "full_call_exact_match",
)
SHA256_HEX = re.compile(r"[0-9a-f]{64}")
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# ECMAScript WhiteSpace and LineTerminator: what String.prototype.trim removes.
JS_WHITESPACE = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
SHOW = 5


class Failure(Exception):
    """Ends the run with exit status 2."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


def input_error(message):
    return Failure("InputError", message)


def invariant(message):
    return Failure("InvariantViolation", message)


# ------------------------------------------------------------------ JSON under the contract


def max_depth(text):
    """Deepest container nesting in `text`, which must be valid JSON (so every quote is a string
    delimiter and every bracket outside strings is structural)."""
    depth = 0
    deepest = 0
    in_string = False
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "{" or c == "[":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif c == "}" or c == "]":
            depth -= 1
        i += 1
    return deepest


def loads(text):
    """(True, value) when the contract accepts `text` as one JSON document, else (False, None)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError, the 4,300-digit int limit, depth
        return False, None
    # Fewer than 513 openers cannot nest 513 deep; only count when there are more.
    if text.count("{") + text.count("[") > MAX_DEPTH and max_depth(text) > MAX_DEPTH:
        return False, None
    return True, value


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


# ------------------------------------------------------------------ parser v1


def first_span(text):
    """CONTRACT section 1: the span text, or "no_json", or "invalid_json"."""
    a = text.find("{")
    b = text.find("[")
    if a < 0 and b < 0:
        return "no_json"
    start = b if a < 0 else a if b < 0 else min(a, b)
    stack = []
    in_string = False
    i = start
    n = len(text)
    while i < n:
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1  # the escaped character is skipped, whatever it is
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "{":
            stack.append("}")
        elif c == "[":
            stack.append("]")
        elif c == "}" or c == "]":
            if stack[-1] != c:
                return "invalid_json"  # mismatched closer
            stack.pop()
            if not stack:
                return text[start : i + 1]
        i += 1
    return "invalid_json"  # the input ended inside the span


def is_call(v):
    return (
        isinstance(v, dict)
        and len(v) == 2
        and "name" in v
        and "arguments" in v
        and isinstance(v["name"], str)
        and v["name"] != ""
        and isinstance(v["arguments"], dict)
    )


def parse_output(text):
    """(status, call or None)."""
    span = first_span(text)
    if span == "no_json" or span == "invalid_json":
        return span, None
    ok, value = loads(span)
    if not ok:
        return "invalid_json", None
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if not is_call(value):
        return "invalid_shape", None
    return "ok", value


def drop_reason(target):
    """None for exactly one call, else the drop_summary reason."""
    if isinstance(target, list):
        if len(target) == 0:
            return "empty_target"
        if len(target) >= 2:
            return "multiple_calls" if all(is_call(t) for t in target) else "malformed_target"
        target = target[0]
    return None if is_call(target) else "malformed_target"


# ------------------------------------------------------------------ flattening


def flatten(arguments):
    """CONTRACT section 3: a list of (path tuple, canonical leaf) pairs."""
    out = []

    def walk(v, path):
        if isinstance(v, dict) and v:
            for k, x in v.items():
                walk(x, path + (k,))
        elif isinstance(v, list) and v:
            for i, x in enumerate(v):
                walk(x, path + (i,))
        else:
            out.append((path, canonical(v)))

    walk(arguments, ())
    return out


# ------------------------------------------------------------------ input files


def output_spans(text):
    """The (start, end) character ranges of the string values of the top-level `output` members of
    the one JSON object `text` holds, or None when `text` is not one."""
    decoder = json.JSONDecoder()
    ws = lambda i: json.decoder.WHITESPACE.match(text, i).end()
    spans = []
    try:
        i = ws(0)
        if text[i : i + 1] != "{":
            return None
        i = ws(i + 1)
        if text[i : i + 1] == "}":
            return spans
        while True:
            if text[i : i + 1] != '"':
                return None
            key, i = json.decoder.scanstring(text, i + 1)
            i = ws(i)
            if text[i : i + 1] != ":":
                return None
            i = ws(i + 1)
            value, end = decoder.raw_decode(text, i)
            if key == "output" and isinstance(value, str):
                spans.append((i, end))
            i = ws(end)
            if text[i : i + 1] == "}":
                return spans
            if text[i : i + 1] != ",":
                return None
            i = ws(i + 1)
    except (ValueError, RecursionError):
        return None


def check_utf8(raw, label, lineno):
    """Raises an input error when `raw` is not UTF-8 outside a generation's output strings."""
    try:
        raw.decode("utf-8")
        return
    except UnicodeDecodeError:
        pass
    if label == "generations":
        # Each byte that is not UTF-8 becomes one of U+DC80..U+DCFF, which valid UTF-8 never gives.
        text = raw.decode("utf-8", "surrogateescape")
        spans = output_spans(text)
        bad = [i for i, c in enumerate(text) if "\udc80" <= c <= "\udcff"]
        if spans is not None and all(any(a <= i < b for a, b in spans) for i in bad):
            return
    raise input_error("%s:%d: invalid UTF-8" % (label, lineno))


def read_rows(path, label):
    """Yields (line number, object) for the non-blank lines of a JSONL file."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise input_error("cannot read %s: %s" % (path, e))
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lineno = 0
    for raw in data.split(b"\n"):
        lineno += 1
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        check_utf8(raw, label, lineno)
        text = raw.decode("utf-8", "replace")
        if text.strip(JS_WHITESPACE) == "":
            continue
        ok, row = loads(text)
        if not ok:
            raise input_error("%s:%d: not a JSON line: %s" % (label, lineno, json.dumps(text[:60])))
        if not isinstance(row, dict):
            raise input_error("%s:%d: not a JSON object: %s" % (label, lineno, json.dumps(text[:60])))
        yield lineno, row


def need_id(row, label, lineno):
    v = row.get("example_id")
    if not isinstance(v, str) or v == "":
        raise input_error("%s:%d: example_id must be a non-empty string" % (label, lineno))
    return v


def need_str(row, key, label, lineno, nonempty=False):
    if key not in row:
        raise input_error("%s:%d: missing field %s" % (label, lineno, key))
    v = row[key]
    if not isinstance(v, str) or (nonempty and v == ""):
        raise input_error("%s:%d: field %s must be a%s string" % (label, lineno, key, " non-empty" if nonempty else ""))
    return v


def need_sha(row, label, lineno):
    v = need_str(row, "prompt_sha256", label, lineno)
    if not SHA256_HEX.fullmatch(v):
        raise input_error("%s:%d: prompt_sha256 must be 64 lowercase hex digits" % (label, lineno))
    return v


def index_rows(rows, label):
    """{id: (lineno, row)}, failing on a duplicate id."""
    seen = {}
    dups = []
    for lineno, eid, row in rows:
        if eid in seen:
            dups.append("%s (%s:%d and %d)" % (json.dumps(eid), label, seen[eid][0], lineno))
        else:
            seen[eid] = (lineno, row)
    if dups:
        raise invariant("duplicate example_id in %s: %s (%d in all)" % (label, ", ".join(dups[:SHOW]), len(dups)))
    return seen


def listing(items):
    return "%s (%d in all)" % (", ".join(items[:SHOW]), len(items))


def prompt_digest(prompt):
    return hashlib.sha256(LONE_SURROGATE.sub("\ufffd", prompt).encode("utf-8")).hexdigest()


# ------------------------------------------------------------------ scoring


def metric(num, den):
    return {"value": num / den if den else 0.0, "numerator": num, "denominator": den}


def pooled(records):
    n = len(records)
    ok = sum(1 for r in records if r["status"] == "ok")
    names = sum(1 for r in records if r["name_match"])
    args = sum(1 for r in records if r["arguments_match"])
    full = sum(1 for r in records if r["name_match"] and r["arguments_match"])
    matched = sum(r["matched_pairs"] for r in records)
    pairs = sum(r["predicted_pairs"] + r["gold_pairs"] for r in records)
    return {
        "valid_json_rate": metric(ok, n),
        "function_name_accuracy": metric(names, n),
        "argument_exact_match": metric(args, n),
        "argument_f1": metric(2 * matched, pairs),
        "full_call_exact_match": metric(full, n),
    }


def score(examples_path, generations_path, prompts_path=None):
    examples = []
    for lineno, row in read_rows(examples_path, "examples"):
        eid = need_id(row, "examples", lineno)
        language = need_str(row, "language", "examples", lineno, nonempty=True)
        if language == "overall":
            raise input_error('examples:%d: language "overall" is the name of the slice of all examples' % lineno)
        if "target" not in row:
            raise input_error("examples:%d: missing field target" % lineno)
        root_id = row.get("root_id")
        if root_id is not None and not isinstance(root_id, str):
            raise input_error("examples:%d: root_id must be a string or null" % lineno)
        examples.append((lineno, eid, (language, row["target"], root_id)))
    generations = []
    for lineno, row in read_rows(generations_path, "generations"):
        eid = need_id(row, "generations", lineno)
        sha = need_sha(row, "generations", lineno)
        output = row.get("output")
        if isinstance(output, (dict, list)):
            # A whole JSON value (an API's response) is read as its canonical text (section 2).
            output = json.dumps(output, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        else:
            output = need_str(row, "output", "generations", lineno)
        generations.append((lineno, eid, (sha, output)))
    manifest = None
    if prompts_path is not None:
        prompts = []
        for lineno, row in read_rows(prompts_path, "prompts"):
            eid = need_id(row, "prompts", lineno)
            sha = need_sha(row, "prompts", lineno)
            prompt = row.get("prompt")  # optional; when present (even as null) it must be a string
            if "prompt" in row and not isinstance(prompt, str):
                raise input_error("prompts:%d: prompt must be a string" % lineno)
            prompts.append((lineno, eid, (sha, prompt)))
        manifest = index_rows(prompts, "prompts")
        bad = [
            "%s (prompts:%d)" % (json.dumps(eid), ln)
            for eid, (ln, (sha, prompt)) in manifest.items()
            if prompt is not None and prompt_digest(prompt) != sha
        ]
        if bad:
            raise invariant("prompt does not hash to its prompt_sha256: " + listing(bad))

    ex_index = index_rows(examples, "examples")
    gen_index = index_rows(generations, "generations")

    orphans = ["%s (generations:%d)" % (json.dumps(eid), ln) for eid, (ln, _) in gen_index.items() if eid not in ex_index]
    if orphans:
        raise invariant("generation with no example: " + listing(orphans))

    drop_summary = {r: 0 for r in DROP_REASONS}
    kept = []
    for lineno, eid, (language, target, root_id) in examples:
        reason = drop_reason(target)
        if reason is not None:
            drop_summary[reason] += 1
        else:
            kept.append((lineno, eid, language, target, root_id))

    missing = ["%s (examples:%d)" % (json.dumps(eid), ln) for ln, eid, _, _, _ in kept if eid not in gen_index]
    if missing:
        raise invariant("example with no generation: " + listing(missing))

    if manifest is not None:
        unlisted = ["%s (generations:%d)" % (json.dumps(eid), ln) for eid, (ln, _) in gen_index.items() if eid not in manifest]
        unlisted += ["%s (examples:%d)" % (json.dumps(eid), ln) for ln, eid, _, _, _ in kept if eid not in manifest]
        if unlisted:
            raise invariant("no manifest row for: " + listing(unlisted))
        differ = [
            "%s (generations:%d)" % (json.dumps(eid), ln)
            for eid, (ln, (sha, _)) in gen_index.items()
            if manifest[eid][1][0] != sha
        ]
        if differ:
            raise invariant("generation prompt_sha256 differs from the manifest: " + listing(differ))

    records = []
    for _, eid, language, target, root_id in kept:
        gold = target[0] if isinstance(target, list) else target
        status, call = parse_output(gen_index[eid][1][1])
        gold_pairs = flatten(gold["arguments"])
        rec = {
            "example_id": eid,
            "language": language,
            "root_id": root_id,
            "status": status,
            "name_match": False,
            "arguments_match": False,
            "matched_pairs": 0,
            "predicted_pairs": 0,
            "gold_pairs": len(gold_pairs),
        }
        if status == "ok":
            predicted = flatten(call["arguments"])
            rec["name_match"] = call["name"] == gold["name"]
            rec["arguments_match"] = canonical(call["arguments"]) == canonical(gold["arguments"])
            rec["matched_pairs"] = sum((Counter(predicted) & Counter(gold_pairs)).values())
            rec["predicted_pairs"] = len(predicted)
        records.append(rec)

    slices = sorted({r["language"] for r in records})
    by_language = {}
    for lang in slices:
        by_language[lang] = pooled([r for r in records if r["language"] == lang])
    counts = Counter(r["status"] for r in records)
    return {
        "n": len(records),
        "drop_summary": drop_summary,
        "parse_status_counts": {s: counts.get(s, 0) for s in STATUSES},
        "slices": slices,
        "metrics": {"overall": pooled(records), "by_language": by_language},
        "records": records,
    }


USAGE = "usage: _score_oracle.py --examples E --generations G [--prompts P] [--out FILE] [--records]"


def main(argv):
    opts = {}
    flags = set()
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--examples", "--generations", "--prompts", "--out") and i + 1 < len(argv):
            opts[a[2:]] = argv[i + 1]
            i += 2
        elif a == "--records":
            flags.add("records")
            i += 1
        else:
            sys.stderr.write(USAGE + "\n")
            return 2
    if "examples" not in opts or "generations" not in opts:
        sys.stderr.write(USAGE + "\n")
        return 2
    try:
        summary = score(opts["examples"], opts["generations"], opts.get("prompts"))
    except Failure as f:
        sys.stderr.write("score_oracle: %s: %s\n" % (f.kind, str(f).replace("\n", " ")))
        return 2
    if "records" not in flags:
        del summary["records"]
    text = json.dumps(summary, ensure_ascii=True) + "\n"
    if "out" in opts:
        with open(opts["out"], "w", encoding="ascii") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
