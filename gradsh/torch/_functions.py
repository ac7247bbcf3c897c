"""The torch.* functions: the engine's ops under PyTorch's names, plus NumPy interop and the
global settings (default dtype and device, print options)."""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from gradsh.engine import dtypes, ops, threads
from gradsh.engine.variable import ambiguous_bool_message
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError, TorchValueError, warn
from gradsh.engine.ops.arguments import _type_name
from gradsh.engine.ops.creation import _numpy_dtype
from gradsh.engine.tensor import Tensor, _once
from gradsh.engine.tensor_str import set_printoptions

# The engine's ops that PyTorch also has as torch.NAME, with the same meaning.
_FROM_OPS = """
abs abs_ absolute acos add addcdiv addcmul addmm all allclose amax amin any arange arccos
arcsin arctan arctan2 argmax argmin argsort asin atan atan2 bernoulli bitwise_and bitwise_not
bitwise_left_shift bitwise_right_shift
bitwise_or bitwise_xor bmm broadcast_to cat ceil chunk clamp clamp_ clamp_max clamp_max_
clamp_min clamp_min_ clip clip_ clone concat concatenate cos cos_ cosh cosine_similarity
count_nonzero cumprod cumsum detach diag dist div divide dot empty empty_like eq equal erf exp
exp2 exp_ expm1 eye flatten flip floor floor_divide fmod frac full full_like gather ge ger
greater greater_equal gt index_add index_fill index_put index_select inner isfinite isinf
isnan kthvalue le lerp less less_equal linspace logspace log log10 log1p log2 log_
logical_and logical_not logical_or logical_xor logit logsumexp lt masked_fill masked_select
matmul max maximum mean median meshgrid min minimum mm mode moveaxis movedim mul multiply mv
nan_to_num nanmedian narrow ne neg neg_ negative nonzero norm normal not_equal numel ones
ones_like outer permute positive pow prod rand rand_like randint randn randn_like randperm
reciprocal reciprocal_ relu relu_ remainder reshape roll round rsqrt rsub scatter scatter_add
select sgn sigmoid sigmoid_ sign sin sin_ sinh sort split split_with_sizes sqrt sqrt_ square
square_
squeeze stack std sub subtract sum swapaxes swapdims t take tan tanh tanh_ tensor topk trace
transpose tril triu true_divide trunc unbind unflatten unique unsqueeze var where xlogy zeros
zeros_like binary_cross_entropy_with_logits kl_div dropout is_tensor
cross index_copy is_complex is_floating_point masked_scatter std_mean var_mean
atleast_1d atleast_2d atleast_3d broadcast_tensors broadcast_shapes cartesian_prod tensordot
hstack vstack row_stack dstack column_stack tile ravel fliplr flipud repeat_interleave
tensor_split hsplit vsplit dsplit take_along_dim diff msort argwhere asinh acosh atanh arcsinh
arccosh arctanh asinh_ acosh_ atanh_ arcsinh_ arccosh_ arctanh_ erfc erfc_ deg2rad rad2deg
deg2rad_ rad2deg_ hypot logaddexp logaddexp2 copysign fmax fmin fix fix_ nansum nanmean cummax
cummin isclose isneginf isposinf isreal signbit bincount searchsorted bucketize histc scatter_reduce
tril_indices triu_indices
heaviside multinomial randint_like selu_ celu_ threshold_ cdist einsum diagonal
inverse det slogdet logdet svd cholesky pinverse cholesky_solve cholesky_inverse triangular_solve
lgamma digamma polygamma mvlgamma erfinv i0 i0_ sinc sinc_ igamma igammac poisson binomial
_standard_gamma _standard_gamma_grad _sample_dirichlet _dirichlet_grad
baddbmm _safe_softmax kron block_diag combinations searchsorted bucketize histc tril_indices
triu_indices as_strided quantile nanquantile
""".split()

__all__ = [*_FROM_OPS, "softmax", "log_softmax", "as_tensor", "from_numpy", "get_default_dtype", "set_default_dtype",
           "get_default_device", "set_default_device", "set_printoptions",
           "promote_types", "result_type", "can_cast", "is_nonzero", "is_storage", "numel",
           "asarray", "range",
           "scalar_tensor", "get_num_threads", "set_num_threads"]

_module = globals()
for _name in _FROM_OPS:
    _module[_name] = getattr(ops, _name)
del _module, _name
# torch.softmax requires dim (F.softmax infers one)
softmax = ops.torch_softmax
log_softmax = ops.torch_log_softmax


def from_numpy(array: Any) -> Tensor:
    """torch.from_numpy: a tensor sharing the array's memory (a write through either is seen by
    the other)."""
    if not isinstance(array, np.ndarray):
        raise TorchTypeError(f"expected np.ndarray (got {_type_name(array)})")
    _numpy_dtype(array.dtype)
    if builtins.any(stride < 0 for stride in array.strides):
        raise TorchValueError(
            "At least one stride in the given numpy array is negative, and tensors with "
            "negative strides are not currently supported. (You can probably work around this "
            "by making a copy of your array  with array.copy().) ")
    if not array.flags.writeable:
        import warnings

        warnings.warn(
            "The given NumPy array is not writable, and PyTorch does not support non-writable "
            "tensors. This means writing to this tensor will result in undefined behavior. You "
            "may want to copy the array to protect its data or make it writable before "
            "converting it to a tensor. This type of warning will be suppressed for the rest of "
            "this program.", UserWarning, stacklevel=2)
    return Tensor._make(array, "cpu")


