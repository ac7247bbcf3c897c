"""nn.Parameter and nn.Buffer: the tensor kinds a Module registers when they are assigned to it."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops
from gradsh.engine.ops.torch_function import disabled_torch_function_impl as _disabled_torch_function_impl
from gradsh.engine.tensor import Tensor, no_grad

__all__ = ["Buffer", "Parameter", "UninitializedBuffer", "UninitializedParameter", "is_lazy"]


def _alias(cls: type, data: Tensor, requires_grad: bool) -> Tensor:
    """A leaf of class `cls` on `data`'s storage (PyTorch's _make_subclass: a detached alias)."""
    t = cls._make(data._data, data.device, None, bool(requires_grad))  # type: ignore[attr-defined]
    t._version_counter = data._version_counter
    return t  # type: ignore[no-any-return]


class _ParameterMeta(type(Tensor)):  # type: ignore[misc]
    """Parameter's metaclass, by PyTorch's name."""


class _BufferMeta(type(Tensor)):  # type: ignore[misc]
    """Buffer's metaclass, by PyTorch's name."""


_ParameterMeta.__module__ = _BufferMeta.__module__ = "torch.nn.parameter"


class Parameter(Tensor, metaclass=_ParameterMeta):
    """A tensor that a Module registers as a parameter when it is assigned as an attribute.

    It shares storage with the tensor it wraps, is always a leaf, and requires grad by default
    (even under no_grad). Operations on it give plain Tensors.
    """

    # operations on a Parameter give plain Tensors: no subclass dispatch (PyTorch's setting)
    __torch_function__ = _disabled_torch_function_impl

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            data = ops.empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter.__new__() expected a Tensor, got {type(data).__name__}")
        if requires_grad and data.dtype.category < 2:
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients")
        return _alias(cls, data, requires_grad)  # type: ignore[return-value]

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo: dict[int, Any]) -> Parameter:
        if id(self) in memo:
            return memo[id(self)]  # type: ignore[no-any-return]
        with no_grad():
            result = type(self)(ops.clone(self.data), self.requires_grad)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, protocol: Any) -> Any:
        state = dict(self.__dict__)
        return (_rebuild_parameter, (type(self), self.data, self.requires_grad, state))


def _rebuild_parameter(cls: type, data: Tensor, requires_grad: bool,
                       state: dict[str, Any]) -> Parameter:
    param = cls(data, requires_grad)
    param.__dict__.update(state)
    return param  # type: ignore[no-any-return]


class Buffer(Tensor, metaclass=_BufferMeta):
    """A tensor that a Module registers as a buffer when it is assigned as an attribute
    (`persistent=False` keeps it out of the state_dict)."""

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True) -> Buffer:
        if data is None:
            data = ops.empty(0)
        t = _alias(cls, data, data.requires_grad and data.is_leaf)
        t.persistent = persistent
        return t  # type: ignore[return-value]

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (_rebuild_buffer, (type(self), self.data, self.persistent))


def _rebuild_buffer(cls: type, data: Tensor, persistent: bool) -> Buffer:
    return cls(data, persistent=persistent)  # type: ignore[no-any-return]


class UninitializedTensorMixin:
    """A lazy module's parameter or buffer before the first forward knows its shape."""

    __slots__ = ()  # so that an UninitializedBuffer can become a plain Tensor
    cls_to_become: type

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Give it storage of `shape` (uninitialised values) and its final class."""
        data = ops.empty(tuple(shape), device=device or self.device,  # type: ignore[attr-defined]
                         dtype=dtype or self.dtype)  # type: ignore[attr-defined]
        self.data = data
        self.__class__ = self.cls_to_become

    @property
    def shape(self) -> Any:
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually "
            "happens in `load_state_dict` when trying to load an uninitialized parameter into "
            "an initialized one. Call `forward` to initialize the parameters before accessing "
            "their attributes.")

    def share_memory_(self) -> Any:
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to "
            "initialize the parameters before calling `module.share_memory()`.")

    def __repr__(self) -> str:
        return f"<{self.__class__.__name__}>"


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device: Any = None,
                dtype: Any = None) -> UninitializedParameter:
        data = ops.empty(0, device=device, dtype=dtype)
        return _alias(cls, data, requires_grad)  # type: ignore[return-value]


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    __slots__ = ()
    cls_to_become = Tensor

    def __new__(cls, requires_grad: bool = False, device: Any = None,
                dtype: Any = None) -> UninitializedBuffer:
        data = ops.empty(0, device=device, dtype=dtype)
        return _alias(cls, data, requires_grad)  # type: ignore[return-value]


def is_lazy(param: Any) -> bool:
    return isinstance(param, UninitializedTensorMixin)
