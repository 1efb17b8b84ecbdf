"""An independent scorecard oracle for tests/suite/scorecard_test.ts (run with /usr/bin/python3).

Reads JSON lines on stdin, one case each:

    {"rows": [ScoreRow, ...], "metrics": [name, ...], "level": float,
     "arms": [a] or [a, b],            # one arm: its scorecard; two: compareArms(a, b)
     "draws": [[golden index, ...], ...]}   # per resample, the goldens drawn (sorted ids)

(or a {"kind": "pool"} case: see pool_case) and writes one JSON line per case:

    {"columns": [{"value", "numerator", "denominator", "resampled": [x or null, ...],
                  "ci": [lo, hi] or null, "undefined": int}, ...],   # per arm, in order
     "deltas": [{"delta", "ci", "undefined"}, ...]}                  # two arms only

Columns, per arm: pass rate, mean overall, then each metric's mean. Semantics (the reference,
restated): a run's overall is the mean of its applicable criteria; a run with an applicable
criterion without a score is incomplete, one with none applicable unscored; only complete runs
count in the overall mean, and in the pass rate (overall >= the first metric's threshold) complete
runs and incomplete ones whose verdict is the same with every missing score 0 and every one 1
(an incomplete run passes when even all 0 passes, fails when even all 1 fails). Sums are
exact (Fractions) and each ratio is rounded once (Python's int / int is correctly rounded).
Percentiles: numpy.quantile (linear) of the defined resamples at (1 - level) / 2 and 1 - that.
"""

import json
import sys
from fractions import Fraction

import numpy as np


def rnd(fr):
    return fr.numerator / fr.denominator


def columns_of(rows, metrics, goldens):
    """Per column, per golden: (exact sum, count)."""
    k = len(metrics)
    cols = [[[Fraction(0), 0] for _ in goldens] for _ in range(2 + k)]
    runs = {}
    for r in rows:
        runs.setdefault((r["golden_id"], r["repeat"]), {})[r["metric"]] = r
    gi = {g: i for i, g in enumerate(goldens)}
    for (g, _), by in runs.items():
        i = gi[g]
        crit = [by[m] for m in metrics]
        app = [c for c in crit if c["applicable"]]
        scored = [Fraction(c["score"]) for c in app if c["score"] is not None]
        for m, c in enumerate(crit):
            if c["applicable"] and c["score"] is not None:
                cols[2 + m][i][0] += Fraction(c["score"])
                cols[2 + m][i][1] += 1
        threshold = crit[0]["threshold"]
        if app and len(scored) == len(app):
            overall = rnd(sum(scored) / len(scored))
            cols[0][i][0] += 1 if overall >= threshold else 0
            cols[0][i][1] += 1
            cols[1][i][0] += Fraction(overall)
            cols[1][i][1] += 1
        elif app:
            # Incomplete: the missing scores all 0 (lowest) and all 1 (highest) bound the overall.
            missing = len(app) - len(scored)
            lowest = rnd(sum(scored, Fraction(0)) / len(app))
            highest = rnd((sum(scored, Fraction(0)) + missing) / len(app))
            if lowest >= threshold or highest < threshold:
                cols[0][i][0] += 1 if lowest >= threshold else 0
                cols[0][i][1] += 1
    return cols


def pooled(col, weights):
    s = sum((w * col[g][0] for g, w in enumerate(weights) if w), Fraction(0))
    n = sum(w * col[g][1] for g, w in enumerate(weights) if w)
    return s, n


def interval(values, level):
    d = np.array([v for v in values if v is not None], dtype=np.float64)
    if len(d) == 0:
        return None, len(values)
    q = (1 - level) / 2
    return [float(np.quantile(d, q)), float(np.quantile(d, 1 - q))], len(values) - len(d)


def pool_case(case):
    """{"kind": "pool", "per_golden": [[x, ...], ...], "weights": [w, ...]}: one pooled mean."""
    s = Fraction(0)
    n = 0
    for vs, w in zip(case["per_golden"], case["weights"]):
        s += w * sum((Fraction(v) for v in vs), Fraction(0))
        n += w * len(vs)
    return {"sum": rnd(s), "count": n, "mean": rnd(s / n) if n else None}


def main():
    for line in sys.stdin:
        case = json.loads(line)
        if case.get("kind") == "pool":
            sys.stdout.write(json.dumps(pool_case(case)) + "\n")
            continue
        metrics, level, arms = case["metrics"], case["level"], case["arms"]
        per_arm = {a: [r for r in case["rows"] if r["arm"] == a] for a in arms}
        gsets = [set(r["golden_id"] for r in per_arm[a]) for a in arms]
        shared = set.intersection(*gsets)
        # Python sorts str by code point, the order Assay uses.
        goldens = sorted(shared)
        out_cols = []
        resampled_by_arm = []
        for a in arms:
            cols = columns_of([r for r in per_arm[a] if r["golden_id"] in shared], metrics, goldens)
            res_arm = []
            for col in cols:
                s, n = pooled(col, [1] * len(goldens))
                res = []
                for draw in case["draws"]:
                    w = [0] * len(goldens)
                    for g in draw:
                        w[g] += 1
                    rs, rn = pooled(col, w)
                    res.append(rnd(rs / rn) if rn else None)
                ci, und = interval(res, level)
                out_cols.append({
                    "value": rnd(s / n) if n else None,
                    "numerator": rnd(s),
                    "denominator": n,
                    "resampled": res,
                    "ci": ci,
                    "undefined": und,
                })
                res_arm.append(res)
            resampled_by_arm.append(res_arm)
        deltas = []
        if len(arms) == 2:
            k = len(out_cols) // 2
            for c in range(k):
                a, b = out_cols[c], out_cols[k + c]
                d = [None if x is None or y is None else y - x
                     for x, y in zip(resampled_by_arm[0][c], resampled_by_arm[1][c])]
                ci, und = interval(d, level)
                delta = None if a["value"] is None or b["value"] is None else b["value"] - a["value"]
                deltas.append({"delta": delta, "ci": ci, "undefined": und})
        sys.stdout.write(json.dumps({"columns": out_cols, "deltas": deltas}) + "\n")


main()
