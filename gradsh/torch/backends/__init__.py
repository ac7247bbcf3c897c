"""torch.backends: the switches programs read (mps, cudnn: gradsh has neither backend;
mkldnn, mkl, openmp: on, as in PyTorch's CPU build)."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

from gradsh.engine.ops import attention as _attention
from gradsh.engine.ops import rnn as _rnn_ops
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.backends")

mps = SimpleNamespace(is_available=lambda: False, is_built=lambda: False)
cudnn = SimpleNamespace(enabled=True, benchmark=False, deterministic=False,
                        is_available=lambda: False, version=lambda: None,
                        allow_tf32=True)


def _sdp_switch(name: str) -> tuple[Callable[[], bool], Callable[[bool], None]]:
    """torch.backends.cuda's <name>_sdp_enabled() and enable_<name>_sdp(enabled): the switches
    F.scaled_dot_product_attention reads (engine/ops/attention.py's SDP_ENABLED)."""

    def enabled() -> bool:
        return _attention.SDP_ENABLED[name]

    def enable(enabled: bool) -> None:
        _attention.SDP_ENABLED[name] = bool(enabled)

    return enabled, enable


_SDP = {name: _sdp_switch(name) for name in ("flash", "mem_efficient", "math", "cudnn")}
cuda = SimpleNamespace(is_built=lambda: False,
                       flash_sdp_enabled=_SDP["flash"][0], enable_flash_sdp=_SDP["flash"][1],
                       mem_efficient_sdp_enabled=_SDP["mem_efficient"][0],
                       enable_mem_efficient_sdp=_SDP["mem_efficient"][1],
                       math_sdp_enabled=_SDP["math"][0], enable_math_sdp=_SDP["math"][1],
                       cudnn_sdp_enabled=_SDP["cudnn"][0], enable_cudnn_sdp=_SDP["cudnn"][1],
                       fp16_bf16_reduction_math_sdp_allowed=lambda: False,
                       matmul=SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
                                              allow_bf16_reduced_precision_reduction=True,
                                              allow_fp16_accumulation=False))


class _Mkldnn:
    """torch.backends.mkldnn: on, as in PyTorch's CPU build. While enabled, a float32 LSTM
    records PyTorch's oneDNN layer nodes (MkldnnRnnLayerBackward0)."""

    @staticmethod
    def is_available() -> bool:
        return True

    @property
    def enabled(self) -> bool:
        return _rnn_ops.MKLDNN.enabled

    @enabled.setter
    def enabled(self, value: bool) -> None:
        _rnn_ops.MKLDNN.enabled = bool(value)


mkldnn = _Mkldnn()
# PyTorch's CPU wheel is built with OpenMP and MKL (torch.__config__.show()), which gradsh's
# float32 results follow (engine/threads.py, vecmath/mkl.py)
openmp = SimpleNamespace(is_available=lambda: True)
mkl = SimpleNamespace(is_available=lambda: True)


class _Mha:
    """torch.backends.mha: the switch of MultiheadAttention's and the Transformer layers' fast
    inference paths (gradsh computes their values on the ordinary path)."""

    def __init__(self) -> None:
        self._enabled = True

    def get_fastpath_enabled(self) -> bool:
        return self._enabled

    def set_fastpath_enabled(self, value: bool) -> None:
        self._enabled = bool(value)


mha = _Mha()
