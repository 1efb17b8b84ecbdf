"""SciPy's and the textbook's judge-calibration statistics, for tests/suite/calibration_test.ts (run
with /usr/bin/python3, which has SciPy).

Reads JSON lines on stdin, one dataset each: {"judge": [...], "human": [...], "threshold": t};
writes one JSON line per dataset:

    {"n", "mae",                       # numpy.mean(abs(judge - human)); null when n = 0
     "pearson", "spearman",            # scipy.stats.pearsonr / spearmanr; null for nan or n < 2
     "tp", "fp", "fn", "tn",           # positive = score >= threshold, on both sides
     "agreement",                      # (tp + tn) / n
     "kappa_textbook",                 # (po - pe) / (1 - pe) in floats; null when pe = 1
     "kappa_exact"}                    # the same formula in Fractions, rounded once
"""

import json
import sys
import warnings
from fractions import Fraction

import numpy as np
from scipy import stats

warnings.simplefilter("ignore")


def nan_to_none(x):
    x = float(x)
    return None if x != x else x


def main():
    for line in sys.stdin:
        d = json.loads(line)
        j = np.array(d["judge"], dtype=np.float64)
        h = np.array(d["human"], dtype=np.float64)
        t = d["threshold"]
        n = len(j)
        out = {"n": n}
        out["mae"] = float(np.mean(np.abs(j - h))) if n else None
        if n >= 2:
            out["pearson"] = nan_to_none(stats.pearsonr(j, h)[0])
            out["spearman"] = nan_to_none(stats.spearmanr(j, h)[0])
        else:
            out["pearson"] = out["spearman"] = None
        jp, hp = j >= t, h >= t
        tp = int(np.sum(jp & hp))
        fp = int(np.sum(jp & ~hp))
        fn = int(np.sum(~jp & hp))
        tn = int(np.sum(~jp & ~hp))
        out.update(tp=tp, fp=fp, fn=fn, tn=tn)
        out["agreement"] = (tp + tn) / n if n else None
        kt = ke = None
        if n:
            po = (tp + tn) / n
            pe = ((tp + fp) / n) * ((tp + fn) / n) + ((fn + tn) / n) * ((fp + tn) / n)
            if pe != 1:
                kt = (po - pe) / (1 - pe)
            po_x = Fraction(tp + tn, n)
            pe_x = Fraction(tp + fp, n) * Fraction(tp + fn, n) + Fraction(fn + tn, n) * Fraction(fp + tn, n)
            if pe_x != 1:
                k = (po_x - pe_x) / (1 - pe_x)
                ke = k.numerator / k.denominator
        out["kappa_textbook"] = kt
        out["kappa_exact"] = ke
        sys.stdout.write(json.dumps(out) + "\n")


main()
