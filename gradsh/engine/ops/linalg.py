"""Linear algebra: mm, mv, dot, bmm, matmul, addmm, linear, bilinear, trace, tril/triu, diag ..."""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable

from gradsh.engine import dtypes, limits
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import infer_size, not_implemented_for, xp_of
from gradsh.engine.functions.linalg import (
    AddmmBackward0,
    BmmBackward0,
    DiagEmbedBackward0,
    DiagonalBackward0Copy,
    DotBackward0,
    MmBackward0,
    MvBackward0,
    TraceBackward0,
    TrilBackward0,
    TrilinearBackward0,
    TriuBackward0,
    _strides,
)
from gradsh.engine.functions.shape import SqueezeBackward4
from gradsh.engine.ops.arguments import (
    Number,
    _c_name,
    _check_kernel_devices,
    _check_tensor,
    unmeasured,
    wrap_dim,
)
from gradsh.engine.ops.arithmetic import add, add_, div, mul
from gradsh.engine.ops.copies import clone, detach
from gradsh.engine.ops.guard import alias, guarded
from gradsh.engine.ops.normalization import VMAP_LEVELS
from gradsh.engine.ops.reductions import norm, sum
from gradsh.engine.ops.selection import clamp_min, clamp_min_
from gradsh.engine.ops.sparse import is_sparse_tensor, spmm
from gradsh.engine.ops.shape import (
    _unsafe_view,
    contiguous,
    expand,
    expand_as,
    is_contiguous,
    mT,
    permute,
    reshape,
    squeeze,
    t,
    unsqueeze,
    view,
)
from gradsh.engine.tensor import Function, Tensor, expandable, no_grad

__all__ = [
    "mm", "mv", "dot", "inner", "bmm", "outer", "ger", "matmul", "addmm", "linear", "bilinear",
    "trace", "tril", "triu", "diag", "normalize", "cosine_similarity",
]


@guarded
def mm(a: Tensor, b: Tensor) -> Tensor:
    _check_tensor(a, "mm")
    if is_sparse_tensor(a):
        return spmm(a, b)
    _check_tensor(b, "mm", "mat2", 2)
    _check_kernel_devices("wrapper_CUDA_mm", ("self", a), ("mat2", b))
    if a.ndim != 2:
        raise TorchRuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise TorchRuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise TorchRuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
            f"{b.shape[0]}x{b.shape[1]})"
        )
    if a.dtype is not b.dtype:
        raise TorchRuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{_c_name(a.dtype)} != {_c_name(b.dtype)}"
        )
    if a.dtype is dtypes.bool_:
        raise not_implemented_for("addmm_impl_cpu_", a.dtype)
    limits.check((a.shape[0], b.shape[1]), a.dtype.itemsize)
    return MmBackward0.apply(a, b)


@guarded
def mv(a: Tensor, v: Tensor) -> Tensor:
    _check_tensor(a, "mv")
    _check_tensor(v, "mv", "vec", 2)
    # mv is addmv_(result, self, vec) with the result made on vec's device
    _check_kernel_devices("wrapper_CUDA_addmv_", ("self", v), ("mat", a), ("vec", v))
    if a.ndim != 2 or v.ndim != 1:
        raise TorchRuntimeError(
            f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}"
        )
    if a.shape[1] != v.shape[0]:
        raise TorchRuntimeError(
            f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), "
            f"vec ({v.shape[0]})"
        )
    if a.dtype is not v.dtype:
        raise TorchRuntimeError(
            "addmv input tensors must have the same dtype, but got "
            f"{v.dtype.short}, {a.dtype.short}, and {v.dtype.short}"
        )
    if a.dtype is dtypes.bool_:
        raise not_implemented_for("addmv_impl_cpu", a.dtype)
    return MvBackward0.apply(a, v)


@guarded
def dot(a: Tensor, b: Tensor) -> Tensor:
    _check_tensor(a, "dot")
    _check_tensor(b, "dot", "tensor", 2)
    _check_kernel_devices("wrapper_CUDA__dot", ("self", a), ("tensor", b))
    if a.ndim != 1 or b.ndim != 1:
        raise TorchRuntimeError(
            f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors"
        )
    if a.shape[0] != b.shape[0]:
        raise TorchRuntimeError(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to "
            f"have the same number of elements, but got {a.shape[0]} and {b.shape[0]} elements "
            "respectively"
        )
    if a.dtype is not b.dtype:
        raise TorchRuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{a.dtype.short} and {b.dtype.short}"
        )
    if a.dtype is dtypes.bool_:
        raise not_implemented_for("dot", a.dtype)
    return DotBackward0.apply(a, b)


