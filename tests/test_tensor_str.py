"""Parity of gradsh.engine.tensor_str with PyTorch's repr: every case is an exact string match.

The oracle is torch itself: each array is turned into a torch tensor (a contiguous copy, since
torch.tensor cannot take negative strides) and its repr is compared with gradsh's output for
the original, possibly strided, array.
"""

from __future__ import annotations

import dataclasses
import math
import re
import zlib
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from gradsh.engine import dtypes
from gradsh.engine import tensor_str as ts
from gradsh.engine.dtypes import DType
from gradsh.engine.tensor_str import (
    PrintOptions,
    format_scalar,
    format_size,
    format_tensor,
)

pytestmark = pytest.mark.torch

FLOAT_DTYPES = [dtypes.float32, dtypes.float64, dtypes.float16]
INT_DTYPES = [dtypes.int64, dtypes.int32, dtypes.int16, dtypes.int8, dtypes.uint8]
ALL_DTYPES = FLOAT_DTYPES + INT_DTYPES + [dtypes.bool_]

SHAPES: list[tuple[int, ...]] = [
    (),
    (0,),
    (0, 3),
    (3, 0, 2),
    (1,),
    (5,),
    (1, 1, 1),
    (7, 1),
    (1, 7),
    (3, 5),
    (2, 3, 4),
    (2, 2, 2, 2),
    (6, 6),
    (7, 7),
    (12,),
    (1000,),
    (1001,),
    (40, 40),
    (2, 3000),
    (3, 400),
    (11, 3, 31),
]


# ---------------------------------------------------------------------------------------------
# helpers


def _torch_dtype(torch, dtype: DType):
    return getattr(torch, dtype.name)


def _oracle(
    torch,
    arr: np.ndarray,
    *,
    requires_grad: bool = False,
    grad_fn: str | None = None,
    options: PrintOptions | None = None,
) -> str:
    """repr() of the same values as a torch tensor, under the same print options."""
    t = torch.tensor(np.array(arr, order="C", copy=True))
    if requires_grad or grad_fn is not None:
        t.requires_grad_()
    # Ops that keep every value exactly, picked for the grad_fn name they leave.
    if grad_fn == "MulBackward0":
        t = t * 1
    elif grad_fn == "CloneBackward0":
        t = t.clone()
    else:
        assert grad_fn is None, grad_fn
    with torch._tensor_str.printoptions(**dataclasses.asdict(options or PrintOptions())):
        return repr(t)


def _check(
    torch,
    arr: np.ndarray,
    dtype: DType,
    *,
    requires_grad: bool = False,
    grad_fn: str | None = None,
    options: PrintOptions | None = None,
) -> str:
    assert arr.dtype == dtype.np
    expected = _oracle(torch, arr, requires_grad=requires_grad, grad_fn=grad_fn, options=options)
    got = format_tensor(
        arr, dtype, requires_grad=requires_grad, grad_fn=grad_fn, options=options or PrintOptions()
    )
    assert got == expected
    return got


def _cast(values: np.ndarray, dtype: DType) -> np.ndarray:
    # float16 overflow to inf is wanted: PyTorch prints it too.
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(values).astype(dtype.np)


