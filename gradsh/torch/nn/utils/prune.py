"""torch.nn.utils.prune: masks on a module's parameters, applied by forward pre-hooks.

PyTorch's scheme, step for step (the masks it draws and the hooks it keeps must be the same):
pruning `name` moves the parameter to `name_orig`, registers the buffer `name_mask`, sets the
plain attribute `name = name_orig * name_mask` and registers the method as a forward pre-hook
that recomputes it. Pruning the same tensor again chains the methods in a PruningContainer.
"""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import Any

import gradsh.torch as torch
from gradsh.engine.tensor import Tensor
from gradsh.torch.nn.modules.module import Module

__all__ = ["BasePruningMethod", "CustomFromMask", "Identity", "L1Unstructured", "LnStructured",
           "PruningContainer", "RandomStructured", "RandomUnstructured", "custom_from_mask",
           "global_unstructured", "identity", "is_pruned", "l1_unstructured", "ln_structured",
           "random_structured", "random_unstructured", "remove"]


class BasePruningMethod(ABC):
    """A way to compute a mask; also the forward pre-hook that reapplies it."""

    _tensor_name: str
    PRUNING_TYPE: str

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        """The new mask for `t`, given the mask already in force."""

    def apply_mask(self, module: Module) -> Tensor:
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig  # type: ignore[no-any-return]

    @classmethod
    def apply(cls, module: Module, name: str, *args: Any,
              importance_scores: Tensor | None = None, **kwargs: Any) -> BasePruningMethod:
        method = _composite_method(cls, module, name, *args, **kwargs)
        orig = getattr(module, name)
        if importance_scores is not None:
            if importance_scores.shape != orig.shape:
                raise AssertionError(
                    f"importance_scores should have the same shape as parameter {name} of "
                    f"{module}, got {importance_scores.shape} vs {orig.shape}")
        else:
            importance_scores = orig
        fresh = not isinstance(method, PruningContainer)
        if fresh:
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = torch.ones_like(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone(
                memory_format=torch.contiguous_format)
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if fresh:  # put the parameter back as it was
                module.register_parameter(name, getattr(module, name + "_orig"))
                del module._parameters[name + "_orig"]
            raise
        return method

    def prune(self, t: Tensor, default_mask: Tensor | None = None,
              importance_scores: Tensor | None = None) -> Tensor:
        """`t` with this method's mask applied (no module involved)."""
        if importance_scores is None:
            importance_scores = t
        elif importance_scores.shape != t.shape:
            raise AssertionError("importance_scores should have the same shape as tensor t, "
                                 f"got {importance_scores.shape} vs {t.shape}")
        if default_mask is None:
            default_mask = torch.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module: Module) -> None:
        """Make the pruning permanent: `name` is a parameter again, holding the pruned values."""
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


def _composite_method(cls: type[BasePruningMethod], module: Module, name: str, *args: Any,
                      **kwargs: Any) -> BasePruningMethod:
    """The new method, or the container chaining it after the one already pruning `name`."""
    old = [(key, hook) for key, hook in module._forward_pre_hooks.items()
           if isinstance(hook, BasePruningMethod) and hook._tensor_name == name]
    if len(old) > 1:
        raise AssertionError(f"Avoid adding multiple pruning hooks to the same tensor {name} of "
                             f"module {module}. Use a PruningContainer.")
    for key, _ in old:
        del module._forward_pre_hooks[key]
    method = cls(*args, **kwargs)
    method._tensor_name = name
    if not old:
        return method
    previous = old[0][1]
    if isinstance(previous, PruningContainer):
        previous.add_pruning_method(method)
        return previous
    container = PruningContainer(previous)
    container.add_pruning_method(method)
    return container