@guarded
def inner(a: Tensor, b: Tensor) -> Tensor:
    """torch.inner: tensordot over the last dimensions, with its graph (permute, reshape, dot or
    mm, view)."""
    if a.ndim == 0 or b.ndim == 0:
        return mul(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise TorchRuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes "
            f"[{', '.join(map(str, a.shape))}] and [{', '.join(map(str, b.shape))}]"
        )
    k = a.shape[-1]
    left = permute(a, *range(a.ndim))
    right = permute(b, b.ndim - 1, *range(b.ndim - 1))
    rows = math.prod(a.shape[:-1])
    cols = math.prod(b.shape[:-1])
    if a.ndim == 1 and b.ndim == 1:
        return view(dot(left, right), ())
    product = mm(reshape(left, rows, k), reshape(right, k, cols))
    return view(product, *(a.shape[:-1] + b.shape[:-1]))


@guarded
def bmm(a: Tensor, b: Tensor) -> Tensor:
    _check_tensor(a, "bmm")
    _check_tensor(b, "bmm", "mat2", 2)
    _check_kernel_devices("wrapper_CUDA_bmm", ("self", a), ("mat2", b))
    if a.ndim != 3:
        raise TorchRuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise TorchRuntimeError("batch2 must be a 3D tensor")
    if b.shape[0] != a.shape[0] or b.shape[1] != a.shape[2]:
        raise TorchRuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}]."
        )
    if a.dtype is not b.dtype:
        raise TorchRuntimeError(
            f"expected scalar type {a.dtype.short} but found {b.dtype.short}"
        )
    if a.dtype is dtypes.bool_:
        raise not_implemented_for("bmm", a.dtype)
    limits.check((a.shape[0], a.shape[1], b.shape[2]), a.dtype.itemsize)
    return BmmBackward0.apply(a, b)


@guarded
def outer(a: Tensor, b: Tensor) -> Tensor:
    a, b = _check_tensor(a, "outer"), _check_tensor(b, "outer", "vec2", 2)
    if a.ndim != 1 or b.ndim != 1:
        raise TorchRuntimeError(
            f"outer: Expected 1-D argument self, but got {a.ndim}-D" if a.ndim != 1 else
            f"outer: Expected 1-D argument vec2, but got {b.ndim}-D"
        )
    return mul(reshape(a, (a.shape[0], 1)), b)


ger = alias(outer, "ger")


def _should_fold(t1: Tensor, t2: Tensor) -> bool:
    """PyTorch's should_fold: use mm/mv on the larger tensor folded into a matrix."""
    t1_larger = t1.ndim >= t2.ndim
    big = t1._data if t1_larger else xp_of(t2._data).swapaxes(t2._data, -1, -2)
    dim_small = t2.ndim if t1_larger else t1.ndim
    if not (big.ndim >= 3 and dim_small <= 2):
        return False
    small_requires_grad = t2.requires_grad if t1_larger else t1.requires_grad
    if small_requires_grad:  # (whatever the grad mode: ATen does not read it here)
        return True
    if t1.ndim == 2:
        return False
    if big.size == 0:
        return True
    strides = _strides(big)
    for i in range(big.ndim - 2):
        if strides[i] != strides[i + 1] * big.shape[i + 1]:
            return False
    return True


