"""torch.testing: assert_close (and the deprecated assert_allclose) and make_tensor, as
torch/testing/_comparison.py and _creation.py behave: inputs are paired up (None, booleans,
numbers, tensor-likes, sequences and mappings item by item), and the first pair that differs
raises PyTorch's message, with the greatest differences and where they are."""

from __future__ import annotations

import cmath
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from gradsh.engine import dtypes, ops
from gradsh.engine.tensor import Tensor
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.testing")

__all__ = ["assert_allclose", "assert_close", "make_tensor"]

# (rtol, atol) per dtype; any other dtype compares exactly
_TOLERANCES = {dtypes.float16: (1e-3, 1e-5), dtypes.bfloat16: (1.6e-2, 1e-5),
               dtypes.float32: (1.3e-6, 1e-5), dtypes.float64: (1e-7, 1e-7)}
_NUMBER_DTYPES = {int: dtypes.int64, float: dtypes.float64}


class _Unsupported(Exception):
    """This kind of pair cannot compare these inputs: the next kind tries."""


class _Mismatch(Exception):
    """A pair that differs: the error to raise and where in the inputs it was found."""

    def __init__(self, kind: type[Exception], msg: str, where: tuple[Any, ...] = ()) -> None:
        super().__init__(msg)
        self.kind, self.msg, self.where = kind, msg, where

    def to_error(self, msg: str | Callable[[str], str] | None) -> Exception:
        if isinstance(msg, str):
            return self.kind(msg)
        text = self.msg
        if self.where:
            text += "\n\nThe failure occurred for item " + "".join(
                str([item]) for item in self.where)
        return self.kind(msg(text) if callable(msg) else text)


def _tolerances(*kinds: Any, rtol: float | None, atol: float | None,
                table: dict[Any, tuple[float, float]] = _TOLERANCES) -> tuple[float, float]:
    if (rtol is None) != (atol is None):
        raise ValueError("Both 'rtol' and 'atol' must be either specified or omitted, but got "
                         f"no {'rtol' if rtol is None else 'atol'}.")
    if rtol is not None and atol is not None:
        return rtol, atol
    pairs = [table.get(kind, (0.0, 0.0)) for kind in kinds]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _diff_line(kind: str, diff: Any, index: Any, tol: float, equality: bool) -> str:
    line = (f"{kind.title()} difference: {diff}" if index is None
            else f"Greatest {kind} difference: {diff} at index {index}")
    return line + ("" if equality else f" (up to {tol} allowed)") + "\n"


def _mismatch_text(name: str, extra: str, abs_diff: Any, abs_at: Any, rel_diff: Any,
                   rel_at: Any, rtol: float, atol: float) -> str:
    equality = rtol == 0 and atol == 0
    text = f"{name} are not {'equal' if equality else 'close'}!\n\n{extra.strip()}\n"
    text += _diff_line("absolute", abs_diff, abs_at, atol, equality)
    text += _diff_line("relative", rel_diff, rel_at, rtol, equality)
    return text.strip()


def _scalar_text(actual: Any, expected: Any, rtol: float, atol: float) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_text("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None,
                          rel_diff, None, rtol, atol)


def _tensor_text(actual: Tensor, expected: Tensor, matches: Tensor, rtol: float,
                 atol: float) -> str:
    count = matches.numel()
    bad = count - int(ops.sum(matches).item())
    extra = f"Mismatched elements: {bad} / {count} ({bad / count:.1%})"
    a, e, same = ops.flatten(actual), ops.flatten(expected), ops.flatten(matches)
    if not actual.dtype.is_floating_point:
        a, e = ops.to(a, dtypes.int64), ops.to(e, dtypes.int64)
    abs_diff = ops.abs(ops.sub(a, e))
    abs_diff[same] = 0
    rel_diff = ops.div(abs_diff, ops.abs(e))
    rel_diff[same] = 0
    worst_abs, abs_at = ops.max(abs_diff, 0)
    worst_rel, rel_at = ops.max(rel_diff, 0)
    shape = tuple(matches.shape)
    return _mismatch_text("Tensor-likes", extra, worst_abs.item(),
                          tuple(int(i) for i in np.unravel_index(int(abs_at), shape)),
                          worst_rel.item(),
                          tuple(int(i) for i in np.unravel_index(int(rel_at), shape)),
                          rtol, atol)


