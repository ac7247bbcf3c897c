"""nn.Module: registration of parameters, buffers and submodules by attribute assignment, hooks
around forward, state_dict, device and dtype moves, and PyTorch's printed form."""

from __future__ import annotations

import itertools
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from gradsh.engine import dtypes, meta, ops
from gradsh.engine.dtypes import DType
from gradsh.engine.tensor import Tensor, no_grad
from gradsh.torch._missing import NotImplementedInGradsh
from gradsh.torch.nn.modules._hooks import BackwardHook, setup_non_full_hooks
from gradsh.torch.utils.hooks import RemovableHandle
from gradsh.torch.nn.parameter import Buffer, Parameter

__all__ = ["Module", "register_module_forward_hook", "register_module_forward_pre_hook",
           "register_module_full_backward_hook", "register_module_full_backward_pre_hook"]

_EXTRA_STATE_KEY_SUFFIX = "_extra_state"

# hooks every module runs (torch.nn.modules.module.register_module_*_hook)
_global_forward_pre_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
_global_forward_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
_global_forward_hooks_always_called: OrderedDict[int, bool] = OrderedDict()
_global_backward_pre_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
_global_backward_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()


def register_module_forward_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    handle = RemovableHandle(_global_forward_pre_hooks)
    _global_forward_pre_hooks[handle.id] = hook
    return handle


def register_module_forward_hook(hook: Callable[..., Any], *,
                                 always_call: bool = False) -> RemovableHandle:
    handle = RemovableHandle(_global_forward_hooks,
                             extra_dict=_global_forward_hooks_always_called)
    _global_forward_hooks[handle.id] = hook
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


def register_module_full_backward_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    handle = RemovableHandle(_global_backward_pre_hooks)
    _global_backward_pre_hooks[handle.id] = hook
    return handle


