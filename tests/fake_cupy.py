"""A stand-in for CuPy in CI, where there is no GPU: NumPy underneath, a device array on top.

gradsh's CuPy path is tested against this module, injected as `cupy` (see tests/test_devices.py).
It implements the part of CuPy's API that gradsh uses, with the CuPy rules that catch an engine
computing on the host what belongs on the device:

- `ndarray` is its own class, not a numpy.ndarray subclass, and NumPy cannot convert it
  implicitly: `np.asarray(device_array)` raises TypeError, as for cupy.ndarray;
- this module's functions and the array's operators refuse numpy.ndarray operands, as CuPy's
  kernels do (`Unsupported type <class 'numpy.ndarray'>`); NumPy and Python scalars are fine,
  and NumPy arrays inside an indexing key are copied to the device, as CuPy does;
- NumPy ufuncs and functions called with device arrays dispatch here (`__array_ufunc__`,
  `__array_function__`), as they do for cupy.ndarray, and come back as device arrays;
- reductions and integer indexing give 0-d device arrays, never NumPy scalars;
- the only ways across are explicit: `asarray`/`array` (host to device), `asnumpy` and `.get()`
  (device to host), all counted in `transfers`.

Only the names CuPy 14 has are offered (checked against the real package), so a call that
works here works there; what the fake cannot tell is whether CuPy computes every op exactly as
NumPy does (rounding, kernels, indexing corner cases): that is what the `gpu` tests are for.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np

# cupy.ndarray's public methods and attributes (CuPy 14.2), the ones this fake forwards.
_ARRAY_ATTRIBUTES = frozenset({
    "T", "all", "any", "argmax", "argmin", "argpartition", "argsort", "astype", "base", "choose",
    "clip", "compress", "conj", "conjugate", "copy", "cumprod", "cumsum", "diagonal", "dot",
    "dtype", "fill", "flags", "flatten", "imag", "item", "itemsize", "mT", "max", "mean",
    "min", "nbytes", "ndim", "nonzero", "partition", "prod", "ptp", "put", "ravel", "real",
    "repeat", "reshape", "round", "searchsorted", "shape", "size", "sort", "squeeze", "std",
    "strides", "sum", "swapaxes", "take", "tolist", "trace", "transpose", "var", "view",
})

# NumPy names CuPy 14 does not have (the rest of NumPy's functions CuPy offers too).
_NOT_IN_CUPY = frozenset({"errstate", "seterr", "geterr", "seterrcall", "geterrcall",
                          "asmatrix", "matrix", "memmap", "recarray", "char", "rec", "ma"})

transfers = {"to_device": 0, "to_host": 0}


class UnsupportedTypeError(TypeError):
    pass


def _device(value: Any) -> Any:
    """A NumPy view of an operand, refusing host arrays as CuPy's kernels do."""
    if isinstance(value, ndarray):
        return value._a
    if isinstance(value, np.ndarray):
        raise UnsupportedTypeError(f"Unsupported type {type(value)}")
    if isinstance(value, (list, tuple)):
        return type(value)(_device(v) for v in value)
    return value


