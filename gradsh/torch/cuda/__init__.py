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
