"""SciPy's paired percentile bootstrap of Assay's five metric deltas, for
tests/stats/scipy_agreement_test.ts (run with /usr/bin/python3, which has SciPy).

Reads one JSON object on stdin:

    {"seed": int, "resamples": int, "level": float,
     "cases": [{"name": str,
                "base": [[ok, name, args, full, matched, predicted, gold], ...],
                "adapter": [[...], ...],            # row k pairs with base row k
                "probes": [[lo, hi], ...]}]}        # optional: one pair per metric

and writes one JSON object on stdout:

    {"versions": {"scipy": ..., "numpy": ...},
     "cases": [{"name", "n",
                "delta": [5 floats],       # the statistic on the data itself
                "ci": [[lo, hi] x 5],      # scipy.stats.bootstrap percentile interval
                "se": [5 floats],          # SD of SciPy's bootstrap distribution
                "probe_ranks": [[[below, at_or_below] for lo, ... for hi] x 5]}]}

`probe_ranks` places each probe in SciPy's bootstrap distribution: the share of
resampled deltas strictly below it and at or below it.

Every case is one `scipy.stats.bootstrap` call over 14 paired samples (the 7
per-example counts of each arm), with `paired=True, vectorized=True,
method="percentile"` and `random_state=seed`; the statistic returns all five
deltas (adapter - base) at once, each metric recomputed from the pooled counts of
the resample, exactly as Assay defines them:

    rate metrics:  sum(count) / n
    argument_f1:   2 * sum(matched) / (sum(predicted) + sum(gold)), 0 when that is 0
"""

import json
import sys

import numpy as np
import scipy
from scipy import stats

# Count columns: ok, name, args, full, matched, predicted, gold.
OK, NAME, ARGS, FULL, MATCHED, PREDICTED, GOLD = range(7)


def _ratio(num, den):
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


def metrics(sums, n):
    """The five metrics, in report order, from pooled counts (sums[c] per column)."""
    return [
        sums[OK] / n,
        sums[NAME] / n,
        sums[ARGS] / n,
        _ratio(2 * sums[MATCHED], sums[PREDICTED] + sums[GOLD]),
        sums[FULL] / n,
    ]


def statistic(*samples, axis=-1):
    """All five deltas, adapter - base; samples are 7 base columns then 7 adapter columns."""
    n = samples[0].shape[axis]
    base = [np.sum(s, axis=axis) for s in samples[:7]]
    adapter = [np.sum(s, axis=axis) for s in samples[7:]]
    mb = metrics(base, n)
    ma = metrics(adapter, n)
    return np.stack([np.asarray(a - b, dtype=np.float64) for a, b in zip(ma, mb)], axis=0)


def run_case(case, seed, resamples, level):
    base = np.asarray(case["base"], dtype=np.int64).reshape(-1, 7)
    adapter = np.asarray(case["adapter"], dtype=np.int64).reshape(-1, 7)
    assert base.shape == adapter.shape, "both arms need the same rows"
    data = tuple(base[:, c] for c in range(7)) + tuple(adapter[:, c] for c in range(7))
    delta = statistic(*data)
    res = stats.bootstrap(
        data,
        statistic,
        paired=True,
        vectorized=True,
        method="percentile",
        n_resamples=resamples,
        confidence_level=level,
        random_state=seed,
    )
    dist = res.bootstrap_distribution  # (5, resamples)
    out = {
        "name": case["name"],
        "n": int(base.shape[0]),
        "delta": [float(x) for x in delta],
        "ci": [
            [float(lo), float(hi)]
            for lo, hi in zip(res.confidence_interval.low, res.confidence_interval.high)
        ],
        "se": [float(x) for x in res.standard_error],
    }
    probes = case.get("probes")
    if probes is not None:
        ranks = []
        for m, pair in enumerate(probes):
            d = dist[m]
            ranks.append(
                [[float(np.mean(d < x)), float(np.mean(d <= x))] for x in pair]
            )
        out["probe_ranks"] = ranks
    return out


def main():
    req = json.load(sys.stdin)
    seed, resamples, level = int(req["seed"]), int(req["resamples"]), float(req["level"])
    cases = [run_case(c, seed, resamples, level) for c in req["cases"]]
    json.dump(
        {"versions": {"scipy": scipy.__version__, "numpy": np.__version__}, "cases": cases},
        sys.stdout,
    )


if __name__ == "__main__":
    main()