@guarded
def matmul(a: Tensor, b: Tensor) -> Tensor:
    """torch.matmul with PyTorch's algorithm, so every shape case builds PyTorch's graph."""
    _check_tensor(a, "matmul")
    _check_tensor(b, "matmul", "other", 2)
    if is_sparse_tensor(a):
        return spmm(a, b)
    da, db = a.ndim, b.ndim
    if da == 0 or db == 0:
        raise TorchRuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
        )
    if da == 1 and db == 1:
        return dot(a, b)
    if da == 2 and db == 1:
        return mv(a, b)
    if da == 1 and db == 2:
        product = mm(unsqueeze(a, 0), b)
        return SqueezeBackward4.apply(product, dim=0)
    if da == 2 and db == 2:
        return mm(a, b)
    if _should_fold(a, b):
        transposed = db > da
        t1 = mT(b) if transposed else a
        t2 = (t(a) if da == 2 else a) if transposed else b
        output_shape = t1.shape[:-1]
        folded = 1
        for n in output_shape:
            folded *= n
        if t2.ndim == 2:
            output_shape = output_shape + (t2.shape[1],)
        t1_folded = reshape(t1, (folded, t1.shape[-1]))
        if t2.ndim == 2:
            out = _unsafe_view(mm(t1_folded, t2), output_shape)
            return contiguous(mT(out)) if transposed else out
        return _unsafe_view(mv(t1_folded, t2), output_shape)
    n = a.shape[-2] if da > 1 else 1
    m1 = a.shape[-1]
    batch_a = a.shape[:builtins.max(da - 2, 0)]
    m2 = b.shape[-2] if db > 1 else b.shape[0]
    p = b.shape[-1] if db > 1 else 1
    batch_b = b.shape[:builtins.max(db - 2, 0)]
    if da == 3 and db == 3 and batch_a[0] != batch_b[0]:
        if batch_a[0] == 1 and a.requires_grad:
            return matmul(squeeze(a, 0), b)
        if batch_b[0] == 1 and b.requires_grad:
            return matmul(a, squeeze(b, 0))
    batch = infer_size(batch_a, batch_b)
    batch_product = 1
    for s in batch:
        batch_product *= s
    if m1 != m2:
        raise TorchRuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{batch_product}, {m1}] but got: [{batch_product}, {m2}]."
        )
    a_expanded = reshape(expand(a, batch + (n, m1)), (batch_product, n, m1))
    vector_rhs = db == 1
    b_expanded = expand(b, batch + ((m2,) if vector_rhs else (m2, p)))
    if vector_rhs:
        b_expanded = unsqueeze(reshape(b_expanded, (batch_product, m2)), 2)
    else:
        b_expanded = reshape(b_expanded, (batch_product, m2, p))
    output_shape = batch + ((n,) if da > 1 else ()) + ((p,) if db > 1 else ())
    product = bmm(a_expanded, b_expanded)
    if vector_rhs:
        product = squeeze(product, -1)
    return _unsafe_view(product, output_shape)


@guarded
def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, beta: Number = 1,  # noqa: A002
          alpha: Number = 1) -> Tensor:
    _check_tensor(input, "addmm")
    _check_tensor(mat1, "addmm", "mat1", 2)
    _check_tensor(mat2, "addmm", "mat2", 3)
    # (the arrays' own shapes and dtypes: what .shape and .dtype give, without their objects)
    first, second, start = mat1._data, mat2._data, input._data
    if start.dtype is not second.dtype or first.dtype is not second.dtype:
        if input.dtype is not mat2.dtype:  # addmm's checks, in its order: dtypes first
            raise TorchRuntimeError(f"self and mat2 must have the same dtype, but got "
                                    f"{input.dtype.short} and {mat2.dtype.short}")
        if mat1.dtype is not mat2.dtype:
            raise TorchRuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                                    f"{mat1.dtype.short} and {mat2.dtype.short}")
    if first.ndim != 2 or second.ndim != 2:  # (the arrays' ndim: no property call each)
        for name, m in (("mat1", mat1), ("mat2", mat2)):
            if m.ndim != 2:
                raise TorchRuntimeError(f"{name} must be a matrix, got {m.ndim}-D tensor")
    if first.shape[1] != second.shape[0]:
        raise TorchRuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x{mat1.shape[1]} and "
            f"{mat2.shape[0]}x{mat2.shape[1]})")
    shape = (first.shape[0], second.shape[1])
    if start.shape != shape and start.shape != shape[1:] and not expandable(start.shape, shape):
        # (a bias of the result's row shape expands: F.linear's, without a call)
        with no_grad():
            expand(detach(input), shape)  # PyTorch expands the input: its error if it cannot
    return AddmmBackward0.apply(input, mat1, mat2, beta=beta, alpha=alpha)


_ADDMM, _T = addmm.__wrapped__, t.__wrapped__  # the ops behind their argument guards


