"""torch.nn: modules, parameters, init and the functional forms."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.nn import functional, init, modules, parameter, utils
from gradsh.torch.nn.modules import *  # noqa: F403  (the layers, listed there)
from gradsh.torch.nn.modules import __all__ as _module_names
from gradsh.torch.nn.parameter import Buffer, Parameter
from gradsh.torch.nn import parallel
from gradsh.torch.nn.modules.lazy import UninitializedParameter
from gradsh.torch.nn.parallel import DataParallel

__getattr__ = module_getattr("torch.nn")

__all__ = ["Buffer", "DataParallel", "Parameter", "UninitializedParameter", "parallel",
           "functional", "init", "modules", "parameter", "utils",
           *_module_names]
