# The oracle of python_calls_diff_test.ts: CPython's ast.parse, read by BFCL's 2024-08 rules as
# docs/bfcl.md states them (operators refused rather than evaluated). One JSON line in
# ({"text": ...}), one out: {"ok": false} or {"ok": true, "value": <typed value>}.
import ast
import json
import sys


class Refused(Exception):
    pass


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
    if isinstance(v, tuple):
        return ["tuple", [typed(x) for x in v]]
    if isinstance(v, dict):
        return ["dict", [[typed(k), typed(x)] for k, x in v.items()]]
    return [type(v).__name__]


def call_name(func):
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    return ".".join(reversed(parts))


def resolve(node):
    if isinstance(node, ast.Constant):
        return "..." if node.value is Ellipsis else node.value
    if isinstance(node, ast.UnaryOp):
        if not isinstance(node.operand, ast.Constant):
            raise Refused()
        try:
            return -node.operand.value
        except TypeError:
            raise Refused()
    if isinstance(node, ast.List):
        return [resolve(x) for x in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(resolve(x) for x in node.elts)
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise Refused()
        return {resolve(k): resolve(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        if not node.keywords:
            return ast.unparse(node)
        return {call_name(node.func): {kw.arg: resolve(kw.value) for kw in node.keywords}}
    if isinstance(node, ast.Subscript):
        return ast.unparse(node.value) + "[" + ast.unparse(node.slice) + "]"
    raise Refused()


def decode(text):
    try:
        body = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError):
        return {"ok": False}
    if not isinstance(body, (ast.List, ast.Tuple, ast.Set)):
        return {"ok": False}
    out = []
    try:
        for elem in body.elts:
            if not isinstance(elem, ast.Call):
                return {"ok": False}
            out.append(resolve(elem))
    except (Refused, TypeError):
        return {"ok": False}
    return {"ok": True, "value": typed(out)}


for line in sys.stdin:
    print(json.dumps(decode(json.loads(line)["text"])))