def _compare_none(actual: Any, expected: Any, **_: Any) -> None:
    if actual is not None and expected is not None:
        raise _Unsupported
    if not (actual is None and expected is None):
        raise _Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}")


def _compare_bool(actual: Any, expected: Any, **_: Any) -> None:
    kinds = (bool, np.bool_)
    if not (isinstance(actual, kinds) and isinstance(expected, kinds)):
        raise _Unsupported
    if bool(actual) is not bool(expected):
        raise _Mismatch(AssertionError, f"Booleans mismatch: {actual} is not {expected}")


def _compare_number(actual: Any, expected: Any, *, rtol: float | None, atol: float | None,
                    equal_nan: bool, check_dtype: bool, **_: Any) -> None:
    kinds = (int, float, np.number)
    if not (isinstance(actual, kinds) and isinstance(expected, kinds)) or \
            isinstance(actual, bool) or isinstance(expected, bool):
        raise _Unsupported
    if check_dtype and type(actual) is not type(expected):
        raise _Mismatch(AssertionError, f"The (d)types do not match: {type(actual)} != "
                        f"{type(expected)}.")
    a, e = (x.item() if isinstance(x, np.number) else x for x in (actual, expected))
    rtol, atol = _tolerances(*(_NUMBER_DTYPES.get(type(x), dtypes.float64) for x in (a, e)),
                             rtol=rtol, atol=atol)
    if equal_nan and cmath.isnan(a) and cmath.isnan(e):
        return
    abs_diff = abs(a - e)
    if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(e):
        return
    raise _Mismatch(AssertionError, _scalar_text(a, e, rtol, atol))


def _as_tensor(value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return value
    from gradsh.torch._functions import as_tensor

    try:
        return as_tensor(value)
    except Exception as error:  # noqa: BLE001  (anything as_tensor refuses is unsupported)
        raise _Unsupported from error


def _compare_tensors(actual: Any, expected: Any, *, rtol: float | None, atol: float | None,
                     equal_nan: bool, check_dtype: bool, allow_subclasses: bool,
                     check_device: bool = True, **_: Any) -> None:
    if not (isinstance(actual, type(expected)) or isinstance(expected, type(actual))):
        raise _Unsupported
    if not allow_subclasses and type(actual) is not type(expected):
        raise _Unsupported
    a, e = _as_tensor(actual), _as_tensor(expected)
    rtol, atol = _tolerances(a.dtype, e.dtype, rtol=rtol, atol=atol)
    checks = [("shape", a.shape, e.shape)]
    if check_device:
        checks.append(("device", a.device, e.device))
    if check_dtype:
        checks.append(("dtype", a.dtype, e.dtype))
    for name, x, y in checks:
        if x != y:
            raise _Mismatch(AssertionError, f"The values for attribute '{name}' do not match: "
                                            f"{x} != {y}.")
    a, e = ops.detach(a), ops.detach(e)
    if a.dtype is not e.dtype:
        common = dtypes.promote_types(a.dtype, e.dtype)
        a, e = ops.to(a, common), ops.to(e, common)
    if a.device != e.device:
        a, e = ops.to(a, "cpu"), ops.to(e, "cpu")
    matches = ops.isclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if bool(ops.all(matches)):
        return
    if a.ndim == 0:
        raise _Mismatch(AssertionError, _scalar_text(a.item(), e.item(), rtol, atol))
    raise _Mismatch(AssertionError, _tensor_text(a, e, matches, rtol, atol))


_PAIRS = (_compare_none, _compare_bool, _compare_number, _compare_tensors)


def _compare(actual: Any, expected: Any, where: tuple[Any, ...], **options: Any) -> None:
    """Raise _Mismatch for the first item that differs (nested sequences and mappings are
    walked as PyTorch's originate_pairs walks them)."""
    both = (actual, expected)
    if all(isinstance(x, Sequence) and not isinstance(x, str) for x in both):
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError, f"The length of the sequences mismatch: "
                                            f"{len(actual)} != {len(expected)}", where)
        for i, (x, y) in enumerate(zip(actual, expected)):
            _compare(x, y, (*where, i), **options)
        return
    if all(isinstance(x, Mapping) for x in both):
        keys, wanted = set(actual.keys()), set(expected.keys())
        if keys != wanted:
            raise _Mismatch(AssertionError, "The keys of the mappings do not match:\nMissing "
                            f"keys in the actual mapping: {sorted(wanted - keys)}\nAdditional "
                            f"keys in the actual mapping: {sorted(keys - wanted)}", where)
        try:
            order = sorted(keys)
        except TypeError:
            order = list(keys)
        for key in order:
            _compare(actual[key], expected[key], (*where, key), **options)
        return
    for pair in _PAIRS:
        try:
            pair(actual, expected, **options)
            return
        except _Unsupported:
            continue
        except _Mismatch as error:
            error.where = where
            raise
    raise TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} and "
                    f"{type(expected)}.")


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True,
                 rtol: float | None = None, atol: float | None = None, equal_nan: bool = False,
                 check_device: bool = True, check_dtype: bool = True, check_layout: bool = True,
                 check_stride: bool = False, msg: str | Callable[[str], str] | None = None,
                 **_: Any) -> None:
    """Raise AssertionError (PyTorch's text) unless actual and expected are close."""
    try:
        _compare(actual, expected, (), rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_dtype=check_dtype, check_device=check_device,
                 allow_subclasses=allow_subclasses)
    except _Mismatch as error:
        raise error.to_error(msg) from None


