"""Where arrays live: NumPy for cpu; CuPy for cuda:0, or NumPy again when cuda:0 is simulated.

A tensor's `device` names where its array lives; this module is the only one that knows which
array module serves a device, the only one that imports CuPy (lazily, on the first use of
cuda), and the only one that copies arrays between host and device:

- `check(device)` makes a device usable or raises the one clear error naming both remedies;
- `module(device)` is numpy or cupy; `to_device(array, device)` and `to_host(array)` copy;
- `host_kernel` runs a kernel written in NumPy on device arrays, copying both ways;
- `place(array, device)` is what `Tensor._make` calls when an array may be on the wrong side:
  it copies and counts the copy (`implicit_copies`), so tests can assert that no operation
  computed on the host what it should have computed on the device.

Random numbers are always drawn on the host (gradsh.engine.random) and copied, so a seeded
script gives the same numbers on every device.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from gradsh.engine import dtypes, meta
from gradsh.engine.exceptions import TorchAssertionError, TorchRuntimeError

TORCH_UNAVAILABLE = "Torch not compiled with CUDA enabled"
SIM_CUDA_NOTICE = "gradsh: simulating cuda:0 on the CPU (--sim-cuda): the numbers come from NumPy"

UNAVAILABLE = (
    "CUDA is not available ({reason}): install CuPy on a machine with an NVIDIA GPU "
    "(pip install 'gradsh[cuda]'), or run gradsh with --sim-cuda (or GRADSH_SIM_CUDA=1) to "
    "simulate cuda:0 on the CPU"
)


class _State:
    sim_cuda = False
    # Python programs see a CPU build of PyTorch's error where cuda:0 is missing; .grad
    # scripts see gradsh's, which names the remedies.
    torch_errors = False
    # CuPy once the first use of cuda found it working; `real` is True while cuda:0 arrays are
    # CuPy arrays (CuPy loaded and not simulating), which is when arrays ever need copying.
    cupy: ModuleType | None = None
    real = False
    failure: str | None = None  # why CuPy could not be used (remembered: asked once)
    implicit_copies = 0


state = _State  # read by the engine's hot paths: `backend.state.real`


# ---------------------------------------------------------------------------------------------
# Simulating cuda:0
# ---------------------------------------------------------------------------------------------


def enable_sim_cuda() -> None:
    """Simulate the cuda:0 device on the CPU: every device rule holds, arrays stay NumPy."""
    _State.sim_cuda = True
    _State.real = False


def disable_sim_cuda() -> None:
    _State.sim_cuda = False
    _State.real = _State.cupy is not None


def sim_cuda_enabled() -> bool:
    return _State.sim_cuda


# ---------------------------------------------------------------------------------------------
# CuPy, loaded on first use
# ---------------------------------------------------------------------------------------------


def _load_cupy() -> ModuleType:
    if _State.cupy is not None:
        return _State.cupy
    if _State.failure is None:
        _State.failure = _try_cupy()
    if _State.failure:
        if _State.torch_errors:
            raise TorchAssertionError(TORCH_UNAVAILABLE)
        raise TorchRuntimeError(UNAVAILABLE.format(reason=_State.failure))
    assert _State.cupy is not None
    return _State.cupy


def _try_cupy() -> str:
    """Import CuPy and find a GPU: '' on success, else the reason in a few words."""
    try:
        import cupy
    except ImportError:
        return "CuPy is not installed"
    except Exception as error:  # noqa: BLE001  (a broken CUDA install fails in many ways)
        return f"CuPy failed to import: {error}"
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as error:  # noqa: BLE001  (CUDARuntimeError: no driver, no device ...)
        return f"CuPy found no usable GPU: {error}"
    if count < 1:
        return "CuPy found no GPU"
    _State.cupy = cupy
    _State.real = not _State.sim_cuda
    return ""


def reset() -> None:
    """Forget CuPy and any failure to load it (tests swap the `cupy` module)."""
    _State.cupy = None
    _State.real = False
    _State.failure = None
    _State.implicit_copies = 0


def check(device: str) -> None:
    """Make `device` usable, or raise the error that names both remedies."""
    if device == "cpu" or device == "meta" or _State.sim_cuda:
        return
    _load_cupy()  # without a GPU: PyTorch's CPU build's "Torch not compiled with CUDA enabled"
    if device != "cuda:0":
        raise TorchRuntimeError(f"gradsh has one CUDA device, cuda:0; got {device}")


def cuda_available() -> bool:
    """torch.cuda.is_available(): a real GPU through CuPy (the simulated one does not count)."""
    return unavailable_reason() is None


def unavailable_reason() -> str | None:
    """Why there is no real cuda:0 here ("CuPy is not installed" ...), or None if there is."""
    try:
        _load_cupy()
    except (TorchRuntimeError, TorchAssertionError):
        return _State.failure
    return None


def use_torch_errors(on: bool = True) -> None:
    """Raise what a CPU build of PyTorch raises for a missing cuda:0 (Python programs)."""
    _State.torch_errors = on


def cupy_if_loaded() -> ModuleType | None:
    return _State.cupy


# ---------------------------------------------------------------------------------------------
# Array modules and copies
# ---------------------------------------------------------------------------------------------


def module(device: str) -> Any:
    """The array module computing for `device`: numpy, or cupy for a real cuda:0."""
    if device == "cpu" or device == "meta" or not _State.real:
        return np
    return _State.cupy


def is_device_array(array: Any) -> bool:
    cupy = _State.cupy
    return cupy is not None and isinstance(array, cupy.ndarray)


def array_module(array: Any) -> Any:
    """The module of an array that is not NumPy's (a CuPy array)."""
    if is_device_array(array):
        return _State.cupy
    return np