def _sprinkle_specials(rng: np.random.Generator, values: np.ndarray) -> np.ndarray:
    values = values.copy()
    flat = values.reshape(-1)
    if flat.size:
        specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0])
        picks = rng.integers(0, flat.size, size=max(1, flat.size // 5))
        flat[picks] = rng.choice(specials, size=picks.size)
    return values


FloatKind = Callable[[np.random.Generator, tuple[int, ...]], np.ndarray]

FLOAT_KINDS: dict[str, FloatKind] = {
    "normal": lambda rng, s: rng.standard_normal(s),
    "negative": lambda rng, s: -np.abs(rng.standard_normal(s)) * 3,
    "uniform": lambda rng, s: rng.random(s),
    "tiny": lambda rng, s: rng.standard_normal(s) * 1e-5,
    "large": lambda rng, s: rng.standard_normal(s) * 1e5,
    "huge": lambda rng, s: rng.standard_normal(s) * 1e9,
    "mixed": lambda rng, s: rng.standard_normal(s) * 10.0 ** rng.integers(-7, 10, size=s),
    "integers": lambda rng, s: rng.integers(-3000, 3000, size=s).astype(np.float64),
    "big_integers": lambda rng, s: rng.integers(1, 10**9, size=s).astype(np.float64),
    "specials": lambda rng, s: _sprinkle_specials(rng, rng.standard_normal(s)),
    "int_specials": lambda rng, s: _sprinkle_specials(
        rng, rng.integers(-50, 50, size=s).astype(np.float64)
    ),
    "zeros": lambda rng, s: np.zeros(s),
    "nonfinite": lambda rng, s: rng.choice(np.array([np.nan, np.inf, -np.inf, 0.0, -0.0]), s),
}


def _int_values(rng: np.random.Generator, shape: tuple[int, ...], dtype: DType) -> np.ndarray:
    if dtype is dtypes.bool_:
        return rng.random(shape) < 0.5
    info = np.iinfo(dtype.np)
    # Mix small numbers with the extremes of the dtype, which set the column width.
    values = rng.integers(-20, 20, size=shape)
    values = np.clip(values, info.min, info.max).astype(dtype.np)
    flat = values.reshape(-1)
    if flat.size > 2:
        flat[0], flat[-1] = info.min, info.max
    return values


# ---------------------------------------------------------------------------------------------
# values, shapes and dtypes


@pytest.mark.parametrize("kind", sorted(FLOAT_KINDS))
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=repr)
def test_float_tensors(torch, dtype: DType, shape: tuple[int, ...], kind: str) -> None:
    # A seed stable across processes (str hashes are salted per process).
    rng = np.random.default_rng(zlib.crc32(f"{dtype.name}{shape}{kind}".encode()))
    _check(torch, _cast(FLOAT_KINDS[kind](rng, shape), dtype), dtype)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", INT_DTYPES + [dtypes.bool_], ids=repr)
def test_integer_and_bool_tensors(torch, dtype: DType, shape: tuple[int, ...], seed: int) -> None:
    rng = np.random.default_rng(seed)
    _check(torch, _int_values(rng, shape, dtype), dtype)


@pytest.mark.parametrize("seed", range(200))
def test_random_normal_seeds(torch, seed: int) -> None:
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(1, 9, size=rng.integers(0, 4)))
    scale = 10.0 ** rng.integers(-6, 10)
    dtype = FLOAT_DTYPES[seed % 2]
    _check(torch, _cast(rng.standard_normal(shape) * scale, dtype), dtype)


EXPLICIT_VALUES: list[list[float]] = [
    [0.0],
    [-0.0],
    [0.0, -0.0],
    [-0.0, 1.5],
    [1.0, -0.0],
    [2400.0],
    [1182591.0],
    [17738864.0],
    [20200910.0],
    [1e-5],
    [1e9],
    [1e-5, 1.0, 1e9],
    [np.nan],
    [np.inf],
    [-np.inf],
    [np.nan, np.inf, -np.inf],
    [np.nan, 1.0],
    [np.inf, 1.5],
    [-np.inf, 123456.0, 0.5],
    [np.nan, 1e-7],
    [0.1, 0.2, 0.3],
    [-1.0, 1.0],
    [-1.5, 100.25],
    [1.0, 1000.0],
    [1.0, 1000.0001],
    [1.0, 1001.0],
    [1e-4],
    [9.9999e-5],
    [1.0001e-4],
    [1e8],
    [1.00000001e8],
    [99999999.0],
    [123456789.0],
    [0.00012345, 0.5],
    [65504.0, 1.0],
    [5e-324],
    [1.7976931348623157e308, -1.0],
    [0.99995, 0.99994],
    [9.99995],
    [-9.99995],
    [0.5, 1.5, 2.5],
    [3.14159265358979, -2.718281828],
]


@pytest.mark.parametrize("as_0d", [False, True])
@pytest.mark.parametrize("values", EXPLICIT_VALUES, ids=str)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=repr)
def test_explicit_values(torch, dtype: DType, values: list[float], as_0d: bool) -> None:
    arr = _cast(np.array(values), dtype)
    if as_0d:
        for value in arr:
            _check(torch, value.reshape(()), dtype)
    else:
        _check(torch, arr, dtype)


# ---------------------------------------------------------------------------------------------
# strides


