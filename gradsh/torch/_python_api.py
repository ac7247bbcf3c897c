"""What Python programs do with tensors beyond the engine's ops: the legacy constructors
(`torch.Tensor(2, 3)`, `torch.FloatTensor([1, 2])`), and an error naming what gradsh lacks.

`install()` attaches these to the engine's Tensor once, when gradsh.torch is imported: the one
registration step from this layer (the engine's own methods are attached by its method table).
"""

from __future__ import annotations

from types import FunctionType, ModuleType
from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes, ops
from gradsh.engine.dtypes import DType
from gradsh.engine.pytypes import Device, Size
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError
from gradsh.engine.functions.shape import AliasBackward0
from gradsh.engine.ops import complex_ops as _complex_ops
from gradsh.engine.ops.arguments import NO_SELF, self_tensor
from gradsh.engine.tensor import Tensor, no_grad
from gradsh.torch import _linalg_utils, _resize, _settings
from gradsh.torch._builtins import torch_function_names
from gradsh.torch._missing import missing
from gradsh.torch._names import TORCH_NAMES


def _legacy_new(dtype: DType, fname: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Tensor:
    """`torch.Tensor(data)` copies data as `dtype` (a tensor: a view of it, as PyTorch's legacy
    constructor gives); `torch.Tensor(2, 3)` is uninitialised memory
    (gradsh gives zeros); `torch.Tensor()` is empty."""
    device = kwargs.pop("device", None)
    if kwargs:
        return ops.Tensor_(*args, device=device, **kwargs)  # PyTorch's error text
    if not args:
        return ops.zeros(0, dtype=dtype, device=device)
    if len(args) == 1:
        data = args[0]
        if isinstance(data, Tensor):  # a view of the whole tensor (AliasBackward0 with grad)
            if data.dtype is not dtype and fname != "Tensor":  # torch.Tensor takes any dtype
                raise TorchTypeError(f"expected {dtype.legacy.removesuffix('Tensor')} "
                                     f"(got {data.dtype.short})")
            return AliasBackward0.apply(data)
        if type(data).__name__ == "TypedStorage":  # torch.Tensor(x.storage()): shared memory
            if data.dtype is not dtype:
                raise TorchTypeError(f"expected {dtype.legacy.removesuffix('Tensor')} "
                                     f"(got {data.dtype.short})")
            return Tensor._make(data._array, data.device)
        if isinstance(data, Size):  # x.new(torch.Size([2, 3])) is a size, a tuple is data
            return ops.zeros(data, dtype=dtype, device=device)
        if isinstance(data, (list, tuple, np.ndarray)) or (
                hasattr(data, "__len__") and not isinstance(data, (str, bytes))):
            return ops.tensor(data if not isinstance(data, tuple) else list(data), dtype=dtype,
                              device=device)
        if isinstance(data, (float, bool)):
            raise TorchTypeError(f"new(): data must be a sequence (got {type(data).__name__})")
    return ops.empty(*args, dtype=dtype, device=device)  # (gradsh's empty is zeros)


def _tensor_new(cls: type, *args: Any, **kwargs: Any) -> Tensor:
    if cls is not Tensor:  # a subclass (nn.Parameter defines its own __new__): MyTensor(data)
        # builds the legacy constructor's tensor, as an instance of the subclass
        # NOTE: ops on it give plain Tensors (PyTorch keeps the subclass, __torch_function__)
        made = _legacy_new(dtypes.float32, "Tensor", args, kwargs)
        return cls._make(made._data, made.device)  # type: ignore[attr-defined, no-any-return]
    # (no dtype= either: the legacy constructor's "invalid combination" error)
    return _legacy_new(dtypes.float32, "Tensor", args, kwargs)


class _TensorType(type):
    """The type of torch.FloatTensor and friends: calling one builds a tensor of its dtype, and
    `isinstance(x, torch.FloatTensor)` checks the dtype, as PyTorch's tensortype does."""

    dtype: DType

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, Tensor) and instance.dtype is cls.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> Tensor:
        return _legacy_new(cls.dtype, cls.__name__, args, dict(kwargs))


def legacy_type(dtype: DType) -> type:
    return _TensorType(dtype.legacy, (), {"dtype": dtype, "__module__": "torch"})


