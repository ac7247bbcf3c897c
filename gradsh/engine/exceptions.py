"""The errors and warnings the engine raises, named and worded as PyTorch's."""

from __future__ import annotations

from collections.abc import Callable


class TorchError(Exception):
    """An error PyTorch would raise; `kind` is the Python exception type PyTorch uses."""

    kind = "RuntimeError"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class TorchRuntimeError(TorchError):
    kind = "RuntimeError"


class TorchTypeError(TorchError):
    kind = "TypeError"


class TorchValueError(TorchError):
    kind = "ValueError"


class TorchIndexError(TorchError):
    kind = "IndexError"


class TorchNotImplementedError(TorchError):
    kind = "NotImplementedError"


# Warnings go to whoever runs the engine (the interpreter collects them per statement). The
# default handler drops them so the engine can be used on its own without output.
WarningHandler = Callable[[str, str], None]
_handler: list[WarningHandler] = [lambda category, message: None]


def warn(message: str, category: str = "UserWarning") -> None:
    _handler[-1](category, message)


def set_warning_handler(handler: WarningHandler) -> WarningHandler:
    """Install `handler` and return the previous one."""
    previous = _handler[-1]
    _handler[-1] = handler
    return previous