def _strided_views() -> Iterator[tuple[str, np.ndarray]]:
    """Views with transposed, negative, zero and stepped strides, small and summarised."""
    rng = np.random.default_rng(7)
    base = rng.standard_normal((4, 6)).astype(np.float32)
    yield "transpose", base.T
    yield "reversed_rows", base[::-1]
    yield "negative_step_columns", base[:, ::-2]
    yield "stepped_transpose", base[::2, 1::2].T
    yield "broadcast", np.broadcast_to(base[0], (3, 6))
    yield "reversed_vector", base[2, ::-1]
    yield "column", base[:, 3]
    yield "3d_permuted", base.reshape(2, 3, 4).transpose(2, 0, 1)[..., ::-1]
    yield "0d_view", base[1, 2, ...]
    big = rng.standard_normal((40, 50)) * 1e3
    yield "summarised_transpose", big.T
    yield "summarised_flipped", np.flip(big)
    yield "summarised_stepped", big[::-3, ::2]
    ints = np.arange(3000, dtype=np.int64).reshape(30, 100)
    yield "int_transpose", ints.T
    yield "int_reversed", ints[::-1, ::-1]


@pytest.mark.parametrize(
    "arr", [pytest.param(arr, id=name) for name, arr in _strided_views()]
)
def test_strided_arrays(torch, arr: np.ndarray) -> None:
    assert arr.ndim == 0 or not arr.flags.c_contiguous
    _check(torch, arr, dtypes.from_numpy(arr.dtype))


# ---------------------------------------------------------------------------------------------
# print options


OPTION_SETS: list[PrintOptions] = [
    PrintOptions(precision=0),
    PrintOptions(precision=2),
    PrintOptions(precision=8),
    PrintOptions(threshold=5),
    PrintOptions(threshold=math.inf),
    PrintOptions(edgeitems=0),
    PrintOptions(edgeitems=1),
    PrintOptions(edgeitems=2, threshold=10),
    PrintOptions(edgeitems=0, threshold=10),
    PrintOptions(linewidth=20),
    PrintOptions(linewidth=40),
    PrintOptions(linewidth=150),
    PrintOptions(linewidth=1),
    PrintOptions(sci_mode=True),
    PrintOptions(sci_mode=False),
    PrintOptions(precision=2, sci_mode=True, linewidth=50),
    PrintOptions(precision=6, sci_mode=False, threshold=20, edgeitems=2),
]
OPTION_ARRAYS: list[tuple[str, tuple[int, ...], DType]] = [
    ("normal", (), dtypes.float32),
    ("mixed", (12,), dtypes.float32),
    ("specials", (5, 7), dtypes.float64),
    ("integers", (3, 4, 5), dtypes.float32),
    ("tiny", (30,), dtypes.float64),
    ("huge", (2, 3000), dtypes.float16),
    ("zeros", (4,), dtypes.float32),
    ("large", (40, 40), dtypes.float32),
]


@pytest.mark.parametrize("kind,shape,dtype", OPTION_ARRAYS, ids=str)
@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_print_options(
    torch, options: PrintOptions, kind: str, shape: tuple[int, ...], dtype: DType
) -> None:
    rng = np.random.default_rng(3)
    arr = _cast(FLOAT_KINDS[kind](rng, shape), dtype)
    _check(torch, arr, dtype, options=options)
    _check(torch, arr, dtype, options=options, grad_fn="MulBackward0")


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
@pytest.mark.parametrize("dtype", [dtypes.int64, dtypes.int16, dtypes.bool_], ids=repr)
def test_print_options_integers(torch, options: PrintOptions, dtype: DType) -> None:
    rng = np.random.default_rng(5)
    for shape in [(), (0,), (0, 2), (9,), (6, 9), (3, 30)]:
        _check(torch, _int_values(rng, shape, dtype), dtype, options=options)


@pytest.fixture
def restore_print_options(torch) -> Iterator[None]:
    saved = ts.get_printoptions()
    saved_torch = torch._tensor_str.get_printoptions()
    yield
    ts.set_printoptions(**saved)
    torch.set_printoptions(**saved_torch)


@pytest.mark.usefixtures("restore_print_options")
def test_module_level_options_follow_set_printoptions(torch) -> None:
    """Module-level options behave like torch's, sci_mode reset on every call included."""
    arr = np.array([1e-5, 0.5, 123.25], dtype=np.float32)
    t = torch.tensor(arr)
    calls: list[dict] = [
        {"precision": 2},
        {"sci_mode": False},
        {"linewidth": 10},
        {"profile": "short"},
        {"profile": "full", "precision": 1},
        {"threshold": 2, "edgeitems": 1},
        {"profile": "default"},
    ]
    for kwargs in calls:
        ts.set_printoptions(**kwargs)
        torch.set_printoptions(**kwargs)
        assert ts.get_printoptions() == torch._tensor_str.get_printoptions()
        assert format_tensor(arr, dtypes.float32) == repr(t)
    with ts.printoptions(precision=1), torch._tensor_str.printoptions(precision=1):
        assert format_tensor(arr, dtypes.float32) == repr(t)
    assert ts.get_printoptions() == dataclasses.asdict(PrintOptions())


