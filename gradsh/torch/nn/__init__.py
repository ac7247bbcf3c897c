"""torch.nn: modules, parameters, init and the functional forms."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.nn import (common_types, functional, grad, init, modules, parallel,
                             parameter, utils)
from gradsh.torch.nn.modules import *  # noqa: F403  (the layers, listed there)
from gradsh.torch.nn.modules import __all__ as _module_names
from gradsh.torch.nn.parallel import DataParallel
from gradsh.torch.nn.parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

__getattr__ = module_getattr("torch.nn")

__all__ = ["Buffer", "DataParallel", "Parameter", "UninitializedBuffer", "UninitializedParameter",
           "functional", "grad", "init", "modules", "parallel",
           "parameter", "utils",
           *_module_names]
