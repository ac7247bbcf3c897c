"""gradsh's float32 matrix products against PyTorch 2.13's bits (vecmath/sgemm.py, MKL's sgemm
and sgemv on the AVX-512 reference machine, one thread): every shape and layout `sgemm.plan`
claims gives torch's bits for mm, addmm (with beta and alpha), bmm, mv, matmul and F.linear,
forward and backward; products it does not claim, or over the size bound, are NumPy's. Each
test runs twice: through the compiled kernels (vecmath/_native.c) and the NumPy emulation."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from conftest import pinned_threads

import gradsh.torch as gtorch
from gradsh.engine.vecmath import blas, native, sgemm

F32 = np.float32


@pytest.fixture(scope="module")
def torch(torch: Any) -> Iterator[Any]:
    """conftest's torch and gradsh on one thread (MKL splits k among threads for some shapes;
    the emulation reproduces one), where MKL runs the AVX-512 kernels that gradsh reproduces."""
    if torch.backends.cpu.get_cpu_capability() != "AVX512":
        pytest.skip("gradsh reproduces MKL's AVX-512 kernels; this machine runs others")
    with pinned_threads(torch, 1):
        yield torch


@pytest.fixture(autouse=True, params=["mkl", "native", "numpy"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """MKL itself (vecmath/blas.py; skipped where the mkl package is not loaded), or the
    emulation: the compiled kernels (skipped where they were not built) or NumPy."""
    if request.param == "mkl":
        if not blas.available():
            if os.environ.get("GRADSH_REQUIRE_MKL"):
                pytest.fail("GRADSH_REQUIRE_MKL is set but MKL did not load")
            pytest.skip("MKL (the mkl package) is not loaded")
        yield "mkl"
        return
    if request.param == "native" and native.kernels is None:
        pytest.skip("gradsh's compiled kernels are not built")
    if request.param == "numpy":
        monkeypatch.setattr(native, "kernels", None)
        monkeypatch.setenv("GRADSH_NATIVE", "0")
    with blas.emulating():
        yield str(request.param)


@pytest.fixture(autouse=True)
def intel_kernels(path: str) -> None:
    """sgemm.py emulates MKL's kernels as they run on Intel's AVX-512 CPUs; on other vendors'
    CPUs MKL picks other kernels (blas.genuine_intel), so there only MKL itself (the "mkl"
    path, which gradsh takes wherever MKL loads) gives torch's bits. test_rnn_bits shares
    `path` but not this: oneDNN's own sgemm, which the emulation reproduces, is the same on
    every vendor's CPU."""
    if path != "mkl" and not blas.genuine_intel():
        pytest.skip("sgemm.py emulates MKL on Intel CPUs; this CPU's MKL runs other kernels")


@pytest.fixture
def no_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sgemm, "EXACT_MAX_US", 1e12)


def _layout(x: np.ndarray, column_major: bool) -> np.ndarray:
    return np.ascontiguousarray(x.T).T if column_major else x


def _operands(rng: np.random.Generator, m: int, n: int, k: int, a_col: bool,
              b_col: bool) -> tuple[np.ndarray, np.ndarray]:
    a = _layout(rng.standard_normal((m, k)).astype(F32), a_col)
    b = _layout(rng.standard_normal((k, n)).astype(F32), b_col)
    return a, b


SIZES = [1, 2, 3, 5, 8, 12, 16, 33]
DEPTHS = [1, 2, 3, 17, 40, 385, 800]


def test_mm_sweep(torch: Any, no_bound: None) -> None:
    """Each claimed (m, n, k, layout) of a sweep gives torch.mm's bits (1-800 deep, over the
    k blocks of 384 and the halves), and the claims cover most of the sweep."""
    rng = np.random.default_rng(0)
    claimed, wrong = 0, []
    cases = itertools.product(SIZES, SIZES + [100], DEPTHS, (False, True), (False, True))
    for m, n, k, a_col, b_col in cases:
        a, b = _operands(rng, m, n, k, a_col, b_col)
        if sgemm._exact_kernel(a, b) is None:
            continue
        claimed += 1
        expected = torch.mm(torch.from_numpy(a), torch.from_numpy(b)).numpy()
        if not np.array_equal(sgemm.mm(a, b), expected):
            wrong.append((m, n, k, a_col, b_col, sgemm._exact_kernel(a, b)))
    assert not wrong
    assert claimed > 0.8 * len(SIZES) * (len(SIZES) + 1) * len(DEPTHS) * 4


