# The oracle of pythonic_int_limit_test.ts: CPython's ast.parse of `[f(a=LITERAL)]`, its value read
# by ast.literal_eval and written by json.dumps, as the pythonic decoder imitates them. One JSON
# line in (the text), one out: ["invalid_syntax", message], ["invalid_shape", error] (a value
# json.dumps cannot write: a complex, an int of more than 4,300 decimal digits) or ["ok", json].
import ast
import json
import sys

assert sys.get_int_max_str_digits() == 4300, sys.get_int_max_str_digits()

for line in sys.stdin:
    text = json.loads(line)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        out = ["invalid_syntax", e.msg]
    else:
        value = ast.literal_eval(tree.body.elts[0].keywords[0].value)
        try:
            out = ["ok", json.dumps({"a": value}, separators=(",", ":"))]
        except (TypeError, ValueError) as e:
            out = ["invalid_shape", str(e)]
    print(json.dumps(out), flush=False)