def as_tensor(data: Any, dtype: DType | None = None, device: Any = None) -> Tensor:
    """torch.as_tensor: shares memory with a tensor or a NumPy array when dtype and device
    allow it, else copies as torch.tensor does."""
    if isinstance(data, Tensor):
        if (dtype is None or dtype is data.dtype) and (device is None or
                                                       ops._device_name(device) == data.device):
            return data
        return ops.to(data, dtype=dtype, device=device)
    if isinstance(data, np.ndarray):
        source = _numpy_dtype(data.dtype)
        target = source if dtype is None else dtype
        dev = ops._device_name(device)
        if target is source and dev == "cpu":
            return from_numpy(data)
        return ops.tensor(data, dtype=target, device=dev)
    return ops.tensor(data, dtype=dtype, device=device)


def asarray(obj: Any, *, dtype: DType | None = None, device: Any = None,
            copy: bool | None = None, requires_grad: bool | None = None) -> Tensor:
    """torch.asarray: as_tensor, with copy=True forcing a copy. An unspecified requires_grad
    is the tensor's own (a warning, once a process); requires_grad=False detaches a non-leaf
    (tensor_new.cpp's asarray)."""
    wanted = requires_grad
    if wanted is None:
        wanted = isinstance(obj, Tensor) and obj.requires_grad
        if wanted and "asarray_grad" not in _once:  # TORCH_WARN_ONCE
            _once.add("asarray_grad")
            warn("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad "
                 "instead of False. Pass requires_grad=False explicitly to get the old "
                 "behavior and silence this warning.")
    result = as_tensor(obj, dtype=dtype, device=device)
    if copy and (result is obj or (isinstance(obj, np.ndarray) and
                                   np.shares_memory(result._data, obj))):
        result = ops.clone(result)
    if not wanted and not result.is_leaf:
        return result.detach()
    if result.requires_grad != wanted:
        result.requires_grad_(wanted)
    return result


def get_default_dtype() -> DType:
    return dtypes.default_float()


def set_default_dtype(d: DType) -> None:
    if not isinstance(d, DType) or d not in (dtypes.float16, dtypes.bfloat16, dtypes.float32,
                                                  dtypes.float64):
        raise TorchTypeError("only floating-point types are supported as the default type")
    dtypes.set_default_dtype(d)


def get_default_device() -> Any:
    from gradsh.engine.pytypes import device_of

    return device_of(ops.DefaultDevice.value)


def set_default_device(device: Any) -> None:
    name = "cpu" if device is None else ops._device_name(device)
    ops.DeviceHooks.check(name)
    ops.DefaultDevice.value = name


def get_num_threads() -> int:
    """The thread count whose results gradsh reproduces: PyTorch's start-up count unless set
    (engine/threads.py)."""
    return threads.torch_threads()


def set_num_threads(count: Any) -> None:
    """Reproduce PyTorch's float results as it computes them with `count` threads (large sums
    and element-wise loops split differently); gradsh's own speed does not change."""
    if not isinstance(count, int) or isinstance(count, bool):
        raise TorchRuntimeError("set_num_threads expects an int, but got "
                                f"{type(count).__name__}")
    if count <= 0:
        raise TorchRuntimeError("set_num_threads expects a positive integer")
    threads.set_torch_threads(count)


def is_storage(obj: Any) -> bool:
    """Whether obj is a storage (x.untyped_storage(), the deprecated x.storage())."""
    from gradsh.torch.storage import TypedStorage, UntypedStorage

    return isinstance(obj, (TypedStorage, UntypedStorage))


def is_nonzero(input: Tensor) -> bool:  # noqa: A002
    if input.numel() != 1:
        raise TorchRuntimeError(ambiguous_bool_message(input.numel()))
    return bool(input)


def promote_types(type1: DType, type2: DType) -> DType:
    return dtypes.promote_types(type1, type2)


def result_type(tensor1: Any, tensor2: Any) -> DType:
    operands = [tensor1, tensor2]
    tensors = [(t.dtype, t.ndim) for t in operands if isinstance(t, Tensor)]
    scalars = [s for s in operands if not isinstance(s, Tensor)]
    return dtypes.result_type(tensors, scalars)


def can_cast(from_: DType, to: DType) -> bool:
    """Whether PyTorch's type promotion allows the cast: never to a lower category (float to
    integer, integer to bool)."""
    return from_.category <= to.category


def range(start: float = 0, end: float | None = None, step: float = 1,  # noqa: A001
          dtype: DType | None = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """torch.range (deprecated): from start to end inclusive, in the default float dtype."""
    import math
    import warnings

    warnings.warn("torch.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=2)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise TorchRuntimeError("step must be nonzero")
    count = builtins.max(int(math.floor((end - start) / step)) + 1, 0)
    values = [start + step * i for i in builtins.range(count)]
    return ops.tensor(values, dtype=dtype or dtypes.default_float(), device=device,
                      requires_grad=requires_grad)


def scalar_tensor(s: Any, dtype: DType | None = None, device: Any = None,
                  requires_grad: bool = False) -> Tensor:
    """torch.scalar_tensor(3): a 0-d tensor of the default float dtype unless told."""
    return ops.tensor(s, dtype=dtype or dtypes.default_float(), device=device,
                      requires_grad=requires_grad)
