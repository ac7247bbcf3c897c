"""Tensor: a backend array with PyTorch's autograd attributes (what PyTorch's C++ calls a
Variable), and the version counter its aliases share."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from gradsh.engine import backend, dtypes, forward_grad, meta, pytypes
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import (
    TorchOverflowError,
    TorchRuntimeError,
    TorchTypeError,
    warn,
)
from gradsh.engine.grad_mode import _GradMode, current_origin
from gradsh.engine.pytypes import Size, device_of
from gradsh.engine.threads import elementwise
from gradsh.engine.undo import _Undo
from gradsh.engine.view_rules import rebase_error

if TYPE_CHECKING:  # (type names only: gradsh.engine.node sits above this module)
    from gradsh.engine.node import Edge, Node

Array = Any  # a numpy.ndarray, or a cupy.ndarray on the cuda device
Shape = tuple[int, ...]


def ambiguous_bool_message(numel: int) -> str:
    """PyTorch's error for bool() (is_nonzero) of a tensor that is not one element."""
    return "Boolean value of Tensor with " + (
        "no values is ambiguous" if numel == 0 else "more than one value is ambiguous")


class VersionCounter:
    """Shared by every tensor aliasing one storage through autograd-visible means."""

    # origin: where the last in-place change came from (unset until there is one)
    __slots__ = ("value", "origin")

    def __init__(self) -> None:
        self.value = 0


class InferenceCounter(VersionCounter):
    """What an inference tensor (made under torch.inference_mode) has for a version counter: it
    tracks nothing (`x._version` raises). `alias`: a detach() or .data of one, which is an
    inference tensor too but may be changed in place anywhere, as in PyTorch."""

    __slots__ = ("alias",)

    def __init__(self, alias: bool) -> None:
        super().__init__()
        self.alias = alias


INFERENCE = InferenceCounter(alias=False)
INFERENCE_ALIAS = InferenceCounter(alias=True)
INFERENCE_INPLACE_MESSAGE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details.")
INFERENCE_REQUIRES_GRAD_MESSAGE = ("Setting requires_grad=True on inference tensor outside "
                                   "InferenceMode is not allowed.")


class InferenceMode:
    """torch.inference_mode's state: while it is on, every tensor made is an inference tensor
    (its counter INFERENCE), except views, which share their base's counter."""

    counter: VersionCounter | None = None



# NumPy 2's texts for an __array__ without a copy keyword (numpy/_core/src/multiarray/ctors.c)
_ARRAY_COPY_WARNING = (
    "__array__ implementation doesn't accept a copy keyword, so passing copy=False failed. "
    "__array__ must implement 'dtype' and 'copy' keyword arguments. To learn more, see the "
    "migration guide https://numpy.org/devdocs/numpy_2_0_migration_guide.html"
    "#adapting-to-changes-in-the-copy-keyword")
_ARRAY_NO_COPY_ERROR = (
    "Unable to avoid copy while creating an array as requested.\nIf using "
    "`np.array(obj, copy=False)` replace it with `np.asarray(obj)` to allow a copy when needed "
    "(no behavior change in NumPy 1.x).\nFor more details, see "
    "https://numpy.org/devdocs/numpy_2_0_migration_guide.html"
    "#adapting-to-changes-in-the-copy-keyword.")


class _TensorMeta(type):
    """Tensor's metaclass, by PyTorch's name (`type(torch.Tensor)` is torch._C._TensorMeta);
    it adds nothing."""


_TensorMeta.__module__ = "torch._C"


