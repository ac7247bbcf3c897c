"""PyTorch's tensor repr (torch/_tensor_str.py), ported to NumPy character for character.

The structure follows PyTorch's module function by function so the two can be read side by side:
`_Formatter` decides the element width and notation from the (summarised) data, `_tensor_str`
lays out the nested brackets, and `_add_suffixes` appends `device=`, `size=`, `dtype=`,
`requires_grad=` and `grad_fn=` in PyTorch's order.

Only strided dense CPU/CUDA tensors exist in gradsh, so the sparse, quantized, nested,
functorch and meta branches of the original have no counterpart here. A complex tensor is
printed with two formatters, one for the real parts and one for the imaginary parts, as
PyTorch's `formatter1` / `formatter2`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.dtypes import DType

__all__ = [
    "PRINT_OPTS",
    "PrintOptions",
    "format_scalar",
    "format_size",
    "format_tensor",
    "format_values",
    "get_printoptions",
    "printoptions",
    "set_printoptions",
]


@dataclasses.dataclass
class PrintOptions:
    """torch.set_printoptions' settings, with PyTorch's defaults."""

    precision: int = 4
    # A float because the "full" profile sets it to inf.
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    # None lets _Formatter choose per tensor; True/False force the notation.
    sci_mode: bool | None = None


PRINT_OPTS = PrintOptions()
"""The module-level options, used when format_tensor is not given any (torch.PRINT_OPTS)."""


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """torch.set_printoptions on the module-level options, with the same quirks.

    As in PyTorch, `sci_mode` is always assigned, so any call that omits it resets it to None.
    """
    if profile == "default":
        PRINT_OPTS.precision, PRINT_OPTS.threshold = 4, 1000
        PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 3, 80
    elif profile == "short":
        PRINT_OPTS.precision, PRINT_OPTS.threshold = 2, 1000
        PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 2, 80
    elif profile == "full":
        PRINT_OPTS.precision, PRINT_OPTS.threshold = 4, math.inf
        PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 3, 80

    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """torch.get_printoptions: the module-level options as set_printoptions keywords."""
    return dataclasses.asdict(PRINT_OPTS)


@contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """torch.printoptions: set_printoptions for the duration of a `with` block."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


class _Formatter:
    """Chooses one notation and one width for every element of a tensor, as PyTorch does.

    `data` is the summarised data when the tensor is summarised, so hidden elements never
    influence the notation or the column width.
    """

    def __init__(self, data: np.ndarray, floating: bool, opts: PrintOptions) -> None:
        self.floating_dtype = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        self.precision = opts.precision

        flat = data.reshape(-1)
        if not floating:
            # tolist() yields Python ints and bools, whose str() is what PyTorch's .item() shows.
            for value in flat.tolist():
                self.max_width = max(self.max_width, len(f"{value}"))
            return

        nonzero_finite = flat[np.isfinite(flat) & (flat != 0)]
        if nonzero_finite.size == 0:
            # Only zeros, nans and infs: integer notation, width 1.
            return

        # PyTorch widens to double before min/max/ratio: float16 would overflow on 1e8.
        nonzero_abs = np.abs(nonzero_finite).astype(np.float64)
        finite_min = nonzero_abs.min()
        finite_max = nonzero_abs.max()

        # The ceil comparison is done in the tensor's own dtype, like PyTorch's.
        self.int_mode = bool(np.all(nonzero_finite == np.ceil(nonzero_finite)))

        if opts.sci_mode is None:
            # max / subnormal min overflows to inf in torch too; the comparison stays right.
            with np.errstate(over="ignore"):
                ratio = finite_max / finite_min
            self.sci_mode = bool(ratio > 1000.0 or finite_max > 1.0e8 or finite_min < 1.0e-4)
        else:
            self.sci_mode = opts.sci_mode

        # Python floats: float32 and float16 values widened to double, as Tensor.item() does,
        # so the digits past float32's precision are the ones PyTorch prints.
        values = nonzero_finite.tolist()
        if self.sci_mode:
            spec = f"{{:.{self.precision}e}}"
            widths = (len(spec.format(v)) for v in values)
        elif self.int_mode:
            # +1 for the "." that marks an integer-valued float as floating.
            widths = (len(f"{v:.0f}") + 1 for v in values)
        else:
            spec = f"{{:.{self.precision}f}}"
            widths = (len(spec.format(v)) for v in values)
        self.max_width = max(self.max_width, *widths)

    def width(self) -> int:
        return self.max_width

    def format(self, value: float | int | bool) -> str:
        if self.floating_dtype:
            if self.sci_mode:
                ret = f"{{:{self.max_width}.{self.precision}e}}".format(value)
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{{:.{self.precision}f}}".format(value)
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _complex_str(value: complex, real: _Formatter, imag: _Formatter) -> str:
    """One complex element: `1.5000+2.0000j`, the imaginary part's sign joining the two."""
    imag_str = (imag.format(value.imag) + "j").lstrip()
    if imag_str[0] in "+-":  # (negative numbers, and -0.)
        return real.format(value.real) + imag_str
    return real.format(value.real) + "+" + imag_str


