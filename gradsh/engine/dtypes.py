"""PyTorch's dtypes as gradsh knows them: names, NumPy equivalents and type promotion."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError, TorchTypeError


@dataclass(frozen=True, eq=False)
class DType:
    """One dtype. Identity is equality: there is exactly one instance per dtype."""

    name: str  # "float32"
    np: np.dtype  # numpy.dtype("float32")
    category: int  # 0 bool, 1 integer, 2 floating, 3 complex: PyTorch's promotion categories
    legacy: str  # "FloatTensor": the name in `[torch.FloatTensor [3]]`
    short: str  # "Float": the name in messages such as "Got: Long"

    @property
    def is_floating_point(self) -> bool:
        return self.category == 2

    @property
    def itemsize(self) -> int:
        return self.np.itemsize

    @property
    def is_signed(self) -> bool:
        """torch.dtype.is_signed: every dtype gradsh has but bool and the unsigned ones."""
        return self.name != "bool" and not self.name.startswith("uint")

    @property
    def is_complex(self) -> bool:
        return self.category == 3

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __copy__(self) -> DType:
        return self

    def __deepcopy__(self, memo: dict) -> DType:
        return self

    def __reduce__(self) -> tuple:
        """Pickled by name, unpickled as the one instance of that dtype."""
        return (named, (self.name,))


# type(torch.float32) prints as PyTorch's class, <class 'torch.dtype'> (torch.save pickles
# the instances by name, so no pickle names the class)
DType.__module__, DType.__name__, DType.__qualname__ = "torch", "dtype", "dtype"


def _make(name: str, category: int, legacy: str, short: str) -> DType:
    return DType(name, np.dtype(name), category, legacy, short)


class _LazyDType(DType):
    """bfloat16, whose NumPy dtype comes from ml_dtypes, imported the first time it is asked
    for: importing ml_dtypes registers its ufunc loops for a dozen dtypes, which costs about
    0.5 s of CPU with NumPy 2 (three times gradsh's whole start-up), and most programs never
    use bfloat16. Until then no array can have that dtype, so the module's tables leave it
    out (see _load_bfloat16)."""

    @property  # type: ignore[override]
    def np(self) -> np.dtype:  # noqa: F811  (the dataclass field, made lazy)
        return _load_bfloat16()


_LazyDType.__module__, _LazyDType.__name__, _LazyDType.__qualname__ = "torch", "dtype", "dtype"


def _lazy(name: str, category: int, legacy: str, short: str) -> DType:
    dtype = object.__new__(_LazyDType)
    for field, value in (("name", name), ("category", category), ("legacy", legacy),
                         ("short", short)):
        object.__setattr__(dtype, field, value)
    return dtype


bool_ = _make("bool", 0, "BoolTensor", "Bool")
uint8 = _make("uint8", 1, "ByteTensor", "Byte")
int8 = _make("int8", 1, "CharTensor", "Char")
int16 = _make("int16", 1, "ShortTensor", "Short")
int32 = _make("int32", 1, "IntTensor", "Int")
int64 = _make("int64", 1, "LongTensor", "Long")
# PyTorch 2.13's "barebones" unsigned dtypes: tensors of them, conversions, comparisons and a
# few kernels; no promotion with another integer dtype (promote_types)
uint16 = _make("uint16", 1, "UInt16Tensor", "UInt16")
uint32 = _make("uint32", 1, "UInt32Tensor", "UInt32")
uint64 = _make("uint64", 1, "UInt64Tensor", "UInt64")
BAREBONES_UNSIGNED = frozenset({uint16, uint32, uint64})
float16 = _make("float16", 2, "HalfTensor", "Half")
# NumPy has no bfloat16: ml_dtypes gives it one (conversions round to nearest even; its ufuncs
# compute in float32 and round, as PyTorch's element-wise CPU kernels do).
bfloat16 = _lazy("bfloat16", 2, "BFloat16Tensor", "BFloat16")
float32 = _make("float32", 2, "FloatTensor", "Float")
float64 = _make("float64", 2, "DoubleTensor", "Double")
complex64 = _make("complex64", 3, "ComplexFloatTensor", "ComplexFloat")
complex128 = _make("complex128", 3, "ComplexDoubleTensor", "ComplexDouble")


class _NameOnlyDType(DType):
    """complex32 (torch.chalf): a name, its attributes and promotions; gradsh makes no tensor
    of it, so asking for its NumPy dtype (what any tensor of it needs) raises PyTorch-style."""

    @property  # type: ignore[override]
    def np(self) -> np.dtype:  # noqa: F811  (the dataclass field, made an error)
        raise TorchNotImplementedError(f"gradsh does not implement {self.name} (torch.chalf) "
                                       "tensors yet")

    @property
    def itemsize(self) -> int:
        return 4


_NameOnlyDType.__module__, _NameOnlyDType.__name__ = "torch", "dtype"
_NameOnlyDType.__qualname__ = "dtype"
complex32 = object.__new__(_NameOnlyDType)
for _field, _value in (("name", "complex32"), ("category", 3), ("legacy", "ComplexHalfTensor"),
                       ("short", "ComplexHalf")):
    object.__setattr__(complex32, _field, _value)

ALL: tuple[DType, ...] = (bool_, uint8, int8, int16, int32, int64, float16, bfloat16, float32,
                          float64, complex32, complex64, complex128, uint16, uint32, uint64)
# complex <-> real of the same precision (x.real.dtype, torch.complex's result)
TO_REAL: dict[DType, DType] = {complex32: float16, complex64: float32, complex128: float64}
TO_COMPLEX: dict[DType, DType] = {float16: complex32, float32: complex64, float64: complex128}
BY_NAME: dict[str, DType] = {d.name: d for d in ALL}


def named(name: str) -> DType:
    """The dtype of this name (how a pickled dtype comes back)."""
    return BY_NAME[name]
# PyTorch's aliases: torch.float is float32, torch.double float64, torch.long int64, ...
BY_NAME.update(
    {
        "float": float32,
        "double": float64,
        "half": float16,
        "long": int64,
        "int": int32,
        "short": int16,
        "chalf": complex32,
        "cfloat": complex64,
        "cdouble": complex128,
    }
)
_BY_NP: dict[np.dtype, DType] = {d.np: d for d in ALL if d not in (bfloat16, complex32)}
# bfloat16's NumPy dtype once ml_dtypes is loaded; until then a dtype no array of gradsh's has,
# so that `array.dtype == dtypes.BF16_NP` is False without loading it. Read it as
# `dtypes.BF16_NP` (the module's attribute), never bound to a name of another module.
BF16_NP: np.dtype = np.dtype([("bfloat16_not_loaded", "u2")])
# The float types PyTorch's CPU kernels compute in float32 (at::opmath_type): the NumPy dtypes
# (bfloat16 joins these sets when loaded: they are shared by reference).
REDUCED_FLOAT_NP: set[np.dtype] = {float16.np}
BF16_ONLY: set[np.dtype] = set()


def _load_bfloat16() -> np.dtype:
    """Import ml_dtypes (once) and enter bfloat16 in the tables: its NumPy dtype."""
    global BF16_NP
    loaded = bfloat16.__dict__.get("_np")
    if loaded is not None:
        return loaded
    import ml_dtypes

    loaded = np.dtype(ml_dtypes.bfloat16)
    BF16_NP = loaded
    _BY_NP[loaded] = bfloat16
    REDUCED_FLOAT_NP.add(loaded)
    BF16_ONLY.add(loaded)
    object.__setattr__(bfloat16, "_np", loaded)
    return loaded


def is_float_array_dtype(dtype: np.dtype) -> bool:
    """Whether a NumPy dtype is a floating (or complex) one: bfloat16's kind is "V", not "f"."""
    return dtype.kind in "fc" or dtype == BF16_NP


def from_numpy(dtype: np.dtype) -> DType:
    """The gradsh dtype of a NumPy dtype (KeyError for dtypes PyTorch has no equivalent of)."""
    dtype = np.dtype(dtype)
    if dtype not in _BY_NP and dtype.name == "bfloat16" and "ml_dtypes" in sys.modules:
        _load_bfloat16()  # an array the program made with ml_dtypes itself
    return _BY_NP[dtype]


def promote_types(a: DType, b: DType) -> DType:
    """torch.promote_types: the smallest dtype both convert to without losing category."""
    if a is b:
        return a
    if a in BAREBONES_UNSIGNED or b in BAREBONES_UNSIGNED:
        if a.category == 2 or b.category == 2:  # (c10::promoteTypes: only with a float)
            return a if a.category == 2 else b
        raise TorchRuntimeError("Promotion for uint16, uint32, uint64 types is not supported, "
                                f"attempted to promote {a.short} and {b.short}")
    if a.category != b.category:
        high, low = (a, b) if a.category > b.category else (b, a)
        if high.category == 3 and low.category == 2:  # complex64 with float64: complex128
            return to_complex(promote_types(TO_REAL[high], low))
        return high
    if a.category == 3:  # the wider complex dtype (complex32's NumPy dtype does not exist)
        return TO_COMPLEX[promote_types(TO_REAL[a], TO_REAL[b])]
    # (NumPy, with ml_dtypes, promotes bfloat16 with float16 to float32, as PyTorch does)
    return from_numpy(np.promote_types(a.np, b.np))


class DefaultDtype:
    """The default floating dtype (torch.get_default_dtype), float32 unless the user sets it."""

    value: DType = float32


def default_float() -> DType:
    return DefaultDtype.value


def default_complex() -> DType:
    """The default complex dtype: complex128 when the default float dtype is float64."""
    return complex128 if DefaultDtype.value is float64 else complex64


def to_complex(dtype: DType) -> DType:
    """c10::toComplexType: the complex dtype of a floating one (complex ones are themselves)."""
    if dtype.category == 3:
        return dtype
    if dtype not in TO_COMPLEX:
        raise TorchTypeError(f"Unknown Complex ScalarType for {dtype.short}")
    return TO_COMPLEX[dtype]


def set_default_dtype(dtype: DType) -> None:
    if not dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    DefaultDtype.value = dtype


def scalar_dtype(value: bool | int | float | complex) -> DType:
    """The dtype PyTorch gives a Python scalar turned into a tensor (`tensor(2.)` -> float32)."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    if isinstance(value, complex):
        return default_complex()
    return default_float()


def result_type(tensors: list[tuple[DType, int]], scalars: list[bool | int | float]) -> DType:
    """torch.result_type over operands: (dtype, ndim) of each tensor, plus Python scalars.

    PyTorch ranks operands in three priority groups: tensors with dimensions, zero-dim tensors,
    and Python numbers. A lower group only matters when it brings a higher category
    (bool < integer < floating): `int64 tensor * 2.5` is float32, but
    `float32 tensor * float64 zero-dim tensor` stays float32.
    """
    dim_result: DType | None = None
    zero_result: DType | None = None
    for dtype, ndim in tensors:
        if ndim > 0:
            dim_result = dtype if dim_result is None else promote_types(dim_result, dtype)
        else:
            zero_result = dtype if zero_result is None else promote_types(zero_result, dtype)
    scalar_result: DType | None = None
    for value in scalars:
        d = scalar_dtype(value)
        scalar_result = d if scalar_result is None else promote_types(scalar_result, d)

    result = dim_result
    for group in (zero_result, scalar_result):
        if group is None:
            continue
        if result is None:
            result = group
        elif group.category > result.category and group.category == 3 \
                and result.category == 2:
            result = to_complex(result)  # combine_categories keeps the float's precision
        elif group.category > result.category:
            # A higher category from a lower-priority group: a float scalar makes an integer
            # tensor the default float dtype; a float64 zero-dim tensor makes it float64.
            result = group if group is not scalar_result else _scalar_category_dtype(group)
    assert result is not None, "result_type needs at least one operand"
    return result


def _scalar_category_dtype(d: DType) -> DType:
    if d.category == 3:
        return default_complex()
    if d.category == 2:
        return default_float()
    if d.category == 1:
        return int64
    return bool_
