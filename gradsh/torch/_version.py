"""torch.__version__: the version of the PyTorch build gradsh follows (the CPU wheel of 2.13.0):
programs print it, and their output must be PyTorch's. gradsh's own version is
`gradsh.__version__` (`gradsh --version`)."""

from __future__ import annotations


class TorchVersion(str):
    """A version string that compares with others as versions do (`torch.__version__ >=
    "2.0"`), like PyTorch's TorchVersion."""

    def _key(self, other: object) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return _numbers(str(self)), _numbers(other if isinstance(other, str) else
                                              ".".join(map(str, other)))  # type: ignore[arg-type]

    def __lt__(self, other: object) -> bool:
        a, b = self._key(other)
        return a < b

    def __le__(self, other: object) -> bool:
        a, b = self._key(other)
        return a <= b

    def __gt__(self, other: object) -> bool:
        a, b = self._key(other)
        return a > b

    def __ge__(self, other: object) -> bool:
        a, b = self._key(other)
        return a >= b


def _numbers(version: str) -> tuple[int, ...]:
    parts = []
    for part in version.split("+")[0].split("."):
        digits = "".join(c for c in part if c.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


__version__ = TorchVersion("2.13.0+cpu")
