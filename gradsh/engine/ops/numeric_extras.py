"""torch.renorm (and renorm_), torch.histogram and torch.gradient."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes
from gradsh.engine.exceptions import (
    TorchIndexError,
    TorchNotImplementedError,
    TorchRuntimeError,
    warn,
)
from gradsh.engine.functions.discrete import HistogramNotImplemented
from gradsh.engine.functions.index_reduce import IndexReduceBackward0
from gradsh.engine.functions.renorm import RenormBackward0
from gradsh.engine.ops.arguments import _check_tensor, _new, apply_node, wrap_dim
from gradsh.engine.ops.arithmetic import add, div, mul, sub
from gradsh.engine.ops.functional import diff
from gradsh.engine.ops.unary import neg
from gradsh.engine.ops.creation import linspace
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.joining import cat
from gradsh.engine.ops.linalg_solvers import _return_type
from gradsh.engine.ops.reductions import sum as sum_
from gradsh.engine.ops.reductions import vector_norm
from gradsh.engine.ops.shape import reshape
from gradsh.engine.ops.shape import slice as slice_
from gradsh.engine.tensor import Tensor, no_grad

__all__ = ["renorm", "renorm_", "histogram", "gradient", "index_reduce", "index_reduce_"]

HistogramResult = _return_type("histogram", ("hist", "bin_edges"))


def _renorm(a: Tensor, p: Any, dim: int, maxnorm: Any, inplace: bool) -> Tensor:
    a = _check_tensor(a, "renorm")
    p, maxnorm = float(p), float(maxnorm)
    if p <= 0:
        raise TorchRuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise TorchRuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if a.ndim <= 1:
        raise TorchRuntimeError(f"renorm: input needs at least 2 dimensions, got {a.ndim} "
                                "dimensions")
    d = wrap_dim(dim, a.ndim)
    dims = tuple(i for i in range(a.ndim) if i != d)
    with no_grad():
        norm = vector_norm(a, p, dims, True)._data
    t = a.dtype.np.type
    with np.errstate(all="ignore"):
        factor = np.where(norm > t(maxnorm), t(maxnorm) / (norm + t(1e-7)), t(1)).astype(
            a.dtype.np)
    return apply_node(inplace, RenormBackward0, a, factor=factor, norm=norm, p=p, dims=dims,
                      maxnorm=maxnorm)


@guarded
def renorm(input: Tensor, p: Any, dim: int, maxnorm: Any) -> Tensor:  # noqa: A002
    """Each slice along `dim` whose p-norm passes maxnorm, scaled to maxnorm."""
    return _renorm(input, p, dim, maxnorm, False)


@guarded
def renorm_(input: Tensor, p: Any, dim: int, maxnorm: Any) -> Tensor:  # noqa: A002
    return _renorm(input, p, dim, maxnorm, True)


@guarded
def histogram(input: Tensor, bins: Any = 100, *, range: Sequence[float] | None = None,  # noqa: A002
              weight: Tensor | None = None, density: bool = False) -> Any:
    """torch.histogram: the counts (or summed weights) per bin and the bin edges; `bins`
    equal-width bins between the data's extremes (or `range`), or the given edges. A value
    falls in the bin whose left edge is the last one <= it; the last bin is closed."""
    a = _check_tensor(input, "histogram")
    if not a.dtype.is_floating_point:
        raise TorchNotImplementedError(f"\"histogramdd\" not implemented for "
                                       f"'{_scalar_name(a.dtype)}'")
    x = backend.to_host(a._data).reshape(-1)
    if isinstance(bins, Tensor):
        edges = bins
    else:
        count = int(bins)
        if count <= 0:
            raise TorchRuntimeError(f"torch.histogramdd(): bins must be > 0, but got {count} "
                                    "for dimension 0")
        if range is not None:
            low, high = float(range[0]), float(range[1])
        elif x.size:
            low, high = float(x.min()), float(x.max())
        else:
            low = high = 0.0
        if low == high:
            low, high = low - 0.5, high + 0.5
        edges = linspace(low, high, count + 1, dtype=a.dtype)
    edge_array = backend.to_host(edges._data)
    n = len(edge_array) - 1
    inside = (x >= edge_array[0]) & (x <= edge_array[-1])
    pos = np.searchsorted(edge_array, x[inside], side="right") - 1
    pos[pos == n] = n - 1
    hist = np.zeros(n, dtype=a.dtype.np)
    if weight is None:
        np.add.at(hist, pos, a.dtype.np.type(1))
    else:
        np.add.at(hist, pos, backend.to_host(weight._data).reshape(-1)[inside])
    result = _new(hist, a.dtype, a.device, False)
    if density:
        with no_grad():
            total = sum_(result).item()
            result = div(div(result, total), sub(slice_(edges, 0, 1, n + 1),
                                                 slice_(edges, 0, 0, n)))
    # Both outputs are new tensors (a bins tensor is copied), with one NotImplemented node
    # when an operand requires grad.
    operands = [t for t in (a, bins, weight) if isinstance(t, Tensor) and t.requires_grad]
    hist_out, edges_out = HistogramNotImplemented.apply_all(
        *(operands or [a]), hist=result._data, edges=edges._data.copy())
    return HistogramResult(hist_out, edges_out)


def _coordinate_gradient(a: Tensor, coordinates: Tensor, d: int, edge_order: int,
                         part: Any) -> Tensor:
    """torch.gradient along `d` with the sample coordinates given (ATen's gradient_helper)."""
    shape = [1] * a.ndim
    shape[d] = -1
    dx = diff(coordinates)
    n = dx.shape[0]
    dx1, dx2 = slice_(dx, 0, 0, n - 1), slice_(dx, 0, 1, n)
    ca = reshape(div(neg(dx2), mul(dx1, add(dx1, dx2))), shape)
    cb = reshape(div(sub(dx2, dx1), mul(dx1, dx2)), shape)
    cc = reshape(div(dx1, mul(dx2, add(dx1, dx2))), shape)
    center = add(add(mul(ca, part(0, -2)), mul(cb, part(1, -1))), mul(cc, part(2, None)))
    first, last = dx[0], dx[-1]
    if edge_order == 1:
        prepend = div(sub(part(1, 2), part(0, 1)), first)
        append = div(sub(part(-1, None), part(-2, -1)), last)
    else:
        # (a 2-sample dimension has one difference: only edge_order 1 reaches it)
        second, before = dx[1], dx[-2]
        ca = div(neg(add(mul(first, 2.0), second)), mul(first, add(first, second)))
        cb = div(add(first, second), mul(first, second))
        cc = div(neg(first), mul(second, add(first, second)))
        prepend = add(add(mul(ca, part(0, 1)), mul(cb, part(1, 2))), mul(cc, part(2, 3)))
        ca = div(last, mul(before, add(last, before)))
        cb = div(neg(add(last, before)), mul(last, before))
        cc = div(add(mul(last, 2), before), mul(last, add(last, before)))
        append = add(add(mul(ca, part(-3, -2)), mul(cb, part(-2, -1))), mul(cc, part(-1, None)))
    return cat([prepend, center, append], d)


def _scalar_name(dtype: dtypes.DType) -> str:
    return {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char",
            "uint8": "Byte", "bool": "Bool"}.get(dtype.short, dtype.short)


@guarded
def gradient(input: Tensor, *, spacing: Any = 1, dim: Any = None,  # noqa: A002
             edge_order: int = 1) -> tuple[Tensor, ...]:
    """torch.gradient with uniform spacing: central differences inside, one-sided (first or
    second order) at the edges, concatenated (CatBackward0)."""
    a = _check_tensor(input, "gradient")
    dims = list(builtins.range(a.ndim)) if dim is None else (
        [wrap_dim(dim, a.ndim)] if isinstance(dim, int) else [wrap_dim(d, a.ndim) for d in dim])
    if isinstance(spacing, (int, float)):
        steps: list[Any] = [float(spacing)] * len(dims)
    else:
        steps = [s if isinstance(s, Tensor) else float(s) for s in spacing]
        if len(steps) != len(dims):
            raise TorchRuntimeError(f"torch.gradient expected spacing to be unspecified, a "
                                    f"scalar or it's spacing and dim arguments to have the same "
                                    f"length, but got a spacing argument of length "
                                    f"{len(steps)} and a dim argument of length {len(dims)}.")
    if edge_order not in (1, 2):
        raise TorchRuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    results = []
    for d, h in zip(dims, steps, strict=True):
        size = a.shape[d]
        if size < edge_order + 1:
            raise TorchRuntimeError(f"torch.gradient expected each dimension size to be at "
                                    f"least edge_order+1")

        def part(start: int, end: int) -> Tensor:
            return slice_(a, d, start % size if start < 0 else start,
                          size if end is None else end % size if end < 0 else end)

        if isinstance(h, Tensor):
            results.append(_coordinate_gradient(a, h, d, edge_order, part))
            continue
        center = div(sub(part(2, None), part(0, -2)), h)
        if edge_order == 1:
            prepend = div(sub(part(1, 2), part(0, 1)), h)
            append = div(sub(part(-1, None), part(-2, -1)), h)
        else:
            prepend = div(sub(add(mul(part(0, 1), -1.5), mul(part(1, 2), 2)),
                              mul(part(2, 3), 0.5)), h)
            append = div(add(sub(mul(part(-3, -2), 0.5), mul(part(-2, -1), 2)),
                             mul(part(-1, None), 1.5)), h)
        results.append(cat([prepend, div(center, 2), append], d))
    return tuple(results)



_REDUCES = ("prod", "mean", "amax", "amin")


def _index_reduce(a: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str,
                  include_self: bool, inplace: bool) -> Tensor:
    a = _check_tensor(a, "index_reduce")
    if not _Warned.index_reduce:
        _Warned.index_reduce = True
        warn("index_reduce() is in beta and the API may change at any time.")
    if reduce not in _REDUCES:
        raise TorchRuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, "
                                f"amax or amin but got {reduce}.")
    d = wrap_dim(dim, a.ndim)
    positions = backend.to_host(index._data).astype(np.int64).reshape(-1)
    if positions.size != source.shape[d]:
        raise TorchIndexError(f"index_reduce_(): Number of indices ({positions.size}) should be "
                              f"equal to source.size(dim) ({source.shape[d]})")
    return apply_node(inplace, IndexReduceBackward0, a, source, dim=d, index=positions,
                      reduce=reduce, include_self=bool(include_self))


class _Warned:
    index_reduce = False


@guarded
def index_reduce(input: Tensor, dim: int, index: Tensor, source: Tensor,  # noqa: A002
                 reduce: str, *, include_self: bool = True) -> Tensor:
    """The source slices reduced (prod, mean, amax, amin) into the indexed slices of input."""
    return _index_reduce(input, dim, index, source, reduce, include_self, False)


@guarded
def index_reduce_(input: Tensor, dim: int, index: Tensor, source: Tensor,  # noqa: A002
                  reduce: str, *, include_self: bool = True) -> Tensor:
    return _index_reduce(input, dim, index, source, reduce, include_self, True)
