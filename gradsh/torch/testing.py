"""torch.testing: assert_close, with PyTorch's default tolerances per dtype."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.tensor import Tensor
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.testing")

_TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5),
               "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}


def assert_close(actual: Any, expected: Any, *, rtol: float | None = None,
                 atol: float | None = None, equal_nan: bool = False,
                 check_dtype: bool = True, msg: str | None = None, **_: Any) -> None:
    a = actual.detach().numpy() if isinstance(actual, Tensor) else np.asarray(actual)
    e = expected.detach().numpy() if isinstance(expected, Tensor) else np.asarray(expected)
    if a.shape != e.shape:
        raise AssertionError(msg or f"The values for attribute 'shape' do not match: "
                             f"torch.Size({list(a.shape)}) != torch.Size({list(e.shape)}).")
    if check_dtype and isinstance(actual, Tensor) and isinstance(expected, Tensor) and \
            actual.dtype is not expected.dtype:
        raise AssertionError(msg or f"The values for attribute 'dtype' do not match: "
                             f"{actual.dtype} != {expected.dtype}.")
    default_rtol, default_atol = _TOLERANCES.get(str(a.dtype), (0.0, 0.0))
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    close = np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if not close.all():
        bad = int((~close).sum())
        raise AssertionError(msg or f"Tensor-likes are not close!\n\nMismatched elements: "
                             f"{bad} / {close.size} ({100 * bad / close.size:.1f}%)")