@guarded
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:  # noqa: A002
    """F.linear as aten's linear builds it: addmm for a 2-D input with a bias, a flattened
    addmm for other contiguous inputs whose bias is "likely fusable" (contiguous, one
    dimension once squeezed), matmul otherwise (then add_ the bias: so a 0-dim or integer
    bias, F.linear(x, w, torch.tensor(0)), adds in place instead of entering addmm)."""
    _check_tensor(input, "linear")
    _check_tensor(weight, "linear", "weight", 2)
    if bias is None:
        return matmul(input, t(weight))
    if VMAP_LEVELS[0]:
        # functorch's linear_decomp under vmap: matmul, then an out-of-place add of the bias
        # (AddBackward0 the batched result's node)
        return add(matmul(input, t(weight)), bias)
    if input._data.ndim == 2:  # (input.ndim)
        if isinstance(bias, Tensor) and unmeasured(input, weight, bias):
            # linear's guard has checked what t's and addmm's would (the same three tensors,
            # small enough that no guard measures memory): the ops behind their guards
            return _ADDMM(bias, input, _T(weight))
        return addmm(bias, input, t(weight))
    fusable = isinstance(bias, Tensor) and is_contiguous(bias) and (
        bias.ndim == 1 or builtins.sum(n != 1 for n in bias.shape) == 1)
    if fusable and is_contiguous(input) and input.ndim > 0:
        rows = 1
        for n in input.shape[:-1]:
            rows *= n
        flat = reshape(input, (rows, input.shape[-1]))
        result = addmm(bias, flat, t(weight))
        return view(result, input.shape[:-1] + (result.shape[1],))
    output = matmul(input, t(weight))
    return add_(output, bias)


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor,
             bias: Tensor | None = None) -> Tensor:
    """F.bilinear as ATen builds it: both inputs flattened to 2-D, the trilinear product,
    reshaped back, plus the bias."""
    if input1.ndim != input2.ndim:
        raise TorchRuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} "
                                f"and {input2.ndim}")
    if input1.shape[:-1] != input2.shape[:-1]:
        raise TorchRuntimeError(f"bilinear(): input batch dimensions do not match: got "
                                f"{list(input1.shape)} and {list(input2.shape)}")
    if input1.shape[-1] != weight.shape[1]:
        raise TorchRuntimeError(f"bilinear(): input1 size does not match weight size: got "
                                f"{input1.shape[-1]} but expected {weight.shape[1]}")
    if input2.shape[-1] != weight.shape[2]:
        raise TorchRuntimeError(f"bilinear(): input2 size does not match weight size: got "
                                f"{input2.shape[-1]} but expected {weight.shape[2]}")
    out_shape = tuple(input1.shape[:-1]) + (weight.shape[0],)
    flat1 = reshape(input1, (-1, input1.shape[-1]))
    flat2 = reshape(input2, (-1, input2.shape[-1]))
    output = reshape(TrilinearBackward0.apply(flat1, weight, flat2), out_shape)
    return output if bias is None else add(output, bias)


@guarded
def trace(a: Tensor) -> Tensor:
    a = _check_tensor(a, "trace")
    if a.ndim != 2:
        raise TorchRuntimeError(f"trace: expected a matrix, but got tensor with dim {a.ndim}")
    return TraceBackward0.apply(a)


def _triangle(cls: type[Function], name: str) -> Callable[..., Tensor]:
    def op(a: Tensor, diagonal: int = 0) -> Tensor:
        a = _check_tensor(a, name)
        if a.ndim < 2:
            raise TorchRuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        return cls.apply(a, diagonal=diagonal)

    op.__name__ = name
    op.__doc__ = f"torch.{name} ({cls.node_name})."
    return guarded(op)


tril = _triangle(TrilBackward0, "tril")
triu = _triangle(TriuBackward0, "triu")


@guarded
def diag(a: Tensor, diagonal: int = 0) -> Tensor:
    a = _check_tensor(a, "diag")
    if a.ndim == 1:
        n = a.shape[0] + builtins.abs(int(diagonal))
        limits.check((n, n), a._data.dtype.itemsize)
        return DiagEmbedBackward0.apply(a, diagonal=diagonal)
    if a.ndim == 2:
        return DiagonalBackward0Copy.apply(a, diagonal=diagonal)
    raise TorchRuntimeError(f"diag(): Supports 1D or 2D tensors. Got {a.ndim}D")


@guarded
def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,  # noqa: A002
              out: Tensor | None = None) -> Tensor:
    """F.normalize as PyTorch's Python composes it: x / norm(x).clamp_min(eps).expand_as(x)
    (into `out` when given, as torch.div(..., out=out))."""
    input = _check_tensor(input, "normalize")
    denominator = expand_as(clamp_min(norm(input, p, dim, keepdim=True), eps), input)
    if out is not None:
        return div(input, denominator, out=out)
    return div(input, denominator)


@guarded
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """aten's cosine_similarity: each side over its (cloned, clamped) norm, then the sum."""
    x1 = _check_tensor(x1, "cosine_similarity")
    x2 = _check_tensor(x2, "cosine_similarity", "x2", 2)
    shape = infer_size(x1.shape, x2.shape)
    if x1.shape != shape:
        x1 = expand(x1, shape)
    if x2.shape != shape:
        x2 = expand(x2, shape)
    d = wrap_dim(dim, len(shape))
    n1 = clone(norm(x1, 2, d, keepdim=True))
    n2 = clone(norm(x2, 2, d, keepdim=True))
    with no_grad():
        clamp_min_(n1, eps)
        clamp_min_(n2, eps)
    return sum(mul(div(x1, n1), div(x2, n2)), d)
