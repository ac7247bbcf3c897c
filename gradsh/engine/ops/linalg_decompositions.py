"""torch.linalg's decompositions and norms: qr, svd (torch.svd), svdvals, eigh, eigvalsh,
pinv (torch.pinverse), matrix_norm and norm; and F.la, the batched matrix helpers backward
formulas call under create_graph."""

from __future__ import annotations

import math
from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.linalg_decompositions import (
    LinalgEighBackward0,
    LinalgPinvBackward0,
    LinalgQrBackward0,
    LinalgSvdBackward0,
)
from gradsh.engine.ops.arguments import _check_tensor, normalize_dims
from gradsh.engine.ops.copies import to
from gradsh.engine.ops.creation import eye, zeros
from gradsh.engine.ops.diagonal import diagonal
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.indexing import index_put
from gradsh.engine.ops.joining import cat
from gradsh.engine.ops.linalg import matmul, tril, triu
from gradsh.engine.ops.linalg_solvers import (
    RETURN_TYPES_LINALG,
    _floating,
    _kernel,
    _matrix,
    _square,
    det,
    linalg_solve,
    solve_triangular,
)
from gradsh.engine.ops.reductions import amax, amin, sum, vector_norm
from gradsh.engine.ops.selection import where
from gradsh.engine.ops.shape import expand, narrow, permute, squeeze, transpose, unsqueeze
from gradsh.engine.tensor import Tensor, TensorOps, is_grad_enabled

__all__ = ["qr", "linalg_svd", "svd", "svdvals", "eigh", "eigvalsh", "pinv", "pinverse",
           "matrix_norm", "linalg_norm"]


# ---------------------------------------------------------------------------------------------
# qr, svd, eigh, pinv
# ---------------------------------------------------------------------------------------------


@guarded(name="linalg_qr")
def qr(A: Tensor, mode: str = "reduced") -> Any:  # noqa: N803
    """torch.linalg.qr: (Q, R) from one LinalgQrBackward0; mode='r' returns an empty Q."""
    A = _check_tensor(A, "linalg_qr")
    _matrix(A, "linalg.qr")
    _floating(A, "linalg.qr")
    if mode not in ("reduced", "r", "complete"):
        raise TorchRuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                                "'reduced' (default), 'r', or 'complete'")
    _kernel(A, "geqrf_cpu")
    return RETURN_TYPES_LINALG["linalg_qr"](*LinalgQrBackward0.apply_all(A, mode=mode))


def _svd_checks(A: Tensor, driver: Any) -> None:
    _matrix(A, "linalg.svd")
    _floating(A, "linalg.svd")
    if driver is not None:
        raise TorchRuntimeError("torch.linalg.svd: keyword argument `driver=` is only "
                                "supported on CUDA inputs with cuSOLVER backend.")
    _kernel(A, "linalg_svd_cpu")


@guarded(name="linalg_svd")
def linalg_svd(A: Tensor, full_matrices: bool = True, *, driver: Any = None) -> Any:  # noqa: N803
    """torch.linalg.svd: (U, S, Vh) from one LinalgSvdBackward0."""
    A = _check_tensor(A, "linalg_svd")
    _svd_checks(A, driver)
    return RETURN_TYPES_LINALG["linalg_svd"](
        *LinalgSvdBackward0.apply_all(A, full_matrices=bool(full_matrices)))


@guarded(name="linalg_svdvals")
def svdvals(A: Tensor, *, driver: Any = None) -> Tensor:  # noqa: N803
    """torch.linalg.svdvals: S; with a gradient to compute, the SVD's node (output 1)."""
    A = _check_tensor(A, "linalg_svdvals")
    _svd_checks(A, driver)
    return LinalgSvdBackward0.apply_all(A, full_matrices=False,
                                        compute_uv=is_grad_enabled() and A.requires_grad)[1]


