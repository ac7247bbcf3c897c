"""torch.nn.utils.stateless: functional_call's pre-2.0 home, still imported by older
meta-learning code; deprecated (a FutureWarning) in favour of torch.func.functional_call."""

from __future__ import annotations

import warnings
from typing import Any

from gradsh.torch._functorch.functional_call import functional_call as _functional_call

__all__ = ["functional_call"]


def functional_call(module: Any, parameters_and_buffers: dict[str, Any], args: Any = None,
                    kwargs: dict[str, Any] | None = None, *, tie_weights: bool = True,
                    strict: bool = False) -> Any:
    """torch.func.functional_call, after PyTorch's deprecation warning."""
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 "
                  "and will be removed in a future version of PyTorch. Please use "
                  "`torch.func.functional_call` instead which is a drop-in replacement.",
                  FutureWarning, stacklevel=2)
    return _functional_call(module, parameters_and_buffers, args, kwargs,
                            tie_weights=tie_weights, strict=strict)
