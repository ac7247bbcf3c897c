"""addmv, addr, addbmm and their in-place forms, with PyTorch's shape checks."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.blas_extras import AddbmmBackward0, AddmvBackward0, AddrBackward0
from gradsh.engine.ops.arguments import _check_tensor, wrap_dim
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.shape import expand
from gradsh.engine.tensor import Function, Tensor, apply_inplace
from gradsh.engine.variable import _C_TYPE_NAMES

__all__ = ["addmv", "addmv_", "addr", "addr_", "addbmm", "addbmm_"]


def _check_addmv(input: Tensor, mat: Tensor, vec: Tensor) -> tuple[int, ...]:  # noqa: A002
    if mat.ndim != 2 or vec.ndim != 1:
        raise TorchRuntimeError(f"vector + matrix @ vector expected, got {input.ndim}, "
                                f"{mat.ndim}, {vec.ndim}")
    if mat.shape[1] != vec.shape[0]:
        raise TorchRuntimeError(f"size mismatch, got input ({input.shape[0] if input.ndim else 1}"
                                f"), mat ({mat.shape[0]}x{mat.shape[1]}), vec ({vec.shape[0]})")
    return (mat.shape[0],)


def _check_addr(input: Tensor, vec1: Tensor, vec2: Tensor) -> tuple[int, ...]:  # noqa: A002
    if vec1.ndim != 1:
        raise TorchRuntimeError(f"addr: Expected 1-D argument vec1, but got {vec1.ndim}-D")
    if vec2.ndim != 1:
        raise TorchRuntimeError(f"addr: Expected 1-D argument vec2, but got {vec2.ndim}-D")
    return (vec1.shape[0], vec2.shape[0])


def batch_sizes_read(b1: Tensor, b2: Tensor) -> None:
    """addbmm/baddbmm read batch1.size(1) and batch2.size(2) for the result's shape before
    they check the batches are 3-D: a tensor of too few dimensions is that IndexError."""
    wrap_dim(1, b1.ndim)
    wrap_dim(2, b2.ndim)


def _check_addbmm(input: Tensor, b1: Tensor, b2: Tensor) -> tuple[int, ...]:  # noqa: A002
    batch_sizes_read(b1, b2)
    shape = (b1.shape[1], b2.shape[2])
    if tuple(input.shape) != shape:  # ATen expands the input before it checks the batches
        _broadcastable(input, shape, "addbmm")
    if b1.ndim != 3:
        raise TorchRuntimeError("batch1 must be a 3D tensor")
    if b2.ndim != 3:
        raise TorchRuntimeError("batch2 must be a 3D tensor")
    if b1.shape[0] != b2.shape[0]:
        raise TorchRuntimeError(f"batch1 and batch2 must have same number of batches, got "
                                f"{b1.shape[0]} and {b2.shape[0]}")
    if b1.shape[2] != b2.shape[1]:
        raise TorchRuntimeError(f"Incompatible matrix sizes for bmm ({b1.shape[1]}x{b1.shape[2]} "
                                f"and {b2.shape[1]}x{b2.shape[2]})")
    if b1.shape[0]:  # (addmm_ of each batch into the result: addmm's dtype checks)
        if input.dtype is not b2.dtype:
            raise TorchRuntimeError(f"self and mat2 must have the same dtype, but got "
                                    f"{input.dtype.short} and {b2.dtype.short}")
        if b1.dtype is not b2.dtype:
            raise TorchRuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                                    f"{b1.dtype.short} and {b2.dtype.short}")
    return shape


_OPS = {"addmv": (AddmvBackward0, _check_addmv, ("mat", "vec")),
        "addr": (AddrBackward0, _check_addr, ("vec1", "vec2")),
        "addbmm": (AddbmmBackward0, _check_addbmm, ("batch1", "batch2"))}


def _apply(name: str, input: Tensor, a: Tensor, b: Tensor, beta: Any, alpha: Any,  # noqa: A002
           inplace: bool) -> Tensor:
    node, check, (first, second) = _OPS[name]
    input = _check_tensor(input, name)
    a = _check_tensor(a, name, first, 2)
    b = _check_tensor(b, name, second, 3)
    shape = check(input, a, b)
    if inplace:
        if tuple(input.shape) != shape:
            raise TorchRuntimeError(f"output with shape {list(input.shape)} doesn't match the "
                                    f"broadcast shape {list(shape)}")
        return apply_inplace(node, input, a, b, beta=beta, alpha=alpha)
    if tuple(input.shape) != shape:
        _broadcastable(input, shape, name)
    cls: type[Function] = node
    return cls.apply(input, a, b, beta=beta, alpha=alpha)  # type: ignore[no-any-return]


def _broadcastable(input: Tensor, shape: tuple[int, ...], name: str) -> None:  # noqa: A002
    """expand_size's check of the input against the result's shape: expand's own errors."""
    expand(input, *shape)


def check_baddbmm_input(input: Tensor, b1: Tensor, b2: Tensor) -> None:  # noqa: A002
    """baddbmm's reads of the batch sizes, its expand of the input and its check of the input's
    dtype against batch1's, before the 3-D checks (TORCH_META_FUNC(baddbmm))."""
    batch_sizes_read(b1, b2)
    shape = (b1.shape[0], b1.shape[1], b2.shape[2])
    if tuple(input.shape) != shape:
        _broadcastable(input, shape, "baddbmm")
    if input.dtype is not b1.dtype:
        names = [_C_TYPE_NAMES[t.dtype.name] for t in (input, b1, b2)]
        raise TorchRuntimeError("Input dtypes must be the same, got: input {}, batch1: {}, "
                                "batch2: {}".format(*names))


@guarded
def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1,  # noqa: A002
          alpha: Any = 1) -> Tensor:
    return _apply("addmv", input, mat, vec, beta, alpha, False)


@guarded
def addmv_(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1,  # noqa: A002
           alpha: Any = 1) -> Tensor:
    return _apply("addmv", input, mat, vec, beta, alpha, True)


@guarded
def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1,  # noqa: A002
         alpha: Any = 1) -> Tensor:
    return _apply("addr", input, vec1, vec2, beta, alpha, False)


@guarded
def addr_(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1,  # noqa: A002
          alpha: Any = 1) -> Tensor:
    return _apply("addr", input, vec1, vec2, beta, alpha, True)


@guarded
def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1,  # noqa: A002
           alpha: Any = 1) -> Tensor:
    return _apply("addbmm", input, batch1, batch2, beta, alpha, False)


@guarded
def addbmm_(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1,  # noqa: A002
            alpha: Any = 1) -> Tensor:
    return _apply("addbmm", input, batch1, batch2, beta, alpha, True)
