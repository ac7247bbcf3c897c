"""torch.version: the build PyTorch reports, a CPU-only one (no CUDA, HIP, ROCm or XPU)."""

from __future__ import annotations

from gradsh.torch._version import __version__

cuda: str | None = None
hip: str | None = None
rocm: str | None = None
xpu: str | None = None
debug = False
git_version = "cf30153c4c131c8164ee7798e5022d810682e2cb"  # PyTorch 2.13.0's commit

__all__ = ["__version__", "cuda", "debug", "git_version", "hip", "rocm", "xpu"]