def _vector_str(
    data: np.ndarray, indent: int, summarize: bool, formatter: _Formatter, opts: PrintOptions,
    imag: _Formatter | None = None,
) -> str:
    # Each element takes its width plus ", " (and a complex one its imaginary part and "j").
    element_length = formatter.width() + 2
    if imag is not None:
        element_length += imag.width() + 1
        real = formatter
        formatter = _ComplexFormatter(real, imag)  # type: ignore[assignment]
    elements_per_line = max(1, math.floor((opts.linewidth - indent) / element_length))

    edge = opts.edgeitems
    if summarize and not edge:
        items = ["..."]
    elif summarize and data.shape[0] > 2 * edge:
        # NOTE: data[-edge:] is the whole vector when edge is 0; PyTorch slices the same way.
        items = (
            [formatter.format(v) for v in data[:edge].tolist()]
            + [" ..."]
            + [formatter.format(v) for v in data[-edge:].tolist()]
        )
    else:
        items = [formatter.format(v) for v in data.tolist()]

    lines = [
        ", ".join(items[i : i + elements_per_line])
        for i in range(0, len(items), elements_per_line)
    ]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


class _ComplexFormatter:
    """A real and an imaginary formatter as one, for _vector_str's elements."""

    def __init__(self, real: _Formatter, imag: _Formatter) -> None:
        self.real, self.imag = real, imag

    def format(self, value: complex) -> str:
        return _complex_str(value, self.real, self.imag)


def _tensor_str_with_formatter(
    data: np.ndarray, indent: int, summarize: bool, formatter: _Formatter, opts: PrintOptions,
    imag: _Formatter | None = None,
) -> str:
    dim = data.ndim
    if dim == 0:
        if imag is not None:
            return _complex_str(complex(data.item()), formatter, imag)
        return formatter.format(data.item())
    if dim == 1:
        return _vector_str(data, indent, summarize, formatter, opts, imag)

    edge = opts.edgeitems
    size = data.shape[0]
    if summarize and size > 2 * edge:
        slices = (
            [
                _tensor_str_with_formatter(data[i], indent + 1, summarize, formatter, opts,
                                           imag)
                for i in range(edge)
            ]
            + ["..."]
            + [
                _tensor_str_with_formatter(data[i], indent + 1, summarize, formatter, opts,
                                           imag)
                for i in range(size - edge, size)
            ]
        )
    else:
        slices = [
            _tensor_str_with_formatter(data[i], indent + 1, summarize, formatter, opts, imag)
            for i in range(size)
        ]

    # Blocks of a 3-d tensor are separated by one blank line, of a 4-d tensor by two, ...
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _get_summarized_data(data: np.ndarray, opts: PrintOptions) -> np.ndarray:
    """The elements a summarised print shows, which alone decide the formatter."""
    dim = data.ndim
    edge = opts.edgeitems
    if dim == 0:
        return data
    if dim == 1:
        if data.shape[0] > 2 * edge:
            return np.concatenate((data[:edge], data[-edge:]))
        return data
    if not edge:
        return np.empty([0] * dim, dtype=data.dtype)
    if data.shape[0] > 2 * edge:
        rows = [data[i] for i in range(edge)]
        rows += [data[i] for i in range(data.shape[0] - edge, data.shape[0])]
    else:
        rows = [data[i] for i in range(data.shape[0])]
    return np.stack([_get_summarized_data(row, opts) for row in rows])


