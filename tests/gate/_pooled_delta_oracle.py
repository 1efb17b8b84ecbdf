"""An independent oracle for the gate's bootstrap of fractional scores (tests/gate/pooled_delta_test.ts;
run with /usr/bin/python3).

Reads JSON lines on stdin, one case each:

    {"before": [{"values": [x, ...], "count": n}, ...],   # per unit, aligned with "now"
     "now": [...], "level": float,
     "draws": [[unit index, ...], ...]}                   # per resample, the units drawn

and writes one JSON line per case: {"delta": float, "ci": [lo, hi]}.

Semantics (restated from docs/gate.md): a side's metric over a draw is Σ (times drawn · Σ values)
/ Σ (times drawn · count), summed exactly (Fractions) and rounded once; 0 when the count is 0.
A resample's delta is the candidate's metric minus the base's (a double subtraction); the point
delta is that over every unit once. The interval is numpy.quantile (linear) of the resampled
deltas at (1 - level) / 2 and 1 - that.
"""

import json
import sys
from fractions import Fraction

import numpy as np


def metric(units, weights):
    s = Fraction(0)
    n = 0
    for u, w in zip(units, weights):
        if w:
            s += w * sum((Fraction(v) for v in u["values"]), Fraction(0))
            n += w * u["count"]
    if n == 0:
        return 0.0
    q = s / n
    return q.numerator / q.denominator  # int / int is correctly rounded


def main():
    for line in sys.stdin:
        case = json.loads(line)
        before, now = case["before"], case["now"]
        ones = [1] * len(now)
        delta = metric(now, ones) - metric(before, ones)
        deltas = []
        for draw in case["draws"]:
            w = [0] * len(now)
            for k in draw:
                w[k] += 1
            deltas.append(metric(now, w) - metric(before, w))
        q = (1 - case["level"]) / 2
        d = np.array(deltas, dtype=np.float64)
        ci = [float(np.quantile(d, q)), float(np.quantile(d, 1 - q))]
        sys.stdout.write(json.dumps({"delta": delta, "ci": ci}) + "\n")


main()
