#!/usr/bin/env python3
"""An independent oracle for `numericForm` (src/engine/canonical_lookup.ts): whether two JSON texts
are equal as Python compares their values, numbers by exact value (`150 == 150.0`, `1e2 == 100`,
`12345678901234567890123 != 1.2345678901234568e+22`), with the two readings docs/evaluation.md gives
the numeric mode: a boolean is not a number (Python's `True == 1` is not taken), and NaN equals NaN
(the contract keeps NaN as a value; Python's `nan != nan` is not taken).

Input (stdin): one JSON array per line, [TEXT_A, TEXT_B]. Output: one line per case, "1" or "0".
Plain Python, the standard library only.
"""

import json
import math
import sys


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
            return True
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def main():
    for line in sys.stdin:
        a, b = json.loads(line)
        sys.stdout.write("1\n" if same(json.loads(a), json.loads(b)) else "0\n")


if __name__ == "__main__":
    main()