def assert_allclose(actual: Any, expected: Any, rtol: float | None = None,
                    atol: float | None = None, equal_nan: bool = True, msg: str = "") -> None:
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be "
                  "removed in a future release. Please use `torch.testing.assert_close()` "
                  "instead. You can find detailed upgrade instructions in "
                  "https://github.com/pytorch/pytorch/issues/61844.", FutureWarning,
                  stacklevel=2)
    if not isinstance(actual, Tensor):
        actual = ops.tensor(actual)
    if not isinstance(expected, Tensor):
        expected = ops.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = _tolerances(actual.dtype, expected.dtype, rtol=None, atol=None, table={
            dtypes.float16: (1e-3, 1e-3), dtypes.float32: (1e-4, 1e-5),
            dtypes.float64: (1e-5, 1e-8)})
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_device=True, check_dtype=False, msg=msg or None)


def make_tensor(*shape: Any, dtype: Any, device: Any, low: float | None = None,
                high: float | None = None, requires_grad: bool = False, **_: Any) -> Tensor:
    """A tensor of uniform values in [low, high): randint for integers and booleans,
    uniform_ for floats, as PyTorch's (same random numbers after a seed)."""
    if len(shape) == 1 and isinstance(shape[0], Sequence):
        shape = tuple(shape[0])
    if requires_grad and dtype.category < 2:
        raise ValueError("`requires_grad=True` is not supported for boolean and integral dtypes, "
                         f"but got dtype={dtype}")
    if dtype is dtypes.bool_:
        lo, hi = _low_high(low, high, 0, 2, 0, 2, integral=True)
        return ops.randint(lo, hi, shape, device=device, dtype=dtype)
    if not dtype.is_floating_point:
        info = np.iinfo(dtype.np)
        top = int(info.max) + (1 if dtype is not dtypes.int64 else 0)
        lo, hi = _low_high(low, high, int(info.min), top, -9, 10, integral=True)
        return ops.randint(lo, hi, shape, device=device, dtype=dtype)
    info = np.finfo(dtype.np) if dtype is not dtypes.bfloat16 else None
    biggest = float(info.max) if info is not None else 3.3895313892515355e38
    lo, hi = _low_high(low, high, -biggest, biggest, -9, 9, integral=False)
    result = ops.empty(*shape, dtype=dtype, device=device)
    if hi - lo >= biggest:
        result.uniform_(lo / 2, hi / 2).mul_(2)
    else:
        result.uniform_(lo, hi)
    return result.requires_grad_(requires_grad) if requires_grad else result


def _low_high(low: float | None, high: float | None, lowest: float, highest: float,
              default_low: float, default_high: float, *, integral: bool) -> tuple[Any, Any]:
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
    if low >= high and not (low == high and not integral):
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    return (math.ceil(low), math.ceil(high)) if integral else (low, high)
