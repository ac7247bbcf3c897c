"""The errors and warnings the engine raises, named and worded as PyTorch's."""

from __future__ import annotations

from collections.abc import Callable


class TorchError(Exception):
    """An error PyTorch would raise; `kind` is the Python exception type PyTorch uses."""

    kind = "RuntimeError"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __reduce__(self) -> tuple[type[BaseException], tuple[str, ...]]:
        """Pickled as the builtin type it poses as (the classes below are renamed)."""
        import builtins

        return getattr(builtins, self.kind, Exception), (self.message,)


class TorchRuntimeError(TorchError, RuntimeError):
    kind = "RuntimeError"


class TorchTypeError(TorchError, TypeError):
    kind = "TypeError"


class TorchValueError(TorchError, ValueError):
    kind = "ValueError"


class TorchIndexError(TorchError, IndexError):
    kind = "IndexError"


class TorchNotImplementedError(TorchError, NotImplementedError):
    kind = "NotImplementedError"


class TorchAssertionError(TorchError, AssertionError):
    kind = "AssertionError"


class TorchOverflowError(TorchError, OverflowError):
    kind = "OverflowError"


# A Python program that catches PyTorch's errors sees Python's own types: `except RuntimeError`
# catches them, and `type(err).__name__` and a traceback's last line say `RuntimeError`, as with
# PyTorch (whose C++ errors arrive as the builtin types).
for _cls in (TorchRuntimeError, TorchTypeError, TorchValueError, TorchIndexError,
             TorchNotImplementedError, TorchAssertionError, TorchOverflowError):
    _cls.__name__ = _cls.__qualname__ = _cls.kind
    _cls.__module__ = "builtins"


class LimitExceeded(TorchRuntimeError):
    """gradsh's own stop (--max-memory, work too large to start): not PyTorch's, so the .grad
    interpreter undoes the statement it stopped."""


LimitExceeded.__name__ = LimitExceeded.__qualname__ = "RuntimeError"
LimitExceeded.__module__ = "builtins"


class TorchLinAlgError(TorchRuntimeError):
    """torch.linalg.LinAlgError (torch._C._LinAlgError): a singular or not positive-definite
    input. A RuntimeError, as in PyTorch, shown under PyTorch's class name."""

    kind = "_LinAlgError"

    def __reduce__(self) -> tuple[type[BaseException], tuple[str, ...]]:
        return RuntimeError, (self.message,)


TorchLinAlgError.__name__ = TorchLinAlgError.__qualname__ = "_LinAlgError"
TorchLinAlgError.__module__ = "torch._C"


# Warnings go to whoever runs the engine (the interpreter collects them per statement). The
# default handler drops them so the engine can be used on its own without output.
WarningHandler = Callable[[str, str], None]


def _drop(category: str, message: str) -> None:
    pass


_handler: list[WarningHandler] = [_drop]


def warn(message: str, category: str = "UserWarning") -> None:
    _handler[-1](category, message)


def set_default_warning_handler(handler: WarningHandler) -> None:
    """Deliver the warnings nobody else collects to `handler` (gradsh.torch used as a library
    makes them Python warnings); a handler installed for the moment keeps them."""
    if _handler[-1] is _drop:
        _handler[-1] = handler


def set_warning_handler(handler: WarningHandler) -> WarningHandler:
    """Install `handler` and return the previous one."""
    previous = _handler[-1]
    _handler[-1] = handler
    return previous