class PruningContainer(BasePruningMethod):
    """The history of pruning methods applied to one tensor; the last computes on the part the
    earlier masks left."""

    def __init__(self, *args: BasePruningMethod) -> None:
        self._pruning_methods: tuple[BasePruningMethod, ...] = ()
        if len(args) == 1:
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method: BasePruningMethod | None) -> None:
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError("Can only add pruning methods acting on the parameter named "
                             f"'{self._tensor_name}' to PruningContainer {self}. Found "
                             f"'{method._tensor_name}'")
        self._pruning_methods += (method,)  # type: ignore[assignment, operator]

    def __len__(self) -> int:
        return len(self._pruning_methods)

    def __iter__(self) -> Iterator[BasePruningMethod]:
        return iter(self._pruning_methods)

    def __getitem__(self, idx: Any) -> Any:
        return self._pruning_methods[idx]

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        method = self._pruning_methods[-1]
        new_mask = default_mask.to(dtype=t.dtype)
        n_dims = t.dim()
        slc: list[Any] = [slice(None)] * n_dims
        if method.PRUNING_TYPE == "unstructured":
            where: Any = default_mask == 1
        elif method.PRUNING_TYPE == "structured":
            if not hasattr(method, "dim"):
                raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to have '
                                     "the attribute `dim` defined.")
            dim = method.dim + n_dims if method.dim < 0 else method.dim
            if dim < 0:
                raise IndexError(f"Index is out of bounds for tensor with dimensions {n_dims}")
            slc[dim] = default_mask.sum(dim=[d for d in range(n_dims) if d != dim]) != 0
            where = tuple(slc)
        elif method.PRUNING_TYPE == "global":
            where = tuple(slc)
        else:
            raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")
        partial = method.compute_mask(t[where], default_mask=default_mask[where])
        new_mask[where] = partial.to(dtype=new_mask.dtype)
        return new_mask


class Identity(BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        return default_mask

    @classmethod
    def apply(cls, module: Module, name: str) -> BasePruningMethod:  # type: ignore[override]
        return super().apply(module, name)


class RandomUnstructured(BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def __init__(self, amount: int | float) -> None:
        _validate_amount(amount)
        self.amount = amount

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        k = _count_to_prune(self.amount, t.nelement())
        mask = default_mask.clone(memory_format=torch.contiguous_format)
        if k != 0:
            prob = torch.rand_like(t)
            mask.view(-1)[torch.topk(prob.view(-1), k=k).indices] = 0
        return mask

    @classmethod
    def apply(cls, module: Module, name: str,  # type: ignore[override]
              amount: int | float) -> BasePruningMethod:
        return super().apply(module, name, amount=amount)


class L1Unstructured(BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def __init__(self, amount: int | float) -> None:
        _validate_amount(amount)
        self.amount = amount

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        k = _count_to_prune(self.amount, t.nelement())
        mask = default_mask.clone(memory_format=torch.contiguous_format)
        if k != 0:
            smallest = torch.topk(torch.abs(t).view(-1), k=k, largest=False)
            mask.view(-1)[smallest.indices] = 0
        return mask

    @classmethod
    def apply(cls, module: Module, name: str, amount: int | float,  # type: ignore[override]
              importance_scores: Tensor | None = None) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


def _channel_mask(t: Tensor, dim: int, keep: Any) -> Tensor:
    mask = torch.zeros_like(t)
    slc: list[Any] = [slice(None)] * len(t.shape)
    slc[dim] = keep
    mask[tuple(slc)] = 1
    return mask  # type: ignore[no-any-return]


class RandomStructured(BasePruningMethod):
    PRUNING_TYPE = "structured"

    def __init__(self, amount: int | float, dim: int = -1) -> None:
        _validate_amount(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        _validate_structured(t, self.dim)
        channels = t.shape[self.dim]
        k = _count_to_prune(self.amount, channels)
        if k == 0:
            return default_mask
        prob = torch.rand(channels)
        threshold = torch.kthvalue(prob, k=k).values
        mask = _channel_mask(t, self.dim, prob > threshold)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module: Module, name: str, amount: int | float,  # type: ignore[override]
              dim: int = -1) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    PRUNING_TYPE = "structured"

    def __init__(self, amount: int | float, n: Any, dim: int = -1) -> None:
        _validate_amount(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        _validate_structured(t, self.dim)
        channels = t.shape[self.dim]
        k = _count_to_prune(self.amount, channels)
        dims = list(range(t.dim()))
        dims.remove(dims[self.dim])
        norm = torch.norm(t, p=self.n, dim=dims)
        topk = torch.topk(norm, k=channels - k, largest=True)
        if k == 0:
            return default_mask
        mask = _channel_mask(t, self.dim, topk.indices)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module: Module, name: str, amount: int | float,  # type: ignore[override]
              n: Any, dim: int, importance_scores: Tensor | None = None) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, n=n, dim=dim,
                             importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    PRUNING_TYPE = "global"

    def __init__(self, mask: Tensor) -> None:
        self.mask = mask

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        if default_mask.shape != self.mask.shape:
            raise AssertionError(f"default_mask shape {default_mask.shape} must match "
                                 f"self.mask shape {self.mask.shape}")
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module: Module, name: str,  # type: ignore[override]
              mask: Tensor) -> BasePruningMethod:
        return super().apply(module, name, mask=mask)


def identity(module: Module, name: str) -> Module:
    Identity.apply(module, name)
    return module


def random_unstructured(module: Module, name: str, amount: int | float) -> Module:
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module: Module, name: str, amount: int | float,
                    importance_scores: Tensor | None = None) -> Module:
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module: Module, name: str, amount: int | float, dim: int) -> Module:
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module: Module, name: str, amount: int | float, n: Any, dim: int,
                  importance_scores: Tensor | None = None) -> Module:
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module: Module, name: str, mask: Tensor) -> Module:
    CustomFromMask.apply(module, name, mask)
    return module


