"""The public tensor API: torch.* functions and Tensor methods, built on the Function classes.

This layer does what PyTorch's Python bindings and dispatcher do before an op runs: normalise
arguments (sizes as varargs or tuples, negative dims), wrap Python numbers, pick the overload
(`x ** 2` is PowBackward0, `2 ** x` PowBackward2), check argument errors with PyTorch's text,
compose the ops PyTorch composes (matmul, flatten, cross_entropy, setitem) from the same steps
so their graphs look the same, and route in-place variants through `apply_inplace`. Methods are
attached to Tensor from one explicit table at the bottom.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes, exceptions, limits
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import (
    TorchIndexError,
    TorchNotImplementedError,
    TorchRuntimeError,
    TorchTypeError,
    TorchValueError,
    warn,
)
from gradsh.engine.functions.activations import (
    EluBackward0,
    GeluBackward0,
    HardsigmoidBackward0,
    HardtanhBackward0,
    LeakyReluBackward0,
    LogSigmoidBackward0,
    LogSoftmaxBackward0,
    MishBackward0,
    SiluBackward0,
    SoftmaxBackward0,
    SoftplusBackward0,
)
from gradsh.engine.functions.arithmetic import (
    AddBackward0,
    AddBackward1,
    AddcdivBackward0,
    AddcmulBackward0,
    Atan2Backward0,
    DivBackward0,
    DivBackward1,
    FloorDivideNotImplemented,
    FmodBackward0,
    FmodBackward1,
    LerpBackward0,
    MulBackward0,
    MulBackward1,
    PowBackward0,
    PowBackward1,
    PowBackward2,
    RemainderBackward0,
    RemainderBackward1,
    RsubBackward1,
    SubBackward0,
    SubBackward1,
    XlogyBackward0,
    _RemainderScalarTensor,
)
from gradsh.engine.functions.common import (
    broadcast_shapes,
    fma64,
    infer_size,
    not_implemented_for,
    result_dtype,
    xp_of,
)
from gradsh.engine.functions.comparison import _Bitwise, _Compare
from gradsh.engine.functions.copies import (
    CloneBackward0,
    CopyBackwards,
    FillBackward2,
    FillBackward3,
    ToCopyBackward0,
    ZeroBackward0,
)
from gradsh.engine.functions.grad_ops import ScalarOverloads, _Namespace
from gradsh.engine.functions.higher_order import (
    DiagonalBackwardBackward0,
    IndexPutImplBackward0,
    LogSoftmaxBackwardDataBackward0,
    MseLossBackwardBackward0,
    NllLossBackwardBackward0,
    SelectBackwardBackward0,
    SigmoidBackwardBackward0,
    SliceBackwardBackward0,
    SoftmaxBackwardDataBackward0,
    StridedScatter,
    StridedView,
    TanhBackwardBackward0,
    ThresholdBackwardBackward0,
    ValueSelectingBackward,
    _ViewScatter,
)
from gradsh.engine.functions.indexing import (
    GatherBackward0,
    IndexAddBackward0,
    IndexBackward0,
    IndexFillBackward0,
    IndexPutBackward0,
    IndexSelectBackward0,
    MaskedSelectBackward0,
    ScatterAddBackward0,
    ScatterBackward0,
    ScatterBackward1,
    TakeBackward0,
)
from gradsh.engine.functions.joining import (
    CatBackward0,
    ConstantPadNdBackward0,
    FlipBackward0,
    RepeatBackward0,
    RollBackward0,
    StackBackward0,
)
from gradsh.engine.functions.linalg import (
    AddmmBackward0,
    BmmBackward0,
    DiagEmbedBackward0,
    DiagonalBackward0Copy,
    DotBackward0,
    MmBackward0,
    MvBackward0,
    TraceBackward0,
    TrilBackward0,
    TriuBackward0,
    _strides,
)
from gradsh.engine.functions.losses import (
    BinaryCrossEntropyBackward0,
    BinaryCrossEntropyWithLogitsBackward0,
    HuberLossBackward0,
    MseLossBackward0,
    NllLossBackward0,
    SmoothL1LossBackward0,
)
from gradsh.engine.functions.reductions import (
    AmaxBackward0,
    AminBackward0,
    CumprodBackward0,
    CumsumBackward0,
    DistBackward0,
    LinalgVectorNormBackward0,
    LogsumexpBackward0,
    MaxBackward0,
    MaxBackward1,
    MeanBackward0,
    MeanBackward1,
    MinBackward0,
    MinBackward1,
    ProdBackward0,
    ProdBackward1,
    StdBackward0,
    SumBackward0,
    SumBackward1,
    VarBackward0,
    _arg_extremum,
)
from gradsh.engine.functions.sampling import BernoulliBackward1, NormalBackward0, UniformBackward0
from gradsh.engine.functions.selection import (
    ClampBackward0,
    ClampBackward1,
    ClampMaxBackward0,
    ClampMinBackward0,
    MaskedFillBackward0,
    MaskedFillBackward1,
    MaximumBackward0,
    MinimumBackward0,
    WhereBackward0,
)
from gradsh.engine.functions.shape import (
    AliasBackward0,
    ExpandBackward0,
    PermuteBackward0,
    ReshapeAliasBackward0,
    SelectBackward0,
    SliceBackward0,
    SplitBackward0,
    SplitWithSizesBackward0,
    SqueezeBackward0,
    SqueezeBackward1,
    SqueezeBackward2,
    SqueezeBackward4,
    TBackward0,
    TransposeBackward0,
    UnbindBackward0,
    UnsafeViewBackward0,
    UnsqueezeBackward0,
    ViewBackward0,
)
from gradsh.engine.functions.sorting import (
    KthvalueBackward0,
    MedianBackward0,
    MedianBackward1,
    ModeBackward0,
    NanmedianBackward0,
    SortBackward0,
    TopkBackward0,
    _kth_smallest,
)
from gradsh.engine.functions.unary import (
    AbsBackward0,
    AcosBackward0,
    AsinBackward0,
    AtanBackward0,
    CeilBackward0,
    CosBackward0,
    CoshBackward0,
    ErfBackward0,
    Exp2Backward0,
    ExpBackward0,
    Expm1Backward0,
    FloorBackward0,
    FracBackward0,
    Log10Backward0,
    Log1PBackward0,
    Log2Backward0,
    LogBackward0,
    LogitBackward0,
    NanToNumBackward0,
    NegBackward0,
    ReciprocalBackward0,
    ReluBackward0,
    RoundBackward0,
    RsqrtBackward0,
    SgnBackward0,
    SigmoidBackward0,
    SignBackward0,
    SinBackward0,
    SinhBackward0,
    SqrtBackward0,
    TanBackward0,
    TanhBackward0,
    TruncBackward0,
)
from gradsh.engine.tensor import (
    Function,
    Tensor,
    TensorOps,
    _as_array,
    _once,
    apply_inplace,
    check_same_device,
    enable_grad,
    is_grad_enabled,
    no_grad,
    run_backward,
    set_grad_enabled,
)

__all__ = ["enable_grad", "is_grad_enabled", "no_grad", "set_grad_enabled"]

Number = bool | int | float
TensorLike = Tensor | Number

float16, float32, float64 = dtypes.float16, dtypes.float32, dtypes.float64
int8, int16, int32, int64 = dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64
uint8 = dtypes.uint8
bool_ = dtypes.bool_
half, float_, double, long, short = float16, float32, float64, int64, int16

# ---------------------------------------------------------------------------------------------
# Argument helpers
# ---------------------------------------------------------------------------------------------


def is_number(value: Any) -> bool:
    return isinstance(value, (bool, int, float)) and not isinstance(value, Tensor)


def _type_name(value: Any) -> str:
    return type(value).__name__


def as_tensor_operand(value: TensorLike, like: Tensor | None = None) -> Tensor:
    """A Tensor for an operand: Python numbers become wrapped 0-d tensors, as in PyTorch."""
    if isinstance(value, Tensor):
        return value
    if is_number(value):
        return Tensor.wrap_scalar(value)
    raise TorchTypeError(f"unsupported operand type: '{_type_name(value)}'")


def _check_tensor(value: Any, fname: str, arg: str = "input", position: int = 1) -> Tensor:
    if not isinstance(value, Tensor):
        raise TorchTypeError(
            f"{fname}(): argument '{arg}' (position {position}) must be Tensor, not "
            f"{_type_name(value)}"
        )
    return value


def wrap_dim(dim: int, ndim: int) -> int:
    """A dimension index made non-negative, with PyTorch's IndexError when out of range."""
    if isinstance(dim, Tensor) and dim.numel() == 1 and not dim.dtype.is_floating_point:
        dim = int(dim.item())
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TorchTypeError(f"dim must be an int, got {_type_name(dim)}")
    low, high = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    if dim < low or dim > high:
        raise TorchIndexError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"
        )
    return dim % builtins.max(ndim, 1)


def normalize_dims(dim: int | Sequence[int], ndim: int) -> tuple[int, ...]:
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    result = tuple(wrap_dim(d, ndim) for d in dims)
    for i, d in enumerate(result):
        if d in result[:i]:
            raise TorchRuntimeError(f"dim {d} appears multiple times in the list of dims")
    if ndim == 0:
        return ()
    return result


def _reduction_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """dims for sum/mean: an empty list reduces over every dimension, as in PyTorch."""
    dims = normalize_dims(dim, ndim)
    return dims if dims else tuple(range(ndim))


def size_args(args: tuple[Any, ...], fname: str = "zeros", itemsize: int = 0) -> tuple[int, ...]:
    """`zeros(2, 3)`, `zeros((2, 3))`, `zeros([2, 3])` and `zeros(size)` all mean shape (2, 3).

    With `itemsize`, a shape over gradsh's memory limit is refused before anything is allocated.
    """
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    shape = []
    for i, n in enumerate(args):
        if isinstance(n, Tensor) and n.numel() == 1 and not n.dtype.is_floating_point:
            n = n.item()
        if not isinstance(n, int) or isinstance(n, bool):
            if len(args) > 1:
                raise TorchTypeError(
                    f"{fname}(): argument 'size' failed to unpack the object at pos {i + 1} with "
                    f'error "type must be tuple of ints,but got {_type_name(n)}"'
                )
            raise TorchTypeError(
                f"{fname}(): argument 'size' (position 1) must be tuple of ints, not "
                f"{_type_name(n)}"
            )
        shape.append(n)
    for n in shape:
        if n < 0:
            raise TorchRuntimeError(
                f"Trying to create tensor with negative dimension {n}: {shape}"
            )
    if itemsize:
        limits.check(tuple(shape), itemsize)
    return tuple(shape)


def _device_name(device: Any) -> str:
    if device is None:
        return DefaultDevice.value
    name = str(device)
    if name == "cuda":
        return "cuda:0"
    if name == "cpu" or name.startswith("cuda:"):
        if name.startswith("cuda:") and name != "cuda:0":
            raise TorchRuntimeError(f"gradsh has one CUDA device, cuda:0; got {name}")
        return name
    raise TorchRuntimeError(
        "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, "
        "maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of "
        f"device string: {name}"
    )


class DefaultDevice:
    """The device new tensors are created on (`device cuda` changes it)."""

    value: str = "cpu"


class DeviceHooks:
    """How a device becomes usable (the backend decides: CuPy, simulated, or the error)."""

    @staticmethod
    def check(device: str) -> None:
        backend.check(device)


REQUIRES_GRAD_DTYPE_MESSAGE = (
    "Only Tensors of floating point and complex dtype can require gradients"
)


def _check_kernel_devices(method: str, *arguments: tuple[str, Tensor | None]) -> None:
    """The device check of an op whose CUDA kernel checks its arguments one by one (mm, bmm,
    dot, addmv, cat, nll_loss), with that wrapper's words; TensorIterator ops check in
    Function.common_device instead. Only a kernel on CUDA checks: all-CPU arguments pass."""
    if builtins.any(t is not None and t.device != "cpu" for _, t in arguments):
        check_same_device(method, arguments)


def _new(data: Any, dtype: DType, device: str | None, requires_grad: bool) -> Tensor:
    dev = _device_name(device)
    DeviceHooks.check(dev)
    if requires_grad and not dtype.is_floating_point:
        raise TorchRuntimeError(REQUIRES_GRAD_DTYPE_MESSAGE)
    if backend.is_device_array(data):
        array = data.astype(dtype.np, order="C", copy=False)
    else:
        array = np.asarray(data, dtype=dtype.np, order="C")
        if not array.flags.writeable or (isinstance(data, np.ndarray) and array is data
                                         and data.base is not None):
            array = array.copy()
    array = backend.to_device(array, dev)  # made (or drawn) on the host, then copied
    t = Tensor._make(array, dev)
    t._requires_grad = bool(requires_grad)
    return t


def _resolve_dtype(dtype: DType | None, default: DType) -> DType:
    if dtype is None:
        return default
    if not isinstance(dtype, DType):
        raise TorchTypeError(f"dtype must be torch.dtype, not {_type_name(dtype)}")
    return dtype


def _plain(data: Any, device: str) -> Tensor:
    """A result that never has a grad_fn (comparisons, argmax ...)."""
    return Tensor._make(_as_array(data), device)


class ReturnTuple(tuple):  # type: ignore[type-arg]
    """torch.return_types.max and friends: a (values, indices) tuple with named fields. Each
    kind is its own subclass named as PyTorch's (`type(x.max(0)).__name__ == "max"`)."""

    _fields: tuple[str, ...] = ("values", "indices")

    def __new__(cls, values: Tensor, indices: Tensor) -> ReturnTuple:
        return super().__new__(cls, (values, indices))

    @property
    def values(self) -> Tensor:  # type: ignore[override]
        return self[0]  # type: ignore[no-any-return]

    @property
    def indices(self) -> Tensor:
        return self[1]  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return (f"torch.return_types.{builtins.type(self).__name__}(\nvalues={self[0]!r},\n"
                f"indices={self[1]!r})")

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)


RETURN_TYPES: dict[str, type[ReturnTuple]] = {
    kind: builtins.type(kind, (ReturnTuple,), {"__module__": "torch.return_types"})
    for kind in ("max", "min", "sort", "topk", "median", "kthvalue", "mode")
}


# ---------------------------------------------------------------------------------------------
# Argument errors: whatever gradsh cannot do raises a TorchError, never a raw Python exception
# ---------------------------------------------------------------------------------------------


def _describe(value: Any) -> str:
    """An argument's type as PyTorch's argument parser names it."""
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, DType):
        return "torch.dtype"
    if isinstance(value, list):
        return "list of [" + ", ".join(_describe(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "tuple of (" + ", ".join(_describe(v) for v in value) + ")"
    return builtins.type(value).__name__


# PyTorch's overloads for the argument errors whose full text gradsh reproduces: the method
# form (after `self`), then the function form.
_VARIANCE_OVERLOADS = (
    ("tuple of ints dim, bool unbiased = True, bool keepdim = False",
     "tuple of ints dim = None, *, Number correction = None, bool keepdim = False",
     "bool unbiased = True"),
    ("Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False, *, "
     "Tensor out = None",
     "Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = "
     "False, Tensor out = None",
     "Tensor input, bool unbiased = True"),
)
_OVERLOADS = {"std": _VARIANCE_OVERLOADS, "var": _VARIANCE_OVERLOADS}


def _invalid_arguments(name: str, args: tuple[Any, ...], kwargs: dict[str, Any],
                       method: bool = False) -> TorchTypeError:
    """PyTorch's "received an invalid combination of arguments" (with its list of overloads
    where gradsh knows them: python_arg_parser sorts keywords, and prints a trailing ", " when
    there are only keywords)."""
    overloads = _OVERLOADS.get(name)
    if overloads is None:
        parts = [_describe(a) for a in args] + [f"{k}={_describe(v)}" for k, v in kwargs.items()]
        return TorchTypeError(
            f"{name}() received an invalid combination of arguments - got ({', '.join(parts)})"
        )
    parts = [_describe(a) for a in args] + [f"{k}={_describe(kwargs[k])}" for k in sorted(kwargs)]
    got = ", ".join(parts) + (", " if kwargs and not args else "")
    lines = [f"{name}() received an invalid combination of arguments - got ({got}), but "
             "expected one of:"]
    positional = len(args) > (0 if method else 1)
    for i, signature in enumerate(overloads[0 if method else 1]):
        lines.append(f" * ({signature})")
        if i == 0 and positional and kwargs:
            lines.append("      didn't match because some of the keywords were incorrect: "
                         + ", ".join(sorted(kwargs)))
    return TorchTypeError("\n".join(lines) + "\n")


_ARGUMENT_ERRORS = (TypeError, ValueError, AttributeError, IndexError, KeyError, OverflowError,
                    ZeroDivisionError)


def _guard(name: str, function: Callable[..., Any], *, method: bool,
           tensor_first: bool) -> Callable[..., Any]:
    """`function` with PyTorch's argument errors: a non-tensor where a tensor must be, or any
    argument the implementation cannot take, is a TypeError naming the argument types."""

    def guarded(*args: Any, **kwargs: Any) -> Any:
        if tensor_first and (not args or not isinstance(args[0], Tensor)):
            if not args:
                raise TorchTypeError(f"{name}() missing 1 required positional arguments: "
                                     '"input"')
            raise TorchTypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not "
                f"{_describe(args[0])}"
            )
        try:
            return function(*args, **kwargs)
        except _ARGUMENT_ERRORS as error:
            if isinstance(error, exceptions.TorchError):
                raise
            raise _invalid_arguments(name, args[1:] if method else args, kwargs,
                                     method) from error

    guarded.__name__ = getattr(function, "__name__", name)
    guarded.__qualname__ = guarded.__name__
    guarded.__doc__ = function.__doc__
    guarded.__wrapped__ = function  # type: ignore[attr-defined]
    return guarded


# The guarded function -> the function itself (what the method table wraps in its own guard).
_UNGUARDED: dict[Callable[..., Any], tuple[Callable[..., Any], bool]] = {}


def guarded(function: Callable[..., Any] | None = None, *, name: str | None = None,
            tensor_first: bool = True) -> Any:
    """Decorator: a public function with PyTorch's argument errors (see `_guard`), named
    `name` (by default its own name) in them.

    `tensor_first`: the first argument must be a Tensor (torch.exp(1) is a TypeError). Not so
    for the arithmetic that takes a number first (torch.add(2, x), sub, mul, div and their
    aliases, floor_divide, remainder: those are not guarded at all), pow, where, cat, stack,
    creation and autograd functions.
    """

    def wrap(function: Callable[..., Any]) -> Callable[..., Any]:
        result = _guard(name or function.__name__, function, method=False,
                        tensor_first=tensor_first)
        _UNGUARDED[result] = (function, tensor_first)
        return result

    return wrap if function is None else wrap(function)


def alias(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    """Another public name for a guarded function (torch.clip for torch.clamp): its argument
    errors say `name`, as PyTorch's do."""
    raw, tensor_first = _UNGUARDED[function]
    return guarded(raw, name=name, tensor_first=tensor_first)


def unguarded(function: Callable[..., Any]) -> Callable[..., Any]:
    """The function a `guarded` one wraps (any other function as it is)."""
    entry = _UNGUARDED.get(function)
    return function if entry is None else entry[0]


# ---------------------------------------------------------------------------------------------
# Creation
# ---------------------------------------------------------------------------------------------


def _infer_data(data: Any) -> tuple[Any, DType]:
    """Nested Python lists of numbers -> (nested list, inferred dtype), with PyTorch's errors."""
    kinds: set[type] = set()
    # Iterative walk: a deeply nested literal must not hit the recursion limit.
    stack: list[tuple[Any, int]] = [(data, 0)]
    dims: dict[int, int] = {}
    while stack:
        item, depth = stack.pop()  # depth-first, in order: PyTorch reports the first mismatch
        if isinstance(item, Tensor):
            if item.numel() != 1 and depth > 0:
                raise TorchValueError(
                    "only one element tensors can be converted to Python scalars"
                )
            kinds.add(float if item.dtype.is_floating_point else
                      bool if item.dtype is dtypes.bool_ else int)
            if item.requires_grad and "scalar_grad" not in _once:
                # Each element becomes a Python number, as `float(t)` would: TORCH_WARN_ONCE.
                _once.add("scalar_grad")
                warn("Converting a tensor with requires_grad=True to a scalar may lead to "
                     "unexpected behavior.\nConsider using tensor.detach() first.")
            continue
        if isinstance(item, (list, tuple)):
            if depth in dims and dims[depth] != len(item):
                raise TorchValueError(
                    f"expected sequence of length {dims[depth]} at dim {depth} (got {len(item)})"
                )
            dims.setdefault(depth, len(item))
            for sub in reversed(item):
                stack.append((sub, depth + 1))
            continue
        if isinstance(item, bool):
            kinds.add(bool)
        elif isinstance(item, int):
            kinds.add(int)
        elif isinstance(item, float):
            kinds.add(float)
        else:
            raise TorchTypeError(f"new(): invalid data type '{_type_name(item)}'")
    if len(dims) > 64:
        raise TorchValueError("too many dimensions 'list'")
    if float in kinds:
        dtype = dtypes.default_float()
    elif int in kinds:
        dtype = dtypes.int64
    elif bool in kinds:
        dtype = dtypes.bool_
    else:
        dtype = dtypes.default_float()  # empty list: tensor([]) is float32
    return data, dtype


def _to_plain(data: Any) -> Any:
    """Nested lists with 0-d tensors inside (`tensor([a, b])`) as plain numbers for NumPy."""
    if isinstance(data, Tensor):
        return data._data.reshape(()).item() if data._data.size == 1 else data._data
    if isinstance(data, (list, tuple)):
        return [_to_plain(x) for x in data]
    return data


def _array_from_data(data: Any, dtype: DType) -> np.ndarray:
    plain = _to_plain(data)
    if isinstance(plain, list) and _is_empty_nested(plain):
        return np.zeros(np.shape(plain), dtype=dtype.np)
    with np.errstate(all="ignore"):
        if dtype.category == 1 and _has_float(plain):
            # float -> integer conversion truncates toward zero, as PyTorch's does.
            return np.trunc(np.array(plain, dtype=np.float64)).astype(dtype.np)
        return np.array(plain, dtype=dtype.np)


def _is_empty_nested(x: Any) -> bool:
    while isinstance(x, list):
        if not x:
            return True
        x = x[0]
    return False


def _has_float(x: Any) -> bool:
    stack = [x]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, float):
            return True
    return False


@guarded(tensor_first=False)
def tensor(data: Any, dtype: DType | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """torch.tensor: always copies; infers int64 / float32 / bool from the data."""
    if isinstance(data, Tensor):
        warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), "
            "rather than torch.tensor(sourceTensor)."
        )
        out_dtype = _resolve_dtype(dtype, data.dtype)
        return _new(data._data.astype(out_dtype.np, copy=True), out_dtype,
                    device if device is not None else data.device, requires_grad)
    _, inferred = _infer_data(data)
    out_dtype = _resolve_dtype(dtype, inferred)
    return _new(_array_from_data(data, out_dtype), out_dtype, device, requires_grad)


