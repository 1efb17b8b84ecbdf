# The oracle of python_literals_diff_test.ts: CPython's ast.parse(text, mode="eval") of a
# sequence of string literals (str or bytes), and repr() of the constant it makes. One JSON line
# in ({"text": ...}), one out: {"ok": true, "repr": ...} (null for another expression) or
# {"ok": false, "message": ...}, the SyntaxError's message. Warnings (invalid escapes, octal
# escapes past \377) are CPython's DeprecationWarnings, which BFCL's run did not turn into
# errors: they are ignored here too.
import ast
import json
import sys
import warnings

warnings.simplefilter("ignore")

for line in sys.stdin:
    text = json.loads(line)["text"]
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        print(json.dumps({"ok": False, "message": e.msg}))
        continue
    # A quote inside may end a literal early, leaving some other expression: no repr then.
    value = repr(tree.body.value) if isinstance(tree.body, ast.Constant) else None
    print(json.dumps({"ok": True, "repr": value}))
