"""How much memory and work a run may take, so that a script cannot exhaust the machine.

The memory limit bounds the process, not one tensor: gradsh measures its resident memory
(RSS) when the limit is set, and an allocation whose size the script chose (a creation call, a
broadcast, a copy, an op's large temporaries) is refused before it is made when the memory in
use since then plus the size asked for would pass the limit. The default is half of the memory
available when gradsh starts; `--max-memory` or GRADSH_MAX_MEMORY change it. What no check
foresees (many small tensors, a temporary inside NumPy) is caught by `watch`, a watchdog
thread that stops the run once its memory passes the limit (see `watch`).

Work is bounded too: one operation may not read more elements than any memory could hold
(`check_reads`), so `ones(1).expand(10**6, 10**6).sum()` is refused at once instead of running
for hours.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

from gradsh.engine import buffers
from gradsh.engine.exceptions import LimitExceeded

_UNITS = {"": 1, "b": 1, "k": 2**10, "kb": 2**10, "kib": 2**10, "m": 2**20, "mb": 2**20,
          "mib": 2**20, "g": 2**30, "gb": 2**30, "gib": 2**30, "t": 2**40, "tb": 2**40,
          "tib": 2**40}

# Below this size an allocation is compared with the limit but not with the memory in use: the
# measurement (one read of /proc/self/statm, about 1.5 microseconds) would cost more than it saves.
MEASURED_FROM = 1 << 20
# An operation may read at most this many elements (and more only if they could all be in
# memory at once): about a minute of NumPy at one nanosecond per element.
MAX_READS = 1 << 36
# What gradsh itself may take beyond the limit before the watchdog acts: lazily imported
# modules, rendering, the autograd graph's small objects.
SLACK = 64 << 20
WATCH_INTERVAL = 0.02  # seconds between two looks at the process's memory


def available_memory() -> int:
    """Bytes of memory available now (MemAvailable on Linux; a conservative guess elsewhere)."""
    value = _meminfo("MemAvailable:")
    if value is not None:
        return value
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30


def _meminfo(field: str) -> int | None:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def parse_size(text: str) -> int:
    """`512M`, `2G`, `1.5GiB`, `1000000` -> bytes (ValueError when unreadable)."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([a-zA-Z]*)\s*", text)
    if not match or match.group(2).lower() not in _UNITS:
        raise ValueError(f"not a size: {text!r} (examples: 512M, 2G, 1.5GiB)")
    size = float(match.group(1)) * _UNITS[match.group(2).lower()]
    if size >= 2**63:
        raise ValueError(f"not a size gradsh can use: {text!r} (at most 8 EiB)")
    return int(size)


def format_size(n: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.2f} {unit}"
        n /= 1024
    return f"{n:.2f} EiB"


class _Resident:
    """The process's resident memory, read from /proc/self/statm (None where there is none)."""

    fd: int | None = None
    page = 4096
    unavailable = not sys.platform.startswith("linux")


def resident_memory() -> int | None:
    """Bytes of this process's memory resident now, or None where gradsh cannot tell."""
    if _Resident.unavailable:
        return None
    try:
        if _Resident.fd is None:
            _Resident.fd = os.open("/proc/self/statm", os.O_RDONLY)
            _Resident.page = os.sysconf("SC_PAGE_SIZE")
        return int(os.pread(_Resident.fd, 128, 0).split()[1]) * _Resident.page
    except (OSError, ValueError, IndexError):
        _Resident.unavailable = True
        return None


class Limit:
    """The memory a run may use (None: the default), and the resident memory it started from."""

    max_bytes: int | None = None
    _default: int | None = None
    baseline: int | None = None  # RSS when the limit was set: gradsh's own start-up footprint

    @classmethod
    def current(cls) -> int:
        if cls.max_bytes is not None:
            return cls.max_bytes
        if cls._default is None:
            env = os.environ.get("GRADSH_MAX_MEMORY")
            try:
                cls._default = parse_size(env) if env else available_memory() // 2
            except ValueError:
                cls._default = available_memory() // 2
        return cls._default


def set_max_memory(n_bytes: int | None) -> None:
    """Set the limit (None: the default) and count the memory in use from now on."""
    Limit.max_bytes = n_bytes
    Limit.baseline = resident_memory()


def in_use() -> int:
    """Bytes the process has taken since the limit was set (0 where gradsh cannot tell)."""
    now = resident_memory()
    if now is None:
        return 0
    if Limit.baseline is None:
        Limit.baseline = now
    return max(0, now - Limit.baseline)


class MemoryLimitError(LimitExceeded):
    """An allocation refused by gradsh's memory limit: one of gradsh's own stops (the statement
    is undone), shown and caught as the RuntimeError PyTorch's allocator raises."""


_HOW = "set it with --max-memory or GRADSH_MAX_MEMORY"