class _Unimplemented:
    """A torch.Tensor attribute PyTorch has and gradsh lacks: reading it raises "gradsh does not
    implement torch.Tensor.<name> yet" (an AttributeError, so hasattr answers False).

    One such descriptor per missing name, rather than a Tensor.__getattr__: a class with
    __getattr__ has every attribute read go through the slow generic path (CPython specializes
    attribute access only for classes without it), and the engine reads tensor attributes on
    every operation."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        raise missing("torch.Tensor", self.name)


def _install_unimplemented() -> None:
    for name in TORCH_NAMES["torch.Tensor"]:
        # (dunder names stay out: they would fill type slots, __index__ and the like)
        if not name.startswith("__") and not hasattr(Tensor, name):
            setattr(Tensor, name, _Unimplemented(name))
class _CudaTensorType(_TensorType):
    """torch.cuda.FloatTensor and friends: CUDA tensors of the dtype; PyTorch's CPU build has
    the types but cannot make one."""

    def __instancecheck__(cls, instance: Any) -> bool:
        return super().__instancecheck__(instance) and instance.device != "cpu"

    def __call__(cls, *args: Any, **kwargs: Any) -> Tensor:
        try:
            backend.check("cuda:0")
        except AssertionError:
            raise TorchTypeError(f"type torch.cuda.{cls.__name__} not available. Torch not "
                                 "compiled with CUDA enabled.") from None
        return _legacy_new(cls.dtype, cls.__name__, args, {**kwargs, "device": "cuda:0"})


def legacy_cuda_type(dtype: DType) -> type:
    return _CudaTensorType(dtype.legacy, (), {"dtype": dtype, "is_cuda": True,
                                             "__module__": "torch.cuda"})


def _volatile(self: Tensor) -> bool:
    import warnings

    warnings.warn("volatile was removed (Variable.volatile is always False)", stacklevel=2)
    return False


def _set_volatile(self: Tensor, value: Any) -> None:
    import warnings

    warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                  "instead.", stacklevel=2)


def _tensor_getattr(self: Tensor, name: str) -> Any:
    """Reached only when the attribute does not exist: say whether PyTorch has it."""
    raise missing("torch.Tensor", name)


# ---------------------------------------------------------------------------------------------
# copy.deepcopy and pickle (torch.save): PyTorch's semantics
# ---------------------------------------------------------------------------------------------

_DEEPCOPY_NON_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol "
    "at the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001"
)


def _storage(array: np.ndarray) -> tuple[np.ndarray, int] | None:
    """The array owning `array`'s memory and `array`'s byte offset in it, when `array` can be
    rebuilt as a view of it (so tensors sharing storage still share it after a copy)."""
    root = array
    while isinstance(root.base, np.ndarray):
        root = root.base
    if root is array or root.dtype != array.dtype or not (
            root.flags.c_contiguous or root.flags.f_contiguous):
        return None
    offset = (array.__array_interface__["data"][0] - root.__array_interface__["data"][0])
    return root, offset


def _view_of(root: np.ndarray, offset: int, like: Any) -> np.ndarray:
    return np.ndarray(like.shape, dtype=like.dtype, buffer=root, offset=offset,
                      strides=like.strides)


def _tensor_deepcopy(self: Tensor, memo: dict[int, Any]) -> Tensor:
    """A leaf's data (its whole storage, shared with the other tensors copied in the same
    deepcopy), requires_grad, a deep copy of .grad and of a subclass's attributes."""
    if self.grad_fn is not None:
        raise TorchRuntimeError(_DEEPCOPY_NON_LEAF)
    if id(self) in memo:
        return memo[id(self)]  # type: ignore[no-any-return]
    import copy

    data = self._data
    found = _storage(data) if isinstance(data, np.ndarray) else None
    if found is None and isinstance(data, np.ndarray) and data.base is None \
            and data.flags.c_contiguous:
        found = data, 0  # its own storage, which views copied with it share
    if found is None:
        new_data = data.copy()
    else:
        root, offset = found
        root_copy = memo.get(id(root))
        if root_copy is None:
            root_copy = root.copy(order="F" if not root.flags.c_contiguous else "C")
            memo[id(root)] = root_copy
            memo.setdefault(id(memo), []).append(root)  # keep the original alive, as copy does
        new_data = _view_of(root_copy, offset, data)
    with no_grad():
        new = type(self)._make(new_data, self.device)
    if self.requires_grad:
        new.requires_grad_()
    if self._grad is not None:
        new._grad = _tensor_deepcopy(self._grad, memo)
    if hasattr(self, "__dict__"):
        new.__dict__ = copy.deepcopy(self.__dict__, memo)
    memo[id(self)] = new
    return new


