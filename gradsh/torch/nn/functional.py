"""torch.nn.functional: the engine's activations, losses and layers under PyTorch's names."""

from __future__ import annotations

from gradsh.engine import ops as _ops
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.nn.functional")

_FROM_OPS = """
binary_cross_entropy binary_cross_entropy_with_logits cosine_similarity cross_entropy dropout
elu gelu hardsigmoid hardtanh huber_loss kl_div l1_loss leaky_relu linear log_softmax
logsigmoid mish mse_loss nll_loss normalize one_hot pad relu relu6 relu_ sigmoid silu
smooth_l1_loss softmax softmin softplus tanh
""".split()

__all__ = list(_FROM_OPS)

_module = globals()
for _name in _FROM_OPS:
    _module[_name] = getattr(_ops, _name)
del _module, _name