@guarded(tensor_first=False)
def Tensor_(*args: Any, device: Any = None, **unexpected: Any) -> Tensor:
    """torch.Tensor: float32 from data (`Tensor([2, 3])`), or uninitialised sizes (`Tensor(2, 3)`,
    which gradsh fills with zeros). Like PyTorch's legacy constructor it takes no
    requires_grad (gradsh's `Tensor(data, grad)` flag calls requires_grad_() afterwards)."""
    if unexpected:
        got = ", ".join([_type_name(a) for a in args]
                        + [f"{k}={_type_name(v)}" for k, v in sorted(unexpected.items())])
        raise TorchTypeError(
            f"new() received an invalid combination of arguments - got ({got}), but expected "
            "one of:\n * (*, torch.device device = None)\n      didn't match because some of "
            f"the keywords were incorrect: {', '.join(sorted(unexpected))}\n * (torch.Storage "
            "storage)\n * (Tensor other)\n * (tuple of ints size, *, torch.device device = "
            "None)\n * (object data, *, torch.device device = None)\n"
        )
    requires_grad = False
    default = dtypes.float32
    if len(args) == 1 and isinstance(args[0], (list, Tensor, float, bool)):
        data = args[0]
        if isinstance(data, Tensor):
            return data
        if isinstance(data, (float, bool)):
            raise TorchTypeError(
                f"new(): data must be a sequence (got {_type_name(data)})"
            )
        _infer_data(data)
        return _new(_array_from_data(data, default), default, device, requires_grad)
    shape = size_args(args, "Tensor", default.itemsize)
    return _new(_module_for(device).zeros(shape, dtype=default.np), default, device,
                requires_grad)


def _filled(fname: str, size: tuple[Any, ...], value: Any, dtype: DType | None, device: Any,
            requires_grad: bool) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.default_float())
    shape = size_args(size, fname, d.itemsize)
    return _new(_module_for(device).full(shape, value, dtype=d.np), d, device, requires_grad)


def _module_for(device: Any) -> Any:
    """The array module that makes new tensors on `device` (filled ones are made there, not
    copied there)."""
    dev = _device_name(device)
    DeviceHooks.check(dev)
    return backend.module(dev)