def _tensor_str(data: np.ndarray, floating: bool, indent: int, opts: PrintOptions) -> str:
    if data.size == 0:
        return "[]"
    summarize = data.size > opts.threshold
    if data.dtype.kind == "c":
        shown = _get_summarized_data(data, opts) if summarize else data
        real, imag = _Formatter(shown.real, True, opts), _Formatter(shown.imag, True, opts)
        return _tensor_str_with_formatter(data, indent, summarize, real, opts, imag)
    formatter = _Formatter(
        _get_summarized_data(data, opts) if summarize else data, floating, opts
    )
    return _tensor_str_with_formatter(data, indent, summarize, formatter, opts)


def _add_suffixes(
    tensor_str: str, suffixes: list[str], indent: int, linewidth: int, force_newline: bool
) -> str:
    parts = [tensor_str]
    # NOTE: PyTorch's own arithmetic, off by two when there is no newline (rfind gives -1);
    # kept because it decides where suffixes wrap.
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if force_newline or last_line_len + len(suffix) + 2 > linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
            force_newline = False
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _shape_str(shape: tuple[int, ...]) -> str:
    # str(tuple(t.shape)): "(0,)", "(0, 3)".
    return str(tuple(int(n) for n in shape))


def format_tensor(
    data: np.ndarray,
    dtype: DType,
    *,
    device: str = "cpu",
    requires_grad: bool = False,
    grad_fn: str | None = None,
    options: PrintOptions | None = None,
    default_device: str = "cpu",
    tangent: str | None = None,
    prefix: str = "tensor(",
) -> str:
    """The string PyTorch's repr(tensor) / print(tensor) gives.

    `data` is a host array of `dtype.np` (any strides); `grad_fn` is the node's class name, such
    as "MulBackward0". `default_device` mirrors torch.set_default_device: a tensor shows its
    device only when it differs. `options` defaults to the module-level PRINT_OPTS.
    """
    opts = PRINT_OPTS if options is None else options
    data = np.asarray(data)
    indent = len(prefix)
    suffixes: list[str] = []

    # PyTorch compares device types, so "cuda:0" against a default of "cuda" matches.
    if device.split(":")[0] != default_device.split(":")[0]:
        suffixes.append(f"device='{device}'")

    has_default_dtype = dtype in (dtypes.default_float(), dtypes.default_complex(), dtypes.int64,
                                  dtypes.bool_)
    if device == "meta":  # no data: PyTorch shows the size and dtype
        suffixes.append("size=" + _shape_str(data.shape))
        if dtype is not dtypes.default_float():
            suffixes.append(f"dtype={dtype!r}")
        tensor_str = "..."
    elif data.size == 0:
        # Only (0,) looks like the printed "[]"; other empty shapes are spelled out.
        if data.ndim != 1:
            suffixes.append("size=" + _shape_str(data.shape))
        # Without elements nothing hints at an integer dtype, so even int64 is shown.
        if dtype is not dtypes.default_float():
            suffixes.append(f"dtype={dtype!r}")
        tensor_str = "[]"
    else:
        if not opts.edgeitems:
            suffixes.append("size=" + _shape_str(data.shape))
        if not has_default_dtype:
            suffixes.append(f"dtype={dtype!r}")
        tensor_str = _tensor_str(data, dtype.is_floating_point, indent, opts)

    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:  # a dual tensor's (forward-mode AD)
        suffixes.append(f"tangent={tangent}")

    return _add_suffixes(prefix + tensor_str, suffixes, indent, opts.linewidth, False)


def format_values(data: np.ndarray, dtype: DType, options: PrintOptions | None = None) -> str:
    """Just the values part of the repr (`[0.5000, 1.0000]`, `2400.`), for table cells."""
    opts = PRINT_OPTS if options is None else options
    data = np.asarray(data)
    if data.size == 0:
        return "[]"
    return _tensor_str(data, dtype.is_floating_point, 0, opts)


def format_size(shape: tuple[int, ...]) -> str:
    """What print(t.shape) shows: `torch.Size([2, 3])`."""
    return f"torch.Size([{', '.join(str(int(n)) for n in shape)}])"


def format_scalar(value: Any, dtype: DType) -> str:
    """What Python prints for t.item(): `6.0`, `1e-05`, `True`, `3`.

    `value` may be a NumPy scalar, a 0-d array or a Python number. A float32 value prints
    widened to double, as .item() returns it: 0.1 in float32 prints `0.10000000149011612`.
    """
    scalar = np.asarray(value, dtype=dtype.np).item()
    if dtype.is_complex:
        return repr(complex(scalar))
    if dtype.is_floating_point:
        return repr(float(scalar))
    if dtype is dtypes.bool_:
        return repr(bool(scalar))
    return repr(int(scalar))
