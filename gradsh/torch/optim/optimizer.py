"""torch.optim.Optimizer: param groups, per-parameter state, state dicts and hooks, as in
torch/optim/optimizer.py; the update rules live in one module per optimizer."""

from __future__ import annotations

import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from copy import deepcopy
from itertools import chain
from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError, TorchValueError
from gradsh.engine.tensor import Tensor, _GradMode
from gradsh.torch.utils.hooks import RemovableHandle

__all__ = ["Optimizer", "register_optimizer_step_post_hook", "register_optimizer_step_pre_hook",
           "required"]

StateDict = dict[str, Any]

_global_optimizer_pre_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
_global_optimizer_post_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()


class _RequiredParameter:
    """The default of an option a param group must give itself (SGD's lr, once)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def register_optimizer_step_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """A pre-hook run before every optimizer's step: hook(optimizer, args, kwargs)."""
    handle = RemovableHandle(_global_optimizer_pre_hooks)
    _global_optimizer_pre_hooks[handle.id] = hook
    return handle


def register_optimizer_step_post_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """A post-hook run after every optimizer's step: hook(optimizer, args, kwargs)."""
    handle = RemovableHandle(_global_optimizer_post_hooks)
    _global_optimizer_post_hooks[handle.id] = hook
    return handle


def typename(obj: Any) -> str:
    """torch.typename: `torch.FloatTensor` for a tensor, the qualified class name otherwise."""
    if isinstance(obj, Tensor):
        return ("torch.cuda." if obj.device != "cpu" else "torch.") + obj.dtype.legacy
    module = getattr(type(obj), "__module__", "builtins")
    name = type(obj).__qualname__
    return name if module in ("builtins", None) else f"{module}.{name}"


def _use_grad_for_differentiable(step: Callable[..., Any]) -> Callable[..., Any]:
    """Run step() with grad mode set to the optimizer's `differentiable` option (off, normally),
    so the updates record no graph."""

    @functools.wraps(step)
    def _use_grad(self: Optimizer, *args: Any, **kwargs: Any) -> Any:
        previous = _GradMode.enabled
        _GradMode.enabled = bool(self.defaults["differentiable"])
        try:
            return step(self, *args, **kwargs)
        finally:
            _GradMode.enabled = previous

    return _use_grad


def _with_step_hooks(step: Callable[..., Any]) -> Callable[..., Any]:
    """PyTorch's profile_hook_step: the global and the optimizer's step pre- and post-hooks."""

    @functools.wraps(step)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        self = args[0]
        for pre_hook in chain(_global_optimizer_pre_hooks.values(),
                              self._optimizer_step_pre_hooks.values()):
            result = pre_hook(self, args, kwargs)
            if result is not None:
                if isinstance(result, tuple) and len(result) == 2:
                    args, kwargs = result
                else:
                    raise TorchRuntimeError(f"{step} must return None or a tuple of (new_args, "
                                            f"new_kwargs), but got {result}.")
        out = step(*args, **kwargs)
        for post_hook in chain(self._optimizer_step_post_hooks.values(),
                               _global_optimizer_post_hooks.values()):
            post_hook(self, args, kwargs)
        return out

    wrapper.hooked = True  # type: ignore[attr-defined]
    return wrapper


