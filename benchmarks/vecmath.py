"""Cost of gradsh.engine.vecmath's exact float32 kernels against the NumPy ufuncs they replace.

    python -m benchmarks.vecmath              1M and 10M elements, median of 3 runs
    python -m benchmarks.vecmath --sizes 1e5  other sizes

Each row times today's NumPy expression (the engine's float32 path before vecmath) and the
vecmath kernel on the same contiguous float32 input, and prints their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gradsh.engine.vecmath import kernels as K  # noqa: E402

F32 = np.float32
ONE = F32(1.0)


def _np_softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


# row -> (NumPy today, vecmath, input scale)
ROWS: dict[str, tuple[Callable, Callable, float]] = {
    "exp": (np.exp, K.exp, 20.0),
    "log": (np.log, K.log, 100.0),
    "tanh": (np.tanh, K.tanh, 5.0),
    "sin": (np.sin, K.sin, 100.0),
    "sigmoid": (lambda x: ONE / (ONE + np.exp(-x)), K.sigmoid, 20.0),
    "softplus": (lambda x: np.logaddexp(x, F32(0.0)), K.softplus, 20.0),
    "log1p": (np.log1p, K.log1p, 100.0),
    "softmax(rows of 1000)": (_np_softmax, K.softmax, 10.0),
}


def _median_time(fn: Callable, x: np.ndarray, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(x)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e6, 1e7])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    print(f"{'op':24s} {'n':>10s} {'numpy ms':>10s} {'vecmath ms':>11s} {'ratio':>7s}")
    for size in args.sizes:
        n = int(size)
        for name, (today, exact, scale) in ROWS.items():
            x = (rng.standard_normal(n) * scale).astype(F32)
            if name == "log":
                x = np.abs(x)
            if name.startswith("softmax"):
                x = x.reshape(-1, 1000)
            with np.errstate(all="ignore"):
                t_np = _median_time(today, x, args.runs)
                t_vm = _median_time(exact, x, args.runs)
            print(f"{name:24s} {n:>10d} {t_np * 1e3:>10.1f} {t_vm * 1e3:>11.1f} "
                  f"{t_vm / t_np:>7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
