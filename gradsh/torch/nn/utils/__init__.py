"""torch.nn.utils: gradient clipping, parameter/vector conversion, weight_norm (the hook API)
and the parametrizations."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.nn.utils import parametrize, prune, rnn
from gradsh.torch.nn.utils.clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from gradsh.torch.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters
from gradsh.torch.nn.utils import fusion, stateless
from gradsh.torch.nn.utils.fusion import (
    fuse_conv_bn_eval,
    fuse_conv_bn_weights,
    fuse_linear_bn_eval,
    fuse_linear_bn_weights,
)
from gradsh.torch.nn.utils.init import skip_init
from gradsh.torch.nn.utils.spectral_norm import remove_spectral_norm, spectral_norm
from gradsh.torch.nn.utils.weight_norm import remove_weight_norm, weight_norm
from gradsh.torch.nn.utils import parametrizations  # noqa: E402  (needs parametrize first)

__getattr__ = module_getattr("torch.nn.utils")

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_",
           "get_total_norm", "parameters_to_vector", "parametrize", "prune",
           "rnn", "skip_init", "vector_to_parameters", "weight_norm", "remove_weight_norm",
           "spectral_norm", "remove_spectral_norm", "parametrizations", "fusion", "stateless",
           "fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval",
           "fuse_linear_bn_weights"]