def _addmm_claimed(kernel: str, b_col: bool, beta: float, alpha: float) -> bool:
    """addmm's beta and alpha are reproduced except in three corners (docs/float32.md)."""
    if kernel == "rank1" and beta not in (0, 1):
        return False
    if kernel == "chain" and (beta, alpha) != (1, 1):
        return False
    return not (kernel == "blocked" and alpha != 1 and b_col)


def test_addmm_sweep(torch: Any, no_bound: None) -> None:
    rng = np.random.default_rng(1)
    checked, wrong = 0, []
    for m, n, k, a_col, b_col in itertools.product([1, 2, 5, 10, 16, 33], [1, 2, 3, 16, 40],
                                                   [1, 2, 3, 17, 50, 400, 800],
                                                   (False, True), (False, True)):
        a, b = _operands(rng, m, n, k, a_col, b_col)
        kernel = sgemm._exact_kernel(a, b)
        if kernel is None:
            continue
        for beta, alpha in [(1, 1), (0.5, 1), (1, 0.7), (0.3, 1.7), (0, 2.5)]:
            if not _addmm_claimed(kernel, b_col, beta, alpha):
                continue
            bias = rng.standard_normal(n if (m + k) % 2 else (m, n)).astype(F32)
            expected = torch.addmm(torch.from_numpy(bias), torch.from_numpy(a),
                                   torch.from_numpy(b), beta=beta, alpha=alpha).numpy()
            checked += 1
            if not np.array_equal(sgemm.addmm(bias, a, b, beta, alpha), expected):
                wrong.append((m, n, k, a_col, b_col, beta, alpha, kernel))
    assert not wrong
    assert checked > 2000


