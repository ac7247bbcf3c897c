"""torch.distributions.distribution: the Distribution base class (shapes, argument and sample
validation, sampling entry points, the printed form)."""

from __future__ import annotations

import warnings
from typing import Any

import gradsh.torch as torch
from gradsh.torch.distributions import constraints
from gradsh.torch.distributions.utils import lazy_property

__all__ = ["Distribution"]


class _DistributionType(type):
    """Distribution classes print as PyTorch's (`<class 'torch.distributions.normal.Normal'>`),
    which some of its messages quote."""

    def __repr__(cls) -> str:
        return f"<class '{cls.__module__.removeprefix('gradsh.')}.{cls.__qualname__}'>"


class Distribution(metaclass=_DistributionType):
    """The abstract base class of probability distributions.

    batch_shape is the shape over which parameters are batched, event_shape the shape of one
    sample. Validation (`validate_args`) is on by default, as Python's `assert` is (off under
    `python -O`): parameters are checked against `arg_constraints` when the distribution is
    made, and values against `support` in log_prob, cdf and icdf.
    """

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Turn validation on or off for every distribution made afterwards."""
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape: Any = torch.Size(), event_shape: Any = torch.Size(),
                 validate_args: bool | None = None) -> None:
        self._batch_shape = batch_shape
        self._event_shape = event_shape
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            try:
                arg_constraints = self.arg_constraints
            except NotImplementedError:
                arg_constraints = {}
                warnings.warn(
                    f"{self.__class__} does not define `arg_constraints`. Please set "
                    "`arg_constraints = {}` or initialize the distribution with "
                    "`validate_args=False` to turn off validation.", stacklevel=2)
            for param, constraint in arg_constraints.items():
                if constraints.is_dependent(constraint):
                    continue  # constraints that cannot be checked
                if param not in self.__dict__ and isinstance(getattr(type(self), param),
                                                             lazy_property):
                    continue  # lazily computed parameters (logits when probs was given)
                value = getattr(self, param)
                if not bool(constraint.check(value).all()):
                    raise ValueError(
                        f"Expected parameter {param} ({type(value).__name__} of shape "
                        f"{tuple(value.shape)}) of distribution {self!r} to satisfy the "
                        f"constraint {constraint!r}, but found invalid values:\n{value}")
        super().__init__()

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """A new distribution with its batch dimensions expanded to batch_shape (the parameters
        are expanded views; nothing is validated again)."""
        raise NotImplementedError

    @property
    def batch_shape(self) -> Any:
        """The shape over which parameters are batched."""
        return self._batch_shape

    @property
    def event_shape(self) -> Any:
        """The shape of a single sample (without batching)."""
        return self._event_shape

    @property
    def arg_constraints(self) -> dict[str, constraints.Constraint]:
        """The constraint each tensor argument must satisfy."""
        raise NotImplementedError

    @property
    def support(self) -> Any:
        """The constraint samples satisfy."""
        raise NotImplementedError

    @property
    def mean(self) -> Any:
        raise NotImplementedError

    @property
    def mode(self) -> Any:
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self) -> Any:
        raise NotImplementedError

    @property
    def stddev(self) -> Any:
        return self.variance.sqrt()

    def sample(self, sample_shape: Any = torch.Size()) -> Any:
        """A sample (or a batch of sample_shape samples), without gradient."""
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Any = torch.Size()) -> Any:
        """A reparameterised sample: differentiable in the parameters."""
        raise NotImplementedError

    def sample_n(self, n: int) -> Any:
        """n samples (deprecated in PyTorch: use sample((n,)))."""
        warnings.warn("`sample_n(n)` will be deprecated. Use `sample((n,))` instead.",
                      FutureWarning, stacklevel=2)
        return self.sample(torch.Size((n,)))

    def log_prob(self, value: Any) -> Any:
        raise NotImplementedError

    def cdf(self, value: Any) -> Any:
        raise NotImplementedError

    def icdf(self, value: Any) -> Any:
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Any:
        raise NotImplementedError

    def entropy(self) -> Any:
        raise NotImplementedError

    def perplexity(self) -> Any:
        return torch.exp(self.entropy())

    def _extended_shape(self, sample_shape: Any = torch.Size()) -> Any:
        """sample_shape + batch_shape + event_shape."""
        if not isinstance(sample_shape, torch.Size):
            sample_shape = torch.Size(sample_shape)
        return torch.Size(sample_shape + self._batch_shape + self._event_shape)

    def _validate_sample(self, value: Any) -> None:
        """PyTorch's checks of a value to score: a tensor, broadcastable to batch_shape +
        event_shape, within the support."""
        if not isinstance(value, torch.Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim_start = len(value.size()) - len(self._event_shape)
        if value.size()[event_dim_start:] != self._event_shape:
            raise ValueError("The right-most size of value must match event_shape: "
                             f"{value.size()} vs {self._event_shape}.")
        actual_shape = value.size()
        expected_shape = self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual_shape), reversed(expected_shape)):
            if i != 1 and j != 1 and i != j:
                raise ValueError("Value is not broadcastable with batch_shape+event_shape: "
                                 f"{actual_shape} vs {expected_shape}.")
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(f"{self.__class__} does not define `support` to enable sample "
                          "validation. Please initialize the distribution with "
                          "`validate_args=False` to turn off validation.", stacklevel=2)
            return
        if support is None:
            raise AssertionError("support is unexpectedly None")
        if not bool(support.check(value).all()):
            raise ValueError(
                f"Expected value argument ({type(value).__name__} of shape "
                f"{tuple(value.shape)}) to be within the support ({support!r}) of the "
                f"distribution {self!r}, but found invalid values:\n{value}")

    def _expand_parameters(self, cls: type, batch_shape: Any, _instance: Any,
                           *names: str) -> Any:
        """expand() of a distribution whose parameters are `names`, each of batch_shape:
        the expanded views on a new instance, set up without validating again."""
        new = self._get_checked_instance(cls, _instance)
        batch_shape = torch.Size(batch_shape)
        for name in names:
            setattr(new, name, getattr(self, name).expand(batch_shape))
        super(cls, new).__init__(batch_shape, validate_args=False)  # type: ignore[arg-type]
        new._validate_args = self._validate_args
        return new

    def _get_checked_instance(self, cls: type, _instance: Any = None) -> Any:
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom "
                "__init__ method must also define a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    def __repr__(self) -> str:
        names = [k for k in self.arg_constraints if k in self.__dict__]
        args = ", ".join(f"{p}: {_shown(self.__dict__[p])}" for p in names)
        return self.__class__.__name__ + "(" + args + ")"


def _shown(value: Any) -> Any:
    """A parameter in the repr: its value when it has one element, else its size."""
    return value if value.numel() == 1 else value.size()