# ---------------------------------------------------------------------------------------------
# suffixes: dtype, requires_grad, grad_fn, device


SUFFIX_SHAPES: list[tuple[int, ...]] = [(), (0,), (0, 3), (1,), (9,), (10,), (3, 5), (2, 3, 4)]


@pytest.mark.parametrize("linewidth", [80, 30])
@pytest.mark.parametrize(
    "requires_grad,grad_fn",
    [(False, None), (True, None), (True, "MulBackward0"), (True, "CloneBackward0")],
)
@pytest.mark.parametrize("shape", SUFFIX_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=repr)
def test_suffixes(
    torch,
    dtype: DType,
    shape: tuple[int, ...],
    requires_grad: bool,
    grad_fn: str | None,
    linewidth: int,
) -> None:
    rng = np.random.default_rng(11)
    arr = _cast(rng.random(shape), dtype)
    options = PrintOptions(linewidth=linewidth)
    _check(torch, arr, dtype, requires_grad=requires_grad, grad_fn=grad_fn, options=options)


@pytest.fixture
def default_float64(torch) -> Iterator[None]:
    """torch.set_default_dtype(torch.float64) in both libraries for one test."""
    torch_saved, gradsh_saved = torch.get_default_dtype(), dtypes.default_float()
    torch.set_default_dtype(torch.float64)
    dtypes.set_default_dtype(dtypes.float64)
    yield
    torch.set_default_dtype(torch_saved)
    dtypes.set_default_dtype(gradsh_saved)


