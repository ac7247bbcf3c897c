"""Sparse COO tensors: torch.sparse_coo_tensor, Tensor.to_sparse, and a sparse tensor's
methods (to_dense, coalesce, indices, values, _nnz ...), sparse @ dense, torch.sparse.sum."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.cascade_sum import torch_sum
from gradsh.engine.functions.sparse import (
    CoalesceBackward0,
    Coo,
    SparseAddBackward,
    SparseAddmmBackward0,
    SparseCOO,
    SparseCooTensorWithDimsAndTensorsBackward0,
    SparseFullSumBackward,
    SparseMmBackward,
    SparseScaleBackward,
    SparseSumBackward0,
    SparseTBackward,
    ToDenseBackward0,
    ToSparseBackward0,
    ValuesBackward0,
    coalesced_form,
    coo_of,
    make_sparse,
    sum_form,
)
from gradsh.engine.ops.arguments import _device_name, _resolve_dtype, wrap_dim
from gradsh.engine.ops.copies import to
from gradsh.engine.ops.creation import tensor as make_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.sparse_grad import install_sparse_grad_methods
from gradsh.engine.tensor import Tensor, no_grad

__all__ = ["sparse_coo_tensor", "to_sparse", "sparse_mm", "spmm", "sparse_sum",
           "is_sparse_tensor"]

INVARIANTS_WARNING = (
    "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will occur "
    "when operating on a sparse tensor which violates the invariants, but checks incur "
    "performance overhead. To silence this warning, explicitly opt in or out. See "
    "`torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance. ")


class _Warned:
    invariants = False


def is_sparse_tensor(value: Any) -> bool:
    return value.__class__ is SparseCOO


@guarded(tensor_first=False)
def sparse_coo_tensor(indices: Any, values: Any, size: Any = None, *, dtype: DType | None = None,
                      device: Any = None, requires_grad: bool = False,
                      check_invariants: bool | None = None,
                      is_coalesced: bool | None = None) -> Tensor:
    """A sparse COO tensor of `values` at `indices` (sparse_dim, nnz); its size is the
    smallest that holds them unless given."""
    if check_invariants is None and not _Warned.invariants:
        _Warned.invariants = True
        warnings.warn(INVARIANTS_WARNING, UserWarning, stacklevel=3)
    if not isinstance(indices, Tensor):
        indices = make_tensor(indices)
    if not isinstance(values, Tensor):
        values = make_tensor(values)
    index = np.asarray(indices._data).astype(np.int64)
    if index.ndim != 2:
        raise TorchRuntimeError(f"indices must be sparse_dim x nnz, but got: "
                                f"{list(indices.shape)}")
    if values.ndim == 0:
        raise TorchRuntimeError("values has incorrect size, expected at least one dimension "
                                "(nnz)")
    if index.shape[1] != values.shape[0]:
        raise TorchRuntimeError(f"indices and values must have same nnz, but got nnz from "
                                f"indices: {index.shape[1]}, nnz from values: "
                                f"{values.shape[0]}")
    if size is None:
        shape = (tuple(int(n) + 1 for n in index.max(axis=1)) if index.shape[1] else (
            0,) * index.shape[0]) + tuple(values.shape[1:])
    else:
        shape = tuple(int(n) for n in size)
        if len(shape) != index.shape[0] + values.ndim - 1:
            raise TorchRuntimeError(f"number of dimensions must be sparse_dim "
                                    f"({index.shape[0]}) + dense_dim ({values.ndim - 1}), but "
                                    f"got {len(shape)}")
    target = _resolve_dtype(dtype, values.dtype)
    if target is not values.dtype:
        values = to(values, target)
    if device is not None and _device_name(device) != values.device:
        values = to(values, device=device)
    if requires_grad:
        values = values.detach().requires_grad_()
    result = SparseCooTensorWithDimsAndTensorsBackward0.apply(values, indices=index,
                                                              shape=shape)
    if requires_grad:  # a leaf, as PyTorch's
        result = result.detach().requires_grad_()
    return make_sparse(result, Coo(index, values._data.copy(), False))


@guarded
def to_sparse(a: Tensor, sparse_dim: int | None = None, *, layout: Any = None,
              blocksize: Any = None, dense_dim: Any = None) -> Tensor:
    """dense.to_sparse(): a coalesced COO tensor of the nonzero elements."""
    if is_sparse_tensor(a):
        return a
    index = np.array(np.nonzero(a._data), dtype=np.int64).reshape(a.ndim, -1)
    coo = Coo(index, a._data[tuple(index)].copy(), True)
    return make_sparse(ToSparseBackward0.apply(a), coo)


def _check_sparse(a: Tensor, name: str) -> Coo:
    if not is_sparse_tensor(a):
        raise TorchRuntimeError(f"{name} expected a sparse tensor")
    return coo_of(a)


def to_dense(a: Tensor, dtype: DType | None = None, *, masked_grad: bool | None = None
             ) -> Tensor:
    if not is_sparse_tensor(a):
        return a
    out = ToDenseBackward0.apply(a)
    return out if dtype is None else to(out, dtype)


def coalesce(a: Tensor) -> Tensor:
    coo = _check_sparse(a, "coalesce")
    if coo.coalesced:
        return a
    return make_sparse(CoalesceBackward0.apply(a),
                       coalesced_form(coo.indices, coo.values, tuple(a.shape)))


def indices(a: Tensor) -> Tensor:
    coo = _check_sparse(a, "indices")
    if not coo.coalesced:
        raise TorchRuntimeError("Cannot get indices on an uncoalesced tensor, please call "
                                ".coalesce() first")
    return _indices(a)


def _indices(a: Tensor) -> Tensor:
    return Tensor._make(_check_sparse(a, "_indices").indices, a.device)


def values(a: Tensor) -> Tensor:
    coo = _check_sparse(a, "values")
    if not coo.coalesced:
        raise TorchRuntimeError("Cannot get values on an uncoalesced tensor, please call "
                                ".coalesce() first")
    return ValuesBackward0.apply(a)


def _values(a: Tensor) -> Tensor:
    return Tensor._make(_check_sparse(a, "_values").values, a.device)


def _nnz(a: Tensor) -> int:
    return int(_check_sparse(a, "_nnz").indices.shape[1])


def is_coalesced(a: Tensor) -> bool:
    return _check_sparse(a, "is_coalesced").coalesced


def sparse_dim(a: Tensor) -> int:
    return int(_check_sparse(a, "sparse_dim").indices.shape[0])


def dense_dim(a: Tensor) -> int:
    return int(_check_sparse(a, "dense_dim").values.ndim - 1)


def _product(a: Tensor, b: Tensor, node: type[SparseMmBackward]) -> Tensor:
    _check_sparse(a, "mm")
    if a.ndim != 2 or b.ndim != 2:
        raise TorchRuntimeError(f"mm: expected 2D matrices, got {a.ndim}D and {b.ndim}D")
    if a.shape[1] != b.shape[0]:
        raise TorchRuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                                f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")
    if is_sparse_tensor(b):
        b = to_dense(b)
    return node.apply(a, b)


def sparse_mm(a: Tensor, b: Tensor) -> Tensor:
    """torch.sparse.mm(sparse, dense): SparseAddmmBackward0."""
    return _product(a, b, SparseAddmmBackward0)


def spmm(a: Tensor, b: Tensor) -> Tensor:
    """torch.mm / torch.spmm / @ with a sparse left operand: MmBackward0."""
    return _product(a, b, SparseMmBackward)


def sparse_sum(a: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    """torch.sparse.sum: over everything a dense 0-d tensor, over `dim` a sparse tensor."""
    coo = _check_sparse(a, "torch.sparse.sum")
    if dim is None:
        return SparseFullSumBackward.apply(a)
    dims = tuple(sorted({wrap_dim(d, a.ndim) for d in ((dim,) if isinstance(dim, int)
                                                          else dim)}))
    keep = [d for d in range(a.ndim) if d not in dims]
    if not keep:
        return SparseFullSumBackward.apply(a)
    # ATen's _sparse_sum: summed dense dimensions reduce the values; the summed sparse
    # dimensions are dropped from the indices as stored, then coalesced; with every sparse
    # dimension summed the result is the values summed over their entries, a dense tensor
    sparse_dim = coo.indices.shape[0]
    values = coo.values
    dense_axes = tuple(d - sparse_dim + 1 for d in dims if d >= sparse_dim)
    if dense_axes:
        values = torch_sum(values, dense_axes, False, values.dtype)
    kept_sparse = [d for d in keep if d < sparse_dim]
    if not kept_sparse:
        return SparseSumBackward0.apply(a, dims=dims, form=None,
                                        dense=torch_sum(values, 0, False, values.dtype))
    form = coalesced_form(coo.indices[kept_sparse], values, tuple(a.shape[d] for d in keep))
    return make_sparse(SparseSumBackward0.apply(a, dims=dims, form=form), form)


def _scale(a: Tensor, factor: Any) -> Tensor:
    coo = coo_of(a)
    if isinstance(factor, Tensor) or isinstance(factor, bool) or not isinstance(
            factor, (int, float)):
        return NotImplemented  # type: ignore[return-value]
    out = SparseScaleBackward.apply(a, factor=factor)
    dtype = out._data.dtype
    return make_sparse(out, Coo(coo.indices, coo.values * np.asarray(factor, dtype=dtype),
                                coo.coalesced))


def _t(a: Tensor) -> Tensor:
    coo = coo_of(a)
    if a.ndim != 2:
        raise TorchRuntimeError(f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, "
                                f"but got {a.ndim} sparse and 0 dense dimensions")
    return make_sparse(SparseTBackward.apply(a), Coo(coo.indices[::-1].copy(), coo.values,
                                                      False))


def _add(a: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    """sparse + sparse: ATen's add_out_sparse_cpu (two coalesced operands merged, coalesced;
    otherwise the entries of both, concatenated, uncoalesced)."""
    if not isinstance(other, Tensor):
        return NotImplemented  # type: ignore[return-value]
    if not is_sparse_tensor(other):
        raise TorchRuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) "
                                "instead.")
    if tuple(a.shape) != tuple(other.shape):
        raise TorchRuntimeError(f"add: expected 'self' and 'other' to have same size, but self "
                                f"has size {list(a.shape)} while other has size "
                                f"{list(other.shape)} (FYI: dense-sparse addition does not "
                                "currently support broadcasting)")
    form = sum_form(coo_of(a), coo_of(other), alpha, tuple(a.shape), other is a)
    return make_sparse(SparseAddBackward.apply(a, other, alpha=alpha), form)


def _to(a: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    coo = coo_of(a)
    out = to(a, *args, **kwargs)
    if out is a:
        return a
    with no_grad():
        values_out = to(Tensor._make(coo.values, a.device), *args, **kwargs)
    return make_sparse(out, Coo(coo.indices, values_out._data, coo.coalesced))


def install_sparse_methods() -> None:
    """SparseCOO's own methods and operators (the dense ones it inherits read `_data`)."""
    methods = {
        "to_dense": to_dense, "coalesce": coalesce, "indices": indices, "_indices": _indices,
        "values": values, "_values": _values, "_nnz": _nnz, "is_coalesced": is_coalesced,
        "sparse_dim": sparse_dim, "dense_dim": dense_dim, "mm": spmm, "__matmul__": spmm,
        "matmul": spmm, "t": _t, "__mul__": _scale, "__rmul__": _scale, "mul": _scale,
        "__add__": _add, "add": _add, "to": _to,
        "to_sparse": lambda a, *args, **kwargs: a,
        "double": lambda a: _to(a, dtypes.float64), "float": lambda a: _to(a, dtypes.float32),
        "cpu": lambda a: a, "__repr__": _repr,
    }
    for name, method in methods.items():
        setattr(SparseCOO, name, method)
    SparseCOO.is_sparse = True  # type: ignore[attr-defined]
    Tensor.to_sparse = to_sparse  # type: ignore[attr-defined]
    # A strided tensor has these methods too (`x.values` is a bound method; code reads it
    # without calling it); calling one is PyTorch's layout error.
    for name, layout in (("values", "sparse tensor"), ("indices", "sparse coordinate tensor"),
                         ("coalesce", "sparse coordinate tensor"),
                         ("is_coalesced", "sparse coordinate tensor"),
                         ("crow_indices", "sparse row compressed tensor"),
                         ("col_indices", "sparse row compressed tensor")):
        setattr(Tensor, name, _strided_refusal(name, layout))
    install_sparse_grad_methods()
    Tensor.sparse_dim = lambda a: 0  # type: ignore[attr-defined]
    Tensor.dense_dim = lambda a: a.ndim  # type: ignore[attr-defined]