def _tensor_reduce_ex(self: Tensor, protocol: Any) -> Any:
    """Pickled as its storage (one object per storage, so views stay views after torch.load),
    its layout, device and requires_grad; not its grad or history, as in PyTorch."""
    data = backend.to_host(self._data)
    found = _storage(data)
    if found is None:
        root, offset = (data if data.flags.c_contiguous else data.copy(order="C")), 0
    else:
        root, offset = found
    layout = (data.shape, data.dtype, data.strides) if found is not None else None
    state = getattr(self, "__dict__", None) or None
    # the plain class by None, not by name: "torch.Tensor" would find a real torch's Tensor
    # in a process that has one
    cls = None if type(self) is Tensor else type(self)
    return (_rebuild_tensor, (cls, root, offset, layout, str(self.device), self.requires_grad,
                              state))


def _rebuild_tensor(cls: type | None, root: np.ndarray, offset: int, layout: Any, device: str,
                    requires_grad: bool, state: dict[str, Any] | None) -> Tensor:
    data = root
    if layout is not None:
        shape, dtype, strides = layout
        data = np.ndarray(shape, dtype=dtype, buffer=root, offset=offset, strides=strides)
    cls = Tensor if cls is None else cls
    t = cls._make(data if device == "cpu" else backend.to_device(data, device), device)
    t._requires_grad = requires_grad
    if state:
        t.__dict__.update(state)
    return t  # type: ignore[no-any-return]


def _tensor_array_wrap(self: Tensor, array: np.ndarray) -> Tensor:
    """What a NumPy function over a tensor returns (`np.sin(t)`, `t * ndarray`): a tensor
    sharing the result's memory, a bool result as uint8, as PyTorch's __array_wrap__ (whose
    one-argument signature NumPy 2 warns about, here as there)."""
    if array.dtype == bool:
        array = array.astype("uint8")
    return Tensor._make(array, "cpu")


def _new_like(self: Tensor = NO_SELF, *args: Any, **kwargs: Any) -> Tensor:
    """x.new(...): the legacy constructor with x's dtype and device."""
    self_tensor(self, "new")  # (torch.Tensor.new(5, ...): the method descriptor's TypeError)
    kwargs.setdefault("device", self.device)
    return _legacy_new(self.dtype, "new", args, kwargs)


def _output_nr(self: Tensor) -> int:
    return self._gradient_edge()[1] if self.grad_fn is not None else 0


def _untyped_storage(self: Tensor) -> Any:
    from gradsh.torch.storage import UntypedStorage

    return UntypedStorage(self)


def _typed_storage(self: Tensor) -> Any:
    from gradsh.torch.storage import TypedStorage

    return TypedStorage.of(self)


def _is_set_to(self: Tensor, other: Tensor) -> bool:
    """x.is_set_to(y): the same storage, offset, sizes and strides (ATen's is_set_to)."""
    return bool(_untyped_storage(self).data_ptr() == _untyped_storage(other).data_ptr()
                and self.storage_offset() == other.storage_offset()
                and self.shape == other.shape and self.stride() == other.stride())


def _adjoint(self: Tensor, name: str = "adjoint()") -> Tensor:
    """x.mH, x.adjoint(): the transpose of the last two dimensions (real dtypes)."""
    if self.ndim < 2:
        raise TorchRuntimeError(f"tensor.{name} is only supported on matrices or batches of "
                                f"matrices. Got {self.ndim}-D tensor.")
    return self.mT


def _pinned(tensor: Tensor) -> Tensor:
    """pin_memory() pins for the accelerator: without one PyTorch refuses (the int device's
    check), with gradsh's CUDA the tensor is returned as it is."""
    from gradsh.engine.ops.arguments import _accelerator

    _accelerator(0)
    return tensor


# Methods of a real CPU tensor that PyTorch answers without computing: (name, function).
_TRIVIAL_METHODS: tuple[tuple[str, Any], ...] = (
    ("new", _new_like),
    ("untyped_storage", _untyped_storage),
    ("storage", _typed_storage),
    ("get_device", lambda self: -1 if self.device == "cpu" else 0),
    ("is_shared", lambda self: False),
    ("share_memory_", lambda self: self),
    ("pin_memory", lambda self, device=None: _pinned(self)),
    ("is_pinned", lambda self, device=None: False),
    ("conj", _complex_ops.conj),
    ("conj_physical", _complex_ops.conj_physical),
    ("resolve_conj", _complex_ops.resolve_conj),
    ("resolve_neg", lambda self: self),
    ("is_conj", _complex_ops.is_conj),
    ("is_neg", lambda self: False),
    ("adjoint", _adjoint),
    ("_is_view", lambda self: self._base is not None),
    ("is_set_to", _is_set_to),
    ("resize", _resize.resize),
    ("resize_as", _resize.resize_as),
)

