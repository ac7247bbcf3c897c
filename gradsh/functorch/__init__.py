"""functorch, served as `import functorch` to Python programs: torch.func's transforms under
their old names, each warning (FutureWarning) that it is deprecated as PyTorch's do, and
make_functional / make_functional_with_buffers."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from typing import Any

from gradsh.torch import func as _func
from gradsh.torch._functorch.functional_call import functional_call
from gradsh.torch._version import __version__

__all__ = ["FunctionalModule", "FunctionalModuleWithBuffers", "grad", "grad_and_value",
           "hessian", "jacfwd", "jacrev", "jvp", "make_functional",
           "make_functional_with_buffers", "vjp", "vmap", "__version__"]


def _warn(api: str, new_api: str | None = None) -> None:
    new_api = new_api or f"torch.func.{api}"
    warnings.warn(
        f"We've integrated functorch into PyTorch. As the final step of the integration, "
        f"`functorch.{api}` is deprecated as of PyTorch 2.0 and will be deleted in a future "
        f"version of PyTorch >= 2.3. Please use `{new_api}` instead; see the PyTorch 2.0 "
        f"release notes and/or the `torch.func` migration guide for more details "
        f"https://pytorch.org/docs/main/func.migrating.html", FutureWarning, stacklevel=3)


def _deprecated(name: str, new_api: str | None = None) -> Callable[..., Any]:
    target = getattr(_func, name)

    def call(*args: Any, **kwargs: Any) -> Any:
        _warn(name, new_api)
        return target(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = target.__doc__
    return call


vmap = _deprecated("vmap", "torch.vmap")
grad = _deprecated("grad")
grad_and_value = _deprecated("grad_and_value")
vjp = _deprecated("vjp")
jvp = _deprecated("jvp")
jacrev = _deprecated("jacrev")
jacfwd = _deprecated("jacfwd")
hessian = _deprecated("hessian")


class FunctionalModule:
    """A module called with its parameters given: fmodel(params, *args)."""

    def __init__(self, module: Any, names: tuple[str, ...]) -> None:
        self.stateless_model = module
        self.param_names = names

    def __call__(self, params: Any, *args: Any, **kwargs: Any) -> Any:
        return functional_call(self.stateless_model, dict(zip(self.param_names, params)),
                               args, kwargs)


class FunctionalModuleWithBuffers(FunctionalModule):
    """fmodel(params, buffers, *args)."""

    def __init__(self, module: Any, names: tuple[str, ...],
                 buffer_names: tuple[str, ...]) -> None:
        super().__init__(module, names)
        self.buffer_names = buffer_names

    def __call__(self, params: Any, buffers: Any, *args: Any, **kwargs: Any) -> Any:
        state = dict(zip(self.param_names, params))
        state.update(zip(self.buffer_names, buffers))
        return functional_call(self.stateless_model, state, args, kwargs)


def make_functional(model: Any, disable_autograd_tracking: bool = False) -> Any:
    """(fmodel, params): the model's parameters, and a copy of it to call with them."""
    _warn("make_functional", "torch.func.functional_call")
    names, params = _named(model.named_parameters(), disable_autograd_tracking)
    return FunctionalModule(copy.deepcopy(model), names), params


def make_functional_with_buffers(model: Any, disable_autograd_tracking: bool = False) -> Any:
    """(fmodel, params, buffers)."""
    _warn("make_functional_with_buffers", "torch.func.functional_call")
    names, params = _named(model.named_parameters(), disable_autograd_tracking)
    buffer_names, buffers = _named(model.named_buffers(), False)
    return FunctionalModuleWithBuffers(copy.deepcopy(model), names, buffer_names), params, \
        buffers


def _named(items: Any, detach: bool) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    pairs = list(items)
    tensors = tuple(t.detach() if detach else t for _, t in pairs)
    return tuple(name for name, _ in pairs), tensors