def test_a_float64_sum_halfway_between_float32_values(torch: Any) -> None:
    """1 * (2^50 + 2^27) then fma((1 + 2^-23), 2^26 (1 - 2^-23), that): the exact sum lies just
    below a float32 midpoint; its float64 rounding lands on it, and a plain cast would round
    to even (2^50 + 2^28) where the fused multiply-add gives 2^50 + 2^27."""
    a = np.ones((8, 2), F32)
    a[:, 1] = 1 + 2.0 ** -23
    b = np.ones((2, 8), F32)
    b[0] = 2.0 ** 50 + 2 ** 27
    b[1] = 2.0 ** 26 * (1 - 2.0 ** -23)
    expected = torch.mm(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    if blas.genuine_intel():  # the fused kernel; MKL on other vendors' CPUs does not fuse
        assert expected[0, 0] == F32(2.0 ** 50 + 2 ** 27)
    assert np.array_equal(sgemm.mm(a, b), expected)


@pytest.mark.parametrize("shape", [(8, 50, 8), (3, 40, 1), (1, 40, 20), (10, 3, 2)])
def test_subnormal_results(torch: Any, shape: tuple[int, int, int]) -> None:
    """Inputs near 1e-20: products and sums in float32's subnormal range round once."""
    m, k, n = shape
    rng = np.random.default_rng(2)
    a = (rng.standard_normal((m, k)) * 1e-20).astype(F32)
    for b_col in (False, True):
        b = _layout((rng.standard_normal((k, n)) * 1e-19).astype(F32), b_col)
        expected = torch.mm(torch.from_numpy(a), torch.from_numpy(b)).numpy()
        assert np.abs(expected).min() < 2.0 ** -126
        assert np.array_equal(sgemm.mm(a, b), expected)


def test_special_values(torch: Any) -> None:
    rng = np.random.default_rng(3)
    a, b = _operands(rng, 16, 20, 40, False, True)
    a[0, 3], a[1, 5], b[7, 2], b[9, 4] = np.inf, np.nan, -np.inf, 0.0
    expected = torch.mm(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    np.testing.assert_array_equal(sgemm.mm(a, b), expected)


@pytest.mark.parametrize("shape", [(3, 2, 2, 2), (4, 5, 6, 7), (2, 1, 5, 30), (3, 7, 1, 20),
                                   (2, 7, 7, 9), (2, 16, 16, 16), (5, 64, 10, 50)])
def test_bmm(torch: Any, shape: tuple[int, int, int, int]) -> None:
    """ATen's own loop (unfused) below m * n * k = 400, MKL's sgemm per matrix above."""
    batch, m, n, k = shape
    rng = np.random.default_rng(4)
    a = rng.standard_normal((batch, m, k)).astype(F32)
    b = rng.standard_normal((batch, k, n)).astype(F32)
    expected = torch.bmm(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    assert np.array_equal(sgemm.bmm(a, b), expected)


def _both(torch: Any, build: Any, arrays: list[np.ndarray]) -> None:
    """build(lib, *tensors) -> output, in torch and gradsh: output and every gradient (for
    the same upstream gradient) bit for bit."""
    rng = np.random.default_rng(5)
    results = []
    upstream = None
    for lib in (torch, gtorch):
        tensors = [lib.tensor(x, requires_grad=True) for x in arrays]
        out = build(lib, *tensors)
        if upstream is None:
            upstream = rng.standard_normal(tuple(out.shape)).astype(F32)
        out.backward(lib.tensor(upstream))
        results.append([out.detach().numpy()] + [t.grad.numpy() for t in tensors])
    for ours, theirs in zip(results[1], results[0]):
        assert np.array_equal(np.asarray(ours), theirs)


LINEAR_SHAPES = [(10, 3, 2), (32, 4, 1), (64, 100, 10), (2000, 3, 1), (1, 5, 3), (16, 20, 30),
                 (1, 128, 38), (64, 64, 128), (10, 30, 3), (4, 64, 2), (12, 100, 3), (10, 10, 30)]


@pytest.mark.parametrize("batch,inputs,outputs", LINEAR_SHAPES)
@pytest.mark.parametrize("bias", [True, False])
def test_linear_forward_and_backward(torch: Any, no_bound: None, batch: int, inputs: int,
                                     outputs: int, bias: bool) -> None:
    """F.linear (addmm, or matmul without a bias) and its backward (grad @ W, grad.T @ x)."""
    rng = np.random.default_rng(6)
    arrays = [rng.standard_normal((batch, inputs)).astype(F32),
              rng.standard_normal((outputs, inputs)).astype(F32)]
    if bias:
        arrays.append(rng.standard_normal(outputs).astype(F32))
    _both(torch, lambda lib, *t: lib.nn.functional.linear(*t), arrays)


@pytest.mark.parametrize("shapes", [((7, 40), (40,)), ((33, 17), (17,)), ((40,), (40, 16)),
                                    ((3, 5, 8), (8, 4)), ((2, 3, 4, 5), (5, 6)),
                                    ((4, 6, 7), (4, 7, 3)), ((2, 1, 6, 7), (3, 7, 2))])
def test_matmul_forms(torch: Any, no_bound: None,
                      shapes: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    """mv, vector @ matrix, folded and broadcast batched matmul, forward and backward."""
    rng = np.random.default_rng(7)
    arrays = [rng.standard_normal(s).astype(F32) for s in shapes]
    _both(torch, lambda lib, a, b: lib.matmul(a, b), arrays)


def test_products_over_the_bound_are_numpys(monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    if path == "mkl":
        pytest.skip("the bound is the emulation's")
    rng = np.random.default_rng(8)
    a, b = _operands(rng, 20, 20, 20, False, False)
    assert sgemm._exact_kernel(a, b) == "blocked"
    monkeypatch.setattr(sgemm, "EXACT_MAX_US", sgemm.cost("blocked", 20, 20, 20) * 0.9)
    assert sgemm._exact_kernel(a, b) is None
    assert np.array_equal(sgemm.mm(a, b), np.matmul(a, b))


# k > 768: (m, n, k, a_col, b_col) around the width (192) from which MKL keeps 384-blocks.
DEEP_SHAPES = [(128, 400, 784, False, True), (64, 400, 784, False, True),
               (128, 512, 784, False, True), (64, 512, 784, False, True),
               (128, 192, 784, False, True), (64, 191, 784, False, True),
               (128, 176, 784, False, True), (64, 176, 1000, False, True),
               (40, 300, 1153, False, True), (200, 1024, 1500, False, True),
               (191, 400, 900, False, False), (192, 400, 900, False, False),
               (256, 191, 1537, True, False), (256, 192, 2000, True, False),
               (100, 250, 769, True, True), (12, 300, 1000, True, True)]


@pytest.mark.parametrize("shape", DEEP_SHAPES)
def test_deep_products(torch: Any, no_bound: None,
                       shape: tuple[int, int, int, bool, bool]) -> None:
    """k > 768 on both sides of the width rule (sgemm._wide), mm and addmm."""
    m, n, k, a_col, b_col = shape
    rng = np.random.default_rng(m * n + k)
    a, b = _operands(rng, m, n, k, a_col, b_col)
    assert sgemm._exact_kernel(a, b) == "blocked"
    expected = torch.mm(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    assert np.array_equal(sgemm.mm(a, b), expected)
    bias = rng.standard_normal(n).astype(F32)
    expected = torch.addmm(torch.from_numpy(bias), torch.from_numpy(a),
                           torch.from_numpy(b)).numpy()
    assert np.array_equal(sgemm.addmm(bias, a, b, 1, 1), expected)


@pytest.mark.parametrize("batch,outputs",
                         list(itertools.product([64, 128], [176, 192, 400, 512])))
def test_linear_784(torch: Any, no_bound: None, batch: int, outputs: int) -> None:
    """Linear(784, outputs) (the VAE's and the MNIST MLPs'), forward and backward."""
    rng = np.random.default_rng(outputs + batch)
    arrays = [rng.standard_normal((batch, 784)).astype(F32),
              rng.standard_normal((outputs, 784)).astype(F32),
              rng.standard_normal(outputs).astype(F32)]
    _both(torch, lambda lib, *t: lib.nn.functional.linear(*t), arrays)


def test_kblocks() -> None:
    assert sgemm._kblocks(384) == [(0, 384)]
    assert sgemm._kblocks(385) == [(0, 193), (193, 385)]
    assert sgemm._kblocks(769) == [(0, 384), (384, 577), (577, 769)]
    assert sgemm._kblocks(2000) == [(0, 384), (384, 768), (768, 1152), (1152, 1536),
                                    (1536, 1768), (1768, 2000)]
    assert sgemm._kblocks(769, wide=True) == [(0, 384), (384, 768), (768, 769)]
    assert sgemm._kblocks(768, wide=True) == [(0, 384), (384, 768)]
    assert sgemm._kblocks(700, wide=True) == [(0, 350), (350, 700)]


@pytest.mark.parametrize("k", [1, 2, 15, 16, 17, 31, 33, 63, 64, 65, 100, 127, 129, 1000, 4001])
def test_dot(torch: Any, k: int) -> None:
    """MKL's sdot (four accumulators of 16 lanes), through torch.dot and 1-D @ 1-D."""
    rng = np.random.default_rng(k)
    x, y = (rng.standard_normal(k).astype(F32) for _ in range(2))
    expected = torch.dot(torch.from_numpy(x), torch.from_numpy(y)).numpy()
    assert np.array_equal(sgemm.dot(x, y), expected)
    _both(torch, lambda lib, a, b: lib.dot(a, b), [x, y])
    _both(torch, lambda lib, a, b: a @ b, [x, y])


@pytest.mark.parametrize("setting, exact", [("0", False), ("", True), ("bad", True)])
def test_the_bound_comes_from_the_environment(setting: str, exact: bool) -> None:
    """GRADSH_EXACT_MATMUL_US=0 gives NumPy's products; unset or unreadable, the default bound
    (MKL's order for a Linear's (64, 64) @ (64, 10).T, which sums differently from NumPy's on
    some elements)."""
    import os
    import subprocess
    import sys

    program = (
        "import numpy as np\n"
        "from gradsh.engine.vecmath import sgemm\n"
        "r = np.random.default_rng(0)\n"
        "a = r.standard_normal((64, 64)).astype(np.float32)\n"
        "b = r.standard_normal((10, 64)).astype(np.float32).T\n"
        "print(sgemm.EXACT_MAX_US > 0, bool((sgemm.mm(a, b) != np.matmul(a, b)).any()))\n"
    )
    # the bound is the emulation's: MKL itself (blas.py), where loaded, has no bound
    env = dict(os.environ, GRADSH_EXACT_MATMUL_US=setting, GRADSH_MKL="0")
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == [str(exact), str(exact)]
