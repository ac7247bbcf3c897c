"""torch, as the Python programs gradsh runs see it: PyTorch's namespace over gradsh's engine.

`import gradsh.torch as torch` gives it to any Python program; `gradsh FILE.py` serves it as
`import torch` (gradsh.pyrun). The layout mirrors PyTorch's own (torch/nn/..., torch/optim/...,
torch/autograd/..., torch/utils/data/...), so a reader who knows where PyTorch keeps a thing
finds gradsh's in the same place. A name PyTorch has and gradsh lacks raises
`gradsh does not implement torch.NAME yet` (an AttributeError).
"""

from __future__ import annotations

from math import e, inf, nan, pi

from gradsh import pytrace as _pytrace
from gradsh.engine import dtypes as _dtypes
from gradsh.engine import exceptions as _exceptions
from gradsh.engine import ops as _ops
from gradsh.engine.dtypes import DType as dtype
from gradsh.engine.pytypes import Device as device
from gradsh.engine.pytypes import Size
from gradsh.engine.tensor import Tensor
from gradsh.torch import _python_api
from gradsh.torch._settings import *  # noqa: F403  (threads, finfo, layouts ...)
from gradsh.torch._settings import __all__ as _setting_names
from gradsh.torch._functions import *  # noqa: F403  (the torch.* functions, listed there)
from gradsh.torch._functions import __all__ as _function_names
from gradsh.torch._nn_functions import *  # noqa: F403  (torch.conv2d and kin, listed there)
from gradsh.torch._nn_functions import __all__ as _nn_function_names
from gradsh.torch._more_functions import *  # noqa: F403  (torch.ceil_ and kin, listed there)
from gradsh.torch._more_functions import __all__ as _more_function_names
from gradsh.torch._composites import *  # noqa: F403  (vander and kin, listed there)
from gradsh.torch._composites import __all__ as _composite_names
from gradsh.torch._more_apis import *  # noqa: F403  (torch.ctc_loss and kin, listed there)
from gradsh.torch._more_apis import __all__ as _more_api_names
from gradsh.torch._linalg_utils import eig, lstsq, matrix_rank, solve, symeig
from gradsh.torch._missing import module_getattr as _module_getattr
from gradsh.torch._random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from gradsh.torch._version import __version__
from gradsh.torch.autograd.anomaly_mode import (
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
)
from gradsh.torch.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)

_python_api.install()
# `import gradsh.torch as torch` in any program: the engine's warnings are Python warnings at
# the program's line, as PyTorch's are (under gradsh run, pyrun installs the same handler)
_exceptions.set_default_warning_handler(_pytrace.warn_from_engine)

# dtypes under every name PyTorch gives them
float32 = float = _dtypes.float32  # noqa: A001
float64 = double = _dtypes.float64
float16 = half = _dtypes.float16
bfloat16 = _dtypes.bfloat16
int64 = long = _dtypes.int64
int32 = int = _dtypes.int32  # noqa: A001
int16 = short = _dtypes.int16
int8 = _dtypes.int8
uint8 = _dtypes.uint8
uint16, uint32, uint64 = _dtypes.uint16, _dtypes.uint32, _dtypes.uint64
bool = _dtypes.bool_  # noqa: A001
complex64 = cfloat = _dtypes.complex64
complex128 = cdouble = _dtypes.complex128
complex32 = chalf = _dtypes.complex32

newaxis = None  # x[:, torch.newaxis], as NumPy's

# the legacy typed constructors: torch.FloatTensor([1, 2]), isinstance(x, torch.LongTensor)
FloatTensor = _python_api.legacy_type(float32)
DoubleTensor = _python_api.legacy_type(float64)
HalfTensor = _python_api.legacy_type(float16)
BFloat16Tensor = _python_api.legacy_type(bfloat16)
LongTensor = _python_api.legacy_type(int64)
IntTensor = _python_api.legacy_type(int32)
ShortTensor = _python_api.legacy_type(int16)
CharTensor = _python_api.legacy_type(int8)
ByteTensor = _python_api.legacy_type(uint8)
BoolTensor = _python_api.legacy_type(bool)

# submodules a program reaches as attributes of torch (`torch.nn.Linear` after `import torch`)
from gradsh.torch import (  # noqa: E402
    accelerator,
    autograd,
    backends,
    cuda,
    functional,
    linalg,
    nn,
    optim,
    random,
    sparse,
    special,
    testing,
    utils,
    version,
)
from gradsh.torch.serialization import load, save  # noqa: E402
from gradsh.torch.storage import UntypedStorage  # noqa: E402

_missing_attribute = _module_getattr("torch")
# Imported on first use (they cost start-up time every program would pay): torch.distributions,
# torch.distributed, torch.amp, torch.cpu, torch.func, torch.fft, torch.jit, torch._dynamo,
# torch.library (and torch.ops, its namespaces), torch.overrides, torch._C, torch.return_types,
# torch.compiler, torch.__config__, torch.xpu, torch.mps and torch.types, as attributes and as
# `import torch.distributions`.
_LAZY_SUBMODULES = frozenset({"amp", "cpu", "distributions", "distributed", "func", "fft",
                              "jit", "_dynamo", "compiler", "__config__", "xpu", "mps",
                              "types", "library", "overrides", "_C", "return_types"})
# torch.autocast and its state queries live in torch.amp, imported on first use
_AUTOCAST_NAMES = frozenset({
    "autocast", "is_autocast_enabled", "get_autocast_dtype", "set_autocast_dtype",
    "is_autocast_cpu_enabled", "get_autocast_cpu_dtype", "clear_autocast_cache",
    "is_autocast_cache_enabled"})
_LAZY_HOMES = {"vmap": "gradsh.torch.func", "compile": "gradsh.torch._dynamo.eval_frame",
               "ops": "gradsh.torch.library"}


def __getattr__(name: str) -> object:
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"gradsh.torch.{name}")
    if name in _AUTOCAST_NAMES:
        from gradsh.torch.amp import autocast_mode

        return getattr(autocast_mode, name)
    if name in _LAZY_HOMES:  # torch.vmap is torch.func.vmap, torch.compile _dynamo's
        import importlib

        return getattr(importlib.import_module(_LAZY_HOMES[name]), name)
    return _missing_attribute(name)


__all__ = [
    "Generator", "Size", "Tensor", "UntypedStorage", "default_generator", "device", "dtype",
    "e", "enable_grad", "inf", "nan", "newaxis", "pi",
    "get_rng_state", "inference_mode", "initial_seed", "is_anomaly_check_nan_enabled",
    "is_inference_mode_enabled",
    "is_anomaly_enabled", "is_grad_enabled", "load",
    "manual_seed", "no_grad", "save", "seed", "set_grad_enabled", "set_rng_state",
    *_function_names, *_nn_function_names, *_setting_names,
    *_more_function_names,
    *_composite_names, *_more_api_names,
]
del _ops, _exceptions, _pytrace

from gradsh.torch._builtins import as_torchs as _as_torchs  # noqa: E402

_as_torchs(globals(), "torch")  # PyTorch's C functions as builtins (torch.relu's repr)
