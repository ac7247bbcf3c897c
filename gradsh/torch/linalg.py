"""torch.linalg: norms, inverses, determinants, solvers and decompositions."""

from __future__ import annotations

from gradsh.engine import ops
from gradsh.engine.exceptions import TorchLinAlgError as LinAlgError
from gradsh.torch._missing import module_getattr

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
pinv = ops.pinv

__all__ = ["LinAlgError", "vector_norm", "matrix_norm", "norm", "inv", "inv_ex", "det",
           "slogdet", "solve", "solve_ex", "solve_triangular", "cholesky", "cholesky_ex", "qr",
           "svd", "svdvals", "eigh", "eigvalsh", "pinv", "matrix_exp"]
