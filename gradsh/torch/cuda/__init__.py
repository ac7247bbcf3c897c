"""torch.cuda: whether cuda:0 is there (CuPy with a GPU, or gradsh's --sim-cuda)."""

from __future__ import annotations

from typing import Any

from gradsh.engine import backend
from gradsh.engine.exceptions import TorchAssertionError
from gradsh.torch._missing import module_getattr

_missing_attribute = module_getattr("torch.cuda")


def __getattr__(name: str) -> Any:
    if name == "amp":  # imported on first use: torch.cuda.amp.GradScaler after `import torch`
        import importlib

        return importlib.import_module("gradsh.torch.cuda.amp")
    return _missing_attribute(name)


def _legacy_types() -> dict[str, type]:
    """torch.cuda.FloatTensor and friends (old code picks one: `dtype = torch.cuda.FloatTensor
    if use_cuda else torch.FloatTensor`)."""
    from gradsh.engine import dtypes
    from gradsh.torch._python_api import legacy_cuda_type

    kinds = (dtypes.float32, dtypes.float64, dtypes.float16, dtypes.bfloat16, dtypes.int64,
             dtypes.int32, dtypes.int16, dtypes.int8, dtypes.uint8, dtypes.bool_)
    return {d.legacy: legacy_cuda_type(d) for d in kinds}


globals().update(_legacy_types())

from gradsh.torch.cuda import amp  # noqa: E402  (torch.cuda.amp.autocast, GradScaler)


def is_available() -> bool:
    """True with --sim-cuda, or when CuPy finds a GPU (checked without importing CuPy when it
    is not installed)."""
    if backend.sim_cuda_enabled():
        return True
    import importlib.util

    if importlib.util.find_spec("cupy") is None:
        return False
    return backend.cuda_available()


def device_count() -> int:
    return 1 if is_available() else 0


def _require_device() -> None:
    """PyTorch's CPU build (the reference) fails a device query as its lazy init does."""
    if not is_available():
        raise TorchAssertionError(backend.TORCH_UNAVAILABLE)


def current_device() -> int:
    _require_device()
    return 0


def get_device_name(device: Any = None) -> str:
    _require_device()
    return "gradsh simulated cuda:0" if backend.sim_cuda_enabled() else "NVIDIA GPU (CuPy)"


def is_initialized() -> bool:
    return False


def manual_seed(seed: int) -> None:
    """gradsh draws cuda:0's random numbers on the host from the global generator."""


def manual_seed_all(seed: int) -> None:
    """See manual_seed."""


def synchronize(device: Any = None) -> None:
    backend.synchronize()


def empty_cache() -> None:
    """Nothing is cached."""


class Stream:
    """torch.cuda.Stream: named in annotations and `if cuda` branches (labml's ZeRO-3 layer
    declares `Optional[torch.cuda.Stream]`); making one needs CUDA, as on PyTorch's CPU build.
    With --sim-cuda a stream is one queue, so its operations do nothing."""

    def __init__(self, device: Any = None, priority: int = 0, **kwargs: Any) -> None:
        if not is_available():
            from gradsh.engine.exceptions import TorchRuntimeError

            raise TorchRuntimeError("torch.cuda.Stream requires CUDA support")

    def synchronize(self) -> None:
        pass

    def wait_stream(self, stream: Any) -> None:
        pass

    def query(self) -> bool:
        return True


class Event:
    """torch.cuda.Event: on PyTorch's CPU build a dummy base class that refuses to be made."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from gradsh.engine.exceptions import TorchRuntimeError

        raise TorchRuntimeError("Tried to instantiate dummy base class Event")


Stream.__module__ = Event.__module__ = "torch.cuda.streams"