def _wrap(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return ndarray(value)
    if isinstance(value, np.generic):
        return ndarray(np.asarray(value))  # CuPy never returns NumPy scalars
    if isinstance(value, tuple):
        return tuple(_wrap(v) for v in value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


def _key(key: Any) -> Any:
    """An indexing key: device arrays as they are, host arrays and lists copied over."""
    if isinstance(key, tuple):
        return tuple(_key(k) for k in key)
    if isinstance(key, ndarray):
        return key._a
    if isinstance(key, (np.ndarray, list)):
        transfers["to_device"] += 1
        return np.asarray(key)
    return key


class _Flags:
    def __init__(self, a: np.ndarray):
        self.c_contiguous = a.flags.c_contiguous
        self.f_contiguous = a.flags.f_contiguous
        self.owndata = a.flags.owndata


class ndarray:  # noqa: N801  (CuPy's name)
    """A device array: a NumPy array nobody may read without an explicit copy."""

    __array_priority__ = 100
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, a: np.ndarray):
        self._a = a

    # -- what NumPy sees ---------------------------------------------------------------------

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use "
                        "`.get()` to construct a NumPy array explicitly.")

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        target = getattr(module, ufunc.__name__)
        if method != "__call__":
            target = getattr(target, method)
        return target(*inputs, **kwargs)

    def __array_function__(self, func: Any, types_: Any, args: Any, kwargs: Any) -> Any:
        name = func.__name__
        if name in _NOT_IN_CUPY or not hasattr(np, name):
            return NotImplemented
        return getattr(module, name)(*args, **kwargs)

    # -- attributes and methods --------------------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        if name not in _ARRAY_ATTRIBUTES:
            raise AttributeError(f"'cupy.ndarray' object has no attribute '{name}'")
        if name == "flags":
            return _Flags(self._a)
        if name == "item":
            return self._a.item
        if name == "tolist":
            return self._a.tolist
        value = getattr(self._a, name)
        if not callable(value):
            return _wrap(value) if isinstance(value, np.ndarray) else value

        def method(*args: Any, **kwargs: Any) -> Any:
            return _wrap(value(*_device(args), **{k: _device(v) for k, v in kwargs.items()}))

        return method

    def get(self) -> np.ndarray:
        transfers["to_host"] += 1
        return self._a.copy()

    def set(self, array: np.ndarray) -> None:
        transfers["to_device"] += 1
        self._a[...] = array

    @property
    def device(self) -> Any:
        return _DEVICE

    def __getitem__(self, key: Any) -> Any:
        return _wrap(self._a[_key(key)])

    def __setitem__(self, key: Any, value: Any) -> None:
        self._a[_key(key)] = _device(value)

    def __len__(self) -> int:
        return len(self._a)

    def __iter__(self) -> Any:
        return (ndarray(np.asarray(row)) for row in self._a)

    def __bool__(self) -> bool:
        return bool(self._a)

    def __float__(self) -> float:
        return float(self._a)

    def __int__(self) -> int:
        return int(self._a)

    def __repr__(self) -> str:
        return f"fake_cupy.{self._a!r}"

    # -- operators ---------------------------------------------------------------------------

    def _op(self, other: Any, fn: Callable[[Any, Any], Any]) -> Any:
        if not isinstance(other, (ndarray, np.generic, bool, int, float, complex)):
            if isinstance(other, np.ndarray):
                raise UnsupportedTypeError(f"Unsupported type {type(other)}")
            return NotImplemented
        return _wrap(fn(self._a, _device(other)))

    def _iop(self, other: Any, fn: Callable[[Any, Any], Any]) -> Any:
        result = self._op(other, fn)
        if result is NotImplemented:
            return result
        self._a[...] = result._a
        return self


def _binary(name: str, fn: Callable[[Any, Any], Any]) -> None:
    setattr(ndarray, f"__{name}__", lambda self, other: self._op(other, fn))
    setattr(ndarray, f"__r{name}__", lambda self, other: self._op(other, lambda a, b: fn(b, a)))
    setattr(ndarray, f"__i{name}__", lambda self, other: self._iop(other, fn))


for _name, _fn in {"add": np.add, "sub": np.subtract, "mul": np.multiply,
                   "truediv": np.true_divide, "floordiv": np.floor_divide, "mod": np.remainder,
                   "pow": np.power, "matmul": np.matmul, "and": np.bitwise_and,
                   "or": np.bitwise_or, "xor": np.bitwise_xor, "lshift": np.left_shift,
                   "rshift": np.right_shift}.items():
    _binary(_name, _fn)
for _name, _fn in {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
                   "gt": np.greater, "ge": np.greater_equal}.items():
    setattr(ndarray, f"__{_name}__", lambda self, other, fn=_fn: self._op(other, fn))
for _name, _fn in {"neg": np.negative, "pos": np.positive, "abs": np.abs,
                   "invert": np.invert}.items():
    setattr(ndarray, f"__{_name}__", lambda self, fn=_fn: _wrap(fn(self._a)))


# ---------------------------------------------------------------------------------------------
# The module
# ---------------------------------------------------------------------------------------------


