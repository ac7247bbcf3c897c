"""torch.func.replace_all_batch_norm_modules_: batch norms that keep no running statistics,
so that vmap over a model in training mode does not write one example's statistics into
buffers shared by all (PyTorch's torch/_functorch/batch_norm_replacement.py)."""

from __future__ import annotations

from gradsh.torch.nn.modules.batchnorm import _BatchNorm
from gradsh.torch.nn.modules.module import Module

__all__ = ["replace_all_batch_norm_modules_"]


def _without_running_stats(module: Module) -> None:
    if isinstance(module, _BatchNorm) and module.track_running_stats:
        module.running_mean = None
        module.running_var = None
        module.num_batches_tracked = None
        module.track_running_stats = False


def replace_all_batch_norm_modules_(root: Module) -> Module:
    """In place: every batch norm in `root` (root included) gets running_mean, running_var and
    num_batches_tracked None and track_running_stats False; returns root."""
    _without_running_stats(root)
    for module in root.modules():
        _without_running_stats(module)
    return root