@guarded
def svd(input: Tensor, some: bool = True, compute_uv: bool = True) -> Any:  # noqa: A002
    """torch.svd: (U, S, V) with V = Vh.mH (TransposeBackward0 of the SVD's Vh); without
    compute_uv, zero U and V."""
    input = _check_tensor(input, "svd")
    if input.ndim < 2:
        raise TorchRuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has "
                                f"{input.ndim} dimensions instead")
    _svd_checks(input, None)
    if not compute_uv:
        S = LinalgSvdBackward0.apply_all(
            input, full_matrices=False,
            compute_uv=is_grad_enabled() and input.requires_grad)[1]
        m, n = input.shape[-2:]
        batch = tuple(input.shape[:-2])
        U = zeros(batch + (m, m), dtype=input.dtype, device=input.device)
        V = zeros(batch + (n, n), dtype=input.dtype, device=input.device)
        return RETURN_TYPES_LINALG["svd"](U, S, V)
    U, S, Vh = LinalgSvdBackward0.apply_all(input, full_matrices=not some)
    return RETURN_TYPES_LINALG["svd"](U, S, transpose(Vh, -2, -1))


def _eigh_checks(A: Tensor, UPLO: Any) -> None:  # noqa: N803
    _square(A, "linalg.eigh")
    if not isinstance(UPLO, str) or UPLO.upper() not in ("L", "U") or len(UPLO) != 1:
        raise TorchRuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    _kernel(A, "linalg_eigh_cpu")  # (no floating-point check first: the kernel's dispatch)


@guarded(name="linalg_eigh")
def eigh(A: Tensor, UPLO: str = "L") -> Any:  # noqa: N803
    """torch.linalg.eigh: (eigenvalues, eigenvectors) from one LinalgEighBackward0."""
    A = _check_tensor(A, "linalg_eigh")
    _eigh_checks(A, UPLO)
    return RETURN_TYPES_LINALG["linalg_eigh"](
        *LinalgEighBackward0.apply_all(A, UPLO=UPLO.upper()))


@guarded(name="linalg_eigvalsh")
def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:  # noqa: N803
    A = _check_tensor(A, "linalg_eigvalsh")
    _eigh_checks(A, UPLO)
    # eigenvectors only where a gradient may need them (ATen's _may_require_fw_or_bw_grad)
    return LinalgEighBackward0.apply_all(A, UPLO=UPLO.upper(),
                                         compute_v=is_grad_enabled() and A.requires_grad)[0]


def _pinv_checks(A: Tensor) -> None:
    if not (A.dtype in (dtypes.float32, dtypes.float64) and A.ndim >= 2):
        shape = ", ".join(str(n) for n in A.shape)
        raise TorchRuntimeError(f"linalg.pinv({A.dtype.short}{{[{shape}]}}): expected a tensor "
                                "with 2 or more dimensions of float, double, cfloat or cdouble "
                                "types")


@guarded(name="linalg_pinv")
def pinv(A: Tensor, *, atol: Any = None, rtol: Any = None,  # noqa: N803
         hermitian: bool = False) -> Tensor:
    """torch.linalg.pinv (LinalgPinvBackward0)."""
    A = _check_tensor(A, "linalg_pinv")
    _pinv_checks(A)
    return LinalgPinvBackward0.apply(A, atol=_number(atol), rtol=_number(rtol),
                                     hermitian=bool(hermitian))


