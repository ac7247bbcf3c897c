"""The less common matrix functions, as ATen composes them: rot90, vdot, diag_embed, diagflat,
matrix_power, chain_matmul, cov, corrcoef, trapezoid/trapz, cumulative_trapezoid."""

from __future__ import annotations

import builtins
from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchRuntimeError, warn
from gradsh.engine.functions.grad_ops import ScalarOverloads
from gradsh.engine.functions.matrix_extras import (
    DiagEmbedDimsBackward0,
    Rot90Backward0,
    VdotBackward0,
)
from gradsh.engine.ops.arguments import _check_tensor, wrap_dim
from gradsh.engine.ops.arithmetic import add, div, mul, sub
from gradsh.engine.ops.copies import clone, copy_
from gradsh.engine.ops.creation import eye, tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.linalg import dot, matmul, mm
from gradsh.engine.ops.linalg_solvers import inverse
from gradsh.engine.ops.reductions import cumsum, sum
from gradsh.engine.ops.selection import clamp
from gradsh.engine.ops.shape import expand, reshape, select, slice, squeeze, t, unsqueeze, view
from gradsh.engine.ops.unary import sqrt
from gradsh.engine.tensor import Tensor

__all__ = ["rot90", "vdot", "diag_embed", "diagflat", "matrix_power", "chain_matmul", "cov",
           "corrcoef", "trapezoid", "trapz", "cumulative_trapezoid", "is_same_size"]


@guarded
def rot90(input: Tensor, k: int = 1, dims: Any = (0, 1)) -> Tensor:  # noqa: A002
    input = _check_tensor(input, "rot90")
    dims = tuple(dims)
    if len(dims) != 2:
        raise TorchRuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.ndim < 2:
        raise TorchRuntimeError(f"expected total dims >= 2, but got total dims = {input.ndim}")
    d0, d1 = wrap_dim(dims[0], input.ndim), wrap_dim(dims[1], input.ndim)
    if d0 == d1:  # (ATen names the dims as given)
        raise TorchRuntimeError(f"expected rotation dims to be different, but got dim0 = "
                                f"{dims[0]} and dim1 = {dims[1]}")
    return Rot90Backward0.apply(input, k=int(k), dims=(d0, d1))  # type: ignore[no-any-return]


@guarded
def vdot(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    input = _check_tensor(input, "vdot")
    other = _check_tensor(other, "vdot", "other", 2)
    if input.ndim != 1 or other.ndim != 1:
        raise TorchRuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D "
                                "tensors")
    if input.dtype is not other.dtype:
        raise TorchRuntimeError(f"vdot : expected both vectors to have same dtype, but found "
                                f"{input.dtype.short} and {other.dtype.short}")
    dot(input.detach(), other.detach())  # dot's size errors
    return VdotBackward0.apply(input, other)  # type: ignore[no-any-return]


@guarded
def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2,  # noqa: A002
               dim2: int = -1) -> Tensor:
    input = _check_tensor(input, "diag_embed")
    ndim = input.ndim + 1
    d1, d2 = wrap_dim(dim1, ndim), wrap_dim(dim2, ndim)
    if d1 == d2:
        raise TorchRuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return DiagEmbedDimsBackward0.apply(  # type: ignore[no-any-return]
        input, offset=int(offset), dim1=d1, dim2=d2)


@guarded
def diagflat(input: Tensor, offset: int = 0) -> Tensor:  # noqa: A002
    """diagflat: the flattened input (a view when contiguous) on the offset-th diagonal."""
    input = _check_tensor(input, "diagflat")
    flat = reshape(input, (-1,))
    return diag_embed(flat, offset)  # type: ignore[no-any-return]


@guarded
def matrix_power(input: Tensor, n: int) -> Tensor:  # noqa: A002
    """linalg_matrix_power: a copy of the identity for 0, the inverse's powers for negative n,
    a clone for 1, then products by binary decomposition (n = 2 and 3 written out)."""
    a = _check_tensor(input, "matrix_power")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise TorchRuntimeError("linalg.matrix_power: A must be batches of square matrices, "
                                f"but they are {a.shape[-2] if a.ndim > 1 else 1} by "
                                f"{a.shape[-1] if a.ndim else 1} matrices")
    n = int(n)
    if n == 0:
        identity = expand(eye(a.shape[-1], dtype=a.dtype, device=a.device), a.shape)
        return copy_(clone(a), identity)  # type: ignore[no-any-return]
    if n < 0:
        a, n = inverse(a), -n
        if n == 1:
            return a
    if n == 1:
        return clone(a)  # type: ignore[no-any-return]
    if n == 2:
        return matmul(a, a)  # type: ignore[no-any-return]
    if n == 3:
        return matmul(matmul(a, a), a)  # type: ignore[no-any-return]
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = a if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    return result  # type: ignore[return-value]