@pytest.mark.usefixtures("default_float64")
@pytest.mark.parametrize("shape", [(), (0,), (0, 2), (4,)], ids=str)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=repr)
def test_dtype_suffix_follows_default_dtype(torch, dtype: DType, shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(2)
    if dtype.is_floating_point:
        arr = _cast(rng.standard_normal(shape), dtype)
        _check(torch, arr, dtype, grad_fn="MulBackward0")
    else:
        arr = _int_values(rng, shape, dtype)
    _check(torch, arr, dtype)


def _split_suffixes(text: str, body_len: int) -> list[str]:
    # What follows "tensor(<body>" is ", a=..., b=...)" with wrapping; suffixes start with name=.
    tail = text[body_len:-1]
    return [s for s in re.split(r",\s+(?=[a-z_]+=)", tail) if s]


def _device_oracle(torch, arr: np.ndarray, grad_fn: str | None, linewidth: int) -> str:
    """torch's repr with device='cuda:0' placed and wrapped by torch's own _add_suffixes."""
    tensor_str = torch._tensor_str
    options = PrintOptions(linewidth=linewidth)
    plain = _oracle(torch, arr, grad_fn=grad_fn, options=options)
    t = torch.tensor(np.array(arr, order="C", copy=True))
    with torch._tensor_str.printoptions(**dataclasses.asdict(options)):
        body = "tensor(" + (tensor_str._tensor_str(t, 7) if t.numel() else "[]")
        assert plain.startswith(body)
        suffixes = ["device='cuda:0'"] + _split_suffixes(plain, len(body))
        return tensor_str._add_suffixes(body, suffixes, 7, force_newline=False)


# Only floating tensors can require grad, so integers come without a grad_fn.
DEVICE_DTYPE_GRAD: list[tuple[DType, str | None]] = [
    (dtypes.float32, None),
    (dtypes.float32, "MulBackward0"),
    (dtypes.float64, None),
    (dtypes.float64, "MulBackward0"),
    (dtypes.int64, None),
]


@pytest.mark.parametrize("linewidth", [80, 35])
@pytest.mark.parametrize("shape", SUFFIX_SHAPES + [(40, 40)], ids=str)
@pytest.mark.parametrize("dtype,grad_fn", DEVICE_DTYPE_GRAD, ids=str)
def test_cuda_device_suffix(
    torch, dtype: DType, shape: tuple[int, ...], grad_fn: str | None, linewidth: int
) -> None:
    rng = np.random.default_rng(4)
    arr = _cast(rng.standard_normal(shape) * 10, dtype)
    expected = _device_oracle(torch, arr, grad_fn, linewidth)
    got = format_tensor(
        arr, dtype, device="cuda:0", grad_fn=grad_fn, options=PrintOptions(linewidth=linewidth)
    )
    assert got == expected


@pytest.mark.parametrize("shape", SUFFIX_SHAPES + [(1001,)], ids=str)
@pytest.mark.parametrize("dtype,grad_fn", DEVICE_DTYPE_GRAD, ids=str)
def test_cpu_device_suffix_under_other_default_device(
    torch, monkeypatch, dtype: DType, shape: tuple[int, ...], grad_fn: str | None
) -> None:
    """A cpu tensor shows device='cpu' when the default device is another one, as in torch."""
    rng = np.random.default_rng(6)
    arr = _cast(rng.standard_normal(shape), dtype)
    monkeypatch.setattr(torch._C, "_get_default_device", lambda: "meta")
    expected = _oracle(torch, arr, grad_fn=grad_fn)
    assert "device='cpu'" in expected
    assert format_tensor(arr, dtype, grad_fn=grad_fn, default_device="meta") == expected


def test_cuda_goldens() -> None:
    f32 = dtypes.float32
    assert format_tensor(np.float32(2.0), f32, device="cuda:0") == "tensor(2., device='cuda:0')"
    assert (
        format_tensor(
            np.array([1.0, 2.0]), dtypes.float64, device="cuda:0", grad_fn="ToCopyBackward0"
        )
        == "tensor([1., 2.], device='cuda:0', dtype=torch.float64,\n"
        "       grad_fn=<ToCopyBackward0>)"
    )
    assert (
        format_tensor(np.zeros((0, 2), np.float32), f32, device="cuda:0", requires_grad=True)
        == "tensor([], device='cuda:0', size=(0, 2), requires_grad=True)"
    )
    # The default device being cuda hides cuda:0 and shows cpu instead.
    assert format_tensor(np.float32(1), f32, device="cuda:0", default_device="cuda") == "tensor(1.)"
    assert (
        format_tensor(np.float32(1), f32, device="cpu", default_device="cuda")
        == "tensor(1., device='cpu')"
    )


# ---------------------------------------------------------------------------------------------
# the source articles' transcripts


TRANSCRIPT_VALUES = [0.9817, 0.9880, 0.8879, 0.3911, 0.8532, 0.2367, 0.6074, 0.6374, 0.7830, 0.1322]


def test_transcript_rand_requires_grad(torch) -> None:
    torch.manual_seed(20200910)
    values = torch.rand(10).numpy()
    expected = (
        "tensor([0.9817, 0.9880, 0.8879, 0.3911, 0.8532, 0.2367, 0.6074, 0.6374, 0.7830,\n"
        "        0.1322], requires_grad=True)"
    )
    assert format_tensor(values, dtypes.float32, requires_grad=True) == expected
    rounded = np.array(TRANSCRIPT_VALUES, dtype=np.float32)
    assert _check(torch, rounded, dtypes.float32, requires_grad=True) == expected


@pytest.mark.parametrize(
    "value,grad_fn,expected",
    [
        (2400.0, None, "tensor(2400.)"),
        (1182591.0, "MulBackward0", "tensor(1182591., grad_fn=<MulBackward0>)"),
        (17738864.0, "MulBackward0", "tensor(17738864., grad_fn=<MulBackward0>)"),
        (4.0, "MulBackward0", "tensor(4., grad_fn=<MulBackward0>)"),
        (0.5, None, "tensor(0.5000)"),
    ],
)
def test_transcript_scalars(torch, value: float, grad_fn: str | None, expected: str) -> None:
    arr = np.array(value, dtype=np.float32)
    assert format_tensor(arr, dtypes.float32, grad_fn=grad_fn) == expected
    assert _check(torch, arr, dtypes.float32, grad_fn=grad_fn) == expected


def test_transcript_full_of_seed(torch) -> None:
    arr = np.full((3, 4), 20200910.0, dtype=np.float32)
    got = _check(torch, arr, dtypes.float32)
    assert got.startswith("tensor([[20200910., 20200910., ")


def test_spec_examples() -> None:
    assert format_tensor(np.array([0.5, 1.0], np.float32), dtypes.float32) == (
        "tensor([0.5000, 1.0000])"
    )
    assert format_tensor(np.array([1.0, 2.0]), dtypes.float64) == (
        "tensor([1., 2.], dtype=torch.float64)"
    )
    assert format_tensor(np.array([], np.float32), dtypes.float32) == "tensor([])"
    assert format_tensor(np.zeros((0, 3), np.float32), dtypes.float32) == (
        "tensor([], size=(0, 3))"
    )


# ---------------------------------------------------------------------------------------------
# property-based: any float array, any options


@st.composite
def _float_arrays(draw: st.DrawFn) -> tuple[np.ndarray, DType]:
    dtype = draw(st.sampled_from(FLOAT_DTYPES))
    width = {"float16": 16, "float32": 32, "float64": 64}[dtype.name]
    # Integers the dtype holds exactly, so hypothesis never has to round an element.
    max_int = {"float16": 2048, "float32": 2**24, "float64": 2**53}[dtype.name]
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=9))
    elements = st.one_of(
        st.floats(width=width),
        st.integers(-max_int, max_int).map(float),
        st.floats(-2.0, 2.0, width=width),
    )
    return draw(hnp.arrays(dtype.np, shape, elements=elements)), dtype


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(case=_float_arrays())
def test_hypothesis_float_arrays(torch, case: tuple[np.ndarray, DType]) -> None:
    arr, dtype = case
    _check(torch, arr, dtype)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    case=_float_arrays(),
    options=st.builds(
        PrintOptions,
        precision=st.integers(0, 10),
        threshold=st.sampled_from([0, 3, 10, 50, 1000, math.inf]),
        edgeitems=st.integers(0, 4),
        linewidth=st.integers(1, 120),
        sci_mode=st.sampled_from([None, True, False]),
    ),
    grad=st.sampled_from([(False, None), (True, None), (True, "MulBackward0")]),
)
def test_hypothesis_options_and_suffixes(
    torch, case: tuple[np.ndarray, DType], options: PrintOptions, grad: tuple[bool, str | None]
) -> None:
    arr, dtype = case
    _check(torch, arr, dtype, requires_grad=grad[0], grad_fn=grad[1], options=options)


