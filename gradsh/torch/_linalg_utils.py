"""The linear-algebra functions PyTorch removed in 1.9 but still names (torch/_linalg_utils.py):
torch.eig, torch.symeig, torch.lstsq, torch.solve, torch.matrix_rank and the Tensor methods
eig, symeig, lstsq and solve. Each raises PyTorch's RuntimeError pointing to its torch.linalg
replacement, which old tutorials print when run today."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError

__all__ = ["eig", "symeig", "lstsq", "solve", "matrix_rank"]

_REMOVED = "This function was deprecated since version 1.9 and is now removed."


def matrix_rank(input: Any, tol: Any = None, symmetric: bool = False, *, out: Any = None) -> Any:
    raise TorchRuntimeError(
        f"{_REMOVED}\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter "
        "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


def solve(input: Any, A: Any, *, out: Any = None) -> Any:
    raise TorchRuntimeError(
        f"{_REMOVED} `torch.solve` is deprecated in favor of `torch.linalg.solve`. "
        "`torch.linalg.solve` has its arguments reversed and does not return the LU "
        "factorization.\n\nTo get the LU factorization see `torch.lu`, which can be used with "
        "`torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution should be "
        "replaced with:\nX = torch.linalg.solve(A, B)")


def lstsq(input: Any, A: Any, *, out: Any = None) -> Any:
    raise TorchRuntimeError(
        f"{_REMOVED} `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
        "`torch.linalg.lstsq` has reversed arguments and does not return the QR decomposition "
        "in the returned tuple (although it returns other information about the problem).\n\n"
        "To get the QR decomposition consider using `torch.linalg.qr`.\n\nThe returned solution "
        "in `torch.lstsq` stored the residuals of the solution in the last m - n columns of the "
        "returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the field "
        "'residuals' of the returned named tuple.\n\nThe unpacking of the solution, as in\n"
        "X, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced with:\n"
        "X = torch.linalg.lstsq(A, B).solution")


def symeig(input: Any, eigenvectors: bool = False, upper: bool = True, *, out: Any = None) -> Any:
    raise TorchRuntimeError(
        f"{_REMOVED} The default behavior has changed from using the upper triangular portion "
        "of the matrix by default to using the lower triangular portion.\n\n"
        "L, _ = torch.symeig(A, upper=upper) should be replaced with:\n"
        "L = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\n"
        "L, V = torch.symeig(A, eigenvectors=True) should be replaced with:\n"
        "L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')")


symeig.__name__ = "_symeig"  # (PyTorch's torch.symeig is torch._linalg_utils._symeig)


def eig(self: Any, eigenvectors: bool = False, *, e: Any = None, v: Any = None) -> Any:
    raise TorchRuntimeError(
        f"{_REMOVED} `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` "
        "rather than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be "
        "replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\n"
        "L, V = torch.eig(A, eigenvectors=True) should be replaced with:\n"
        "L_complex, V_complex = torch.linalg.eig(A)")


def _method_solve(self: Any, other: Any) -> Any:
    return solve(self, other)


def _method_lstsq(self: Any, other: Any) -> Any:
    return lstsq(self, other)


def _method_eig(self: Any, eigenvectors: bool = False) -> Any:
    return eig(self, eigenvectors=eigenvectors)


def _method_symeig(self: Any, eigenvectors: bool = False) -> Any:
    return symeig(self, eigenvectors=eigenvectors)


# torch.Tensor's methods of the same names (Python functions in PyTorch: Tensor.eig() ...)
METHODS = {"solve": _method_solve, "lstsq": _method_lstsq, "eig": _method_eig,
           "symeig": _method_symeig}
for _name, _function in METHODS.items():
    _function.__qualname__ = f"Tensor.{_name}"
