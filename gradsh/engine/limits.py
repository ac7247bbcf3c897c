"""How much memory one tensor may take, so a script cannot exhaust the machine.

The limit is checked before an allocation whose size the script chose (a creation call, a
broadcast, a matrix product), and the error names the size asked for. The default is half of
the memory available when gradsh starts; `--max-memory` or GRADSH_MAX_MEMORY change it.
"""

from __future__ import annotations

import os
import re

from gradsh.engine.exceptions import LimitExceeded

_UNITS = {"": 1, "b": 1, "k": 2**10, "kb": 2**10, "kib": 2**10, "m": 2**20, "mb": 2**20,
          "mib": 2**20, "g": 2**30, "gb": 2**30, "gib": 2**30, "t": 2**40, "tb": 2**40,
          "tib": 2**40}


def available_memory() -> int:
    """Bytes of memory available now (MemAvailable on Linux; a conservative guess elsewhere)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30


def parse_size(text: str) -> int:
    """`512M`, `2G`, `1.5GiB`, `1000000` -> bytes (ValueError when unreadable)."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([a-zA-Z]*)\s*", text)
    if not match or match.group(2).lower() not in _UNITS:
        raise ValueError(f"not a size: {text!r} (examples: 512M, 2G, 1.5GiB)")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def format_size(n: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.2f} {unit}"
        n /= 1024
    return f"{n:.2f} EiB"


class Limit:
    """The largest tensor allowed, in bytes (None: unlimited)."""

    max_bytes: int | None = None
    _default: int | None = None

    @classmethod
    def current(cls) -> int:
        if cls.max_bytes is not None:
            return cls.max_bytes
        if cls._default is None:
            env = os.environ.get("GRADSH_MAX_MEMORY")
            cls._default = parse_size(env) if env else available_memory() // 2
        return cls._default


def set_max_memory(n_bytes: int | None) -> None:
    Limit.max_bytes = n_bytes


def check(shape: tuple[int, ...], itemsize: int) -> None:
    """Refuse a tensor of `shape` whose size is over the limit, before allocating it."""
    numel = 1
    for n in shape:
        numel *= n
    size = numel * itemsize
    if size > Limit.current():
        dims = ", ".join(str(n) for n in shape)
        raise LimitExceeded(
            f"refusing to allocate {format_size(size)} for a tensor of shape [{dims}]: gradsh's "
            f"memory limit is {format_size(Limit.current())} (set it with --max-memory or "
            "GRADSH_MAX_MEMORY)"
        )
