# The oracle of python_calls_diff_test.ts and python_arith_test.ts: CPython's ast.parse, read by
# BFCL's 2024-08 rules as docs/bfcl.md states them. An operator expression (ast.BinOp) is what
# BFCL's eval(ast.unparse(node)) gives when it holds only literals (constants, lists, tuples,
# dicts, unary and binary operators): names, calls and the rest are refused, as Assay refuses
# them. The functions below stand where BFCL's stand when it decodes (module, runner, file
# runner, handler, ast_parse, then the resolver: one frame each, a comprehension's one more), so
# that ast.unparse runs as deep in the stack as BFCL's did and gives up (RecursionError) where
# BFCL's did. One JSON line in ({"text": ...}), one out: {"ok": false} or
# {"ok": true, "value": <typed value>}.
import ast
import json
import operator
import sys

sys.set_int_max_str_digits(0)


class Refused(Exception):
    pass


LITERAL = (ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.UnaryOp, ast.BinOp)


def literal_only(node):
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name) and n.id in ("True", "False", "None"):
            continue
        if not isinstance(n, LITERAL):
            return False
        if isinstance(n, ast.Constant):
            if n.value is Ellipsis or isinstance(n.value, (bytes, complex)):
                return False
        elif isinstance(n, ast.Dict):
            if any(k is None for k in n.keys):
                return False
            stack.extend(n.keys)
            stack.extend(n.values)
        elif isinstance(n, (ast.List, ast.Tuple)):
            stack.extend(n.elts)
        elif isinstance(n, ast.UnaryOp):
            stack.append(n.operand)
        else:
            stack.extend([n.left, n.right])
    return True


MAX_INT_BITS = 1 << 16
MAX_SEQUENCE = 1 << 20


BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
    ast.MatMult: operator.matmul,
}
UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert, ast.Not: operator.not_}


def beyond(node):
    """Whether a part of the tree gives what Assay does not evaluate (though Python does): a
    complex number, printf-style formatting (a str left of `%`), or an int or a sequence past
    Assay's bounds. The parts are evaluated again, bottom up, with Python's own operators (the
    whole did not raise, so no part does)."""
    values = {}
    order = list(ast.walk(node))
    for n in reversed(order):
        if isinstance(n, ast.Constant):
            v = n.value
        elif isinstance(n, ast.Name):
            v = {"True": True, "False": False, "None": None}[n.id]
        elif isinstance(n, ast.List):
            v = [values[id(e)] for e in n.elts]
        elif isinstance(n, ast.Tuple):
            v = tuple(values[id(e)] for e in n.elts)
        elif isinstance(n, ast.Dict):
            v = {values[id(k)]: values[id(x)] for k, x in zip(n.keys, n.values)}
        elif isinstance(n, ast.UnaryOp):
            v = UNARY[type(n.op)](values[id(n.operand)])
        elif isinstance(n, ast.BinOp):
            left = values[id(n.left)]
            if isinstance(n.op, ast.Mod) and isinstance(left, str):
                return True
            v = BINARY[type(n.op)](left, values[id(n.right)])
        else:
            continue  # an operator or a context
        if isinstance(v, complex):
            return True
        if isinstance(v, int) and v.bit_length() > MAX_INT_BITS:
            return True
        if isinstance(v, (str, list, tuple)) and len(v) > MAX_SEQUENCE:
            return True
        values[id(n)] = v
    return False


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


def resolve_call(node):
    out = {}
    for kw in node.keywords:
        out[kw.arg] = resolve(kw.value)
    return {call_name(node.func): out}


def resolve(node):
    if isinstance(node, ast.Constant):
        return "..." if node.value is Ellipsis else node.value
    if isinstance(node, ast.UnaryOp):
        if not isinstance(node.operand, ast.Constant):
            raise Refused()
        return -node.operand.value
    if isinstance(node, ast.List):
        return [resolve(x) for x in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(resolve(x) for x in node.elts)
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise Refused()
        return {resolve(k): resolve(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.BinOp):
        # BFCL: eval(ast.unparse(node)); here only over literals, and in an empty namespace.
        if not literal_only(node):
            raise Refused()
        value = eval(ast.unparse(node), {"__builtins__": {}}, {})
        if beyond(node):
            raise Refused()
        return value
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        if not node.keywords:
            return ast.unparse(node)
        return resolve_call(node)
    if isinstance(node, ast.Subscript):
        return ast.unparse(node.value) + "[" + ast.unparse(node.slice) + "]"
    raise Refused()


def ast_parse(text):
    body = ast.parse(text, mode="eval").body
    if not isinstance(body, (ast.List, ast.Tuple, ast.Set)):
        raise Refused()
    out = []
    for elem in body.elts:
        if not isinstance(elem, ast.Call):
            raise Refused()
        out.append(resolve(elem))
    return out


def decode(text):
    return ast_parse(text)


def file_runner(text):
    try:
        return {"ok": True, "value": typed(decode(text))}
    except Exception:
        return {"ok": False}


def runner(line):
    return json.dumps(file_runner(json.loads(line)["text"]))


for line in sys.stdin:
    print(runner(line))