def check(shape: tuple[int, ...], itemsize: int, extra: int = 0) -> None:
    """Refuse a tensor of `shape` (and `extra` bytes of temporaries the op needs while making
    it) whose size would pass the memory limit, before allocating it."""
    numel = 1
    for n in shape:
        numel *= n
    size = numel * itemsize
    need = size + extra
    limit = Limit.current()
    if need < MEASURED_FROM and need <= limit:
        return
    dims = ", ".join(str(n) for n in shape)
    what = f"{format_size(size)} for a tensor of shape [{dims}]"
    if extra:
        what += f" and {format_size(extra)} of working memory"
    _refuse_over_limit(need, what, limit)


def reserve(nbytes: int, what: str) -> None:
    """Refuse `nbytes` of memory for `what` (e.g. "the JSON text of a step") when they would
    pass the memory limit, before they are taken."""
    limit = Limit.current()
    if nbytes < MEASURED_FROM and nbytes <= limit:
        return
    _refuse_over_limit(nbytes, f"{format_size(nbytes)} for {what}", limit)


def _refuse_over_limit(need: int, what: str, limit: int) -> None:
    if need > limit:
        raise MemoryLimitError(f"refusing to allocate {what}: gradsh's memory limit is "
                               f"{format_size(limit)} ({_HOW})")
    used = in_use()
    if used + need > limit:
        buffers.trim()  # the free large arrays kept for reuse count as resident: not theirs
        used = in_use()
    if used + need > limit:
        raise MemoryLimitError(
            f"refusing to allocate {what}: the run already uses {format_size(used)} of "
            f"gradsh's memory limit of {format_size(limit)} ({_HOW})")
    if need >= SLACK:
        free = _meminfo("MemAvailable:")
        if free is not None and need > free:
            raise MemoryLimitError(f"refusing to allocate {what}: the machine has only "
                                   f"{format_size(free)} of memory available now")


def check_reads(numel: int, shape: tuple[int, ...], what: str = "elements") -> None:
    """Refuse an operation that would read `numel` elements (a view of `shape`) when that many
    could never be in memory at once: work out of all proportion, refused before it starts."""
    if numel <= MAX_READS or numel <= Limit.current():
        return
    dims = ", ".join(str(n) for n in shape)
    raise MemoryLimitError(
        f"refusing an operation that reads {numel:,} {what} (a tensor of shape [{dims}]): "
        f"gradsh does at most {MAX_READS:,} in one operation")


# ----------------------------------------------------------------------------- the watchdog


class MemoryLimitStop(MemoryError):
    """Raised in the main thread when the watchdog finds the run past its memory limit (shown
    and caught as Python's MemoryError)."""


MemoryLimitStop.__name__ = MemoryLimitStop.__qualname__ = "MemoryError"
MemoryLimitStop.__module__ = "builtins"


class _Watch:
    active = False
    fired_at: int | None = None  # the memory in use when the watchdog last stopped the run


STOP_SIGNAL = getattr(signal, "SIGUSR2", None)


def thresholds(limit: int) -> tuple[int, int]:
    """The memory in use at which the watchdog stops the running statement, and at which it
    ends the process when the statement cannot be stopped (one long NumPy call)."""
    slack = max(SLACK, limit // 8)
    return limit + slack, limit + 2 * slack


@contextlib.contextmanager
def watch(exit_code: int = 1) -> Iterator[None]:
    """Watch the process's memory while the block runs (the main thread only; a no-op where
    gradsh cannot read its memory, or when already watching).

    Past `thresholds()[0]` the main thread gets MemoryLimitStop at its next Python step (the
    statement is stopped and undone); every further SLACK of growth stops it again. Past
    `thresholds()[1]`, which only a computation NumPy will not interrupt reaches, the watchdog
    writes a one-line MemoryError and ends the process with `exit_code`: never the OS's
    out-of-memory killer."""
    if (_Watch.active or STOP_SIGNAL is None or resident_memory() is None
            or threading.current_thread() is not threading.main_thread()):
        yield
        return
    done = threading.Event()

    def stop(signum: int, frame: Any) -> None:
        raise MemoryLimitStop(
            f"the run used {format_size(_Watch.fired_at or 0)}, over gradsh's memory limit of "
            f"{format_size(Limit.current())} ({_HOW}); stopped")

    def poll() -> None:
        import _thread

        while not done.wait(WATCH_INTERVAL):
            used = in_use()
            soft, hard = thresholds(Limit.current())
            if used > hard:
                message = (f"gradsh: MemoryError: the run used {format_size(used)}, past "
                           f"gradsh's memory limit of {format_size(Limit.current())}, inside "
                           "one computation that could not be interrupted; stopped\n")
                os.write(2, message.encode())
                os._exit(exit_code)
            if used <= soft:
                _Watch.fired_at = None
            elif _Watch.fired_at is None or used > _Watch.fired_at + SLACK:
                _Watch.fired_at = used
                _thread.interrupt_main(STOP_SIGNAL)

    previous = signal.signal(STOP_SIGNAL, stop)
    thread = threading.Thread(target=poll, name="gradsh-memory-watch", daemon=True)
    _Watch.active, _Watch.fired_at = True, None
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        _Watch.active = False
        signal.signal(STOP_SIGNAL, previous)
