"""torch.distributions.exp_family: exponential families, whose entropy (and KL divergence
between two of the same family) follows from the log normalizer by autograd."""

from __future__ import annotations

from typing import Any

import gradsh.torch as torch
from gradsh.torch.distributions.distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """p(x; theta) = exp(<t(x), theta> - F(theta) + k(x)): subclasses give the natural
    parameters theta, the log normalizer F and the carrier measure's mean E[k(x)]."""

    @property
    def _natural_params(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def _log_normalizer(self, *natural_params: Any) -> Any:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> float:
        raise NotImplementedError

    def entropy(self) -> Any:
        """The entropy via Bregman divergences: F(theta) - <theta, grad F(theta)> - E[k]."""
        result: Any = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = torch.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result += lg_normal
        for np_, g in zip(nparams, gradients):
            result -= (np_ * g).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