def global_unstructured(parameters: Any, pruning_method: type[BasePruningMethod],
                        importance_scores: dict[Any, Tensor] | None = None,
                        **kwargs: Any) -> None:
    """Prune the given (module, name) pairs together, as one flat tensor."""
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    scores = importance_scores if importance_scores is not None else {}
    if not isinstance(scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    to_vector = torch.nn.utils.parameters_to_vector
    flat_scores = to_vector([scores.get((m, name), getattr(m, name)) for m, name in parameters])
    default_mask = to_vector([getattr(m, name + "_mask", torch.ones_like(getattr(m, name)))
                              for m, name in parameters])
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. '
                        f"Found method {pruning_method} of type {method.PRUNING_TYPE}")
    container.add_pruning_method(method)
    final_mask = container.compute_mask(flat_scores, default_mask)
    pointer = 0
    for m, name in parameters:
        param = getattr(m, name)
        count = param.numel()
        custom_from_mask(m, name, mask=final_mask[pointer:pointer + count].view_as(param))
        pointer += count


def remove(module: Module, name: str) -> Module:
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning "
                     "can be removed")


def is_pruned(module: Module) -> bool:
    return any(isinstance(hook, BasePruningMethod) for _, sub in module.named_modules()
               for hook in sub._forward_pre_hooks.values())


def _validate_amount(amount: Any) -> None:
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    if isinstance(amount, numbers.Integral):
        bad = amount < 0
    else:
        bad = float(amount) > 1.0 or float(amount) < 0.0
    if bad:
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a "
                         "non-negative integer")


def _count_to_prune(amount: int | float, size: int) -> int:
    if isinstance(amount, numbers.Integral):
        if amount > size:
            raise ValueError(f"amount={amount} should be smaller than the number of parameters "
                             f"to prune={size}")
        return int(amount)
    return round(amount * size)


def _validate_structured(t: Tensor, dim: int) -> None:
    if len(t.shape) <= 1:
        raise ValueError("Structured pruning can only be applied to multidimensional tensors. "
                         f"Found tensor of shape {t.shape} with {len(t.shape)} dims")
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")
