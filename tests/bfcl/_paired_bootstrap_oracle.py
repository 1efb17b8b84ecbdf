"""NumPy's paired percentile bootstrap of a difference of accuracies, on given draws, for
tests/bfcl/comparison_test.ts (run with /usr/bin/python3).

Reads one JSON object on stdin:

    {"level": float,
     "slices": [{"a": [0/1, ...], "b": [0/1, ...],      # entry k of a pairs with entry k of b
                 "draws": [[int, ...], ...]}]}          # per resample, n indices into the slice

and writes {"slices": [{"delta": float, "ci": [lo, hi]}]} on stdout: the point difference
mean(b) - mean(a), and the percentile interval of the resampled differences by
numpy.percentile's default (linear) method.
"""

import json
import sys

import numpy as np


def run_slice(s, level):
    a = np.asarray(s["a"], dtype=np.float64)
    b = np.asarray(s["b"], dtype=np.float64)
    draws = np.asarray(s["draws"], dtype=np.int64)
    deltas = b[draws].mean(axis=1) - a[draws].mean(axis=1)
    q = (1 - level) / 2 * 100
    lo, hi = np.percentile(deltas, [q, 100 - q])
    return {"delta": float(b.mean() - a.mean()), "ci": [float(lo), float(hi)]}


def main():
    req = json.load(sys.stdin)
    json.dump({"slices": [run_slice(s, float(req["level"])) for s in req["slices"]]}, sys.stdout)


if __name__ == "__main__":
    main()