def _strided_refusal(name: str, layout: str) -> Any:
    def method(a: Tensor, *args: Any, **kwargs: Any) -> Any:
        raise TorchRuntimeError(f"{name} expected {layout} layout but got Strided")

    method.__name__ = name
    return method


def _repr(a: Tensor) -> str:
    """PyTorch's repr of a sparse COO tensor: indices, values, then size, nnz and layout."""
    from gradsh.engine.tensor_str import PRINT_OPTS, _add_suffixes, _tensor_str

    coo = coo_of(a)
    indent = len("tensor(")
    suffixes = []
    if a.device != "cpu":
        suffixes.append(f"device='{a.device}'")
    suffixes += [f"size={tuple(int(n) for n in a.shape)}", f"nnz={coo.indices.shape[1]}"]
    if a.dtype not in (dtypes.default_float(), dtypes.int64, dtypes.bool_):
        suffixes.append(f"dtype={a.dtype!r}")
    parts = []
    for name, array, floating in (("indices", coo.indices, False),
                                  ("values", coo.values, a.dtype.is_floating_point)):
        prefix = f"{name}=tensor("
        text = _tensor_str(array, floating, indent + len(prefix), PRINT_OPTS)
        if array.size == 0:
            text += f", size={tuple(array.shape)}"
        parts.append(prefix + text + ")")
    suffixes.append("layout=torch.sparse_coo")
    grad_fn = a.grad_fn_name()
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif a.requires_grad:
        suffixes.append("requires_grad=True")
    body = "tensor(" + (",\n" + " " * indent).join(parts)
    return _add_suffixes(body, suffixes, indent, PRINT_OPTS.linewidth, True)
