"""Where arrays live: NumPy for cpu; cuda:0 simulated on NumPy (--sim-cuda) or, later, CuPy."""

from __future__ import annotations

from gradsh.engine import ops


class _State:
    sim_cuda = False


_REAL_CHECK = ops.DeviceHooks.check


def _check_sim(device: str) -> None:
    if device not in ("cpu", "cuda:0"):
        _REAL_CHECK(device)


def enable_sim_cuda() -> None:
    """Simulate the cuda:0 device on the CPU: every device rule holds, arrays stay NumPy."""
    _State.sim_cuda = True
    ops.DeviceHooks.check = staticmethod(_check_sim)  # type: ignore[method-assign]


def sim_cuda_enabled() -> bool:
    return _State.sim_cuda


def disable_sim_cuda() -> None:
    _State.sim_cuda = False
    ops.DeviceHooks.check = staticmethod(_REAL_CHECK)  # type: ignore[method-assign]


SIM_CUDA_NOTICE = "gradsh: simulating cuda:0 on the CPU (--sim-cuda): the numbers come from NumPy"
