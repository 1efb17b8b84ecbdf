# An independent implementation of the clustered standard error of Miller (2024), "Adding Error
# Bars to Evals", for tests/suite/uncertainty_test.ts: exact rational arithmetic (Fraction) on
# the given doubles, one square root at the end, and SciPy's t quantiles (refined on its CDF). One JSON dataset per
# input line: {"values": [...], "clusters": [...], "level": 0.95}; one JSON answer per line.
import json
import math
import sys
from fractions import Fraction

from scipy.special import stdtr
from scipy.stats import t as student_t


def t_quantile(q, df):
    # SciPy's t.ppf is good to about 1e-10; two Newton steps on its CDF (stdtr) make it exact
    # to a few ulps.
    x = float(student_t.ppf(q, df))
    for _ in range(2):
        x -= (float(stdtr(df, x)) - q) / float(student_t.pdf(x, df))
    return x


def answer(d):
    xs = [Fraction(v) for v in d["values"]]
    keys = d["clusters"]
    n = len(xs)
    mean = sum(xs, Fraction(0)) / n
    e = [x - mean for x in xs]
    ss = sum((x * x for x in e), Fraction(0))
    clt2 = ss / (n * (n - 1))
    members = {}
    for i, k in enumerate(keys):
        members.setdefault(k, []).append(i)
    c = len(members)
    # Miller's Eq. 4 as printed: the CLT variance plus the within-cluster cross products.
    cross = Fraction(0)
    for idx in members.values():
        for i in idx:
            for j in idx:
                if i != j:
                    cross += e[i] * e[j]
    miller2 = clt2 + cross / (n * n)
    # With the finite-cluster correction: C/(C-1) times the squared cluster sums over n^2.
    sums = sum((sum((e[i] for i in idx), Fraction(0)) ** 2 for idx in members.values()), Fraction(0))
    clustered2 = Fraction(c, c - 1) * sums / (n * n) if c >= 2 else None
    q = 1 - (1 - d["level"]) / 2
    out = {
        "mean": float(mean),
        "se_clt": math.sqrt(float(clt2)),
        "t_clt": t_quantile(q, n - 1),
        "clusters": c,
    }
    if clustered2 is not None:
        out["se_clustered"] = math.sqrt(float(clustered2))
        out["miller_se"] = math.sqrt(float(miller2))
        out["t_clustered"] = t_quantile(q, c - 1)
    return out


for line in sys.stdin:
    print(json.dumps(answer(json.loads(line))), flush=True)
