"""Nodes of the random in-place fills (bernoulli_, uniform_, normal_, random_, exponential_,
cauchy_, log_normal_, geometric_) and of torch.normal with tensor arguments."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import xp_of
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = [
    "BernoulliBackward0", "BernoulliBackward1", "BernoulliBackward2", "BernoulliNotImplemented",
    "UniformBackward0", "NormalBackward0", "RandomBackward0",
    "RandomBackward1", "RandomBackward2", "NormalBackward1", "NormalBackward2", "NormalBackward3",
    "ExponentialBackward0", "CauchyBackward0", "LogNormalBackward0", "GeometricBackward0",
]


class BernoulliBackward0(Function):
    """torch.bernoulli(p): 0/1 draws with the probabilities in p, made beforehand; the
    gradient through them is zero."""

    node_name = "BernoulliBackward0"

    def forward(self, p: Tensor, draws: Array) -> Array:
        return draws

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class BernoulliBackward1(Function):
    """x.bernoulli_(p) with a tensor p: the draws (made beforehand) written in place; zero
    gradients for x and p."""

    node_name = "BernoulliBackward1"

    def forward(self, a: Tensor, p: Tensor, draws: Array) -> Array:
        return draws

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad), F.zeros_like(grad))


class BernoulliBackward2(Function):
    """bernoulli_(p) with a number p: 0/1 draws (uniform doubles < p, PyTorch CPU's stream)
    written in place; the gradient through it is zero."""

    node_name = "BernoulliBackward2"

    def forward(self, a: Tensor, p: float, draws: Array) -> Array:
        xp = xp_of(a._data)
        return xp.asarray(draws < p, dtype=a._data.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class BernoulliNotImplemented(Function):
    """torch.bernoulli(x, p) with a number p, which PyTorch gives no derivative: a node that
    raises when backward reaches it. `draws` are made beforehand (bernoulli_'s)."""

    node_name = "NotImplemented"
    qualified_name = "torch::autograd::NotImplemented"

    def forward(self, a: Tensor, draws: Array) -> Array:
        return draws

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        raise TorchRuntimeError("derivative for aten::bernoulli is not implemented")


class UniformBackward0(Function):
    """uniform_(from, to) in place; its gradient is zero."""

    node_name = "UniformBackward0"

    def forward(self, a: Tensor, draws: Array) -> Array:
        return draws

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class NormalBackward0(UniformBackward0):
    """normal_(mean, std) in place; its gradient is zero."""

    node_name = "NormalBackward0"


class RandomBackward0(UniformBackward0):
    """random_(from, to) in place; its gradient is zero."""

    node_name = "RandomBackward0"


class RandomBackward1(UniformBackward0):
    """random_(to) in place; its gradient is zero."""

    node_name = "RandomBackward1"


class RandomBackward2(UniformBackward0):
    """random_() in place; its gradient is zero."""

    node_name = "RandomBackward2"


class ExponentialBackward0(UniformBackward0):
    """exponential_(lambd) in place; its gradient is zero."""

    node_name = "ExponentialBackward0"


class CauchyBackward0(UniformBackward0):
    """cauchy_(median, sigma) in place; its gradient is zero."""

    node_name = "CauchyBackward0"


class LogNormalBackward0(UniformBackward0):
    """log_normal_(mean, std) in place; its gradient is zero."""

    node_name = "LogNormalBackward0"


class GeometricBackward0(UniformBackward0):
    """geometric_(p) in place; its gradient is zero."""

    node_name = "GeometricBackward0"


class _NormalOfTensors(Function):
    """torch.normal with a tensor mean and/or std: the draws are computed by the op (`values`);
    derivatives.yaml gives each tensor argument a zero gradient of its own shape."""

    def forward(self, *inputs: Tensor, values: Array) -> Array:
        return values

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # zeros of the output's shape: the engine sums each back to its input's shape
        return tuple(F.zeros_like(grad) if need else None for need in self.needs_input_grad)


class NormalBackward1(_NormalOfTensors):
    """normal(mean: Tensor, std: float)."""

    node_name = "NormalBackward1"


class NormalBackward2(_NormalOfTensors):
    """normal(mean: float, std: Tensor)."""

    node_name = "NormalBackward2"


class NormalBackward3(_NormalOfTensors):
    """normal(mean: Tensor, std: Tensor)."""

    node_name = "NormalBackward3"