@guarded(tensor_first=False)
def chain_matmul(*matrices: Tensor) -> Tensor:
    """chain_matmul (deprecated): linalg.multi_dot's products, left to right for three."""
    warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. "
         "Use torch.linalg.multi_dot instead, which accepts a list of two or more tensors "
         "rather than multiple parameters.")
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    for m in matrices:  # (checkAllSameDim, then linalg_multi_dot's checks)
        if m.ndim != 2:
            raise TorchRuntimeError(f"Tensor dimension is {m.ndim}, expected 2 instead.")
    if not matrices:
        raise TorchRuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1:
        return clone(matrices[0])  # type: ignore[no-any-return]
    for i in range(len(matrices) - 1):
        if matrices[i].shape[1] != matrices[i + 1].shape[0]:
            raise TorchRuntimeError(
                f"multi_dot(): tensors {i} and {i + 1} with shapes {list(matrices[i].shape)} "
                f"and {list(matrices[i + 1].shape)} cannot be multiplied")
    if len(matrices) == 3:  # multi_dot's cheaper order of three
        (a, b), (c, d) = matrices[0].shape, matrices[2].shape
        if (a * c) * (b + d) > (b * d) * (a + c):
            return mm(matrices[0], mm(matrices[1], matrices[2]))  # type: ignore[no-any-return]
    result = mm(matrices[0], matrices[1])
    for m in matrices[2:]:
        result = mm(result, m)
    return view(result, tuple(result.shape))  # type: ignore[no-any-return]


def _cov_weights(w: Tensor, kind: str, observations: int) -> Tensor:
    """ATen's checks of cov's fweights (integral) or aweights (floating point)."""
    w = _check_tensor(w, "cov", kind, 2)
    if w.ndim > 1:
        raise TorchRuntimeError(f"cov(): expected {kind} to have one or fewer dimensions but "
                                f"got {kind} with {w.ndim} dimensions")
    integral = kind == "fweights"
    if (w.dtype.is_floating_point or w.dtype is dtypes.bool_) == integral:
        raise TorchRuntimeError(f"cov(): expected {kind} to have "
                                f"{'integral' if integral else 'floating point'} dtype but got "
                                f"{kind} with {w.dtype.short} dtype")
    if w.numel() != observations:
        raise TorchRuntimeError(f"cov(): expected {kind} to have the same numel as there are "
                                f"observations in the input but got {w.numel()} != "
                                f"{observations}")
    if observations and bool((w.min() < 0).item()):
        raise TorchRuntimeError(f"cov(): {kind} cannot be negative")
    return w


@guarded
def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None,  # noqa: A002
        aweights: Tensor | None = None) -> Tensor:
    """torch.cov as ATen composes it: the rows are variables, the columns observations,
    weighted by fweights * aweights when given."""
    x = _check_tensor(input, "cov")
    if x.ndim > 2:
        raise TorchRuntimeError(f"cov(): expected input to have two or fewer dimensions but "
                                f"got an input with {x.ndim} dimensions")
    rows = x if x.ndim == 2 else view(x, (1, -1))
    observations = rows.shape[1]
    w = None if fweights is None else _cov_weights(fweights, "fweights", observations)
    if aweights is not None:
        aw = _cov_weights(aweights, "aweights", observations)
        w = aw if w is None else mul(w, aw)
    if w is None:
        w_sum = tensor(observations, dtype=dtypes.int64, device=x.device)
    else:
        w_sum = sum(w)
        if not bool((w_sum != 0).item()):
            raise TorchRuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = div(sum(rows if w is None else mul(rows, w), 1), w_sum)
    if w is not None and aweights is not None and correction != 0:
        norm_factor = sub(w_sum, div(mul(sum(mul(w, aweights)), correction), w_sum))
    else:
        norm_factor = sub(w_sum, correction)
    if bool((norm_factor <= 0).item()):
        warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
             "number of observations.")
        norm_factor = mul(norm_factor, 0)
    centred = sub(rows, unsqueeze(avg, 1))
    weighted = centred if w is None else mul(centred, w)
    return squeeze(div(mm(centred, t(weighted)), norm_factor))  # type: ignore[no-any-return]


