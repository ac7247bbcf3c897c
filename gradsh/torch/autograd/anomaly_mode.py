"""torch.autograd.detect_anomaly and set_detect_anomaly: while on, each node remembers where its
forward ran, and a backward that fails (or returns NaN) says so, as in
torch/autograd/anomaly_mode.py."""

from __future__ import annotations

import os
import traceback
import warnings
from typing import Any

from gradsh.engine.tensor import Anomaly

__all__ = ["detect_anomaly", "is_anomaly_check_nan_enabled", "is_anomaly_enabled",
           "set_detect_anomaly"]

_GRADSH_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _python_stack() -> Any:
    """The forward's location: the program's own frames (gradsh's left out), formatted as
    PyTorch prints them; the engine's origin (a .grad statement) when no frame is the user's."""
    frames = [f for f in traceback.extract_stack()[:-3]
              if not os.path.abspath(f.filename).startswith(_GRADSH_DIR + os.sep)
              and not f.filename.startswith("<frozen ")]
    if not frames:
        from gradsh.engine.grad_mode import current_origin

        return current_origin()
    return "".join(traceback.format_list(frames)).rstrip("\n")


Anomaly.trace = staticmethod(_python_stack)  # type: ignore[assignment]


def is_anomaly_enabled() -> bool:
    return Anomaly.enabled


def is_anomaly_check_nan_enabled() -> bool:
    return Anomaly.check_nan


class detect_anomaly:  # noqa: N801  (PyTorch's name)
    """Context manager (and decorator) turning anomaly detection on inside."""

    def __init__(self, check_nan: bool = True) -> None:
        self.prev = Anomaly.enabled
        self.check_nan = check_nan
        self.prev_check_nan = Anomaly.check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self) -> None:
        Anomaly.enabled, Anomaly.check_nan = True, self.check_nan

    def __exit__(self, *args: Any) -> None:
        Anomaly.enabled, Anomaly.check_nan = self.prev, self.prev_check_nan

    def __call__(self, func: Any) -> Any:
        import functools

        @functools.wraps(func)
        def decorated(*args: Any, **kwargs: Any) -> Any:
            with self.__class__(self.check_nan):
                return func(*args, **kwargs)

        return decorated


class set_detect_anomaly:  # noqa: N801
    """Sets anomaly detection on or off at once; as a context manager, restores it on exit."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = Anomaly.enabled
        self.prev_check_nan = Anomaly.check_nan
        Anomaly.enabled, Anomaly.check_nan = bool(mode), bool(check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *args: Any) -> None:
        Anomaly.enabled, Anomaly.check_nan = self.prev, self.prev_check_nan