@settings(max_examples=200, deadline=None)
@given(
    arr=hnp.arrays(
        st.sampled_from([np.dtype(d.np) for d in INT_DTYPES + [dtypes.bool_]]),
        hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=9),
    ),
    linewidth=st.integers(1, 100),
)
def test_hypothesis_integer_arrays(torch, arr: np.ndarray, linewidth: int) -> None:
    _check(torch, arr, dtypes.from_numpy(arr.dtype), options=PrintOptions(linewidth=linewidth))


# ---------------------------------------------------------------------------------------------
# format_size and format_scalar


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_format_size(torch, shape: tuple[int, ...]) -> None:
    assert format_size(shape) == str(torch.Size(shape))
    assert format_size(shape) == str(torch.zeros(shape).shape)


SCALARS: list[tuple[float | int | bool, DType]] = [
    (6.0, dtypes.float32),
    (2400.0, dtypes.float32),
    (1e-5, dtypes.float32),
    (1e-5, dtypes.float64),
    (0.1, dtypes.float32),
    (0.1, dtypes.float64),
    (0.1, dtypes.float16),
    (-0.0, dtypes.float32),
    (1e16, dtypes.float64),
    (1e16, dtypes.float32),
    (123456789.0, dtypes.float32),
    (float("nan"), dtypes.float32),
    (float("inf"), dtypes.float64),
    (float("-inf"), dtypes.float16),
    (1182591.0, dtypes.float32),
    (3, dtypes.int64),
    (-7, dtypes.int8),
    (255, dtypes.uint8),
    (2**62, dtypes.int64),
    (True, dtypes.bool_),
    (False, dtypes.bool_),
]


@pytest.mark.parametrize("value,dtype", SCALARS, ids=str)
def test_format_scalar(torch, value: float | int | bool, dtype: DType) -> None:
    expected = str(torch.tensor(value, dtype=_torch_dtype(torch, dtype)).item())
    assert format_scalar(value, dtype) == expected
    assert format_scalar(np.array(value, dtype=dtype.np), dtype) == expected
    assert format_scalar(np.array(value, dtype=dtype.np)[()], dtype) == expected


def test_format_scalar_goldens() -> None:
    assert format_scalar(np.float32(0.1), dtypes.float32) == "0.10000000149011612"
    assert format_scalar(6.0, dtypes.float32) == "6.0"
    assert format_scalar(2400.0, dtypes.float32) == "2400.0"
    assert format_scalar(1e-5, dtypes.float64) == "1e-05"
    assert format_scalar(True, dtypes.bool_) == "True"
    assert format_scalar(3, dtypes.int64) == "3"