@guarded
def corrcoef(input: Tensor) -> Tensor:  # noqa: A002
    c = cov(_check_tensor(input, "corrcoef"))
    if c.ndim == 0:
        return div(c, c)  # type: ignore[no-any-return]
    from gradsh.engine.ops.diagonal import diagonal

    stddev = sqrt(diagonal(c))
    c = div(div(c, view(stddev, (-1, 1))), view(stddev, (1, -1)))
    return clamp(c, -1, 1)  # type: ignore[no-any-return]


def _ends(y: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    n = y.shape[dim]
    return slice(y, dim, 0, builtins.max(n - 1, 0)), slice(y, dim, builtins.min(1, n), n)


def _refuse_bool(name: str, y: Tensor, x: Any) -> None:
    """ATen's trapezoid family refuses bool samples and spacings."""
    for label, value in (("y", y), ("x", x)):
        if isinstance(value, Tensor) and value.dtype is dtypes.bool_:
            raise TorchRuntimeError(f"{name}: received a bool input for `{label}`, but bool is "
                                    "not supported")


@guarded
def trapezoid(y: Tensor, x: Any = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    y = _check_tensor(y, "trapezoid", "y")
    _refuse_bool("trapezoid", y, x)
    d = wrap_dim(dim, y.ndim)
    if isinstance(x, Tensor):
        if x.ndim == 1:
            if x.shape[0] != y.shape[d]:
                raise TorchRuntimeError(
                    "trapezoid: There must be one `x` value for each sample point")
            x = view(x, tuple(x.shape[0] if k == d else 1 for k in range(y.ndim)))
        left, right = _ends(x, d)
        spacing = sub(right, left)
        y_left, y_right = _ends(y, d)
        with ScalarOverloads.enabled():  # C++'s tensor / 2.: DivBackward1
            return div(sum(mul(add(y_left, y_right), spacing), d), 2.0)  # type: ignore
    step = 1 if x is None and dx is None else (dx if dx is not None else x)
    if y.shape[d] == 0:
        return sum(y, d)  # type: ignore[no-any-return]
    with ScalarOverloads.enabled():  # C++'s tensor * double: MulBackward1
        ends = mul(add(select(y, d, 0), select(y, d, -1)), 0.5)
        return mul(sub(sum(y, d), ends), step)  # type: ignore[no-any-return]


@guarded
def trapz(y: Tensor, x: Any = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    return trapezoid(y, x, dx=dx, dim=dim)  # type: ignore[no-any-return]


@guarded
def cumulative_trapezoid(y: Tensor, x: Any = None, *, dx: Any = None,
                         dim: int = -1) -> Tensor:
    y = _check_tensor(y, "cumulative_trapezoid", "y")
    _refuse_bool("cumulative_trapezoid", y, x)
    d = wrap_dim(dim, y.ndim)
    y_left, y_right = _ends(y, d)
    if isinstance(x, Tensor):
        if x.ndim == 1:
            x = view(x, tuple(x.shape[0] if k == d else 1 for k in range(y.ndim)))
        left, right = _ends(x, d)
        with ScalarOverloads.enabled():  # ((left + right) * dx).cumsum(dim) / 2.
            return div(cumsum(mul(add(y_left, y_right), sub(right, left)), d), 2.0)  # type: ignore
    step = 1 if x is None and dx is None else (dx if dx is not None else x)
    with ScalarOverloads.enabled():  # C++'s dx / 2. * (left + right): MulBackward1
        return cumsum(mul(add(y_left, y_right), step / 2.0), d)  # type: ignore[no-any-return]


@guarded
def is_same_size(input: Tensor, other: Tensor) -> bool:  # noqa: A002
    return tuple(input.shape) == tuple(_check_tensor(other, "is_same_size", "other", 2).shape)