_TRIVIAL_PROPERTIES: tuple[tuple[str, Any], ...] = (
    ("is_cpu", lambda self: self.device == "cpu"),
    ("real", _complex_ops.real, _complex_ops.set_real),
    ("imag", _complex_ops.imag, _complex_ops.set_imag),
    ("output_nr", _output_nr),
    ("mH", lambda self: _adjoint(self, "mH")),
    ("layout", lambda self: _settings.strided),
)


# class -> the __module__, __name__ and __qualname__ it has outside `gradsh run`
_RENAMED: dict[type, tuple[str, str, str]] = {}
_SERVED = [0]  # how many served_torch blocks are running (they may nest)
_RENAMED_MODULES: dict[ModuleType, str] = {}  # module -> its gradsh name


def _rename(cls: type, module: str, name: str | None = None) -> None:
    _RENAMED.setdefault(cls, (cls.__module__, cls.__name__, cls.__qualname__))
    cls.__module__ = module
    if name is not None:
        cls.__name__ = cls.__qualname__ = name


def torch_class_names(module: ModuleType) -> None:
    """While gradsh serves `import torch`, classes defined in a public gradsh.torch module print
    as PyTorch's (`<class 'torch.nn.modules.linear.Linear'>`): their __module__ loses the
    `gradsh.` prefix, which gradsh.torch's layout makes PyTorch's module, and which the served
    sys.modules resolves (so pickle finds them). Private modules (`_random`) keep theirs."""
    name = _RENAMED_MODULES.get(module, module.__name__)
    if not name.startswith("gradsh.torch") or any(p.startswith("_") for p in name.split(".")):
        return
    for value in list(vars(module).values()):
        if (isinstance(value, type) or (isinstance(value, FunctionType)
                                         and not value.__name__.startswith("_"))) \
                and value.__module__ == name:
            # (public functions too: F.cross_entropy.__module__; private ones, which gradsh's
            # pickles name, keep theirs)
            _rename(value, name[len("gradsh."):])
    # PyTorch's module and qualified name for the functions gradsh defines elsewhere (F.relu's
    # guard, made in gradsh.engine.ops): `<function relu at 0x...>`, F.relu.__module__
    for function, torch_module, torch_name, qualname in torch_function_names(
            name[len("gradsh."):], vars(module)):
        _rename(function, torch_module, torch_name)  # type: ignore[arg-type]
        function.__qualname__ = qualname
    # the module's own __name__ too (d2l tells PyTorch's schedulers from its own with
    # `scheduler.__module__ == lr_scheduler.__name__`); imports resolve through __spec__ and
    # __package__, which keep gradsh's names
    _RENAMED_MODULES.setdefault(module, name)
    module.__name__ = name[len("gradsh."):]


def serve_class_names() -> None:
    """PyTorch's class names for every gradsh.torch module imported so far, and for the
    engine's torch.Size, torch.dtype and torch.device. Only while `import torch` is gradsh's:
    next to a real torch, `torch.Size` would make pickle find the real one."""
    import sys

    _SERVED[0] += 1
    for module in [m for n, m in sys.modules.items() if n.startswith("gradsh.torch")]:
        torch_class_names(module)
    _rename(Size, "torch")
    _rename(DType, "torch", "dtype")
    _rename(Device, "torch", "device")


def restore_class_names() -> None:
    """gradsh's own names back, when the outermost served program ends."""
    _SERVED[0] -= 1
    if _SERVED[0] > 0:
        return
    for cls, (module, name, qualname) in _RENAMED.items():
        cls.__module__, cls.__name__, cls.__qualname__ = module, name, qualname
    _RENAMED.clear()
    for served, name in _RENAMED_MODULES.items():
        served.__name__ = name
    _RENAMED_MODULES.clear()


def install() -> None:
    # `type(x)` prints <class 'torch.Tensor'>, as in PyTorch
    Tensor.__module__ = "torch"
    Tensor.__new__ = _tensor_new  # type: ignore[assignment]
    Tensor.__deepcopy__ = _tensor_deepcopy  # type: ignore[attr-defined]
    Tensor.__reduce_ex__ = _tensor_reduce_ex  # type: ignore[assignment]
    Tensor.__array_wrap__ = _tensor_array_wrap  # type: ignore[attr-defined]
    for name, method in _TRIVIAL_METHODS:
        setattr(Tensor, name, method)
    for name, getter, *setter in _TRIVIAL_PROPERTIES:
        setattr(Tensor, name, property(getter, *setter))
    Tensor.volatile = property(_volatile, _set_volatile)  # type: ignore[attr-defined]
    for name, method in _linalg_utils.METHODS.items():  # removed since 1.9: their errors
        setattr(Tensor, name, method)
    _install_unimplemented()
