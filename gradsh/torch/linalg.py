"""torch.linalg: norms, inverses, determinants, solvers and decompositions."""

from __future__ import annotations

import math

from gradsh.engine import autocast, ops
from gradsh.engine.exceptions import TorchLinAlgError as LinAlgError
from gradsh.engine.ops.guard import prefixed_names
from gradsh.torch._functions import as_tensor
from gradsh.torch._missing import module_getattr
from gradsh.torch._settings import finfo

__getattr__ = module_getattr("torch.linalg")

vector_norm = ops.vector_norm
matrix_norm = ops.matrix_norm
matrix_exp = ops.linalg_matrix_exp
norm = ops.linalg_norm
inv = ops.linalg_inv
inv_ex = ops.inv_ex
det = ops.det
slogdet = ops.linalg_slogdet
solve = ops.linalg_solve
solve_ex = ops.solve_ex
solve_triangular = ops.solve_triangular
cholesky = ops.linalg_cholesky
cholesky_ex = ops.cholesky_ex
qr = ops.qr
svd = ops.linalg_svd
svdvals = ops.svdvals
eigh = ops.eigh
eigvalsh = ops.eigvalsh
eig = ops.eig
eigvals = ops.eigvals
pinv = ops.pinv
cond = ops.cond
matrix_rank = ops.matrix_rank
lstsq = ops.lstsq
matrix_power = ops.matrix_power
matmul = ops.matmul
householder_product = ops.householder_product
lu_factor = ops.linalg_lu_factor
lu_factor_ex = ops.lu_factor_ex
lu = ops.linalg_lu
lu_solve = ops.linalg_lu_solve
ldl_factor = ops.ldl_factor
ldl_factor_ex = ops.ldl_factor_ex
ldl_solve = ops.ldl_solve


def cross(input, other, *, dim=-1, out=None):  # noqa: A002  (PyTorch's names)
    """torch.linalg.cross: torch.cross along dim, which defaults to the last."""
    return ops.cross(input, other, dim=dim) if out is None else \
        ops.cross(input, other, dim=dim, out=out)


def vecdot(x, y, *, dim=-1):
    """torch.linalg.vecdot: the dot product along dim (conjugating x, a no-op for reals); in
    a CPU autocast region its inputs in the lower precision (AutocastCPU lists it)."""
    x, y = autocast.lower(x, y)
    return ops.sum(ops.mul(x, y), dim)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):  # noqa: N803  (PyTorch's name)
    return ops.diagonal(A, offset, dim1, dim2)