def to_host(array: Any) -> np.ndarray:
    """`array` in host memory (a copy only when it was on the device)."""
    if isinstance(array, np.ndarray):
        return array
    if is_device_array(array):
        return _State.cupy.asnumpy(array)  # type: ignore[union-attr]
    return np.asarray(array)


def to_device(array: Any, device: str) -> Any:
    """`array` in `device`'s memory: an explicit copy (creation, .to(), .cuda(), .cpu())."""
    if device == "cpu":
        return to_host(array)
    if device == "meta":
        return meta.like(array)
    if not _State.real:
        return array
    _check_gpu_dtype(array)
    return _State.cupy.asarray(array)  # type: ignore[union-attr]


def _check_gpu_dtype(array: Any) -> None:
    if getattr(array, "dtype", None) == dtypes.BF16_NP:
        raise TorchRuntimeError(
            "gradsh's cuda device runs on CuPy, which has no bfloat16: keep bfloat16 tensors on "
            "the cpu, or simulate the device with --sim-cuda")


def place(array: Any, device: str) -> Any:
    """`array` as a tensor on `device` must hold it, copied (and counted) if it is not there.

    Operations compute where their inputs live, so a copy here means an operation computed on
    the wrong side: the tests assert `implicit_copies` stays 0 while the op table runs.
    """
    if device == "cpu":
        if isinstance(array, np.ndarray):
            return array
        if is_device_array(array):
            _State.implicit_copies += 1
            return _State.cupy.asnumpy(array)  # type: ignore[union-attr]
        return np.asarray(array)
    if device == "meta":
        return meta.like(array)
    if not _State.real or is_device_array(array):
        return array
    _check_gpu_dtype(array)
    _State.implicit_copies += 1
    return _State.cupy.asarray(array)  # type: ignore[union-attr]


def host_kernel(kernel: Callable[..., Any]) -> Callable[..., Any]:
    """`kernel`, written in NumPy, also for device arrays: the arrays among its positional
    arguments are copied to the host and the arrays it returns (alone or in a tuple) back.

    For LAPACK's algorithms that gradsh writes out itself (torch.linalg's LU, Cholesky,
    decompositions): their pivots, info and failure points are PyTorch's only as written, so a
    device computes them where the CPU does, through explicit copies (not `implicit_copies`).
    """

    @functools.wraps(kernel)
    def run(*args: Any, **kwargs: Any) -> Any:
        if not _State.real or not any(map(is_device_array, args)):
            return kernel(*args, **kwargs)
        host = tuple(to_host(a) if is_device_array(a) else a for a in args)
        return _to_device_all(kernel(*host, **kwargs))

    return run


def _to_device_all(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_to_device_all(v) for v in value)
    if isinstance(value, (np.ndarray, np.generic)):
        return _State.cupy.asarray(value)  # type: ignore[union-attr]
    return value


def implicit_copies() -> int:
    return _State.implicit_copies


def synchronize() -> None:
    """Wait for the GPU to finish queued work (timings); nothing to wait for without one."""
    if _State.real:
        _State.cupy.cuda.Device().synchronize()  # type: ignore[union-attr]
