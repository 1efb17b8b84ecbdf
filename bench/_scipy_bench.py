"""SciPy's side of bench/bootstrap_bench.ts (run with /usr/bin/python3, which has SciPy).

Usage: _scipy_bench.py BASE.i32 ADAPTER.i32 N RESAMPLES SEED REPS VARIANTS

BASE.i32 and ADAPTER.i32 hold N x 7 little-endian int32 counts per example (ok, name,
args, full, matched, predicted, gold), row k of one pairing with row k of the other.
VARIANTS is a comma-separated list of DTYPE:BATCH (e.g. "int64:100,int8:all").

For each variant, REPS timed calls of

    scipy.stats.bootstrap(14 columns, statistic, paired=True, vectorized=True,
                          method="percentile", n_resamples=RESAMPLES, batch=BATCH,
                          confidence_level=0.95, random_state=SEED)

where one statistic returns all five deltas (adapter - base), each metric recomputed from the
pooled counts of the resample (argument_f1 = 2*sum(matched) / (sum(predicted) + sum(gold))).
Only the call is timed: not the interpreter's start, the imports or reading the data.

Prints one JSON object: {"versions", "variants": [{"dtype", "batch", "seconds": [...],
"ci": [[lo, hi] x 5]}]}.
"""

import json
import sys
import time

import numpy as np
import scipy
from scipy import stats


def _ratio(num, den):
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


def statistic(*s, axis=-1):
    n = s[0].shape[axis]
    b = [x.sum(axis=axis) for x in s[:7]]
    a = [x.sum(axis=axis) for x in s[7:]]
    return np.stack(
        [
            a[0] / n - b[0] / n,
            a[1] / n - b[1] / n,
            a[2] / n - b[2] / n,
            _ratio(2 * a[4], a[5] + a[6]) - _ratio(2 * b[4], b[5] + b[6]),
            a[3] / n - b[3] / n,
        ]
    )


def main():
    base_path, adapter_path, n, resamples, seed, reps, variants = sys.argv[1:8]
    n, resamples, seed, reps = int(n), int(resamples), int(seed), int(reps)
    base = np.fromfile(base_path, dtype="<i4").reshape(n, 7)
    adapter = np.fromfile(adapter_path, dtype="<i4").reshape(n, 7)
    out = []
    for v in variants.split(","):
        dtype, batch = v.split(":")
        batch_arg = None if batch == "all" else int(batch)
        data = tuple(np.ascontiguousarray(base[:, c], dtype=dtype) for c in range(7)) + tuple(
            np.ascontiguousarray(adapter[:, c], dtype=dtype) for c in range(7)
        )
        seconds = []
        res = None
        for _ in range(reps):
            t = time.perf_counter()
            res = stats.bootstrap(
                data,
                statistic,
                paired=True,
                vectorized=True,
                method="percentile",
                n_resamples=resamples,
                batch=batch_arg,
                confidence_level=0.95,
                random_state=seed,
            )
            seconds.append(time.perf_counter() - t)
        ci = res.confidence_interval
        out.append(
            {
                "dtype": dtype,
                "batch": batch,
                "seconds": seconds,
                "ci": [[float(lo), float(hi)] for lo, hi in zip(ci.low, ci.high)],
                "se": [float(x) for x in res.standard_error],
            }
        )
        print(f"scipy {dtype} batch={batch}: {min(seconds):.3f} s", file=sys.stderr)
    json.dump(
        {"versions": {"scipy": scipy.__version__, "numpy": np.__version__}, "variants": out},
        sys.stdout,
    )


if __name__ == "__main__":
    main()