def _number(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value._data.item()
    return value


@guarded
def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:  # noqa: A002
    """torch.pinverse: linalg.pinv with rtol=rcond."""
    input = _check_tensor(input, "pinverse")
    _pinv_checks(input)
    return LinalgPinvBackward0.apply(input, atol=None, rtol=float(rcond), hermitian=False)


# ---------------------------------------------------------------------------------------------
# norms
# ---------------------------------------------------------------------------------------------


def _backshift(d0: int, d1: int, ndim: int) -> tuple[int, ...]:
    return tuple(d for d in range(ndim) if d not in (d0, d1)) + (d0, d1)


def _inverse_permutation(perm: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * len(perm)
    for i, p in enumerate(perm):
        out[p] = i
    return tuple(out)


@guarded(name="linalg_matrix_norm")
def matrix_norm(A: Tensor, ord: Any = "fro", dim: Any = (-2, -1),  # noqa: A002,N803
                keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """torch.linalg.matrix_norm: 'fro' as vector_norm over both dims, 'nuc' and ±2 from
    svdvals, ±1 and ±inf as amax/amin of column or row sums."""
    A = _check_tensor(A, "linalg_matrix_norm")
    name = "linalg.matrix_norm"
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise TorchRuntimeError(f"{name}: Order {ord} not supported.")
        low_precision = ord != "nuc"
    else:
        abs_ord = abs(float(ord))
        if abs_ord not in (1.0, 2.0, math.inf):
            raise TorchRuntimeError(f"{name}: Order {_scalar_text(ord)} not supported.")
        low_precision = abs_ord != 2.0
    _matrix(A, name)
    _floating(A, name, low_precision)
    dims = [int(d) for d in (dim if isinstance(dim, (tuple, list)) else (dim,))]
    if len(dims) != 2:
        raise TorchRuntimeError(f"{name}: dim must be a 2-tuple. Got {' '.join(map(str, dims))}")
    d0, d1 = normalize_dims(dims[0], A.ndim)[0], normalize_dims(dims[1], A.ndim)[0]
    if d0 == d1:
        raise TorchRuntimeError(f"{name}: dims must be different. Got ({d0}, {d1})")
    if dtype is not None:
        A_ = to(A, dtype)
    else:
        A_ = A
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype)
    if ord == "nuc" or abs(float(ord)) == 2.0:
        perm = _backshift(d0, d1, A_.ndim)
        values = svdvals(permute(A_, perm))
        if ord == "nuc":
            result = sum(values, -1, keepdim)
        else:
            result = (amax if float(ord) > 0 else amin)(values, -1, keepdim)
        if keepdim:
            result = permute(unsqueeze(result, -1), _inverse_permutation(perm))
        return result
    if abs(float(ord)) == math.inf:
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    sums = vector_norm(A, 1.0, (d0,), keepdim, dtype=dtype)
    return (amax if float(ord) > 0 else amin)(sums, d1, keepdim)


def _scalar_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@guarded(name="linalg_norm")
def linalg_norm(A: Tensor, ord: Any = None, dim: Any = None,  # noqa: A002,N803
                keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """torch.linalg.norm: a matrix norm for 2 dims (given, or a 2-d input with ord given),
    the vector norm otherwise."""
    A = _check_tensor(A, "linalg_norm")
    dims = None if dim is None else [int(d) for d in (
        dim if isinstance(dim, (tuple, list)) else (dim,))]
    if dims is not None:
        if len(dims) not in (1, 2):
            typo = "mut" if isinstance(ord, str) else "must"
            raise TorchRuntimeError(f"linalg.norm: If dim is specified, it {typo} be of length "
                                    f"1 or 2. Got [{', '.join(map(str, dims))}]")
    elif ord is not None and A.ndim not in (1, 2):
        raise TorchRuntimeError("linalg.norm: If dim is not specified but ord is, the input "
                                f"must be 1D or 2D. Got {A.ndim}D.")
    if isinstance(ord, str):
        return matrix_norm(A, ord, tuple(dims) if dims is not None else (0, 1), keepdim,
                           dtype=dtype)
    if ord is not None and ((dims is not None and len(dims) == 2) or (
            dims is None and A.ndim == 2)):
        return matrix_norm(A, ord, tuple(dims) if dims is not None else (0, 1), keepdim,
                           dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, None if dims is None else tuple(dims),
                       keepdim, dtype=dtype)


# ---------------------------------------------------------------------------------------------
# F.la under create_graph: the same helpers as differentiable ops
# ---------------------------------------------------------------------------------------------


class TensorLinalg:
    matmul = staticmethod(matmul)

    @staticmethod
    def mH(a: Tensor) -> Tensor:  # noqa: N802
        return transpose(a, -2, -1)

    @staticmethod
    def solve(a: Tensor, b: Tensor, left: bool = True) -> Tensor:
        return linalg_solve(a, b, left=left)

    @staticmethod
    def solve_triangular(a: Tensor, b: Tensor, upper: bool, left: bool, unit: bool) -> Tensor:
        return solve_triangular(a, b, upper=upper, left=left, unitriangular=unit)

    @staticmethod
    def tril(a: Tensor, k: int) -> Tensor:
        return tril(a, k)

    @staticmethod
    def triu(a: Tensor, k: int) -> Tensor:
        return triu(a, k)

    @staticmethod
    def diagonal(a: Tensor) -> Tensor:
        return diagonal(a, 0, -2, -1)

    @staticmethod
    def diag_embed(v: Tensor) -> Tensor:
        n = v.shape[-1]
        return unsqueeze(v, -1) * eye(n, dtype=v.dtype, device=v.device)

    @staticmethod
    def expand_last(v: Tensor, n: int) -> Tensor:
        return expand(unsqueeze(v, -1), tuple(v.shape) + (n,))

    @staticmethod
    def unsqueeze(a: Tensor, dim: int) -> Tensor:
        return unsqueeze(a, dim)

    @staticmethod
    def expand(a: Tensor, shape: tuple[int, ...]) -> Tensor:
        return expand(a, shape)

    @staticmethod
    def squeeze_last(a: Tensor) -> Tensor:
        return squeeze(a, -1)

    @staticmethod
    def eye_where(n: int, like: Tensor, on: Any, off: Tensor) -> Tensor:
        mask = eye(n, dtype=dtypes.bool_, device=off.device)
        if isinstance(on, Tensor):
            on = TensorLinalg.diag_embed(on)
        return where(mask, on, off)

    @staticmethod
    def narrow(a: Tensor, dim: int, start: int, length: int) -> Tensor:
        return narrow(a, dim, start, length)

    @staticmethod
    def cat(tensors: list[Tensor], dim: int) -> Tensor:
        return cat(tensors, dim)

    @staticmethod
    def zeros(shape: tuple[int, ...], like: Tensor) -> Tensor:
        return zeros(shape, dtype=like.dtype, device=like.device)

    @staticmethod
    def det_backward(A: Tensor, d: Tensor, grad: Tensor, result: Tensor,  # noqa: N803
                     eps: float) -> Tensor:
        """linalg_det_backward under create_graph: solve(A^H, d) where |det| >= 100 eps, the
        SVD's adjugate formula elsewhere (masked_fmap)."""
        la = TensorLinalg
        mask = (result.abs() < 100.0 * eps)
        singular_count = int(mask._data.sum())

        def nonsingular(M: Tensor) -> Tensor:  # noqa: N803
            return linalg_solve(la.mH(M), d)

        def singular(M: Tensor, g: Tensor) -> Tensor:  # noqa: N803
            U, S, Vh = linalg_svd(M)
            alpha = det(U) * det(Vh) * g
            D = unsqueeze(alpha, -1) * TensorOps.prod_others(  # type: ignore[attr-defined]
                S, S.ndim - 1)
            return matmul(U * unsqueeze(D, -2), Vh)

        if singular_count == mask.numel():
            return singular(A, grad)
        if singular_count == 0:
            return nonsingular(A)
        # each formula on its own matrices (the SVD's of a nonsingular one could be NaN)
        not_mask = mask.logical_not()
        out = zeros(tuple(A.shape), dtype=A.dtype, device=A.device)
        out = index_put(out, (mask,), singular(A[mask], grad[mask]))
        return index_put(out, (not_mask,), linalg_solve(la.mH(A[not_mask]), d[not_mask]))


TensorOps.la = TensorLinalg  # type: ignore[attr-defined]
