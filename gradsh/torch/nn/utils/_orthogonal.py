"""torch.nn.utils.parametrizations.orthogonal: a matrix (or batch of them) kept orthogonal as
the image of an unconstrained one under the matrix exponential, the Cayley map or Householder
reflectors, PyTorch's steps (and random draws, for a tall or wide right_inverse) in its order."""

from __future__ import annotations

from enum import Enum, auto
from typing import Any

import gradsh.torch as torch
from gradsh.torch.nn.modules.module import Module
from gradsh.torch.nn.utils import parametrize

__all__ = ["orthogonal"]


def _is_orthogonal(Q: Any, eps: float | None = None) -> bool:  # noqa: N803  (PyTorch's names)
    n, k = Q.size(-2), Q.size(-1)
    Id = torch.eye(k, dtype=Q.dtype, device=Q.device)  # noqa: N806
    eps = 10.0 * n * torch.finfo(Q.dtype).eps
    return bool(torch.allclose(Q.mH @ Q, Id, atol=eps))


def _make_orthogonal(A: Any) -> Any:  # noqa: N803
    """The Q of A = QR (A tall) with R's diagonal non-negative."""
    X, tau = torch.geqrf(A)  # noqa: N806
    Q = torch.linalg.householder_product(X, tau)  # noqa: N806
    Q *= X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)
    return Q


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    def __init__(self, weight: Any, orthogonal_map: _OrthMaps, *,
                 use_trivialization: bool = True) -> None:
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex "
                             "tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: Any) -> Any:  # noqa: N803
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT  # noqa: N806
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = X.tril()  # noqa: N806
            if n != k:
                X = torch.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)],  # noqa
                              dim=-1)
            A = X - X.mH  # noqa: N806
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = torch.matrix_exp(A)  # noqa: N806
            else:
                Id = torch.eye(n, dtype=A.dtype, device=A.device)  # noqa: N806
                Q = torch.linalg.solve(torch.add(Id, A, alpha=-0.5),  # noqa: N806
                                       torch.add(Id, A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]  # noqa: N806
        else:
            A = X.tril(diagonal=-1)  # noqa: N806
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = torch.linalg.householder_product(A, tau)  # noqa: N806
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)  # noqa: N806
        if hasattr(self, "base"):
            Q = self.base @ Q  # noqa: N806
        if transposed:
            Q = Q.mT  # noqa: N806
        return Q

    def right_inverse(self, Q: Any) -> Any:  # noqa: N803
        with torch.no_grad():
            return self._right_inverse(Q)

    def _right_inverse(self, Q: Any) -> Any:  # noqa: N803
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        Q_init = Q  # noqa: N806
        n, k = Q.size(-2), Q.size(-1)
        transpose = n < k
        if transpose:
            Q = Q.mT  # noqa: N806
            n, k = k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise NotImplementedError("It is not possible to assign to the matrix "
                                          "exponential or the Cayley parametrizations when "
                                          "use_trivialization=False.")
            A, tau = torch.geqrf(Q)  # noqa: N806
            A.diagonal(dim1=-2, dim2=-1).sign_()
            A.diagonal(dim1=-2, dim2=-1)[tau == 0.0] *= -1
            return A.mT if transpose else A
        if n == k:
            Q = _make_orthogonal(Q) if not _is_orthogonal(Q) else Q.clone()  # noqa: N806
        else:
            N = torch.randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype,  # noqa: N806
                            device=Q.device)
            Q = _make_orthogonal(torch.cat([Q, N], dim=-1))  # noqa: N806
        self.base = Q
        neg_Id = torch.zeros_like(Q_init)  # noqa: N806
        neg_Id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_Id


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Make `module.name` orthogonal (its rows or columns orthonormal, whichever are fewer)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. "
                         f"Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = ("matrix_exp" if weight.size(-2) == weight.size(-1)
                          or weight.is_complex() else "householder")
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module