@guarded(tensor_first=False)
def zeros(*size: Any, dtype: DType | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    return _filled("zeros", size, 0, dtype, device, requires_grad)


@guarded(tensor_first=False)
def ones(*size: Any, dtype: DType | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    return _filled("ones", size, 1, dtype, device, requires_grad)


@guarded(tensor_first=False)
def empty(*size: Any, dtype: DType | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    """torch.empty: gradsh's uninitialised memory is zeros."""
    return _filled("empty", size, 0, dtype, device, requires_grad)


@guarded(tensor_first=False)
def full(size: Any, fill_value: Number, dtype: DType | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    d = _resolve_dtype(dtype, dtypes.scalar_dtype(fill_value))
    shape = size_args((size,) if not isinstance(size, (tuple, list)) else (size,), "full",
                      d.itemsize)
    return _new(_module_for(device).full(shape, fill_value, dtype=d.np), d, device,
                requires_grad)


def _like(fname: str, t: Tensor, value: Any, dtype: DType | None, device: Any,
          requires_grad: bool) -> Tensor:
    _check_tensor(t, fname)
    d = _resolve_dtype(dtype, t.dtype)
    device = device or t.device
    return _new(_module_for(device).full(t.shape, value, dtype=d.np), d, device, requires_grad)


@guarded(tensor_first=False)
def zeros_like(t: Tensor, dtype: DType | None = None, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    return _like("zeros_like", t, 0, dtype, device, requires_grad)


@guarded(tensor_first=False)
def ones_like(t: Tensor, dtype: DType | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    return _like("ones_like", t, 1, dtype, device, requires_grad)


@guarded(tensor_first=False)
def empty_like(t: Tensor, dtype: DType | None = None, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    return _like("empty_like", t, 0, dtype, device, requires_grad)


@guarded(tensor_first=False)
def full_like(t: Tensor, fill_value: Number, dtype: DType | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    return _like("full_like", t, fill_value, dtype, device, requires_grad)


def _scalar_value(value: Any, name: str) -> float | int:
    if isinstance(value, Tensor):
        return value.item()
    if not is_number(value):
        raise TorchTypeError(f"{name} must be a number, not {_type_name(value)}")
    return value


@guarded(tensor_first=False)
def arange(*args: Any, start: Any = None, end: Any = None, step: Any = None,
           dtype: DType | None = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """torch.arange(end) / arange(start, end, step=1): int arguments give int64."""
    positional = list(args)
    if len(positional) > 3:
        raise TorchTypeError(f"arange() takes at most 3 positional arguments ({len(args)} given)")
    if len(positional) == 1 and end is None:
        end = positional[0]
    elif positional:
        names = ["start", "end", "step"]
        values = dict(zip(names, positional, strict=False))
        start = values.get("start", start)
        end = values.get("end", end)
        step = values.get("step", step)
    if end is None:
        raise TorchTypeError("arange() missing required argument 'end' (pos 1)")
    start = 0 if start is None else _scalar_value(start, "start")
    end = _scalar_value(end, "end")
    step = 1 if step is None else _scalar_value(step, "step")
    any_float = builtins.any(isinstance(v, float) for v in (start, end, step))
    d = _resolve_dtype(dtype, dtypes.default_float() if any_float else dtypes.int64)
    if step == 0:
        raise TorchRuntimeError("step must be nonzero")
    if not builtins.all(math.isfinite(float(v)) for v in (start, end)):
        raise TorchRuntimeError(f"unsupported range: {start} -> {end}")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise TorchRuntimeError("upper bound and lower bound inconsistent with step sign")
    n = int(math.ceil((float(end) - float(start)) / float(step)))
    n = builtins.max(n, 0)
    if d.is_floating_point:
        values = _arange_floats(float(start), float(step), n, d)
    else:
        values = (int(start) + int(step) * np.arange(n, dtype=np.int64)) if not any_float else \
            np.trunc(float(start) + float(step) * np.arange(n, dtype=np.float64))
        values = values.astype(d.np)
    return _new(values, d, device, requires_grad)


@guarded(tensor_first=False)
def linspace(start: Any, end: Any, steps: int, dtype: DType | None = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
    start = _scalar_value(start, "start")
    end = _scalar_value(end, "end")
    if not isinstance(steps, int) or isinstance(steps, bool):
        raise TorchTypeError(
            f"linspace(): argument 'steps' (position 3) must be int, not {_type_name(steps)}"
        )
    if steps < 0:
        raise TorchRuntimeError("number of steps must be non-negative")
    d = _resolve_dtype(dtype, dtypes.default_float())
    return _new(_linspace_values(start, end, steps, d), d, device, requires_grad)


# NOTE: arange and linspace reproduce PyTorch's CPU kernels bit for bit. Those kernels are
# compiled with FMA contraction, so every `a + b * c` in them rounds once; arange also fills
# whole pairs of 32-byte vectors from a per-vector base (`Vectorized::arange(base, step)`) and
# only the remainder element by element.
_VECTOR_BYTES = 32


_fma = fma64


def _arange_floats(start: float, step: float, n: int, d: DType) -> np.ndarray:
    width = _VECTOR_BYTES // d.np.itemsize
    idx = np.arange(n, dtype=np.int64)
    vector_end = (n // (2 * width)) * 2 * width
    offset = idx % width
    block = idx - offset
    in_vectors = idx < vector_end
    # accscalar (double) arithmetic: the vector's base is rounded to the dtype first
    base = _fma(step, block, start).astype(d.np).astype(np.float64)
    vector_values = _fma(offset, step, base)
    scalar_values = _fma(step, idx, start)
    return np.where(in_vectors, vector_values, scalar_values).astype(d.np)


def _linspace_values(start: Any, end: Any, steps: int, d: DType) -> np.ndarray:
    if steps == 1:
        return np.full(1, start, dtype=np.float64).astype(d.np) if d.is_floating_point else \
            np.full(1, int(start), dtype=d.np)
    idx = np.arange(steps, dtype=np.int64)
    halfway = steps // 2
    if d.is_floating_point:
        t = d.np.type
        s, e = t(start), t(end)
        step = (e - s) / t(steps - 1) if steps > 1 else t(0)
        # start + step * i for the first half, end - step * (steps - i - 1) for the second, each
        # one fused multiply-add in the dtype (float32's product is exact in float64).
        low = _fma(np.float64(step), idx.astype(d.np), np.float64(s))
        high = _fma(-np.float64(step), (steps - idx - 1).astype(d.np), np.float64(e))
        return np.where(idx < halfway, low, high).astype(d.np)
    s, e = int(start), int(end)
    step = (float(e) - float(s)) / (steps - 1) if steps > 1 else 0.0
    low = _fma(step, idx, float(s))
    high = _fma(-step, steps - idx - 1, float(e))
    return np.trunc(np.where(idx < halfway, low, high)).astype(d.np)


@guarded(tensor_first=False)
def eye(n: int, m: int | None = None, dtype: DType | None = None, device: Any = None,
        requires_grad: bool = False) -> Tensor:
    for value, name in ((n, "n"), (m, "m")):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise TorchTypeError(f"eye(): argument '{name}' must be int, not {_type_name(value)}")
        if value is not None and value < 0:
            raise TorchRuntimeError(f"{name} must be greater or equal to 0, got {value}")
    d = _resolve_dtype(dtype, dtypes.default_float())
    return _new(np.eye(n, n if m is None else m, dtype=d.np), d, device, requires_grad)


def _generator(generator: Any) -> Any:
    if generator is not None:
        return generator
    from gradsh.engine import random as rng

    return rng.default_generator


def _random_call(draw: Callable[[], np.ndarray]) -> np.ndarray:
    try:
        return draw()
    except ValueError as error:  # the generator words its errors like PyTorch's RuntimeError
        raise TorchRuntimeError(str(error)) from None


def _check_random_float(dtype: DType, kernel: str) -> None:
    if not dtype.is_floating_point:
        raise not_implemented_for(kernel, dtype)


@guarded(tensor_first=False)
def rand(*size: Any, dtype: DType | None = None, device: Any = None,
         requires_grad: bool = False, generator: Any = None) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.default_float())
    shape = size_args(size, "rand", d.itemsize)
    _check_random_float(d, "check_uniform_bounds")
    data = _random_call(lambda: _generator(generator).rand(shape, d))
    return _new(data, d, device, requires_grad)


@guarded(tensor_first=False)
def randn(*size: Any, dtype: DType | None = None, device: Any = None,
          requires_grad: bool = False, generator: Any = None) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.default_float())
    shape = size_args(size, "randn", d.itemsize)
    _check_random_float(d, "normal_kernel_cpu")
    data = _random_call(lambda: _generator(generator).randn(shape, d))
    return _new(data, d, device, requires_grad)


@guarded(tensor_first=False)
def randint(*args: Any, low: Any = None, high: Any = None, size: Any = None,
            dtype: DType | None = None, device: Any = None, requires_grad: bool = False,
            generator: Any = None) -> Tensor:
    """torch.randint(high, size) / randint(low, high, size): int64 unless dtype says."""
    positional = list(args)
    if size is None and positional and isinstance(positional[-1], (tuple, list)):
        size = positional.pop()
    if len(positional) == 2:
        low, high = positional
    elif len(positional) == 1:
        if high is None:
            high = positional[0]
        else:
            low = positional[0]
    elif len(positional) > 2:
        raise TorchTypeError("randint() received an invalid combination of arguments")
    if high is None or size is None:
        raise TorchTypeError(
            "randint() received an invalid combination of arguments - expected (int high, "
            "tuple of ints size) or (int low, int high, tuple of ints size)"
        )
    low = 0 if low is None else low
    d = _resolve_dtype(dtype, dtypes.int64)
    if requires_grad and not d.is_floating_point:
        raise TorchRuntimeError(REQUIRES_GRAD_DTYPE_MESSAGE)
    shape = size_args((size,), "randint", d.itemsize)
    data = _random_call(lambda: _generator(generator).randint(int(low), int(high), shape, d))
    return _new(data, d, device, requires_grad)


@guarded(tensor_first=False)
def rand_like(t: Tensor, dtype: DType | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    _check_tensor(t, "rand_like")
    d = _resolve_dtype(dtype, t.dtype)
    _check_random_float(d, "check_uniform_bounds")
    data = _random_call(lambda: _generator(None).rand(t.shape, d))
    return _new(data, d, device or t.device, requires_grad)


@guarded(tensor_first=False)
def randn_like(t: Tensor, dtype: DType | None = None, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    _check_tensor(t, "randn_like")
    d = _resolve_dtype(dtype, t.dtype)
    _check_random_float(d, "normal_kernel_cpu")
    data = _random_call(lambda: _generator(None).randn(t.shape, d))
    return _new(data, d, device or t.device, requires_grad)


def manual_seed(seed: int) -> None:
    _generator(None).manual_seed(seed)


# ---------------------------------------------------------------------------------------------
# Arithmetic
# ---------------------------------------------------------------------------------------------


def _scalar_overload(other: Any) -> bool:
    """Inside a create_graph formula a Python number is a C++ Scalar argument."""
    return ScalarOverloads.active and is_number(other)


def _check_alpha(a: Tensor, b: TensorLike, alpha: Any) -> None:
    """PyTorch's alpha_check: the scale must fit the result's kind."""
    if alpha == 1 and not isinstance(alpha, bool):
        return
    if not is_number(alpha):
        raise TorchTypeError(f"alpha must be a number, not {_type_name(alpha)}")
    dtype = result_dtype(a, as_tensor_operand(b))
    if isinstance(alpha, bool) and dtype is not dtypes.bool_:
        raise TorchRuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and not dtype.is_floating_point:
        raise TorchRuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )


def add(a: TensorLike, b: TensorLike, alpha: Number = 1) -> Tensor:
    if a.__class__ is Tensor and alpha.__class__ is int and alpha == 1:
        # `x + y` and `x + 0.5`, without the checks below (which they pass): the hot path
        if b.__class__ is Tensor:
            return AddBackward0.apply(a, b, alpha=alpha)
        if b.__class__ is float and not ScalarOverloads.active:
            return AddBackward0.apply(a, Tensor.wrap_scalar(b), alpha=alpha)
    if not isinstance(a, Tensor):
        # torch.add(2, x): the number is wrapped as the first operand (`2 + x` is x.__radd__,
        # which keeps x first); two numbers give a 0-d tensor.
        if not isinstance(b, Tensor):
            return add(Tensor.wrap_scalar(_number(a, "add")), b, alpha=alpha)
        _check_alpha(b, a, alpha)
        return AddBackward0.apply(Tensor.wrap_scalar(_number(a, "add")), b, alpha=alpha)
    a = _check_tensor(a, "add")
    _check_alpha(a, b, alpha)
    if _scalar_overload(b):
        return AddBackward1.apply(a, other=b, alpha=alpha)
    return AddBackward0.apply(a, as_tensor_operand(b), alpha=alpha)


def sub(a: TensorLike, b: TensorLike, alpha: Number = 1) -> Tensor:
    if not isinstance(a, Tensor):
        # torch.sub(2, x) is SubBackward0 with the number wrapped first; `2 - x` is rsub.
        if not isinstance(b, Tensor):
            return sub(Tensor.wrap_scalar(_number(a, "sub")), b, alpha=alpha)
        _check_bool_sub(a, b)
        _check_alpha(b, a, alpha)
        return SubBackward0.apply(Tensor.wrap_scalar(_number(a, "sub")), b, alpha=alpha)
    _check_bool_sub(a, b)
    _check_alpha(a, b, alpha)
    if _scalar_overload(b):
        return SubBackward1.apply(a, other=b, alpha=alpha)
    return SubBackward0.apply(a, as_tensor_operand(b), alpha=alpha)


def _check_bool_sub(a: TensorLike, b: TensorLike) -> None:
    def is_bool(x: TensorLike) -> bool:
        return (isinstance(x, Tensor) and x.dtype is dtypes.bool_) or isinstance(x, bool)

    if is_bool(a) and is_bool(b):
        raise TorchRuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    if is_bool(a) or is_bool(b):
        raise TorchRuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )


@guarded(tensor_first=False)
def rsub(a: Tensor, other: TensorLike, alpha: Number = 1) -> Tensor:
    """`other - a`."""
    if isinstance(other, Tensor):
        return sub(other, a, alpha=alpha)
    _check_bool_sub(a, other)
    return RsubBackward1.apply(a, other=other, alpha=alpha)


def mul(a: TensorLike, b: TensorLike) -> Tensor:
    if a.__class__ is Tensor:
        # `x * y` and `x * 0.5`, without the checks below (which they pass): the hot path
        if b.__class__ is Tensor:
            return MulBackward0.apply(a, b)
        if b.__class__ is float and not ScalarOverloads.active:
            return MulBackward0.apply(a, Tensor.wrap_scalar(b))
    if not isinstance(a, Tensor):
        # torch.mul(2, x): the number wrapped as the first operand (`2 * x` keeps x first).
        if not isinstance(b, Tensor):
            return mul(Tensor.wrap_scalar(_number(a, "mul")), b)
        return MulBackward0.apply(Tensor.wrap_scalar(_number(a, "mul")), b)
    a = _check_tensor(a, "mul")
    if _scalar_overload(b):
        return MulBackward1.apply(a, other=b)
    return MulBackward0.apply(a, as_tensor_operand(b))


def div(a: TensorLike, b: TensorLike, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode == "floor":
        return floor_divide(a, b)
    if rounding_mode is not None:
        raise TorchNotImplementedError(f"div with rounding_mode={rounding_mode!r} is not supported "
                                       "by gradsh")
    if not isinstance(a, Tensor):
        # torch.div(2, x): DivBackward0 with the number wrapped first (`2 / x` is
        # x.__rtruediv__, see _rtruediv).
        return DivBackward0.apply(Tensor.wrap_scalar(_number(a, "div")),
                                     as_tensor_operand(b))
    if _scalar_overload(b):
        return DivBackward1.apply(a, other=b)
    return DivBackward0.apply(a, as_tensor_operand(b))


true_divide = divide = div
multiply = mul
subtract = sub


def floor_divide(a: TensorLike, b: TensorLike) -> Tensor:
    """floor_divide is not differentiable: a node named NotImplemented, with an edge for each
    operand that requires grad."""
    if not isinstance(a, Tensor):
        _check_tensor(b, "floor_divide", "other", 2)
        left, right = Tensor.wrap_scalar(_number(a, "floor_divide")), b
    elif isinstance(b, Tensor):
        left, right = a, b
    else:
        left, right = a, Tensor.wrap_scalar(_number(b, "floor_divide"))
    inputs = [t for t in (left, right) if t.requires_grad] or [t for t in (left, right)
                                                               if not t._wrapped][:1]
    return FloorDivideNotImplemented.apply(*inputs, left=left, right=right)


def _rfloordiv(self: Tensor, other: TensorLike) -> Tensor:
    return floor_divide(other, self)


def remainder(a: TensorLike, b: TensorLike) -> Tensor:
    if not isinstance(a, Tensor):
        return _RemainderScalarTensor.apply(_check_tensor(b, "remainder", "other", 2), other=a)
    if isinstance(b, Tensor):
        return RemainderBackward1.apply(a, b)
    return RemainderBackward0.apply(a, other=_number(b, "remainder"))


@guarded
def fmod(a: Tensor, b: TensorLike) -> Tensor:
    a = _check_tensor(a, "fmod")
    if isinstance(b, Tensor):
        return FmodBackward1.apply(a, b)
    return FmodBackward0.apply(a, other=_number(b, "fmod"))


def _number(value: Any, fname: str) -> Number:
    if not is_number(value):
        raise TorchTypeError(f"{fname}() received an invalid combination of arguments - got "
                             f"({_type_name(value)})")
    return value


@guarded
def neg(a: Tensor) -> Tensor:
    return NegBackward0.apply(_check_tensor(a, "neg"))


negative = alias(neg, "negative")


@guarded
def positive(a: Tensor) -> Tensor:
    if a.dtype is dtypes.bool_:
        raise TorchRuntimeError(
            "The `+` operator, on a bool tensor is not supported."
        )
    return a


@guarded(tensor_first=False)
def pow(a: TensorLike, exponent: TensorLike) -> Tensor:  # noqa: A001 (torch.pow)
    if isinstance(a, Tensor) and is_number(exponent):
        return PowBackward0.apply(a, exponent=exponent)
    if isinstance(a, Tensor) and isinstance(exponent, Tensor):
        return PowBackward1.apply(a, exponent)
    if is_number(a) and isinstance(exponent, Tensor):
        return PowBackward2.apply(exponent, base=a)
    raise TorchTypeError(
        f"pow() received an invalid combination of arguments - got ({_type_name(a)}, "
        f"{_type_name(exponent)})"
    )


@guarded
def reciprocal(a: Tensor) -> Tensor:
    return ReciprocalBackward0.apply(_check_tensor(a, "reciprocal"))


@guarded
def square(a: Tensor) -> Tensor:
    return pow(_check_tensor(a, "square"), 2)


# ---------------------------------------------------------------------------------------------
# Comparisons and logical operators (never differentiable)
# ---------------------------------------------------------------------------------------------


def _compare(op: str, a: TensorLike, b: TensorLike) -> Tensor:
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        raise TorchTypeError("comparison needs at least one tensor")
    return _Compare.apply(as_tensor_operand(a), as_tensor_operand(b), op=op)


@guarded
def eq(a: TensorLike, b: TensorLike) -> Tensor:
    return _compare("equal", a, b)


@guarded
def ne(a: TensorLike, b: TensorLike) -> Tensor:
    return _compare("not_equal", a, b)


@guarded
def lt(a: TensorLike, b: TensorLike) -> Tensor:
    return _compare("less", a, b)


@guarded
def le(a: TensorLike, b: TensorLike) -> Tensor:
    return _compare("less_equal", a, b)


@guarded
def gt(a: TensorLike, b: TensorLike) -> Tensor:
    return _compare("greater", a, b)


@guarded
def ge(a: TensorLike, b: TensorLike) -> Tensor:
    return _compare("greater_equal", a, b)


greater = alias(gt, "greater")
greater_equal = alias(ge, "greater_equal")
less = alias(lt, "less")
less_equal = alias(le, "less_equal")
not_equal = alias(ne, "not_equal")


@guarded
def bitwise_and(a: TensorLike, b: TensorLike) -> Tensor:
    return _Bitwise.apply(as_tensor_operand(a), as_tensor_operand(b), op="bitwise_and",
                          kernel="bitwise_and_cpu")


@guarded
def bitwise_or(a: TensorLike, b: TensorLike) -> Tensor:
    return _Bitwise.apply(as_tensor_operand(a), as_tensor_operand(b), op="bitwise_or",
                          kernel="bitwise_or_cpu")


@guarded
def bitwise_xor(a: TensorLike, b: TensorLike) -> Tensor:
    return _Bitwise.apply(as_tensor_operand(a), as_tensor_operand(b), op="bitwise_xor",
                          kernel="bitwise_xor_cpu")


@guarded
def bitwise_not(a: Tensor) -> Tensor:
    if a.dtype.is_floating_point:
        raise TorchTypeError(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
        )
    return _plain(xp_of(a._data).invert(a._data), a.device)


@guarded
def logical_not(a: Tensor) -> Tensor:
    return _plain(xp_of(a._data).logical_not(a._data), a.device)


def _logical(op: Callable[..., Any], a: Tensor, b: Tensor) -> Tensor:
    a_, b_ = as_tensor_operand(a), as_tensor_operand(b)
    broadcast_shapes(a_, b_)
    return _plain(op(a_._data, b_._data), a_.device)


@guarded
def logical_and(a: Tensor, b: Tensor) -> Tensor:
    return _logical(np.logical_and, a, b)


@guarded
def logical_or(a: Tensor, b: Tensor) -> Tensor:
    return _logical(np.logical_or, a, b)


@guarded
def logical_xor(a: Tensor, b: Tensor) -> Tensor:
    return _logical(np.logical_xor, a, b)


@guarded
def isnan(a: Tensor) -> Tensor:
    xp = xp_of(a._data)
    return _plain(xp.isnan(a._data) if a.dtype.is_floating_point
                  else xp.zeros(a.shape, dtype=bool), a.device)


@guarded
def isinf(a: Tensor) -> Tensor:
    xp = xp_of(a._data)
    return _plain(xp.isinf(a._data) if a.dtype.is_floating_point
                  else xp.zeros(a.shape, dtype=bool), a.device)


@guarded
def isfinite(a: Tensor) -> Tensor:
    xp = xp_of(a._data)
    return _plain(xp.isfinite(a._data) if a.dtype.is_floating_point
                  else xp.ones(a.shape, dtype=bool), a.device)


@guarded
def equal(a: Tensor, b: Tensor) -> bool:
    return a.shape == b.shape and bool(xp_of(a._data).array_equal(a._data, b._data))


@guarded
def allclose(a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    return bool(xp_of(a._data).allclose(a._data, b._data, rtol=rtol, atol=atol,
                                           equal_nan=equal_nan))


# ---------------------------------------------------------------------------------------------
# Unary element-wise
# ---------------------------------------------------------------------------------------------


def _unary(cls: type[Function], fname: str) -> Callable[[Tensor], Tensor]:
    def op(a: Tensor) -> Tensor:
        return cls.apply(_check_tensor(a, fname))

    op.__name__ = fname
    op.__doc__ = f"torch.{fname} ({cls.name})."
    return guarded(op)


exp = _unary(ExpBackward0, "exp")
log = _unary(LogBackward0, "log")
log2 = _unary(Log2Backward0, "log2")
log10 = _unary(Log10Backward0, "log10")
sin = _unary(SinBackward0, "sin")
cos = _unary(CosBackward0, "cos")
tan = _unary(TanBackward0, "tan")
tanh = _unary(TanhBackward0, "tanh")
sigmoid = _unary(SigmoidBackward0, "sigmoid")
relu = _unary(ReluBackward0, "relu")
sqrt = _unary(SqrtBackward0, "sqrt")
rsqrt = _unary(RsqrtBackward0, "rsqrt")
abs = _unary(AbsBackward0, "abs")  # noqa: A001
absolute = alias(abs, "absolute")
sign = _unary(SignBackward0, "sign")
sgn = _unary(SgnBackward0, "sgn")
floor = _unary(FloorBackward0, "floor")
ceil = _unary(CeilBackward0, "ceil")
trunc = _unary(TruncBackward0, "trunc")
round = _unary(RoundBackward0, "round")  # noqa: A001


@guarded
def clamp(a: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    a = _check_tensor(a, "clamp")
    if min is None and max is None:
        raise TorchRuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        if (min is not None and not isinstance(min, Tensor)) or (
            max is not None and not isinstance(max, Tensor)
        ):
            raise TorchTypeError(
                "clamp() received an invalid combination of arguments - got (Tensor, "
                f"{_type_name(min)}, {_type_name(max)}), but expected one of:\n"
                " * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n"
                " * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)\n"
            )
        placeholder = Tensor._make(xp_of(a._data).zeros((), dtype=a._data.dtype), a.device)
        return ClampBackward0.apply(a, min if min is not None else placeholder,
                                       max if max is not None else placeholder,
                                       has_min=min is not None, has_max=max is not None)
    for bound in (min, max):
        if bound is not None and not is_number(bound):
            raise TorchTypeError(
                f"clamp(): argument 'min' must be Number, not {_type_name(bound)}"
            )
    return ClampBackward1.apply(a, min=min, max=max)


clip = alias(clamp, "clip")


@guarded
def clamp_min(a: Tensor, min: Any) -> Tensor:  # noqa: A002
    if isinstance(min, Tensor):
        return clamp(a, min=min)
    return ClampMinBackward0.apply(_check_tensor(a, "clamp_min"), min=min)


@guarded
def clamp_max(a: Tensor, max: Any) -> Tensor:  # noqa: A002
    if isinstance(max, Tensor):
        return clamp(a, max=max)
    return ClampMaxBackward0.apply(_check_tensor(a, "clamp_max"), max=max)


@guarded
def maximum(a: Tensor, b: Tensor) -> Tensor:
    _check_tensor(a, "maximum")
    _check_tensor(b, "maximum", "other", 2)
    return MaximumBackward0.apply(a, b)


@guarded
def minimum(a: Tensor, b: Tensor) -> Tensor:
    _check_tensor(a, "minimum")
    _check_tensor(b, "minimum", "other", 2)
    return MinimumBackward0.apply(a, b)


@guarded(tensor_first=False)
def where(condition: Tensor, input: TensorLike, other: TensorLike) -> Tensor:  # noqa: A002
    condition = _check_tensor(condition, "where", "condition")
    if condition.dtype is not dtypes.bool_:
        raise TorchRuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{condition.dtype.short}"
        )
    return WhereBackward0.apply(as_tensor_operand(input), as_tensor_operand(other),
                                   condition=condition)


@guarded
def masked_fill(a: Tensor, mask: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        value = value.item()
    if mask.dtype is not dtypes.bool_:
        raise TorchRuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{mask.dtype.name}"
        )
    infer_size(a.shape, mask.shape)
    _check_mask_device(a, mask)
    return MaskedFillBackward0.apply(a, mask=mask, value=value)


def _check_mask_device(a: Tensor, mask: Tensor) -> None:
    if mask.device != a.device:
        raise TorchRuntimeError(
            f"expected self and mask to be on the same device, but got mask on {mask.device} "
            f"and self on {a.device}"
        )


# ---------------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------------


@guarded
def sum(a: Tensor, dim: Any = None, keepdim: bool = False,  # noqa: A001
        dtype: DType | None = None) -> Tensor:
    a = _check_tensor(a, "sum")
    if dim is None:
        return SumBackward0.apply(a, dtype=dtype)
    return SumBackward1.apply(a, dim=_reduction_dims(dim, a.ndim), keepdim=keepdim,
                                 dtype=dtype)


@guarded
def mean(a: Tensor, dim: Any = None, keepdim: bool = False, dtype: DType | None = None) -> Tensor:
    a = _check_tensor(a, "mean")
    if dtype is not None and not dtype.is_floating_point:
        raise TorchRuntimeError(
            "mean(): could not infer output dtype. Optional dtype must be either a floating point "
            f"or complex dtype. Got: {dtype.short}"
        )
    if dtype is None and not a.dtype.is_floating_point:
        raise TorchRuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {a.dtype.short}"
        )
    if dim is None:
        return MeanBackward0.apply(a, dtype=dtype)
    return MeanBackward1.apply(a, dim=_reduction_dims(dim, a.ndim), keepdim=keepdim,
                                  dtype=dtype)


def _extremum(kind: str, a: Tensor, dim: Any, keepdim: bool) -> Any:
    if isinstance(dim, Tensor):
        other = dim
        return maximum(a, other) if kind == "max" else minimum(a, other)
    if dim is None:
        cls = MaxBackward1 if kind == "max" else MinBackward1
        return cls.apply(a)
    d = wrap_dim(dim, a.ndim)
    if a.ndim and a.shape[d] == 0:
        raise TorchIndexError(
            f"{kind}(): Expected reduction dim {d} to have non-zero size."
        )
    if a.ndim == 0:
        indices = xp_of(a._data).zeros((), dtype=np.int64)
    else:
        indices = _arg_extremum(a._data, d, keepdim, kind)
    cls = MaxBackward0 if kind == "max" else MinBackward0
    values = cls.apply(a, dim=d, keepdim=keepdim, indices=indices)
    return RETURN_TYPES[kind](values, Tensor._make(indices, a.device))


@guarded
def max(a: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001
    """max(x) -> MaxBackward1; max(x, dim) -> (values, indices); max(a, b) -> maximum."""
    return _extremum("max", _check_tensor(a, "max"), dim, keepdim)


@guarded
def min(a: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001
    return _extremum("min", _check_tensor(a, "min"), dim, keepdim)


def _check_nonempty_reduction(fname: str, a: Tensor, dim: Any) -> None:
    if a.numel() == 0:
        given = (dim,) if isinstance(dim, int) else tuple(dim)
        dims = normalize_dims(dim, a.ndim)
        if not dims:
            raise TorchRuntimeError(
                f"{fname}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        for d, original in zip(dims, given, strict=True):
            if a.shape[d] == 0:
                raise TorchIndexError(
                    f"{fname}(): Expected reduction dim {original} to have non-zero size."
                )


@guarded
def amax(a: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    _check_nonempty_reduction("amax", a, dim)
    return AmaxBackward0.apply(a, dim=normalize_dims(dim, a.ndim), keepdim=keepdim)


@guarded
def amin(a: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    _check_nonempty_reduction("amin", a, dim)
    return AminBackward0.apply(a, dim=normalize_dims(dim, a.ndim), keepdim=keepdim)


def _argextremum(kind: str, a: Tensor, dim: Any, keepdim: bool) -> Tensor:
    a = _check_tensor(a, f"arg{kind}")
    if a.dtype is dtypes.bool_:
        raise TorchRuntimeError(f"arg{kind}(): does not support bool input")
    if dim is None:
        if a.numel() == 0:
            raise TorchIndexError(
                f"arg{kind}(): Expected reduction dim to be specified for input.numel() == 0."
            )
        out = _arg_extremum(a._data, None, False, kind)
        if keepdim:
            out = out.reshape((1,) * a.ndim)
        return _plain(out, a.device)
    d = wrap_dim(dim, a.ndim)
    if a.ndim == 0:
        return _plain(xp_of(a._data).zeros((), dtype=np.int64), a.device)
    if a.shape[d] == 0:
        raise TorchIndexError(f"arg{kind}(): Expected reduction dim {d} to have non-zero size.")
    return _plain(_arg_extremum(a._data, d, keepdim, kind), a.device)


@guarded
def argmax(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _argextremum("max", a, dim, keepdim)


@guarded
def argmin(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _argextremum("min", a, dim, keepdim)


@guarded
def prod(a: Tensor, dim: Any = None, keepdim: bool = False, dtype: DType | None = None) -> Tensor:
    a = _check_tensor(a, "prod")
    if dtype is not None:
        a = to(a, dtype)
    if dim is None:
        return ProdBackward0.apply(a)
    return ProdBackward1.apply(a, dim=wrap_dim(dim, a.ndim), keepdim=keepdim)


@guarded
def norm(a: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False,
         dtype: DType | None = None) -> Tensor:
    """torch.norm: vector norms (p='fro' is 2) as linalg.vector_norm (LinalgVectorNormBackward0)."""
    a = _check_tensor(a, "norm")
    if isinstance(p, str):
        if p != "fro":
            raise TorchNotImplementedError(f"norm with p={p!r} is not supported by gradsh")
        p = 2
    if p is None:
        p = 2
    return vector_norm(a, p, dim, keepdim, dtype=dtype)


@guarded
def vector_norm(a: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False,  # noqa: A002
                dtype: DType | None = None) -> Tensor:
    if not a.dtype.is_floating_point:
        raise TorchRuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{a.dtype.short}"
        )
    if dtype is not None:
        a = to(a, dtype)
    dims = None if dim is None else normalize_dims(dim, a.ndim)
    if a.numel() == 0 and (ord < 0 or ord == math.inf) and not dims:
        raise TorchRuntimeError(
            f"linalg.vector_norm cannot compute the {ord} norm on an empty tensor because the "
            "operation does not have an identity"
        )
    return LinalgVectorNormBackward0.apply(a, ord=float(ord), dim=dims, keepdim=keepdim)


def _variance_args(fname: str, a: Tensor, dim: Any, unbiased: Any, keepdim: bool,
                   correction: Any) -> tuple[tuple[int, ...] | None, float, bool]:
    if not a.dtype.is_floating_point:
        raise TorchRuntimeError("std and var only support floating point and complex dtypes")
    if isinstance(dim, bool):  # var(x, True): the `unbiased` overload
        unbiased, dim = dim, None
    if unbiased is not None and correction is not None:
        # No overload takes both: the guard turns this into PyTorch's argument error.
        raise TypeError(f"{fname}: unbiased and correction together")
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    # NOTE: an explicit empty dim list reduces everything but keeps `()`: PyTorch's backward
    # then scales by a reduction size of 1 (its formula counts the listed dims)
    dims = None if dim is None else normalize_dims(dim, a.ndim)
    if dims is not None and a.ndim == 0:
        dims = None
    # the reduction factor as PyTorch counts it: input numel over output numel
    kept = 1
    for d, size in enumerate(a.shape):
        if dims and d not in dims:
            kept *= size
    n = a.numel() // builtins.max(kept, 1)
    if n - correction <= 0:
        warn(
            f"{fname}(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel)."
        )
    return dims, float(correction), keepdim


@guarded
def var(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    dims, correction, keepdim = _variance_args("var", a, dim, unbiased, keepdim, correction)
    return VarBackward0.apply(a, dim=dims, correction=correction, keepdim=keepdim)


@guarded
def std(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    dims, correction, keepdim = _variance_args("std", a, dim, unbiased, keepdim, correction)
    return StdBackward0.apply(a, dim=dims, correction=correction, keepdim=keepdim)


@guarded
def logsumexp(a: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    if not isinstance(dim, int) and not normalize_dims(dim, a.ndim) and a.ndim and not keepdim \
            and a.numel():
        # PyTorch reduces everything into a [1, ...] buffer, then fails to write it back
        ones = ", ".join("1" for _ in range(a.ndim))
        raise TorchRuntimeError(
            f"output with shape [] doesn't match the broadcast shape [{ones}]"
        )
    dims = _reduction_dims(dim, a.ndim)
    if not a.dtype.is_floating_point:
        a = to(a, dtypes.default_float())
    return LogsumexpBackward0.apply(a, dim=dims, keepdim=keepdim)


# ---------------------------------------------------------------------------------------------
# Shape
# ---------------------------------------------------------------------------------------------


def _infer_shape(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    """A view/reshape target with at most one -1, checked against the element count."""
    unknown = [i for i, n in enumerate(shape) if n == -1]
    if len(unknown) > 1:
        raise TorchRuntimeError("only one dimension can be inferred")
    known = 1
    for n in shape:
        if n != -1:
            if n < 0:
                raise TorchRuntimeError(f"invalid shape dimension {n}")
            known *= n
    text = "[" + ", ".join(str(n) for n in shape) + "]"
    if unknown:
        if known == 0:
            if numel == 0:
                raise TorchRuntimeError(
                    f"cannot reshape tensor of 0 elements into shape {text} because the "
                    "unspecified dimension size -1 can be any value and is ambiguous"
                )
            raise TorchRuntimeError(f"shape '{text}' is invalid for input of size {numel}")
        if numel % known != 0:
            raise TorchRuntimeError(f"shape '{text}' is invalid for input of size {numel}")
        shape = tuple(numel // known if n == -1 else n for n in shape)
    elif known != numel:
        raise TorchRuntimeError(f"shape '{text}' is invalid for input of size {numel}")
    return shape


def _shape_args(args: tuple[Any, ...], fname: str = "view") -> tuple[int, ...]:
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    out = []
    for n in args:
        if isinstance(n, Tensor) and n.numel() == 1 and not n.dtype.is_floating_point:
            n = int(n.item())
        if not isinstance(n, int) or isinstance(n, bool):
            raise TorchTypeError(
                f"{fname}(): argument 'size' (position 1) must be tuple of ints, but found "
                f"element of type {_type_name(n)} at pos 0"
            )
        out.append(n)
    return tuple(out)


@guarded
def view(a: Tensor, *shape: Any) -> Tensor:
    a = _check_tensor(a, "view")
    if len(shape) == 1 and isinstance(shape[0], DType):
        raise TorchNotImplementedError("view(dtype) is not supported by gradsh")
    target = _infer_shape(_shape_args(shape), a.numel())
    if not _viewable(a._data, target):
        raise TorchRuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return ViewBackward0.apply(a, shape=target)


def _viewable(data: Any, shape: tuple[int, ...]) -> bool:
    if data.size == 0 or data.flags.c_contiguous:
        return True
    try:
        if isinstance(data, np.ndarray):
            np.reshape(data, shape, copy=False)
            return True
        # CuPy has no reshape(copy=False): the reshape is a view exactly when it shares memory
        return xp_of(data).shares_memory(data.reshape(shape), data)
    except ValueError:
        return False


@guarded
def reshape(a: Tensor, *shape: Any) -> Tensor:
    a = _check_tensor(a, "reshape")
    target = _infer_shape(_shape_args(shape, "reshape"), a.numel())
    if a._data.flags.c_contiguous:
        return ViewBackward0.apply(a, shape=target)
    if _viewable(a._data, target):
        # A strided tensor that can still be viewed: PyTorch's _reshape_alias.
        return ReshapeAliasBackward0.apply(a, shape=target)
    return UnsafeViewBackward0.apply(clone(a, memory_format="contiguous"), shape=target)


def _unsafe_view(a: Tensor, shape: tuple[int, ...]) -> Tensor:
    return UnsafeViewBackward0.apply(a, shape=shape)


@guarded
def view_as(a: Tensor, other: Tensor) -> Tensor:
    return view(a, other.shape)


@guarded
def reshape_as(a: Tensor, other: Tensor) -> Tensor:
    return reshape(a, other.shape)


@guarded
def flatten(a: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    a = _check_tensor(a, "flatten")
    if a.ndim == 0:
        return reshape(a, (1,))
    start = wrap_dim(start_dim, a.ndim)
    end = wrap_dim(end_dim, a.ndim)
    if start > end:
        raise TorchRuntimeError(
            "flatten() has invalid args: start_dim cannot come after end_dim"
        )
    if start == end:
        return a
    merged = 1
    for n in a.shape[start:end + 1]:
        merged *= n
    return reshape(a, a.shape[:start] + (merged,) + a.shape[end + 1:])


@guarded
def unflatten(a: Tensor, dim: int, sizes: Sequence[int]) -> Tensor:
    if a.ndim == 0:
        raise TorchRuntimeError("unflatten got an unexpected error:\nDimension specified as 0 "
                                "but tensor has no dimensions")
    d = wrap_dim(dim, a.ndim)
    sizes = tuple(sizes)
    if not sizes:
        raise TorchRuntimeError("unflatten: sizes must be non-empty")
    try:
        resolved = _infer_shape(sizes, a.shape[d])
    except TorchRuntimeError:
        resolved = None
    if resolved is None:
        text = "[" + ", ".join(map(str, sizes)) + "]"
        raise TorchRuntimeError(
            f"unflatten: Provided sizes {text} don't multiply up to the size of dim {d} "
            f"({a.shape[d]}) in the input tensor"
        )
    return view(a, a.shape[:d] + resolved + a.shape[d + 1:])


@guarded
def expand(a: Tensor, *shape: Any) -> Tensor:
    a = _check_tensor(a, "expand")
    target = list(_shape_args(shape, "expand"))
    lead = len(target) - a.ndim
    if lead < 0:
        raise TorchRuntimeError(
            f"expand(torch.{a.dtype.legacy}{{[{', '.join(map(str, a.shape))}]}}, size="
            f"[{', '.join(map(str, target))}]): the number of sizes provided ({len(target)}) must "
            f"be greater or equal to the number of dimensions in the tensor ({a.ndim})"
        )
    requested = list(target)
    for i in reversed(range(len(target))):  # PyTorch checks from the last dimension
        n = target[i]
        if i >= lead:
            have = a.shape[i - lead]
            if n == -1:
                target[i] = have
            elif have != n and have != 1:
                raise TorchRuntimeError(
                    f"The expanded size of the tensor ({n}) must match the existing size ({have}) "
                    f"at non-singleton dimension {i}.  Target sizes: "
                    f"[{', '.join(map(str, requested))}].  Tensor sizes: "
                    f"[{', '.join(map(str, a.shape))}]"
                )
        elif n == -1:
            raise TorchRuntimeError(
                f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                f"dimension {i}"
            )
    return ExpandBackward0.apply(a, shape=tuple(target))


@guarded
def expand_as(a: Tensor, other: Tensor) -> Tensor:
    return expand(a, other.shape)


@guarded
def broadcast_to(a: Tensor, shape: Sequence[int]) -> Tensor:
    return expand(a, tuple(shape))


@guarded
def t(a: Tensor) -> Tensor:
    a = _check_tensor(a, "t")
    if a.ndim > 2:
        raise TorchRuntimeError(
            f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D"
        )
    return TBackward0.apply(a)


@guarded
def T(a: Tensor) -> Tensor:
    """The `.T` property: permute with the dimensions reversed."""
    if a.ndim == 0 and "T0" not in _once:
        _once.add("T0")
        warn("Tensor.T is deprecated on 0-D tensors. This function is the identity in these "
             "cases.")
    elif a.ndim not in (0, 2) and "T" not in _once:
        _once.add("T")
        warn(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
            "reverse the dimensions of a tensor."
        )
    return PermuteBackward0.apply(a, dims=tuple(range(a.ndim - 1, -1, -1)))


@guarded
def mT(a: Tensor) -> Tensor:
    if a.ndim < 2:
        raise TorchRuntimeError(
            "tensor.mT is only supported on matrices or batches of matrices. Got "
            f"{a.ndim}-D tensor."
        )
    return transpose(a, -2, -1)


@guarded
def H(a: Tensor) -> Tensor:
    if a.ndim != 2:
        extra = " For batches of matrices, consider using tensor.mH" if a.ndim > 2 else ""
        raise TorchRuntimeError(
            f"tensor.H is only supported on matrices (2-D tensors). Got {a.ndim}-D tensor.{extra}"
        )
    return transpose(a, 0, 1)


@guarded
def transpose(a: Tensor, dim0: int, dim1: int) -> Tensor:
    a = _check_tensor(a, "transpose")
    d0, d1 = wrap_dim(dim0, a.ndim), wrap_dim(dim1, a.ndim)
    return TransposeBackward0.apply(a, dim0=d0, dim1=d1)


swapaxes = alias(transpose, "swapaxes")
swapdims = alias(transpose, "swapdims")


@guarded
def permute(a: Tensor, *dims: Any) -> Tensor:
    a = _check_tensor(a, "permute")
    if not dims:
        raise TorchTypeError('permute() missing 1 required positional arguments: "dims"')
    order = _shape_args(dims, "permute")
    if len(order) != a.ndim:
        raise TorchRuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            "length of the desired ordering of dimensions i.e. input.dim() = "
            f"{a.ndim} is not equal to len(dims) = {len(order)}"
        )
    wrapped = tuple(wrap_dim(d, a.ndim) for d in order)
    if len(set(wrapped)) != len(wrapped):
        raise TorchRuntimeError("permute(): duplicate dims are not allowed.")
    return PermuteBackward0.apply(a, dims=wrapped)


@guarded
def unsqueeze(a: Tensor, dim: int) -> Tensor:
    a = _check_tensor(a, "unsqueeze")
    return UnsqueezeBackward0.apply(a, dim=wrap_dim(dim, a.ndim + 1))


@guarded
def squeeze(a: Tensor, dim: Any = None) -> Tensor:
    a = _check_tensor(a, "squeeze")
    if dim is None:
        return SqueezeBackward0.apply(a, dims=tuple(range(a.ndim)))
    if isinstance(dim, (tuple, list)):
        return SqueezeBackward2.apply(a, dims=normalize_dims(tuple(dim), a.ndim))
    return SqueezeBackward1.apply(a, dims=(wrap_dim(dim, a.ndim),))


@guarded
def contiguous(a: Tensor) -> Tensor:
    if a._data.flags.c_contiguous:
        return a
    return clone(a, memory_format="contiguous")


@guarded
def is_contiguous(a: Tensor) -> bool:
    return bool(a._data.flags.c_contiguous)


@guarded
def select(a: Tensor, dim: int, index: int) -> Tensor:
    a = _check_tensor(a, "select")
    if a.ndim == 0:
        raise TorchIndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d]
    if index < -size or index >= size:
        raise TorchIndexError(
            f"select(): index {index} out of range for tensor of size "
            f"[{', '.join(map(str, a.shape))}] at dimension {d}"
        )
    return SelectBackward0.apply(a, dim=d, index=index % size)


def slice(a: Tensor, dim: int, start: int, end: int, step: int = 1) -> Tensor:  # noqa: A001
    """aten::slice with already clamped, non-negative bounds."""
    return SliceBackward0.apply(a, dim=dim, start=start, end=end, step=step)


@guarded
def narrow(a: Tensor, dim: int, start: int, length: int) -> Tensor:
    a = _check_tensor(a, "narrow")
    if a.ndim == 0:
        raise TorchRuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d]
    if start < -size or start > size:
        raise TorchIndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"
        )
    start %= builtins.max(size, 1) if start < 0 else size + 1
    if length < 0 or start + length > size:
        raise TorchRuntimeError(
            f"start ({start}) + length ({length}) exceeds dimension size ({size})."
        )
    return SliceBackward0.apply(a, dim=d, start=start, end=start + length, step=1)


@guarded
def split(a: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """split/chunk pieces are views named SplitBackward0 (each piece has its own node)."""
    a = _check_tensor(a, "split")
    if a.ndim == 0:
        raise TorchRuntimeError("split expects at least a 1-dimensional tensor")
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step < 0:
            raise TorchRuntimeError(
                f"split expects split_size be non-negative, but got split_size={step}"
            )
        if step == 0 and size != 0:
            raise TorchRuntimeError(
                "split_size can only be 0 if dimension size is 0, but got dimension size of "
                f"{size}"
            )
        step = builtins.max(step, 1)
        bounds = [(s, builtins.min(s + step, size)) for s in range(0, size, step)] or [(0, 0)]
    else:
        sections = list(split_size_or_sections)
        if builtins.sum(sections) != size:
            raise TorchRuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's "
                f"size at dimension {d}), but got split_sizes={sections}"
            )
        bounds, offset = [], 0
        for s in sections:
            bounds.append((offset, offset + s))
            offset += s
        return tuple(SplitWithSizesBackward0.apply(a, dim=d, start=s, end=e, step=1)
                     for s, e in bounds)
    return tuple(SplitBackward0.apply(a, dim=d, start=s, end=e, step=1) for s, e in bounds)


@guarded
def chunk(a: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    if a.ndim == 0:
        raise TorchRuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise TorchRuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d]
    step = (size + chunks - 1) // chunks if size else 1
    if size == 0:  # PyTorch splits an empty dimension with sizes [0, ...]
        return tuple(SplitWithSizesBackward0.apply(a, dim=d, start=0, end=0, step=1)
                     for _ in range(chunks))
    return split(a, step, d)


@guarded
def unbind(a: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    if a.ndim == 0:
        raise TorchIndexError("Dimension specified as 0 but tensor has no dimensions")
    d = wrap_dim(dim, a.ndim)
    return tuple(UnbindBackward0.apply(a, dim=d, index=i) for i in range(a.shape[d]))


def _tensor_list(tensors: Any, fname: str) -> list[Tensor]:
    if isinstance(tensors, Tensor):
        raise TorchTypeError(
            f"{fname}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"
        )
    items = list(tensors)
    for i, t in enumerate(items):
        if not isinstance(t, Tensor):
            raise TorchTypeError(
                f"expected Tensor as element {i} in argument 0, but got {_type_name(t)}"
            )
    return items


@guarded(tensor_first=False)
def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    items = _tensor_list(tensors, "cat")
    if not items:
        raise TorchValueError("torch.cat(): expected a non-empty list of Tensors")
    _check_kernel_devices("wrapper_CUDA_cat", *[("tensors", t) for t in items])
    for i, t in enumerate(items):
        if t.ndim == 0:
            raise TorchRuntimeError(
                f"zero-dimensional tensor (at position {i}) cannot be concatenated"
            )
    # Legacy rule: 1-d empty tensors are skipped when the others have more dimensions.
    real = [t for t in items if not (t.ndim == 1 and t.shape[0] == 0)]
    ref = real[0] if real else items[0]
    d = wrap_dim(dim, ref.ndim)
    for i, t in enumerate(items):
        if t.ndim == 1 and t.shape[0] == 0 and ref.ndim != 1:
            continue
        if t.ndim != ref.ndim:
            raise TorchRuntimeError(
                f"Tensors must have same number of dimensions: got {ref.ndim} and {t.ndim}"
            )
        for k in range(t.ndim):
            if k != d and t.shape[k] != ref.shape[k]:
                raise TorchRuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size "
                    f"{ref.shape[k]} but got size {t.shape[k]} for tensor number {i} in the list."
                )
    dtype = result_dtype(*items)
    return CatBackward0.apply(*items, dim=d, dtype=dtype)


concat = alias(cat, "concat")
concatenate = alias(cat, "concatenate")


@guarded(tensor_first=False)
def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    items = _tensor_list(tensors, "stack")
    if not items:
        raise TorchRuntimeError("stack expects a non-empty TensorList")
    for i, t in enumerate(items):
        if t.shape != items[0].shape:
            raise TorchRuntimeError(
                f"stack expects each tensor to be equal size, but got "
                f"[{', '.join(map(str, items[0].shape))}] at entry 0 and "
                f"[{', '.join(map(str, t.shape))}] at entry {i}"
            )
    d = wrap_dim(dim, items[0].ndim + 1)
    _check_kernel_devices("wrapper_CUDA_cat", *[("tensors", t) for t in items])  # stack is cat
    dtype = result_dtype(*items)
    return StackBackward0.apply(*items, dim=d, dtype=dtype)


# ---------------------------------------------------------------------------------------------
# Indexing (Tensor.__getitem__ / __setitem__)
# ---------------------------------------------------------------------------------------------


def _index_error(obj: Any) -> TorchIndexError:
    return TorchIndexError(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
        f"valid indices (got {_type_name(obj)})"
    )


def _as_index_tensor(item: Any, device: str) -> Tensor:
    if isinstance(item, Tensor):
        t = item
    else:
        try:
            t = tensor(item, device=device)  # a list indexes on the indexed tensor's device
        except (TorchTypeError, TorchValueError):
            raise _index_error(item) from None
        if t.numel() == 0:
            t = Tensor._make(xp_of(t._data).zeros(t.shape, dtype=np.int64), t.device)
    if t.dtype.is_floating_point:
        raise TorchIndexError("tensors used as indices must be long, int, byte or bool tensors")
    return t


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _count_dims(items: Sequence[Any]) -> int:
    count = 0
    for item in items:
        if item is None or item is Ellipsis or isinstance(item, bool):
            continue
        if isinstance(item, Tensor) and item.dtype is dtypes.bool_:
            count += builtins.max(item.ndim, 0)
        else:
            count += 1
    return count


def _apply_slicing(t: Tensor, items: Sequence[Any], optimize: bool = True
                   ) -> tuple[Tensor, list[tuple[int, Tensor]]]:
    """PyTorch's applySlicing: basic indices become views in order; tensor indices are
    recorded at their dimension for the advanced step (a mask advances by its ndim)."""
    specified = _count_dims(items)
    if specified > t.ndim:
        raise TorchIndexError(f"too many indices for tensor of dimension {t.ndim}")
    result = t
    dim = 0  # the dimension of `result` the next index applies to
    advanced: list[tuple[int, Tensor]] = []
    for real_dim, item in enumerate(items):  # messages name the index's position in the key
        if isinstance(item, Tensor) and item.ndim == 0 and not item.dtype.is_floating_point \
                and item.dtype is not dtypes.bool_:
            item = int(item.item())
        if _is_int(item):
            # NOTE: several Ellipses can push `dim` past the end: PyTorch then sees size 0
            size = result.shape[dim] if dim < result.ndim else 0
            if item < -size or item >= size:
                raise TorchIndexError(
                    f"index {item} is out of bounds for dimension {real_dim} with size {size}"
                )
            result = SelectBackward0.apply(result, dim=dim, index=item % size)
        elif isinstance(item, builtins.slice):
            if dim >= result.ndim and optimize and item == builtins.slice(None):
                # a full slice past the end (several Ellipses) is skipped, as in PyTorch
                dim += 1
                continue
            wrap_dim(dim, result.ndim)
            start, stop, step = _slice_bounds(item, result.shape[dim])
            if not (optimize and start == 0 and stop == result.shape[dim] and step == 1):
                result = SliceBackward0.apply(result, dim=dim, start=start, end=stop,
                                                 step=step)
            dim += 1
        elif item is None:
            result = UnsqueezeBackward0.apply(result, dim=wrap_dim(dim, result.ndim + 1))
            dim += 1
        elif item is Ellipsis:
            dim += t.ndim - specified
        elif isinstance(item, bool) or (isinstance(item, Tensor) and item.ndim == 0
                                        and item.dtype is dtypes.bool_):
            flag = bool(item.item()) if isinstance(item, Tensor) else item
            result = UnsqueezeBackward0.apply(result, dim=wrap_dim(dim, result.ndim + 1))
            index = Tensor._make(xp_of(t._data).zeros(1 if flag else 0, dtype=np.int64),
                                 t.device)
            advanced.append((dim, index))
            dim += 1
        elif isinstance(item, (Tensor, list, tuple)):
            index = _as_index_tensor(item, t.device)
            advanced.append((dim, index))
            dim += index.ndim if index.dtype is dtypes.bool_ else 1
        else:
            raise _index_error(item)
    return result, advanced


def _slice_bounds(item: builtins.slice, length: int) -> tuple[int, int, int]:
    step = 1 if item.step is None else _slice_int(item.step)
    if step == 0:
        raise TorchValueError("slice step cannot be zero")
    if step < 0:
        raise TorchValueError("step must be greater than zero")
    start = 0 if item.start is None else _slice_int(item.start)
    stop = length if item.stop is None else _slice_int(item.stop)
    if start < 0:
        start = builtins.max(start + length, 0)
    if stop < 0:
        stop = builtins.max(stop + length, 0)
    start = builtins.min(start, length)
    stop = builtins.min(builtins.max(stop, start), length)
    return start, stop, step


def _slice_int(value: Any) -> int:
    if isinstance(value, Tensor) and value.numel() == 1 and not value.dtype.is_floating_point:
        return int(value.item())
    if not _is_int(value):
        raise TorchTypeError(
            "slice indices must be integers or None or have an __index__ method"
        )
    return value


def _normalize_key(key: Any) -> tuple[Any, ...]:
    if isinstance(key, tuple):
        return key
    return (key,)


def _advanced_key(sliced: Tensor, advanced: list[tuple[int, Tensor]]
                  ) -> tuple[tuple[Any, ...], list[Tensor]]:
    """The NumPy key for PyTorch's advanced index step, with its errors in PyTorch's order:
    the number of indices, each mask's shape, broadcasting, then (only if the result has
    elements) the bounds, naming the index's ordinal among the index tensors."""
    entries = advanced[-1][0] + 1
    if entries > sliced.ndim:
        raise TorchIndexError(
            f"too many indices for tensor of dimension {sliced.ndim} (got {entries})"
        )
    for _, index in advanced:
        if index.device != "cpu" and index.device != sliced.device:
            raise TorchIndexError(
                "indices should be either on cpu or on the same device as the indexed tensor "
                f"({sliced.device})"
            )
    # The key is built and checked on the host (PyTorch's errors need the index values) and
    # copied to the indexed tensor's device once, at the end.
    key: list[Any] = []
    saved: list[Tensor] = []
    indexers: list[tuple[np.ndarray, int]] = []
    position = 0
    for dim, index in advanced:
        while position < dim:
            key.append(builtins.slice(None))
            position += 1
        if index.dtype is dtypes.bool_:
            mask = backend.to_host(index._data)
            for k in range(mask.ndim):
                if position + k >= sliced.ndim or mask.shape[k] != sliced.shape[position + k]:
                    raise TorchIndexError(
                        f"The shape of the mask [{', '.join(map(str, mask.shape))}] at index {k} "
                        f"does not match the shape of the indexed tensor "
                        f"[{', '.join(map(str, sliced.shape))}] at index {position + k}"
                    )
            for part in np.nonzero(mask):
                part = part.astype(np.int64)
                key.append(part)
                indexers.append((part, sliced.shape[position]))
                saved.append(Tensor._make(backend.to_device(part, index.device), index.device))
                position += 1
        else:
            array = backend.to_host(index._data).astype(np.int64)
            key.append(array)
            indexers.append((array, sliced.shape[position]))
            saved.append(index)
            position += 1
    shapes = [a.shape for a, _ in indexers]
    try:
        broadcast = np.broadcast_shapes(*shapes)
    except ValueError:
        raise TorchIndexError(
            "shape mismatch: indexing tensors could not be broadcast together with shapes "
            + ", ".join("[" + ", ".join(map(str, s)) + "]" for s in shapes)
        ) from None
    rest = 1
    for d in range(sliced.ndim):
        if d >= len(key) or not isinstance(key[d], np.ndarray):
            rest *= sliced.shape[d]
    if rest * int(np.prod(broadcast, dtype=np.int64)) > 0:
        # the kernel checks element by element, each index in turn
        bad = [np.broadcast_to((a < -size) | (a >= size), broadcast).reshape(-1)
               for a, size in indexers]
        anywhere = np.logical_or.reduce(bad) if bad else np.zeros(0, dtype=bool)
        if anywhere.any():
            flat = int(np.argmax(anywhere))
            j = next(j for j, b in enumerate(bad) if b[flat])
            value = int(np.broadcast_to(indexers[j][0], broadcast).reshape(-1)[flat])
            raise TorchIndexError(
                f"index {value} is out of bounds for dimension {j} with size {indexers[j][1]}"
            )
    normalized = []
    for k in key:
        if isinstance(k, np.ndarray):
            size = sliced.shape[len(normalized)]
            if k.size:
                k = np.where(k < 0, k + size, k)
                # an empty result never reads its indices (PyTorch checks none): keep NumPy's
                # indexing from rejecting them
                k = np.where((k < 0) | (k >= size), 0, k)
            k = backend.to_device(k, sliced.device)
        normalized.append(k)
    return tuple(normalized), saved


@guarded
def index(t: Tensor, key: Any) -> Tensor:
    """`t[key]` exactly as PyTorch's Tensor.__getitem__."""
    if key is None:
        return UnsqueezeBackward0.apply(t, dim=0)
    if key is Ellipsis:
        return AliasBackward0.apply(t)
    if _is_int(key):
        _check_not_0d(t)
        sliced, _ = _apply_slicing(t, (key,))
        return sliced
    if isinstance(key, builtins.slice):
        # A lone slice is never optimised away: `x[:]` is SliceBackward0.
        _check_not_0d(t)
        start, stop, step = _slice_bounds(key, t.shape[0])
        return SliceBackward0.apply(t, dim=0, start=start, end=stop, step=step)
    if isinstance(key, (float, str)):
        raise _index_error(key)
    items = _normalize_key(key)
    sliced, advanced = _apply_slicing(t, items)
    if not advanced:
        if sliced is t:
            return AliasBackward0.apply(t)
        return sliced
    np_key, saved = _advanced_key(sliced, advanced)
    return IndexBackward0.apply(sliced, key=np_key, indices=saved)


def _check_not_0d(t: Tensor) -> None:
    if t.ndim == 0:
        raise TorchIndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
        )


def _index_with_key(g: Tensor, key: tuple[Any, ...]) -> Tensor:
    """Advanced indexing with an already built NumPy key (backward formulas)."""
    saved = [Tensor._make(k, g.device) for k in key if _is_index_array(k)]
    return IndexBackward0.apply(g, key=key, indices=saved)


def _index_fill_zero(g: Tensor, key: tuple[Any, ...]) -> Tensor:
    zeros_value = zeros((), dtype=g.dtype, device=g.device)
    saved = [Tensor._make(k, g.device) for k in key if _is_index_array(k)]
    return IndexPutBackward0.apply(g, zeros_value, key=key, indices=saved)


def _is_index_array(k: Any) -> bool:
    return isinstance(k, np.ndarray) or backend.is_device_array(k)


def _strip_leading_ones(shape: tuple[int, ...]) -> tuple[int, ...]:
    i = 0
    while i < len(shape) and shape[i] == 1:
        i += 1
    return shape[i:]


def _copy_to(dst: Tensor, src: Tensor) -> None:
    """PyTorch's indexing copy_to: copy_, or fill_ for a CPU scalar, or view + expand + copy_."""
    if dst.shape == src.shape:
        copy_(dst, src)
        return
    if src.ndim == 0 and src.device == "cpu":
        fill_(dst, src)
        return
    src_view = view(src, _strip_leading_ones(src.shape))
    if src_view.shape != dst.shape:
        src_view = expand(src_view, dst.shape)
    copy_(dst, src_view)


@guarded
def index_put(t: Tensor, key: Any, value: Any) -> Tensor:
    """`t[key] = value` exactly as PyTorch's Tensor.__setitem__ (in place)."""
    if isinstance(value, Tensor):
        v = value
    elif is_number(value):
        v = Tensor._make(backend.to_device(np.array(value).astype(t._data.dtype), t.device),
                         t.device)
    else:
        raise TorchTypeError(
            f"can't assign a {_type_name(value)} to a {t.dtype.legacy.replace('Tensor', '')} "
            "Tensor" if not isinstance(value, (list, tuple)) else
            "can't assign a list to a Tensor"
        )
    if key is False or (isinstance(key, Tensor) and key.ndim == 0 and key.dtype is dtypes.bool_
                        and not bool(key.item())):
        return t
    if key is Ellipsis:
        _copy_to(t, v)
        return t
    if key is None or key is True:
        _copy_to(UnsqueezeBackward0.apply(t, dim=0), v)
        return t
    if _is_int(key):
        _check_not_0d(t)
        sliced, _ = _apply_slicing(t, (key,))
        _copy_to(sliced, v)
        return t
    if isinstance(key, builtins.slice):
        _check_not_0d(t)
        start, stop, step = _slice_bounds(key, t.shape[0])
        if start == 0 and stop == t.shape[0] and step == 1:
            _copy_to(t, v)
        else:
            _copy_to(SliceBackward0.apply(t, dim=0, start=start, end=stop, step=step), v)
        return t
    if isinstance(key, (float, str)):
        raise _index_error(key)
    sliced, advanced = _apply_slicing(t, _normalize_key(key))
    if not advanced:
        _copy_to(sliced, v)
        return t
    np_key, saved = _advanced_key(sliced, advanced)
    stripped = _strip_leading_ones(v.shape)
    if stripped != v.shape:
        v = view(v, stripped)
    if v.dtype is not sliced.dtype:
        raise TorchRuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{sliced.dtype.short} for the destination and {v.dtype.short} for the source."
        )
    apply_inplace(IndexPutBackward0, sliced, v, key=np_key, indices=saved)
    return t


# ---------------------------------------------------------------------------------------------
# Linear algebra
# ---------------------------------------------------------------------------------------------


def _c_name(dtype: DType) -> str:
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
            "bool": "bool", "float16": "c10::Half", "int16": "short int",
            "int8": "signed char", "uint8": "unsigned char"}.get(dtype.name, dtype.name)


@guarded
def mm(a: Tensor, b: Tensor) -> Tensor:
    _check_tensor(a, "mm")
    _check_tensor(b, "mm", "mat2", 2)
    _check_kernel_devices("wrapper_CUDA_mm", ("self", a), ("mat2", b))
    if a.ndim != 2:
        raise TorchRuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise TorchRuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise TorchRuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
            f"{b.shape[0]}x{b.shape[1]})"
        )
    if a.dtype is not b.dtype:
        raise TorchRuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{_c_name(a.dtype)} != {_c_name(b.dtype)}"
        )
    if a.dtype is dtypes.bool_:
        raise not_implemented_for("addmm_impl_cpu_", a.dtype)
    limits.check((a.shape[0], b.shape[1]), a.dtype.itemsize)
    return MmBackward0.apply(a, b)


@guarded
def mv(a: Tensor, v: Tensor) -> Tensor:
    _check_tensor(a, "mv")
    _check_tensor(v, "mv", "vec", 2)
    # mv is addmv_(result, self, vec) with the result made on vec's device
    _check_kernel_devices("wrapper_CUDA_addmv_", ("self", v), ("mat", a), ("vec", v))
    if a.ndim != 2 or v.ndim != 1:
        raise TorchRuntimeError(
            f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}"
        )
    if a.shape[1] != v.shape[0]:
        raise TorchRuntimeError(
            f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), "
            f"vec ({v.shape[0]})"
        )
    if a.dtype is not v.dtype:
        raise TorchRuntimeError(
            "addmv input tensors must have the same dtype, but got "
            f"{v.dtype.short}, {a.dtype.short}, and {v.dtype.short}"
        )
    if a.dtype is dtypes.bool_:
        raise not_implemented_for("addmv_impl_cpu", a.dtype)
    return MvBackward0.apply(a, v)


@guarded
def dot(a: Tensor, b: Tensor) -> Tensor:
    _check_tensor(a, "dot")
    _check_tensor(b, "dot", "tensor", 2)
    _check_kernel_devices("wrapper_CUDA__dot", ("self", a), ("tensor", b))
    if a.ndim != 1 or b.ndim != 1:
        raise TorchRuntimeError(
            f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors"
        )
    if a.shape[0] != b.shape[0]:
        raise TorchRuntimeError(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to "
            f"have the same number of elements, but got {a.shape[0]} and {b.shape[0]} elements "
            "respectively"
        )
    if a.dtype is not b.dtype:
        raise TorchRuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{a.dtype.short} and {b.dtype.short}"
        )
    if a.dtype is dtypes.bool_:
        raise not_implemented_for("dot", a.dtype)
    return DotBackward0.apply(a, b)


@guarded
def inner(a: Tensor, b: Tensor) -> Tensor:
    """torch.inner: tensordot over the last dimensions, with its graph (permute, reshape, dot or
    mm, view)."""
    if a.ndim == 0 or b.ndim == 0:
        return mul(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise TorchRuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes "
            f"[{', '.join(map(str, a.shape))}] and [{', '.join(map(str, b.shape))}]"
        )
    k = a.shape[-1]
    left = permute(a, *range(a.ndim))
    right = permute(b, b.ndim - 1, *range(b.ndim - 1))
    rows = math.prod(a.shape[:-1])
    cols = math.prod(b.shape[:-1])
    if a.ndim == 1 and b.ndim == 1:
        return view(dot(left, right), ())
    product = mm(reshape(left, rows, k), reshape(right, k, cols))
    return view(product, *(a.shape[:-1] + b.shape[:-1]))


@guarded
def bmm(a: Tensor, b: Tensor) -> Tensor:
    _check_tensor(a, "bmm")
    _check_tensor(b, "bmm", "mat2", 2)
    _check_kernel_devices("wrapper_CUDA_bmm", ("self", a), ("mat2", b))
    if a.ndim != 3:
        raise TorchRuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise TorchRuntimeError("batch2 must be a 3D tensor")
    if b.shape[0] != a.shape[0] or b.shape[1] != a.shape[2]:
        raise TorchRuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}]."
        )
    if a.dtype is not b.dtype:
        raise TorchRuntimeError(
            f"expected scalar type {a.dtype.short} but found {b.dtype.short}"
        )
    if a.dtype is dtypes.bool_:
        raise not_implemented_for("bmm", a.dtype)
    limits.check((a.shape[0], a.shape[1], b.shape[2]), a.dtype.itemsize)
    return BmmBackward0.apply(a, b)


@guarded
def outer(a: Tensor, b: Tensor) -> Tensor:
    if a.ndim != 1 or b.ndim != 1:
        raise TorchRuntimeError(
            f"outer: Expected 1-D argument self, but got {a.ndim}-D" if a.ndim != 1 else
            f"outer: Expected 1-D argument vec2, but got {b.ndim}-D"
        )
    return mul(reshape(a, (a.shape[0], 1)), b)


ger = alias(outer, "ger")


def _should_fold(t1: Tensor, t2: Tensor) -> bool:
    """PyTorch's should_fold: use mm/mv on the larger tensor folded into a matrix."""
    t1_larger = t1.ndim >= t2.ndim
    big = t1._data if t1_larger else xp_of(t2._data).swapaxes(t2._data, -1, -2)
    dim_small = t2.ndim if t1_larger else t1.ndim
    if not (big.ndim >= 3 and dim_small <= 2):
        return False
    small_requires_grad = t2.requires_grad if t1_larger else t1.requires_grad
    if small_requires_grad and is_grad_enabled():
        return True
    if t1.ndim == 2:
        return False
    if big.size == 0:
        return True
    strides = _strides(big)
    for i in range(big.ndim - 2):
        if strides[i] != strides[i + 1] * big.shape[i + 1]:
            return False
    return True


@guarded
def matmul(a: Tensor, b: Tensor) -> Tensor:
    """torch.matmul with PyTorch's algorithm, so every shape case builds PyTorch's graph."""
    _check_tensor(a, "matmul")
    _check_tensor(b, "matmul", "other", 2)
    da, db = a.ndim, b.ndim
    if da == 0 or db == 0:
        raise TorchRuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
        )
    if da == 1 and db == 1:
        return dot(a, b)
    if da == 2 and db == 1:
        return mv(a, b)
    if da == 1 and db == 2:
        product = mm(unsqueeze(a, 0), b)
        return SqueezeBackward4.apply(product, dim=0)
    if da == 2 and db == 2:
        return mm(a, b)
    if _should_fold(a, b):
        transposed = db > da
        t1 = mT(b) if transposed else a
        t2 = (t(a) if da == 2 else a) if transposed else b
        output_shape = t1.shape[:-1]
        folded = 1
        for n in output_shape:
            folded *= n
        if t2.ndim == 2:
            output_shape = output_shape + (t2.shape[1],)
        t1_folded = reshape(t1, (folded, t1.shape[-1]))
        if t2.ndim == 2:
            out = _unsafe_view(mm(t1_folded, t2), output_shape)
            return contiguous(mT(out)) if transposed else out
        return _unsafe_view(mv(t1_folded, t2), output_shape)
    n = a.shape[-2] if da > 1 else 1
    m1 = a.shape[-1]
    batch_a = a.shape[:builtins.max(da - 2, 0)]
    m2 = b.shape[-2] if db > 1 else b.shape[0]
    p = b.shape[-1] if db > 1 else 1
    batch_b = b.shape[:builtins.max(db - 2, 0)]
    if da == 3 and db == 3 and batch_a[0] != batch_b[0]:
        if batch_a[0] == 1 and a.requires_grad:
            return matmul(squeeze(a, 0), b)
        if batch_b[0] == 1 and b.requires_grad:
            return matmul(a, squeeze(b, 0))
    batch = infer_size(batch_a, batch_b)
    batch_product = 1
    for s in batch:
        batch_product *= s
    if m1 != m2:
        raise TorchRuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{batch_product}, {m1}] but got: [{batch_product}, {m2}]."
        )
    a_expanded = reshape(expand(a, batch + (n, m1)), (batch_product, n, m1))
    vector_rhs = db == 1
    b_expanded = expand(b, batch + ((m2,) if vector_rhs else (m2, p)))
    if vector_rhs:
        b_expanded = unsqueeze(reshape(b_expanded, (batch_product, m2)), 2)
    else:
        b_expanded = reshape(b_expanded, (batch_product, m2, p))
    output_shape = batch + ((n,) if da > 1 else ()) + ((p,) if db > 1 else ())
    product = bmm(a_expanded, b_expanded)
    if vector_rhs:
        product = squeeze(product, -1)
    return _unsafe_view(product, output_shape)


# ---------------------------------------------------------------------------------------------
# nn
# ---------------------------------------------------------------------------------------------


def _softmax_dim(fname: str, ndim: int, dim: Any) -> int:
    if dim is None:
        warn(f"Implicit dimension choice for {fname} has been deprecated. Change the call to "
             "include dim=X as an argument.")
        dim = 0 if ndim in (0, 1, 3) else 1
    return wrap_dim(dim, ndim)


@guarded
def softmax(a: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    """F.softmax (torch.softmax when dim is given): SoftmaxBackward0."""
    a = _check_tensor(a, "softmax")
    d = _softmax_dim("softmax", a.ndim, dim)
    if dtype is not None:
        a = to(a, dtype)
    if not a.dtype.is_floating_point:
        raise not_implemented_for("softmax_lastdim_kernel_impl", a.dtype)
    return SoftmaxBackward0.apply(a, dim=d)


@guarded
def log_softmax(a: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    a = _check_tensor(a, "log_softmax")
    d = _softmax_dim("log_softmax", a.ndim, dim)
    if dtype is not None:
        a = to(a, dtype)
    if not a.dtype.is_floating_point:
        raise not_implemented_for("log_softmax_lastdim_kernel_impl", a.dtype)
    return LogSoftmaxBackward0.apply(a, dim=d)


def _check_reduction(reduction: str) -> None:
    if reduction not in ("none", "mean", "sum"):
        raise TorchValueError(f"{reduction} is not a valid value for reduction")


@guarded
def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    input, target = _loss_operands("mse_loss", input, target, reduction)
    dtype = result_dtype(input, target)
    if not dtype.is_floating_point:
        raise not_implemented_for("mse_cpu", dtype)
    return MseLossBackward0.apply(input, target, reduction=reduction)


def _format_size(shape: tuple[int, ...]) -> str:
    return "torch.Size([" + ", ".join(str(n) for n in shape) + "])"


@guarded
def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,  # noqa: A002
             ignore_index: int = -100, reduction: str = "mean") -> Tensor:
    _check_tensor(input, "nll_loss")
    _check_tensor(target, "nll_loss", "target", 2)
    _check_reduction(reduction)
    if input.ndim not in (1, 2):
        raise TorchNotImplementedError(
            "gradsh's nll_loss supports (N, C) or (C,) inputs only"
        )
    if input.ndim == 2 and target.ndim >= 1 and input.shape[0] != target.shape[0]:
        raise TorchValueError(  # nll_loss_nd checks the batch before the kernel checks dtypes
            f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
            f"({target.shape[0]})."
        )
    if target.dtype not in (dtypes.int64, dtypes.uint8):
        raise TorchRuntimeError(
            f"expected target dtype to be Long or Byte, but got {target.dtype.short}"
        )
    if input.ndim == 1 and target.ndim != 0:
        raise TorchRuntimeError(
            "0D or 1D target tensor expected, multi-target not supported"
        )
    _check_kernel_devices("wrapper_CUDA_nll_loss_forward", ("self", input), ("target", target),
                          ("weight", weight))
    if not input.dtype.is_floating_point:
        raise not_implemented_for("nll_loss_forward_reduce_cuda_kernel_2d_index", input.dtype)
    return NllLossBackward0.apply(input, target=target, weight=weight, reduction=reduction,
                                     ignore_index=ignore_index)


@guarded
def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,  # noqa: A002
                  ignore_index: int = -100, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """PyTorch's cross_entropy_loss (aten/src/ATen/native/LossNLL.cpp), composed of the same
    ops so the graph has its nodes: class indices go to nll_loss(log_softmax); a target of
    the input's shape holds class probabilities; label smoothing mixes in the mean over
    classes."""
    _check_tensor(input, "cross_entropy")
    _check_tensor(target, "cross_entropy", "target", 2)
    _check_reduction(reduction)
    class_dim = 0 if input.ndim == 1 else 1
    if input.shape == target.shape:
        if not target.dtype.is_floating_point:
            raise TorchRuntimeError("Expected floating point type for target with class "
                                    f"probabilities, got {target.dtype.short}")
        if ignore_index >= 0:
            raise TorchRuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_probabilities(input, target, weight, reduction, label_smoothing,
                                            class_dim)
    if label_smoothing > 0.0:
        _check_label_smoothing(label_smoothing)
        return _cross_entropy_smoothed(input, target, weight, reduction, ignore_index,
                                       label_smoothing, class_dim)
    return nll_loss(log_softmax(input, class_dim), target, weight, ignore_index, reduction)


def _check_label_smoothing(label_smoothing: float) -> None:
    if label_smoothing > 1.0:
        raise TorchRuntimeError(
            f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")


def _class_weight(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    """The weight viewed to broadcast along the class dimension."""
    if ndim <= 1:
        return weight
    shape = [1] * ndim
    shape[class_dim] = weight.shape[0]
    return view(weight, *shape)


def _cross_entropy_probabilities(input: Tensor, target: Tensor,  # noqa: A002
                                 weight: Tensor | None, reduction: str,
                                 label_smoothing: float, class_dim: int) -> Tensor:
    """-(log_softmax(input) * target [* weight]).sum(), over N for "mean"."""
    n_classes = input.shape[class_dim]
    if weight is not None and (weight.ndim != 1 or weight.numel() != n_classes):
        raise TorchRuntimeError(
            f"cross_entropy: weight tensor should be defined either for all {n_classes} "
            f"classes or no classes but got weight tensor of shape: {list(weight.shape)}")
    logp = log_softmax(input, class_dim)
    if label_smoothing > 0.0:
        _check_label_smoothing(label_smoothing)
        target = AddBackward1.apply(MulBackward1.apply(target, other=1 - label_smoothing),
                                       other=label_smoothing / n_classes)
    terms = mul(logp, target)
    if weight is not None:
        terms = mul(terms, _class_weight(weight, logp.ndim, class_dim))
    if reduction == "none":
        return neg(sum(terms, class_dim))
    total = neg(sum(terms))
    if reduction == "sum":
        return total
    if input.numel() == 0:
        with no_grad():
            fill_(total, math.nan)
        return total
    return DivBackward1.apply(total, other=input.numel() // n_classes)


def _cross_entropy_smoothed(input: Tensor, target: Tensor, weight: Tensor | None,  # noqa: A002
                            reduction: str, ignore_index: int, label_smoothing: float,
                            class_dim: int) -> Tensor:
    """(1 - s) * nll_loss + s / C * (the loss against a uniform target), ignored rows 0."""
    logp = log_softmax(input, class_dim)
    nll = nll_loss(logp, target, weight, ignore_index, reduction)
    n_classes = logp.shape[class_dim]
    ignored = eq(target, ignore_index)
    if weight is not None:
        smooth = neg(sum(mul(logp, _class_weight(weight, logp.ndim, class_dim)), class_dim))
    else:
        smooth = neg(sum(logp, class_dim))
    masked_fill_(smooth, ignored, 0.0)
    if reduction == "mean":
        if weight is not None:
            kept = index(weight, index(target, logical_not(ignored)))
            smooth = div(sum(smooth), sum(kept))
        else:
            smooth = div(sum(smooth), sum(logical_not(ignored)))
    elif reduction == "sum":
        smooth = sum(smooth)
    return add(MulBackward1.apply(nll, other=1 - label_smoothing),
               MulBackward1.apply(smooth, other=label_smoothing / n_classes))


# ---------------------------------------------------------------------------------------------
# More element-wise functions and activations
# ---------------------------------------------------------------------------------------------

log1p = _unary(Log1PBackward0, "log1p")
expm1 = _unary(Expm1Backward0, "expm1")
exp2 = _unary(Exp2Backward0, "exp2")
sinh = _unary(SinhBackward0, "sinh")
cosh = _unary(CoshBackward0, "cosh")
asin = _unary(AsinBackward0, "asin")
acos = _unary(AcosBackward0, "acos")
atan = _unary(AtanBackward0, "atan")
erf = _unary(ErfBackward0, "erf")
arcsin = alias(asin, "arcsin")
arccos = alias(acos, "arccos")
arctan = alias(atan, "arctan")


def _not_inplace(name: str, inplace: bool) -> None:
    if inplace:
        raise TorchNotImplementedError(f"gradsh's {name} has no inplace=True")


def _float_input(a: Tensor, name: str, kernel: str) -> Tensor:
    a = _check_tensor(a, name)
    if not a.dtype.is_floating_point:
        raise not_implemented_for(kernel, a.dtype)
    return a


@guarded
def logsigmoid(a: Tensor) -> Tensor:
    return LogSigmoidBackward0.apply(_float_input(a, "log_sigmoid", "log_sigmoid_cpu"))


@guarded
def leaky_relu(a: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    _not_inplace("leaky_relu", inplace)
    return LeakyReluBackward0.apply(_float_input(a, "leaky_relu", "leaky_relu_cpu"),
                                       negative_slope=negative_slope)


@guarded
def elu(a: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    _not_inplace("elu", inplace)
    return EluBackward0.apply(_float_input(a, "elu", "elu_cpu"), alpha=alpha, scale=1.0,
                                 input_scale=1.0)


@guarded
def silu(a: Tensor, inplace: bool = False) -> Tensor:
    _not_inplace("silu", inplace)
    return SiluBackward0.apply(_float_input(a, "silu", "silu_cpu"))


@guarded
def softplus(a: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return SoftplusBackward0.apply(_float_input(a, "softplus", "softplus_cpu"), beta=beta,
                                      threshold=threshold)


@guarded
def hardtanh(a: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    _not_inplace("hardtanh", inplace)
    if min_val > max_val:
        raise TorchValueError("min_val cannot be greater than max_val")
    return HardtanhBackward0.apply(_check_tensor(a, "hardtanh"), min_val=min_val,
                                      max_val=max_val)


@guarded
def relu6(a: Tensor, inplace: bool = False) -> Tensor:
    _not_inplace("relu6", inplace)
    return hardtanh(a, 0.0, 6.0)


@guarded
def gelu(a: Tensor, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise TorchRuntimeError("approximate argument must be either none or tanh.")
    return GeluBackward0.apply(_float_input(a, "gelu", "GeluKernelImpl"),
                                  approximate=approximate)


# ---------------------------------------------------------------------------------------------
# More losses
# ---------------------------------------------------------------------------------------------


def _loss_operands(name: str, input: Tensor, target: Tensor,  # noqa: A002
                   reduction: str) -> tuple[Tensor, Tensor]:
    """F.mse_loss / l1_loss / smooth_l1_loss / huber_loss's prelude: warn when the shapes
    differ, check the reduction, broadcast both (torch.broadcast_tensors)."""
    _check_tensor(input, name)
    _check_tensor(target, name, "target", 2)
    if target.shape != input.shape:
        warn(
            f"Using a target size ({_format_size(target.shape)}) that is different to the input "
            f"size ({_format_size(input.shape)}). This will likely lead to incorrect results due "
            "to broadcasting. Please ensure they have the same size."
        )
    _check_reduction(reduction)
    shape = infer_size(input.shape, target.shape)
    if input.shape != shape:
        input = expand(input, shape)
    if target.shape != shape:
        target = expand(target, shape)
    return input, target


@guarded
def l1_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """PyTorch composes it: (input - target).abs(), then mean or sum."""
    input, target = _loss_operands("l1_loss", input, target, reduction)
    loss = abs(sub(input, target))
    if reduction == "none":
        return loss
    return mean(loss) if reduction == "mean" else sum(loss)


@guarded
def smooth_l1_loss(input: Tensor, target: Tensor, reduction: str = "mean",  # noqa: A002
                   beta: float = 1.0) -> Tensor:
    input, target = _loss_operands("smooth_l1_loss", input, target, reduction)
    if beta < 0:
        raise TorchRuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:
        return l1_loss(input, target, reduction)
    return SmoothL1LossBackward0.apply(input, target, reduction=reduction, width=beta)


@guarded
def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean",  # noqa: A002
               delta: float = 1.0) -> Tensor:
    input, target = _loss_operands("huber_loss", input, target, reduction)
    if delta <= 0:
        raise TorchRuntimeError("huber_loss does not support non-positive values for delta.")
    return HuberLossBackward0.apply(input, target, reduction=reduction, width=delta)


@guarded
def binary_cross_entropy(input: Tensor, target: Tensor,  # noqa: A002
                         weight: Tensor | None = None, reduction: str = "mean") -> Tensor:
    _check_tensor(input, "binary_cross_entropy")
    _check_tensor(target, "binary_cross_entropy", "target", 2)
    _check_reduction(reduction)
    if target.shape != input.shape:
        raise TorchValueError(
            f"Using a target size ({_format_size(target.shape)}) that is different to the input "
            f"size ({_format_size(input.shape)}) is deprecated. Please ensure they have the "
            "same size.")
    if weight is not None and weight.shape != input.shape:
        weight = expand(weight, input.shape)
    return BinaryCrossEntropyBackward0.apply(input, target, weight=weight,
                                                reduction=reduction)


@guarded
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,  # noqa: A002
                                     weight: Tensor | None = None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    _check_tensor(input, "binary_cross_entropy_with_logits")
    _check_tensor(target, "binary_cross_entropy_with_logits", "target", 2)
    _check_reduction(reduction)
    if target.shape != input.shape:
        raise TorchValueError(
            f"Target size ({_format_size(target.shape)}) must be the same as input size "
            f"({_format_size(input.shape)})")
    return BinaryCrossEntropyWithLogitsBackward0.apply(
        input, target, weight=weight, pos_weight=pos_weight, reduction=reduction)


# ---------------------------------------------------------------------------------------------
# Cumulative, flipping, repeating, gathering, triangles
# ---------------------------------------------------------------------------------------------


@guarded
def cumsum(a: Tensor, dim: int, dtype: DType | None = None) -> Tensor:
    a = _check_tensor(a, "cumsum")
    d = wrap_dim(dim, a.ndim)
    if dtype is None:
        dtype = a.dtype if a.dtype.is_floating_point else dtypes.int64
    return CumsumBackward0.apply(a, dim=d, dtype=dtype)


@guarded
def cumprod(a: Tensor, dim: int, dtype: DType | None = None) -> Tensor:
    a = _check_tensor(a, "cumprod")
    d = wrap_dim(dim, a.ndim)
    if dtype is None:
        dtype = a.dtype if a.dtype.is_floating_point else dtypes.int64
    return CumprodBackward0.apply(a, dim=d, dtype=dtype)


@guarded
def flip(a: Tensor, *dims: Any) -> Tensor:
    a = _check_tensor(a, "flip")
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    wrapped = tuple(wrap_dim(d, a.ndim) for d in dims)
    if len(set(wrapped)) != len(wrapped):
        raise TorchRuntimeError(f"dim {wrapped[0]} appears multiple times in the list of dims")
    return FlipBackward0.apply(a, dims=wrapped)


@guarded
def repeat(a: Tensor, *sizes: Any) -> Tensor:
    a = _check_tensor(a, "repeat")
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    if len(sizes) < a.ndim:
        raise TorchRuntimeError("Number of dimensions of repeat dims can not be smaller than "
                                "number of dimensions of tensor")
    if builtins.any(int(s) < 0 for s in sizes):
        raise TorchRuntimeError(f"Trying to create tensor with negative dimension "
                                f"{min(int(s) for s in sizes)}: {list(sizes)}")
    return RepeatBackward0.apply(a, repeats=tuple(int(s) for s in sizes))


def _index_tensor(index: Any, name: str) -> Tensor:
    if not isinstance(index, Tensor):
        raise TorchTypeError(f"{name}(): argument 'index' must be Tensor, not "
                             f"{type(index).__name__}")
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise TorchRuntimeError(f"{name}(): Expected dtype int32/int64 for index")
    return index if index.dtype is dtypes.int64 else to(index, dtypes.int64)


@guarded
def gather(a: Tensor, dim: int, index: Tensor) -> Tensor:
    a = _check_tensor(a, "gather")
    index = _index_tensor(index, "gather")
    d = wrap_dim(dim, a.ndim)
    if index.ndim != a.ndim and not (index.ndim <= 1 and a.ndim <= 1):
        raise TorchRuntimeError("Index tensor must have the same number of dimensions as "
                                "input tensor")
    d, wrapped = _dim_index(a, d, index)
    for i in range(index.ndim):
        if i != d and a.ndim and index.shape[i] > a.shape[i]:
            raise TorchRuntimeError(
                f"Size does not match at dimension {i} expected index "
                f"{list(index.shape)} to be no larger than self {list(a.shape)} apart from "
                f"dimension {d}")
    return GatherBackward0.apply(a, dim=d, index=wrapped)


@guarded
def index_select(a: Tensor, dim: int, index: Tensor) -> Tensor:
    a = _check_tensor(a, "index_select")
    index = _index_tensor(index, "index_select")
    if index.ndim > 1:
        raise TorchIndexError("index_select(): Index is supposed to be a vector")
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    data = index._data.reshape(-1)
    if data.size and (int(data.min()) < 0 or int(data.max()) >= size):
        raise TorchIndexError("index out of range in self")
    return IndexSelectBackward0.apply(a, dim=d, index=index)


def _triangle(cls: type[Function], name: str) -> Callable[..., Tensor]:
    def op(a: Tensor, diagonal: int = 0) -> Tensor:
        a = _check_tensor(a, name)
        if a.ndim < 2:
            raise TorchRuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        return cls.apply(a, diagonal=diagonal)

    op.__name__ = name
    op.__doc__ = f"torch.{name} ({cls.name})."
    return guarded(op)


tril = _triangle(TrilBackward0, "tril")
triu = _triangle(TriuBackward0, "triu")


@guarded
def trace(a: Tensor) -> Tensor:
    a = _check_tensor(a, "trace")
    if a.ndim != 2:
        raise TorchRuntimeError(f"trace: expected a matrix, but got tensor with dim {a.ndim}")
    return TraceBackward0.apply(a)


# ---------------------------------------------------------------------------------------------
# linear, addmm and a few more
# ---------------------------------------------------------------------------------------------


@guarded
def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, beta: Number = 1,  # noqa: A002
          alpha: Number = 1) -> Tensor:
    _check_tensor(input, "addmm")
    _check_tensor(mat1, "addmm", "mat1", 2)
    _check_tensor(mat2, "addmm", "mat2", 3)
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if m.ndim != 2:
            raise TorchRuntimeError(f"{name} must be a matrix, got {m.ndim}-D tensor")
    if mat1.shape[1] != mat2.shape[0]:
        raise TorchRuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x{mat1.shape[1]} and "
            f"{mat2.shape[0]}x{mat2.shape[1]})")
    if mat1.dtype is not mat2.dtype or input.dtype is not mat1.dtype:
        other = mat2 if mat1.dtype is not mat2.dtype else input
        raise TorchRuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{_c_name(mat1.dtype)} != {_c_name(other.dtype)}")
    shape = (mat1.shape[0], mat2.shape[1])
    if input.shape != shape:
        with no_grad():
            expand(detach(input), shape)  # PyTorch expands the input: its error if it cannot
    return AddmmBackward0.apply(input, mat1, mat2, beta=beta, alpha=alpha)


@guarded
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:  # noqa: A002
    """F.linear as aten's linear builds it: addmm for a 2-D input with a bias, a flattened
    addmm for other contiguous inputs with a bias, matmul otherwise (then add_ the bias)."""
    _check_tensor(input, "linear")
    _check_tensor(weight, "linear", "weight", 2)
    if bias is None:
        return matmul(input, t(weight))
    if input.ndim == 2:
        return addmm(bias, input, t(weight))
    if is_contiguous(input) and input.ndim > 0:
        rows = 1
        for n in input.shape[:-1]:
            rows *= n
        flat = reshape(input, (rows, input.shape[-1]))
        result = addmm(bias, flat, t(weight))
        return view(result, input.shape[:-1] + (result.shape[1],))
    output = matmul(input, t(weight))
    return add_(output, bias)


@guarded
def roll(a: Tensor, shifts: Any, dims: Any = None) -> Tensor:
    a = _check_tensor(a, "roll")
    shift_list = tuple(shifts) if isinstance(shifts, (tuple, list)) else (shifts,)
    if dims is None:
        if len(shift_list) != 1:
            raise TorchRuntimeError(f"shifts and dimensions must align. shifts: "
                                    f"{len(shift_list)}, dims:0")
        return RollBackward0.apply(a, shifts=(int(shift_list[0]),), dims=())
    dim_list = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if len(shift_list) != len(dim_list):
        raise TorchRuntimeError(f"shifts and dimensions must align. shifts: {len(shift_list)}, "
                                f"dims:{len(dim_list)}")
    return RollBackward0.apply(a, shifts=tuple(int(s) for s in shift_list),
                                  dims=tuple(wrap_dim(d, a.ndim) for d in dim_list))


@guarded
def atan2(a: Tensor, b: Tensor) -> Tensor:
    a = _check_tensor(a, "atan2")
    b = as_tensor_operand(b)
    return Atan2Backward0.apply(a, b)


arctan2 = alias(atan2, "arctan2")


@guarded
def lerp(start: Tensor, end: Tensor, weight: Any) -> Tensor:
    start = _check_tensor(start, "lerp")
    end = _check_tensor(end, "lerp", "end", 2)
    if isinstance(weight, Tensor):
        raise TorchNotImplementedError("gradsh's lerp takes a number as weight")
    if start.dtype is not end.dtype:
        raise TorchRuntimeError(f"expected dtype {_c_name(start.dtype)} for `end` but got "
                                f"dtype {_c_name(end.dtype)}")
    return LerpBackward0.apply(start, end, weight=float(weight))


@guarded
def movedim(a: Tensor, source: Any, destination: Any) -> Tensor:
    a = _check_tensor(a, "movedim")
    src = tuple(source) if isinstance(source, (tuple, list)) else (source,)
    dst = tuple(destination) if isinstance(destination, (tuple, list)) else (destination,)
    if len(src) != len(dst):
        raise TorchRuntimeError(
            f"movedim: Invalid source or destination dims: source ({list(src)} dims) should "
            f"contain the same number of dims as destination ({list(dst)} dims)")
    src = tuple(wrap_dim(d, a.ndim) for d in src)
    dst = tuple(wrap_dim(d, a.ndim) for d in dst)
    order = [d for d in range(a.ndim) if d not in src]
    for d_dst, d_src in sorted(zip(dst, src, strict=True)):
        order.insert(d_dst, d_src)
    return permute(a, *order)


moveaxis = alias(movedim, "moveaxis")


@guarded
def mish(a: Tensor, inplace: bool = False) -> Tensor:
    _not_inplace("mish", inplace)
    return MishBackward0.apply(_float_input(a, "mish", "mish_cpu"))


@guarded
def hardsigmoid(a: Tensor, inplace: bool = False) -> Tensor:
    _not_inplace("hardsigmoid", inplace)
    return HardsigmoidBackward0.apply(_float_input(a, "hardsigmoid", "hardsigmoid_cpu"))


@guarded
def softmin(a: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    """F.softmin: softmax of -x (NegBackward0 under SoftmaxBackward0)."""
    a = _check_tensor(a, "softmin")
    d = _softmax_dim("softmin", a.ndim, dim)
    if dtype is not None:
        return softmax(to(neg(a), dtype), d)
    return softmax(neg(a), d)


def _new_like(kind: str) -> Callable[..., Tensor]:
    def op(a: Tensor, *size: Any, dtype: DType | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
        a = _check_tensor(a, f"new_{kind}")
        dtype = a.dtype if dtype is None else dtype
        device = a.device if device is None else device
        maker = zeros if kind == "zeros" else ones if kind == "ones" else empty
        return maker(*size, dtype=dtype, device=device, requires_grad=requires_grad)

    op.__name__ = f"new_{kind}"
    return guarded(op)


new_zeros = _new_like("zeros")
new_ones = _new_like("ones")
new_empty = _new_like("empty")


@guarded
def new_full(a: Tensor, size: Any, fill_value: Number, dtype: DType | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    a = _check_tensor(a, "new_full")
    return full(size, fill_value, dtype=a.dtype if dtype is None else dtype,
                device=a.device if device is None else device, requires_grad=requires_grad)


@guarded
def new_tensor(a: Tensor, data: Any, dtype: DType | None = None, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    a = _check_tensor(a, "new_tensor")
    if isinstance(data, Tensor):
        warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
             "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
             "tensor.new_tensor(sourceTensor).")
    return tensor(data, dtype=a.dtype if dtype is None else dtype,
                  device=a.device if device is None else device, requires_grad=requires_grad)


def _truth(kind: str) -> Callable[..., Tensor]:
    def op(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
        a = _check_tensor(a, kind)
        data = a._data
        xp = xp_of(data)
        reduce = xp.all if kind == "all" else xp.any
        result_dtype = dtypes.uint8 if a.dtype is dtypes.uint8 else dtypes.bool_
        if dim is None:
            value = reduce(data != 0)
        else:
            dims = tuple(wrap_dim(d, a.ndim) for d in (dim if isinstance(dim, (tuple, list))
                                                       else (dim,)))
            value = reduce(data != 0, axis=dims, keepdims=keepdim) if a.ndim else data != 0
        return Tensor._make(_as_array(xp.asarray(value, dtype=result_dtype.np)), a.device)

    op.__name__ = kind
    return guarded(op)


all = _truth("all")  # noqa: A001
any = _truth("any")  # noqa: A001


# ---------------------------------------------------------------------------------------------
# More random numbers: randperm, normal, bernoulli (PyTorch CPU's streams, bit for bit)
# ---------------------------------------------------------------------------------------------


@guarded(tensor_first=False)
def randperm(n: int, dtype: DType | None = None, device: Any = None,
             requires_grad: bool = False, generator: Any = None) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.int64)
    if not isinstance(n, int) or isinstance(n, bool):
        raise TorchTypeError(f"randperm(): argument 'n' (position 1) must be int, not "
                             f"{_type_name(n)}")
    data = _random_call(lambda: _generator(generator).randperm(n, d))
    return _new(data, d, device, requires_grad)


@guarded(tensor_first=False)
def normal(mean: Any, std: Any = 1.0, size: Any = None, dtype: DType | None = None,
           device: Any = None, requires_grad: bool = False, generator: Any = None) -> Tensor:
    """torch.normal(mean, std, size) with numbers for mean and std."""
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        raise TorchNotImplementedError("gradsh's normal takes numbers for mean and std, and "
                                       "a size")
    if size is None:
        raise TorchTypeError("normal() received an invalid combination of arguments - got "
                             "(float, float), but expected a size")
    d = _resolve_dtype(dtype, dtypes.default_float())
    shape = size_args((size,), "normal", d.itemsize)
    data = _random_call(lambda: _generator(generator).normal(float(mean), float(std), shape, d))
    return _new(data, d, device, requires_grad)


@guarded
def bernoulli_(a: Tensor, p: Any = 0.5, generator: Any = None) -> Tensor:
    """x.bernoulli_(p): each entry 1 with probability p (a number), drawn as PyTorch's CPU
    kernel draws it (one uniform double per entry, compared with p)."""
    a = _check_tensor(a, "bernoulli_")
    if isinstance(p, Tensor):
        draws = bernoulli(p if p.shape == a.shape else expand(p, a.shape), generator)
        return copy_(a, draws)
    if not 0 <= float(p) <= 1:
        raise TorchRuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={float(p):g}")
    uniform = _random_call(lambda: _generator(generator).rand(a.shape, dtypes.float64))
    draws = backend.to_device(uniform, a.device)
    return apply_inplace(BernoulliBackward1, a, p=float(p), draws=draws)


@guarded
def dropout(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
            inplace: bool = False) -> Tensor:
    """F.dropout as aten's CPU path computes it: noise = empty_like(x).bernoulli_(1 - p) /
    (1 - p), then x * noise (MulBackward0); the input itself when p is 0 or not training."""
    input = _check_tensor(input, "dropout")
    _not_inplace("dropout", inplace)
    if not 0.0 <= p <= 1.0:
        raise TorchValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        return mul(input, zeros((), dtype=input.dtype, device=input.device))
    with no_grad():
        noise = bernoulli_(empty_like(input), 1 - p)
        noise = div_(noise, 1 - p)
    return mul(input, noise)


@guarded
def bernoulli(p: Tensor, generator: Any = None) -> Tensor:
    """torch.bernoulli(p): 0/1 draws with the probabilities in p, p's dtype; no gradient."""
    p = _check_tensor(p, "bernoulli")
    data = p._data if p.device == "cpu" else backend.to_host(p._data)
    try:
        drawn = _generator(generator).bernoulli(data)
    except NotImplementedError as error:
        raise TorchNotImplementedError(str(error)) from None
    except ValueError as error:
        raise TorchRuntimeError(str(error)) from None
    return _new(drawn.astype(p._data.dtype, copy=False), p.dtype, p.device, False)



# ---------------------------------------------------------------------------------------------
# Sorting: sort, argsort, topk
# ---------------------------------------------------------------------------------------------


def _sort_order(data: Any, dim: int, descending: bool) -> Any:
    """Stable sorting indices along dim, NaN counted as the largest value (PyTorch's order),
    computed where the data lives."""
    xp = xp_of(data)
    if data.ndim == 0:
        return xp.zeros((), dtype=np.int64)
    if not descending:
        return xp.argsort(data, axis=dim, kind="stable").astype(np.int64)
    if data.dtype.kind == "f":
        # two stable passes: by value descending, then NaN first
        nan = xp.isnan(data)
        first = xp.argsort(xp.where(nan, 0, -data), axis=dim, kind="stable")
        second = xp.argsort(xp.take_along_axis(~nan, first, axis=dim), axis=dim, kind="stable")
        return xp.take_along_axis(first, second, axis=dim).astype(np.int64)
    key = ~data if data.dtype.kind == "b" else -data.astype(np.float64)
    return xp.argsort(key, axis=dim, kind="stable").astype(np.int64)


@guarded
def sort(a: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Any:
    a = _check_tensor(a, "sort")
    d = wrap_dim(dim, a.ndim)
    indices = _sort_order(a._data, d, descending)
    values = SortBackward0.apply(a, dim=d, indices=indices)
    return RETURN_TYPES["sort"](values, Tensor._make(indices, a.device))


@guarded
def nan_to_num(a: Tensor, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    return NanToNumBackward0.apply(_check_tensor(a, "nan_to_num"), nan=nan, posinf=posinf,
                                      neginf=neginf)


@guarded
def argsort(a: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    a = _check_tensor(a, "argsort")
    return Tensor._make(_sort_order(a._data, wrap_dim(dim, a.ndim), descending), a.device)


@guarded
def topk(a: Tensor, k: int, dim: int = -1, largest: bool = True,
         sorted: bool = True) -> Any:  # noqa: A002
    a = _check_tensor(a, "topk")
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    if not 0 <= k <= size:
        raise TorchRuntimeError("selected index k out of range")
    order = _sort_order(a._data, d, largest)
    indices = order[(builtins.slice(None),) * d + (builtins.slice(0, k),)] if a.ndim else order
    indices = xp_of(indices).ascontiguousarray(indices)
    values = TopkBackward0.apply(a, dim=d, indices=indices)
    return RETURN_TYPES["topk"](values, Tensor._make(indices, a.device))


# ---------------------------------------------------------------------------------------------
# normalize, cosine_similarity, diag, masked_select, one_hot, nonzero
# ---------------------------------------------------------------------------------------------


@guarded
def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:  # noqa: A002
    """F.normalize as PyTorch's Python composes it: x / norm(x).clamp_min(eps).expand_as(x)."""
    input = _check_tensor(input, "normalize")
    denominator = expand_as(clamp_min(norm(input, p, dim, keepdim=True), eps), input)
    return div(input, denominator)


@guarded
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """aten's cosine_similarity: each side over its (cloned, clamped) norm, then the sum."""
    x1 = _check_tensor(x1, "cosine_similarity")
    x2 = _check_tensor(x2, "cosine_similarity", "x2", 2)
    shape = infer_size(x1.shape, x2.shape)
    if x1.shape != shape:
        x1 = expand(x1, shape)
    if x2.shape != shape:
        x2 = expand(x2, shape)
    d = wrap_dim(dim, len(shape))
    n1 = clone(norm(x1, 2, d, keepdim=True))
    n2 = clone(norm(x2, 2, d, keepdim=True))
    with no_grad():
        clamp_min_(n1, eps)
        clamp_min_(n2, eps)
    return sum(mul(div(x1, n1), div(x2, n2)), d)


@guarded
def diag(a: Tensor, diagonal: int = 0) -> Tensor:
    a = _check_tensor(a, "diag")
    if a.ndim == 1:
        return DiagEmbedBackward0.apply(a, diagonal=diagonal)
    if a.ndim == 2:
        return DiagonalBackward0Copy.apply(a, diagonal=diagonal)
    raise TorchRuntimeError(f"diag(): Supports 1D or 2D tensors. Got {a.ndim}D")


@guarded
def masked_select(a: Tensor, mask: Tensor) -> Tensor:
    a = _check_tensor(a, "masked_select")
    mask = _check_tensor(mask, "masked_select", "mask", 2)
    if mask.dtype is not dtypes.bool_:
        raise TorchRuntimeError("masked_select: expected BoolTensor for mask")
    infer_size(a.shape, mask.shape)
    return MaskedSelectBackward0.apply(a, mask=mask)


@guarded
def one_hot(a: Tensor, num_classes: int = -1) -> Tensor:
    a = _check_tensor(a, "one_hot")
    if a.dtype is not dtypes.int64:
        raise TorchRuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    data = backend.to_host(a._data)
    if data.size and int(data.min()) < 0:
        raise TorchRuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if not data.size:
            raise TorchRuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(data.max()) + 1
    elif data.size and int(data.max()) >= num_classes:
        raise TorchRuntimeError("Class values must be smaller than num_classes.")
    out = (data[..., None] == np.arange(num_classes)).astype(np.int64)
    return _new(out, dtypes.int64, a.device, False)


@guarded
def nonzero(a: Tensor, as_tuple: bool = False) -> Any:
    a = _check_tensor(a, "nonzero")
    data = backend.to_host(a._data)
    found = np.nonzero(data) if data.ndim else np.nonzero(data.reshape(1))
    if as_tuple:
        return tuple(_new(np.asarray(i, dtype=np.int64), dtypes.int64, a.device, False)
                     for i in found)
    stacked = np.stack(found, axis=1) if data.ndim else np.zeros((len(found[0]), 0), np.int64)
    return _new(stacked.astype(np.int64), dtypes.int64, a.device, False)


# ---------------------------------------------------------------------------------------------
# median, nanmedian, kthvalue, mode; xlogy and kl_div
# ---------------------------------------------------------------------------------------------


def _mode_along(data: Any, dim: int) -> tuple[Any, Any]:
    """The most frequent value along dim and the index PyTorch's CPU mode reports: it sorts
    (value, index) pairs with std::sort by value (an insertion sort below 17 elements, which
    this follows exactly, NaN comparisons included) and keeps the first longest run of equal
    values, reporting the index that ends it. (Longer rows use the same insertion order;
    libstdc++'s introsort may order their ties differently.)"""
    host = backend.to_host(data)
    moved = np.moveaxis(host, dim, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    values = np.empty(flat.shape[0], dtype=host.dtype)
    indices = np.empty(flat.shape[0], dtype=np.int64)
    for row, line in enumerate(flat.tolist()):
        pairs: list[tuple[Any, int]] = []
        for i, v in enumerate(line):  # libstdc++'s __insertion_sort with comp(a, b) = a < b
            if pairs and v < pairs[0][0]:
                pairs.insert(0, (v, i))
                continue
            at = len(pairs)
            while at > 0 and v < pairs[at - 1][0]:
                at -= 1
            pairs.insert(at, (v, i))
        best_value, best_index, best, run = pairs[0][0], pairs[0][1], 0, 0
        for i, (v, index) in enumerate(pairs):
            run += 1
            if i == len(pairs) - 1 or v != pairs[i + 1][0]:
                if run > best:
                    best_value, best_index, best = v, index, run
                run = 0
        values[row], indices[row] = best_value, best_index
    shape = moved.shape[:-1]
    return values.reshape(shape), indices.reshape(shape)


def _quickselect_index(values: Any, k: int) -> int:
    """The original index PyTorch's CPU kthvalue reports for the k-th smallest (0-based):
    aten's quick_select_template (median-of-three pivot, NaN largest) run on the values and
    their indices together, so ties resolve exactly as there."""
    arr = [float(v) for v in values]
    idx = list(range(len(arr)))

    def gt_or_nan(a: float, b: float) -> bool:
        return (math.isnan(a) and not math.isnan(b)) or a > b

    def swap(i: int, j: int) -> None:
        arr[i], arr[j] = arr[j], arr[i]
        idx[i], idx[j] = idx[j], idx[i]

    lo, hi = 0, len(arr) - 1
    while True:
        if hi <= lo:
            return idx[k]
        if hi == lo + 1:
            if gt_or_nan(arr[lo], arr[hi]):
                swap(lo, hi)
            return idx[k]
        mid = lo + (hi - lo) // 2
        swap(mid, lo + 1)
        if gt_or_nan(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if gt_or_nan(arr[lo], arr[hi]):
            swap(lo, hi)
        if gt_or_nan(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j = lo + 1, hi
        pivot = arr[lo]
        while True:
            i += 1
            while gt_or_nan(pivot, arr[i]):
                i += 1
            j -= 1
            while gt_or_nan(arr[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


def _kthvalue_along(data: Any, axis: int, k: int) -> Any:
    host = np.moveaxis(backend.to_host(data), axis, -1)
    rows = host.reshape(-1, host.shape[-1])
    found = np.array([_quickselect_index(row, k) for row in rows], dtype=np.int64)
    return found.reshape(host.shape[:-1])


def _selection(kind: str, a: Tensor, dim: int, keepdim: bool, k: int = 0) -> Any:
    """median(dim) / kthvalue(k, dim) / mode(dim): (values, indices) with a value-selecting
    backward (the gradient goes to the index)."""
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    if a.ndim and size == 0:
        raise TorchIndexError(f"{kind}(): Expected reduction dim {d} to have non-zero size.")
    data = a._data if a.ndim else a._data.reshape(1)
    axis = d if a.ndim else 0
    xp = xp_of(data)
    if kind == "mode":
        _, indices = _mode_along(data, axis)
        indices = backend.to_device(indices, a.device)
    elif kind == "kthvalue":
        if not 1 <= k <= size:
            raise TorchRuntimeError(
                f"kthvalue(): selected number k out of range for dimension {d}")
        indices = backend.to_device(_kthvalue_along(data, axis, k - 1), a.device)
    else:  # median: the stable order's middle (aten's nth_element breaks ties by index)
        position: Any = (size - 1) // 2
        if data.dtype.kind == "f":
            nan = xp.isnan(data)
            counts = nan.sum(axis=axis)
            position = xp.where(counts > 0, size - counts, position)  # the first NaN
        indices = _kth_smallest(data, axis, position)
    if keepdim and a.ndim:
        indices = xp.expand_dims(indices, d)
    if not a.ndim:
        indices = indices.reshape(())
    cls = {"median": MedianBackward1, "kthvalue": KthvalueBackward0,
           "mode": ModeBackward0}[kind]
    values = cls.apply(a, dim=d, keepdim=keepdim, indices=indices)
    return RETURN_TYPES[kind](values, Tensor._make(indices, a.device))


@guarded
def median(a: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    a = _check_tensor(a, "median")
    if dim is None:
        return MedianBackward0.apply(a)
    return _selection("median", a, dim, keepdim)


@guarded
def nanmedian(a: Tensor) -> Tensor:
    return NanmedianBackward0.apply(_check_tensor(a, "nanmedian"))


@guarded
def kthvalue(a: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> Any:
    return _selection("kthvalue", _check_tensor(a, "kthvalue"), dim, keepdim, k)


@guarded
def mode(a: Tensor, dim: int = -1, keepdim: bool = False) -> Any:
    return _selection("mode", _check_tensor(a, "mode"), dim, keepdim)


@guarded
def xlogy(a: TensorLike, b: TensorLike) -> Tensor:
    a = as_tensor_operand(a) if not isinstance(a, Tensor) else a
    return XlogyBackward0.apply(a, as_tensor_operand(b))


_KL_MEAN_WARNING = (
    "reduction: 'mean' divides the total loss by both the batch size and the support size."
    "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
    "'mean' will be changed to behave the same as 'batchmean' in the next major release.")


@guarded
def kl_div(input: Tensor, target: Tensor, reduction: str = "mean",  # noqa: A002
           log_target: bool = False) -> Tensor:
    """F.kl_div as PyTorch composes it: xlogy(t, t) - t * input (or exp(t) * (t - input) with
    log_target), reduced; 'batchmean' is the sum over the batch size."""
    _check_tensor(input, "kl_div")
    _check_tensor(target, "kl_div", "target", 2)
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise TorchValueError(f"{reduction} is not a valid value for reduction")
    if reduction == "mean":
        warn(_KL_MEAN_WARNING)
    for t in (input, target):
        if not t.dtype.is_floating_point:
            raise TorchRuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        output = mul(exp(target), sub(target, input))
    else:
        output = sub(xlogy(target, target), mul(target, input))
    if reduction == "none":
        return output
    if reduction == "mean":
        return mean(output)
    total = sum(output)
    if reduction == "batchmean" and input.ndim != 0:
        return div(total, input.shape[0])
    return total


# ---------------------------------------------------------------------------------------------
# addcmul, addcdiv, frac, dist, count_nonzero, unique, meshgrid; uniform_ and normal_
# ---------------------------------------------------------------------------------------------


@guarded
def addcmul(a: Tensor, tensor1: Tensor, tensor2: Tensor, value: Number = 1) -> Tensor:
    a = _check_tensor(a, "addcmul")
    t1 = _check_tensor(tensor1, "addcmul", "tensor1", 2)
    t2 = _check_tensor(tensor2, "addcmul", "tensor2", 3)
    infer_size(infer_size(a.shape, t1.shape), t2.shape)
    return AddcmulBackward0.apply(a, t1, t2, value=value)


@guarded
def addcdiv(a: Tensor, tensor1: Tensor, tensor2: Tensor, value: Number = 1) -> Tensor:
    a = _check_tensor(a, "addcdiv")
    t1 = _check_tensor(tensor1, "addcdiv", "tensor1", 2)
    t2 = _check_tensor(tensor2, "addcdiv", "tensor2", 3)
    if not t1.dtype.is_floating_point and not t2.dtype.is_floating_point:
        raise TorchRuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic "
            "addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / "
            "tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
            "tensor2) for float inputs. The future addcdiv behavior is just the latter "
            "implementation: (input + value * tensor1 / tensor2), for all dtypes.")
    infer_size(infer_size(a.shape, t1.shape), t2.shape)
    return AddcdivBackward0.apply(a, t1, t2, value=value)


frac = _unary(FracBackward0, "frac")


@guarded
def dist(a: Tensor, b: Tensor, p: Number = 2) -> Tensor:
    a = _check_tensor(a, "dist")
    b = _check_tensor(b, "dist", "other", 2)
    return DistBackward0.apply(a, b, p=float(p))


@guarded
def count_nonzero(a: Tensor, dim: Any = None) -> Tensor:
    a = _check_tensor(a, "count_nonzero")
    xp = xp_of(a._data)
    if dim is None:
        counted = xp.count_nonzero(a._data)
    else:
        dims = tuple(wrap_dim(d, a.ndim) for d in (dim if isinstance(dim, (tuple, list))
                                                   else (dim,)))
        counted = xp.count_nonzero(a._data, axis=dims)
    return Tensor._make(_as_array(xp.asarray(counted, dtype=np.int64)), a.device)


@guarded
def unique(a: Tensor, sorted: bool = True, return_inverse: bool = False,  # noqa: A002
           return_counts: bool = False, dim: Any = None) -> Any:
    a = _check_tensor(a, "unique")
    if dim is not None:
        raise TorchNotImplementedError("gradsh's unique has no dim argument")
    host = backend.to_host(a._data)
    values, inverse, counts = np.unique(host, return_inverse=True, return_counts=True)
    out = [_new(values, a.dtype, a.device, False)]
    if return_inverse:
        out.append(_new(inverse.reshape(host.shape).astype(np.int64), dtypes.int64, a.device,
                        False))
    if return_counts:
        out.append(_new(counts.astype(np.int64), dtypes.int64, a.device, False))
    return out[0] if len(out) == 1 else tuple(out)


@guarded(tensor_first=False)
def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Tensor, ...]:
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
             "argument.")
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise TorchRuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", "
                                f"but received: {indexing}")
    ts = [_check_tensor(t, "meshgrid") for t in tensors]
    for t in ts:
        if t.ndim > 1:
            raise TorchRuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                                    f"but got: {t}")
    swap = indexing == "xy" and len(ts) >= 2  # the first two swapped in, then back out
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(t.numel() for t in ts)
    grids = []
    for i, t in enumerate(ts):
        view_shape = [1] * len(ts)
        view_shape[i] = -1
        grids.append(expand(view(t, *view_shape), shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


@guarded
def uniform_(a: Tensor, low: float = 0.0, high: float = 1.0, generator: Any = None) -> Tensor:
    a = _check_tensor(a, "uniform_")
    _check_random_float(a.dtype, "check_uniform_bounds")
    draws = _random_call(lambda: _generator(generator).uniform(float(low), float(high), a.shape,
                                                               a.dtype))
    return apply_inplace(UniformBackward0, a, draws=backend.to_device(draws, a.device))


@guarded
def normal_(a: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:
    a = _check_tensor(a, "normal_")
    _check_random_float(a.dtype, "normal_kernel_cpu")
    draws = _random_call(lambda: _generator(generator).normal(float(mean), float(std), a.shape,
                                                              a.dtype))
    return apply_inplace(NormalBackward0, a, draws=backend.to_device(draws, a.device))


# ---------------------------------------------------------------------------------------------
# pad, logit, strides
# ---------------------------------------------------------------------------------------------


@guarded
def pad(input: Tensor, pad: Any, mode: str = "constant",  # noqa: A002
        value: float | None = None) -> Tensor:
    """F.pad in constant mode: (left, right) pairs from the last dimension backwards; negative
    amounts crop."""
    input = _check_tensor(input, "pad")
    amounts = tuple(int(p) for p in pad)
    if mode != "constant":
        raise TorchNotImplementedError(f"gradsh's pad has only mode='constant', not {mode!r}")
    if len(amounts) % 2:
        raise TorchRuntimeError("Padding length must be divisible by 2")
    if len(amounts) > 2 * input.ndim:
        raise TorchRuntimeError(
            "Padding length should be less than or equal to two times the input dimension but "
            f"got padding length {len(amounts)} and input of dimension {input.ndim}")
    for i in range(len(amounts) // 2):
        n = input.shape[input.ndim - 1 - i]
        if n + builtins.min(amounts[2 * i], 0) + builtins.min(amounts[2 * i + 1], 0) < 0:
            raise TorchRuntimeError("narrow(): length must be non-negative.")
    return ConstantPadNdBackward0.apply(input, pad=amounts,
                                           value=0.0 if value is None else value)


@guarded
def logit(a: Tensor, eps: float | None = None) -> Tensor:
    return LogitBackward0.apply(_check_tensor(a, "logit"), eps=eps)


def _element_strides(a: Tensor) -> tuple[int, ...]:
    data = a._data
    return tuple(int(s) // data.itemsize for s in data.strides)


@guarded
def stride(a: Tensor, dim: int | None = None) -> Any:
    a = _check_tensor(a, "stride")
    strides = _element_strides(a)
    return strides if dim is None else strides[wrap_dim(dim, a.ndim)]


@guarded
def storage_offset(a: Tensor) -> int:
    """Elements from the start of the storage: how far into its base's memory a view begins."""
    a = _check_tensor(a, "storage_offset")
    data = a._data
    root = data
    while isinstance(getattr(root, "base", None), np.ndarray):
        root = root.base
    if not isinstance(data, np.ndarray) or not isinstance(root, np.ndarray):
        return 0
    start = data.__array_interface__["data"][0]
    return (start - root.__array_interface__["data"][0]) // data.itemsize


def is_tensor(value: Any) -> bool:
    return isinstance(value, Tensor)


# ---------------------------------------------------------------------------------------------
# take, index_fill, scatter, scatter_add, index_add
# ---------------------------------------------------------------------------------------------


@guarded
def take(a: Tensor, index: Tensor) -> Tensor:
    a = _check_tensor(a, "take")
    index = _index_tensor(index, "take")
    n = a.numel()
    data = backend.to_host(index._data)
    if data.size and (int(data.max()) >= n or int(data.min()) < -n):
        bad = int(data.max()) if int(data.max()) >= n else int(data.min())
        raise TorchIndexError(f"out of range: tried to access index {bad} on a tensor of {n} "
                              "elements.")
    wrapped = Tensor._make(index._data % n if n else index._data, index.device)
    return TakeBackward0.apply(a, index=wrapped)


def _dim_index(a: Tensor, dim: int, index: Tensor,
               error: type[Exception] = TorchRuntimeError) -> tuple[int, Tensor]:
    """The wrapped dim, and index with its negative entries wrapped, after PyTorch's bounds
    check ("index 3 is out of bounds for dimension 1 with size 3", raised as `error`)."""
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    data = backend.to_host(index._data)
    if data.size and (int(data.max()) >= size or int(data.min()) < -size):
        bad = int(data.max()) if int(data.max()) >= size else int(data.min())
        raise error(f"index {bad} is out of bounds for dimension {d} with size {size}")
    wrapped = index._data % size if data.size else index._data
    return d, Tensor._make(wrapped, index.device)


@guarded
def index_fill(a: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    a = _check_tensor(a, "index_fill")
    index = _index_tensor(index, "index_fill")
    d, wrapped = _dim_index(a, dim, index, TorchIndexError)
    if isinstance(value, Tensor):
        value = value.item()
    return IndexFillBackward0.apply(a, dim=d, index=reshape(wrapped, (-1,)), value=value)


@guarded
def scatter(a: Tensor, dim: int, index: Tensor, src: Any = None, value: Any = None) -> Tensor:
    a = _check_tensor(a, "scatter")
    index = _index_tensor(index, "scatter")
    d, wrapped = _dim_index(a, dim, index)
    if src is None:
        src = value
    if isinstance(src, Tensor):
        return ScatterBackward0.apply(a, src, dim=d, index=wrapped)
    return ScatterBackward1.apply(a, dim=d, index=wrapped, value=src)


@guarded
def scatter_add(a: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    a = _check_tensor(a, "scatter_add")
    index = _index_tensor(index, "scatter_add")
    src = _check_tensor(src, "scatter_add", "src", 4)
    d, wrapped = _dim_index(a, dim, index)
    return ScatterAddBackward0.apply(a, src, dim=d, index=wrapped)


@guarded
def index_add(a: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Number = 1) -> Tensor:
    a = _check_tensor(a, "index_add")
    index = _index_tensor(index, "index_add")
    source = _check_tensor(source, "index_add", "source", 4)
    d, wrapped = _dim_index(a, dim, index, TorchIndexError)
    expected = a.shape[:d] + (index.numel(),) + a.shape[d + 1:] if a.ndim else source.shape
    if source.ndim and source.shape != expected:
        raise TorchRuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {list(a.shape)} source.shape = {list(source.shape)}")
    return IndexAddBackward0.apply(a, source, dim=d, index=wrapped, alpha=alpha)


# ---------------------------------------------------------------------------------------------
# Copies, casts and devices
# ---------------------------------------------------------------------------------------------


@guarded
def clone(a: Tensor, memory_format: str = "preserve") -> Tensor:
    if memory_format not in ("preserve", "contiguous"):
        raise TorchNotImplementedError(f"clone with memory_format={memory_format!r} is not "
                                       "supported by gradsh")
    return CloneBackward0.apply(_check_tensor(a, "clone"), memory_format=memory_format)


_TYPE_NAMES = {f"torch.{d.legacy}": d for d in dtypes.ALL}


@guarded
def to(a: Tensor, *args: Any, dtype: DType | None = None, device: Any = None,
       copy: bool = False, non_blocking: bool = False) -> Tensor:
    for arg in args:
        if isinstance(arg, DType):
            dtype = arg
        elif isinstance(arg, Tensor):
            dtype, device = arg.dtype, arg.device
        elif isinstance(arg, bool):
            copy = arg
        elif arg is not None:
            device = arg
    target_dtype = dtype or a.dtype
    target_device = _device_name(device) if device is not None else a.device
    if target_device != a.device:
        DeviceHooks.check(target_device)
    if target_dtype is a.dtype and target_device == a.device and not copy:
        return a
    return ToCopyBackward0.apply(a, dtype=target_dtype, device=target_device)


def _cast(dtype: DType) -> Callable[[Tensor], Tensor]:
    def cast(a: Tensor) -> Tensor:
        return to(a, dtype)

    return cast


@guarded
def tensor_type(a: Tensor, dtype: Any = None) -> Any:
    """`x.type()` -> 'torch.FloatTensor'; `x.type(dtype)` casts."""
    if dtype is None:
        prefix = "torch.cuda." if a.device != "cpu" else "torch."
        return prefix + a.dtype.legacy
    if isinstance(dtype, str):
        if dtype not in _TYPE_NAMES:
            raise TorchValueError(f"invalid type: '{dtype}'")
        dtype = _TYPE_NAMES[dtype]
    return to(a, dtype)


@guarded
def cuda(a: Tensor, device: Any = None) -> Tensor:
    return to(a, device if device is not None else "cuda:0")


@guarded
def cpu(a: Tensor) -> Tensor:
    return to(a, "cpu")


@guarded
def detach(a: Tensor) -> Tensor:
    return a.detach()


def Variable(data: Tensor, requires_grad: bool = False) -> Tensor:
    """torch.autograd.Variable (deprecated): today a new leaf on the same storage and version
    counter, requiring grad if asked."""
    if not isinstance(data, Tensor):
        raise TorchTypeError("Variable data has to be a tensor, but got "
                             f"{type(data).__name__}")
    leaf = data.detach()
    if requires_grad and not leaf.dtype.is_floating_point:
        raise TorchRuntimeError(
            "Only Tensors of floating point and complex dtype can require gradients"
        )
    leaf._requires_grad = bool(requires_grad)
    return leaf


@guarded
def numel(a: Tensor) -> int:
    return a.numel()


@guarded
def size(a: Tensor, dim: Any = None) -> Any:
    if dim is None:
        return tuple(a.shape)
    d = wrap_dim(dim, a.ndim)
    if a.ndim == 0:
        raise TorchIndexError("Dimension specified as 0 but tensor has no dimensions")
    return a.shape[d]


@guarded
def tolist(a: Tensor) -> Any:
    return backend.to_host(a._data).tolist()


@guarded
def item(a: Tensor) -> Any:
    return a.item()


@guarded
def element_size(a: Tensor) -> int:
    return int(a._data.itemsize)


# ---------------------------------------------------------------------------------------------
# In-place
# ---------------------------------------------------------------------------------------------


@guarded
def add_(a: Tensor, b: TensorLike, alpha: Number = 1) -> Tensor:
    _check_alpha(a, b, alpha)
    return apply_inplace(AddBackward0, a, as_tensor_operand(b), alpha=alpha)


@guarded
def sub_(a: Tensor, b: TensorLike, alpha: Number = 1) -> Tensor:
    _check_bool_sub(a, b)
    return apply_inplace(SubBackward0, a, as_tensor_operand(b), alpha=alpha)


@guarded
def mul_(a: Tensor, b: TensorLike) -> Tensor:
    return apply_inplace(MulBackward0, a, as_tensor_operand(b))


@guarded
def div_(a: Tensor, b: TensorLike) -> Tensor:
    return apply_inplace(DivBackward0, a, as_tensor_operand(b))


@guarded
def pow_(a: Tensor, exponent: TensorLike) -> Tensor:
    if isinstance(exponent, Tensor):
        return apply_inplace(PowBackward1, a, exponent)
    return apply_inplace(PowBackward0, a, exponent=exponent)


@guarded
def clamp_(a: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    if min is None and max is None:
        raise TorchRuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        placeholder = Tensor._make(xp_of(a._data).zeros((), dtype=a._data.dtype), a.device)
        return apply_inplace(ClampBackward0, a, min if min is not None else placeholder,
                             max if max is not None else placeholder,
                             has_min=min is not None, has_max=max is not None)
    return apply_inplace(ClampBackward1, a, min=min, max=max)


clip_ = alias(clamp_, "clip_")


@guarded
def clamp_min_(a: Tensor, min: Any) -> Tensor:  # noqa: A002
    return apply_inplace(ClampMinBackward0, a, min=min)


@guarded
def clamp_max_(a: Tensor, max: Any) -> Tensor:  # noqa: A002
    return apply_inplace(ClampMaxBackward0, a, max=max)


def _inplace_unary(cls: type[Function], name: str) -> Callable[[Tensor], Tensor]:
    def op(a: Tensor) -> Tensor:
        return apply_inplace(cls, a)

    op.__name__ = cls.name
    return guarded(op, name=name)


exp_ = _inplace_unary(ExpBackward0, "exp_")
log_ = _inplace_unary(LogBackward0, "log_")
sin_ = _inplace_unary(SinBackward0, "sin_")
cos_ = _inplace_unary(CosBackward0, "cos_")
tanh_ = _inplace_unary(TanhBackward0, "tanh_")
sigmoid_ = _inplace_unary(SigmoidBackward0, "sigmoid_")
relu_ = _inplace_unary(ReluBackward0, "relu_")
sqrt_ = _inplace_unary(SqrtBackward0, "sqrt_")
abs_ = _inplace_unary(AbsBackward0, "abs_")
neg_ = _inplace_unary(NegBackward0, "neg_")
reciprocal_ = _inplace_unary(ReciprocalBackward0, "reciprocal_")


@guarded
def square_(a: Tensor) -> Tensor:
    return pow_(a, 2)


@guarded
def zero_(a: Tensor) -> Tensor:
    return apply_inplace(ZeroBackward0, a)


@guarded
def fill_(a: Tensor, value: TensorLike) -> Tensor:
    if isinstance(value, Tensor):
        return apply_inplace(FillBackward3, a, value)
    if not is_number(value):
        raise TorchTypeError(
            f"fill_() received an invalid combination of arguments - got ({_type_name(value)})"
        )
    return apply_inplace(FillBackward2, a, value=value)


@guarded
def copy_(a: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    _check_tensor(src, "copy_", "src")
    if src.shape != a.shape:
        shape = infer_size(a.shape, src.shape)
        if shape != a.shape:
            raise TorchRuntimeError(
                f"output with shape [{', '.join(map(str, a.shape))}] doesn't match the broadcast "
                f"shape [{', '.join(map(str, shape))}]"
            )
    return apply_inplace(CopyBackwards, a, src)


@guarded
def masked_fill_(a: Tensor, mask: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        value = value.item()
    _check_mask_device(a, mask)
    return apply_inplace(MaskedFillBackward0, a, mask=mask, value=value)


# ---------------------------------------------------------------------------------------------
# Autograd entry points
# ---------------------------------------------------------------------------------------------


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, Tensor):
        return [value]
    if not isinstance(value, (list, tuple)):
        raise TorchTypeError(f"'{_describe(value)}' object is not iterable")
    return list(value)


def _outputs(value: Any) -> list[Tensor]:
    outs = _as_list(value)
    for t in outs:
        if not isinstance(t, Tensor):
            raise TorchTypeError("Expected output to be a torch.Tensor")
    return outs


def _inputs(value: Any) -> list[Tensor]:
    ins = _as_list(value)
    for t in ins:
        if not isinstance(t, Tensor):
            raise TorchRuntimeError(
                f"all inputs have to be Tensors or GradientEdges, but got {_describe(t)}"
            )
    return ins


def backward(t: Tensor, gradient: Tensor | None = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Any = None) -> None:
    if not isinstance(t, Tensor):
        raise TorchTypeError("Expected output to be a torch.Tensor")
    ins = _inputs(inputs) if inputs is not None else None
    if ins is not None and not ins:
        raise TorchRuntimeError("`inputs` argument to `backward()` cannot be empty.")
    run_backward([t], [gradient], retain_graph=retain_graph, create_graph=create_graph,
                 inputs=ins)


def autograd_backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None,
                      create_graph: bool = False, inputs: Any = None) -> None:
    outs = _outputs(tensors)
    grads: list[Any] = [None] * len(outs) if grad_tensors is None else _as_list(grad_tensors)
    ins = _inputs(inputs) if inputs is not None else None
    run_backward(outs, grads, retain_graph=retain_graph, create_graph=create_graph, inputs=ins)


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None,
         materialize_grads: bool = False) -> tuple[Tensor | None, ...]:
    outs = _outputs(outputs)
    ins = _inputs(inputs)
    if not ins:
        raise TorchRuntimeError("grad requires non-empty inputs.")
    gouts: list[Any] = [None] * len(outs) if grad_outputs is None else _as_list(grad_outputs)
    if len(gouts) != len(outs):
        raise TorchRuntimeError(
            f"grad_outputs should be a sequence of length {len(outs)}, got {len(gouts)}"
        )
    result = run_backward(outs, gouts, retain_graph=retain_graph, create_graph=create_graph,
                          inputs=ins, allow_unused=bool(allow_unused) or materialize_grads,
                          accumulate=False)
    assert result is not None
    if materialize_grads:
        result = [zeros_like(i) if g is None else g for g, i in zip(result, ins, strict=True)]
    return tuple(result)


@guarded
def register_hook(t: Tensor, hook: Callable[[Tensor], Tensor | None]) -> Any:
    return t.register_hook(hook)


# ---------------------------------------------------------------------------------------------
# Tensor methods and operators (one explicit table)
# ---------------------------------------------------------------------------------------------


def _rtruediv(a: Tensor, other: TensorLike) -> Tensor:
    """Python's `2 / x`: x.reciprocal() * 2, hence MulBackward0 (as PyTorch's __rtruediv__)."""
    if isinstance(other, Tensor):
        return div(other, a)
    return mul(reciprocal(a), other)


def _reflected(op: Any) -> Any:
    op = unguarded(op)
    return lambda self, other: op(other, self)


def _method_max(self: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    return max(self, dim, keepdim)


def _method_min(self: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    return min(self, dim, keepdim)


def _int(self: Tensor) -> int:
    if self.numel() != 1:
        raise TorchValueError("only one element tensors can be converted to Python scalars")
    return int(self.item())


def _float(self: Tensor) -> float:
    if self.numel() != 1:
        raise TorchValueError("only one element tensors can be converted to Python scalars")
    return float(self.item())


def _index_method(self: Tensor) -> int:
    if self.numel() != 1 or self.dtype.is_floating_point:
        raise TorchTypeError("only integer tensors of a single element can be converted to an "
                             "index")
    return int(self.item())


def _iter(self: Tensor) -> Any:
    if self.ndim == 0:
        raise TorchTypeError("iteration over a 0-d tensor")
    return iter(unbind(self, 0))


def _inplace_operator(op: Callable[..., Tensor]) -> Callable[[Tensor, Any], Tensor]:
    op = unguarded(op)
    return lambda self, other: op(self, other)


def _setitem(self: Tensor, key: Any, value: Any) -> None:
    index_put(self, key, value)


def _permute_method(self: Tensor, *dims: Any) -> Tensor:
    return permute(self, *dims)


_METHODS: dict[str, Any] = {
    # operators
    "__add__": add,
    "__radd__": lambda self, other: add(self, other),
    "__iadd__": _inplace_operator(add_),
    "__sub__": sub,
    "__rsub__": lambda self, other: rsub(self, other),
    "__isub__": _inplace_operator(sub_),
    "__mul__": mul,
    "__rmul__": lambda self, other: mul(self, other),
    "__imul__": _inplace_operator(mul_),
    "__truediv__": div,
    "__rtruediv__": lambda self, other: _rtruediv(self, other),
    "__itruediv__": _inplace_operator(div_),
    "__floordiv__": floor_divide,
    "__rfloordiv__": _rfloordiv,
    "__mod__": remainder,
    "__rmod__": _reflected(remainder),
    "__pow__": pow,
    "__rpow__": _reflected(pow),
    "__ipow__": _inplace_operator(pow_),
    "__neg__": neg,
    "__pos__": positive,
    "__abs__": abs,
    "__matmul__": matmul,
    "__rmatmul__": _reflected(matmul),
    "__eq__": eq,
    "__ne__": ne,
    "__lt__": lt,
    "__le__": le,
    "__gt__": gt,
    "__ge__": ge,
    "__and__": bitwise_and,
    "__rand__": _reflected(bitwise_and),
    "__or__": bitwise_or,
    "__ror__": _reflected(bitwise_or),
    "__xor__": bitwise_xor,
    "__rxor__": _reflected(bitwise_xor),
    "__invert__": bitwise_not,
    "__getitem__": index,
    "__setitem__": _setitem,
    "__iter__": _iter,
    "__int__": _int,
    "__float__": _float,
    "__index__": _index_method,
    # arithmetic
    "add": add,
    "sub": sub,
    "subtract": sub,
    "mul": mul,
    "multiply": mul,
    "div": div,
    "divide": div,
    "true_divide": div,
    "floor_divide": floor_divide,
    "remainder": remainder,
    "fmod": fmod,
    "pow": pow,
    "neg": neg,
    "negative": neg,
    "reciprocal": reciprocal,
    "square": square,
    "eq": eq,
    "ne": ne,
    "lt": lt,
    "le": le,
    "gt": gt,
    "ge": ge,
    "logical_not": logical_not,
    "logical_and": logical_and,
    "greater": greater,
    "greater_equal": greater_equal,
    "less": less,
    "less_equal": less_equal,
    "not_equal": not_equal,
    "bitwise_and": bitwise_and,
    "bitwise_or": bitwise_or,
    "bitwise_xor": bitwise_xor,
    "positive": positive,
    "logical_or": logical_or,
    "logical_xor": logical_xor,
    "bitwise_not": bitwise_not,
    "isnan": isnan,
    "isinf": isinf,
    "isfinite": isfinite,
    "equal": equal,
    "allclose": allclose,
    # element-wise
    "exp": exp,
    "log": log,
    "log2": log2,
    "log10": log10,
    "sin": sin,
    "cos": cos,
    "tan": tan,
    "log1p": log1p,
    "expm1": expm1,
    "exp2": exp2,
    "sinh": sinh,
    "cosh": cosh,
    "asin": asin,
    "acos": acos,
    "atan": atan,
    "arcsin": asin,
    "arccos": acos,
    "arctan": atan,
    "erf": erf,
    "cumsum": cumsum,
    "cumprod": cumprod,
    "flip": flip,
    "repeat": repeat,
    "gather": gather,
    "index_select": index_select,
    "tril": tril,
    "triu": triu,
    "trace": trace,
    "addmm": addmm,
    "roll": roll,
    "atan2": atan2,
    "arctan2": atan2,
    "lerp": lerp,
    "movedim": movedim,
    "moveaxis": movedim,
    "new_zeros": new_zeros,
    "new_ones": new_ones,
    "new_empty": new_empty,
    "new_full": new_full,
    "new_tensor": new_tensor,
    "all": all,
    "any": any,
    "sort": sort,
    "median": median,
    "nanmedian": nanmedian,
    "kthvalue": kthvalue,
    "mode": mode,
    "xlogy": xlogy,
    "diag": diag,
    "masked_select": masked_select,
    "nonzero": nonzero,
    "nan_to_num": nan_to_num,
    "argsort": argsort,
    "topk": topk,
    "bernoulli": bernoulli,
    "bernoulli_": bernoulli_,
    "addcmul": addcmul,
    "addcdiv": addcdiv,
    "frac": frac,
    "dist": dist,
    "count_nonzero": count_nonzero,
    "unique": unique,
    "uniform_": uniform_,
    "normal_": normal_,
    "logit": logit,
    "take": take,
    "index_fill": index_fill,
    "scatter": scatter,
    "scatter_add": scatter_add,
    "index_add": index_add,
    "stride": stride,
    "storage_offset": storage_offset,
    "tanh": tanh,
    "sigmoid": sigmoid,
    "relu": relu,
    "sqrt": sqrt,
    "rsqrt": rsqrt,
    "abs": abs,
    "absolute": abs,
    "sign": sign,
    "sgn": sgn,
    "floor": floor,
    "ceil": ceil,
    "round": round,
    "trunc": trunc,
    "clamp": clamp,
    "clip": clamp,
    "clamp_min": clamp_min,
    "clamp_max": clamp_max,
    "maximum": maximum,
    "minimum": minimum,
    "where": lambda self, condition, other: where(condition, self, other),
    "masked_fill": masked_fill,
    # reductions
    "sum": sum,
    "mean": mean,
    "max": _method_max,
    "min": _method_min,
    "amax": amax,
    "amin": amin,
    "argmax": argmax,
    "argmin": argmin,
    "prod": prod,
    "norm": norm,
    "var": var,
    "std": std,
    "logsumexp": logsumexp,
    # shape
    "view": view,
    "view_as": view_as,
    "reshape": reshape,
    "reshape_as": reshape_as,
    "flatten": flatten,
    "unflatten": unflatten,
    "expand": expand,
    "expand_as": expand_as,
    "broadcast_to": broadcast_to,
    "t": t,
    "transpose": transpose,
    "swapaxes": transpose,
    "swapdims": transpose,
    "permute": _permute_method,
    "unsqueeze": unsqueeze,
    "squeeze": squeeze,
    "contiguous": contiguous,
    "is_contiguous": is_contiguous,
    "select": select,
    "narrow": narrow,
    "split": split,
    "chunk": chunk,
    "unbind": unbind,
    # linear algebra
    "matmul": matmul,
    "mm": mm,
    "mv": mv,
    "dot": dot,
    "inner": inner,
    "bmm": bmm,
    "outer": outer,
    "ger": outer,
    # nn
    "softmax": softmax,
    "log_softmax": log_softmax,
    # copies, casts, devices, info
    "clone": clone,
    "to": to,
    "float": _cast(dtypes.float32),
    "double": _cast(dtypes.float64),
    "half": _cast(dtypes.float16),
    "long": _cast(dtypes.int64),
    "int": _cast(dtypes.int32),
    "short": _cast(dtypes.int16),
    "bool": _cast(dtypes.bool_),
    "type": tensor_type,
    "cuda": cuda,
    "cpu": cpu,
    "tolist": tolist,
    "size": size,
    "element_size": element_size,
    # in place
    "add_": add_,
    "sub_": sub_,
    "mul_": mul_,
    "div_": div_,
    "pow_": pow_,
    "clamp_": clamp_,
    "clip_": clamp_,
    "clamp_min_": clamp_min_,
    "clamp_max_": clamp_max_,
    "exp_": exp_,
    "log_": log_,
    "sin_": sin_,
    "cos_": cos_,
    "tanh_": tanh_,
    "sigmoid_": sigmoid_,
    "relu_": relu_,
    "sqrt_": sqrt_,
    "abs_": abs_,
    "neg_": neg_,
    "reciprocal_": reciprocal_,
    "square_": square_,
    "zero_": zero_,
    "fill_": fill_,
    "copy_": copy_,
    "masked_fill_": masked_fill_,
    # autograd
    "backward": backward,
}


def _install_tensor_ops() -> None:
    """TensorOps: the helpers of ArrayOps built from differentiable operations (create_graph),
    and the two creation functions the engine itself calls."""
    # What formulas call through F.ufunc (functions._ARRAY_UFUNCS on arrays).
    ufuncs = {"cosh": cosh, "sinh": sinh, "rsqrt": rsqrt, "sigmoid": sigmoid, "tanh": tanh,
              "erf": erf, "logsigmoid": logsigmoid}

    def sum_to(g: Tensor, shape: tuple[int, ...]) -> Tensor:
        # at::sum_to: sum() to a scalar; else sum(dims, keepdim=True) and a view for the
        # leading dimensions
        if not shape:
            return sum(g)
        lead = g.ndim - len(shape)
        dims = tuple(range(lead)) + tuple(
            i + lead for i, n in enumerate(shape) if n == 1 and g.shape[i + lead] != 1
        )
        if dims:
            g = sum(g, dim=dims, keepdim=True)
        return view(g, shape) if lead > 0 else g

    def unsqueeze_dims(g: Tensor, dims: tuple[int, ...], ndim: int) -> Tensor:
        for d in sorted(d % ndim for d in dims):
            g = unsqueeze(g, d)
        return g

    def detached(compute: Callable[..., Any], x: Tensor) -> Tensor:
        # NOTE: the few formulas without a differentiable form in gradsh (prod with zeros,
        # nll's double backward) give the right values without a graph of their own.
        return Tensor._make(_as_array(compute(x._data)), x.device)

    # CopySlices under create_graph: clone the gradient, hand a copy of its view part to the
    # in-place op's formula, copy the result back into the view: all differentiable.
    def view_split(g: Tensor, view_fn: Callable[[Any], Any]) -> tuple[Tensor, Tensor]:
        result = copy_(empty_like(g), g)  # new_empty_strided(...).copy_(grad)
        part = clone(StridedView.apply(result, view_fn=view_fn), memory_format="contiguous")
        return result, part

    def view_fill(result: Tensor, view_fn: Callable[[Any], Any], part: Tensor | None) -> Tensor:
        view = StridedView.apply(result, view_fn=view_fn)
        if part is None:
            zero_(view)
        else:
            copy_(view, part)
        return result

    def prod_others(x: Tensor, dim: int) -> Tensor:
        # the product of the other elements along dim, differentiably (exact with zeros):
        # each row of an n x n matrix holds x with its own element replaced by 1
        n = x.shape[dim]
        last = x.ndim - 1
        order = tuple(d for d in range(x.ndim) if d != dim) + (dim,)
        moved = permute(x, order) if dim != last else x
        rows = expand(unsqueeze(moved, -2), moved.shape[:-1] + (n, n))
        identity = eye(n, dtype=dtypes.bool_, device=x.device)
        others = prod(where(identity, 1.0, rows), -1)
        if dim == last:
            return others
        inverse = [0] * x.ndim
        for i, d in enumerate(order):
            inverse[d] = i
        return permute(others, tuple(inverse))

    def value_selecting_backward(g: Tensor, dim: int, idx: Any, shape: tuple[int, ...],
                                 keepdim: bool) -> Tensor:
        indices = idx._data if isinstance(idx, Tensor) else idx
        if not keepdim:
            g = unsqueeze(g, dim)
            indices = xp_of(indices).expand_dims(indices, dim)
        base = zeros(shape, dtype=g.dtype, device=g.device)
        return ValueSelectingBackward.apply(base, g, dim=dim, indices=indices)

    def view_backward(g: Tensor, shape: tuple[int, ...], view_fn: Callable[[Any], Any],
                      kind: str, args: tuple[Any, ...]) -> Tensor:
        if kind == "select":
            cls: type[_ViewScatter] = SelectBackwardBackward0
            op = lambda t: select(t, *args)  # noqa: E731
        else:
            cls = SliceBackwardBackward0
            dim, start, end, step = args
            op = lambda t: slice(t, dim, start, end, step)  # noqa: E731
        return cls.apply(g, shape=shape, view_fn=view_fn, view_op=op)

    def scalar_sum(g: Tensor, dims: tuple[int, ...] | None, keepdim: bool) -> Tensor:
        return sum(g, dim=dims, keepdim=keepdim) if dims else (
            sum(g, dim=tuple(range(g.ndim)), keepdim=True) if keepdim else sum(g))

    def scalar_mean(g: Tensor, dims: tuple[int, ...] | None, keepdim: bool) -> Tensor:
        if dims:
            return mean(g, dim=dims, keepdim=keepdim)
        if keepdim:
            return reshape(mean(g), (1,) * g.ndim)
        return mean(g)

    _Namespace.install(
        TensorOps,
        expand=expand,
        reshape=reshape,
        t=t,
        transpose=transpose,
        permute=permute,
        squeeze=squeeze,
        log=log,
        exp=exp,
        sin=sin,
        cos=cos,
        abs=abs,
        sgn=sgn,
        isnan=isnan,
        to_bool=lambda g: bool(g._data),
        count_true=lambda g: int(g._data.sum()),
        count_zeros=lambda g: int((g._data == 0).sum()),
        floor_divide=lambda a, b: Tensor._make(_as_array(xp_of(a._data).floor_divide(
            a._data, b._data)), a.device),
        trunc_divide=lambda a, b: Tensor._make(_as_array(xp_of(a._data).trunc(
            a._data / b._data)), a.device),
        where=lambda c, a, b: where(c, a, b),
        masked_fill=lambda g, mask, value: masked_fill(g, mask, value),
        evenly_distribute=lambda g, x, mask: MaskedFillBackward1.apply(
            zeros_like(x), g / sum(mask), mask=mask),
        zeros_like=lambda g: zeros_like(g),
        ones_like=ones_like,
        empty_like=empty_like,
        zeros=lambda shape, like: zeros(shape, dtype=like.dtype, device=like.device),
        cast=lambda g, dtype: to(g, dtype),
        to_copy=lambda g, dtype, device: to(g, dtype=dtype, device=device),
        sum_to=sum_to,
        sum=scalar_sum,
        mean=scalar_mean,
        unsqueeze_dims=unsqueeze_dims,
        mm=mm,
        mv=mv,
        bmm=bmm,
        outer=outer,
        narrow=narrow,
        select=select,
        view_backward=view_backward,
        # NOTE: AsStridedBackward0 (views after an in-place change) has no double backward.
        view_scatter=lambda g, shape, view_fn: StridedScatter.apply(g, shape=shape,
                                                                       view_fn=view_fn),
        index_put_acc=lambda g, shape, key: IndexPutImplBackward0.apply(
            zeros(shape, dtype=g.dtype, device=g.device), g, key=key),
        index_fill_zero=lambda g, key: _index_fill_zero(g, key),
        index=lambda g, key: _index_with_key(g, key),
        value_selecting_backward=value_selecting_backward,
        tanh_backward=lambda g, y: TanhBackwardBackward0.apply(g, y),
        sigmoid_backward=lambda g, y: SigmoidBackwardBackward0.apply(g, y),
        threshold_backward=lambda g, y, th: ThresholdBackwardBackward0.apply(g, y,
                                                                                 threshold=th),
        softmax_backward=lambda g, y, dim: SoftmaxBackwardDataBackward0.apply(g, y, dim=dim),
        log_softmax_backward=lambda g, y, dim: LogSoftmaxBackwardDataBackward0.apply(
            g, y, dim=dim),
        mse_loss_backward=lambda g, x, t, red: MseLossBackwardBackward0.apply(
            g, x, t, reduction=red),
        nll_loss_backward=lambda g, x, target, node: NllLossBackwardBackward0.apply(
            g, x, target=target, node=node),
        detached=detached,
        ufunc=lambda name, g: ufuncs[name](g),
        flip=flip,
        roll=lambda g, shifts, dims: roll(g, shifts, dims),
        cumsum=lambda g, dim: cumsum(g, dim),
        triangle=lambda g, k, upper: (triu if upper else tril)(g, k),
        diagonal_matrix=lambda g, rows, cols: mul(
            eye(rows, cols, dtype=g.dtype, device=g.device), g),
        as_operand=lambda t: t,
        as_array=lambda t: t._data,
        gather=lambda g, dim, index: gather(g, dim, index),
        index_select=lambda g, dim, index: index_select(g, dim, index),
        constant_pad=lambda g, padding, shape: pad(g, padding),
        diagonal=lambda g, k: diag(g, k),
        diagonal_scatter=lambda g, shape, k: DiagonalBackwardBackward0.apply(
            g, shape=shape, k=k),
        prod_others=prod_others,
        view_split=view_split,
        view_fill=view_fill,
    )
    TensorOps.formula_mode = staticmethod(  # type: ignore[attr-defined]
        ScalarOverloads.enabled)


_UNGUARDED_METHODS = frozenset({"backward", "__getitem__", "__setitem__", "__iter__", "__int__",
                                "__float__", "__index__"})
for _name, _function in _METHODS.items():
    _function = unguarded(_function)  # the method's own guard replaces the function's
    if _name not in _UNGUARDED_METHODS:
        _function = _guard(_name.strip("_") if _name.startswith("__") else _name, _function,
                           method=True, tensor_first=False)
    setattr(Tensor, _name, _function)

Tensor.T = property(T)  # type: ignore[attr-defined]
Tensor.mT = property(mT)  # type: ignore[attr-defined]
Tensor.H = property(H)  # type: ignore[attr-defined]
Tensor.is_cuda = property(lambda self: self.device != "cpu")  # type: ignore[attr-defined]

_install_tensor_ops()
