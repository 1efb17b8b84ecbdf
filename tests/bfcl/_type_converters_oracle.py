# The oracle of type_converters_diff_test.ts: BFCL's 2024-08 Java and JavaScript type converters
# as docs/bfcl.md states them, run by CPython's own `re`, `int()` and `float()` (whose `\d`, `\w`
# and `\s` are Unicode's), under CPython's default limit on integer string conversion (int() of
# more than 4,300 digits raises ValueError). One JSON line in ([language, type, nested type,
# value]), one out: the typed value, or ["ValueError"] where the converter raises.
import json
import re
import sys

assert sys.get_int_max_str_digits() == 4300, sys.get_int_max_str_digits()

INT = r"^-?\d+$"
JFLOAT = r"^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]$"
JDOUBLE = r"^-?\d+(\.\d+)?([eE][+-]?\d+)?$"
JLONG = r"^-?\d+[lL]$"


def number_or_text(s):
    for kind in (int, float):
        try:
            return kind(s)
        except ValueError:
            pass
    return s


def java_value(s):
    if s in ("true", "false"):
        return s == "true"
    if s.startswith('"') and s.endswith('"'):
        return s[1:-1]
    if re.match(JLONG, s):
        return int(s[:-1])
    if re.match(JFLOAT, s):
        return float(re.sub(r"[fF]$", "", s))
    return number_or_text(s)


def java_item(s, nested):
    if nested in ("char", "String"):
        return s[1:-1]
    return java(s, nested) if nested else java_value(s)


def java(value, kind, nested=None):
    if kind in ("byte", "short", "integer"):
        return int(value) if re.match(INT, value) else value
    if kind == "float":
        return float(re.sub(r"[fF]$", "", value)) if re.match(JFLOAT, value) else value
    if kind == "double":
        return float(value) if re.match(JDOUBLE, value) else value
    if kind == "long":
        return int(re.sub(r"[lL]$", "", value)) if re.match(JLONG, value) else value
    if kind == "boolean":
        return value == "true" if value in ("true", "false") else value
    if kind == "ArrayList":
        m = re.search(r"new\s+ArrayList<\w*>\(Arrays\.asList\((.+?)\)\)", value)
        if m:
            return [java_item(e.strip(), nested) for e in m.group(1).split(",")]
        m = re.search(r"new\s+ArrayList<\w*>\(\)\s*\{\{\s*(.+?)\s*\}\}", value, re.DOTALL)
        if m:
            return [java_item(a.strip(), nested) for a in re.findall(r"add\((.+?)\)", m.group(1))]
        return [] if re.search(r"new\s+ArrayList<\w*>\(\)", value) else value
    if kind == "Array":
        m = re.search(r"new\s+\w+\[\]\s*\{(.*?)\}", value)
        if not m:
            return value
        items = [x.strip() for x in m.group(1).split(",") if x.strip()]
        return [java(x, nested) if nested else java_value(x) for x in items]
    if kind == "HashMap":
        m = re.search(
            r"new\s+HashMap<.*?>\s*\(\)\s*\{\s*\{?\s*(.*?)\s*\}?\s*\}", value, re.DOTALL
        )
        if m:
            out = {}
            if m.group(1).strip():
                for k, v in re.findall(r"put\(\"(.*?)\",\s*(.*?)\)", m.group(1)):
                    out[k] = java_value(v.strip())
            return out
        return {} if re.search(r"new\s+HashMap<.*?>\s*\(\)", value) else value
    return value  # char (its pattern never matches), String, any


def js_value(s):
    s = s.strip()
    if s in ("true", "false"):
        return s == "true"
    if (s.startswith('"') and s.endswith('"')) or (s.startswith("'") and s.endswith("'")):
        return s[1:-1]
    return number_or_text(s)


def js_array(code, nested):
    code = code.strip()
    two = r"\[\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\]|\bnew\s+Array\(\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\)"
    try:
        m = re.match(two, code)
        if m:
            out = []
            for i, inner in enumerate(re.findall(r"\[(.*?)\]", m.group(0))):
                inner = inner.strip()
                if i == 0 and inner.startswith("["):
                    inner = inner[1:]
                out.append([js_value(e.strip()) for e in inner.split(",")])
            return out
        m = re.match(r"\[(.*?)\]|\bnew\s+Array\((.*?)\)", code)
        if not m:
            return code
        body = (m.group(1) if m.group(1) is not None else m.group(2) or "").strip()
        items = body.split(",") if body else []
        if not nested:
            return [js_value(e.strip()) for e in items]
        return [js(e.strip(), nested, "String") for e in items]
    except Exception:
        return code


def js_dict(code):
    code = code.strip()
    if code == "{}":
        return {}
    m = re.match(r"\{(.*?)\}", code)
    if not m:
        return code
    try:
        out = {}
        for k, v in re.findall(r"([^:]+):\s*(.*?)(?:,\s*(?=[^,]+:)|$)", m.group(1)):
            k = k.strip().strip("'\"")
            v = v.strip()
            if v.startswith("[") and v.endswith("]"):
                out[k] = js_array(v, None)
            elif v.startswith("{") and v.endswith("}"):
                out[k] = js_dict(v)
            else:
                out[k] = js_value(v.strip("'\""))
        return out
    except Exception:
        return code


def js(value, kind, nested=None):
    if kind == "String":
        quoted = (value.startswith('"') and value.endswith('"')) or (
            value.startswith("'") and value.endswith("'")
        )
        return value[1:-1] if quoted else value
    if kind == "integer":
        return int(value) if re.match(INT, value) else value
    if kind == "float":
        return float(value) if re.match(r"^-?\d+(\.\d+)?$", value) else value
    if kind == "Bigint":
        return int(value[:-1]) if re.match(r"^-?\d+n$", value) else value
    if kind == "Boolean":
        return value == "true" if value in ("true", "false") else value
    if kind == "dict":
        return js_dict(value)
    if kind == "array":
        return js_array(value, nested)
    return value  # any


def typed(v):
    if v is None:
        return ["none"]
    if isinstance(v, bool):
        return ["bool", v]
    if isinstance(v, int):
        return ["int", str(v)]
    if isinstance(v, float):
        return ["float", repr(v)]
    if isinstance(v, str):
        return ["str", v]
    if isinstance(v, list):
        return ["list", [typed(x) for x in v]]
    if isinstance(v, dict):
        return ["dict", [[typed(k), typed(x)] for k, x in v.items()]]
    return [type(v).__name__]


for line in sys.stdin:
    language, kind, nested, value = json.loads(line)
    try:
        out = typed((java if language == "java" else js)(value, kind, nested))
    except ValueError:
        out = ["ValueError"]
    print(json.dumps(out))
