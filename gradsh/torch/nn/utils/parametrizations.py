"""torch.nn.utils.parametrizations: weight_norm, spectral_norm and orthogonal (_orthogonal.py)
as parametrizations (the module's NAME computed from parametrizations.NAME.original*),
PyTorch's steps and draws."""

from __future__ import annotations

from typing import Any

import gradsh.torch as torch
from gradsh.torch._missing import module_getattr
from gradsh.torch.nn import functional as F
from gradsh.torch.nn.modules.module import Module
from gradsh.torch.nn.utils import parametrize

from gradsh.torch.nn.utils._orthogonal import orthogonal

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]

__getattr__ = module_getattr("torch.nn.utils.parametrizations")


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Any, weight_v: Any) -> Any:
        return torch._weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: Any) -> tuple[Any, Any]:
        return torch.norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """module.NAME = g * v / ||v|| from original0 (g) and original1 (v); a state dict of the old
    hook API (NAME_g, NAME_v) still loads."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def compat(_module: Any, state_dict: Any, prefix: str, *args: Any) -> None:
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(g_key)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(v_key)

    module.register_load_state_dict_pre_hook(compat)
    return module


class _SpectralNorm(Module):
    """weight / sigma, sigma the largest singular value estimated by power iteration (u and v
    kept as buffers, 15 iterations at the start, n_power_iterations per training forward)."""

    def __init__(self, weight: Any, n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, "
                             f"{ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: Any) -> Any:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat: Any, n_power_iterations: int) -> None:
        with torch.no_grad():
            for _ in range(n_power_iterations):
                self._u = F.normalize(torch.mv(weight_mat, self._v), dim=0, eps=self.eps,
                                      out=self._u)
                self._v = F.normalize(torch.mv(weight_mat.H, self._u), dim=0, eps=self.eps,
                                      out=self._v)

    def forward(self, weight: Any) -> Any:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone(memory_format=torch.contiguous_format)
        v = self._v.clone(memory_format=torch.contiguous_format)
        sigma = torch.vdot(u, torch.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value: Any) -> Any:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Module:
    """module.NAME divided by its spectral norm (dim 1 for the transposed convolutions)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        transposed = tuple(getattr(torch.nn, n) for n in ("ConvTranspose1d", "ConvTranspose2d")
                           if hasattr(torch.nn, n))
        dim = 1 if isinstance(module, transposed) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