def _to_scalar(x: Any) -> Any:
    """A one-element tensor hyperparameter as a 0-d tensor; numbers stay numbers."""
    if isinstance(x, Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def _get_value(x: Any) -> Any:
    return x.item() if isinstance(x, Tensor) else x


def _check_hyperparameters(lr: Any, eps: float, weight_decay: float,
                           betas: tuple[float, float] | None = None) -> None:
    """The argument checks the Adam family's constructors make, in PyTorch's order and words."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise TorchValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise TorchValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise TorchValueError(f"Invalid epsilon value: {eps}")
    for i, beta in enumerate(betas or ()):
        if not 0.0 <= beta < 1.0:
            raise TorchValueError(f"Invalid beta parameter at index {i}: {beta}")
    if not 0.0 <= weight_decay:
        raise TorchValueError(f"Invalid weight_decay value: {weight_decay}")


def _weight_decayed(param: Tensor, grad: Tensor, lr: float, weight_decay: float,
                    decoupled: bool) -> Tensor:
    """L2 weight decay added to the gradient, or (decoupled, AdamW-style) applied to the
    parameter in place; the gradient to use."""
    if weight_decay != 0:
        if decoupled:
            param.mul_(1 - lr * weight_decay)
        else:
            grad = grad.add(param, alpha=weight_decay)
    return grad


def _scalar_dtype() -> dtypes.DType:
    """The dtype of the `step` counters: float64 under a float64 default, float32 otherwise."""
    return dtypes.float64 if dtypes.default_float() is dtypes.float64 else dtypes.float32


class Optimizer:
    """Base class of the optimizers: `param_groups` (a list of real dicts, each with its
    `params` and every option), `defaults`, `state` (a defaultdict keyed by parameter).

    Subclasses give `step()`, decorated with `_use_grad_for_differentiable`; step hooks wrap
    every subclass's step once, when the subclass is defined.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        step = cls.__dict__.get("step")
        if step is not None and not getattr(step, "hooked", False):
            cls.step = _with_step_hooks(step)  # type: ignore[method-assign]

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self._optimizer_step_pre_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
        self._optimizer_state_dict_pre_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
        self._optimizer_state_dict_post_hooks: OrderedDict[int, Callable[..., Any]] = (
            OrderedDict())
        self._optimizer_load_state_dict_pre_hooks: OrderedDict[int, Callable[..., Any]] = (
            OrderedDict())
        self._optimizer_load_state_dict_post_hooks: OrderedDict[int, Callable[..., Any]] = (
            OrderedDict())
        if isinstance(params, Tensor):
            raise TorchTypeError("params argument given to the optimizer should be an iterable "
                                 "of Tensors or dicts, but got " + typename(params))
        self.state: defaultdict[Tensor, Any] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise TorchValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self) -> dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for name in ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks",
                     "_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                     "_optimizer_load_state_dict_pre_hooks",
                     "_optimizer_load_state_dict_post_hooks"):
            self.__dict__.setdefault(name, OrderedDict())
        self.defaults.setdefault("differentiable", False)

    def __repr__(self) -> str:
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    # -- param groups ----------------------------------------------------------------------------

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters, with options of its own (the others from `defaults`)."""
        if not isinstance(param_group, dict):
            raise TorchTypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TorchTypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)
        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):  # named parameters: (name, tensor)
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) != len(tensors):
                raise TorchValueError("all optimizer params should be with/without names. Some "
                                      "param names are missing")
            param_group["param_names"] = names
        for param in tensors:
            if not isinstance(param, Tensor):
                raise TorchTypeError("optimizer can only optimize Tensors, but one of the params "
                                     "is " + typename(param))
            if not self.defaults.get("differentiable", None) and not (
                    param.is_leaf or param.retains_grad):
                raise TorchValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise TorchValueError("parameter group didn't specify a value of required "
                                      f"optimization parameter {name}")
            param_group.setdefault(name, default)
        if len({id(p) for p in tensors}) != len(tensors):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see github.com/pytorch/pytorch/"
                          "issues/40967 for more information", stacklevel=3)
        seen: set[int] = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise TorchValueError("all optimizer param groups should be with/without names. "
                                      f"cannot add param group {which} to the optimizer")
        if any(id(p) in seen for p in tensors):
            raise TorchValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients: to None (the default), or to zeros detached from any graph."""
        for group in self.param_groups:
            for p in group["params"]:
                grad = p._grad
                if grad is None:
                    continue
                if set_to_none:
                    p._grad = None
                    continue
                if grad.grad_fn is not None:
                    grad.detach_()
                else:
                    grad.requires_grad_(False)
                grad.zero_()

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        raise NotImplementedError

    # -- state dicts -----------------------------------------------------------------------------

    def state_dict(self) -> StateDict:
        """{"state": {index: per-parameter state}, "param_groups": [options, params as
        indices]}: parameters are numbered in group order, as PyTorch numbers them."""
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)
        mapping: dict[int, int] = {}
        start = 0

        def pack_group(group: dict[str, Any]) -> dict[str, Any]:
            nonlocal start
            packed = {k: v for k, v in group.items() if k != "params"}
            # (PyTorch's dict comprehension: a parameter twice in a group takes its last index)
            mapping.update({id(p): i for i, p in enumerate(group["params"], start)
                            if id(p) not in mapping})
            packed["params"] = [mapping[id(p)] for p in group["params"]]
            start += len(packed["params"])
            return packed

        groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(mapping[id(k)] if isinstance(k, Tensor) else k): v
                        for k, v in self.state.items()}
        state_dict: StateDict = {"state": packed_state, "param_groups": groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            result = post_hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    def load_state_dict(self, state_dict: StateDict) -> None:
        """Load a state_dict() of an optimizer over parameters of the same shapes: the
        parameters are matched by position, state tensors cast to their parameter's dtype."""
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = pre_hook(self, state_dict)
            if result is not None:
                state_dict = result
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise TorchValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups,
                                                                   strict=True)):
            raise TorchValueError("loaded state dict contains a parameter group that doesn't "
                                  "match the size of optimizer's group")
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups), strict=True))

        def cast(param: Tensor, value: Any, key: Any = None) -> Any:
            if isinstance(value, Tensor):
                if key == "step":
                    return value
                if param.dtype.is_floating_point:
                    return value.to(dtype=param.dtype, device=param.device)
                return value.to(device=param.device)
            if isinstance(value, dict):
                return {k: cast(param, v, k) for k, v in value.items()}
            if isinstance(value, Iterable) and not isinstance(value, str):
                return type(value)(cast(param, v) for v in value)  # type: ignore[call-arg]
            return value

        state: defaultdict[Any, Any] = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = cast(param, v)
            else:
                state[k] = v

        def update_group(group: dict[str, Any], new_group: dict[str, Any]) -> dict[str, Any]:
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups, strict=True)]
        self.__setstate__({"state": state, "param_groups": param_groups})
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    # -- hooks -----------------------------------------------------------------------------------

    def register_step_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        return _register(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        return _register(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook: Callable[..., Any],
                                     prepend: bool = False) -> RemovableHandle:
        return _register(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook: Callable[..., Any],
                                      prepend: bool = False) -> RemovableHandle:
        return _register(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any],
                                          prepend: bool = False) -> RemovableHandle:
        return _register(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any],
                                           prepend: bool = False) -> RemovableHandle:
        return _register(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # -- for the subclasses ------------------------------------------------------------------------

    def _step_each(self, closure: Callable[[], Any] | None,
                   update: Callable[[Tensor, Tensor, dict[str, Any], dict[str, Any]], None],
                   init_state: Callable[[Tensor, dict[str, Any]], None]) -> Any:
        """A single-tensor step: `update(param, grad, state, group)` for every parameter with a
        gradient, its state made by `init_state(param, state)` on its first gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            self._refuse_sparse(group)
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    init_state(p, state)
                update(p, p.grad, state, group)
        return loss

    # PyTorch's error for a sparse gradient (its _init_group's, before any update of the group);
    # None: the optimizer takes sparse gradients or says so elsewhere
    _sparse_error: str | None = None

    def _refuse_sparse(self, group: dict[str, Any]) -> None:
        if self._sparse_error is not None:
            for p in group["params"]:
                if p.grad is not None and p.grad.is_sparse:
                    raise TorchRuntimeError(self._sparse_error)

    def _closure_loss(self, closure: Callable[[], Any] | None) -> Any:
        """The closure's loss, computed with grad mode on (step itself runs without)."""
        if closure is None:
            return None
        previous = _GradMode.enabled
        _GradMode.enabled = True
        try:
            return closure()
        finally:
            _GradMode.enabled = previous


def _register(hooks: OrderedDict[int, Callable[..., Any]], hook: Callable[..., Any],
              prepend: bool = False) -> RemovableHandle:
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


class _SingleTensorOptimizer(Optimizer):
    """The newer optimizers' shape: lazy per-parameter state (`_init_state`), PyTorch's
    single-tensor update for one parameter (`_update`), and the group options a state dict
    from an older PyTorch may lack (`_group_defaults`, filled in by __setstate__)."""

    _group_defaults: tuple[tuple[str, Any], ...] = ()

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            for key, value in self._group_defaults:
                group.setdefault(key, value)

    @staticmethod
    def _init_state(p: Tensor, state: dict[str, Any]) -> None:
        raise NotImplementedError

    @staticmethod
    def _update(param: Tensor, grad: Tensor, state: dict[str, Any],
                group: dict[str, Any]) -> None:
        raise NotImplementedError

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a gradient; returns the closure's loss."""
        return self._step_each(closure, self._update, self._init_state)
