"""The matrix exponential node (LinalgMatrixExpBackward0) and ATen's algorithm on arrays.

ATen (LinearAlgebra.cpp, mexp) follows Bader, Blanes and Casas, "Computing the Matrix
Exponential with an Optimized Taylor Polynomial Approximation" (2019): each matrix's 1-norm
picks a Taylor polynomial of degree 1, 2, 4, 8, 12 or 18, evaluated with few products; above
the last threshold the matrix is scaled by a power of two, and the degree-18 result squared
back. Every step here is ATen's, in its order and dtype (float32 products through
linalg.product, MKL's bits), so the values are PyTorch's. The gradient is ATen's
linalg_matrix_exp_differential: the upper right block of exp([[A^T, grad], [0, A^T]]).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import _quiet
from gradsh.engine.functions.linalg import product
from gradsh.engine.functions.pointwise import unary
from gradsh.engine.functions.special import ARRAY_SPECIAL
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["LinalgMatrixExpBackward0", "mexp", "matrix_exp_differential"]

# the norm thresholds of the degrees 1, 2, 4, 8, 12 and 18
_THETAS = {
    np.dtype(np.float32): (1.192092800768788e-07, 5.978858893805233e-04,
                           5.116619363445086e-02, 5.800524627688768e-01,
                           1.461661507209034e+00, 3.010066362817634e+00),
    np.dtype(np.float64): (2.220446049250313e-16, 2.580956802971767e-08,
                           3.397168839976962e-04, 4.991228871115323e-02,
                           2.996158913811580e-01, 1.090863719290036e+00),
}

_T12 = ((9.0198e-16, 0.46932117595418237389, -0.20099424927047284052,
         -0.04623946134063071740),
        (5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031,
         0.01108844528519167989),
        (0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968,
         0.00610700528898058230),
        (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079,
         -0.00675951846863086359))

_T18 = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03,
         -8.92138498045729985177e-04, 0.),
        (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00,
         4.98289622525382669416e-01, -6.37898194594723280150e-04),
        (-1.09676396052962061844e+01, 1.68015813878906206114e+00,
         5.71779846478865511061e-02, -6.98210122488052056106e-03,
         3.34975017086070470649e-05),
        (-9.04316832390810593223e-02, -6.76404519071381882256e-02,
         6.75961301770459654925e-02, 2.95552570429315521194e-02,
         -1.39180257516060693404e-05),
        (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02,
         -1.40086798182036094347e-05))


def _matmul(a: Array, b: Array) -> Array:
    """at::matmul of two (batch, n, n) stacks: bmm (gradsh's bmm kernel, MKL's bits)."""
    return product(np.ascontiguousarray(a), np.ascontiguousarray(b))


def _powers(a: Array, count: int) -> list[Array]:
    """I, A, A^2, A^3, A^6: the first `count` (_fill_matrix_powers)."""
    eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape).copy()
    powers = [eye, a]
    if count > 2:
        powers.append(_matmul(a, a))
    if count > 3:
        powers.append(_matmul(a, powers[2]))
    if count > 4:
        powers.append(_matmul(powers[3], powers[3]))
    return powers[:count]


def _combination(parts: list[Array], coefficients: tuple[float, ...]) -> Array:
    """_compute_linear_combination's kernel: out = 0, then out += part * coefficient in turn
    (the coefficient in the matrices' dtype)."""
    dtype = parts[0].dtype
    out = np.zeros_like(parts[0])
    for part, c in zip(parts, coefficients, strict=True):
        out = out + part * dtype.type(c)
    return out


def _t1(a: Array) -> Array:
    eye, a1 = _powers(a, 2)
    return eye + a1


def _t2(a: Array) -> Array:
    eye, a1, a2 = _powers(a, 3)
    return eye + a1 + a2 / a.dtype.type(2.0)


def _t4(a: Array) -> Array:
    powers = _powers(a, 3)
    powers.append(_matmul(powers[2], _combination(powers, (1 / 2.0, 1 / 6.0, 1 / 24.0))))
    return _combination(powers, (1.0, 1.0, 0.0, 1.0))


def _t8_constants(dtype: np.dtype) -> tuple[float, ...]:
    """T8's constants as C++ computes them: `scalar_t` variables, double arithmetic between."""
    cast = dtype.type
    sqrt_177 = float(cast(0.1330413469565007072504e+2))
    x3 = float(cast(2.0 / 3.0))
    x1 = float(cast(x3 * ((1.0 + sqrt_177) / 88.0)))
    x2 = float(cast(x3 * ((1.0 + sqrt_177) / 352.0)))
    x4 = float(cast((-271.0 + 29.0 * sqrt_177) / (315.0 * x3)))
    x5 = float(cast((-11.0 + 11.0 * sqrt_177) / (1260.0 * x3)))
    x6 = float(cast((-99.0 + 11.0 * sqrt_177) / (5040.0 * x3)))
    x7 = float(cast((89.0 - sqrt_177) / (5040.0 * x3)))
    y2 = float(cast((857.0 - 58.0 * sqrt_177) / 630.0))
    return x1, x2, x3, x4, x5, x6, x7, y2


def _t8(a: Array) -> Array:
    x1, x2, x3, x4, x5, x6, x7, y2 = _t8_constants(a.dtype)
    powers = _powers(a, 3)
    a4 = _matmul(powers[2], _combination(powers[1:3], (x1, x2)))
    powers.append(a4)
    a8 = _matmul(_combination(powers[2:4], (x3, 1.0)), _combination(powers, (x4, x5, x6, x7)))
    powers.append(a8)
    return _combination(powers, (1.0, 1.0, y2, 0.0, 1.0))


def _t12(a: Array) -> Array:
    powers = _powers(a, 4)
    bs = [_combination(powers, row) for row in _T12]
    bs[2] = bs[2] + _matmul(bs[3], bs[3])
    bs[1] = bs[1] + bs[2]
    return bs[0] + _matmul(bs[1], bs[2])


def _t18(a: Array) -> Array:
    powers = _powers(a, 5)
    bs = [_combination(powers, row) for row in _T18]
    bs[3] = bs[3] + _matmul(bs[0], bs[4])
    bs[2] = bs[2] + bs[3]
    return bs[1] + _matmul(bs[2], bs[3])


def _t18_scale_square(a: Array, norm: Array, theta: float) -> Array:
    """T18 of a / 2^s, squared s times, s = max(ceil(log2(norm / theta)), 0) per matrix."""
    dtype = a.dtype
    ratio = norm / dtype.type(theta)
    log2 = unary("log2", ratio) if dtype == np.float32 else np.log2(ratio)
    s = np.ceil(log2)
    s = np.where(s < 0, dtype.type(0), s)  # (clamp(min=0): NaN stays NaN)
    scaled = a * np.exp2(-s).astype(dtype)[:, None, None]
    out = _t18(scaled)
    # the squarings as ATen batches them: the matrices sorted by s, every one still to be
    # squared at each step multiplied in one bmm
    times = np.where(np.isfinite(s), s, 0).astype(np.int64)
    order = np.argsort(times, kind="stable")
    done = 0
    for step in range(int(times.max(initial=0))):
        while done < len(order) and times[order[done]] <= step:
            done += 1
        rest = order[done:]
        out[rest] = _matmul(out[rest], out[rest])
    return out


_DEGREES = (_t1, _t2, _t4, _t8, _t12)


def _max_last(x: Array) -> Array:
    """max over the last dimension, NaN winning, as at::max does."""
    return np.where(np.isnan(x).any(-1), np.nan, x.max(-1)).astype(x.dtype)


def mexp(a: Array) -> Array:
    """exp of each square matrix in `a` (float32 or float64, any batch shape)."""
    n = a.shape[-1]
    if n == 0:
        return a.copy()
    if n == 1:
        return unary("exp", a) if a.dtype == np.float32 else np.exp(a)
    flat = np.ascontiguousarray(a).reshape(-1, n, n)
    thetas = _THETAS[flat.dtype]
    with _quiet():
        norm = np.abs(flat[:, 0, :])
        for row in range(1, n):  # (the sum over rows, one row after another)
            norm = norm + np.abs(flat[:, row, :])
        norm = _max_last(norm)
        if len(flat) > 1:  # a batch takes the degree-18 approximation throughout
            return _t18_scale_square(flat, norm, thetas[-1]).reshape(a.shape)
        result = np.full_like(flat, np.nan)  # (a NaN norm picks no degree: NaN out)
        for i, compute in enumerate(_DEGREES):
            low = -1.0 if i == 0 else thetas[i - 1]
            chosen = np.nonzero((low < norm) & (norm <= thetas[i]))[0]
            if chosen.size:
                result[chosen] = compute(flat[chosen])
        large = np.nonzero(norm >= thetas[-2])[0]
        if large.size:
            result[large] = _t18_scale_square(flat[large], norm[large], thetas[-1])
    return result.reshape(a.shape)


def matrix_exp_differential(a: Array, grad: Array) -> Array:
    """The adjoint of exp's differential at `a` applied to `grad`: the upper right block of
    exp([[A^T, grad], [0, A^T]])."""
    n = a.shape[-1]
    at = np.swapaxes(a, -1, -2)
    meta = np.zeros(a.shape[:-2] + (2 * n, 2 * n), dtype=grad.dtype)
    meta[..., :n, :n] = at
    meta[..., n:, n:] = at
    meta[..., :n, n:] = grad
    return mexp(meta)[..., :n, n:]


ARRAY_SPECIAL["matrix_exp_differential"] = matrix_exp_differential


class LinalgMatrixExpBackward0(Function):
    node_name = "LinalgMatrixExpBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        return mexp(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.special("matrix_exp_differential", self.saved("self", F), grad),)
