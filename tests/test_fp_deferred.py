"""fp.deferred_checks (fma32's double-rounding checks made once per SLEEF routine on small
arrays) and fp.product_error (a product's rounding error without the checks) give the bits of
the step-by-step checked fma32: on a constructed double rounding, and on random and special
inputs of the routines that use them."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from gradsh.engine.vecmath import fp, kernels, native, sleef

F32, F64 = np.float32, np.float64


@pytest.fixture(autouse=True)
def numpy_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The NumPy emulation, whose checks these are (the compiled fmaf needs none: its bits are
    compared with the emulation's in test_native_kernels.py)."""
    monkeypatch.setattr(native, "kernels", None)

SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, 1.1754942e-38,
                     3.4028235e38, 1.0, -1.0, 88.72283, -103.97208, -104.0, 8.66434, 20.0],
                    dtype=F32)


def _bits(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, F32).view(np.uint32)


def _inputs(seed: int, n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [
        rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(F32),
        rng.standard_normal(n).astype(F32),
        rng.uniform(-110.0, -80.0, n).astype(F32),  # exp's results in the subnormal range
        (rng.uniform(0.0, 1.0, n) * 1e-38).astype(F32),  # log of subnormal inputs
        rng.uniform(1.0, 16.0, n).astype(F32),
        np.resize(SPECIALS, n),
    ]


def _checked(function: Callable[[np.ndarray], np.ndarray], x: np.ndarray,
             monkeypatch: pytest.MonkeyPatch) -> np.ndarray:
    """`function(x)` with fma32 checking each step (deferral off)."""
    with monkeypatch.context() as patch:
        patch.setattr(fp, "_DEFER_MAX", -1)
        return function(x)


def test_a_real_double_rounding_runs_the_routine_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # a*b = 2**6 + 2**-30: in float64, 2**30 + a*b rounds to 2**30 + 2**6, halfway between two
    # float32 values, which ties to 2**30; the exact sum rounds up to 2**30 + 2**7.
    a = np.array([64 * (1 + 2.0**-12), 1.5, 64 * (1 + 2.0**-12)], F32)
    b = np.array([1 - 4095 * 2.0**-24, 1.0, 1 - 4095 * 2.0**-24], F32)
    c = np.full(3, 2.0**30, F32)
    runs = []

    @fp.deferred_checks
    def routine(x: np.ndarray) -> np.ndarray:
        runs.append(fp._DEFERRED.log is not None)
        return fp.fma32(fp.fma32(x, b, c), F32(1.0), F32(0.0))

    naive = (a.astype(F64) * b + c).astype(F32)
    result = routine(a)
    assert runs == [True, False]  # deferred, then checked
    np.testing.assert_array_equal(result - c, np.array([128.0, 0.0, 128.0], F32))
    assert not np.array_equal(_bits(naive), _bits(result))
    assert np.array_equal(_bits(result), _bits(_checked(routine, a, monkeypatch)))


def test_exact_sums_with_halfway_bits_need_no_second_run() -> None:
    # 1 + 2**-24 is exact in float64 and halfway between float32 neighbours: nothing to fix
    runs = []

    @fp.deferred_checks
    def routine(x: np.ndarray) -> np.ndarray:
        runs.append(1)
        return fp.fma32(x, F32(2.0**-24), F32(1.0))

    assert _bits(routine(np.ones(4, F32))).tolist() == [0x3F800000] * 4
    assert runs == [1]


ROUTINES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "expf": sleef.expf_u10, "logf": sleef.logf_u10, "tanhf": sleef.tanhf_u10,
    "expm1f": sleef.expm1f_u10, "log1pf": sleef.log1pf_u10, "sinhf": sleef.sinhf_u10,
    "exp2f": sleef.exp2f_u10, "powf": lambda x: sleef.powf_u10(np.abs(x), F32(1.7)),
    "atan2f": lambda x: sleef.atan2f_u10(x, x[::-1].copy()),
    "log_softmax": lambda x: kernels.log_softmax(x.reshape(-1, 8)),
    "log_softmax_backward": lambda x: kernels.log_softmax_backward(
        x.reshape(-1, 8), kernels.log_softmax(x.reshape(-1, 8)[::-1].copy())),
}


@pytest.mark.parametrize("name", sorted(ROUTINES))
@pytest.mark.parametrize("n", [8, 64, 640])
def test_deferred_routines_match_the_checked_ones(name: str, n: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    function = ROUTINES[name]
    with np.errstate(all="ignore"):
        for k, x in enumerate(_inputs(n + len(name), n)):
            deferred = function(x)
            checked = _checked(function, x, monkeypatch)
            assert np.array_equal(_bits(deferred), _bits(checked)), (name, n, k)


@pytest.mark.parametrize("n", [1, 10, 20_000])  # (NumPy's loops take other paths by length)
def test_product_error_is_fma32s(n: int) -> None:
    rng = np.random.default_rng(7)
    pools = [
        [rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(F32)
         for _ in range(2)],
        [rng.standard_normal(n).astype(F32) * F32(scale) for scale in (1e-20, 1e-22)],
        [rng.standard_normal(n).astype(F32) * F32(scale) for scale in (1e20, 1e19)],
        [np.resize(SPECIALS, n), rng.standard_normal(n).astype(F32)],
        # NaNs of either sign and any payload times numbers of either sign: which NaN a sum of
        # two NaNs keeps depends on how it is added (a + (-b), not a - b, as fma32)
        [(rng.integers(0x7F800001, 0x80000000, n) | (rng.integers(0, 2, n) << 31)).astype(
            np.uint32).view(F32), rng.standard_normal(n).astype(F32)],
    ]
    with np.errstate(all="ignore"):
        for x, y in pools:
            for a, b in ((x, y), (F32(x[0]), y), (x, F32(y[-1]))):
                product = a * b
                expected = fp.fma32(a, b, -product)
                assert np.array_equal(_bits(fp.product_error(a, b, product)), _bits(expected))