def multi_dot(tensors, *, out=None):
    """torch.linalg.multi_dot as ATen's multi_dot_impl: a 1-d first (last) tensor is a row
    (column) vector, three matrices in the cheaper of the two orders, more in the matrix-chain
    order, the result viewed to the output's shape."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    mats = list(tensors)
    out_shape = []
    for end, position in ((0, 0), (n - 1, -1)):
        t = tensors[end]
        if t.dim() == 1:
            mats[end] = ops.unsqueeze(t, position)
        elif t.dim() == 2:
            out_shape.append(t.shape[0] if end == 0 else t.shape[1])
        else:
            which = "first" if end == 0 else "last"
            raise RuntimeError(f"multi_dot(): the {which} tensor must be 1D or 2D but got "
                               f"{t.dim()}D")
    for i in range(1, n - 1):
        if tensors[i].dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {tensors[i].dim()}D")
    for i in range(n - 1):
        if mats[i].shape[1] != mats[i + 1].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes "
                               f"{list(tensors[i].shape)} and {list(tensors[i + 1].shape)} "
                               "cannot be multiplied")
    if n == 2:
        result = ops.mm(mats[0], mats[1])
    elif n == 3:
        a, b = mats[0].shape
        c, d = mats[2].shape
        if (a * c) * (b + d) > (b * d) * (a + c):
            result = ops.mm(mats[0], ops.mm(mats[1], mats[2]))
        else:
            result = ops.mm(ops.mm(mats[0], mats[1]), mats[2])
    else:
        result = _chain(mats, _chain_order(mats), 0, n - 1)
    return ops.view(result, out_shape)


def _chain_order(mats):
    """ATen's matrix_chain_order: split[i][j], where multiplying mats i..j splits cheapest."""
    n = len(mats)
    p = [m.shape[0] for m in mats] + [mats[-1].shape[1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain(mats, split, i, j):
    if i == j:
        return mats[i]
    k = split[i][j]
    return ops.mm(_chain(mats, split, i, k), _chain(mats, split, k + 1, j))


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):  # noqa: N803
    """ATen's linalg_matrix_rank: the singular values (|eigenvalues| when hermitian) above
    max(atol, rtol * the largest), counted; rtol defaults to eps * max(m, n) unless atol > 0.
    The old `tol` argument is atol with rtol 0."""
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least "
                           "2 dimensions.")
    if tol is not None:
        atol, rtol = tol, 0.0
    S = ops.abs(ops.eigvalsh(A)) if hermitian else ops.svdvals(A)
    real = S.dtype
    if atol is None:
        atol_t = ops.zeros((), dtype=real)
    else:
        atol_t = as_tensor(atol, dtype=real)
    if rtol is None:
        default = ops.full((), finfo(real).eps * max(A.shape[-1], A.shape[-2]), dtype=real)
        rtol_t = default if atol is None else ops.where(atol_t > 0, ops.zeros((), dtype=real),
                                                        default)
    else:
        rtol_t = as_tensor(rtol, dtype=real)
    max_s = ops.amax(S, -1, True)
    tolerance = ops.maximum(ops.unsqueeze(atol_t, -1), ops.unsqueeze(rtol_t, -1) * max_s)
    result = ops.sum(S > tolerance, -1)
    return result if out is None else out.copy_(result)


def tensorinv(A, ind=2, *, out=None):  # noqa: N803
    """The inverse of A read as a prod(shape[:ind]) square matrix, shaped shape[ind:] +
    shape[:ind]."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    start, end = list(A.shape[:ind]), list(A.shape[ind:])
    n_start, n_end = math.prod(start), math.prod(end)
    if n_start != n_end:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {n_end} != {n_start}")
    result = ops.reshape(ops.linalg_inv(ops.reshape(A, (n_end, n_end))), end + start)
    return result if out is None else out.copy_(result)


def tensorsolve(A, B, dims=None, *, out=None):  # noqa: N803
    """X with tensordot(A, X, X.ndim) == B: A (its `dims` moved last) read as a square
    matrix, solved against B flattened."""
    if dims is not None:
        moved = [d % A.dim() for d in dims]
        A = ops.permute(A, [d for d in range(A.dim()) if d not in moved] + moved)
    result_shape = list(A.shape[B.dim():])
    n_result, n_other = math.prod(result_shape), math.prod(A.shape[:B.dim()])
    if n_result != n_other:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) "
                           f"== prod(self.shape[:other.ndim]), but got {n_result} != {n_other}")
    solved = ops.linalg_solve(ops.reshape(A, (n_result, n_result)), ops.flatten(B))
    result = ops.reshape(solved, result_shape)
    return result if out is None else out.copy_(result)


__all__ = ["LinAlgError", "vector_norm", "matrix_norm", "norm", "inv", "inv_ex", "det",
           "slogdet", "solve", "solve_ex", "solve_triangular", "cholesky", "cholesky_ex", "qr",
           "svd", "svdvals", "eigh", "eigvalsh", "pinv", "matrix_exp", "matrix_power", "matmul",
           "cross", "vecdot", "diagonal", "multi_dot", "matrix_rank", "tensorinv",
           "tensorsolve"]
globals().update(prefixed_names(globals(), "linalg_", __all__))


from gradsh.torch._builtins import as_torchs as _as_torchs  # noqa: E402

_as_torchs(globals(), "torch.linalg")  # PyTorch's C functions as builtins (their reprs)