class Tensor(metaclass=_TensorMeta):
    """An n-dimensional array with PyTorch's autograd attributes.

    Public attributes mirror PyTorch: requires_grad, is_leaf, grad_fn, grad, retains_grad, data,
    shape, dtype, device, _version. Operations and methods are attached by gradsh.engine.ops.
    """

    __slots__ = ("_data", "_requires_grad", "_grad_fn", "_grad", "_counter", "_base",
                 "_view_fn", "_view_version", "_acc", "_hooks", "device", "_wrapped",
                 "_view_creation", "_post_accumulate_hooks", "__weakref__", "__dict__")
    # (__dict__: a program may hang its own attributes on a tensor, as fast.ai's `inp.g = ...`
    # does with PyTorch's; the dict is made only when one is set)
    # (_post_accumulate_hooks is set only by register_post_accumulate_grad_hook, which sets
    # this: until then AccumulateGrad does not look, since reading the unset slot goes
    # through gradsh.torch's __getattr__, which builds an error)
    _post_accumulate_hooks_used: ClassVar[bool] = False

    # Let NumPy defer to Tensor's reflected operators (`2.0 * t` with a numpy scalar on the left).
    __array_priority__ = 1000

    # The two nodes a tensor makes for itself: its leaf's AccumulateGrad, and a fresh grad_fn
    # for a view whose base changed in place. gradsh.engine.node, the layer above, installs
    # them when it is imported; this module never imports it.
    _accumulate_grad_node: ClassVar[Callable[[Tensor], Node]]
    _view_node: ClassVar[Callable[[Tensor, Callable[[Array], Array] | None, Shape], Node]]

    @classmethod
    def _make(cls, data: Array, device: str = "cpu", grad_fn: Node | None = None,
              requires_grad: bool = False) -> Tensor:
        if device != "cpu" or data.__class__ is not np.ndarray:
            data = backend.place(data, device)  # a no-op unless an op computed on the wrong side
        t = object.__new__(cls)  # not cls.__new__: gradsh.torch gives Tensor a legacy constructor
        t._data = data
        t._requires_grad = requires_grad
        t._grad_fn = grad_fn
        t._grad = None
        t._counter = InferenceMode.counter  # None: made on first use (see _version_counter)
        t._base = None
        t._view_fn = None
        t._view_version = 0
        t._view_creation = 0  # view_rules.DEFAULT
        t._acc = None
        t._hooks = None
        t.device = _DEVICE_OBJECTS.get(device) or device_of(device)
        t._wrapped = False
        return t

    @classmethod
    def wrap_scalar(cls, value: bool | int | float, device: str = "cpu") -> Tensor:
        """A Python number as PyTorch wraps it for an operation: a 0-d tensor of low priority.

        A float is kept as a double, as PyTorch's wrapped numbers are: kernels read it back
        with item(), and a float64 tensor times 0.1 must multiply by the double 0.1, not by
        0.1 rounded to float32 (type promotion ranks wrapped numbers by kind, not dtype)."""
        kind = value.__class__
        if kind is float:  # the common case first, without the call
            dtype = dtypes.float64
        elif kind is complex:  # kept double too
            dtype = dtypes.complex128
        else:
            dtype = dtypes.scalar_dtype(value)
            if kind is int and not -(1 << 63) <= value < (1 << 63):
                return cls._wrap_big_int(value)
        t = _make(cls, np.array(value, dtype=dtype.np))  # (cls._make, without a bound method)
        t._wrapped = True
        return t

    @classmethod
    def _wrap_big_int(cls, value: int) -> Tensor:
        """An int beyond int64, as PyTorch's Scalar takes it: below 2**64 an unsigned 64-bit
        number (an int64 result reads it wrapped around), else an OverflowError."""
        if value < 0:
            raise TorchOverflowError("can't convert negative int to unsigned")
        if value >= 1 << 64:
            raise TorchOverflowError("int too big to convert")
        t = cls._make(np.array(value, dtype=np.uint64))
        t._wrapped = True
        return t

    @property
    def _version(self) -> int:
        """How many in-place changes this tensor's storage has seen (PyTorch's `x._version`)."""
        counter = self._counter
        if counter is None:
            return 0
        if counter.__class__ is InferenceCounter:
            raise TorchRuntimeError("Inference tensors do not track version counter.")
        return counter.value

    def _version_value(self) -> int:
        """The version for the engine's own bookkeeping (an inference tensor's reads 0)."""
        counter = self._counter
        return 0 if counter is None else counter.value

    def is_inference(self) -> bool:
        """Whether this tensor was made under torch.inference_mode (or aliases one)."""
        return self._counter.__class__ is InferenceCounter

    def _check_inference_inplace(self) -> None:
        if self._counter is INFERENCE and InferenceMode.counter is None:
            raise TorchRuntimeError(INFERENCE_INPLACE_MESSAGE)

    @property
    def _version_counter(self) -> VersionCounter:
        """The version counter of this tensor's storage, shared by its aliases. Made on first
        use: most results (a chain's intermediate values) are never saved, viewed or changed in
        place, and need none."""
        counter = self._counter
        if counter is None:
            counter = self._counter = VersionCounter()
        return counter

    @_version_counter.setter
    def _version_counter(self, counter: VersionCounter) -> None:
        self._counter = counter

    # -- autograd attributes ------------------------------------------------------------------

    @property
    def grad_fn(self) -> Node | None:
        if self._base is not None:
            self._refresh_view_grad_fn()
        return self._grad_fn

    def peek_grad_fn(self) -> Node | None:
        """grad_fn for displays and tools: never raises (a view that may not be rebased gives
        the grad_fn it had)."""
        try:
            return self.grad_fn
        except TorchRuntimeError:
            return self._grad_fn

    def grad_fn_name(self) -> str | None:
        """grad_fn's name for displays, "Invalid" where reading grad_fn raises (a view that may
        not be rebased), as PyTorch's repr prints it."""
        try:
            fn = self.grad_fn
        except TorchRuntimeError:
            return "Invalid"
        return fn.node_name if fn is not None else None

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def requires_grad(self) -> bool:
        # A view made under no_grad has no grad_fn but reports its base's flag, as in PyTorch.
        return self._requires_grad or self._grad_fn is not None or (
            self._base is not None and self._base.requires_grad)

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if value.__class__ is not bool:
            raise TorchRuntimeError("requires_grad must be a bool")
        if self._grad_fn is not None:
            message = "you can only change requires_grad flags of leaf variables."
            if not value:
                message += NON_LEAF_REQUIRES_GRAD_SUFFIX
            raise TorchRuntimeError(message)
        if value and not self.dtype.is_floating_point:
            raise TorchRuntimeError(
                "only Tensors of floating point and complex dtype can require gradients"
            )
        if value and self._counter is INFERENCE and InferenceMode.counter is None:
            raise TorchRuntimeError(INFERENCE_REQUIRES_GRAD_MESSAGE)
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if self._grad_fn is not None:
            if not requires_grad:
                raise TorchRuntimeError(
                    "you can only change requires_grad flags of leaf variables."
                    + NON_LEAF_REQUIRES_GRAD_SUFFIX
                )
            return self
        if requires_grad and self.dtype.category < 2:
            raise TorchRuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and self._counter is INFERENCE and InferenceMode.counter is None:
            raise TorchRuntimeError(INFERENCE_REQUIRES_GRAD_MESSAGE)
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def retains_grad(self) -> bool:
        fn = self._grad_fn
        if fn is not None and fn.num_outputs != 1:
            return fn.retains_slot(self)  # type: ignore[attr-defined,no-any-return]
        return fn is not None and fn.retain_grad_ref is not None and fn.retain_grad_ref() is self

    def retain_grad(self) -> None:
        if not self.requires_grad:
            raise TorchRuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        fn = self.grad_fn
        if fn is None:
            return  # a leaf keeps its grad anyway
        if fn.num_outputs != 1:
            fn.retain_slot(self)  # type: ignore[attr-defined]
            return
        fn.retain_grad_ref = weakref.ref(self)

    @property
    def grad(self) -> Tensor | None:
        if self._grad is None and self._grad_fn is not None and not self.retains_grad:
            warn(NON_LEAF_GRAD_WARNING)
        return self._grad

    def peek_grad(self) -> Tensor | None:
        """`.grad` without the non-leaf warning: for displays that must not change anything."""
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TorchTypeError("assigned grad expected to be a Tensor or None but got "
                                     f"grad of type {type(value).__name__}")
            if value.dtype is not self.dtype:
                raise TorchRuntimeError(
                    "attempting to assign a gradient with dtype "
                    f"'{_C_TYPE_NAMES[value.dtype.name]}'"
                    f" to a tensor with grad_dtype '{self.dtype.short}'. The gradient must match "
                    "the tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
                    "tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                    "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                    "gradient may break downstream systems that assume they match."
                )
            if value.device != self.device:
                raise TorchRuntimeError("assigned grad has data located on a different device")
            if value.shape != self.shape:
                raise TorchRuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of "
                    f"size '{list(self.shape)}'. Please ensure that the gradient and the tensor "
                    "are the same size"
                )
        self._grad = value

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        if not self.requires_grad:
            raise TorchRuntimeError(
                "cannot register a hook on a tensor that doesn't require gradient"
            )
        fn = self.grad_fn
        if fn is None:
            if self._hooks is None:
                self._hooks = []
            hooks = self._hooks
        elif fn.num_outputs != 1:
            return fn.register_slot_hook(self, hook)  # type: ignore[attr-defined,no-any-return]
        else:
            if not isinstance(fn.pre_hooks, list):
                fn.pre_hooks = []
            hooks = fn.pre_hooks
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]) -> Any:
        """hook(tensor) after backward has accumulated into this leaf's .grad."""
        if not self.requires_grad:
            raise TorchRuntimeError(
                "cannot register a hook on a tensor that doesn't require gradient"
            )
        if self.grad_fn is not None:
            raise TorchRuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors"
            )
        hooks = getattr(self, "_post_accumulate_hooks", None)
        if hooks is None:
            hooks = self._post_accumulate_hooks = []
            Tensor._post_accumulate_hooks_used = True
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def detach(self) -> Tensor:
        t = Tensor._make(self._data, self.device)
        counter = self._version_counter
        t._version_counter = INFERENCE_ALIAS if counter is INFERENCE else counter
        return t

    def detach_(self) -> Tensor:
        if self._base is not None:
            raise TorchRuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self._grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self) -> Tensor:
        """A tensor on the same storage that autograd does not track (fresh version counter)."""
        t = Tensor._make(self._data, self.device)
        if self._counter is INFERENCE:
            t._counter = INFERENCE_ALIAS
        return t

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TorchTypeError(f"Variable data has to be a tensor, but got "
                                 f"{type(value).__name__}")
        if value.device != self.device and False:
            raise TorchRuntimeError("data set to a tensor on a different device")
        self._data = value._data
        self.device = value.device

    # -- plain attributes -----------------------------------------------------------------------

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    @property
    def dtype(self) -> DType:
        dtype = _DTYPES.get(self._data.dtype)
        return dtype if dtype is not None else dtypes.from_numpy(self._data.dtype)

    @property
    def ndim(self) -> int:
        return self._data.ndim  # type: ignore[no-any-return]

    def dim(self) -> int:
        return self._data.ndim  # type: ignore[no-any-return]

    def numel(self) -> int:
        return int(self._data.size)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TorchTypeError("len() of a 0-d tensor")
        return int(self._data.shape[0])

    # -- autograd plumbing ----------------------------------------------------------------------

    def _gradient_edge(self) -> Edge:
        fn = self.grad_fn
        if fn is not None:
            return (fn, 0) if fn.num_outputs == 1 else fn.edge_of(self)
        if not self._requires_grad:
            return (None, 0)
        acc = self._acc() if self._acc is not None else None
        if acc is None:
            acc = self._accumulate_grad_node(self)
            self._acc = weakref.ref(acc)
        return (acc, 0)

    def _refresh_view_grad_fn(self) -> None:
        """A view whose storage was modified in place since its grad_fn was set gets a fresh
        one, AsStridedBackward0 on top of the base's current history, as in PyTorch; retain_grad
        moves to it. A view that may not be rebased (view_rules) raises instead, each time."""
        if self._view_version == self._version_value():
            return
        base = self._base
        assert base is not None
        if self._grad_fn is None and not base.requires_grad:
            return
        if self._view_creation:
            raise rebase_error(self, indirect=True)
        self._view_version = self._version_value()
        if base.requires_grad:
            old = self._grad_fn
            self._grad_fn = self._view_node(base, self._view_fn, self.shape)
            if old is not None and old.retain_grad_ref is not None and \
                    old.retain_grad_ref() is self:
                old.retain_grad_ref = None
                self._grad_fn.retain_grad_ref = weakref.ref(self)

    def _inplace_data(self, value: Array) -> None:
        """Write `value` into this tensor's storage (visible through every alias)."""
        data = self._data
        if _Undo.log is not None:
            _Undo.log.record_write(self)
        if isinstance(data, np.ndarray) and data.ndim == 0 and not data.flags.writeable:
            self._data = np.array(value, dtype=data.dtype)
        elif self.device == "meta":
            pass  # a meta tensor has no data to write
        else:
            if self.device != "cpu" and isinstance(value, np.ndarray):
                value = backend.place(value, self.device)
            data[...] = value
        self._inplace_written()

    def _inplace_written(self) -> None:
        """What follows a write into this tensor's storage: its version counted, where it
        happened recorded, an inference tensor's error (the caller logged the write for undo
        before it: `_Undo.log.record_write(self)`)."""
        counter = self._version_counter  # (the property once: every in-place write)
        counter.value += 1
        counter.origin = current_origin()
        if self._counter is INFERENCE:  # PyTorch checks after the kernel wrote
            self._check_inference_inplace()

    def _inplace_add(self, value: Array) -> None:
        """`self._inplace_data(self._data + value)`, adding in place where that gives the same
        array (a NumPy array of the same shape and dtype): no temporary, one pass."""
        data = self._data
        if (data.__class__ is np.ndarray and value.__class__ is np.ndarray
                and data.shape == value.shape and data.dtype == value.dtype
                and data.flags.writeable and data.ndim > 0):
            if _Undo.log is not None:
                _Undo.log.record_write(self)
            elementwise(np.add, data, value, out=data)
            self._inplace_written()
        else:
            self._inplace_data(data + value)

    # -- conversion ------------------------------------------------------------------------------

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The NumPy array sharing this tensor's memory (a write through either is seen by
        the other), refused for a tensor that requires grad, as in PyTorch. PyTorch's NumPy
        has no bfloat16, so a bfloat16 tensor is refused too (gradsh's arrays have it)."""
        if force:
            self._check_numpy_dtype()
            return np.asarray(backend.to_host(self.detach()._data))
        if self.device != "cpu":  # (checked first, as tensor_to_numpy does)
            raise TorchTypeError(
                f"can't convert {self.device} device type tensor to numpy. Use Tensor.cpu() to "
                "copy the tensor to host memory first."
            )
        if self.requires_grad and _GradMode.enabled:  # PyTorch allows it under no_grad
            raise TorchRuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                                    "tensor.detach().numpy() instead.")
        self._check_numpy_dtype()
        return np.asarray(self._data)

    def _check_numpy_dtype(self) -> None:
        if self._data.dtype == dtypes.BF16_NP:
            raise TorchTypeError("Got unsupported ScalarType BFloat16")
        if self._data.dtype.kind == "c" and self.__dict__.get("_gradsh_conj"):  # (conj())
            raise TorchRuntimeError("Can't call numpy() on Tensor that has conjugate bit set. "
                                    "Use tensor.resolve_conj().numpy() instead.")

    def item(self) -> bool | int | float:
        if self.device == "meta" and self._data.size == 1:
            raise TorchRuntimeError(meta.ITEM_MESSAGE)
        if self._data.size != 1:
            raise TorchRuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar"
            )
        return self._data.reshape(()).item()  # type: ignore[no-any-return]

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """`np.asarray(t)`: the tensor's memory (as numpy() gives it), converted if asked.

        PyTorch's __array__ takes no `copy`: NumPy 2 then warns at each np.array(t) (which
        passes copy) and cannot promise copy=False; gradsh says and does the same."""
        if copy is not None:
            import warnings

            warnings.warn(_ARRAY_COPY_WARNING, DeprecationWarning, stacklevel=2)
            if copy is False:
                raise ValueError(_ARRAY_NO_COPY_ERROR)
        array = self.numpy()
        if dtype is not None and np.dtype(dtype) != array.dtype:
            return array.astype(dtype)
        return array.copy() if copy else array

    def __format__(self, spec: str) -> str:
        """f"{loss:.4f}": a one-element 0-d tensor formats its item(), as in PyTorch."""
        if self._data.ndim == 0:
            return format(self.item(), spec)
        return object.__format__(self, spec)

    def __repr__(self) -> str:
        from gradsh.engine.tensor_str import format_tensor

        tangent = forward_grad.tangent_of(self) if forward_grad._TANGENTS else None
        kind = type(self)
        subclass = kind is not Tensor and kind.__name__ not in ("Parameter", "Buffer") and \
            not any(base.__name__ == "Parameter" for base in kind.__mro__)
        return format_tensor(
            backend.to_host(self._data),
            self.dtype,
            device=self.device,
            requires_grad=self.requires_grad,
            grad_fn=self.grad_fn_name(),
            tangent=None if tangent is None else repr(tangent),
            prefix=f"{kind.__name__}(" if subclass else "tensor(",
        )

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise TorchRuntimeError(ambiguous_bool_message(self._data.size))
        if self.device == "meta":
            raise TorchRuntimeError(meta.ITEM_MESSAGE)
        return bool(self._data.reshape(()))

    def __hash__(self) -> int:
        return id(self)


_DTYPES = dtypes._BY_NP  # numpy dtype -> DType, read directly on the hot path
_DEVICE_OBJECTS = pytypes._DEVICES  # device name -> Device, likewise
# Tensor._make as a plain function (calling the classmethod makes a bound method each time)
_make = Tensor.__dict__["_make"].__func__

# c10's names of the scalar types, as PyTorch's messages print them
_C_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
                 "bfloat16": "c10::BFloat16",
                 "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
                 "uint8": "unsigned char", "bool": "bool"}

NON_LEAF_REQUIRES_GRAD_SUFFIX = (
    " If you want to use a computed variable in a subgraph that doesn't require differentiation "
    "use var_no_grad = var.detach()."
)

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)


class RemovableHandle:
    """What register_hook returns; `remove()` unregisters the hook."""

    def __init__(self, hooks: list[Any], hook: Any):
        self._hooks = hooks
        self._hook = hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


# A program printing a handle sees PyTorch's class (`<torch.utils.hooks.RemovableHandle ...>`)
RemovableHandle.__module__ = "torch.utils.hooks"