def register_module_full_backward_hook(hook: Callable[..., Any]) -> RemovableHandle:
    handle = RemovableHandle(_global_backward_hooks)
    _global_backward_hooks[handle.id] = hook
    return handle


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(text: str, spaces: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    first = lines.pop(0)
    rest = [(" " * spaces) + line if line.strip() else "" for line in lines]
    return first + "\n" + "\n".join(rest)


def typename(obj: Any) -> str:
    """torch.typename: 'torch.FloatTensor' for a tensor, else the dotted name of its class, as
    PyTorch's would read (gradsh.torch.nn... is torch.nn...)."""
    if isinstance(obj, Tensor):
        return ops.tensor_type(obj)  # type: ignore[no-any-return]
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    module = module.removeprefix("gradsh.")
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def _forward_unimplemented(self: Module, *args: Any) -> None:
    raise NotImplementedError(
        f'Module [{type(self).__name__}] is missing the required "forward" function')


class Module:
    """Base class of every layer and model."""

    dump_patches: bool = False
    _version: int = 1
    training: bool
    call_super_init: bool = False
    forward: Callable[..., Any] = _forward_unimplemented

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if not self.call_super_init and kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword "
                            f"argument '{next(iter(kwargs))}'")
        if not self.call_super_init and args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument "
                            f"but {len(args) + 1} were given")
        setattr_ = super().__setattr__
        setattr_("training", True)
        setattr_("_parameters", {})
        setattr_("_buffers", {})
        setattr_("_non_persistent_buffers_set", set())
        setattr_("_backward_pre_hooks", OrderedDict())
        setattr_("_backward_hooks", OrderedDict())
        setattr_("_is_full_backward_hook", None)
        setattr_("_forward_hooks", OrderedDict())
        setattr_("_forward_hooks_with_kwargs", OrderedDict())
        setattr_("_forward_hooks_always_called", OrderedDict())
        setattr_("_forward_pre_hooks", OrderedDict())
        setattr_("_forward_pre_hooks_with_kwargs", OrderedDict())
        setattr_("_state_dict_hooks", OrderedDict())
        setattr_("_state_dict_pre_hooks", OrderedDict())
        setattr_("_load_state_dict_pre_hooks", OrderedDict())
        setattr_("_load_state_dict_post_hooks", OrderedDict())
        setattr_("_modules", {})
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    # -- registration -------------------------------------------------------------------------

    def _check_member_name(self, kind: str, store: str, name: Any) -> None:
        """register_buffer's and register_parameter's checks of the name, PyTorch's texts."""
        if store not in self.__dict__:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in self.__dict__[store]:
            raise KeyError(f"attribute '{name}' already exists")

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        self._check_member_name("buffer", "_buffers", name)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        self._check_member_name("parameter", "_parameters", name)
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        elif param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method.")
        else:
            self._parameters[name] = param

    def add_module(self, name: str, module: Module | None) -> None:
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    def register_module(self, name: str, module: Module | None) -> None:
        self.add_module(name, module)

    def get_submodule(self, target: str) -> Module:
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        atoms = target.split(".")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent = self if len(atoms) == 1 else self.get_submodule(".".join(atoms[:-1]))
        if strict and not hasattr(parent, atoms[-1]):
            raise AttributeError(parent._get_name() + " has no attribute `" + atoms[-1] + "`")
        if hasattr(parent, atoms[-1]) and not isinstance(getattr(parent, atoms[-1]), Module):
            raise AttributeError("`" + atoms[-1] + "` is not an nn.Module")
        setattr(parent, atoms[-1], module)

    def get_parameter(self, target: str) -> Parameter:
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        buffer = getattr(mod, name)
        if name not in mod._buffers:
            raise AttributeError("`" + name + "` is not a buffer")
        return buffer  # type: ignore[no-any-return]

    def get_extra_state(self) -> Any:
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template="
            "bug-report.yml to report this bug.")

    def set_extra_state(self, state: Any) -> None:
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template="
            "bug-report.yml to report this bug.")

    # -- attribute access ---------------------------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        for store in ("_parameters", "_buffers", "_modules"):
            members = self.__dict__.get(store)
            if members is not None and name in members:
                return members[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        def remove_from(*stores: Any) -> None:
            for store in stores:
                if name in store:
                    if isinstance(store, dict):
                        del store[name]
                    else:
                        store.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules,
                        self._non_persistent_buffers_set)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
            return
        modules = self.__dict__.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            remove_from(self.__dict__, self._parameters, self._buffers,
                        self._non_persistent_buffers_set)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = value
            return
        buffers = self.__dict__.get("_buffers")
        if isinstance(value, Buffer) or (buffers is not None and name in buffers):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            if isinstance(value, Buffer):
                persistent = value.persistent
            else:
                persistent = name not in self._non_persistent_buffers_set
            self.register_buffer(name, value, persistent)
            return
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            super().__delattr__(name)

    def __dir__(self) -> list[str]:
        keys = (dir(self.__class__) + list(self.__dict__) + list(self._parameters)
                + list(self._modules) + list(self._buffers))
        return sorted(key for key in keys if not key[0].isdigit())

    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    # -- calling ------------------------------------------------------------------------------

    def register_forward_pre_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        handle = RemovableHandle(self._forward_pre_hooks,
                                 extra_dict=self._forward_pre_hooks_with_kwargs)
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                              with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        handle = RemovableHandle(self._forward_hooks, extra_dict=[
            self._forward_hooks_with_kwargs, self._forward_hooks_always_called])
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_pre_hook(self, hook: Callable[..., Any],
                                        prepend: bool = False) -> RemovableHandle:
        handle = RemovableHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[handle.id] = hook
        if prepend:
            self._backward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_hook(self, hook: Callable[..., Any],
                                    prepend: bool = False) -> RemovableHandle:
        if self._is_full_backward_hook is False:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks "
                               "on a single Module. Please use only one of them.")
        self._is_full_backward_hook = True
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        if prepend:
            self._backward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_backward_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        if self._is_full_backward_hook is True:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks "
                               "on a single Module. Please use only one of them.")
        self._is_full_backward_hook = False
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        return handle

    def _call_impl(self, *args: Any, **kwargs: Any) -> Any:
        if not (self._backward_hooks or self._backward_pre_hooks or self._forward_hooks
                or self._forward_pre_hooks or _global_backward_pre_hooks
                or _global_backward_hooks or _global_forward_hooks
                or _global_forward_pre_hooks):
            return self.forward(*args, **kwargs)
        result = None
        called_always = set()
        try:
            for hook_id, hook in (*_global_forward_pre_hooks.items(),
                                  *self._forward_pre_hooks.items()):
                if hook_id in self._forward_pre_hooks_with_kwargs:
                    hook_result = hook(self, args, kwargs)
                    if hook_result is not None:
                        if not (isinstance(hook_result, tuple) and len(hook_result) == 2):
                            raise RuntimeError("forward pre-hook must return None or a tuple of "
                                               f"(new_args, new_kwargs), but got {hook_result}.")
                        args, kwargs = hook_result
                else:
                    hook_result = hook(self, args)
                    if hook_result is not None:
                        args = hook_result if isinstance(hook_result, tuple) else (hook_result,)
            full_hooks = [*_global_backward_hooks.values()]
            if self._is_full_backward_hook:
                full_hooks += self._backward_hooks.values()
            pre_hooks = [*_global_backward_pre_hooks.values(), *self._backward_pre_hooks.values()]
            bw_hook = None
            if full_hooks or pre_hooks:
                bw_hook = BackwardHook(self, full_hooks, pre_hooks)
                args = bw_hook.setup_input_hook(args)
            result = self.forward(*args, **kwargs)
            for hook_id, hook in (*_global_forward_hooks.items(), *self._forward_hooks.items()):
                if (hook_id in self._forward_hooks_always_called
                        or hook_id in _global_forward_hooks_always_called):
                    called_always.add(hook_id)
                if hook_id in self._forward_hooks_with_kwargs:
                    hook_result = hook(self, args, kwargs, result)
                else:
                    hook_result = hook(self, args, result)
                if hook_result is not None:
                    result = hook_result
            if self._backward_hooks and self._is_full_backward_hook is False:
                message = setup_non_full_hooks(self, [*self._backward_hooks.values()], args,
                                               result)
                if message is not None:
                    # one place, as PyTorch's module.py: the default filter shows it once
                    warnings.warn(message, FutureWarning, stacklevel=1)
            if bw_hook is not None:
                if not isinstance(result, (Tensor, tuple)):
                    warnings.warn("For backward hooks to be called, module output should be a "
                                  f"Tensor or a tuple of Tensors but received {type(result)}",
                                  stacklevel=2)
                else:
                    result = bw_hook.setup_output_hook(result)
            return result
        except Exception:
            self._run_always_called_hooks(args, kwargs, result, called_always)
            raise

    def _run_always_called_hooks(self, args: Any, kwargs: Any, result: Any,
                                 called: set[int]) -> None:
        for hook_id, hook in (*_global_forward_hooks.items(), *self._forward_hooks.items()):
            always = (hook_id in self._forward_hooks_always_called
                      or hook_id in _global_forward_hooks_always_called)
            if not always or hook_id in called:
                continue
            try:
                if hook_id in self._forward_hooks_with_kwargs:
                    hook_result = hook(self, args, kwargs, result)
                else:
                    hook_result = hook(self, args, result)
                if hook_result is not None:
                    result = hook_result
            except Exception as error:  # noqa: BLE001  (PyTorch silences it with a warning)
                warnings.warn("module forward hook with ``always_call=True`` raised an exception "
                              f"that was silenced as another error was raised in forward: "
                              f"{error}", stacklevel=2)

    __call__ = _call_impl

    # -- iteration ----------------------------------------------------------------------------

    def _named_members(self, get_members: Callable[[Module], Any], prefix: str = "",
                       recurse: bool = True,
                       remove_duplicate: bool = True) -> Iterator[tuple[str, Any]]:
        memo: set[Any] = set()
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        for module_prefix, module in modules:
            for key, value in get_members(module):
                if value is None or value in memo:
                    continue
                if remove_duplicate:
                    memo.add(value)
                yield module_prefix + ("." if module_prefix else "") + key, value

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        yield from self._named_members(lambda m: m._parameters.items(), prefix=prefix,
                                       recurse=recurse, remove_duplicate=remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        yield from self._named_members(lambda m: m._buffers.items(), prefix=prefix,
                                       recurse=recurse, remove_duplicate=remove_duplicate)

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        memo: set[Module] = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def modules(self, remove_duplicate: bool = True) -> Iterator[Module]:
        for _, module in self.named_modules(remove_duplicate=remove_duplicate):
            yield module

    def named_modules(self, memo: set[Module] | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            yield from module.named_modules(memo, prefix + ("." if prefix else "") + name,
                                            remove_duplicate)

    __hash__ = object.__hash__

    # -- modes and gradients ------------------------------------------------------------------

    def compile(self, *args: Any, **kwargs: Any) -> None:
        """Module.compile: torch.compile in place; gradsh runs the module eagerly, as it is."""
        from gradsh.torch._dynamo.eval_frame import compile as torch_compile

        torch_compile(self, *args, **kwargs)  # (its argument checks)

    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """PyTorch 2's default sets every .grad to None; set_to_none=False zeroes them."""
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                if p.grad.grad_fn is not None:
                    p.grad.detach_()
                else:
                    p.grad.requires_grad_(False)
                if p.grad.is_sparse:
                    p.grad.zero_()  # (no entries left)
                else:
                    ops.zero_(p.grad)

    # -- moves and casts ----------------------------------------------------------------------

    def _apply(self, fn: Callable[[Tensor], Tensor], recurse: bool = True) -> Module:
        if recurse:
            for module in self.children():
                module._apply(fn)
        for param in self._parameters.values():
            if param is None:
                continue
            with no_grad():
                applied = fn(param)
            # the same Parameter object keeps its identity (optimizers hold it): PyTorch's
            # set_data path
            param.data = applied
            grad = param._grad
            if grad is not None:
                with no_grad():
                    grad_applied = fn(grad)
                grad.data = grad_applied
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def apply(self, fn: Callable[[Module], None]) -> Module:
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def cuda(self, device: Any = None) -> Module:
        return self._apply(lambda t: ops.cuda(t, device))

    def cpu(self) -> Module:
        return self._apply(lambda t: ops.cpu(t))

    def type(self, dst_type: Any) -> Module:
        return self._apply(lambda t: ops.tensor_type(t, dst_type))

    def _cast_floats(self, dtype: DType) -> Module:
        return self._apply(lambda t: ops.to(t, dtype) if t.dtype.is_floating_point else t)

    def float(self) -> Module:
        return self._cast_floats(dtypes.float32)

    def double(self) -> Module:
        return self._cast_floats(dtypes.float64)

    def half(self) -> Module:
        return self._cast_floats(dtypes.float16)

    def bfloat16(self) -> Module:
        return self._cast_floats(dtypes.bfloat16)

    def to(self, *args: Any, **kwargs: Any) -> Module:
        memory_format = kwargs.get("memory_format")
        device, dtype = _parse_to(args, kwargs)
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got "
                            f"desired dtype={dtype}")

        def convert(t: Tensor) -> Tensor:
            target = dtype if t.dtype.is_floating_point else None
            # PyTorch converts the memory format of 4-d and 5-d tensors only
            layout = memory_format if t.dim() in (4, 5) else None
            try:
                return ops.to(t, device=device, dtype=target,  # type: ignore[no-any-return]
                              memory_format=layout)
            except NotImplementedError as error:
                if str(error) != meta.NO_DATA_MESSAGE:
                    raise
                raise NotImplementedError(
                    f"{error} Please use torch.nn.Module.to_empty() instead of "
                    "torch.nn.Module.to() when moving module from meta to a different "
                    "device.") from None

        return self._apply(convert)

    def to_empty(self, *, device: Any, recurse: bool = True) -> Module:
        """Parameters and buffers as uninitialised tensors of their shapes on `device` (the
        way off the meta device)."""
        return self._apply(lambda t: ops.empty_like(t, device=device), recurse=recurse)

    def share_memory(self) -> Module:
        return self

    # -- state_dict ---------------------------------------------------------------------------

    def register_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        handle = RemovableHandle(self._state_dict_pre_hooks)
        self._state_dict_pre_hooks[handle.id] = hook
        return handle

    def _register_state_dict_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """The older state_dict post-hook: one that returns a dictionary replaces the state
        dict (respected where state_dict was called on this module)."""
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError("Cannot register the same function as the state dict post hook "
                               "that was previously registered via "
                               "register_state_dict_post_hook")
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def register_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        hook._from_public_api = True  # type: ignore[attr-defined]  (it must return None)
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def _register_load_state_dict_pre_hook(self, hook: Callable[..., Any],
                                           with_module: bool = False) -> RemovableHandle:
        """register_load_state_dict_pre_hook's older form: the module is the hook's first
        argument only `with_module`."""
        handle = RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.id] = (
            (lambda *args: hook(self, *args)) if with_module else hook)
        return handle

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        handle = RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.id] = hook
        return handle

    def _has_extra_state(self, getter: str) -> bool:
        return getattr(type(self), getter) is not getattr(Module, getter)

    def _save_to_state_dict(self, destination: dict[str, Any], prefix: str,
                            keep_vars: bool) -> None:
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if self._has_extra_state("get_extra_state"):
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args: Any, destination: Any = None, prefix: str = "",
                   keep_vars: bool = False) -> Any:
        if args:
            warnings.warn(
                "Positional args are being deprecated, use kwargs instead. Refer to "
                "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
                "#torch.nn.Module.state_dict for details.", FutureWarning, stacklevel=2)
            destination = args[0] if destination is None else destination
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            hook_result = hook(self, destination, prefix, local_metadata)
            if not getattr(hook, "_from_public_api", False):
                if hook_result is not None:
                    destination = hook_result
            elif hook_result is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _load_from_state_dict(self, state_dict: dict[str, Any], prefix: str,
                              local_metadata: dict[str, Any], strict: bool,
                              missing_keys: list[str], unexpected_keys: list[str],
                              error_msgs: list[str]) -> None:
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                 error_msgs)
        persistent = {k: v for k, v in self._buffers.items()
                      if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(),
                                                        persistent.items()) if v is not None}
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected '
                                  "torch.Tensor or Tensor-like object from checkpoint but "
                                  f"received {type(value)}")
                continue
            if param.ndim == 0 and value.ndim == 1 and value.shape[0] == 1:
                value = value[0]
            if value.shape != param.shape:
                error_msgs.append(f"size mismatch for {key}: copying a param with shape "
                                  f"{value.shape} from checkpoint, the shape in current model "
                                  f"is {param.shape}.")
                continue
            try:
                with no_grad():
                    if assign:
                        if isinstance(param, Parameter) and not isinstance(value, Parameter):
                            value = Parameter(value, requires_grad=param.requires_grad)
                        elif isinstance(param, Parameter):
                            value.requires_grad_(param.requires_grad)
                        setattr(self, name, value)
                    else:
                        if param.is_meta and not value.is_meta:
                            warnings.warn(
                                f"for {key}: copying from a non-meta parameter in the checkpoint "
                                "to a meta parameter in the current model, which is a no-op. "
                                "(Did you mean to pass `assign=True` to assign items in the "
                                "state dictionary to their corresponding key in the module "
                                "instead of copying them in place?)", stacklevel=2)
                        ops.copy_(param, value)
            except Exception as error:  # noqa: BLE001  (PyTorch reports it in the list)
                error_msgs.append(
                    f'While copying the parameter named "{key}", whose dimensions in the model '
                    f"are {param.shape} and whose dimensions in the checkpoint are "
                    f"{value.shape}, an exception occurred : {error.args}.")
        extra_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if self._has_extra_state("set_extra_state"):
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_key:
                    parts = key[len(prefix):].split(".", 1)
                    if len(parts) > 1:
                        if parts[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif parts[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True,
                        assign: bool = False) -> _IncompatibleKeys:
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing: list[str] = []
        unexpected: list[str] = []
        errors: list[str] = []
        metadata = getattr(state_dict, "_metadata", None)
        state = OrderedDict(state_dict)

        def load(module: Module, local: dict[str, Any], prefix: str = "") -> None:
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(local, prefix, local_metadata, True, missing,
                                         unexpected, errors)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {k: v for k, v in local.items() if k.startswith(child_prefix)},
                         child_prefix)
            keys = _IncompatibleKeys(missing, unexpected)
            for hook in module._load_state_dict_post_hooks.values():
                if hook(module, keys) is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                        "expected to return new values, if incompatible_keys need to be "
                        "modified, it should be done inplace.")

        load(self, state)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                self.__class__.__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    # -- printing -----------------------------------------------------------------------------

    def _get_name(self) -> str:
        return self.__class__.__name__

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + _addindent(repr(module), 2)
                       for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


def _parse_to(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, DType | None]:
    """Module.to's arguments: a device, a dtype, a tensor (both of its), in any of PyTorch's
    forms."""
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() received an invalid combination of arguments - got unexpected "
                        f"keyword argument '{next(iter(kwargs))}'")
    for arg in args:
        if isinstance(arg, DType):
            dtype = arg
        elif isinstance(arg, Tensor):
            device, dtype = arg.device, arg.dtype
        elif isinstance(arg, bool):
            continue  # non_blocking
        elif arg is not None:
            device = arg
    return device, dtype