class _Ufunc:
    """A CuPy ufunc: called, or its reduce/accumulate/outer/at, on device arrays only."""

    def __init__(self, ufunc: np.ufunc):
        self._ufunc = ufunc
        self.__name__ = ufunc.__name__
        self.nin, self.nout = ufunc.nin, ufunc.nout

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _wrap(self._ufunc(*_device(args), **_kwargs(kwargs)))

    def reduce(self, *args: Any, **kwargs: Any) -> Any:
        return _wrap(self._ufunc.reduce(*_device(args), **_kwargs(kwargs)))

    def accumulate(self, *args: Any, **kwargs: Any) -> Any:
        return _wrap(self._ufunc.accumulate(*_device(args), **_kwargs(kwargs)))

    def outer(self, *args: Any, **kwargs: Any) -> Any:
        return _wrap(self._ufunc.outer(*_device(args), **_kwargs(kwargs)))

    def at(self, a: ndarray, key: Any, *values: Any) -> None:
        self._ufunc.at(_device(a), _key(key), *_device(values))


def _kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    out = {k: _device(v) for k, v in kwargs.items()}
    if isinstance(out.get("out"), tuple):
        out["out"] = tuple(out["out"])
    return out


def _function(fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return _wrap(fn(*_device(args), **_kwargs(kwargs)))

    call.__name__ = fn.__name__
    return call


def asarray(a: Any, dtype: Any = None, order: Any = None) -> ndarray:
    if isinstance(a, ndarray):
        return a if dtype is None or a._a.dtype == dtype else ndarray(a._a.astype(dtype))
    transfers["to_device"] += 1
    return ndarray(np.array(a, dtype=dtype, order=order or "K", copy=True))


def array(a: Any, dtype: Any = None, copy: bool = True, order: Any = "K") -> ndarray:
    if isinstance(a, ndarray):
        return ndarray(np.array(a._a, dtype=dtype, copy=copy, order=order))
    transfers["to_device"] += 1
    return ndarray(np.array(a, dtype=dtype, copy=True, order=order))


def asnumpy(a: Any) -> np.ndarray:
    if isinstance(a, ndarray):
        return a.get()
    return np.asarray(a)


def get_array_module(*args: Any) -> Any:
    return module if any(isinstance(a, ndarray) for a in args) else np


def _as_strided(x: ndarray, shape: Any = None, strides: Any = None) -> ndarray:
    """cupy.lib.stride_tricks.as_strided: a view of the same device memory."""
    return ndarray(np.lib.stride_tricks.as_strided(_device(x), shape, strides))


class _Device:
    id = 0

    def synchronize(self) -> None:
        pass

    def __repr__(self) -> str:
        return "<CUDA Device 0>"


_DEVICE = _Device()


class _Runtime:
    @staticmethod
    def getDeviceCount() -> int:  # noqa: N802  (CuPy's name)
        return 1


class FakeCupyModule(types.ModuleType):
    """`cupy`: the functions above, NumPy's ufuncs and functions on device arrays, `cuda`."""

    ndarray = ndarray
    asarray = staticmethod(asarray)
    array = staticmethod(array)
    asnumpy = staticmethod(asnumpy)
    get_array_module = staticmethod(get_array_module)
    cuda = types.SimpleNamespace(runtime=_Runtime, Device=lambda *_: _DEVICE,
                                 is_available=lambda: True)
    transfers = transfers
    lib = types.SimpleNamespace(stride_tricks=types.SimpleNamespace(as_strided=_as_strided))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in _NOT_IN_CUPY or not hasattr(np, name):
            raise AttributeError(f"module 'cupy' has no attribute '{name}'")
        value = getattr(np, name)
        if isinstance(value, np.ufunc):
            wrapped: Any = _Ufunc(value)
        elif callable(value) and not isinstance(value, type):
            wrapped = _function(value)
        else:
            wrapped = value  # dtypes, constants (float32, inf, newaxis ...)
        setattr(self, name, wrapped)
        return wrapped


module = FakeCupyModule("cupy")
module.__file__ = __file__
