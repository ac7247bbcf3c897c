"""torch.backends: the switches programs read (mps, cudnn); gradsh has neither backend."""

from __future__ import annotations

from types import SimpleNamespace

from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.backends")

mps = SimpleNamespace(is_available=lambda: False, is_built=lambda: False)
cudnn = SimpleNamespace(enabled=True, benchmark=False, deterministic=False,
                        is_available=lambda: False, version=lambda: None,
                        allow_tf32=True)
cuda = SimpleNamespace(is_built=lambda: False,
                       matmul=SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True))
mkldnn = SimpleNamespace(is_available=lambda: False, enabled=False)
openmp = SimpleNamespace(is_available=lambda: False)
