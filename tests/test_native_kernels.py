"""The optional compiled kernels (vecmath/_native.c) give the NumPy emulation's bits: every
kernel sgemm.py dispatches to, on thousands of random shapes and layouts with subnormals,
overflow, infinities, NaN and signed zeros, and fp.fma32, in each instruction set's copy this
CPU runs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from gradsh.engine.vecmath import fp, native, sgemm

F32 = np.float32
Product = tuple[str, Callable[[], np.ndarray]]


def _values(rng: np.random.Generator, shape: tuple[int, ...], kind: int) -> np.ndarray:
    """Random float32 values of one of a few kinds: ordinary, tiny (products and sums in
    float32's subnormal range), huge (products overflow), or ordinary sprinkled with
    infinities, NaN, zeros of both signs and subnormals; some with exact halfway cases."""
    x = rng.standard_normal(shape)
    if kind == 1:
        x *= 1e-20
    elif kind == 2:
        x *= 1e19
    elif kind == 3:
        specials = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-40, -3e-42, 2.0 ** -126])
        pick = rng.random(shape) < 0.05
        x[pick] = rng.choice(specials, size=int(pick.sum()))
    elif kind == 4:  # few significant bits: many exact ties between float32 neighbours
        x = np.round(x * 8) * 2.0 ** rng.integers(-3, 20, shape)
    return x.astype(F32)


def _layout(x: np.ndarray, column_major: bool) -> np.ndarray:
    return np.ascontiguousarray(x.T).T if column_major else x


def _products(rng: np.random.Generator, count: int) -> Iterator[Product]:
    """(description, thunk) for `count` random products through sgemm's public functions."""
    depths = [1, 2, 3, 7, 16, 17, 31, 33, 48, 64, 100]
    for case in range(count):
        kind = int(rng.integers(0, 5))
        m, n = (int(rng.choice([1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 33])) for _ in range(2))
        k = int(rng.choice(depths + [385, 800])) if case % 10 == 0 else int(rng.choice(depths))
        a_col, b_col = bool(rng.integers(2)), bool(rng.integers(2))
        a = _layout(_values(rng, (m, k), kind), a_col)
        b = _layout(_values(rng, (k, n), (kind + case) % 5), b_col)
        shape = f"{m}x{k} @ {k}x{n} cols={a_col},{b_col} kind={kind}"
        what = f"{sgemm._exact_kernel(a, b)} {shape}"
        form = case % 4
        if form == 0:
            yield f"mm {what}", lambda a=a, b=b: sgemm.mm(a, b)
        elif form == 1:
            bias = _values(rng, (n,) if case % 8 == 1 else (m, n), kind)
            beta, alpha = [(1.0, 1.0), (0.5, 1.0), (0.0, 2.5), (0.3, 1.7)][case % 3]
            yield (f"addmm {what} beta={beta} alpha={alpha}",
                   lambda a=a, b=b, c=bias, s=beta, t=alpha: sgemm.addmm(c, a, b, s, t))
        elif form == 2:
            batch = int(rng.integers(1, 4))
            x = _values(rng, (batch, m, k), kind)
            y = _values(rng, (batch, k, n), kind)
            yield f"bmm {batch} x {what}", lambda x=x, y=y: sgemm.bmm(x, y)
        else:
            x = _values(rng, (k * m,), kind)
            y = _values(rng, (k * m,), (kind + 3) % 5)
            yield f"dot {k * m} kind={kind}", lambda x=x, y=y: sgemm.dot(x, y)


def _emulated(monkeypatch: pytest.MonkeyPatch, thunk: Callable[[], np.ndarray]) -> np.ndarray:
    with monkeypatch.context() as patch:
        patch.setattr(native, "kernels", None)
        return thunk()


def _same_bits(x: np.ndarray, y: np.ndarray) -> bool:
    """The same float32 bits, NaN for NaN: a NaN's sign and payload are not part of the
    contract (x86 makes -nan for inf * 0 but passes a NaN operand's own on, and which operand
    passes depends on the instruction form: MKL's own NaNs differ between CPUs)."""
    x, y = np.asarray(x, F32), np.asarray(y, F32)
    if x.shape != y.shape or not np.array_equal(np.isnan(x), np.isnan(y)):
        return False
    keep = ~np.isnan(x)
    return np.array_equal(x[keep].view(np.uint32), y[keep].view(np.uint32))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's matmul on the unclaimed shapes
def test_every_kernel_matches_the_emulation(kernels: object,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """3,000 random products (mm, addmm, bmm, dot over every kernel `plan` names, k across
    MKL's blocks of 384): the same bits through each instruction set as through NumPy."""
    monkeypatch.setattr(sgemm, "EXACT_MAX_US", 1e12)
    rng = np.random.default_rng(20)
    levels = kernels.levels()  # type: ignore[attr-defined]
    assert levels[-1] == "portable"
    wrong, kernels_seen = [], set()
    for description, thunk in _products(rng, 3000):
        expected = _emulated(monkeypatch, thunk)
        for level in levels:
            kernels.use(level)  # type: ignore[attr-defined]
            if not _same_bits(thunk(), expected):
                wrong.append((level, description))
        kernels_seen.update(description.split()[:2])
    assert not wrong[:20]
    assert kernels_seen >= {"mm", "addmm", "bmm", "dot", "blocked", "chain", "gemv", "gemv_t",
                            "axpy", "axpy_t", "dot2"}


def test_a_large_product_through_each_copy(kernels: object) -> None:
    """A (70, 1000) @ (1000, 600) product (three k blocks, columns over two tiles) gives the same
    bits in every instruction set's copy (the NumPy emulation of it takes seconds)."""
    rng = np.random.default_rng(21)
    a = _values(rng, (70, 1000), 3)
    b = _values(rng, (1000, 600), 0)
    results = []
    for level in kernels.levels():  # type: ignore[attr-defined]
        kernels.use(level)  # type: ignore[attr-defined]
        with np.errstate(all="ignore"):
            results.append(sgemm._blocked(a, b))
    assert all(_same_bits(r, results[0]) for r in results[1:])


def test_errors_are_python_errors(kernels: object) -> None:
    out = np.zeros((2, 2), F32)
    with pytest.raises(ValueError, match="too small"):
        kernels.chain(out, np.zeros(2, F32), np.zeros(4, F32), 2, 2, 2, 0, 2)  # type: ignore
    with pytest.raises(ValueError, match="avx9000|no kernels"):
        kernels.use("avx9000")  # type: ignore[attr-defined]


@pytest.mark.parametrize("setting, built", [("0", False), ("1", True), ("", True)])
def test_gradsh_native_0_turns_the_kernels_off(kernels: object, setting: str,
                                              built: bool) -> None:
    program = "from gradsh.engine.vecmath import native; print(native.kernels is not None)"
    env = dict(os.environ, GRADSH_NATIVE=setting)
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == str(built)


def _fma_pools(rng: np.random.Generator, n: int) -> list[tuple[np.ndarray, ...]]:
    """fma32 operands: random bit patterns, halfway cases (products 2**6 + 2**-30 onto 2**30),
    results in the subnormal range, overflow, specials, NaNs of either sign and any payload."""
    def bits() -> np.ndarray:
        return rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(F32)

    normal = [rng.standard_normal(n).astype(F32) for _ in range(3)]
    halfway = (np.full(n, 64 * (1 + 2.0**-12), F32), np.full(n, 1 - 4095 * 2.0**-24, F32),
               np.full(n, 2.0**30, F32))
    tiny = (normal[0] * F32(1e-20), normal[1] * F32(1e-19), normal[2] * F32(1e-38))
    huge = (normal[0] * F32(1e20), normal[1] * F32(1e19), normal[2] * F32(1e38))
    specials = np.array([np.inf, -np.inf, np.nan, -np.nan, 0.0, -0.0, 1e-45, 3.4e38], F32)
    nans = (rng.integers(0x7F800001, 0x80000000, n) | (rng.integers(0, 2, n) << 31)).astype(
        np.uint32).view(F32)
    return [(bits(), bits(), bits()), tuple(normal), halfway, tiny, huge,
            (np.resize(specials, n), rng.permutation(np.resize(specials, n)), normal[2]),
            (nans, normal[0], rng.permutation(nans)), (normal[0], nans, normal[1])]


@pytest.mark.parametrize("n", [1, 10, 100, 20_000])
def test_fma32_matches_the_emulation(kernels: object, monkeypatch: pytest.MonkeyPatch,
                                     n: int) -> None:
    """fp.fma32 through fmaf gives the emulation's bits (NaN for NaN: NumPy's own NaN depends
    on its loop), broadcast operands and scalars included, in every instruction set's copy, and
    those copies give the very same NaNs; product_error is fma32(a, b, -p) bit for bit."""
    rng = np.random.default_rng(n)
    with np.errstate(all="ignore"):
        for a, b, c in _fma_pools(rng, n):
            for args in ((a, b, c), (a[0], b, c), (a, F32(b[-1]), c), (a, b, float(c[0])),
                         (a.reshape(-1, 1)[: min(n, 7)], b[: min(n, 5)], c[0])):
                expected = _emulated(monkeypatch, lambda args=args: fp.fma32(*args))
                results = []
                for level in kernels.levels():  # type: ignore[attr-defined]
                    kernels.use(level)  # type: ignore[attr-defined]
                    results.append(fp.fma32(*args))
                    assert type(results[-1]) is type(expected)
                    assert _same_bits(results[-1], expected), level
                assert all(np.array_equal(np.asarray(r).view(np.uint32),
                                          np.asarray(results[0]).view(np.uint32))
                           for r in results)
            product = a * b
            assert np.array_equal(fp.product_error(a, b, product).view(np.uint32),
                                  fp.fma32(a, b, -product).view(np.uint32))


@pytest.mark.parametrize("n", [1, 10, 255, 256, 257, 20_000])
def test_fma32_into_writes_fma32s_bits_in_place(kernels: object, n: int) -> None:
    """fp.fma32_into (an optimizer's c += alpha * a, written into c a block at a time) leaves
    in c what fp.fma32 returns, NaNs and their payloads included (the fix-up of a NaN still
    reads c's own value), in every instruction set's copy, also when a is c itself."""
    rng = np.random.default_rng(n)
    with np.errstate(all="ignore"):
        for a, b, c in _fma_pools(rng, n):
            for alpha in (F32(b[-1]), F32(np.nan), F32(-0.1)):
                for level in kernels.levels():  # type: ignore[attr-defined]
                    kernels.use(level)  # type: ignore[attr-defined]
                    for first, third in ((a, c.copy()), (None, c.copy())):
                        first = third if first is None else first
                        expected = fp.fma32(first, alpha, third)
                        assert fp.fma32_into(first, alpha, third)
                        assert np.array_equal(third.view(np.uint32),
                                              expected.view(np.uint32)), level
        part = np.arange(8, dtype=F32)  # an operand overlapping c: not written in place
        assert not fp.fma32_into(part[2:6], F32(2), part[:4])
        assert np.array_equal(part, np.arange(8, dtype=F32))
        assert not fp.fma32_into(part, 2.0, part.copy())  # (a Python float: fma32's own way)


def _sum_cases(rng: np.random.Generator, count: int) -> Iterator[tuple[np.ndarray, object]]:
    """(array, axis) pairs: 1-3 dimensions, transposed and strided layouts, values of a few
    magnitudes with specials sprinkled in, every axis choice."""
    sizes = [1, 2, 3, 5, 8, 9, 16, 17, 33, 64, 100, 300]
    for case in range(count):
        nd = int(rng.integers(1, 4))
        shape = tuple(int(rng.choice(sizes)) for _ in range(nd))
        x = _values(rng, shape, case % 5) * F32(10.0 ** int(rng.integers(-3, 4)))
        if rng.random() < 0.3 and nd >= 2:
            x = np.swapaxes(x, 0, nd - 1)
        if rng.random() < 0.2:
            x = x[..., ::2]
        if x.size == 0:
            continue
        if rng.random() < 0.3:
            yield x, None
        else:
            yield x, tuple(sorted({int(a) for a in rng.integers(0, nd, rng.integers(1, nd + 1))}))


def _sums_agree(monkeypatch: pytest.MonkeyPatch, x: np.ndarray, axis: object) -> bool:
    from gradsh.engine.functions.cascade_sum import torch_sum

    ours = torch_sum(x, axis, False, F32)
    expected = _emulated(monkeypatch, lambda: torch_sum(x, axis, False, F32))
    return _same_bits(ours, expected)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_float32_sums_match_the_emulation(kernels: object,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """ATen's cascade sum (functions/cascade_sum.py) through the compiled kernel: the
    emulation's bits on 1,500 random shapes, layouts and axes, in every instruction set's copy."""
    rng = np.random.default_rng(30)
    wrong = []
    for x, axis in _sum_cases(rng, 1500):
        for level in kernels.levels():  # type: ignore[attr-defined]
            kernels.use(level)  # type: ignore[attr-defined]
            if not _sums_agree(monkeypatch, x, axis):
                wrong.append((level, x.shape, x.strides, axis))
    assert not wrong[:20]


@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("shape, axis", [((1_000_003,), None), ((700, 1500), None),
                                         ((700, 1500), (0,)), ((700, 1500), (1,)),
                                         ((3, 70_000), (1,)), ((70_000, 3), (0,))])
def test_large_sums_match_the_emulation(kernels: object, monkeypatch: pytest.MonkeyPatch,
                                        threads: int, shape: tuple[int, ...],
                                        axis: object) -> None:
    """Sums long enough for every level of the cascade (flushes every step**2 and step**3
    rows), whole and split among threads as PyTorch splits them."""
    from gradsh.engine import threads as engine_threads

    rng = np.random.default_rng(31)
    x = rng.standard_normal(shape).astype(F32) * F32(100)
    previous = engine_threads.torch_threads()
    engine_threads.set_torch_threads(threads)
    try:
        assert _sums_agree(monkeypatch, x, axis)
        assert _sums_agree(monkeypatch, x.T, axis)
    finally:
        engine_threads.set_torch_threads(previous)


@pytest.mark.parametrize("name", ["expf_u10", "logf_u10"])
@pytest.mark.parametrize("n", [1, 7, 100, 100_000])
def test_sleef_routines_match_the_emulation(kernels: object, monkeypatch: pytest.MonkeyPatch,
                                            name: str, n: int) -> None:
    """SLEEF's expf and logf through the kernels: the emulation's bits (NaN for NaN) on random
    bit patterns, ordinary values, results in the subnormal range, subnormal inputs and the
    special values, in every instruction set's copy."""
    from gradsh.engine.vecmath import sleef

    rng = np.random.default_rng(n)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, 88.72283,
                         88.7229, -103.97208, -104.0, 100.0, 100.00001, 3.4028235e38, -1.0,
                         # around expf's clamp of its input at 200 in size
                         200.0, 200.00002, -200.0, -200.00002, 150.0, -150.0, 1e10, -1e10],
                        F32)
    pools = [rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(F32),
             rng.standard_normal(n).astype(F32) * F32(30),
             rng.uniform(-110.0, -80.0, n).astype(F32),
             (rng.uniform(0.0, 1.0, n) * 1e-38).astype(F32), np.resize(specials, n)]
    function = getattr(sleef, name)
    with np.errstate(all="ignore"):
        for x in pools:
            expected = _emulated(monkeypatch, lambda x=x: function(x))
            for level in kernels.levels():  # type: ignore[attr-defined]
                kernels.use(level)  # type: ignore[attr-defined]
                assert _same_bits(function(x), expected), (name, level)
        assert type(function(F32(0.5))) is type(_emulated(monkeypatch, lambda: function(F32(0.5))))


@pytest.mark.parametrize("name", ["tanh", "exp"])
@pytest.mark.parametrize("n", [1, 5, 1000, 300_000])
def test_rounded_tanh_and_exp_match_the_numpy_path(kernels: object, name: str, n: int) -> None:
    """kernels.tanh and kernels.exp through the compiled float64 routine (the elements it flags
    recomputed): the NumPy path's correctly rounded bits (NaN for NaN) on random bit patterns,
    ordinary values, both ends of the float32 range (exp's subnormal and infinite results,
    tanh's saturation near 9 and 20), subnormal inputs and the special values, in every
    instruction set's copy, and in any layout."""
    from gradsh.engine.vecmath import kernels as vec

    rng = np.random.default_rng(n)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, 2.0 ** -126,
                         88.0, 87.99999, 88.72283, 88.7229, -87.0, -87.00001, -103.97208, -104.0,
                         9.0, 9.01, -9.0102, 20.0, 19.999998, -20.000002, 3.4028235e38, -1.0],
                        F32)
    pools = [rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(F32),
             rng.standard_normal(n).astype(F32) * F32(4),
             rng.uniform(-110.0, 90.0, n).astype(F32),
             (rng.uniform(-1.0, 1.0, n) * 1e-37).astype(F32), np.resize(specials, n)]
    function = getattr(vec, name)
    with np.errstate(all="ignore"):
        for x in pools:
            expected = function.numpy(x)
            for level in kernels.levels():  # type: ignore[attr-defined]
                kernels.use(level)  # type: ignore[attr-defined]
                assert _same_bits(function(x), expected), (name, level)
                if n >= 1000:
                    grid = x[: n // 10 * 10].reshape(10, -1)
                    assert _same_bits(function(grid.T), expected[: grid.size].reshape(10, -1).T)
        one, reference = function(F32(0.5)), function.numpy(F32(0.5))
        assert type(one) is type(reference) and _same_bits(one, reference)


@pytest.mark.parametrize("n", [1, 17, 100_000])
def test_tanh_backward_matches_the_numpy_path(kernels: object, n: int) -> None:
    """tanh's backward g * fma(-y, y, 1) through the kernels: the NumPy path's bits, every
    instruction set's copy, for tanh outputs (ties of 1 - y*y included) and special values."""
    from gradsh.engine.vecmath import kernels as vec

    rng = np.random.default_rng(n)
    y = np.tanh(rng.standard_normal(n) * 2).astype(F32)
    y[: n // 3] = (np.round(y[: n // 3] * 4096) / 4096).astype(F32)  # exact 1 - y*y, ties
    g = rng.standard_normal(n).astype(F32)
    g[::7] = np.resize(np.array([np.inf, np.nan, 0.0, -0.0, 1e-40, 3e38, -1.0], F32), g[::7].size)
    with np.errstate(all="ignore"):
        expected = vec._tanh_backward_numpy(g, y)
    for level in kernels.levels():  # type: ignore[attr-defined]
        kernels.use(level)  # type: ignore[attr-defined]
        assert _same_bits(vec.tanh_backward(g, y), expected), level


def _composed(a: np.ndarray, b: np.ndarray, start: np.ndarray | None, beta: float,
              alpha: float) -> np.ndarray:
    """sgemm.addmm's general kernel as separate calls: each k block's chains (native.chain),
    times alpha, the first fused with beta * start (fp.fma32), the others added in turn."""
    blocks = sgemm._kblocks(a.shape[1]) or [(0, 0)]
    parts = native.chain(a, b, blocks)
    if alpha != 1:
        parts = parts * F32(alpha)
    out = np.array(parts[0])
    if start is not None:
        out = fp.fma32(F32(beta), np.broadcast_to(start, out.shape), parts[0])
    for part in parts[1:]:
        out += part
    return out


@pytest.mark.parametrize("k", [0, 1, 40, 769, 1200])
def test_one_call_product_matches_the_blocks_composed(kernels: object, k: int) -> None:
    """native.blocked (sgemm's mm and addmm through the general kernel in one call) gives the
    bits of the per-block calls composed (NaN as NaN: NumPy's own NaN payloads depend on the
    operands' layout, as the compiled kernels' do on the instruction set): row- and column-major
    operands (the product computed transposed or not), starts of every broadcasting shape
    and stride, alpha and beta of 1 and not."""
    rng = np.random.default_rng(22 + k)
    for case in range(24):
        m, n = [(64, 128), (64, 10), (10, 64), (33, 5)][case % 4]
        a = _layout(_values(rng, (m, k), case % 5), case % 3 == 0)
        b = _layout(_values(rng, (k, n), (case + 1) % 5), case % 2 == 0)
        full = _values(rng, (m, n), case % 5)
        start = [None, full[0], full, full[:1], full[:, :1], np.asarray(full[0, 0]),
                 _layout(full, True), full[::-1]][case % 8]
        beta, alpha = [(1.0, 1.0), (0.5, 1.0), (1.0, 2.5), (0.3, 1.7)][case % 4]
        with np.errstate(all="ignore"):
            expected = _composed(a, b, start, beta, alpha)
            got = native.blocked(a, b, sgemm._flat_kblocks(k), start, beta, alpha)
        assert got.flags.c_contiguous and got.shape == (m, n)
        assert _same_bits(got, expected), (case, m, n)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_log_softmax_rows_match_the_emulation(kernels: object,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """log_softmax over the last dimension and its backward through the compiled rows kernel:
    the emulation's bits (NaN for NaN) on rows of 1 to 70 columns (left folds below 16, the
    16-lane tree with a partial last vector above), of every kind of value, in every
    instruction set's copy."""
    from gradsh.engine.vecmath import kernels as vec

    rng = np.random.default_rng(40)
    wrong = []
    for case in range(300):
        n = int(rng.choice([1, 2, 3, 9, 10, 15, 16, 17, 31, 32, 33, 70]))
        shape = (int(rng.integers(1, 9)), n) if case % 5 else (n,)
        x = _values(rng, shape, case % 5)
        g = _values(rng, shape, (case + 2) % 5)
        y = _emulated(monkeypatch, lambda x=x: vec.log_softmax(x, -1))
        expected_grad = _emulated(monkeypatch, lambda g=g, y=y: vec.log_softmax_backward(g, y))
        for level in kernels.levels():  # type: ignore[attr-defined]
            kernels.use(level)  # type: ignore[attr-defined]
            if not (_same_bits(vec.log_softmax(x, -1), y)
                    and _same_bits(vec.log_softmax_backward(g, y), expected_grad)):
                wrong.append((level, case, shape))
    assert not wrong[:20]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("k", [5, 64, 500])
def test_packed_kernel_reads_any_strides(kernels: object, monkeypatch: pytest.MonkeyPatch,
                                         k: int) -> None:
    """kernels.gemm (the packed general kernel) on views of every kind (transposed, sliced,
    reversed operands; a transposed or strided output; shapes that run it transposed and cut
    its tiles short) gives the emulation's chains in every instruction set's copy: from 0 per k
    block, and continuing from out's values over pieces longer than it packs at once."""
    rng = np.random.default_rng(30 + k)
    for case in range(12):
        m, n = [(40, 70), (70, 3), (3, 70), (13, 33), (1, 1), (25, 17)][case % 6]
        base_a = _values(rng, (2 * m + 1, 2 * k + 1), case % 5)
        base_b = _values(rng, (2 * n + 1, 2 * k + 1), (case + 2) % 5)
        a = [base_a[:m, :k], base_a[::2, ::2][:m, :k], base_a[::-1, ::-1][:m, :k]][case % 3]
        b = [base_b[:n, :k].T, base_b[::-2, ::2][:n, :k].T,
             np.ascontiguousarray(base_b[:n, :k].T)][case % 3]
        start = _values(rng, (m, n), case % 5)
        blocks = sgemm._kblocks(k)
        with np.errstate(all="ignore"):
            expected = _emulated(monkeypatch, lambda: sgemm.chain_parts(a, b, [(0, k)], start))[0]
            parts = _emulated(monkeypatch, lambda: sgemm.chain_parts(a, b, blocks))
            summed = np.array(parts[0])
            for part in parts[1:]:
                summed += part
        for level in kernels.levels():  # type: ignore[attr-defined]
            kernels.use(level)  # type: ignore[attr-defined]
            wide = np.zeros((n, 2 * m), F32)
            out = wide[:, ::2].T if case % 2 else np.zeros((m, n), F32)
            out[...] = start
            kernels.gemm(out, a, b, (0, k), None, 1.0, 1.0, True)  # type: ignore
            assert _same_bits(out, expected), (level, case)
            flat = tuple(bound for block in blocks for bound in block)
            kernels.gemm(out, a, b, flat, None, 1.0, 1.0, False)  # type: ignore
            assert _same_bits(out, summed), (level, case)


def test_gathered_operands_read_what_their_offsets_name(kernels: object) -> None:
    """A gathered operand (base, rows, columns) gives the bits of the same matrix as an array,
    in every copy; offsets that reach outside the base are a ValueError, not a read."""
    rng = np.random.default_rng(31)
    base = _values(rng, (5, 40, 41), 0)
    rows = (np.arange(37) * 41 + 40 * 41 * 2).astype(np.int64)  # 37 rows of the third plane
    columns = np.array([3, 4, 5, 9, 0, 40, 17, 18, 19, 20, 21, 22, 1], np.int64)
    matrix = base.reshape(-1)[rows[:, None] + columns[None, :]]
    w = _values(rng, (33, 37), 0)
    for level in kernels.levels():  # type: ignore[attr-defined]
        kernels.use(level)  # type: ignore[attr-defined]
        expected = native.chain(w, matrix, [(0, 37)])
        assert _same_bits(native.chain(w, (base, rows, columns), [(0, 37)]), expected)
        flipped = native.chain((base, columns, rows), w.T, [(0, 37)])
        assert _same_bits(flipped[0].T, expected[0]), level
        # a gathered output: the (33, 13) product written transposed into rows of 40 floats
        target = np.full((13, 40), np.nan, F32)
        out_rows, out_columns = np.arange(33, dtype=np.int64), np.arange(13) * 40
        native.blocked_into((target, out_rows, out_columns), w, (base, rows, columns), [(0, 37)])
        assert _same_bits(target[:, :33].T, expected[0]), level
        assert np.isnan(target[:, 33:]).all()
    with pytest.raises(ValueError, match="outside"):
        native.chain(w, (base, rows + 10**6, columns), [(0, 37)])
    with pytest.raises(ValueError, match="outside"):
        native.chain(w, (base, rows - 10**6, columns), [(0, 37)])


def test_a_product_taller_than_one_packed_slice(kernels: object) -> None:
    """More rows than the kernel packs at once (4,032 on AVX-512): every slice of rows gets its
    chains, in every copy (two-step chains, checked against fp.fma32 directly)."""
    rng = np.random.default_rng(32)
    a = _values(rng, (4100, 2), 0)
    b = _values(rng, (2, 4100), 0)
    with np.errstate(all="ignore"):
        expected = fp.fma32(a[:, 1:], b[1:], a[:, :1] * b[:1])
    for level in kernels.levels():  # type: ignore[attr-defined]
        kernels.use(level)  # type: ignore[attr-defined]
        assert _same_bits(native.chain(a, b, [(0, 2)])[0], expected), level


@pytest.mark.parametrize("n", [1, 7, 8192, 100_003])
def test_zero_below_is_torch_relu_and_its_backward(kernels: object, torch: Any, n: int) -> None:
    """relu's forward and threshold_backward at 0 through the zero_below kernel, in every
    instruction set's copy: torch's bits (NaN, -0.0, subnormals and infinities among random bit
    patterns), and the NumPy masks' that arrays the kernel does not take (float64, strided) still go through."""
    from gradsh.engine import ops
    from gradsh.engine.functions import pointwise

    rng = np.random.default_rng(n)
    x = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(F32)
    x[: min(n, 8)] = np.array([0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 1e-45, -1e-45],
                              F32)[: min(n, 8)]
    g = rng.permutation(x)
    relu = torch.relu(torch.from_numpy(x)).numpy()
    threshold = torch.ops.aten.threshold_backward(torch.from_numpy(g), torch.from_numpy(x),
                                                  0).numpy()
    for level in kernels.levels():  # type: ignore[attr-defined]
        kernels.use(level)  # type: ignore[attr-defined]
        assert pointwise.zero_below(x, x, False).view(np.uint32).tobytes() == \
            relu.view(np.uint32).tobytes(), level
        assert pointwise.zero_below(x, g, True).view(np.uint32).tobytes() == \
            threshold.view(np.uint32).tobytes(), level
    leaf = ops.tensor(x.astype(np.float64)[::2], requires_grad=True)  # (not the kernel's)
    ours = ops.relu(leaf)
    ours.sum().backward()
    theirs = torch.tensor(x.astype(np.float64)[::2], requires_grad=True)
    out = torch.relu(theirs)
    out.sum().backward()
    assert ours._data.tobytes() == out.detach().numpy().tobytes()
    assert leaf.grad._data.tobytes() == theirs.grad.numpy().tobytes()


@pytest.mark.parametrize("name", ["expf", "logf", "log1pf"])
@pytest.mark.parametrize("n", [1, 7, 100_000])
def test_glibc_routines_match_the_emulation(kernels: object, monkeypatch: pytest.MonkeyPatch,
                                            name: str, n: int) -> None:
    """glibc's expf and logf (FMA builds) and log1pf (fdlibm's) through the kernels: the NumPy
    emulation's bits and result types (NaN for NaN) on random bit patterns, ordinary values,
    both ends of each routine's range, subnormals and the special values, in any layout."""
    from gradsh.engine.vecmath import fdlibm, libm

    function = fdlibm.log1pf if name == "log1pf" else getattr(libm, name)
    rng = np.random.default_rng(n)
    specials = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40,
                         2.0 ** -126, 88.0, 88.72283, 88.7229, -103.97208, -104.0, -87.9, 0.41422,
                         -0.2929, 2.0 ** -29, -(2.0 ** -54), 3.4028235e38, -3.4028235e38,
                         1e10, -0.99999994], F32)
    pools = [rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(F32),
             rng.standard_normal(n).astype(F32) * F32(30),
             rng.uniform(-1.0, 1.0, n).astype(F32), rng.uniform(-110.0, 90.0, n).astype(F32),
             (rng.uniform(0.0, 1.0, n) * 1e-38).astype(F32), np.resize(specials, n)]
    with np.errstate(all="ignore"):
        for x in pools + [np.resize(specials, (5, 5)).T, F32(0.5), np.array(F32(-2.0))]:
            expected = _emulated(monkeypatch, lambda x=x: function(x))
            ours = function(x)
            assert _same_bits(ours, expected), name
            assert type(ours) is type(expected) and np.shape(ours) == np.shape(expected)


@pytest.mark.parametrize("exponent", [4.0, 5.0, -2.5, 0.25, 33.3, "array", "bits"])
def test_sleef_powf_matches_the_emulation(kernels: object, monkeypatch: pytest.MonkeyPatch,
                                          exponent: object) -> None:
    """SLEEF's powf through the kernels (_native_sleef_powf.h): the emulation's bits (NaN for
    NaN) for random bit patterns, ordinary and special bases, one exponent or one each,
    broadcast shapes, and every pair of special values."""
    from gradsh.engine.vecmath import sleef

    rng = np.random.default_rng(len(str(exponent)))
    n = 20_000
    specials = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 2.0,
                         -2.0, 0.5, 3e38, -3e38, 1e-38, 2.0 ** 24, 2.0 ** 31], F32)
    bases = [rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(F32),
             rng.standard_normal(n).astype(F32) * F32(4), np.resize(specials, n)]
    for x in bases:
        if exponent == "array":
            y = rng.standard_normal(n).astype(F32) * F32(3)
        elif exponent == "bits":
            y = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(F32)
        else:
            y = F32(exponent)
        with np.errstate(all="ignore"):
            expected = _emulated(monkeypatch, lambda x=x, y=y: sleef.powf_u10(x, y))
            assert _same_bits(sleef.powf_u10(x, y), expected), exponent
    pairs = np.array([(a, b) for a in specials for b in specials], F32)
    with np.errstate(all="ignore"):
        x, y = pairs[:, 0].reshape(-1, 1), pairs[:, 1].reshape(1, -1)  # (289, 1) ** (1, 289)
        expected = _emulated(monkeypatch, lambda: sleef.powf_u10(x, y))
        assert _same_bits(sleef.powf_u10(x, y), expected)
        for a, b in ((F32(2.0), F32(3.5)), (np.array(F32(-8.0)), F32(1 / 3))):  # numbers
            ours = sleef.powf_u10(a, b)
            theirs = _emulated(monkeypatch, lambda a=a, b=b: sleef.powf_u10(a, b))
            assert _same_bits(ours, theirs) and np.shape(ours) == np.shape(theirs)
        strided = np.resize(specials, 40)[::2]  # a base no reshape makes contiguous
        assert _same_bits(sleef.powf_u10(strided, F32(1.5)),
                          _emulated(monkeypatch, lambda: sleef.powf_u10(strided, F32(1.5))))
