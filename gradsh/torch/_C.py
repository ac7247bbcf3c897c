"""torch._C: the few names of PyTorch's extension module that Python programs reach for
(subclass dispatch's switches)."""

from __future__ import annotations

from gradsh.engine.ops.torch_function import disabled as DisableTorchFunctionSubclass
from gradsh.engine.ops.torch_function import disabled_torch_function_impl as _disabled_torch_function_impl
from gradsh.torch._missing import module_getattr

__all__ = ["DisableTorchFunctionSubclass", "_disabled_torch_function_impl"]

__getattr__ = module_getattr("torch._C")
